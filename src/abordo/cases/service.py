"""Application service: every command is one transaction (case update + audit event), with
scope and optimistic version checks. Faces (API, CLI) call this; none touches the tables.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from abordo.cases import audit, checklist, commands, transitions, workflow
from abordo.cases.auth import Role, can_write, check_region, scoped_cases
from abordo.cases.commands import Complaint, PreBoarding, State, TransitionRefused
from abordo.cases.db import session_factory
from abordo.cases.models import Attachment, AuditEvent, Case, CaseMember, User, utcnow
from abordo.law.errors import SEP, InputError, Refusal
from abordo.law.text import fold
from abordo.law.validation import Date


class NotFound(Refusal):
    """Unknown case, or a case outside the caller's scope (same answer: no leak)."""


class Forbidden(Refusal):
    """The caller's role may not do this; ``field``: the input that asks for what the role
    may not do (``region``, ``team``), when one does."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class Conflict(Refusal):
    """Stale version: the case changed since the caller read it."""

    def __init__(self, message: str, current_version: int) -> None:
        super().__init__(message)
        self.current_version = current_version


class _Raced(Conflict):
    """Another write landed between this one's read and its update (no version was given:
    the command is applied again to the case as it now is)."""


class VersionRequired(Refusal):
    """A command that would replace recorded values came without the version it was read
    at: it could overwrite, unseen, what someone else recorded meanwhile (HTTP 428)."""

    def __init__(self, command: str, fields: list[str], current_version: int) -> None:
        what = ", ".join(fields)
        super().__init__(f"o comando '{command}' substitui o que já foi registrado ({what}): "
                         f"informe a versão do caso que você leu (If-Match ou version; o caso "
                         f"está na versão {current_version}) ‖ command '{command}' replaces "
                         f"what was recorded ({what}): give the case version you read "
                         f"(If-Match or version; the case is at version {current_version})")
        self.current_version = current_version


class Busy(Refusal):
    """A write without a version lost the race :data:`RETRIES` + 1 times in a row: the case
    is being changed faster than the write can be applied; the caller may try again."""

    def __init__(self) -> None:
        super().__init__(f"o caso foi alterado {RETRIES + 1} vezes seguidas enquanto esta "
                         f"escrita era aplicada; tente de novo ‖ the case changed {RETRIES + 1} "
                         "times in a row while this write was being applied; try again")


RETRIES = 3  # a write without a version is re-applied this many times after losing a race
READ_ONLY = ("a coordenação nacional tem acesso somente de leitura ‖ the national coordination "
             "has read-only access")
RACED = ("o caso foi alterado por outra pessoa; recarregue ‖ the case was changed by someone "
         "else; reload it")


def _stale(expected: int, current: int) -> str:
    if expected > current:  # a version the case never had
        return (f"versão {expected} não confere: o caso está na versão {current} ‖ version "
                f"{expected} does not match: the case is at version {current}")
    return (f"versão {expected} desatualizada: o caso está na versão {current} ‖ version "
            f"{expected} is stale: the case is at version {current}")
_T = TypeVar("_T")
# A change of a stored vessel case: the new vessel case and, when its crew came from a file,
# the file's name and each person's row in it.
VesselCaseChange = Callable[[dict[str, Any]], tuple[dict[str, Any], tuple[str, list[int]] | None]]


class CaseCreate(BaseModel):
    """A new inspection action: its origin, the vessel, who works on it."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    complaint: Complaint
    vessel_docked: bool = Field(description="vessel docked or anchored (art. 6); "
                                            "false = pre-boarding checks required (art. 5)")
    region: str | None = Field(default=None, min_length=1, max_length=32)
    team: list[str] = Field(default_factory=list, max_length=20)
    vessel_name: str | None = Field(default=None, max_length=200)
    vessel_case: dict[str, Any] | None = None
    on: Date | None = None
    pre_boarding: PreBoarding | None = None


def engines_day(data: dict[str, Any], on: dt.date | None, recorded_on: dt.date | None,
                today: dt.date) -> dt.date:
    """The day the engines judge a case's facts on: the one given, else the case's date of
    facts, else the day the act is recorded (``recorded_on``) — never the day it happens to
    be typed in."""
    day = recorded_on or today
    return on or dt.date.fromisoformat(data.get("on") or day.isoformat())


def search_name(data: dict[str, Any], given: str | None) -> str | None:
    """The name a search finds a case by, as its facts now say: the vessel case's, else the
    pre-boarding's (a name corrected there is found by its new spelling), else ``given``
    (the name the case was opened with, or had)."""
    return (((data.get("vessel_case") or {}).get("vessel") or {}).get("name")
            or (data.get("pre_boarding") or {}).get("vessel_name") or given)


def search_key(name: str | None) -> str | None:
    """A vessel's name as the case list searches it, the same on every database: accents,
    case and repeated spaces aside (:func:`abordo.law.text.fold`: ``NOSSA SENHORA DA
    CONCEIÇÃO`` → ``nossa senhora da conceicao``, ``São`` → ``sao``); a letter ``fold`` would
    drop (another script: ``Α``) is kept, case-folded, so that it is still found by itself.
    Migration ``0003`` fills the stored cases with the same rule."""
    if name is None:
        return None
    chars = (fold(ch) or ("" if unicodedata.combining(ch) else ch.casefold())
             for ch in unicodedata.normalize("NFKD", name))
    return " ".join("".join(chars).split())


def validate_vessel_case(data: dict[str, Any], field: str = "vessel_case",
                         on: dt.date | None = None,
                         crew_rows: tuple[str, list[int]] | None = None) -> dict[str, Any]:
    """Validate through the crew loader; the API never reads server files (no crew_file).

    ``on``: the day ``run_engines`` would judge it — the engines are run on it now, so that
    what they could not judge (a rank whose group the regime needs, unknown to the rank
    table) is refused when the case is given, as ``abordo check`` refuses it, not at
    ``run_engines``. ``crew_rows``: the crew came from that file (name, row of each person):
    each problem of a person names the file, the row and the column, not ``crew[i]``."""
    from abordo.crew import resolve_crew
    from abordo.crew.load import parse_inline_vessel_case
    from abordo.vessel_check import check_vessel

    try:
        case = parse_inline_vessel_case(data)
        if crew_rows is not None:
            name, rows = crew_rows
            case = case.model_copy(update={"crew_origin": tuple((name, n, "") for n in rows)})
        resolve_crew(case)  # repeated ids and invalid overrides refused now, not at run_engines
        if case.vessel.flag == "BR" and case.vessel.registry is None:
            # The engines need it (Lei 9.432/1997 art. 4 vs art. 11 §6): asked for now.
            raise InputError("embarcação de bandeira brasileira: informe registry (ordinary "
                             "ou REB)", "vessel.registry",
                             message_en="Brazilian-flag vessel: give registry (ordinary or "
                             "REB)")
        if on is not None:
            check_vessel(case, on, None)  # as run_engines runs them (run_check)
    except InputError as exc:
        # A crew-file row is named by its file, row and column; the rest by its field in
        # the body (``vessel_case.crew[5].rank``).
        found = [e if e.file else e.with_location(prefix=field)
                 for e in (exc.alone(), *exc.details)]
        raise InputError.listing(found) from None
    dumped: dict[str, Any] = case.model_dump(mode="json", exclude_none=True)
    return dumped


def read_crew_upload(content: bytes, filename: str) -> tuple[list[dict[str, Any]], list[int]]:
    """Crew rows of an uploaded CSV/XLSX crew list (the crew loader's own reading: headers
    and aliases, FAL Form 5, personal data dropped), as ``crew`` entries of a vessel case,
    and the row of each in the file. Raises :class:`InputError` naming ``filename``, the
    row and the column of every bad row at once."""
    from abordo.crew.load import read_crew_list

    suffix = Path(filename).suffix.lower()
    if suffix not in (".csv", ".xlsx", ".txt", ".tsv"):
        raise InputError(f"formato de lista de tripulação não suportado: {suffix or '?'} "
                         "(use CSV ou XLSX)", "file",
                         message_en="unsupported crew-list format (use CSV or XLSX)")
    try:
        return read_crew_list(Path(f"crew{suffix}"), filename, content=content)
    except InputError as exc:
        # A problem of the whole file (empty, a header and no person) is the upload's
        # field, ``file``; a row's names its column.
        found = [e if e.field else dataclasses.replace(e, field="file")
                 for e in (exc.alone(), *exc.details)]
        raise InputError.listing(found).with_location(file=filename) from None


class Tampered(Refusal):
    """The stored case is not what its audit trail left: no write goes on top of it."""


def _logged_uploads(s: Session, case_id: int) -> dict[int, str]:
    """The SHA-256 each upload of the case logged, by attachment id."""
    out: dict[int, str] = {}
    for (payload,) in s.execute(select(AuditEvent.payload).where(
            AuditEvent.case_id == case_id, AuditEvent.command == "attach")):
        if isinstance(payload, dict) and "attachment_id" in payload:
            out[int(payload["attachment_id"])] = str(payload.get("sha256"))
    return out


def _tampered(s: Session, case: Case) -> bool:
    """For lists: one look (a race shows as blocked until the next read, never as genuine)."""
    return audit.untouched(s, case) is not None


def check_attachments(s: Session, case_id: int, atts: list[Attachment],
                      content: bool = False, whole: bool = True) -> None:
    """Raise :class:`Tampered` when the case's stored attachments are not the files its
    uploads logged (every upload is logged with its id and SHA-256): one without an upload
    of this case (inserted, or moved from another case), a recorded SHA-256 changed, (with
    ``content``, when a file is served) bytes that no longer hash to it, or (``whole``:
    ``atts`` are all the case's) a logged upload whose file is gone."""
    logged = _logged_uploads(s, case_id)
    for att in atts:
        wrong = logged.get(att.id) != att.sha256 or (
            content and hashlib.sha256(att.content).hexdigest() != att.sha256)
        if wrong:
            raise Tampered(f"anexo {att.id}: o arquivo gravado não é o do registro do envio; "
                           f"caso bloqueado até a verificação (abordo audit verify) ‖ attachment "
                           f"{att.id}: the stored file is not the one its upload logged; case "
                           "locked until verified (abordo audit verify)")
    missing = set(logged) - {a.id for a in atts} if whole else set()
    if missing:
        ids = ", ".join(map(str, sorted(missing)))
        raise Tampered(f"anexo(s) {ids} enviado(s) ao caso {case_id} não está(ão) mais "
                       f"gravado(s); caso bloqueado até a verificação (abordo audit verify) ‖ "
                       f"attachment(s) {ids} uploaded to case {case_id} no longer stored; case "
                       "locked until verified (abordo audit verify)")


def run_check(vessel_case: dict[str, Any], on: dt.date) -> tuple[dict[str, Any], dict[str, Any]]:
    """``check_vessel`` on the stored case; (full JSON, short summary per engine)."""
    from abordo.crew import parse_vessel_case
    from abordo.vessel_check import check_vessel

    try:
        result = check_vessel(parse_vessel_case(vessel_case, None, None), on, None)
    except InputError as exc:  # the fields are those of the case's stored vessel_case
        raise exc.with_location(prefix="vessel_case") from None
    full = result.to_json("pt")
    # The documents list the readings and the unconfirmed figures the findings rest on.
    summary: dict[str, dict[str, Any]] = {d.engine: {"verdict": d.verdict.value, "regime": d.regime,
                          "summary": d.summary.get("pt"),
                          "citations": [c.label for c in d.citations],
                          "interpretations": [{"id": i.id, "text": i.text.pt,
                                               "chosen_by": i.chosen_by}
                                              for i in d.interpretations],
                          "unconfirmed": [{"name": u.name, "value": u.value.pt,
                                           "source": u.source.pt} for u in d.unconfirmed]}
               for d in result.decisions}
    summary[result.quota.engine]["figures"] = quota_figures(result.quota.result)
    return full, summary


def quota_figures(r: dict[str, Any]) -> dict[str, Any]:
    """The quota figures the documents state (crew-quota.md, Output): days of operation,
    the step in force, per group base / required / Brazilians / deficit, the next step."""
    from abordo.quota.rules import group_label

    def fraction(step: dict[str, Any] | None) -> str | None:
        f = (step or {}).get("fraction")
        return f"{f.numerator}/{f.denominator}" if f is not None else None

    def day(v: Any) -> str | None:
        return v.isoformat() if isinstance(v, dt.date) else None

    def label(c: Any) -> str | None:  # each figure is stated with its provision
        return str(c.label) if c is not None else None

    step, nxt, stay = r.get("step"), r.get("next_step"), r.get("stay") or {}
    return {
        "days_of_operation": stay.get("days_of_operation"), "stay_start": day(stay.get("start")),
        "step": {"fraction": fraction(step), "from_day": step.get("from_day"),
                 "since": day(step.get("since")), "citation": label(step.get("citation")),
                 # the norm's words for a "more than N days" step (RN 71/2006), else None
                 "threshold": step["threshold"].pt if step.get("threshold") else None}
        if step else None,
        "groups": [{"group": g["group"], "label": group_label(g["group"]), "base": g["base"],
                    "required": g["required"], "brazilians": g["brazilians"],
                    "deficit": g["deficit"]} for g in r.get("groups", [])],
        "total_deficit": r.get("total_deficit"),
        "next_step": {"fraction": fraction(nxt), "since": day(nxt.get("since")),
                      "required": sum(g["required"] for g in nxt.get("groups", [])),
                      "citation": label(nxt.get("citation"))}
        if nxt else None,
        "positions_citation": label(r.get("positions_citation")),
        # a rule without steps (REB, Lei 9.432 art. 11 § 6º) is stated in its own words
        "rule": {"text": r["rule"]["text"].pt, "citation": label(r["rule"]["citation"])}
        if r.get("rule") else None,
        # Brazilian flag: the master and the chief engineer Brazilian (Lei 9.432 art. 4)
        "positions": [{"position": "comandante" if p["position"] == "master"
                       else "chefe de máquinas", "person": p["person"],
                       "nationality": p["nationality"], "brazilian": p["brazilian"]}
                      for p in r.get("positions", [])],
    }


@dataclass
class Page:
    """A page of cases; ``blocked``: ids of those whose stored row is not what their trail
    left (listed by id only: what the row says is not to be shown)."""

    items: list[Case]
    total: int
    page: int
    per_page: int
    blocked: set[int] = field(default_factory=set)


class CaseService:
    def __init__(self, url: str) -> None:
        self.url = url
        self.sessions: sessionmaker[Session] = session_factory(url)

    @contextmanager
    def tx(self) -> Iterator[Session]:
        """One transaction: commit on success, roll back on any error (no partial write)."""
        with self.sessions() as s, s.begin():
            yield s

    # ------------------------------------------------------------------ reads
    def get(self, s: Session, user: User, case_id: int) -> Case:
        """The case, if in the user's scope (else :class:`NotFound`) and as its audit trail
        left it (else :class:`Tampered`: a raw edit — of its facts, its team, its columns,
        its events, or their removal — is neither shown nor written on; the scope itself may
        be the forged part)."""
        why = None
        for _ in range(3):  # a write committed between the row and trail reads: read again
            case = s.execute(scoped_cases(user).where(Case.id == case_id)).scalar_one_or_none()
            if case is None:  # (the scope itself is read again too)
                raise NotFound(f"caso {case_id} não encontrado ‖ case {case_id} not found")
            why = audit.untouched(s, case)
            if not why:
                return case
            s.expire(case)
        pt, en = audit.until_verified(why or "", "caso bloqueado", "case locked")
        raise Tampered(f"{pt} ‖ {en}")

    def list_cases(self, s: Session, user: User, *, state: str | None = None,
             region: str | None = None, q: str | None = None, page: int = 1,
             per_page: int = 20) -> Page:
        query = scoped_cases(user)
        if state:
            query = query.where(Case.state == state)
        if region:
            query = query.where(Case.region == region.strip().upper())  # stored as "RJ"
        if q and (key := search_key(q)):
            # A folded column, not the database's lower(): SQLite's folds ASCII only.
            query = query.where(Case.vessel_search.contains(key, autoescape=True))
        total = s.execute(select(func.count()).select_from(query.subquery())).scalar_one()
        rows = s.execute(query.order_by(Case.id.desc()).offset((page - 1) * per_page)
                         .limit(per_page)).scalars().all()
        return Page(list(rows), int(total), page, per_page,
                    {c.id for c in rows if _tampered(s, c)})

    def signatories(self, s: Session, emails: list[str]) -> dict[str, str]:
        """How documents sign each of ``emails``: the inspector's name, as a signature line
        carries it, or the e-mail when no name is on record (:class:`Tampered` when a row
        was changed outside the system: a forged name is not signed)."""
        names: dict[str, str] = {}
        for u in s.execute(select(User).where(User.email.in_(sorted(set(emails))))).scalars():
            why = audit.user_untouched(s, u)
            if why is not None:
                pt, en = audit.until_verified(why, "documento não emitido",
                                              "document not issued")
                raise Tampered(f"{pt} ‖ {en}")
            names[u.email] = u.name or u.email
        return {e: names.get(e, e) for e in emails}

    def team(self, s: Session, case_id: int) -> list[str]:
        rows = s.execute(select(User.email).join(CaseMember, CaseMember.user_id == User.id)
                         .where(CaseMember.case_id == case_id).order_by(User.email))
        return [r[0] for r in rows]

    def events(self, s: Session, case_id: int) -> list[AuditEvent]:
        return list(s.execute(select(AuditEvent).where(AuditEvent.case_id == case_id)
                              .order_by(AuditEvent.seq)).scalars())

    def attachments(self, s: Session, case_id: int) -> list[Attachment]:
        """The case's attachments, each checked against the SHA-256 its upload logged."""
        atts = list(s.execute(select(Attachment).where(Attachment.case_id == case_id)
                              .order_by(Attachment.id)).scalars())
        check_attachments(s, case_id, atts)
        return atts

    # ------------------------------------------------------------------ writes
    def _team_users(self, s: Session, emails: list[str], region: str, field: str
                    ) -> list[User]:
        users: list[User] = []
        seen: set[str] = set()
        for i, email in enumerate(emails):
            if email.strip().lower() in seen:  # a name given twice is one member
                continue
            seen.add(email.strip().lower())
            u = s.execute(select(User).where(User.email == email.strip().lower())
                          ).scalar_one_or_none()
            # a retired user (abordo users disable) no longer signs acts: not designated
            if u is None or u.role != Role.INSPECTOR.value or u.region != region \
                    or not u.active:
                raise InputError(f"inspetor desconhecido (ou desativado) nesta região: {email}",
                                 f"{field}[{i}]", message_en=f"no active inspector of this "
                                 f"region: {email}")
            # nor one whose row (its region, say) was changed outside the system
            why = audit.user_untouched(s, u)
            if why is not None:
                pt, en = audit.until_verified(why, "não designado", "not designated")
                raise InputError(pt, f"{field}[{i}]", message_en=en)
            users.append(u)
        return users

    def create(self, user: User, body: CaseCreate, today: dt.date) -> int:
        if not can_write(user):
            raise Forbidden("a coordenação nacional não abre casos ‖ the national "
                            "coordination does not open cases")
        region = check_region(body.region) or user.region
        if region is None:
            raise InputError("região obrigatória", "region", message_en="region required")
        if Role(user.role) in (Role.INSPECTOR, Role.REGIONAL_CHIEF) and region != user.region:
            raise Forbidden("só é possível abrir casos na própria região ‖ cases can only "
                            "be opened in one's own region", "region")
        # (no complaint recorded yet: only "not in the future" applies to its own date)
        workflow.case_day({}, body.complaint.date, today, "complaint.date",
                          ("da denúncia", "complaint"))
        workflow.not_future(body.on, today)
        if body.team and Role(user.role) not in (Role.REGIONAL_CHIEF, Role.ADMIN):
            # Art. 4, sole paragraph: the team is designated by the regional coordination.
            raise Forbidden("somente a chefia regional designa a equipe (team) ‖ only the "
                            "regional chief assigns the team (team)", "team")
        data: dict[str, Any] = {
            "complaint": body.complaint.model_dump(mode="json"),
            "vessel_docked": body.vessel_docked,
            # The date the facts are judged on: given, or else the day the engines are run
            # for the inspection (its ``recorded_on``) — not the day the case is typed in.
            **({"on": body.on.isoformat()} if body.on else {}),
            "findings": [], "notifications": [], "escalations": [], "autos": [],
            "physical_checks": [], "checklist": [],
            "pre_boarding": body.pre_boarding.model_dump(mode="json", exclude_none=True)
            if body.pre_boarding else {},
        }
        commands.check_pre_boarding(data["pre_boarding"], "pre_boarding")
        procedure = checklist.procedure_for(body.complaint.date)
        if body.vessel_case is not None:
            data["vessel_case"] = validate_vessel_case(body.vessel_case,
                                                       on=engines_day(data, None, None, today))
            # as set_vessel_case keeps it: the engines must judge this list (open step)
            data["vessel_case_sha256"] = audit.data_digest(data["vessel_case"])
        vessel_name = search_name(data, body.vessel_name)
        with self.tx() as s:
            members = self._team_users(s, body.team, region, "team")
            ids = {user.id} if user.role == Role.INSPECTOR.value else set()
            ids |= {m.id for m in members}
            # In the facts before the row is written (a later in-place change of the same
            # dict would not be seen as a change, and never stored).
            data["team"] = sorted({m.email for m in members}
                                  | ({user.email} if user.id in ids else set()))
            case = Case(state=State.RECEIVED.value, region=region, owner_id=user.id,
                        vessel_name=vessel_name, vessel_search=search_key(vessel_name),
                        procedure_version=procedure.version, version=1, data=data)
            s.add(case)
            s.flush()
            for uid in sorted(ids):
                s.add(CaseMember(case_id=case.id, user_id=uid))
            audit.append(s, actor=user.email, command="create_case", case_id=case.id,
                         reason=None, state_before=None, state_after=case.state,
                         case_data=case.data, case=case, record=audit.case_record(case),
                         payload={"region": region, "complaint": data["complaint"],
                                  "vessel_docked": body.vessel_docked,
                                  "vessel_name": vessel_name, "team": data["team"],
                                  "on": data.get("on"),
                                  "procedure_version": procedure.version,
                                  "workflow_procedure": checklist.PROCEDURE,
                                  "procedure_not_modelled": procedure.warning is not None})
            return case.id

    def command(self, user: User, case_id: int, cmd: BaseModel, *,
                expected_version: int | None, today: dt.date,
                any_version: bool = False, based_on: int | None = None,
                validated: dict[str, Any] | None = None) -> Case:
        """Apply one workflow command in one transaction.

        With ``expected_version`` a concurrent change is a :class:`Conflict` (the caller
        decides on what it saw); without it, a write that loses a race is applied again to
        the case as it now is (its guards judged anew), up to :data:`RETRIES` times, and one
        that would replace a recorded value is :class:`VersionRequired` — unless
        ``any_version`` (``If-Match: *``: the caller replaces whatever is recorded).
        ``based_on``: the version the command was built from by the service's caller (a crew
        upload merged with the vessel facts it read) — written only on it, like an expected
        version, yet the caller still named none. ``validated``: a ``set_vessel_case``'s
        vessel case as :func:`validate_vessel_case` returned it on that version's data (the
        upload checks it first, to name the file's rows): not judged a second time."""
        self.require_writer(user)
        if based_on is not None and expected_version not in (None, based_on):
            # the caller named another version than the one the command was built from
            raise Conflict(_stale(expected_version, based_on), based_on)
        pin = based_on if based_on is not None else expected_version
        if validated is not None and based_on is None:
            raise ValueError("a vessel case validated on a case's data is written on its version")
        return self._retrying(case_id, pin, lambda: self._command(
            user, case_id, cmd, pin, today, any_version or expected_version is not None,
            validated))

    def amend_vessel_case(self, user: User, case_id: int, change: VesselCaseChange, *,
                          reason: str | None, expected_version: int | None, today: dt.date,
                          any_version: bool = False, field: str = "vessel_case",
                          recorded_on: dt.date | None = None) -> Case:
        """``set_vessel_case`` with the stored vessel case changed by ``change`` — the crew
        read from a file, one person's documents: ``change(vessel_case)`` returns the new
        vessel case and, when its crew came from a file, that file's name and the row of
        each person (problems are then named by file, row and column).

        In order: a read-only role is refused (403); the command must be allowed now, state
        and guards (409), and the case must hold vessel data to change (409); then
        ``change`` runs (its :class:`InputError` is a 422) and the result is judged as
        ``set_vessel_case`` judges a body (``field``: what the 409 of a case without vessel
        data names — the upload's ``file``). It is written only on the version read here (a
        change in between: :class:`Conflict`); a value someone recorded is replaced only
        under ``expected_version`` or ``any_version`` (:class:`VersionRequired`)."""
        self.require_writer(user)  # a read-only role is told so before any other check
        with self.sessions() as s:
            read = self.get(s, user, case_id)
            current, read_version = read.data.get("vessel_case"), read.version
        workflow.admissible(read.state, read.data, commands.SetVesselCase(
            command="set_vessel_case", vessel_case={}))
        if not current:
            raise TransitionRefused(
                "informe antes os dados da embarcação e da operação (set_vessel_case) ‖ give "
                "the vessel's and the operation's data first (set_vessel_case)", field)
        if recorded_on is not None:  # a date no state could accept: before the file is read
            workflow.case_day(read.data, recorded_on, today, "recorded_on",
                              ("do registro", "the record's"))
        vessel_case, crew_rows = change(current)
        # set_vessel_case's own check, on the day run_engines would judge it: every person
        # the engines could not judge is refused now, at once.
        validated = validate_vessel_case(vessel_case, on=engines_day(
            read.data, None, recorded_on, today), crew_rows=crew_rows)
        cmd = commands.SetVesselCase(command="set_vessel_case", reason=reason,
                                     vessel_case=vessel_case, version=expected_version,
                                     recorded_on=recorded_on)
        # Written only on the version the change was built from (never over facts changed
        # in between); a recorded crew is replaced only by a caller who names the version
        # they read (or If-Match: *), as set_vessel_case's.
        return self.command(user, case_id, cmd, expected_version=expected_version,
                            today=today, any_version=any_version, based_on=read_version,
                            validated=validated)

    @staticmethod
    def require_writer(user: User) -> None:
        """:class:`Forbidden` for a role that only reads (the national coordination)."""
        if not can_write(user):
            raise Forbidden(READ_ONLY)

    def _retrying(self, case_id: int, expected_version: int | None,
                  write: Callable[[], _T]) -> _T:
        """Run ``write``; when it loses a race (:class:`_Raced`), a write with a version is
        a :class:`Conflict` naming the version the case has by now, one without is run
        again, up to :data:`RETRIES` times, then :class:`Busy`."""
        for attempt in range(RETRIES + 1):
            try:
                return write()
            except _Raced as exc:
                if expected_version is not None:
                    raise Conflict(f"{exc.message}{SEP}{exc.message_en}",
                                   self._version(case_id)) from None
                if attempt == RETRIES:
                    raise Busy() from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _version(self, case_id: int) -> int:
        with self.sessions() as s:
            return int(s.execute(select(Case.version).where(Case.id == case_id)).scalar_one())

    def _command(self, user: User, case_id: int, cmd: BaseModel,
                 expected_version: int | None, today: dt.date, version_named: bool,
                 validated: dict[str, Any] | None) -> Case:
        with self.tx() as s:
            case = self.get(s, user, case_id)  # in scope and untouched
            if expected_version is not None and expected_version != case.version:
                raise Conflict(_stale(expected_version, case.version), case.version)
            name = str(getattr(cmd, "command"))  # noqa: B009
            t = transitions.TRANSITIONS[name]
            if t.roles and user.role not in t.roles:
                raise Forbidden(t.roles_refusal, "command")
            # Who the team is when the act is recorded: its documents are signed by them,
            # whoever joins later.
            # The state and the guards first: a command not allowed now is a 409 whatever
            # its data (a future ``on``, a vessel case the engines refuse), and the engines
            # are not run for it.
            workflow.admissible(case.state, case.data, cmd)
            extra: dict[str, Any] = {"team_now": self.team(s, case.id),
                                     "region": case.region}  # its state's holidays
            if isinstance(cmd, commands.RunEngines | commands.SetVesselCase):
                workflow.not_future(cmd.on, today)  # before the engines run
            if isinstance(cmd, commands.SetVesselCase):
                # Judged now on the day run_engines would judge it: what the engines could
                # not judge is refused here, with the fields of this body.
                extra["vessel_case"] = validated if validated is not None else \
                    validate_vessel_case(cmd.vessel_case, on=engines_day(
                        case.data, cmd.on, cmd.recorded_on, today))
            if isinstance(cmd, commands.RunEngines) and case.data.get("vessel_case"):
                on = engines_day(case.data, cmd.on, cmd.recorded_on, today)
                extra["check"], extra["summary"] = run_check(case.data["vessel_case"], on)
            members: list[User] = []
            if isinstance(cmd, commands.AssignTeam):
                members = self._team_users(s, cmd.team, case.region, "team")
                owner = s.get(User, case.owner_id)
                keep = [owner] if owner is not None and owner.role == Role.INSPECTOR.value \
                    else []  # the inspector who opened the case stays in it (as in the view)
                extra["team"] = sorted({m.email for m in [*members, *keep]})
            if not version_named and (changed := workflow.overwritten(case.data, cmd, extra)):
                raise VersionRequired(name, changed, case.version)
            out = workflow.apply(case.state, case.data, cmd, today=today, actor=user.email,
                                 extra=extra)
            vessel_name = search_name(out.data, case.vessel_name)
            res = s.execute(
                update(Case).where(Case.id == case.id, Case.version == case.version)
                .values(state=out.state.value, data=out.data, version=case.version + 1,
                        vessel_name=vessel_name, vessel_search=search_key(vessel_name),
                        updated_at=utcnow())
                .execution_options(synchronize_session=False))
            if res.rowcount != 1:  # type: ignore[attr-defined]
                raise _Raced(RACED, case.version)
            if isinstance(cmd, commands.AssignTeam):
                for m in s.execute(select(CaseMember).where(CaseMember.case_id == case.id)
                                   ).scalars().all():
                    if m.user_id != case.owner_id:
                        s.delete(m)
                s.flush()
                for m2 in members:
                    if m2.id != case.owner_id:
                        s.add(CaseMember(case_id=case.id, user_id=m2.id))
            audit.append(s, actor=user.email, command=name, case_id=case.id,
                         reason=getattr(cmd, "reason", None), state_before=case.state,
                         state_after=out.state.value, payload=out.payload,
                         case_data=out.data, case=case,
                         record=audit.record_digest(out.state.value, vessel_name,
                                                    case.procedure_version))
            s.expire_all()
            return self.get(s, user, case_id)

    def attach(self, user: User, case_id: int, *, filename: str, media_type: str,
               content: bytes, description: str | None, expected_version: int | None) -> int:
        """Store an attachment with its SHA-256; a race is handled as in :meth:`command`."""
        self.require_writer(user)
        return self._retrying(case_id, expected_version, lambda: self._attach(
            user, case_id, filename, media_type, content, description, expected_version))

    def _attach(self, user: User, case_id: int, filename: str, media_type: str,
                content: bytes, description: str | None, expected_version: int | None) -> int:
        digest = hashlib.sha256(content).hexdigest()
        with self.tx() as s:
            case = self.get(s, user, case_id)  # in scope and untouched
            if case.state in {State.CLOSED.value, State.CLOSED_UNFOUNDED.value}:
                raise TransitionRefused("caso encerrado: não aceita anexos ‖ case closed: "
                                        "no attachments accepted", "file")
            if expected_version is not None and expected_version != case.version:
                raise Conflict(_stale(expected_version, case.version), case.version)
            res = s.execute(update(Case).where(Case.id == case.id, Case.version == case.version)
                            .values(version=case.version + 1, updated_at=utcnow())
                            .execution_options(synchronize_session=False))
            if res.rowcount != 1:  # type: ignore[attr-defined]
                raise _Raced(RACED, case.version)
            att = Attachment(case_id=case.id, filename=filename[:255], media_type=media_type,
                             size=len(content), sha256=digest, description=description,
                             content=content, uploaded_by=user.id)
            s.add(att)
            s.flush()
            audit.append(s, actor=user.email, command="attach", case_id=case.id,
                         reason=description, state_before=case.state, state_after=case.state,
                         payload={"attachment_id": att.id, "filename": att.filename,
                                  "sha256": digest, "size": len(content)})
            return att.id

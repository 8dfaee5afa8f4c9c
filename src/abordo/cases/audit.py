"""The append-only audit log: every command is one event, hash-chained.

``hash = sha256(prev_hash + canonical_json(event))`` where the event is its sequence number,
case, actor, UTC timestamp, command, reason, states before and after, and payload. Any later
edit of a stored event (or removal of one in the middle) breaks the chain; :func:`verify`
names every broken event. Each case event carries the digest of the case's facts after
it, so that an edit of the cases table itself is caught too; every read and write of a case
checks its own events and those digests first (:func:`untouched`). Each event about a user
carries the digest of the user's row likewise, checked whenever access is granted on it
(:func:`user_untouched`), and each event about an API token or browser session (issued,
revoked) the digest of the token's row, checked on every request it signs
(:func:`token_untouched`). The chain head lives in one row locked on append, so the chain
stays linear with several workers on one PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from abordo.cases.models import (
    ApiToken,
    Attachment,
    AuditEvent,
    AuditHead,
    Case,
    CaseMember,
    User,
    utcnow,
)
from abordo.law.errors import bilingual

GENESIS = "0" * 64
_Row = TypeVar("_Row", Case, Attachment, User, ApiToken)


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


def _at(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds")


def event_body(ev: AuditEvent) -> dict[str, Any]:
    return {
        "seq": ev.seq, "case_id": ev.case_id, "actor": ev.actor, "at": _at(ev.at),
        "command": ev.command, "reason": ev.reason, "state_before": ev.state_before,
        "state_after": ev.state_after, "payload": ev.payload,
    }


def event_hash(prev_hash: str, body: dict[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical_json(body)).encode("utf-8")).hexdigest()


def data_digest(data: Any) -> str:
    """SHA-256 of a case's facts in canonical JSON: logged with each event, so that a raw
    edit of the stored facts is caught by :func:`verify`."""
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def scope_digest(session: Session, case: Case) -> str:
    """SHA-256 of who may see and act on a case: its region, owner and team members."""
    members = sorted(m for (m,) in session.execute(
        select(CaseMember.user_id).where(CaseMember.case_id == case.id)))
    return data_digest({"region": case.region, "owner_id": case.owner_id,
                        "members": members})


def record_digest(state: str, vessel_name: str | None, procedure_version: str) -> str:
    """SHA-256 of a case's own columns besides its facts: state, vessel name (searched and
    listed) and the procedure version it follows."""
    return data_digest({"state": state, "vessel_name": vessel_name,
                        "procedure_version": procedure_version})


def case_record(case: Case) -> str:
    return record_digest(case.state, case.vessel_name, case.procedure_version)


#: the events about one user (``case_id`` None, the user in ``payload.user_id`` and the
#: ``user_id`` column): its creation, a new password, its retirement, its row bound to the
#: trail by migration 0004
USER_COMMANDS = frozenset({"add_user", "set_password", "deactivate_user", "bind_user"})
#: the events about one API token or browser session (``case_id`` None, the token in
#: ``payload.token_id`` and the ``token_id`` column): its issue, its revocation
TOKEN_COMMANDS = frozenset({"issue_token", "revoke_token"})


class UserRow(Protocol):
    """What :func:`user_digest` reads of a user (a :class:`User`, or a migration's row)."""

    @property
    def id(self) -> int: ...
    @property
    def email(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def role(self) -> str: ...
    @property
    def region(self) -> str | None: ...
    @property
    def active(self) -> bool: ...
    @property
    def password_hash(self) -> str | None: ...


def user_digest(user: UserRow) -> str:
    """SHA-256 of what a user row grants or signs: e-mail (the identity the trail and the
    teams name), name (the documents are signed by it), role and region (the scope), active,
    password hash (who may log in as them). Logged by every event about the user, so that a
    raw edit of the row is caught by :func:`verify` and refused by the service."""
    return data_digest({"id": user.id, "email": user.email, "name": user.name,
                        "role": user.role, "region": user.region, "active": bool(user.active),
                        "password_hash": user.password_hash})


def token_row_digest(token: ApiToken) -> str:
    """SHA-256 of what a token row grants: whose it is, the digest of its secret, its label
    and whether it is revoked. Logged by the token's events, so that a token inserted,
    re-enabled or handed to another user by a raw edit is refused and reported."""
    return data_digest({"id": token.id, "user_id": token.user_id,
                        "token_hash": token.token_hash, "label": token.label,
                        "revoked": bool(token.revoked)})


_DIGESTS = ("data_sha256", "scope_sha256", "record_sha256")


def case_events(session: Session, case_id: int) -> list[AuditEvent]:
    """The case's events, in chain order."""
    return list(session.execute(select(AuditEvent).where(AuditEvent.case_id == case_id)
                                .order_by(AuditEvent.seq)).scalars())


def logged_digests(events: list[AuditEvent]) -> dict[str, str]:
    """The digests the last of a case's ``events`` left (a key missing: never logged —
    cases stored before that digest was kept)."""
    found: dict[str, str] = {}
    for ev in reversed(events):
        payload = ev.payload if isinstance(ev.payload, dict) else {}
        if ev.command == "attach":
            continue
        for key in _DIGESTS:
            if key not in found and payload.get(key):
                found[key] = str(payload[key])
        if len(found) == len(_DIGESTS):
            break
    return found


_CHUNK = 500  # seqs per IN (…) list: far below every backend's limit on parameters


def chain_problem(session: Session, events: list[AuditEvent]) -> str | None:
    """Why ``events`` (in chain order) are not sound links of the chain, as far as they
    and their neighbours show (``"pt ‖ en"``), or None: each hashes to its stored hash;
    the event before each (the genesis before the first) hashes soundly to the hash it
    names; the event after each names its hash and hashes soundly, or it is the chain's
    head. An edit of one of them — content, or content and hash — or its removal shows
    here; an edit of the chain farther off is for :func:`verify`, which walks it whole.
    Costs one query for the neighbours (per :data:`_CHUNK` events) and one for the head."""
    # The head first: an event appended after it was read is then found as a neighbour.
    head = session.execute(select(AuditHead.seq, AuditHead.hash)
                           .where(AuditHead.id == 1)).one_or_none()
    by_seq = {ev.seq: ev for ev in events}
    wanted = sorted({s + d for s in by_seq for d in (-1, 1)} - set(by_seq) - {0})
    for i in range(0, len(wanted), _CHUNK):
        for ev in session.execute(select(AuditEvent).where(
                AuditEvent.seq.in_(wanted[i:i + _CHUNK]))).scalars():
            by_seq[ev.seq] = ev
    sound: dict[int, bool] = {}

    def hashes(ev: AuditEvent) -> bool:
        if ev.seq not in sound:
            sound[ev.seq] = event_hash(ev.prev_hash, event_body(ev)) == ev.hash
        return sound[ev.seq]

    for ev in events:
        if not hashes(ev):
            return (f"evento seq={ev.seq}: o conteúdo não confere com o hash ‖ event "
                    f"seq={ev.seq}: its content does not match its hash")
        before = by_seq.get(ev.seq - 1)
        if not (ev.prev_hash == GENESIS if ev.seq == 1 else
                before is not None and before.hash == ev.prev_hash and hashes(before)):
            return (f"evento seq={ev.seq}: o evento anterior da cadeia falta ou não confere ‖ "
                    f"event seq={ev.seq}: the chain's event before it is missing or does not "
                    "match")
        after = by_seq.get(ev.seq + 1)
        if not (head is not None and head.seq == ev.seq and head.hash == ev.hash
                if after is None else after.prev_hash == ev.hash and hashes(after)):
            return (f"evento seq={ev.seq}: o evento seguinte da cadeia falta ou não confere "
                    f"(eventos removidos?) ‖ event seq={ev.seq}: the chain's event after it is "
                    "missing or does not match (events removed?)")
    return None


def untouched(session: Session, case: Case) -> str | None:
    """Why the stored case is not the one its trail left (a change made outside the
    system; ``"pt ‖ en"``), or None. Checked before every read and write of a case, so such
    a change is neither shown as genuine nor carried into the next event: the case has
    events (one at least, its ``create_case``), they are sound links of the chain
    (:func:`chain_problem`), and its state, facts, scope and columns are those the last of
    them left. Costs O(events of the case)."""
    events = case_events(session, case.id)
    if not events:
        return (f"caso {case.id}: nenhum evento na trilha de auditoria (removidos?) ‖ case "
                f"{case.id}: no event in the audit trail (removed?)")
    broken = chain_problem(session, events)
    if broken is not None:
        pt, en = bilingual(broken)
        return f"caso {case.id}: {pt} ‖ case {case.id}: {en}"
    state = next((ev.state_after for ev in reversed(events) if ev.state_after is not None),
                 None)
    if state is not None and state != case.state:
        return (f"caso {case.id}: estado '{case.state}' não é o do último evento da trilha "
                f"('{state}') ‖ case {case.id}: state '{case.state}' is not the one of the "
                f"trail's last event ('{state}')")
    logged = logged_digests(events)
    if logged.get("data_sha256", data_digest(case.data)) != data_digest(case.data):
        return (f"caso {case.id}: os fatos gravados não são os do último evento da trilha"
                f" ‖ case {case.id}: the stored facts are not those of the trail's last event")
    scope = logged.get("scope_sha256")
    if scope is not None and scope != scope_digest(session, case):
        return (f"caso {case.id}: região, responsável ou equipe gravados não são os do último "
                f"evento da trilha ‖ case {case.id}: the stored region, owner or team are not "
                "those of the trail's last event")
    if logged.get("record_sha256", case_record(case)) != case_record(case):
        return (f"caso {case.id}: estado, nome da embarcação ou versão do procedimento "
                f"gravados não são os do último evento da trilha ‖ case {case.id}: the stored "
                "state, vessel name or procedure version are not those of the trail's last "
                "event")
    return None


def until_verified(why: str, withheld_pt: str, withheld_en: str) -> tuple[str, str]:
    """(pt, en) of a refusal on what the trail does not vouch for: ``why`` (``"pt ‖ en"``,
    as :func:`untouched` / :func:`user_untouched` give it), then what is withheld ("caso
    bloqueado" / "case locked") until ``abordo audit verify`` has been run."""
    pt, en = bilingual(why)
    return (f"{pt}: {withheld_pt} até a verificação (abordo audit verify)",
            f"{en}: {withheld_en} until verified (abordo audit verify)")


@dataclass(frozen=True)
class _Bound:
    """How rows of one kind (users, tokens) are bound to the trail: the events about one
    (``commands``), the payload key naming it and its unhashed lookup column, the payload
    key of its digest; the wording of what can be wrong (pt, en); and whether the events of
    the kind are few (users): then every later one whose column does not name the row is
    read, else (tokens: two per login) only those whose column was cleared.)"""

    commands: frozenset[str]
    key: str
    column: Any
    digest_key: str
    unlogged: tuple[str, str]
    changed: tuple[str, str]
    few: bool


_USERS = _Bound(
    USER_COMMANDS, "user_id", AuditEvent.user_id, "user_sha256",
    ("nenhum evento da trilha registra este usuário como está gravado (criado ou alterado "
     "fora do sistema?)", "no event of the trail records this user as stored (created or "
     "changed outside the system?)"),
    ("e-mail, nome, papel, região, situação ou senha gravados não são os do último evento "
     "da trilha", "the stored e-mail, name, role, region, status or password are not those "
     "of the trail's last event"), few=True)
_TOKENS = _Bound(
    TOKEN_COMMANDS, "token_id", AuditEvent.token_id, "token_sha256",
    ("nenhum evento da trilha registra este token (emitido fora do sistema?)",
     "no event of the trail records this token (issued outside the system?)"),
    ("o token gravado (usuário, situação) não é o do último evento da trilha",
     "the stored token (user, status) is not that of the trail's last event"), few=False)


def _untouched(session: Session, bound: _Bound, row_id: int, digest: str,
               who: tuple[str, str]) -> str | None:
    """Why a bound row is not the one its trail left (``"pt ‖ en"``, prefixed by ``who``),
    or None: its last event (found by the lookup column, one indexed query) is about this
    row, is a sound link of the chain (:func:`chain_problem`), no later event about it lost
    its index (hiding, say, a deactivation or a revocation), and it logged ``digest``.
    (The later events read here are those whose column does not name the row — or, for a
    kind whose events are many, those whose column was cleared: one pointed at another row
    instead is for :func:`verify`, as is an event removed from the middle of the chain — a
    removal anywhere would otherwise block every row.)"""
    pt_who, en_who = who

    def why(pt: str, en: str) -> str:
        return f"{pt_who}: {pt} ‖ {en_who}: {en}"

    ev = session.execute(select(AuditEvent).where(bound.column == row_id)
                         .order_by(AuditEvent.seq.desc()).limit(1)).scalar_one_or_none()
    payload = ev.payload if ev is not None and isinstance(ev.payload, dict) else {}
    if ev is None or bound.digest_key not in payload:
        return why(*bound.unlogged)
    if ev.case_id is not None or ev.command not in bound.commands \
            or payload.get(bound.key) != row_id:
        return why(f"o evento seq={ev.seq} indexado para ele é de outro",
                   f"event seq={ev.seq}, indexed for it, is another's")
    broken = chain_problem(session, [ev])
    if broken is not None:
        return why(*bilingual(broken))
    for later_seq, later in session.execute(
            select(AuditEvent.seq, AuditEvent.payload).where(
                AuditEvent.seq > ev.seq, AuditEvent.case_id.is_(None),
                AuditEvent.command.in_(bound.commands),
                or_(bound.column.is_(None), bound.column != row_id) if bound.few
                else bound.column.is_(None))):
        if isinstance(later, dict) and later.get(bound.key) == row_id:
            return why(f"evento seq={later_seq} sobre ele não indexado, depois do evento "
                       f"seq={ev.seq} (a trilha foi alterada fora do sistema?)",
                       f"event seq={later_seq} about it not indexed, after event "
                       f"seq={ev.seq} (the trail changed outside the system?)")
    if payload[bound.digest_key] != digest:
        return why(*bound.changed)
    return None


def user_untouched(session: Session, user: User) -> str | None:
    """Why the stored user row is not the one its trail left (``"pt ‖ en"``), or None
    (:func:`_untouched`: its last event, found by the ``user_id`` column, logged the row's
    :func:`user_digest`). A user no event logs (inserted by hand; or stored before
    migration 0004 with a row the trail disagreed with) is not untouched either. Checked
    whenever access is granted on the row, so a raw edit never widens it."""
    return _untouched(session, _USERS, user.id, user_digest(user),
                      (f"usuário {user.id} ({user.email})", f"user {user.id} ({user.email})"))


def token_untouched(session: Session, token: ApiToken) -> str | None:
    """Why the stored token row is not the one its trail left (``"pt ‖ en"``), or None
    (:func:`_untouched`: its last event, found by the ``token_id`` column, logged the row's
    :func:`token_row_digest`). A token no event logs (inserted by hand, or stored before
    migration 0005, which revoked those) is not untouched either. Checked on every request
    the token signs."""
    return _untouched(session, _TOKENS, token.id, token_row_digest(token),
                      (f"token {token.id} do usuário {token.user_id}",
                       f"token {token.id} of user {token.user_id}"))


def _locked_head(session: Session) -> AuditHead:
    """The chain head, locked until the transaction ends; created by the first event. Two
    first events at once (several workers on a new PostgreSQL database) both find no head:
    the one whose insert loses goes on from the head the other stored, instead of failing on
    its key. (Every caller has written before appending, so on SQLite — one writer at a
    time — the savepoint is inside the transaction already begun.)"""
    def locked() -> AuditHead | None:
        return session.execute(select(AuditHead).where(AuditHead.id == 1)
                               .with_for_update()).scalar_one_or_none()

    head = locked()
    if head is not None:
        return head
    try:
        with session.begin_nested():
            head = AuditHead(id=1, seq=0, hash=GENESIS)
            session.add(head)
        return head
    except IntegrityError:
        stored = locked()
        assert stored is not None  # the insert lost to a committed head
        return stored


def append(session: Session, *, actor: str, command: str, case_id: int | None,
           reason: str | None, state_before: str | None, state_after: str | None,
           payload: dict[str, Any], case_data: Any = None,
           case: Case | None = None, record: str | None = None,
           user: User | None = None, token: ApiToken | None = None) -> AuditEvent:
    """Append one event in the caller's transaction (locks the chain head); ``case_data``:
    the case's facts after the command (their digest goes in the payload); ``case``: the
    case, whose region, owner and team are digested too (after the command's changes);
    ``record``: :func:`record_digest` of its columns after the command; ``user``: the user
    the event is about (its id and :func:`user_digest` after the change are logged);
    ``token``: the API token or browser session it is about (its id and
    :func:`token_row_digest` after the change)."""
    if case_data is not None:
        payload = {**payload, "data_sha256": data_digest(case_data)}
    if record is not None:
        payload = {**payload, "record_sha256": record}
    if case is not None:
        session.flush()
        payload = {**payload, "scope_sha256": scope_digest(session, case)}
    if user is not None:
        session.flush()
        payload = {**payload, "user_id": user.id, "user_sha256": user_digest(user)}
    if token is not None:
        session.flush()
        payload = {**payload, "token_id": token.id, "token_sha256": token_row_digest(token)}
    head = _locked_head(session)
    payload = json.loads(canonical_json(payload))
    ev = AuditEvent(seq=head.seq + 1, case_id=case_id, actor=actor,
                    at=utcnow(), command=command,
                    reason=reason, state_before=state_before, state_after=state_after,
                    payload=payload, prev_hash=head.hash, hash="",
                    user_id=user.id if user is not None else None,
                    token_id=token.id if token is not None else None)
    ev.hash = event_hash(head.hash, event_body(ev))
    session.add(ev)
    head.seq = ev.seq
    head.hash = ev.hash
    session.flush()
    return ev


@dataclass(frozen=True)
class Problem:
    """One thing :func:`verify` found wrong (reason in Portuguese); ``seq``/``event_id``:
    the event it is about, when it is one event's."""

    reason: str
    seq: int | None = None
    event_id: int | None = None
    case_id: int | None = None

    def __str__(self) -> str:
        if self.seq is None:
            return self.reason
        case = f", caso {self.case_id}" if self.case_id is not None else ""
        return f"evento seq={self.seq} (id={self.event_id}{case}): {self.reason}"


@dataclass(frozen=True)
class VerifyResult:
    """``problems``: the first ``limit`` found (``omitted``: how many more); ``broken_seq``,
    ``broken_id`` and ``reason`` are the first one's."""

    ok: bool
    checked: int
    broken_seq: int | None = None
    broken_id: int | None = None
    reason: str | None = None
    problems: tuple[Problem, ...] = ()
    omitted: int = 0


_BATCH = 500  # rows read at a time: the walk holds per-case digests, never the whole log


class Verification:
    """The whole check, as a stream of :class:`Problem` (every one found, in the order
    found: the chain's events, its head, the cases, the users, the attachments; memory
    bounded by the number of cases, users and attachments, never by the events): iterate
    it, then read ``checked`` (the events walked)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.checked = 0

    def __iter__(self) -> Iterator[Problem]:
        s = self.session
        prev = GENESIS
        expected_seq = 1
        seen: set[int] = set()  # the cases with events
        last_state: dict[int, str] = {}
        last_data: dict[int, str] = {}
        last_scope: dict[int, str] = {}
        last_record: dict[int, str] = {}
        uploads: dict[int, tuple[int, str]] = {}  # attachment id → (case, SHA-256) logged
        last_user: dict[int, str | None] = {}  # user id → digest its last event logged
        last_token: dict[int, str | None] = {}  # token id → digest its last event logged
        for ev in s.execute(select(AuditEvent).order_by(AuditEvent.seq)
                            .execution_options(yield_per=_BATCH)).scalars():
            self.checked += 1
            if ev.seq != expected_seq:  # (the link to the previous one is then broken too)
                yield Problem(f"lacuna na sequência: esperado {expected_seq}", ev.seq, ev.id,
                              ev.case_id)
            elif ev.prev_hash != prev:
                yield Problem("o hash anterior não confere", ev.seq, ev.id, ev.case_id)
            if event_hash(ev.prev_hash, event_body(ev)) != ev.hash:
                yield Problem("o conteúdo não confere com o hash", ev.seq, ev.id, ev.case_id)
            # Go on from this event as stored: each broken event is reported once.
            prev, expected_seq = ev.hash, ev.seq + 1
            payload = ev.payload if isinstance(ev.payload, dict) else {}
            subject = payload.get("user_id") \
                if ev.case_id is None and ev.command in USER_COMMANDS else None
            if ev.user_id != subject:  # the lookup key the service finds a user's event by
                yield Problem("o usuário indexado (coluna user_id) não é o do conteúdo do "
                              "evento", ev.seq, ev.id, ev.case_id)
            if isinstance(subject, int):  # (None: its last event does not record its row)
                last_user[subject] = payload.get("user_sha256")
            token = payload.get("token_id") \
                if ev.case_id is None and ev.command in TOKEN_COMMANDS else None
            if ev.token_id != token:  # the lookup key the service finds a token's event by
                yield Problem("o token indexado (coluna token_id) não é o do conteúdo do "
                              "evento", ev.seq, ev.id, ev.case_id)
            if isinstance(token, int):
                last_token[token] = payload.get("token_sha256")
            if ev.case_id is None:
                continue
            seen.add(ev.case_id)
            if ev.state_after is not None:
                last_state[ev.case_id] = ev.state_after
            if isinstance(ev.payload, dict):
                for key, last in (("data_sha256", last_data), ("scope_sha256", last_scope),
                                  ("record_sha256", last_record)):
                    if key in ev.payload:
                        last[ev.case_id] = str(ev.payload[key])
                att = ev.payload.get("attachment_id") if ev.command == "attach" else None
                if isinstance(att, int) or (isinstance(att, str) and att.isdigit()):
                    # (a forged payload's id that is no number is the broken hash's problem)
                    uploads[int(att)] = (ev.case_id, str(ev.payload.get("sha256")))
        head = s.get(AuditHead, 1)
        if (head is None and self.checked) or (
                head is not None and (head.seq != expected_seq - 1 or head.hash != prev)):
            yield Problem("o topo da cadeia não confere com o último evento (eventos "
                          "removidos?)")
        stored: set[int] = set()
        for case in self._rows(Case, Case.id):
            stored.add(case.id)
            if case.id not in seen:
                yield Problem(f"caso {case.id}: nenhum evento na trilha de auditoria "
                              "(removidos? um caso é sempre aberto por um evento create_case)")
            else:
                yield from self._case(case, last_state, last_data, last_scope, last_record)
            s.expunge(case)
        for case_id in sorted(seen - stored):
            yield Problem(f"caso {case_id}: tem eventos na trilha, mas não está mais gravado "
                          "(remoção fora do sistema?)")
        users: set[int] = set()
        for user in self._rows(User, User.id):
            users.add(user.id)
            digest = last_user.get(user.id)
            if digest is None:
                yield Problem(f"usuário {user.id} ({user.email}): nenhum evento da trilha "
                              "registra este usuário como está gravado (criado fora do "
                              "sistema, ou já divergente da trilha na migração 0004?)")
            elif digest != user_digest(user):
                yield Problem(f"usuário {user.id} ({user.email}): e-mail, nome, papel, região, "
                              "situação ou senha gravados não são os do último evento da "
                              "trilha (alteração fora do sistema?)")
            s.expunge(user)
        for user_id in sorted(set(last_user) - users):
            yield Problem(f"usuário {user_id}: tem eventos na trilha, mas não está mais "
                          "gravado (remoção fora do sistema?)")
        yield from self._tokens(last_token)
        kept: set[int] = set()
        for att in self._rows(Attachment, Attachment.id):
            kept.add(att.id)
            if uploads.get(att.id) != (att.case_id, att.sha256) \
                    or hashlib.sha256(att.content).hexdigest() != att.sha256:
                yield Problem(f"anexo {att.id} do caso {att.case_id}: o arquivo gravado não é "
                              "o do registro do envio (alteração fora do sistema?)")
            s.expunge(att)  # its bytes are not kept
        for gone in sorted(set(uploads) - kept):
            yield Problem(f"anexo {gone} do caso {uploads[gone][0]}: enviado, mas não está "
                          "mais gravado (remoção fora do sistema?)")

    def _tokens(self, last_token: dict[int, str | None]) -> Iterator[Problem]:
        """Each token row against the digest its last event logged. A revoked token that
        no event logs grants nothing (migration 0005 revoked those issued before tokens
        were bound): not a problem."""
        tokens: set[int] = set()
        for tok in self._rows(ApiToken, ApiToken.id):
            tokens.add(tok.id)
            digest = last_token.get(tok.id)
            who = f"token {tok.id} do usuário {tok.user_id}"
            if digest is None and not tok.revoked:
                yield Problem(f"{who}: nenhum evento da trilha registra este token (emitido "
                              "fora do sistema?)")
            elif digest is not None and digest != token_row_digest(tok):
                yield Problem(f"{who}: o token gravado (usuário, situação) não é o do último "
                              "evento da trilha (alteração fora do sistema?)")
            self.session.expunge(tok)
        for gone in sorted(set(last_token) - tokens):
            yield Problem(f"token {gone}: tem eventos na trilha, mas não está mais gravado "
                          "(remoção fora do sistema?)")

    def _rows(self, model: type[_Row], key: Any) -> Iterator[_Row]:
        """Every row of ``model``, :data:`_BATCH` at a time by ``key`` (no cursor held open
        while each is checked)."""
        after: int | None = None
        while True:
            q = select(model).order_by(key).limit(_BATCH)
            rows = list(self.session.execute(
                q if after is None else q.where(key > after)).scalars())
            yield from rows
            if len(rows) < _BATCH:
                return
            after = rows[-1].id

    def _case(self, case: Case, last_state: dict[int, str], last_data: dict[int, str],
              last_scope: dict[int, str], last_record: dict[int, str]) -> Iterator[Problem]:
        logged = last_state.get(case.id)
        if logged is not None and logged != case.state:
            yield Problem(f"caso {case.id}: estado '{case.state}' não é o do último evento da "
                          f"trilha ('{logged}')")
        digest = last_data.get(case.id)
        if digest is not None and digest != data_digest(case.data):
            yield Problem(f"caso {case.id}: os fatos gravados não são os do último evento da "
                          "trilha (alteração fora do sistema?)")
        scope = last_scope.get(case.id)
        if scope is not None and scope != scope_digest(self.session, case):
            yield Problem(f"caso {case.id}: região, responsável ou equipe gravados não são os "
                          "do último evento da trilha (alteração fora do sistema?)")
        record = last_record.get(case.id)
        if record is not None and record != case_record(case):
            yield Problem(f"caso {case.id}: nome da embarcação ou versão do procedimento "
                          "gravados não são os do último evento da trilha (alteração fora do "
                          "sistema?)")


def verify(session: Session, limit: int = 100) -> VerifyResult:
    """Walk the chain in sequence order, then check that each case's current state is the
    one its last event left (a raw edit of the cases table is caught too), each user row
    the one its last event logged, and each attachment the file its upload logged. Every
    problem is found (the first ``limit`` kept, the others counted); reasons are in
    Portuguese. See :class:`Verification` to stream them."""
    walk = Verification(session)
    found: list[Problem] = []
    more = 0
    for problem in walk:
        if len(found) < limit:
            found.append(problem)
        else:
            more += 1
    if not found:
        return VerifyResult(True, walk.checked)
    first = found[0]
    return VerifyResult(False, walk.checked, first.seq, first.event_id, first.reason,
                        tuple(found), more)

"""The inspection-case workflow (inspection.md, IN SIT 70/2007): applying a command.

A command (:mod:`abordo.cases.commands`) is validated (pydantic), checked against
:data:`~abordo.cases.transitions.TRANSITIONS` — the states it may be given in, the state it
leads to, and its guards — and then applied to the case facts, producing the new state and
facts. Each command's effect is its handler in :data:`HANDLERS` (:mod:`abordo.cases.facts`,
:mod:`abordo.cases.acts`, :mod:`abordo.cases.autos`), keyed by the command's name as the
transition table is; :func:`apply` keeps the steps every command shares. Nothing here
touches the database or the clock: the service passes ``today`` and stores the result
together with its audit event.
"""

from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from abordo.cases import acts, autos, facts
from abordo.cases.act import Act, Handler, case_day, not_future, recorded_on
from abordo.cases.audit import data_digest
from abordo.cases.checklist import PROCEDURE, cite
from abordo.cases.commands import (
    SAFETY_AREAS,
    STATE_LABELS,
    AddFinding,
    AssignTeam,
    Close,
    CloseUnfounded,
    DraftAuto,
    Notify,
    RecordDocument,
    RecordMediation,
    RecordNotRemedied,
    RecordPhysicalCheck,
    RecordPreBoarding,
    RecordRemedied,
    RecordRepatriationReport,
    ReferFederalPolice,
    RequestDetention,
    RequestDocuments,
    RunEngines,
    SetVesselCase,
    State,
    TransitionRefused,
    VoidAuto,
    WriteReport,
)
from abordo.cases.steps import national, repatriation_notice
from abordo.cases.transitions import TRANSITIONS
from abordo.crew.model import Operation

# (case_day and not_future: the service checks a case's dates with the workflow's own)
__all__ = ["HANDLERS", "VESSEL_CASE_DEFAULTS", "Outcome", "admissible", "apply", "case_day",
           "not_future", "overwritten"]


def overwritten(data: dict[str, Any], cmd: BaseModel, extra: dict[str, Any]) -> list[str]:
    """The recorded values ``cmd`` would replace with different ones (field paths): a
    write that changes what someone recorded must name the version it was read at (spec:
    concurrent edits never silently overwrite each other). Adding a fact not yet recorded
    overwrites nothing. ``extra``: as :func:`apply` gets it (validated vessel case, team)."""
    match cmd:
        case RecordPreBoarding():
            old = data.get("pre_boarding") or {}
            new = cmd.facts.model_dump(mode="json", exclude_none=True)
            return [f"facts.{k}" for k, v in new.items() if old.get(k) not in (None, v)]
        case SetVesselCase():
            # A part recorded with another value — the first crew list into a vessel case
            # given without one, or an operation where the defaults stood, replaces nothing.
            old, new = data.get("vessel_case") or {}, extra["vessel_case"]
            return [f"vessel_case.{k}" for k in sorted(old)
                    if old[k] not in (None, [], {}, VESSEL_CASE_DEFAULTS.get(k))
                    and data_digest(old[k]) != data_digest(new.get(k))] + _new_on(data, cmd)
        case RunEngines():
            return _new_on(data, cmd)
        case RecordDocument():
            recorded = {i["item"]: i["status"] for i in data.get("checklist", [])}
            return [f"checklist[{item}].status" for item in cmd.targets
                    if recorded.get(item, "pending") not in ("pending", cmd.status)]
        case AssignTeam():
            # adding members overwrites nothing; taking one out changes the team recorded
            return ["team"] if set(data.get("team") or []) - set(extra["team"]) else []
    return []


# What a vessel case holds where its input gave nothing (the crew model's defaults, as the
# service stores them): not a value someone recorded.
VESSEL_CASE_DEFAULTS: dict[str, Any] = {
    "operation": Operation().model_dump(mode="json", exclude_none=True),
    "keep_personal_data": False}


def _new_on(data: dict[str, Any], cmd: SetVesselCase | RunEngines) -> list[str]:
    """The date of facts recorded, replaced by another (it decides every engine verdict)."""
    return ["on"] if cmd.on and data.get("on") not in (None, cmd.on.isoformat()) else []


@dataclass
class Outcome:
    state: State
    data: dict[str, Any]
    payload: dict[str, Any]


def admissible(state: str, data: dict[str, Any], cmd: BaseModel) -> None:
    """:class:`TransitionRefused` (409) when the table does not allow ``cmd`` now — its
    state, then its guards. Checked before anything of the command's own data (a date, a
    vessel case): a command not allowed now is a 409 whatever it carries."""
    name = str(getattr(cmd, "command"))  # noqa: B009
    t = TRANSITIONS[name]
    current = State(state)
    if current not in t.sources:
        where = ", ".join(sorted(s.value for s in t.sources))
        # Portuguese says the states as the case page shows them; the ids follow in brackets.
        where_pt = ", ".join(f"{STATE_LABELS[s.value]} ({s.value})"
                             for s in sorted(t.sources, key=lambda s: s.value))
        raise TransitionRefused(
            f"comando '{name}' não permitido no estado {STATE_LABELS[current.value]} "
            f"({current.value}); permitido em: {where_pt} ‖ command '{name}' not allowed in "
            f"state '{current.value}' (allowed in: {where})", "command")
    d = {**data, "_state": current}  # (guards only read)
    for guard in t.guards:
        msg = guard(d)
        if msg:
            raise TransitionRefused(msg, "command")


# Each command's effect on the case data, keyed by its name as TRANSITIONS is (one handler
# per command of the table: tests/cases_service/test_workflow.py).
HANDLERS: dict[str, Handler] = {
    "start_pre_boarding": facts.start_pre_boarding,
    "record_pre_boarding": facts.record_pre_boarding,
    "start_assessment": facts.start_assessment,
    "close_unfounded": facts.close_unfounded,
    "request_documents": facts.request_documents,
    "record_document": facts.record_document,
    "record_physical_check": facts.record_physical_check,
    "set_vessel_case": facts.set_vessel_case,
    "run_engines": facts.run_engines,
    "add_finding": facts.add_finding,
    "notify": acts.notify,
    "record_remedied": acts.record_remedied,
    "record_not_remedied": acts.record_not_remedied,
    "request_detention": acts.request_detention,
    "refer_federal_police": acts.refer_federal_police,
    "record_mediation": acts.record_mediation,
    "record_repatriation_report": acts.record_repatriation_report,
    "draft_auto": autos.draft_auto,
    "void_auto": autos.void_auto,
    "write_report": acts.write_report,
    "close": acts.close,
    "assign_team": acts.assign_team,
}


def apply(state: str, data: dict[str, Any], cmd: BaseModel, *, today: dt.date,
          actor: str, extra: dict[str, Any] | None = None) -> Outcome:
    """Check ``cmd`` against the table (:func:`admissible`) and apply it: on a copy of the
    data, dated (``recorded_on``, else ``today``) not before the acts it answers
    (:func:`_in_order`), its handler (:data:`HANDLERS`) makes its effect and the payload
    logged, with the act's legal ground (:func:`_logged_basis`). ``extra`` carries what the
    service computed outside the domain (validated vessel case, engine JSON, team)."""
    admissible(state, data, cmd)
    name = str(getattr(cmd, "command"))  # noqa: B009
    t = TRANSITIONS[name]
    current = State(state)
    d = copy.deepcopy(data)
    d["_state"] = current
    payload = cmd.model_dump(mode="json", exclude={"version", "reason"}, exclude_none=True)
    when = recorded_on(d, cmd, today).isoformat()
    _in_order(d, cmd, when)
    payload = HANDLERS[name](d, cmd, Act(when=when, today=today, actor=actor,
                                         extra=extra or {}, payload=payload))
    d.pop("_state", None)
    if t.basis:  # the act's legal ground, logged with it (the trail's "why" in law)
        payload = {**payload, "basis": _logged_basis(d, cmd, t.basis)["label"]}
    target = t.target or current
    if isinstance(cmd, RecordPhysicalCheck) and not cmd.ok and current == State.DOCUMENTS_REQUESTED:
        target = State.FINDINGS  # an irregular check is a finding (art. 8), to be notified
    return Outcome(target, d, payload)


def _logged_basis(d: dict[str, Any], cmd: BaseModel, provision: str) -> dict[str, Any]:
    """The act's legal ground: the table's ``provision``, or the act's own
    where it records one (a notification's, a physical check's, a document's, an auto's);
    on a national vessel, art. 2 for a provision of the foreign-flag procedure."""
    basis = cite(provision)
    if isinstance(cmd, Notify):
        basis = d["notifications"][-1]["basis"]
    elif isinstance(cmd, RecordPhysicalCheck):
        basis = d["physical_checks"][-1]["basis"]
    elif isinstance(cmd, RecordDocument):
        # each item's own (e.g. art. 13 for the CAA and the visas); several: all of them
        bases = {i["item"]: i.get("basis") for i in d.get("checklist", [])}
        labels = list(dict.fromkeys(
            (bases.get(x) or basis)["label"] for x in cmd.targets))
        if len(labels) == 1:
            basis = bases.get(cmd.targets[0]) or basis
        else:
            basis = {**basis, "label": "; ".join(labels)}
    elif isinstance(cmd, AddFinding) and cmd.area not in (None, *SAFETY_AREAS):
        basis = cite("art. 9º")  # an irregularity confirmed, not a physical check
    elif isinstance(cmd, DraftAuto):
        basis = d["autos"][-1]["basis"]  # art. 14, or the ementário's (art. 2 / CLT 628)
    elif isinstance(cmd, RecordRepatriationReport):
        basis = d["repatriation_report"]["basis"]  # Decreto 6.968/2009, art. 3º or 5º, II
    if national(d) and basis.get("norm_id") == PROCEDURE \
            and str(basis.get("provision", "")).split(",")[0] in (*SECTION_II, "art. 13"):
        # arts. 4–11 are the foreign-flag procedure (art. 3), art. 13 the foreign vessel's
        # crew and documents: a national vessel's inspection rests on art. 2
        basis = cite("art. 2º")
    return basis


# The articles of Seção II (foreign-flag vessels, art. 3).
SECTION_II = {"art. 4º", "art. 5º", "art. 6º", "art. 7º", "art. 8º", "art. 9º", "art. 10",
              "art. 11"}


def _in_order(d: dict[str, Any], cmd: BaseModel, when: str) -> None:
    """An act is not dated before the acts it answers: a notification's outcome after its
    issue, an art. 10 step after the outcome, an auto after the findings it fines, its void
    after its draft, the report after every act and fact it reports (:func:`reported`), the
    closing after the report and every act recorded since."""
    notes = d.get("notifications", [])
    last = notes[-1] if notes else {}
    nr = d.get("not_remedied") or {}
    # (day, what it is in Portuguese — "anterior à …" —, in English)
    earlier: list[tuple[str | None, str, str]] = []
    started = (d.get("assessment") or {}).get("started_on")
    start = (started, "ao início da apuração (art. 6º)", "the assessment's start (art. 6)")
    checks = [(c.get("recorded_on"), "à verificação física registrada",
               "the physical check recorded") for c in d.get("physical_checks", [])]
    engines = ((d.get("engine_run") or {}).get("ran_on"), "à execução dos motores",
               "the engines' run")
    notified = [(n.get(k), f"à notificação {n['id']}", f"notification {n['id']}")
                for n in notes for k in ("issued_on", "outcome_on")]
    requested = (d.get("documents_requested_on"), "à solicitação dos documentos",
                 "the documents' request")
    if isinstance(cmd, RequestDocuments | CloseUnfounded | RecordPhysicalCheck | AddFinding):
        earlier = [start]
    elif isinstance(cmd, SetVesselCase):
        # a crew list given records the checklist's crew list received (as record_document
        # would): not before it was asked
        earlier = [start] + ([requested] if _records_crew_list(d, cmd) else [])
    elif isinstance(cmd, RecordDocument):
        earlier = [start, requested]
    elif isinstance(cmd, RunEngines):
        # the run judges the vessel case recorded (its crew list): not before it was given
        # (the run's own date judged, ``on``, may be earlier: the facts of the complaint)
        earlier = [start, requested, (d.get("vessel_case_recorded_on"),
                                      "ao registro dos dados da embarcação e da lista de "
                                      "tripulantes (set_vessel_case)",
                                      "the record of the vessel case (set_vessel_case)")]
    elif isinstance(cmd, Notify):
        issued = cmd.issued_on.isoformat() if cmd.issued_on else when
        # the field the body gave the day in (without issued_on, it is recorded_on's)
        _not_before(issued, [start, requested, *notified, engines, *checks],
                    "issued_on" if cmd.issued_on else "recorded_on")
        return
    elif isinstance(cmd, RecordRemedied | RecordNotRemedied):
        earlier = [(last.get("issued_on"), f"à emissão da notificação {last.get('id', '')}",
                    f"the issue of notification {last.get('id', '')}")]
    elif isinstance(cmd, RequestDetention | ReferFederalPolice | RecordMediation):
        earlier = [(nr.get("recorded_on"), "ao registro do não atendimento",
                    "the record of non-compliance")]
    elif isinstance(cmd, RecordRepatriationReport):
        # the report answers the refusal: the unmet notification that raised the repatriation
        first = repatriation_notice(d)
        earlier = [(first.get("outcome_on"), f"ao não atendimento da notificação "
                    f"{first['id']} (recusa da repatriação)", f"the non-compliance with "
                    f"notification {first['id']} (the repatriation refused)")] if first else [
            (nr.get("recorded_on"), "ao registro do não atendimento",
             "the record of non-compliance")]
    elif isinstance(cmd, DraftAuto):
        # the engines' findings, and an ementário auto's own (an inspector's, dated since
        # this check existed): an auto answers the findings it fines
        found = {f["id"]: f.get("found_on") for f in d.get("findings", [])}
        earlier = [engines] + [(found.get(i), f"à constatação {i}", f"finding {i}")
                               for i in dict.fromkeys(cmd.findings) if i in found]
    elif isinstance(cmd, VoidAuto):
        # the void answers the draft it sets aside (an unknown auto is refused in apply)
        earlier = [(a.get("drafted_on"), f"ao auto {a['id']}", f"auto {a['id']}")
                   for a in d.get("autos", []) if a.get("id") == cmd.auto]
    elif isinstance(cmd, WriteReport):
        earlier = reported(d)
    elif isinstance(cmd, Close):
        # after the report, and after every act recorded since (an auto voided…)
        earlier = [((d.get("report") or {}).get("written_on"), "ao relatório", "the report"),
                   *reported(d)]
    _not_before(when, earlier, "recorded_on")


def reported(d: dict[str, Any]) -> list[tuple[str | None, str, str]]:
    """Every dated act and fact the relatório circunstanciado reports — the assessment's
    start, the documents' request and each document's record, the vessel case given, the
    physical checks, the engines' run, each finding, each notification and its outcome,
    the art. 10 steps, each auto and its void, the report to the Secretariat on a
    repatriation (Decreto 6.968/2009) —, as (day, "anterior …" in Portuguese, in English):
    the report is not dated before any of them (arts. 11 and 15: it reports what was done)."""
    out: list[tuple[str | None, str, str]] = [
        ((d.get("assessment") or {}).get("started_on"), "ao início da apuração (art. 6º)",
         "the assessment's start (art. 6)"),
        (d.get("documents_requested_on"), "à solicitação dos documentos",
         "the documents' request"),
        (d.get("vessel_case_recorded_on"), "ao registro dos dados da embarcação e da lista "
         "de tripulantes (set_vessel_case)", "the record of the vessel case (set_vessel_case)")]
    out += [(i.get("recorded_on"), f"ao registro do documento {_item_words(i)}",
             f"the record of document {i['item']}")
            for i in d.get("checklist", []) if i.get("status") != "pending"]
    out += [(c.get("recorded_on"), "à verificação física registrada",
             "the physical check recorded") for c in d.get("physical_checks", [])]
    out.append(((d.get("engine_run") or {}).get("ran_on"), "à execução dos motores",
                "the engines' run"))
    out += [(f.get("found_on"), f"à constatação {f['id']}", f"finding {f['id']}")
            for f in d.get("findings", [])]
    out += [(n.get("issued_on"), f"à notificação {n['id']}", f"notification {n['id']}")
            for n in d.get("notifications", [])]
    out += [(n.get("outcome_on"), f"ao resultado da notificação {n['id']}",
             f"the outcome of notification {n['id']}") for n in d.get("notifications", [])]
    out += [(e.get("on"), f"à providência do art. 10 ({e.get('kind')})",
             f"the art. 10 step ({e.get('kind')})") for e in d.get("escalations", [])]
    out += [(a.get("drafted_on"), f"ao auto {a['id']}", f"auto {a['id']}")
            for a in d.get("autos", [])]
    out += [((a.get("voided") or {}).get("on"), f"à anulação do auto {a['id']}",
             f"the void of auto {a['id']}") for a in d.get("autos", [])]
    out.append(((d.get("repatriation_report") or {}).get("sent_on"),
                "ao relatório à Secretaria sobre a repatriação (Decreto nº 6.968/2009)",
                "the report to the Secretariat on the repatriation (Decreto 6.968/2009)"))
    return out


def _records_crew_list(d: dict[str, Any], cmd: SetVesselCase) -> bool:
    """Whether ``cmd`` records the checklist's crew list received (a crew given while the
    item is pending: :func:`abordo.cases.facts.set_vessel_case`)."""
    return bool(cmd.vessel_case.get("crew")) and any(
        i["item"] == "crew_list" and i["status"] == "pending" for i in d.get("checklist", []))


def _item_words(item: dict[str, Any]) -> str:
    """A checklist item as a refusal names it: its label and, in brackets, its id
    (``Lista de tripulantes [crew_list]``), as the open steps name pending documents."""
    label = item.get("label")
    return f"{label} [{item['item']}]" if label and label != item["item"] else str(item["item"])


def _not_before(when: str, earlier: list[tuple[str | None, str, str]], field: str) -> None:
    """:class:`TransitionRefused` naming ``field`` when ``when`` precedes a day of
    ``earlier`` — naming the latest such act, the first day the record may bear."""
    late = [(str(day)[:10], pt, en) for day, pt, en in earlier
            if day and when < str(day)[:10]]
    if late:
        day, pt, en = max(late, key=lambda x: x[0])  # (ties: the first listed)
        w, e = dt.date.fromisoformat(when), dt.date.fromisoformat(day)
        raise TransitionRefused(
            f"data do registro ({w:%d/%m/%Y}) anterior {pt} ({e:%d/%m/%Y}) ‖ record date "
            f"({w.isoformat()}) before {en} ({e.isoformat()})", field)

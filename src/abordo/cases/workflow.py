"""The inspection-case workflow (inspection.md, IN SIT 70/2007): applying a command.

A command (:mod:`abordo.cases.commands`) is validated (pydantic), checked against
:data:`~abordo.cases.transitions.TRANSITIONS` — the states it may be given in, the state it
leads to, and its guards — and then applied to the case facts, producing the new state and
facts. Nothing here touches the database or the clock: the service passes ``today`` and
stores the result together with its audit event.
"""

from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from abordo.cases.audit import data_digest
from abordo.cases.checklist import (
    PROCEDURE,
    cite,
    document_checklist,
    facts_date,
    manual_item,
    merge_checklist,
)
from abordo.cases.commands import (
    AREA_LABELS,
    SAFETY_AREAS,
    STATE_LABELS,
    AddFinding,
    AssignTeam,
    Close,
    CloseUnfounded,
    CommandInvalid,
    DraftAuto,
    Notify,
    RecordDocument,
    RecordMediation,
    RecordNotRemedied,
    RecordPhysicalCheck,
    RecordPreBoarding,
    RecordRemedied,
    ReferFederalPolice,
    RequestDetention,
    RequestDocuments,
    RunEngines,
    SetVesselCase,
    StartAssessment,
    State,
    TransitionRefused,
    VoidAuto,
    WriteReport,
    check_pre_boarding,
    document_ids,
)
from abordo.cases.steps import (
    ART14_KINDS,
    DUTIES,
    LEI_9784,
    active_autos,
    art14_autos,
    awaiting,
    brazilian_company,
    cnig_violations,
    documents_held_unlisted,
    due_day,
    engine_autos,
    national,
    unnotified,
    violations,
)
from abordo.cases.transitions import TRANSITIONS, g_engines_current
from abordo.crew.model import Operation, nationality_codes
from abordo.law.calendar import add_business_days, is_business_day
from abordo.law.errors import InputError
from abordo.law.text import fold


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


# --------------------------------------------------------------------------- effects

def _finding_id(data: dict[str, Any]) -> str:
    data["_seq"] = int(data.get("_seq", 0)) + 1
    return f"F{data['_seq']}"


def engine_findings(check_json: dict[str, Any], data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each violation of each engine decision becomes a finding with its citation — except
    an immigration one about a person whose documents the crew list does not give while the
    checklist records one of them received: the engine judged a list without the document
    the inspector holds, so it is a warning to complete the list, never a violation to fine."""
    unseen = documents_held_unlisted(data)
    out = []
    for engine in ("quota", "immigration", "checklist"):
        dec = check_json.get(engine)
        if not dec:
            continue
        for f in dec.get("findings", []):
            if f.get("severity") != "violation":
                continue
            held = engine == "immigration" and f.get("subject") in unseen
            text = str(f.get("text") or "") + (
                " (documento da pessoa registrado como recebido na lista de verificação, mas "
                "não informado na lista de tripulantes: informe tipo e validade em "
                "set_vessel_case para que seja verificado)" if held else "")
            out.append({"id": _finding_id(data), "source": f"engine:{engine}",
                        "engine_finding": f.get("id"), "text": text,
                        "citation": f.get("citation"),
                        "severity": "warning" if held else "violation",
                        "subject": f.get("subject")})
    return out


def _checklist_now(d: dict[str, Any], on: dt.date) -> tuple[list[dict[str, Any]],
                                                            dict[str, Any]]:
    return document_checklist(d.get("vessel_case"), on,
                              (d.get("pre_boarding") or {}).get("flag"))


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


def apply(state: str, data: dict[str, Any], cmd: BaseModel, *, today: dt.date,
          actor: str, extra: dict[str, Any] | None = None) -> Outcome:
    """Check ``cmd`` against the table (:func:`admissible`) and apply it. ``extra`` carries
    what the service computed outside the domain (validated vessel case, engine JSON,
    team)."""
    admissible(state, data, cmd)
    name = str(getattr(cmd, "command"))  # noqa: B009
    t = TRANSITIONS[name]
    current = State(state)
    d = copy.deepcopy(data)
    d["_state"] = current
    extra = extra or {}
    payload = cmd.model_dump(mode="json", exclude={"version", "reason"}, exclude_none=True)
    when = _recorded_on(d, cmd, today).isoformat()
    _in_order(d, cmd, when)
    match cmd:
        case RecordPreBoarding():
            merged = {**d.get("pre_boarding", {}),
                      **cmd.facts.model_dump(mode="json", exclude_none=True)}
            check_pre_boarding(merged, "facts")
            _same_section(d, {**d, "pre_boarding": merged}, "facts.flag")
            d["pre_boarding"] = merged
        case StartAssessment():
            d["assessment"] = {"started_on": when}
        case CloseUnfounded():
            _consulted(d, cmd.consulted)
            d["assessment"] = {**d.get("assessment", {}), "justified": False,
                               "consulted": cmd.consulted, "reason": cmd.reason}
            # Art. 11: "ao fim de qualquer ação fiscal" a relatório circunstanciado — an
            # unfounded complaint's too: what was assessed, with whom, and why it ends.
            d["report"] = {"written_on": when, "written_by": actor,
                           "summary": f"Denúncia considerada improcedente após a apuração "
                                      f"(art. 6º): {cmd.reason}",
                           "forward_international": False, "recipients": REPORT_RECIPIENTS,
                           "basis": [cite("art. 11"), cite("art. 6º")],
                           "team": extra.get("team_now")}  # who signs it, as write_report
            d["closed_on"] = when
        case RequestDocuments():
            _consulted(d, cmd.consulted)
            d["assessment"] = {**d.get("assessment", {}), "justified": True,
                               "consulted": cmd.consulted, "reason": cmd.reason}
            items, basis = _checklist_now(d, facts_date(d, today))
            ids = {i["item"] for i in items}
            items += [manual_item(x) for x in cmd.extra_items if x not in ids]
            d["checklist"], d["checklist_basis"] = items, basis
            d["documents_requested_on"] = when
        case RecordDocument():
            for item_id in cmd.targets:
                _record_document(d, item_id, cmd.status, when, "item" if cmd.item else "items")
        case RecordPhysicalCheck():
            # Every check is kept (an area found irregular, then regular after repair, shows
            # both in the report).
            checks = list(d.get("physical_checks", []))
            # Art. 8 is the foreign-flag procedure; a national vessel's conditions aboard are
            # those of art. 2 (CLT, NR-30, ILO C147).
            check_basis = cite("art. 2º") if national(d) else cite("art. 8º")
            if not cmd.ok and not (cmd.citation or "").strip():
                raise CommandInvalid(
                    "informe a norma descumprida na área irregular (citation: ex.: NR-30, item "
                    "30.4.2; Convenção OIT 147) — o art. 8º (art. 2º na embarcação nacional) é o "
                    "procedimento da verificação, não a norma violada ‖ give the norm the "
                    "irregular area breaks (citation: e.g. NR-30, item 30.4.2; ILO C147) — art. "
                    "8 (art. 2 on a national vessel) is the check's procedure, not the norm "
                    "broken", "citation")
            checks.append({"area": cmd.area, "ok": cmd.ok, "notes": cmd.notes,
                           "recorded_on": when, "basis": check_basis})
            d["physical_checks"] = checks
            if not cmd.ok:
                finding_id = _finding_id(d)
                d.setdefault("findings", []).append({
                    "id": finding_id, "source": "inspector",
                    "text": f"Verificação física ({AREA_LABELS[cmd.area]}): irregular"
                            + (f" — {cmd.notes}" if cmd.notes else ""),
                    "citation": {"label": str(cmd.citation).strip(), "urn": None},
                    "found_under": check_basis, "severity": "violation",
                    "subject": cmd.area, "found_on": when})
                payload = {**payload, "finding": finding_id}
        case SetVesselCase():
            not_future(cmd.on, today)
            # the auto covers the findings the engines drew from the list as it was
            _engines_uncovered(d, (" sobre a lista de tripulantes registrada: ela não pode "
                                   "mais ser trocada", " on the recorded crew list: it can no "
                                   "longer be replaced"), "vessel_case")
            _same_section(d, {**d, "vessel_case": extra["vessel_case"]},
                          "vessel_case.vessel.flag")
            d["vessel_case"] = extra["vessel_case"]
            if cmd.on:
                d["on"] = cmd.on.isoformat()
            if d.get("documents_requested_on"):
                items, d["checklist_basis"] = _checklist_now(d, facts_date(d, today))
                d["checklist"] = merge_checklist(d.get("checklist", []), items)
            vc = d["vessel_case"]
            # the crew list's data given: the crew list is at hand (art. 7) — recorded
            # received, if it was still pending, rather than asked of the inspector again
            received = [i["item"] for i in d.get("checklist", [])
                        if i["item"] == "crew_list" and i["status"] == "pending"
                        and vc.get("crew")]
            for i in d.get("checklist", []):
                if i["item"] in received:
                    i["status"], i["recorded_on"] = "received", when
            # the engines' run is current only for this list (open step "engines")
            d["vessel_case_sha256"] = data_digest(vc)
            # What changed, without copying personal data into the log: the vessel, the
            # operation's digest and the crew's (size, ids, SHA-256 of the list).
            payload = {"command": name, "on": d.get("on"), **_day_given(cmd),
                       "vessel": {k: (vc.get("vessel") or {}).get(k)
                                  for k in ("name", "imo", "flag", "activity")},
                       "operation_sha256": data_digest(vc.get("operation")),
                       "crew_size": len(vc.get("crew") or []),
                       "crew_ids": [m.get("id") for m in vc.get("crew") or []],
                       "crew_sha256": data_digest(vc.get("crew") or []),
                       **({"checklist_received": received} if received else {})}
        case RunEngines():
            not_future(cmd.on, today)
            # the auto covers the findings of the run it was drafted on: a new run would
            # replace them under it (then fined again, under a second auto)
            _engines_uncovered(d, (": não se executam de novo", ": they are not run again"),
                               "command")
            on = cmd.on.isoformat() if cmd.on else d.get("on") or when
            before = d.get("engine_run") or {}
            d["on"] = on
            findings = [f for f in d.get("findings", [])
                        if not str(f.get("source", "")).startswith("engine:")]
            old = [f for f in d.get("findings", []) if f not in findings]
            new = engine_findings(extra["check"], d)
            d["findings"] = findings + new
            # A re-run replaces the engines' findings: what it replaced, and the date the
            # previous run judged, stay on the record (and in the audit event).
            replaced = {"replaced": [f["id"] for f in old],
                        "previous_on": before.get("on")} if before else {}
            # The case keeps the replaced findings whole (the audit event their ids only).
            kept = {"replaced_findings": old} if before else {}
            d["engine_run"] = {"on": on, "ran_on": when, "summary": extra["summary"],
                               "vessel_case_sha256": d.get("vessel_case_sha256"),
                               "documents_held": documents_held_unlisted(d), **replaced,
                               **kept}
            payload = {"command": name, "on": on, "findings": [f["id"] for f in new],
                       **_day_given(cmd), **replaced}
        case AddFinding():
            if cmd.severity == "violation" and not (cmd.citation or "").strip():
                raise CommandInvalid(
                    "informe o fundamento legal da irregularidade (citation: norma e "
                    "dispositivo, ex.: NR-30, item 30.2.1): toda irregularidade o cita nos "
                    "documentos ‖ give the violation's legal basis (citation: norm and "
                    "provision, e.g. NR-30, item 30.2.1): the documents cite it for every "
                    "violation", "citation")
            d.setdefault("findings", []).append({
                "id": _finding_id(d), "source": "inspector", "text": cmd.text,
                # as the engines' citations, so that documents list it among their basis
                "citation": {"label": cmd.citation, "urn": None} if cmd.citation else None,
                "severity": cmd.severity, "subject": None, "area": cmd.area,
                "found_on": when})
        case Notify():
            issued = (case_day(d, cmd.issued_on, today, "issued_on",
                               ("da notificação", "the notification's"))
                      if cmd.issued_on else dt.date.fromisoformat(when))
            if cmd.deadline < issued:
                raise CommandInvalid("prazo anterior à data da notificação ‖ deadline "
                                     "before the notification's date", "deadline")
            # A deadline falling on a day without office hours (weekend, national holiday or
            # one of the region's state — the SRTE's and the port's) runs to the next business
            # day (Lei 9.784/1999, art. 66, § 1º): recorded as given, ``due`` says until when.
            region = extra.get("region")
            due = cmd.deadline if is_business_day(cmd.deadline, region) \
                else add_business_days(cmd.deadline, 1, region)[0]
            d.setdefault("notifications", []).append({
                "id": f"N{len(d.get('notifications', [])) + 1}",
                "issued_on": issued.isoformat(), "deadline": cmd.deadline.isoformat(),
                **({"due": due.isoformat(), "due_basis": cite("art. 66, § 1º", LEI_9784)}
                   if due != cmd.deadline else {}),
                "addressees": ["shipowner", "master"] if national(d) else ["agent", "master"],
                "items": [f["id"] for f in unnotified(d)], "outcome": None,
                # Art. 9 notifies on a foreign vessel; on a national one the inspection is
                # art. 2's, whose violations lead to autos (sole paragraph).
                "basis": cite("art. 2º") if national(d) else cite("art. 9º"),
                "team": extra.get("team_now")})
            payload = {**payload, "notification": d["notifications"][-1]["id"],
                       "items": d["notifications"][-1]["items"]}
        case RecordRemedied():
            d["notifications"][-1]["outcome"] = "remedied"
            d["notifications"][-1]["outcome_on"] = when
        case RecordNotRemedied():
            _after_deadline(d["notifications"][-1], when, cmd.refused)
            _serious_needs_safety(d, d["notifications"][-1], cmd.risk)
            d["notifications"][-1] |= {"outcome": "not_remedied", "refused": cmd.refused,
                                       "outcome_on": when, "risk": cmd.risk,
                                       "repatriation": cmd.repatriation,
                                       "strike": cmd.strike}
            # Several notifications may go unmet (a later one for a later finding): the art. 10
            # duties add up — the gravest risk, any repatriation or strike — never replaced.
            prev = d.get("not_remedied") or {}
            risks = [r for r in (prev.get("risk"), cmd.risk) if r]
            d["not_remedied"] = {
                "risk": max(risks, key=RISK_ORDER.index),
                "repatriation": bool(prev.get("repatriation")) or cmd.repatriation,
                "strike": bool(prev.get("strike")) or cmd.strike,
                "refused": bool(prev.get("refused")) or cmd.refused,
                "recorded_on": prev.get("recorded_on") or when,
                "notifications": [*prev.get("notifications", []),
                                  d["notifications"][-1]["id"]]}
        case RequestDetention():
            _escalate(d, "detention_request", when, cmd.notes, "art. 10, I",
                      consul=cmd.consul, team=extra.get("team_now"))
        case ReferFederalPolice():
            if not cmd.crew or not cmd.situation:
                raise CommandInvalid("informe os tripulantes a repatriar (crew) e o caso do "
                                        "art. 2º da Convenção OIT 166 (situation) — art. 10, "
                                        "III ‖ give the seafarers to repatriate (crew) and the "
                                        "case of ILO Convention 166 art. 2 (situation) — art. "
                                        "10, III", "crew" if not cmd.crew else "situation")
            known = {m.get("id") for m in (d.get("vessel_case") or {}).get("crew") or []}
            unknown = [c for c in cmd.crew if c not in known]
            if unknown:
                raise CommandInvalid(f"tripulante(s) fora da lista do caso: "
                                        f"{', '.join(unknown)} ‖ seafarer(s) not in the case's "
                                        f"crew list: {', '.join(unknown)}", "crew")
            brazilians = [m.get("id") for m in (d.get("vessel_case") or {}).get("crew") or []
                          if m.get("id") in cmd.crew and _is_brazilian(m)]
            if brazilians:
                # The ofício asks the Federal Police for the repatriation of foreigners (ILO
                # C166 art. 2: to their country); a Brazilian is already home.
                who = ", ".join(map(str, brazilians))
                raise CommandInvalid(f"tripulante(s) brasileiro(s) não se repatriam pela "
                                        f"Polícia Federal: {who} ‖ Brazilian seafarer(s) are "
                                        f"not repatriated through the Federal Police: {who}",
                                        "crew")
            _escalate(d, "federal_police", when, cmd.notes, "art. 10, III",
                      crew=list(dict.fromkeys(cmd.crew)), situation=cmd.situation,
                      team=extra.get("team_now"))
        case RecordMediation():
            _escalate(d, "mediation", when, cmd.notes, "art. 10, IV",
                      team=extra.get("team_now"))
        case DraftAuto():
            auto = {**_draft_auto(d, cmd, when, actor), "team": extra.get("team_now")}
            d.setdefault("autos", []).append(auto)
            payload = {**payload, "auto": auto["id"], "kind": auto["kind"],
                       "findings": auto["findings"]}
        case VoidAuto():
            voiding: dict[str, Any] | None = next(
                (a for a in d.get("autos", []) if a["id"] == cmd.auto), None)
            if voiding is None or voiding.get("voided"):
                there = ", ".join(a["id"] for a in active_autos(d))
                state = "já foi anulado" if voiding else "não existe neste caso"
                raise TransitionRefused(
                    f"o auto {cmd.auto} {state} (autos em vigor: {there}) ‖ auto "
                    f"{cmd.auto} {'is already void' if voiding else 'does not exist'} (autos "
                    f"in force: {there})", "auto")
            voiding["voided"] = {"on": when, "by": actor, "reason": cmd.reason}
            payload = {**payload, "auto": voiding["id"]}
        case WriteReport():
            unmet = bool(d.get("not_remedied"))
            d["report"] = {"written_on": when, "summary": cmd.summary, "written_by": actor,
                           "team": extra.get("team_now"),
                           # the international advisory (art. 11) is for foreign ships
                           "forward_international": cmd.forward_international
                           if cmd.forward_international is not None
                           else unmet and not national(d),
                           "recipients": REPORT_RECIPIENTS,
                           "basis": [cite("art. 11"), cite("art. 15")]}
        case Close():
            d["closed_on"] = when
        case AssignTeam():
            d["team"] = extra["team"]
            # The inspector who opened the case stays in it: the team as it now is.
            payload = {**payload, "team_after": extra["team"]}
        case _:
            pass
    d.pop("_state", None)
    if t.basis:  # the act's legal ground, logged with it (the trail's "why" in law)
        basis = cite(t.basis)
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
        if national(d) and basis.get("norm_id") == PROCEDURE \
                and str(basis.get("provision", "")).split(",")[0] in (*SECTION_II, "art. 13"):
            # arts. 4–11 are the foreign-flag procedure (art. 3), art. 13 the foreign vessel's
            # crew and documents: a national vessel's inspection rests on art. 2
            basis = cite("art. 2º")
        payload = {**payload, "basis": basis["label"]}
    target = t.target or current
    if isinstance(cmd, RecordPhysicalCheck) and not cmd.ok and current == State.DOCUMENTS_REQUESTED:
        target = State.FINDINGS  # an irregular check is a finding (art. 8), to be notified
    return Outcome(target, d, payload)


def _day_given(cmd: SetVesselCase | RunEngines) -> dict[str, Any]:
    """The day an act entered later happened, for an event whose payload is written anew
    (the others log the command's fields): the trail says when, not only who and what."""
    return {"recorded_on": cmd.recorded_on.isoformat()} if cmd.recorded_on else {}


# The articles of Seção II (foreign-flag vessels, art. 3).
SECTION_II = {"art. 4º", "art. 5º", "art. 6º", "art. 7º", "art. 8º", "art. 9º", "art. 10",
              "art. 11"}


def _engines_uncovered(d: dict[str, Any], then: tuple[str, str], field: str) -> None:
    """:class:`TransitionRefused` naming ``field`` when an auto in force covers the engines'
    findings — the art. 14 auto, or an ementário auto on one of them (art. 2, sole
    paragraph): what they rest on stays as the auto found it. ``then``: what follows, in
    Portuguese and English."""
    if covered := engine_autos(d):
        autos = ", ".join(covered)
        raise TransitionRefused(f"o auto {autos} já cobre as constatações dos motores{then[0]} ‖ "
                                f"auto {autos} already covers the engines' findings{then[1]}",
                                field)


def _section_acts(d: dict[str, Any]) -> list[tuple[str, str]]:
    """The acts issued on the procedure of the vessel's section — its notifications (art. 9
    on a foreign vessel), autos (art. 14; art. 2, sole paragraph), art. 10 steps and report
    (art. 11) —, as the refusal names them (Portuguese, English)."""
    acts = [(f"notificação {n['id']}", f"notification {n['id']}")
            for n in d.get("notifications", [])]
    acts += [(f"auto {a['id']}", f"auto {a['id']}") for a in d.get("autos", [])]
    acts += [(f"providência do art. 10 ({e['kind']})", f"art. 10 step ({e['kind']})")
             for e in d.get("escalations", [])]
    return acts + ([("relatório (art. 11)", "report (art. 11)")] if d.get("report") else [])


def _same_section(before: dict[str, Any], after: dict[str, Any], field: str) -> None:
    """The flag decides the procedure: Seção I (art. 2) for a Brazilian-flag vessel, Seção II
    (arts. 3–11) for a foreign one. Corrected before any act, the case follows the new flag;
    once an act rests on the section, a flag that moves the vessel to the other one would
    change, unseen, the procedure under it (the art. 10 steps owed on a foreign vessel
    vanish on a national one): :class:`TransitionRefused` naming ``field``."""
    if national(before) == national(after) or not (acts := _section_acts(before)):
        return
    pt, en = (("nacional (Seção I, art. 2º)", "estrangeira (Seção II, arts. 3º a 11)"),
              ("national (Section I, art. 2)", "foreign (Section II, arts. 3 to 11)"))
    was, now = (0, 1) if national(before) else (1, 0)
    raise TransitionRefused(
        f"a bandeira passaria a embarcação de {pt[was]} a {pt[now]}, mas já há atos emitidos "
        f"com base no procedimento da bandeira registrada ({', '.join(a for a, _ in acts)}): "
        f"a bandeira não pode mais ser trocada neste caso ‖ the flag would move the vessel "
        f"from {en[was]} to {en[now]}, but acts were already issued on the recorded flag's "
        f"procedure ({', '.join(e for _, e in acts)}): the flag can no longer be changed in "
        "this case", field)


def _recorded_on(d: dict[str, Any], cmd: BaseModel, today: dt.date) -> dt.date:
    """The day a command records: ``recorded_on`` when the act happened earlier (an
    inspector entering the day's work later), else today."""
    day: dt.date | None = getattr(cmd, "recorded_on", None)
    return today if day is None else case_day(d, day, today, "recorded_on",
                                              ("do registro", "the record's"))


def case_day(d: dict[str, Any], day: dt.date, today: dt.date, field: str,
             what: tuple[str, str]) -> dt.date:
    """``day`` when it lies within the case: not in the future, not before the complaint;
    an :class:`InputError` naming ``field`` otherwise — a date no state of the case could
    accept (``what``: Portuguese and English, ("da notificação", "the notification's"))."""
    pt, en = what
    if day > today:
        raise InputError(f"data {pt} no futuro: {day:%d/%m/%Y}", field,
                         message_en=f"{en} date in the future: {day.isoformat()}")
    complaint_on = (d.get("complaint") or {}).get("date")
    if complaint_on and day.isoformat() < str(complaint_on):
        c = dt.date.fromisoformat(str(complaint_on)[:10])
        raise InputError(f"data {pt} anterior à denúncia ({c:%d/%m/%Y})", field,
                         message_en=f"{en} date before the complaint ({c.isoformat()})")
    return day


RISK_ORDER = ["lesser_safety", "contractual_wage", "serious_imminent"]  # art. 10, II → I


REPORT_RECIPIENTS = ["Coordenação Nacional de Inspeção do Trabalho Portuário e Aquaviário",
                     "chefia de fiscalização regional"]  # art. 11


def _in_order(d: dict[str, Any], cmd: BaseModel, when: str) -> None:
    """An act is not dated before the acts it answers: a notification's outcome after its
    issue, an art. 10 step after the outcome, an auto after the findings it fines, its void
    after its draft, the report after every act it reports, the closing after the report."""
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
    if isinstance(cmd, RequestDocuments | CloseUnfounded | RecordPhysicalCheck | AddFinding
                  | SetVesselCase):
        earlier = [start]
    elif isinstance(cmd, RecordDocument | RunEngines):
        # (the run's own date judged, ``on``, may be earlier: the facts of the complaint)
        earlier = [start, requested]
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
        earlier = [*notified, *checks, engines]
        earlier += [(i.get("recorded_on"), "ao registro de documento", "a document's record")
                    for i in d.get("checklist", []) if i.get("status") != "pending"]
        earlier += [(e.get("on"), "à providência do art. 10", "the art. 10 step")
                    for e in d.get("escalations", [])]
        earlier += [(a.get("drafted_on"), f"ao auto {a['id']}", f"auto {a['id']}")
                    for a in d.get("autos", [])]
    elif isinstance(cmd, Close):
        earlier = [((d.get("report") or {}).get("written_on"), "ao relatório", "the report")]
    _not_before(when, earlier, "recorded_on")


def _record_document(d: dict[str, Any], item_id: str, status: str, when: str,
                     field: str) -> None:
    """Art. 7: one checklist item recorded received or missing; a catalogue document not
    in the list is added as asked by hand. :class:`CommandInvalid` (``field``) for an id
    neither lists."""
    items = d.setdefault("checklist", [])
    match_ = [i for i in items if i["item"] == item_id]
    if not match_ and item_id in document_ids():
        items.append(manual_item(item_id))  # a catalogue document asked by hand
        match_ = items[-1:]
    if not match_:
        listed = ", ".join(i["item"] for i in items)
        raise CommandInvalid(
            f"documento desconhecido '{item_id}' (itens: {listed or 'nenhum'}; "
            f"catálogo: {', '.join(document_ids())}) ‖ unknown document '{item_id}' "
            f"(items: {listed or 'none'}; catalogue: {', '.join(document_ids())})", field)
    match_[0]["status"] = status
    match_[0]["recorded_on"] = when


def _consulted(d: dict[str, Any], consulted: str | None) -> None:
    """Art. 6: a foreign vessel's complaint is assessed with the master or the next in
    command — the record says which (never presumed: the relatório states it)."""
    if consulted is None and not national(d):
        raise CommandInvalid(
            "informe com quem a procedência e a seriedade da denúncia foram apuradas (art. "
            "6º): consulted = master (comandante) ou next_in_command (substituto imediato) ‖ "
            "say with whom the complaint's merit and seriousness were assessed (art. 6): "
            "consulted = master or next_in_command", "consulted")


def _not_before(when: str, earlier: list[tuple[str | None, str, str]], field: str) -> None:
    for day, pt, en in earlier:
        if day and when < str(day)[:10]:
            w, e = dt.date.fromisoformat(when), dt.date.fromisoformat(str(day)[:10])
            raise TransitionRefused(
                f"data do registro ({w:%d/%m/%Y}) anterior {pt} ({e:%d/%m/%Y}) ‖ record date "
                f"({w.isoformat()}) before {en} ({e.isoformat()})", field)


def not_future(on: dt.date | None, today: dt.date) -> None:
    """The date of the facts judged is a day that has happened (:class:`InputError`)."""
    if on is not None and on > today:
        raise InputError(f"data dos fatos no futuro: {on:%d/%m/%Y}", "on",
                         message_en=f"date of the facts in the future: {on.isoformat()}")


def _serious_needs_safety(d: dict[str, Any], notification: dict[str, Any], risk: str
                          ) -> None:
    """Art. 10, I: grave and imminent risk concerns "condições de segurança, saúde e higiene
    do trabalho" — a notification of contractual or wage matters alone is art. 10, II."""
    if risk != "serious_imminent" or "items" not in notification:
        return
    by_id = {f["id"]: f for f in d.get("findings", [])}
    items = [by_id[i] for i in notification["items"] if i in by_id]
    if not any(f.get("area") in (None, *SAFETY_AREAS)
               and not str(f.get("source", "")).startswith("engine:") for f in items):
        raise TransitionRefused(
            f"a notificação {notification['id']} não trata de segurança, saúde ou higiene a "
            "bordo: grave e iminente risco (art. 10, I) não se aplica — use contractual_wage "
            f"ou lesser_safety (art. 10, II) ‖ notification {notification['id']} is not about "
            "safety, health or hygiene aboard: serious and imminent risk (art. 10, I) does not "
            "apply — use contractual_wage or lesser_safety (art. 10, II)", "risk")


def _after_deadline(notification: dict[str, Any], when: str, refused: bool) -> None:
    """Art. 10 acts on notifications "não atendidas": the notified party has every day up to
    the deadline, so the outcome is recorded after it — or earlier on an express refusal."""
    due = dt.date.fromisoformat(due_day(notification))
    if not refused and dt.date.fromisoformat(when) <= due:
        raise TransitionRefused(
            f"a notificação {notification['id']} vence em {due:%d/%m/%Y}: o não atendimento "
            "(art. 10) se registra após o prazo, ou antes com a recusa expressa do notificado "
            f"(refused) ‖ notification {notification['id']} is due on {due.isoformat()}: "
            "non-compliance (art. 10) is recorded after the deadline, or earlier on the "
            "notified party's express refusal (refused)", "recorded_on")


_NO_COMPANY = ("o auto do art. 14 é lavrado contra a empresa brasileira contratante: "
               "informe-a no comando (against: nome e CNPJ) ou em "
               "operation.brazilian_company no caso ‖ the art. 14 auto is issued against the "
               "contracting Brazilian company: give it in the command (against: name and "
               "CNPJ) or as operation.brazilian_company in the case")


def _art14_refusal(d: dict[str, Any], against_given: bool = False) -> str | None:
    if not cnig_violations(d):
        return ("não há constatação de descumprimento de Resolução Normativa do CNIg "
                "(execute run_engines) ‖ no finding of a breach of a CNIg Normative Resolution "
                "(run run_engines)")
    if not brazilian_company(d) and not against_given:
        # The company may be learnt only aboard (the contract is among the documents asked):
        # the auto names it then — the vessel case can no longer change once notified.
        return _NO_COMPANY
    if art14_autos(d):
        return ("auto de infração do art. 14 já minutado ‖ the art. 14 auto de infração is "
                "already drafted")
    return None


def _draft_auto(d: dict[str, Any], cmd: DraftAuto, when: str, actor: str) -> dict[str, Any]:
    """The auto de infração draft: art. 14 (CNIg resolutions: CLT art. 444, ementa
    001139-8, against the Brazilian contracting company) or, for another violation, the
    ementa and capitulation of the ementário given by the inspector (art. 2, sole
    paragraph)."""
    number = f"A{len(d.get('autos', [])) + 1}"
    if cmd.kind in ART14_KINDS:
        refusal = _art14_refusal(d, cmd.against is not None) or g_engines_current(d)
        if refusal:
            raise TransitionRefused(refusal, "against" if refusal == _NO_COMPANY else "kind")
        company = brazilian_company(d)
        if company is None:
            assert cmd.against is not None
            if not cmd.against.cnpj:
                # The auto identifies the company it fines, a company by its CNPJ: named
                # here, it is named in full — an auto is not amended once drafted.
                raise CommandInvalid(
                    "informe o CNPJ da empresa autuada (against.cnpj): o caso não a identifica "
                    "‖ give the fined company's CNPJ (against.cnpj): the case does not identify "
                    "it", "against.cnpj")
            company = cmd.against.model_dump(exclude_none=True)
        elif cmd.against is not None and not _same_company(cmd.against.model_dump(),
                                                           company):
            who = company.get("name") or company.get("cnpj")
            raise TransitionRefused(
                f"o auto do art. 14 é lavrado contra a empresa brasileira contratante ({who}, "
                "operation.brazilian_company): não informe outro autuado (against) ‖ the art. "
                f"14 auto is issued against the contracting Brazilian company ({who}, "
                "operation.brazilian_company): give no other offender (against)", "against")
        return {"id": number, "kind": "cnig", "against": company,
                "ementa": "001139-8", "capitulation": cite("art. 444", "clt"),
                "basis": cite("art. 14"), "findings": [f["id"] for f in cnig_violations(d)],
                "facts": cmd.facts, "drafted_on": when, "drafted_by": actor}
    known = {f["id"] for f in violations(d)}
    chosen = list(dict.fromkeys(cmd.findings))
    # Everything the ementário auto needs and the command lacks, said at once (422).
    missing = [f for f, v in (("ementa", cmd.ementa), ("capitulation", cmd.capitulation),
                              ("against", cmd.against), ("findings", chosen)) if not v]
    among = ", ".join(sorted(known))
    if missing:
        names = ", ".join(missing)
        raise CommandInvalid(
            f"o auto do ementário precisa de: {names} (ementa e capitulação do ementário, o "
            f"autuado e as constatações que cobre, entre: {among}) ‖ the ementário auto needs: "
            f"{names} (the ementário's ementa and capitulation, the offender and the findings "
            f"it covers, among: {among})", missing[0])
    if wrong := [f for f in chosen if f not in known]:
        raise CommandInvalid(f"constatação desconhecida: {', '.join(wrong)} (constatações: "
                             f"{among}) ‖ unknown finding: {', '.join(wrong)} (findings: "
                             f"{among})", "findings")
    assert cmd.against is not None
    for a in active_autos(d):
        # One fact, one auto per ementa and offender (as the art. 14 auto, drafted once).
        if a["ementa"] == cmd.ementa \
                and _same_company(cmd.against.model_dump(), a["against"]) \
                and set(a["findings"]) & set(chosen):
            both = ", ".join(sorted(set(a["findings"]) & set(chosen)))
            raise TransitionRefused(
                f"o auto {a['id']} (ementa {a['ementa']}) já foi minutado contra este autuado "
                f"por {both} ‖ auto {a['id']} (ementa {a['ementa']}) is already drafted against "
                f"this offender for {both}", "findings")
    return {"id": number, "kind": "ementario",
            "against": cmd.against.model_dump(mode="json", exclude_none=True),
            "ementa": cmd.ementa, "capitulation": {"label": cmd.capitulation, "urn": None},
            # CLT art. 628: every violation found gets its auto; for a Brazilian-flag vessel
            # IN SIT 70/2007 art. 2, sole paragraph, says so too ("conforme ementário").
            "basis": cite("art. 2º, parágrafo único") if national(d)
            else cite("art. 628", "clt"), "findings": chosen,
            "facts": cmd.facts, "drafted_on": when, "drafted_by": actor}


def _same_company(given: dict[str, Any], company: dict[str, Any]) -> bool:
    """Whether ``given`` names the contracting company (by CNPJ digits, else by name)."""
    def digits(v: Any) -> str:
        return "".join(ch for ch in str(v or "") if ch.isdigit())

    if given.get("cnpj") and company.get("cnpj"):
        return digits(given["cnpj"]) == digits(company["cnpj"])
    return _name_key(given.get("name")) == _name_key(company.get("name"))


def _name_key(name: Any) -> str:
    """A company name as written anywhere: accents, case, punctuation and spacing aside
    ("Navegação Sul Ltda." = "NAVEGACAO SUL LTDA", "S.A." = "S/A" = "SA")."""
    return "".join(ch for ch in fold(str(name or "")) if ch.isalnum())


def _is_brazilian(member: dict[str, Any]) -> bool:
    """As the engines read it: a dual national with BR is Brazilian."""
    try:
        return "BR" in nationality_codes(member.get("nationality"))
    except ValueError:  # the stored crew was validated: not reached
        return False


def _escalate(d: dict[str, Any], kind: str, when: str, notes: str | None, provision: str,
              **more: Any) -> None:
    answers = awaiting(d, kind) if kind in DUTIES else []
    d.setdefault("escalations", []).append({"kind": kind, "on": when, "notes": notes,
                                            "basis": cite(provision), "answers": answers,
                                            **more})

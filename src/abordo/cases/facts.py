"""The commands that record what the inspection finds (IN SIT 70/2007 arts. 5–8 and 13): the
pre-boarding facts, the assessment and its end, the documents asked and received, the
physical checks, the vessel case, the engines' run and the inspector's findings — one
handler per command (:data:`abordo.cases.act.Handler`), dispatched by
:mod:`abordo.cases.workflow`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from abordo.cases.act import Act, not_future
from abordo.cases.acts import REPORT_RECIPIENTS
from abordo.cases.audit import data_digest
from abordo.cases.checklist import (
    cite,
    document_checklist,
    facts_date,
    manual_item,
    merge_checklist,
)
from abordo.cases.commands import (
    AREA_LABELS,
    AddFinding,
    CloseUnfounded,
    CommandInvalid,
    RecordDocument,
    RecordPhysicalCheck,
    RecordPreBoarding,
    RequestDocuments,
    RunEngines,
    SetVesselCase,
    StartAssessment,
    StartPreBoarding,
    TransitionRefused,
    check_pre_boarding,
    document_ids,
)
from abordo.cases.steps import documents_held_unlisted, engine_autos, national

# --------------------------------------------------------------------------- handlers


def start_pre_boarding(d: dict[str, Any], cmd: StartPreBoarding, act: Act) -> dict[str, Any]:
    """Art. 5: the prior investigation begins — the state alone changes."""
    return act.payload


def record_pre_boarding(d: dict[str, Any], cmd: RecordPreBoarding, act: Act
                        ) -> dict[str, Any]:
    """Art. 5, I–IV: the facts given are merged into those recorded (a flag that would move
    the vessel to the other section once an act rests on it is refused)."""
    merged = {**d.get("pre_boarding", {}),
              **cmd.facts.model_dump(mode="json", exclude_none=True)}
    check_pre_boarding(merged, "facts")
    _same_section(d, {**d, "pre_boarding": merged}, "facts.flag")
    d["pre_boarding"] = merged
    return act.payload


def start_assessment(d: dict[str, Any], cmd: StartAssessment, act: Act) -> dict[str, Any]:
    """Art. 6: the assessment of the complaint starts on the day recorded."""
    d["assessment"] = {"started_on": act.when}
    return act.payload


def close_unfounded(d: dict[str, Any], cmd: CloseUnfounded, act: Act) -> dict[str, Any]:
    """Arts. 6–7: the complaint found not justified — the assessment's end, its report and
    the case closed."""
    _consulted(d, cmd.consulted)
    d["assessment"] = {**d.get("assessment", {}), "justified": False,
                       "consulted": cmd.consulted, "reason": cmd.reason}
    # Art. 11: "ao fim de qualquer ação fiscal" a relatório circunstanciado — an
    # unfounded complaint's too: what was assessed, with whom, and why it ends.
    d["report"] = {"written_on": act.when, "written_by": act.actor,
                   "summary": f"Denúncia considerada improcedente após a apuração "
                              f"(art. 6º): {cmd.reason}",
                   "forward_international": False, "recipients": REPORT_RECIPIENTS,
                   "basis": [cite("art. 11"), cite("art. 6º")],
                   "team": act.extra.get("team_now")}  # who signs it, as write_report
    d["closed_on"] = act.when
    return act.payload


def request_documents(d: dict[str, Any], cmd: RequestDocuments, act: Act) -> dict[str, Any]:
    """Arts. 6–7: the complaint found justified; the documents are asked (the checklist the
    engine lists for the vessel case and flag, and the catalogue documents asked by hand)."""
    _consulted(d, cmd.consulted)
    d["assessment"] = {**d.get("assessment", {}), "justified": True,
                       "consulted": cmd.consulted, "reason": cmd.reason}
    items, basis = _checklist_now(d, facts_date(d, act.today))
    ids = {i["item"] for i in items}
    items += [manual_item(x) for x in cmd.extra_items if x not in ids]
    d["checklist"], d["checklist_basis"] = items, basis
    d["documents_requested_on"] = act.when
    return act.payload


def record_document(d: dict[str, Any], cmd: RecordDocument, act: Act) -> dict[str, Any]:
    """Art. 7: each item given recorded received or missing."""
    for item_id in cmd.targets:
        _record_document(d, item_id, cmd.status, act.when, "item" if cmd.item else "items")
    return act.payload


def record_physical_check(d: dict[str, Any], cmd: RecordPhysicalCheck, act: Act
                          ) -> dict[str, Any]:
    """Art. 8 (art. 2 on a national vessel): an area checked; an irregular one is also a
    finding, citing the norm it breaks."""
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
                   "recorded_on": act.when, "basis": check_basis})
    d["physical_checks"] = checks
    if cmd.ok:
        return act.payload
    finding_id = _finding_id(d)
    d.setdefault("findings", []).append({
        "id": finding_id, "source": "inspector",
        "text": f"Verificação física ({AREA_LABELS[cmd.area]}): irregular"
                + (f" — {cmd.notes}" if cmd.notes else ""),
        "citation": {"label": str(cmd.citation).strip(), "urn": None},
        "found_under": check_basis, "severity": "violation",
        "subject": cmd.area, "found_on": act.when})
    return {**act.payload, "finding": finding_id}


def set_vessel_case(d: dict[str, Any], cmd: SetVesselCase, act: Act) -> dict[str, Any]:
    """Art. 13: the vessel, its operation and crew list (validated by the service), and the
    date of the facts; the checklist follows them. The payload names what changed without
    copying personal data into the log."""
    not_future(cmd.on, act.today)
    # the auto covers the findings the engines drew from the list as it was
    _engines_uncovered(d, (" sobre a lista de tripulantes registrada: ela não pode "
                           "mais ser trocada", " on the recorded crew list: it can no "
                           "longer be replaced"), "vessel_case")
    _same_section(d, {**d, "vessel_case": act.extra["vessel_case"]},
                  "vessel_case.vessel.flag")
    d["vessel_case"] = act.extra["vessel_case"]
    # the day it was given: the engines' run judging it is not dated before it
    d["vessel_case_recorded_on"] = act.when
    if cmd.on:
        d["on"] = cmd.on.isoformat()
    if d.get("documents_requested_on"):
        items, d["checklist_basis"] = _checklist_now(d, facts_date(d, act.today))
        d["checklist"] = merge_checklist(d.get("checklist", []), items)
    vc = d["vessel_case"]
    # the crew list's data given: the crew list is at hand (art. 7) — recorded
    # received, if it was still pending, rather than asked of the inspector again
    received = [i["item"] for i in d.get("checklist", [])
                if i["item"] == "crew_list" and i["status"] == "pending"
                and vc.get("crew")]
    for i in d.get("checklist", []):
        if i["item"] in received:
            i["status"], i["recorded_on"] = "received", act.when
    # the engines' run is current only for this list (open step "engines")
    d["vessel_case_sha256"] = data_digest(vc)
    # What changed, without copying personal data into the log: the vessel, the
    # operation's digest and the crew's (size, ids, SHA-256 of the list).
    return {"command": cmd.command, "on": d.get("on"), **_day_given(cmd),
            "vessel": {k: (vc.get("vessel") or {}).get(k)
                       for k in ("name", "imo", "flag", "activity")},
            "operation_sha256": data_digest(vc.get("operation")),
            "crew_size": len(vc.get("crew") or []),
            "crew_ids": [m.get("id") for m in vc.get("crew") or []],
            "crew_sha256": data_digest(vc.get("crew") or []),
            **({"checklist_received": received} if received else {})}


def run_engines(d: dict[str, Any], cmd: RunEngines, act: Act) -> dict[str, Any]:
    """The crew quota and immigration engines' verdict (run by the service on the recorded
    vessel case) becomes the engines' findings, replacing those of a previous run."""
    not_future(cmd.on, act.today)
    # the auto covers the findings of the run it was drafted on: a new run would
    # replace them under it (then fined again, under a second auto)
    _engines_uncovered(d, (": não se executam de novo", ": they are not run again"),
                       "command")
    on = cmd.on.isoformat() if cmd.on else d.get("on") or act.when
    before = d.get("engine_run") or {}
    d["on"] = on
    findings = [f for f in d.get("findings", [])
                if not str(f.get("source", "")).startswith("engine:")]
    old = [f for f in d.get("findings", []) if f not in findings]
    new = engine_findings(act.extra["check"], d)
    d["findings"] = findings + new
    # A re-run replaces the engines' findings: what it replaced, and the date the
    # previous run judged, stay on the record (and in the audit event).
    replaced = {"replaced": [f["id"] for f in old],
                "previous_on": before.get("on")} if before else {}
    # The case keeps the replaced findings whole (the audit event their ids only).
    kept = {"replaced_findings": old} if before else {}
    d["engine_run"] = {"on": on, "ran_on": act.when, "summary": act.extra["summary"],
                       "vessel_case_sha256": d.get("vessel_case_sha256"),
                       "documents_held": documents_held_unlisted(d), **replaced,
                       **kept}
    return {"command": cmd.command, "on": on, "findings": [f["id"] for f in new],
            **_day_given(cmd), **replaced}


def add_finding(d: dict[str, Any], cmd: AddFinding, act: Act) -> dict[str, Any]:
    """Art. 8: an inspector's finding; a violation cites its legal basis."""
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
        "found_on": act.when})
    return act.payload


# --------------------------------------------------------------------------- helpers

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
            # (the case service's own words: the API's ways to give the documents named)
            text = str(f.get("text") or "") + (
                " (documento da pessoa registrado como recebido na lista de verificação, mas "
                "não informado na lista de tripulantes: informe tipo e validade em "
                "set_vessel_case ou em PUT /api/v1/cases/{id}/crew/"
                f"{f.get('subject')}/documents para que seja verificado)" if held else "")
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


def _day_given(cmd: SetVesselCase | RunEngines) -> dict[str, Any]:
    """The day an act entered later happened, for an event whose payload is written anew
    (the others log the command's fields): the trail says when, not only who and what."""
    return {"recorded_on": cmd.recorded_on.isoformat()} if cmd.recorded_on else {}


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

"""Documents of a case, in Portuguese, rendered from the case facts: Jinja2 → HTML → PDF.

Kinds: ``notificacao`` (art. 9), ``oficio-consul`` (art. 10, I), ``oficio-policia-federal``
(art. 10, III), ``auto-infracao`` (art. 14, CLT art. 444, ementa 001139-8) and ``relatorio``
(relatório circunstanciado, arts. 11 and 15). Every document ends with the norms cited.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, Literal

from babel.dates import format_date

from abordo.cases import checklist, commands, steps
from abordo.cases.commands import TransitionRefused
from abordo.cases.models import Attachment, Case
from abordo.faces.reports.blocks import render_html
from abordo.faces.reports.format import fmt_date
from abordo.law import labels
from abordo.law.calendar import brasilia_date
from abordo.law.errors import InputError
from abordo.law.norms import norm_registry
from abordo.law.params import load_data
from abordo.law.text import natural_key

Kind = Literal["notificacao", "oficio-consul", "oficio-policia-federal", "auto-infracao",
               "relatorio"]

TITLES: dict[str, str] = {
    "notificacao": "Notificação ao agente marítimo e ao comandante",
    "oficio-consul": "Ofício ao representante consular e à autoridade marítima",
    "oficio-policia-federal": "Ofício à Superintendência Regional da Polícia Federal",
    "auto-infracao": "Minuta de auto de infração",
    "relatorio": "Relatório circunstanciado",
}


# The letters of art. 10 and the step each one writes.
LETTER_STEP = {"oficio-consul": "detention_request", "oficio-policia-federal": "federal_police"}


def available(data: dict[str, Any]) -> list[str]:
    kinds = []
    if data.get("notifications"):
        kinds.append("notificacao")
    kinds += [kind for kind, step in LETTER_STEP.items() if steps.escalated(data, step)]
    if steps.active_autos(data):  # a voided draft is no auto to print
        kinds.append("auto-infracao")
    if data.get("report"):
        kinds.append("relatorio")
    return kinds


def _stored_day(value: str | dt.date) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)[:10])


def d(value: str | dt.date | None) -> str:
    """An ISO date (as stored) as ``dd/mm/aaaa``."""
    if not value:  # None, "" or a Jinja2 Undefined
        return "—"
    return fmt_date(_stored_day(value), "pt")


def d_long(value: str | dt.date | None) -> str:
    """An ISO date as a signed act dates itself: ``29 de abril de 2021``, ``1º de abril de
    2026`` (the first of a month ordinal, as official texts write it; month from Babel)."""
    if not value:
        return "—"
    day = _stored_day(value)
    first = "1º" if day.day == 1 else str(day.day)
    return f"{first} de " + format_date(day, "MMMM 'de' y", locale="pt_BR")


PORTARIA_210 = "mte-portaria-210-1999"


def _named(label: str) -> dict[str, Any]:
    """An act a document's text cites that the norms register does not hold: listed in its
    "Fundamentação legal" by its name, as the text names it, without a URN."""
    return {"label": label, "urn": None}


# What a letter's own text cites beyond its act's provision (cases/*.html.j2): each is in
# its "Fundamentação legal" too (from the register when it holds the norm).
DETENTION_TEXT = [_named("Portaria Interministerial nº 80/2002"), _named("NORMAM 08")]


def _citations(data: dict[str, Any], kind: str = "relatorio",
               notification: dict[str, Any] | None = None,
               told: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The citations a document rests on, deduplicated: the report cites everything the case
    used; each other document its own act's provision and those of the findings it names."""
    seen: dict[str, dict[str, Any]] = {}

    def walk(obj: Any) -> None:
        if isinstance(obj, dict):
            if "label" in obj and "urn" in obj:
                seen.setdefault(str(obj["label"]), obj)
            for v in obj.values():
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    findings = {f.get("id"): f for f in data.get("findings", [])}
    notes = data.get("notifications") or [{}]
    escalation = LETTER_STEP.get(kind)
    engine_labels: list[str] = []
    if kind == "notificacao":
        chosen = notification or notes[-1]
        own: list[Any] = [chosen.get("basis") or checklist.cite("art. 9º"),
                          chosen.get("due_basis"),
                          [findings.get(i) for i in chosen.get("items", [])]]
        if (chosen.get("basis") or {}).get("provision") == "art. 2º":
            # a national vessel's: "a CLT, a NR-30 e a Convenção nº 147 da OIT", and the
            # autos "conforme o ementário (art. 2º, parágrafo único)"
            own += [checklist.cite("", "clt"), _named("NR-30"), _named("Convenção OIT nº 147"),
                    checklist.cite("art. 2º, parágrafo único")]
        else:
            # "procedimentos do art. 10 da IN SIT nº 70/2007" if it is not met
            own.append(checklist.cite("art. 10"))
        if not steps.national(data):  # the text cites it beside art. 9 (IN SIT 70, art. 9)
            own.append(checklist.cite("art. 4º, IV", PORTARIA_210))
    elif escalation:
        esc = [e for e in data.get("escalations", []) if e.get("kind") == escalation]
        own = [esc, told or []]  # the findings the letter itself names
        if escalation == "detention_request":  # the letter cites it (IN SIT 70, art. 10, I)
            own += [checklist.cite("art. 4º, VI", PORTARIA_210), *DETENTION_TEXT]
        if escalation == "federal_police":
            own.append([d for d in steps.deadlines(data) if d["kind"].startswith("repat")])
            # "nos termos do art. 2º da Convenção nº 166 da OIT (promulgada pelo Decreto nº
            # 2.670/1998; sua execução, pelo Decreto nº 6.968/2009)"
            own += [_named("Convenção OIT nº 166, art. 2º"), _named("Decreto nº 2.670/1998")]
            if steps.c166_decree_in_force(_letter_day(data, kind)):
                own.append(checklist.cite("", "decreto-6968-2009"))
    elif kind == "auto-infracao":
        autos = data.get("autos", [])
        own = [autos, [findings.get(i) for a in autos for i in a.get("findings", [])],
               checklist.cite("art. 629, § 3º", "clt")]  # the defence's 10 days, said in it
    else:
        own = [checklist.cite("art. 4º"), data]
        if not steps.national(data):  # IN SIT 70, art. 4: "as dispostas no art. 4º da
            own.append(checklist.cite("art. 4º", PORTARIA_210))  # Portaria nº 210, de 1999"
        own += [n.get("basis") or checklist.cite("art. 9º") for n in data.get("notifications", [])]
        own.append([x.get("basis") for x in steps.deadlines(data)])  # the deadlines it lists
        for summary in (data.get("engine_run") or {}).get("summary", {}).values():
            engine_labels += summary.get("citations", [])
    walk(own)
    for lbl in engine_labels:  # the engines' summary keeps labels only (no URN)
        seen.setdefault(str(lbl), {"label": lbl, "urn": None})
    # Every norm the register holds with its URN, however it was recorded (an engine's label,
    # a citation typed by an inspector); one it does not hold by its name alone.
    registry = norm_registry()
    for lbl, c in seen.items():
        if not c.get("urn") and (found := registry.cite_label(lbl)) is not None:
            seen[lbl] = {**c, "urn": found.urn}
    # One list in one order (by label): a norm's provisions side by side, whatever their source.
    return sorted(seen.values(), key=lambda c: natural_key(str(c["label"])))


def _finding_text(vessel_case: dict[str, Any]) -> Any:
    """A finding's text as a document says it: one about a person of the crew list names them
    as the list does — rank and nationality beside the id (a FAL Form 5 numbers its crew:
    "1: 324 dias…" alone says nothing of who)."""
    crew = {str(m.get("id")): m for m in vessel_case.get("crew") or []}

    def text(f: dict[str, Any]) -> str:
        body = str(f.get("text") or "")
        who = crew.get(str(f.get("subject")))
        lead = f"{f.get('subject')}: "
        if who is None or not body.startswith(lead):
            return body
        nat = who.get("nationality")
        nat = "/".join(nat) if isinstance(nat, list) else nat
        about = ", ".join(str(x) for x in (who.get("rank"), nat) if x)
        return f"Tripulante {f['subject']}{f' ({about})' if about else ''}: {body[len(lead):]}"

    return text


def _readings(data: dict[str, Any], kind: str, findings: list[dict[str, Any]]
              ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The interpretations and unconfirmed parameters of the engines' run that a document
    rests on (every report ends with them: interfaces.md, Reports): the report's, all; any
    other document's, when it names a finding of the engines. Cases run before they were
    kept carry none."""
    by_engine = (data.get("engine_run") or {}).get("summary", {})
    if kind != "relatorio":
        # Only the engines whose findings the document names (a finding's source is the
        # vessel check's key: "quota" is the crew-quota engine's).
        named = {str(f.get("source", ""))[len("engine:"):] for f in findings
                 if str(f.get("source", "")).startswith("engine:")}
        named |= {"crew_quota"} if "quota" in named else set()
        by_engine = {k: v for k, v in by_engine.items() if k in named}
    readings = {i["id"]: i for s in by_engine.values() for i in s.get("interpretations", [])}
    unconfirmed = {u["name"]: u for s in by_engine.values() for u in s.get("unconfirmed", [])}
    return sorted(readings.values(), key=lambda i: str(i["id"])), list(unconfirmed.values())


def issuing_body(day: dt.date) -> dict[str, Any]:
    """The body an act of ``day`` is issued in the name of (law/data/issuing_body.yaml:
    ministry, secretariat, the act that named it, whether that was confirmed); the first
    row's for an earlier day."""
    rows = load_data("abordo.law", "data/issuing_body.yaml")["bodies"]
    now = [r for r in rows if r["from"] <= day]
    return dict(now[-1] if now else rows[0])


def _body_unconfirmed(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The issuing body's name as an unconfirmed parameter of the document, when it is."""
    if body.get("confirmed"):
        return []
    return [{"name": "órgão emissor na data do ato", "value": body["ministry"],
             "source": f"denominação segundo {body['act']}, não conferida no Diário Oficial"}]


def _act_day(data: dict[str, Any], kind: str, chosen: dict[str, Any]) -> dt.date:
    """The day of the act a document writes (its header's names are that day's)."""
    day: Any = None
    if kind == "notificacao":
        day = chosen.get("issued_on")
    elif kind == "auto-infracao":
        autos = data.get("autos", [])
        day = autos[-1].get("drafted_on") if autos else None
    elif kind == "relatorio":
        day = (data.get("report") or {}).get("written_on")
    else:
        return _letter_day(data, kind)
    return _stored_day(day or data["complaint"]["date"])


def _letter_day(data: dict[str, Any], kind: str) -> dt.date:
    """The day a document speaks of: its act's day (a letter's), else the complaint's."""
    step = LETTER_STEP.get(kind)
    sent = [e for e in data.get("escalations", []) if e.get("kind") == step] if step else []
    day = sent[-1].get("on") if sent else None
    return _stored_day(day or data["complaint"]["date"])


def signers(data: dict[str, Any]) -> list[str]:
    """Every e-mail a recorded act names as its team (to look their names up)."""
    acts = [*data.get("notifications", []), *data.get("escalations", []),
            *data.get("autos", []), data.get("report") or {}]
    named = [e for a in acts for e in (a.get("team") or [])]
    named += [a[k] for a in acts for k in ("drafted_by", "written_by") if a.get(k)]
    named += [a["voided"]["by"] for a in data.get("autos", []) if a.get("voided")]
    return list(dict.fromkeys(named))


def _norm_label(norm_id: str | None) -> str:
    """``in-mtp-2-2021`` → ``IN MTP nº 2/2021`` (an id the registry does not know as is)."""
    reg = norm_registry()
    return reg[norm_id].label if norm_id and norm_id in reg else (norm_id or "—")


def _resolutions(data: dict[str, Any]) -> list[str]:
    """The CNIg resolutions the engines applied (named in an art. 14 auto's history)."""
    registry = norm_registry()
    out = []
    for summary in ((data.get("engine_run") or {}).get("summary") or {}).values():
        regime = str(summary.get("regime") or "")
        if regime.startswith("cnig") and regime in registry:
            out.append(registry[regime].label)
    return list(dict.fromkeys(out))


def found_days(data: dict[str, Any], auto: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """When the violations an auto covers were found, as its history says it: each day
    (ISO, in order) with the findings of that day. An inspector's finding (``add_finding``,
    an irregular physical check) on its ``found_on``; an engine's on the date its run
    judged (``engine_run.on``: the engines' findings are those of the current run — a new
    run is refused while an auto covers them —; without the run's record, the case's date
    of facts, which a run sets). A finding stored before it carried its day is dated by the
    auto (not found after it was fined)."""
    by_id = {f.get("id"): f for f in data.get("findings", [])}
    run_on = (data.get("engine_run") or {}).get("on") or data.get("on")
    days: dict[str, list[str]] = {}
    for fid in auto.get("findings", []):
        f = by_id.get(fid) or {}
        engine = str(f.get("source", "")).startswith("engine:")
        day = (run_on if engine else f.get("found_on")) or auto.get("drafted_on")
        if day:
            days.setdefault(str(day)[:10], []).append(str(fid))
    return sorted(days.items())


def found_when(data: dict[str, Any], auto: dict[str, Any]) -> str:
    """:func:`found_days` in words, after "constatou-se": ``em 13/11/2026``, or each day
    with its findings when they differ (``em 10/11/2026 (F1) e em 13/11/2026 (F3, F4)``)."""
    days = found_days(data, auto)
    if len(days) <= 1:
        return f"em {d(days[0][0] if days else auto.get('drafted_on'))}"
    parts = [f"em {d(day)} ({', '.join(ids)})" for day, ids in days]
    return ", ".join(parts[:-1]) + " e " + parts[-1]


# Who acts on a deadline the case does not record (Decreto 6.968/2009, III).
_OTHERS = {"repatriation_foreign_ministry": "a cargo do Ministério das Relações Exteriores",
           "repatriation_shore_lodging": "a cargo do armador ou de seu representante"}


def deadline_status(deadline: dict[str, Any], report_day: str | None = None) -> str:
    """A tracked deadline's situation as the relatório states it (``report_day``: the
    report's date — a deadline met after it is said so)."""
    status = deadline.get("status")
    if status == "met" and deadline.get("kind") == "notification":
        return f"atendido (resultado registrado em {d(deadline['met_on'])})"
    if status == "met":
        met_on = str(deadline["met_on"])
        return (f"cumprido em {d(met_on)}"
                + (", após o vencimento" if deadline.get("late") else "")
                + (", após a data deste relatório"
                   if report_day and met_on > str(report_day)[:10] else ""))
    if status == "unmet":
        return "não atendido"
    if status == "not_recorded":
        return f"{_OTHERS.get(str(deadline.get('kind')), 'providência de terceiros')} (não " \
            "registrado no caso)"
    return "em aberto: nenhum cumprimento registrado"


def _act_team(kind: str, data: dict[str, Any], chosen: dict[str, Any]) -> list[str] | None:
    """The team recorded with the act a document writes (None: recorded before acts kept
    their team — the case's team is shown)."""
    if kind == "notificacao":
        return chosen.get("team")
    if kind in LETTER_STEP:
        sent = [e for e in data.get("escalations", []) if e.get("kind") == LETTER_STEP[kind]]
        return sent[-1].get("team") if sent else None
    if kind == "auto-infracao":
        autos = data.get("autos", [])
        return autos[-1].get("team") if autos else None
    return (data.get("report") or {}).get("team")


def render(kind: str, case: Case, *, team: Sequence[str] = (),
           people: dict[str, str] | None = None,
           attachments: Sequence[Attachment] = (), notification: str | None = None,
           auto: str | None = None) -> str:
    """HTML of one document; 409 (TransitionRefused) when the case has no such step yet.
    ``notification``: which notification ``notificacao`` renders (default: the latest);
    ``auto``: which auto ``auto-infracao`` renders (default: every auto of the case);
    ``team``: the case's team now (e-mails); ``people``: how each e-mail signs. A document
    is signed by the team recorded with its act — a document printed later says what was so
    on its day."""
    data = case.data
    if kind not in available(data):
        raise TransitionRefused(f"documento '{kind}' indisponível neste caso: o passo "
                                f"correspondente ainda não foi registrado ‖ document '{kind}' "
                                "not available in this case: its step is not recorded yet",
                                "kind")
    if kind == "auto-infracao":
        active = steps.active_autos(data)
        picked = active if auto is None else [a for a in active if a.get("id") == auto]
        if not picked:
            there = ", ".join(str(a.get("id")) for a in active)
            voided = any(a.get("id") == auto for a in data.get("autos", []))
            raise InputError(f"auto '{auto}' {'anulado' if voided else 'não existe'} neste "
                             f"caso (autos em vigor: {there})", "auto",
                             message_en=f"auto '{auto}' {'voided' if voided else 'absent'} in "
                             f"this case (autos in force: {there})")
        data = {**data, "autos": picked}  # the document, its team, day and basis: those
    notes = data.get("notifications") or [{}]
    chosen = notes[-1] if notification is None or kind != "notificacao" else next(
        (n for n in notes if n.get("id") == notification), None)
    if chosen is None:
        there = ", ".join(str(n.get("id")) for n in notes)
        raise InputError(f"notificação '{notification}' não existe neste caso (há: {there})",
                         "notification", message_en=f"no notification '{notification}' in "
                         f"this case (there are: {there})")
    vc = data.get("vessel_case") or {}
    vessel = {**(vc.get("vessel") or {})}
    pb = data.get("pre_boarding") or {}
    vessel.setdefault("name", case.vessel_name or pb.get("vessel_name"))
    if not vessel.get("flag") and pb.get("flag"):
        vessel["flag"] = pb.get("flag")
    findings = data.get("findings", [])
    violations = steps.violations(data)
    # Art. 10, I is about safety, health and hygiene aboard: the consul's ofício lists the
    # inspectors' and physical-check findings, not the quota / immigration / document ones.
    inspectors = [v for v in violations if not str(v.get("source", "")).startswith("engine:")]
    # A letter already sent says what was so on its day: the notifications unmet by then and
    # the findings they named (not those recorded after it).
    unmet = [n for n in data.get("notifications", []) if n.get("outcome") == "not_remedied"]
    if kind in LETTER_STEP:
        sent = [e for e in data.get("escalations", []) if e.get("kind") == LETTER_STEP[kind]]
        if sent and "answers" in sent[-1]:  # the notifications this letter answers
            unmet = [n for n in unmet if n.get("id") in sent[-1]["answers"]] or unmet
        else:
            day = str(sent[-1].get("on", "")) if sent else ""
            unmet = [n for n in unmet if str(n.get("outcome_on", "")) <= day] or unmet
            if kind == "oficio-consul":
                unmet = [n for n in unmet if n.get("risk", "serious_imminent")
                         == "serious_imminent"] or unmet
        if all("items" in n for n in unmet):
            named = {i for n in unmet for i in n["items"]}
            inspectors = [v for v in inspectors if v.get("id") in named]
    safety = [v for v in inspectors if v.get("area") in (None, *commands.SAFETY_AREAS)]
    # Art. 10, III: the persons to repatriate, with what the case knows of each.
    crew_by_id = {m.get("id"): m for m in (vc.get("crew") or [])}
    repatriation = [
        {"id": pid, "rank": (crew_by_id.get(pid) or {}).get("rank"),
         "nationality": (crew_by_id.get(pid) or {}).get("nationality") or []}
        for e in data.get("escalations", []) if e.get("kind") == "federal_police"
        for pid in e.get("crew") or []]
    # The notification states what was notified when it was issued (art. 9): a finding
    # recorded afterwards (a physical check) is not in it, however often it is printed.
    notified = ([f for f in findings if f.get("id") in set(chosen["items"])]
                if "items" in chosen else violations)
    named_in = {"notificacao": notified, "oficio-consul": safety,
                "oficio-policia-federal": inspectors,
                "auto-infracao": [f for f in findings if f.get("id") in {
                    i for a in data.get("autos", []) for i in a.get("findings", [])}]}
    readings, unconfirmed = _readings(data, kind, named_in.get(kind, findings))
    body = issuing_body(_act_day(data, kind, chosen))
    act_team = _act_team(kind, data, chosen)
    signing = act_team if act_team is not None else list(team)  # [] stays []: none then
    title = "Notificação ao armador e ao comandante" if kind == "notificacao" and "shipowner" in \
        chosen.get("addressees", []) else TITLES[kind]
    return render_html(
        f"cases/{kind}.html.j2", "pt", case=case, data=data, vessel=vessel,
        operation=vc.get("operation") or {}, findings=findings,
        violations=violations, safety_violations=safety, notified=notified,
        inspector_violations=inspectors, repatriation=repatriation, notification=chosen,
        unmet=unmet or (data.get("notifications") or [])[-1:],
        c166=commands.C166_SITUATIONS,
        # A notification speaks as it was issued (its basis: art. 2 on a national vessel).
        national=(chosen.get("basis") or {}).get("provision") == "art. 2º"
        if kind == "notificacao" else steps.national(data),
        c166_decree=steps.c166_decree_in_force(_letter_day(data, kind)),
        title=title, team=[(people or {}).get(e, e) for e in signing],
        person=lambda e: (people or {}).get(e, e), resolutions=_resolutions(data),
        found_when=lambda a: found_when(data, a),
        deadline_status=lambda x: deadline_status(x, (data.get("report") or {}).get(
            "written_on")),
        readings=readings, unconfirmed=[*unconfirmed, *_body_unconfirmed(body)],
        body=body, body_of=lambda day: issuing_body(_stored_day(day)),
        # Where the acts are dated: the port's municipality when recorded, else the region.
        place=pb.get("port") or case.region,
        attachments=attachments, d=d, d_long=d_long, citations=_citations(data, kind, chosen,
                                                   safety if kind == "oficio-consul"
                                                   else inspectors), pre_boarding=pb,
        finding_text=_finding_text(vc),
        source_label=commands.SOURCE_LABELS, state_label=commands.STATE_LABELS,
        area_label=commands.AREA_LABELS, today=brasilia_date(),
        deadlines=steps.deadlines(data), open_steps=steps.open_steps(data),
        # A flag mismatch is for the inspectors (the relatório), not for the addressees.
        warnings=[w for w in checklist.case_warnings(data, brasilia_date(case.created_at)
                                                    if case.created_at else None)
                  if kind == "relatorio" or w.get("code") != "flag_mismatch"],
        workflow_procedure=checklist.PROCEDURE, label=labels.label, country=labels.country,
        norm_label=_norm_label,

        engine_label={"quota": "Cota de brasileiros", "crew_quota": "Cota de brasileiros",
                      "immigration": "Imigração (vistos e autorizações)",
                      "checklist": "Documentos exigidos"},
    )


def to_pdf(html: str) -> bytes:
    from weasyprint import HTML

    pdf: bytes = HTML(string=html).write_pdf()
    return pdf

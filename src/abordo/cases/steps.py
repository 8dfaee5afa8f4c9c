"""What a case's data says now (IN SIT 70/2007): its violations and what is still owed on
them — notifications (art. 9), the art. 10 steps, autos (art. 2, sole paragraph; art. 14) —,
the mandatory steps still open (a case cannot close while any remains), the flag's procedure
(art. 2 for a Brazilian-flag vessel, arts. 3–10 for a foreign one) and the deadlines the case
tracks.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from abordo.cases.checklist import cite, flag_code
from abordo.cases.commands import PRE_BOARDING_REQUIRED
from abordo.law.params import in_window, load_data


def pre_boarding_missing(data: dict[str, Any]) -> list[str]:
    """Art. 5 I–IV facts not yet recorded. A docked or anchored vessel needs them too —
    "após a observância do disposto nos incisos I a IV do art. 5º" (art. 6) — except its
    expected berthing, which being at the berth has settled."""
    if national(data):  # arts. 4–10 are the procedure for foreign-flag vessels (art. 3)
        return []
    facts = data.get("pre_boarding") or {}
    wanted = [k for k in PRE_BOARDING_REQUIRED
              if not (data.get("vessel_docked") and k == "expected_berthing")]
    # ({}: an empty port state control record, stored before PscInspection refused it)
    missing = [k for k in wanted if facts.get(k) in (None, "", {})]
    if facts.get("free_pratique_granted") is False:
        missing.append(NOT_GRANTED[0])
    return missing


# A pre-boarding fact recorded but against boarding: as missing, with why (pt, en).
NOT_GRANTED = ("free_pratique_granted (livre prática não concedida)",
               "free_pratique_granted (free pratique not granted)")


def violations(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in data.get("findings", []) if f.get("severity") == "violation"]


def unnotified(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Violations no notification has named yet (art. 9: each confirmed irregularity is
    notified — one found after a notification needs one of its own)."""
    notes = data.get("notifications", [])
    if any("items" not in n for n in notes):  # stored before notifications named their items
        return []
    named = {i for n in notes for i in n["items"]}
    return [f for f in violations(data) if f["id"] not in named]


def cnig_violations(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Violations of a CNIg resolution found by the engines on a foreign vessel — the
    Brazilians' quota and the foreign crew's immigration status (art. 14: "inclusive em
    relação à admissão de trabalhadores brasileiros"), whether the finding cites the
    resolution itself or the instruction that restates it (art. 13, VI). On a Brazilian-flag
    vessel the quota is Lei 9.432/1997's: its violations are autos of the ementário (art. 2)."""
    if national(data):
        return []
    return [f for f in violations(data)
            if f.get("source") in ("engine:quota", "engine:immigration")]


def without_auto(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Violations on a Brazilian-flag vessel that no auto covers yet: art. 2, sole paragraph
    — "às violações das normas legais deve corresponder a lavratura de autos de infração,
    conforme ementário"."""
    if not national(data):
        return []
    covered = {f for a in active_autos(data) for f in a.get("findings", [])}
    return [f for f in violations(data) if f["id"] not in covered]


def escalated(data: dict[str, Any], kind: str) -> bool:
    return any(e["kind"] == kind for e in data.get("escalations", []))


def open_step_details(data: dict[str, Any], *, for_report: bool = False
                      ) -> list[dict[str, Any]]:
    """Mandatory steps still open (a case cannot close while any remains), each
    ``{id, label, items?}`` with Portuguese labels (``items``: pending documents)."""
    out: list[dict[str, Any]] = []
    pending = [{"id": i["item"], "label": i.get("label") or i["item"]}
               for i in data.get("checklist", []) if i["status"] == "pending"]
    if pending:
        out.append({"id": "documents", "label": "documentos sem registro de recebido/ausente",
                    "items": pending})
    if crew_list_unrecorded(data):
        out.append({"id": "crew_data",
                    "label": "lista de tripulantes recebida e não registrada: registre-a "
                             "(set_vessel_case) e verifique a cota e a imigração (run_engines)"})
    if engines_due(data):
        # "Findings feed the engines" (spec): a crew list no engine has judged cannot end
        # in a report of no irregularity — nor skip the art. 14 auto it may owe.
        out.append({"id": "engines",
                    "label": "verificação da cota de brasileiros e da imigração sobre a lista "
                             "de tripulantes atual (run_engines)"})
    labels = {"detention_request": "ofício ao cônsul e à autoridade marítima (art. 10, I)",
              "federal_police": "ofício à Polícia Federal (art. 10, III)",
              "mediation": "registro de mediação da greve (art. 10, IV)"}
    out += [{"id": kind, "label": labels[kind]} for kind in open_duties(data)]
    if cnig_violations(data) and not art14_autos(data):
        out.append({"id": "quota_auto",
                    "label": "auto de infração por descumprimento de Resolução Normativa do "
                             "CNIg — cota ou imigração (art. 14)"})
    uncovered = without_auto(data)
    if uncovered:
        out.append({"id": "national_autos",
                    "label": "autos de infração conforme o ementário, embarcação nacional "
                             "(art. 2º, parágrafo único), para: "
                             + ", ".join(f["id"] for f in uncovered)})
    notes = data.get("notifications", [])
    if notes and notes[-1].get("outcome") is None:
        out.append({"id": "notification_outcome",
                    "label": "resultado da notificação (atendida ou não)"})
    late = unnotified(data) if notes else []
    if late:
        out.append({"id": "notification_pending",
                    "label": "irregularidades constatadas após a notificação, ainda não "
                             "notificadas (art. 9º): " + ", ".join(f["id"] for f in late)})
    if not for_report and not data.get("report"):
        out.append({"id": "report", "label": "relatório circunstanciado (art. 11)"})
    return out


def crew_list_unrecorded(data: dict[str, Any]) -> bool:
    """The crew list was received (art. 7) before any notification but its data never given
    to the engines: the quota and immigration findings it feeds (arts. 12–14) are then still
    owed. (After a notification the crew list can no longer be set — a list that comes in
    later is recorded as received only.)"""
    # (A case reported before this step existed is not held to it: nothing could clear it.)
    return not ((data.get("vessel_case") or {}).get("crew")) and not data.get("notifications") \
        and not data.get("report") and any(
            i["item"] == "crew_list" and i["status"] == "received"
            for i in data.get("checklist", []))


def documents_held_unlisted(data: dict[str, Any]) -> list[str]:
    """Persons (ids, sorted) whose every document item of the checklist (art. 13, III and V)
    is recorded received while their crew-list entry gives no document: the engines judge
    them without what the inspector holds."""
    statuses: dict[str, set[str]] = {}
    for i in data.get("checklist", []):
        if i.get("subject") is not None:
            statuses.setdefault(str(i["subject"]), set()).add(str(i.get("status")))
    crew = (data.get("vessel_case") or {}).get("crew") or []
    return sorted(str(m.get("id")) for m in crew
                  if statuses.get(str(m.get("id"))) == {"received"} and not m.get("documents"))


def engines_due(data: dict[str, Any]) -> bool:
    """A vessel case is set and the engines have not judged it as it stands. (Cases stored
    before the digest was kept carry none: they are not held to it.)"""
    return bool(data.get("vessel_case") and data.get("vessel_case_sha256")
                and not engines_current(data))


def engines_current(data: dict[str, Any]) -> bool:
    """The engines ran on the vessel case as it now stands (a later ``set_vessel_case``
    makes their findings stale), and on the documents recorded as they now are (a person's
    documents recorded otherwise since changes which findings are warnings)."""
    run: dict[str, Any] = data.get("engine_run") or {}
    held = run.get("documents_held")  # (absent in runs stored before it was kept)
    # Once notified or under an auto the findings stand (the engines are not run
    # again): a document recorded later is for the report, not a new judgement.
    settled = held is None or bool(data.get("notifications")) or bool(engine_autos(data))
    return bool(run) and run.get("vessel_case_sha256") == data.get("vessel_case_sha256") \
        and (settled or held == documents_held_unlisted(data))


def open_steps(data: dict[str, Any], *, for_report: bool = False) -> list[str]:
    """The open steps as sentences (pending documents by label, with their ids)."""
    return [step_sentence(s) for s in open_step_details(data, for_report=for_report)]


def step_sentence(step: dict[str, Any]) -> str:
    items = ", ".join(f"{i['label']} [{i['id']}]" for i in step.get("items") or [])
    return f"{step['label']}: {items}" if items else str(step["label"])


ART14_KINDS = ("cnig", "quota")  # the art. 14 auto (kind "quota" is the same auto)


def active_autos(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The case's autos not voided (``void_auto``)."""
    return [a for a in data.get("autos", []) if not a.get("voided")]


def art14_autos(data: dict[str, Any]) -> list[str]:
    """Ids of the case's art. 14 autos (at most one: it covers the engines' findings)."""
    return [a["id"] for a in active_autos(data) if a["kind"] in ART14_KINDS]


def engine_autos(data: dict[str, Any]) -> list[str]:
    """Ids of the autos in force that cover a finding of the engines: the art. 14 auto, and
    an ementário auto drafted on one (a Brazilian-flag vessel's Lei 9.432/1997 quota, art.
    2, sole paragraph). A new run would replace those findings under them — the auto in
    force on a finding the case no longer has, and the same fact fined again."""
    engine = {f["id"] for f in data.get("findings", [])
              if str(f.get("source", "")).startswith("engine:")}
    return [a["id"] for a in active_autos(data)
            if a["kind"] in ART14_KINDS or engine & set(a.get("findings", []))]


def brazilian_company(data: dict[str, Any]) -> dict[str, Any] | None:
    op = (data.get("vessel_case") or {}).get("operation") or {}
    company = op.get("brazilian_company")
    return company if company and (company.get("name") or company.get("cnpj")) else None


DUTIES = {"detention_request": ("risk", "serious_imminent"),
          "federal_police": ("repatriation", True), "mediation": ("strike", True)}


def awaiting(data: dict[str, Any], kind: str) -> list[str]:
    """Ids of the unmet notifications that call for the art. 10 step ``kind`` and that no
    such step has answered yet (each step records the notifications it answers; one stored
    before that answers those unmet by its date). Notifications stored before outcomes were
    kept per notification fall back on the case's ``not_remedied``."""
    if national(data):  # art. 10 is of Seção II: foreign-flag vessels (art. 3)
        return []
    key, value = DUTIES[kind]
    nr = data.get("not_remedied") or {}
    steps = [e for e in data.get("escalations", []) if e.get("kind") == kind]
    out = []
    for n in data.get("notifications", []):
        if n.get("outcome") != "not_remedied" or n.get(key, nr.get(key)) != value:
            continue
        answered = any(n["id"] in e["answers"] if "answers" in e
                       else str(e.get("on", "")) >= str(n.get("outcome_on", ""))
                       for e in steps)
        if not answered:
            out.append(n["id"])
    return out


def open_duties(data: dict[str, Any]) -> list[str]:
    """The art. 10 steps still owed: each unmet notification has its own (a later serious
    risk needs a new letter to the consul)."""
    return [kind for kind in DUTIES if awaiting(data, kind)]


def national(d: dict[str, Any]) -> bool:
    """A Brazilian-flag vessel (Seção I, art. 2), by the vessel facts or else the
    pre-boarding (any way of writing the country: BR, BRA, Brasil)."""
    flag = flag_code(((d.get("vessel_case") or {}).get("vessel") or {}).get("flag")) \
        or flag_code((d.get("pre_boarding") or {}).get("flag"))
    return flag == "BR"


# --------------------------------------------------------------------------- deadlines

def repatriation_notice(data: dict[str, Any]) -> dict[str, Any] | None:
    """The first unmet notification that raised the repatriation (the refusal Decreto
    6.968/2009 counts from), or None (none, or a case stored before notifications kept
    their outcome)."""
    return next((n for n in data.get("notifications", [])
                 if n.get("outcome") == "not_remedied" and n.get("repatriation")), None)


def _refusal_day(data: dict[str, Any]) -> dt.date | None:
    """The day the shipowner refused the repatriation, from which Decreto 6.968/2009 (arts. 3
    and 5 § 1º, II) counts the 48 hours of the report: on the first unmet notification that
    raised it, the day of the express refusal (``refused``), else the day after its last day
    — the deadline ran out without it, however late the outcome was entered."""
    first = repatriation_notice(data)
    if first is None:  # (a case stored before notifications kept their outcome)
        day = (data.get("not_remedied") or {}).get("recorded_on")
        return dt.date.fromisoformat(str(day)[:10]) if day else None
    if first.get("refused") and first.get("outcome_on"):
        return dt.date.fromisoformat(str(first["outcome_on"])[:10])
    return dt.date.fromisoformat(due_day(first)[:10]) + dt.timedelta(days=1)


LEI_9784 = "lei-9784-1999"


def due_day(notification: dict[str, Any]) -> str:
    """The last day the notified party has (ISO): the deadline, or the next business day
    when it fell on a day without office hours (``due``)."""
    return str(notification.get("due") or notification["deadline"])


class DecreePath(NamedTuple):
    """One path of Decreto 6.968/2009 through its incisos I (inspection at once after the
    complaint), II (the 48-hour report) and III (the step 15 days after the complaint)."""

    article: str
    inspection: str
    after_kind: str
    after: str


class RepatriationRule(NamedTuple):
    """The entry of ``data/repatriation.yaml`` in force on a date: the norm; inciso II's
    report and its period (``report_within``); inciso III's period (``step_after``); the two
    paths, keyed by "national vessel" (art. 3 for a Brazilian vessel, art. 5 § 1º for a
    foreign one); whether the table's reading is confirmed."""

    norm: str
    report: str
    report_within: dt.timedelta
    step_after: dt.timedelta
    paths: dict[bool, DecreePath]
    confirmed: bool


def repatriation_rule(on: dt.date) -> RepatriationRule | None:
    """The repatriation deadlines in force on ``on`` (Decreto 6.968/2009, the execution of
    ILO C166, promulgated by Decreto 2.670/1998), or None when no entry of the dated table
    covers the date (the case then tracks no repatriation deadline)."""
    for e in load_data("abordo.cases", "data/repatriation.yaml")["repatriation"]:
        if in_window(on, e["valid_from"], e.get("valid_to")):
            return RepatriationRule(
                e["norm"], e["report"], dt.timedelta(days=e["report_within_days"]),
                dt.timedelta(days=e["step_after_days"]),
                {True: DecreePath(**e["paths"]["national"]),
                 False: DecreePath(**e["paths"]["foreign"])},
                bool(e.get("confirmed", True)))
    return None


def c166_decree_in_force(on: dt.date) -> bool:
    """Whether Decreto 6.968/2009 (the execution of ILO C166; its deadlines in arts. 3 and 5)
    is in force on ``on``, as the dated repatriation table says."""
    return repatriation_rule(on) is not None


def repatriation_report_due(data: dict[str, Any]) -> dict[str, Any] | None:
    """The 48-hour report of Decreto 6.968/2009 (arts. 3 and 5 § 1º, II) as
    :func:`deadlines` tracks it, or None when the case owes none (no repatriation refused,
    or a refusal no entry of the dated table covers)."""
    return next((x for x in deadlines(data) if x["kind"] == "repatriation_report_48h"), None)


# A deadline's status (``deadlines``): met — ``met_on`` the day (``late`` when after the
# due day) —, unmet (a notification not remedied), open (the case's own act still owed), or
# not_recorded (another's act — the Foreign Ministry's, the shipowner's —, which the case
# does not record).
DEADLINE_STATUSES = ("met", "unmet", "open", "not_recorded")


def _met(entry: dict[str, Any], day: Any, dated: bool = True) -> dict[str, Any]:
    """``entry`` met on ``day`` (an ISO date, or None: still open); ``dated``: ``day`` is
    the act's own, so one after the due day is ``late`` (a notification's outcome is the
    day it was found met, not the day the party met it: never late)."""
    if not day:
        return {**entry, "status": "open"}
    met_on = str(day)[:10]
    return {**entry, "status": "met", "met_on": met_on,
            **({"late": True} if dated and met_on > entry["due"] else {})}


def open_deadlines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The deadlines whose act the case still owes (status ``open``)."""
    return [x for x in deadlines(data) if x["status"] == "open"]


def deadline_warnings(data: dict[str, Any], today: dt.date) -> list[dict[str, Any]]:
    """A warning per repatriation deadline (Decreto 6.968/2009) the case still owes once its
    day has passed, or once the report is written or the case closed (closing does not wait
    for it: the spec makes the deadlines tracked and shown, not mandatory steps — and these
    are unconfirmed). (A notification's outcome is an open step of its own.)"""
    closed = data.get("closed_on")
    out = []
    for x in open_deadlines(data):
        if x["kind"] not in _RECORDS or not (
                x["due"] < today.isoformat() or data.get("report") or closed):
            continue
        due = dt.date.fromisoformat(x["due"])
        unconfirmed = "" if x.get("confirmed", True) else " (prazo não confirmado)"
        unconfirmed_en = "" if x.get("confirmed", True) else " (unconfirmed deadline)"
        basis = (x.get("basis") or {}).get("label") or ""
        if closed:
            pt = (f"Caso encerrado com prazo em aberto: {x['text']}, vencimento em "
                  f"{due:%d/%m/%Y}{unconfirmed} — {basis}; nenhum cumprimento registrado.")
            en = (f"Case closed with a deadline open: {x['kind']}, due {due.isoformat()}"
                  f"{unconfirmed_en} — {basis}; no compliance recorded.")
        else:
            pt = (f"Prazo em aberto: {x['text']}, vencimento em {due:%d/%m/%Y}{unconfirmed} — "
                  f"{basis}; registre {_RECORDS[x['kind']][0]}, se houve.")
            en = (f"Deadline open: {x['kind']}, due {due.isoformat()}{unconfirmed_en} — "
                  f"{basis}; record {_RECORDS[x['kind']][1]} if it took place.")
        out.append({"code": "deadline_open", "message": pt, "message_en": en,
                    "deadline": x["kind"], "due": x["due"]})
    return out


# The act (and its command) that meets each repatriation deadline the case may leave open
# (Portuguese, English).
_RECORDS = {"repatriation_inspection": ("o início da apuração (start_assessment)",
                                        "the assessment's start (start_assessment)"),
            "repatriation_report_48h": ("o envio do relatório (record_repatriation_report)",
                                        "the report sent (record_repatriation_report)")}


def deadlines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Deadlines the case tracks, computed with their basis and status (met, with
    ``met_on``; unmet; open; not_recorded: :data:`DEADLINE_STATUSES`)."""
    out: list[dict[str, Any]] = []
    for n in data.get("notifications", []):
        moved = f" (prazo fixado em {dt.date.fromisoformat(n['deadline']):%d/%m/%Y}, dia sem " \
            "expediente: vence no dia útil seguinte)" if n.get("due") else ""
        entry = {"kind": "notification", "due": due_day(n), "confirmed": True,
                 "text": f"Prazo da notificação {n['id']} "
                         + ("ao armador e ao comandante" if "shipowner" in
                            n.get("addressees", []) else "ao agente e ao comandante")
                         + moved,
                 "basis": n.get("due_basis") or n.get("basis")}
        # met by the notified party (remedied), or not (art. 10)
        out.append({**entry, "status": "unmet"} if n.get("outcome") == "not_remedied"
                   else _met(entry, n.get("outcome_on") if n.get("outcome") else None,
                             dated=False))
    nr = data.get("not_remedied") or {}
    asked = data.get("complaint") or {}
    # A repatriation asked in the complaint, or raised by an unmet notification.
    if not (asked.get("repatriation") or nr.get("repatriation")):
        return out
    complaint = dt.date.fromisoformat(str(asked["date"])[:10])
    rule = repatriation_rule(_refusal_day(data) or complaint)
    if rule is None:
        return out
    path = rule.paths[national(data)]
    started = (data.get("assessment") or {}).get("started_on")
    out.append(_met({"kind": "repatriation_inspection", "due": complaint.isoformat(),
                     "confirmed": rule.confirmed, "text": path.inspection,
                     "basis": cite(f"{path.article}, I", rule.norm)}, started))
    refused = _refusal_day(data) if nr.get("repatriation") else None
    if refused is not None:
        # met when the report's sending is recorded (record_repatriation_report)
        out.append(_met({"kind": "repatriation_report_48h",
                         "due": (refused + rule.report_within).isoformat(),
                         "confirmed": rule.confirmed, "text": rule.report,
                         "basis": cite(f"{path.article}, II", rule.norm)},
                        (data.get("repatriation_report") or {}).get("sent_on")))
    # the Foreign Ministry's or the shipowner's act: not the inspection's to record
    out.append({"kind": path.after_kind, "due": (complaint + rule.step_after).isoformat(),
                "confirmed": rule.confirmed, "text": path.after,
                "basis": cite(f"{path.article}, III", rule.norm), "status": "not_recorded"})
    return out

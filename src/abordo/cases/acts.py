"""The commands that issue the inspection's acts (IN SIT 70/2007 arts. 4, 9–11): the
notification and its outcome, the art. 10 steps on an unmet one, the report, the closing
and the team — one handler per command (:data:`abordo.cases.act.Handler`), dispatched by
:mod:`abordo.cases.workflow`. The autos (art. 14; art. 2, sole paragraph) are in
:mod:`abordo.cases.autos`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from abordo.cases.act import Act, case_day
from abordo.cases.checklist import cite
from abordo.cases.commands import (
    SAFETY_AREAS,
    AssignTeam,
    Close,
    CommandInvalid,
    Notify,
    RecordMediation,
    RecordNotRemedied,
    RecordRemedied,
    RecordRepatriationReport,
    ReferFederalPolice,
    RequestDetention,
    TransitionRefused,
    WriteReport,
)
from abordo.cases.steps import (
    DUTIES,
    LEI_9784,
    awaiting,
    due_day,
    national,
    open_deadlines,
    repatriation_report_due,
    unnotified,
)
from abordo.crew.model import nationality_codes
from abordo.law.calendar import add_business_days, is_business_day

RISK_ORDER = ["lesser_safety", "contractual_wage", "serious_imminent"]  # art. 10, II → I


REPORT_RECIPIENTS = ["Coordenação Nacional de Inspeção do Trabalho Portuário e Aquaviário",
                     "chefia de fiscalização regional"]  # art. 11

# --------------------------------------------------------------------------- handlers


def notify(d: dict[str, Any], cmd: Notify, act: Act) -> dict[str, Any]:
    """Art. 9 (art. 2 on a national vessel): the findings not yet notified, with a deadline,
    to the agent (the shipowner on a national vessel) and the master."""
    issued = (case_day(d, cmd.issued_on, act.today, "issued_on",
                       ("da notificação", "the notification's"))
              if cmd.issued_on else dt.date.fromisoformat(act.when))
    if cmd.deadline < issued:
        raise CommandInvalid("prazo anterior à data da notificação ‖ deadline "
                             "before the notification's date", "deadline")
    # A deadline falling on a day without office hours (weekend, national holiday or
    # one of the region's state — the SRTE's and the port's) runs to the next business
    # day (Lei 9.784/1999, art. 66, § 1º): recorded as given, ``due`` says until when.
    region = act.extra.get("region")
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
        "team": act.extra.get("team_now")})
    return {**act.payload, "notification": d["notifications"][-1]["id"],
            "items": d["notifications"][-1]["items"]}


def record_remedied(d: dict[str, Any], cmd: RecordRemedied, act: Act) -> dict[str, Any]:
    """Art. 9: the last notification met."""
    d["notifications"][-1]["outcome"] = "remedied"
    d["notifications"][-1]["outcome_on"] = act.when
    return act.payload


def record_not_remedied(d: dict[str, Any], cmd: RecordNotRemedied, act: Act
                        ) -> dict[str, Any]:
    """Art. 10: the last notification not met (after its deadline, or on an express
    refusal), with the risk and situations that decide the art. 10 steps owed."""
    _after_deadline(d["notifications"][-1], act.when, cmd.refused)
    _serious_needs_safety(d, d["notifications"][-1], cmd.risk)
    d["notifications"][-1] |= {"outcome": "not_remedied", "refused": cmd.refused,
                               "outcome_on": act.when, "risk": cmd.risk,
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
        "recorded_on": prev.get("recorded_on") or act.when,
        "notifications": [*prev.get("notifications", []),
                          d["notifications"][-1]["id"]]}
    return act.payload


def request_detention(d: dict[str, Any], cmd: RequestDetention, act: Act) -> dict[str, Any]:
    """Art. 10, I: serious and imminent risk — the consul of the flag state and the maritime
    authority, with the request to detain the ship."""
    _escalate(d, "detention_request", act.when, cmd.notes, "art. 10, I",
              consul=cmd.consul, team=act.extra.get("team_now"))
    return act.payload


def refer_federal_police(d: dict[str, Any], cmd: ReferFederalPolice, act: Act
                         ) -> dict[str, Any]:
    """Art. 10, III: the ofício to the Federal Police for the repatriation of foreign crew
    members of the case's list, in a case of ILO C166 art. 2."""
    # crew (at least one) and situation are required by the command's model (art. 10, III).
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
    _escalate(d, "federal_police", act.when, cmd.notes, "art. 10, III",
              crew=list(dict.fromkeys(cmd.crew)), situation=cmd.situation,
              team=act.extra.get("team_now"))
    return act.payload


def record_mediation(d: dict[str, Any], cmd: RecordMediation, act: Act) -> dict[str, Any]:
    """Art. 10, IV: the crew on strike — the mediation record."""
    _escalate(d, "mediation", act.when, cmd.notes, "art. 10, IV",
              team=act.extra.get("team_now"))
    return act.payload


def record_repatriation_report(d: dict[str, Any], cmd: RecordRepatriationReport, act: Act
                               ) -> dict[str, Any]:
    """Decreto 6.968/2009 (arts. 3 and 5 § 1º, II): the report to the Secretariat on the
    shipowner's refusal to repatriate, sent on the day recorded — the 48-hour deadline met
    (late when after its due day: the record says so, it does not refuse a late report)."""
    owed = repatriation_report_due(d)
    assert owed is not None  # (the transition's guard)
    d["repatriation_report"] = {"sent_on": act.when, "reference": cmd.reference,
                                "recorded_by": act.actor, "due": owed["due"],
                                "basis": owed["basis"]}
    return {**act.payload, "due": owed["due"], "late": act.when > owed["due"]}


def write_report(d: dict[str, Any], cmd: WriteReport, act: Act) -> dict[str, Any]:
    """Arts. 11 and 15: the relatório circunstanciado, to the national coordination and the
    regional chief."""
    unmet = bool(d.get("not_remedied"))
    d["report"] = {"written_on": act.when, "summary": cmd.summary, "written_by": act.actor,
                   "team": act.extra.get("team_now"),
                   # the international advisory (art. 11) is for foreign ships
                   "forward_international": cmd.forward_international
                   if cmd.forward_international is not None
                   else unmet and not national(d),
                   "recipients": REPORT_RECIPIENTS,
                   "basis": [cite("art. 11"), cite("art. 15")]}
    return act.payload


def close(d: dict[str, Any], cmd: Close, act: Act) -> dict[str, Any]:
    """Art. 11: the case closed, after its report. A deadline whose act is still owed (the
    48-hour repatriation report: tracked and shown, not a mandatory step) does not hold it:
    the event logs it, and the case view and the relatório say so."""
    d["closed_on"] = act.when
    still = [{"kind": x["kind"], "due": x["due"]} for x in open_deadlines(d)]
    return {**act.payload, **({"open_deadlines": still} if still else {})}


def assign_team(d: dict[str, Any], cmd: AssignTeam, act: Act) -> dict[str, Any]:
    """Art. 4, sole paragraph: the inspection team, as the service resolved it."""
    d["team"] = act.extra["team"]
    # The inspector who opened the case stays in it: the team as it now is.
    return {**act.payload, "team_after": act.extra["team"]}


# --------------------------------------------------------------------------- helpers

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

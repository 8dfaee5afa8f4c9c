"""The ONE transition table of the inspection workflow (IN SIT 70/2007): for each command,
the states it may be given in, the state it leads to, its guards (each names the provision
it applies), its legal basis and who may run it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from abordo.cases.commands import OPEN_STATES, PRE_BOARDING_WORDS, State
from abordo.cases.steps import (
    NOT_GRANTED,
    active_autos,
    crew_list_unrecorded,
    engines_due,
    national,
    open_duties,
    open_step_details,
    pre_boarding_missing,
    repatriation_report_due,
    step_sentence,
    unnotified,
    violations,
)

# --------------------------------------------------------------------------- guards

Guard = Callable[[dict[str, Any]], str | None]


def g_engines_current(d: dict[str, Any]) -> str | None:
    """Guard of ``notify``: after it the crew list can no longer change nor be judged, so
    the engines must have judged it first (their findings are notified too)."""
    if crew_list_unrecorded(d):
        return ("a lista de tripulantes foi recebida: registre-a antes (set_vessel_case) e "
                "rode os motores (run_engines) — suas constatações entram na notificação ‖ "
                "the crew list was received: record it first (set_vessel_case) and run the "
                "engines (run_engines) — their findings go into the notification")
    return ("rode antes os motores sobre a lista de tripulantes atual (run_engines): suas "
            "constatações entram na notificação ‖ run the engines on the current crew list "
            "first (run_engines): their findings go into the notification"
            ) if engines_due(d) else None


def g_has_team(d: dict[str, Any]) -> str | None:
    """Guard of the acts whose document the case's team signs (art. 4, sole paragraph)."""
    return ("este ato gera documento assinado pela equipe de fiscalização, e o caso não tem "
            "equipe: designe-a antes (assign_team) ‖ this act produces a document signed by "
            "the inspection team, and the case has no team: assign it first (assign_team)"
            ) if d.get("team") == [] else None


def g_not_docked(d: dict[str, Any]) -> str | None:
    return ("embarcação atracada ou fundeada: a investigação prévia (art. 5) é dispensada ‖ "
            "vessel berthed or anchored: the prior investigation (art. 5) is waived"
            ) if d.get("vessel_docked") else None


def g_boarding_prepared(d: dict[str, Any]) -> str | None:
    """A foreign vessel not yet docked is boarded after the prior investigation (art. 5):
    the case goes through ``pre_boarding``, even when its facts came with the complaint."""
    if d.get("_state") == State.RECEIVED and not d.get("vessel_docked") and not national(d):
        return ("embarcação não atracada: faça antes a investigação prévia (art. 5º) — "
                "start_pre_boarding ‖ vessel not berthed: carry out the prior investigation "
                "(art. 5) first — start_pre_boarding")
    return None


def g_pre_boarding_met(d: dict[str, Any]) -> str | None:
    missing = pre_boarding_missing(d)
    if not missing:
        return None
    refused = NOT_GRANTED[0] in missing  # a fact recorded, and against boarding
    absent = [m for m in missing if m != NOT_GRANTED[0]]
    pt_parts, en_parts = [], []
    if absent:
        where = ("embarcação atracada ou fundeada: observe antes os incisos I a IV do art. 5º "
                 "(art. 6º) — faltam: " if d.get("vessel_docked") else
                 "embarcação não atracada: faltam informações da investigação prévia (art. "
                 "5): ")
        where_en = ("vessel berthed or anchored: first meet items I to IV of art. 5 (art. 6) "
                    "— missing: " if d.get("vessel_docked") else
                    "vessel not berthed: prior-investigation facts (art. 5) missing: ")
        pt_parts.append(where + ", ".join(f"{PRE_BOARDING_WORDS[m]} ({m})" for m in absent))
        en_parts.append(where_en + ", ".join(absent))
    if refused:
        pt_parts.append("livre prática não concedida (free_pratique_granted): sem ela não se "
                        "embarca (art. 5º, II)")
        en_parts.append("free pratique not granted (free_pratique_granted): no boarding "
                        "without it (art. 5, II)")
    return "; ".join(pt_parts) + " ‖ " + "; ".join(en_parts)


def g_has_vessel_case(d: dict[str, Any]) -> str | None:
    return None if d.get("vessel_case") else (
        "informe antes os dados da embarcação e a lista de tripulantes (set_vessel_case) ‖ "
        "give the vessel's data and crew list first (set_vessel_case)")


def g_has_violation(d: dict[str, Any]) -> str | None:
    notes = d.get("notifications", [])
    if notes and notes[-1].get("outcome") is None:
        return (f"registre antes o resultado da notificação {notes[-1]['id']} ‖ record the "
                f"outcome of notification {notes[-1]['id']} first")
    return None if unnotified(d) else ("não há constatação de irregularidade a notificar ‖ "
                                       "no violation found to notify")


def g_no_outcome(d: dict[str, Any]) -> str | None:
    notes = d.get("notifications", [])
    return None if notes and notes[-1].get("outcome") is None else (
        "o resultado da notificação já foi registrado ‖ the notification's outcome is already "
        "recorded")


NATIONAL_ART10 = ("embarcação de bandeira brasileira: as providências do art. 10 são da ação "
                  "fiscal em embarcação estrangeira (art. 3º); lavre os autos conforme o "
                  "ementário (art. 2º, parágrafo único) ‖ Brazilian-flag vessel: the steps of "
                  "art. 10 belong to the inspection of a foreign vessel (art. 3); issue the "
                  "autos by the ementário (art. 2, sole paragraph)")


def _art10_step(duty: str, refusal: str) -> Guard:
    """Guard of an art. 10 step: a foreign-flag vessel's (art. 3), while an unmet
    notification still calls for ``duty`` (:func:`open_duties`); ``refusal`` otherwise."""
    def guard(d: dict[str, Any]) -> str | None:
        if national(d):
            return NATIONAL_ART10
        return None if duty in open_duties(d) else refusal
    return guard


g_not_remedied_serious = _art10_step(
    "detention_request",
    "pedido de retenção só após notificação não atendida com grave e iminente risco, e uma vez "
    "por notificação (art. 10, I) ‖ a detention request only after an unmet notification "
    "with serious and imminent risk, once per notification (art. 10, I)")
g_repatriation = _art10_step(
    "federal_police",
    "ofício à Polícia Federal só em caso de repatriação, uma vez por notificação (art. 10, "
    "III) ‖ a letter to the Federal Police only for a repatriation, once per notification "
    "(art. 10, III)")
g_strike = _art10_step(
    "mediation",
    "registro de mediação só com a tripulação em greve, uma vez por notificação (art. 10, IV) "
    "‖ a mediation record only with the crew on strike, once per notification (art. 10, IV)")


def g_repatriation_report_owed(d: dict[str, Any]) -> str | None:
    """Guard of ``record_repatriation_report``: the 48-hour report of Decreto 6.968/2009 is
    tracked (a repatriation refused: an unmet notification raising it) and not yet sent."""
    sent = d.get("repatriation_report")
    if sent:
        day = dt.date.fromisoformat(str(sent["sent_on"])[:10])
        return (f"o relatório à Secretaria sobre a repatriação já foi registrado, enviado em "
                f"{day:%d/%m/%Y} ‖ the report to the Secretariat on the repatriation is "
                f"already recorded, sent on {day.isoformat()}")
    if repatriation_report_due(d) is None:
        return ("não há relatório de repatriação em 48 horas a registrar: ele é devido depois "
                "da recusa do armador, registrada como notificação não atendida com "
                "repatriação (record_not_remedied, repatriation), no período do Decreto nº "
                "6.968/2009 ‖ there is no 48-hour repatriation report to record: it is owed "
                "after the shipowner's refusal, recorded as an unmet notification with "
                "repatriation (record_not_remedied, repatriation), within Decreto "
                "6.968/2009's period")
    return None


def g_report_allowed(d: dict[str, Any]) -> str | None:
    if d.get("_state") == State.FINDINGS and violations(d):
        return ("há irregularidades constatadas: notifique antes do relatório (art. 9) ‖ "
                "violations found: notify before the report (art. 9)")
    if d.get("_state") == State.NOTIFIED and not d.get("not_remedied"):
        return ("registre antes o resultado da notificação ‖ record the notification's "
                "outcome first")
    return _open_steps_refusal(d, for_report=True)


def g_quota_auto(d: dict[str, Any]) -> str | None:
    """Guard of ``draft_auto``; the kind-specific checks are in
    :func:`abordo.cases.autos._auto_draft`. After the report, only an auto still owed (a
    case reported before that auto was required)."""
    if not violations(d):
        return "não há irregularidade constatada a autuar ‖ no violation found to fine"
    if d.get("_state") == State.REPORT and not {"quota_auto", "national_autos"} & {
            s["id"] for s in open_step_details(d)}:
        return ("relatório já escrito: nenhum auto de infração está pendente ‖ report already "
                "written: no auto de infração is pending")
    return None


def g_has_active_auto(d: dict[str, Any]) -> str | None:
    if not active_autos(d):
        return "não há auto de infração a anular ‖ there is no auto de infração to void"
    return None


def g_no_open_steps(d: dict[str, Any]) -> str | None:
    return _open_steps_refusal(d)


def _open_steps_refusal(d: dict[str, Any], *, for_report: bool = False) -> str | None:
    """The open steps as a refusal (Portuguese labels; in English, the steps' ids)."""
    details = open_step_details(d, for_report=for_report)
    if not details:
        return None
    en = "; ".join(s["id"] + (": " + ", ".join(i["id"] for i in s["items"])
                              if s.get("items") else "") for s in details)
    return ("passos obrigatórios em aberto: " + "; ".join(map(step_sentence, details))
            + f" ‖ mandatory steps open: {en}")


# --------------------------------------------------------------------------- the table

S = State


@dataclass(frozen=True)
class Transition:
    """``command`` is allowed in ``sources``; leads to ``target`` (None = stays)."""

    sources: frozenset[State]
    target: State | None
    guards: tuple[Guard, ...] = ()
    basis: str = ""
    roles: frozenset[str] = frozenset()  # who may run it (empty: anyone who may write)
    roles_refusal: str = ""  # what the others are told


def _s(*states: State) -> frozenset[State]:
    return frozenset(states)


WORKING = _s(S.RECEIVED, S.PRE_BOARDING, S.ASSESSING, S.DOCUMENTS_REQUESTED, S.FINDINGS)


TRANSITIONS: dict[str, Transition] = {
    "start_pre_boarding": Transition(_s(S.RECEIVED), S.PRE_BOARDING, (g_not_docked,), "art. 5º"),
    # Also after boarding, until the report: a fact typed wrong is corrected (with the
    # version, when it replaces one — the trail keeps both), and the port where the acts are
    # dated may be learnt aboard.
    "record_pre_boarding": Transition(_s(S.RECEIVED, S.PRE_BOARDING, S.ASSESSING,
                                         S.DOCUMENTS_REQUESTED, S.FINDINGS, S.NOTIFIED,
                                         S.REMEDIED), None, (), "art. 5º"),
    "start_assessment": Transition(_s(S.RECEIVED, S.PRE_BOARDING), S.ASSESSING,
                                   (g_boarding_prepared, g_pre_boarding_met), "art. 6º"),
    "close_unfounded": Transition(_s(S.ASSESSING), S.CLOSED_UNFOUNDED, (g_has_team,),
                                  "art. 6º"),
    "request_documents": Transition(_s(S.ASSESSING), S.DOCUMENTS_REQUESTED, (), "art. 7º"),
    # Documents and checks may still come in after the notification: the report needs them
    # recorded, so they stay recordable until the report (a case never gets stuck).
    "record_document": Transition(_s(S.DOCUMENTS_REQUESTED, S.FINDINGS, S.NOTIFIED, S.REMEDIED),
                                  None, (), "art. 7º"),
    "record_physical_check": Transition(_s(S.DOCUMENTS_REQUESTED, S.FINDINGS, S.NOTIFIED,
                                           S.REMEDIED), None, (), "art. 8º"),
    "set_vessel_case": Transition(WORKING, None, (), "art. 13"),
    "run_engines": Transition(_s(S.DOCUMENTS_REQUESTED, S.FINDINGS), S.FINDINGS,
                              (g_has_vessel_case,), "art. 13, VI"),
    "add_finding": Transition(_s(S.DOCUMENTS_REQUESTED, S.FINDINGS), S.FINDINGS, (), "art. 8º"),
    # A violation found after a notification (a physical check) gets a notification of its
    # own: notify is open again once the previous outcome is recorded.
    "notify": Transition(_s(S.FINDINGS, S.NOTIFIED, S.REMEDIED), S.NOTIFIED,
                         (g_has_violation, g_engines_current, g_has_team), "art. 9º"),
    "record_remedied": Transition(_s(S.NOTIFIED), S.REMEDIED, (g_no_outcome,), "art. 9º"),
    "record_not_remedied": Transition(_s(S.NOTIFIED), None, (g_no_outcome,), "art. 10"),
    # The art. 10 steps of an unmet notification stay open after a later one is remedied.
    "request_detention": Transition(_s(S.NOTIFIED, S.REMEDIED), None,
                                    (g_not_remedied_serious, g_has_team), "art. 10, I"),
    "refer_federal_police": Transition(_s(S.NOTIFIED, S.REMEDIED), None,
                                       (g_repatriation, g_has_team), "art. 10, III"),
    "record_mediation": Transition(_s(S.NOTIFIED, S.REMEDIED), None, (g_strike,),
                                   "art. 10, IV"),
    # Decreto 6.968/2009 (arts. 3 and 5 § 1º, II): the report to the Secretariat within 48
    # hours of the shipowner's refusal; also after the relatório, until the case closes (a
    # report sent in time and recorded late). Its basis is the decree's (the act's own).
    "record_repatriation_report": Transition(_s(S.NOTIFIED, S.REMEDIED, S.REPORT), None,
                                             (g_repatriation_report_owed,), "art. 10, III"),
    # Also after the report: a case reported before an auto became owed (stored by an
    # earlier version) can still get it and close.
    "draft_auto": Transition(_s(S.FINDINGS, S.NOTIFIED, S.REMEDIED, S.REPORT), None,
                             (g_quota_auto, g_has_team), "art. 14"),
    # A draft set aside before the case closes (then its report and documents stand).
    "void_auto": Transition(_s(S.FINDINGS, S.NOTIFIED, S.REMEDIED, S.REPORT), None,
                            (g_has_active_auto,)),
    # Art. 11: "ao fim de qualquer ação fiscal" — also one where nothing was found.
    # "No report before findings" (spec): the engines ran, or a finding was recorded by
    # hand — an action where nothing was found reaches ``findings`` with none.
    "write_report": Transition(_s(S.FINDINGS, S.NOTIFIED, S.REMEDIED),
                               S.REPORT, (g_report_allowed, g_has_team), "art. 11"),
    "close": Transition(_s(S.REPORT), S.CLOSED, (g_no_open_steps,), "art. 11"),
    # The team is designated by the regional chief (docs/inspection-service.md).
    "assign_team": Transition(frozenset(OPEN_STATES), None, (), "art. 4º, parágrafo único",
                              frozenset({"regional_chief", "admin"}),
                              "somente a chefia regional designa a equipe ‖ only the "
                              "regional chief assigns the team"),
}


def allowed_commands(state: str, data: dict[str, Any], role: str | None = None
                     ) -> list[str]:
    """Commands whose state, guards and (given ``role``) roles allow them now (for the UI
    and the case view)."""
    d = {**data, "_state": State(state)}
    return [name for name, t in TRANSITIONS.items()
            if State(state) in t.sources and all(g(d) is None for g in t.guards)
            and (role is None or not t.roles or role in t.roles)]

"""Immigration engine: for each foreign person aboard on date D, which document the law
requires (none / visit visa / temporary visa / residence authorization), whether it is in
order, the next deadline and the consequence (immigration.md).

Pure: ``evaluate(case, on, options) -> Decision``. No I/O, no clock.

This module selects the regime and concludes; the rules of each norm are in
:mod:`abordo.immigration.rn31` (RN CNIg 31/1998, and the IN SIT 70/2007 long-haul path) and
:mod:`abordo.immigration.res42` (RN CNIg 06/2017 as amended by Res. CNIg 42/2020); what they
share, in :mod:`abordo.immigration.context`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from typing import Any

from abordo.crew.model import VesselCase
from abordo.crew.ranks import resolve_crew
from abordo.immigration.context import (
    Ctx,
    Person,
    br_day,
    count_noun,
    procedure_not_modelled,
    unconfirmed_start,
)
from abordo.immigration.res42 import long_haul_in70, res42_person
from abordo.immigration.rn31 import rn31_person
from abordo.immigration.rules import Regime, in_force, regime_on, regime_tables
from abordo.law.decision import Citation, Decision, Msg, Verdict


def evaluate(case: VesselCase, on: dt.date, options: Mapping[str, Any] | None = None
             ) -> Decision:
    """Judge the immigration status of every foreign person aboard ``case`` on ``on``.

    Regimes: RN CNIg 31/1998 (1998-01-01, unconfirmed, → 2003-12-09) and RN CNIg 06/2017 as
    amended by Res. CNIg 42/2020 (from 2020-10-14); any other date → ``not_covered`` with the
    reason. ``options``: interpretation choices keyed by family (``immigration.stay``,
    ``immigration.migratory_year``, ``immigration.air_entry``, ``immigration.entries``,
    ``immigration.rn31.deadline``).

    Returns a :class:`Decision` with verdict ``non_compliant`` (any person irregular),
    ``compliant`` (persons with action due listed as warning findings), ``not_applicable``
    (no foreign person aboard) or ``not_covered``. ``result`` holds ``vessel``, ``regime``,
    ``persons`` — one dict per foreign person: ``id``, ``nationality``, ``requirement`` (id),
    ``requirement_label``, ``citation``, ``documents`` (each with its ``status`` on the date),
    ``verdict`` (``regular`` | ``irregular`` | ``action_due`` | ``not_applicable``),
    ``deadline`` (date), ``deadline_detail`` (business-day arithmetic: start, count in
    business days, counted days, holidays skipped with names), ``stay`` (calendar days in
    the migratory year), ``action``, ``consequence``, ``notes`` — ``brazilians_omitted`` and
    ``consequences``.

    Raises :class:`~abordo.law.errors.InputError` for an unknown option, overlapping entries,
    a request without protocol date, or missing presence data the rule needs (naming the
    field, and the file and row for crew-file input).
    """
    ctx = Ctx(case, on, options)
    members = resolve_crew(case)
    b = ctx.b
    v = case.vessel
    result: dict[str, Any] = {
        "vessel": {"name": v.name, "imo": v.imo, "flag": v.flag, "activity": ctx.activity,
                   "contract": case.operation.contract.value, "state": ctx.state},
        "persons": [], "brazilians_omitted": [], "consequences": [],
        "regime_applied": False}
    foreign = [m for m in members if not m.is_brazilian]
    brazilians = [m.id for m in members if m.is_brazilian]
    result["brazilians_omitted"] = brazilians
    b.step("facts", f"Embarcação {v.name or ''} ({v.flag}), {ctx.activity_label.pt}, "
           f"{ctx.contract_label.pt}; {count_noun(len(members), 'pessoa', 'pessoas')} a bordo, "
           f"{count_noun(len(foreign), 'estrangeiro', 'estrangeiros')}; data julgada {br_day(on)}.",
           f"Vessel {v.name or ''} ({v.flag}), {ctx.activity_label.en}, "
           f"{ctx.contract_label.en}; {count_noun(len(members), 'person', 'persons')} aboard, "
           f"{len(foreign)} foreign; date judged {on.isoformat()}.", persons=len(members),
           foreign=len(foreign))
    if brazilians:
        b.step("persons.brazilians",
               f"Brasileiros omitidos (a situação migratória não se aplica): "
               f"{', '.join(brazilians)}.",
               f"Brazilians omitted (immigration status does not apply): "
               f"{', '.join(brazilians)}.", ids=brazilians)
    if not foreign:
        return b.build(Verdict.NOT_APPLICABLE, None,
                       Msg("Não aplicável: nenhum estrangeiro a bordo.",
                           "Not applicable: no foreign person aboard."), result=result)

    tables = regime_tables()
    regime = regime_on(on)
    if regime is None:
        reason = ctx.reg.not_covered_reason(on, list(tables.candidates), tables.topic)
        rn31 = ctx.reg["cnig-rn-31-1998"]
        res42 = ctx.reg["cnig-rn-06-2017@res-42-2020"]
        if rn31.in_force_to and rn31.in_force_to < on < res42.in_force_from:
            reason = Msg(f"{reason.pt} Além disso, {tables.gap.pt}.",
                         f"{reason.en} Moreover, {tables.gap.en}.")
        return _not_covered(ctx, None, reason, result)
    result["regime"] = regime.version
    result["regime_label"] = ctx.reg[regime.version].label
    result["regime_short_label"] = regime.short_label
    # RN 31/1998 art. 2 waives the visa of "estrangeiro tripulante de embarcação que ingresse
    # no País sob viagem de longo curso" — any vessel (art. 1 alone says "estrangeira").
    any_flag_long_haul = regime.id == "rn31" and ctx.activity in regime.long_haul_activities
    if v.flag == "BR" and not any_flag_long_haul:
        reason = Msg(f"{tables.topic.pt}: {regime.brazilian_flag.pt}.",
                     f"{tables.topic.en}: {regime.brazilian_flag.en}.")
        return _not_covered(ctx, regime.version, reason, result)
    outside = regime.outside_reason(ctx.activity, on)
    if outside is not None:
        return _not_covered(ctx, regime.version, Msg(f"{tables.topic.pt}: {outside.pt}.",
                                                     f"{tables.topic.en}: {outside.en}."),
                            result)
    version = ctx.reg[regime.version]
    b.step("regime.select", f"Norma em vigor em {br_day(on)}: {version.title}.",
           f"Norm in force on {on.isoformat()}: {version.title}.", ctx.cite(regime, ""))
    unconfirmed_start(ctx, regime, on)  # a date judged in the norm's uncertain first year

    if regime.id == "rn31":
        contract = case.operation.contract.value
        if ctx.activity not in regime.long_haul_activities and (
                regime.contracts and contract not in regime.contracts):
            # Ask for the contract only when there is none (not given, or "none"); one given
            # that art. 1 does not list is told as such — asking for it again helps nobody.
            if contract == "none":
                why = Msg("— se houver contrato com empresa brasileira, informe-o "
                          "(operation.contract)",
                          "— if there is a contract with a Brazilian company, give it "
                          "(operation.contract)")
            else:
                why = Msg(f"— o contrato informado, {ctx.contract_label.pt} ({contract}), não "
                          "é um dos do art. 1º, e nenhuma norma modelada rege nesta data a "
                          "tripulação estrangeira sob esse contrato",
                          f"— the contract given, {ctx.contract_label.en} ({contract}), is not "
                          "one of art. 1's, and no modelled norm governs the foreign crew under "
                          "that contract on this date")
            reason = Msg(
                f"{tables.topic.pt}: a RN CNIg 31/1998 rege a tripulação de embarcação "
                "estrangeira em operação nas AJB por contrato de afretamento, prestação de "
                "serviços ou risco com empresa brasileira (art. 1º) ou em viagem de longo curso "
                f"(art. 2º); esta embarcação ({ctx.activity_label.pt}, "
                f"{ctx.contract_label.pt}) não é nenhum dos casos {why.pt}.",
                f"{tables.topic.en}: RN CNIg 31/1998 governs the crew of a foreign vessel "
                "operating in AJB under a charter, services or risk contract with a Brazilian "
                f"company (art. 1) or on a long-haul voyage (art. 2); this vessel "
                f"({ctx.activity_label.en}, {ctx.contract_label.en}) is neither {why.en}.")
            return _not_covered(ctx, regime.version, reason, result)
        persons = [rn31_person(ctx, regime, m) for m in foreign]
    else:
        if ctx.activity in regime.long_haul_activities:
            basis = regime.long_haul_basis
            if basis is None or not in_force(basis[0], on):
                assert regime.long_haul_after is not None
                return _not_covered(ctx, regime.version, Msg(
                    f"{tables.topic.pt}: {regime.long_haul_after.pt}.",
                    f"{tables.topic.en}: {regime.long_haul_after.en}."), result)
            persons = [long_haul_in70(ctx, m, basis) for m in foreign]
        else:
            persons = [res42_person(ctx, regime, m) for m in foreign]
            if foreign:
                # Said, not judged: the input does not carry what these articles turn on.
                b.step("regime.not_checked",
                       "Não verificados: transferência para outra embarcação, trabalho em "
                       "várias embarcações e mudança de empregador (arts. 6º a 8º) e a "
                       "renovação da autorização de residência (art. 12).",
                       "Not checked: transfer to another vessel, work on several vessels and "
                       "change of employer (arts. 6 to 8), and the renewal of the residence "
                       "authorization (art. 12).", ctx.cite(regime, "arts. 6º a 8º"))
    result["persons"] = [p.row for p in persons]
    return _finish(ctx, regime, persons, result)


def _not_covered(ctx: Ctx, regime: str | None, reason: Msg, result: dict[str, Any]
                 ) -> Decision:
    ctx.b.step("regime.not_covered", reason.pt, reason.en)
    result["regime_applied"] = False  # the report names no norm as applied
    return ctx.b.build(Verdict.NOT_COVERED, regime,
                       Msg(f"Não coberto: {reason.pt}", f"Not covered: {reason.en}"),
                       not_covered_reason=reason, result=result)



# --- overall ----------------------------------------------------------------------------------

def _finish(ctx: Ctx, regime: Regime, persons: list[Person], result: dict[str, Any]
            ) -> Decision:
    b = ctx.b
    # A violation resting on a stay counted from the vessel's presence (no entries given:
    # immigration.entries.vessel_presence) says so in its own words: a notification or an
    # auto quoting it must not state as fact what the crew list did not record.
    presumed = {p.pid for p in persons if not p.m.source.entries}
    b.findings = [dataclasses.replace(f, text=Msg(
        f"{f.text.pt.rstrip('.')} (entradas não informadas: estada contada pelos períodos da "
        "embarcação em AJB).", f"{f.text.en.rstrip('.')} (entries not given: stay counted "
        "from the vessel's periods in AJB).")) if f.severity == "violation"
        and f.subject in presumed else f for f in b.findings]
    verdicts = [p.row["verdict"] for p in persons]
    irregular = [p.pid for p in persons if p.row["verdict"] == "irregular"]
    due = [p.pid for p in persons if p.row["verdict"] == "action_due"]
    regular = [p.pid for p in persons if p.row["verdict"] == "regular"]
    result["counts"] = {v: verdicts.count(v) for v in ("regular", "irregular", "action_due",
                                                       "not_applicable")}
    label = ctx.reg[regime.version].label
    na = [p.pid for p in persons if p.row["verdict"] == "not_applicable"]
    parts_pt = [f"{count_noun(len(irregular), 'irregular', 'irregulares')} ({', '.join(irregular)})"
                if irregular else "",
                f"{len(due)} com providência pendente ({', '.join(due)})" if due else "",
                count_noun(len(regular), "regular", "regulares") if regular else "",
                f"{len(na)} não aplicável ({', '.join(na)})" if len(na) == 1 else
                f"{len(na)} não aplicáveis ({', '.join(na)})" if na else ""]
    parts_en = [f"{len(irregular)} irregular ({', '.join(irregular)})" if irregular else "",
                f"{len(due)} with action due ({', '.join(due)})" if due else "",
                f"{len(regular)} regular" if regular else "",
                f"{len(na)} not applicable ({', '.join(na)})" if na else ""]
    detail_pt = "; ".join(x for x in parts_pt if x)
    detail_en = "; ".join(x for x in parts_en if x)
    if irregular:
        _consequence(ctx, result)
        verdict = Verdict.NON_COMPLIANT
        summary = Msg(f"Não conforme ({label}) — estrangeiros: {detail_pt}.",
                      f"Non-compliant ({label}) — foreign persons: {detail_en}.")
    elif len(na) == len(persons):
        verdict = Verdict.NOT_APPLICABLE
        summary = Msg(f"Não aplicável ({label}) — estrangeiros: {detail_pt}.",
                      f"Not applicable ({label}) — foreign persons: {detail_en}.")
    else:
        verdict = Verdict.COMPLIANT
        summary = Msg(f"Conforme ({label}) — estrangeiros: {detail_pt}.",
                      f"Compliant ({label}) — foreign persons: {detail_en}.")
    b.step("verdict", summary.pt, summary.en)
    result["regime_applied"] = True
    return b.build(verdict, regime.version, summary, result=result)


def _consequence(ctx: Ctx, result: dict[str, Any]) -> None:
    """IN SIT 70/2007 art. 14: a breach of the CNIg resolutions → auto de infração against
    the Brazilian contracting company (CLT art. 444, ementa 001139-8), while in force."""
    t = regime_tables().consequence
    proc_norm = t["procedure"]["norm"]
    company = ctx.case.operation.brazilian_company
    who = company.name if company and company.name else "a empresa brasileira contratante"
    who_en = company.name if company and company.name else "the Brazilian contracting company"
    if in_force(proc_norm, ctx.on):
        clt = ctx.reg.cite(t["clt"]["norm"], t["clt"]["provision"])
        proc = ctx.reg.cite(proc_norm, t["procedure"]["provision"])
        ctx.b.cite(clt)
        ctx.b.cite(proc)
        result["consequences"] = [{
            "id": "auto_de_infracao_clt_444", "status": "in_force", "ementa": t["ementa"],
            "citations": [clt, proc],
            "text": Msg(f"Lavrar auto de infração contra {who} por descumprimento de resolução "
                        f"normativa do CNIg (art. 444 da CLT, ementa {t['ementa']}).",
                        f"Issue an infraction notice against {who_en} for breach of a CNIg "
                        f"normative resolution (CLT art. 444, code {t['ementa']})."),
        }]
        return
    norm = ctx.reg[proc_norm]
    citations: list[Citation] = []
    if norm.in_force_from > ctx.on:  # before IN SIT 70/2007 (the RN 31/1998 years)
        text = Msg(f"O procedimento de inspeção vigente em {br_day(ctx.on)} não está modelado (a "
                   f"{t['procedure']['short']}, {t['procedure']['provision']} — auto de "
                   f"infração, art. 444 da CLT — só vigora a partir de "
                   f"{br_day(norm.in_force_from)}).",
                   f"The inspection procedure in force on {ctx.on.isoformat()} is not modelled "
                   f"({t['procedure']['short']}, {t['procedure']['provision']} — infraction "
                   f"notice, CLT art. 444 — is in force only from "
                   f"{norm.in_force_from.isoformat()}).")
    else:
        text = procedure_not_modelled(ctx, Msg(who, who_en))
        # CLT art. 444 is still the provision of the ementa; the procedure is not modelled.
        citations = [ctx.reg.cite(t["clt"]["norm"], t["clt"]["provision"])]
        ctx.b.cite(citations[0])
    ctx.b.step("consequence.procedure", text.pt, text.en)
    result["consequences"] = [{"id": "procedure_not_modelled", "status": "not_modelled",
                               "ementa": t["ementa"], "citations": citations, "text": text}]

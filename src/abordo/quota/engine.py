"""Crew-quota engine: on date D, how many Brazilians the law requires per group, whether the
crew complies, why, and what changes next (crew-quota.md).

Pure: ``evaluate(case, on, options) -> Decision``; ``plan(case, on, options) -> Decision``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from abordo.crew.model import VesselCase, exit_before
from abordo.crew.ranks import CrewMember, resolve_crew
from abordo.law.calendar import add_days
from abordo.law.decision import Citation, Decision, Finding, Msg, UnconfirmedParameter, Verdict
from abordo.law.errors import InputError
from abordo.law.interpretations import report_unused_options
from abordo.law.labels import country, label
from abordo.law.text import br_date as _d
from abordo.quota.consequence import consequence
from abordo.quota.context import (
    Context,
    StepDate,
    frac,
    group_row,
    reading_of,
    rounding_of,
    step_from,
    threshold,
)
from abordo.quota.planning import arrival_plan, boundaries_of, plan_row, plan_status
from abordo.quota.regimes import (
    Regime,
    Rule,
    Step,
    exemption_uncited,
    family_for,
    regime_tables,
    step_citation,
)
from abordo.quota.rules import GroupResult, assign, evaluate_groups, group_label
from abordo.quota.timeline import stay_of, step_dates, trace_stay


def evaluate(case: VesselCase, on: dt.date, options: Mapping[str, Any] | None = None
             ) -> Decision:
    """Judge the crew of ``case`` on ``on`` under the quota regime in force that day.

    Returns a :class:`Decision` with verdict compliant | non_compliant | not_applicable |
    not_yet | not_covered; ``result`` holds ``stay``, ``step``, ``groups`` (base, required,
    brazilians, deficit — persons), ``positions``, ``next_step``, ``alternative`` and
    ``consequences``. Raises :class:`InputError` for input the regime cannot use (unknown
    rank where a group is needed, missing AJB presence, unknown option).
    """
    ctx = Context(case, on, options)
    return _unused_options(ctx, _evaluate(ctx, resolve_crew(case), planning=False))


def plan(case: VesselCase, on: dt.date, options: Mapping[str, Any] | None = None) -> Decision:
    """Every step of the regime in force on ``on`` for the current stay: its date, fraction
    and the Brazilians each group of the current crew would then require
    (``result["plan"]``). Assumes the vessel stays in AJB and the regime stays in force."""
    ctx = Context(case, on, options)
    return _unused_options(ctx, _evaluate(ctx, resolve_crew(case), planning=True))


def _unused_options(ctx: Context, d: Decision) -> Decision:
    """A caller's choice the decision never came to (no groups to read, no stay to count,
    no rule for this vessel) is reported, never silently dropped — as one the norm refuses."""
    return report_unused_options(d, ctx.options, ctx.refused_options)


def _vessel_summary(case: VesselCase) -> dict[str, Any]:
    v = case.vessel
    return {"name": v.name, "imo": v.imo, "flag": v.flag, "registry": v.registry,
            "activity": v.activity.value, "contract": case.operation.contract.value,
            "crew_size": len(case.crew_list)}


def _evaluate(ctx: Context, members: list[CrewMember], planning: bool) -> Decision:
    case, on, b = ctx.case, ctx.on, ctx.b
    v = case.vessel
    tables = regime_tables()
    result: dict[str, Any] = {"vessel": _vessel_summary(case), "groups": [], "findings": []}
    b.step("facts", f"Embarcação {v.name or ''} ({country(v.flag)}), atividade "
           f"{label(v.activity.value)}, contrato: {label(case.operation.contract.value)}, "
           f"{len(members)} {'pessoa' if len(members) == 1 else 'pessoas'} a bordo; data "
           f"julgada {_d(on)}.",
           f"Vessel {v.name or ''} ({country(v.flag, 'en')}), activity "
           f"{label(v.activity.value, 'en')}, contract: "
           f"{label(case.operation.contract.value, 'en')}, {len(members)} "
           f"{'person' if len(members) == 1 else 'persons'} aboard; "
           "date judged "
           f"{on.isoformat()}.", persons=len(members))
    if not members:
        # An empty list judges no crew: data to complete, not a crew that complies (the
        # fleet screening's ``no_crew`` warning, the same id).
        b.finding(Finding("no_crew", Msg(
            "Lista de tripulantes vazia: nenhuma pessoa a bordo foi informada — a cota de 0 "
            "pessoas é 0; informe a lista para julgar a tripulação.",
            "Empty crew list: no person aboard was given — the quota of 0 persons is 0; give "
            "the list to judge the crew."), None, "warning"))

    for m in members:
        # The crew list says who is aboard; a person's own entries saying otherwise is a
        # contradiction in the input to be checked, not a reason to drop them silently (the
        # immigration engine's ``not_in_country`` id; a day is present when an entry covers
        # it, as there).
        left = exit_before(m.source.entries, on)
        if left is not None:
            b.finding(Finding("not_in_country", Msg(
                f"{m.id}: consta da lista de tripulantes, mas as entradas indicam saída do "
                f"país em {_d(left)} sem nova entrada até {_d(on)}: contado(a) na cota como "
                "listado(a) — confira a lista.",
                f"{m.id}: on the crew list, but the entries show an exit from the country on "
                f"{left.isoformat()} with no entry since, up to {on.isoformat()}: counted in "
                "the quota as listed — check the list."), None, "warning", m.id))

    # Regime G (no quota for long haul) needs a basis in force: IN SIT 70/2007 art. 13, IV,
    # or a modelled quota norm whose scope leaves it out. Before any (RN 31/1998, RN
    # 58/2003), the date is judged as any foreign vessel's — not covered, explained (spec
    # rule 2), never an exemption without a norm.
    if v.flag != "BR" and v.activity.value in tables.exempt_activities \
            and not exemption_uncited(on):
        return _exempt(ctx, result)

    if v.flag == "BR" and v.registry is None:
        raise InputError("informe o registro (ordinary ou REB) da embarcação de bandeira BR",
                         "vessel.registry",
                         message_en="give the registry (ordinary or REB) of a BR-flag vessel")
    family = family_for(v.flag, v.registry, v.activity.value)
    regime = tables.in_force(family, on)
    topic = Msg("Cota de brasileiros a bordo", "Quota of Brazilians aboard")
    for fam_regime in tables.families[family]:  # windows with unconfirmed ends near D
        for param in ctx.reg.unconfirmed_boundaries(fam_regime.version, on):
            b.unconfirmed(param)
    if regime is None or not regime.modelled:
        note = tables.note_on(family, on) if regime is None else None
        if note is not None:
            reason = Msg(f"{topic.pt}: {note['pt']}", f"{topic.en}: {note['en']}")
        else:
            reason = ctx.reg.not_covered_reason(
                on, [r.version for r in tables.families[family]], topic)
        # The norm then in force is the legal basis of "not covered" too: cite it — and,
        # when its window's ends are unconfirmed in the year judged, say so (RN 31/1998
        # modelled from 1998-01-01).
        basis = (ctx.cite(regime, "") if regime is not None else
                 ctx.reg.cite(note["citation"]["norm"], note["citation"]["provision"])
                 if note is not None and note.get("citation") else None)
        if basis is not None and regime is None:
            for param in ctx.reg.unconfirmed_boundaries(basis.norm_id, on):
                b.unconfirmed(param)
        if regime is not None:
            result["regime_label"] = ctx.reg[regime.version].label
        b.step("regime.not_covered", reason.pt, reason.en, basis)
        return b.build(Verdict.NOT_COVERED, regime.version if regime else None,
                       Msg(f"Não coberto: {reason.pt}", f"Not covered: {reason.en}"),
                       not_covered_reason=reason, result=result)
    result["regime"] = regime.version
    result["regime_label"] = ctx.reg[regime.version].label
    b.step("regime.select", f"Norma em vigor em {_d(on)} para esta embarcação: "
           f"{ctx.reg[regime.version].title}.",
           f"Norm in force on {on.isoformat()} for this vessel: {ctx.reg[regime.version].title}.",
           ctx.cite(regime, ""))

    if regime.positions and not regime.rules:
        _positions_only_rule(ctx, regime, result)
    if regime.positions:
        _check_positions(ctx, regime, members, result)

    rule = regime.rule_for(v.activity.value)
    if rule is None:
        if regime.rules:  # the regime lists activities and this one is not among them
            reason, basis = _activity_not_listed(ctx, regime, family, v.activity.value)
            b.step("regime.activity_not_listed", reason.pt, reason.en, basis)
            return b.build(Verdict.NOT_COVERED, regime.version,
                           Msg(f"Não coberto: {reason.pt}.", f"Not covered: {reason.en}."),
                           not_covered_reason=reason, result=result)
        return _finish(ctx, regime, None, None, result)  # REB: positions only

    if regime.contracts is not None and case.operation.contract.value not in regime.contracts:
        cp = regime.contract_provision
        cite = None
        if cp and (cp.norm == regime.norm or ctx.reg[cp.norm].in_force_on(ctx.on)):
            cite = ctx.reg.cite(cp.norm, cp.provision,
                                regime.version if cp.norm == regime.norm else None)
        elif cp:  # the restatement is not yet in force: the condition is the norm's own
            cite = ctx.reg.cite(regime.norm, "", regime.version)
        allowed = ", ".join(regime.contracts)
        b.step("regime.contract",
               f"A cota desta norma aplica-se a embarcação estrangeira operando por contrato "
               f"({allowed}) com empresa brasileira; contrato informado: "
               f"{case.operation.contract.value}.",
               f"This norm's quota applies to a foreign vessel operating under a contract "
               f"({allowed}) with a Brazilian company; contract given: "
               f"{case.operation.contract.value}.", cite)
        return b.build(Verdict.NOT_APPLICABLE, regime.version,
                       Msg("Cota não aplicável: não há contrato com empresa brasileira que a "
                           "norma exija.", "Quota not applicable: no contract with a Brazilian "
                           "company of the kind the norm requires."), result=result)

    if not rule.confirmed:
        for s in rule.steps:
            b.unconfirmed(UnconfirmedParameter(
                f"{regime.version}:{rule.provision}:day-{s.from_day}",
                Msg(f"{frac(s.fraction)} a partir de {s.from_day} dias",
                    f"{frac(s.fraction)} from {s.from_day} days"), rule.source, regime.norm))
    return _apply_rule(ctx, regime, rule, members, result, planning)


def _activity_not_listed(ctx: Context, regime: Regime, family: str, activity: str
                         ) -> tuple[Msg, Citation | None]:
    """Why an activity the regime in force does not list has no quota stated (crew-quota.md
    §D: ``not_covered``, with the reason). When the tables say which later provision first
    gave the activity a quota (a rule's ``added``: regasification, Res. CNIg 42/2020), no norm
    in force on the date set one, and the reason says so, citing that provision; otherwise
    it says only that no modelled norm does — never that some unmodelled norm would."""
    here = Msg(f"a atividade {label(activity)} ({activity}) não consta de "
               f"{ctx.reg[regime.version].label}, em vigor nesta data",
               f"activity {activity} is not listed by {ctx.reg[regime.version].label}, in "
               "force on this date")
    first = regime_tables().first_quota(family, activity)
    if first is not None and first[0].valid_from > ctx.on:
        later, rule = first
        cite = ctx.cite(later, rule.provision)
        return Msg(f"{here.pt}; nenhuma norma em vigor nesta data fixa cota de brasileiros "
                   f"para essa atividade: a primeira é a de {cite.label}, em vigor a partir "
                   f"de {_d(later.valid_from)}",
                   f"{here.en}; no norm in force on this date sets a quota of Brazilians for "
                   f"that activity: the first is that of {cite.label}, in force from "
                   f"{later.valid_from.isoformat()}"), cite
    return Msg(f"{here.pt}; nenhuma norma modelada em vigor nesta data fixa cota de "
               "brasileiros para essa atividade",
               f"{here.en}; no modelled norm in force on this date sets a quota of Brazilians "
               "for that activity"), None


_ACTIVITY_PT = {"long_haul": "de longo curso",
                "inland_international": "interior de percurso internacional"}


def label_pt(activity: str) -> str:
    return _ACTIVITY_PT.get(activity, activity)


def _exempt(ctx: Context, result: dict[str, Any]) -> Decision:
    """Regime G: long-haul / international inland navigation carry no quota; the inspection
    asks for proof of foreign calls (IN SIT 70/2007 art. 13, IV)."""
    b, case = ctx.b, ctx.case
    tables = regime_tables()
    ref = tables.exempt_provision
    cite = ctx.reg.cite(ref.norm, ref.provision) if ctx.reg[ref.norm].in_force_on(ctx.on) \
        else None
    # The quota norm in force lists the activities it covers; this navigation is not among
    # them. Cite it (its scope) so the exemption carries its legal basis on every date.
    scope = tables.in_force("foreign_general", ctx.on)
    if scope is not None and scope.modelled:
        scope_cite = ctx.cite(scope, scope.rules[0].provision.split(",")[0])
        b.step("exempt.scope", f"{scope_cite.label} não inclui a navegação "
               f"{label_pt(case.vessel.activity.value)} entre as atividades com cota.",
               f"{scope_cite.label} does not list {case.vessel.activity.value} navigation "
               "among the activities with a quota.", scope_cite)
        cite = cite or scope_cite
    b.step("exempt.activity",
           f"Navegação {case.vessel.activity.value}: nenhuma cota de brasileiros se aplica; "
           "exige-se prova de que a embarcação frequenta portos estrangeiros (Diário de "
           "Navegação).",
           f"{case.vessel.activity.value} navigation: no quota of Brazilians applies; proof "
           "that the vessel calls at foreign ports is required (log book).", cite)
    if case.operation.foreign_calls is False:
        b.finding(Finding(
            "long_haul_without_foreign_calls",
            Msg("Declarada de longo curso, mas sem escalas em portos estrangeiros: a isenção "
                "não se sustenta; avalie a embarcação como cabotagem.",
                "Declared long-haul but with no foreign calls: the exemption does not hold; "
                "assess the vessel as cabotage."), cite))
        return ctx.b.build(Verdict.NON_COMPLIANT, None,
                           Msg("Isenção de longo curso não comprovada.",
                               "Long-haul exemption not proven."), result=result)
    return b.build(Verdict.NOT_APPLICABLE, None,
                   Msg("Sem cota: navegação de longo curso ou interior internacional.",
                       "No quota: long-haul or international inland navigation."),
                   result=result)


def _positions_only_rule(ctx: Context, regime: Regime, result: dict[str, Any]) -> None:
    """Lei 9.432/1997 art. 11, § 6º (REB): the rule is the positions alone, no proportion —
    stated as the rule applied, as a regime with steps states its step (the regime's data:
    ``positions`` and no ``rules``)."""
    cite = ctx.cite(regime, regime.positions_provision or "")
    pt = " e ".join(f"o {label(p)}" for p in regime.positions)
    en = " and the ".join(label(p, "en") for p in regime.positions)
    text = Msg(f"apenas {pt} devem ser brasileiros; não há proporção mínima de brasileiros "
               "na tripulação",
               f"only the {en} must be Brazilian; there is no minimum proportion of "
               "Brazilians in the crew")
    ctx.b.step("rule.positions", f"Regra aplicável: {cite.label} — {text.pt}.",
               f"Applicable rule: {cite.label} — {text.en}.", cite)
    result["rule"] = {"text": text, "citation": cite}


def _check_positions(ctx: Context, regime: Regime, members: list[CrewMember],
                     result: dict[str, Any]) -> None:
    """Lei 9.432/1997 art. 4º (and art. 11 §6 for REB): master and chief engineer Brazilian."""
    cite = ctx.cite(regime, regime.positions_provision or "")
    labels = {"master": ("comandante", "master"), "chief_engineer": ("chefe de máquinas",
                                                                     "chief engineer")}
    rows: list[dict[str, Any]] = []
    for pos in regime.positions:
        holders = [m for m in members if m.position == pos]
        pt, en = labels[pos]
        if not holders:
            ctx.b.finding(Finding(f"{pos}_not_identified", Msg(
                f"Nenhuma pessoa identificada como {pt} na lista (informe a coluna position).",
                f"No person identified as {en} in the list (give the position column)."),
                cite, "warning"))
            rows.append({"position": pos, "person": None, "brazilian": None,
                         "nationality": None})
            continue
        for m in holders:
            rows.append({"position": pos, "person": m.id, "brazilian": m.is_brazilian,
                         "nationality": "/".join(m.nationalities)})
            ctx.b.step(f"position.{pos}",
                       f"{pt.capitalize()} ({m.id}): nacionalidade {'/'.join(m.nationalities)}"
                       f" — {'brasileiro' if m.is_brazilian else 'não brasileiro'}.",
                       f"{en.capitalize()} ({m.id}): nationality {'/'.join(m.nationalities)} — "
                       f"{'Brazilian' if m.is_brazilian else 'not Brazilian'}.", cite)
            if not m.is_brazilian:
                ctx.b.finding(Finding(f"{pos}_not_brazilian", Msg(
                    f"O {pt} ({m.id}, {'/'.join(m.nationalities)}) deve ser brasileiro.",
                    f"The {en} ({m.id}, {'/'.join(m.nationalities)}) must be Brazilian."),
                    cite, subject=m.id))
    result["positions"] = rows
    result["positions_citation"] = cite


def group_citation(ctx: Context, rule: Rule, step_cite: Citation, group: str) -> Citation:
    """The item of the step that holds ``group`` (Res. 42/2020 art. 4º, I, a, 1: sections;
    item 2: the other professionals), when the rule numbers them."""
    if not rule.items:
        return step_cite
    item = rule.items["rest" if group == "rest" else "sections"]
    return ctx.reg.cite(step_cite.norm_id, f"{step_cite.provision}, {item}", step_cite.version)


def _apply_rule(ctx: Context, regime: Regime, rule: Rule, members: list[CrewMember],
                result: dict[str, Any], planning: bool) -> Decision:
    b, on = ctx.b, ctx.on
    rule_cite = ctx.cite(regime, rule.provision)
    restated = ctx.cite_restated(regime, rule.restated_provision)
    b.step("rule.select", f"Regra aplicável: {rule_cite.label}"
           f"{f' (reproduzida em {restated.label})' if restated else ''}.",
           f"Applicable rule: {rule_cite.label}"
           f"{f' (restated in {restated.label})' if restated else ''}.", rule_cite)
    b.cite(restated)

    if rule.steps[0].from_day == 0 and regime.family == "brazilian_flag":
        stay = None
    else:
        stay, _ = stay_of(ctx, regime)
    if stay is not None:
        trace_stay(ctx, regime, stay)
        result["stay"] = {"start": stay.start, "days_of_operation": stay.days_of_operation,
                          "in_ajb": stay.in_ajb_on_date, "paused_days": stay.paused_days,
                          "ended_on": stay.ended_on, "return_by": stay.return_by,
                          "outside_since": None if stay.in_ajb_on_date else
                          add_days(on, 1 - stay.days_outside_now)}
    elif regime.family != "brazilian_flag":
        b.step("stay.none", f"A embarcação não esteve em AJB até {_d(on)}.",
               f"The vessel was not in AJB by {on.isoformat()}.")
        result["plan"] = arrival_plan(ctx, regime, rule, members) if planning else []
        return b.build(Verdict.NOT_APPLICABLE, regime.version,
                       Msg("Embarcação ainda não está em AJB.", "Vessel not yet in AJB."),
                       result=result)

    rounding = rounding_of(ctx, rule)
    reading = reading_of(ctx, rule)
    dates = step_dates(ctx, regime, rule, stay) if stay else [
        # No stay to count from (Brazilian flag): the rule holds since the law is in force.
        StepDate(s, regime.valid_from, False, step_citation(ctx.on, regime, rule, s))
        for s in rule.steps]
    reached = [sd for sd in dates if sd.since <= on]
    future = [sd for sd in dates if sd.since > on]
    current = max(reached, key=lambda sd: sd.step.from_day) if reached else None
    # On one date the higher step applies (a lower one reached that day never does).
    nxt = min(future, key=lambda sd: (sd.since, -sd.step.from_day)) if future else None
    if current and nxt and nxt.step.from_day < current.step.from_day:
        nxt = next((sd for sd in future if sd.step.from_day > current.step.from_day), None)

    # The step in force dates from, and the next one falls on, days the answer states: a
    # norm boundary left unconfirmed in those days' year is one it rests on too (a step
    # since an uncertain start; a next step dropped past an uncertain end).
    boundaries_of(ctx, regime, [current] if current else [], with_successor=False)
    boundaries_of(ctx, regime, [nxt] if nxt else [], with_successor=True)
    # A step falling after the regime's known end is not this norm's to require (the norm
    # then in force decides it): never presented as the next requirement.
    ends = regime.valid_to
    if nxt is not None and ends is not None and nxt.since > ends:
        _next_beyond_regime(ctx, regime, nxt)
        nxt = None
    if planning:
        boundaries_of(ctx, regime, dates, with_successor=True)
        ended = stay.ended_on if stay is not None else None
        outside = stay is not None and not stay.in_ajb_on_date
        result["plan"] = [plan_row(ctx, rule, sd, members, rounding, reading,
                                    plan_status(sd, dates, current, on, ends, ended, outside))
                          for sd in dates]

    if stay is not None and not stay.in_ajb_on_date:
        b.step("stay.outside", f"Em {_d(on)} a embarcação está fora das AJB.",
               f"On {on.isoformat()} the vessel is outside AJB.")
        summary = Msg("Embarcação fora das AJB na data.", "Vessel outside AJB on the date.")
        if stay.return_by is not None:
            summary = Msg(f"Embarcação fora das AJB na data; a contagem prossegue se ela "
                          f"reentrar até {_d(stay.return_by)}.",
                          f"Vessel outside AJB on the date; the count goes on if it re-enters "
                          f"by {stay.return_by.isoformat()}.")
        return b.build(Verdict.NOT_APPLICABLE, regime.version, summary, result=result)

    if current is None:
        _next_step(ctx, rule, nxt, members, rounding, reading, result)
        first = dates[0]
        b.step("step.none", f"Nenhuma etapa atingida em {_d(on)}: a primeira "
               f"({frac(first.step.fraction)}) vale a partir de {_d(first.since)}.",
               f"No step reached on {on.isoformat()}: the first "
               f"({frac(first.step.fraction)}) applies from {first.since.isoformat()}.",
               first.citation)
        result["step"] = None
        verdict = Verdict.NON_COMPLIANT if ctx.b.findings and any(
            f.severity == "violation" for f in ctx.b.findings) else Verdict.NOT_YET
        return _finish(ctx, regime, None, verdict, result)

    step = current.step
    result["step"] = {"fraction": step.fraction, "from_day": step.from_day,
                      "since": current.since if stay else None, "extended": current.extended,
                      "citation": current.citation, "threshold": threshold(step)}
    if stay:
        when = step_from(step, of_operation=True)
        b.step("step.current", f"Etapa em vigor: {frac(step.fraction)} de brasileiros "
               f"{when.pt}, desde {_d(current.since)}.",
               f"Step in force: {frac(step.fraction)} Brazilians {when.en}, since "
               f"{current.since.isoformat()}.", current.citation)
    groups = evaluate_groups(assign(members, rule.groups, rule.levels, rule.rest, reading),
                             step.fraction, rounding)
    cites = {g.group: group_citation(ctx, rule, current.citation, g.group) for g in groups}
    for g in groups:
        _trace_group(ctx, g, rounding, cites[g.group])
    result["groups"] = [group_row(g) | {"citation": cites[g.group]} for g in groups]
    result["total_deficit"] = sum(g.deficit for g in groups)
    _next_step(ctx, rule, nxt, members, rounding, reading, result)
    _alternative(ctx, rule, members, step, rounding, reading, groups, result)
    return _finish(ctx, regime, groups, None, result)


def _next_step(ctx: Context, rule: Rule, nxt: StepDate | None, members: list[CrewMember],
               rounding: str, reading: str, result: dict[str, Any]) -> None:
    """The next step: its date and what the current crew would then require."""
    b = ctx.b
    if nxt is not None:
        groups_next = evaluate_groups(assign(members, rule.groups, rule.levels, rule.rest,
                                             reading), nxt.step.fraction, rounding)
        result["next_step"] = {
            "fraction": nxt.step.fraction, "from_day": nxt.step.from_day, "since": nxt.since,
            "extended": nxt.extended, "citation": nxt.citation,
            "threshold": threshold(nxt.step), "groups": [group_row(g) for g in groups_next]}
        when = step_from(nxt.step)
        b.step("step.next", f"Próxima etapa: {frac(nxt.step.fraction)} {when.pt}, em "
               f"{_d(nxt.since)}.",
               f"Next step: {frac(nxt.step.fraction)} {when.en}, on "
               f"{nxt.since.isoformat()}.", nxt.citation)
    else:
        result["next_step"] = None


def _next_beyond_regime(ctx: Context, regime: Regime, nxt: StepDate) -> None:
    """The next step would fall after ``regime`` ends: told, with the norm that follows."""
    end = regime.valid_to
    assert end is not None
    norm = ctx.reg[regime.version]
    succ = ctx.reg[norm.replaced_by] if norm.replaced_by else None
    then_pt = (f"a partir de {_d(add_days(end, 1))} vigora {succ.label}"
               + ("" if succ.modelled else ", que não está modelada") if succ else
               "a norma seguinte não está registrada")
    then_en = (f"from {add_days(end, 1).isoformat()} {succ.label} is in force"
               + ("" if succ.modelled else ", which is not modelled") if succ else
               "the following norm is not registered")
    when = step_from(nxt.step)
    ctx.b.step("step.next_beyond_regime",
               f"A etapa seguinte ({frac(nxt.step.fraction)} {when.pt}) cairia em "
               f"{_d(nxt.since)}, depois do fim da vigência de {norm.label} "
               f"({_d(end)}); {then_pt}: próxima etapa não coberta por esta norma.",
               f"The following step ({frac(nxt.step.fraction)} {when.en}) "
               f"would fall on {nxt.since.isoformat()}, after {norm.label} ended "
               f"({end.isoformat()}); {then_en}: next step not covered by this norm.",
               ctx.reg.cite(succ.id) if succ else None)


def _trace_group(ctx: Context, g: GroupResult, rounding: str, cite: Citation) -> None:
    if g.empty:
        ctx.b.step(f"group.{g.group}", f"{group_label(g.group).capitalize()}: grupo vazio, "
                   "exige 0.", f"{group_label(g.group, 'en').capitalize()}: group empty, "
                   "requires 0.", cite, group=g.group, base=0, required=0)
        return
    exact = g.exact
    ex = f"{exact.numerator}/{exact.denominator}" if exact.denominator != 1 else \
        str(exact.numerator)
    rule_pt = "teto" if rounding == "at_least_fraction" else "arredondamento ≥ 0,5"
    rule_en = "ceiling" if rounding == "at_least_fraction" else "round half up"
    ctx.b.step(f"group.{g.group}",
               f"{group_label(g.group).capitalize()}: {frac(g.fraction)} × {g.base} = {ex} → "
               f"{g.required} exigido{'s' if g.required != 1 else ''} ({rule_pt}); "
               f"{g.brazilians} brasileiro{'s' if g.brazilians != 1 else ''} a bordo"
               f"{f'; déficit {g.deficit}' if g.deficit else ''}.",
               f"{group_label(g.group, 'en').capitalize()}: {frac(g.fraction)} × {g.base} = "
               f"{ex} → {g.required} required ({rule_en}); {g.brazilians} "
               f"Brazilian{'s' if g.brazilians != 1 else ''} aboard"
               f"{f'; deficit {g.deficit}' if g.deficit else ''}.", cite,
               group=g.group, base=g.base, required=g.required, brazilians=g.brazilians)
    if g.deficit:
        ctx.b.finding(Finding(
            "quota_deficit",
            Msg(f"{group_label(g.group).capitalize()}: "
                f"{'falta 1 brasileiro' if g.deficit == 1 else f'faltam {g.deficit} brasileiros'}"
                f" ({g.brazilians} de {g.required} exigido{'s' if g.required != 1 else ''}).",
                f"{group_label(g.group, 'en').capitalize()}: {g.deficit} "
                f"Brazilian{'s' if g.deficit != 1 else ''} short "
                f"({g.brazilians} of {g.required} required)."), cite, subject=g.group))


def _alternative(ctx: Context, rule: Rule, members: list[CrewMember], step: Step,
                 rounding: str, reading: str, groups: list[GroupResult],
                 result: dict[str, Any]) -> None:
    """Compute the other group reading; report it when it would change the verdict."""
    if rule.groups != "department_by_level":
        return
    other = "department_or_level" if reading == "department_by_level" else "department_by_level"
    alt = evaluate_groups(assign(members, rule.groups, rule.levels, rule.rest, other),
                          step.fraction, rounding)
    ok_now = all(g.deficit == 0 for g in groups)
    ok_alt = all(g.deficit == 0 for g in alt)
    result["alternative"] = {"reading": f"quota.groups.{other}", "changes_verdict":
                             ok_now != ok_alt, "groups": [group_row(g) for g in alt]}
    if ok_now != ok_alt:
        ctx.b.finding(Finding(
            "alternative_reading_changes_verdict",
            Msg(f"Pela leitura alternativa (quota.groups.{other}) o resultado seria "
                f"{'conforme' if ok_alt else 'não conforme'}.",
                f"Under the alternative reading (quota.groups.{other}) the result would be "
                f"{'compliant' if ok_alt else 'non-compliant'}."), None, "info"))


def _finish(ctx: Context, regime: Regime, groups: list[GroupResult] | None,
            verdict: Verdict | None, result: dict[str, Any]) -> Decision:
    b = ctx.b
    violations = [f for f in b.findings if f.severity == "violation"]
    if verdict is None:
        verdict = Verdict.NON_COMPLIANT if violations else Verdict.COMPLIANT
    if verdict == Verdict.NON_COMPLIANT and regime.family not in ("brazilian_flag", "reb"):
        consequence(ctx, result)
    result["findings"] = [f.id for f in violations]
    norm = ctx.reg[regime.version].label
    total = result.get("total_deficit")
    # Under the department-or-level reading the groups overlap (a deck officer is in "deck"
    # and in "officers"): the total adds group deficits, it is not a number of persons.
    overlap = b.interpreted("quota.groups.department_or_level")
    # A position nobody holds is not a violation (a launch has no chief engineer), and
    # crew-quota.md gives no other verdict for it; but a "compliant" must not read as if its
    # holder's nationality had been checked: the headline says, before anything else, that
    # a requirement of the law (art. 4º; art. 11, § 6º) was not verified — as the
    # ``*_not_identified`` warnings do in the findings.
    unseen = [r["position"] for r in result.get("positions", []) if r["person"] is None]
    compliant = Msg(f"Conforme: {norm}.", f"Compliant: {norm}.")
    if unseen:
        s_ = "s" if len(unseen) > 1 else ""
        compliant = Msg(
            f"Conforme com ressalva: não verificado{s_} o{s_} requisito{s_} de "
            + " e ".join(label(p) for p in unseen) + f" brasileiro{s_} (ninguém identificado "
            "na lista como " + " nem ".join(label(p) for p in unseen)
            + f"; coluna position) — {norm}.",
            f"Compliant with a reservation: the requirement{s_} of a Brazilian "
            + " and ".join(label(p, "en") for p in unseen) + " not verified (nobody "
            "identified in the list as " + " nor ".join(label(p, "en") for p in unseen)
            + f"; position column) — {norm}.")
    summary = {
        Verdict.COMPLIANT: compliant,
        Verdict.NON_COMPLIANT: Msg(
            f"Não conforme: {norm}" + (
                f"; soma dos déficits dos grupos {total} (grupos sobrepostos: um brasileiro "
                "conta na seção e no nível)" if total and overlap else
                f"; déficit total {total}" if total else "") + ".",
            f"Non-compliant: {norm}" + (
                f"; sum of the groups' deficits {total} (overlapping groups: one Brazilian "
                "counts in the department and in the level)" if total and overlap else
                f"; total deficit {total}" if total else "") + "."),
        Verdict.NOT_YET: Msg(f"Ainda não exigível: nenhuma etapa de {norm} atingida.",
                             f"Not yet required: no step of {norm} reached."),
    }[verdict]
    return b.build(verdict, regime.version, summary, result=result)

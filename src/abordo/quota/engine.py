"""Crew-quota engine: on date D, how many Brazilians the law requires per group, whether the
crew complies, why, and what changes next (crew-quota.md).

Pure: ``evaluate(case, on, options) -> Decision``; ``plan(case, on, options) -> Decision``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from abordo.crew.model import VesselCase, exit_before
from abordo.crew.ranks import CrewMember, resolve_crew
from abordo.law.calendar import add_days
from abordo.law.decision import (
    Citation,
    Decision,
    DecisionBuilder,
    Finding,
    Interpretation,
    Msg,
    UnconfirmedParameter,
    Verdict,
)
from abordo.law.errors import InputError
from abordo.law.interpretations import (
    check_options,
    interpretation,
    report_unused_options,
    resolve,
)
from abordo.law.labels import country, label
from abordo.law.norms import norm_registry
from abordo.law.text import br_date as _d
from abordo.quota.regimes import (
    Regime,
    Rule,
    Step,
    boundary_norms,
    exemption_uncited,
    extension_basis,
    family_for,
    regime_tables,
    step_citation,
)
from abordo.quota.rules import GroupResult, assign, evaluate_groups, group_label
from abordo.quota.stay import Gap, Stay, current_stay

PKG = "abordo.quota"


def _frac(f: Any) -> str:
    return f"{f.numerator}/{f.denominator}"


@dataclass(frozen=True)
class StepDate:
    step: Step
    since: dt.date
    extended: bool
    citation: Citation


class _Context:
    """What every stage of one evaluation shares: builder, date, options, citations."""

    def __init__(self, case: VesselCase, on: dt.date, options: Mapping[str, Any] | None) -> None:
        check_options([PKG], options)
        self.case = case
        self.on = on
        self.options = dict(options or {})
        self.b = DecisionBuilder("crew_quota", on)
        self.reg = norm_registry()
        # First day outside of each gap → the regime whose exit rule judged it.
        self.exit_rules: dict[dt.date, Regime] = {}
        self.refused_options: set[str] = set()  # told as not applied (the norm leaves no room)

    def cite(self, regime: Regime, provision: str) -> Citation:
        """``provision`` of the regime's norm, in the version the regime applies."""
        return self.reg.cite(regime.norm, provision, regime.version)

    def cite_restated(self, regime: Regime, provision: str | None) -> Citation | None:
        """The restatement in IN SIT 70/2007, cited only while that instruction is in force."""
        if not regime.restated_in or not provision:
            return None
        if not self.reg[regime.restated_in].in_force_on(self.on):
            return None
        return self.reg.cite(regime.restated_in, provision)


def evaluate(case: VesselCase, on: dt.date, options: Mapping[str, Any] | None = None
             ) -> Decision:
    """Judge the crew of ``case`` on ``on`` under the quota regime in force that day.

    Returns a :class:`Decision` with verdict compliant | non_compliant | not_applicable |
    not_yet | not_covered; ``result`` holds ``stay``, ``step``, ``groups`` (base, required,
    brazilians, deficit — persons), ``positions``, ``next_step``, ``alternative`` and
    ``consequences``. Raises :class:`InputError` for input the regime cannot use (unknown
    rank where a group is needed, missing AJB presence, unknown option).
    """
    ctx = _Context(case, on, options)
    return _unused_options(ctx, _evaluate(ctx, resolve_crew(case), planning=False))


def plan(case: VesselCase, on: dt.date, options: Mapping[str, Any] | None = None) -> Decision:
    """Every step of the regime in force on ``on`` for the current stay: its date, fraction
    and the Brazilians each group of the current crew would then require
    (``result["plan"]``). Assumes the vessel stays in AJB and the regime stays in force."""
    ctx = _Context(case, on, options)
    return _unused_options(ctx, _evaluate(ctx, resolve_crew(case), planning=True))


def _unused_options(ctx: _Context, d: Decision) -> Decision:
    """A caller's choice the decision never came to (no groups to read, no stay to count,
    no rule for this vessel) is reported, never silently dropped — as one the norm refuses."""
    return report_unused_options(d, ctx.options, ctx.refused_options)


def _vessel_summary(case: VesselCase) -> dict[str, Any]:
    v = case.vessel
    return {"name": v.name, "imo": v.imo, "flag": v.flag, "registry": v.registry,
            "activity": v.activity.value, "contract": case.operation.contract.value,
            "crew_size": len(case.crew_list)}


def _evaluate(ctx: _Context, members: list[CrewMember], planning: bool) -> Decision:
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

    if regime.positions:
        _check_positions(ctx, regime, members, result)

    rule = regime.rule_for(v.activity.value)
    if rule is None:
        if regime.rules:  # the regime lists activities and this one is not among them
            reason = Msg(
                f"a atividade {label(v.activity.value)} ({v.activity.value}) não consta de "
                f"{ctx.reg[regime.version].label}, "
                "em vigor nesta data; a norma que a regularia não está modelada",
                f"activity {v.activity.value} is not listed by "
                f"{ctx.reg[regime.version].label}, in force on this date; the norm that "
                "would govern it is not modelled")
            b.step("regime.activity_not_listed", reason.pt, reason.en)
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
                Msg(f"{_frac(s.fraction)} a partir de {s.from_day} dias",
                    f"{_frac(s.fraction)} from {s.from_day} days"), rule.source, regime.norm))
    return _apply_rule(ctx, regime, rule, members, result, planning)


_ACTIVITY_PT = {"long_haul": "de longo curso",
                "inland_international": "interior de percurso internacional"}


def label_pt(activity: str) -> str:
    return _ACTIVITY_PT.get(activity, activity)


def _exempt(ctx: _Context, result: dict[str, Any]) -> Decision:
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


def _check_positions(ctx: _Context, regime: Regime, members: list[CrewMember],
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


def group_citation(ctx: _Context, rule: Rule, step_cite: Citation, group: str) -> Citation:
    """The item of the step that holds ``group`` (Res. 42/2020 art. 4º, I, a, 1: sections;
    item 2: the other professionals), when the rule numbers them."""
    if not rule.items:
        return step_cite
    item = rule.items["rest" if group == "rest" else "sections"]
    return ctx.reg.cite(step_cite.norm_id, f"{step_cite.provision}, {item}", step_cite.version)


def step_dates(ctx: _Context, regime: Regime, rule: Rule, stay: Stay) -> list[StepDate]:
    """When each step applies: on the day its threshold is reached, or from the date of an
    extension granted for it (Res. 42/2020 art. 4º sole paragraph)."""
    ext = {e.step_from_day: e for e in ctx.case.operation.extensions}
    step_days = {s.from_day for s in rule.steps}
    given_days = [e.step_from_day for e in ctx.case.operation.extensions]
    for day in sorted({d for d in given_days if given_days.count(d) > 1}):
        ctx.b.finding(Finding("extension_repeated", Msg(
            f"Mais de uma prorrogação para a etapa de {day} dias: vale a última informada "
            f"({_d(ext[day].applies_from)}).",
            f"More than one extension for the {day}-day step: the last one given applies "
            f"({ext[day].applies_from.isoformat()})."), None, "warning"))
    for day, given in ext.items():
        # An extension the rule cannot use is reported, never silently dropped.
        if regime.extensions is None or day not in step_days:
            why_pt = ("a norma em vigor não prevê prorrogação" if regime.extensions is None
                      else f"não há etapa de {day} dias nesta regra (etapas: "
                      f"{', '.join(str(d) for d in sorted(step_days))})")
            why_en = ("the norm in force provides no extension" if regime.extensions is None
                      else f"there is no {day}-day step in this rule (steps: "
                      f"{', '.join(str(d) for d in sorted(step_days))})")
            ctx.b.finding(Finding("extension_not_applied", Msg(
                f"Prorrogação informada para a etapa de {day} dias não aplicada: {why_pt}"
                f"{f' ({given.reference})' if given.reference else ''}.",
                f"Extension given for the {day}-day step not applied: {why_en}"
                f"{f' ({given.reference})' if given.reference else ''}."), None, "warning"))
    out = []
    for s in rule.steps:
        reached = stay.day_reached_on(s.from_day)
        natural = reached
        if reached < regime.valid_from:
            # The days counted before the norm began still count (its steps are reached by
            # days of operation), but its requirement binds only from its own start: a rule
            # cannot apply before it is in force (LINDB art. 6º).
            natural = regime.valid_from
            ctx.b.step("step.from_regime_start",
                       f"A etapa de {s.from_day} dias foi atingida em {_d(reached)}, antes do "
                       f"início de vigência de {ctx.reg[regime.version].label}: exigível a "
                       f"partir de {_d(natural)}.",
                       f"The {s.from_day}-day step was reached on {reached.isoformat()}, "
                       f"before {ctx.reg[regime.version].label} came into force: it applies "
                       f"from {natural.isoformat()}.", ctx.reg.cite("lindb", "art. 6º"))
        since, extended = natural, False
        e = ext.get(s.from_day)
        if e is not None and regime.extensions is not None and e.applies_from <= natural:
            ctx.b.finding(Finding("extension_not_applied", Msg(
                f"Prorrogação da etapa de {s.from_day} dias para {_d(e.applies_from)} não "
                f"aplicada: a etapa já vale a partir de {_d(natural)}.",
                f"Extension of the {s.from_day}-day step to {e.applies_from.isoformat()} not "
                f"applied: the step already applies from {natural.isoformat()}."), None,
                "warning"))
        if e is not None and regime.extensions is not None and e.applies_from > natural:
            since, extended = e.applies_from, True
            basis = extension_basis(regime)
            ext_norm = ctx.reg[basis]
            # The extension postpones the step from its natural date: its basis must be in
            # force then (the date of the facts), whatever the date judged.
            if natural >= ext_norm.in_force_from:
                cite_ext = ctx.reg.cite(regime.extensions.norm, regime.extensions.provision,
                                        basis)
            else:
                # The provision that grounds extensions (IN SIT 70/2007 art. 13, VI: "outros
                # prazos estabelecidos pela CGIg") was not yet in force on that date, and
                # the regime's own text on them is not among the sources: the extension is
                # applied as given, on a basis the output names as unconfirmed.
                cite_ext = ctx.cite(regime, "")
                ctx.b.unconfirmed(UnconfirmedParameter(
                    "quota.extensions.basis",
                    Msg.same(f"{regime.extensions.provision} ({ext_norm.label})"),
                    Msg(f"prorrogação de etapa antes de {_d(ext_norm.in_force_from)}: a norma "
                        f"que a prevê ({ext_norm.label}, {regime.extensions.provision}) ainda "
                        f"não vigorava e o texto de {ctx.reg[regime.version].label} sobre "
                        "prorrogações não está entre as fontes",
                        f"a step extension before {ext_norm.in_force_from.isoformat()}: the "
                        f"norm providing for it ({ext_norm.label}, "
                        f"{regime.extensions.provision}) was not yet in force, and the text of "
                        f"{ctx.reg[regime.version].label} on extensions is not among the "
                        "sources"), regime.extensions.norm))
            ctx.b.step("step.extension",
                       f"Prorrogação concedida para a etapa de {s.from_day} dias: aplica-se a "
                       f"partir de {_d(since)} em vez de {_d(natural)}"
                       f"{f' ({e.reference})' if e.reference else ''}.",
                       f"Extension granted for the {s.from_day}-day step: it applies from "
                       f"{since.isoformat()} instead of {natural.isoformat()}"
                       f"{f' ({e.reference})' if e.reference else ''}.", cite_ext)
        out.append(StepDate(s, since, extended, step_citation(ctx.on, regime, rule, s)))
    for sd in out:
        # An extension that runs past a higher step's date has no effect from that date: the
        # higher step applies (the plan still shows the postponed step, on its own date).
        later = [o for o in out if o.step.from_day > sd.step.from_day and o.since <= sd.since]
        if sd.extended and later and regime.extensions is not None:
            over = min(later, key=lambda o: o.since)
            ctx.b.finding(Finding("extension_overtaken", Msg(
                f"A prorrogação da etapa de {sd.step.from_day} dias (até {_d(sd.since)}) "
                f"alcança a etapa de {over.step.from_day} dias, que vale desde "
                f"{_d(over.since)}: a partir dessa data vale a etapa maior e a prorrogação "
                "deixa de ter efeito.",
                f"The extension of the {sd.step.from_day}-day step (to {sd.since.isoformat()}) "
                f"reaches the {over.step.from_day}-day step, which applies from "
                f"{over.since.isoformat()}: from that date the higher step applies and the "
                "extension no longer has effect."), over.citation, "warning"))
    return out


def _gap_text(g: Gap) -> Msg:
    """An exit and the re-entry after it, in words: the days fully outside, or none."""
    if g.days_outside == 0:
        return Msg(f"Saída das AJB em {_d(g.after_exit)} e reentrada em {_d(g.next_entry)} "
                   "(nenhum dia inteiro fora)",
                   f"Left AJB on {g.after_exit.isoformat()} and re-entered on "
                   f"{g.next_entry.isoformat()} (no full day outside)")
    first, last, n = add_days(g.after_exit, 1), add_days(g.next_entry, -1), g.days_outside
    return Msg(f"Fora das AJB de {_d(first)} a {_d(last)} ({n} {'dia' if n == 1 else 'dias'})",
               f"Outside AJB from {first.isoformat()} to {last.isoformat()} "
               f"({n} {'day' if n == 1 else 'days'})")


def _stay(ctx: _Context, regime: Regime) -> tuple[Stay | None, Interpretation | None]:
    periods = list(ctx.case.operation.ajb_presence)
    if not periods:
        raise InputError("informe os períodos de presença em AJB (entrada e saída)",
                         "operation.ajb_presence",
                         message_en="give the periods of presence in AJB (entry and exit)")
    if regime.tolerance_days is None:
        interp = ctx.b.interpret(interpretation(PKG, "quota.days.strict", "any_exit_interrupts",
                                                "norm"))
        _option_not_applicable(ctx, "quota.days", "a norma exige operação contínua, sem "
                               "tolerância de saída", "the norm requires continuous operation, "
                               "with no tolerance for exits")
        return current_stay(periods, ctx.on, None), interp
    chosen = resolve(PKG, "quota.days", ctx.options)
    ctx.b.interpret(chosen)
    family = regime_tables().families[regime.family]

    # An exit in a window whose exit rule is not modelled is judged by today's rule; the
    # result rests on that only for an exit today's rule tolerates inside the current stay
    # (one long enough to interrupt today interrupts under any rule of continuity).
    pending: dict[dt.date, UnconfirmedParameter] = {}
    first = min(family, key=lambda r: r.valid_from)

    def tolerance_on(day: dt.date) -> int | None:
        """The exit rule of the norm in force on the first day outside (tempus regit actum)."""
        then = next((r for r in family if r.valid_from <= day and
                     (r.valid_to is None or day <= r.valid_to)), None)
        ctx.exit_rules[day] = then if then is not None and then.modelled else regime
        if then is None and day < first.valid_from:
            # Before the first regime modelled (RN 31/1998 asked for "90 continuous days",
            # with no exit rule we model).
            pending[day] = UnconfirmedParameter(
                f"{regime.version}:exit-rule-before-{first.version}",
                Msg(f"{regime.tolerance_days} dias", f"{regime.tolerance_days} days"),
                Msg(f"saída das AJB em {_d(day)}, antes de {ctx.reg[first.version].label} "
                    "(regra de saída então em vigor não modelada): aplicada a regra de saída "
                    "da norma em vigor na data julgada",
                    f"exit from AJB on {day.isoformat()}, before "
                    f"{ctx.reg[first.version].label} (the exit rule then in force is not "
                    "modelled): the exit rule of the norm in force on the date judged applied"),
                regime.norm)
            return regime.tolerance_days
        if then is None or then is regime:
            return regime.tolerance_days
        if not then.modelled:
            pending[day] = UnconfirmedParameter(
                f"{then.version}:exit-rule",
                Msg(f"{regime.tolerance_days} dias", f"{regime.tolerance_days} days"),
                Msg(f"saída das AJB em {_d(day)}, na vigência de {ctx.reg[then.version].label} "
                    "(não modelada): aplicada a regra de saída da norma em vigor na data "
                    "julgada",
                    f"exit from AJB on {day.isoformat()}, under {ctx.reg[then.version].label} "
                    "(not modelled): the exit rule of the norm in force on the date judged "
                    "applied"), then.norm)
            return regime.tolerance_days
        if then.tolerance_days is None:
            ctx.b.interpret(interpretation(PKG, "quota.days.strict", "any_exit_interrupts",
                                           "norm"))
        return then.tolerance_days

    stay = current_stay(periods, ctx.on, tolerance_on, chosen.variant == "days_outside_count")
    if stay is not None:
        for gap in stay.gaps:
            param = pending.get(add_days(gap.after_exit, 1))
            if param and not gap.interrupts and gap.next_entry > stay.start:
                ctx.b.unconfirmed(param)
        if not stay.in_ajb_on_date and stay.ended_on is None and stay.days_outside_now:
            # An absence under way, tolerated so far by a rule not modelled: that the stay
            # goes on rests on it too.
            param = pending.get(add_days(ctx.on, 1 - stay.days_outside_now))
            if param:
                ctx.b.unconfirmed(param)
    return stay, chosen


def _apply_rule(ctx: _Context, regime: Regime, rule: Rule, members: list[CrewMember],
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
        stay, _ = _stay(ctx, regime)
    if stay is not None:
        _trace_stay(ctx, regime, stay)
        result["stay"] = {"start": stay.start, "days_of_operation": stay.days_of_operation,
                          "in_ajb": stay.in_ajb_on_date, "paused_days": stay.paused_days,
                          "ended_on": stay.ended_on}
    elif regime.family != "brazilian_flag":
        b.step("stay.none", f"A embarcação não esteve em AJB até {_d(on)}.",
               f"The vessel was not in AJB by {on.isoformat()}.")
        result["plan"] = _arrival_plan(ctx, regime, rule, members) if planning else []
        return b.build(Verdict.NOT_APPLICABLE, regime.version,
                       Msg("Embarcação ainda não está em AJB.", "Vessel not yet in AJB."),
                       result=result)

    rounding = _rounding(ctx, rule)
    reading = _reading(ctx, rule)
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
    _boundaries_of(ctx, regime, [current] if current else [], with_successor=False)
    _boundaries_of(ctx, regime, [nxt] if nxt else [], with_successor=True)
    # A step falling after the regime's known end is not this norm's to require (the norm
    # then in force decides it): never presented as the next requirement.
    ends = regime.valid_to
    if nxt is not None and ends is not None and nxt.since > ends:
        _next_beyond_regime(ctx, regime, nxt)
        nxt = None
    if planning:
        _boundaries_of(ctx, regime, dates, with_successor=True)
        ended = stay.ended_on if stay is not None else None
        result["plan"] = [_plan_row(ctx, rule, sd, members, rounding, reading,
                                    _plan_status(sd, dates, current, on, ends, ended))
                          for sd in dates]

    if stay is not None and not stay.in_ajb_on_date:
        b.step("stay.outside", f"Em {_d(on)} a embarcação está fora das AJB.",
               f"On {on.isoformat()} the vessel is outside AJB.")
        return b.build(Verdict.NOT_APPLICABLE, regime.version,
                       Msg("Embarcação fora das AJB na data.", "Vessel outside AJB on the date."),
                       result=result)

    if current is None:
        _next_step(ctx, rule, nxt, members, rounding, reading, result)
        first = dates[0]
        b.step("step.none", f"Nenhuma etapa atingida em {_d(on)}: a primeira "
               f"({_frac(first.step.fraction)}) vale a partir de {_d(first.since)}.",
               f"No step reached on {on.isoformat()}: the first "
               f"({_frac(first.step.fraction)}) applies from {first.since.isoformat()}.",
               first.citation)
        result["step"] = None
        verdict = Verdict.NON_COMPLIANT if ctx.b.findings and any(
            f.severity == "violation" for f in ctx.b.findings) else Verdict.NOT_YET
        return _finish(ctx, regime, None, verdict, result)

    step = current.step
    result["step"] = {"fraction": step.fraction, "from_day": step.from_day,
                      "since": current.since if stay else None, "extended": current.extended,
                      "citation": current.citation}
    if stay:
        b.step("step.current", f"Etapa em vigor: {_frac(step.fraction)} de brasileiros a partir "
               f"de {step.from_day} dias de operação, desde {_d(current.since)}.",
               f"Step in force: {_frac(step.fraction)} Brazilians from {step.from_day} days of "
               f"operation, since {current.since.isoformat()}.", current.citation)
    groups = evaluate_groups(assign(members, rule.groups, rule.levels, rule.rest, reading),
                             step.fraction, rounding)
    cites = {g.group: group_citation(ctx, rule, current.citation, g.group) for g in groups}
    for g in groups:
        _trace_group(ctx, g, rounding, cites[g.group])
    result["groups"] = [_group_row(g) | {"citation": cites[g.group]} for g in groups]
    result["total_deficit"] = sum(g.deficit for g in groups)
    _next_step(ctx, rule, nxt, members, rounding, reading, result)
    _alternative(ctx, rule, members, step, rounding, reading, groups, result)
    return _finish(ctx, regime, groups, None, result)


def _next_step(ctx: _Context, rule: Rule, nxt: StepDate | None, members: list[CrewMember],
               rounding: str, reading: str, result: dict[str, Any]) -> None:
    """The next step: its date and what the current crew would then require."""
    b = ctx.b
    if nxt is not None:
        groups_next = evaluate_groups(assign(members, rule.groups, rule.levels, rule.rest,
                                             reading), nxt.step.fraction, rounding)
        result["next_step"] = {
            "fraction": nxt.step.fraction, "from_day": nxt.step.from_day, "since": nxt.since,
            "extended": nxt.extended, "citation": nxt.citation,
            "groups": [_group_row(g) for g in groups_next]}
        b.step("step.next", f"Próxima etapa: {_frac(nxt.step.fraction)} a partir de "
               f"{nxt.step.from_day} dias, em {_d(nxt.since)}.",
               f"Next step: {_frac(nxt.step.fraction)} from {nxt.step.from_day} days, on "
               f"{nxt.since.isoformat()}.", nxt.citation)
    else:
        result["next_step"] = None


def _next_beyond_regime(ctx: _Context, regime: Regime, nxt: StepDate) -> None:
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
    ctx.b.step("step.next_beyond_regime",
               f"A etapa seguinte ({_frac(nxt.step.fraction)} a partir de {nxt.step.from_day} "
               f"dias) cairia em {_d(nxt.since)}, depois do fim da vigência de {norm.label} "
               f"({_d(end)}); {then_pt}: próxima etapa não coberta por esta norma.",
               f"The following step ({_frac(nxt.step.fraction)} from {nxt.step.from_day} days) "
               f"would fall on {nxt.since.isoformat()}, after {norm.label} ended "
               f"({end.isoformat()}); {then_en}: next step not covered by this norm.",
               ctx.reg.cite(succ.id) if succ else None)


def _option_not_applicable(ctx: _Context, family: str, why_pt: str, why_en: str) -> None:
    """A caller's choice the norm leaves no room for is reported, never silently ignored."""
    if family in ctx.options:
        ctx.refused_options.add(family)
        ctx.b.finding(Finding("option_not_applicable", Msg(
            f"Opção {family}={ctx.options[family]} não aplicada: {why_pt}.",
            f"Option {family}={ctx.options[family]} not applied: {why_en}."), None, "info",
            family))


def _rounding(ctx: _Context, rule: Rule) -> str:
    if rule.rounding == "half_up":  # the text itself says so
        ctx.b.interpret(interpretation(PKG, "quota.rounding", "half_up", "norm"))
        _option_not_applicable(ctx, "quota.rounding", "o texto da norma fixa o arredondamento",
                               "the norm's text sets the rounding")
        return "half_up"
    chosen = ctx.b.interpret(resolve(PKG, "quota.rounding", ctx.options))
    return chosen.variant


def _reading(ctx: _Context, rule: Rule) -> str:
    if rule.groups != "department_by_level":
        return "department_by_level"
    chosen = ctx.b.interpret(resolve(PKG, "quota.groups", ctx.options))
    if rule.rest:
        ctx.b.interpret(resolve(PKG, "quota.groups.rest", ctx.options))
    return chosen.variant


def _exit_rule_citation(ctx: _Context, regime: Regime) -> Citation:
    """Where ``regime`` states its exit rule: its tolerance provision (Res. 42/2020 art. 10),
    else the provision of its rule for this activity ("noventa dias contínuos")."""
    if regime.tolerance_provision:
        return ctx.cite(regime, regime.tolerance_provision)
    rule = regime.rule_for(ctx.case.vessel.activity.value)
    return ctx.cite(regime, rule.provision if rule else "")


def _trace_stay(ctx: _Context, regime: Regime, stay: Stay) -> None:
    b = ctx.b
    for g in stay.gaps:
        # Each exit is told with the rule that judged it: the norm in force when it happened.
        judged = ctx.exit_rules.get(add_days(g.after_exit, 1), regime)
        tol = judged.tolerance_days
        prov = _exit_rule_citation(ctx, judged)
        if g.interrupts:
            why_pt = (f" (ausência de {tol} dias ou mais)" if tol else
                      f" ({ctx.reg[judged.version].label} exige operação contínua: qualquer "
                      "saída interrompe)")
            why_en = (f" (absence of {tol} days or more)" if tol else
                      f" ({ctx.reg[judged.version].label} requires continuous operation: any "
                      "exit interrupts)")
            where = _gap_text(g)
            b.step("stay.gap", f"{where.pt}: a contagem recomeça na reentrada em "
                   f"{_d(g.next_entry)}{why_pt}.",
                   f"{where.en}: the count restarts at re-entry on "
                   f"{g.next_entry.isoformat()}{why_en}.", prov, days_outside=g.days_outside)
        else:
            where = _gap_text(g)
            b.step("stay.gap", f"{where.pt} — menos de {tol}: a contagem não se interrompe.",
                   f"{where.en} — fewer than {tol}: the count is not interrupted.", prov,
                   days_outside=g.days_outside)
    if stay.ended_on is not None:
        # The absence under way has reached the tolerance (or the norm allows none): the
        # stay is over at its last day in AJB.
        after = add_days(stay.ended_on, 1)
        judged = ctx.exit_rules.get(after, regime)
        tol = judged.tolerance_days
        b.step("stay.ended", f"Fora das AJB desde {_d(after)} ({stay.days_outside_now} dias em "
               f"{_d(ctx.on)}"
               f"{f', {tol} ou mais' if tol else ''}): a estada terminou em "
               f"{_d(stay.ended_on)} e a contagem recomeça na próxima entrada.",
               f"Outside AJB since {after.isoformat()} ({stay.days_outside_now} days on "
               f"{ctx.on.isoformat()}{f', {tol} or more' if tol else ''}): the stay ended on "
               f"{stay.ended_on.isoformat()} and the count restarts at the next entry.",
               _exit_rule_citation(ctx, judged), days_outside=stay.days_outside_now)
    cc = ctx.reg.cite("codigo-civil-2002", "art. 132")
    end = stay.ended_on or ctx.on
    b.step("stay.days", f"Estada contínua desde {_d(stay.start)}: {stay.days_of_operation} dias "
           f"de operação em {_d(end)} (exclui-se o dia do início)"
           f"{f'; {stay.paused_days} dias fora não contados' if stay.paused_days else ''}.",
           f"Continuous stay since {stay.start.isoformat()}: {stay.days_of_operation} days of "
           f"operation on {end.isoformat()} (start day excluded)"
           f"{f'; {stay.paused_days} days outside not counted' if stay.paused_days else ''}.",
           cc, start=stay.start, days=stay.days_of_operation)


def _trace_group(ctx: _Context, g: GroupResult, rounding: str, cite: Citation) -> None:
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
               f"{group_label(g.group).capitalize()}: {_frac(g.fraction)} × {g.base} = {ex} → "
               f"{g.required} exigido{'s' if g.required != 1 else ''} ({rule_pt}); "
               f"{g.brazilians} brasileiro{'s' if g.brazilians != 1 else ''} a bordo"
               f"{f'; déficit {g.deficit}' if g.deficit else ''}.",
               f"{group_label(g.group, 'en').capitalize()}: {_frac(g.fraction)} × {g.base} = "
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


def _group_row(g: GroupResult) -> dict[str, Any]:
    return {"group": g.group, "base": g.base, "required": g.required,
            "brazilians": g.brazilians, "deficit": g.deficit, "exact": g.exact}


def _arrival_plan(ctx: _Context, regime: Regime, rule: Rule,
                  members: list[CrewMember]) -> list[dict[str, Any]]:
    """The plan of a vessel not yet in AJB on the date judged: every step counted from its
    first planned entry (the stay starts there; Código Civil art. 132, the entry day
    excluded), assuming it then stays in AJB (as the plan of a vessel already there does:
    later planned exits are not foreseen) and the regime in force stays in force."""
    # Called when no period has begun by the date judged, and there is at least one period.
    planned = sorted(p.entry for p in ctx.case.operation.ajb_presence)
    entry = planned[0]
    n_later = len(planned) - 1
    later = ("" if not n_later else "; o período seguinte informado não altera as datas"
             if n_later == 1 else f"; os {n_later} períodos seguintes informados não alteram "
             "as datas")
    later_en = ("" if not n_later else "; the later period given does not move the dates"
                if n_later == 1 else f"; the {n_later} later periods given do not move the "
                "dates")
    ctx.b.step("stay.planned",
               f"Planejamento: etapas contadas a partir da entrada prevista em AJB em "
               f"{_d(entry)}, supondo que a embarcação lá permaneça{later}.",
               f"Planning: steps counted from the planned entry into AJB on "
               f"{entry.isoformat()}, assuming the vessel stays there{later_en}.")
    stay = Stay(entry, False, 0, 0, ())
    rounding = _rounding(ctx, rule)
    reading = _reading(ctx, rule)
    ends = regime.valid_to
    dates = step_dates(ctx, regime, rule, stay)
    _boundaries_of(ctx, regime, dates, with_successor=True)
    return [_plan_row(ctx, rule, sd, members, rounding, reading,
                      _plan_status(sd, dates, None, ctx.on, ends, None))
            for sd in dates]


def _boundaries_of(ctx: _Context, regime: Regime, dates: list[StepDate], *,
                   with_successor: bool) -> None:
    """Name the unconfirmed norm boundaries the step ``dates`` stated rest on: a date in the
    year of an unconfirmed end of the regime's norm (and, ``with_successor`` — a next or
    planned step, which may fall after the norm ends — of its successor's)."""
    for sd in dates:
        for version in boundary_norms(regime, with_successor):
            for param in ctx.reg.unconfirmed_boundaries(version, sd.since):
                ctx.b.unconfirmed(param)


def _plan_status(sd: StepDate, dates: list[StepDate], current: StepDate | None,
                 on: dt.date, ends: dt.date | None, ended: dt.date | None) -> str:
    """A step's place in the plan: ``overtaken`` (a higher step applies on or before its
    date: it is never in force — an extension run past that step), ``after_stay`` (its date
    falls after the stay ended: the count restarts at the next entry), ``current``,
    ``past``, ``beyond_regime`` (after the norm's known end) or ``future``."""
    if ended is not None and sd.since > ended:  # (first: the stay's end decides it)
        return "after_stay"
    if any(o.step.from_day > sd.step.from_day and o.since <= sd.since for o in dates):
        return "overtaken"
    if sd is current and ended is None:  # a stay that is over has no step in force
        return "current"
    if sd.since <= on:
        return "past"
    return "beyond_regime" if ends is not None and sd.since > ends else "future"


def _plan_row(ctx: _Context, rule: Rule, sd: StepDate, members: list[CrewMember],
              rounding: str, reading: str, status: str) -> dict[str, Any]:
    """One step of the plan; ``status``: past (superseded) | current | future."""
    groups = evaluate_groups(assign(members, rule.groups, rule.levels, rule.rest, reading),
                             sd.step.fraction, rounding)
    ctx.b.cite(sd.citation)
    return {"since": sd.since, "from_day": sd.step.from_day, "fraction": sd.step.fraction,
            "status": status, "extended": sd.extended,
            "citation": sd.citation, "groups": [_group_row(g) for g in groups],
            "total_required": sum(g.required for g in groups),
            "total_deficit": sum(g.deficit for g in groups)}


def _alternative(ctx: _Context, rule: Rule, members: list[CrewMember], step: Step,
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
                             ok_now != ok_alt, "groups": [_group_row(g) for g in alt]}
    if ok_now != ok_alt:
        ctx.b.finding(Finding(
            "alternative_reading_changes_verdict",
            Msg(f"Pela leitura alternativa (quota.groups.{other}) o resultado seria "
                f"{'conforme' if ok_alt else 'não conforme'}.",
                f"Under the alternative reading (quota.groups.{other}) the result would be "
                f"{'compliant' if ok_alt else 'non-compliant'}."), None, "info"))


def _finish(ctx: _Context, regime: Regime, groups: list[GroupResult] | None,
            verdict: Verdict | None, result: dict[str, Any]) -> Decision:
    b = ctx.b
    violations = [f for f in b.findings if f.severity == "violation"]
    if verdict is None:
        verdict = Verdict.NON_COMPLIANT if violations else Verdict.COMPLIANT
    if verdict == Verdict.NON_COMPLIANT and regime.family not in ("brazilian_flag", "reb"):
        _consequence(ctx, result)
    result["findings"] = [f.id for f in violations]
    norm = ctx.reg[regime.version].label
    total = result.get("total_deficit")
    # Under the department-or-level reading the groups overlap (a deck officer is in "deck"
    # and in "officers"): the total adds group deficits, it is not a number of persons.
    overlap = b.interpreted("quota.groups.department_or_level")
    # A position nobody holds is not a violation (a launch has no chief engineer), but a
    # "compliant" must not read as if its holder's nationality had been checked.
    unseen = [r["position"] for r in result.get("positions", []) if r["person"] is None]
    words = {"master": ("comandante", "master"),
             "chief_engineer": ("chefe de máquinas", "chief engineer")}
    caveat = Msg(
        "; não verificado: ninguém identificado na lista como "
        + " nem ".join(words[p][0] for p in unseen) + " (coluna position)" if unseen else "",
        "; not checked: nobody identified in the list as "
        + " nor ".join(words[p][1] for p in unseen) + " (position column)" if unseen else "")
    summary = {
        Verdict.COMPLIANT: Msg(f"Conforme: {norm}{caveat.pt}.",
                               f"Compliant: {norm}{caveat.en}."),
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


def _consequence(ctx: _Context, result: dict[str, Any]) -> None:
    """IN SIT 70/2007 art. 14: auto de infração against the Brazilian contracting company,
    CLT art. 444, ementa 001139-8."""
    t = regime_tables()
    clt = ctx.reg.cite(t.consequence_clt.norm, t.consequence_clt.provision)
    proc_norm = ctx.reg[t.consequence_procedure.norm]
    proc = ctx.reg.cite(t.consequence_procedure.norm, t.consequence_procedure.provision) \
        if proc_norm.in_force_on(ctx.on) else None
    company = ctx.case.operation.brazilian_company
    who = company.name if company and company.name else "a empresa brasileira contratante"
    who_en = company.name if company and company.name else "the Brazilian contracting company"
    ctx.b.cite(clt)
    if proc is not None:
        ctx.b.cite(proc)
        text = Msg(f"Lavrar auto de infração contra {who} por infração ao art. 444 da CLT "
                   f"(ementa {t.ementa}).",
                   f"Issue an infraction notice (auto de infração) against {who_en} for breach "
                   f"of CLT art. 444 (infraction code {t.ementa}).")
        status = "in_force"
    elif ctx.on < proc_norm.in_force_from:
        # Before IN SIT 70/2007 the procedure was IN SIT 19/2000, which is not modelled.
        start = proc_norm.in_force_from
        text = Msg(f"O procedimento de inspeção então vigente (IN SIT nº 19/2000) não está "
                   f"modelado; a IN SIT 70/2007, art. 14 (auto de infração contra {who}, CLT "
                   f"art. 444, ementa {t.ementa}), só vigora a partir de {_d(start)}.",
                   f"The inspection procedure then in force (IN SIT nº 19/2000) is not "
                   f"modelled; IN SIT 70/2007 art. 14 (infraction notice against {who_en}, CLT "
                   f"art. 444, code {t.ementa}) is in force only from {start.isoformat()}.")
        status = "not_modelled"
        ctx.b.step("consequence.procedure", text.pt, text.en, ctx.reg.cite("in-sit-19-2000"))
    else:
        # The procedure that named this auto was revoked; its successor is not modelled, so
        # the consequence is reported as the last modelled one, never as current law.
        revoked = add_days(proc_norm.in_force_to, 1)  # type: ignore[arg-type]
        text = Msg(f"Procedimento previsto na IN SIT 70/2007, art. 14 (auto de infração contra "
                   f"{who}, CLT art. 444, ementa {t.ementa}); revogada com efeitos a partir de "
                   f"{_d(revoked)} — o "
                   "procedimento vigente (IN MTP nº 2/2021) não está modelado.",
                   f"Procedure of IN SIT 70/2007 art. 14 (infraction notice against {who_en}, "
                   f"CLT art. 444, code {t.ementa}); revoked with effect from "
                   f"{revoked.isoformat()} — the current procedure (IN MTP nº 2/2021) is not "
                   "modelled.")
        status = "not_modelled"
        ctx.b.step("consequence.procedure", text.pt, text.en,
                   ctx.reg.cite(proc_norm.replaced_by) if proc_norm.replaced_by else None)
    result["consequences"] = [{"id": "auto_de_infracao_clt_444", "text": text, "status": status,
                               "ementa": t.ementa, "citations": [c for c in (clt, proc) if c]}]

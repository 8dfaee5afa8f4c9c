"""The vessel's time in AJB as the crew-quota engine reads it: the current stay (entries,
exits judged by the norm in force when they happened), its trace, and the date each step of
the rule applies, extensions included (crew-quota.md; Res. CNIg 42/2020 arts. 4 and 10)."""

from __future__ import annotations

import datetime as dt

from abordo.law.calendar import add_days
from abordo.law.decision import Citation, Finding, Interpretation, Msg, UnconfirmedParameter
from abordo.law.errors import InputError
from abordo.law.interpretations import interpretation, resolve
from abordo.law.text import br_date as _d
from abordo.quota.context import PKG, Context, StepDate, option_not_applicable
from abordo.quota.regimes import Regime, Rule, extension_basis, regime_tables, step_citation
from abordo.quota.stay import Gap, Stay, current_stay


def _borrowed_exit_rule(regime: Regime, key: str, day: dt.date, when: Msg,
                        norm: str) -> UnconfirmedParameter:
    """An exit from AJB judged by the exit rule of the norm in force on the date judged,
    because the rule in force on ``day`` (``when``) is not modelled: unconfirmed."""
    tol = regime.tolerance_days
    return UnconfirmedParameter(
        key, Msg(f"{tol} dias", f"{tol} days") if tol is not None else
        Msg("qualquer saída interrompe", "any exit interrupts"),
        Msg(f"saída das AJB em {_d(day)}, {when.pt}: aplicada a regra de saída da norma em "
            "vigor na data julgada",
            f"exit from AJB on {day.isoformat()}, {when.en}: the exit rule of the norm in "
            "force on the date judged applied"), norm)


def _exit_rule_words(ctx: Context, regime: Regime) -> Msg:
    """``regime``'s exit rule in words: its tolerance, or continuous operation."""
    label = ctx.reg[regime.version].label
    if regime.tolerance_days is None:
        return Msg(f"{label}: operação contínua, qualquer saída interrompe",
                   f"{label}: continuous operation, any exit interrupts")
    return Msg(f"{label}: ausência de {regime.tolerance_days} dias ou mais interrompe",
               f"{label}: an absence of {regime.tolerance_days} days or more interrupts")


def step_dates(ctx: Context, regime: Regime, rule: Rule, stay: Stay) -> list[StepDate]:
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


def gap_text(g: Gap) -> Msg:
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


def stay_of(ctx: Context, regime: Regime) -> tuple[Stay | None, Interpretation | None]:
    periods = list(ctx.case.operation.ajb_presence)
    if not periods:
        raise InputError("informe os períodos de presença em AJB (entrada e saída)",
                         "operation.ajb_presence",
                         message_en="give the periods of presence in AJB (entry and exit)")
    if regime.tolerance_days is None:
        chosen = ctx.b.interpret(interpretation(PKG, "quota.days.strict", "any_exit_interrupts",
                                                "norm"))
        option_not_applicable(ctx, "quota.days", "a norma exige operação contínua, sem "
                               "tolerância de saída", "the norm requires continuous operation, "
                               "with no tolerance for exits")
        count_outside = True
    else:
        chosen = resolve(PKG, "quota.days", ctx.options)
        ctx.b.interpret(chosen)
        count_outside = chosen.variant == "days_outside_count"
    family = regime_tables().families[regime.family]

    # An exit in a window whose exit rule is not modelled (or before the family's first
    # regime modelled) is judged by today's rule, and said so. The result rests on that for
    # an exit today's rule tolerates inside the current stay, and for the exit that begins
    # the current stay if it is shorter than the widest tolerance the family's norms know
    # (a rule then in force may have tolerated it): one that long or longer interrupts under
    # any rule of continuity modelled.
    pending: dict[dt.date, UnconfirmedParameter] = {}
    first = min(family, key=lambda r: r.valid_from)
    tolerances = [r.tolerance_days for r in family if r.modelled and r.tolerance_days]
    widest = max(tolerances) if tolerances else None

    def borrowed(day: dt.date, param: UnconfirmedParameter, said: Msg) -> int | None:
        pending[day] = param
        ctx.exit_rules[day] = regime
        ctx.borrowed_exits[day] = said
        return regime.tolerance_days

    def tolerance_on(day: dt.date) -> int | None:
        """The exit rule of the norm in force on the first day outside (tempus regit actum)."""
        then = next((r for r in family if r.valid_from <= day and
                     (r.valid_to is None or day <= r.valid_to)), None)
        if then is None and day < first.valid_from:
            # Before the first regime modelled (RN 31/1998 asked for "90 continuous days",
            # with no exit rule we model; RN 58/2003 is not modelled).
            label = ctx.reg[first.version].label
            when = Msg(f"antes de {label} (regra de saída então em vigor não modelada)",
                       f"before {label} (the exit rule then in force is not modelled)")
            return borrowed(day, _borrowed_exit_rule(
                regime, f"{regime.version}:exit-rule-before-{first.version}", day, when,
                regime.norm), Msg(f"saída anterior à {label}, sob regra de saída não modelada",
                                  f"exit before {label}, under an exit rule not modelled"))
        if then is not None and not then.modelled:
            label = ctx.reg[then.version].label
            when = Msg(f"na vigência de {label} (não modelada)",
                       f"under {label} (not modelled)")
            return borrowed(day, _borrowed_exit_rule(
                regime, f"{then.version}:exit-rule", day, when, then.norm),
                Msg(f"saída na vigência da {label}, não modelada",
                    f"exit under {label}, not modelled"))
        ctx.exit_rules[day] = then if then is not None else regime
        if then is None or then is regime:
            return regime.tolerance_days
        if then.tolerance_days is None:
            ctx.b.interpret(interpretation(PKG, "quota.days.strict", "any_exit_interrupts",
                                           "norm"))
        return then.tolerance_days

    def rests_on(days_outside: int) -> bool:
        """Whether an exit that interrupts under the borrowed rule might not have under
        the rule then in force (shorter than the widest tolerance of the family)."""
        return widest is not None and days_outside < widest

    stay = current_stay(periods, ctx.on, tolerance_on, count_outside)
    if stay is not None:
        for gap in stay.gaps:
            param = pending.get(add_days(gap.after_exit, 1))
            if param is None:
                continue
            if (not gap.interrupts and gap.next_entry > stay.start) or (
                    gap.interrupts and gap.next_entry == stay.start
                    and rests_on(gap.days_outside)):
                ctx.b.unconfirmed(param)
        if not stay.in_ajb_on_date and stay.days_outside_now:
            # The absence under way, tolerated so far or ended by a borrowed rule: that the
            # stay goes on (or is over) rests on it too.
            param = pending.get(add_days(ctx.on, 1 - stay.days_outside_now))
            if param and (stay.ended_on is None or rests_on(stay.days_outside_now)):
                ctx.b.unconfirmed(param)
    return stay, chosen


def exit_rule_citation(ctx: Context, regime: Regime) -> Citation:
    """Where ``regime`` states its exit rule: its tolerance provision (Res. 42/2020 art. 10),
    else the provision of its rule for this activity ("noventa dias contínuos")."""
    if regime.tolerance_provision:
        return ctx.cite(regime, regime.tolerance_provision)
    rule = regime.rule_for(ctx.case.vessel.activity.value)
    return ctx.cite(regime, rule.provision if rule else "")


def _borrowed_note(ctx: Context, regime: Regime, day: dt.date) -> Msg | None:
    """How an exit whose rule then in force is not modelled was judged (first day outside
    ``day``): by today's rule, named as such — never told as the rule of a norm that was
    not yet (or no longer) in force when the vessel left."""
    said = ctx.borrowed_exits.get(day)
    if said is None:
        return None
    words = _exit_rule_words(ctx, regime)
    return Msg(f"{said.pt}: aplicada a regra da norma em vigor na data julgada, {words.pt}",
               f"{said.en}: the rule of the norm in force on the date judged applied, "
               f"{words.en}")


def trace_stay(ctx: Context, regime: Regime, stay: Stay) -> None:
    b = ctx.b
    for g in stay.gaps:
        # Each exit is told with the rule that judged it: the norm in force when it happened
        # — or, where that rule is not modelled, today's, said so.
        first_out = add_days(g.after_exit, 1)
        judged = ctx.exit_rules.get(first_out, regime)
        note = _borrowed_note(ctx, regime, first_out)
        tol = judged.tolerance_days
        prov = exit_rule_citation(ctx, judged)
        where = gap_text(g)
        if g.interrupts:
            if note is not None:
                why = Msg(f" ({note.pt})", f" ({note.en})")
            elif tol:
                why = Msg(f" (ausência de {tol} dias ou mais)",
                          f" (absence of {tol} days or more)")
            else:
                why = Msg(f" ({ctx.reg[judged.version].label} exige operação contínua: "
                          "qualquer saída interrompe)",
                          f" ({ctx.reg[judged.version].label} requires continuous operation: "
                          "any exit interrupts)")
            b.step("stay.gap", f"{where.pt}: a contagem recomeça na reentrada em "
                   f"{_d(g.next_entry)}{why.pt}.",
                   f"{where.en}: the count restarts at re-entry on "
                   f"{g.next_entry.isoformat()}{why.en}.", prov, days_outside=g.days_outside)
        else:
            extra = Msg(f" ({note.pt})", f" ({note.en})") if note else Msg("", "")
            b.step("stay.gap", f"{where.pt} — menos de {tol}: a contagem não se "
                   f"interrompe{extra.pt}.",
                   f"{where.en} — fewer than {tol}: the count is not interrupted{extra.en}.",
                   prov, days_outside=g.days_outside)
    if stay.ended_on is not None:
        # The absence under way has reached the tolerance (or the norm allows none): the
        # stay is over at its last day in AJB.
        after = add_days(stay.ended_on, 1)
        judged = ctx.exit_rules.get(after, regime)
        note = _borrowed_note(ctx, regime, after)
        tol = judged.tolerance_days
        extra = Msg(f" ({note.pt})", f" ({note.en})") if note else Msg("", "")
        b.step("stay.ended", f"Fora das AJB desde {_d(after)} ({stay.days_outside_now} dias em "
               f"{_d(ctx.on)}"
               f"{f', {tol} ou mais' if tol else ''}): a estada terminou em "
               f"{_d(stay.ended_on)} e a contagem recomeça na próxima entrada{extra.pt}.",
               f"Outside AJB since {after.isoformat()} ({stay.days_outside_now} days on "
               f"{ctx.on.isoformat()}{f', {tol} or more' if tol else ''}): the stay ended on "
               f"{stay.ended_on.isoformat()} and the count restarts at the next entry"
               f"{extra.en}.",
               exit_rule_citation(ctx, judged), days_outside=stay.days_outside_now)
    if stay.return_by is not None:
        # An absence under way that the exit rule still tolerates: until when a re-entry
        # keeps the count (the tolerance is the rule's, in the regimes' data).
        after = add_days(ctx.on, 1 - stay.days_outside_now)
        judged = ctx.exit_rules.get(after, regime)
        tol = judged.tolerance_days
        b.step("stay.absence",
               f"Fora das AJB desde {_d(after)} ({stay.days_outside_now} "
               f"{'dia' if stay.days_outside_now == 1 else 'dias'} em {_d(ctx.on)}, menos de "
               f"{tol}): a estada não se interrompeu. Se a embarcação reentrar até "
               f"{_d(stay.return_by)} (menos de {tol} dias inteiros fora), a contagem "
               "prossegue; depois dessa data, recomeça na reentrada.",
               f"Outside AJB since {after.isoformat()} ({stay.days_outside_now} "
               f"{'day' if stay.days_outside_now == 1 else 'days'} on {ctx.on.isoformat()}, "
               f"fewer than {tol}): the stay is not interrupted. If the vessel re-enters by "
               f"{stay.return_by.isoformat()} (fewer than {tol} full days outside), the count "
               "goes on; after that date, it restarts at the re-entry.",
               exit_rule_citation(ctx, judged), days_outside=stay.days_outside_now,
               return_by=stay.return_by)
    cc = ctx.reg.cite("codigo-civil-2002", "art. 132")
    end = stay.ended_on or ctx.on
    b.step("stay.days", f"Estada contínua desde {_d(stay.start)}: {stay.days_of_operation} dias "
           f"de operação em {_d(end)} (exclui-se o dia do início)"
           f"{f'; {stay.paused_days} dias fora não contados' if stay.paused_days else ''}.",
           f"Continuous stay since {stay.start.isoformat()}: {stay.days_of_operation} days of "
           f"operation on {end.isoformat()} (start day excluded)"
           f"{f'; {stay.paused_days} days outside not counted' if stay.paused_days else ''}.",
           cc, start=stay.start, days=stay.days_of_operation)

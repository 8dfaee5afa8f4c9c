"""What one crew-quota evaluation shares across its stages: the context (decision builder,
date, options, citations), the dates of the steps, and the readings chosen for rounding and
groups (crew-quota.md; the interpretations in ``data/interpretations.yaml``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from abordo.crew.model import VesselCase
from abordo.law.decision import Citation, DecisionBuilder, Finding, Msg
from abordo.law.interpretations import check_options, interpretation, resolve
from abordo.law.norms import norm_registry
from abordo.quota.regimes import Regime, Rule, Step
from abordo.quota.rules import GroupResult

PKG = "abordo.quota"


def frac(f: Any) -> str:
    return f"{f.numerator}/{f.denominator}"


def threshold(step: Step) -> Msg | None:
    """A step's threshold in the norm's words where they are not "from N days": RN 71/2006's
    "more than 30 days" in AJB, reached on start + 30 days, the 31st day of the stay
    (crew-quota.md §F). None for the others ("a partir de N dias")."""
    if not step.more_than:
        return None
    n = step.from_day
    nth = n + 1
    suffix = "th" if nth % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(nth % 10,
                                                                                "th")
    return Msg(f"mais de {n} dias em AJB, a partir do {nth}º dia da estada",
               f"more than {n} days in AJB, from the {nth}{suffix} day of the stay")


def step_days(step: Step) -> Msg:
    """A step's threshold in a few words, for a table's cell: ``90 dias`` — "from 90 days of
    operation", reached on start + 90 —, or ``mais de 30 dias`` for a "more than" step (RN
    71/2006). Not "a partir do dia 90", which reads as the 90th calendar day of the stay while
    the step binds on its 91st (the start day is not counted, Código Civil art. 132)."""
    if step.more_than:
        return Msg(f"mais de {step.from_day} dias", f"more than {step.from_day} days")
    return Msg(f"{step.from_day} dias", f"{step.from_day} days")


def step_from(step: Step, of_operation: bool = False) -> Msg:
    """``a partir de 90 dias [de operação]`` — or, for a "more than" step, the norm's words
    (``com mais de 30 dias em AJB, a partir do 31º dia da estada``)."""
    words = threshold(step)
    if words is not None:
        return Msg(f"com {words.pt}", f"after {words.en}")
    unit = (" de operação", " of operation") if of_operation else ("", "")
    return Msg(f"a partir de {step.from_day} dias{unit[0]}",
               f"from {step.from_day} days{unit[1]}")


@dataclass(frozen=True)
class StepDate:
    step: Step
    since: dt.date
    extended: bool
    citation: Citation


class Context:
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
        # First day outside of each gap judged by the rule of the norm in force on the date
        # judged because the rule then in force is not modelled → when it happened, in words.
        self.borrowed_exits: dict[dt.date, Msg] = {}
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


def option_not_applicable(ctx: Context, family: str, why_pt: str, why_en: str) -> None:
    """A caller's choice the norm leaves no room for is reported, never silently ignored."""
    if family in ctx.options:
        ctx.refused_options.add(family)
        ctx.b.finding(Finding("option_not_applicable", Msg(
            f"Opção {family}={ctx.options[family]} não aplicada: {why_pt}.",
            f"Option {family}={ctx.options[family]} not applied: {why_en}."), None, "info",
            family))


def rounding_of(ctx: Context, rule: Rule) -> str:
    if rule.rounding == "half_up":  # the text itself says so
        ctx.b.interpret(interpretation(PKG, "quota.rounding", "half_up", "norm"))
        option_not_applicable(ctx, "quota.rounding", "o texto da norma fixa o arredondamento",
                               "the norm's text sets the rounding")
        return "half_up"
    chosen = ctx.b.interpret(resolve(PKG, "quota.rounding", ctx.options))
    return chosen.variant


def reading_of(ctx: Context, rule: Rule) -> str:
    if rule.groups != "department_by_level":
        return "department_by_level"
    chosen = ctx.b.interpret(resolve(PKG, "quota.groups", ctx.options))
    if rule.rest:
        ctx.b.interpret(resolve(PKG, "quota.groups.rest", ctx.options))
    return chosen.variant


def group_row(g: GroupResult) -> dict[str, Any]:
    return {"group": g.group, "base": g.base, "required": g.required,
            "brazilians": g.brazilians, "deficit": g.deficit, "exact": g.exact}

"""The plan of a stay: every step of the rule with its date and what the current crew would
then require (``abordo.quota.plan``; crew-quota.md)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from abordo.crew.ranks import CrewMember
from abordo.law.text import br_date as _d
from abordo.quota.context import Context, StepDate, group_row, reading_of, rounding_of, step_days
from abordo.quota.regimes import Regime, Rule, boundary_norms
from abordo.quota.rules import assign, evaluate_groups
from abordo.quota.stay import Stay
from abordo.quota.timeline import step_dates


def arrival_plan(ctx: Context, regime: Regime, rule: Rule,
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
    rounding = rounding_of(ctx, rule)
    reading = reading_of(ctx, rule)
    ends = regime.valid_to
    dates = step_dates(ctx, regime, rule, stay)
    boundaries_of(ctx, regime, dates, with_successor=True)
    return [plan_row(ctx, rule, sd, members, rounding, reading,
                      plan_status(sd, dates, None, ctx.on, ends, None))
            for sd in dates]


def boundaries_of(ctx: Context, regime: Regime, dates: list[StepDate], *,
                   with_successor: bool) -> None:
    """Name the unconfirmed norm boundaries the step ``dates`` stated rest on: a date in the
    year of an unconfirmed end of the regime's norm (and, ``with_successor`` — a next or
    planned step, which may fall after the norm ends — of its successor's)."""
    for sd in dates:
        for version in boundary_norms(regime, with_successor):
            for param in ctx.reg.unconfirmed_boundaries(version, sd.since):
                ctx.b.unconfirmed(param)


def plan_status(sd: StepDate, dates: list[StepDate], current: StepDate | None,
                 on: dt.date, ends: dt.date | None, ended: dt.date | None,
                 outside: bool = False) -> str:
    """A step's place in the plan: ``overtaken`` (a higher step applies on or before its
    date: it is never in force — an extension run past that step), ``after_stay`` (its date
    falls after the stay ended: the count restarts at the next entry), ``current``,
    ``suspended`` (the step reached, on a date the vessel is outside AJB in an absence the
    exit rule still tolerates: nothing applies that day, as the verdict says, and the step
    binds again at the re-entry if it is in time), ``past``, ``beyond_regime`` (after the
    norm's known end) or ``future``."""
    if ended is not None and sd.since > ended:  # (first: the stay's end decides it)
        return "after_stay"
    if any(o.step.from_day > sd.step.from_day and o.since <= sd.since for o in dates):
        return "overtaken"
    if sd is current and ended is None:  # a stay that is over has no step in force
        return "suspended" if outside else "current"
    if sd.since <= on:
        return "past"
    return "beyond_regime" if ends is not None and sd.since > ends else "future"


def plan_row(ctx: Context, rule: Rule, sd: StepDate, members: list[CrewMember],
              rounding: str, reading: str, status: str) -> dict[str, Any]:
    """One step of the plan; ``status``: past (superseded) | current | future."""
    groups = evaluate_groups(assign(members, rule.groups, rule.levels, rule.rest, reading),
                             sd.step.fraction, rounding)
    ctx.b.cite(sd.citation)
    return {"since": sd.since, "from_day": sd.step.from_day, "fraction": sd.step.fraction,
            "threshold_days": step_days(sd.step),
            "status": status, "extended": sd.extended,
            "citation": sd.citation, "groups": [group_row(g) for g in groups],
            "total_required": sum(g.required for g in groups),
            "total_deficit": sum(g.deficit for g in groups)}

"""Days of operation in AJB and the 15-day rule (crew-quota.md, "Days of operation").

- Days of operation on D = full days since the start of the current continuous stay,
  ``D − start`` (Código Civil art. 132: the starting day excluded).
- Presence periods are ``[entry, exit]``, both days present; days fully outside between two
  periods = ``next entry − exit − 1``.
- Res. CNIg 42/2020 art. 10: an absence of fewer than 15 consecutive days does not interrupt
  the count (days outside counted, or paused under the alternative reading); 15 or more
  restart it at the next entry. Regimes without that rule: any exit interrupts.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from abordo.crew.model import AjbPeriod
from abordo.law.calendar import add_days, days_between


@dataclass(frozen=True)
class Gap:
    """Days fully outside AJB between two presence periods."""

    after_exit: dt.date
    next_entry: dt.date
    days_outside: int
    interrupts: bool


@dataclass(frozen=True)
class Stay:
    """The current continuous stay on the date judged."""

    start: dt.date
    in_ajb_on_date: bool
    days_of_operation: int
    paused_days: int  # days outside not counted (days_outside_paused reading only)
    gaps: tuple[Gap, ...]  # every gap considered, oldest first
    paused_gaps: tuple[Gap, ...] = ()  # the gaps whose days are not counted, oldest first
    # Last day in AJB of a stay that is over on the date judged: the vessel has been outside
    # since for the tolerance or more (any exit, where there is none) — its count is closed
    # there and restarts at the next entry. None while the stay goes on.
    ended_on: dt.date | None = None
    days_outside_now: int = 0  # days outside since the last exit, the date judged included
    # An absence under way that the exit rule still tolerates: the last day on which a
    # re-entry keeps the count going (the exit + the tolerance: fewer than that many days
    # fully outside). None in AJB, once the stay is over, or where any exit interrupts.
    return_by: dt.date | None = None

    def day_reached_on(self, n: int) -> dt.date:
        """Date on which ``n`` days of operation are complete, assuming presence from now on.

        Under the paused reading only the days outside *before* that date are not counted:
        an absence after a threshold was reached does not move the step it began
        (crew-quota.md: a step applies from the day the threshold is reached)."""
        day = add_days(self.start, n)
        for gap in self.paused_gaps:
            if day > gap.after_exit:  # not yet reached when this absence began
                day = add_days(day, gap.days_outside)
        return day


def current_stay(periods: list[AjbPeriod], on: dt.date,
                 tolerance_days: int | Callable[[dt.date], int | None] | None,
                 count_days_outside: bool = True) -> Stay | None:
    """The stay that includes (or last preceded) ``on``; None if never in AJB by then.

    ``tolerance_days`` None = any exit interrupts; otherwise gaps shorter than it continue
    the stay — or a function giving the tolerance in force on a gap's first day outside,
    since an exit is judged by the norm in force when it happened (tempus regit actum).
    ``count_days_outside`` False pauses the count during tolerated gaps.
    """
    def tolerance_on(day: dt.date) -> int | None:
        return tolerance_days(day) if callable(tolerance_days) else tolerance_days

    past = sorted((p for p in periods if p.entry <= on), key=lambda p: p.entry)
    if not past:
        return None
    gaps: list[Gap] = []
    start_index = 0
    for i in range(1, len(past)):
        prev, nxt = past[i - 1], past[i]
        assert prev.exit is not None  # validated: only the last period may be open
        outside = days_between(prev.exit, nxt.entry) - 1
        tolerance = tolerance_on(add_days(prev.exit, 1))
        # Two periods are an exit and a re-entry, even on consecutive days (0 days fully
        # outside): where any exit interrupts (no tolerance), that one does too.
        interrupts = tolerance is None or outside >= tolerance
        gaps.append(Gap(prev.exit, nxt.entry, outside, interrupts))
        if interrupts:
            start_index = i
    last = past[-1]
    in_ajb = last.exit is None or last.exit >= on
    start = past[start_index].entry
    kept = [g for g in gaps if g.next_entry > start]
    paused_gaps = () if count_days_outside else tuple(kept)
    paused = sum(g.days_outside for g in paused_gaps)
    ended_on, outside_now, return_by = None, 0, None
    if last.exit is not None and not in_ajb:
        # The absence under way: once it reaches the tolerance (any exit, without one)
        # whatever follows is a new stay — this one's count stops at its last day in AJB.
        outside_now = days_between(last.exit, on)
        tolerance = tolerance_on(add_days(last.exit, 1))
        if tolerance is None or outside_now >= tolerance:
            ended_on = last.exit
        else:
            return_by = add_days(last.exit, tolerance)
        if ended_on is None and not count_days_outside:
            # Tolerated so far, and its days are not counted under the paused reading: the
            # count waits at the last day in AJB, and the steps ahead move by the days
            # outside so far (re-entry assumed the next day, as a plan assumes presence).
            gap = Gap(last.exit, add_days(on, 1), outside_now, False)
            paused_gaps = (*paused_gaps, gap)
            paused += outside_now
    days = days_between(start, ended_on or on) - paused
    return Stay(start, in_ajb, days, paused, tuple(gaps), paused_gaps, ended_on, outside_now,
                return_by)

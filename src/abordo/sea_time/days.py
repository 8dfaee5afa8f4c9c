"""Sets of calendar days, with the interval algebra of the maintained ``portion`` library.

A :data:`Days` value is a union of closed intervals of *day ordinals* (``date.toordinal()``)
in portion's discrete mode (step 1), so that ``[1 Jan, 5 Jan] | [6 Jan, 9 Jan]`` merges into
``[1 Jan, 9 Jan]``: consecutive calendar days form one interval, and a day covered by two
records is one day (NORMAM-101 item 1.27 counts days aboard, never a sum of lengths — shared
spec ``sea-time.md`` rule 2). All counts are in days.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import portion as P


class DayInterval(P.AbstractDiscreteInterval):  # type: ignore[misc]
    """Closed intervals of day ordinals; adjacent days merge (discrete step of 1 day)."""

    _step = 1


D = P.create_api(DayInterval)
Days = DayInterval


def empty() -> Days:
    """No day."""
    result: Days = D.empty()
    return result


def span(start: dt.date, end: dt.date) -> Days:
    """The days from ``start`` to ``end``, both included (empty when ``end < start``)."""
    if end < start:
        return empty()
    result: Days = D.closed(start.toordinal(), end.toordinal())
    return result


def ordinal_span(start: int, end: int) -> Days:
    """As :func:`span`, from day ordinals."""
    if end < start:
        return empty()
    result: Days = D.closed(start, end)
    return result


def day(d: dt.date) -> Days:
    """One day."""
    return span(d, d)


def union(parts: Iterable[Days]) -> Days:
    """The union of many day sets (sorted merge, not pairwise)."""
    items = [p for p in parts if not p.empty]
    if not items:
        return empty()
    result: Days = D.Interval(*items)
    return result


def before(d: dt.date) -> Days:
    """Every day strictly before ``d`` (from ordinal 1)."""
    return ordinal_span(1, d.toordinal() - 1)


def after(d: dt.date) -> Days:
    """Every day strictly after ``d`` (up to 31 Dec 9999)."""
    return ordinal_span(d.toordinal() + 1, dt.date.max.toordinal())


def count(days: Days) -> int:
    """Number of calendar days in the set."""
    return sum(int(i.upper) - int(i.lower) + 1 for i in days if not i.empty)


def runs(days: Days) -> list[tuple[dt.date, dt.date]]:
    """The maximal runs of consecutive days, as ``(first, last)`` dates, in order."""
    return [(dt.date.fromordinal(int(i.lower)), dt.date.fromordinal(int(i.upper)))
            for i in days if not i.empty]


def dates(days: Days) -> list[dt.date]:
    """Every day of the set, in order (for small sets: reports, tests)."""
    out: list[dt.date] = []
    for first, last in runs(days):
        out.extend(first + dt.timedelta(n) for n in range((last - first).days + 1))
    return out

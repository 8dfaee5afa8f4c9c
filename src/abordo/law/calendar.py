"""Day arithmetic of Brazilian law.

- Periods in days follow Código Civil art. 132: the starting day is excluded, the last day
  included, so "N days after D" is ``D + N``.
- Years run to the same day and month (Lei 810/1949 art. 1); where that day does not exist
  (29 February), the period ends on the first day of the following month (art. 3).
- Business days (dias úteis) exclude Saturdays, Sundays and the holidays of the maintained
  ``holidays`` library for Brazil (national, plus a state's when one is given).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

import holidays


def days_between(start: dt.date, end: dt.date) -> int:
    """Full days from ``start`` to ``end`` with the start day excluded (CC art. 132)."""
    return (end - start).days


def add_days(start: dt.date, days: int) -> dt.date:
    """The day on which ``days`` full days from ``start`` are complete (CC art. 132)."""
    return start + dt.timedelta(days=days)


def add_years(start: dt.date, years: int) -> dt.date:
    """Same day and month ``years`` later (Lei 810/1949 arts. 1 and 3)."""
    try:
        return start.replace(year=start.year + years)
    except ValueError:  # 29 February with no counterpart: first day of the next month
        return dt.date(start.year + years, start.month + 1, 1)


@lru_cache(maxsize=64)
def _holiday_calendar(state: str | None, first_year: int, last_year: int) -> holidays.HolidayBase:
    return holidays.country_holidays(
        "BR", subdiv=state, years=range(first_year, last_year + 1), language="pt_BR"
    )


def holiday_name(day: dt.date, state: str | None = None) -> str | None:
    """The holiday's name on ``day`` in Brazil (and ``state``), or None."""
    cal = _holiday_calendar(state, day.year, day.year)
    name = cal.get(day)
    return str(name) if name else None


def is_business_day(day: dt.date, state: str | None = None) -> bool:
    return day.weekday() < 5 and holiday_name(day, state) is None


def add_business_days(start: dt.date, n: int, state: str | None = None
                      ) -> tuple[dt.date, list[tuple[dt.date, str]]]:
    """The ``n``-th business day after ``start`` (start excluded) and the days skipped.

    Returns ``(deadline, skipped)`` where ``skipped`` lists the weekdays passed over because
    they were holidays, with the holiday's name (for the explanation trace).
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    day = start
    counted = 0
    skipped: list[tuple[dt.date, str]] = []
    while counted < n:
        day += dt.timedelta(days=1)
        if day.weekday() >= 5:
            continue
        name = holiday_name(day, state)
        if name is not None:
            skipped.append((day, name))
            continue
        counted += 1
    return day, skipped


def business_days_between(start: dt.date, end: dt.date, state: str | None = None) -> int:
    """Business days after ``start`` up to and including ``end``."""
    count = 0
    day = start
    while day < end:
        day += dt.timedelta(days=1)
        if is_business_day(day, state):
            count += 1
    return count

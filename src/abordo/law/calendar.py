"""Day arithmetic of Brazilian law.

- Periods in days follow Código Civil art. 132: the starting day is excluded, the last day
  included, so "N days after D" is ``D + N``.
- Years run to the same day and month (Lei 810/1949 art. 1); where that day does not exist
  (29 February), the period ends on the first day of the following month (art. 3).
- Business days (dias úteis) exclude Saturdays, Sundays and the holidays of the maintained
  ``holidays`` library for Brazil (national, plus a state's when one is given). The days the
  library lists as optional (pontos facultativos: Carnival, Ash Wednesday, Corpus Christi…)
  are not holidays and count as business days; :func:`optional_day_name` names them for the
  explanation.
- "Today" is the date in Brasília, the legal time of federal acts (Lei 2.784/1913, hora
  legal), whatever the host's time zone: an act recorded at 22:00 in Brasília is dated that
  day, not the next UTC day (:func:`brasilia_date`).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo

import holidays

#: Brasília time (UTC−3, no daylight saving since 2019); the IANA database
#: comes from the system or, where it has none, from the ``tzdata`` package.
BRASILIA = ZoneInfo("America/Sao_Paulo")


def now_utc() -> dt.datetime:
    """The clock (an aware UTC instant); tests replace it to fix the instant."""
    return dt.datetime.now(dt.UTC)


def brasilia_date(at: dt.datetime | None = None) -> dt.date:
    """The date in Brasília at the instant ``at`` (aware; now when None) — the date of an
    inspection act, a case's "today" (Lei 2.784/1913: the legal time of federal acts)."""
    instant = now_utc() if at is None else at
    if instant.tzinfo is None:
        raise ValueError("an instant with its time zone is needed (naive datetime given)")
    return instant.astimezone(BRASILIA).date()


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


#: The ``holidays`` library's language for each output language (its names, not ours).
HOLIDAY_LANGUAGES = {"pt": "pt_BR", "en": "en_US"}


@lru_cache(maxsize=64)
def _holiday_calendar(state: str | None, first_year: int, last_year: int,
                      language: str = "pt_BR") -> holidays.HolidayBase:
    return holidays.country_holidays(
        "BR", subdiv=state, years=range(first_year, last_year + 1), language=language
    )


def holiday_name(day: dt.date, state: str | None = None, lang: str = "pt") -> str | None:
    """The holiday's name on ``day`` in Brazil (and ``state``), or None — in Portuguese, or
    in English with ``lang="en"`` (the library's own translation)."""
    cal = _holiday_calendar(state, day.year, day.year, HOLIDAY_LANGUAGES.get(lang, "pt_BR"))
    name = cal.get(day)
    return str(name) if name else None


@lru_cache(maxsize=64)
def _optional_calendar(state: str | None, year: int, language: str = "pt_BR"
                       ) -> holidays.HolidayBase:
    return holidays.country_holidays("BR", subdiv=state, years=year, language=language,
                                     categories=(holidays.OPTIONAL,))


def optional_day_name(day: dt.date, state: str | None = None, lang: str = "pt") -> str | None:
    """The name of the optional day off (ponto facultativo) the ``holidays`` library lists
    for Brazil (and ``state``) on ``day`` — e.g. Carnival, Corpus Christi — or None. Such a
    day is no holiday: :func:`is_business_day` counts it when it falls on a weekday."""
    cal = _optional_calendar(state, day.year, HOLIDAY_LANGUAGES.get(lang, "pt_BR"))
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

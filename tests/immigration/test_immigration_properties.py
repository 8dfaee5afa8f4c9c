"""Hypothesis properties of the day and business-day arithmetic and of the 90-day rule."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from abordo.crew.load import parse_vessel_case
from abordo.immigration import evaluate
from abordo.immigration.rules import Presence, business_deadline, count_stay
from abordo.law.calendar import add_days, business_days_between, is_business_day

entries = st.dates(min_value=dt.date(2020, 10, 14), max_value=dt.date(2030, 12, 31))
offsets = st.integers(min_value=0, max_value=364)


@given(entries, offsets)
def test_single_stay_counts_entry_day_as_day_one(entry: dt.date, k: int) -> None:
    on = add_days(entry, k)
    sc = count_stay([Presence(entry, None)], on, limit=90, months=12)
    assert sc.days == k + 1
    assert sc.limit_date == add_days(entry, 89)
    assert sc.past_limit == (k >= 90)
    exclusive = count_stay([Presence(entry, None)], on, limit=90, months=12, inclusive=False)
    assert exclusive.days == k


@given(entries, offsets)
@settings(max_examples=60, deadline=None)
def test_c185_holder_is_regular_exactly_up_to_day_90(entry: dt.date, k: int) -> None:
    case = parse_vessel_case({
        "vessel": {"flag": "NO", "activity": "offshore_support"},
        "operation": {"contract": "charter", "ajb_presence": [{"entry": entry}]},
        "crew": [{"id": "P", "rank": "Cook", "nationality": "PH", "sid_c185": True,
                  "entries": [{"date": entry, "by": "sea"}]}]})
    p = evaluate(case, add_days(entry, k)).result["persons"][0]
    if k <= 89:
        assert (p["requirement"], p["verdict"]) == ("exempt_c185", "regular")
    else:
        assert (p["requirement"], p["verdict"]) == ("residence_authorization", "irregular")


@given(st.dates(min_value=dt.date(1998, 1, 1), max_value=dt.date(2003, 12, 9)),
       st.integers(min_value=1, max_value=30),
       st.sampled_from([None, "SP", "RJ", "BA"]))
@settings(deadline=None)
def test_business_deadline_is_the_nth_business_day(start: dt.date, n: int,
                                                   state: str | None) -> None:
    bd = business_deadline(start, n, state)
    assert is_business_day(bd.deadline, state)
    assert business_days_between(start, bd.deadline, state) == n
    assert len(bd.counted) == n and bd.counted[-1] == bd.deadline
    for day, name in bd.skipped:
        assert start < day < bd.deadline and day.weekday() < 5 and name
    for day, name in bd.optional:  # pontos facultativos: counted, never skipped
        assert day in bd.counted and name.pt and name.en

"""Hypothesis properties of the day count (NORMAM-101 item 1.27: days aboard, never a sum).

- the count never exceeds the calendar days spanned by the records;
- adding a record (or a declaration) never lowers the count;
- splitting a record in two adjacent records changes nothing;
- the interval algebra agrees with a plain day-by-day count of the same rules.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from abordo.sea_time import compute

ON = dt.date(2026, 1, 15)
BASE = dt.date(2024, 1, 1)
COMPANIES = ("Alfa", "Beta", "Gama")
FUNCTIONS = ("2ON", "2ON", "2ON", "1ON", "MNC")
KINDS = ("bulk_carrier", "bulk_carrier", "tug", "fixed_platform", "fpso")
FLAGS = ("BR", "BR", "BR", "LR", "KG")  # KG: not in the STCW parties table


@st.composite
def spans(draw: st.DrawFn, max_len: int = 120) -> tuple[dt.date, dt.date]:
    start = BASE + dt.timedelta(draw(st.integers(0, 700)))
    return start, start + dt.timedelta(draw(st.integers(0, max_len)))


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    a, z = draw(spans())
    function = draw(st.sampled_from(FUNCTIONS))
    return {"vessel": "V", "embark": a, "disembark": z, "function": function,
            "company": draw(st.sampled_from(COMPANIES)), "kind": draw(st.sampled_from(KINDS)),
            "lcs": function == "1ON" and draw(st.booleans()),
            "flag": draw(st.sampled_from(FLAGS))}


@st.composite
def inputs(draw: st.DrawFn) -> dict[str, Any]:
    cir = draw(st.lists(records(), min_size=1, max_size=6))
    companies = sorted({r["company"] for r in cir})
    decls = []
    for _ in range(draw(st.integers(0, 6))):
        a, z = draw(spans(200))
        decls.append({"company": draw(st.sampled_from(companies)), "from": a, "to": z,
                      "category": draw(st.sampled_from(("2ON", "1ON", "MNC")))})
    foreign_companies = sorted({r["company"] for r in cir if r["flag"] != "BR"})
    foreign = []
    for _ in range(draw(st.integers(0, 4)) if foreign_companies else 0):
        a, z = draw(spans(200))
        foreign.append({"company": draw(st.sampled_from(foreign_companies)), "from": a,
                        "to": z, "category": draw(st.sampled_from(("2ON", "1ON")))})
    mans = [{"date": BASE + dt.timedelta(draw(st.integers(0, 800))), "kind": "berthing"}
            for _ in range(draw(st.integers(0, 4)))]
    return {"seafarer": {"id": "P", "group": "maritime", "category": "2ON"},
            "purpose": "promotion", "cir": cir, "declarations": decls,
            "foreign_declarations": foreign, "manoeuvres": mans}


def count(data: dict[str, Any]) -> int:
    result: int = compute(data, ON).result["counted_days"]
    return result


def _days(a: dt.date, z: dt.date) -> set[dt.date]:
    return {a + dt.timedelta(n) for n in range((z - a).days + 1)}


def naive_count(data: dict[str, Any]) -> int:
    """The same rules, one day at a time with Python sets (the oracle)."""
    counted: set[dt.date] = set()
    for r in data["cir"]:
        if r["kind"] == "fixed_platform" or r["kind"] == "fpso":
            continue  # fixed platform; FPSO without an offshore role
        if r["function"] == "MNC" or (r["function"] == "1ON" and not r["lcs"]):
            continue  # lower function; higher function without LCS
        if r["flag"] == "KG":
            continue  # flag not shown to be an STCW party
        ok = {r["function"], "2ON"} if r["lcs"] else {r["function"]}
        decls = data["declarations"] if r["flag"] == "BR" else data["foreign_declarations"]
        for day in _days(r["embark"], min(r["disembark"], ON)):
            if any(dc["company"] == r["company"] and dc["category"] in ok
                   and dc["from"] <= day <= dc["to"] for dc in decls):
                counted.add(day)
    counted |= {m["date"] for m in data["manoeuvres"] if m["date"] <= ON}
    return len(counted)


@settings(max_examples=150, deadline=None)
@given(inputs())
def test_count_never_exceeds_the_calendar_days_spanned(data: dict[str, Any]) -> None:
    dates = [r["embark"] for r in data["cir"]] + [r["disembark"] for r in data["cir"]]
    dates += [m["date"] for m in data["manoeuvres"]]
    spanned = (max(dates) - min(dates)).days + 1
    assert 0 <= count(data) <= spanned


@settings(max_examples=150, deadline=None)
@given(inputs(), records(), st.data())
def test_adding_a_record_never_lowers_the_count(data: dict[str, Any], extra: dict[str, Any],
                                                more: st.DataObject) -> None:
    before = count(data)
    with_record = {**data, "cir": [*data["cir"], extra]}
    assert count(with_record) >= before
    a, z = more.draw(spans(200))
    declared = {**with_record, "declarations": [*data["declarations"], {
        "company": extra["company"], "from": a, "to": z, "category": extra["function"]}]}
    assert count(declared) >= count(with_record)


@settings(max_examples=150, deadline=None)
@given(inputs(), st.data())
def test_splitting_a_record_in_two_adjacent_records_changes_nothing(
        data: dict[str, Any], more: st.DataObject) -> None:
    i = more.draw(st.integers(0, len(data["cir"]) - 1))
    r = data["cir"][i]
    length = (r["disembark"] - r["embark"]).days
    if length == 0:
        return
    cut = r["embark"] + dt.timedelta(more.draw(st.integers(0, length - 1)))
    first = {**r, "disembark": cut}
    second = {**r, "embark": cut + dt.timedelta(1)}
    split = {**data, "cir": [*data["cir"][:i], first, second, *data["cir"][i + 1:]]}
    whole, parts = compute(data, ON).result, compute(split, ON).result
    for key in ("counted_days", "by_category", "breakdown", "excluded"):
        assert whole[key] == parts[key], key


@settings(max_examples=200, deadline=None)
@given(inputs())
def test_interval_algebra_equals_a_day_by_day_count(data: dict[str, Any]) -> None:
    assert count(data) == naive_count(data)

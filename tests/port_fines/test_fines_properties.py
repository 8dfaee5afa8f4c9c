"""Hypothesis properties of the grading: monotone in the aggravating facts, and the total is
the per-worker value times the worker count."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from abordo.law.decision import Verdict
from abordo.port_fines import grade, load_catalogue

CATALOGUE = load_catalogue()
EXTENTS = ["light", "medium", "severe"]
# Dates where both the Portaria and every provision are in force.
DATES = st.dates(dt.date(2000, 10, 5), dt.date(2012, 1, 22))


@st.composite
def inputs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, str]]:
    provision = draw(st.sampled_from(CATALOGUE.ids))
    date = draw(DATES)
    sanable = draw(st.booleans())
    priors = draw(st.lists(
        st.fixed_dictionaries({
            "provision": st.sampled_from([provision, "lei-9719/art-1", "lei-8630/art-22"]),
            "imposed_on": st.dates(dt.date(1998, 12, 1), dt.date(2012, 1, 22)),
        }), max_size=3))
    infraction = {
        "provision": provision, "date": date, "nature": draw(st.sampled_from([1, 2, 3])),
        "extent": draw(st.sampled_from(EXTENTS)), "intent": draw(st.booleans()),
        "workers": draw(st.integers(1, 500)), "sanable": sanable,
        "corrected": draw(st.booleans()), "obstruction": draw(st.booleans()),
        "contempt": draw(st.booleans()),
    }
    options = draw(st.sampled_from([{}, {"fines": "minimum.final"},
                                    {"fines.max_cell": "fixed"}]))
    return {"infraction": infraction, "offender": {"prior_penalties": priors}}, options


def _amount(data: dict[str, Any], options: dict[str, str]) -> Decimal:
    d = grade(data, options)
    assert d.verdict == Verdict.COMPUTED
    amount: Decimal = d.result["amount"]
    return amount


def _with(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**data, "infraction": {**data["infraction"], **changes}}


@settings(max_examples=200, deadline=None)
@given(inputs())
def test_amount_never_decreases_when_extent_worsens(case: tuple[dict[str, Any], dict[str, str]]
                                                    ) -> None:
    data, options = case
    amounts = [_amount(_with(data, extent=e), options) for e in EXTENTS]
    assert amounts == sorted(amounts)


@settings(max_examples=200, deadline=None)
@given(inputs())
def test_amount_never_decreases_with_intent(case: tuple[dict[str, Any], dict[str, str]]
                                            ) -> None:
    data, options = case
    assert _amount(_with(data, intent=False), options) <= _amount(_with(data, intent=True),
                                                                  options)


@settings(max_examples=200, deadline=None)
@given(inputs(), st.sampled_from(["obstruction", "contempt", "recidivism"]))
def test_amount_never_decreases_when_a_doubling_cause_is_added(
        case: tuple[dict[str, Any], dict[str, str]], cause: str) -> None:
    data, options = case
    before = _amount(data, options)
    if cause == "recidivism":
        inf = data["infraction"]
        prior = {"provision": inf["provision"], "imposed_on": inf["date"] - dt.timedelta(days=1)}
        after_data = {**data, "offender": {
            "prior_penalties": [*data["offender"]["prior_penalties"], prior]}}
    else:
        after_data = _with(data, **{cause: True})
    assert _amount(after_data, options) >= before


@settings(max_examples=200, deadline=None)
@given(inputs())
def test_amount_never_decreases_with_nature(case: tuple[dict[str, Any], dict[str, str]]
                                            ) -> None:
    data, options = case
    amounts = [_amount(_with(data, nature=n), options) for n in (1, 2, 3)]
    assert amounts == sorted(amounts)


@settings(max_examples=300, deadline=None)
@given(inputs())
def test_total_is_per_worker_value_times_workers(case: tuple[dict[str, Any], dict[str, str]]
                                                 ) -> None:
    data, options = case
    r = grade(data, options).result
    workers = data["infraction"]["workers"]
    prov = CATALOGUE.get(r["provision"])
    assert prov is not None
    assert r["multiplier"] == (workers if prov.per_worker else 1)
    assert r["amount"] == r["per_worker_value"] * r["multiplier"]
    assert r["amount"] % r["per_worker_value"] == 0
    # The value per worker stays within [min, 2 × max] (art. 2 doubles at most once).
    assert prov.min <= r["per_worker_value"] <= prov.max * 2
    assert r["amount"].as_tuple().exponent == -2

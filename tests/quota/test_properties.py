"""Hypothesis properties of the crew-quota engine."""

from __future__ import annotations

import datetime as dt
import itertools
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.quota.helpers import vessel_case

from abordo.law.decision import Verdict
from abordo.quota import evaluate

RANKS = ["Master", "Chief Officer", "2nd Officer", "Bosun", "AB", "OS", "Chief Engineer",
         "2nd Engineer", "ETO", "Fitter", "Oiler", "Wiper", "Cook", "Steward", "Messman"]
REGIMES = [("NO", "offshore_support", None, "2026-01-01"), ("LR", "cabotage", None, "2026-01-01"),
           ("MH", "exploration", None, "2025-01-01"), ("AG", "cabotage", None, "2011-01-01"),
           ("BR", "cabotage", "ordinary", "2026-01-01"), ("IT", "cruise", None, "2010-01-01")]
RANK = {"worse": [Verdict.NON_COMPLIANT], "ok": [Verdict.COMPLIANT, Verdict.NOT_YET]}

crews = st.lists(st.tuples(st.sampled_from(RANKS), st.sampled_from(["BR", "PH", "NO", "IN"])),
                 min_size=1, max_size=30)


def build(regime: tuple[str, str, str | None, str], crew: list[tuple[str, str]]) -> Any:
    flag, activity, registry, start = regime
    return vessel_case([{"id": f"X{i}", "rank": r, "nationality": n} for i, (r, n)
                        in enumerate(crew)], flag=flag, activity=activity, registry=registry,
                       contract="none" if activity == "cruise" else "charter",
                       presence=[{"entry": start, "exit": None}])


def deficit(d: Any) -> int:
    return sum(g["deficit"] for g in d.result.get("groups", []))


days = st.integers(min_value=0, max_value=800)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(REGIMES), crews, st.sampled_from(RANKS), days)
def test_adding_a_brazilian_never_worsens(regime: Any, crew: list[tuple[str, str]], rank: str,
                                          offset: int) -> None:
    on = dt.date.fromisoformat(regime[3]) + dt.timedelta(days=offset)
    before = evaluate(build(regime, crew), on)
    after = evaluate(build(regime, [*crew, (rank, "BR")]), on)
    assert deficit(after) <= deficit(before)
    if before.verdict != Verdict.NON_COMPLIANT:
        assert after.verdict != Verdict.NON_COMPLIANT


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(REGIMES), crews, st.randoms(use_true_random=False), days)
def test_reordering_the_crew_changes_nothing(regime: Any, crew: list[tuple[str, str]],
                                             rnd: random.Random, offset: int) -> None:
    on = dt.date.fromisoformat(regime[3]) + dt.timedelta(days=offset)
    shuffled = crew[:]
    rnd.shuffle(shuffled)
    a, b = evaluate(build(regime, crew), on), evaluate(build(regime, shuffled), on)
    assert a.verdict == b.verdict
    assert a.result.get("groups") == b.result.get("groups")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(REGIMES), crews, days)
def test_required_never_exceeds_base_and_fraction_is_exact(regime: Any,
                                                          crew: list[tuple[str, str]],
                                                          offset: int) -> None:
    on = dt.date.fromisoformat(regime[3]) + dt.timedelta(days=offset)
    d = evaluate(build(regime, crew), on)
    for g in d.result.get("groups", []):
        assert 0 <= g["required"] <= g["base"]
        assert g["brazilians"] <= g["base"]
        step = d.result["step"]["fraction"]
        assert g["exact"] == step * g["base"]  # a Fraction, never a float
        assert not isinstance(g["exact"], float)


absences = st.lists(st.tuples(st.integers(min_value=1, max_value=120),
                              st.integers(min_value=1, max_value=14)), max_size=4)


@settings(max_examples=200, deadline=None)
@given(absences, st.integers(min_value=1, max_value=700), st.integers(min_value=0, max_value=900))
def test_paused_count_reaches_each_threshold_on_its_date(gaps: list[tuple[int, int]],
                                                         n: int, extra: int) -> None:
    """Under the paused reading, on the date day_reached_on(n) gives, n days of operation are
    complete (days present since the start, start excluded), whatever absences follow it,
    and a later date judged does not move it."""
    from abordo.crew.model import AjbPeriod
    from abordo.quota.stay import current_stay

    start = dt.date(2024, 1, 1)
    periods, day = [], start
    for present, outside in gaps:
        exit_ = day + dt.timedelta(days=present)
        periods.append(AjbPeriod(entry=day, exit=exit_))
        day = exit_ + dt.timedelta(days=outside + 1)
    periods.append(AjbPeriod(entry=day, exit=None))
    on = day + dt.timedelta(days=extra)
    stay = current_stay(periods, on, 15, count_days_outside=False)
    assert stay is not None and stay.start == start
    reached = stay.day_reached_on(n)
    outside = {p.exit + dt.timedelta(days=k) for p, q in itertools.pairwise(periods)
               if p.exit for k in range(1, (q.entry - p.exit).days)}
    counted = sum(1 for k in range(1, (reached - start).days + 1)
                  if start + dt.timedelta(days=k) not in outside)
    assert counted == n and reached not in outside
    later = current_stay(periods, on + dt.timedelta(days=400), 15, count_days_outside=False)
    assert later is not None and later.day_reached_on(n) == reached

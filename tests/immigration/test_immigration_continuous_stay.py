"""A continuous stay past 90 days needs the residence authorization whatever the migratory
year (interpretation ``immigration.stay.continuous_beyond_year``: RN 06/2017 art. 1, 'prazo de
estada superior a noventa dias', and art. 11); separate stays still add up per migratory year.
Real values, one rule per test."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from abordo.crew.model import VesselCase
from abordo.immigration import evaluate
from abordo.immigration.rules import Presence, continuous_stay, count_stay
from abordo.law.calendar import add_days
from abordo.law.decision import Decision, Verdict

CaseFactory = Callable[..., VesselCase]
D = dt.date
CONTINUOUS = "immigration.stay.continuous_beyond_year"
YEAR_ONLY = "immigration.stay.year_only"
VISA = {"type": "visit_visa", "valid_until": "2027-10-31"}


def person(entries: list[dict[str, Any]], **kw: object) -> dict[str, object]:
    return {"id": "P11", "rank": "AB", "nationality": "ID", "entries": entries,
            "documents": [VISA], **kw}


def row(decision: Decision) -> dict[str, Any]:
    persons: list[dict[str, Any]] = decision.result["persons"]
    return persons[0]


def interpretation_ids(decision: Decision) -> list[str]:
    return [i.id for i in decision.interpretations]


# --- counting -------------------------------------------------------------------------------

def test_open_entry_past_the_anniversary_keeps_its_days() -> None:
    sc = count_stay([Presence(D(2025, 11, 1), None)], D(2026, 11, 1), limit=90, months=12)
    assert (sc.year_start, sc.year_end, sc.days) == (D(2026, 11, 1), D(2027, 10, 31), 1)
    assert (sc.continuous_start, sc.continuous_days) == (D(2025, 11, 1), 366)
    assert sc.limit_date == sc.continuous_limit_date == D(2026, 1, 29)
    assert sc.year_limit_date == D(2027, 1, 29)
    assert (sc.effective_days, sc.past_limit, sc.limit_basis, sc.across_year) == (
        366, True, "continuous_stay", True)


def test_year_only_reading_restarts_the_count_on_the_anniversary() -> None:
    sc = count_stay([Presence(D(2025, 11, 1), None)], D(2026, 11, 1), limit=90, months=12,
                    continuous=False)
    assert (sc.days, sc.effective_days, sc.past_limit) == (1, 1, False)
    assert (sc.limit_date, sc.limit_basis) == (D(2027, 1, 29), "migratory_year")
    assert sc.continuous_days == 366 and sc.across_year  # the readings differ here


def test_entries_with_no_day_outside_are_one_stay() -> None:
    # Exit on 10/03, back on 11/03: no full day outside the country.
    periods = [Presence(D(2025, 11, 1), D(2026, 3, 10)), Presence(D(2026, 3, 11), None)]
    assert continuous_stay(periods, D(2026, 11, 1)) == periods
    sc = count_stay(periods, D(2026, 11, 1), limit=90, months=12)
    assert (sc.continuous_start, sc.continuous_days, sc.days) == (D(2025, 11, 1), 366, 1)


def test_a_day_outside_breaks_the_continuous_stay() -> None:
    periods = [Presence(D(2025, 11, 1), D(2026, 3, 10)), Presence(D(2026, 3, 12), None)]
    assert continuous_stay(periods, D(2026, 11, 1)) == periods[1:]
    sc = count_stay(periods, D(2026, 11, 1), limit=90, months=12)
    assert (sc.continuous_start, sc.continuous_days) == (D(2026, 3, 12), 235)


def test_separate_stays_in_one_year_still_add_up() -> None:
    # 60 days (05/01–05/03), out, back on 01/05: on 01/06 the year has 60 + 32 = 92 days; the
    # continuous stay only 32 — the migratory-year sum decides and the reading is not needed.
    periods = [Presence(D(2026, 1, 5), D(2026, 3, 5)), Presence(D(2026, 5, 1), None)]
    sc = count_stay(periods, D(2026, 6, 1), limit=90, months=12)
    assert (sc.days, sc.continuous_days, sc.effective_days) == (92, 32, 92)
    assert (sc.past_limit, sc.limit_date, sc.limit_basis, sc.across_year) == (
        True, D(2026, 5, 30), "migratory_year", False)


def test_not_in_the_country_has_no_continuous_stay() -> None:
    periods = [Presence(D(2026, 1, 5), D(2026, 3, 5))]
    sc = count_stay(periods, D(2026, 6, 1), limit=90, months=12)
    assert continuous_stay(periods, D(2026, 6, 1)) == []
    assert (sc.continuous_start, sc.continuous_days, sc.across_year) == (None, 0, False)


@given(st.dates(min_value=D(2020, 10, 14), max_value=D(2030, 12, 31)),
       st.integers(min_value=0, max_value=1200))
def test_one_open_entry_passes_the_limit_on_day_91_forever(entry: dt.date, k: int) -> None:
    on = add_days(entry, k)
    sc = count_stay([Presence(entry, None)], on, limit=90, months=12)
    assert sc.continuous_days == k + 1
    assert sc.past_limit == (k >= 90)
    assert sc.limit_date == add_days(entry, 89)
    year_only = count_stay([Presence(entry, None)], on, limit=90, months=12, continuous=False)
    assert year_only.past_limit == (year_only.days > 90)
    assert year_only.days <= sc.continuous_days


# --- the engine -----------------------------------------------------------------------------

def test_ri22_continuous_stay_across_the_year_is_irregular(make_case: CaseFactory) -> None:
    case = make_case([person([{"date": "2025-11-01", "by": "sea"}])],
                     presence=[{"entry": "2025-11-01", "exit": None}])
    d = evaluate(case, D(2026, 11, 1))
    p = row(d)
    assert (p["requirement"], p["verdict"], p["deadline"]) == ("residence_authorization",
                                                               "irregular", None)
    assert d.verdict == Verdict.NON_COMPLIANT
    s = p["stay"]
    assert (s["year_start"], s["year_days"], s["days"]) == (D(2026, 11, 1), 1, 366)
    assert (s["continuous_start"], s["continuous_days"], s["basis"]) == (
        D(2025, 11, 1), 366, "continuous_stay")
    assert s["limit_date"] == D(2026, 1, 29)
    assert CONTINUOUS in interpretation_ids(d)
    chosen = next(i for i in d.interpretations if i.id == CONTINUOUS)
    assert (chosen.chosen_by, chosen.alternatives) == ("default", (YEAR_ONLY,))
    f = next(f for f in d.findings if f.id == "residence_authorization_missing")
    assert f.text.pt == ("P11: 366 dias de estada contínua desde 01/11/2025, acima de 90, sem "
                         "autorização de residência requerida.")
    assert "art. 1º" in [c.provision for c in d.citations]
    step = next(s for s in d.trace if s.rule == "person.P11.requirement")
    assert "passou de 90 dias em 30/01/2026" in step.text.pt


def test_year_only_reading_chosen_by_the_caller(make_case: CaseFactory) -> None:
    case = make_case([person([{"date": "2025-11-01", "by": "sea"}])],
                     presence=[{"entry": "2025-11-01", "exit": None}])
    d = evaluate(case, D(2026, 11, 1), {"immigration.stay_across_year": "year_only"})
    p = row(d)
    assert (p["requirement"], p["verdict"], p["deadline"]) == ("visit_visa", "regular",
                                                               D(2027, 1, 29))
    assert (p["stay"]["days"], p["stay"]["continuous_days"]) == (1, 366)
    chosen = next(i for i in d.interpretations if i.id == YEAR_ONLY)
    assert chosen.chosen_by == "caller"


def test_before_day_90_of_the_year_the_continuous_stay_sets_the_deadline(
        make_case: CaseFactory) -> None:
    # 76 days in the first year (01/11/2025–15/01/2026), out, back on 20/10/2026: on
    # 01/11/2026 the new year has 1 day and the current stay 13; its 90th day, 17/01/2027,
    # comes before the new year's (29/01/2027).
    case = make_case([person([{"date": "2025-11-01", "by": "sea", "exit": "2026-01-15"},
                              {"date": "2026-10-20", "by": "sea"}])],
                     presence=[{"entry": "2025-11-01"}])
    d = evaluate(case, D(2026, 11, 1))
    p = row(d)
    assert (p["requirement"], p["verdict"], p["deadline"]) == ("visit_visa", "regular",
                                                               D(2027, 1, 17))
    assert (p["stay"]["year_days"], p["stay"]["continuous_days"]) == (1, 13)
    assert p["deadline_detail"]["start"] == D(2026, 10, 20)
    assert p["deadline_detail"]["text"].pt == (
        "13 dias de estada contínua desde 20/10/2026, sem dia fora do país (o dia da entrada "
        "conta), contados em qualquer ano migratório; o 90º dia dessa estada é 17/01/2027 se a "
        "pessoa permanecer (1 dia de estada no ano migratório iniciado em 01/11/2026).")
    assert CONTINUOUS in interpretation_ids(d)


def test_separate_stays_do_not_list_the_reading(make_case: CaseFactory) -> None:
    case = make_case([person([{"date": "2026-01-05", "by": "sea", "exit": "2026-03-05"},
                              {"date": "2026-05-01", "by": "sea"}])],
                     presence=[{"entry": "2026-01-05"}])
    d = evaluate(case, D(2026, 6, 1))
    p = row(d)
    assert (p["requirement"], p["verdict"]) == ("residence_authorization", "irregular")
    assert (p["stay"]["days"], p["stay"]["basis"]) == (92, "migratory_year")
    assert CONTINUOUS not in interpretation_ids(d) and YEAR_ONLY not in interpretation_ids(d)


def test_residence_authorization_held_is_regular_across_the_year(make_case: CaseFactory
                                                                  ) -> None:
    ra = {"type": "residence_authorization", "issued_on": "2026-01-20",
          "valid_until": "2028-01-19"}
    case = make_case([person([{"date": "2025-11-01", "by": "sea"}], documents=[ra])],
                     presence=[{"entry": "2025-11-01"}])
    p = row(evaluate(case, D(2026, 11, 1)))
    assert (p["requirement"], p["verdict"], p["deadline"]) == ("residence_authorization",
                                                               "regular", D(2028, 1, 19))


def test_day_90_on_the_year_s_last_day_is_no_deadline_on_any_day_before() -> None:
    """The year count reaches day 90 on the migratory year's last day: judged on that day
    or on any day before, the next year restarts the count — the year's deadline is day 90
    of the next year, steadily (not the last day, then a jump)."""
    periods = [Presence(D(2025, 1, 1), D(2025, 1, 1)), Presence(D(2025, 10, 4), None)]
    limits = {on: count_stay(periods, on, limit=90, months=12, continuous=False).limit_date
              for on in (D(2025, 12, 29), D(2025, 12, 30), D(2025, 12, 31))}
    assert set(limits.values()) == {D(2026, 3, 31)}

"""The vectorised (Polars) batch path gives the engine's counted days, seafarer by seafarer."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sea_time_properties import ON, inputs

from abordo.sea_time import compute, load_input
from abordo.sea_time.batch import counted_days, frames

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "sea-time"


def _both(cases: list[dict[str, Any]], on: dt.date, **options: str) -> tuple[list[int],
                                                                              list[int]]:
    engine = [compute(c, on, options or None).result["counted_days"] for c in cases]
    batch = counted_days(*frames(cases), on, options or None)
    by_id = dict(batch.iter_rows())
    return engine, [by_id[c["seafarer"]["id"]] for c in cases]


@settings(max_examples=60, deadline=None)
@given(st.lists(inputs(), min_size=1, max_size=5))
def test_batch_equals_engine_on_random_seafarers(cases: list[dict[str, Any]]) -> None:
    for n, c in enumerate(cases):
        c["seafarer"] = {**c["seafarer"], "id": f"S{n}"}
        c["manoeuvres"] = []  # the batch path covers CIR × declarations only
    engine, batch = _both(cases, ON)
    assert engine == batch


def test_batch_equals_engine_on_the_example_without_extra_sources() -> None:
    data = load_input(EXAMPLES / "seafarer-2on-promotion.yaml")
    only_cir = {k: v for k, v in data.items()
                if k in {"seafarer", "purpose", "cir", "declarations", "foreign_declarations"}}
    engine, batch = _both([only_cir], dt.date(2026, 2, 2))
    assert engine == batch == [514]  # 528 less standby (12) and manoeuvre (2) days


@pytest.mark.parametrize("options", [
    {"sea_time.period": "exclusive_start"}, {"sea_time.offshore_roles": "all_platforms"},
    {"sea_time.sea_trials": "after_dpp_day"}, {"sea_time.lcs_declaration": "function_only"},
])
def test_batch_honours_the_interpretations(options: dict[str, str]) -> None:
    d = dt.date.fromisoformat
    case = {"seafarer": {"id": "X", "group": "maritime", "category": "2ON"},
            "purpose": "promotion",
            "cir": [{"vessel": "A", "embark": d("2025-01-01"), "disembark": d("2025-01-31"),
                     "function": "2ON", "company": "C", "kind": "semi_submersible"},
                    {"vessel": "B", "embark": d("2025-02-01"), "disembark": d("2025-02-20"),
                     "function": "2ON", "company": "C", "kind": "sea_trials",
                     "dpp_date": d("2025-02-10")},
                    {"vessel": "C", "embark": d("2025-03-01"), "disembark": d("2025-03-10"),
                     "function": "1ON", "lcs": True, "company": "C"}],
            "declarations": [{"company": "C", "from": d("2025-01-01"), "to": d("2025-03-10"),
                              "category": "2ON"}]}
    engine, batch = _both([case], ON, **options)
    assert engine == batch


def test_batch_refuses_a_date_before_normam_101() -> None:
    with pytest.raises(ValueError, match="not covered"):
        counted_days(*frames([]), dt.date(2023, 1, 1))


def test_batch_compares_company_names_as_the_engine_does() -> None:
    # str.casefold: "Straße" and "STRASSE" are one company (lower-casing alone keeps "ß").
    case = {"seafarer": {"id": "S1", "group": "maritime", "department": "deck",
                         "category": "2ON"},
            "purpose": "promotion",
            "cir": [{"vessel": "A", "flag": "BR", "kind": "container_ship",
                     "navigation": "open_sea", "embark": dt.date(2025, 3, 1),
                     "disembark": dt.date(2025, 3, 10), "function": "2ON",
                     "company": "Straße Navegação"}],
            "declarations": [{"company": "STRASSE NAVEGAÇÃO", "from": dt.date(2025, 3, 1),
                              "to": dt.date(2025, 3, 10), "category": "2ON"}]}
    engine, batch = _both([case], dt.date(2026, 2, 2))
    assert engine == batch == [10]


@pytest.mark.parametrize("name", ["r14-s46", "r14-s47", "r14-s48"])
def test_batch_equals_engine_on_prior_format_declarations_and_lcs(name: str) -> None:
    """A prior-format declaration counts only up to the eve of the NORMAM-101 update; LCS at
    the seafarer's own category is time of a lower category — in the batch path too."""
    import yaml

    folder = Path(__file__).resolve().parents[1] / "cases" / "review14" / "sea_time"
    case = yaml.safe_load(next(folder.glob(f"{name}-*.yaml")).read_text(encoding="utf-8"))
    data = {k: v for k, v in case["input"].items()
            if k in {"seafarer", "purpose", "cir", "declarations", "foreign_declarations"}}
    on = case.get("on", case.get(True))  # YAML 1.1 reads a bare `on` key as true
    engine, batch = _both([data], on)
    assert engine == batch == [case["expect"]["counted_days"]]

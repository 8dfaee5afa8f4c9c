"""Findings of a charterer's first use of ``abordo screen --horizon`` on the example fleet:
a vessel about to arrive in AJB whose crew would soon be short must rank with the vessels
whose next step comes short, not among the vessels the quota does not reach."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from abordo.batch import rank, screen, summary
from abordo.faces.cli.main import app

EXAMPLE = Path(__file__).parents[2] / "examples" / "fleet"
ON = dt.date(2025, 12, 1)


def test_an_arriving_vessel_short_in_the_horizon_ranks_with_the_steps_coming_short() -> None:
    # V12 (offshore support, not yet in AJB on 01/12/2025) reaches its 1/3 step on
    # 10/04/2026 (Res. CNIg 42/2020 art. 4º, I) 5 Brazilians short with its current crew.
    # With the horizon it ranks by that date among the steps coming short: after V01
    # (01/04/2026, 1 short), before V10 (next step 30/04/2026, 9 short) and V11
    # (16/05/2026, 2 short); the non-compliant vessels stay first.
    f = screen(EXAMPLE, ON, horizon=200).frame.sort("risk_rank")
    assert f["id"].to_list() == ["V04", "V05", "V01", "V12", "V10", "V11", "V13", "V06",
                                 "V08", "V02", "V03", "V07", "V09"]
    v12 = f.filter(pl.col("id") == "V12").row(0, named=True)
    assert (v12["verdict"], v12["reason"], v12["risk_rank"]) == ("not_applicable",
                                                                 "not_in_ajb", 4)
    assert (v12["horizon_max_deficit_since"], v12["horizon_max_deficit"]) == (
        dt.date(2026, 4, 10), 5)


def test_without_the_horizon_the_ranking_is_the_next_steps_alone() -> None:
    f = screen(EXAMPLE, ON).frame.sort("risk_rank")
    assert f["id"].to_list() == ["V04", "V05", "V10", "V13", "V06", "V08", "V01", "V02",
                                 "V03", "V07", "V09", "V11", "V12"]


def test_the_summary_top_shows_the_horizon_shortfall_of_a_vessel_without_next_step() -> None:
    s = summary(screen(EXAMPLE, ON, horizon=200).frame, top=6)
    top = {r["id"]: r for r in s["top"]}
    assert (top["V12"]["tier"], top["V12"]["next_since"], top["V12"]["horizon_max_deficit"],
            top["V12"]["horizon_max_deficit_since"]) == (
        "step_coming_short", None, 5, dt.date(2026, 4, 10))
    assert top["V10"]["tier"] == "step_coming_short"
    assert top["V04"]["tier"] == "non_compliant"
    res = CliRunner().invoke(app, ["screen", str(EXAMPLE), "--on", "2025-12-01",
                                   "--horizon", "200", "--lang", "en"])
    assert res.exit_code == 1, res.output
    line = next(x for x in res.output.splitlines() if "V12 Nordic Supplier" in x)
    assert "2026-04-10 (horizon)" in line and line.split("│")[-2].strip() == "5"
    line = next(x for x in res.output.splitlines() if "V10 FPSO" in x)
    assert "2026-04-30 " in line and "(horizon)" not in line


def _frame(**cols: list[object]) -> pl.DataFrame:
    base: dict[str, list[object]] = {
        "verdict": ["not_applicable"] * 3, "days_of_operation": [None] * 3,
        "total_deficit": [None] * 3, "findings": [None] * 3, "days_to_next": [None] * 3,
        "next_deficit_total": [None] * 3, "horizon_max_deficit": [3, 3, 7],
        "horizon_max_deficit_since": [dt.date(2026, 3, 1), dt.date(2026, 2, 1),
                                      dt.date(2026, 3, 1)]}
    return pl.DataFrame(base | cols, schema_overrides={
        "days_of_operation": pl.Int32, "total_deficit": pl.Int32, "findings": pl.String,
        "days_to_next": pl.Int32, "next_deficit_total": pl.Int32})


def test_horizon_shortfalls_rank_by_date_then_larger_deficit() -> None:
    # Soonest shortfall first (01/02), then, on one date, the larger deficit (7 before 3).
    assert rank(_frame(), dt.date(2026, 1, 1))["risk_rank"].to_list() == [3, 1, 2]
    # A compliant vessel whose next step is short keeps that step's date and deficit:
    # 10/01/2026 (9 days), before the arrivals' horizon dates.
    f = _frame(verdict=["not_applicable", "compliant", "not_applicable"],
               days_to_next=[None, 9, None], next_deficit_total=[None, 1, None])
    assert rank(f, dt.date(2026, 1, 1))["risk_rank"].to_list() == [3, 1, 2]
    # No shortfall in the horizon: back among the not applicable, in table order.
    f = _frame(horizon_max_deficit=[0, None, 7])
    assert rank(f, dt.date(2026, 1, 1))["risk_rank"].to_list() == [2, 3, 1]


def test_a_horizon_frame_needs_the_date_judged() -> None:
    with pytest.raises(ValueError, match="date judged"):
        rank(_frame())

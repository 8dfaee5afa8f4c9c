"""Risk ranking of a screened fleet and its summary.

Ranking rule (``risk_rank`` 1 = inspect first):

1. ``non_compliant`` — by shortfall descending (total deficit of Brazilians + master /
   chief-engineer findings), then days of operation descending;
2. ``input_error`` — vessels whose data the engine could not judge (only with keep-going);
3. ``compliant`` / ``not_yet`` whose **next step** would leave the current crew short —
   soonest step first, then larger future deficit, then days of operation descending;
4. the other ``compliant`` / ``not_yet`` — soonest next step first (none last), then days
   of operation descending;
5. ``not_covered`` (the law on the date is not modelled: cannot be judged);
6. ``not_applicable``.

Ties: order in the vessels table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

TIER_NAMES = ("non_compliant", "input_error", "step_coming_short", "compliant_or_not_yet",
              "not_covered", "not_applicable")


def rank(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` (order kept) with ``risk_rank`` (UInt32, 1 = inspect first) as first column.

    Only the sort keys are sorted; the rows are not moved (sort by ``risk_rank`` to get the
    inspection order). Uses ``_short`` (shortfall) when present, else computes it."""
    verdict = pl.col("verdict")
    ok = verdict.is_in(["compliant", "not_yet"])
    short_next = ok & (pl.col("next_deficit_total").fill_null(0) > 0)
    tier = (pl.when(verdict == "non_compliant").then(0)
            .when(verdict == "input_error").then(1)
            .when(short_next).then(2)
            .when(ok).then(3)
            .when(verdict == "not_covered").then(4)
            .otherwise(5))
    shortfall = pl.col("_short") if "_short" in frame.columns else shortfall_expr()
    # One 64-bit key, most significant first (each part clipped to its bits; smaller =
    # riskier): tier 3 bits, shortfall 16 (descending), days to next step 16 (none last),
    # deficit at the next step 14 (descending), days of operation 15 (descending).
    def part(e: pl.Expr, bits: int) -> pl.Expr:  # e never null here
        top = pl.lit((1 << bits) - 1, pl.Int64)
        return pl.min_horizontal(pl.max_horizontal(e.cast(pl.Int64), pl.lit(0, pl.Int64)),
                                 top).cast(pl.UInt64)

    top16, top14, top15 = (1 << 16) - 1, (1 << 14) - 1, (1 << 15) - 1
    # A non-compliant vessel is ranked by what it lacks now, then by how long it has been
    # operating: its next step does not enter (rule 1).
    now = tier == 0
    days_to_next = pl.when(now).then(0).otherwise(pl.col("days_to_next").fill_null(top16))
    next_deficit = pl.when(now).then(0).otherwise(pl.col("next_deficit_total").fill_null(0))
    # Not covered / not applicable: not judged on their days, which order nothing there
    # (rules 5 and 6: the order of the vessels table).
    days = pl.when(tier >= 4).then(0).otherwise(pl.col("days_of_operation").fill_null(0))
    key = (part(tier, 3) * (1 << 61)
           + (top16 - part(shortfall.fill_null(0), 16)) * (1 << 45)
           + part(days_to_next, 16) * (1 << 29)
           + (top14 - part(next_deficit, 14)) * (1 << 15)
           + (top15 - part(days, 15)))
    # Ordinal rank: one stable sort; ties keep the order of the vessels table.
    risk = key.rank("ordinal").cast(pl.UInt32).alias("risk_rank")
    return frame.select(risk, pl.all().exclude("_short"))


def shortfall_expr() -> pl.Expr:
    """Total deficit of Brazilians plus the master / chief-engineer findings."""
    positions = pl.col("findings").fill_null("").str.count_matches(
        "master_not_brazilian|chief_engineer_not_brazilian")
    return (pl.col("total_deficit").fill_null(0) + positions).cast(pl.Int32)


def summary(frame: pl.DataFrame, top: int = 10,
            options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Counts by verdict, totals, vessels per warning, the ``top`` riskiest vessels and,
    per interpretation option chosen, how many vessels judged do not rest on it (column
    ``options_not_applied``: their rule does not use that reading, or the norm's text fixes
    another; ``abordo check`` reports each as ``option_not_applicable``) (plain data)."""
    by_verdict = dict(frame.group_by("verdict").len().iter_rows())
    nc = frame.filter(pl.col("verdict") == "non_compliant")
    out: dict[str, Any] = {
        "vessels": frame.height,
        "by_verdict": {k: int(v) for k, v in sorted(by_verdict.items(),
                                                    key=lambda kv: (-kv[1], kv[0]))},
        "total_deficit": int(nc["total_deficit"].fill_null(0).sum()),
        "top": frame.filter(pl.col("risk_rank") <= top).sort("risk_rank").select(
            "risk_rank", "id", "name", "verdict", "regime", "days_of_operation",
            "total_deficit", "findings", "next_since", "next_deficit_total").to_dicts(),
    }
    if "unconfirmed" in frame.columns:
        judged = frame.filter(pl.col("verdict").is_in(["compliant", "non_compliant"]))
        out["unconfirmed"] = int(judged["unconfirmed"].fill_null(False).sum())
    if "warnings" in frame.columns:
        ids = frame["warnings"].drop_nulls().str.split(";").explode()
        out["warnings"] = {str(k): int(v) for k, v in ids.value_counts(sort=True).iter_rows()}
    if options:
        # Per vessel, the options its decision does not rest on (``options_not_applied``).
        refused = (frame.filter(pl.col("verdict") != "input_error")["options_not_applied"]
                   .fill_null("").str.split(";"))
        out["options_not_applicable"] = {
            f"{family}={value}": int(refused.list.contains(f"{family}={value}").sum())
            for family, value in options.items()}
    if "horizon_steps" in frame.columns:
        h = frame.filter(pl.col("horizon_steps").fill_null(0) > 0)
        out["horizon"] = {"vessels_with_steps": h.height,
                          "vessels_short": h.filter(pl.col("horizon_max_deficit") > 0).height,
                          "max_deficit_total": int(h["horizon_max_deficit"].fill_null(0).sum())}
    return out

"""Risk ranking of a screened fleet and its summary.

Ranking rule (``risk_rank`` 1 = inspect first):

1. ``non_compliant`` — by shortfall descending (total deficit of Brazilians + master /
   chief-engineer findings), then days of operation descending;
2. ``input_error`` — vessels whose data the engine could not judge (only with keep-going);
3. ``compliant`` / ``not_yet`` whose **next step** would leave the current crew short and,
   with a horizon (``horizon_max_deficit`` in the frame), any other vessel judged
   (``not_applicable``, ``not_covered``, or a step short after the next one) whose horizon
   plan would leave it short (``horizon_max_deficit > 0``) — a vessel about to arrive in
   AJB among them — soonest shortfall first (the next step's date when it is short, else
   ``horizon_max_deficit_since``), then larger deficit then (``next_deficit_total``, else
   ``horizon_max_deficit``), then days of operation descending;
4. the other ``compliant`` / ``not_yet`` — soonest next step first (none last), then days
   of operation descending;
5. ``not_covered`` (the law on the date is not modelled: cannot be judged);
6. ``not_applicable``.

Ties: order in the vessels table. Without a horizon, rule 3 is the next step's alone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import polars as pl

TIER_NAMES = ("non_compliant", "input_error", "step_coming_short", "compliant_or_not_yet",
              "not_covered", "not_applicable")


def _next_short() -> pl.Expr:
    """A compliant / not-yet vessel whose next step would leave the current crew short."""
    return (pl.col("verdict").is_in(["compliant", "not_yet"])
            & (pl.col("next_deficit_total").fill_null(0) > 0))


def _horizon_short(frame: pl.DataFrame) -> pl.Expr:
    """With a horizon: a vessel not already non-compliant or in error whose horizon plan
    would leave the current crew short (rule 3); without one, none."""
    if "horizon_max_deficit" not in frame.columns:
        return pl.lit(False)
    return (~pl.col("verdict").is_in(["non_compliant", "input_error"])
            & (pl.col("horizon_max_deficit").fill_null(0) > 0))


def tier_expr(frame: pl.DataFrame) -> pl.Expr:
    """The tier of each row (0 … 5, the index in :data:`TIER_NAMES`; the rules above)."""
    verdict = pl.col("verdict")
    return (pl.when(verdict == "non_compliant").then(0)
            .when(verdict == "input_error").then(1)
            .when(_next_short() | _horizon_short(frame)).then(2)
            .when(verdict.is_in(["compliant", "not_yet"])).then(3)
            .when(verdict == "not_covered").then(4)
            .otherwise(5))


def rank(frame: pl.DataFrame, on: dt.date | None = None) -> pl.DataFrame:
    """``frame`` (order kept) with ``risk_rank`` (UInt32, 1 = inspect first) as first column.

    Only the sort keys are sorted; the rows are not moved (sort by ``risk_rank`` to get the
    inspection order). Uses ``_short`` (shortfall) when present, else computes it. ``on``:
    the date judged — needed when the frame has the horizon columns (the days to a
    shortfall of the horizon plan are counted from it)."""
    tier = tier_expr(frame)
    shortfall = pl.col("_short") if "_short" in frame.columns else shortfall_expr()
    # One 64-bit key, most significant first (each part clipped to its bits; smaller =
    # riskier): tier 3 bits, shortfall 16 (descending), days to next step — or to the
    # horizon's shortfall (rule 3) — 16 (none last), deficit then 14 (descending), days of
    # operation 15 (descending).
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
    if "horizon_max_deficit" in frame.columns:
        if on is None:
            raise ValueError("rank: a frame with the horizon columns needs the date judged")
        # Rule 3 with a horizon: a vessel whose next step is not short (or that has none,
        # as one not yet in AJB) but whose horizon plan is, is ranked by that shortfall —
        # its date, then its deficit.
        by_horizon = (tier == 2) & ~_next_short()
        days_to_next = pl.when(by_horizon).then(
            (pl.col("horizon_max_deficit_since") - pl.lit(on)).dt.total_days()
        ).otherwise(days_to_next)
        next_deficit = pl.when(by_horizon).then(pl.col("horizon_max_deficit")
                                                ).otherwise(next_deficit)
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
    """Counts by verdict, totals, vessels per warning, the ``top`` riskiest vessels (each
    with its ``tier``, a name of :data:`TIER_NAMES`) and,
    per interpretation option chosen, how many vessels judged do not rest on it (column
    ``options_not_applied``: their rule does not use that reading, or the norm's text fixes
    another; ``abordo check`` reports each as ``option_not_applicable``) (plain data)."""
    by_verdict = dict(frame.group_by("verdict").len().iter_rows())
    nc = frame.filter(pl.col("verdict") == "non_compliant")
    # With a horizon, a top vessel may be there for the shortfall of its horizon plan
    # (rule 3): its date and deficit come with it; ``tier`` names its rule.
    horizon = [c for c in ("horizon_max_deficit_since", "horizon_max_deficit")
               if c in frame.columns]
    out: dict[str, Any] = {
        "vessels": frame.height,
        "by_verdict": {k: int(v) for k, v in sorted(by_verdict.items(),
                                                    key=lambda kv: (-kv[1], kv[0]))},
        "total_deficit": int(nc["total_deficit"].fill_null(0).sum()),
        "top": frame.filter(pl.col("risk_rank") <= top).sort("risk_rank").select(
            "risk_rank", "id", "name", "verdict", "regime", "days_of_operation",
            "total_deficit", "findings", "next_since", "next_deficit_total",
            *horizon, tier_expr(frame).replace_strict(dict(enumerate(TIER_NAMES)),
                                                      return_dtype=pl.String).alias("tier"),
        ).to_dicts(),
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

"""Vectorised sea-time count for many seafarers at once (Polars), same rules and data.

Scope: the CIR × declaration part of the count (NORMAM-101 items 1.26.1 d–e, 1.27, 1.28,
1.29) — CIR records matched by Anexo 1-S (Brazilian flag) or Anexo 1-H (foreign flag)
declarations of the same company and category, after the unit, function and flag rules — and
the union of the matched days per seafarer (a day counts once). Manoeuvres, standby,
instructor and Navy days, and the explanation of excluded days, are the single-seafarer
engine's (:func:`abordo.sea_time.compute`); for inputs made only of CIR records and
declarations both give the same ``counted_days`` (checked by the tests and the benchmark).

The per-record rules are not re-implemented: the unique combinations of (unit, function,
flag, seafarer category …) are judged by the very functions of :mod:`abordo.sea_time.rules`
and joined back, so there is one source of truth.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import polars as pl

from abordo.law.interpretations import check_options, resolve
from abordo.sea_time import rules
from abordo.sea_time.catalog import PACKAGE, prior_format_until, stcw_parties, version_on
from abordo.sea_time.model import CirRecord, Seafarer

#: Columns of the three frames (optional ones get their model default when missing).
SEAFARER_COLUMNS = ("seafarer_id", "group", "category")
CIR_COLUMNS = ("seafarer_id", "embark", "disembark", "function", "company")
CIR_OPTIONAL: dict[str, tuple[Any, pl.DataType]] = {
    "kind": ("other", pl.String()), "flag": ("BR", pl.String()), "lcs": (False, pl.Boolean()),
    "offshore_role": (None, pl.String()), "dpp_date": (None, pl.Date()),
    "in_service": (True, pl.Boolean()),
}
DECLARATION_COLUMNS = ("seafarer_id", "company", "from", "to", "category")


def _company_key(column: str) -> pl.Expr:
    """Company names as the single-seafarer engine compares them (``str.casefold``: "Straße"
    and "STRASSE" are one company), folded once per distinct name."""
    def fold(names: pl.Series) -> pl.Series:
        keys = {n: n.casefold() for n in names.unique().drop_nulls().to_list()}
        return names.replace_strict(keys, default=None, return_dtype=pl.String)

    return pl.col(column).map_batches(fold, return_dtype=pl.String).alias("company_key")


@cache
def record_verdict(kind: str, has_role: bool, in_service: bool, function: str, lcs: bool,
                   flag: str, group: str, category: str, offshore_roles: str,
                   lcs_reading: str) -> tuple[str | None, str, tuple[str, ...]]:
    """``(exclusion reason or None, category counted, declared categories that match)``.

    Judged by :mod:`abordo.sea_time.rules` on a stand-in record: items 1.27 (unit, function
    for which qualified), 1.28 (lower function, other group, LCS) and 1.29 (STCW flag).
    """
    rec = CirRecord(vessel="-", embark=dt.date(2000, 1, 1), function=function, company="-",
                    kind=kind, flag=flag, lcs=lcs, in_service=in_service,
                    offshore_role="dp_operator" if has_role else None)
    sf = Seafarer(id="-", group=group, category=category)
    reason = (rules.unit_exclusion(rec, offshore_roles) or rules.function_exclusion(rec, sf)
              or rules.flag_exclusion(rec.flag, stcw_parties()))
    return (reason, rules.counted_category(rec, sf),
            tuple(sorted(rules.declaration_categories(rec, sf, lcs_reading))))


def _with_defaults(cir: pl.LazyFrame) -> pl.LazyFrame:
    names = cir.collect_schema().names()
    missing = [pl.lit(v, dtype=t).alias(k) for k, (v, t) in CIR_OPTIONAL.items()
               if k not in names]
    return cir.with_columns(missing) if missing else cir


def counted_days(seafarers: pl.DataFrame | pl.LazyFrame, cir: pl.DataFrame | pl.LazyFrame,
                 declarations: pl.DataFrame | pl.LazyFrame, on: dt.date,
                 options: Mapping[str, Any] | None = None) -> pl.DataFrame:
    """Counted days (CIR × declarations) per seafarer, on the request date ``on``.

    Frames: ``seafarers`` (``seafarer_id, group, category``); ``cir`` (``seafarer_id, embark,
    disembark`` — null = still aboard —, ``function, company`` and optionally ``kind, flag,
    lcs, offshore_role, dpp_date, in_service``); ``declarations`` (``seafarer_id, company,
    from, to, category`` and ``foreign`` — true for an Anexo 1-H). Dates are ``pl.Date``.
    Category codes and flags must already be normalised (``2ON``, ``BR``), as the engine's
    input model does. ``options``: the interpretations that bear on this part
    (``sea_time.period``, ``sea_time.offshore_roles``, ``sea_time.sea_trials``,
    ``sea_time.lcs_declaration``).

    Returns ``seafarer_id, counted_days`` (days; 0 for a seafarer with none). Raises
    ``ValueError`` when ``on`` is before NORMAM-101 (the engine says ``not_covered``).
    Legal source: NORMAM-101/DPC items 1.26.1 d–e, 1.27, 1.28, 1.29.
    """
    check_options([PACKAGE], options)
    if version_on(on) is None:
        raise ValueError(f"no NORMAM-101 version in force on {on.isoformat()} (not covered)")
    period = resolve(PACKAGE, "sea_time.period", options).variant
    roles = resolve(PACKAGE, "sea_time.offshore_roles", options).variant
    trials = resolve(PACKAGE, "sea_time.sea_trials", options).variant
    lcs_reading = resolve(PACKAGE, "sea_time.lcs_declaration", options).variant

    sf = seafarers.lazy().select(SEAFARER_COLUMNS)
    recs = (_with_defaults(cir.lazy())
            .with_row_index("rec")
            .join(sf, on="seafarer_id", how="left")
            .with_columns(pl.col("offshore_role").is_not_null().alias("has_role")))
    keys = ["kind", "has_role", "in_service", "function", "lcs", "flag", "group", "category"]
    combos = recs.select(keys).unique().collect()
    verdicts = [record_verdict(*row, roles, lcs_reading) for row in combos.iter_rows()]
    combos = combos.with_columns(
        pl.Series("reason", [v[0] for v in verdicts], dtype=pl.String),
        pl.Series("counted_category", [v[1] for v in verdicts], dtype=pl.String),
        pl.Series("ok_categories", [list(v[2]) for v in verdicts],
                  dtype=pl.List(pl.String)),
    )
    on_day = pl.lit(on)
    start = pl.col("embark") + pl.duration(days=1 if period == "exclusive_start" else 0)
    dpp_first = pl.col("dpp_date") + pl.duration(days=0 if trials == "from_dpp_day" else 1)
    eligible = (
        recs.join(combos.lazy(), on=keys, how="left", nulls_equal=True)
        .filter(pl.col("reason").is_null())
        # sea trials count only from the DPP (item 1.27); without a DPP, not at all
        .filter((pl.col("kind") != "sea_trials") | pl.col("dpp_date").is_not_null())
        .with_columns(
            pl.when(pl.col("kind") == "sea_trials")
            .then(pl.max_horizontal(start, dpp_first)).otherwise(start).alias("s"),
            pl.min_horizontal(pl.col("disembark").fill_null(on_day), on_day).alias("e"),
            (pl.col("flag") != "BR").alias("foreign"),
            _company_key("company"),
        )
        .filter(pl.col("s") <= pl.col("e"))
        .select("rec", "seafarer_id", "company_key", "foreign", "s", "e", "ok_categories")
    )
    decl_names = declarations.lazy().collect_schema().names()
    decls = declarations.lazy().with_columns(
        _company_key("company"),
        (pl.col("foreign") if "foreign" in decl_names else pl.lit(False)).alias("foreign"),
    )
    if "prior_format" in decl_names:
        # A prior-format declaration declares up to the engine's last day at the latest
        # (1.26.1, Observação): that day from the same function, once, as a column bound.
        last = prior_format_until(dt.date.max)
        decls = decls.with_columns(to=pl.when(pl.col("prior_format").fill_null(False))
                                   .then(pl.min_horizontal("to", pl.lit(last)))
                                   .otherwise("to")).filter(pl.col("from") <= pl.col("to"))
    decls = decls.select("seafarer_id", "company_key", "foreign", "from", "to", "category")
    # 1.26.1 d–e: the days of a record covered by a declaration of the same company and
    # category (a 1-H for a foreign flag, 1.29); several declarations may overlap.
    matched = (
        eligible.join(decls, on=["seafarer_id", "company_key", "foreign"], how="inner")
        .filter(pl.col("ok_categories").list.contains(pl.col("category")))
        .select("seafarer_id",
                pl.max_horizontal("s", "from").alias("a"),
                pl.min_horizontal("e", "to").alias("z"))
        .filter(pl.col("a") <= pl.col("z"))
    )
    # Union per seafarer (item 1.27, rule 2): sort, running maximum of the ends, a new run
    # starts where a start lies after every earlier end; days = sum of run lengths.
    runs = (
        matched.sort("seafarer_id", "a")
        .with_columns(pl.col("z").cum_max().over("seafarer_id").alias("reach"))
        .with_columns(pl.col("reach").shift(1).over("seafarer_id").alias("prev"))
        .with_columns((pl.col("prev").is_null() | (pl.col("a") > pl.col("prev")))
                      .cast(pl.Int32).cum_sum().over("seafarer_id").alias("run"))
        .group_by("seafarer_id", "run")
        .agg(pl.col("a").min(), pl.col("z").max())
        .group_by("seafarer_id")
        .agg(((pl.col("z") - pl.col("a")).dt.total_days() + 1).sum().alias("counted_days"))
    )
    return (sf.select("seafarer_id").join(runs, on="seafarer_id", how="left")
            .with_columns(pl.col("counted_days").fill_null(0).cast(pl.Int64))
            .sort("seafarer_id").collect())


def frames(inputs: Sequence[Mapping[str, Any]]) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The three frames of :func:`counted_days` from engine inputs (validated and normalised
    by :func:`abordo.sea_time.parse_input`; the seafarer ``id`` becomes ``seafarer_id``).

    Raises :class:`~abordo.law.InputError` on bad input, as the engine does.
    """
    from abordo.sea_time.model import parse_input

    sf_rows: list[dict[str, Any]] = []
    cir_rows: list[dict[str, Any]] = []
    decl_rows: list[dict[str, Any]] = []
    for raw in inputs:
        inp = parse_input(raw)
        sid = inp.seafarer.id
        sf_rows.append({"seafarer_id": sid, "group": inp.seafarer.group,
                        "category": inp.seafarer.category})
        cir_rows.extend({"seafarer_id": sid, "embark": r.embark, "disembark": r.disembark,
                         "function": r.function, "company": r.company, "kind": r.kind,
                         "flag": r.flag, "lcs": r.lcs, "offshore_role": r.offshore_role,
                         "dpp_date": r.dpp_date, "in_service": r.in_service} for r in inp.cir)
        decl_rows.extend({"seafarer_id": sid, "company": d.company, "from": d.from_, "to": d.to,
                          "category": d.category, "foreign": False,
                          "prior_format": d.prior_format} for d in inp.declarations)
        decl_rows.extend({"seafarer_id": sid, "company": d.company, "from": d.from_, "to": d.to,
                          "category": d.category, "foreign": True, "prior_format": False}
                         for d in inp.foreign_declarations)
    cir_schema = {"seafarer_id": pl.String, "embark": pl.Date, "disembark": pl.Date,
                  "function": pl.String, "company": pl.String, "kind": pl.String,
                  "flag": pl.String, "lcs": pl.Boolean, "offshore_role": pl.String,
                  "dpp_date": pl.Date, "in_service": pl.Boolean}
    decl_schema = {"seafarer_id": pl.String, "company": pl.String, "from": pl.Date,
                   "to": pl.Date, "category": pl.String, "foreign": pl.Boolean,
                   "prior_format": pl.Boolean}
    return (pl.DataFrame(sf_rows, schema={"seafarer_id": pl.String, "group": pl.String,
                                          "category": pl.String}),
            pl.DataFrame(cir_rows, schema=cir_schema),
            pl.DataFrame(decl_rows, schema=decl_schema))

"""Benchmark of the sea-time count (NORMAM-101 items 1.26–1.29): batch path vs engine vs a
plain day-by-day baseline.

    python bench/sea_time_bench.py [--seafarers 100000] [--records 20] [--engine-sample 2000]
                                   [--baseline-sample 500] [--workers 2] [--engine-all]

1. Generates a synthetic fleet of seafarers (default 100,000 × 20 CIR records, with one
   Anexo 1-S / 1-H declaration per record — some partial, missing or in another category —,
   lower functions, LCS periods, FPSOs with and without an offshore role, fixed platforms,
   foreign flags) with Polars, deterministically (hash-based, ``--seed``).
2. Runs the vectorised batch path (:func:`abordo.sea_time.batch.counted_days`: the engine's
   rules, its interval algebra done as sorted runs in Polars) on the whole fleet.
3. Runs the engine (:func:`abordo.sea_time.compute`, day sets with ``portion``) on a sample
   (or on everyone with ``--engine-all``, in ``--workers`` processes), and checks that every
   seafarer's counted days equal the batch path's.
4. Runs a plain day-by-day Python baseline (a set of dates, a scan of the declarations for
   every day) on a smaller sample, also checked against the batch path.

Sampled timings are extrapolated linearly to the whole fleet and marked so. Not a test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import polars as pl

from abordo.sea_time import compute
from abordo.sea_time import days as d
from abordo.sea_time.batch import counted_days, record_verdict

CATEGORIES = ["2ON", "1ON", "2OM", "1OM"]
LOWER = {"2ON": "MNC", "1ON": "MNC", "2OM": "MNM", "1OM": "MNM"}
HIGHER = {"2ON": "1ON", "1ON": "CCB", "2OM": "1OM", "1OM": "OSM"}
KINDS = ["bulk_carrier"] * 90 + ["fpso"] * 5 + ["fixed_platform"] * 2 + ["semi_submersible"] * 3
FLAGS = ["BR"] * 92 + ["LR"] * 5 + ["PA"] * 2 + ["KG"]


def _rnd(col: str, seed: int, modulo: int) -> pl.Expr:
    """A deterministic pseudo-random integer in ``[0, modulo)`` from a hash of ``col``."""
    return (pl.col(col).hash(seed) % modulo).cast(pl.Int64)


def generate(n: int, per: int, seed: int) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Seafarers, CIR records and declarations (vectorised, deterministic)."""
    sf = (pl.DataFrame({"i": pl.int_range(n, eager=True)})
          .with_columns(pl.format("S{}", pl.col("i")).alias("seafarer_id"),
                        pl.lit("maritime").alias("group"),
                        pl.lit(pl.Series(CATEGORIES)).get(_rnd("i", seed, len(CATEGORIES)))
                        .alias("category")))
    base = dt.date(2016, 1, 1)
    recs = (
        pl.DataFrame({"r": pl.int_range(n * per, eager=True)})
        .with_columns((pl.col("r") // per).alias("i"))
        .join(sf, on="i", how="left")
        .with_columns(
            (20 + _rnd("r", seed + 1, 100)).alias("length"),     # 20–119 days aboard
            (_rnd("r", seed + 2, 75) - 5).alias("gap"),          # −5 (transfer overlap)–69
            _rnd("r", seed + 3, 100).alias("u_fn"),
            _rnd("r", seed + 4, 100).alias("u_kind"),
            _rnd("r", seed + 5, 100).alias("u_flag"),
            _rnd("r", seed + 6, 5).alias("u_co"),
            _rnd("r", seed + 7, 100).alias("u_decl"),
            _rnd("i", seed + 8, 365).alias("u_base"),
        )
        .with_columns((pl.col("length") + pl.col("gap")).cum_sum().over("i").alias("acc"))
        .with_columns(
            (pl.lit(base) + pl.duration(days=pl.col("u_base") + pl.col("acc")
                                        - pl.col("length") - pl.col("gap"))).alias("embark"))
        .with_columns(
            (pl.col("embark") + pl.duration(days=pl.col("length") - 1)).alias("disembark"),
            pl.when(pl.col("u_fn") < 85).then(pl.col("category"))
            .when(pl.col("u_fn") < 90).then(pl.col("category").replace_strict(LOWER))
            .when(pl.col("u_fn") < 96).then(pl.col("category").replace_strict(HIGHER))
            .otherwise(pl.col("category")).alias("function"),
            (pl.col("u_fn").is_between(90, 95)).alias("lcs"),
            pl.lit(pl.Series(KINDS)).get(pl.col("u_kind")).alias("kind"),
            pl.lit(pl.Series(FLAGS)).get(pl.col("u_flag")).alias("flag"),
            pl.format("Cia {}", pl.col("u_co")).alias("company"),
        )
        .with_columns(
            pl.when((pl.col("kind") == "fpso") & (pl.col("u_kind") % 2 == 0))
            .then(pl.lit("dp_operator")).otherwise(pl.lit(None, dtype=pl.String))
            .alias("offshore_role"))
    )
    cir = recs.select("seafarer_id", "embark", "disembark", "function", "company", "kind",
                      "flag", "lcs", "offshore_role",
                      pl.lit(None, dtype=pl.Date).alias("dpp_date"),
                      pl.lit(True).alias("in_service"))
    # one declaration per record: 80 % exact, 10 % covering the first half only,
    # 5 % missing, 5 % in another category (the seafarer's lower category)
    decls = (recs.filter(~pl.col("u_decl").is_between(90, 94))
             .select("seafarer_id", "company",
                     pl.col("embark").alias("from"),
                     pl.when(pl.col("u_decl").is_between(80, 89))
                     .then(pl.col("embark") + pl.duration(days=pl.col("length") // 2))
                     .otherwise(pl.col("disembark")).alias("to"),
                     pl.when(pl.col("u_decl") >= 95)
                     .then(pl.col("category").replace_strict(LOWER))
                     .otherwise(pl.col("function")).alias("category"),
                     (pl.col("flag") != "BR").alias("foreign")))
    return sf.select("seafarer_id", "group", "category"), cir, decls


def engine_inputs(sf: pl.DataFrame, cir: pl.DataFrame, decls: pl.DataFrame,
                  ids: list[str]) -> list[dict[str, Any]]:
    """The engine's input dicts (the spec's format) for the seafarers ``ids``."""
    wanted = pl.DataFrame({"seafarer_id": ids})
    by_cir: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in cir.join(wanted, on="seafarer_id", how="semi").iter_rows(named=True):
        sid = row.pop("seafarer_id")
        by_cir[sid].append({"vessel": "V", **{k: v for k, v in row.items() if v is not None}})
    by_decl: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_foreign: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in decls.join(wanted, on="seafarer_id", how="semi").iter_rows(named=True):
        sid, foreign = row.pop("seafarer_id"), row.pop("foreign")
        (by_foreign if foreign else by_decl)[sid].append(row)
    out = []
    for row in sf.join(wanted, on="seafarer_id", how="semi").iter_rows(named=True):
        sid = row["seafarer_id"]
        out.append({"seafarer": {"id": sid, "group": row["group"], "category": row["category"]},
                    "purpose": "promotion", "cir": by_cir[sid], "declarations": by_decl[sid],
                    "foreign_declarations": by_foreign[sid]})
    return out


def _engine_chunk(args: tuple[list[dict[str, Any]], dt.date]) -> list[tuple[str, int]]:
    inputs, on = args
    return [(c["seafarer"]["id"], compute(c, on).result["counted_days"]) for c in inputs]


def interval_core(case: dict[str, Any], on: dt.date) -> int:
    """The engine's interval algebra alone (``portion`` day sets, :mod:`abordo.sea_time.days`),
    same per-record verdict, no validation, trace or citations."""
    sf = case["seafarer"]
    decl_sets: dict[tuple[str, bool], list[tuple[d.Days, str]]] = defaultdict(list)
    for dcl in case["declarations"]:
        decl_sets[(dcl["company"].lower(), False)].append((d.span(dcl["from"], dcl["to"]),
                                                           dcl["category"]))
    for dcl in case["foreign_declarations"]:
        decl_sets[(dcl["company"].lower(), True)].append((d.span(dcl["from"], dcl["to"]),
                                                          dcl["category"]))
    matched = []
    for r in case["cir"]:
        reason, _, ok = record_verdict(r["kind"], r.get("offshore_role") is not None, True,
                                       r["function"], r["lcs"], r["flag"], sf["group"],
                                       sf["category"], "fpso_fsu_drillship", "function_or_real")
        if reason is not None:
            continue
        period = d.span(r["embark"], min(r["disembark"], on))
        cover = d.union(s for s, c in decl_sets[(r["company"].lower(), r["flag"] != "BR")]
                        if c in ok)
        matched.append(period & cover)
    total: int = d.count(d.union(matched))
    return total


def baseline(case: dict[str, Any], on: dt.date) -> int:
    """Plain day-by-day Python: a set of dates, every declaration scanned for every day.

    Uses the same per-record verdict as the batch path (rules of items 1.27–1.29), so only
    the day arithmetic differs.
    """
    sf = case["seafarer"]
    days: set[dt.date] = set()
    for r in case["cir"]:
        reason, _, ok = record_verdict(r["kind"], r.get("offshore_role") is not None, True,
                                       r["function"], r["lcs"], r["flag"], sf["group"],
                                       sf["category"], "fpso_fsu_drillship", "function_or_real")
        if reason is not None:
            continue
        decls = case["declarations"] if r["flag"] == "BR" else case["foreign_declarations"]
        day, last = r["embark"], min(r["disembark"], on)
        while day <= last:
            for dcl in decls:
                if (dcl["company"].lower() == r["company"].lower() and dcl["category"] in ok
                        and dcl["from"] <= day <= dcl["to"]):
                    days.add(day)
                    break
            day += dt.timedelta(days=1)
    return len(days)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seafarers", type=int, default=100_000)
    p.add_argument("--records", type=int, default=20, help="CIR records per seafarer")
    p.add_argument("--engine-sample", type=int, default=2_000)
    p.add_argument("--baseline-sample", type=int, default=500)
    p.add_argument("--engine-all", action="store_true",
                   help="run the engine on every seafarer (in --workers processes)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--on", type=dt.date.fromisoformat, default=dt.date(2026, 1, 15))
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args(argv)
    n, on = a.seafarers, a.on
    print(f"sea-time benchmark: {n:,} seafarers × {a.records} CIR records, request date "
          f"{on.isoformat()}, {os.cpu_count()} CPU(s), Polars {pl.__version__}, "
          f"Python {sys.version.split()[0]}")

    t0 = time.perf_counter()
    sf, cir, decls = generate(n, a.records, a.seed)
    t_gen = time.perf_counter() - t0
    n_rec = cir.height
    print(f"generated {n_rec:,} CIR records and {decls.height:,} declarations in {t_gen:.1f} s")

    t0 = time.perf_counter()
    batch = counted_days(sf, cir, decls, on)
    t_batch = time.perf_counter() - t0
    batch_by_id = dict(batch.iter_rows())

    ids = sf["seafarer_id"].to_list()
    step = max(1, n // max(1, a.engine_sample))
    sample = ids if a.engine_all else ids[::step][: a.engine_sample]
    inputs = engine_inputs(sf, cir, decls, sample)
    t0 = time.perf_counter()
    if a.workers > 1:
        size = max(1, len(inputs) // (a.workers * 8))
        chunks = [(inputs[i:i + size], on) for i in range(0, len(inputs), size)]
        with ProcessPoolExecutor(a.workers) as pool:
            engine = [x for part in pool.map(_engine_chunk, chunks) for x in part]
    else:
        engine = _engine_chunk((inputs, on))
    t_engine = time.perf_counter() - t0
    mismatches = [(sid, days, batch_by_id[sid]) for sid, days in engine
                  if days != batch_by_id[sid]]

    t0 = time.perf_counter()
    core = [(c["seafarer"]["id"], interval_core(c, on)) for c in inputs]
    t_core = time.perf_counter() - t0
    core_mismatches = [sid for sid, days in core if days != batch_by_id[sid]]

    base_ids = ids[::max(1, n // max(1, a.baseline_sample))][: a.baseline_sample]
    base_inputs = engine_inputs(sf, cir, decls, base_ids)
    t0 = time.perf_counter()
    base = [(c["seafarer"]["id"], baseline(c, on)) for c in base_inputs]
    t_base = time.perf_counter() - t0
    base_mismatches = [sid for sid, days in base if days != batch_by_id[sid]]

    per = n_rec / n
    rows = [
        ("batch path (Polars), whole fleet", n, t_batch, t_batch, ""),
        (f"engine compute() (portion), {a.workers} process(es)", len(sample), t_engine,
         t_engine * n / len(sample), "" if len(sample) == n else "extrapolated"),
        ("interval algebra core (portion), 1 process", len(core), t_core,
         t_core * n / len(core), "" if len(core) == n else "extrapolated"),
        ("baseline day-by-day Python, 1 process", len(base), t_base, t_base * n / len(base),
         "extrapolated"),
    ]
    print()
    print(f"{'path':48} {'seafarers':>10} {'records':>11} {'measured s':>11} "
          f"{'fleet s':>10} {'records/s':>12}")
    for name, k, secs, fleet, note in rows:
        rate = k * per / secs if secs else float("inf")
        print(f"{name:48} {k:>10,} {int(k * per):>11,} {secs:>11.2f} {fleet:>10.1f} "
              f"{rate:>12,.0f}  {note}")
    print()
    base_fleet = rows[3][3]
    print(f"against the day-by-day baseline (fleet time): batch {base_fleet / t_batch:,.0f}× "
          f"faster; portion core {base_fleet / rows[2][3]:,.1f}× faster; full engine "
          f"{base_fleet / rows[1][3]:,.1f}× faster ({a.workers} processes, with validation, "
          "trace and citations)")
    print(f"counted days, whole fleet: mean {batch['counted_days'].mean():.1f}, "
          f"total {batch['counted_days'].sum():,}")
    print(f"check engine == batch on {len(engine):,} seafarers: "
          f"{'OK' if not mismatches else f'{len(mismatches)} MISMATCHES {mismatches[:3]}'}")
    print(f"check portion core == batch on {len(core):,} seafarers: "
          f"{'OK' if not core_mismatches else f'{len(core_mismatches)} MISMATCHES'}")
    print(f"check baseline == batch on {len(base):,} seafarers: "
          f"{'OK' if not base_mismatches else f'{len(base_mismatches)} MISMATCHES'}")
    return 1 if mismatches or core_mismatches or base_mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark of ``abordo screen`` (fleet screening) — a plain script, not a test.

    .venv/bin/python bench/screen_bench.py                  # 10^4, 10^5, 10^6 vessels
    .venv/bin/python bench/screen_bench.py --sizes 10000,100000 --crew 30 --sample 2000

For each fleet size it generates a fleet (≈ ``--crew`` persons per vessel) to Parquet in a
temporary folder, then runs, each in its own subprocess (so that peak memory is that
process's own RSS, from ``resource.getrusage``):

* **screen** — ``abordo.batch.screen`` on the folder and ``write_result`` to Parquet (the whole
  job: read, count, evaluate, engine route, rank, write);
* **plain pass** — one Polars pass over the crew columns: ``group_by(vessel_id)`` and the sum
  of the nationality flag (the floor any screening must pay);
* **engine loop** — a per-vessel loop over ``abordo.quota.evaluate`` (case built from the
  vessel's rows, then evaluated) on a sample of vessels, extrapolated to the fleet.

It prints wall and CPU time, crew rows per second, peak RSS and the in-memory size of the
input tables, and the ratios: engine loop / screen (target ≥ 100), screen / plain pass
(target ≤ 3), peak RSS / input size (target ≤ 2). Rank and nationality are written as
dictionary (categorical) columns, as a large Parquet export normally has them; ``--strings``
writes plain strings instead.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ON = dt.date(2026, 6, 1)

# Realistic crew of an offshore vessel / tanker: 30 berths, common rank spellings.
RANKS = ["Master", "Chief Officer", "2nd Officer", "3rd Officer", "DPO", "DPO", "Bosun", "AB",
         "AB", "AB", "OS", "OS", "Chief Engineer", "2nd Engineer", "3rd Engineer", "ETO",
         "Fitter", "Oiler", "Oiler", "Wiper", "Cook", "Chief Cook", "Steward", "Messman",
         "AB", "Oiler", "Deck Cadet", "Engine Cadet", "Electrician", "Pumpman"]
NATS = ["BR", "BR", "BR", "PH", "PH", "PH", "IN", "NO", "UA", "GR", "RU", "ID", "MM", "HR",
        "PL", "GB", "BR", "PH", "IN", "BR"]
FLAGS = ["NO", "LR", "PA", "MH", "SG", "BS", "MT", "CY", "BR", "IT", "AG", "GB"]
ACTIVITIES = ["offshore_support", "offshore_support", "offshore_support", "exploration",
              "platform", "cabotage", "cabotage", "port_support", "inland_national",
              "regasification", "long_haul", "cruise", "fishing"]
CONTRACTS = ["charter", "charter", "charter", "services", "risk", "lease", "none"]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _emit(data: dict[str, Any]) -> None:
    data["rss_mb"] = _rss_mb()
    print("RESULT " + json.dumps(data, default=str), flush=True)


# --- subprocess jobs -------------------------------------------------------------------------

def job_generate(folder: Path, n: int, crew: int, strings: bool) -> None:
    import polars as pl

    t = time.perf_counter()
    i = pl.int_range(0, n, dtype=pl.UInt32, eager=True)
    h = pl.Series(i).hash(11)
    pick = lambda seq, salt: pl.lit(pl.Series(seq)).gather(  # noqa: E731
        (pl.col("h") // salt % len(seq)).cast(pl.UInt32))
    on_days = (ON - dt.date(1970, 1, 1)).days
    vessels = (pl.DataFrame({"i": i, "h": h})
               .with_columns(flag=pick(FLAGS, 7), activity=pick(ACTIVITIES, 101),
                             contract=pick(CONTRACTS, 1009),
                             _age=(pl.col("h") // 10007 % 1100).cast(pl.Int32))
               .select(
                   id=pl.format("V{}", pl.col("i").cast(pl.String).str.zfill(7)),
                   name=pl.format("Navio {}", pl.col("i")),
                   flag="flag",
                   registry=pl.when(pl.col("flag") == "BR").then(
                       pl.when(pl.col("h") % 3 == 0).then(pl.lit("REB"))
                       .otherwise(pl.lit("ordinary"))),
                   activity="activity", contract="contract",
                   ajb_entry=(pl.lit(on_days) - pl.col("_age") + 30).cast(pl.Date),
                   absences=pl.when(pl.col("h") % 10 == 0).then(pl.format(
                       "{}/{}", (pl.lit(on_days) - pl.col("_age") + 60).cast(pl.Date),
                       (pl.lit(on_days) - pl.col("_age") + 60 + pl.col("h") % 30)
                       .cast(pl.Date))),
               ))
    # An absence must start after the entry and end before the date judged: keep those.
    vessels = vessels.with_columns(absences=pl.when(
        pl.col("ajb_entry") < (pl.lit(on_days) - 120).cast(pl.Date)).then("absences"))
    vessels.write_parquet(folder / "vessels.parquet")
    k = n * crew
    cr = (pl.select(r=pl.int_range(0, k, dtype=pl.UInt32))
          .with_columns(v=pl.col("r") // crew, j=pl.col("r") % crew, h=pl.col("r").hash(5))
          .select(
              vessel_id=pl.format("V{}", pl.col("v").cast(pl.String).str.zfill(7)),
              id=pl.format("C{}", pl.col("j")),
              rank=pl.lit(pl.Series(RANKS)).gather(pl.col("j") % len(RANKS)),
              nationality=pl.lit(pl.Series(NATS)).gather(
                  (pl.col("h") % len(NATS)).cast(pl.UInt32)),
              # A few rows the fast pass cannot take: a dual national, an explicit
              # department (non-crew professional).
              _rare=pl.col("h") % 20011,
          )
          .with_columns(
              nationality=pl.when(pl.col("_rare") == 1).then(pl.lit("PT/BR"))
              .otherwise("nationality"),
              department=pl.when(pl.col("_rare") == 2).then(pl.lit("non_crew_professional")),
          ).drop("_rare"))
    if not strings:
        cr = cr.with_columns(pl.col("rank").cast(pl.Categorical),
                             pl.col("nationality").cast(pl.Categorical))
    cr.write_parquet(folder / "crew.parquet")
    _emit({"vessels": n, "crew_rows": cr.height, "seconds": time.perf_counter() - t,
           "input_mb": (vessels.estimated_size() + cr.estimated_size()) / 2**20,
           "crew_mb": cr.estimated_size() / 2**20,
           "files_mb": sum(p.stat().st_size for p in folder.glob("*.parquet")) / 2**20})


def job_screen(folder: Path) -> None:
    from abordo.batch import screen, write_result

    t, c = time.perf_counter(), time.process_time()
    res = screen(folder, ON)
    write_result(res.frame, folder / "result.parquet")
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    _emit({"wall": wall, "cpu": cpu, "crew_rows": res.crew_rows,
           "exact_vessels": res.exact_vessels, "engine_vessels": res.engine_vessels,
           "passes": res.crew_passes, "stages": res.seconds, "stages_cpu": res.cpu_seconds,
           "write": {"wall": wall - sum(res.seconds.values()),
                     "cpu": cpu - sum(res.cpu_seconds.values())},
           "verdicts": dict(res.frame.group_by("verdict").len().iter_rows())})


def job_plain(folder: Path) -> None:
    import polars as pl

    t, c = time.perf_counter(), time.process_time()
    out = (pl.scan_parquet(folder / "crew.parquet")
           .group_by("vessel_id").agg((pl.col("nationality") == "BR").sum().alias("br"))
           .collect(engine="streaming"))
    _emit({"wall": time.perf_counter() - t, "cpu": time.process_time() - c,
           "vessels": out.height})


def job_loop(folder: Path, sample: int) -> None:
    """Per-vessel loop: for each vessel, its case built from its rows, then evaluate()."""
    import polars as pl

    from abordo.batch.engine_rows import case_from_row
    from abordo.batch.fleet import read_fleet
    from abordo.law.errors import InputError
    from abordo.quota import evaluate

    fleet = read_fleet(folder)
    vs = fleet.vessels.head(sample)
    ids = vs["id"]
    crew = (pl.scan_parquet(folder / "crew.parquet")
            .filter(pl.col("vessel_id").is_in(ids.implode()))
            .with_row_index("_row").collect())
    by_vessel: dict[str, list[dict[str, Any]]] = {}
    for rec in crew.with_columns(pl.col("rank", "nationality").cast(pl.String)) \
            .iter_rows(named=True):
        by_vessel.setdefault(rec.pop("vessel_id"), []).append(rec)
    ab = {r["_vidx"]: r for r in fleet.absences.iter_rows(named=True)}
    t, c = time.perf_counter(), time.process_time()
    done = 0
    for row in vs.iter_rows(named=True):
        a = ab.get(row["_vidx"])
        case = case_from_row(row, [(a["a_first"], a["a_last"])] if a else [], [],
                             by_vessel.get(row["id"], []), "crew.parquet")
        with contextlib.suppress(InputError):  # an engine error is still a vessel judged
            evaluate(case, ON)
        done += 1
    _emit({"wall": time.perf_counter() - t, "cpu": time.process_time() - c, "vessels": done})


# --- driver ------------------------------------------------------------------------------------

def _run(job: str, *args: str) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--job", job, *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return dict(json.loads(line[7:]))
    raise SystemExit(f"job {job} failed:\n{proc.stdout}\n{proc.stderr}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--crew", type=int, default=30, help="persons per vessel")
    ap.add_argument("--sample", type=int, default=2000, help="vessels in the engine loop")
    ap.add_argument("--strings", action="store_true", help="rank/nationality as plain text")
    ap.add_argument("--job", help=argparse.SUPPRESS)
    ap.add_argument("args", nargs="*", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.job:
        folder = Path(a.args[0])
        if a.job == "generate":
            job_generate(folder, int(a.args[1]), a.crew, a.strings)
        elif a.job == "screen":
            job_screen(folder)
        elif a.job == "plain":
            job_plain(folder)
        elif a.job == "loop":
            job_loop(folder, int(a.args[1]))
        return

    sizes = [int(s) for s in a.sizes.split(",")]
    print(f"abordo screen benchmark — {os.cpu_count()} CPUs, {a.crew} persons per vessel, "
          f"date judged {ON}, {'text' if a.strings else 'categorical'} rank/nationality")
    rows = []
    t0 = time.perf_counter()
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="abordo-bench-") as tmp:
            folder = Path(tmp)
            gen = _run("generate", str(folder), str(n), "--crew", str(a.crew),
                       *(["--strings"] if a.strings else []))
            scr = _run("screen", str(folder))
            plain = _run("plain", str(folder))
            loop = _run("loop", str(folder), str(min(a.sample, n)))
        per_vessel = loop["wall"] / loop["vessels"]
        loop_total = per_vessel * n
        r = {"n": n, "crew_rows": gen["crew_rows"], "input_mb": gen["input_mb"],
             "files_mb": gen["files_mb"], "wall": scr["wall"], "cpu": scr["cpu"],
             "rss": scr["rss_mb"], "rows_s": gen["crew_rows"] / scr["wall"],
             "plain": plain["wall"], "plain_cpu": plain["cpu"], "plain_rss": plain["rss_mb"],
             "loop_ms": per_vessel * 1000, "loop_total": loop_total,
             "x_loop": loop_total / scr["wall"], "x_plain": scr["wall"] / plain["wall"],
             "x_plain_cpu": scr["cpu"] / plain["cpu"], "x_mem": scr["rss_mb"] / gen["input_mb"],
             "exact": scr["exact_vessels"], "engine": scr["engine_vessels"],
             "stages": scr["stages"], "stages_cpu": scr["stages_cpu"], "write": scr["write"],
             "passes": scr["passes"], "verdicts": scr["verdicts"]}
        rows.append(r)
        print(f"\n== {n:,} vessels, {r['crew_rows']:,} crew rows "
              f"(input {r['input_mb']:.0f} MiB in memory, {r['files_mb']:.1f} MiB Parquet)")
        print(f"  screen      wall {r['wall']:7.2f} s  cpu {r['cpu']:7.2f} s  "
              f"{r['rows_s'] / 1e6:6.2f} M crew rows/s  peak RSS {r['rss']:6.0f} MiB")
        print("              stages wall/cpu s: " + ", ".join(
            f"{k} {v:.2f}/{r['stages_cpu'][k]:.2f}" for k, v in r["stages"].items())
            + f", write {r['write']['wall']:.2f}/{r['write']['cpu']:.2f}")
        print(f"              {r['exact']:,} vessels with unusual crew rows counted exactly "
              f"({r['passes']} crew pass(es)); {r['engine']:,} vessels left to the engine")
        print(f"              verdicts {r['verdicts']}")
        print(f"  plain pass  wall {r['plain']:7.2f} s  cpu {r['plain_cpu']:7.2f} s  "
              f"peak RSS {r['plain_rss']:6.0f} MiB")
        print(f"  engine loop {r['loop_ms']:.3f} ms/vessel → {r['loop_total']:,.0f} s for the "
              f"fleet (extrapolated from {min(a.sample, n):,} vessels)")
        print(f"  ratios      engine loop / screen {r['x_loop']:,.0f}×   screen / plain "
              f"{r['x_plain']:.2f}× (cpu {r['x_plain_cpu']:.2f}×)   peak RSS / input "
              f"{r['x_mem']:.2f}×")
    print("\nsize        wall s   rows/s (M)  RSS MiB  input MiB  ×loop   ×plain  ×mem")
    for r in rows:
        print(f"{r['n']:>9,}  {r['wall']:7.2f}  {r['rows_s'] / 1e6:10.2f}  {r['rss']:7.0f}  "
              f"{r['input_mb']:9.0f}  {r['x_loop']:6.0f}  {r['x_plain']:6.2f}  "
              f"{r['x_mem']:5.2f}")
    if len(rows) > 1:
        a0, a1 = rows[0], rows[-1]
        growth = (a1["wall"] / a0["wall"]) / (a1["n"] / a0["n"])
        print(f"time per vessel, largest / smallest size: {growth:.2f} (1.0 = linear)")
    print(f"benchmark total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()

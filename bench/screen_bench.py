"""Benchmark of ``abordo screen`` (fleet screening) — a plain script, not a test.

    .venv/bin/python bench/screen_bench.py                  # 10^4, 10^5, 10^6 vessels
    .venv/bin/python bench/screen_bench.py --sizes 10000,100000 --crew 30 --sample 2000

For each fleet size it generates a fleet (≈ ``--crew`` persons per vessel) to Parquet in a
temporary folder, then runs, each in its own subprocess:

* **timing** — in ONE process, so that both sides have the same conditions (same input
  files, same Polars thread pool, warm caches): one warm-up of each, then ``--reps``
  rounds of, in turn,

  - the **plain pass**: one Polars streaming pass over the crew columns,
    ``group_by(vessel_id)`` and the sum of the nationality flag (the floor any screening
    must pay);
  - the **evaluation**: ``abordo.batch.screen`` on the folder, from the files to the ranked
    result frame (read, check, count, evaluate, engine route, rank) — no writing;
  - the **write** of that frame to Parquet (``write_result``, ``--compression``; lz4 by
    default here, the CLI's default being zstd);

  and reports the median wall and CPU time of each; **whole command** = evaluation + write
  of the same round;
* **memory** — one screen + write, and one plain pass, each in a fresh process: peak RSS
  (``resource.getrusage``); the screen's times there are also printed (**cold run**: the
  command as a user runs it once — values first met in that run, such as a dual nationality,
  are left to the second crew pass, which the warm rounds no longer need);
* **engine loop** — a per-vessel loop over ``abordo.quota.evaluate`` (case built from the
  vessel's rows, then evaluated) on a sample of vessels, extrapolated to the fleet.

It prints the ratios: engine loop / whole command (target ≥ 100); evaluation / plain pass
and whole command / plain pass, wall and CPU (target ≤ 3; ``docs/screen.md`` says which
one the target refers to); peak RSS / input size in memory (target ≤ 2). Rank and
nationality are written as dictionary (categorical) columns, as a large Parquet export
normally has them; ``--strings`` writes plain strings instead.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import resource
import statistics
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
    def pick(seq: list[str], salt: int) -> pl.Expr:
        return pl.lit(pl.Series(seq)).gather((pl.col("h") // salt % len(seq)).cast(pl.UInt32))

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


def _plain_pass(folder: Path) -> int:
    import polars as pl

    out = (pl.scan_parquet(folder / "crew.parquet")
           .group_by("vessel_id").agg((pl.col("nationality") == "BR").sum().alias("br"))
           .collect(engine="streaming"))
    return out.height


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(t: tuple[float, float]) -> dict[str, float]:
    return {"wall": time.perf_counter() - t[0], "cpu": time.process_time() - t[1]}


def job_time(folder: Path, reps: int, compression: str) -> None:
    """Plain pass, evaluation and write, interleaved in this one process; medians."""
    import polars as pl

    from abordo.batch import screen, write_result

    out = folder / "result.parquet"
    _plain_pass(folder)  # warm-up: imports, rule tables, vocabularies, page cache
    write_result(screen(folder, ON).frame, out, compression)
    rounds = []
    for _ in range(reps):
        t = _clock()
        _plain_pass(folder)
        plain = _since(t)
        t = _clock()
        res = screen(folder, ON)
        ev = _since(t)
        t = _clock()
        write_result(res.frame, out, compression)
        wr = _since(t)
        rounds.append({"plain": plain, "eval": ev, "write": wr,
                       "whole": {k: ev[k] + wr[k] for k in ev},
                       "stages": res.seconds, "stages_cpu": res.cpu_seconds})

    def med(part: str, k: str) -> float:
        return float(statistics.median(r[part][k] for r in rounds))

    mid = sorted(rounds, key=lambda r: r["eval"]["wall"])[len(rounds) // 2]
    _emit({"threads": pl.thread_pool_size(), "reps": reps, "compression": compression,
           **{part: {k: med(part, k) for k in ("wall", "cpu")}
              for part in ("plain", "eval", "write", "whole")},
           "plain_min": min(r["plain"]["wall"] for r in rounds),
           "eval_min": min(r["eval"]["wall"] for r in rounds),
           "stages": mid["stages"], "stages_cpu": mid["stages_cpu"],
           "crew_rows": res.crew_rows, "exact_vessels": res.exact_vessels,
           "engine_vessels": res.engine_vessels, "passes": res.crew_passes,
           "verdicts": dict(res.frame.group_by("verdict").len().iter_rows())})


def job_screen(folder: Path, compression: str) -> None:
    """One screen + write in a fresh process, as one run of the command: its peak RSS and
    its times (cold — strings first met here, e.g. a dual nationality, are recounted by
    the second crew pass; the timed rounds run after a warm-up that met them)."""
    from abordo.batch import screen, write_result

    t = _clock()
    res = screen(folder, ON)
    ev = _since(t)
    t = _clock()
    write_result(res.frame, folder / "result.parquet", compression)
    _emit({"eval": ev, "write": _since(t), "rows": res.frame.height,
           "passes": res.crew_passes, "exact_vessels": res.exact_vessels})


def job_plain(folder: Path) -> None:
    t = _clock()
    n = _plain_pass(folder)
    _emit(_since(t) | {"vessels": n})


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
    ap.add_argument("--reps", type=int, default=5, help="timed rounds (medians reported)")
    ap.add_argument("--compression", default="lz4",
                    help="Parquet compression of the result (CLI default: zstd)")
    ap.add_argument("--job", help=argparse.SUPPRESS)
    ap.add_argument("args", nargs="*", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.job:
        folder = Path(a.args[0])
        if a.job == "generate":
            job_generate(folder, int(a.args[1]), a.crew, a.strings)
        elif a.job == "time":
            job_time(folder, a.reps, a.compression)
        elif a.job == "screen":
            job_screen(folder, a.compression)
        elif a.job == "plain":
            job_plain(folder)
        elif a.job == "loop":
            job_loop(folder, int(a.args[1]))
        return

    sizes = [int(s) for s in a.sizes.split(",")]
    print(f"abordo screen benchmark — {os.cpu_count()} CPUs, {a.crew} persons per vessel, "
          f"date judged {ON}, {'text' if a.strings else 'categorical'} rank/nationality, "
          f"result written as Parquet ({a.compression}), medians of {a.reps} rounds")
    rows = []
    t0 = time.perf_counter()
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="abordo-bench-") as tmp:
            folder = Path(tmp)
            gen = _run("generate", str(folder), str(n), "--crew", str(a.crew),
                       *(["--strings"] if a.strings else []))
            tm = _run("time", str(folder), "--reps", str(a.reps),
                      "--compression", a.compression)
            mem = _run("screen", str(folder), "--compression", a.compression)
            plain_mem = _run("plain", str(folder))
            loop = _run("loop", str(folder), str(min(a.sample, n)))
        per_vessel = loop["wall"] / loop["vessels"]
        loop_total = per_vessel * n
        pl_, ev, wr, wh = tm["plain"], tm["eval"], tm["write"], tm["whole"]
        r = {"n": n, "crew_rows": gen["crew_rows"], "input_mb": gen["input_mb"],
             "files_mb": gen["files_mb"], "ev": ev, "wr": wr, "wh": wh, "plain": pl_,
             "rss": mem["rss_mb"], "plain_rss": plain_mem["rss_mb"],
             "rows_s": gen["crew_rows"] / wh["wall"],
             "loop_ms": per_vessel * 1000, "loop_total": loop_total,
             "x_loop": loop_total / wh["wall"],
             "x_ev": (ev["wall"] / pl_["wall"], ev["cpu"] / pl_["cpu"]),
             "x_wh": (wh["wall"] / pl_["wall"], wh["cpu"] / pl_["cpu"]),
             "x_mem": mem["rss_mb"] / gen["input_mb"]}
        rows.append(r)
        print(f"\n== {n:,} vessels, {r['crew_rows']:,} crew rows "
              f"(input {r['input_mb']:.0f} MiB in memory, {r['files_mb']:.1f} MiB Parquet); "
              f"Polars threads {tm['threads']}")
        print(f"  plain pass     wall {pl_['wall']:6.2f} s  cpu {pl_['cpu']:6.2f} s  "
              f"(fastest {tm['plain_min']:.2f} s)  peak RSS {r['plain_rss']:5.0f} MiB")
        print(f"  evaluation     wall {ev['wall']:6.2f} s  cpu {ev['cpu']:6.2f} s  "
              f"(fastest {tm['eval_min']:.2f} s)   read → ranked result frame")
        print("                 stages wall/cpu s: " + ", ".join(
            f"{k} {v:.2f}/{tm['stages_cpu'][k]:.2f}" for k, v in tm["stages"].items()))
        print(f"  write          wall {wr['wall']:6.2f} s  cpu {wr['cpu']:6.2f} s  "
              f"Parquet, {a.compression}")
        print(f"  whole command  wall {wh['wall']:6.2f} s  cpu {wh['cpu']:6.2f} s  "
              f"{r['rows_s'] / 1e6:6.2f} M crew rows/s  peak RSS {r['rss']:5.0f} MiB")
        print(f"                 {tm['exact_vessels']:,} vessels with unusual crew rows "
              f"counted exactly ({tm['passes']} crew pass(es)); {tm['engine_vessels']:,} "
              f"vessels left to the engine; verdicts {tm['verdicts']}")
        cold = mem["eval"]
        print(f"  cold run       wall {cold['wall']:6.2f} s  cpu {cold['cpu']:6.2f} s  "
              f"(evaluation in a fresh process: {mem['passes']} crew pass(es), "
              f"{mem['exact_vessels']:,} vessels counted exactly) → "
              f"{cold['wall'] / pl_['wall']:.2f}× / {cold['cpu'] / pl_['cpu']:.2f}× the plain "
              "pass")
        print(f"  engine loop    {r['loop_ms']:.3f} ms/vessel → {r['loop_total']:,.0f} s for "
              f"the fleet (extrapolated from {min(a.sample, n):,} vessels)")
        print(f"  ratios         engine loop / whole {r['x_loop']:,.0f}×   "
              f"evaluation / plain {r['x_ev'][0]:.2f}× wall, {r['x_ev'][1]:.2f}× cpu   "
              f"whole / plain {r['x_wh'][0]:.2f}× wall, {r['x_wh'][1]:.2f}× cpu   "
              f"peak RSS / input {r['x_mem']:.2f}×")
    print("\nvessels      eval wall/cpu  whole wall/cpu  rows/s (M)  RSS MiB  ×loop  "
          "×plain eval w/c  ×plain whole w/c  ×mem")
    for r in rows:
        print(f"{r['n']:>9,}  {r['ev']['wall']:6.2f}/{r['ev']['cpu']:5.2f}  "
              f"{r['wh']['wall']:7.2f}/{r['wh']['cpu']:5.2f}  {r['rows_s'] / 1e6:10.2f}  "
              f"{r['rss']:7.0f}  {r['x_loop']:5.0f}  {r['x_ev'][0]:6.2f}/{r['x_ev'][1]:5.2f}  "
              f"{r['x_wh'][0]:8.2f}/{r['x_wh'][1]:5.2f}  {r['x_mem']:5.2f}")
    if len(rows) > 1:
        a0, a1 = rows[0], rows[-1]
        growth = (a1["wh"]["wall"] / a0["wh"]["wall"]) / (a1["n"] / a0["n"])
        print(f"time per vessel, largest / smallest size: {growth:.2f} (1.0 = linear)")
    print(f"benchmark total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()

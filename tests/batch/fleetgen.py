"""A varied synthetic fleet for the equivalence test: vessel cases in the single-vessel input
format (dicts for ``parse_vessel_case``) and the same fleet written as the screening tables.

The tables are written here, independently of ``abordo.batch`` (which only reads them).
Every regime family, the boundaries of every day threshold, absences of 14/15/16 days,
empty groups, dual nationals, explicit department/level/position overrides, ranks the table
does not know and spellings the fast pass has not seen are all produced.
"""

from __future__ import annotations

import csv
import datetime as dt
import itertools
import random
from pathlib import Path
from typing import Any

import polars as pl

# (rank, department, level, position) — None = not given in the row.
Kind = tuple[str | None, str | None, str | None, str | None]
COMMON: list[Kind] = [
    ("Master", None, None, None), ("Chief Officer", None, None, None),
    ("2nd Officer", None, None, None), ("DPO", None, None, None), ("Bosun", None, None, None),
    ("AB", None, None, None), ("AB", None, None, None), ("OS", None, None, None),
    ("Deck Cadet", None, None, None), ("Chief Engineer", None, None, None),
    ("2nd Engineer", None, None, None), ("ETO", None, None, None),
    ("Fitter", None, None, None), ("Oiler", None, None, None), ("Oiler", None, None, None),
    ("Wiper", None, None, None), ("Cook", None, None, None), ("Chief Cook", None, None, None),
    ("Steward", None, None, None), ("Nurse", None, None, None),
    ("Ship's Doctor", None, None, None), ("Comandante", None, None, None),
    ("Imediato", None, None, None), ("2ON", None, None, None), ("MNC", None, None, None),
    ("CMA", None, None, None), ("OSM", None, None, None), ("Chefe de Máquinas", None, None, None),
    ("MASTER", None, None, None), ("able seaman", None, None, None),
]
RARE: list[Kind] = [
    ("ROV Technician", "non_crew_professional", None, None),
    ("Driller", "non_crew_professional", None, None),
    ("Deckhand", "deck", "rating", None),                 # unsplit rating level
    ("Motorman", "engine", "rating", None),
    ("Cook", "deck", None, None),                          # department override
    ("AB", None, "officer", None),                         # level override
    ("Electrician", None, None, "chief_engineer"),         # explicit position
    ("Master", "engine", None, None),                      # department overridden: still master
    (None, "catering", None, None),                        # no rank, department given
    ("2nd officer", None, None, None),                     # spelling not seen before
    ("Segundo Oficial de Náutica", None, None, None),
    ("  Bosun ", None, None, None),
]
UNKNOWN: list[Kind] = [("Surveyor", None, None, None), (None, None, None, None),
           ("Deck Boy", "deck", None, None)]              # deck with no level
NATS_COMMON = ["BR", "BR", "BR", "PH", "PH", "NO", "IN", "GR", "UA"]
NATS_RARE = ["PT/BR", "BR/PT", "bra", "Brazil", "br", "GB", "NO/IN"]
FOREIGN = ["NO", "LR", "PA", "MH", "SG", "BS", "IT", "AG", "MT", "CY"]
ACTIVITIES = ["offshore_support", "exploration", "platform", "cabotage", "port_support",
              "inland_national", "inland_international", "regasification", "cruise", "fishing",
              "long_haul"]
CONTRACTS = ["charter", "charter", "charter", "services", "risk", "lease", "lease", "none"]
THRESHOLDS = [0, 15, 30, 90, 180, 360, 720]


def _d(x: dt.date) -> str:
    return x.isoformat()


def gen_case(rng: random.Random, on: dt.date, n: int) -> dict[str, Any]:
    """One vessel case (input format of ``parse_vessel_case``)."""
    br = rng.random() < 0.12
    flag = "BR" if br else rng.choice(FOREIGN)
    registry = rng.choices(["ordinary", "REB", None], [60, 35, 5])[0] if br else None
    activity = rng.choice(ACTIVITIES)
    if rng.random() < 0.15:  # more fishing / cruise: their own regimes
        activity = rng.choice(["fishing", "cruise"])
    contract = rng.choice(CONTRACTS)
    if activity == "fishing" and rng.random() < 0.6:
        contract = "lease"
    operation: dict[str, Any] = {"contract": contract}
    # Entry: boundaries of every threshold (plus or minus one day), or anywhere.
    r = rng.random()
    if r < 0.05:
        entry = None
    elif r < 0.6:
        entry = on - dt.timedelta(days=rng.choice(THRESHOLDS) + rng.choice([-1, 0, 1]))
    else:
        entry = on - dt.timedelta(days=rng.randint(-60, 1200))
    periods: list[dict[str, Any]] = []
    if entry is not None:
        start = entry
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])):
            stay = rng.choice([1, 10, 40, 100, 200]) + rng.randint(0, 30)
            gap = rng.choice([1, 5, 14, 15, 16, 14, 15, 16, 30])
            out_first = start + dt.timedelta(days=stay)
            periods.append({"entry": start, "exit": out_first - dt.timedelta(days=1)})
            start = out_first + dt.timedelta(days=gap)
        exit_ = None
        if rng.random() < 0.12:
            exit_ = start + dt.timedelta(days=rng.randint(0, 150))
        periods.append({"entry": start, "exit": exit_})
    operation["ajb_presence"] = periods
    if entry is not None and rng.random() < 0.1:
        ext = []
        for _ in range(rng.choice([1, 1, 2])):
            day = rng.choice([30, 90, 180, 360, 720, 0, 45])
            ext.append({"step_from_day": day,  # around the natural date of that step
                        "applies_from": entry + dt.timedelta(days=day + rng.randint(-20, 200))})
        operation["extensions"] = ext
    if activity in ("long_haul", "inland_international"):
        calls = rng.choice([None, True, False])
        if calls is not None:
            operation["foreign_calls"] = calls
    # Crew.
    size = rng.choices([0, rng.randint(1, 6), rng.randint(7, 25), rng.randint(26, 70)],
                       [3, 20, 67, 10])[0]
    rare = rng.random() < 0.15
    unknown = rng.random() < 0.03
    dual = rng.random() < 0.15
    br_share = rng.random()
    crew = []
    for i in range(size):
        rank, dept, level, pos = rng.choice(COMMON)
        if rare and rng.random() < 0.3:
            rank, dept, level, pos = rng.choice(RARE)
        if unknown and rng.random() < 0.2:
            rank, dept, level, pos = rng.choice(UNKNOWN)
        nat = "BR" if rng.random() < br_share else rng.choice(NATS_COMMON)
        if dual and rng.random() < 0.3:
            nat = rng.choice(NATS_RARE)
        p: dict[str, Any] = {"id": f"C{i + 1}", "nationality": nat}
        for k, val in (("rank", rank), ("department", dept), ("level", level),
                       ("position", pos)):
            if val is not None:
                p[k] = val
        crew.append(p)
    vessel: dict[str, Any] = {"name": f"Navio {n}", "flag": flag, "activity": activity}
    if registry:
        vessel["registry"] = registry
    return {"vessel": vessel, "operation": operation, "crew": crew}


def gen_fleet(seed: int, on: dt.date, size: int) -> dict[str, dict[str, Any]]:
    rng = random.Random(seed)
    return {f"V{seed}-{n:05d}": gen_case(rng, on, n) for n in range(size)}


def vessel_row(vid: str, case: dict[str, Any]) -> dict[str, Any]:
    """The screening row of a case: entry of the first period, exit of the last, and the
    days fully outside between periods as absences."""
    v, op = case["vessel"], case["operation"]
    periods = op.get("ajb_presence", [])
    absences = [f"{_d(a['exit'] + dt.timedelta(days=1))}/{_d(b['entry'] - dt.timedelta(days=1))}"
                for a, b in itertools.pairwise(periods)]
    return {
        "id": vid, "name": v.get("name"), "imo": None, "flag": v["flag"],
        "registry": v.get("registry"), "activity": v["activity"],
        "contract": op.get("contract", "none"),
        "ajb_entry": periods[0]["entry"] if periods else None,
        "ajb_exit": periods[-1]["exit"] if periods else None,
        "absences": ";".join(absences) or None,
        "extensions": ";".join(f"{e['step_from_day']}:{_d(e['applies_from'])}"
                               for e in op.get("extensions", [])) or None,
        "foreign_calls": op.get("foreign_calls"),
    }


CREW_COLS = ("vessel_id", "id", "rank", "nationality", "department", "level", "position")


def write_tables(fleet: dict[str, dict[str, Any]], folder: Path, fmt: str) -> None:
    """``vessels.<fmt>`` and ``crew.<fmt>`` (csv or parquet) for the fleet."""
    folder.mkdir(parents=True, exist_ok=True)
    vrows = [vessel_row(vid, c) for vid, c in fleet.items()]
    crows = [{"vessel_id": vid, **{k: p.get(k) for k in CREW_COLS[1:]}}
             for vid, c in fleet.items() for p in c["crew"]]
    if fmt == "csv":
        for name, rows, cols in (("vessels", vrows, list(vrows[0])), ("crew", crows, CREW_COLS)):
            with (folder / f"{name}.csv").open("w", newline="", encoding="utf-8") as fh:
                w = csv.DictWriter(fh, fieldnames=cols)
                w.writeheader()
                for r in rows:
                    w.writerow({k: ("" if r[k] is None else
                                    str(r[k]).lower() if isinstance(r[k], bool) else r[k])
                                for k in cols})
    else:
        pl.DataFrame(vrows, schema={
            "id": pl.String, "name": pl.String, "imo": pl.String, "flag": pl.String,
            "registry": pl.String, "activity": pl.String, "contract": pl.String,
            "ajb_entry": pl.Date, "ajb_exit": pl.Date, "absences": pl.String,
            "extensions": pl.String, "foreign_calls": pl.Boolean,
        }).write_parquet(folder / "vessels.parquet")
        pl.DataFrame(crows, schema=dict.fromkeys(CREW_COLS, pl.String)).with_columns(
            pl.col("rank").cast(pl.Categorical), pl.col("nationality").cast(pl.Categorical),
        ).write_parquet(folder / "crew.parquet")

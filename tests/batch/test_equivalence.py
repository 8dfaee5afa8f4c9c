"""The columnar screening and the single-vessel engine decide every vessel the same way.

A generated fleet of more than 10,000 vessels (every regime family, every threshold's
boundaries, absences of 14/15/16 days, extensions, empty groups, dual nationals, explicit
overrides, unknown ranks) is screened, and each row is compared with what
``abordo.quota.evaluate`` (and ``abordo.quota.plan`` for the horizon) decides for that vessel.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tests.batch.fleetgen import gen_fleet, write_tables

from abordo.batch import screen
from abordo.batch.evaluate import ENGINE_WARNING_IDS, WARNING_IDS
from abordo.crew.load import parse_vessel_case
from abordo.law.errors import InputError
from abordo.quota import evaluate, plan

HORIZON = 400

# (seed, date judged, vessels, table format, options)
RUNS = [
    (1, dt.date(2026, 4, 1), 3000, "csv", {}),                      # Res. 42/2020 era
    (2, dt.date(2012, 5, 1), 2400, "parquet", {}),                  # RN 72/2006, RN 71
    (3, dt.date(2008, 6, 1), 2000, "csv", {}),                      # RN 59/2004 fishing
    (4, dt.date(2017, 6, 1), 1200, "parquet", {}),                  # unconfirmed boundaries
    (5, dt.date(2019, 5, 1), 600, "parquet", {}),                   # not-covered window
    (6, dt.date(2026, 4, 1), 1500, "csv", {                         # other readings
        "quota.groups": "department_or_level", "quota.days": "days_outside_paused",
        "quota.rounding": "half_up"}),
    # Stays that began before the regime in force: steps bind from the regime's start.
    (7, dt.date(2020, 11, 1), 1200, "csv", {}),                     # Res. 42 since 2020-10-14;
    # (exits made under RN 72/2006, judged by it)
    (8, dt.date(2007, 9, 1), 800, "parquet", {}),                   # RN 72 since 2006-10-10
    (9, dt.date(2005, 6, 1), 600, "csv", {}),                       # before RN 72 and IN SIT 70
]


def _frac(f: Any) -> str | None:
    return None if f is None else f"{f.numerator}/{f.denominator}"


def expected(case: dict[str, Any], on: dt.date, options: dict[str, Any]) -> dict[str, Any]:
    """What the engine says, in the screening's vocabulary (read straight from the result)."""
    c = parse_vessel_case(case)
    # The screening reads the crew from a table: each person is a file's row (no crew[i]
    # path), and the engine words its errors so ("informe a coluna department").
    c = c.model_copy(update={"crew_origin": tuple((None, None, "") for _ in c.crew_list)})
    try:
        d = evaluate(c, on, options)
    except InputError as exc:
        # the result file keeps the message without the values it names
        return {"verdict": "input_error", "error": InputError(
            exc.message, quoted=exc.quoted, plain=exc.plain).render(values=False)}
    r = d.result
    stay = r.get("stay") or {}
    step = r.get("step")
    nxt = r.get("next_step")
    out: dict[str, Any] = {
        "verdict": d.verdict.value, "regime": d.regime, "regime_label": r.get("regime_label"),
        "days_of_operation": stay.get("days_of_operation"), "stay_start": stay.get("start"),
        "in_ajb": stay.get("in_ajb"),
        "step_fraction": _frac(step["fraction"]) if step else None,
        "step_from_day": step["from_day"] if step else None,
        "step_since": step["since"] if step else None,
        "step_extended": step["extended"] if step else None,
        "next_fraction": _frac(nxt["fraction"]) if nxt else None,
        "next_from_day": nxt["from_day"] if nxt else None,
        "next_since": nxt["since"] if nxt else None,
        # the legal basis of each step, as the engine cites it on the date judged
        "citation": step["citation"].label if step else None,
        "next_citation": nxt["citation"].label if nxt else None,
        "total_deficit": r.get("total_deficit"),
        "findings": set(f.id for f in d.violations),
        "warnings": {f.id for f in d.findings if f.severity == "warning"
                     and f.id in (*WARNING_IDS, *ENGINE_WARNING_IDS)}
        | ({"no_crew"} if r["vessel"]["crew_size"] == 0 else set()),
        "unconfirmed": bool(d.unconfirmed),
        "crew_size": r["vessel"]["crew_size"],
        "groups": {g["group"]: (g["base"], g["required"], g["brazilians"], g["deficit"])
                   for g in r.get("groups", [])},
        "next_groups": {g["group"]: g["required"] for g in (nxt or {}).get("groups", [])},
        "alt": (r.get("alternative") or {}).get("changes_verdict") if step else None,
        # the persons counted in each group the decision names (current or next step)
        "group_counts": {g["group"]: (g["base"], g["brazilians"])
                         for g in [*(nxt or {}).get("groups", []), *r.get("groups", [])]},
        # the readings it rests on, once a rule is selected
        "interpretations": "; ".join(i.id for i in d.interpretations)
        if "rule.select" in {t.rule for t in d.trace} else None,
        # the options it does not rest on, each told by the engine
        "options_not_applied": {f"{f.subject}={options[f.subject]}" for f in d.findings
                                if f.id == "option_not_applicable"},
    }
    try:
        p = plan(c, on, options)
    except InputError:
        out["horizon"] = None
    else:
        if "plan" in p.result:
            end = on + dt.timedelta(days=HORIZON)
            steps = [s for s in p.result["plan"] if s["status"] == "future" and s["since"] <= end]
            out["horizon"] = (len(steps), min((s["since"] for s in steps), default=None),
                              max((s["total_deficit"] for s in steps), default=None))
        else:
            out["horizon"] = None
    return out


def got(row: dict[str, Any], groups: tuple[str, ...]) -> dict[str, Any]:
    if row["verdict"] == "input_error":
        return {"verdict": "input_error", "error": row["error"]}
    return {
        **{k: row[k] for k in ("verdict", "regime", "regime_label", "days_of_operation",
                               "stay_start", "in_ajb",
                               "step_fraction", "step_from_day", "step_since", "step_extended",
                               "next_fraction", "next_from_day", "next_since", "citation",
                               "next_citation", "total_deficit",
                               "unconfirmed", "crew_size")},
        "findings": set((row["findings"] or "").split(";")) - {""},
        "warnings": set((row["warnings"] or "").split(";")) - {""},
        "groups": {g: (row[f"{g}_base"], row[f"{g}_required"], row[f"{g}_brazilians"],
                       row[f"{g}_deficit"]) for g in groups if row[f"{g}_required"] is not None},
        "next_groups": {g: row[f"{g}_next_required"] for g in groups
                        if row[f"{g}_next_required"] is not None},
        "alt": row["alt_reading_changes_verdict"],
        "group_counts": {g: (row[f"{g}_base"], row[f"{g}_brazilians"]) for g in groups
                         if row[f"{g}_base"] is not None},
        "interpretations": row["interpretations"],
        "options_not_applied": set((row["options_not_applied"] or "").split(";")) - {""},
        "horizon": None if row["horizon_steps"] is None else (
            row["horizon_steps"], row["horizon_first_since"], row["horizon_max_deficit"]),
    }


# The crew pass's other route: every row's explicit values looked up in the fast pass (a crew
# list writing every person's department), instead of leaving those rows to the second pass.
EXPLICIT_TABLE = [(10, dt.date(2026, 4, 1), 1500, "parquet", {}),
                  (11, dt.date(2012, 5, 1), 1000, "csv", {"quota.groups": "department_or_level"})]


@pytest.mark.parametrize(("seed", "on", "size", "fmt", "options", "few_explicit"),
                         [(*r, None) for r in RUNS] + [(*r, 0) for r in EXPLICIT_TABLE],
                         ids=[f"{r[1]}-{r[3]}{'-options' if r[4] else ''}" for r in RUNS]
                         + [f"{r[1]}-{r[3]}-explicit-table" for r in EXPLICIT_TABLE])
def test_every_row_equals_the_engine(tmp_path: Path, seed: int, on: dt.date, size: int,
                                     fmt: str, options: dict[str, Any],
                                     few_explicit: int | None,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if few_explicit is not None:
        monkeypatch.setattr("abordo.batch.crew.FEW_EXPLICIT", few_explicit)
    fleet = gen_fleet(seed, on, size)
    write_tables(fleet, tmp_path, fmt)
    res = screen(tmp_path, on, options, horizon=HORIZON, keep_going=True)
    rows = {r["id"]: r for r in res.frame.iter_rows(named=True)}
    assert len(rows) == size
    groups = res.rules.groups
    mismatches = []
    verdicts: Counter[str] = Counter()
    regimes: Counter[str | None] = Counter()
    warned: Counter[str] = Counter()
    for vid, case in fleet.items():
        exp = expected(case, on, options)
        row = rows[vid]
        g = got(row, groups)
        verdicts[exp["verdict"]] += 1
        regimes[exp.get("regime")] += 1
        warned.update(exp.get("warnings", ()))
        if exp["verdict"] == "input_error":
            ok = g["verdict"] == "input_error" and exp["error"] in (g["error"] or "")
        else:
            ok = g == exp
        if not ok:
            diff = {k: (exp.get(k), g.get(k)) for k in exp if exp.get(k) != g.get(k)}
            mismatches.append((vid, diff))
    assert not mismatches, f"{len(mismatches)} rows differ, e.g. {mismatches[:3]}"
    # The fleet really is varied: the fast and exact crew passes and the engine route all
    # ran, and the verdicts of the era are all present.
    assert res.exact_vessels > 0 and res.engine_vessels > 0
    assert len(verdicts) >= 4, verdicts
    if size >= 2000:  # every warning was met (and agreed on) in the larger runs
        assert set(WARNING_IDS) <= set(warned), warned
    del regimes


def test_fleet_covers_every_regime_and_boundary() -> None:
    """Across the runs, every regime version and every verdict appears."""
    seen_regimes: set[str | None] = set()
    seen_verdicts: set[str] = set()
    for seed, on, _size, _fmt, options in RUNS:
        for case in list(gen_fleet(seed, on, 600).values()):
            exp = expected(case, on, options)
            seen_regimes.add(exp.get("regime"))
            seen_verdicts.add(exp["verdict"])
    assert {"lei-9432-1997", "cnig-rn-72-2006", "cnig-rn-06-2017@res-42-2020",
            "cnig-rn-71-2006", "cnig-rn-59-2004", "cnig-rn-06-2017", "cnig-rn-05-2017",
            "cnig-rn-81-2008"} <= seen_regimes
    assert seen_verdicts >= {"compliant", "non_compliant", "not_applicable", "not_yet",
                             "not_covered", "input_error"}


def test_chunked_evaluation_gives_the_same_rows(tmp_path: Path) -> None:
    on = dt.date(2026, 4, 1)
    write_tables(gen_fleet(7, on, 1500), tmp_path, "parquet")
    whole = screen(tmp_path, on, horizon=HORIZON, keep_going=True).frame
    chunked = screen(tmp_path, on, horizon=HORIZON, keep_going=True, chunk=97).frame
    assert chunked.equals(whole)

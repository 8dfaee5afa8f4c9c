"""Vessels decided by the single-vessel engine itself (:func:`abordo.quota.evaluate`): the
rare rows the columnar path routes to it, because the engine rejects their input (and its
error message, naming the file, row and field, is the one to give).

Also :func:`decision_to_row`, the engine's decision in the columns of the screening result.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import polars as pl
from pydantic import ValidationError

from abordo.batch.crew import CrewSource, fetch_rows
from abordo.batch.evaluate import ENGINE_WARNING_IDS, WARNING_IDS
from abordo.batch.fleet import Fleet
from abordo.batch.tables import RuleSet
from abordo.crew.model import VesselCase
from abordo.law.decision import Decision, Verdict
from abordo.law.errors import InputError
from abordo.law.validation import input_error_from_pydantic
from abordo.quota import evaluate, plan

# Engine field paths → the vessels-table column that holds them.
VESSEL_FIELDS = {"vessel.registry": "registry", "operation.ajb_presence": "ajb_entry",
                 "vessel.flag": "flag", "vessel.activity": "activity",
                 "operation.contract": "contract"}


def _fmt_fraction(f: Any) -> str | None:
    return None if f is None else f"{f.numerator}/{f.denominator}"


def case_from_row(vrow: Mapping[str, Any], absences: list[tuple[dt.date, dt.date]],
                  extensions: list[tuple[int, dt.date]], crew: list[dict[str, Any]],
                  crew_display: str) -> VesselCase:
    """A :class:`VesselCase` from one vessels-table row, its absences and extensions and
    its crew rows (each with ``_row``); crew rows keep their file and row for errors."""
    periods: list[dict[str, Any]] = []
    entry = vrow["ajb_entry"]
    if entry is not None:
        start = entry
        for first, last in absences:
            periods.append({"entry": start, "exit": first - dt.timedelta(days=1)})
            start = last + dt.timedelta(days=1)
        periods.append({"entry": start, "exit": vrow["ajb_exit"]})
    persons = []
    origins = []
    for rec in crew:
        p = {k: (v.strip() if isinstance(v, str) else v) for k, v in rec.items()
             if k != "_row" and v is not None and str(v).strip() != ""}
        p.setdefault("id", f"L{rec['_row']}")
        persons.append(p)
        origins.append((crew_display, rec["_row"], ""))  # a crew-file row: fields by column
    data = {
        "vessel": {k: vrow[k] for k in ("name", "imo", "flag", "registry", "activity")},
        "operation": {"contract": vrow["contract"], "ajb_presence": periods,
                      "extensions": [{"step_from_day": d, "applies_from": a}
                                     for d, a in extensions],
                      "foreign_calls": vrow["foreign_calls"]},
        "crew": persons,
    }
    try:
        case = VesselCase.model_validate(data)
    except ValidationError as exc:
        # What the tables could not check (a crew list longer than a vessel case takes):
        # the engine's own error, a crew field at its row of the crew table.
        rows = [rec["_row"] for rec in crew]

        def row_of(loc: tuple[Any, ...]) -> int | None:
            i = loc[1] if len(loc) > 1 and loc[0] == "crew" else None
            return rows[i] if isinstance(i, int) and i < len(rows) else None

        raise input_error_from_pydantic(exc, row_of=row_of) from None
    return case.model_copy(update={"crew_origin": tuple(origins)})


def _reason(d: Decision) -> str | None:
    rules = {t.rule for t in d.trace}
    v = d.verdict
    if v == Verdict.NOT_COVERED:
        return "activity_not_listed" if "regime.activity_not_listed" in rules else "not_modelled"
    if "exempt.activity" in rules:
        return "long_haul_without_foreign_calls" if v == Verdict.NON_COMPLIANT \
            else "exempt_activity"
    if v == Verdict.NOT_APPLICABLE:
        for rule, reason in (("regime.contract", "no_contract"), ("stay.none", "not_in_ajb"),
                             ("stay.outside", "outside_ajb")):
            if rule in rules:
                return reason
    if v == Verdict.NOT_YET:
        return "no_step_yet"
    return None


def decision_to_row(d: Decision, rs: RuleSet, horizon: int | None,
                    planned: Decision | None = None) -> dict[str, Any]:
    """The engine's decision as the screening columns (vessel facts excluded)."""
    r = d.result
    row: dict[str, Any] = {"verdict": d.verdict.value, "regime": d.regime,
                           "regime_label": r.get("regime_label"), "reason": _reason(d)}
    ids = list(dict.fromkeys(f.id for f in d.violations))
    row["findings"] = ";".join(ids) or None
    row["crew_size"] = (r.get("vessel") or {}).get("crew_size")
    warned = {f.id for f in d.findings if f.severity == "warning"}
    if row["crew_size"] == 0:
        warned.add("no_crew")
    row["warnings"] = ";".join(w for w in (*WARNING_IDS, *ENGINE_WARNING_IDS)
                               if w in warned) or None
    stay = r.get("stay")
    if stay:
        row |= {"stay_start": stay["start"], "days_of_operation": stay["days_of_operation"],
                "in_ajb": stay["in_ajb"]}
    step = r.get("step")
    if step:
        row |= {"step_fraction": _fmt_fraction(step["fraction"]),
                "step_from_day": step["from_day"], "step_since": step["since"],
                "step_extended": step["extended"], "citation": step["citation"].label}
    nxt = r.get("next_step")
    groups = {g["group"]: g for g in r.get("groups", [])}
    next_groups = {g["group"]: g for g in (nxt or {}).get("groups", [])}
    for gid, g in (next_groups | groups).items():
        row[f"{gid}_base"] = g["base"]
        row[f"{gid}_brazilians"] = g["brazilians"]
    for gid, g in groups.items():
        row[f"{gid}_required"] = g["required"]
        row[f"{gid}_deficit"] = g["deficit"]
    if groups:
        row["total_required"] = sum(g["required"] for g in groups.values())
        row["total_deficit"] = sum(g["deficit"] for g in groups.values())
    if nxt:
        for gid, g in next_groups.items():
            row[f"{gid}_next_required"] = g["required"]
        row |= {"next_fraction": _fmt_fraction(nxt["fraction"]),
                "next_from_day": nxt["from_day"], "next_since": nxt["since"],
                "next_extended": nxt["extended"], "next_citation": nxt["citation"].label,
                "days_to_next": (nxt["since"] - d.on).days if d.on else None,
                "next_required_total": sum(g["required"] for g in next_groups.values()),
                "next_deficit_total": sum(g["deficit"] for g in next_groups.values())}
    alt = r.get("alternative")
    if alt and groups:
        row["alt_reading_changes_verdict"] = alt["changes_verdict"]
    row["unconfirmed"] = bool(d.unconfirmed)
    if "rule.select" in {t.rule for t in d.trace}:
        row["interpretations"] = "; ".join(i.id for i in d.interpretations)
    if horizon is not None and planned is not None and d.on is not None:
        end = d.on + dt.timedelta(days=horizon)
        steps = [p for p in planned.result.get("plan", [])
                 if p["status"] == "future" and p["since"] <= end]
        row["horizon_steps"] = len(steps) if "plan" in planned.result else None
        if steps:
            worst = max(p["total_deficit"] for p in steps)
            row |= {"horizon_first_since": min(p["since"] for p in steps),
                    "horizon_max_deficit": worst,
                    "horizon_max_deficit_since": min(p["since"] for p in steps
                                                     if p["total_deficit"] == worst),
                    "horizon_plan": "; ".join(
                        f"{p['since'].isoformat()} {_fmt_fraction(p['fraction'])} "
                        f"(exigidos {p['total_required']}, déficit {p['total_deficit']})"
                        for p in steps)}
    refused = {f.subject for f in d.findings if f.id == "option_not_applicable"}
    row["options_not_applied"] = ";".join(
        f"{family}={value}" for family, value, _ in rs.options if family in refused) or None
    return row


def relocate(err: InputError, fleet: Fleet, vrow: Mapping[str, Any]) -> InputError:
    """An engine error in the fleet's own terms: vessel fields → the vessels table row and
    column; crew fields keep their file and row, named by column."""
    if fleet.cases is not None:
        return err
    fld = err.field or ""
    if fld in VESSEL_FIELDS:
        return replace(err, field=fleet.column_label(VESSEL_FIELDS[fld]), file=fleet.display,
                       row=int(vrow["_row"]))
    if fld.startswith("options."):
        return replace(err, field=f"--option {fld.removeprefix('options.')}", file=None,
                       row=None)
    if fld.startswith("crew."):
        err = replace(err, field=fld.removeprefix("crew."))
    return fleet.crew.in_own_terms(err)


def decide_with_engine(fleet: Fleet, routed: pl.DataFrame, rs: RuleSet,
                       options: Mapping[str, Any] | None, horizon: int | None,
                       keep_going: bool, lang: str = "pt") -> list[dict[str, Any]]:
    """Run the engine on the routed vessels, in vessels-table order.

    Raises the first :class:`InputError` unless ``keep_going``; then the vessel gets
    verdict ``input_error`` and the message (with file, row, field) in ``error``.
    """
    if routed.height == 0:
        return []
    routed = routed.sort("_row")
    vidx = routed["_vidx"]
    vrows = {r["_vidx"]: r for r in fleet.vessels.filter(pl.col("_vidx").is_in(
        vidx.implode())).iter_rows(named=True)}
    crew: dict[Any, list[dict[str, Any]]] = {}
    if fleet.cases is None:
        crew = fetch_rows(fleet.crew, [vrows[i]["id"] for i in vidx.to_list()])
    absences = _by_vessel(fleet.absences, vidx, ("a_first", "a_last"))
    # A step given several extensions: the last one, as often as given (the engine then
    # warns of the repetition, with the date that applies).
    extensions = _by_vessel(fleet.extensions.select(
        pl.exclude("given").repeat_by("given").explode()), vidx, ("from_day", "applies_from"))
    out = []
    for i in vidx.to_list():
        vrow = vrows[i]
        row: dict[str, Any] = {"_vidx": i}
        try:
            if fleet.cases is not None:
                case = fleet.cases[vrow["id"]]
            else:
                case = case_from_row(vrow, absences.get(i, []), extensions.get(i, []),
                                     crew.get(vrow["id"], []), _crew_display(fleet.crew))
            d = evaluate(case, rs.on, options)
            planned = None
            if horizon is not None:
                try:
                    planned = plan(case, rs.on, options)
                except InputError:
                    planned = None
            row |= decision_to_row(d, rs, horizon, planned)
        except InputError as exc:
            err = relocate(exc, fleet, vrow)
            if not keep_going:
                raise err from None
            row |= {"verdict": "input_error", "error": err.render(lang, values=False),
                    "crew_size": len(crew.get(vrow["id"], [])) if crew else None}
        out.append(row)
    return out


def _crew_display(src: CrewSource) -> str:
    return src.display


def _by_vessel(df: pl.DataFrame, vidx: pl.Series, cols: tuple[str, str]
               ) -> dict[int, list[tuple[Any, Any]]]:
    out: dict[int, list[tuple[Any, Any]]] = {}
    for rec in df.filter(pl.col("_vidx").is_in(vidx.implode())).iter_rows(named=True):
        out.setdefault(rec["_vidx"], []).append((rec[cols[0]], rec[cols[1]]))
    return out

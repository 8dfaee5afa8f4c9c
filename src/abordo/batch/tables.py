"""The quota regimes in force on the date judged, as one small Polars frame (the *rule frame*).

Every figure comes from :func:`abordo.quota.regimes.regime_tables` (``quota/data/regimes.yaml``)
and every choice of family from :func:`abordo.quota.regimes.family_for`: this module only
lays them out in columns, one row per combination of the vessel facts that select a rule —
``(is_br, registry, activity, contract)`` — so that a fleet is evaluated with one join.

Cells
-----
The crew of a vessel is reduced to counts per *cell* (department × level), each split into
persons and Brazilians. Every group of every regime is a sum of cells
(:func:`group_cells`), following the same membership as :func:`abordo.quota.rules.assign`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from abordo.crew.model import Activity, Contract
from abordo.law.interpretations import interpretation, resolve, variant_id
from abordo.law.norms import norm_registry
from abordo.quota.regimes import (
    boundary_norms,
    exemption_uncited,
    extension_basis,
    family_for,
    regime_tables,
    step_citation,
)
from abordo.quota.rules import group_ids

PKG = "abordo.quota"
EPOCH = dt.date(1970, 1, 1)  # dates as day numbers (Polars' Date), here and in the evaluation

# --- cells: department × level -------------------------------------------------------------
# Common cells first (the fast crew pass packs only these), then the rare ones.
CELLS: tuple[str, ...] = (
    "deck.officer", "deck.petty_officer", "deck.junior_rating",
    "engine.officer", "engine.petty_officer", "engine.junior_rating",
    "other_crew",            # catering, health, non_seafarer_crew
    "non_crew",              # non_crew_professional (aboard, not crew)
    "deck.rating", "engine.rating",        # level given as plain "rating" (not split)
    "deck.no_level", "engine.no_level",    # deck/engine with no level known
    "unknown",               # department unknown (rank not in the table, none given)
)
COMMON_CELLS = 8
CELL_INDEX = {c: i for i, c in enumerate(CELLS)}
DEPARTMENTS = ("deck", "engine", "catering", "health", "non_crew_professional",
               "non_seafarer_crew")
LEVELS = ("officer", "petty_officer", "junior_rating", "rating")
POSITIONS = ("master", "chief_engineer")


def cell_of(department: str | None, level: str | None) -> str:
    """The cell of a person with this (resolved) department and level."""
    if department is None:
        return "unknown"
    if department in ("deck", "engine"):
        if level is None:
            return f"{department}.no_level"
        return f"{department}.{level}"
    if department == "non_crew_professional":
        return "non_crew"
    return "other_crew"


def _dept_cells(dept: str, level: str) -> list[str]:
    if level == "rating":  # two-level reading: every non-officer level (rules.level_of)
        return [f"{dept}.petty_officer", f"{dept}.junior_rating", f"{dept}.rating"]
    return [f"{dept}.{level}"]


def group_cells(gid: str) -> list[str]:
    """Cells summed into group ``gid`` (ids of :func:`abordo.quota.rules.group_ids`).

    ``crew`` = everyone but non-crew professionals (a person of unknown department is crew,
    as :attr:`CrewMember.is_crew` says); ``all`` = everyone; ``rest`` = everyone outside deck
    and engine. Cells with an unknown department or level never enter a department/level
    group: the engine rejects such a crew (:meth:`CrewMember.require`).
    """
    if gid == "all":
        return list(CELLS)
    if gid == "crew":
        return [c for c in CELLS if c != "non_crew"]
    if gid == "rest":
        return ["other_crew", "non_crew"]
    if gid in ("deck", "engine"):
        return [f"{gid}.{lv}" for lv in LEVELS]
    if gid in LEVELS:
        return [c for d in ("deck", "engine") for c in _dept_cells(d, gid)]
    dept, _, level = gid.partition(".")
    return _dept_cells(dept, level)


# --- the rule frame --------------------------------------------------------------------------
STATUS_EXEMPT = "exempt"
STATUS_ENGINE = "engine"            # the engine rejects the input (routed to it for the error)
STATUS_NOT_COVERED = "not_covered"
STATUS_NOT_LISTED = "activity_not_listed"
STATUS_POSITIONS = "positions_only"
STATUS_NO_CONTRACT = "no_contract"
STATUS_RULE = "rule"

KIND_CREW, KIND_ALL, KIND_DBL = "crew", "all", "department_by_level"
# Option families a rule's own text may fix (the engine then refuses the caller's choice,
# even of the same variant): family → the rule-frame column true where it does.
NORM_FIXED = {"quota.rounding": "rounding_fixed"}


@dataclass(frozen=True)
class RuleSet:
    """The rule frame for one date and one set of options, and the shape it implies."""

    on: dt.date
    frame: pl.DataFrame
    max_steps: int
    groups: tuple[str, ...]          # every group id a row may carry, in a fixed order
    alt_groups: tuple[str, ...]      # the same under the alternative group reading
    reading: str
    alt_reading: str
    interpretations: tuple[str, ...]  # every interpretation id the frame may rely on
    # The caller's options as (family, value, id of that variant), in the order given.
    options: tuple[tuple[str, str, str], ...] = ()


REGISTRIES: tuple[str | None, ...] = (None, "ordinary", "REB")
ACTIVITIES = tuple(a.value for a in Activity)
CONTRACTS = tuple(c.value for c in Contract)


def rule_key(is_br: bool, registry: str | None, activity: str, contract: str) -> int:
    """Row of the rule frame for these vessel facts."""
    return ((int(is_br) * len(REGISTRIES) + REGISTRIES.index(registry)) * len(ACTIVITIES)
            + ACTIVITIES.index(activity)) * len(CONTRACTS) + CONTRACTS.index(contract)


def rule_key_expr() -> pl.Expr:
    """:func:`rule_key` over the columns ``_is_br``, ``registry``, ``activity``,
    ``contract`` (values already checked)."""
    reg = pl.col("registry").cast(pl.Enum([r for r in REGISTRIES if r])).to_physical() \
        .cast(pl.Int32).add(1).fill_null(0)
    act = pl.col("activity").cast(pl.Enum(ACTIVITIES)).to_physical().cast(pl.Int32)
    con = pl.col("contract").cast(pl.Enum(CONTRACTS)).to_physical().cast(pl.Int32)
    return (((pl.col("_is_br").cast(pl.Int32) * len(REGISTRIES) + reg) * len(ACTIVITIES)
             + act) * len(CONTRACTS) + con).cast(pl.UInt32)


def _fraction_str(num: int, den: int) -> str:
    return f"{num}/{den}"


#: Columns for the years of unconfirmed window ends (two per norm, one successor).
UB_CUR, UB_NX = 2, 4


def rule_set(on: dt.date, options: Mapping[str, Any] | None = None) -> RuleSet:
    """Lay out the regimes in force on ``on`` as a frame keyed by
    ``k_is_br, k_registry, k_activity, k_contract``.

    Columns: ``family``, ``status`` (see ``STATUS_*``), ``regime``, ``regime_label``,
    ``pos_master`` / ``pos_chief`` (positions checked), ``needs_stay``, ``tolerance`` (days or
    null = any exit interrupts), ``paused`` (days outside not counted), ``ext_ok`` (extensions
    honoured), ``kind`` (crew | all | department_by_level), ``levels``, ``rest``,
    ``half_up``, ``rounding_fixed`` (by the norm's text), ``unconfirmed``, ``interpretations``
    (the readings a judged vessel rests on), ``interp_stay`` (a vessel not yet in AJB: the
    days reading alone), ``strict_from`` / ``strict_to`` and ``interp_exit_strict`` (the
    window of an earlier norm without exit tolerance, and the readings of a stay whose exit,
    or absence under way, it judged), ``n_steps`` and per step ``k``: ``from_day_k``, ``p_k``,
    ``q_k`` (the fraction p/q), ``frac_k``, ``cite_k``; one boolean ``g:<group>`` per group
    id and ``a:<group>`` for the alternative reading.

    Raises :class:`~abordo.law.InputError` for an unknown option or variant.
    """
    opts = dict(options or {})
    tables = regime_tables()
    reg = norm_registry()
    reading = resolve(PKG, "quota.groups", opts).variant
    alt_reading = "department_or_level" if reading == "department_by_level" \
        else "department_by_level"
    rounding_opt = resolve(PKG, "quota.rounding", opts)
    days_opt = resolve(PKG, "quota.days", opts)
    rest_opt = resolve(PKG, "quota.groups.rest", opts)
    max_steps = max(len(r.steps) for regs in tables.families.values() for reg_ in regs
                    for r in reg_.rules)
    groups: list[str] = []
    alt_groups: list[str] = []
    for regs in tables.families.values():
        for regime in regs:
            for r in regime.rules:
                for g in group_ids(r.groups, r.levels, r.rest, reading):
                    if g not in groups:
                        groups.append(g)
                for g in group_ids(r.groups, r.levels, r.rest, alt_reading):
                    if g not in alt_groups:
                        alt_groups.append(g)

    rows: list[dict[str, Any]] = []
    used_interps: list[str] = []
    for is_br in (False, True):  # the order of rule_key(): row index = key
        for registry in REGISTRIES:
            for activity in Activity:
                for contract in Contract:
                    row = _rule_row(on, is_br, registry, activity.value, contract.value,
                                    reading, alt_reading, rounding_opt.variant,
                                    days_opt.variant, max_steps, groups, alt_groups, reg,
                                    opts)
                    for i in (row["interpretations"] or "").split("; "):
                        if i and i not in used_interps:
                            used_interps.append(i)
                    rows.append(row)
    del rest_opt
    schema: dict[str, Any] = {
        "k_is_br": pl.Boolean, "k_registry": pl.String, "k_activity": pl.String,
        "k_contract": pl.String, "family": pl.String, "status": pl.String,
        "regime": pl.String, "regime_label": pl.String, "pos_master": pl.Boolean,
        "pos_chief": pl.Boolean, "needs_stay": pl.Boolean, "tolerance": pl.Int32,
        "paused": pl.Boolean, "ext_ok": pl.Boolean, "ext_from": pl.Int32,
        "kind": pl.String, "levels": pl.Int8, "rest": pl.Boolean, "half_up": pl.Boolean,
        "rounding_fixed": pl.Boolean,
        "unconfirmed": pl.Boolean,
        "n_steps": pl.Int8, "interpretations": pl.String, "interp_stay": pl.String,
        "interp_exit_strict": pl.String, "strict_from": pl.Int32, "strict_to": pl.Int32,
        "borrow_before": pl.Int32, "borrow_under": pl.Int32,
        "regime_from": pl.Int32,
        "regime_to": pl.Int32,
        **{f"ub_cur{i}": pl.Int32 for i in range(UB_CUR)},
        **{f"ub_nx{i}": pl.Int32 for i in range(UB_NX)},
    }
    for k in range(max_steps):
        schema |= {f"from_day_{k}": pl.Int32, f"p_{k}": pl.Int64, f"q_{k}": pl.Int64,
                   f"frac_{k}": pl.String, f"cite_{k}": pl.String}
    for g in groups:
        schema[f"g:{g}"] = pl.Boolean
    for g in alt_groups:
        schema[f"a:{g}"] = pl.Boolean
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    # Texts repeated on every vessel of a rule travel as categoricals (no string copies).
    frame = frame.with_columns(pl.col(c).cast(pl.Categorical) for c, t in schema.items()
                               if t == pl.String and not c.startswith("k_"))
    chosen = tuple((family, str(value), variant_id(PKG, family, str(value)))
                   for family, value in opts.items())
    return RuleSet(on, frame, max_steps, tuple(groups), tuple(alt_groups), reading,
                   alt_reading, tuple(used_interps), chosen)


def _rule_row(on: dt.date, is_br: bool, registry: str | None, activity: str, contract: str,
              reading: str, alt_reading: str, rounding_variant: str, days_variant: str,
              max_steps: int, groups: list[str], alt_groups: list[str], reg: Any,
              opts: Mapping[str, Any]) -> dict[str, Any]:
    tables = regime_tables()
    row: dict[str, Any] = {
        "k_is_br": is_br, "k_registry": registry, "k_activity": activity,
        "k_contract": contract, "family": None, "status": None, "regime": None,
        "regime_label": None, "pos_master": False, "pos_chief": False, "needs_stay": False,
        "tolerance": None, "paused": False, "ext_ok": False, "ext_from": None,
        "kind": None, "levels": None,
        "rest": False, "half_up": False, "rounding_fixed": False, "unconfirmed": False,
        "n_steps": 0,
        "interpretations": None, "interp_stay": None, "interp_exit_strict": None,
        "strict_from": None, "strict_to": None, "borrow_before": None, "borrow_under": None,
        "regime_from": None, "regime_to": None,
        **{f"ub_cur{i}": None for i in range(UB_CUR)}, **{f"ub_nx{i}": None for i in range(UB_NX)},
    }
    for k in range(max_steps):
        row |= {f"from_day_{k}": None, f"p_{k}": None, f"q_{k}": None, f"frac_{k}": None,
                f"cite_{k}": None}
    row |= {f"g:{g}": False for g in groups}
    row |= {f"a:{g}": False for g in alt_groups}

    # Same order of questions as abordo.quota.engine._evaluate.
    if not is_br and activity in tables.exempt_activities and not exemption_uncited(on):
        row["status"] = STATUS_EXEMPT
        return row
    if is_br and registry is None:
        row["status"] = STATUS_ENGINE  # the engine asks for the registry
        return row
    family = family_for("BR" if is_br else "", registry, activity)
    row["family"] = family
    # As the engine: a window end marked unconfirmed in the year judged makes the result
    # rest on an unconfirmed parameter, whatever the verdict.
    row["unconfirmed"] = any(reg.unconfirmed_boundaries(r.version, on)
                             for r in tables.families[family])
    regime = tables.in_force(family, on)
    if regime is None or not regime.modelled:
        note = tables.note_on(family, on) if regime is None else None
        if note is not None and note.get("citation"):  # the norm cited, as the engine
            row["unconfirmed"] |= bool(reg.unconfirmed_boundaries(note["citation"]["norm"], on))
        row["status"] = STATUS_NOT_COVERED
        row["regime"] = regime.version if regime else None
        row["regime_label"] = reg[regime.version].label if regime else None  # as the engine
        return row
    row["regime"] = regime.version
    row["regime_label"] = reg[regime.version].label
    # A step binds from the regime's start at the earliest (``timeline.step_dates``).
    row["regime_from"] = (regime.valid_from - EPOCH).days
    # ... and a step after its known end is not its to require (``engine._next_beyond_regime``).
    row["regime_to"] = (regime.valid_to - EPOCH).days if regime.valid_to else None
    # The years of unconfirmed window ends a step's date may fall in (engine._apply_rule:
    # the step in force, the regime's; the next step, its successor's too).
    for prefix, n, with_successor in (("ub_cur", UB_CUR, False), ("ub_nx", UB_NX, True)):
        years = sorted({y for v in boundary_norms(regime, with_successor)
                        for y in reg.uncertain_years(v)})
        assert len(years) <= n, (regime.version, years)
        row |= {f"{prefix}{i}": y for i, y in enumerate(years)}
    row["pos_master"] = "master" in regime.positions
    row["pos_chief"] = "chief_engineer" in regime.positions
    rule = regime.rule_for(activity)
    if rule is None:
        row["status"] = STATUS_NOT_LISTED if regime.rules else STATUS_POSITIONS
        return row
    if regime.contracts is not None and contract not in regime.contracts:
        row["status"] = STATUS_NO_CONTRACT
        return row
    row["status"] = STATUS_RULE
    row["unconfirmed"] = row["unconfirmed"] or not rule.confirmed
    interps: list[str] = []
    needs_stay = not (rule.steps[0].from_day == 0 and regime.family == "brazilian_flag")
    row["needs_stay"] = needs_stay
    strict_id = interpretation(PKG, "quota.days.strict", "any_exit_interrupts", "norm").id
    strict_exit = False
    if needs_stay:
        row["tolerance"] = regime.tolerance_days
        if regime.tolerance_days is None:
            days = strict_id
        else:
            days = resolve(PKG, "quota.days", opts).id
            row["paused"] = days_variant == "days_outside_paused"
        interps.append(days)
        # An exit made under an earlier norm is judged by it (timeline.stay_of, tolerance_on):
        # one made while a norm without tolerance was in force adds its strict reading.
        strict = [r for r in tables.families[family] if r is not regime and r.modelled
                  and r.tolerance_days is None and regime.tolerance_days is not None]
        assert len(strict) <= 1, [r.version for r in strict]
        if strict:
            strict_exit = True
            row["strict_from"] = (strict[0].valid_from - EPOCH).days
            row["strict_to"] = (strict[0].valid_to - EPOCH).days \
                if strict[0].valid_to else None
        # A norm without tolerance judges an exit made before it began by its own rule,
        # unconfirmed while the exit is shorter than the widest tolerance the family's norms
        # know (timeline.stay_of): such a vessel is decided by the engine.
        widest = [r.tolerance_days for r in tables.families[family]
                  if r.modelled and r.tolerance_days]
        if regime.tolerance_days is None and widest:
            row["borrow_before"] = (regime.valid_from - EPOCH).days
            row["borrow_under"] = max(widest)
        # A vessel not in AJB on the date is judged on its stay alone (engine: "not in AJB"
        # before any group, rounding or reading): only the days reading is its.
        row["interp_stay"] = days
    row["ext_ok"] = regime.extensions is not None
    # From when the norm that grounds extensions is in force: a step postponed from an
    # earlier date rests on an unconfirmed basis (timeline.step_dates).
    row["ext_from"] = (reg[extension_basis(regime)].in_force_from - EPOCH).days \
        if regime.extensions is not None else None
    if rule.rounding == "half_up":
        row["half_up"] = row["rounding_fixed"] = True
        interps.append(interpretation(PKG, "quota.rounding", "half_up", "norm").id)
    else:
        row["half_up"] = rounding_variant == "half_up"
        interps.append(resolve(PKG, "quota.rounding", opts).id)
    row["kind"] = rule.groups
    row["levels"] = rule.levels
    row["rest"] = rule.rest
    if rule.groups == KIND_DBL:
        interps.append(resolve(PKG, "quota.groups", opts).id)
        if rule.rest:
            interps.append(resolve(PKG, "quota.groups.rest", opts).id)
    for g in group_ids(rule.groups, rule.levels, rule.rest, reading):
        row[f"g:{g}"] = True
    if rule.groups == KIND_DBL:
        for g in group_ids(rule.groups, rule.levels, rule.rest, alt_reading):
            row[f"a:{g}"] = True
    row["n_steps"] = len(rule.steps)
    for k, s in enumerate(rule.steps):
        row[f"from_day_{k}"] = s.from_day
        row[f"p_{k}"] = s.fraction.numerator
        row[f"q_{k}"] = s.fraction.denominator
        row[f"frac_{k}"] = _fraction_str(s.fraction.numerator, s.fraction.denominator)
        row[f"cite_{k}"] = step_citation(on, regime, rule, s).label  # as the engine
    row["interpretations"] = "; ".join(interps)
    if strict_exit:  # the engine reads it right after the days reading
        row["interp_exit_strict"] = "; ".join([interps[0], strict_id, *interps[1:]])
    return row

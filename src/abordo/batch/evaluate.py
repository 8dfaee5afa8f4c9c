"""Columnar evaluation of a fleet: the crew-quota engine's decision procedure
(``abordo.quota.engine._evaluate``) written once over whole columns.

The figures (fractions, day thresholds, tolerance, which groups, rounding) come from the
rule frame (:mod:`abordo.batch.tables`, built from ``regime_tables()``), looked up per row by
rule key and by (key, step) (:class:`_Lookup`); the crew from the exact counts of
:mod:`abordo.batch.crew`. Rounding is exact integer arithmetic:
``ceil(p/q·n) = (p·n + q − 1) // q`` and ``floor(p/q·n + 1/2) = (2·p·n + q) // (2·q)``, both
written ``(P·n + A) // Q`` with the step's P, A, Q.

Written for speed (about 0.9 s of CPU per 10⁶ vessels): integer columns, no ``clip`` or
``sum_horizontal`` (several times slower than ``when``/``+`` here), the figures of the step
in force gathered once per vessel rather than per group, group membership as bits.

Rows this module cannot decide — the ones the engine rejects (BR flag without registry, no
AJB presence, unknown rank or level where a group needs it, an option the norm refuses) —
come out with ``_route`` true and are decided by the engine itself
(:mod:`abordo.batch.engine_rows`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from abordo.batch.crew import FIELD_BASE, FIELDS_PER_LANE, LANES, MAX_PACKED, PACKED_FIELDS
from abordo.batch.fleet import Fleet
from abordo.batch.tables import (
    EPOCH,
    KIND_DBL,
    NORM_FIXED,
    STATUS_ENGINE,
    STATUS_EXEMPT,
    STATUS_NO_CONTRACT,
    STATUS_NOT_COVERED,
    STATUS_NOT_LISTED,
    STATUS_POSITIONS,
    STATUS_RULE,
    UB_CUR,
    UB_NX,
    RuleSet,
    group_cells,
    rule_key_expr,
)
from abordo.quota.regimes import regime_tables

NEVER = -(10 ** 8)  # "since" of a step that needs no stay (Brazilian flag): always reached

# Reasons (column ``reason``) for verdicts that carry no numbers.
REASONS = {
    "exempt_activity": ("navegação de longo curso / interior internacional: sem cota",
                        "long-haul / international inland navigation: no quota"),
    "long_haul_without_foreign_calls": ("declarada de longo curso sem escalas estrangeiras",
                                        "declared long-haul with no foreign calls"),
    "not_modelled": ("a norma em vigor na data não está modelada",
                     "the norm in force on the date is not modelled"),
    "activity_not_listed": ("a norma em vigor não lista esta atividade",
                            "the norm in force does not list this activity"),
    "no_contract": ("sem contrato com empresa brasileira do tipo exigido",
                    "no contract with a Brazilian company of the required kind"),
    "not_in_ajb": ("ainda não está em AJB", "not yet in AJB"),
    "outside_ajb": ("fora das AJB na data", "outside AJB on the date"),
    "no_step_yet": ("nenhuma etapa atingida", "no step reached yet"),
}


VERDICTS = ("compliant", "non_compliant", "not_applicable", "not_yet", "not_covered",
            "input_error")
VERDICT_CODE = {v: pl.lit(i, pl.UInt8) for i, v in enumerate(VERDICTS)}
VERDICT_LABELS = pl.Series("verdict", VERDICTS, dtype=pl.String)
REASON_CODE = {r: pl.lit(i, pl.UInt8) for i, r in enumerate(REASONS)}
REASON_LABELS = pl.Series("reason", list(REASONS), dtype=pl.String)
# Violation ids by bits (long-haul 8, master 4, chief engineer 2, quota deficit 1), in the
# order the engine records them.
_FINDING_IDS = ("long_haul_without_foreign_calls", "master_not_brazilian",
                "chief_engineer_not_brazilian", "quota_deficit")
FINDINGS = pl.Series("findings", [
    ";".join(f for i, f in enumerate(_FINDING_IDS) if bits & (8 >> i)) or None
    for bits in range(16)], dtype=pl.String)
# Warnings by bits (no crew rows 4, no master 2, no chief engineer 1): the engine's
# ``*_not_identified`` warnings (a rule that wants them Brazilian, nobody in that position)
# and a vessel with no person in the crew table — data to complete, not a compliant crew.
WARNING_IDS = ("no_crew", "master_not_identified", "chief_engineer_not_identified")
# Warnings only the engine gives, on the vessels it decides: a listed person whose own
# entries show an exit from the country (a folder of case files: the crew table has no
# entries); extensions it cannot apply as given (see _extension_warned).
ENGINE_WARNING_IDS = ("not_in_country", "extension_repeated", "extension_not_applied",
                      "extension_overtaken")
WARNINGS = pl.Series("warnings", [
    ";".join(f for i, f in enumerate(WARNING_IDS) if bits & (4 >> i)) or None
    for bits in range(8)], dtype=pl.String)


def group_columns(gid: str) -> list[str]:

    return [f"{gid}_base", f"{gid}_brazilians", f"{gid}_required", f"{gid}_deficit",
            f"{gid}_next_required"]


def output_schema(rs: RuleSet, horizon: int | None) -> dict[str, pl.DataType]:
    """Columns of the screening result, in order (``risk_rank`` is added by ranking)."""
    i32, s, d, b = pl.Int32(), pl.String(), pl.Date(), pl.Boolean()
    schema: dict[str, pl.DataType] = {
        "id": s, "name": s, "imo": s, "flag": s, "registry": s, "activity": s, "contract": s,
        "verdict": s, "regime": s, "regime_label": s, "reason": s, "findings": s,
        "warnings": s,
        "crew_size": i32, "stay_start": d, "days_of_operation": i32, "in_ajb": b,
        "step_fraction": s, "step_from_day": i32, "step_since": d, "step_extended": b,
        "citation": s,
    }
    for g in rs.groups:
        for c in group_columns(g):
            schema[c] = i32
    schema |= {"total_required": i32, "total_deficit": i32,
               "next_fraction": s, "next_from_day": i32, "next_since": d, "next_extended": b,
               "next_citation": s, "days_to_next": i32, "next_required_total": i32,
               "next_deficit_total": i32}
    if horizon is not None:
        schema |= {"horizon_steps": i32, "horizon_first_since": d, "horizon_max_deficit": i32,
                   "horizon_max_deficit_since": d, "horizon_plan": s}
    schema |= {"alt_reading_changes_verdict": b, "unconfirmed": b, "interpretations": s,
               "options_not_applied": s, "error": s}
    return schema


@dataclass(frozen=True)
class Evaluated:
    """The result rows (``output_schema`` columns plus ``_vidx``, ``_row``, ``_route``,
    ``_short``: the shortfall used by the ranking)."""

    frame: pl.DataFrame


def _days(on: dt.date) -> int:
    return (on - EPOCH).days


I32 = pl.Int32()
_ZERO = pl.lit(0, pl.Int32)


def _pos(x: pl.Expr) -> pl.Expr:
    """max(x, 0), a null staying null (cheaper than ``clip``)."""
    return pl.when(x < 0).then(_ZERO).otherwise(x)


def _pick(idx: str, prefix: str, k_max: int) -> pl.Expr:
    expr: pl.Expr = pl.lit(None)
    for k in reversed(range(k_max)):
        expr = pl.when(pl.col(idx) == k).then(pl.col(f"{prefix}{k}")).otherwise(expr)
    return expr


def _add(exprs: Sequence[pl.Expr]) -> pl.Expr:
    """Sum of non-null Int32 columns (a chain of additions; 0 for none)."""
    out: pl.Expr | None = None
    for e in exprs:
        out = e if out is None else out + e
    return out if out is not None else _ZERO


CHUNK = 250_000  # vessels evaluated at once (bounds the memory of the wide intermediate)

# Status of a rule-frame row, as a small code (comparisons on integers, not text).
STATUS_CODES = {None: 0, STATUS_EXEMPT: 1, STATUS_ENGINE: 2, STATUS_NOT_COVERED: 3,
                STATUS_NOT_LISTED: 4, STATUS_POSITIONS: 5, STATUS_NO_CONTRACT: 6,
                STATUS_RULE: 7}
ST = {k: pl.lit(v, pl.UInt8) for k, v in STATUS_CODES.items() if k is not None}


@dataclass(frozen=True)
class _Lookup:
    """The rule frame as lookup tables for the evaluation.

    ``keyed``: one row per rule key, the columns the evaluation reads per vessel, among them
    ``_gm``, the groups of the rule as bits (:attr:`bit`: group ``g`` of the rule's reading,
    ``"alt:" + g`` of the other reading). ``step``: per (key, step) — index
    ``key × steps + k`` — the step's ``from_day``, fraction text, citation and the exact
    rounding of its fraction p/q as ``(P·n + A) // Q`` (half up: P = 2p, A = q, Q = 2q; at
    least the fraction: P = p, A = q − 1, Q = q)."""

    keyed: pl.DataFrame
    steps: int
    step: dict[str, pl.Series]
    bit: dict[str, int]


def _lookup(rs: RuleSet) -> _Lookup:
    f = rs.frame
    ms = max(rs.max_steps, 1)
    keyed = f.select(
        pl.col("status").cast(pl.String).replace_strict(
            STATUS_CODES, default=0, return_dtype=pl.UInt8).alias("_st"),
        "needs_stay", "tolerance", "paused", "ext_ok", "ext_from",
        (pl.col("kind") == KIND_DBL).fill_null(False).alias("_dbl"),
        (pl.col("levels") == 3).fill_null(False).alias("_lvl3"),
        "pos_master", "pos_chief", "unconfirmed", "regime", "regime_label", "interpretations",
        "interp_stay", "interp_exit_strict", "strict_from", "strict_to", "borrow_before",
        "borrow_under", "rounding_fixed",
        "regime_from", "regime_to", *(f"ub_cur{i}" for i in range(UB_CUR)),
        *(f"ub_nx{i}" for i in range(UB_NX)),
        *(pl.col(f"from_day_{k}") for k in range(rs.max_steps)))
    bit = {g: i for i, g in enumerate([*rs.groups, *(f"alt:{g}" for g in rs.alt_groups)])}
    if len(bit) > 64:  # pragma: no cover - the regimes have about twenty group ids
        raise ValueError("too many group ids for the group bits")
    rows = f.to_dicts()
    step: dict[str, list[object]] = {c: [] for c in ("from", "frac", "cite", "P", "A", "Q")}
    masks: list[int] = []
    for r in rows:
        masks.append(sum(1 << i for g, i in bit.items()
                         if r[f"a:{g[4:]}" if g.startswith("alt:") else f"g:{g}"]))
        for k in range(ms):
            p: int | None = r.get(f"p_{k}")
            q: int | None = r.get(f"q_{k}")
            if p is None or q is None:
                for c in step:
                    step[c].append(None)
                continue
            half = bool(r["half_up"])
            step["from"].append(r[f"from_day_{k}"])
            step["frac"].append(r[f"frac_{k}"])
            step["cite"].append(r[f"cite_{k}"])
            step["P"].append(2 * p if half else p)
            step["A"].append(q if half else q - 1)
            step["Q"].append(2 * q if half else q)
    text = {"frac": f["frac_0"].dtype if rs.max_steps else pl.String(),
            "cite": f["cite_0"].dtype if rs.max_steps else pl.String()}
    series = {k: pl.Series(k, v, dtype=text.get(k, I32)) for k, v in step.items()}
    keyed = keyed.with_columns(pl.Series("_gm", masks, dtype=pl.UInt64))
    return _Lookup(keyed, ms, series, bit)


def evaluate_fleet(fleet: Fleet, counts: pl.DataFrame, rs: RuleSet,
                   horizon: int | None = None, chunk: int = CHUNK,
                   progress: Callable[[int, int], None] | None = None) -> Evaluated:
    """Evaluate every vessel of ``fleet`` on ``rs.on``, ``chunk`` vessels at a time.

    ``counts``: packed crew counts per vessel (:func:`abordo.batch.crew.count_crew`).
    ``horizon``: days ahead for the charterer's view (steps falling in ``(on, on+horizon]``
    and the deficit the current crew would then have), or None. ``progress(done, total)``
    is called after each chunk.
    """
    v = fleet.vessels.with_columns(_key=rule_key_expr())
    if counts.height == v.height and counts["vessel_id"].equals(v["id"]):
        # Crew table grouped in the vessels' order (the usual export): no join needed.
        v = pl.concat([v, counts.drop("vessel_id")], how="horizontal")
    else:
        v = v.join(counts, left_on="id", right_on="vessel_id", how="left",
                   maintain_order="left")
    lk = _lookup(rs)
    parts = []
    for start in range(0, v.height, chunk):
        part = v.slice(start, chunk)
        lo, hi = start, start + part.height
        in_part = pl.col("_vidx").is_between(lo, hi, closed="left")
        parts.append(_evaluate_part(part, fleet.absences.filter(in_part),
                                    fleet.extensions.filter(in_part), rs, lk, horizon))
        if progress:
            progress(hi, v.height)
    return Evaluated(pl.concat(parts, rechunk=False))


def _evaluate_part(v0: pl.DataFrame, absences: pl.DataFrame, extensions: pl.DataFrame,
                   rs: RuleSet, lk: _Lookup, horizon: int | None) -> pl.DataFrame:
    on = _days(rs.on)
    # Only the rules (and so the groups and steps) present here are computed.
    present = rs.frame.select(pl.all().gather(v0["_key"].unique().sort()))
    ruled = present.filter(pl.col("status") == STATUS_RULE)
    groups = [g for g in rs.groups if ruled[f"g:{g}"].any()]
    alt_groups = [g for g in rs.alt_groups if ruled[f"a:{g}"].any()]
    S = int(ruled["n_steps"].cast(pl.Int64).max() or 0) if ruled.height else 0  # type: ignore[arg-type]
    keyed = lk.keyed.select(*KEYED_COLUMNS, *(f"from_day_{k}" for k in range(S)))
    v = pl.concat([v0, keyed.select(pl.all().gather(v0["_key"]))], how="horizontal")
    lanes = [c for c in LANES if c in v.columns]
    if v.select(pl.any_horizontal(pl.col(*lanes, "crew_size").is_null().any())).item():
        v = v.with_columns(pl.col(*lanes, "crew_size").fill_null(0))
    # Cells of the rare lanes are all zero in most chunks: then they are not computed.
    nonzero = v.select(pl.col(c).max() for c in lanes).row(0)
    zero_lanes = {c for c, m in zip(lanes, nonzero, strict=True) if not m}
    lf = v.lazy().with_columns(**_cells(zero_lanes))
    cells = {c: (pl.col(c) if _lane_of(c) not in zero_lanes else None) for c in CELL_COUNTS}
    lf = lf.with_columns(_entry=pl.col("ajb_entry").cast(pl.Int32),
                         _exit=pl.col("ajb_exit").cast(pl.Int32))
    # An exit is judged by the norm in force when it happened: the columnar stay applies the
    # tolerance of the regime in force on the date judged, so vessels with an exit before
    # that regime began are decided by the engine itself.
    current = regime_tables().in_force("foreign_general", rs.on)
    cutoff = _days(current.valid_from) if current is not None else None
    lf = _stay(lf, absences, on, cutoff)
    lf = _steps(lf, extensions, on, S)
    lf = _groups(lf, lk, cells, groups, alt_groups, on, S, horizon, "_touch" in v0.columns)
    lf = lf.with_columns(options_not_applied=_options_not_applied(rs))
    schema = output_schema(rs, horizon)
    cols = [pl.col(c) if not _absent(rs, groups, c) else pl.lit(None, t).alias(c)
            for c, t in schema.items()]
    short = (pl.col("total_deficit").fill_null(0) + pl.col("_pos_viol")).cast(pl.Int32)
    return lf.select(*cols, "_vidx", "_row", "_route", short.alias("_short")) \
        .collect(engine="in-memory")


KEYED_COLUMNS = ("_st", "needs_stay", "tolerance", "paused", "ext_ok", "ext_from", "_dbl",
                 "_lvl3",
                 "pos_master", "pos_chief", "unconfirmed", "regime", "regime_label",
                 "interpretations", "interp_stay", "interp_exit_strict", "strict_from",
                 "strict_to", "borrow_before", "borrow_under", "rounding_fixed", "regime_from",
                 "regime_to", "_gm",
                 *(f"ub_cur{i}" for i in range(UB_CUR)), *(f"ub_nx{i}" for i in range(UB_NX)))
# Per-vessel counts the evaluation reads.
CELL_COUNTS = PACKED_FIELDS


def _lane_of(fld: str) -> str:
    return f"lane{PACKED_FIELDS.index(fld) // FIELDS_PER_LANE}"


def _cells(zero_lanes: set[str]) -> dict[str, pl.Expr]:
    """The counts of :data:`CELL_COUNTS` (Int32) from the packed lanes (those of all-zero
    lanes are left out)."""
    out: dict[str, pl.Expr] = {}
    for fld in CELL_COUNTS:
        lane = _lane_of(fld)
        if lane in zero_lanes:
            continue
        pos = PACKED_FIELDS.index(fld) % FIELDS_PER_LANE
        e = pl.col(lane)
        if pos:
            e = e // (FIELD_BASE ** pos)
        if pos < FIELDS_PER_LANE - 1:
            e = e % FIELD_BASE
        out[fld] = e.cast(pl.Int32)
    return out


def _absent(rs: RuleSet, groups: list[str], column: str) -> bool:
    """A group column of a group no rule of this fleet uses (all null)."""
    return any(column in group_columns(g) for g in rs.groups if g not in groups)


def _nsum(exprs: Sequence[pl.Expr]) -> pl.Expr:
    """Sum of Int32 columns, nulls counted as 0 (``sum_horizontal``, several times faster)."""
    return _add([e.fill_null(0) for e in exprs])


def _stay(v: pl.LazyFrame, absences: pl.DataFrame, on: int, cutoff: int | None = None
          ) -> pl.LazyFrame:
    """Start of the current stay, days not counted, whether in AJB on the date
    (``abordo.quota.stay.current_stay`` over entry + absences + exit); ``_old_abs`` marks a
    tolerated exit that began before ``cutoff`` (another norm's exit rule applies to it)."""
    if absences.height:
        a = (absences.lazy()
             .join(v.select("_vidx", "tolerance", "paused", "borrow_before", "borrow_under"),
                   on="_vidx", how="inner")
             .with_columns(_f=pl.col("a_first").cast(pl.Int32),
                           _l=pl.col("a_last").cast(pl.Int32))
             .with_columns(_len=pl.col("_l") - pl.col("_f") + 1, _back=pl.col("_l") + 1)
             .with_columns(_considered=pl.col("_back") <= on)
             .with_columns(_interrupts=pl.col("_considered") & (
                 pl.col("tolerance").is_null() | (pl.col("_len") >= pl.col("tolerance")))))
        old = (pl.col("tolerance").is_not_null() & pl.col("_considered")
               & (pl.col("_f") < cutoff)) if cutoff is not None else pl.lit(False)
        now = (pl.col("_f") <= on) & (pl.col("_l") >= on)
        # An exit before a norm without tolerance began, shorter than the widest tolerance
        # known (``borrow_*``): the engine judges it and says so (timeline.stay_of).
        old = old | (pl.col("borrow_before").is_not_null() & (pl.col("_f") < pl.col(
            "borrow_before")) & ((pl.col("_considered") & (pl.col("_len") < pl.col(
                "borrow_under"))) | (now & (on - pl.col("_f") + 1 < pl.col("borrow_under")))))
        if cutoff is not None:  # an absence under way that began under another norm
            # (only while it is shorter than today's tolerance: beyond, both rules end it)
            old = old | (pl.col("tolerance").is_not_null() & now & (pl.col("_f") < cutoff)
                         & (on - pl.col("_f") + 1 < pl.col("tolerance")))
        first = a.group_by("_vidx").agg(
            _int_start=pl.col("_back").filter(pl.col("_interrupts")).max(),
            _in_abs=now.any(),
            _abs_now=pl.col("_f").filter(now).min(),
            _old_abs=old.any())
        v = v.join(first, on="_vidx", how="left", maintain_order="left")
        v = v.with_columns(_start=pl.coalesce("_int_start", "_entry"),
                           _in_abs=pl.col("_in_abs").fill_null(False),
                           _old_abs=pl.col("_old_abs").fill_null(False))
        paused = (a.join(v.select("_vidx", "_start"), on="_vidx")
                  .group_by("_vidx").agg(_paused_days=pl.col("_len").filter(
                      pl.col("_considered") & (pl.col("_back") > pl.col("_start"))
                      & pl.col("paused")).sum().cast(pl.Int32)))
        v = v.join(paused, on="_vidx", how="left", maintain_order="left")
        v = v.with_columns(pl.col("_paused_days").fill_null(0))
    else:
        v = v.with_columns(_start=pl.col("_entry"), _in_abs=pl.lit(False),
                           _abs_now=pl.lit(None, pl.Int32),
                           _old_abs=pl.lit(False), _paused_days=pl.lit(0, pl.Int32))
    has_stay = pl.col("needs_stay") & pl.col("_entry").is_not_null() & (pl.col("_entry") <= on)
    # Outside on the date (an absence under way, or after the exit): the last day in AJB.
    # Once the days outside reach the tolerance (any exit, without one) the stay is over
    # there (``Stay.ended_on``): its days stop, and the next entry starts a new count.
    last_in = (pl.when(pl.col("_in_abs")).then(pl.col("_abs_now") - 1)
               .when(pl.col("_exit") < on).then(pl.col("_exit")))
    v = v.with_columns(_last_in=last_in)
    ended = pl.col("_last_in").is_not_null() & (
        pl.col("tolerance").is_null() | (on - pl.col("_last_in") >= pl.col("tolerance")))
    v = v.with_columns(_old_abs=pl.col("_old_abs") | (  # the exit under way, likewise
        pl.col("borrow_before").is_not_null() & (pl.col("_exit") < on)
        & (pl.col("_exit") + 1 < pl.col("borrow_before"))
        & (on - pl.col("_exit") < pl.col("borrow_under"))).fill_null(False))
    if cutoff is not None:  # an exit made under another norm: the engine judges it (while
        # shorter than today's tolerance: beyond, both rules end the stay)
        v = v.with_columns(_old_abs=pl.col("_old_abs") | (
            pl.col("tolerance").is_not_null() & (pl.col("_exit") < on)
            & (pl.col("_exit") + 1 < cutoff)
            & (on - pl.col("_exit") < pl.col("tolerance"))).fill_null(False))
    return v.with_columns(
        _has_stay=has_stay,
        _in_ajb=~pl.col("_in_abs") & (pl.col("_exit").is_null() | (pl.col("_exit") >= on)),
        _ended=ended.fill_null(False),
        _days=pl.when(has_stay).then(
            pl.when(ended).then(pl.col("_last_in")).otherwise(pl.lit(on, pl.Int32))
            - pl.col("_start") - pl.col("_paused_days")),
    )


def _steps(v: pl.LazyFrame, extensions: pl.DataFrame, on: int, S: int) -> pl.LazyFrame:
    """Date of each step (natural or extended), the step in force and the next one
    (``abordo.quota.timeline.step_dates`` and the choice in ``engine._apply_rule``)."""
    ext = extensions.lazy().with_columns(pl.col("applies_from").cast(pl.Int32)).drop("given")
    for k in range(S):
        fd = pl.col(f"from_day_{k}")
        if extensions.height:
            v = v.join(ext.rename({"from_day": f"from_day_{k}", "applies_from": f"_ext{k}"}),
                       on=["_vidx", f"from_day_{k}"], how="left", maintain_order="left")
        else:
            v = v.with_columns(pl.lit(None, pl.Int32).alias(f"_ext{k}"))
        reached = pl.col("_start") + fd + pl.col("_paused_days")
        # Not before the regime began: its requirement binds from its own start; an
        # extension counts from that date.
        natural = pl.when(reached < pl.col("regime_from")).then(pl.col("regime_from")) \
            .otherwise(reached)
        e = pl.col(f"_ext{k}")
        extended = pl.col("needs_stay") & pl.col("ext_ok") & e.is_not_null() & (e > natural)
        since = pl.when(extended).then(e).otherwise(natural)
        v = v.with_columns(
            pl.when(fd.is_null()).then(None)
            .when(~pl.col("needs_stay")).then(pl.lit(NEVER))
            .otherwise(since).cast(pl.Int32).alias(f"_since{k}"),
            # an extension given that does not postpone its step (engine: not applied)
            (e.is_not_null() & (e <= natural)).fill_null(False).alias(f"_ext_early{k}"),
            extended.fill_null(False).alias(f"_extended{k}"),
            # postponed from a day before its grounding norm (timeline.step_dates)
            (extended & (natural < pl.col("ext_from"))).fill_null(False)
            .alias(f"_extunc{k}"))
    v = v.with_columns(_ext_odd=_extension_warned(extensions, S))
    v = v.with_columns(_cur=pl.lit(None, pl.Int8), _cur_from=pl.lit(None, pl.Int32),
                       _nx=pl.lit(None, pl.Int8), _nx_since=pl.lit(None, pl.Int32),
                       _nx_fd=pl.lit(None, pl.Int32))
    for k in range(S):
        since, fd = pl.col(f"_since{k}"), pl.col(f"from_day_{k}")
        take_cur = (since <= on) & (pl.col("_cur_from").is_null() | (fd > pl.col("_cur_from")))
        # The soonest; on one date the higher step (the lower never applies: engine).
        take_nx = (since > on) & (pl.col("_nx_since").is_null() | (since < pl.col("_nx_since"))
                                  | ((since == pl.col("_nx_since")) & (fd > pl.col("_nx_fd"))))
        v = v.with_columns(
            _cur=pl.when(take_cur).then(pl.lit(k, pl.Int8)).otherwise("_cur"),
            _cur_from=pl.when(take_cur).then(fd).otherwise("_cur_from"),
            _nx=pl.when(take_nx).then(pl.lit(k, pl.Int8)).otherwise("_nx"),
            _nx_since=pl.when(take_nx).then(since).otherwise("_nx_since"),
            _nx_fd=pl.when(take_nx).then(fd).otherwise("_nx_fd"))
    # A next step with a lower threshold than the current one (possible with extensions):
    # take the first later step in table order instead (as the engine does).
    alt: pl.Expr = pl.lit(None, pl.Int8)
    for k in reversed(range(S)):
        alt = pl.when((pl.col(f"_since{k}") > on)
                      & (pl.col(f"from_day_{k}") > pl.col("_cur_from"))).then(
            pl.lit(k, pl.Int8)).otherwise(alt)
    # (_nx_fd: the from-day of the step _nx, kept as it was chosen)
    v = v.with_columns(_nx=pl.when(pl.col("_cur").is_not_null() & pl.col("_nx").is_not_null()
                                   & (pl.col("_nx_fd") < pl.col("_cur_from")))
                       .then(alt).otherwise("_nx"))
    # A next step after the regime's known end is none of its own (engine._apply_rule) —
    # though its date, in the year of an unconfirmed end, makes the answer rest on that end.
    v = v.with_columns(_nx_raw=_pick("_nx", "_since", S))
    beyond = pl.col("_nx_raw") > pl.col("regime_to")
    v = v.with_columns(_nx=pl.when(beyond.fill_null(False)).then(None).otherwise("_nx"))
    # The step's figures are looked up by (key, step) in _groups; only the dates and the
    # extension flags, per vessel, are picked here.
    return v.with_columns(_cur_since=_pick("_cur", "_since", S),
                          _nx_since=pl.when(pl.col("_nx").is_not_null()).then("_nx_raw"),
                          _cur_extended=_pick("_cur", "_extended", S),
                          _nx_extended=_pick("_nx", "_extended", S))


def _extension_warned(extensions: pl.DataFrame, steps: int) -> pl.Expr:
    """Whether the engine warns about the vessel's extensions (``step_dates``): one given
    twice for a step (``extension_repeated``), one the rule cannot use — the norm provides
    none, or the rule has no such step — or one that postpones nothing
    (``extension_not_applied``), or an extended step a higher step reaches first
    (``extension_overtaken``). Such vessels are decided by the engine, which words them."""
    if extensions.height == 0:
        return pl.lit(False)
    per = extensions.group_by("_vidx").agg(
        pl.len().cast(pl.Int32).alias("n"), (pl.col("given") > 1).any().alias("rep"))
    given = pl.col("_vidx").replace_strict(per["_vidx"], per["n"], default=0,
                                           return_dtype=pl.Int32)
    repeated = pl.col("_vidx").replace_strict(per["_vidx"], per["rep"], default=False,
                                              return_dtype=pl.Boolean)
    matched = _add([pl.col(f"_ext{k}").is_not_null().cast(pl.Int32) for k in range(steps)]) \
        if steps else pl.lit(0, pl.Int32)
    odd = [~pl.col("ext_ok"), matched < given, repeated]
    odd += [pl.col(f"_ext_early{k}") for k in range(steps)]
    odd += [pl.col(f"_extended{k}") & _overtaken(k, steps) for k in range(steps)]
    return (pl.col("needs_stay") & (given > 0) & pl.any_horizontal(odd)).fill_null(False)


def _overtaken(k: int, steps: int) -> pl.Expr:
    """Step ``k`` is never in force: a higher step applies on or before its date (an
    extension run past it) — the engine's "overtaken" (``step_dates``, the plan)."""
    return pl.any_horizontal([
        ((pl.col(f"from_day_{j}") > pl.col(f"from_day_{k}"))
         & (pl.col(f"_since{j}") <= pl.col(f"_since{k}"))).fill_null(False)
        for j in range(steps) if j != k]) if steps > 1 else pl.lit(False)


def _groups(v: pl.LazyFrame, lk: _Lookup, cells: dict[str, pl.Expr | None],
            groups: list[str], alt_groups: list[str], on: int, S: int,
            horizon: int | None, touch: bool = False) -> pl.LazyFrame:
    """The decision of each vessel from its stay, steps and counts: which rows the engine
    decides (``_route``), the groups' requirements, the positions, then the verdict and the
    output columns (``abordo.quota.engine._evaluate``'s order of questions)."""
    v = _route(v, cells, touch)
    v = _requirements(v, lk, cells, groups, alt_groups)
    v = _positions(v, cells)
    return _decision(v, lk, groups, on, S, horizon)


# The rule-frame columns every stage reads.
_STATUS = pl.col("_st")
_IS_RULE = pl.col("_st") == ST[STATUS_RULE]
_DOUBLE = pl.col("_dbl")  # a rule read in department × level groups (another reading exists)
_STAY_OK = ~pl.col("needs_stay") | (pl.col("_has_stay") & pl.col("_in_ajb"))


def _count(cells: dict[str, pl.Expr | None], fld: str) -> pl.Expr:
    """A count of the crew (``n:deck.officer``, ``master_x``…); 0 where the chunk has none."""
    e = cells[fld]
    return e if e is not None else _ZERO


def _at(lk: _Lookup, name: str, idx: pl.Expr) -> pl.Expr:
    """The figure ``name`` of the (key, step) ``idx`` (null index: null)."""
    return pl.lit(lk.step[name]).gather(idx)


def _route(v: pl.LazyFrame, cells: dict[str, pl.Expr | None], touch: bool) -> pl.LazyFrame:
    """``_route``: the rows the engine itself decides (what the columns cannot say)."""
    st, is_rule, dbl, stay_ok = _STATUS, _IS_RULE, _DOUBLE, _STAY_OK
    rare_cells = [c for c in ("n:unknown", "n:deck.no_level", "n:engine.no_level")
                  if cells[c] is not None]
    ratings = [c for c in ("n:deck.rating", "n:engine.rating") if cells[c] is not None]
    parts = [_count(cells, c) > 0 for c in rare_cells]
    if ratings:
        parts.append(pl.col("_lvl3") & (_add([_count(cells, c) for c in ratings]) > 0))
    undecidable = (dbl & pl.any_horizontal(parts)) if parts else pl.lit(False)
    v = v.with_columns(_undecidable=undecidable.fill_null(False))
    v = v.with_columns(
        _route=(st == ST[STATUS_ENGINE])
        | (is_rule & pl.col("needs_stay") & pl.col("_entry").is_null())
        | (is_rule & stay_ok & pl.col("_undecidable"))
        | (is_rule & pl.col("_old_abs"))
        | (pl.col("crew_size") >= MAX_PACKED)  # counts too large for the packed lanes
        # Paused reading with days not counted: which absences precede which step is the
        # engine's walk (Stay.day_reached_on), not one sum — an absence under way too.
        | (pl.col("_paused_days") > 0)
        # Extensions the engine warns about (repeated, not applied, overtaken).
        | (is_rule & pl.col("_has_stay") & pl.col("_ext_odd"))
        | (pl.col("paused") & pl.col("_last_in").is_not_null() & ~pl.col("_ended"))
        # A case file's exit and re-entry on consecutive days (no day outside: no absence
        # the vessels table can hold) — whether it ends the stay is the exit rule's; or a
        # person's own exit from the country, which the engine compares with the list.
        | (pl.col("_touch") if touch else pl.lit(False)),
    )
    return v


def _requirements(v: pl.LazyFrame, lk: _Lookup, cells: dict[str, pl.Expr | None],
                  groups: list[str], alt_groups: list[str]) -> pl.LazyFrame:
    """Each group's size, Brazilians and requirement at the step in force and at the next,
    the totals, and whether the other group reading would change the verdict."""
    is_rule, dbl, stay_ok = _IS_RULE, _DOUBLE, _STAY_OK
    judged = is_rule & stay_ok & ~pl.col("_route")
    has_cur = judged & pl.col("_cur").is_not_null()
    has_nx = judged & pl.col("_nx").is_not_null()
    key = pl.col("_key").cast(pl.UInt32)
    ms = lk.steps
    v = v.with_columns(_judged=judged, _has_cur=has_cur, _has_nx=has_nx)
    # Lookup indexes, null where the figures must be null: (key, step in force) when judged
    # with a step; (key, next step) likewise; key when judged.
    v = v.with_columns(
        _ci=pl.when(pl.col("_has_cur")).then(key * ms + pl.col("_cur").cast(pl.UInt32)),
        _ni=pl.when(pl.col("_has_nx")).then(key * ms + pl.col("_nx").cast(pl.UInt32)),
        _kj=pl.when(pl.col("_judged")).then(key))
    ci, ni = pl.col("_ci"), pl.col("_ni")

    v = v.with_columns(_cP=_at(lk, "P", ci), _cA=_at(lk, "A", ci), _cQ=_at(lk, "Q", ci),
                       _nP=_at(lk, "P", ni), _nA=_at(lk, "A", ni), _nQ=_at(lk, "Q", ni))

    def member(g: str) -> pl.Expr:
        return (pl.col("_gm") & (1 << lk.bit[g])) != 0

    def req(step: str, n: pl.Expr) -> pl.Expr:
        return (pl.col(f"_{step}P") * n + pl.col(f"_{step}A")) // pl.col(f"_{step}Q")

    # Group sizes (whatever the verdict), then the requirements: null where the rule has no
    # such group or there is no such step (no figures looked up there).
    raw: dict[str, pl.Expr] = {}
    for g in dict.fromkeys([*groups, *alt_groups]):
        raw[f"_n:{g}"] = _add([_count(cells, f"n:{c}") for c in group_cells(g) if cells[f"n:{c}"]
                               is not None])
        raw[f"_b:{g}"] = _add([_count(cells, f"b:{c}") for c in group_cells(g) if cells[f"b:{c}"]
                               is not None])
    v = v.with_columns(**raw)
    rq: dict[str, pl.Expr] = {}
    for g in groups:
        n = pl.col(f"_n:{g}")
        rq[f"_r:{g}"] = pl.when(member(g)).then(req("c", n))
        rq[f"_x:{g}"] = pl.when(member(g)).then(req("n", n))
        # counted where a step of the decision names the group (the engine: current or next)
        rq[f"_m:{g}"] = member(g) & (pl.col("_has_cur") | pl.col("_has_nx"))
    for g in alt_groups:
        rq[f"_a:{g}"] = pl.when(member(f"alt:{g}")).then(
            _pos(req("c", pl.col(f"_n:{g}")) - pl.col(f"_b:{g}")))
    v = v.with_columns(**rq)
    out: dict[str, pl.Expr] = {}
    for g in groups:
        n, b, r, x, m = (pl.col(f"_{k}:{g}") for k in ("n", "b", "r", "x", "m"))
        out[f"{g}_base"] = pl.when(m).then(n)
        out[f"{g}_brazilians"] = pl.when(m).then(b)
        out[f"{g}_required"] = r
        out[f"{g}_deficit"] = _pos(r - b)
        out[f"{g}_next_required"] = x
        out[f"_xd:{g}"] = _pos(x - b)
    v = v.with_columns(**out)
    v = v.with_columns(
        total_required=pl.when(pl.col("_has_cur")).then(
            _nsum([pl.col(f"{g}_required") for g in groups])),
        total_deficit=pl.when(pl.col("_has_cur")).then(
            _nsum([pl.col(f"{g}_deficit") for g in groups])),
        next_required_total=pl.when(pl.col("_has_nx")).then(
            _nsum([pl.col(f"_x:{g}") for g in groups])),
        next_deficit_total=pl.when(pl.col("_has_nx")).then(
            _nsum([pl.col(f"_xd:{g}") for g in groups])),
        _alt_deficit=_nsum([pl.col(f"_a:{g}") for g in alt_groups]),
    )
    # The other group reading: reported when it would change the verdict.
    v = v.with_columns(alt_reading_changes_verdict=pl.when(pl.col("_has_cur") & dbl).then(
        (pl.col("total_deficit") == 0) != (pl.col("_alt_deficit") == 0)))

    return v


def _positions(v: pl.LazyFrame, cells: dict[str, pl.Expr | None]) -> pl.LazyFrame:
    """The findings (positions, long haul without foreign calls, deficit) and warnings, as
    bits gathered into their text."""
    st, is_rule = _STATUS, _IS_RULE
    # Positions (Brazilian flag): master and chief engineer Brazilian.
    pos_stage = is_rule | (st == ST[STATUS_POSITIONS])
    wants_master, wants_chief = pos_stage & pl.col("pos_master"), pos_stage & pl.col("pos_chief")
    master_bad = (wants_master & (_count(cells, "master_x") > 0)).fill_null(False)
    chief_bad = (wants_chief & (_count(cells, "chief_x") > 0)).fill_null(False)
    exempt_bad = ((st == ST[STATUS_EXEMPT])
                  & (pl.col("foreign_calls") == False)).fill_null(False)  # noqa: E712
    deficit = (pl.col("_has_cur") & (pl.col("total_deficit") > 0)).fill_null(False)
    bits = (exempt_bad.cast(pl.UInt32) * 8 + master_bad.cast(pl.UInt32) * 4
            + chief_bad.cast(pl.UInt32) * 2 + deficit.cast(pl.UInt32))
    master_none = (wants_master & (_count(cells, "master_n") == 0)).fill_null(False)
    chief_none = (wants_chief & (_count(cells, "chief_n") == 0)).fill_null(False)
    warn_bits = ((pl.col("crew_size") == 0).cast(pl.UInt32) * 4
                 + master_none.cast(pl.UInt32) * 2 + chief_none.cast(pl.UInt32))
    v = v.with_columns(
        _pos_viol=master_bad.cast(pl.Int32) + chief_bad.cast(pl.Int32),
        _exempt_bad=exempt_bad,
        findings=pl.lit(FINDINGS).gather(bits),
        warnings=pl.lit(WARNINGS).gather(warn_bits),
    )

    return v


def _decision(v: pl.LazyFrame, lk: _Lookup, groups: list[str], on: int, S: int,
              horizon: int | None) -> pl.LazyFrame:
    """Verdict, reason and the output columns (with the horizon's, when asked)."""
    st, is_rule = _STATUS, _IS_RULE
    ci, ni = pl.col("_ci"), pl.col("_ni")
    violated = pl.col("_pos_viol") > 0
    exempt_bad = pl.col("_exempt_bad")
    V = VERDICT_CODE
    verdict = (
        pl.when(pl.col("_route")).then(pl.lit(None, pl.UInt8))
        .when(st == ST[STATUS_EXEMPT]).then(
            pl.when(exempt_bad).then(V["non_compliant"]).otherwise(V["not_applicable"]))
        .when((st == ST[STATUS_NOT_COVERED]) | (st == ST[STATUS_NOT_LISTED]))
        .then(V["not_covered"])
        .when(st == ST[STATUS_POSITIONS]).then(
            pl.when(violated).then(V["non_compliant"]).otherwise(V["compliant"]))
        .when(st == ST[STATUS_NO_CONTRACT]).then(V["not_applicable"])
        .when(pl.col("needs_stay") & ~pl.col("_has_stay")).then(V["not_applicable"])
        .when(pl.col("needs_stay") & ~pl.col("_in_ajb")).then(V["not_applicable"])
        .when(pl.col("_cur").is_null()).then(
            pl.when(violated).then(V["non_compliant"]).otherwise(V["not_yet"]))
        .when(violated | (pl.col("total_deficit") > 0)).then(V["non_compliant"])
        .otherwise(V["compliant"])
    )
    R = REASON_CODE
    reason = (
        pl.when(pl.col("_route")).then(pl.lit(None, pl.UInt8))
        .when(st == ST[STATUS_EXEMPT]).then(pl.when(exempt_bad).then(
            R["long_haul_without_foreign_calls"]).otherwise(R["exempt_activity"]))
        .when(st == ST[STATUS_NOT_COVERED]).then(R["not_modelled"])
        .when(st == ST[STATUS_NOT_LISTED]).then(R["activity_not_listed"])
        .when(st == ST[STATUS_NO_CONTRACT]).then(R["no_contract"])
        .when(is_rule).then(
            pl.when(pl.col("needs_stay") & ~pl.col("_has_stay")).then(R["not_in_ajb"])
            .when(pl.col("needs_stay") & ~pl.col("_in_ajb")).then(R["outside_ajb"])
            .when(pl.col("_cur").is_null()).then(R["no_step_yet"]))
    )
    verdict_label = pl.lit(VERDICT_LABELS).gather(verdict.cast(pl.UInt32))
    reason_label = pl.lit(REASON_LABELS).gather(reason.cast(pl.UInt32))

    def to_date(e: pl.Expr) -> pl.Expr:
        return e.cast(pl.Date)

    stay_known = is_rule & pl.col("_has_stay") & ~pl.col("_route")
    v = v.with_columns(
        verdict=verdict_label, reason=reason_label,
        regime=pl.when(pl.col("_route")).then(None).otherwise("regime"),
        regime_label=pl.when(pl.col("_route")).then(None).otherwise("regime_label"),
        crew_size=pl.col("crew_size").cast(pl.Int32),
        stay_start=pl.when(stay_known).then(to_date(pl.col("_start"))),
        days_of_operation=pl.when(stay_known).then(pl.col("_days")).cast(pl.Int32),
        in_ajb=pl.when(stay_known).then(pl.col("_in_ajb")),
        step_fraction=_at(lk, "frac", ci),
        step_from_day=_at(lk, "from", ci),
        step_since=pl.when(pl.col("_has_cur") & pl.col("needs_stay")).then(
            to_date(pl.col("_cur_since"))),
        step_extended=pl.when(pl.col("_has_cur")).then(pl.col("_cur_extended")),
        citation=_at(lk, "cite", ci),
        next_fraction=_at(lk, "frac", ni),
        next_from_day=_at(lk, "from", ni),
        next_since=pl.when(pl.col("_has_nx")).then(to_date(pl.col("_nx_since"))),
        next_extended=pl.when(pl.col("_has_nx")).then(pl.col("_nx_extended")),
        next_citation=_at(lk, "cite", ni),
        days_to_next=pl.when(pl.col("_has_nx")).then(pl.col("_nx_since") - on)
        .cast(pl.Int32),
        # (the step dates count only once the vessel is in AJB: the engine answers "not in
        # AJB" before it looks at them)
        unconfirmed=pl.when(~pl.col("_route")).then(
            pl.col("unconfirmed") | (pl.col("_has_stay") & (
                _in_uncertain_year("_cur_since", "ub_cur", UB_CUR)
                | _in_uncertain_year("_nx_raw", "ub_nx", UB_NX)
                | _extension_unconfirmed(S)))).otherwise(False),
        # Not yet in AJB, the engine answers before it reads rounding or groups; outside
        # AJB after a stay, it has read them (the plan of the stay's steps).
        interpretations=pl.when(is_rule & ~pl.col("_route")).then(
            pl.when(pl.col("needs_stay") & ~pl.col("_has_stay")).then(pl.col("interp_stay"))
            # (the first day outside of the exit that ends the stay, or of an absence under
            # way: judged by the norm then in force, as current_stay judges it)
            .when(pl.col("_has_stay") & (pl.col("_last_in") + 1).is_between(
                pl.col("strict_from"), pl.col("strict_to")).fill_null(False))
            .then(pl.col("interp_exit_strict")).otherwise(pl.col("interpretations"))),
        error=pl.lit(None, pl.String),
    )
    if horizon is not None:
        v = _horizon(v, lk, groups, on, S, horizon)
    return v




def _options_not_applied(rs: RuleSet) -> pl.Expr:
    """The caller's options (``family=value``, ``;``-separated) the decision does not rest
    on: its rule does not use that reading, or the norm's text fixes the rounding — each an
    ``option_not_applicable`` of the engine (``law.interpretations.report_unused_options``,
    ``quota.context.option_not_applicable``). Null when every option applies."""
    if not rs.options:
        return pl.lit(None, pl.String)
    relied = pl.col("interpretations").cast(pl.String).fill_null("").str.split("; ")
    parts = []
    for family, value, vid in rs.options:
        refused = ~relied.list.contains(vid)
        if family in NORM_FIXED:
            refused = refused | pl.col(NORM_FIXED[family]).fill_null(False)
        parts.append(pl.when(refused).then(pl.lit(f"{family}={value}")))
    joined = pl.concat_str(parts, separator=";", ignore_nulls=True)
    return pl.when(joined != "").then(joined)


def _extension_unconfirmed(steps: int) -> pl.Expr:
    """A step applied on an extension whose grounding norm was not in force on the date
    judged (``timeline.step_dates``); no steps in the chunk, no extension."""
    if steps == 0:
        return pl.lit(False)
    return pl.any_horizontal(pl.col(f"_extunc{k}") for k in range(steps))


def _in_uncertain_year(day: str, prefix: str, n: int) -> pl.Expr:
    """Whether the date ``day`` (days since 1970) falls in one of the years ``prefix0…``
    (the years of the rule's unconfirmed window ends): False where either is null."""
    year = pl.col(day).cast(pl.Date).dt.year()
    return pl.any_horizontal([(year == pl.col(f"{prefix}{i}")).fill_null(False)
                              for i in range(n)])


def _horizon(v: pl.LazyFrame, lk: _Lookup, groups: list[str], on: int, S: int,
             horizon: int) -> pl.LazyFrame:
    """Steps in (on, on + horizon] of the plan (``abordo.quota.plan``: the vessel assumed to
    stay in AJB and the regime in force on the date to stay in force), with the total
    required and the deficit of the current crew at each."""
    end = on + horizon
    # The engine's plan exists for every row that reaches the rule and fails where a group
    # cannot be formed. A vessel not yet in AJB is planned from its entry (the stay starts
    # there: ``_since`` is already entry + from_day, no absence being considered yet).
    is_rule = pl.col("_st") == ST[STATUS_RULE]
    arriving = pl.col("needs_stay") & pl.col("_entry").is_not_null() & (pl.col("_entry") > on)
    planned = pl.col("_has_stay") | arriving
    has_plan = is_rule & ~pl.col("_route") & ~(pl.col("_undecidable") & planned)
    if S == 0:
        return v.with_columns(
            horizon_steps=pl.when(has_plan).then(pl.lit(0, pl.Int32)),
            horizon_first_since=pl.lit(None, pl.Date),
            horizon_max_deficit=pl.lit(None, pl.Int32),
            horizon_max_deficit_since=pl.lit(None, pl.Date),
            horizon_plan=pl.lit(None, pl.String))
    # A stay that is over plans nothing (its steps' dates are "after_stay" in the engine).
    plan_ok = is_rule & ~pl.col("_route") & ~pl.col("_ended") \
        & (~pl.col("needs_stay") | planned) & ~pl.col("_undecidable")
    key = pl.col("_key").cast(pl.UInt32)
    cols: dict[str, pl.Expr] = {}
    for k in range(S):
        since = pl.col(f"_since{k}")
        cols[f"_h_in{k}"] = plan_ok & (since > on) & (since <= end) & ~_overtaken(k, S) \
            & (pl.col("regime_to").is_null() | (since <= pl.col("regime_to")))
        for c in ("P", "A", "Q"):
            cols[f"_h{c}{k}"] = pl.lit(lk.step[c]).gather(key * lk.steps + k)
    v = v.with_columns(**cols)
    cols = {}
    for g in groups:
        cols[f"_hm:{g}"] = (pl.col("_gm") & (1 << lk.bit[g])) != 0
    v = v.with_columns(**cols)
    cols = {}
    for k in range(S):
        reqs, defs = [], []
        for g in groups:
            r = pl.when(pl.col(f"_hm:{g}")).then(
                (pl.col(f"_hP{k}") * pl.col(f"_n:{g}") + pl.col(f"_hA{k}"))
                // pl.col(f"_hQ{k}"))
            reqs.append(r)
            defs.append(_pos(r - pl.col(f"_b:{g}")))
        cols[f"_h_req{k}"] = _nsum(reqs)
        cols[f"_h_def{k}"] = _nsum(defs)
    v = v.with_columns(**cols)
    ins = [pl.col(f"_h_in{k}").fill_null(False) for k in range(S)]
    max_def = pl.max_horizontal([pl.when(ins[k]).then(pl.col(f"_h_def{k}")) for k in range(S)])
    v = v.with_columns(
        horizon_steps=pl.when(has_plan).then(pl.sum_horizontal(ins)).cast(pl.Int32),
        horizon_first_since=pl.min_horizontal(
            [pl.when(ins[k]).then(pl.col(f"_since{k}")) for k in range(S)]).cast(pl.Date),
        horizon_max_deficit=max_def,
    )
    v = v.with_columns(horizon_max_deficit_since=pl.min_horizontal(
        [pl.when(ins[k] & (pl.col(f"_h_def{k}") == pl.col("horizon_max_deficit")))
         .then(pl.col(f"_since{k}")) for k in range(S)]).cast(pl.Date))
    # The date is masked before it is formatted: a step that needs no stay has the
    # "since" NEVER, not a date.
    parts = [pl.when(ins[k]).then(pl.format(
        "{} {} (exigidos {}, déficit {})",
        pl.when(ins[k]).then(pl.col(f"_since{k}")).cast(pl.Date),
        pl.lit(lk.step["frac"]).gather(key * lk.steps + k), pl.col(f"_h_req{k}"),
        pl.col(f"_h_def{k}"))) for k in range(S)]
    v = v.with_columns(horizon_plan=pl.concat_str(parts, separator="; ", ignore_nulls=True))
    return v.with_columns(horizon_plan=pl.when(pl.col("horizon_plan") != "")
                          .then("horizon_plan"))

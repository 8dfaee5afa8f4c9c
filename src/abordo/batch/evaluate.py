"""Columnar evaluation of a fleet: the crew-quota engine's decision procedure
(``abordo.quota.engine._evaluate``) written once over whole columns.

The figures (fractions, day thresholds, tolerance, which groups, rounding) come per row from
the rule frame (:mod:`abordo.batch.tables`, built from ``regime_tables()``); the crew from the
exact counts of :mod:`abordo.batch.crew`. Rounding is exact integer arithmetic:
``ceil(p/q·n) = (p·n + q − 1) // q`` and ``floor(p/q·n + 1/2) = (2·p·n + q) // (2·q)``.

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

from abordo.batch.crew import LANES, MAX_PACKED, unpack_exprs
from abordo.batch.fleet import EPOCH, Fleet
from abordo.batch.tables import (
    KIND_DBL,
    STATUS_ENGINE,
    STATUS_EXEMPT,
    STATUS_NO_CONTRACT,
    STATUS_NOT_COVERED,
    STATUS_NOT_LISTED,
    STATUS_POSITIONS,
    STATUS_RULE,
    RuleSet,
    group_cells,
    rule_key_expr,
)

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


def group_columns(gid: str) -> list[str]:

    return [f"{gid}_base", f"{gid}_brazilians", f"{gid}_required", f"{gid}_deficit",
            f"{gid}_next_required"]


def output_schema(rs: RuleSet, horizon: int | None) -> dict[str, pl.DataType]:
    """Columns of the screening result, in order (``risk_rank`` is added by ranking)."""
    i32, s, d, b = pl.Int32(), pl.String(), pl.Date(), pl.Boolean()
    schema: dict[str, pl.DataType] = {
        "id": s, "name": s, "imo": s, "flag": s, "registry": s, "activity": s, "contract": s,
        "verdict": s, "regime": s, "regime_label": s, "reason": s, "findings": s,
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
               "error": s}
    return schema


@dataclass(frozen=True)
class Evaluated:
    """The result rows (``output_schema`` columns plus ``_vidx``, ``_row``, ``_route``,
    ``_short``: the shortfall used by the ranking)."""

    frame: pl.DataFrame


def _days(on: dt.date) -> int:
    return (on - EPOCH).days


def _round(p: pl.Expr, q: pl.Expr, n: pl.Expr, half_up: pl.Expr) -> pl.Expr:
    """Exact rounding of p/q × n: half up = (2pn + q) // 2q, else ceil = (pn + q − 1) // q."""
    n64 = n.cast(pl.Int64)
    return pl.when(half_up).then((2 * p * n64 + q) // (2 * q)) \
        .otherwise((p * n64 + q - 1) // q).cast(pl.Int32)


def _pick(idx: str, prefix: str, k_max: int) -> pl.Expr:
    expr: pl.Expr = pl.lit(None)
    for k in reversed(range(k_max)):
        expr = pl.when(pl.col(idx) == k).then(pl.col(f"{prefix}{k}")).otherwise(expr)
    return expr


def _sum_cells(kind: str, cells: list[str]) -> pl.Expr:
    return pl.sum_horizontal([pl.col(f"{kind}:{c}") for c in cells]).cast(pl.Int32)


CHUNK = 250_000  # vessels evaluated at once (bounds the memory of the wide intermediate)


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
    parts = []
    for start in range(0, v.height, chunk):
        part = v.slice(start, chunk)
        lo, hi = start, start + part.height
        in_part = pl.col("_vidx").is_between(lo, hi, closed="left")
        parts.append(_evaluate_part(part, fleet.absences.filter(in_part),
                                    fleet.extensions.filter(in_part), rs, horizon))
        if progress:
            progress(hi, v.height)
    return Evaluated(pl.concat(parts, rechunk=False))


def _evaluate_part(v0: pl.DataFrame, absences: pl.DataFrame, extensions: pl.DataFrame,
                   rs: RuleSet, horizon: int | None) -> pl.DataFrame:
    on = _days(rs.on)
    # Only the rules (and so the groups and steps) present here are computed.
    present = rs.frame.select(pl.all().gather(v0["_key"].unique().sort()))
    ruled = present.filter(pl.col("status") == STATUS_RULE)
    groups = [g for g in rs.groups if ruled[f"g:{g}"].any()]
    alt_groups = [g for g in rs.alt_groups if ruled[f"a:{g}"].any()]
    S = int(ruled["n_steps"].cast(pl.Int64).max() or 0) if ruled.height else 0  # type: ignore[arg-type]
    step_cols = [f"{p}{k}" for k in range(S) for p in ("from_day_", "p_", "q_", "frac_", "cite_")]
    rule_cols = [*RULE_COLUMNS, *step_cols, *(f"g:{g}" for g in groups),
                 *(f"a:{g}" for g in alt_groups)]
    v = pl.concat([v0, rs.frame.select(pl.col(rule_cols).gather(v0["_key"]))],
                  how="horizontal").lazy()
    v = v.with_columns([pl.col(c).fill_null(0) for c in (*LANES, "crew_size")])
    v = v.with_columns(**unpack_exprs())
    v = v.with_columns(_entry=pl.col("ajb_entry").cast(pl.Int32),
                       _exit=pl.col("ajb_exit").cast(pl.Int32))
    v = _stay(v, absences, on)
    v = _steps(v, extensions, on, S)
    v = _groups(v, groups, alt_groups, on, S, horizon)
    schema = output_schema(rs, horizon)
    cols = [pl.col(c) if not _absent(rs, groups, c) else pl.lit(None, t).alias(c)
            for c, t in schema.items()]
    short = (pl.col("total_deficit").fill_null(0) + pl.col("_pos_viol")).cast(pl.Int32)
    return v.select(*cols, "_vidx", "_row", "_route", short.alias("_short")) \
        .collect(engine="in-memory")


RULE_COLUMNS = ("family", "status", "regime", "regime_label", "pos_master", "pos_chief",
                "needs_stay", "tolerance", "paused", "ext_ok", "kind", "levels", "rest",
                "half_up", "unconfirmed", "n_steps", "interpretations")


def _absent(rs: RuleSet, groups: list[str], column: str) -> bool:
    """A group column of a group no rule of this fleet uses (all null)."""
    return any(column in group_columns(g) for g in rs.groups if g not in groups)


def _hsum(exprs: Sequence[pl.Expr]) -> pl.Expr:
    return pl.sum_horizontal(exprs) if exprs else pl.lit(0)


def _stay(v: pl.LazyFrame, absences: pl.DataFrame, on: int) -> pl.LazyFrame:
    """Start of the current stay, days not counted, whether in AJB on the date
    (``abordo.quota.stay.current_stay`` over entry + absences + exit)."""
    if absences.height:
        a = (absences.lazy()
             .join(v.select("_vidx", "tolerance", "paused"), on="_vidx", how="inner")
             .with_columns(_f=pl.col("a_first").cast(pl.Int32),
                           _l=pl.col("a_last").cast(pl.Int32))
             .with_columns(_len=pl.col("_l") - pl.col("_f") + 1, _back=pl.col("_l") + 1)
             .with_columns(_considered=pl.col("_back") <= on)
             .with_columns(_interrupts=pl.col("_considered") & (
                 pl.col("tolerance").is_null() | (pl.col("_len") >= pl.col("tolerance")))))
        first = a.group_by("_vidx").agg(
            _int_start=pl.col("_back").filter(pl.col("_interrupts")).max(),
            _in_abs=((pl.col("_f") <= on) & (pl.col("_l") >= on)).any())
        v = v.join(first, on="_vidx", how="left", maintain_order="left")
        v = v.with_columns(_start=pl.coalesce("_int_start", "_entry"),
                           _in_abs=pl.col("_in_abs").fill_null(False))
        paused = (a.join(v.select("_vidx", "_start"), on="_vidx")
                  .group_by("_vidx").agg(_paused_days=pl.col("_len").filter(
                      pl.col("_considered") & (pl.col("_back") > pl.col("_start"))
                      & pl.col("paused")).sum().cast(pl.Int32)))
        v = v.join(paused, on="_vidx", how="left", maintain_order="left")
        v = v.with_columns(pl.col("_paused_days").fill_null(0))
    else:
        v = v.with_columns(_start=pl.col("_entry"), _in_abs=pl.lit(False),
                           _paused_days=pl.lit(0, pl.Int32))
    has_stay = pl.col("needs_stay") & pl.col("_entry").is_not_null() & (pl.col("_entry") <= on)
    return v.with_columns(
        _has_stay=has_stay,
        _in_ajb=~pl.col("_in_abs") & (pl.col("_exit").is_null() | (pl.col("_exit") >= on)),
        _days=pl.when(has_stay).then(on - pl.col("_start") - pl.col("_paused_days")),
    )


def _steps(v: pl.LazyFrame, extensions: pl.DataFrame, on: int, S: int) -> pl.LazyFrame:
    """Date of each step (natural or extended), the step in force and the next one
    (``abordo.quota.engine.step_dates`` and the choice in ``_apply_rule``)."""
    ext = extensions.lazy().with_columns(pl.col("applies_from").cast(pl.Int32))
    for k in range(S):
        fd = pl.col(f"from_day_{k}")
        if extensions.height:
            v = v.join(ext.rename({"from_day": f"from_day_{k}", "applies_from": f"_ext{k}"}),
                       on=["_vidx", f"from_day_{k}"], how="left", maintain_order="left")
        else:
            v = v.with_columns(pl.lit(None, pl.Int32).alias(f"_ext{k}"))
        natural = pl.col("_start") + fd + pl.col("_paused_days")
        e = pl.col(f"_ext{k}")
        extended = pl.col("needs_stay") & pl.col("ext_ok") & e.is_not_null() & (e > natural)
        v = v.with_columns(
            pl.when(fd.is_null()).then(None)
            .when(~pl.col("needs_stay")).then(pl.lit(NEVER))
            .when(extended).then(e).otherwise(natural).cast(pl.Int32).alias(f"_since{k}"),
            extended.fill_null(False).alias(f"_extended{k}"))
    v = v.with_columns(_cur=pl.lit(None, pl.Int8), _cur_from=pl.lit(None, pl.Int32),
                       _nx=pl.lit(None, pl.Int8), _nx_since=pl.lit(None, pl.Int32))
    for k in range(S):
        since, fd = pl.col(f"_since{k}"), pl.col(f"from_day_{k}")
        take_cur = (since <= on) & (pl.col("_cur_from").is_null() | (fd > pl.col("_cur_from")))
        take_nx = (since > on) & (pl.col("_nx_since").is_null() | (since < pl.col("_nx_since")))
        v = v.with_columns(
            _cur=pl.when(take_cur).then(pl.lit(k, pl.Int8)).otherwise("_cur"),
            _cur_from=pl.when(take_cur).then(fd).otherwise("_cur_from"),
            _nx=pl.when(take_nx).then(pl.lit(k, pl.Int8)).otherwise("_nx"),
            _nx_since=pl.when(take_nx).then(since).otherwise("_nx_since"))
    # A next step with a lower threshold than the current one (possible with extensions):
    # take the first later step in table order instead (as the engine does).
    alt: pl.Expr = pl.lit(None, pl.Int8)
    for k in reversed(range(S)):
        alt = pl.when((pl.col(f"_since{k}") > on)
                      & (pl.col(f"from_day_{k}") > pl.col("_cur_from"))).then(
            pl.lit(k, pl.Int8)).otherwise(alt)
    v = v.with_columns(_nx_from=_pick("_nx", "from_day_", S))
    v = v.with_columns(_nx=pl.when(pl.col("_cur").is_not_null() & pl.col("_nx").is_not_null()
                                   & (pl.col("_nx_from") < pl.col("_cur_from")))
                       .then(alt).otherwise("_nx"))
    cols = {}
    for pre, name in (("p_", "p"), ("q_", "q"), ("frac_", "frac"), ("cite_", "cite"),
                      ("_since", "since"), ("_extended", "extended"), ("from_day_", "from")):
        cols[f"_cur_{name}"] = _pick("_cur", pre, S)
        cols[f"_nx_{name}"] = _pick("_nx", pre, S)
    return v.with_columns(**cols)


def _groups(v: pl.LazyFrame, groups: list[str], alt_groups: list[str], on: int, S: int,
            horizon: int | None) -> pl.LazyFrame:
    status = pl.col("status")
    is_rule = status == STATUS_RULE
    dbl = pl.col("kind") == KIND_DBL
    undecidable = dbl & (
        (pl.col("n:unknown") > 0) | (pl.col("n:deck.no_level") > 0)
        | (pl.col("n:engine.no_level") > 0)
        | ((pl.col("levels") == 3)
           & ((pl.col("n:deck.rating") + pl.col("n:engine.rating")) > 0)))
    stay_ok = ~pl.col("needs_stay") | (pl.col("_has_stay") & pl.col("_in_ajb"))
    v = v.with_columns(_undecidable=undecidable.fill_null(False))
    v = v.with_columns(
        _route=(status == STATUS_ENGINE)
        | (is_rule & pl.col("needs_stay") & pl.col("_entry").is_null())
        | (is_rule & stay_ok & pl.col("_undecidable"))
        | (pl.col("crew_size") >= MAX_PACKED),  # counts too large for the packed lanes
    )
    judged = is_rule & stay_ok & ~pl.col("_route")
    has_cur = judged & pl.col("_cur").is_not_null()
    has_nx = judged & pl.col("_nx").is_not_null()
    half = pl.col("half_up")
    v = v.with_columns(_judged=judged, _has_cur=has_cur, _has_nx=has_nx)

    # Raw group sizes (whatever the verdict), then the masked output columns.
    raw: dict[str, pl.Expr] = {}
    for g in set(groups) | set(alt_groups):
        raw[f"_n:{g}"] = _sum_cells("n", group_cells(g))
        raw[f"_b:{g}"] = _sum_cells("b", group_cells(g))
    v = v.with_columns(**raw)
    rq: dict[str, pl.Expr] = {}
    for g in groups:
        n = pl.col(f"_n:{g}")
        rq[f"_r:{g}"] = pl.when(pl.col(f"g:{g}")).then(
            _round(pl.col("_cur_p"), pl.col("_cur_q"), n, half))
        rq[f"_x:{g}"] = pl.when(pl.col(f"g:{g}")).then(
            _round(pl.col("_nx_p"), pl.col("_nx_q"), n, half))
    for g in alt_groups:
        rq[f"_a:{g}"] = pl.when(pl.col(f"a:{g}")).then(
            (_round(pl.col("_cur_p"), pl.col("_cur_q"), pl.col(f"_n:{g}"), half)
             - pl.col(f"_b:{g}")).clip(lower_bound=0))
    v = v.with_columns(**rq)
    out: dict[str, pl.Expr] = {}
    for g in groups:
        flag = pl.col(f"g:{g}")
        n, b, r, x = (pl.col(f"_{k}:{g}") for k in ("n", "b", "r", "x"))
        out[f"{g}_base"] = pl.when(flag & pl.col("_judged")).then(n)
        out[f"{g}_brazilians"] = pl.when(flag & pl.col("_judged")).then(b)
        out[f"{g}_required"] = pl.when(pl.col("_has_cur")).then(r)
        out[f"{g}_deficit"] = pl.when(pl.col("_has_cur")).then((r - b).clip(lower_bound=0))
        out[f"{g}_next_required"] = pl.when(pl.col("_has_nx")).then(x)
        out[f"_xd:{g}"] = (x - b).clip(lower_bound=0)
    v = v.with_columns(**out)
    v = v.with_columns(
        total_required=pl.when(pl.col("_has_cur")).then(
            _hsum([pl.col(f"{g}_required") for g in groups]).cast(pl.Int32)),
        total_deficit=pl.when(pl.col("_has_cur")).then(
            _hsum([pl.col(f"{g}_deficit") for g in groups]).cast(pl.Int32)),
        next_required_total=pl.when(pl.col("_has_nx")).then(
            _hsum([pl.col(f"_x:{g}") for g in groups]).cast(pl.Int32)),
        next_deficit_total=pl.when(pl.col("_has_nx")).then(
            _hsum([pl.col(f"_xd:{g}") for g in groups]).cast(pl.Int32)),
        _alt_deficit=_hsum([pl.col(f"_a:{g}") for g in alt_groups]),
    )
    # The other group reading: reported when it would change the verdict.
    v = v.with_columns(alt_reading_changes_verdict=pl.when(pl.col("_has_cur") & dbl).then(
        (pl.col("total_deficit") == 0) != (pl.col("_alt_deficit") == 0)))

    # Positions (Brazilian flag): master and chief engineer Brazilian.
    pos_stage = status.is_in([STATUS_RULE, STATUS_POSITIONS])
    master_bad = (pos_stage & pl.col("pos_master") & (pl.col("master_x") > 0)).fill_null(False)
    chief_bad = (pos_stage & pl.col("pos_chief") & (pl.col("chief_x") > 0)).fill_null(False)
    exempt_bad = ((status == STATUS_EXEMPT)
                  & (pl.col("foreign_calls") == False)).fill_null(False)  # noqa: E712
    deficit = (pl.col("_has_cur") & (pl.col("total_deficit") > 0)).fill_null(False)
    bits = (exempt_bad.cast(pl.UInt32) * 8 + master_bad.cast(pl.UInt32) * 4
            + chief_bad.cast(pl.UInt32) * 2 + deficit.cast(pl.UInt32))
    v = v.with_columns(
        _pos_viol=master_bad.cast(pl.Int32) + chief_bad.cast(pl.Int32),
        findings=pl.lit(FINDINGS).gather(bits),
    )

    violated = pl.col("_pos_viol") > 0
    V = VERDICT_CODE
    verdict = (
        pl.when(pl.col("_route")).then(pl.lit(None, pl.UInt8))
        .when(status == STATUS_EXEMPT).then(
            pl.when(exempt_bad).then(V["non_compliant"]).otherwise(V["not_applicable"]))
        .when(status.is_in([STATUS_NOT_COVERED, STATUS_NOT_LISTED])).then(V["not_covered"])
        .when(status == STATUS_POSITIONS).then(
            pl.when(violated).then(V["non_compliant"]).otherwise(V["compliant"]))
        .when(status == STATUS_NO_CONTRACT).then(V["not_applicable"])
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
        .when(status == STATUS_EXEMPT).then(pl.when(exempt_bad).then(
            R["long_haul_without_foreign_calls"]).otherwise(R["exempt_activity"]))
        .when(status == STATUS_NOT_COVERED).then(R["not_modelled"])
        .when(status == STATUS_NOT_LISTED).then(R["activity_not_listed"])
        .when(status == STATUS_NO_CONTRACT).then(R["no_contract"])
        .when(status == STATUS_RULE).then(
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
        step_fraction=pl.when(pl.col("_has_cur")).then(pl.col("_cur_frac")),
        step_from_day=pl.when(pl.col("_has_cur")).then(pl.col("_cur_from")).cast(pl.Int32),
        step_since=pl.when(pl.col("_has_cur") & pl.col("needs_stay")).then(
            to_date(pl.col("_cur_since"))),
        step_extended=pl.when(pl.col("_has_cur")).then(pl.col("_cur_extended")),
        citation=pl.when(pl.col("_has_cur")).then(pl.col("_cur_cite")),
        next_fraction=pl.when(pl.col("_has_nx")).then(pl.col("_nx_frac")),
        next_from_day=pl.when(pl.col("_has_nx")).then(pl.col("_nx_from")).cast(pl.Int32),
        next_since=pl.when(pl.col("_has_nx")).then(to_date(pl.col("_nx_since"))),
        next_extended=pl.when(pl.col("_has_nx")).then(pl.col("_nx_extended")),
        next_citation=pl.when(pl.col("_has_nx")).then(pl.col("_nx_cite")),
        days_to_next=pl.when(pl.col("_has_nx")).then(pl.col("_nx_since") - on)
        .cast(pl.Int32),
        unconfirmed=pl.when(~pl.col("_route")).then(pl.col("unconfirmed")).otherwise(False),
        interpretations=pl.when(is_rule & ~pl.col("_route")).then(pl.col("interpretations")),
        error=pl.lit(None, pl.String),
    )
    if horizon is not None:
        v = _horizon(v, groups, on, S, horizon)
    return v


def _horizon(v: pl.LazyFrame, groups: list[str], on: int, S: int, horizon: int
             ) -> pl.LazyFrame:
    """Steps in (on, on + horizon] of the plan (``abordo.quota.plan``: the vessel assumed to
    stay in AJB and the regime in force on the date to stay in force), with the total
    required and the deficit of the current crew at each."""
    end = on + horizon
    # The engine's plan exists for every row that reaches the rule (empty when the vessel
    # is not yet in AJB) and fails where a group cannot be formed.
    has_plan = (pl.col("status") == STATUS_RULE) & ~pl.col("_route") \
        & ~(pl.col("_undecidable") & pl.col("_has_stay"))
    if S == 0:
        return v.with_columns(
            horizon_steps=pl.when(has_plan).then(pl.lit(0, pl.Int32)),
            horizon_first_since=pl.lit(None, pl.Date),
            horizon_max_deficit=pl.lit(None, pl.Int32),
            horizon_max_deficit_since=pl.lit(None, pl.Date),
            horizon_plan=pl.lit(None, pl.String))
    plan_ok = (pl.col("status") == STATUS_RULE) & ~pl.col("_route") \
        & (~pl.col("needs_stay") | pl.col("_has_stay")) & ~pl.col("_undecidable")
    cols: dict[str, pl.Expr] = {}
    for k in range(S):
        since = pl.col(f"_since{k}")
        cols[f"_h_in{k}"] = plan_ok & (since > on) & (since <= end)
        reqs, defs = [], []
        for g in groups:
            flag = pl.col(f"g:{g}")
            r = _round(pl.col(f"p_{k}"), pl.col(f"q_{k}"), pl.col(f"_n:{g}"), pl.col("half_up"))
            reqs.append(pl.when(flag).then(r))
            defs.append(pl.when(flag).then((r - pl.col(f"_b:{g}")).clip(lower_bound=0)))
        cols[f"_h_req{k}"] = _hsum(reqs).cast(pl.Int32)
        cols[f"_h_def{k}"] = _hsum(defs).cast(pl.Int32)
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
    parts = [pl.when(ins[k]).then(pl.format(
        "{} {} (exigidos {}, déficit {})", pl.col(f"_since{k}").cast(pl.Date),
        pl.col(f"frac_{k}"), pl.col(f"_h_req{k}"), pl.col(f"_h_def{k}"))) for k in range(S)]
    v = v.with_columns(horizon_plan=pl.concat_str(parts, separator="; ", ignore_nulls=True))
    return v.with_columns(horizon_plan=pl.when(pl.col("horizon_plan") != "")
                          .then("horizon_plan"))

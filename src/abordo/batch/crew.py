"""Crew rows → per-vessel counts of persons and Brazilians in each cell (department × level),
plus the holders of the master / chief-engineer positions. Streaming, columnar, exact.

Resolution of a person is the single-vessel one (:func:`abordo.crew.ranks.resolve_member`):
the rank table gives department, level and position; an explicit ``department`` / ``level``
/ ``position`` overrides it; the rank's position counts only when the department agrees with
the table's; nationality is read by :func:`abordo.crew.model.nationality_codes` (dual
nationals with BR count as Brazilian). Here each distinct string is resolved once, in Python,
and the crew rows only look their string's code up in small tables (Polars categoricals).

Two passes:

* the **fast pass** reads every row once (``rank``, ``nationality``) and sums, per vessel, 21
  counters packed 5 to a 64-bit word (12 bits each). It handles the rows of common cells
  whose strings were known before the pass; any other row is counted as *rare*;
* the **exact pass** re-reads only the rows of vessels with a rare row (or 4096+ persons, too
  many for 12-bit counters) and counts every cell unpacked, with the explicit columns.

Both give the same counts (``tests/batch/test_crew_counts.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import polars as pl
import pycountry
from pydantic import ValidationError

from abordo.batch.tables import CELL_INDEX, CELLS, COMMON_CELLS, DEPARTMENTS, LEVELS, cell_of
from abordo.crew.model import CrewInput, nationality_codes
from abordo.crew.ranks import rank_table
from abordo.law.errors import InputError
from abordo.law.params import load_data
from abordo.law.validation import input_error_from_pydantic

FIELD_BITS = 12
FIELD_BASE = 1 << FIELD_BITS
FIELDS_PER_LANE = 5
MAX_PACKED = FIELD_BASE - 1   # a vessel with more persons goes to the exact pass

EXPLICIT = ("department", "level", "position")
POS_NONE, POS_MASTER, POS_CHIEF = 0, 1, 2
_POS_INDEX = {"master": POS_MASTER, "chief_engineer": POS_CHIEF}

# Exact counters per vessel (the output of this module).
COUNTS: tuple[str, ...] = (
    *(f"n:{c}" for c in CELLS), *(f"b:{c}" for c in CELLS),
    "master_n", "master_x", "chief_n", "chief_x", "crew_size",
)
# Packed counters of the fast pass.
FAST_FIELDS: tuple[str, ...] = (
    *(f"n:{c}" for c in CELLS[:COMMON_CELLS]), *(f"b:{c}" for c in CELLS[:COMMON_CELLS]),
    "master_n", "master_x", "chief_n", "chief_x",
)  # a vessel's rare rows are its persons not in these cells: crew_size − Σ n
N_LANES = -(-len(FAST_FIELDS) // FIELDS_PER_LANE)
RARE_CLASS = COMMON_CELLS * 3
NAT_NO, NAT_BR, NAT_BAD = 0, 1, 2
RARE_CODE = RARE_CLASS * 3 + NAT_BAD

# Explicit-column codes (exact pass): "not given" and "invalid" sentinels.
D_UNKNOWN = len(DEPARTMENTS)            # department unknown (rank not in table)
E_DEPT_NONE, E_DEPT_BAD = len(DEPARTMENTS), len(DEPARTMENTS) + 1
L_NONE = len(LEVELS)
E_LVL_NONE, E_LVL_BAD = len(LEVELS), len(LEVELS) + 1
E_POS_NONE, E_POS_BAD = 3, 4


@dataclass(frozen=True)
class _Resolved:
    r_dept: int
    r_lvl: int
    r_pos: int
    fast_class: int
    nat: int
    e_dept: int
    e_lvl: int
    e_pos: int


_CACHE: dict[str, _Resolved] = {}


def _resolve(s: str | None) -> _Resolved:
    """Everything one string can mean in any crew column (each column reads its part)."""
    if s is None:
        return _Resolved(D_UNKNOWN, L_NONE, POS_NONE, RARE_CLASS, NAT_BAD, E_DEPT_BAD,
                         E_LVL_BAD, E_POS_BAD)
    hit = _CACHE.get(s)
    if hit is not None:
        return hit
    text = s.strip()
    entry = rank_table().lookup(text)
    if entry is None:
        r_dept, r_lvl, r_pos, fast = D_UNKNOWN, L_NONE, POS_NONE, RARE_CLASS
    else:
        r_dept = DEPARTMENTS.index(entry.department)
        r_lvl = LEVELS.index(entry.level)
        r_pos = _POS_INDEX.get(entry.position or "", POS_NONE)
        cell = CELL_INDEX[cell_of(entry.department, entry.level)]
        fast = cell * 3 + r_pos if cell < COMMON_CELLS else RARE_CLASS
    try:
        nat = NAT_BR if "BR" in nationality_codes(text) else NAT_NO
    except ValueError:
        nat = NAT_BAD
    # A blank explicit value is no value (as a crew list's empty cell).
    res = _Resolved(
        r_dept, r_lvl, r_pos, fast, nat,
        E_DEPT_NONE if not text else
        DEPARTMENTS.index(text) if text in DEPARTMENTS else E_DEPT_BAD,
        E_LVL_NONE if not text else LEVELS.index(text) if text in LEVELS else E_LVL_BAD,
        E_POS_NONE if not text else _POS_INDEX.get(text, E_POS_BAD),
    )
    _CACHE[s] = res
    return res


def _seed_strings() -> list[str]:
    """Strings expected in crew files, registered before the fast pass so that its lookup
    tables know them: every rank alias (as written, upper, lower), ISO alpha-2 codes and the
    values of the explicit columns."""
    out: dict[str, None] = {}
    for e in load_data("abordo.crew", "data/ranks.yaml")["ranks"]:
        for alias in (e["code"], *e.get("aliases", ())):
            for v in (str(alias), str(alias).upper(), str(alias).lower()):
                out[v] = None
    for c in pycountry.countries:
        out[str(c.alpha_2)] = None
    for v in (*DEPARTMENTS, *LEVELS, "master", "chief_engineer"):
        out[v] = None
    return list(out)


class Vocabulary:
    """Lookup tables (by categorical code) over Polars' global categories.

    Holds a categorical series alive so that codes seen during a pass keep their meaning
    after it; :meth:`refresh` re-reads the categories (those added by a pass included).
    """

    def __init__(self) -> None:
        self._keepalive = pl.Series("seed", _seed_strings(), dtype=pl.Categorical)
        self.refresh()

    def refresh(self) -> None:
        cats = pl.Categories()
        codes: dict[str, int] = {s: int(cats[s]) for s in list(cats) if isinstance(s, str)}
        self.size = (max(codes.values()) + 1) if codes else 0
        resolved = [_resolve(None)] * (self.size + 1)  # last slot: null / unseen code
        for s, c in codes.items():
            resolved[c] = _resolve(s)
        self._resolved = resolved

    def lut(self, attr: str, dtype: Any = pl.UInt8) -> pl.Series:
        return pl.Series([getattr(r, attr) for r in self._resolved], dtype=dtype)

    def code(self, column: str, dtype: pl.DataType) -> pl.Expr:
        """The column's categorical code, clipped to the sentinel slot (nulls too)."""
        col = pl.col(column)
        if isinstance(dtype, pl.Enum) or not (isinstance(dtype, pl.Categorical)
                                              or dtype == pl.String):
            col = col.cast(pl.String)
        if not isinstance(dtype, pl.Categorical):
            col = col.cast(pl.Categorical)
        return col.to_physical().clip(upper_bound=self.size).fill_null(self.size)


# Layout of the packed counts handed to the evaluation: the fast fields (lanes 0–4), then
# the rare cells (lanes 5–6, filled only for vessels counted exactly).
PACKED_FIELDS: tuple[str, ...] = (
    *FAST_FIELDS,
    *(f for c in CELLS[COMMON_CELLS:] for f in (f"n:{c}", f"b:{c}")),
)
PACKED_LANES = -(-len(PACKED_FIELDS) // FIELDS_PER_LANE)
LANES = tuple(f"lane{i}" for i in range(PACKED_LANES))
CODE_BITS = 12          # a captured rare row: five category codes of 12 bits in a UInt64
NULL_CODE = (1 << CODE_BITS) - 1


def _slot(fld: str) -> tuple[int, int]:
    return divmod(PACKED_FIELDS.index(fld), FIELDS_PER_LANE)


def _lane_luts() -> list[pl.Series]:
    """Per fast lane, the packed increment of each fast code (class × 3 + nationality)."""
    lanes = [[0] * (RARE_CODE + 1) for _ in range(N_LANES)]
    for code in range(RARE_CODE + 1):
        cls, nat = divmod(code, 3)
        inc: list[str] = []
        if cls < RARE_CLASS and nat != NAT_BAD:
            cell_i, pos = divmod(cls, 3)
            cell = CELLS[cell_i]
            inc.append(f"n:{cell}")
            if nat == NAT_BR:
                inc.append(f"b:{cell}")
            if pos == POS_MASTER:
                inc += ["master_n"] + (["master_x"] if nat == NAT_NO else [])
            elif pos == POS_CHIEF:
                inc += ["chief_n"] + (["chief_x"] if nat == NAT_NO else [])
        for f in inc:
            lane, pos_in_lane = _slot(f)
            lanes[lane][code] += 1 << (FIELD_BITS * pos_in_lane)
    return [pl.Series(f"lane{i}", v, dtype=pl.UInt64) for i, v in enumerate(lanes)]


def unpack_exprs() -> dict[str, pl.Expr]:
    """Expressions reading every count of :data:`COUNTS` (UInt32) from the lane columns."""
    out: dict[str, pl.Expr] = {}
    for fld in PACKED_FIELDS:
        lane, pos = _slot(fld)
        out[fld] = ((pl.col(f"lane{lane}") // (FIELD_BASE ** pos)) % FIELD_BASE).cast(pl.UInt32)
    return out


def pack_exprs() -> list[pl.Expr]:
    """The lane columns from count columns (each < 4096): inverse of :func:`unpack_exprs`."""
    lanes: list[list[pl.Expr]] = [[] for _ in range(PACKED_LANES)]
    for fld in PACKED_FIELDS:
        lane, pos = _slot(fld)
        lanes[lane].append(pl.col(fld).cast(pl.UInt64) * (FIELD_BASE ** pos))
    return [pl.sum_horizontal(exprs).cast(pl.UInt64).alias(f"lane{i}")
            for i, exprs in enumerate(lanes)]


@dataclass
class CrewSource:
    """The crew table: a lazy frame with ``vessel_id`` and some of ``id``, ``rank``,
    ``nationality``, ``department``, ``level``, ``position`` (raw values), where it comes
    from (for errors) and how its record index maps to the row users see."""

    lf: pl.LazyFrame
    display: str
    row_offset: int  # row shown = record index + row_offset (CSV: header is row 1)
    schema: dict[str, pl.DataType] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.schema:
            self.schema = dict(self.lf.collect_schema())

    def has(self, column: str) -> bool:
        return column in self.schema


def _raw_code(src: CrewSource, column: str) -> pl.Expr:
    """A column's category code for capture (nulls and absent columns: NULL_CODE)."""
    if not src.has(column):
        return pl.lit(NULL_CODE, pl.UInt64)
    col = pl.col(column)
    dtype = src.schema[column]
    if isinstance(dtype, pl.Enum) or not (isinstance(dtype, pl.Categorical)
                                          or dtype == pl.String):
        col = col.cast(pl.String)
    if not isinstance(dtype, pl.Categorical):
        col = col.cast(pl.Categorical)
    return col.to_physical().cast(pl.UInt64).clip(upper_bound=NULL_CODE).fill_null(NULL_CODE)


CAPTURED = ("rank", "nationality", *EXPLICIT)


def _fast_pass(src: CrewSource, voc: Vocabulary) -> pl.LazyFrame:
    cls = pl.lit(voc.lut("fast_class")).gather(voc.code("rank", src.schema["rank"])) \
        if src.has("rank") else pl.lit(RARE_CLASS, pl.UInt8)
    nat = pl.lit(voc.lut("nat")).gather(voc.code("nationality", src.schema["nationality"]))
    rare = (cls == RARE_CLASS) | (nat == NAT_BAD)
    explicit = [pl.col(c).is_not_null() for c in EXPLICIT if src.has(c)]
    if explicit:
        rare = rare | pl.any_horizontal(explicit)
    code = pl.when(rare).then(pl.lit(RARE_CODE, pl.UInt8)).otherwise((cls * 3 + nat)
                                                                     .cast(pl.UInt8))
    # A rare row, kept whole: the category codes of its columns, 12 bits each.
    raw = pl.lit(0, pl.UInt64)
    for i, c in enumerate(CAPTURED):
        raw = raw + _raw_code(src, c) * (1 << (CODE_BITS * (len(CAPTURED) - 1 - i)))
    lanes = _lane_luts()
    return (src.lf.select(pl.col("vessel_id"), code.alias("_code"), raw.alias("_raw"))
            .with_columns([pl.lit(s).gather(pl.col("_code")).alias(s.name) for s in lanes]
                          + [pl.when(pl.col("_code") == RARE_CODE).then(pl.col("_raw"))
                             .alias("_rare_raw")])
            .group_by("vessel_id")
            .agg([pl.col(s.name).sum() for s in lanes]
                 + [pl.len().alias("crew_size"), pl.col("_rare_raw").min().alias("_raw_min"),
                    pl.col("_rare_raw").max().alias("_raw_max")]))


def _classify(voc: Vocabulary, codes: dict[str, pl.Expr], given: dict[str, pl.Expr]
              ) -> dict[str, pl.Expr]:
    """Per-row ``_cell``, ``_br``, ``_pos``, ``_bad`` from category codes (``codes``: the
    vocabulary code of rank / nationality / explicit columns; ``given``: whether each
    explicit column holds a value) — :func:`abordo.crew.ranks.resolve_member` in columns."""
    bad: list[pl.Expr] = []
    if "rank" in codes:
        r_dept = pl.lit(voc.lut("r_dept")).gather(codes["rank"])
        r_lvl = pl.lit(voc.lut("r_lvl")).gather(codes["rank"])
        r_pos = pl.lit(voc.lut("r_pos")).gather(codes["rank"])
    else:
        r_dept = pl.lit(D_UNKNOWN, pl.UInt8)
        r_lvl = pl.lit(L_NONE, pl.UInt8)
        r_pos = pl.lit(POS_NONE, pl.UInt8)

    def explicit(column: str, attr: str, none: int, invalid: int) -> pl.Expr:
        if column not in codes:
            return pl.lit(none, pl.UInt8)
        v = pl.when(~given[column]).then(pl.lit(none, pl.UInt8)).otherwise(
            pl.lit(voc.lut(attr)).gather(codes[column]))
        bad.append(v == invalid)
        return v

    e_dept = explicit("department", "e_dept", E_DEPT_NONE, E_DEPT_BAD)
    e_lvl = explicit("level", "e_lvl", E_LVL_NONE, E_LVL_BAD)
    e_pos = explicit("position", "e_pos", E_POS_NONE, E_POS_BAD)
    dept = pl.when(e_dept == E_DEPT_NONE).then(r_dept).otherwise(e_dept)
    lvl = pl.when(e_lvl == E_LVL_NONE).then(r_lvl).otherwise(e_lvl)
    pos = pl.when(e_pos == E_POS_NONE).then(
        pl.when(dept == r_dept).then(r_pos).otherwise(pl.lit(POS_NONE, pl.UInt8))
    ).otherwise(e_pos)
    cell_lut = [CELL_INDEX[cell_of(DEPARTMENTS[d] if d < len(DEPARTMENTS) else None,
                                   LEVELS[lv] if lv < len(LEVELS) else None)]
                for d in range(len(DEPARTMENTS) + 1) for lv in range(len(LEVELS) + 1)]
    d_clip = dept.clip(upper_bound=len(DEPARTMENTS)).cast(pl.UInt32)
    l_clip = lvl.clip(upper_bound=len(LEVELS)).cast(pl.UInt32)
    cell = pl.lit(pl.Series(cell_lut, dtype=pl.UInt8)).gather(
        d_clip * (len(LEVELS) + 1) + l_clip)
    nat = pl.lit(voc.lut("nat")).gather(codes["nationality"])
    bad.append(nat == NAT_BAD)
    return {"_cell": cell, "_br": nat == NAT_BR, "_pos": pos,
            "_bad": pl.any_horizontal(bad)}


def _classify_source(src: CrewSource, voc: Vocabulary) -> dict[str, pl.Expr]:
    codes = {c: voc.code(c, src.schema[c]) for c in CAPTURED if src.has(c)}
    given = {c: pl.col(c).is_not_null() for c in EXPLICIT if src.has(c)}
    return _classify(voc, codes, given)


def _count_aggs() -> list[pl.Expr]:
    aggs: list[pl.Expr] = []
    for i, c in enumerate(CELLS):
        in_cell = pl.col("_cell") == i
        aggs += [in_cell.sum().cast(pl.UInt32).alias(f"n:{c}"),
                 (in_cell & pl.col("_br")).sum().cast(pl.UInt32).alias(f"b:{c}")]
    for name, p in (("master", POS_MASTER), ("chief", POS_CHIEF)):
        holder = pl.col("_pos") == p
        aggs += [holder.sum().cast(pl.UInt32).alias(f"{name}_n"),
                 (holder & ~pl.col("_br")).sum().cast(pl.UInt32).alias(f"{name}_x")]
    return [*aggs, pl.len().cast(pl.UInt32).alias("_rows"),
            pl.col("_bad").sum().cast(pl.UInt32).alias("_bad")]


def _exact_pass(src: CrewSource, voc: Vocabulary, vessel_ids: pl.Series) -> pl.LazyFrame:
    ex = _classify_source(src, voc)
    return (src.lf.filter(pl.col("vessel_id").is_in(vessel_ids.implode()))
            .select(pl.col("vessel_id"), *(e.alias(k) for k, e in ex.items()))
            .group_by("vessel_id").agg(_count_aggs()))


def _captured(voc: Vocabulary, rare: pl.DataFrame) -> pl.DataFrame:
    """Counts of the captured rare rows (``vessel_id``, ``_raw``, one row per person)."""
    codes: dict[str, pl.Expr] = {}
    given: dict[str, pl.Expr] = {}
    for i, c in enumerate(CAPTURED):
        code = (pl.col("_raw") // (1 << (CODE_BITS * (len(CAPTURED) - 1 - i)))) % (1 << CODE_BITS)
        codes[c] = pl.when(code == NULL_CODE).then(pl.lit(voc.size, pl.UInt64)) \
            .otherwise(code).cast(pl.UInt32)
        given[c] = code != NULL_CODE
    ex = _classify(voc, codes, given)
    return (rare.lazy().select(pl.col("vessel_id"), *(e.alias(k) for k, e in ex.items()))
            .group_by("vessel_id").agg(_count_aggs()).collect())


@dataclass
class CrewCounts:
    """Per vessel: ``vessel_id``, the lane columns :data:`LANES` (every count packed 12 bits
    each, see :func:`unpack_exprs`) and ``crew_size``; and how they were obtained.

    ``too_large``: ids of vessels with 4,095 persons or more, whose counts do not fit the
    lanes (left to the single-vessel engine).
    """

    packed: pl.DataFrame
    rows: int
    exact_vessels: int
    passes: int
    too_large: pl.Series


def count_crew(src: CrewSource, stage: Callable[[str], None] | None = None) -> CrewCounts:
    """Stream the crew table once (plus, when needed, a second pass restricted to vessels
    with several kinds of unusual rows) and return the exact counts per vessel, packed.

    Raises :class:`InputError` (file, row, field) for a crew row whose nationality /
    department / level / position is invalid — the same message the single-vessel loader
    gives for that row. Vessel ids are checked by :func:`check_vessel_ids` (the evaluation
    calls it when some crew rows match no vessel).
    """
    if "nationality" not in src.schema:
        raise InputError("coluna obrigatória ausente: nationality (nacionalidade)",
                         "nationality", src.display, 1 if src.row_offset == 2 else None,
                         message_en="required column missing: nationality")
    voc = Vocabulary()
    if stage:
        stage("crew.fast")
    fast = _fast_pass(src, voc).collect(engine="streaming")
    voc.refresh()
    rows = int(fast["crew_size"].sum() or 0)
    unpacked = unpack_exprs()
    rare_n = pl.col("crew_size").cast(pl.Int64) - pl.sum_horizontal(
        [unpacked[f"n:{c}"] for c in CELLS[:COMMON_CELLS]]).cast(pl.Int64)
    big = pl.col("crew_size") >= MAX_PACKED
    fast = fast.with_columns([pl.lit(0, pl.UInt64).alias(n) for n in LANES[N_LANES:]]) \
        .with_columns(_rare=rare_n.cast(pl.UInt32), _big=big).with_row_index("_pos")
    capturable = voc.size < NULL_CODE
    # Rare rows of a vessel are known exactly when they are at most two, or all alike.
    captured_ok = capturable & ((pl.col("_rare") <= 2)
                                | (pl.col("_raw_min") == pl.col("_raw_max")))
    need = fast.filter((pl.col("_rare") > 0) & ~pl.col("_big"))
    cap = need.filter(captured_ok)
    rescan = need.filter(~captured_ok)
    patches: list[pl.DataFrame] = []
    passes = 1
    if cap.height:
        one = cap.select("vessel_id", pl.col("_raw_min").alias("_raw"),
                         pl.when(pl.col("_raw_min") == pl.col("_raw_max"))
                         .then(pl.col("_rare")).otherwise(1).alias("_times"))
        two = cap.filter(pl.col("_raw_min") != pl.col("_raw_max")).select(
            "vessel_id", pl.col("_raw_max").alias("_raw"), pl.lit(1, pl.UInt32).alias("_times"))
        rare_rows = pl.concat([one, two], how="vertical_relaxed")
        rare_rows = rare_rows.select("vessel_id", "_raw", pl.col("_times").cast(pl.UInt32)) \
            .with_columns(pl.int_ranges(0, pl.col("_times")).alias("_k")).explode("_k") \
            .drop("_k", "_times")
        delta = _captured(voc, rare_rows)
        if int(delta["_bad"].sum() or 0):
            raise _first_bad_row(src, voc)
        base = cap.select("vessel_id", *(e.alias(k) for k, e in unpack_exprs().items()))
        merged = base.join(delta, on="vessel_id", suffix="_d").select(
            "vessel_id", *((pl.col(k) + pl.col(f"{k}_d")).alias(k) for k in COUNTS
                           if k != "crew_size"))
        patches.append(merged)
    if rescan.height:
        if stage:
            stage("crew.exact")
        exact = _exact_pass(src, voc, rescan["vessel_id"]).collect(engine="streaming")
        passes = 2
        if int(exact["_bad"].sum() or 0):
            raise _first_bad_row(src, voc)
        patches.append(exact.select("vessel_id", *(k for k in COUNTS if k != "crew_size")))
    packed = fast.select("vessel_id", *LANES, pl.col("crew_size").cast(pl.UInt32))
    if patches:  # exact counts replace those rows, in place (the order of vessels is kept)
        patch = pl.concat(patches).join(fast.select("vessel_id", "_pos"), on="vessel_id")
        lanes = patch.select("_pos", *pack_exprs())
        packed = packed.with_columns(
            packed[n].scatter(lanes["_pos"], lanes[n]) for n in LANES)
    return CrewCounts(packed, rows, need.height, passes,
                      fast.filter(pl.col("_big"))["vessel_id"])


def check_vessel_ids(src: CrewSource, seen: pl.Series, known: pl.Series) -> None:
    """Raise :class:`InputError` for the first crew row whose vessel id is missing or not
    among ``known`` (``seen``: the vessel ids of the crew table)."""
    unknown = seen.filter(~seen.is_in(known) | seen.is_null())
    if unknown.len() == 0:
        return
    bad = unknown.head(1000)
    hit = (src.lf.with_row_index("_i")
           .filter(pl.col("vessel_id").is_in(bad.drop_nulls().implode())
                   | pl.col("vessel_id").is_null())
           .select("_i", "vessel_id").head(1).collect())
    row = int(hit["_i"][0]) + src.row_offset if hit.height else None
    value = hit["vessel_id"][0] if hit.height else None
    if value is None:
        raise InputError("vessel_id ausente: cada pessoa deve indicar a embarcação",
                         "vessel_id", src.display, row,
                         message_en="missing vessel_id: each person must name the vessel")
    raise InputError(f"embarcação '{value}' não consta da tabela de embarcações",
                     "vessel_id", src.display, row,
                     message_en=f"vessel '{value}' is not in the vessels table")


def _first_bad_row(src: CrewSource, voc: Vocabulary) -> InputError:
    """The first crew row whose values the crew model rejects, as that model says it."""
    ex = _classify_source(src, voc)
    cols = [c for c in ("id", "rank", "nationality", *EXPLICIT) if src.has(c)]
    hit = (src.lf.with_row_index("_i").with_columns(_bad=ex["_bad"]).filter(pl.col("_bad"))
           .select("_i", *(pl.col(c).cast(pl.String) for c in cols)).head(1).collect())
    if not hit.height:  # pragma: no cover - the exact pass saw one
        return InputError("linha de tripulação inválida", None, src.display,
                          message_en="invalid crew row")
    rec = hit.row(0, named=True)
    row = int(rec.pop("_i")) + src.row_offset
    data = {k: v.strip() for k, v in rec.items() if v is not None and v.strip()}
    data.setdefault("id", f"L{row}")
    try:
        CrewInput.model_validate(data)
    except ValidationError as exc:
        return input_error_from_pydantic(exc, file=src.display, row=row)
    return InputError("linha de tripulação inválida", None, src.display, row,  # pragma: no cover
                      message_en="invalid crew row")


def fetch_rows(src: CrewSource, vessel_ids: Iterable[Any]) -> dict[Any, list[dict[str, Any]]]:
    """The raw crew rows of a few vessels (for the single-vessel engine), in file order,
    each with ``_row`` (the row users see)."""
    ids = pl.Series(list(vessel_ids))
    cols = [c for c in ("id", "rank", "nationality", *EXPLICIT) if src.has(c)]
    df = (src.lf.with_row_index("_i").filter(pl.col("vessel_id").is_in(ids.implode()))
          .select("_i", "vessel_id", *(pl.col(c).cast(pl.String) for c in cols)).collect())
    out: dict[Any, list[dict[str, Any]]] = {v: [] for v in ids.to_list()}
    for rec in df.iter_rows(named=True):
        rec["_row"] = int(rec.pop("_i")) + src.row_offset
        out.setdefault(rec.pop("vessel_id"), []).append(rec)
    return out

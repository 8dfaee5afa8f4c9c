"""Crew rows → per-vessel counts of persons and Brazilians in each cell (department × level),
plus the holders of the master / chief-engineer positions. Streaming, columnar, exact.

Resolution of a person is the single-vessel one (:func:`abordo.crew.ranks.resolve_member`):
the rank table gives department, level and position; an explicit ``department`` / ``level``
/ ``position`` overrides it (the rank's position stands whatever the department);
nationality is read by :func:`abordo.crew.model.nationality_codes` (dual nationals with BR
count as Brazilian). Here each distinct string is resolved once, in Python,
and the crew rows only look their string's code up in small tables (Polars categoricals).

Two passes at most:

* the **fast pass** reads every row once: its rank and nationality become one small integer
  code (two lookups and an addition); per vessel, one streaming ``group_by`` sums the packed
  counters of that code (12 bits each, 5 to a 64-bit word) and the persons. It handles the
  rows of common cells whose strings were known before the pass; any other row is *rare*
  (code ≥ :data:`FAST_CODES`: an unknown or unusual rank, a spelling not seen before, a dual
  national written in a way not seen before, an uncommon cell) and adds nothing to the
  counters — a vessel's rare rows are its persons not counted in any cell. Rows with an
  explicit department / level / position are counted first (a read of those columns only):
  up to :data:`FEW_EXPLICIT` they are rare too; beyond (a crew list that writes every
  person's department), the rank's and the explicit values' codes index one table of
  classes instead (:func:`_explicit_table`), and only invalid values and uncommon cells
  are rare;
* the **exact pass**, only when there are rare rows, reads the table again and keeps only
  the rare rows — the same rows, selected by a predicate on the raw columns that the
  Parquet reader applies while reading (rank or nationality among the strings the first
  pass could not take, or an explicit value given — this alone when the rare rows are as
  many as the rows with an explicit value, the usual case), or, when the fast pass looked the
  explicit values up (rarity then depends on their combination), by the fast pass's own
  code. Their number is known from the first pass: up to :data:`RARE_LIMIT` they are
  collected and classified in memory; beyond, the distinct values of the explicit columns
  are read first and the rare rows are classified as they stream by. Either way they are
  counted per vessel, every cell unpacked, and added to the fast counts.

(Both passes over one shared scan — ``pl.collect_all`` — would save the second read, but
Polars 2.1 then buffers the whole table for the branch that waits: +1 GiB at 3·10⁷ rows.)
Both routes give the counts of the single-vessel resolution
(``tests/batch/test_screen.py::test_fast_pass_and_exact_counts_agree``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import polars as pl
import pycountry
from pydantic import ValidationError

from abordo.batch.tables import CELL_INDEX, CELLS, COMMON_CELLS, DEPARTMENTS, LEVELS, cell_of
from abordo.crew.model import CrewInput, department_value, level_value, nationality_codes
from abordo.crew.ranks import RankEntry, effective_level, rank_table
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
# Fast code of a row: class × 2 + Brazilian (0/1). A rare class gives a code ≥ FAST_CODES,
# and so do a nationality that is not plain (+ _FAST_NAT_BAD) and, when few rows have
# explicit values, such a row (+ _FAST_EXPLICIT): "rare" is one comparison. A null code is
# rare too (_FAST_NULL).
FAST_CODES = RARE_CLASS * 2
_FAST_NAT_BAD = 64
_FAST_EXPLICIT = 128
_FAST_NULL = 255
# Up to this many rows with an explicit value, they are left to the second pass (the
# lookup of every row's explicit values costs the fast pass more than reading those back).
FEW_EXPLICIT = 1 << 17
RARE_LIMIT = 1 << 20  # rare rows collected in memory by the exact pass (beyond: streamed)

# Explicit-column codes (exact pass): "not given" and "invalid" sentinels.
D_UNKNOWN = len(DEPARTMENTS)            # department unknown (rank not in table)
E_DEPT_NONE, E_DEPT_BAD = len(DEPARTMENTS), len(DEPARTMENTS) + 1
L_NONE = len(LEVELS)
E_LVL_NONE, E_LVL_BAD = len(LEVELS), len(LEVELS) + 1
E_POS_NONE, E_POS_BAD = 3, 4
# With explicit columns the fast class comes from one table indexed by the rank's
# (department, level, position) — ``rk`` — and the three explicit codes (given, none, bad).
_RK_SIZE = (len(DEPARTMENTS) + 1) * (len(LEVELS) + 1) * 3
RK_UNSEEN = _RK_SIZE  # a rank string the pass does not know yet: rare
_N_ED, _N_EL, _N_EP = len(DEPARTMENTS) + 2, len(LEVELS) + 2, 5


def _rank_index(r_dept: int, r_lvl: int, r_pos: int) -> int:
    return (r_dept * (len(LEVELS) + 1) + r_lvl) * 3 + r_pos


RK_NO_RANK = _rank_index(D_UNKNOWN, L_NONE, POS_NONE)  # no rank given


def _level(r_dept: int, r_lvl: int, el: int, dept: int) -> int:
    """The level code of a person: :func:`abordo.crew.ranks.effective_level` over codes (the
    rank's department and level, the explicit level — or none —, the department kept)."""
    if el == E_LVL_NONE:
        return r_lvl
    rank = (RankEntry("", DEPARTMENTS[r_dept], LEVELS[r_lvl], None)
            if r_dept < len(DEPARTMENTS) and r_lvl < len(LEVELS) else None)
    level = effective_level(LEVELS[el], DEPARTMENTS[dept] if dept < len(DEPARTMENTS) else None,
                            rank)
    return LEVELS.index(level) if level is not None else el


def _level_table() -> pl.Series:
    """:func:`_level` for every ``((r_dept × RL + r_lvl) × EL + e_lvl) × RD + dept`` (codes
    clipped: an unknown department or level, an explicit level given or not)."""
    nd, nl = len(DEPARTMENTS) + 1, len(LEVELS) + 1
    return pl.Series([_level(rd, rl, el, d) if el < len(LEVELS) else rl
                      for rd in range(nd) for rl in range(nl) for el in range(nl)
                      for d in range(nd)], dtype=pl.UInt8)


def _explicit_class(rk: int, ed: int, el: int, ep: int) -> int:
    """The fast class (cell × 3 + position, or :data:`RARE_CLASS`) of a person whose rank
    resolves to ``rk`` with explicit department / level / position codes ``ed`` / ``el`` /
    ``ep`` — :func:`abordo.crew.ranks.resolve_member`: an explicit value wins; else the
    rank's position."""
    if rk == RK_UNSEEN or ed == E_DEPT_BAD or el == E_LVL_BAD or ep == E_POS_BAD:
        return RARE_CLASS
    r_dept, rest = divmod(rk, (len(LEVELS) + 1) * 3)
    r_lvl, r_pos = divmod(rest, 3)
    dept = r_dept if ed == E_DEPT_NONE else ed
    lvl = _level(r_dept, r_lvl, el, dept)
    pos = ep if ep != E_POS_NONE else r_pos
    cell = CELL_INDEX[cell_of(DEPARTMENTS[dept] if dept < len(DEPARTMENTS) else None,
                              LEVELS[lvl] if lvl < len(LEVELS) else None)]
    return cell * 3 + pos if cell < COMMON_CELLS else RARE_CLASS


def _explicit_table() -> pl.Series:
    """:func:`_explicit_class` for every index ``((rk × ED + ed) × EL + el) × EP + ep``."""
    return pl.Series([_explicit_class(rk, ed, el, ep)
                      for rk in range(_RK_SIZE + 1) for ed in range(_N_ED)
                      for el in range(_N_EL) for ep in range(_N_EP)], dtype=pl.UInt8)


@dataclass(frozen=True)
class _Resolved:
    r_dept: int
    r_lvl: int
    r_pos: int
    rk: int  # (r_dept, r_lvl, r_pos) as one index of the explicit-column table
    fast_class: int
    nat: int
    e_dept: int
    e_lvl: int
    e_pos: int


_CACHE: dict[str, _Resolved] = {}


def _resolve(s: str | None) -> _Resolved:
    """Everything one string can mean in any crew column (each column reads its part)."""
    if s is None:  # the sentinel slot: a string the lookups do not know (yet)
        return _Resolved(D_UNKNOWN, L_NONE, POS_NONE, RK_UNSEEN, RARE_CLASS, NAT_BAD,
                         E_DEPT_BAD, E_LVL_BAD, E_POS_BAD)
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
    dept, lvl = department_value(text), level_value(text)  # as the crew model reads them
    res = _Resolved(
        r_dept, r_lvl, r_pos, _rank_index(r_dept, r_lvl, r_pos), fast, nat,
        E_DEPT_NONE if not text else
        DEPARTMENTS.index(dept) if dept in DEPARTMENTS else E_DEPT_BAD,
        E_LVL_NONE if not text else LEVELS.index(lvl) if lvl in LEVELS else E_LVL_BAD,
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
        self._kept: list[pl.DataFrame] = []
        self.refresh()

    def refresh(self) -> None:
        cats = pl.Categories()
        codes: dict[str, int] = {s: int(cats[s]) for s in list(cats) if isinstance(s, str)}
        self.codes = codes
        self.size = (max(codes.values()) + 1) if codes else 0
        resolved = [_resolve(None)] * (self.size + 1)  # last slot: null / unseen code
        for s, c in codes.items():
            resolved[c] = _resolve(s)
        self._resolved = resolved

    def keep(self, frame: pl.DataFrame) -> None:
        """Keep ``frame`` (categorical columns) alive with the vocabulary; refresh."""
        self._kept.append(frame)
        self.refresh()

    def snapshot(self) -> Vocabulary:
        """A copy of the lookups as they are now (the categories stay shared)."""
        copy = Vocabulary.__new__(Vocabulary)
        copy.__dict__.update(self.__dict__)
        return copy

    def lut(self, attr: str, dtype: Any = pl.UInt8) -> pl.Series:
        return pl.Series([getattr(r, attr) for r in self._resolved], dtype=dtype)

    def fast_nat_lut(self) -> pl.Series:
        """Nationality term of the fast code: 0 foreign, 1 Brazilian, 64 not plain."""
        return pl.Series([_FAST_NAT_BAD if r.nat == NAT_BAD else r.nat
                          for r in self._resolved], dtype=pl.UInt8)

    def code(self, column: str, dtype: pl.DataType, nulls: bool = True) -> pl.Expr:
        """The column's categorical code, clipped to the sentinel slot (nulls too, unless
        ``nulls`` is false: then they stay null)."""
        code = _categorical(column, dtype).to_physical().clip(upper_bound=self.size)
        return code.fill_null(self.size) if nulls else code


def _categorical(column: str, dtype: pl.DataType) -> pl.Expr:
    """The column as a (global) categorical: its strings enter the vocabulary's categories."""
    col = pl.col(column)
    if isinstance(dtype, pl.Enum) or not (isinstance(dtype, pl.Categorical)
                                          or dtype == pl.String):
        col = col.cast(pl.String)
    if not isinstance(dtype, pl.Categorical):
        col = col.cast(pl.Categorical)
    return col


# Layout of the packed counts handed to the evaluation: the fast fields (lanes 0–4), then
# the rare cells (lanes 5–6, filled only for vessels counted exactly).
PACKED_FIELDS: tuple[str, ...] = (
    *FAST_FIELDS,
    *(f for c in CELLS[COMMON_CELLS:] for f in (f"n:{c}", f"b:{c}")),
)
PACKED_LANES = -(-len(PACKED_FIELDS) // FIELDS_PER_LANE)
LANES = tuple(f"lane{i}" for i in range(PACKED_LANES))


def _slot(fld: str) -> tuple[int, int]:
    return divmod(PACKED_FIELDS.index(fld), FIELDS_PER_LANE)


def _lane_luts() -> list[pl.Series]:
    """Per fast lane, the packed increment of each fast code (class × 2 + Brazilian); the
    codes ≥ :data:`FAST_CODES` (rare rows) add nothing."""
    lanes = [[0] * 256 for _ in range(N_LANES)]
    for code in range(FAST_CODES):
        cls, nat = divmod(code, 2)
        cell_i, pos = divmod(cls, 3)
        cell = CELLS[cell_i]
        inc = [f"n:{cell}"] + ([f"b:{cell}"] if nat == NAT_BR else [])
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
    # The table with its record index ``_i`` when ``lf`` leaves rows out (blank CSV rows).
    numbered: pl.LazyFrame | None = None
    # Canonical field → its column as written (``nationality`` → ``Nacionalidade``).
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.schema:
            self.schema = dict(self.lf.collect_schema())

    def has(self, column: str) -> bool:
        return column in self.schema

    def in_own_terms(self, err: InputError) -> InputError:
        """``err`` (and its details) with a field of this table named by its column as
        written — ``campo Nacionalidade``, as ``abordo check`` names a crew file's column."""
        if err.file != self.display or err.field not in self.headers:
            return replace(err, details=[self.in_own_terms(d) for d in err.details])
        return replace(err, field=self.headers[err.field],
                       details=[self.in_own_terms(d) for d in err.details])

    @contextmanager
    def errors_as_written(self) -> Iterator[None]:
        """An :class:`InputError` raised inside, with its fields named as
        :meth:`in_own_terms` names them."""
        try:
            yield
        except InputError as exc:
            raise self.in_own_terms(exc) from None

    def indexed(self) -> pl.LazyFrame:
        """The rows of ``lf`` with ``_i``, their record index in the file (row users see =
        ``_i`` + ``row_offset``)."""
        return self.numbered if self.numbered is not None else self.lf.with_row_index("_i")


CAPTURED = ("rank", "nationality", *EXPLICIT)


def _given(src: CrewSource) -> list[pl.Expr]:
    """Per explicit column of the table (department / level / position): a value given."""
    return [pl.col(c).is_not_null() for c in EXPLICIT if src.has(c)]


def _fast_pass(src: CrewSource, voc: Vocabulary, explicit_rows: int = 0
               ) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The fast counts per vessel and the rare rows (every column) selected by the same
    code — the lookups as they are now, so exactly the rows the counts leave out.
    ``explicit_rows``: rows with an explicit department / level / position (beyond
    :data:`FEW_EXPLICIT` their values are looked up here)."""
    nat = pl.lit(voc.fast_nat_lut()).gather(
        voc.code("nationality", src.schema["nationality"], nulls=False))
    explicit = _given(src)
    if explicit and explicit_rows > FEW_EXPLICIT:
        code = _explicit_fast_class(src, voc) * 2 + nat
    else:
        cls = pl.lit(voc.lut("fast_class")).gather(
            voc.code("rank", src.schema["rank"], nulls=False)) \
            if src.has("rank") else pl.lit(RARE_CLASS, pl.UInt8)
        code = cls * 2 + nat
        if explicit:
            code = code + pl.any_horizontal(explicit).cast(pl.UInt8) * _FAST_EXPLICIT
    # A null rank or nationality gives a null code: rare too.
    base = src.lf.with_columns(code.fill_null(_FAST_NULL).alias("_code"))
    words = _word_luts(_lane_luts())
    # In order of first appearance: a crew table exported in the vessels' order (the usual
    # case) then needs no join to meet its vessels (``evaluate_fleet``); it costs less.
    counts = (base.select(pl.col("vessel_id"),
                          *(pl.lit(s).gather(pl.col("_code")).alias(s.name) for s in words))
              .group_by("vessel_id", maintain_order=True)
              .agg([pl.col(s.name).sum() for s in words] + [pl.len().alias("crew_size")])
              .select("vessel_id", *_split_words(words, N_LANES), "crew_size"))
    return counts, base.filter(pl.col("_code") >= FAST_CODES)


def _explicit_fast_class(src: CrewSource, voc: Vocabulary) -> pl.Expr:
    """The fast class of each row when the table has explicit department / level /
    position columns: one lookup in :func:`_explicit_table` (a crew list that writes every
    person's department stays on the fast pass; only values the pass does not know, invalid
    ones and uncommon cells are left to the exact pass)."""
    rk = (pl.lit(voc.lut("rk")).gather(voc.code("rank", src.schema["rank"], nulls=False))
          .fill_null(RK_NO_RANK) if src.has("rank") else pl.lit(RK_NO_RANK, pl.UInt8))
    parts = []
    for column, attr, none in (("department", "e_dept", E_DEPT_NONE),
                               ("level", "e_lvl", E_LVL_NONE),
                               ("position", "e_pos", E_POS_NONE)):
        parts.append(pl.lit(voc.lut(attr)).gather(
            voc.code(column, src.schema[column], nulls=False)).fill_null(none)
            if src.has(column) else pl.lit(none, pl.UInt8))
    ed, el, ep = (p.cast(pl.UInt32) for p in parts)
    index = ((rk.cast(pl.UInt32) * _N_ED + ed) * _N_EL + el) * _N_EP + ep
    return pl.lit(_explicit_table()).gather(index)


_HALF = 1 << 64


def _word_luts(lanes: list[pl.Series]) -> list[pl.Series]:
    """``lanes`` (UInt64 lookup tables) two by two as 128-bit words, the low lane in the low
    half: one gather and one sum per pair. A lane's fields stay below bit 60 (5 × 12 bits),
    so a vessel's sum never carries into the other half while each count stays below 4,096
    — vessels with 4,095 persons or more are left to the engine (``MAX_PACKED``)."""
    out = []
    for i in range(0, len(lanes), 2):
        lo = lanes[i].to_list()
        hi = lanes[i + 1].to_list() if i + 1 < len(lanes) else [0] * len(lo)
        out.append(pl.Series(f"w{i // 2}", [a + b * _HALF for a, b in zip(lo, hi, strict=True)],
                             dtype=pl.UInt128))
    return out


def _split_words(words: list[pl.Series], n_lanes: int) -> list[pl.Expr]:
    """The ``n_lanes`` lane columns (UInt64, ``lane0``…) back from the summed words."""
    out = []
    half = pl.lit(_HALF, pl.UInt128)
    for i in range(n_lanes):
        w = pl.col(words[i // 2].name)
        part = w % half if i % 2 == 0 else w // half
        out.append(part.cast(pl.UInt64).alias(f"lane{i}"))
    return out


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
    nd, nl = len(DEPARTMENTS) + 1, len(LEVELS) + 1

    def clip(e: pl.Expr, top: int) -> pl.Expr:
        return e.clip(upper_bound=top).cast(pl.UInt32)

    # An explicit level wins over the rank's, an explicit "rating" taking the rank's finer
    # level (one table of ranks.effective_level); an invalid one stays invalid (_bad).
    lvl = pl.when(e_lvl == E_LVL_BAD).then(e_lvl).otherwise(pl.lit(_level_table()).gather(
        ((clip(r_dept, nd - 1) * nl + clip(r_lvl, nl - 1)) * nl + clip(e_lvl, nl - 1)) * nd
        + clip(dept, nd - 1)))
    pos = pl.when(e_pos == E_POS_NONE).then(r_pos).otherwise(e_pos)
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


def _rare_rows(src: CrewSource, before: Vocabulary, codes: dict[str, int], table: bool
               ) -> pl.LazyFrame | None:
    """The rows the fast pass left out, as a filter on the raw columns that the Parquet
    reader can apply while reading (cheaper than recomputing the code of every row).

    ``before``: the vocabulary the fast pass used; ``codes``: every category after it. A
    rank or nationality is rare when the pass did not know it (its code was beyond
    ``before``) or knew it as rare; a row with an explicit value is rare unless the fast
    pass looked those up (``table``: then rarity depends on the combination of values, which
    no filter on the raw strings says, and None is returned — the fast code selects them).
    None too when a column's type allows no such filter."""
    if table or not all(isinstance(src.schema[c], pl.Categorical) or src.schema[c] == pl.String
                        for c in ("rank", "nationality") if src.has(c)):
        return None
    cls, nat = before.lut("fast_class").to_list(), before.fast_nat_lut().to_list()
    odd_rank = [t for t, c in codes.items() if c >= before.size or cls[c] == RARE_CLASS]
    odd_nat = [t for t, c in codes.items() if c >= before.size or nat[c] == _FAST_NAT_BAD]
    terms = [pl.col("nationality").is_null(), pl.col("nationality").is_in(odd_nat),
             *_given(src)]
    if src.has("rank"):
        terms += [pl.col("rank").is_null(), pl.col("rank").is_in(odd_rank)]
    else:
        terms = [pl.lit(True)]
    return src.lf.filter(pl.any_horizontal(terms))


def _exact_pass(src: CrewSource, voc: Vocabulary, rare: pl.LazyFrame) -> pl.LazyFrame:
    """Exact counts (:func:`_count_aggs`) per vessel of the ``rare`` rows, as they stream
    by (every value of theirs must already be in the vocabulary)."""
    ex = _classify_source(src, voc)
    return (rare.select(pl.col("vessel_id"), *(e.alias(k) for k, e in ex.items()))
            .group_by("vessel_id").agg(_count_aggs()))


def _rare_counts(voc: Vocabulary, rare: pl.DataFrame) -> pl.DataFrame:
    """Exact counts (:func:`_count_aggs`) per vessel of the ``rare`` rows, in memory: their
    text columns become categoricals first, so that the vocabulary (refreshed then) knows
    every value they hold."""
    rare = rare.with_columns(_categorical(c, rare.schema[c]) for c in CAPTURED
                             if c in rare.columns)
    voc.refresh()
    src = CrewSource(rare.lazy(), "", 0)
    ex = _classify_source(src, voc)
    return (rare.lazy().select(pl.col("vessel_id"), *(e.alias(k) for k, e in ex.items()))
            .group_by("vessel_id").agg(_count_aggs()).collect())


def _register_explicit(src: CrewSource, voc: Vocabulary) -> None:
    """Put the distinct values of the explicit columns in the vocabulary (one read of
    those columns only)."""
    cols = [c for c in EXPLICIT if src.has(c)]
    if cols:
        values = (src.lf.select(cols).filter(pl.any_horizontal(pl.col(cols).is_not_null()))
                  .unique().collect(engine="streaming"))
        voc.keep(values.select(_categorical(c, values.schema[c]) for c in cols))


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


def count_crew(src: CrewSource, stage: Callable[[str], None] | None = None,
               rare_limit: int = RARE_LIMIT) -> CrewCounts:
    """Stream the crew table once (plus, when it has rare rows, a second pass that keeps only
    those — collected in memory up to ``rare_limit`` rows, else counted as they stream by)
    and return the exact counts per vessel, packed.

    Raises :class:`InputError` (file, row, field) for a crew row whose nationality /
    department / level / position is invalid — the same message the single-vessel loader
    gives for that row. Vessel ids are checked by :func:`check_vessel_ids` (the evaluation
    calls it when some crew rows match no vessel).
    """
    if "nationality" not in src.schema:
        raise InputError("coluna obrigatória ausente: nationality (nacionalidade)",
                         "nationality", src.display, 1 if src.row_offset == 2 else None,
                         message_en="required column missing: nationality")
    voc = Vocabulary()  # alive until the end: the codes of both passes mean the same
    if stage:
        stage("crew.fast")
    explicit = _given(src)
    explicit_rows = int(src.lf.select(pl.any_horizontal(explicit).sum())
                        .collect(engine="streaming").item() or 0) if explicit else 0
    counts, rare = _fast_pass(src, voc, explicit_rows)
    fast = counts.collect(engine="streaming")
    before = voc.snapshot()
    voc.refresh()
    rows = int(fast["crew_size"].sum() or 0)
    unpacked = unpack_exprs()
    rare_n = pl.col("crew_size").cast(pl.Int64) - pl.sum_horizontal(
        [unpacked[f"n:{c}"] for c in CELLS[:COMMON_CELLS]]).cast(pl.Int64)
    big = pl.col("crew_size") >= MAX_PACKED
    fast = fast.with_columns([pl.lit(0, pl.UInt64).alias(n) for n in LANES[N_LANES:]]) \
        .with_columns(_rare=rare_n.cast(pl.UInt32), _big=big).with_row_index("_pos")
    need = fast.filter((pl.col("_rare") > 0) & ~pl.col("_big"))
    packed = fast.select("vessel_id", *LANES, pl.col("crew_size").cast(pl.UInt32))
    passes = 1
    if need.height:
        if stage:
            stage("crew.exact")
        total = int(fast["_rare"].sum())
        # The rare rows by the filter the reader applies; should it ever select other rows
        # than the fast pass left out (it cannot, by construction: the row count is checked),
        # the fast pass's own code selects them.
        # As many rare rows as rows with an explicit value (each of which the fast pass left
        # out): they are the same rows, selected by the explicit columns alone — a read of
        # those columns, not of every rank and nationality.
        pushed = src.lf.filter(pl.any_horizontal(explicit)) \
            if explicit and explicit_rows <= FEW_EXPLICIT and total == explicit_rows \
            else _rare_rows(src, before, voc.codes, explicit_rows > FEW_EXPLICIT)
        selections = [rare] if pushed is None else [pushed, rare]
        if total <= rare_limit:
            cols = ["vessel_id", *(c for c in CAPTURED if src.has(c))]
            for sel in selections:
                rows_ = sel.select(cols).collect(engine="streaming")
                if rows_.height == total:
                    break
            exact = _rare_counts(voc, rows_)
        else:
            _register_explicit(src, voc)
            for sel in selections:
                exact = _exact_pass(src, voc, sel).collect(engine="streaming")
                if int(exact["_rows"].sum() or 0) == total:
                    break
        passes = 2
        if int(exact["_bad"].sum() or 0):
            raise _first_bad_row(src, voc)
        # Fast counts + the rare rows' counts replace those vessels' lanes, in place (the
        # order of vessels is kept).
        base = need.select("_pos", "vessel_id", *(e.alias(k) for k, e in unpacked.items()))
        merged = base.join(exact, on="vessel_id", suffix="_d").select(
            "_pos", *((pl.col(k) + pl.col(f"{k}_d")).alias(k) for k in COUNTS
                      if k != "crew_size"))
        lanes = merged.select("_pos", *pack_exprs())
        packed = packed.with_columns(
            packed[n].scatter(lanes["_pos"], lanes[n]) for n in LANES)
    packed = _trimmed_ids(packed)
    return CrewCounts(packed, rows, need.height, passes,
                      packed.filter(pl.col("crew_size") >= MAX_PACKED)["vessel_id"])


def trimmed(text: pl.Expr) -> pl.Expr:
    """A text value as every table of the fleet reads it: spaces around it aside, blank =
    none (ids, codes, dates as written)."""
    t = text.str.strip_chars()
    return pl.when(t == "").then(None).otherwise(t)


def vessel_key(src: CrewSource) -> pl.Expr:
    """The crew row's vessel id as the vessels table reads ids (:func:`trimmed`)."""
    if src.schema.get("vessel_id") != pl.String:
        return pl.col("vessel_id")
    return trimmed(pl.col("vessel_id")).alias("vessel_id")


def _trimmed_ids(packed: pl.DataFrame) -> pl.DataFrame:
    """The counts per vessel id as the vessels table reads ids (``' E01 '`` is ``E01``):
    the passes group the raw text, and the groups of one trimmed id are added here — per
    vessel, not per row (the lanes' fields add up; a sum past the packed range shows in
    ``crew_size`` and goes to the engine)."""
    if packed["vessel_id"].dtype != pl.String:
        return packed
    ids = packed.select(trimmed(pl.col("vessel_id"))).to_series()
    if ids.equals(packed["vessel_id"], null_equal=True):
        return packed
    return (packed.with_columns(ids.alias("vessel_id"))
            .group_by("vessel_id", maintain_order=True)
            .agg(*(pl.col(n).sum() for n in LANES), pl.col("crew_size").sum()))


REPEAT_CHECK_ROWS = 1_000_000  # crew rows up to which person ids are checked for repeats


def check_repeated_ids(src: CrewSource) -> None:
    """Raise :class:`InputError` at the first crew row that repeats a person ``id`` of its
    vessel (as ``abordo check`` refuses a crew list naming one person twice: counted twice,
    a group would be larger than it is). Rows without an id are not compared."""
    if not src.has("id"):
        return
    pid = trimmed(pl.col("id").cast(pl.String))
    pairs = src.lf.select(vessel_key(src), pid.alias("_pid")).filter(
        pl.col("_pid").is_not_null() & pl.col("vessel_id").is_not_null())
    # First one 64-bit hash per pair: as many distinct hashes as pairs means no repeat (a
    # repeat, or two pairs sharing a hash, sends it to the exact count below) — a third of
    # the exact count's time.
    hashed = pairs.select(
        (pl.col("vessel_id").hash(1) ^ pl.col("_pid").hash(2)).n_unique().alias("distinct"),
        pl.len().alias("pairs")).collect(engine="streaming")
    if hashed["distinct"][0] == hashed["pairs"][0]:
        return
    twice = (pairs.group_by("vessel_id", "_pid").len().filter(pl.col("len") > 1)
             .select("vessel_id", "_pid").collect(engine="streaming"))
    if twice.height == 0:
        return
    rows = (src.indexed().with_columns(vessel_key(src), pid.alias("_pid"))
            .join(twice.lazy(), on=["vessel_id", "_pid"], how="semi")
            .select("_i", "vessel_id", "_pid").collect().sort("_i"))
    second = rows.filter(pl.struct("vessel_id", "_pid").is_duplicated()
                         & ~pl.struct("vessel_id", "_pid").is_first_distinct()).row(0, named=True)
    first = rows.filter((pl.col("vessel_id") == second["vessel_id"])
                        & (pl.col("_pid") == second["_pid"]))["_i"][0]
    at, also = int(second["_i"]) + src.row_offset, int(first) + src.row_offset
    raise InputError(f"id repetido na embarcação '{second['vessel_id']}': {second['_pid']} "
                     f"(também na linha {also})", "id", src.display, at,
                     message_en=f"duplicate id in vessel '{second['vessel_id']}': "
                     f"{second['_pid']} (also on row {also})")


def check_vessel_ids(src: CrewSource, seen: pl.Series, known: pl.Series) -> None:
    """Raise :class:`InputError` for the first crew row whose vessel id is missing or not
    among ``known`` (``seen``: the vessel ids of the crew table)."""
    unknown = seen.filter(~seen.is_in(known.implode()) | seen.is_null())
    if unknown.len() == 0:
        return
    bad = unknown.head(1000)
    key = vessel_key(src)
    hit = (src.indexed().with_columns(key)
           .filter(pl.col("vessel_id").is_in(bad.drop_nulls().implode())
                   | pl.col("vessel_id").is_null())
           .select("_i", "vessel_id").head(1).collect())
    row = int(hit["_i"][0]) + src.row_offset if hit.height else None
    value = hit["vessel_id"][0] if hit.height else None
    if value is None:
        raise _missing_vessel_id(src, row)
    raise InputError(f"embarcação '{value}' não consta da tabela de embarcações",
                     "vessel_id", src.display, row,
                     message_en=f"vessel '{value}' is not in the vessels table")


def _missing_vessel_id(src: CrewSource, row: int | None) -> InputError:
    return InputError("vessel_id ausente: cada pessoa deve indicar a embarcação",
                      "vessel_id", src.display, row,
                      message_en="missing vessel_id: each person must name the vessel")


def _first_bad_row(src: CrewSource, voc: Vocabulary) -> InputError:
    """The first crew row whose values the crew model rejects, as that model says it — or
    that names no vessel, when such a row comes first (file order)."""
    ex = _classify_source(src, voc)
    cols = [c for c in ("id", "rank", "nationality", *EXPLICIT) if src.has(c)]
    hit = (src.indexed().with_columns(_bad=ex["_bad"])
           .filter(pl.col("_bad") | vessel_key(src).is_null())
           .select("_i", "_bad", *(pl.col(c).cast(pl.String) for c in cols)).head(1).collect())
    if not hit.height:  # pragma: no cover - the exact pass saw one
        return InputError("linha de tripulação inválida", None, src.display,
                          message_en="invalid crew row")
    rec = hit.row(0, named=True)
    row = int(rec.pop("_i")) + src.row_offset
    if not rec.pop("_bad"):
        return _missing_vessel_id(src, row)
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
    df = (src.indexed().with_columns(vessel_key(src))
          .filter(pl.col("vessel_id").is_in(ids.implode()))
          .select("_i", "vessel_id", *(pl.col(c).cast(pl.String) for c in cols)).collect())
    out: dict[Any, list[dict[str, Any]]] = {v: [] for v in ids.to_list()}
    for rec in df.iter_rows(named=True):
        rec["_row"] = int(rec.pop("_i")) + src.row_offset
        out.setdefault(rec.pop("vessel_id"), []).append(rec)
    return out

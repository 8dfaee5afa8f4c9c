"""``screen(folder, on, …)``: the whole fleet screening, from files to a ranked frame."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from abordo.batch.crew import (
    REPEAT_CHECK_ROWS,
    check_repeated_ids,
    check_vessel_ids,
    count_crew,
)
from abordo.batch.engine_rows import decide_with_engine
from abordo.batch.evaluate import CHUNK, evaluate_fleet, output_schema
from abordo.batch.fleet import Fleet, read_error, read_fleet
from abordo.batch.ranking import rank, shortfall_expr
from abordo.batch.tables import RuleSet, rule_set
from abordo.law.errors import InputError
from abordo.law.interpretations import check_options
from abordo.law.validation import LAST_DAY
from abordo.output_file import write_output

Stage = Callable[[str], None]
MAX_HORIZON = 36_525  # days (100 years): every step of every regime lies within it


@dataclass
class ScreenResult:
    """A screened fleet.

    ``frame``: one row per vessel, ranked (``risk_rank`` first; columns in
    :func:`abordo.batch.evaluate.output_schema`). ``crew_rows``: persons read;
    ``exact_vessels``: vessels with unusual crew rows, counted exactly; ``crew_passes``: 1,
    or 2 when some needed a second read of the crew table; ``engine_vessels``: vessels
    decided by the single-vessel engine; ``errors``: vessels with verdict ``input_error``;
    ``seconds`` / ``cpu_seconds``: wall and CPU time per stage; ``ids_checked``: whether
    person ids were checked for repeats within a vessel.
    """

    frame: pl.DataFrame
    rules: RuleSet
    horizon: int | None
    crew_rows: int
    exact_vessels: int
    crew_passes: int
    engine_vessels: int
    errors: int
    seconds: dict[str, float] = field(default_factory=dict)
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    ids_checked: bool = True  # person ids checked for repeats within a vessel

    @property
    def non_compliant(self) -> int:
        return int((self.frame["verdict"] == "non_compliant").sum())


def _polars_error(exc: Exception, fleet: Fleet) -> InputError:
    return read_error(Path(fleet.crew.display), fleet.crew.display, exc, "tripulação", "crew")


def screen(folder: Path, on: dt.date, options: Mapping[str, Any] | None = None,
           horizon: int | None = None, keep_going: bool = False, lang: str = "pt",
           stage: Stage | None = None, chunk: int = CHUNK,
           check_ids: bool | None = None) -> ScreenResult:
    """Screen every vessel of the fleet in ``folder`` on date ``on``.

    ``options``: interpretation choices (``{"quota.groups": "department_or_level"}``);
    ``horizon``: days ahead for the charterer's view (None: off); ``keep_going``: a vessel
    the engine rejects gets verdict ``input_error`` instead of stopping the run; ``stage``
    is told the name of each stage as it starts (``evaluate i/n`` per chunk of ``chunk``
    vessels); ``check_ids``: whether a person id repeated within a vessel is refused (None:
    up to :data:`~abordo.batch.crew.REPEAT_CHECK_ROWS` crew rows — beyond, a hash of every
    (vessel, id) pair would cost more than the screening itself; :attr:`ScreenResult.ids_checked`
    says which).
    Raises :class:`InputError` (file, row, field) for bad input; nothing is written here.
    """
    if horizon is not None and not 0 <= horizon <= MAX_HORIZON:
        raise InputError(f"o horizonte deve ser um número de dias de 0 a {MAX_HORIZON} "
                         f"(recebido: {horizon})", "--horizon",
                         message_en=f"the horizon must be a number of days from 0 to "
                         f"{MAX_HORIZON} (got {horizon})")
    if horizon is not None and on + dt.timedelta(days=horizon) > LAST_DAY:
        raise InputError(f"o horizonte passa de {LAST_DAY:%d/%m/%Y}, o último dia que as "
                         "datas aceitam", "--horizon",
                         message_en=f"the horizon runs past {LAST_DAY.isoformat()}, the last "
                         "day dates accept")
    check_options(["abordo.quota"], options)
    secs: dict[str, float] = {}
    cpu: dict[str, float] = {}
    t, c = time.perf_counter(), time.process_time()

    def mark(name: str) -> None:
        nonlocal t, c
        now, now_c = time.perf_counter(), time.process_time()
        secs[name] = secs.get(name, 0.0) + now - t
        cpu[name] = cpu.get(name, 0.0) + now_c - c
        t, c = now, now_c

    if stage:
        stage("rules")
    rs = rule_set(on, options)
    if stage:
        stage("vessels")
    fleet = read_fleet(folder, keep_going)
    mark("read_vessels")
    # A crew row's error names its column as the file's header writes it.
    with fleet.crew.errors_as_written():
        try:
            counts = count_crew(fleet.crew, stage)
        except pl.exceptions.PolarsError as exc:
            raise _polars_error(exc, fleet) from None
        if counts.rows == 0 and fleet.cases is None:
            raise InputError("a tabela de tripulação não tem nenhuma pessoa", None,
                             fleet.crew.display, message_en="the crew table has no person")
        ids_checked = check_ids if check_ids is not None else counts.rows <= REPEAT_CHECK_ROWS
        if ids_checked and fleet.cases is None:  # (a case file's loader checks its own)
            check_repeated_ids(fleet.crew)
    mark("crew")
    if stage:
        stage("evaluate")
    ev = evaluate_fleet(fleet, counts.packed, rs, horizon, chunk,
                        (lambda done, n: stage(f"evaluate {done}/{n}")) if stage else None
                        ).frame
    if int(ev["crew_size"].sum() or 0) != counts.rows:  # crew rows of no known vessel
        with fleet.crew.errors_as_written():
            check_vessel_ids(fleet.crew, counts.packed["vessel_id"], fleet.vessels["id"])
    mark("evaluate")
    routed = ev.filter(pl.col("_route"))
    if routed.height:
        if stage:
            stage("engine")
        rows = decide_with_engine(fleet, routed, rs, options, horizon, keep_going, lang)
        schema = output_schema(rs, horizon)
        facts = ev.filter(pl.col("_route")).select("_vidx", "_row", *list(schema)[:7])
        decided = pl.DataFrame(rows, schema={"_vidx": pl.UInt32} | {
            k: v for k, v in schema.items() if k not in list(schema)[:7]}, strict=False)
        decided = facts.join(decided, on="_vidx", how="left", maintain_order="left")
        decided = decided.with_columns(_short=shortfall_expr())
        kept = ev.filter(~pl.col("_route")).drop("_route")
        ev = pl.concat([kept, decided.select(kept.columns).cast(kept.schema)])
        mark("engine")
    else:
        ev = ev.drop("_route")
    if fleet.rejected:
        # Case files that could not be read (keep_going): one input_error row each, after
        # the others in file order (ranking puts them among the input errors).
        first = ev.height  # the fleet's _vidx are 0 … height − 1
        bad = pl.DataFrame(
            {"_vidx": [first + i for i in range(len(fleet.rejected))],
             "id": [vid for vid, _ in fleet.rejected],
             "verdict": ["input_error"] * len(fleet.rejected),
             "error": [err.render(lang, values=False) for _, err in fleet.rejected]},
            schema_overrides={"_vidx": ev.schema["_vidx"]})
        ev = pl.concat([ev, bad], how="diagonal_relaxed")
    if stage:
        stage("rank")
    frame = rank(ev.sort("_vidx") if routed.height or fleet.rejected else ev, on
                 ).drop("_vidx", "_row")
    mark("rank")
    errors = int((frame["verdict"] == "input_error").sum())
    return ScreenResult(frame, rs, horizon, counts.rows, counts.exact_vessels,
                        counts.passes, routed.height, errors, secs, cpu,
                        ids_checked or fleet.cases is not None)


COMPRESSIONS = ("zstd", "lz4", "snappy", "uncompressed")


# Text Excel would turn into something else when it opens a CSV: a fraction (1/3 → a date
# in a Brazilian locale), a number with leading zeros (an id 0012 → 12), or — text from the
# input tables, a vessel's id or name — a formula (``=HYPERLINK(…)``, ``-Tern`` → #NOME?),
# which Excel would run on opening the file.
_EXCEL_COERCED = r"^(\d+/\d+|0\d+)$|^[=+\-@\t\r]"


def _excel_text(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with the text Excel would convert written as a text formula (``="1/3"``,
    a quote inside doubled: the cell shows the text as it is)."""
    def guarded(c: str) -> pl.Expr:
        text = pl.col(c).cast(pl.String)
        return pl.when(text.str.contains(_EXCEL_COERCED)).then(
            pl.concat_str(pl.lit('="'), text.str.replace_all('"', '""', literal=True),
                          pl.lit('"'))).otherwise(text).alias(c)

    return frame.with_columns(guarded(c) for c, t in frame.schema.items()
                              if t == pl.String or isinstance(t, pl.Categorical | pl.Enum))


def check_result_path(out: Path | None, excel: bool = False,
                      compression: str = "zstd") -> None:
    """Refuse, before any work, a result :func:`write_result` could not write: an unknown
    ``compression``, an ``out`` that is neither .parquet nor .csv, ``excel`` without a .csv
    ``out`` (``out`` None: the result is only summarised). Raises
    :class:`~abordo.law.InputError` naming the option."""
    if compression not in COMPRESSIONS:
        raise InputError(f"compressão desconhecida: {compression} (use "
                         f"{', '.join(COMPRESSIONS)})", "compression",
                         message_en=f"unknown compression: {compression}")
    suffix = out.suffix.lower() if out is not None else None
    if excel and suffix != ".csv":
        raise InputError("--excel vale só com -o arquivo.csv", "--excel",
                         message_en="--excel needs -o file.csv")
    if suffix is not None and suffix not in (".parquet", ".csv"):
        raise InputError(f"formato de saída não suportado: {suffix or '(sem extensão)'} "
                         "(use .parquet ou .csv)", "--output",
                         message_en="unsupported output format (use .parquet or .csv)")


def write_result(frame: pl.DataFrame, out: Path, compression: str = "zstd",
                 excel: bool = False) -> None:
    """Write ``frame`` to ``out`` (.parquet or .csv) by
    :func:`abordo.output_file.write_output`: atomically (a temporary file renamed into
    place, so a failed run never leaves a partial file), a link kept, a FIFO written in
    place.

    ``excel`` (CSV only): the dialect Excel opens directly in a Brazilian locale — ``;``
    between fields (the comma is the decimal separator there), a UTF-8 BOM (without it
    Excel reads the accents as Windows-1252), and fractions and zero-led numbers as text
    formulas (``="1/3"``: else a date, or a number without its zeros), as is text that
    Excel would run as a formula (a name starting with ``=``, ``+``, ``-``, ``@``). Default:
    RFC 4180, UTF-8 without BOM, values as they are.

    ``compression`` (Parquet only): ``zstd`` (default: the smallest file), ``lz4``,
    ``snappy`` or ``uncompressed`` — at 10⁶ vessels these save under 10% of the write's
    time (the encoding of ~90 columns, not the compression, is its cost) for a file 1.6–2.7
    times larger."""
    check_result_path(out, excel, compression)
    suffix = out.suffix.lower()

    def write(path: Path) -> None:
        if suffix == ".parquet":
            # No column statistics: a result has one or two row groups, so min/max per
            # group would not help a reader skip anything, and they cost ~20% of the write.
            frame.write_parquet(path, statistics=False,
                                compression=compression)  # type: ignore[arg-type]
        else:
            (_excel_text(frame) if excel else frame).write_csv(
                path, separator=";" if excel else ",", include_bom=excel)

    write_output(out, write)

"""Reading a fleet: ``vessels.parquet|csv`` + ``crew.parquet|csv``, or a folder of vessel case
files. Every value is checked here, column by column (not row by row), and a bad one is an
:class:`~abordo.law.InputError` naming the file, the row and the column.

Vessels table (one row per vessel)::

    id            required, unique (text or integer)
    name, imo     optional (imo: 7 digits with a valid check digit)
    flag          required, ISO 3166-1 (BR, NO, LR…)
    registry      ordinary | REB, only for flag BR
    activity      required: offshore_support, exploration, platform, cabotage, port_support,
                  inland_national, inland_international, regasification, cruise, fishing,
                  long_haul — or its Portuguese name (cabotagem, apoio marítimo…)
    contract      charter | services | risk | lease | none (empty = none) — or its
                  Portuguese name (afretamento, prestação de serviço…); both through
                  abordo.crew.values, the table abordo check reads
    ajb_entry     first day in AJB of the presence (YYYY-MM-DD or dd/mm/aaaa); empty =
                  never entered
    ajb_exit      last day in AJB (empty = still there)
    absences      days fully outside AJB between entry and exit,
                  "YYYY-MM-DD/YYYY-MM-DD;…" or "dd/mm/aaaa a dd/mm/aaaa;…" (first and
                  last day outside, in order)
    extensions    steps postponed by the Ministry, "FROM_DAY:YYYY-MM-DD;…" (or dd/mm/aaaa)
    foreign_calls true | false (long-haul: does it call at foreign ports?)

Crew table (one row per person aboard): ``vessel_id``, ``nationality`` (required), ``rank``,
``department``, ``level``, ``position``, ``id`` — the crew-list columns and their Portuguese
aliases (``função``, ``nacionalidade``…). Personal columns (name, document numbers, birth
date) and immigration columns are accepted and never read.
"""

from __future__ import annotations

import codecs
import datetime as dt
import io
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from abordo.batch.crew import CrewSource, trimmed
from abordo.crew.crewfile import COLUMNS as CREW_COLUMNS
from abordo.crew.crewfile import FALSE, TRUE, decode, header_key
from abordo.crew.load import load_vessel_case
from abordo.crew.model import Contract, VesselCase, country_code
from abordo.crew.values import Kind, refusal, value_code
from abordo.input_kinds import wrong_kind
from abordo.law.csvfile import csv_records
from abordo.law.documents import binary_kind
from abordo.law.errors import SEP, InputError, bilingual
from abordo.law.files import list_folder, open_input
from abordo.law.validation import (
    FIRST_DAY,
    HIDDEN_CHARACTER_RUST,
    LAST_DAY,
    OUT_OF_RANGE,
    Bilingual,
)
from abordo.output_file import Read, input_files

VESSEL_ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id", "vessel_id", "vessel id", "embarcacao", "embarcacao id"),
    "name": ("name", "nome", "vessel name", "nome da embarcacao"),
    "imo": ("imo", "imo number", "numero imo"),
    "flag": ("flag", "bandeira"),
    "registry": ("registry", "registro"),
    "activity": ("activity", "atividade"),
    "contract": ("contract", "contrato"),
    "ajb_entry": ("ajb_entry", "entrada ajb", "entrada"),
    "ajb_exit": ("ajb_exit", "saida ajb", "saida"),
    "absences": ("absences", "ausencias"),
    "extensions": ("extensions", "prorrogacoes"),
    "foreign_calls": ("foreign_calls", "escalas estrangeiras"),
}
VESSEL_COLUMNS = {header_key(a): f for f, aliases in VESSEL_ALIASES.items() for a in aliases}
VESSEL_REQUIRED = ("id", "flag", "activity")
# The Portuguese header of a required column, said with its name when it is missing.
_PT_NAME = {"id": "embarcação", "flag": "bandeira", "activity": "atividade"}
CREW_VESSEL_ALIASES = ("vessel_id", "vessel", "vessel id", "embarcacao", "embarcacao id",
                       "navio")
CREW_READ = ("id", "rank", "nationality", "department", "level", "position")


@dataclass
class Fleet:
    """A fleet read and checked.

    ``vessels``: one row per vessel, columns ``_vidx`` (0-based), ``_row`` (row users see),
    ``id``, ``name``, ``imo``, ``flag`` (alpha-2), ``registry``, ``activity``, ``contract``,
    ``ajb_entry`` / ``ajb_exit`` (Date), ``foreign_calls`` (Boolean), ``_is_br``.
    ``absences``: ``_vidx``, ``a_first``, ``a_last`` (Date, both days outside AJB).
    ``extensions``: ``_vidx``, ``from_day`` (Int32), ``applies_from`` (Date), ``given``
    (how many extensions the row gave for that step: the last applies).
    ``cases``: for a folder of case files, the cases by vessel id (errors then come from the
    case files themselves).
    """

    vessels: pl.DataFrame
    absences: pl.DataFrame
    extensions: pl.DataFrame
    crew: CrewSource
    display: str
    row_offset: int
    headers: dict[str, str] = field(default_factory=dict)  # canonical → as written
    cases: dict[Any, VesselCase] | None = None
    # Case files that could not be read (``keep_going``): (vessel id, the error).
    rejected: list[tuple[str, InputError]] = field(default_factory=list)

    def column_label(self, canonical: str) -> str:
        return self.headers.get(canonical, canonical)


# --- files --------------------------------------------------------------------------------

def _err(pt: str, en: str, fld: str | None = None, file: str | None = None,
         row: int | None = None) -> InputError:
    return InputError(pt, fld, file, row, message_en=en)


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _rest_is_utf8(path: Path, start: int) -> bool:
    """Whether the file from byte ``start`` (a character boundary) on is UTF-8: read in
    chunks, ASCII ones passed at memory speed, the others through an incremental decoder
    (a character cut between two chunks carries over)."""
    dec = codecs.getincrementaldecoder("utf-8")()
    with path.open("rb") as fh:
        fh.seek(start)
        try:
            while chunk := fh.read(1 << 22):
                if not chunk.isascii() or dec.getstate()[0]:
                    dec.decode(chunk)
            dec.decode(b"", final=True)
        except UnicodeDecodeError:
            return False
    return True


def _csv_header(path: Path, display: str) -> tuple[list[str], str, bool, bool]:
    """The header's names, the separator, whether the file is UTF-8 (else Windows-1252
    / Latin-1, as Excel saves a CSV; read as :func:`abordo.crew.crewfile.decode` reads a
    crew file — or MacRoman, with lines ending in CR alone: Excel for Mac's "CSV
    (Macintosh)"), and whether its lines end in CR alone."""
    with open_input(path, display) as fh:
        head = fh.read(65536)
    cr_only = b"\r" in head and b"\n" not in head
    if not head.strip():
        raise _err("arquivo vazio", "empty file", file=display)
    utf8, boundary = True, len(head)
    try:
        text = head.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # a multi-byte character cut at the end of the sample is still UTF-8
        utf8 = len(head) == 65536 and exc.start >= len(head) - 3
        boundary = exc.start
        text = head[:exc.start].decode("utf-8-sig") if utf8 else \
            head.decode("mac_roman") if cr_only else \
            decode(head, display, csv=True, sheets=False)  # the screen reads no workbook
    # The first accent of a Windows-1252 export may come after the sample: the rest of the
    # file is checked too.
    utf8 = utf8 and (len(head) < 65536 or _rest_is_utf8(path, boundary))
    first = text.splitlines()[0] if text.splitlines() else ""
    sep = max((",", ";", "\t"), key=first.count)
    header = next(csv_records(io.StringIO(first, newline=""), sep, display), (1, []))[1]
    return [h.strip() for h in header], sep, utf8, cr_only


def read_error(path: Path, display: str, exc: Exception, kind: str, kind_en: str
               ) -> InputError:
    """The :class:`InputError` of a table Polars could not read (``kind``: "embarcações" /
    "tripulação"): for a CSV row with more fields than the header, that row (file, line);
    else the reader's first line of message (its hints name settings of its own)."""
    if path.suffix.lower() == ".csv":
        names, sep, _, _ = _csv_header(path, display)
        with path.open(encoding="utf-8-sig", errors="replace", newline="") as fh:
            try:
                records = csv_records(fh, sep, display)
                next(records, None)  # the header
                for line, row in records:
                    if len(row) > len(names):
                        return _err(f"linha com {len(row)} campos; o cabeçalho tem "
                                    f"{len(names)} (separador '{sep}')", f"row with {len(row)} "
                                    f"fields; the header has {len(names)} (separator '{sep}')",
                                    file=display, row=line)
            except InputError as bad:  # a quote never closed, or misplaced
                return bad
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return _err(f"não foi possível ler a tabela de {kind}: {first}",
                f"could not read the {kind_en} table: {first}", file=display)


def _open(path: Path, display: str, mapping: dict[str, str], kind: str,
          read: frozenset[str] | None = None) -> tuple[pl.LazyFrame, dict[str, str], int]:
    """Lazy frame with canonical column names; unknown columns are an error. ``read``: the
    fields the screening reads (None: all) — a known column it does not read (a person's
    name, documents) is kept under a name of its own and never looked at, even when two of
    them mean one field ("family name", "given names")."""
    utf8, cr_only = True, False
    if path.suffix.lower() == ".csv":
        names, sep, utf8, cr_only = _csv_header(path, display)
        row_offset, header_row = 2, 1
    else:
        try:
            schema = pl.scan_parquet(path).collect_schema()
        except Exception as exc:  # polars raises several types for a broken file
            raise _not_parquet(path, display, exc) from None
        names = list(schema.names())
        sep, row_offset, header_row = ",", 1, None
    canon: list[str] = []
    headers: dict[str, str] = {}
    for i, name in enumerate(names):
        key = header_key(name)
        fld = mapping.get(key)
        if fld is None:
            if not name.strip():
                canon.append(f"_ignored{i}")
                continue
            raise _err(f"coluna desconhecida '{name}' na tabela de {kind}",
                       f"unknown column '{name}' in the {kind} table", name, display,
                       header_row)
        if read is not None and fld not in read:
            canon.append(f"_ignored{i}")
            continue
        if fld in headers:
            raise _err(f"coluna repetida '{name}': o mesmo campo que '{headers[fld]}'",
                       f"duplicate column '{name}': the same field as '{headers[fld]}'",
                       name, display, header_row)
        if path.suffix.lower() != ".csv" and schema[name].is_nested():
            # A list or a struct in one cell: each cell holds one value (absences in one
            # text, "início/fim;…").
            raise _err(f"coluna '{name}' da tabela de {kind} com listas ou estruturas "
                       f"({schema[name]}): cada célula deve ter um só valor (texto, número "
                       "ou data)", f"column '{name}' of the {kind} table holds lists or "
                       f"structs ({schema[name]}): each cell must hold one value (text, "
                       "number or date)", name, display, header_row)
        headers[fld] = name
        canon.append(fld)
    if path.suffix.lower() == ".csv":
        # Not UTF-8, or lines ending in CR alone: converted in memory (a table larger than
        # memory: save it as UTF-8 with ordinary line ends).
        source: Path | bytes = path
        if not utf8 or cr_only:
            raw = path.read_bytes()
            # Excel for Mac's "CSV (Macintosh)" is MacRoman; other exports Windows-1252.
            text = raw.decode("mac_roman") if cr_only and not _utf8(raw) else \
                decode(raw, display, csv=True, sheets=False)
            source = (text.replace("\r", "\n") if cr_only else text).encode("utf-8")
        lf = pl.scan_csv(source, separator=sep, infer_schema=False, new_columns=canon,
                         encoding="utf8", raise_if_empty=False, truncate_ragged_lines=False)
    else:
        lf = pl.scan_parquet(path).rename(dict(zip(names, canon, strict=True)))
    return lf, headers, row_offset


def _not_parquet(path: Path, display: str, exc: Exception) -> InputError:
    """The error of a ``.parquet`` file the reader refused: what it is instead when its
    first bytes say so (a workbook, a CSV renamed…), else unreadable, with the reader's
    first line of message."""
    with open_input(path, display) as fh:  # a file not readable: said as every input's
        head = fh.read(4096)
    kind = binary_kind(head, sheets=False)  # the screen reads no workbook
    if kind is not None:
        return _err(f"não é um arquivo Parquet: é {kind[0]}",
                    f"not a Parquet file: it is {kind[1]}", file=display)
    if head and b"\x00" not in head and not head.startswith(b"PAR1"):
        return _err(f"não é um arquivo Parquet: é texto (um CSV? dê-lhe a extensão .csv: "
                    f"{path.stem}.csv)", f"not a Parquet file: it is text (a CSV? name it "
                    f"{path.stem}.csv)", file=display)
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return _err(f"arquivo Parquet ilegível (corrompido ou incompleto; o leitor diz: {first})",
                f"unreadable Parquet file (damaged or incomplete; the reader says: {first})",
                file=display)


def require_vessel_columns(columns: list[str], display: str, row_offset: int) -> None:
    """Raise :class:`InputError` naming every required column the vessels table lacks (all
    at once: the header is fixed in one go), before any column is looked at."""
    missing = [_err(f"coluna obrigatória ausente: {col} ({_PT_NAME[col]})",
                    f"required column missing: {col}", col, display,
                    1 if row_offset == 2 else None)
               for col in VESSEL_REQUIRED if col not in columns]
    if missing:
        raise InputError.listing(missing)


def _blank_row(*but: str) -> pl.Expr:
    """A CSV row whose every field (``but`` these columns) is empty or spaces."""
    return pl.all_horizontal(pl.all().exclude(but).cast(pl.String).str.strip_chars()
                             .fill_null("") == "")


def _find(entries: list[Path], folder: Path, stem: str) -> Path | None:
    """The table ``stem`` (``vessels`` | ``crew``) among the ``entries`` of ``folder``: by
    name (a broken link too: its reader then says why it cannot be read)."""
    names = {p.name for p in entries}
    found = [folder / f"{stem}{ext}" for ext in (".parquet", ".csv") if f"{stem}{ext}" in names]
    if not found:
        sheets = [p for p in entries if p.stem == stem and p.suffix.lower() in (".xlsx", ".xls")]
        if sheets:
            raise _err("planilhas não são lidas na triagem; exporte a tabela como CSV "
                       "(UTF-8) ou Parquet", "spreadsheets are not read by the screening; "
                       "export the table as CSV (UTF-8) or Parquet", file=str(sheets[0]))
    if len(found) > 1:
        raise _err(f"há {found[0].name} e {found[1].name}: deixe apenas um",
                   f"both {found[0].name} and {found[1].name}: keep one", file=str(folder))
    return found[0] if found else None


def _case_files(folder: Path, entries: list[Path] | None = None) -> list[Path]:
    """The vessel case files of a fleet folder (YAML/JSON), by name; ``entries``: the
    folder's, when already listed."""
    return [p for p in (list_folder(folder) if entries is None else entries)
            if p.suffix.lower() in (".yaml", ".yml", ".json") and p.is_file()]


def fleet_inputs(folder: Path) -> Iterator[Read]:
    """The files a screening of ``folder`` may read — its tables, its case files and the
    files they name (``crew_file``) — for :func:`abordo.output_file.check_output`: the
    result may replace none of them. A folder that cannot be listed names its tables only
    (the screening then says why it cannot be read)."""
    if not folder.is_dir():
        return
    for stem in ("vessels", "crew"):
        for ext in (".parquet", ".csv"):
            path = folder / f"{stem}{ext}"
            yield Read(path, f"uma das tabelas da frota ({path})",
                       f"one of the fleet's tables ({path})")
    try:
        cases = _case_files(folder)
    except InputError:
        return
    for case in cases:
        yield from input_files(case)


def read_fleet(folder: Path, keep_going: bool = False) -> Fleet:
    """Read a fleet folder (see the module docstring for the format).

    Raises :class:`InputError` naming file, row and column for anything that is not as
    documented: unknown or missing column, bad date, bad code, duplicate id, empty file.
    The crew table is streamed by :func:`abordo.batch.crew.count_crew`; a CSV one is read
    here once, every column, only to find a row with more fields than the header.
    ``keep_going``: in a folder of case files, a file that cannot be read is set aside in
    :attr:`Fleet.rejected` (each file is one vessel) unless no file can be read.
    """
    if not folder.exists():
        raise _err(f"pasta da frota não encontrada: {folder}", f"fleet folder not found: "
                   f"{folder}", file=str(folder))
    if folder.is_file():
        raise _err("informe a pasta da frota (com vessels.csv|parquet e crew.csv|parquet, "
                   "ou arquivos de caso YAML/JSON)", "give the fleet folder (with "
                   "vessels.csv|parquet and crew.csv|parquet, or YAML/JSON case files)",
                   file=str(folder))
    entries = list_folder(folder)  # a folder that cannot be opened: said, not read as empty
    vpath = _find(entries, folder, "vessels")
    cpath = _find(entries, folder, "crew")
    if vpath is None:
        cases = _case_files(folder, entries)
        if cases:
            return fleet_from_cases(cases, keep_going)
        raise _err("a pasta não tem vessels.csv|parquet nem arquivos de caso (.yaml/.json)",
                   "the folder has no vessels.csv|parquet and no case files (.yaml/.json)",
                   file=str(folder))
    if cpath is None:
        raise _err("falta a tabela de tripulação crew.csv|parquet ao lado de "
                   f"{vpath.name}", f"missing crew table crew.csv|parquet beside {vpath.name}",
                   file=str(folder))
    return _read_tables(vpath, cpath)


def _read_tables(vpath: Path, cpath: Path) -> Fleet:
    vdisplay, cdisplay = str(vpath), str(cpath)
    vlf, vheaders, voff = _open(vpath, vdisplay, VESSEL_COLUMNS, "embarcações")
    # The vessels table's header is checked before the crew table is opened: its problems
    # are the first stage, and no crew check may look for a vessels column that is missing.
    require_vessel_columns(list(vheaders), vdisplay, voff)
    crew_map = {k: f for k, (f, kind) in CREW_COLUMNS.items()}
    crew_map |= {header_key(a): "vessel_id" for a in CREW_VESSEL_ALIASES}
    clf, cheaders, coff = _open(cpath, cdisplay, crew_map, "tripulação",
                                frozenset(("vessel_id", *CREW_READ)))
    if "vessel_id" not in cheaders:
        raise _err("coluna obrigatória ausente: vessel_id (embarcação)", "required column missing: "
                   "vessel_id", "vessel_id", cdisplay, 1 if coff == 2 else None)
    if "nationality" not in cheaders:
        raise _err("coluna obrigatória ausente: nationality (nacionalidade)",
                   "required column missing: nationality", "nationality", cdisplay,
                   1 if coff == 2 else None)
    try:
        raw = vlf.collect()
    except pl.exceptions.PolarsError as exc:
        raise read_error(vpath, vdisplay, exc, "embarcações", "vessels") from None
    rows = None
    if vpath.suffix.lower() == ".csv":
        # Rows left blank by a spreadsheet export (";;;;") are no vessel: skipped, the rows
        # users see kept for the others.
        blank = raw.select(_blank_row()).to_series()
        if blank.any():
            rows = (blank.not_().arg_true() + voff).to_list()
            raw = raw.filter(~blank)
    if raw.height == 0:
        raise _err("a tabela de embarcações não tem nenhuma linha", "the vessels table has "
                   "no row", file=vdisplay)
    if cpath.suffix.lower() == ".csv":
        # The reader checks a row's number of fields only when every column is read; the
        # screening reads a few: one pass over all of them, so that a row with more fields
        # than the header (a shifted row) is named rather than read in part.
        try:
            clf.select(pl.all().null_count()).collect(engine="streaming")
        except pl.exceptions.PolarsError as exc:
            raise read_error(cpath, cdisplay, exc, "tripulação", "crew") from None
    crew_cols = [c for c in ("vessel_id", *CREW_READ) if c in cheaders]
    numbered = None
    if cpath.suffix.lower() == ".csv":
        # Blank rows (";;;") are no person: left out, the rows users see kept for the others.
        numbered = clf.with_row_index("_i").filter(~_blank_row("_i")).select("_i", *crew_cols)
        clf = clf.filter(~_blank_row())
    clf = clf.select(crew_cols)
    cschema = dict(clf.collect_schema())
    for column, dtype, display in (("id", raw.schema["id"], vdisplay),
                                   ("vessel_id", cschema["vessel_id"], cdisplay)):
        if dtype.is_float():  # 1.5 is not an identifier; 2.0 would read as "2.0"
            raise _err(f"a coluna {column} deve ser texto ou inteiro (é {dtype})",
                       f"column {column} must be text or integer (it is {dtype})", column,
                       display)
    vid_int = raw.schema["id"].is_integer() and cschema["vessel_id"].is_integer()
    key_type: pl.DataType = pl.Int64() if vid_int else pl.String()
    if cschema["vessel_id"] != key_type:
        clf = clf.with_columns(pl.col("vessel_id").cast(key_type))
        if numbered is not None:
            numbered = numbered.with_columns(pl.col("vessel_id").cast(key_type))
    crew = CrewSource(clf, cdisplay, coff, numbered=numbered, headers=cheaders)
    vessels, absences, extensions = check_vessels(raw, vdisplay, voff, vheaders, key_type,
                                                  rows)
    return Fleet(vessels, absences, extensions, crew, vdisplay, voff, vheaders)


# --- checks -------------------------------------------------------------------------------

def _text(raw: pl.DataFrame, column: str) -> pl.Expr:
    """A column as stripped text (blank = null); an absent column is all null."""
    if column not in raw.columns:
        return pl.lit(None, pl.String)
    e = pl.col(column)
    if raw.schema[column] != pl.String:
        e = e.cast(pl.String)
    return trimmed(e)


def _few_text(raw: pl.DataFrame, column: str, mapping: dict[str, str] | None = None
              ) -> tuple[pl.Expr, list[str]]:
    """:func:`_text` for a column of few distinct values (flag, activity…), worked out on
    those values: the column is left as it is when that changes nothing (the usual clean
    export), else each value is replaced by its stripped text — or by ``mapping[text]``
    when given (null when not in it). Returns the expression and the distinct texts."""
    if column not in raw.columns:
        return pl.lit(None, pl.String), []
    e = pl.col(column) if raw.schema[column] == pl.String else pl.col(column).cast(pl.String)
    old = raw.select(e.unique()).to_series().drop_nulls()
    text = old.str.strip_chars()
    new = pl.select(pl.when(text == "").then(None).otherwise(text)).to_series()
    texts = new.drop_nulls().unique().to_list()
    if mapping is not None:
        new = new.replace_strict(mapping, default=None, return_dtype=pl.String)
    if old.equals(new, check_names=False, null_equal=True):
        return e, texts
    return e.replace_strict(old, new, return_dtype=pl.String), texts


def _day(txt: pl.Expr, brazilian: bool = False) -> pl.Expr:
    """Text as a Date: ``AAAA-MM-DD`` (or, if ``brazilian``, also ``dd/mm/aaaa``), the year
    written in full — a two-digit year (``31/12/26``) is no date, not the year 26; null
    where it cannot be read."""
    iso = pl.when(txt.str.contains(r"^\d{4}-\d{2}-\d{2}$")).then(
        txt.str.to_date("%Y-%m-%d", strict=False))
    if not brazilian:
        return iso
    return pl.coalesce(iso, pl.when(txt.str.contains(r"^\d{1,2}/\d{1,2}/\d{4}$")).then(
        txt.str.to_date("%d/%m/%Y", strict=False)))


def _outside(day: pl.Expr) -> pl.Expr:
    """A date read but outside what every input accepts (a typo like 0026 or 2300: see
    :func:`abordo.law.validation.plausible_date`)."""
    return (day.is_not_null() & ~day.is_between(FIRST_DAY, LAST_DAY)).fill_null(False)


def _date(raw: pl.DataFrame, column: str) -> tuple[pl.Expr, pl.Expr]:
    """(the column as Date, mask of unparseable values)."""
    if column not in raw.columns:
        return pl.lit(None, pl.Date), pl.lit(False)
    dtype = raw.schema[column]
    if dtype == pl.Date:
        return pl.col(column), pl.lit(False)
    if isinstance(dtype, pl.Datetime):
        return pl.col(column).dt.date(), pl.lit(False)
    txt = _text(raw, column)
    # ISO, or dd/mm/aaaa as Brazilian spreadsheets write dates (as the crew lists accept).
    parsed = _day(txt, brazilian=True)
    return parsed, txt.is_not_null() & parsed.is_null()


class _Checker:
    """Reports a failing check at its first row, naming file, row and column."""

    def __init__(self, df: pl.DataFrame, display: str, row_offset: int,
                 headers: dict[str, str], rows: list[int] | None = None) -> None:
        self.df = df
        self.display = display
        self.off = row_offset
        self.headers = headers
        self.rows = rows  # the row users see of each row of ``df`` (blank rows left out)

    def label(self, column: str) -> str:
        """A column named as the file's header writes it (``entrada_ajb``, ``Entrada AJB``);
        one the file lacks, by its code and its Portuguese header (``ajb_entry /
        entrada_ajb``): a message never names a column in the other language than the
        file's."""
        if column in self.headers:
            return self.headers[column]
        pt = VESSEL_ALIASES[column][1].replace(" ", "_")
        return f"{column} / {pt}"

    def line(self, i: int) -> int:
        """The row users see of ``df``'s row ``i``."""
        return self.rows[i] if self.rows is not None else i + self.off

    def problem(self, mask: pl.Series, column: str, pt: str, en: str) -> InputError | None:
        """The error of the first row where ``mask`` is true (value quoted in the message;
        how many other rows fail the same check said after it), or None."""
        idx = mask.arg_true()
        if idx.len() == 0:
            return None
        i = int(idx[0])
        value = self.df[column][i] if column in self.df.columns else None
        got = f" (recebido: {value!r})" if value is not None else ""
        got_en = f" (got {value!r})" if value is not None else ""
        more = idx.len() - 1
        if more:
            got += (" — e outra linha com o mesmo problema" if more == 1 else
                    f" — e outras {more} linhas com o mesmo problema")
            got_en += (" — and 1 other row with the same problem" if more == 1 else
                       f" — and {more} other rows with the same problem")
        return _err(f"{pt}{got}", f"{en}{got_en}", self.headers.get(column, column),
                    self.display, self.line(i))

    def text(self, column: str) -> pl.Series:
        return self.df.select(_text(self.df, column).alias(column)).to_series()


def check_vessels(raw: pl.DataFrame, display: str, row_offset: int, headers: dict[str, str],
                  key_type: pl.DataType, rows: list[int] | None = None
                  ) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Validate and normalise the vessels table; returns (vessels, absences, extensions).
    ``rows``: the row users see of each row of ``raw`` (None: its position + ``row_offset``).

    All columns are normalised and all checks computed in one parallel pass; every failing
    check is reported at its first row (with how many other rows fail it), in file order.
    """
    require_vessel_columns(raw.columns, display, row_offset)
    c = _Checker(raw, display, row_offset, headers, rows)
    # Columns of few values are normalised value by value, not row by row.
    flag_txt, flag_texts = _few_text(raw, "flag")
    codes: dict[str, str] = {}
    bad_flags: dict[str, str] = {}
    for v in flag_texts:
        try:
            codes[v] = country_code(v)
        except Bilingual as exc:
            bad_flags[v] = f"{exc.pt}{SEP}{exc.en}"
        except ValueError as exc:
            bad_flags[v] = str(exc)
    flag, _ = _few_text(raw, "flag", codes)
    ids = pl.col("id").cast(key_type)
    if key_type == pl.String:
        ids = trimmed(ids)
    entry, entry_bad = _date(raw, "ajb_entry")
    exit_, exit_bad = _date(raw, "ajb_exit")
    imo = _text(raw, "imo").str.replace(r"(?i)^IMO\s*", "")
    calls_txt = _text(raw, "foreign_calls").str.to_lowercase()
    if "foreign_calls" in raw.columns and raw.schema["foreign_calls"] == pl.Boolean:
        calls = pl.col("foreign_calls")
        calls_bad = pl.lit(False)
    else:
        calls = pl.when(calls_txt.is_null()).then(None).otherwise(
            calls_txt.is_in(sorted(TRUE)))
        calls_bad = calls_txt.is_not_null() & ~calls_txt.is_in(sorted(TRUE | FALSE))
    # Activity and contract: the code or its Portuguese name (``cabotagem``,
    # ``afretamento``), read value by value through the table ``abordo check`` reads
    # (crew/data/values.yaml); a text it does not know is kept, to be refused below.
    coded: dict[str, pl.Expr] = {}
    refused: dict[str, list[tuple[pl.Expr, str, str]]] = {}
    kinds: tuple[Kind, ...] = ("activity", "contract")
    for kind in kinds:
        texts = _few_text(raw, kind)[1]
        known = {t: value_code(kind, t) for t in texts}
        coded[kind] = _few_text(raw, kind, {t: k or t for t, k in known.items()})[0]
        # One check per reason (an ambiguous name says its choices; others the list).
        reasons: dict[tuple[str, str], list[str]] = {}
        for t, k in known.items():
            if k is None:
                reasons.setdefault(refusal(kind, t), []).append(t)
        refused[kind] = [(pl.col(kind).is_in(bad), pt, en)
                         for (pt, en), bad in reasons.items()]
    values = raw.lazy().select(
        pl.int_range(0, pl.len(), dtype=pl.UInt32).alias("_vidx"),
        (pl.int_range(0, pl.len(), dtype=pl.Int64) + row_offset if rows is None
         else pl.lit(pl.Series(rows, dtype=pl.Int64))).alias("_row"),
        ids.alias("id"), _text(raw, "name").alias("name"), imo.alias("imo"),
        flag_txt.alias("_flag_txt"), flag.alias("flag"),
        _few_text(raw, "registry")[0].alias("registry"),
        coded["activity"].alias("activity"),
        coded["contract"].fill_null(Contract.NONE.value).alias("contract"),
        entry.alias("ajb_entry"), exit_.alias("ajb_exit"), calls.alias("foreign_calls"),
        entry_bad.alias("_entry_bad"), exit_bad.alias("_exit_bad"),
        calls_bad.alias("_calls_bad"),
    )
    vdf = values.collect(engine="in-memory")
    id_col = vdf["id"]
    # Ids in increasing order (the usual export) cannot repeat; otherwise count them.
    increasing = vdf.height < 2 or bool((id_col.slice(1) > id_col.slice(0, vdf.height - 1))
                                        .fill_null(False).all())
    dup = pl.lit(False) if increasing or id_col.n_unique() == vdf.height else \
        ~pl.col("id").is_first_distinct() & pl.col("id").is_not_null()
    digits = [pl.col("imo").str.slice(i, 1).cast(pl.Int32, strict=False) for i in range(7)]
    check_digit = pl.sum_horizontal(
        [d * w for d, w in zip(digits[:6], range(7, 1, -1), strict=True)]) % 10
    # The columns a message names beside its own, as the header writes them.
    entry_label, exit_label = c.label("ajb_entry"), c.label("ajb_exit")
    # The texts shown as they are (a report names the vessel by them): no character that
    # hides what they hold (abordo.law.validation.HIDDEN_CHARACTER; the value received is
    # quoted escaped, \u202e).
    hidden = [(column, pl.col(column).str.contains(HIDDEN_CHARACTER_RUST),
               "texto com um caractere invisível (de controle, ou marca de direção do texto): "
               "não permitido, pode disfarçar o que o documento mostra (apague-o)",
               "text with an invisible character (a control character, or a text-direction "
               "mark): not allowed, it can disguise what the document shows (delete it)")
              for column in ("id", "name") if vdf.schema[column] == pl.String]
    checks: list[tuple[str, pl.Expr, str, str]] = [
        ("id", pl.col("id").is_null(), "id da embarcação ausente", "missing vessel id"),
        *hidden,
        ("id", dup, "id de embarcação repetido", "duplicate vessel id"),
        ("imo", pl.col("imo").is_not_null()
         & ~pl.col("imo").str.contains(r"^\d{7}$").fill_null(False),
         "número IMO deve ter 7 dígitos", "IMO number must have 7 digits"),
        ("imo", pl.col("imo").str.contains(r"^\d{7}$").fill_null(False)
         & (check_digit != digits[6]),
         "número IMO com dígito verificador inválido", "IMO number with a bad check digit"),
        ("flag", pl.col("_flag_txt").is_null(), "bandeira ausente", "missing flag"),
        ("flag", pl.col("_flag_txt").is_not_null() & pl.col("flag").is_null(),
         "país desconhecido (use o código ISO 3166-1, ex.: BR)", "unknown country"),
        ("registry", pl.col("registry").is_not_null()
         & ~pl.col("registry").is_in(["ordinary", "REB"]),
         "valor não permitido; esperado um de: ordinary, REB",
         "value not allowed; expected one of: ordinary, REB"),
        ("registry", pl.col("registry").is_not_null() & (pl.col("flag") != "BR"),
         "registry (ordinary/REB) só se aplica a embarcação de bandeira BR",
         "registry (ordinary/REB) applies only to a BR-flag vessel"),
        ("activity", pl.col("activity").is_null(), "atividade ausente", "missing activity"),
        *((kind, mask, pt, en) for kind in kinds for mask, pt, en in refused[kind]),
        ("ajb_entry", pl.col("_entry_bad"), "data inválida (use AAAA-MM-DD ou dd/mm/aaaa)",
         "invalid date (use YYYY-MM-DD or dd/mm/yyyy)"),
        ("ajb_exit", pl.col("_exit_bad"), "data inválida (use AAAA-MM-DD ou dd/mm/aaaa)",
         "invalid date (use YYYY-MM-DD or dd/mm/yyyy)"),
        ("ajb_entry", _outside(pl.col("ajb_entry")), *OUT_OF_RANGE),
        ("ajb_exit", _outside(pl.col("ajb_exit")), *OUT_OF_RANGE),
        # (an entry that could not be read is its own problem, not a missing one)
        ("ajb_exit", pl.col("ajb_exit").is_not_null() & pl.col("ajb_entry").is_null()
         & ~pl.col("_entry_bad"),
         f"saída ({exit_label}) sem entrada ({entry_label})",
         f"exit ({exit_label}) without an entry ({entry_label})"),
        ("ajb_exit", pl.col("ajb_exit") < pl.col("ajb_entry"),
         f"saída ({exit_label}) anterior à entrada ({entry_label})",
         f"exit ({exit_label}) before the entry ({entry_label})"),
        ("foreign_calls", pl.col("_calls_bad"),
         "valor lógico inválido (use true/false ou sim/não)",
         "invalid boolean (use true/false)"),
    ]
    masks = [m.fill_null(False).alias(f"_check{i}") for i, (_, m, _, _) in enumerate(checks)]
    df = vdf.lazy().with_columns(masks).collect(engine="in-memory")
    failing = df.select(pl.col(f"_check{i}").any() for i in range(len(checks))).row(0)
    problems: list[InputError] = []  # every failing check at its first row, in file order
    for i, hit in enumerate(failing):
        if hit:
            col, _, pt, en = checks[i]
            if col == "flag" and pt.startswith("país"):
                value = df.filter(pl.col(f"_check{i}"))["_flag_txt"][0]
                # The country reader writes "Portuguese ‖ English": each language its part.
                said_pt, said_en = bilingual(bad_flags.get(value, pt))
                pt = said_pt
                en = said_en if said_en != said_pt else f"unknown country '{value}'"
            if checks[i][1] is dup:
                # where the id was first given, as a crew id repeated in a vessel says it
                again = df.filter(pl.col(f"_check{i}"))["id"][0]
                also = c.line(int(df.filter(pl.col("id") == again)["_vidx"][0]))
                pt, en = f"{pt} (também na linha {also})", f"{en} (also on row {also})"
            found = c.problem(df[f"_check{i}"], col, pt, en)
            if found is not None:
                problems.append(found)
    if problems:
        raise InputError.listing(problems, in_file_order=True)
    vessels = df.select("_vidx", "_row", "id", "name", "imo", "flag", "registry", "activity",
                        "contract", "ajb_entry", "ajb_exit", "foreign_calls",
                        (pl.col("flag") == "BR").alias("_is_br"))
    absences = _absences(c, vessels)
    extensions = _extensions(c)
    return vessels, absences, extensions


def _split(c: _Checker, column: str, sep: str) -> pl.DataFrame:
    """``a<sep>b;c<sep>d`` → rows ``_vidx, v, left, right`` (whitespace stripped), in
    vessel order (a vessel's rows together, in the order written). ``right`` is all after
    the first ``sep``: a third part (two absences joined by ``/`` instead of ``;``) makes it
    no date, an error — never a part silently dropped."""
    df = (c.df.lazy().select(pl.int_range(0, pl.len(), dtype=pl.UInt32).alias("_vidx"),
                             pl.col(column).cast(pl.String).alias("v"))
          .filter(pl.col("v").is_not_null()).collect(engine="in-memory"))
    df = (df.with_columns(pl.col("v").str.split(";")).explode("v")
          .with_columns(pl.col("v").str.strip_chars())
          .filter(pl.col("v") != "")
          .with_columns(parts=pl.col("v").str.splitn(sep, 2))
          .unnest("parts")
          .rename({"field_0": "left", "field_1": "right"})
          .with_columns(pl.col("left").str.strip_chars(), pl.col("right").str.strip_chars()))
    return df


def _fail_at(c: _Checker, df: pl.DataFrame, mask: pl.Series, column: str, pt: str,
             en: str) -> None:
    idx = mask.arg_true()
    if idx.len():
        i = int(idx[0])
        vidx = int(df["_vidx"][i])
        raise _err(f"{pt} (recebido: {df['v'][i]!r})", f"{en} (got {df['v'][i]!r})",
                   c.headers.get(column, column), c.display, c.line(vidx))


_BR_DAY = r"\d{1,2}/\d{1,2}/\d{4}"
_BR_ABSENCE = rf"^({_BR_DAY})\s*(?:/|-|–|\sa\s|\saté\s)\s*({_BR_DAY})$"


def _absences(c: _Checker, vessels: pl.DataFrame) -> pl.DataFrame:
    empty = pl.DataFrame(schema={"_vidx": pl.UInt32, "a_first": pl.Date, "a_last": pl.Date})
    if "absences" not in c.df.columns:
        return empty
    df = _split(c, "absences", "/")
    if df.height == 0:
        return empty
    # ISO ``2026-02-11/2026-02-19``, or the two days as Brazilian spreadsheets write dates
    # (as ``ajb_entry`` accepts them): ``11/02/2026 a 19/02/2026``, ``11/02/2026-19/02/2026``
    # or ``11/02/2026/19/02/2026`` — the ``/`` inside a dd/mm/aaaa date is no separator.
    both = pl.col("v").str.extract_groups(_BR_ABSENCE)
    df = df.with_columns(
        left=pl.coalesce(both.struct.field("1"), pl.col("left")),
        right=pl.when(both.struct.field("1").is_not_null())
        .then(both.struct.field("2")).otherwise(pl.col("right")))
    df = df.with_columns(a_first=_day(pl.col("left"), brazilian=True),
                         a_last=_day(pl.col("right"), brazilian=True))
    what = ("ausência inválida: use AAAA-MM-DD/AAAA-MM-DD ou dd/mm/aaaa a dd/mm/aaaa "
            "(primeiro e último dia fora das AJB), separadas por ';'")
    what_en = ("invalid absence: use YYYY-MM-DD/YYYY-MM-DD or dd/mm/yyyy a dd/mm/yyyy (first "
               "and last day outside AJB)")
    _fail_at(c, df, df["a_first"].is_null() | df["a_last"].is_null(), "absences", what,
             what_en)
    _fail_at(c, df, df.select(_outside(pl.col("a_first")) | _outside(pl.col("a_last")))
             .to_series(), "absences", *OUT_OF_RANGE)
    _fail_at(c, df, df["a_last"] < df["a_first"], "absences",
             "ausência com fim antes do início", "absence ending before it starts")
    df = df.join(vessels.select("_vidx", "ajb_entry", "ajb_exit"), on="_vidx", how="left",
                 maintain_order="left")
    _fail_at(c, df, df["ajb_entry"].is_null(), "absences",
             f"ausência sem entrada em AJB ({c.label('ajb_entry')})",
             f"absence without an AJB entry ({c.label('ajb_entry')})")
    _fail_at(c, df, df["a_first"] <= df["ajb_entry"], "absences",
             f"ausência deve começar depois do dia de entrada ({c.label('ajb_entry')})",
             f"an absence must start after the entry day ({c.label('ajb_entry')})")
    # The previous absence of the same vessel (rows are in vessel order: no window needed).
    prev_last = df.select(pl.when(pl.col("_vidx").shift(1) == pl.col("_vidx"))
                          .then(pl.col("a_last").shift(1)))["a_last"]
    _fail_at(c, df, (prev_last.is_not_null() & (df["a_first"] <= prev_last + dt.timedelta(
        days=1))).fill_null(False), "absences",
             "ausências fora de ordem ou sem presença entre elas",
             "absences out of order or with no presence between them")
    _fail_at(c, df, (df["ajb_exit"].is_not_null()
                     & (df["a_last"] >= df["ajb_exit"])).fill_null(False), "absences",
             f"ausência deve terminar antes do dia de saída ({c.label('ajb_exit')})",
             f"an absence must end before the exit day ({c.label('ajb_exit')})")
    return df.select("_vidx", "a_first", "a_last")


def _extensions(c: _Checker) -> pl.DataFrame:
    empty = pl.DataFrame(schema={"_vidx": pl.UInt32, "from_day": pl.Int32,
                                 "applies_from": pl.Date, "given": pl.UInt32})
    if "extensions" not in c.df.columns:
        return empty
    df = _split(c, "extensions", ":")
    if df.height == 0:
        return empty
    df = df.with_columns(from_day=pl.col("left").cast(pl.Int32, strict=False),
                         applies_from=_day(pl.col("right"), brazilian=True))
    _fail_at(c, df, df["from_day"].is_null() | (df["from_day"] < 0)
             | df["applies_from"].is_null(), "extensions",
             "prorrogação inválida: use DIA:AAAA-MM-DD ou DIA:dd/mm/aaaa (ex.: 180:2026-10-01), "
             "separadas por ';'", "invalid extension: use DAY:YYYY-MM-DD or DAY:dd/mm/yyyy "
             "(e.g. 180:2026-10-01)")
    _fail_at(c, df, df.select(_outside(pl.col("applies_from"))).to_series(), "extensions",
             *OUT_OF_RANGE)
    # As in the engine (a dict by step): the last extension given for a step wins;
    # ``given``: how many were given for it (more than one is warned, extension_repeated).
    return (df.group_by("_vidx", "from_day", maintain_order=True)
            .agg(pl.col("applies_from").last(), pl.len().cast(pl.UInt32).alias("given")))


# --- a folder of vessel case files --------------------------------------------------------

def fleet_from_cases(paths: list[Path], keep_going: bool = False) -> Fleet:
    """A fleet from vessel case files (each read by :func:`load_vessel_case`); the vessel
    id is the file name without extension. ``keep_going``: see :func:`read_fleet`."""
    vrows: list[dict[str, Any]] = []
    crows: list[dict[str, Any]] = []
    cases: dict[Any, VesselCase] = {}
    rejected: list[tuple[str, InputError]] = []
    seen: dict[str, Path] = {}
    for p in paths:
        # The id as every table reads one: spaces around the file's stem aside.
        vid = p.stem.strip()
        if not vid:
            raise _err("nome de arquivo de caso sem id de embarcação (só espaços)",
                       "case file name without a vessel id (spaces only)", file=str(p))
        if vid in seen:
            raise _err(f"dois arquivos de caso com o mesmo id de embarcação '{vid}': "
                       f"'{seen[vid].name}' e '{p.name}'",
                       f"two case files with the same vessel id '{vid}': "
                       f"'{seen[vid].name}' and '{p.name}'", file=str(p))
        seen[vid] = p
        try:
            case = load_vessel_case(p)
        except InputError as exc:
            # Another engine's input among the cases is named as such (as abordo check
            # names it), not by the vessel model's field list.
            err = wrong_kind(p, "screen", "vessel") or exc
            if not keep_going:
                raise err from None
            rejected.append((vid, err))
            continue
        cases[vid] = case
        vrows.append(case_to_vessel_row(vid, case))
        for person in case.crew_list:
            crows.append({"vessel_id": vid, "id": person.id, "rank": person.rank,
                          "nationality": "/".join(person.nationality),
                          "department": person.department, "level": person.level,
                          "position": person.position})
    display = str(paths[0].parent)
    if not vrows:  # nothing to screen: the first file's error says why
        raise rejected[0][1]
    vdf = pl.DataFrame(vrows, schema={k: pl.String for k in vrows[0]})
    vessels, absences, extensions = check_vessels(vdf, display, 1, {}, pl.String())
    touching = [vid for vid, case in cases.items() if _touching(case)]
    if touching:
        vessels = vessels.with_columns(_touch=pl.col("id").is_in(touching))
    cdf = pl.DataFrame(crows, schema={k: pl.String for k in ("vessel_id", *CREW_READ)})
    crew = CrewSource(cdf.lazy(), display, 1)
    return Fleet(vessels, absences, extensions, crew, display, 1, {}, cases, rejected)


def _next_day(exit_: dt.date | None, entry: dt.date) -> bool:
    """A re-entry the day after an exit (no day fully outside AJB)."""
    return exit_ is not None and entry == exit_ + dt.timedelta(days=1)


def _touching(case: VesselCase) -> bool:
    """A case the tables cannot carry whole, left to the engine: an exit followed by a
    re-entry the next day among its presence periods, or a person whose own entries show
    an exit from the country (the engine warns when the list and the entries disagree on
    the date judged — ``not_in_country``; the crew table has no entries)."""
    periods = sorted(case.operation.ajb_presence, key=lambda p: p.entry)
    return (any(_next_day(a.exit, b.entry) for a, b in itertools.pairwise(periods))
            or any(e.exit is not None for m in case.crew_list for e in m.entries))


def case_to_vessel_row(vid: str, case: VesselCase) -> dict[str, Any]:
    """A vessel case as one row of the vessels table (presence periods → entry, exit and
    absences). Periods on consecutive days (an exit and a re-entry the next day: no day
    outside) are merged here, as the table has no absence of 0 days; :func:`fleet_from_cases`
    sends those vessels to the engine, whose exit rule decides whether that exit ends the
    stay (any exit does where the norm has no tolerance)."""
    v, op = case.vessel, case.operation
    periods = sorted(op.ajb_presence, key=lambda p: p.entry)
    merged: list[tuple[dt.date, dt.date | None]] = []
    for p in periods:
        if merged and _next_day(merged[-1][1], p.entry):
            merged[-1] = (merged[-1][0], p.exit)
        else:
            merged.append((p.entry, p.exit))
    absences = []
    for (_, a_exit), (b_entry, _) in itertools.pairwise(merged):
        assert a_exit is not None  # only the last period may be open (Operation validates)
        absences.append(f"{(a_exit + dt.timedelta(days=1)).isoformat()}/"
                        f"{(b_entry - dt.timedelta(days=1)).isoformat()}")
    return {
        "id": vid, "name": v.name, "imo": v.imo, "flag": v.flag, "registry": v.registry,
        "activity": v.activity.value, "contract": op.contract.value,
        "ajb_entry": merged[0][0].isoformat() if merged else None,
        "ajb_exit": (last.isoformat() if merged and (last := merged[-1][1]) else None),
        "absences": ";".join(absences) or None,
        "extensions": ";".join(f"{e.step_from_day}:{e.applies_from.isoformat()}"
                               for e in op.extensions) or None,
        "foreign_calls": None if op.foreign_calls is None else str(op.foreign_calls).lower(),
    }

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
                  long_haul
    contract      charter | services | risk | lease | none (empty = none)
    ajb_entry     first day in AJB of the presence (YYYY-MM-DD); empty = never entered
    ajb_exit      last day in AJB (empty = still there)
    absences      days fully outside AJB between entry and exit,
                  "YYYY-MM-DD/YYYY-MM-DD;…" (first and last day outside, in order)
    extensions    steps postponed by the Ministry, "FROM_DAY:YYYY-MM-DD;…"
    foreign_calls true | false (long-haul: does it call at foreign ports?)

Crew table (one row per person aboard): ``vessel_id``, ``nationality`` (required), ``rank``,
``department``, ``level``, ``position``, ``id`` — the crew-list columns and their Portuguese
aliases (``função``, ``nacionalidade``…). Personal columns (name, document numbers, birth
date) and immigration columns are accepted and never read.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from abordo.batch.crew import CrewSource
from abordo.crew.crewfile import COLUMNS as CREW_COLUMNS
from abordo.crew.crewfile import FALSE, TRUE, header_key
from abordo.crew.load import load_vessel_case
from abordo.crew.model import Activity, Contract, VesselCase, country_code
from abordo.law.errors import InputError

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
CREW_VESSEL_ALIASES = ("vessel_id", "vessel", "vessel id", "embarcacao", "embarcacao id",
                       "navio")
CREW_READ = ("id", "rank", "nationality", "department", "level", "position")
EPOCH = dt.date(1970, 1, 1)


@dataclass
class Fleet:
    """A fleet read and checked.

    ``vessels``: one row per vessel, columns ``_vidx`` (0-based), ``_row`` (row users see),
    ``id``, ``name``, ``imo``, ``flag`` (alpha-2), ``registry``, ``activity``, ``contract``,
    ``ajb_entry`` / ``ajb_exit`` (Date), ``foreign_calls`` (Boolean), ``_is_br``.
    ``absences``: ``_vidx``, ``a_first``, ``a_last`` (Date, both days outside AJB).
    ``extensions``: ``_vidx``, ``from_day`` (Int32), ``applies_from`` (Date).
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

    def column_label(self, canonical: str) -> str:
        return self.headers.get(canonical, canonical)


# --- files --------------------------------------------------------------------------------

def _err(pt: str, en: str, fld: str | None = None, file: str | None = None,
         row: int | None = None) -> InputError:
    return InputError(pt, fld, file, row, message_en=en)


def _csv_header(path: Path, display: str) -> tuple[list[str], str]:
    with path.open("rb") as fh:
        head = fh.read(65536)
    if not head.strip():
        raise _err("arquivo vazio", "empty file", file=display)
    try:
        text = head.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = head[:-4].decode("utf-8-sig") if len(head) == 65536 else ""
        except UnicodeDecodeError:
            text = ""
        if not text:
            raise _err("o arquivo CSV deve estar em UTF-8", "the CSV file must be UTF-8",
                       file=display, row=1) from None
    first = text.splitlines()[0] if text.splitlines() else ""
    sep = max((",", ";", "\t"), key=first.count)
    header = next(csv.reader(io.StringIO(first), delimiter=sep), [])
    return [h.strip() for h in header], sep


def _open(path: Path, display: str, mapping: dict[str, str], kind: str
          ) -> tuple[pl.LazyFrame, dict[str, str], int]:
    """Lazy frame with canonical column names; unknown columns are an error."""
    if path.suffix.lower() == ".csv":
        names, sep = _csv_header(path, display)
        row_offset, header_row = 2, 1
    else:
        try:
            names = list(pl.scan_parquet(path).collect_schema().names())
        except Exception as exc:  # polars raises several types for a broken file
            raise _err(f"arquivo Parquet ilegível: {exc}", f"unreadable Parquet file: {exc}",
                       file=display) from None
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
        if fld in headers:
            raise _err(f"coluna repetida '{name}' ({fld})", f"duplicate column '{name}'",
                       name, display, header_row)
        headers[fld] = name
        canon.append(fld)
    if path.suffix.lower() == ".csv":
        lf = pl.scan_csv(path, separator=sep, infer_schema=False, new_columns=canon,
                         encoding="utf8", raise_if_empty=False, truncate_ragged_lines=False)
    else:
        lf = pl.scan_parquet(path).rename(dict(zip(names, canon, strict=True)))
    return lf, headers, row_offset


def _find(folder: Path, stem: str) -> Path | None:
    found = [folder / f"{stem}{ext}" for ext in (".parquet", ".csv")
             if (folder / f"{stem}{ext}").exists()]
    if len(found) > 1:
        raise _err(f"há {found[0].name} e {found[1].name}: deixe apenas um",
                   f"both {found[0].name} and {found[1].name}: keep one", file=str(folder))
    return found[0] if found else None


def read_fleet(folder: Path) -> Fleet:
    """Read a fleet folder (see the module docstring for the format).

    Raises :class:`InputError` naming file, row and column for anything that is not as
    documented: unknown or missing column, bad date, bad code, duplicate id, empty file.
    The crew table is not read here (it is streamed by :func:`abordo.batch.crew.count_crew`).
    """
    if not folder.exists():
        raise _err(f"pasta da frota não encontrada: {folder}", f"fleet folder not found: "
                   f"{folder}", file=str(folder))
    if folder.is_file():
        raise _err("informe a pasta da frota (com vessels.csv|parquet e crew.csv|parquet, "
                   "ou arquivos de caso YAML/JSON)", "give the fleet folder (with "
                   "vessels.csv|parquet and crew.csv|parquet, or YAML/JSON case files)",
                   file=str(folder))
    vpath = _find(folder, "vessels")
    cpath = _find(folder, "crew")
    if vpath is None:
        cases = sorted(p for p in folder.iterdir()
                       if p.suffix.lower() in (".yaml", ".yml", ".json") and p.is_file())
        if cases:
            return fleet_from_cases(cases)
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
    crew_map = {k: f for k, (f, kind) in CREW_COLUMNS.items()}
    crew_map |= {header_key(a): "vessel_id" for a in CREW_VESSEL_ALIASES}
    clf, cheaders, coff = _open(cpath, cdisplay, crew_map, "tripulação")
    if "vessel_id" not in cheaders:
        raise _err("coluna obrigatória ausente: vessel_id", "required column missing: "
                   "vessel_id", "vessel_id", cdisplay, 1 if coff == 2 else None)
    if "nationality" not in cheaders:
        raise _err("coluna obrigatória ausente: nationality (nacionalidade)",
                   "required column missing: nationality", "nationality", cdisplay,
                   1 if coff == 2 else None)
    try:
        raw = vlf.collect()
    except pl.exceptions.PolarsError as exc:
        raise _err(f"não foi possível ler o arquivo: {exc}", f"could not read the file: {exc}",
                   file=vdisplay) from None
    if raw.height == 0:
        raise _err("a tabela de embarcações não tem nenhuma linha", "the vessels table has "
                   "no row", file=vdisplay)
    crew_cols = [c for c in ("vessel_id", *CREW_READ) if c in cheaders]
    clf = clf.select(crew_cols)
    cschema = dict(clf.collect_schema())
    vid_int = raw.schema["id"].is_integer() and cschema["vessel_id"].is_integer()
    key_type: pl.DataType = pl.Int64() if vid_int else pl.String()
    if cschema["vessel_id"] != key_type:
        clf = clf.with_columns(pl.col("vessel_id").cast(key_type))
    crew = CrewSource(clf, cdisplay, coff)
    vessels, absences, extensions = check_vessels(raw, vdisplay, voff, vheaders, key_type)
    return Fleet(vessels, absences, extensions, crew, vdisplay, voff, vheaders)


# --- checks -------------------------------------------------------------------------------

def _blank_to_null(s: pl.Series) -> pl.Series:
    return pl.select(pl.when(s == "").then(None).otherwise(s)).to_series().alias(s.name)


class _Checker:
    def __init__(self, df: pl.DataFrame, display: str, row_offset: int,
                 headers: dict[str, str]) -> None:
        self.df = df
        self.display = display
        self.off = row_offset
        self.headers = headers

    def fail(self, mask: pl.Series, column: str, pt: str, en: str) -> None:
        """Raise for the first row where ``mask`` is true (value quoted in the message)."""
        idx = mask.arg_true()
        if idx.len() == 0:
            return
        i = int(idx[0])
        value = self.df[column][i] if column in self.df.columns else None
        got = f" (recebido: {value!r})" if value is not None else ""
        got_en = f" (got {value!r})" if value is not None else ""
        raise _err(f"{pt}{got}", f"{en}{got_en}", self.headers.get(column, column),
                   self.display, i + self.off)

    def text(self, column: str) -> pl.Series:
        s = self.df[column] if column in self.df.columns else pl.Series(
            column, [None] * self.df.height, dtype=pl.String)
        if s.dtype != pl.String:
            s = s.cast(pl.String)
        return _blank_to_null(s.str.strip_chars())

    def date(self, column: str) -> pl.Series:
        if column not in self.df.columns:
            return pl.Series(column, [None] * self.df.height, dtype=pl.Date)
        s = self.df[column]
        if s.dtype == pl.Date:
            return s
        if isinstance(s.dtype, pl.Datetime):
            return s.dt.date()
        txt = self.text(column)
        parsed = txt.str.to_date("%Y-%m-%d", strict=False)
        self.fail(txt.is_not_null() & parsed.is_null(), column,
                  "data inválida (use AAAA-MM-DD)", "invalid date (use YYYY-MM-DD)")
        return parsed

    def choice(self, column: str, allowed: Iterable[str], default: str | None = None
               ) -> pl.Series:
        allowed = list(allowed)
        s = self.text(column)
        if default is not None:
            s = s.fill_null(default)
        self.fail(s.is_not_null() & ~s.is_in(allowed), column,
                  f"valor não permitido; esperado um de: {', '.join(allowed)}",
                  f"value not allowed; expected one of: {', '.join(allowed)}")
        return s


def check_vessels(raw: pl.DataFrame, display: str, row_offset: int, headers: dict[str, str],
                  key_type: pl.DataType) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Validate and normalise the vessels table; returns (vessels, absences, extensions)."""
    c = _Checker(raw, display, row_offset, headers)
    for col in VESSEL_REQUIRED:
        if col not in raw.columns:
            raise _err(f"coluna obrigatória ausente: {col}", f"required column missing: {col}",
                       col, display, 1 if row_offset == 2 else None)
    ids = raw["id"]
    if ids.dtype != key_type:
        ids = ids.cast(key_type)
    if key_type == pl.String:
        ids = _blank_to_null(ids.str.strip_chars())
    c.fail(ids.is_null(), "id", "id da embarcação ausente", "missing vessel id")
    c.fail(~ids.is_first_distinct() & ids.is_not_null(), "id", "id de embarcação repetido",
           "duplicate vessel id")

    flag_txt = c.text("flag")
    c.fail(flag_txt.is_null(), "flag", "bandeira ausente", "missing flag")
    codes: dict[str, str] = {}
    for v in flag_txt.unique().drop_nulls().to_list():
        try:
            codes[v] = country_code(v)
        except ValueError as exc:
            c.fail(flag_txt == v, "flag", str(exc), f"unknown country '{v}'")
    flag = flag_txt.replace_strict(codes, return_dtype=pl.String) if codes else flag_txt
    registry = c.choice("registry", ("ordinary", "REB"))
    c.fail(registry.is_not_null() & (flag != "BR"), "registry",
           "registry (ordinary/REB) só se aplica a embarcação de bandeira BR",
           "registry (ordinary/REB) applies only to a BR-flag vessel")
    activity = c.choice("activity", [a.value for a in Activity])
    c.fail(activity.is_null(), "activity", "atividade ausente", "missing activity")
    contract = c.choice("contract", [k.value for k in Contract], default=Contract.NONE.value)
    entry = c.date("ajb_entry")
    exit_ = c.date("ajb_exit")
    c.fail(exit_.is_not_null() & entry.is_null(), "ajb_exit",
           "saída (ajb_exit) sem entrada (ajb_entry)", "exit (ajb_exit) without an entry")
    c.fail(exit_.is_not_null() & entry.is_not_null() & (exit_ < entry), "ajb_exit",
           "saída (exit) anterior à entrada (entry)", "exit before entry")
    imo = _check_imo(c)
    calls = _check_bool(c, "foreign_calls")
    name = c.text("name")

    vessels = pl.DataFrame({
        "_vidx": pl.int_range(0, raw.height, dtype=pl.UInt32, eager=True),
        "_row": pl.int_range(row_offset, raw.height + row_offset, dtype=pl.Int64, eager=True),
        "id": ids, "name": name, "imo": imo, "flag": flag, "registry": registry,
        "activity": activity, "contract": contract, "ajb_entry": entry, "ajb_exit": exit_,
        "foreign_calls": calls,
    }).with_columns(_is_br=pl.col("flag") == "BR")
    absences = _absences(c, vessels)
    extensions = _extensions(c)
    return vessels, absences, extensions


def _check_imo(c: _Checker) -> pl.Series:
    """IMO number: 7 digits, check digit of SOLAS XI-1/3 (as :class:`Vessel` checks it)."""
    s = c.text("imo").str.replace(r"(?i)^IMO\s*", "")
    ok_shape = s.str.contains(r"^\d{7}$")
    c.fail(s.is_not_null() & ~ok_shape.fill_null(False), "imo",
           "número IMO deve ter 7 dígitos", "IMO number must have 7 digits")
    digits = [s.str.slice(i, 1).cast(pl.Int32, strict=False) for i in range(7)]
    check = sum((d * w for d, w in zip(digits[:6], range(7, 1, -1), strict=True)),
                start=pl.Series([0] * c.df.height, dtype=pl.Int32)) % 10
    c.fail(s.is_not_null() & (check != digits[6]), "imo",
           "número IMO com dígito verificador inválido", "IMO number with a bad check digit")
    return s


def _check_bool(c: _Checker, column: str) -> pl.Series:
    if column in c.df.columns and c.df[column].dtype == pl.Boolean:
        return c.df[column]
    s = c.text(column).str.to_lowercase()
    c.fail(s.is_not_null() & ~s.is_in(sorted(TRUE | FALSE)), column,
           "valor lógico inválido (use true/false ou sim/não)",
           "invalid boolean (use true/false)")
    return pl.select(pl.when(s.is_null()).then(None).otherwise(s.is_in(sorted(TRUE)))
                     ).to_series().alias(column)


def _split(c: _Checker, column: str, sep: str) -> pl.DataFrame:
    """``a<sep>b;c<sep>d`` → rows ``_vidx, _k, left, right`` (whitespace stripped)."""
    s = c.text(column)
    df = pl.DataFrame({"_vidx": pl.int_range(0, c.df.height, dtype=pl.UInt32, eager=True),
                       "v": s}).filter(pl.col("v").is_not_null())
    df = (df.with_columns(pl.col("v").str.split(";")).explode("v")
          .with_columns(pl.col("v").str.strip_chars())
          .filter(pl.col("v") != "")
          .with_columns(_k=pl.int_range(pl.len()).over("_vidx"),
                        parts=pl.col("v").str.split_exact(sep, 1))
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
                   c.headers.get(column, column), c.display, vidx + c.off)


def _absences(c: _Checker, vessels: pl.DataFrame) -> pl.DataFrame:
    empty = pl.DataFrame(schema={"_vidx": pl.UInt32, "a_first": pl.Date, "a_last": pl.Date})
    if "absences" not in c.df.columns:
        return empty
    df = _split(c, "absences", "/")
    if df.height == 0:
        return empty
    df = df.with_columns(a_first=pl.col("left").str.to_date("%Y-%m-%d", strict=False),
                         a_last=pl.col("right").str.to_date("%Y-%m-%d", strict=False))
    what = ("ausência inválida: use AAAA-MM-DD/AAAA-MM-DD (primeiro e último dia fora das "
            "AJB), separadas por ';'")
    what_en = "invalid absence: use YYYY-MM-DD/YYYY-MM-DD (first and last day outside AJB)"
    _fail_at(c, df, df["a_first"].is_null() | df["a_last"].is_null(), "absences", what,
             what_en)
    _fail_at(c, df, df["a_last"] < df["a_first"], "absences",
             "ausência com fim antes do início", "absence ending before it starts")
    df = df.join(vessels.select("_vidx", "ajb_entry", "ajb_exit"), on="_vidx", how="left",
                 maintain_order="left")
    _fail_at(c, df, df["ajb_entry"].is_null(), "absences",
             "ausência sem entrada em AJB (ajb_entry)", "absence without an AJB entry")
    _fail_at(c, df, df["a_first"] <= df["ajb_entry"], "absences",
             "ausência deve começar depois do dia de entrada (ajb_entry)",
             "an absence must start after the entry day")
    prev_last = df.select(pl.col("a_last").shift(1).over("_vidx"))["a_last"]
    _fail_at(c, df, (prev_last.is_not_null() & (df["a_first"] <= prev_last + dt.timedelta(
        days=1))).fill_null(False), "absences",
             "ausências fora de ordem ou sem presença entre elas",
             "absences out of order or with no presence between them")
    _fail_at(c, df, (df["ajb_exit"].is_not_null()
                     & (df["a_last"] >= df["ajb_exit"])).fill_null(False), "absences",
             "ausência deve terminar antes do dia de saída (ajb_exit)",
             "an absence must end before the exit day")
    return df.select("_vidx", "a_first", "a_last")


def _extensions(c: _Checker) -> pl.DataFrame:
    empty = pl.DataFrame(schema={"_vidx": pl.UInt32, "from_day": pl.Int32,
                                 "applies_from": pl.Date})
    if "extensions" not in c.df.columns:
        return empty
    df = _split(c, "extensions", ":")
    if df.height == 0:
        return empty
    df = df.with_columns(from_day=pl.col("left").cast(pl.Int32, strict=False),
                         applies_from=pl.col("right").str.to_date("%Y-%m-%d", strict=False))
    _fail_at(c, df, df["from_day"].is_null() | (df["from_day"] < 0)
             | df["applies_from"].is_null(), "extensions",
             "prorrogação inválida: use DIA:AAAA-MM-DD (ex.: 180:2026-10-01), separadas por ';'",
             "invalid extension: use DAY:YYYY-MM-DD (e.g. 180:2026-10-01)")
    # As in the engine (a dict by step): the last extension given for a step wins.
    return (df.group_by("_vidx", "from_day", maintain_order=True)
            .agg(pl.col("applies_from").last()))


# --- a folder of vessel case files --------------------------------------------------------

def fleet_from_cases(paths: list[Path]) -> Fleet:
    """A fleet from vessel case files (each read by :func:`load_vessel_case`); the vessel
    id is the file name without extension."""
    vrows: list[dict[str, Any]] = []
    crows: list[dict[str, Any]] = []
    cases: dict[Any, VesselCase] = {}
    for p in paths:
        case = load_vessel_case(p)
        vid = p.stem
        if vid in cases:
            raise _err(f"dois arquivos de caso com o mesmo nome: {vid}",
                       f"two case files with the same name: {vid}", file=str(p))
        cases[vid] = case
        vrows.append(case_to_vessel_row(vid, case))
        for person in case.crew_list:
            crows.append({"vessel_id": vid, "id": person.id, "rank": person.rank,
                          "nationality": "/".join(person.nationality),
                          "department": person.department, "level": person.level,
                          "position": person.position})
    display = str(paths[0].parent)
    vdf = pl.DataFrame(vrows, schema={k: pl.String for k in vrows[0]})
    vessels, absences, extensions = check_vessels(vdf, display, 1, {}, pl.String())
    cdf = pl.DataFrame(crows, schema={k: pl.String for k in ("vessel_id", *CREW_READ)})
    crew = CrewSource(cdf.lazy(), display, 1)
    return Fleet(vessels, absences, extensions, crew, display, 1, {}, cases)


def case_to_vessel_row(vid: str, case: VesselCase) -> dict[str, Any]:
    """A vessel case as one row of the vessels table (presence periods → entry, exit and
    absences; touching periods merged — a gap of 0 days never interrupts a stay)."""
    v, op = case.vessel, case.operation
    periods = sorted(op.ajb_presence, key=lambda p: p.entry)
    merged: list[tuple[dt.date, dt.date | None]] = []
    for p in periods:
        last_exit = merged[-1][1] if merged else None
        if last_exit is not None and p.entry == last_exit + dt.timedelta(days=1):
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

"""Reading sea-time inputs: YAML/JSON cases, and CIR / declaration sheets in CSV or XLSX.

A YAML/JSON input has the shape of the shared spec; any list section may instead point to a
sheet: ``cir_file: cir.csv``, ``declarations_file: records.xlsx`` (an XLSX is read from the
sheet named after the section — ``cir``, ``declarations``, ``foreign_declarations``,
``manoeuvres``, ``standby``, ``instructor_activity`` — or from its only sheet). A whole XLSX
workbook is also an input: a ``seafarer`` sheet of ``field | value`` rows (``id``, ``group``,
``department``, ``category``, ``purpose``, ``navy_sea_days``…) plus the section sheets.

Text files are read as UTF-8 (with or without BOM), else Windows-1252 / Latin-1 (what
Brazilian spreadsheets export); CSV separators ``,`` ``;`` or tab are detected. Dates may be
``AAAA-MM-DD`` or ``dd/mm/aaaa``. Every error is an :class:`~abordo.law.InputError` naming
the file, the row (1-based, header excluded) and the field.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from abordo.law.errors import InputError
from abordo.sea_time.model import (
    CirRecord,
    Declaration,
    ForeignDeclaration,
    InstructorActivity,
    Manoeuvre,
    Standby,
    _to_input_error,
    parse_input,
)

#: List sections that may come from a sheet, and the model of one row.
SECTIONS: dict[str, type[BaseModel]] = {
    "cir": CirRecord,
    "declarations": Declaration,
    "foreign_declarations": ForeignDeclaration,
    "manoeuvres": Manoeuvre,
    "standby": Standby,
    "instructor_activity": InstructorActivity,
}

#: Portuguese (and other common) column headers → field names, after normalisation
#: (lower case, no accents, spaces → underscores).
HEADER_ALIASES: dict[str, str] = {
    "embarcacao": "vessel", "navio": "vessel", "bandeira": "flag", "tipo": "kind",
    "tipo_de_embarcacao": "kind", "navegacao": "navigation", "embarque": "embark",
    "data_de_embarque": "embark", "desembarque": "disembark",
    "data_de_desembarque": "disembark", "funcao": "function", "empresa": "company",
    "licenca": "lcs", "funcao_offshore": "offshore_role", "dpp": "dpp_date",
    "data_dpp": "dpp_date", "em_servico": "in_service", "registro": "entered_in",
    "de": "from", "inicio": "from", "desde": "from", "ate": "to", "fim": "to",
    "categoria": "category", "declaracao_propria": "own_declaration",
    "formato_anterior": "prior_format", "anexos": "attachments", "data": "date",
    "horas": "hours", "navegacao_manobra": "navigation",
}
SHEET_ALIASES: dict[str, str] = {
    "declaracoes": "declarations", "declaracoes_estrangeiras": "foreign_declarations",
    "manobras": "manoeuvres", "a_disposicao": "standby", "instrutor": "instructor_activity",
    "aquaviario": "seafarer", "maritimo": "seafarer",
}
_TRUE = {"sim", "s", "x", "verdadeiro"}
_FALSE = {"nao", "n", "falso", ""}
_BR_DATE = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$")


@dataclass(frozen=True)
class SheetSource:
    """Where a section's rows came from (to locate errors found after loading)."""

    file: str
    sheet: str | None


def norm_key(text: Any) -> str:
    """``"Função offshore"`` → ``funcao_offshore``."""
    s = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", s.strip().lower()).strip("_")


def decode(raw: bytes, display: str) -> str:
    """Text of a file: UTF-8 (BOM or not), else Windows-1252, else Latin-1.

    Raises InputError for UTF-16/32 or binary content (NUL bytes), which would otherwise
    decode into garbage.
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw[:4096]:
        raise InputError(
            "codificação não suportada (UTF-16 ou arquivo binário); salve como UTF-8 ou CSV",
            None, display,
            message_en="unsupported encoding (UTF-16 or binary file); save as UTF-8 or CSV")
    for enc in ("utf-8-sig", "cp1252"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def _read_bytes(path: Path, display: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError("arquivo não encontrado", None, display,
                         message_en="file not found") from None
    except OSError as exc:
        raise InputError(f"não foi possível ler o arquivo: {exc.strerror}", None, display,
                         message_en=f"cannot read the file: {exc.strerror}") from None


def _cell(value: Any) -> Any:
    """A cell as the models expect: dates from ``dd/mm/aaaa``, sim/não, blanks removed."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, str):
        return value
    text = value.strip()
    if m := _BR_DATE.match(text):
        day, month, year = (int(g) for g in m.groups())
        try:
            return dt.date(year, month, day).isoformat()
        except ValueError:
            return text  # the model reports the bad date with its field
    low = norm_key(text)
    if low in _TRUE:
        return "true"
    if low in _FALSE and text:
        return "false"
    return text


def _rows_to_dicts(header: list[Any], rows: list[tuple[int, list[Any]]], section: str,
                   display: str) -> list[dict[str, Any]]:
    model = SECTIONS[section]
    allowed = {info.alias or field for field, info in model.model_fields.items()}
    fields: list[str | None] = []
    for col in header:
        if col is None or str(col).strip() == "":
            fields.append(None)
            continue
        key = HEADER_ALIASES.get(norm_key(col), norm_key(col))
        if key not in allowed:
            raise InputError(
                f"coluna desconhecida '{col}'; esperado uma de: {', '.join(sorted(allowed))}",
                str(col), display,
                message_en=f"unknown column '{col}'; expected one of: "
                f"{', '.join(sorted(allowed))}")
        fields.append(key)
    out: list[dict[str, Any]] = []
    for number, values in rows:
        item: dict[str, Any] = {}
        for name, value in zip(fields, values, strict=False):
            if name is None:
                continue
            v = _cell(value)
            if v is None or v == "":
                continue
            if name == "attachments" and isinstance(v, str):
                v = [a for a in re.split(r"[|,\s]+", v) if a]
            item[name] = v
        if not item:
            continue
        try:
            model.model_validate(item)
        except ValidationError as exc:
            raise _to_input_error(exc).with_location(file=display, row=number) from None
        item["__row__"] = number
        out.append(item)
    return out


def _read_csv(path: Path, display: str, section: str) -> list[dict[str, Any]]:
    text = decode(_read_bytes(path, display), display)
    first = text.splitlines()[0] if text.strip() else ""
    delimiter = max((",", ";", "\t"), key=first.count)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    lines = [row for row in reader]
    if not lines:
        raise InputError("arquivo vazio (esperado um cabeçalho e linhas)", None, display,
                         message_en="empty file (expected a header and rows)")
    rows = [(n, list(r)) for n, r in enumerate(lines[1:], 1)]
    return _rows_to_dicts(list(lines[0]), rows, section, display)


def _workbook(path: Path, display: str) -> Any:
    import openpyxl

    try:
        return openpyxl.load_workbook(path, read_only=True, data_only=True)
    except FileNotFoundError:
        raise InputError("arquivo não encontrado", None, display,
                         message_en="file not found") from None
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise InputError(f"planilha XLSX ilegível: {exc}", None, display,
                         message_en=f"unreadable XLSX workbook: {exc}") from None


def _sheets(wb: Any) -> dict[str, Any]:
    out = {}
    for ws in wb.worksheets:
        key = norm_key(ws.title)
        out[SHEET_ALIASES.get(key, key)] = ws
    return out


def _sheet_rows(ws: Any) -> tuple[list[Any], list[tuple[int, list[Any]]]]:
    values = [list(r) for r in ws.iter_rows(values_only=True)]
    if not values:
        return [], []
    return values[0], [(n, r) for n, r in enumerate(values[1:], 1)]


def _read_xlsx(path: Path, display: str, section: str) -> list[dict[str, Any]]:
    wb = _workbook(path, display)
    sheets = _sheets(wb)
    ws = sheets.get(section)
    if ws is None and len(sheets) == 1:
        ws = next(iter(sheets.values()))
    if ws is None:
        raise InputError(
            f"planilha sem aba '{section}' (abas: {', '.join(w.title for w in wb.worksheets)})",
            section, display,
            message_en=f"workbook has no sheet '{section}' "
            f"(sheets: {', '.join(w.title for w in wb.worksheets)})")
    header, rows = _sheet_rows(ws)
    return _rows_to_dicts(header, rows, section, f"{display}[{ws.title}]")


def read_sheet(path: Path, section: str, display: str | None = None) -> list[dict[str, Any]]:
    """The rows of ``section`` from a CSV or XLSX file, each validated (file/row errors).

    Each row dict carries ``__row__`` (its 1-based number) until :func:`resolve_files`
    strips it.
    """
    display = display or path.name
    suffix = path.suffix.lower()
    if suffix == ".csv" or suffix == ".txt":
        return _read_csv(path, display, section)
    if suffix in {".xlsx", ".xlsm"}:
        return _read_xlsx(path, display, section)
    raise InputError(f"formato de planilha não suportado '{path.suffix}'; use CSV ou XLSX",
                     f"{section}_file", display,
                     message_en=f"unsupported sheet format '{path.suffix}'; use CSV or XLSX")


def resolve_files(data: Mapping[str, Any], base_dir: Path, *, display: str | None = None,
                  overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``data`` with every ``<section>_file`` replaced by the rows it holds, validated.

    ``base_dir``: where relative paths are resolved (the input file's folder).
    ``overrides``: top-level keys set by the caller (the CLI's ``--purpose``).
    Raises InputError (file, row, field) — including the whole-input checks, so that an
    error in a row read from a sheet names that sheet and row.
    """
    if not isinstance(data, Mapping):
        raise InputError("a entrada deve ser um objeto (seafarer, purpose, cir, …)", None,
                         display, message_en="the input must be an object")
    out = dict(data)
    out.update(overrides or {})
    sources: dict[str, tuple[str, list[int]]] = {}
    for section in SECTIONS:
        key = f"{section}_file"
        if key not in out:
            continue
        ref = out.pop(key)
        if out.get(section):
            raise InputError(f"use '{section}' ou '{key}', não os dois", key, display,
                             message_en=f"give '{section}' or '{key}', not both")
        if not isinstance(ref, str) or not ref.strip():
            raise InputError("caminho de arquivo esperado", key, display,
                             message_en="a file path is expected")
        path = (base_dir / ref).resolve() if not Path(ref).is_absolute() else Path(ref)
        rows = read_sheet(path, section, ref)
        sources[section] = (ref, [r.pop("__row__") for r in rows])
        out[section] = rows
    try:
        parse_input(out)
    except InputError as exc:
        raise _relocate(exc, sources, display) from None
    return out


def _relocate(exc: InputError, sources: Mapping[str, tuple[str, list[int]]],
              display: str | None) -> InputError:
    """Point an error on ``cir[3].x`` at the sheet and row it came from."""
    m = re.match(r"^([a-z_]+)\[(\d+)\]\.?(.*)$", exc.field or "")
    if m and m.group(1) in sources:
        file, rows = sources[m.group(1)]
        index = int(m.group(2))
        row = rows[index] if index < len(rows) else None
        return InputError(exc.message, m.group(3) or None, file, row, exc.message_en,
                          exc.details)
    if display and not exc.file:
        return exc.with_location(file=display)
    return exc


def _parse_text(text: str, suffix: str, display: str) -> Any:
    if suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"JSON inválido na linha {exc.lineno}, coluna {exc.colno}: "
                             f"{exc.msg}", None, display,
                             message_en=f"invalid JSON at line {exc.lineno}, column "
                             f"{exc.colno}: {exc.msg}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" na linha {mark.line + 1}" if mark is not None else ""
        where_en = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"YAML inválido{where}: {problem}", None, display,
                         message_en=f"invalid YAML{where_en}: {problem}") from None


def _workbook_input(path: Path, display: str) -> dict[str, Any]:
    wb = _workbook(path, display)
    sheets = _sheets(wb)
    if "seafarer" not in sheets:
        raise InputError("planilha sem aba 'seafarer' (campo | valor)", "seafarer", display,
                         message_en="workbook has no 'seafarer' sheet (field | value)")
    seafarer: dict[str, Any] = {}
    top: dict[str, Any] = {}
    header, rows = _sheet_rows(sheets["seafarer"])
    for row in [header, *(r for _, r in rows)]:
        if not row or row[0] is None:
            continue
        key = norm_key(row[0])
        value = _cell(row[1] if len(row) > 1 else None)
        if key in {"field", "campo"} or value in (None, ""):
            continue
        if key in {"purpose", "finalidade"}:
            top["purpose"] = value
        elif key in {"navy_sea_days", "dias_de_mar_marinha"}:
            top["navy_sea_days"] = value
        else:
            seafarer[{"grupo": "group", "secao": "department", "categoria": "category"}
                     .get(key, key)] = value
    data: dict[str, Any] = {"seafarer": seafarer, **top}
    for section in SECTIONS:
        if section in sheets:
            data[f"{section}_file"] = path.name
    return data


def load_input(path: Path, *, purpose: str | None = None) -> dict[str, Any]:
    """Read a sea-time input file (``.yaml``/``.yml``/``.json``/``.xlsx``), sheets resolved.

    ``purpose`` overrides the file's ``purpose``. Returns the plain input dict (validated:
    :func:`abordo.sea_time.compute` accepts it). Raises InputError naming file, row, field.
    """
    display = path.name
    suffix = path.suffix.lower()
    overrides = {"purpose": purpose} if purpose else None
    if suffix in {".xlsx", ".xlsm"}:
        data = _workbook_input(path, display)
        return resolve_files(data, path.parent, display=display, overrides=overrides)
    if suffix not in {".yaml", ".yml", ".json"}:
        raise InputError(
            f"formato não suportado '{path.suffix}'; use YAML, JSON ou XLSX (um CSV é "
            "indicado dentro do YAML: cir_file: cir.csv)", None, display,
            message_en=f"unsupported format '{path.suffix}'; use YAML, JSON or XLSX (a CSV "
            "is referenced from the YAML: cir_file: cir.csv)")
    data = _parse_text(decode(_read_bytes(path, display), display), suffix, display)
    if not isinstance(data, Mapping):
        raise InputError("a entrada deve ser um objeto (seafarer, purpose, cir, …)", None,
                         display, message_en="the input must be an object")
    return resolve_files(data, path.parent, display=display, overrides=overrides)

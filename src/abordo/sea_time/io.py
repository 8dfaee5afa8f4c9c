"""Reading sea-time inputs: YAML/JSON cases, and CIR / declaration sheets in CSV or XLSX.

A YAML/JSON input has the shape of the shared spec; any list section may instead point to a
sheet: ``cir_file: cir.csv``, ``declarations_file: records.xlsx`` (an XLSX is read from the
sheet named after the section — ``cir``, ``declarations``, ``foreign_declarations``,
``manoeuvres``, ``standby``, ``instructor_activity`` — or from its only sheet). A whole XLSX
workbook is also an input: a ``seafarer`` sheet of ``field | value`` rows (``id``, ``group``,
``department``, ``category``, ``purpose``, ``navy_sea_days``…) plus the section sheets; a
sheet of another name that holds data is refused (its rows would be left out).

Nothing is dropped or overridden in silence, with the crew lists' checks: a column repeated,
a value in a column with no header, a field given twice in the ``seafarer`` sheet, a number
or a time of day in a date cell are errors.

Text files are read as UTF-8 (with or without BOM), else Windows-1252 / Latin-1 (what
Brazilian spreadsheets export); CSV separators ``,`` ``;`` or tab are detected. Dates may be
``AAAA-MM-DD`` or ``dd/mm/aaaa``. Every error is an :class:`~abordo.law.InputError` naming
the file, the row and the field. The row is the line of the file or sheet as a spreadsheet
shows it (header = line 1, first data row = line 2; blank lines keep their number), like the
crew lists (:mod:`abordo.crew.crewfile`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from abordo.crew.crewfile import decode, repeated_column, value_without_header
from abordo.law.csvfile import csv_records
from abordo.law.documents import locate, parse_document
from abordo.law.errors import InputError
from abordo.law.files import read_input
from abordo.law.parsing import workbook_problem
from abordo.law.text import fold
from abordo.law.validation import Bilingual, input_error_from_pydantic
from abordo.sea_time.model import (
    MAX_DAYS,
    CirRecord,
    Declaration,
    ForeignDeclaration,
    InstructorActivity,
    Manoeuvre,
    Seafarer,
    SeaTimeInput,
    Standby,
    parse_input,
)
from abordo.sea_time.model import values as value_names

#: List sections that may come from a sheet, and the model of one row.
SECTIONS: dict[str, type[BaseModel]] = {
    "cir": CirRecord,
    "declarations": Declaration,
    "foreign_declarations": ForeignDeclaration,
    "manoeuvres": Manoeuvre,
    "standby": Standby,
    "instructor_activity": InstructorActivity,
}

#: Each field's column as a Portuguese sheet writes it, then the other headers read as that
#: field. Matching ignores case and accents, and spaces count as underscores
#: (:func:`norm_key`); the first header is the one messages name (``embarque (embark)``).
COLUMNS: dict[str, tuple[str, ...]] = {
    "vessel": ("embarcação", "navio"),
    "flag": ("bandeira",),
    "kind": ("tipo", "tipo de embarcação"),
    "navigation": ("navegação", "navegação manobra"),
    "embark": ("embarque", "data de embarque"),
    "disembark": ("desembarque", "data de desembarque"),
    "function": ("função",),
    "company": ("empresa",),
    "lcs": ("licença",),
    "offshore_role": ("função offshore",),
    "dpp_date": ("data DPP", "DPP"),
    "in_service": ("em serviço",),
    "entered_in": ("registro",),
    "from": ("início", "de", "desde"),
    "to": ("até", "fim"),
    "category": ("categoria",),
    "own_declaration": ("declaração própria",),
    "prior_format": ("formato anterior",),
    "attachments": ("anexos",),
    "date": ("data",),
    "hours": ("horas",),
}


def norm_key(text: Any) -> str:
    """``"Função offshore"`` → ``funcao_offshore``."""
    return re.sub(r"[^a-z0-9]+", "_", fold(str(text)).strip()).strip("_")


#: Portuguese (and other common) column headers → field names, after :func:`norm_key`.
HEADER_ALIASES: dict[str, str] = {
    norm_key(header): field for field, headers in COLUMNS.items() for header in headers}


def column_name(field: str) -> str:
    """A field as a Portuguese sheet's column writes it, with the field: ``embarque
    (embark)``; a field with no Portuguese header is named as it is (``imo``)."""
    headers = COLUMNS.get(field)
    return f"{headers[0]} ({field})" if headers else field


#: The sheets of a sea-time workbook: the seafarer's ``field | value`` rows, then the sections.
SHEET_NAMES: tuple[str, ...] = ("seafarer", *SECTIONS)
#: Other names of the sheets (after :func:`norm_key`: case, accents and spaces ignored).
SHEET_ALIASES: dict[str, str] = {
    "declaracoes": "declarations", "declaracoes_estrangeiras": "foreign_declarations",
    "manobras": "manoeuvres", "a_disposicao": "standby", "instrutor": "instructor_activity",
    "aquaviario": "seafarer", "maritimo": "seafarer",
}
_TRUE = {"sim", "s", "x", "verdadeiro"}
_FALSE = {"nao", "n", "falso", ""}
_BR_DATE = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$")
_ISO_DATE = re.compile(r"^\s*\d{4}-\d{1,2}-\d{1,2}\s*$")
#: pydantic error types of a date that cannot be read.
#: (A number or a date with a time of day, ``date_from_datetime_inexact``, keeps the message
#: every input gives it: format the cell as a date.)
_DATE_ERRORS = frozenset({"date_parsing", "date_from_datetime_parsing", "date_type"})


@dataclass(frozen=True)
class SheetSource:
    """Where a section's rows came from (to locate errors found after loading)."""

    file: str
    sheet: str | None


def _cell(value: Any) -> Any:
    """A cell as the models expect: dates from ``dd/mm/aaaa``, sim/não, blanks removed. An
    XLSX date cell with a time of day other than midnight is left as it is: the date field
    refuses it (the day a time belongs to is not the reader's guess)."""
    if isinstance(value, dt.datetime):
        return value.date() if value.time() == dt.time(0) else value
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
                   display: str, header_line: int = 1) -> list[dict[str, Any]]:
    """Validated row dicts; ``rows`` are ``(line, values)`` with the file/sheet line."""
    model = SECTIONS[section]
    allowed = {info.alias or field for field, info in model.model_fields.items()}
    fields: list[str | None] = []
    # Each field's column as the header writes it (``embark`` → ``Embarque``): errors name
    # the column the user wrote, as for the crew lists.
    written: dict[str, str] = {}
    # Every problem of the sheet is listed at once: a column not understood is reported
    # and left out, and each row is still checked.
    problems: list[InputError] = []
    first_column: dict[str, int] = {}  # each field's column (0-based)
    for index, col in enumerate(header):
        if col is None or str(col).strip() == "":
            fields.append(None)
            continue
        key = HEADER_ALIASES.get(norm_key(col), norm_key(col))
        if key in first_column:  # "embark" twice, "vessel" beside "embarcação"
            problems.append(repeated_column(str(col).strip(), index, written[key],
                                            first_column[key], display, header_line))
            fields.append(None)
            continue
        if key not in allowed:
            problems.append(InputError(
                f"coluna desconhecida '{col}'; esperado uma de: "
                f"{', '.join(column_name(c) for c in sorted(allowed))}",
                str(col), display, header_line,
                message_en=f"unknown column '{col}'; expected one of: "
                f"{', '.join(sorted(allowed))}"))
            fields.append(None)
            continue
        fields.append(key)
        first_column[key] = index
        written[key] = str(col).strip()
    required = [info.alias or name for name, info in model.model_fields.items()
                if info.is_required()]
    absent = [c for c in required if c not in fields]
    if absent:
        # Named as a Portuguese sheet writes them: "embarque (embark)".
        names = ", ".join(column_name(c) for c in absent)
        names_en = ", ".join(f"{c} ({COLUMNS[c][0]})" if c in COLUMNS else c for c in absent)
        problems.append(InputError(
            f"faltam colunas obrigatórias: {names}", COLUMNS.get(absent[0], (absent[0],))[0],
            display, header_line, message_en=f"required columns missing: {names_en}"))

    # A value in a column with no header (right of the header, or under a blank header
    # cell) is refused as the crew lists refuse it: no column would read it.
    headed = [not _blank([col]) for col in header]
    while headed and not headed[-1]:
        headed.pop()
    out: list[dict[str, Any]] = []
    for line, values in rows:
        stray = value_without_header(values, headed, display, line)
        if stray is not None:
            problems.append(stray)
        item: dict[str, Any] = {}
        for name, value in zip(fields, values, strict=False):
            if name is None:
                continue
            v = _cell(value)
            if v is None or v == "":
                continue
            if name == "attachments" and isinstance(v, str):
                v = attachment_list(v)
            item[name] = v
        if not item:
            continue
        # A required column absent from the header leaves its field "missing" on every row:
        # said once, by the header's error.
        found = row_problems(model, item, display, line, absent=absent)
        if found:
            for e in found:
                e.field = as_written(e.field, written)
            problems += found
            continue
        item["__row__"] = line
        item["__file__"] = display
        item["__columns__"] = written
        out.append(item)
    if problems:
        raise InputError.listing([e.alone() for e in problems], in_file_order=True)
    return out


def row_problems(model: type[BaseModel], item: Mapping[str, Any], display: str,
                 line: int | Mapping[str, int], prefix: str = "",
                 absent: Iterable[str] = ()) -> list[InputError]:
    """The problems of one sheet row (or of a ``field | value`` sheet: ``line`` then maps
    each field to its line) as ``model`` reads it, each naming file, row and field
    (a number in a date cell among them, as every date field refuses it:
    :func:`abordo.law.validation.iso_date`). ``absent``: required fields whose column the
    header lacks — their "missing" is said once, by the header's error."""
    skip = set(absent)
    try:
        model.model_validate(item)
    except ValidationError as exc:
        err = sheet_error(exc, display, line, prefix)
        return [e for e, raw in zip([err, *err.details], exc.errors(), strict=False)
                if not (raw["type"] == "missing" and raw["loc"]
                        and str(raw["loc"][0]) in skip)]
    return []


def attachment_list(text: str) -> list[str]:
    """The attachments of one cell: separated by ``|``, ``,`` or ``;`` (``rol de equipagem;
    cópia da CIR``) — or, for codes, by spaces too (``crew_list cir_copy``)."""
    out: list[str] = []
    for part in (p.strip() for p in re.split(r"[|,;]+", text)):
        if not part:
            continue
        if value_names().value_code("attachment", part) is not None:
            out.append(part)
        else:
            out += part.split()
    return out


def as_written(field: str | None, written: Mapping[str, str]) -> str | None:
    """``embark`` → ``Embarque`` (``attachments.0`` → ``Anexos.0``): a row's field named by
    its column as the sheet's header writes it."""
    if not field:
        return field
    head, dot, rest = field.partition(".")
    return f"{written.get(head, head)}{dot}{rest}"


def sheet_error(exc: ValidationError, display: str, line: int | Mapping[str, int],
                prefix: str = "") -> InputError:
    """The :class:`InputError` of a sheet row (or of ``field | value`` rows).

    ``line``: the row's line in the file/sheet, or (for a ``field | value`` sheet) the line of
    each field. A date that cannot be read says both forms a sheet accepts.
    """
    err = input_error_from_pydantic(exc)
    for item, raw in zip([err, *err.details], exc.errors(), strict=False):
        if prefix:
            item.field = f"{prefix}.{item.field}" if item.field else prefix
        item.file = display
        if isinstance(line, int):
            item.row = line
        else:
            cause = (raw.get("ctx") or {}).get("error")
            named = cause.field if isinstance(cause, Bilingual) and cause.field else ""
            # (a check of the whole sheet naming its field: a hidden character)
            top = str(raw["loc"][0]) if raw["loc"] else re.split(r"[.\[]", named)[0]
            item.row = line.get(top)
        # A dd/mm/aaaa date that does not exist is refused by the date type's own check.
        if raw["type"] in _DATE_ERRORS or str(raw.get("msg", "")).startswith(
                "Value error, data inexistente"):
            item.message, item.message_en = _date_message(raw.get("input"))
        elif isinstance(raw.get("input"), dt.datetime) and item.quoted is None:
            # a date cell with a time of day: the cell as Excel shows it
            said = f"{raw['input']:%d/%m/%Y %H:%M}"
            item.quoted = (f" (recebido: {said})", f" (got {said})")
            item.message += item.quoted[0]
            item.message_en = (item.message_en or "") + item.quoted[1]
    return err


def _date_message(value: Any) -> tuple[str, str]:
    """Portuguese and English messages for a date cell that cannot be read."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        text = str(value).strip()
        if _BR_DATE.match(text) or _ISO_DATE.match(text):
            return (f"data inexistente '{text}'; use AAAA-MM-DD ou dd/mm/aaaa",
                    f"no such date '{text}'; use YYYY-MM-DD or dd/mm/yyyy")
        return (f"data inválida '{text}'; use AAAA-MM-DD ou dd/mm/aaaa",
                f"invalid date '{text}'; use YYYY-MM-DD or dd/mm/yyyy")
    return ("data inválida; use AAAA-MM-DD ou dd/mm/aaaa",
            "invalid date; use YYYY-MM-DD or dd/mm/yyyy")


def _blank(values: list[Any]) -> bool:
    return all(v is None or str(v).strip() == "" for v in values)


def _split_header(lines: list[tuple[int, list[Any]]]
                  ) -> tuple[int, list[Any], list[tuple[int, list[Any]]]]:
    """``(header line, header, data rows)``: the header is the first non-blank row."""
    for i, (line, values) in enumerate(lines):
        if not _blank(values):
            return line, values, lines[i + 1:]
    return 0, [], []


def _read_csv(path: Path, display: str, section: str) -> list[dict[str, Any]]:
    text = decode(read_input(path, display), display, csv=True)
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    delimiter = max((",", ";", "\t"), key=first.count)
    # a quoted cell may span lines: a row is numbered by its first line
    lines: list[tuple[int, list[Any]]] = list(
        csv_records(io.StringIO(text, newline=""), delimiter, display))
    header_line, header, rows = _split_header(lines)
    if not header:
        raise InputError("arquivo vazio (esperado um cabeçalho e linhas)", None, display,
                         message_en="empty file (expected a header and rows)")
    return _rows_to_dicts(header, rows, section, display, header_line)


def _workbook(path: Path, display: str, content: bytes | None = None) -> Any:
    """The workbook ``path`` (``content``: its bytes, when already read)."""
    import openpyxl

    if content is None:
        content = read_input(path, display)
    try:
        return openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        pt, en = workbook_problem(exc)
        raise InputError(pt, None, display, message_en=en) from None


def _sheet_key(title: str) -> str:
    """The sheet a title names: ``Declarações`` → ``declarations`` (unknown: the title as
    :func:`norm_key` writes it)."""
    key = norm_key(title)
    return SHEET_ALIASES.get(key, key)


def _sheets(wb: Any, display: str) -> dict[str, Any]:
    """The worksheets by the sheet each names (:func:`_sheet_key`); two sheets naming the
    same one (``declarations`` and ``Declarações``) are refused, not read "the last one
    wins"."""
    out: dict[str, Any] = {}
    for ws in wb.worksheets:
        key = _sheet_key(ws.title)
        if key in out:
            first = out[key].title
            raise InputError(
                f"duas abas para '{key}': '{first}' e '{ws.title}' (deixe uma só)", None,
                f"{display}[{ws.title}]",
                message_en=f"two sheets for '{key}': '{first}' and '{ws.title}' (keep one)")
        out[key] = ws
    return out


def _closest_sheet(title: str) -> str | None:
    """The sheet name (or Portuguese name) a title not known comes closest to:
    ``declaration`` → ``declarations``; None when none is close."""
    close = difflib.get_close_matches(norm_key(title), [*SHEET_NAMES, *SHEET_ALIASES], n=1,
                                      cutoff=0.75)  # ("notas" is not "manobras")
    return close[0] if close else None


def _unknown_sheets(sheets: Mapping[str, Any], display: str) -> list[InputError]:
    """The error of each sheet of a sea-time workbook that is none of :data:`SHEET_NAMES`
    and holds a value (its rows would be left out in silence: a misspelled
    ``declaration`` would drop every declaration); a blank one is left alone."""
    expected = ", ".join(SHEET_NAMES)
    portuguese = ", ".join(SHEET_ALIASES)
    out = []
    for key, ws in sheets.items():
        if key in SHEET_NAMES or all(_blank(list(r)) for r in ws.iter_rows(values_only=True)):
            continue
        close = _closest_sheet(ws.title)
        pt, en = (f" (quis dizer '{close}'?)", f" (did you mean '{close}'?)") if close \
            else ("", "")
        out.append(InputError(
            f"aba desconhecida '{ws.title}'{pt}; as abas de um cômputo são {expected} (ou, em "
            f"português, {portuguese})", None, f"{display}[{ws.title}]",
            message_en=f"unknown sheet '{ws.title}'{en}; a sea-time workbook has the sheets "
            f"{expected}"))
    return out


def _sheet_lines(ws: Any) -> list[tuple[int, list[Any]]]:
    """Every row of a worksheet with its line number as Excel shows it (from 1)."""
    return [(n, list(r)) for n, r in enumerate(ws.iter_rows(values_only=True), 1)]


def _read_xlsx(path: Path, display: str, section: str) -> list[dict[str, Any]]:
    wb = _workbook(path, display)
    sheets = _sheets(wb, display)
    ws = sheets.get(section)
    if ws is None and len(sheets) == 1:
        ws = next(iter(sheets.values()))
    if ws is None:
        titles = ", ".join(w.title for w in wb.worksheets)
        close = [w.title for w in wb.worksheets
                 if (c := _closest_sheet(w.title)) and SHEET_ALIASES.get(c, c) == section]
        hint = (f"; '{close[0]}' seria '{section}'?", f"; is '{close[0]}' meant as "
                f"'{section}'?") if close else ("", "")
        raise InputError(
            f"planilha sem aba '{section}' (abas: {titles}){hint[0]}", section, display,
            message_en=f"workbook has no sheet '{section}' (sheets: {titles}){hint[1]}")
    header_line, header, rows = _split_header(_sheet_lines(ws))
    return _rows_to_dicts(header, rows, section, f"{display}[{ws.title}]", header_line)


def read_sheet(path: Path, section: str, display: str | None = None) -> list[dict[str, Any]]:
    """The rows of ``section`` from a CSV or XLSX file, each validated (file/row errors).

    Each row dict carries ``__row__`` (its line in the file or sheet: header = 1),
    ``__file__`` (the file, and sheet of a workbook, as errors name it) and ``__columns__``
    (each field's column as the header writes it) until :func:`resolve_files` strips them.
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


def input_schema() -> dict[str, Any]:
    """JSON Schema of a sea-time input *file*: :class:`SeaTimeInput` plus, for each list
    section, ``<section>_file`` — a CSV or XLSX of its rows, relative to the input file, in
    place of the list (:func:`resolve_files`)."""
    schema: dict[str, Any] = SeaTimeInput.model_json_schema()
    # ``navy_sea_days: 45`` is read as ``{days: 45}`` (a validator the schema cannot see)
    navy = schema["properties"]["navy_sea_days"]
    schema["properties"]["navy_sea_days"] = {
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_DAYS},
                  {"$ref": navy["$ref"]}],
        "default": navy.get("default")}
    for section in SECTIONS:
        schema["properties"][f"{section}_file"] = {
            "type": "string", "title": f"{section} file",
            "description": f"CSV ou XLSX com as linhas de {section} (caminho relativo ao "
                           f"arquivo de entrada), no lugar de {section}"}
    return schema


def resolve_files(data: Mapping[str, Any], base_dir: Path, *, display: str | None = None,
                  overrides: Mapping[str, Any] | None = None,
                  lines: Mapping[str, tuple[str, int]] | None = None,
                  on: dt.date | None = None) -> dict[str, Any]:
    """``data`` with every ``<section>_file`` replaced by the rows it holds, validated.

    ``base_dir``: where relative paths are resolved (the input file's folder).
    ``overrides``: top-level keys set by the caller (the CLI's ``--purpose``).
    ``lines``: where top-level fields read from a ``field | value`` sheet came from
    (``{"purpose": ("caso.xlsx[seafarer]", 7)}``).
    ``on``: the request date, when known, for the checks that depend on it.
    Raises InputError (file, row, field) — including the whole-input checks, so that an
    error in a row read from a sheet names that sheet and row.
    """
    if not isinstance(data, Mapping):
        raise InputError("a entrada deve ser um objeto (seafarer, purpose, cir, …)", None,
                         display, message_en="the input must be an object")
    out = dict(data)
    out.update(overrides or {})
    sources: dict[str, list[tuple[str, int, Mapping[str, str]]]] = {}
    problems: list[InputError] = []
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
        try:
            rows = read_sheet(path, section, ref)
        except InputError as exc:  # the other sheets are still read: all problems at once
            problems += [exc, *exc.details]
            continue
        sources[section] = [(r.pop("__file__"), r.pop("__row__"), r.pop("__columns__"))
                            for r in rows]
        out[section] = rows
    if problems:
        raise InputError.listing([e.alone() for e in problems])
    try:
        parse_input(out, on)
    except InputError as exc:
        raise _relocate(exc, sources, display, lines or {}) from None
    return out


def _relocate(exc: InputError, sources: Mapping[str, list[tuple[str, int, Mapping[str, str]]]],
              display: str | None, lines: Mapping[str, tuple[str, int]]) -> InputError:
    """Point an error on ``cir[3].x`` at the sheet and line it came from."""
    m = re.match(r"^([a-z_]+)\[(\d+)\]\.?(.*)$", exc.field or "")
    if m and m.group(1) in sources:
        rows = sources[m.group(1)]
        index = int(m.group(2))
        if index < len(rows):
            file, row, written = rows[index]
            return dataclasses.replace(exc, field=as_written(m.group(3) or None, written),
                                       file=file, row=row)
    top = re.split(r"[.\[]", exc.field or "", maxsplit=1)[0]
    if top in lines:
        file, row = lines[top]
        return dataclasses.replace(exc, file=file, row=row)
    if display and not exc.file:
        return exc.with_location(file=display)
    return exc


def _workbook_input(path: Path, display: str, content: bytes | None = None
                    ) -> tuple[dict[str, Any], dict[str, tuple[str, int]]]:
    """The input held by a whole workbook, and where its top-level fields came from.

    The ``seafarer`` sheet (``field | value`` rows) is validated here, each error naming the
    sheet line of its field; the sections are left as ``<section>_file`` references.
    """
    wb = _workbook(path, display, content)
    sheets = _sheets(wb, display)
    # Every problem of the workbook's sheets at once; a value no field reads is refused, not
    # dropped — and so is a sheet no section reads.
    unknown = _unknown_sheets(sheets, display)
    if "seafarer" not in sheets:
        missing = InputError(
            "planilha sem aba 'seafarer' (campo | valor) — um cômputo de tempo de "
            "embarque em XLSX tem as abas seafarer, cir, declarations…; uma lista "
            "de tripulantes (FAL 5) entra num caso como crew_file (abordo check)",
            "seafarer", display,
            message_en="workbook has no 'seafarer' sheet (field | value) — a "
            "sea-time workbook has the sheets seafarer, cir, declarations…; a crew "
            "list (FAL 5) goes into a case as crew_file (abordo check)")
        raise InputError.listing([missing, *unknown])
    ws = sheets["seafarer"]
    where = f"{display}[{ws.title}]"
    seafarer: dict[str, Any] = {}
    top: dict[str, Any] = {}
    seafarer_lines: dict[str, int] = {}
    top_lines: dict[str, tuple[str, int]] = {}
    problems: list[InputError] = []
    seen: dict[str, int] = {}  # the line of each field given (``seafarer.id``, ``purpose``)
    for line, row in _sheet_lines(ws):
        stray = value_without_header(row, [True, True], where, line)  # field | value
        if stray is not None:
            problems.append(stray)
        if _blank(row[:1]):
            if not _blank(row[1:2]):
                problems.append(InputError(
                    f"valor sem o nome do campo na coluna A: '{_cell(row[1])}'", None, where,
                    line, message_en=f"value without its field's name in column A: "
                    f"'{_cell(row[1])}'"))
            continue
        key = norm_key(row[0])
        value = _cell(row[1] if len(row) > 1 else None)
        if key in {"field", "campo"} or value in (None, ""):
            continue
        if key in {"purpose", "finalidade"}:
            field = "purpose"
        elif key in {"navy_sea_days", "dias_de_mar_marinha"}:
            field = "navy_sea_days"
        else:
            field = "seafarer." + {
                "grupo": "group", "secao": "department", "categoria": "category",
                "certificado_valido_ate": "certificate_valid_until"}.get(key, key)
        if field in seen:  # one field on two lines: refused, not read "the last one wins"
            written = str(row[0]).strip()
            problems.append(InputError(
                f"campo '{written}' repetido (também na linha {seen[field]})", field, where,
                line, message_en=f"field '{written}' repeated (also on row {seen[field]})"))
            continue
        seen[field] = line
        section, _, name = field.rpartition(".")
        if section:
            seafarer[name] = value
            seafarer_lines[name] = line
        else:
            top[name] = value
            top_lines[name] = (where, line)
    problems += row_problems(Seafarer, seafarer, where, seafarer_lines, "seafarer")
    if problems or unknown:
        raise InputError.listing([*(e.alone() for e in problems), *unknown],
                                 in_file_order=True)
    data: dict[str, Any] = {"seafarer": seafarer, **top}
    for section in SECTIONS:
        if section in sheets:
            data[f"{section}_file"] = path.name
    return data, top_lines


def load_input(path: Path, *, purpose: str | None = None, on: dt.date | None = None
               ) -> dict[str, Any]:
    """Read a sea-time input file (``.yaml``/``.yml``/``.json``/``.xlsx``), sheets resolved.

    ``purpose`` overrides the file's ``purpose``; ``on`` (the request date) adds the checks
    that depend on it (:func:`abordo.sea_time.model.parse_input`). Returns the plain input
    dict (validated: :func:`abordo.sea_time.compute` accepts it). Raises InputError naming
    file, row, field.
    """
    display = path.name
    suffix = path.suffix.lower()
    overrides = {"purpose": purpose} if purpose else None
    raw = read_input(path, display)  # a folder or a file not readable: said first
    if suffix in {".xlsx", ".xlsm"}:
        data, lines = _workbook_input(path, display, raw)
        return resolve_files(data, path.parent, display=display, overrides=overrides,
                             lines=lines, on=on)
    # A pipe (/dev/stdin, <(…)) has no extension: read as YAML, which JSON also is.
    piped = suffix == "" and path.exists() and not path.is_file()
    if suffix not in {".yaml", ".yml", ".json"} and not piped:
        raise InputError(
            f"formato não suportado '{path.suffix}'; use YAML, JSON ou XLSX (um CSV é "
            "indicado dentro do YAML: cir_file: cir.csv)", None, display,
            message_en=f"unsupported format '{path.suffix}'; use YAML, JSON or XLSX (a CSV "
            "is referenced from the YAML: cir_file: cir.csv)")
    # The one reader of every YAML/JSON input: its errors name the line (and a character
    # not allowed, its column); repeated keys refused, in JSON too.
    data, index = parse_document(decode(raw, display), suffix == ".json", display)
    try:
        return resolve_files(data, path.parent, display=display, overrides=overrides, on=on)
    except InputError as exc:
        raise locate(exc, display, index) from None  # an error in the file itself: its line

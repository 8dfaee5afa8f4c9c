"""Crew lists from spreadsheets: CSV (UTF-8, UTF-8 with BOM, Latin-1; ``,`` or ``;``) and
XLSX (first sheet), including the IMO FAL Form 5 crew-list layout (title lines above the
header, numbered headers such as ``6. Rank or rating``).

Names and identity-document numbers are dropped on import unless the user asks to keep them
(LGPD). Unknown columns are an error naming the file and the column.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from abordo.crew.ranks import normalize_rank
from abordo.law.csvfile import csv_records
from abordo.law.documents import decode as decode  # re-exported: every text input alike
from abordo.law.errors import InputError
from abordo.law.files import read_input
from abordo.law.parsing import workbook_problem

# normalized header → (field, kind); kind: str | bool | date | personal
COLUMNS: dict[str, tuple[str, str]] = {}


def _col(field: str, kind: str, *names: str) -> None:
    for n in names:
        COLUMNS[normalize_rank(n)] = (field, kind)


_col("id", "str", "id", "no", "n", "nº", "no.", "numero", "número", "crew id", "seq", "item")
_col("rank", "str", "rank", "rank or rating", "rank/rating", "rank rating", "função", "funcao",
     "cargo", "categoria", "capacity", "função a bordo")
_col("nationality", "str", "nationality", "nacionalidade", "nationality/nacionalidade",
     "citizenship")
_col("department", "str", "department", "seção", "secao", "section", "departamento")
_col("level", "str", "level", "nível", "nivel")
_col("position", "str", "position", "posição", "posicao")
_col("sid_c185", "bool", "sid_c185", "c185", "sid c185")
_col("seafarer_card", "bool", "seafarer_card", "carteira internacional de marítimo")
_col("entry_date", "str", "entry_date", "data de entrada", "entry date")
_col("entry_by", "str", "entry_by", "meio de entrada", "entry by")
_col("exit_date", "str", "exit_date", "data de saída", "exit date")
_col("mandatory_crew_change", "bool", "mandatory_crew_change")
_col("document_type", "str", "document_type", "tipo de documento")
_col("document_valid_until", "str", "document_valid_until", "validade do documento")
_col("document_issued_on", "str", "document_issued_on")
_col("document_protocol_date", "str", "document_protocol_date", "data de protocolo")
_col("name", "personal", "name", "nome", "family name", "surname", "given names",
     "first name", "family name given names", "family name, given names", "sobrenome",
     "nome completo", "full name")
_col("document_number", "personal",
     "nature and no of identity document", "nature and no of identity document seaman s passport",
     "identity document", "passport", "passport no", "seaman s book", "documento",
     "numero do documento", "document number")
_col("_drop", "personal", "date and place of birth", "date of birth", "place of birth",
     "data de nascimento", "local de nascimento", "data e local de nascimento", "sex", "sexo")

TRUE = {"true", "sim", "s", "yes", "y", "1", "x", "verdadeiro"}
FALSE = {"false", "nao", "não", "n", "no", "0", "", "falso"}


def header_key(cell: Any) -> str:
    text = re.sub(r"^\s*\d+\s*[.)]\s*", "", str(cell or ""))  # FAL Form 5 numbers its boxes
    return normalize_rank(text)


def read_rows(path: Path, display: str, content: bytes | None = None
              ) -> list[tuple[int, list[Any]]]:
    """All rows with their 1-based row number: a sheet's row, a CSV record's first line
    (:func:`abordo.law.csvfile.csv_records`). ``content``: the file's bytes when they are
    not on disk (an upload), ``path`` then giving only the format."""
    suffix = path.suffix.lower()
    if content is None:
        # (the case file's crew_file line is named: see abordo.crew.load)
        content = read_input(path, display, field="crew_file")
    if suffix in (".xlsx", ".xlsm"):
        from openpyxl import load_workbook

        try:
            wb = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many types for a broken file
            pt, en = workbook_problem(exc)
            raise InputError(pt, file=display, message_en=en) from None
        ws = wb.worksheets[0]
        rows = [(i, list(r)) for i, r in enumerate(ws.iter_rows(values_only=True), 1)]
        wb.close()
        return rows
    if suffix in (".csv", ".txt", ".tsv"):
        text = decode(content, display, csv=True)
        return list(csv_records(io.StringIO(text, newline=""), guess_delimiter(text), display))
    raise InputError(f"formato de lista de tripulação não suportado: {suffix} (use CSV ou XLSX)",
                     "crew_file", file=display,
                     message_en=f"unsupported crew-list format {suffix} (use CSV or XLSX)")


def guess_delimiter(text: str) -> str:
    """``;`` (Excel in pt-BR), ``,`` or tab: the one most frequent in the first lines that
    hold text — robust to CRLF endings and blank lines, unlike a dialect sniffer."""
    lines = [ln for ln in text.splitlines() if ln.strip()][:5]
    counts = {d: sum(ln.count(d) for ln in lines) for d in (";", ",", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def find_header(rows: list[tuple[int, list[Any]]], display: str) -> int:
    """Index of the header row: the first with a nationality column and another known one."""
    for idx, (_n, cells) in enumerate(rows[:30]):
        keys = [COLUMNS.get(header_key(c), ("", ""))[0] for c in cells]
        if "nationality" in keys and sum(1 for k in keys if k) >= 2:
            return idx
    # The likeliest header: the first row with two known columns (a misspelled one beside
    # them is then named), else the first row that holds text.
    near = next(((n, cells) for n, cells in rows[:30]
                 if sum(1 for c in cells if COLUMNS.get(header_key(c))) >= 2), None)
    if near is not None:
        n, cells = near
        unknown = [str(c).strip() for c in cells
                   if str(c or "").strip() and not COLUMNS.get(header_key(c))]
        if unknown:
            raise InputError(
                f"coluna desconhecida '{unknown[0]}' no cabeçalho; falta a coluna nationality "
                "(nacionalidade)", unknown[0], display, n,
                message_en=f"unknown column '{unknown[0]}' in the header; the nationality "
                "column is missing")
        raise InputError("falta a coluna nationality (nacionalidade) no cabeçalho",
                         "nationality", display, n,
                         message_en="the header lacks the nationality column")
    raise InputError(
        "cabeçalho não encontrado: a lista precisa de colunas como id, rank (função) e "
        "nationality (nacionalidade)", file=display,
        message_en="header not found: the list needs columns such as id, rank, nationality")


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, dt.datetime) and v.time() != dt.time(0):
        # a date cell holding a time of day: the date field refuses it, as in every input
        # (the day a time belongs to is not the reader's guess), instead of the day cut out
        return v.isoformat()
    if hasattr(v, "isoformat"):
        return str(v.isoformat())[:10]
    return str(v).strip()


def column_letter(index: int) -> str:
    """A column as a spreadsheet names it, from its 0-based index: ``0`` → ``A``, ``26`` →
    ``AA``."""
    n, letters = index + 1, ""
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(ord("A") + r) + letters
    return letters


def repeated_column(name: str, index: int, first: str, first_index: int, display: str,
                    row: int) -> InputError:
    """The error of a header column for a field another column already gives (``embark``
    twice, ``vessel`` beside ``embarcação``): refused, never read "the last one wins".
    ``index``/``first_index``: the two columns, 0-based; ``first``: the other's header."""
    here, there = column_letter(index), column_letter(first_index)
    return InputError(
        f"coluna repetida '{name}' (coluna {here}: a mesma informação da coluna {there}, "
        f"'{first}')", name, display, row,
        message_en=f"repeated column '{name}' (column {here}: the same field as column "
        f"{there}, '{first}')")


def value_without_header(cells: Sequence[Any], headed: Sequence[bool], display: str,
                         row: int) -> InputError | None:
    """The error of a row's first value in a column with no header — right of the header's
    columns (``headed`` shorter than the row) or under a header cell left blank
    (``headed[i]`` false) — naming its column: a value no column reads is refused, never
    dropped. None when every value of the row has a header."""
    for i, value in enumerate(cells):
        text = _cell(value)
        if not text or (i < len(headed) and headed[i]):
            continue
        letter = column_letter(i)
        if i < len(headed):
            return InputError(
                f"valor na coluna {letter}, de cabeçalho em branco: '{text}' (falta o nome "
                "da coluna)", None, display, row,
                message_en=f"value in column {letter}, whose header is blank: '{text}' (the "
                "column's name is missing)")
        return InputError(
            f"valor fora das colunas do cabeçalho, na coluna {letter}: '{text}' (falta um "
            "cabeçalho ou sobra um separador)", None, display, row,
            message_en=f"value beyond the header's columns, in column {letter}: '{text}' "
            "(a header is missing or a separator is extra)")
    return None


def read_crew_file(path: Path, display: str, keep_personal_data: bool,
                   content: bytes | None = None
                   ) -> tuple[list[dict[str, Any]], list[int], dict[str, str]]:
    """Crew rows as input dicts (``CrewInput`` fields), their spreadsheet row numbers, and
    each field's column as the header writes it (``nationality`` → ``Nacionalidade``: errors
    name the column the user wrote).

    Raises :class:`InputError` (file, row, column) for an empty file, a missing header, an
    unknown column or a bad boolean.
    """
    rows = read_rows(path, display, content)
    rows = [(n, r) for n, r in rows if any(_cell(c) for c in r)]
    if not rows:
        raise InputError("arquivo de tripulação vazio", file=display,
                         message_en="empty crew file")
    h = find_header(rows, display)
    header_row, header = rows[h]
    fields: list[tuple[str, str] | None] = []
    written: dict[str, str] = {}
    header_errors: list[InputError] = []  # every bad column of the header at once
    for c in header:
        name = _cell(c)
        if not name:
            fields.append(None)
            continue
        spec = COLUMNS.get(header_key(name))
        if spec is None:
            header_errors.append(InputError(
                f"coluna desconhecida '{name}' (colunas aceitas: id, rank/função, "
                "nationality/nacionalidade, department/seção, level/nível, position, sid_c185, "
                "entry_date, entry_by, document_type, document_valid_until…)",
                name, display, header_row, message_en=f"unknown column '{name}'"))
            fields.append(None)
            continue
        if spec[1] != "personal" and spec in fields:
            first = fields.index(spec)
            header_errors.append(repeated_column(name, len(fields), _cell(header[first]),
                                                 first, display, header_row))
            fields.append(None)
            continue
        fields.append(spec)
        written.setdefault(spec[0], name)
    if header_errors:
        raise InputError.listing(header_errors)
    # A blank header cell between named ones is left alone (a form's merged header cell
    # leaves its neighbour blank): a value right of the last named column is refused.
    last_named = max((i for i, f in enumerate(fields) if f is not None), default=-1)
    headed = [True] * (last_named + 1)
    out: list[dict[str, Any]] = []
    numbers: list[int] = []
    for n, cells in rows[h + 1:]:
        rec: dict[str, Any] = {}
        flat: dict[str, str] = {}
        stray = value_without_header(cells, headed, display, n)
        if stray is not None:
            raise stray
        for spec, raw in zip(fields, cells, strict=False):
            if spec is None:
                continue
            fld, kind = spec
            val = _cell(raw)
            if kind == "personal":
                if keep_personal_data and fld != "_drop" and val:
                    rec[fld] = f"{rec[fld]} {val}" if fld in rec else val
                continue
            if kind == "bool":
                low = val.casefold()
                if low not in TRUE | FALSE:
                    raise InputError(f"valor lógico inválido '{val}' (use sim/não)",
                                     written.get(fld, fld), display, n,
                                     message_en=f"invalid boolean '{val}'")
                rec[fld] = low in TRUE
                continue
            if val:
                flat[fld] = val
        if not any(k in flat for k in ("rank", "nationality", "department", "level",
                                       "position")):
            note = flat.get("id", "")
            if not note or " " in note or len(note) > 20:
                continue  # a form's footer or a note line (FAL Form 5 "date and signature…")
            # An id alone is a person whose data is missing, never a line to drop.
        for dependent, needs in (("entry_by", "entry_date"), ("exit_date", "entry_date"),
                                 ("document_valid_until", "document_type"),
                                 ("document_issued_on", "document_type"),
                                 ("document_protocol_date", "document_type")):
            if dependent in flat and needs not in flat:
                # (the base column is absent from the header: named as the docs name it)
                shown = written.get(dependent, dependent)
                raise InputError(f"'{shown}' informado sem a coluna '{needs}'", needs, display,
                                 n, message_en=f"'{shown}' given without the column '{needs}'")
        if "id" not in flat:
            flat["id"] = f"L{n}"
        for key in ("id", "rank", "nationality", "department", "level", "position"):
            if key in flat:
                rec[key] = flat[key]
        if "entry_date" in flat:
            entry: dict[str, Any] = {"date": flat["entry_date"]}
            if "entry_by" in flat:
                entry["by"] = flat["entry_by"]
            if "exit_date" in flat:
                entry["exit"] = flat["exit_date"]
            if "mandatory_crew_change" in rec:
                entry["mandatory_crew_change"] = rec.pop("mandatory_crew_change")
            rec["entries"] = [entry]
        else:
            rec.pop("mandatory_crew_change", None)
        if "document_type" in flat:
            doc: dict[str, Any] = {"type": flat["document_type"]}
            for src, dst in (("document_valid_until", "valid_until"),
                             ("document_issued_on", "issued_on"),
                             ("document_protocol_date", "protocol_date")):
                if src in flat:
                    doc[dst] = flat[src]
            rec["documents"] = [doc]
        out.append(rec)
        numbers.append(n)
    if not out:
        raise InputError("a lista de tripulação não tem nenhuma pessoa", file=display,
                         message_en="the crew list has no person")
    return out, numbers, written


# Crew-file columns → input field paths (so errors name the column the user wrote).
FIELD_TO_COLUMN: dict[tuple[Any, ...], str] = {
    ("entries", 0, "date"): "entry_date", ("entries", 0, "by"): "entry_by",
    ("entries", 0, "exit"): "exit_date",
    ("entries", 0): "exit_date",  # Entry's own check: exit before entry
    ("documents", 0, "type"): "document_type",
    ("documents", 0, "valid_until"): "document_valid_until",
    ("documents", 0, "issued_on"): "document_issued_on",
    ("documents", 0, "protocol_date"): "document_protocol_date",
}

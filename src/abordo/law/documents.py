"""Reading YAML / JSON input documents: data plus the line of every field, for errors that
name file, line and field. Dates stay text (the models parse them, so that a date that does
not exist — 2026-02-30 — is reported with its field instead of failing in the parser);
repeated keys are refused (one would silently replace the other)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import yaml

from abordo.law.errors import InputError, bilingual
from abordo.law.files import read_input
from abordo.law.parsing import json_message, yaml_problem
from abordo.law.validation import loc_to_path
from abordo.law.yamlload import core_resolvers, no_duplicate_keys

LineIndex = dict[tuple[Any, ...], int]


# Files often given by mistake where a text file goes, by their first bytes.
_BINARY_KINDS: tuple[tuple[bytes, str, str], ...] = (
    (b"PK\x03\x04", "um arquivo compactado (uma planilha XLSX/ODS com outra extensão? "
     "salve como CSV ou dê a planilha com sua extensão)", "a zip archive (an XLSX/ODS "
     "workbook under another name? save it as CSV or give it with its own extension)"),
    (b"\xd0\xcf\x11\xe0", "uma planilha ou documento do Office antigo (.xls/.doc): salve "
     "como XLSX ou CSV", "an old Office file (.xls/.doc): save it as XLSX or CSV"),
    (b"%PDF", "um PDF", "a PDF"),
    (b"\x89PNG", "uma imagem PNG", "a PNG image"),
    (b"\xff\xd8\xff", "uma imagem JPEG", "a JPEG image"),
    (b"\x7fELF", "um programa", "a program"),
)


# The workbooks, where the input read takes no spreadsheet at all (the tables of ``abordo
# screen``): to be saved as CSV or Parquet — not given "with their own extension", which
# only a crew list (``crew_file``) can be.
_NO_SHEETS: dict[bytes, tuple[str, str]] = {
    b"PK\x03\x04": ("um arquivo compactado (uma planilha XLSX/ODS com outra extensão? "
                     "planilhas não são lidas aqui: salve a planilha como CSV (UTF-8) ou "
                     "Parquet)", "a zip archive (an XLSX/ODS workbook under another name? "
                     "workbooks are not read here: save it as CSV (UTF-8) or Parquet)"),
    b"\xd0\xcf\x11\xe0": ("uma planilha ou documento do Office antigo (.xls/.doc) — "
                           "planilhas não são lidas aqui: salve a planilha como CSV (UTF-8) "
                           "ou Parquet", "an old Office file (.xls/.doc) — workbooks are not "
                           "read here: save it as CSV (UTF-8) or Parquet"),
}


def binary_kind(raw: bytes, sheets: bool = True) -> tuple[str, str] | None:
    """What a file starting with ``raw`` is, when it is one of the files often given by
    mistake (a workbook, a PDF, an image…): its words (pt, en), else None. ``sheets``:
    whether the command reads spreadsheets somewhere (a crew list); when not, a workbook
    is told to be saved as CSV or Parquet."""
    for magic, pt, en in _BINARY_KINDS:
        if raw.startswith(magic):
            return (pt, en) if sheets else _NO_SHEETS.get(magic, (pt, en))
    return None


def decode(raw: bytes, name: str, *, csv: bool = False, sheets: bool = True) -> str:
    """UTF-8 (with or without BOM), else Windows-1252, else Latin-1 — as Excel and Windows
    editors write them. The one decoding of every text input (YAML, JSON, CSV, case files).
    A text mixing UTF-8 lines and Windows-1252 lines is refused (:func:`mixed_encoding`).

    Raises :class:`InputError` (file ``name``) for UTF-16/32 (BOM) or binary content (NUL
    bytes in number, e.g. an XLSX under another name), which would otherwise decode into
    garbage.
    ``csv``: the file is a CSV, which Excel can save again in an encoding read here (a YAML
    or JSON file is told to be saved as UTF-8 only: CSV is no form of it). ``sheets``: see
    :func:`binary_kind` (False for the screen's tables, which no workbook can replace).
    """
    kind = binary_kind(raw, sheets)
    if kind is not None:
        raise InputError(f"o arquivo não é texto: é {kind[0]}", file=name,
                         message_en=f"not a text file: it is {kind[1]}")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        how_pt, how_en = (" (no Excel: «CSV UTF-8» ou «CSV»)",
                          " (in Excel: “CSV UTF-8” or “CSV”)") if csv else ("", "")
        raise InputError(
            f"codificação não suportada (UTF-16); salve como UTF-8{how_pt}", file=name,
            message_en=f"unsupported encoding (UTF-16); save as UTF-8{how_en}")
    sample = raw[:4096]
    # UTF-16 text without its mark, or a binary file, is full of NUL bytes; a stray NUL in a
    # text file is a character the readers refuse where it stands (file, line, column).
    nuls = sample.count(0)
    if nuls > 1 and nuls * 50 > len(sample):
        raise InputError("o arquivo não é texto (binário, ou texto UTF-16 sem marca)",
                         file=name, message_en="not a text file (binary, or UTF-16 text "
                         "without a mark)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    mixed = mixed_encoding(raw, name, csv=csv)
    if mixed is not None:
        raise mixed
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # every byte is a Latin-1 character


def mixed_encoding(raw: bytes, name: str, *, csv: bool = False) -> InputError | None:
    """The error of a text that is not UTF-8 throughout but has lines in UTF-8 beside lines
    in Windows-1252 (a sheet pasted together from two exports: "João" in one, byte 0xE3
    for "ã" in another): read in either encoding, the other lines' names would be garbled
    in silence. Names the first line whose encoding differs from the first line with an
    accent; None when the lines agree."""
    if raw.decode("utf-8", "ignore").isascii():
        # No character as UTF-8 writes one (two to four bytes): read as Windows-1252 at
        # once, without looking at each line (a fleet table may have millions).
        return None
    first: tuple[int, bool] | None = None  # (line, is UTF-8) of the first line with accents
    for number, line in enumerate(raw.splitlines(), 1):
        if line.isascii():
            continue
        try:
            line.decode("utf-8")
            utf8 = True
        except UnicodeDecodeError:
            utf8 = False
        if first is None:
            first = (number, utf8)
        elif utf8 != first[1]:
            words = {True: ("UTF-8", "UTF-8"),
                     False: ("Windows-1252 (ANSI/Latin-1)", "Windows-1252 (ANSI/Latin-1)")}
            how_pt, how_en = (" (no Excel: «CSV UTF-8»)", " (in Excel: “CSV UTF-8”)") \
                if csv else ("", "")
            return InputError(
                f"codificação misturada: esta linha está em {words[utf8][0]}, mas a linha "
                f"{first[0]} está em {words[first[1]][0]} — os acentos de uma delas seriam "
                f"lidos errado; salve o arquivo inteiro numa só codificação, UTF-8{how_pt}",
                file=name, row=number,
                message_en=f"mixed encodings: this line is in {words[utf8][1]}, but line "
                f"{first[0]} is in {words[first[1]][1]} — the accents of one of them would "
                f"be misread; save the whole file in one encoding, UTF-8{how_en}")
    return None


class InputLoader(yaml.SafeLoader):
    """Safe YAML loader that leaves dates as text, so that a bad date (2026-13-01) is
    reported by the model with its field path instead of failing inside the parser; YAML
    1.2 booleans (an unquoted ``NO`` is Norway) and unique keys (:mod:`abordo.law.yamlload`)."""


InputLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, no_duplicate_keys)
InputLoader.yaml_implicit_resolvers = core_resolvers(timestamps=False)


def _index_node(node: yaml.Node, path: tuple[Any, ...], out: LineIndex,
                seen: set[int] | None = None) -> None:
    """Path → line of every node; an aliased node is indexed once (no alias blow-up)."""
    seen = set() if seen is None else seen
    out.setdefault(path, node.start_mark.line + 1)  # a key's own line wins over its value's
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            out[(*path, k.value)] = k.start_mark.line + 1
            _index_node(v, (*path, k.value), out, seen)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _index_node(v, (*path, i), out, seen)


def line_of(index: LineIndex, loc: tuple[Any, ...]) -> int | None:
    """The YAML line of the deepest known prefix of ``loc``."""
    for n in range(len(loc), -1, -1):
        if loc[:n] in index:
            return index[loc[:n]]
    return None


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"chave repetida '{key}' ‖ repeated key '{key}'")
        out[key] = value
    return out


def read_document(path: Path, display: str | None = None) -> tuple[Any, LineIndex]:
    """Parse a YAML or JSON file; returns the data and a path → line index. ``display``:
    the file's name in errors (default: the path)."""
    display = display or str(path)
    raw = read_input(path, display)
    return parse_document(decode(raw, display), path.suffix.lower() == ".json", display)


class _JsonLines(dict[tuple[Any, ...], int]):
    """The line index of a JSON document, built on first use only: a JSON text is YAML, so
    the YAML node tree gives each field's line — a second parse, made when something asks
    for a line (a vessel case keeps its persons' lines at once, for the errors the engines
    find later: a JSON case then costs the YAML parse a YAML case costs; a fine or a
    worked case asks only on an error). Tabs are read as spaces (see ``_fill``). Empty when
    that parse fails (a JSON text this YAML reader does not take): the error then names the
    field without a line."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text: str | None = text

    def _fill(self) -> None:
        if self._text is None:
            return
        # A tab is whitespace to JSON but may not indent YAML; a valid JSON text has none in
        # its strings (they must be escaped there), so spaces change no value and no line.
        text, self._text = self._text.replace("\t", " "), None
        loader = InputLoader(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                _index_node(node, (), self)
        except (yaml.YAMLError, RecursionError):
            self.clear()
        finally:
            loader.dispose()

    def __contains__(self, key: object) -> bool:
        self._fill()
        return super().__contains__(key)

    def __getitem__(self, key: tuple[Any, ...]) -> int:
        self._fill()
        return super().__getitem__(key)

    def __len__(self) -> int:
        self._fill()
        return super().__len__()

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        self._fill()
        return super().get(key, default)

    def items(self) -> Any:
        self._fill()
        return super().items()

    def keys(self) -> Any:
        self._fill()
        return super().keys()

    def __iter__(self) -> Any:
        self._fill()
        return super().__iter__()


def parse_document(text: str, is_json: bool, display: str) -> tuple[Any, LineIndex]:
    """:func:`read_document` on a text already read (``is_json``: JSON, else YAML)."""
    if not text.strip():
        raise InputError("arquivo vazio", file=display, message_en="empty file")
    index: LineIndex = {}
    try:
        if is_json:
            data = json.loads(text, object_pairs_hook=_unique_pairs)
            index = _JsonLines(text)
        else:
            # One parse: the node tree gives both the data and each field's line.
            loader = InputLoader(text)
            try:
                node = loader.get_single_node()
                data = loader.construct_document(node) if node is not None else None
            finally:
                loader.dispose()
            if node is not None:
                _index_node(node, (), index)
    except RecursionError:
        raise InputError("estrutura aninhada demais", file=display,
                         message_en="structure nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"JSON inválido: {json_message(exc.msg)} (coluna {exc.colno})",
                         file=display, row=exc.lineno,
                         message_en=f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except yaml.YAMLError as exc:
        pt, en, line = yaml_problem(exc, text)
        raise InputError(f"YAML inválido: {pt}", file=display, row=line,
                         message_en=f"invalid YAML: {en}") from None
    except ValueError as exc:  # a repeated key in JSON
        pt, en = bilingual(str(exc))
        raise InputError(f"JSON inválido: {pt}", file=display,
                         message_en=f"invalid JSON: {en}") from None
    if not isinstance(data, dict):
        raise InputError("o arquivo deve conter um objeto (chave: valor)", file=display,
                         message_en="the file must hold a mapping")
    return data, index


def locate(exc: InputError, file: str, index: LineIndex) -> InputError:
    """``exc`` (and its details) placed in ``file`` at the line of its field path
    (``offender.prior_penalties[0].imposed_on``), or of the nearest enclosing field; the
    problems then listed in the order of the file."""
    lines = {loc_to_path(k): v for k, v in index.items() if k}

    def row(field: str | None) -> int | None:
        path = field or ""
        while path:
            if path in lines:
                return lines[path]
            path = re.sub(r"(\[\d+\]|\.[^.\[]+|^[^.\[]+)$", "", path)
        return None

    return InputError.listing([dataclasses.replace(e.alone(), file=e.file or file,
                                                   row=e.row or row(e.field))
                               for e in [exc, *exc.details]], in_file_order=True)

"""Loading a vessel case from YAML/JSON, with the crew inline or in a CSV/XLSX file.

Errors name the file, the row (YAML line or spreadsheet row) and the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from abordo.crew.crewfile import FIELD_TO_COLUMN, read_crew_file
from abordo.crew.model import CrewInput, VesselCase
from abordo.law.errors import InputError
from abordo.law.validation import input_error_from_pydantic, loc_to_path

LineIndex = dict[tuple[Any, ...], int]


class InputLoader(yaml.SafeLoader):
    """Safe YAML loader that leaves dates as text, so that a bad date (2026-13-01) is
    reported by the model with its field path instead of failing inside the parser."""


def _no_duplicate_keys(loader: InputLoader, node: yaml.MappingNode, deep: bool = False
                       ) -> dict[Any, Any]:
    """A mapping whose keys are unique: a repeated key would silently replace the first."""
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"chave repetida '{key}' (também na linha {seen[key]})",
                key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


InputLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicate_keys)
InputLoader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


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
            raise ValueError(f"chave repetida '{key}'")
        out[key] = value
    return out


def read_document(path: Path) -> tuple[Any, LineIndex]:
    """Parse a YAML or JSON file; returns the data and a path → line index."""
    display = str(path)
    if not path.exists():
        raise InputError(f"arquivo não encontrado: {display}", file=display,
                         message_en=f"file not found: {display}")
    if path.is_dir():
        raise InputError(f"é uma pasta, não um arquivo: {display}", file=display,
                         message_en=f"a folder, not a file: {display}")
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    if not text.strip():
        raise InputError("arquivo vazio", file=display, message_en="empty file")
    index: LineIndex = {}
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(text, object_pairs_hook=_unique_pairs)
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
        raise InputError(f"JSON inválido: {exc.msg}", file=display, row=exc.lineno,
                         message_en=f"invalid JSON: {exc.msg}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(f"YAML inválido: {getattr(exc, 'problem', exc)}", file=display,
                         row=mark.line + 1 if mark else None,
                         message_en=f"invalid YAML: {exc}") from None
    except ValueError as exc:  # a repeated key in JSON
        raise InputError(f"JSON inválido: {exc}", file=display,
                         message_en=f"invalid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InputError("o arquivo deve conter um objeto (chave: valor)", file=display,
                         message_en="the file must hold a mapping")
    return data, index


def parse_vessel_case(data: dict[str, Any], base_dir: Path | None = None,
                      source: str | None = None, index: LineIndex | None = None,
                      keep_personal_data: bool | None = None) -> VesselCase:
    """Validate ``data`` as a vessel case; read ``crew_file`` relative to ``base_dir``.

    Raises :class:`InputError` naming file, row and field on any problem.
    """
    data = dict(data)
    keep = data.get("keep_personal_data", False) is True if keep_personal_data is None \
        else keep_personal_data
    origins: list[tuple[str | None, int | None, str]] = []
    crew_file = data.get("crew_file")
    if crew_file is not None and data.get("crew") is None:
        base = base_dir or Path.cwd()
        path = Path(str(crew_file))
        full = path if path.is_absolute() else base / path
        display = str(full)
        rows, numbers = read_crew_file(full, display, keep)
        persons: list[CrewInput] = []
        problems: list[InputError] = []  # every bad row at once, not one per run
        for rec, n in zip(rows, numbers, strict=True):
            try:
                persons.append(CrewInput.model_validate(rec))
            except ValidationError as exc:
                for err in exc.errors():
                    loc = tuple(err["loc"])
                    column = FIELD_TO_COLUMN.get(loc, str(loc[0]) if loc else "")
                    one = input_error_from_pydantic(
                        ValidationError.from_exception_data(exc.title, [err]),  # type: ignore[list-item]
                        file=display, row=n)
                    problems.append(InputError(one.message, str(column), display, n,
                                               one.message_en))
            origins.append((display, n, ""))
        if problems:
            first = problems[0]
            raise InputError(first.message, first.field, first.file, first.row,
                             first.message_en, problems[1:50])
        data["crew"] = [p.model_dump() for p in persons]
        data.pop("crew_file")
    elif not keep and isinstance(data.get("crew"), list):
        data["crew"] = [
            {k: v for k, v in p.items() if k not in ("name", "document_number")}
            if isinstance(p, dict) else p for p in data["crew"]
        ]
    if data.get("crew_file") is None:
        data.pop("crew_file", None)
    try:
        case = VesselCase.model_validate(data)
    except ValidationError as exc:
        raise input_error_from_pydantic(
            exc, file=source, row_of=(lambda loc: line_of(index, loc)) if index else None
        ) from None
    lines = {loc_to_path(k): v for k, v in (index or {}).items() if k}
    located = {"source": source, "source_lines": lines}
    if not origins:  # inline crew: each person's YAML line, for errors found later
        origins = [(source, line_of(index, ("crew", i)) if index else None, f"crew[{i}]")
                   for i in range(len(case.crew_list))]
        return case.model_copy(update={"crew_origin": tuple(origins), **located})
    return case.model_copy(update={"crew_origin": tuple(origins), "crew_file": crew_file,
                                   **located})


def load_vessel_case(path: Path, keep_personal_data: bool | None = None) -> VesselCase:
    """Read a vessel case file (YAML or JSON) and its crew file, if any."""
    data, index = read_document(path)
    return parse_vessel_case(data, path.parent, str(path), index, keep_personal_data)


__all__ = ["load_vessel_case", "loc_to_path", "parse_vessel_case", "read_document"]

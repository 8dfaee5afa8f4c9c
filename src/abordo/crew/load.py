"""Loading a vessel case from YAML/JSON, with the crew inline or in a CSV/XLSX file.

Errors name the file, the row (YAML line or spreadsheet row) and the field.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from abordo.crew.crewfile import FIELD_TO_COLUMN, read_crew_file
from abordo.crew.model import CrewInput, VesselCase
from abordo.law.documents import LineIndex, line_of, read_document
from abordo.law.errors import DUPLICATE_ID, InputError
from abordo.law.validation import (
    Bilingual,
    YesNo,
    input_error_from_pydantic,
    loc_to_path,
    path_parts,
)


def read_crew_list(path: Path, display: str, keep_personal_data: bool = False,
                   content: bytes | None = None) -> tuple[list[dict[str, Any]], list[int]]:
    """The persons of a crew-list file as ``crew`` entries (validated; every bad row listed
    at once, with ``display`` as the file name in errors), and their row numbers.
    ``content``: the file's bytes when they are not on disk (an upload; ``path`` then
    gives only the format by its suffix)."""
    rows, numbers, written = read_crew_file(path, display, keep_personal_data, content)
    persons: list[dict[str, Any]] = []
    problems: list[InputError] = []  # every bad row at once, not one per run
    first_row: dict[str, int] = {}
    for rec, n in zip(rows, numbers, strict=True):
        pid = str(rec.get("id") or "").strip()
        if pid and pid in first_row:  # listed with the other bad rows, at its own row
            problems.append(InputError(f"id repetido: {pid} (também na linha {first_row[pid]})",
                                       written.get("id", "id"), display, n,
                                       f"duplicate id: {pid} (also on row {first_row[pid]})",
                                       plain=DUPLICATE_ID))
        first_row.setdefault(pid, n)
        try:
            persons.append(CrewInput.model_validate(rec).model_dump())
        except ValidationError as exc:
            for err in exc.errors():
                loc = tuple(err["loc"])
                cause = (err.get("ctx") or {}).get("error")
                if isinstance(cause, Bilingual) and cause.field:
                    # a check of the whole row naming its field (a hidden character)
                    loc = (*loc, *path_parts(cause.field))
                column = FIELD_TO_COLUMN.get(loc, str(loc[0]) if loc else "")
                column = written.get(column, column)  # as the header writes it
                one = input_error_from_pydantic(
                    ValidationError.from_exception_data(exc.title, [err]),  # type: ignore[list-item]
                    file=display, row=n)
                problems.append(dataclasses.replace(one, field=str(column), file=display,
                                                    row=n))
    if problems:
        raise InputError.listing(problems, in_file_order=True)
    return persons, numbers


def _repeated_ids(crew: Any, source: str | None, index: LineIndex | None
                  ) -> list[InputError]:
    """A repeated ``id`` among the inline crew (``crew[i].id``), each at its own line — found
    with the other problems of the file rather than after they are fixed."""
    out: list[InputError] = []
    first: dict[str, int] = {}
    for i, person in enumerate(crew if isinstance(crew, list) else []):
        pid = str(person.get("id") or "").strip() if isinstance(person, dict) else ""
        if not pid:
            continue
        if pid in first:
            line = line_of(index, ("crew", i, "id")) if index else None
            other = first[pid]
            out.append(InputError(f"id repetido: {pid} (também em crew[{other}])",
                                  f"crew[{i}].id", source, line,
                                  f"duplicate id: {pid} (also in crew[{other}])",
                                  plain=DUPLICATE_ID))
        first.setdefault(pid, i)
    return out


def parse_inline_vessel_case(data: dict[str, Any], prefix: str | None = None) -> VesselCase:
    """A vessel case whose crew comes inline (a service reads no file of its host):
    ``crew_file`` is refused — listed with every other problem of the case, each field
    under ``prefix`` (``vessel_case.crew_file``). Raises :class:`InputError`."""
    if data.get("crew_file") is None:
        try:
            return parse_vessel_case(data, None, None)
        except InputError as exc:
            raise exc.with_location(prefix=prefix) if prefix else exc from None
    refused = InputError("crew_file não é aceito aqui: envie a lista em crew", "crew_file",
                         message_en="crew_file is not accepted here: send crew inline")
    rest = {k: v for k, v in data.items() if k != "crew_file"}
    rest.setdefault("crew", [])
    try:
        parse_vessel_case(rest, None, None)
        problems = [refused]
    except InputError as exc:
        problems = [refused, exc, *exc.details]
    first = InputError.listing([e.alone() for e in problems])
    raise first.with_location(prefix=prefix) if prefix else first


def _flag(value: Any) -> bool:
    """A yes/no field read before the model (``true``, ``yes``, ``on`` …), as the model reads
    it; anything else is False here and refused by the model with its field."""
    try:
        return bool(TypeAdapter(YesNo).validate_python(value)) if value is not None else False
    except ValidationError:
        return False


def parse_vessel_case(data: dict[str, Any], base_dir: Path | None = None,
                      source: str | None = None, index: LineIndex | None = None,
                      keep_personal_data: bool | None = None) -> VesselCase:
    """Validate ``data`` as a vessel case; read ``crew_file`` relative to ``base_dir``.

    Raises :class:`InputError` naming file, row and field on any problem.
    """
    data = dict(data)
    keep = _flag(data.get("keep_personal_data")) if keep_personal_data is None \
        else keep_personal_data
    if keep_personal_data is not None:
        # The caller's choice (--keep-personal-data) is the case's, as the file's key would
        # be: the engines read the case's field (a document's number is shown only then).
        data["keep_personal_data"] = keep_personal_data
    origins: list[tuple[str | None, int | None, str]] = []
    # Every problem at once: the case file's own, the crew file's rows, repeated ids.
    problems: list[InputError] = []
    crew_file = data.get("crew_file")
    if crew_file is not None and data.get("crew") is None:
        base = base_dir or Path.cwd()
        path = Path(str(crew_file))
        full = path if path.is_absolute() else base / path
        display = str(full)
        try:
            persons, numbers = read_crew_list(full, display, keep)
        except InputError as exc:
            if exc.field == "crew_file" and exc.file is None and source:
                # The file itself is missing or unreadable: point at the case's crew_file line.
                raise exc.with_location(file=source, row=line_of(index or {}, ("crew_file",))
                                        ) from None
            if exc.file != display:
                raise
            problems += [exc, *exc.details]  # the case file is still checked below
            persons, numbers = [], []
        origins = [(display, n, "") for n in numbers]
        data["crew"] = persons
        data.pop("crew_file")
    elif not keep and isinstance(data.get("crew"), list):
        data["crew"] = [
            {k: v for k, v in p.items() if k not in ("name", "document_number")}
            if isinstance(p, dict) else p for p in data["crew"]
        ]
    if data.get("crew_file") is None:
        data.pop("crew_file", None)
    inline = not origins
    try:
        case = VesselCase.model_validate(data)
    except ValidationError as exc:
        found = input_error_from_pydantic(
            exc, file=source, row_of=(lambda loc: line_of(index, loc)) if index else None)
        problems = [found, *found.details, *problems]
    if inline:
        problems += _repeated_ids(data.get("crew"), source, index)
    if problems:
        raise InputError.listing(problems) from None
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

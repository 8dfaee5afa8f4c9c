"""Writing a command's result to a file (``-o``/``--output``) without losing anything.

:func:`check_output` — before any work — refuses an output in a missing folder, a folder, or
a file the command reads: the input itself or a file it names (:func:`input_files`:
``crew_file``, ``cir_file``…), by any name (a symbolic or hard link to it too).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from abordo.law.documents import read_document
from abordo.law.errors import InputError

FIELD = "--output"
# Tables and workbooks read as such: never a document naming other files.
_TABLES = {".csv", ".tsv", ".parquet", ".xlsx", ".xlsm", ".xls", ".ods"}


class Read(NamedTuple):
    """A file a command reads, and how the error names it (pt, en)."""

    path: Path
    what: str
    what_en: str


def input_files(path: Path) -> Iterator[Read]:
    """``path`` and the files its YAML/JSON document names by a top-level ``*_file`` key
    (``crew_file``, ``cir_file``, ``declarations_file``…), relative to its folder, as the
    readers take them. A document that cannot be read names nothing here (its reader says
    why); only a regular file is read (a pipe given as input is read once, by the command)."""
    yield Read(path, f"o arquivo de entrada {path}", f"the input file {path}")
    try:
        if path.suffix.lower() in _TABLES or not path.is_file():
            return
        data, _ = read_document(path)
    except (InputError, OSError):
        return
    for key, value in data.items():
        if isinstance(key, str) and key.endswith("_file") and isinstance(value, str) \
                and value.strip():
            ref = Path(value)
            ref = ref if ref.is_absolute() else path.parent / ref
            yield Read(ref, f"o arquivo {ref}, lido por {key} em {path}",
                       f"the file {ref}, read through {key} in {path}")


def _error(pt: str, en: str) -> InputError:
    return InputError(pt, FIELD, message_en=en)


def check_output(out: Path | None, inputs: Iterable[Read] = ()) -> None:
    """Raise :class:`InputError` (``--output``) unless ``out`` can be written without losing
    anything: its folder exists, it is no folder and none of ``inputs`` (the same file by
    device and inode). Called before any work, so a long run never ends in a refused write;
    ``out`` None (the result is printed): nothing to check."""
    if out is None:
        return
    if not out.parent.is_dir():
        raise _error(f"pasta de saída não existe: {out.parent}",
                     f"output folder does not exist: {out.parent}")
    if out.is_dir():
        raise _error(f"a saída é uma pasta, informe um arquivo: {out}",
                     f"the output is a folder, give a file: {out}")
    try:
        st = out.stat()
    except OSError:  # a new file (or a link to one): nothing there to lose
        return
    for read in inputs:
        try:
            same = os.path.samestat(st, read.path.stat())
        except OSError:
            continue
        if same:
            raise _error(f"a saída {out} é {read.what}: escolha outro arquivo (gravar nela "
                         "substituiria a entrada)", f"the output {out} is {read.what_en}: "
                         "choose another file (writing it would replace the input)")


__all__ = ["Read", "check_output", "input_files"]

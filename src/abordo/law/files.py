"""Opening an input file: the one place where a file that cannot be read — missing, a
folder, no permission to read it, a broken or looping link — or a folder that cannot be
listed becomes an
:class:`~abordo.law.errors.InputError` naming it, in Portuguese and English, never an
``OSError`` and its English text.

Every reader goes through here: YAML/JSON documents (vessel, fine and sea-time inputs),
worked-case files, crew lists and sea-time sheets (CSV/XLSX), fleet tables (CSV/Parquet),
the folders of a fleet and of worked cases.
A pipe (``abordo check <(…)``) is read as a file is.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from abordo.law.errors import InputError


def unreadable(path: Path, exc: OSError, folder: bool = False) -> tuple[str, str]:
    """``(portuguese, english)`` of why ``path`` (named as given) could not be read —
    a folder's listing when ``folder``."""
    name = str(path)
    if folder:
        if isinstance(exc, FileNotFoundError):
            return f"pasta não encontrada: {name}", f"folder not found: {name}"
        if isinstance(exc, NotADirectoryError):
            return f"não é uma pasta: {name}", f"not a folder: {name}"
        if isinstance(exc, PermissionError):
            return (f"sem permissão para abrir a pasta: {name}",
                    f"no permission to open the folder: {name}")
    if isinstance(exc, FileNotFoundError):
        if path.is_symlink():
            target = os.readlink(path)
            return (f"arquivo não encontrado: {name} é um link para {target}, que não existe",
                    f"file not found: {name} is a link to {target}, which does not exist")
        return f"arquivo não encontrado: {name}", f"file not found: {name}"
    if isinstance(exc, IsADirectoryError):
        return f"é uma pasta, não um arquivo: {name}", f"a folder, not a file: {name}"
    if isinstance(exc, PermissionError):
        return (f"sem permissão para ler o arquivo: {name}",
                f"no permission to read the file: {name}")
    if exc.errno == errno.ELOOP:
        return (f"links simbólicos em ciclo: {name} não leva a nenhum arquivo",
                f"symbolic links in a loop: {name} leads to no file")
    if exc.errno == errno.ENOTDIR:
        return (f"caminho inválido: uma parte de {name} é um arquivo, não uma pasta",
                f"invalid path: part of {name} is a file, not a folder")
    if exc.errno == errno.ENAMETOOLONG:
        return f"nome de arquivo longo demais: {name}", f"file name too long: {name}"
    why = exc.strerror or type(exc).__name__
    return (f"não foi possível ler o arquivo {name} (erro do sistema: {why})",
            f"cannot read the file {name} ({why})")


def _error(path: Path, exc: OSError, display: str | None, field: str | None) -> InputError:
    pt, en = unreadable(path, exc)
    return InputError(pt, field, None if field else (display or str(path)), message_en=en)


@contextmanager
def open_input(path: Path, display: str | None = None, field: str | None = None
               ) -> Iterator[BinaryIO]:
    """``path`` opened for reading (binary). Raises :class:`InputError` when it cannot be:
    naming the file ``display`` (default: the path) — or, with ``field``, that field (the
    field of another input naming this file, ``crew_file``: its file and line are the
    caller's to give)."""
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise _error(path, exc, display, field) from None
    with fh:
        yield fh


def read_input(path: Path, display: str | None = None, field: str | None = None) -> bytes:
    """The bytes of ``path``; errors as :func:`open_input` says."""
    with open_input(path, display, field) as fh:
        try:
            return fh.read()
        except OSError as exc:  # a folder opened on some systems, a read error
            raise _error(path, exc, display, field) from None


def folder_error(exc: OSError, path: Path | None = None) -> InputError:
    """The error of a folder that cannot be listed (``path``: the folder, else the
    exception's own file name)."""
    folder = path if path is not None else Path(str(exc.filename))
    pt, en = unreadable(folder, exc, folder=True)
    return InputError(pt, file=str(folder), message_en=en)


def list_folder(folder: Path) -> list[Path]:
    """The entries of ``folder``, by name. Raises :class:`InputError` naming it when it
    cannot be listed (no permission…): never read as an empty folder."""
    try:
        return sorted(folder.iterdir())
    except OSError as exc:
        raise folder_error(exc, folder) from None


__all__ = ["folder_error", "list_folder", "open_input", "read_input", "unreadable"]

"""Writing a command's result to a file (``-o``/``--output``) without losing anything.

:func:`check_output` — before any work — refuses an output in a missing folder, a folder, a
read-only file (no write bit: the root user too is refused one), or a file the command reads:
the input itself or a file it names (:func:`input_files`: ``crew_file``, ``cir_file``…), by
any name (a symbolic or hard link to it too). :func:`write_output` then writes:

- a regular file (new or existing) atomically: a temporary file in its folder, renamed over
  it — a failed write leaves the old file as it was and no partial one; an existing file keeps
  its permissions, a new one gets the usual ones (umask);
- through a symbolic link: the file it points to is replaced, the link kept;
- a FIFO or a device (a pipe, a terminal) in place, as a shell redirection does: no rename is
  possible there; the result is made whole first, so a failure writes nothing to it.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
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


def _writable(path: Path, st: os.stat_result) -> bool:
    """A write bit set and, for users other than root, the right to write."""
    return bool(st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) and (
        os.access(path, os.W_OK))


def check_output(out: Path | None, inputs: Iterable[Read] = ()) -> None:
    """Raise :class:`InputError` (``--output``) unless ``out`` can be written without losing
    anything: its folder exists, it is no folder, none of ``inputs`` (the same file by device
    and inode) and no read-only file. Called before any work, so a long run never ends in a
    refused write; ``out`` None (the result is printed): nothing to check."""
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
    if not _writable(out, st):
        raise _error(f"a saída {out} é somente leitura: escolha outro arquivo ou libere a "
                     "escrita (chmod u+w)", f"the output {out} is read-only: choose another "
                     "file or allow writing (chmod u+w)")


def _cannot_write(out: Path, exc: OSError) -> InputError:
    why = exc.strerror or str(exc)
    return _error(f"não foi possível gravar {out}: {why}", f"cannot write {out}: {why}")


def write_output(out: Path, write: Callable[[Path], object]) -> None:
    """Write ``out`` with ``write`` (given a path to write the whole result to), as the
    module docstring says: atomically for a regular file (the file a link points to), in
    place for a FIFO or device. Runs :func:`check_output` (without inputs: the command
    checked those before its work). Raises :class:`InputError` (``--output``) when the file
    cannot be written; nothing partial is left behind."""
    check_output(out)
    try:
        st: os.stat_result | None = out.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:  # a loop of links, a folder not searchable
        raise _cannot_write(out, exc) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_in_place(out, write)
        return
    target = Path(os.path.realpath(out))  # a link is kept: the file it points to replaced
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        # Created here (0666 less the umask: a new file's usual permissions), never over
        # another file; ``write`` then fills it by its path.
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        raise _cannot_write(out, exc) from None
    try:
        write(tmp)
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, target)
    except OSError as exc:
        raise _cannot_write(out, exc) from None
    finally:
        tmp.unlink(missing_ok=True)


def _write_in_place(out: Path, write: Callable[[Path], object]) -> None:
    """A FIFO or device: the whole result made in a temporary folder, then copied to it."""
    try:
        with tempfile.TemporaryDirectory(prefix="abordo-") as folder:
            tmp = Path(folder) / out.name
            write(tmp)
            with tmp.open("rb") as src, out.open("wb") as dst:
                shutil.copyfileobj(src, dst)
    except OSError as exc:
        raise _cannot_write(out, exc) from None


__all__ = ["Read", "check_output", "input_files", "write_output"]

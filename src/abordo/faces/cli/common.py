"""Shared CLI helpers: consoles, language, reading dates, writing output."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from abordo.law.calendar import brasilia_date
from abordo.law.errors import InputError
from abordo.law.interpretations import check_options
from abordo.law.validation import FIRST_DAY, LAST_DAY, OUT_OF_RANGE
from abordo.output_file import write_output

console = Console(highlight=False, soft_wrap=False)
# Errors are never hard-wrapped: paths and field names must stay whole for copy and grep.
console_err = Console(stderr=True, highlight=False, soft_wrap=True)


def parse_on(value: str | None) -> dt.date | None:
    """``--on`` as ISO ``YYYY-MM-DD`` or ``dd/mm/aaaa``; None means today."""
    if value is None:
        return None
    for fmt in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            day = dt.datetime.strptime(value, fmt).date()
        except ValueError:
            continue
        if not FIRST_DAY <= day <= LAST_DAY:
            raise InputError(f"{OUT_OF_RANGE[0]}: '{value}'", "--on",
                             message_en=f"{OUT_OF_RANGE[1]}: '{value}'")
        return day
    raise InputError(f"data inválida '{value}'; use AAAA-MM-DD ou dd/mm/aaaa", "--on",
                     message_en=f"invalid date '{value}'; use YYYY-MM-DD or dd/mm/yyyy")


def today() -> dt.date:
    """The date judged by default: today in Brasília, whatever the host's time zone."""
    return brasilia_date()


def default_lang() -> str:
    """``pt`` unless the locale says English."""
    loc = os.environ.get("LC_ALL") or os.environ.get("LANG") or ""
    return "en" if loc.startswith("en") and os.environ.get("ABORDO_LANG") != "pt" else (
        os.environ.get("ABORDO_LANG", "pt"))


LangOpt = typer.Option(None, "--lang", help="pt (padrão) ou en")
FormatOpt = typer.Option("text", "--format", "-f", help="text | json | html | pdf (pdf exige -o)")
# Every path argument and option is given ``readable=False``: Click's own check would refuse
# a file it cannot read in English ("path 'x' is not readable"); the readers say so, in the
# words of every input error (abordo.law.files), and an output is never read.
OutOpt = typer.Option(None, "--output", "-o", help="arquivo de saída (padrão: terminal)",
                      readable=False)


def emit(text: str | bytes, out: Path | None) -> None:
    """Write to ``out`` (:func:`abordo.output_file.write_output`: atomically, links and
    permissions kept), or print."""
    if out is None:
        if isinstance(text, bytes):
            raise InputError("formato binário exige --output", "--output",
                             message_en="a binary format needs --output")
        console.print(text, markup=False, highlight=False, soft_wrap=True)
        return
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    write_output(out, lambda path: path.write_bytes(data))


Renderer = Callable[[Any, str], "str | bytes"]


def emit_report(fmt: str, subject: Any, lang: str, output: Path | None,
                renderers: dict[str, Renderer]) -> None:
    """Render ``subject`` with the renderer of ``fmt`` and write it (``-o``) or print it.

    Raises :class:`InputError` naming ``--format`` for a format the command does not offer.
    """
    render = renderers.get(fmt)
    if render is None:
        offered = ", ".join(renderers)
        raise InputError(f"formato '{fmt}' não suportado ({offered})", "--format",
                         message_en=f"unsupported format '{fmt}' ({offered})")
    emit(render(subject, lang), output)
    if output is not None:  # say where it went (the report itself is not shown)
        console_err.print(f"{'Relatório gravado em' if lang == 'pt' else 'Report written to'} "
                          f"{output}", markup=False, highlight=False)


def parse_options(values: list[str] | None, packages: list[str],
                  normalize: Callable[[dict[str, str]], dict[str, Any]] | None = None
                  ) -> dict[str, str]:
    """``--option family=variant`` (repeatable) as ``{family: variant}``, each checked
    against the interpretation families of ``packages`` (``abordo.quota`` …) — after the
    engine's own ``normalize`` (its other spellings of a choice), when it has one.

    Raises :class:`InputError` naming ``--option`` (``--option quota.grups`` for a family or
    variant not known; no file: the choice came from the command line) for an item without
    ``=``, an unknown family or an unknown variant.
    """
    out: dict[str, str] = {}
    for v in values or []:
        key, sep, val = v.partition("=")
        if not sep or not key.strip() or not val.strip():
            raise InputError(f"opção '{v}' deve ter a forma família=variante "
                             "(ex.: quota.groups=department_or_level)", "--option",
                             message_en=f"option '{v}' must be family=variant "
                             "(e.g. quota.groups=department_or_level)")
        out[key.strip()] = val.strip()
    if normalize is not None:
        out = {str(k): str(v) for k, v in normalize(out).items()}
    try:
        check_options(packages, out)
    except InputError as exc:  # field "options.quota.grups" → "--option quota.grups"
        fam = (exc.field or "").removeprefix("options.")
        raise dataclasses.replace(exc.alone(), field=f"--option {fam}".strip(), file=None,
                                  row=None) from None
    return out


def resolve_lang(lang: str | None) -> str:
    """``--lang`` checked (pt | en); the locale's language when not given."""
    if lang is None:
        return default_lang()
    if lang not in ("pt", "en"):
        raise InputError(f"idioma '{lang}' não suportado (pt ou en)", "--lang",
                         message_en=f"unsupported language '{lang}' (pt or en)")
    return lang


# Files a crew list (or a sea-time workbook) comes in, where a command reads a YAML or JSON
# document. Spreadsheets are also recognised by their first bytes (an XLSX is a ZIP, an XLS an
# OLE2 file), whatever their name.
SPREADSHEET_SUFFIXES = {".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv"}
SPREADSHEET_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")


def is_spreadsheet(path: Path) -> bool:
    """Whether ``path`` is a spreadsheet by its suffix or its first bytes (False when it
    cannot be read: the reader then says why)."""
    if path.suffix.lower() in SPREADSHEET_SUFFIXES:
        return True
    if not path.is_file():
        return False  # a pipe (/dev/stdin, <(…)) is read once, by the reader: never peeked
    try:
        with path.open("rb") as fh:
            return fh.read(4) in SPREADSHEET_MAGIC
    except OSError:
        return False

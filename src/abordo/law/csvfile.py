"""The one reader of CSV records, for every CSV input: crew lists, sea-time sheets, and the
check of a fleet table its columnar reader refused (:mod:`abordo.batch.fleet`).

A record is numbered by the line of the file it starts on (header = line 1, blank lines
keep their number; a quoted cell may span lines). A quote opened and never closed — which
would swallow the rest of the file into one cell, its rows gone in silence — and a quote
misplaced (a quoted cell not ending at the separator) are :class:`InputError` naming the
file and the line.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator

from abordo.law.errors import InputError


def csv_records(lines: Iterable[str], delimiter: str, display: str
                ) -> Iterator[tuple[int, list[str]]]:
    """``(line, cells)`` of each record of ``lines`` (a text read with ``newline=""``: a
    ``StringIO`` or a file), ``line`` the one it starts on; errors name ``display``."""
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    start = 1
    try:
        for record in reader:
            yield start, record
            start = reader.line_num + 1
    except csv.Error as exc:
        if "end of data" in str(exc):
            raise InputError(
                'aspas (") abertas e não fechadas nesta linha: o resto do arquivo seria lido '
                "como um só campo", file=display, row=start,
                message_en='a quote (") opened and never closed on this row: the rest of '
                "the file would read as one field") from None
        raise InputError(
            'aspas (") mal colocadas nesta linha: um campo entre aspas deve terminar no '
            "separador", file=display, row=reader.line_num,
            message_en='misplaced quote (") on this row: a quoted field must end at the '
            "separator") from None


__all__ = ["csv_records"]

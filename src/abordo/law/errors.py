"""One exception hierarchy for the whole project.

Every error a user can cause is an :class:`InputError` naming where it happened (file, row,
field) and what was expected, in Portuguese and English. Faces turn it into exit code 2 (CLI)
or a 4xx problem+json (API); nothing prints a traceback for bad input.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


class AbordoError(Exception):
    """Base of every error raised on purpose by Abordo."""


SEP = " ‖ "  # "Portuguese ‖ English" in one message text


def bilingual(text: str) -> tuple[str, str]:
    """``(portuguese, english)`` of a message written ``"pt ‖ en"`` (English = Portuguese
    when the text has no English part)."""
    pt, sep, en = text.partition(SEP)
    return pt, (en if sep else pt)


class Refusal(AbordoError):
    """A refusal of the case workflow (not found, forbidden, not allowed now), its text
    written ``"pt ‖ en"``: ``message`` Portuguese (also ``str()``), ``message_en``
    English."""

    def __init__(self, text: str) -> None:
        self.message, self.message_en = bilingual(text)
        super().__init__(self.message)


# The ``plain`` message of a person's id given twice (the id itself may be a name).
DUPLICATE_ID = ("id repetido", "duplicate id")

# The problems one error lists at most: a sheet with thousands of bad rows says the first
# ones and how many more there are, not thousands of lines.
MAX_LISTED = 50


def more_problems(count: int, lang: str = "pt") -> str:
    """The line closing a listing cut short: ``… e mais 450 problemas``."""
    if lang == "en":
        return f"… and {count} more problem{'s' if count != 1 else ''}"
    return f"… e mais {count} problema{'s' if count != 1 else ''}"


@dataclass
class InputError(AbordoError):
    """Bad input: names the file, the row (the line a spreadsheet or editor shows: a YAML
    line, or a sheet row with the header on line 1) and the field path.

    ``field`` is a dotted path in the input's own terms (``infraction.nature``,
    ``crew[3].nationality``). ``message`` is Portuguese, ``message_en`` English.
    """

    message: str
    field: str | None = None
    file: str | None = None
    row: int | None = None
    message_en: str | None = None
    details: list[InputError] = dataclasses.field(default_factory=list)
    # The end of (message, message_en) that quotes the value received, when one does:
    # left out where no input value may be repeated (a screening's result file).
    quoted: tuple[str, str] | None = None
    # (message, message_en) naming no input value at all, for a message that names one
    # inside it (a rank, a country, a person's id): what a screening's result file keeps.
    plain: tuple[str, str] | None = None
    # How many more problems were found than ``details`` lists (:data:`MAX_LISTED`).
    omitted: int = 0

    def __post_init__(self) -> None:
        super().__init__(self.message)

    @classmethod
    def listing(cls, items: list[InputError], in_file_order: bool = False) -> InputError:
        """One error for several problems found at once: the first of ``items`` (the first
        in the file when ``in_file_order``: by row, rows unknown last — files kept in the
        order they first appear), the others in its ``details`` — the first
        :data:`MAX_LISTED` in all, ``omitted`` counting the others (and those the items
        had left out themselves, when listed again)."""
        if in_file_order:
            files = list(dict.fromkeys(e.file for e in items))
            items = sorted(items, key=lambda e: (files.index(e.file),
                                                 e.row if e.row is not None else 1 << 30))
        omitted = sum(e.omitted for e in items) + max(0, len(items) - MAX_LISTED)
        kept = [dataclasses.replace(e, omitted=0) if e.omitted else e
                for e in items[:MAX_LISTED]]
        return dataclasses.replace(kept[0], details=kept[1:], omitted=omitted)

    def where(self, lang: str = "pt") -> str:
        parts: list[str] = []
        if self.file:
            parts.append(f"{'arquivo' if lang == 'pt' else 'file'} {self.file}")
        if self.row is not None:
            parts.append(f"{'linha' if lang == 'pt' else 'row'} {self.row}")
        if self.field:
            parts.append(f"{'campo' if lang == 'pt' else 'field'} {self.field}")
        return ", ".join(parts)

    def render(self, lang: str = "pt", values: bool = True) -> str:
        """One line per error: ``<where>: <message>``; without ``values``, no value received
        is named (``plain``, else the message without its ``quoted`` end)."""
        items = [self, *self.details] if self.details else [self]
        left_out = self.omitted + max(0, len(items) - MAX_LISTED)
        lines = []
        for e in items[:MAX_LISTED]:
            en = lang == "en" and bool(e.message_en)
            msg = e.message_en if en and e.message_en else e.message
            if not values and e.plain:
                msg = e.plain[1] if en else e.plain[0]
            elif not values and e.quoted:
                msg = msg.removesuffix(e.quoted[1] if en else e.quoted[0])
            where = e.where(lang)
            lines.append(f"{where}: {msg}" if where else msg)
        if left_out:
            lines.append(more_problems(left_out, lang))
        return "\n".join(lines)

    def alone(self) -> InputError:
        """This error without the others listed with it (its ``details``), all else kept —
        ``quoted``, ``plain`` and the count of problems left out (``omitted``, counted again
        by :meth:`listing`) — to be listed again among other problems."""
        return dataclasses.replace(self, details=[])

    def with_location(self, *, file: str | None = None, row: int | None = None,
                      prefix: str | None = None) -> InputError:
        """A copy located in ``file``/``row``, with ``prefix`` prepended to the field path."""
        fld = self.field
        if prefix:
            fld = f"{prefix}.{fld}" if fld and not fld.startswith("[") else f"{prefix}{fld or ''}"
        return dataclasses.replace(
            self, field=fld, file=file or self.file, row=row if row is not None else self.row,
            details=[d.with_location(file=file, prefix=prefix) for d in self.details])

"""Small text helpers every area shares: accent-insensitive keys and dates as Brazilian
legal texts write them (``dd/mm/aaaa``) inside engine messages (reports use Babel)."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

from babel.lists import format_list
from babel.numbers import NumberFormatError, parse_decimal

from abordo.law.errors import InputError


def fold(text: str) -> str:
    """Lower-case ASCII form for matching: ``'Convés'`` → ``'conves'``."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


# Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they
# reorder how a text is displayed, so a name could be printed otherwise than it is stored.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def control_char(text: str, line_breaks: bool = False) -> str | None:
    """The first character of ``text`` no printed document should carry — a control
    character (Unicode category Cc; tab, line feed and carriage return allowed with
    ``line_breaks``, for a text of several lines) or a bidirectional control
    (:data:`BIDI_CONTROLS`) —, or None."""
    for ch in text:
        if ch in BIDI_CONTROLS or (unicodedata.category(ch) == "Cc"
                                   and not (line_breaks and ch in "\t\n\r")):
            return ch
    return None


def control_problem(text: str, field: str | None, line_breaks: bool = False
                    ) -> InputError | None:
    """The :class:`InputError` of a text with a character :func:`control_char` finds
    (``field``: the field it names; NUL said by name), or None."""
    ch = control_char(text, line_breaks)
    if ch is None:
        return None
    if ch == "\x00":
        return InputError("caractere NUL não permitido", field,
                          message_en="NUL character not allowed")
    code = f"U+{ord(ch):04X}"
    return InputError(f"caractere de controle não permitido ({code})", field,
                      message_en=f"control character not allowed ({code})")


def whole(n: int, lang: str = "pt") -> str:
    """A whole number with its thousands marked: ``1.000`` (pt) or ``1,000`` (en)."""
    s = f"{n:,}"
    return s.replace(",", ".") if lang == "pt" else s


def listing(items: list[str], lang: str = "pt") -> str:
    """``["a", "b", "c"]`` → ``a, b e c`` (pt) / ``a, b, and c`` (en): CLDR's list patterns
    through Babel."""
    return format_list(items, locale="pt_BR" if lang == "pt" else "en") if items else ""


def plural(n: int, one: str, many: str) -> str:
    """``1 dia``, ``0 dias``, ``2 dias`` (``1 day``, ``2 days``): the number with its noun,
    singular for exactly one — as the CLI already writes counts (0 takes the plural, like the
    "0 dias de embarque computáveis" of the sea-time summary)."""
    return f"{n} {one if n == 1 else many}"


def br_date(day: dt.date) -> str:
    """``30/11/2026``."""
    return day.strftime("%d/%m/%Y")


_BR_NUMBER = re.compile(r"-?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?")


def br_decimal(text: str, *, grouped: bool = False) -> str:
    """A number written the Brazilian way in its dot form: ``'4,5'`` → ``'4.5'``,
    ``'2.500,00'`` → ``'2500.00'``. Text without a comma is returned as given (a dot is then a
    decimal point, as in YAML, JSON and spreadsheets) unless ``grouped`` and the dots group
    thousands (``'2.500'`` → ``'2500'``, for amounts in BRL); text that is not a number is
    returned unchanged, for the model to refuse with its field."""
    v = text.strip()
    if "," not in v and not (grouped and "." in v):
        return text
    if not _BR_NUMBER.fullmatch(v):  # e.g. "4," or "1,5e3", which Babel would also take
        return text
    try:
        return str(parse_decimal(v, locale="pt_BR", strict=True))
    except NumberFormatError:
        return text


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders the numbers in ``text`` by value: ``art. 4º`` before
    ``art. 11`` (text order would put 11 first), ``item 30.2.1`` before ``30.10``."""
    import re

    return tuple((0, int(part)) if part.isdigit() else (1, part.casefold())
                 for part in re.split(r"(\d+)", text) if part)

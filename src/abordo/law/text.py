"""Small text helpers every area shares: accent-insensitive keys and dates as Brazilian
legal texts write them (``dd/mm/aaaa``) inside engine messages (reports use Babel)."""

from __future__ import annotations

import datetime as dt
import unicodedata


def fold(text: str) -> str:
    """Lower-case ASCII form for matching: ``'Convés'`` → ``'conves'``."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def whole(n: int, lang: str = "pt") -> str:
    """A whole number with its thousands marked: ``1.000`` (pt) or ``1,000`` (en)."""
    s = f"{n:,}"
    return s.replace(",", ".") if lang == "pt" else s


def br_date(day: dt.date) -> str:
    """``30/11/2026``."""
    return day.strftime("%d/%m/%Y")

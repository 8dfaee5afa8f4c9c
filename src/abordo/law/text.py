"""Small text helpers every area shares: accent-insensitive keys and dates as Brazilian
legal texts write them (``dd/mm/aaaa``) inside engine messages (reports use Babel)."""

from __future__ import annotations

import datetime as dt
import unicodedata


def fold(text: str) -> str:
    """Lower-case ASCII form for matching: ``'Convés'`` → ``'conves'``."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def br_date(day: dt.date) -> str:
    """``30/11/2026``."""
    return day.strftime("%d/%m/%Y")

"""pt-BR / en formatting through Babel: dates dd/mm/aaaa, money R$ 1.234,56, numbers."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

from babel.dates import format_date
from babel.numbers import format_currency, format_decimal

LOCALES = {"pt": "pt_BR", "en": "en_US"}


def locale(lang: str) -> str:
    return LOCALES.get(lang, "pt_BR")


def fmt_date(d: dt.date | None, lang: str = "pt") -> str:
    """``30/11/2026`` (pt) or ``2026-11-30`` (en, ISO); empty for None."""
    if d is None:
        return "—"
    return format_date(d, "dd/MM/yyyy", locale="pt_BR") if lang != "en" else d.isoformat()


def fmt_money(value: Decimal, lang: str = "pt") -> str:
    """``R$ 1.234,56`` (pt) or ``R$1,234.56`` (en)."""
    out = format_currency(value, "BRL", locale=locale(lang))
    return out.replace("\xa0", " ")


def fmt_number(value: int | Decimal | float, lang: str = "pt", digits: int | None = None) -> str:
    fmt = None if digits is None else "#,##0." + "0" * digits
    return format_decimal(value, format=fmt, locale=locale(lang)).replace("\xa0", " ")


def fmt_fraction(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"

"""Dated parameter tables: figures that change with the law live in data, not in code.

A table is a list of entries, each with ``valid_from`` / ``valid_to`` (inclusive, ``null`` =
open), ``source`` and ``confirmed``. :func:`dated_value` picks the entry in force on a date.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from abordo.law.yamlload import load_data_text


@dataclass(frozen=True)
class ParamValue:
    """One dated entry: its value, where it comes from and whether that is confirmed."""

    value: Any
    valid_from: dt.date
    valid_to: dt.date | None
    source: str
    confirmed: bool


def in_window(on: dt.date, valid_from: dt.date | None, valid_to: dt.date | None) -> bool:
    return (valid_from is None or valid_from <= on) and (valid_to is None or on <= valid_to)


def dated_value(entries: list[dict[str, Any]], on: dt.date) -> ParamValue | None:
    """The entry in force on ``on`` (None when no entry covers the date)."""
    for e in entries:
        if in_window(on, e.get("valid_from"), e.get("valid_to")):
            return ParamValue(
                e["value"], e["valid_from"], e.get("valid_to"), str(e.get("source", "")),
                bool(e.get("confirmed", True)),
            )
    return None


@cache
def load_data(package: str, name: str) -> Any:
    """Parse a YAML data file shipped inside ``package`` (read once per process)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return load_data_text(text)

"""Dated parameter tables: figures that change with the law live in data, not in code.

A table is a list of entries, each with ``valid_from`` / ``valid_to`` (inclusive, ``null`` =
open), ``source`` (Portuguese) with ``source_en`` (English) and ``confirmed``.
:func:`dated_value` picks the entry in force on a date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from abordo.law.decision import Msg
from abordo.law.yamlload import load_data_text


@dataclass(frozen=True)
class ParamValue:
    """One dated entry: its value, where it comes from and whether that is confirmed."""

    value: Any
    valid_from: dt.date
    valid_to: dt.date | None
    source: Msg
    confirmed: bool


def source_of(entry: Mapping[str, Any], key: str = "source") -> Msg:
    """A data table's ``key`` (Portuguese) and ``{key}_en`` (English) as one text.

    An unconfirmed figure's source is shown to the user in the output's language, so every
    such entry carries ``{key}_en`` (tests/test_trial_cli_fixes.py checks the tables); a
    confirmed one's is never shown, and may stay Portuguese only."""
    pt = str(entry.get(key, ""))
    return Msg(pt, str(entry.get(f"{key}_en", pt)))


def in_window(on: dt.date, valid_from: dt.date | None, valid_to: dt.date | None) -> bool:
    return (valid_from is None or valid_from <= on) and (valid_to is None or on <= valid_to)


def dated_value(entries: list[dict[str, Any]], on: dt.date) -> ParamValue | None:
    """The entry in force on ``on`` (None when no entry covers the date)."""
    for e in entries:
        if in_window(on, e.get("valid_from"), e.get("valid_to")):
            return ParamValue(
                e["value"], e["valid_from"], e.get("valid_to"), source_of(e),
                bool(e.get("confirmed", True)),
            )
    return None


@cache
def load_data(package: str, name: str) -> Any:
    """Parse a YAML data file shipped inside ``package`` (read once per process)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return load_data_text(text)

"""Coded values of a vessel — ``activity`` and ``contract`` — written as a Brazilian planner
writes them: the code (``cabotage``) or its Portuguese name (``cabotagem``, ``Apoio
Marítimo``, ``afretamento``), read through the crew's table kept as data
(``crew/data/values.yaml``) by both the vessel-case model (``abordo check``) and the
screen's vessels table (``abordo screen``). The reading itself is the law core's
(:mod:`abordo.law.values`), shared with the other areas.

Public API::

    value_code(kind, text) -> str | None       # the code, or None (unknown or ambiguous)
    refusal(kind, text) -> (pt, en)            # why ``text`` is refused, without the value
    coerce(kind)(value) -> value                # pydantic BeforeValidator
    json_schema(kind) -> dict                   # codes and Portuguese names, for the schema
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from abordo.law.values import ValueTable, value_table

Kind = Literal["activity", "contract"]


def _table() -> ValueTable:
    return value_table("abordo.crew")


def codes(kind: Kind) -> list[str]:
    """The codes of ``kind``, in the table's order (that of the enums)."""
    return _table().codes(kind)


def value_code(kind: Kind, text: str) -> str | None:
    """The code ``text`` names (a code or a Portuguese name), or None."""
    return _table().value_code(kind, text)


def refusal(kind: Kind, text: str) -> tuple[str, str]:
    """(Portuguese, English) message refusing ``text`` for ``kind`` (the value not in it)."""
    return _table().refusal(kind, text)


def json_schema(kind: Kind) -> dict[str, Any]:
    """The JSON Schema of a ``kind`` field: its codes and Portuguese names."""
    return _table().json_schema(kind)


def coerce(kind: Kind) -> Callable[[Any], Any]:
    """A pydantic ``BeforeValidator`` reading ``kind`` (see :meth:`ValueTable.coerce`)."""
    return _table().coerce(kind)

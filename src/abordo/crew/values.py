"""Coded values of a vessel — ``activity`` and ``contract`` — written as a Brazilian planner
writes them: the code (``cabotage``) or its Portuguese name (``cabotagem``, ``Apoio
Marítimo``, ``afretamento``), read through one table kept as data
(``crew/data/values.yaml``) by both the vessel-case model (``abordo check``) and the
screen's vessels table (``abordo screen``).

Public API::

    value_code(kind, text) -> str | None       # the code, or None (unknown or ambiguous)
    refusal(kind, text) -> (pt, en)            # why ``text`` is refused, without the value
    coerce(kind)(value) -> value                # pydantic BeforeValidator
    json_schema(kind) -> dict                   # codes and Portuguese names, for the schema
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

from abordo.law.params import load_data
from abordo.law.text import fold
from abordo.law.validation import Bilingual

Kind = Literal["activity", "contract"]


def _key(text: str) -> str:
    """Case, accents, ``_`` / ``-`` and repeated spaces ignored: ``Apoio_Marítimo`` →
    ``apoio maritimo``."""
    return " ".join(re.sub(r"[_\-]", " ", fold(text)).split())


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = load_data("abordo.crew", "data/values.yaml")
    return data


@cache
def _lookup(kind: Kind) -> dict[str, str]:
    """Folded name or code → code."""
    found: dict[str, str] = {}
    for code, names in _table()[kind].items():
        for name in (code, *names):
            key = _key(str(name))
            if found.setdefault(key, str(code)) != code:  # one name, one code
                raise ValueError(f"values.yaml: '{name}' names both {found[key]} and {code}")
    return found


@cache
def _ambiguous(kind: Kind) -> dict[str, dict[str, Any]]:
    return {_key(name): entry
            for name, entry in (_table().get("ambiguous", {}).get(kind) or {}).items()}


def codes(kind: Kind) -> list[str]:
    """The codes of ``kind``, in the table's order (that of the enums)."""
    return [str(c) for c in _table()[kind]]


def value_code(kind: Kind, text: str) -> str | None:
    """The code ``text`` names (a code or a Portuguese name), or None."""
    key = _key(text)
    if key in _ambiguous(kind):
        return None
    return _lookup(kind).get(key)


def refusal(kind: Kind, text: str) -> tuple[str, str]:
    """(Portuguese, English) message refusing ``text`` for ``kind`` — the value itself is
    not in it (the caller quotes it): an ambiguous name says why and its choices; anything
    else lists the codes and their Portuguese names."""
    entry = _ambiguous(kind).get(_key(text))
    if entry is not None:
        choices = [(c, str(_table()[kind][c][0])) for c in entry["codes"]]
        return (f"valor ambíguo — {entry['pt']} ({entry['provision']}); use "
                + " ou ".join(f"{name} ({code})" for code, name in choices),
                f"ambiguous value — {entry['en']} ({entry['provision']}); use "
                + " or ".join(f"{code} ({name})" for code, name in choices))
    names = [str(n[0]) for n in _table()[kind].values()]
    return (f"valor não permitido; esperado um de: {', '.join(codes(kind))} — ou em "
            f"português: {', '.join(names)}",
            f"value not allowed; expected one of: {', '.join(codes(kind))} — or in "
            f"Portuguese: {', '.join(names)}")


def json_schema(kind: Kind) -> dict[str, Any]:
    """The JSON Schema of a ``kind`` field: the codes and the Portuguese names as the table
    writes them (the reader also ignores case, accents, ``_`` and ``-``)."""
    names = [str(n) for ns in _table()[kind].values() for n in ns]
    return {"type": "string", "enum": [*codes(kind), *names],
            "description": f"{kind}: a code, or its Portuguese name (crew/data/values.yaml)"}


def coerce(kind: Kind) -> Callable[[Any], Any]:
    """A pydantic ``BeforeValidator``: text naming a code becomes that code; other text is
    refused with :func:`refusal` (the value quoted); anything else is left to the type."""
    def convert(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        code = value_code(kind, value)
        if code is not None:
            return code
        pt, en = refusal(kind, value)
        raise Bilingual(f"{pt} (recebido: {value.strip()!r})", f"{en} (got {value.strip()!r})",
                        plain=(pt, en))
    return convert

"""Coded values written as a Brazilian user writes them: the code (``cabotage``,
``promotion``, ``severe``) or its Portuguese name (``cabotagem``, ``promoção``, ``grave``).

The one implementation of "a code or its Portuguese name → the code" and of the message
refusing anything else, for every area. Each area keeps its names as data, in a table of its
own data folder (``crew/data/values.yaml``, ``sea_time/data/values.yaml``,
``port_fines/data/values.yaml``) of this shape::

    <kind>:                     # a coded field: activity, purpose, extent…
      <code>: [<name>, …]       # the first name is the one messages list
    ambiguous:                  # optional: names that do not say which code they are
      <kind>:
        "<name>": {codes: [...], provision: "...", pt: "...", en: "..."}

Matching ignores case, accents, ``_`` / ``-`` against a space and repeated spaces
(``Apoio_Marítimo`` = ``apoio marítimo``); the codes themselves are matched the same way.

Public API::

    value_table(package, path) -> ValueTable     # read once per process
    ValueTable.value_code(kind, text) -> str | None
    ValueTable.refusal(kind, text) -> (pt, en)
    ValueTable.coerce(kind, lenient=None) -> pydantic BeforeValidator
    ValueTable.json_schema(kind) -> dict
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from abordo.law.params import load_data
from abordo.law.text import fold
from abordo.law.validation import Bilingual


def value_key(text: str) -> str:
    """Case, accents, ``_`` / ``-`` and repeated spaces ignored: ``Apoio_Marítimo`` →
    ``apoio maritimo``."""
    return " ".join(re.sub(r"[_\-]", " ", fold(text)).split())


class ValueTable:
    """The codes of an area's coded fields and their Portuguese names (one data file)."""

    def __init__(self, data: dict[str, Any], where: str) -> None:
        self.where = where
        self._ambiguous: dict[str, dict[str, dict[str, Any]]] = {
            kind: {value_key(str(name)): entry for name, entry in (entries or {}).items()}
            for kind, entries in (data.get("ambiguous") or {}).items()}
        self._names: dict[str, dict[str, list[str]]] = {
            str(kind): {str(code): [str(n) for n in (names or [])]
                        for code, names in codes.items()}
            for kind, codes in data.items() if kind != "ambiguous"}
        self._lookup: dict[str, dict[str, str]] = {}
        for kind, codes in self._names.items():
            found: dict[str, str] = {}
            for code, names in codes.items():
                for name in (code, *names):
                    key = value_key(name)
                    if found.setdefault(key, code) != code:  # one name, one code
                        raise ValueError(f"{where}: '{name}' names both {found[key]} and "
                                         f"{code}")
            self._lookup[kind] = found

    def kinds(self) -> list[str]:
        return list(self._names)

    def codes(self, kind: str) -> list[str]:
        """The codes of ``kind``, in the table's order."""
        return list(self._names[kind])

    def names(self, kind: str) -> dict[str, list[str]]:
        """Each code of ``kind`` with its Portuguese names (the first: the one listed)."""
        return {code: list(names) for code, names in self._names[kind].items()}

    def first_names(self, kind: str) -> list[str]:
        """The Portuguese name messages give for each code (the code when it has none)."""
        return [names[0] if names else code for code, names in self._names[kind].items()]

    def value_code(self, kind: str, text: str) -> str | None:
        """The code ``text`` names (a code or a Portuguese name), or None (unknown or
        ambiguous)."""
        key = value_key(text)
        if key in self._ambiguous.get(kind, {}):
            return None
        return self._lookup[kind].get(key)

    def expected(self, kind: str) -> tuple[str, str]:
        """(pt, en) list of what ``kind`` takes: its codes, then their Portuguese names."""
        codes, names = ", ".join(self.codes(kind)), ", ".join(self.first_names(kind))
        return (f"{codes} — ou em português: {names}", f"{codes} — or in Portuguese: {names}")

    def refusal(self, kind: str, text: str) -> tuple[str, str]:
        """(Portuguese, English) message refusing ``text`` for ``kind`` — the value itself is
        not in it (the caller quotes it): an ambiguous name says why and its choices;
        anything else lists the codes and their Portuguese names."""
        entry = self._ambiguous.get(kind, {}).get(value_key(text))
        if entry is not None:
            choices = [(c, self._names[kind][c][0]) for c in entry["codes"]]
            return (f"valor ambíguo — {entry['pt']} ({entry['provision']}); use "
                    + " ou ".join(f"{name} ({code})" for code, name in choices),
                    f"ambiguous value — {entry['en']} ({entry['provision']}); use "
                    + " or ".join(f"{code} ({name})" for code, name in choices))
        pt, en = self.expected(kind)
        return (f"valor não permitido; esperado um de: {pt}",
                f"value not allowed; expected one of: {en}")

    def json_schema(self, kind: str) -> dict[str, Any]:
        """The JSON Schema of a ``kind`` field: the codes and the Portuguese names as the
        table writes them (the reader also ignores case, accents, ``_`` and ``-``)."""
        names = [n for ns in self._names[kind].values() for n in ns]
        return {"type": "string", "enum": [*self.codes(kind), *names],
                "description": f"{kind}: a code, or its Portuguese name ({self.where})"}

    def coerce(self, kind: str, lenient: Callable[[str], Any] | None = None
               ) -> Callable[[Any], Any]:
        """A pydantic ``BeforeValidator``: text naming a code becomes that code; other text
        is refused with :meth:`refusal` (the value quoted) — or, for a field whose list is
        open (``lenient``), given to ``lenient``; anything else is left to the type."""
        def convert(value: Any) -> Any:
            if not isinstance(value, str):
                return value
            code = self.value_code(kind, value)
            if code is not None:
                return code
            if lenient is not None:
                return lenient(value)
            pt, en = self.refusal(kind, value)
            raise Bilingual(f"{pt} (recebido: {value.strip()!r})",
                            f"{en} (got {value.strip()!r})", plain=(pt, en))
        return convert


@cache
def value_table(package: str, path: str = "data/values.yaml") -> ValueTable:
    """The value table kept as data in ``package`` (read once per process)."""
    data: dict[str, Any] = load_data(package, path)
    return ValueTable(data, f"{package.rsplit('.', 1)[-1]}/{path}")

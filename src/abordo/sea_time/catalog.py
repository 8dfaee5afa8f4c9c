"""The sea-time data tables, read once: categories, STCW parties, NORMAM-101 provisions.

- ``data/categories.yaml``: categories with group, department, level of equivalence (source and
  confirmed flags), used for "lower function" and "other group" (NORMAM-101 item 1.28);
- ``data/stcw_parties.yaml``: flag states party to STCW-78 (item 1.29), with its source;
- ``data/normam101.yaml``: which item of which NORMAM-101 version holds each rule, and the
  dated figures (2:1 ratio, 4 hours, 365 days), picked by date with
  :func:`abordo.law.params.dated_value`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache
from typing import Any

from abordo.law.decision import Msg
from abordo.law.params import dated_value, load_data, source_of

PACKAGE = "abordo.sea_time"


@dataclass(frozen=True)
class Category:
    """One category (``2ON``): groups, department, level of equivalence, officer or rating."""

    code: str
    name: str
    groups: tuple[str, ...]
    department: str
    level: int
    officer: bool
    code_confirmed: bool

    @property
    def nautical_officer(self) -> bool:
        """A maritime deck officer (CLC, CCB, 1ON, 2ON): item 1.27's "Oficiais de Náutica"."""
        return self.officer and self.department == "deck" and "maritime" in self.groups

    @property
    def engine_officer(self) -> bool:
        """A maritime engine officer (OSM, 1OM, 2OM): item 1.27's "Oficiais de Máquinas"."""
        return self.officer and self.department == "engine" and "maritime" in self.groups


@dataclass(frozen=True)
class CategoryTable:
    by_code: dict[str, Category]
    aliases: dict[str, str]
    groups: dict[str, Msg]
    departments: dict[str, Msg]
    source: Msg
    level_source: Msg


@cache
def categories() -> CategoryTable:
    """The category table of ``data/categories.yaml``."""
    raw = load_data(PACKAGE, "data/categories.yaml")
    by_code: dict[str, Category] = {}
    aliases: dict[str, str] = {}
    for code, row in raw["categories"].items():
        code = str(code)
        by_code[code] = Category(code, str(row["name"]), tuple(row["groups"]),
                                 str(row["department"]), int(row["level"]), bool(row["officer"]),
                                 bool(row.get("code_confirmed", False)))
        for alias in row.get("aliases") or ():
            aliases[str(alias).upper()] = code
    return CategoryTable(
        by_code, aliases,
        {k: Msg(v["pt"], v["en"]) for k, v in raw["groups"].items()},
        {k: Msg(v["pt"], v["en"]) for k, v in raw["departments"].items()},
        source_of(raw), source_of(raw, "level_source"),
    )


@dataclass(frozen=True)
class PartyTable:
    """STCW-78 parties (ISO alpha-2 → name) and territories to which a party extended it."""

    parties: dict[str, str]
    territories: dict[str, tuple[str, str]]
    source: Msg
    as_of: dt.date
    confirmed: bool

    def party_for(self, flag: str) -> str | None:
        """The party whose ratification covers ``flag`` (itself or the extending party)."""
        if flag in self.parties:
            return flag
        if flag in self.territories:
            return self.territories[flag][1]
        return None


@cache
def stcw_parties() -> PartyTable:
    """The table of ``data/stcw_parties.yaml``."""
    raw = load_data(PACKAGE, "data/stcw_parties.yaml")
    return PartyTable(
        {str(k): str(v) for k, v in raw["parties"].items()},
        {str(k): (str(v["name"]), str(v["party"])) for k, v in raw["territories"].items()},
        source_of(raw), raw["as_of"], bool(raw["confirmed"]),
    )


@dataclass(frozen=True)
class Provision:
    """Where a rule sits on a date: norm version id, provision text, confirmed, source."""

    rule: str
    norm: str
    provision: str
    confirmed: bool
    source: Msg
    text: Msg


@dataclass(frozen=True)
class Normam:
    """The dated tables of ``data/normam101.yaml``."""

    versions: tuple[dict[str, Any], ...]
    rules: dict[str, list[dict[str, Any]]]
    texts: dict[str, Msg]
    params: dict[str, list[dict[str, Any]]]


def _entries(spec: dict[str, Any], value: Any, raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Dated entries of one rule or figure: explicit ``versions`` or one per NORMAM version."""
    if "versions" in spec:
        return [dict(e) for e in spec["versions"]]
    out = []
    for i, ver in enumerate(raw["versions"]):
        first = i == 0
        confirmed = first or bool(spec.get("checked_2025"))
        said = ("checked_2025_source" if confirmed else "unchecked_2025_source")
        source = {"source": ver["source"], "source_en": source_of(ver).en} if first else {
            "source": f"{ver['source']}: {raw[said]}",
            "source_en": f"{source_of(ver).en}: {source_of(raw, said).en}"}
        out.append({"valid_from": ver["valid_from"], "valid_to": ver["valid_to"],
                    "value": {"norm": ver["norm"], "value": value}, **source,
                    "confirmed": confirmed})
    return out


@cache
def normam() -> Normam:
    raw = load_data(PACKAGE, "data/normam101.yaml")
    rules = {k: _entries(v, v.get("provision"), raw) for k, v in raw["rules"].items()}
    texts = {k: Msg(v["pt"], v["en"]) for k, v in raw["rules"].items()}
    params = {k: _entries(v, v["value"], raw) for k, v in raw["params"].items()}
    return Normam(tuple(raw["versions"]), rules, texts, params)


def version_on(on: dt.date) -> str | None:
    """The NORMAM-101 version id in force on ``on`` (None before 2023-09-14)."""
    for ver in normam().versions:
        if ver["valid_from"] <= on and (ver["valid_to"] is None or on <= ver["valid_to"]):
            return str(ver["norm"])
    return None


def prior_format_until(to: dt.date) -> dt.date:
    """The last day a prior-format declaration ending ``to`` can declare: the eve of
    :func:`annex_1s_since` at the latest (it was issued before the Anexo 1-S model)."""
    return min(to, annex_1s_since() - dt.timedelta(days=1))


def annex_1s_since() -> dt.date:
    """The day the Anexo 1-S model became the declaration's form: the publication of the
    2023 text (item 1.26.1, Observação: "a partir da publicação … deverão utilizar o modelo
    do anexo 1-S"); a declaration in another format was issued before it — the 2025
    re-issue kept the model, so it does not move this day."""
    day: dt.date = normam().versions[0]["valid_from"]
    return day


def provision(rule: str, on: dt.date) -> Provision:
    """Where ``rule`` sits in the NORMAM-101 version in force on ``on``.

    Raises ``LookupError`` when no modelled version is in force (the engine checks first).
    """
    pv = dated_value(normam().rules[rule], on)
    if pv is None:
        raise LookupError(f"no NORMAM-101 version for {rule} on {on.isoformat()}")
    return Provision(rule, str(pv.value["norm"]), str(pv.value["value"]), pv.confirmed,
                     pv.source, normam().texts[rule])


def param(name: str, on: dt.date) -> tuple[Any, Provision]:
    """A dated figure (``days_per_year`` …) on ``on`` and the provision that sets it."""
    spec = load_data(PACKAGE, "data/normam101.yaml")["params"][name]
    pv = dated_value(normam().params[name], on)
    if pv is None:
        raise LookupError(f"no NORMAM-101 version for {name} on {on.isoformat()}")
    prov = provision(str(spec["rule"]), on)
    prov = Provision(prov.rule, prov.norm, prov.provision, pv.confirmed, pv.source, prov.text)
    return pv.value["value"], prov

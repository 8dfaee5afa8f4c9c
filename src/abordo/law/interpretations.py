"""Named interpretations: where a text is ambiguous, a default reading and its alternatives.

Each regulatory area keeps a catalogue ``data/interpretations.yaml`` beside its rules::

    quota.rounding:                       # family
      default: at_least_fraction
      variants:
        at_least_fraction: {pt: "...", en: "..."}
        half_up: {pt: "...", en: "..."}

A caller chooses a variant with ``options = {"quota.rounding": "half_up"}``; an unknown family
or variant is an :class:`~abordo.law.errors.InputError` naming ``options.<family>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from abordo.law.decision import Decision, Finding, Interpretation, Msg
from abordo.law.errors import InputError
from abordo.law.params import load_data


def catalogue(package: str) -> dict[str, Any]:
    data = load_data(package, "data/interpretations.yaml")
    assert isinstance(data, dict)
    return data


def interpretation(package: str, family: str, variant: str, chosen_by: str) -> Interpretation:
    """The :class:`Interpretation` ``family.variant`` from ``package``'s catalogue."""
    cat = catalogue(package)
    fam = cat[family]
    text = fam["variants"][variant]
    prefix = fam.get("id_prefix", family)  # lets a family share its ids' stem with another
    alts = tuple(f"{prefix}.{v}" for v in fam["variants"] if v != variant)
    return Interpretation(f"{prefix}.{variant}", family, variant, Msg(text["pt"], text["en"]),
                          alts, chosen_by)


def variant_id(package: str, family: str, variant: str) -> str:
    """The id of ``family``'s ``variant`` (``quota.groups.rest``, ``rest_is_one_group`` →
    ``quota.groups.rest_is_one_group``): a decision that applied that choice relies on it."""
    fam = catalogue(package)[family]
    return f"{fam.get('id_prefix', family)}.{variant}"


def resolve(package: str, family: str, options: Mapping[str, Any] | None) -> Interpretation:
    """The caller's choice for ``family`` if given in ``options``, else the default."""
    cat = catalogue(package)
    fam = cat[family]
    chosen = (options or {}).get(family)
    if chosen is None:
        return interpretation(package, family, fam["default"], "default")
    if chosen not in fam["variants"]:
        allowed = ", ".join(fam["variants"])
        raise InputError(
            f"interpretação desconhecida '{chosen}'; esperado um de: {allowed}",
            f"options.{family}",
            message_en=f"unknown interpretation '{chosen}'; expected one of: {allowed}",
        )
    return interpretation(package, family, str(chosen), "caller")


def check_options(packages: list[str], options: Mapping[str, Any] | None) -> None:
    """Reject an option naming no interpretation family of ``packages``, or a variant the
    family does not have — before anything is judged, so no choice is silently ignored."""
    known: dict[str, dict[str, Any]] = {}
    for p in packages:
        known.update(catalogue(p))
    for key, value in (options or {}).items():
        if key not in known:
            names = ", ".join(sorted(known))
            raise InputError(
                f"opção desconhecida '{key}'; esperado uma de: {names}", f"options.{key}",
                message_en=f"unknown option '{key}'; expected one of: {names}")
        variants = known[key]["variants"]
        if value not in variants:
            allowed = ", ".join(variants)
            raise InputError(
                f"interpretação desconhecida '{value}'; esperado um de: {allowed}",
                f"options.{key}",
                message_en=f"unknown interpretation '{value}'; expected one of: {allowed}")


def report_unused_options(d: Decision, options: Mapping[str, Any],
                          told: set[str] | frozenset[str] = frozenset()) -> Decision:
    """``d`` with an ``option_not_applicable`` (info) finding, its ``subject`` the family, for
    each option the caller chose whose family the decision never relied on — a choice is
    reported, never silently dropped (``told``: families already reported otherwise, e.g.
    refused by the norm)."""
    used = {i.family for i in d.interpretations}
    extra = tuple(
        Finding("option_not_applicable", Msg(
            f"Opção {family}={value} não aplicada: esta decisão não depende dessa leitura "
            "(a regra aplicável não a usa).",
            f"Option {family}={value} not applied: this decision does not rest on that "
            "reading (the applicable rule does not use it)."), None, "info", family)
        for family, value in options.items() if family not in used | told)
    return replace(d, findings=d.findings + extra) if extra else d

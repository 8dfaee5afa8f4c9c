"""The quota regimes as data (``data/regimes.yaml``), typed, and the choice of the regime in
force on a date. No figure lives here; only the shape of the tables."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from abordo.law.decision import Citation, Msg
from abordo.law.norms import norm_registry
from abordo.law.params import in_window, load_data, source_of


@dataclass(frozen=True)
class Step:
    """From ``from_day`` days of operation, ``fraction`` of Brazilians (``provision``).
    ``more_than``: the norm says "more than ``from_day`` days" (RN 71/2006: reached on the
    same date, start + ``from_day``, told in the norm's words)."""

    from_day: int
    fraction: Fraction
    provision: str
    more_than: bool = False


@dataclass(frozen=True)
class Rule:
    """One inciso / item: the activities it covers, its groups, rounding and steps."""

    activities: tuple[str, ...] | None  # None = every activity
    provision: str
    restated_provision: str | None
    groups: str  # crew | all | department_by_level
    levels: int
    rest: bool
    rounding: str
    steps: tuple[Step, ...]
    source: Msg
    confirmed: bool
    step_norm: str | None = None
    items: dict[str, str] | None = None
    added: tuple[str, ...] = ()  # activities no earlier norm of the family gave a quota

    def covers(self, activity: str) -> bool:
        return self.activities is None or activity in self.activities


@dataclass(frozen=True)
class Ref:
    norm: str
    provision: str


@dataclass(frozen=True)
class Regime:
    """A norm version as it sets quotas; ``modelled`` False marks a known, unmodelled window."""

    id: str
    family: str
    norm: str
    version: str
    valid_from: dt.date
    valid_to: dt.date | None
    modelled: bool
    restated_in: str | None
    contracts: tuple[str, ...] | None
    contract_provision: Ref | None
    tolerance_days: int | None
    tolerance_provision: str | None
    extensions: Ref | None
    positions: tuple[str, ...]
    positions_provision: str | None
    rules: tuple[Rule, ...]

    def rule_for(self, activity: str) -> Rule | None:
        return next((r for r in self.rules if r.covers(activity)), None)


def _ref(d: dict[str, Any] | None) -> Ref | None:
    return Ref(d["norm"], d["provision"]) if d else None


def _rule(d: dict[str, Any]) -> Rule:
    acts = d["activities"]
    return Rule(
        activities=None if acts == "all" else tuple(acts),
        provision=d["provision"], restated_provision=d.get("restated_provision"),
        groups=d["groups"], levels=int(d.get("levels", 2)), rest=bool(d.get("rest", False)),
        rounding=d["rounding"],
        steps=tuple(Step(int(s["from_day"]), Fraction(s["fraction"]), s["provision"],
                         bool(s.get("more_than", False))) for s in d["steps"]),
        source=source_of(d), confirmed=bool(d["confirmed"]),
        step_norm=d.get("step_norm"), items=d.get("items"),
        added=tuple(d.get("added", ())),
    )


def _regime(family: str, d: dict[str, Any]) -> Regime:
    pos = d.get("positions") or {}
    return Regime(
        id=d["id"], family=family, norm=d["norm"], version=d.get("version", d["norm"]),
        valid_from=d["valid_from"], valid_to=d.get("valid_to"),
        modelled=bool(d.get("modelled", True)), restated_in=d.get("restated_in"),
        contracts=tuple(d["contracts"]) if d.get("contracts") else None,
        contract_provision=_ref(d.get("contract_provision")),
        tolerance_days=d.get("tolerance_days"), tolerance_provision=d.get("tolerance_provision"),
        extensions=_ref(d.get("extensions")),
        positions=tuple(pos.get("items", ())), positions_provision=pos.get("provision"),
        rules=tuple(_rule(r) for r in d.get("rules", ())),
    )


@dataclass(frozen=True)
class RegimeTables:
    families: dict[str, tuple[Regime, ...]]
    exempt_activities: tuple[str, ...]
    exempt_provision: Ref
    consequence_clt: Ref
    consequence_procedure: Ref
    ementa: str
    notes: dict[str, tuple[dict[str, Any], ...]] = dataclasses.field(default_factory=dict)

    def note_on(self, family: str, on: dt.date) -> dict[str, Any] | None:
        """An explanation for a date no modelled regime of ``family`` answers, if any."""
        return next((n for n in self.notes.get(family, ())
                     if in_window(on, n["valid_from"], n["valid_to"])), None)

    def first_quota(self, family: str, activity: str) -> tuple[Regime, Rule] | None:
        """The regime and rule of ``family`` that first gave ``activity`` a quota, when the
        tables say no earlier norm did (a rule's ``added``)."""
        return next(((r, rule) for r in self.families[family] for rule in r.rules
                     if activity in rule.added), None)

    def in_force(self, family: str, on: dt.date) -> Regime | None:
        return next((r for r in self.families[family]
                     if in_window(on, r.valid_from, r.valid_to)), None)


def exemption_uncited(on: dt.date) -> bool:
    """Whether no modelled norm in force on ``on`` can be cited for the long-haul /
    international inland exemption (regime G): neither the instruction that states it
    (``exempt_provision``, IN SIT 70/2007 art. 13, IV) nor a modelled foreign-vessel quota
    norm whose scope leaves it out. The result then rests on an unconfirmed basis."""
    tables = regime_tables()
    scope = tables.in_force("foreign_general", on)
    if scope is not None and scope.modelled:
        return False
    return not norm_registry()[tables.exempt_provision.norm].in_force_on(on)


@cache
def regime_tables() -> RegimeTables:
    """The regimes loaded from ``data/regimes.yaml`` (read once)."""
    data = load_data("abordo.quota", "data/regimes.yaml")
    fams = {name: tuple(_regime(name, r) for r in regs)
            for name, regs in data["families"].items()}
    ex = data["exempt_activities"]
    cons = data["consequence"]
    notes = {fam: tuple(items) for fam, items in data.get("not_covered_notes", {}).items()}
    return RegimeTables(fams, tuple(ex["activities"]), Ref(**ex["provision"]),
                        Ref(**cons["clt"]), Ref(**cons["procedure"]), str(cons["ementa"]),
                        notes)


def extension_basis(regime: Regime) -> str:
    """The norm version whose window says whether ``regime``'s extensions have a basis in
    force: the regime's own version when they are its provision (Res. 42/2020 art. 4º sole
    paragraph), else the restating norm (IN SIT 70/2007 art. 13, VI for RN 72, 71, 59)."""
    assert regime.extensions is not None
    ext = regime.extensions.norm
    return regime.version if ext == regime.norm else ext


def step_citation(on: dt.date, regime: Regime, rule: Rule, step: Step) -> Citation:
    """A step's provision on ``on``: the item of the restating norm (IN SIT 70/2007 for RN 72
    and RN 59) while it is in force, else the rule's own provision; the regime's own text
    otherwise. One answer for the engine and the fleet screening."""
    reg = norm_registry()
    if rule.step_norm is None:
        return reg.cite(regime.norm, step.provision, regime.version)
    if reg[rule.step_norm].in_force_on(on):
        return reg.cite(rule.step_norm, step.provision)
    return reg.cite(regime.norm, rule.provision, regime.version)


def family_for(flag: str, registry: str | None, activity: str) -> str:
    """Which family of regimes governs a vessel (crew-quota.md, regimes A–F)."""
    if flag == "BR":
        return "reb" if registry == "REB" else "brazilian_flag"
    if activity == "cruise":
        return "cruise"
    if activity == "fishing":
        return "fishing"
    return "foreign_general"


def boundary_norms(regime: Regime, with_successor: bool) -> list[str]:
    """The norms whose window ends a step's date may rest on: the regime's own and, for the
    next step (which may fall after the regime ends), the norm that replaces it."""
    succ = norm_registry()[regime.version].replaced_by
    return [regime.version, *([succ] if with_successor and succ else [])]

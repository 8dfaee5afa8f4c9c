"""Groups, rounding and the per-group requirement (crew-quota.md, "Rounding" and regimes).

All arithmetic is in exact rationals (:class:`fractions.Fraction`): 1/3 of 9 is exactly 3.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from abordo.crew.ranks import CrewMember
from abordo.law.errors import InputError


def at_least_fraction(fraction: Fraction, base: int) -> int:
    """``ceil(fraction × base)``: the Brazilians must be at least the fraction of the base."""
    return math.ceil(fraction * base)


def half_up(fraction: Fraction, base: int) -> int:
    """``floor(fraction × base + 1/2)``: next integer only at a fraction of 0.5 or more
    (RN 06/2017 art. 4º, III as amended by Res. 42/2020; IN SIT 70/2007 art. 13, VI, c, 3)."""
    return math.floor(fraction * base + Fraction(1, 2))


ROUNDING: dict[str, Callable[[Fraction, int], int]] = {
    "at_least_fraction": at_least_fraction,
    "half_up": half_up,
}

GROUP_LABELS: dict[str, tuple[str, str]] = {
    "crew": ("tripulação", "crew"),
    "all": ("todos a bordo", "everyone aboard"),
    "rest": ("demais profissionais", "other professionals"),
    "deck": ("seção de convés", "deck department"),
    "engine": ("seção de máquinas", "engine department"),
    "officer": ("oficiais", "officers"),
    "rating": ("subalternos", "ratings"),
    "petty_officer": ("graduados", "petty officers"),
    "junior_rating": ("não-graduados", "junior ratings"),
    "deck.officer": ("oficiais de convés", "deck officers"),
    "deck.rating": ("subalternos de convés", "deck ratings"),
    "deck.petty_officer": ("graduados de convés", "deck petty officers"),
    "deck.junior_rating": ("não-graduados de convés", "deck junior ratings"),
    "engine.officer": ("oficiais de máquinas", "engine officers"),
    "engine.rating": ("subalternos de máquinas", "engine ratings"),
    "engine.petty_officer": ("graduados de máquinas", "engine petty officers"),
    "engine.junior_rating": ("não-graduados de máquinas", "engine junior ratings"),
}


def group_label(group: str, lang: str = "pt") -> str:
    pt, en = GROUP_LABELS.get(group, (group, group))
    return en if lang == "en" else pt


def level_of(member: CrewMember, levels: int) -> str:
    """``officer`` / ``rating`` (2 levels) or ``officer`` / ``petty_officer`` /
    ``junior_rating`` (3 levels, RN 72/2006 "oficiais, graduados e não-graduados")."""
    lvl = member.level or ""
    if levels == 2:
        return "officer" if lvl == "officer" else "rating"
    return lvl


def group_ids(groups: str, levels: int, rest: bool, reading: str) -> list[str]:
    """The ordered group ids a rule creates under a group reading."""
    if groups in ("crew", "all"):
        return [groups]
    lv = ["officer", "rating"] if levels == 2 else ["officer", "petty_officer", "junior_rating"]
    if reading == "department_by_level":
        ids = [f"{d}.{level}" for d in ("deck", "engine") for level in lv]
    else:
        ids = ["deck", "engine", *lv]
    return [*ids, "rest"] if rest else ids


def assign(members: list[CrewMember], groups: str, levels: int, rest: bool,
           reading: str) -> dict[str, list[CrewMember]]:
    """Members per group. Raises :class:`InputError` (via ``require``) for a person whose
    department or level is needed and unknown."""
    out: dict[str, list[CrewMember]] = {g: [] for g in group_ids(groups, levels, rest, reading)}
    problems: list[InputError] = []
    for m in members:
        if groups == "all":
            out["all"].append(m)
            continue
        if groups == "crew":
            if m.is_crew:
                out["crew"].append(m)
            continue
        try:
            m.require(level=True, split_ratings=levels == 3,
                      why=(" — exigido para formar os grupos por seção e nível",
                           " — needed to form the groups by department and level"))
        except InputError as exc:  # report every person whose group is unknown at once
            problems.append(exc)
            continue
        dept = m.department
        if dept not in ("deck", "engine"):
            if rest:
                out["rest"].append(m)
            continue
        lvl = level_of(m, levels)
        if reading == "department_by_level":
            out[f"{dept}.{lvl}"].append(m)
        else:
            out[str(dept)].append(m)
            out[lvl].append(m)
    if problems:
        raise InputError.listing(problems)
    return out


@dataclass(frozen=True)
class GroupResult:
    """Requirement of one group: base, required, Brazilians aboard, deficit."""

    group: str
    base: int
    required: int
    brazilians: int
    fraction: Fraction
    exact: Fraction  # fraction × base before rounding

    @property
    def deficit(self) -> int:
        return max(0, self.required - self.brazilians)

    @property
    def empty(self) -> bool:
        return self.base == 0


def evaluate_groups(assigned: dict[str, list[CrewMember]], fraction: Fraction,
                    rounding: str) -> list[GroupResult]:
    fn = ROUNDING[rounding]
    results = []
    for gid, ms in assigned.items():
        base = len(ms)
        results.append(GroupResult(gid, base, fn(fraction, base),
                                   sum(1 for m in ms if m.is_brazilian), fraction,
                                   fraction * base))
    return results

"""Rank table (data) and resolution of each person's department, level and position.

An explicit ``department`` / ``level`` / ``position`` in the row wins over the table. A rank
the table does not know is an error only when a regime needs that person's group
(:meth:`CrewMember.require`), and the error names the file/row and field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from abordo.crew.model import CrewInput, VesselCase
from abordo.law.errors import DUPLICATE_ID, InputError
from abordo.law.params import load_data
from abordo.law.text import fold


def normalize_rank(text: str) -> str:
    """Case-, accent- and punctuation-insensitive key: ``'1º Oficial'``, ``'1ºOficial'``,
    ``'1° Oficial'`` (a degree sign typed for the ordinal), ``'1o Oficial'`` and
    ``'1.o Oficial'`` → ``'1 oficial'``."""
    # The ordinal indicators go before folding, which would turn º into an o.
    t = fold(re.sub(r"[º°ª]", " ", text))
    t = re.sub(r"\b(\d+)\s*\.?\s*[oa]\b", r"\1 ", t)  # 1o, 1.o, 2a: typed with a letter
    t = re.sub(r"[^a-z0-9/]+", " ", t)
    return re.sub(r"\s+", " ", t).strip()


@dataclass(frozen=True)
class RankEntry:
    code: str
    department: str
    level: str
    position: str | None


class RankTable:
    """Lookup of a rank or Brazilian category (any alias) → :class:`RankEntry`."""

    def __init__(self, entries: list[dict[str, object]], source: str) -> None:
        self.source = source
        self._by_alias: dict[str, RankEntry] = {}
        self.entries: list[RankEntry] = []
        for e in entries:
            position = e.get("position")
            entry = RankEntry(str(e["code"]), str(e["department"]), str(e["level"]),
                              str(position) if position else None)
            self.entries.append(entry)
            aliases = [str(a) for a in e.get("aliases", [])]  # type: ignore[attr-defined]
            for alias in [entry.code, *aliases]:
                key = normalize_rank(alias)
                if key in self._by_alias and self._by_alias[key] != entry:
                    raise ValueError(f"rank alias '{alias}' maps to two entries")
                self._by_alias[key] = entry

    def lookup(self, rank: str | None) -> RankEntry | None:
        if not rank:
            return None
        return self._by_alias.get(normalize_rank(rank))


@cache
def rank_table() -> RankTable:
    data = load_data("abordo.crew", "data/ranks.yaml")
    return RankTable(data["ranks"], data["source"])


@dataclass(frozen=True)
class CrewMember:
    """A person aboard, resolved: nationalities, department, level, position, and origin."""

    id: str
    rank: str | None
    nationalities: tuple[str, ...]
    department: str | None
    level: str | None
    position: str | None
    file: str | None
    row: int | None
    path: str
    source: CrewInput

    @property
    def is_brazilian(self) -> bool:
        """Nationality BR, alone or with another (crew-quota.md: dual nationals count)."""
        return "BR" in self.nationalities

    @property
    def is_crew(self) -> bool:
        """Non-crew professionals (Res. 42/2020 art. 2, II) are aboard but not crew."""
        return self.department != "non_crew_professional"

    def require(self, *, level: bool, split_ratings: bool = False,
                why: tuple[str, str] = ("", "")) -> None:
        """Raise :class:`InputError` naming this row when its group cannot be determined."""
        # A crew-file row (no path) is told of the column to fill; an inline person
        # (``crew[3]``, YAML or the API's JSON) has fields, not columns.
        col_pt, col_en = ("a coluna ", " column") if not self.path else ("", "")
        if self.department is None:
            what_pt = f"função '{self.rank}' desconhecida" if self.rank else "função ausente"
            what_en = f"unknown rank '{self.rank}'" if self.rank else "missing rank"
            raise InputError(
                f"{what_pt} para {self.id}: informe {col_pt}department (seção){why[0]}",
                _field(self.path, "rank"), self.file, self.row,
                message_en=f"{what_en} for {self.id}: give the department{col_en}{why[1]}",
                plain=(f"função {'desconhecida' if self.rank else 'ausente'}: informe "
                       f"{col_pt}department (seção){why[0]}",
                       f"{'unknown' if self.rank else 'missing'} rank: give the department"
                       f"{col_en}{why[1]}"),
            )
        if not level or self.department not in ("deck", "engine"):
            return
        if self.level is None or (split_ratings and self.level == "rating"):
            needed = "officer, petty_officer ou junior_rating" if split_ratings else \
                "officer ou rating"
            needed_en = needed.replace(" ou ", " or ")
            raise InputError(
                f"nível de {self.id} ('{self.rank or ''}') indeterminado: informe {col_pt}"
                f"level ({needed}){why[0]}",
                _field(self.path, "level"), self.file, self.row,
                message_en=f"level of {self.id} ('{self.rank or ''}') unknown: give the level"
                f"{col_en} ({needed_en}){why[1]}",
                plain=(f"nível indeterminado: informe {col_pt}level ({needed}){why[0]}",
                       f"level unknown: give the level{col_en} ({needed_en}){why[1]}"),
            )


def _field(path: str, name: str) -> str:
    """``crew[3].rank`` for inline crew, the column name (``rank``) for a crew-file row."""
    return f"{path}.{name}" if path else name


def effective_level(given: str | None, department: str | None, entry: RankEntry | None
                    ) -> str | None:
    """The person's level: the one given wins over the rank's — except that ``rating``, given
    for a rank the table places as a petty officer or junior rating of the same department,
    says no more than the rank and takes its finer level (the groups of RN 72 cabotage split
    ratings)."""
    if given is None:
        return entry.level if entry else None
    if given == "rating" and entry is not None and entry.department == department \
            and entry.level in ("petty_officer", "junior_rating"):
        return entry.level
    return given


def resolve_member(person: CrewInput, path: str, file: str | None, row: int | None,
                   table: RankTable | None = None) -> CrewMember:
    entry = (table or rank_table()).lookup(person.rank)
    department = person.department or (entry.department if entry else None)
    level = effective_level(person.level, department, entry)
    # The position comes from the rank when the rank names it, or from the position column
    # (crew-quota.md, Inputs) — an explicit department changes the person's group, not that.
    position = person.position or (entry.position if entry else None)
    return CrewMember(person.id, person.rank, tuple(person.nationality), department, level,
                      position, file, row, path, person)


def resolve_crew(case: VesselCase) -> list[CrewMember]:
    """Resolve every person of ``case``; duplicate ids are an :class:`InputError`."""
    members: list[CrewMember] = []
    seen: dict[str, CrewMember] = {}
    origins = case.crew_origin
    for i, person in enumerate(case.crew_list):
        file, row, path = origins[i] if i < len(origins) else (None, None, f"crew[{i}]")
        member = resolve_member(person, path, file, row)
        if person.id in seen:
            raise InputError(f"id repetido: {person.id}", _field(path, "id"), file, row,
                             message_en=f"duplicate id: {person.id}", plain=DUPLICATE_ID)
        seen[person.id] = member
        members.append(member)
    return members

"""Annex I catalogue (``data/catalogue.yaml``), Annex II matrix (``data/gradation.yaml``) and
the later updates of the amounts, not modelled (``data/amount_updates.yaml``).

All are data, validated when loaded; figures are ``Decimal`` BRL. Source: Portaria MTE nº
746/2000 (DOU 05/10/2000), Annexes I and II, and Lei nº 9.719/1998 arts. 10 and 11; the updates
from shared spec norms.md.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from abordo.law.params import in_window, load_data

PACKAGE = "abordo.port_fines"
CENT = Decimal("0.01")


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CitationRef(_Data):
    """A provision of a registered norm: ``norm_registry().cite(norm, provision)``."""

    norm: str
    provision: str


class Provision(_Data):
    """One Annex I entry. ``minimum``/``maximum`` in BRL (per worker when ``per_worker``).

    ``nature`` is None where the catalogue does not know it (the seed lost the column).
    """

    id: str
    law: str
    # The "dispositivo legal" (article, paragraph, inciso) when several entries share it:
    # art. 9 of Lei 9.719 is one provision with two fine ranges (health, safety).
    legal_provision: str | None = None
    via: str | None = None
    article: str
    description: str
    min: Decimal
    max: Decimal
    nature: Literal[1, 2, 3, "unknown"]
    per_worker: bool
    fine_basis: str
    valid_from: dt.date
    valid_to: dt.date | None
    successor: CitationRef | None
    source: str
    confirmed: bool
    citation: CitationRef

    @field_validator("min", "max")
    @classmethod
    def _cents(cls, value: Decimal) -> Decimal:
        if value != value.quantize(CENT) or value <= 0:
            raise ValueError("amount must be positive with at most two decimal places")
        return value.quantize(CENT)

    @model_validator(mode="after")
    def _ten_times(self) -> Provision:
        # Lei 9.719 art. 10: in every range the maximum is ten times the minimum.
        if self.max != self.min * 10:
            raise ValueError(f"{self.id}: max must be 10 × min")
        return self

    @property
    def dispositivo(self) -> str:
        """The legal provision this entry fines (its own id unless it shares one)."""
        return self.legal_provision or self.id

    @property
    def known_nature(self) -> int | None:
        """The nature recorded in Annex I, or None while it is unknown."""
        return None if self.nature == "unknown" else int(self.nature)

    def in_force_on(self, on: dt.date) -> bool:
        return in_window(on, self.valid_from, self.valid_to)


class Catalogue:
    """The Annex I provisions by id, in the order of the Annex."""

    def __init__(self, provisions: list[Provision]) -> None:
        self._by_id: dict[str, Provision] = {}
        for p in provisions:
            if p.id in self._by_id:
                raise ValueError(f"duplicate catalogue id {p.id}")
            self._by_id[p.id] = p

    def __iter__(self) -> Iterator[Provision]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, provision_id: object) -> bool:
        return provision_id in self._by_id

    def get(self, provision_id: str) -> Provision | None:
        return self._by_id.get(provision_id)

    @property
    def ids(self) -> list[str]:
        return list(self._by_id)


@cache
def load_catalogue() -> Catalogue:
    """The shipped Annex I catalogue (read and validated once per process)."""
    rows: list[dict[str, Any]] = load_data(PACKAGE, "data/catalogue.yaml")
    return Catalogue([Provision.model_validate(r) for r in rows])


def gradation_versions() -> list[dict[str, Any]]:
    """Dated Annex II entries for :func:`abordo.law.params.dated_value`."""
    data: dict[str, Any] = load_data(PACKAGE, "data/gradation.yaml")
    versions: list[dict[str, Any]] = data["versions"]
    return versions


def amount_updates() -> list[dict[str, Any]]:
    """The later acts that updated the Lei 9.719/1998 amounts (``data/amount_updates.yaml``,
    from norms.md), in time order: ``act``, ``valid_from``, ``confirmed``. Not modelled."""
    data: dict[str, Any] = load_data(PACKAGE, "data/amount_updates.yaml")
    updates: list[dict[str, Any]] = data["updates"]
    return sorted(updates, key=lambda u: u["valid_from"])

"""Input of the port-fines engine (pydantic v2, unknown fields rejected).

Shape (shared spec ``port-fines.md``, "Input")::

    infraction:
      provision: lei-9719/art-8        # catalogue id (data/catalogue.yaml)
      date: 2005-06-10                 # date of the infraction: selects the norm in force
      nature: 3                        # 1 | 2 | 3; required while the catalogue says unknown
      extent: severe                   # light | medium | severe (leve | média | grave accepted)
      intent: false
      workers: 12                      # 1 … 1 000 000; required for per-worker provisions
      sanable: true                    # required when corrected is true
      corrected: false                 # the defence proved the correction (Portaria art. 4)
      obstruction: false               # oposição à fiscalização (art. 3, V)
      contempt: false                  # desacato (art. 3, VI)
      facts: {extent: "…", intent: "…"}   # optional free text for the art. 6 justification
    offender:
      prior_penalties:                 # to derive recidivism (art. 3, IV)
        - {provision: lei-9719/art-8, imposed_on: 2004-03-01}
    grading:                           # optional: the authority's choice below the ceiling
      chosen_value: "2500.00"          # BRL, per worker on per-worker provisions
      reason: "…"                      # required with chosen_value (recorded; art. 6)
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator

from abordo.law.validation import Date, PlainTextInput, YesNo, user_decimal
from abordo.law.values import ValueTable, value_table

Extent = Literal["light", "medium", "severe"]
MAX_WORKERS = 1_000_000



def _values() -> ValueTable:
    """The Portuguese words and the Annex II legend codes a user may type for the extent
    axis (``port_fines/data/values.yaml``)."""
    return value_table("abordo.port_fines")


class _Model(PlainTextInput):  # no hidden character in a text field
    model_config = ConfigDict(extra="forbid", frozen=True)


class Facts(_Model):
    """Facts the authority gives for each axis of the grading (Portaria art. 6)."""

    extent: str | None = None
    intent: str | None = None


class Infraction(_Model):
    """The infraction to grade. ``workers`` counts workers in irregular situation."""

    provision: str
    date: Date
    nature: Literal[1, 2, 3] | None = None
    extent: Extent
    intent: YesNo
    # The upper bound only keeps totals within exact Decimal arithmetic (28 digits).
    workers: int | None = Field(default=None, ge=1, le=MAX_WORKERS)
    sanable: YesNo | None = None
    corrected: YesNo = False
    obstruction: YesNo = False
    contempt: YesNo = False
    facts: Facts | None = None

    @field_validator("extent", mode="before")
    @classmethod
    def _extent_alias(cls, value: Any) -> Any:
        # The code or its Portuguese name; a refusal lists both (as the vessel's activity).
        return _values().coerce("extent")(value)

    @field_validator("nature", mode="before")
    @classmethod
    def _nature_digits(cls, value: Any) -> Any:
        if isinstance(value, bool):  # true/false must not pass as 1/0
            raise ValueError("natureza deve ser 1, 2 ou 3 (recebido um valor lógico)")
        if isinstance(value, str) and value.strip().isdigit():
            return int(value.strip())
        return value

    @field_validator("workers", mode="before")
    @classmethod
    def _workers_not_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("número de trabalhadores esperado (recebido um valor lógico)")
        return value


class PriorPenalty(_Model):
    """A penalty already imposed on the offender: provision breached and date imposed."""

    provision: str
    imposed_on: Date


class Offender(_Model):
    prior_penalties: list[PriorPenalty] = Field(default_factory=list)


class Grading(_Model):
    """The authority's choice of a value below the cell's ceiling, with its reason."""

    chosen_value: Decimal | None = None
    reason: str | None = None

    @field_validator("chosen_value", mode="before")
    @classmethod
    def _br_amount(cls, v: Any) -> Any:
        # "2.000,00", "R$ 2.000,00" (BRL written the Brazilian way) as well as "2000.00";
        # bounded before anything shows it, "2,500" refused as ambiguous (the command line's
        # --chosen-value is read here too).
        return user_decimal(v, money=True)


class FineInput(_Model):
    """One infraction to grade under Portaria MTE 746/2000."""

    infraction: Infraction
    offender: Offender = Field(default_factory=Offender)
    grading: Grading = Field(default_factory=Grading)

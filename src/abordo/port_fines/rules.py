"""The rules of Portaria MTE nº 746/2000 as small functions, each naming its provision.

Amounts are ``Decimal`` BRL; nothing here formats text or reads files.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from abordo.law.calendar import add_years
from abordo.port_fines.catalogue import CENT, Provision
from abordo.port_fines.model import PriorPenalty

# Art. 2 lists the doubling causes in this order; outputs keep it.
DOUBLING_CAUSES = ("recidivism", "obstruction", "contempt")

RECIDIVISM_YEARS = 2  # art. 3, IV: "antes de decorridos 2 (dois) anos da imposição"


def money(value: Decimal) -> Decimal:
    """BRL to the centavo (cross-cutting rule 6: exact decimals, never floats)."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def cell_code(extent: str, intent: bool, legend: Mapping[str, Mapping[str, str]]) -> str:
    """Annex II cell code such as ``Em+Ic``: extent (art. 3, II) + intent (art. 3, III)."""
    return f"{legend['extent'][extent]}+{legend['intent']['with' if intent else 'without']}"


@dataclass(frozen=True)
class Cell:
    """An Annex II cell applied to a provision.

    ``marker`` is ``min`` ("Multa mínima"), ``max`` ("Multa máxima") or ``k`` ("Até k vezes o
    valor da multa mínima"); ``multiple`` is ceiling / minimum; ``low``..``ceiling`` the range
    of values the authority may fix (BRL, per worker on per-worker provisions).
    """

    code: str
    marker: str
    multiple: int
    low: Decimal
    ceiling: Decimal


def annex_ii_cell(cells: Mapping[Any, Mapping[str, Any]], nature: int, code: str,
                  provision: Provision, *, max_cell_fixed: bool = False) -> Cell:
    """Portaria 746/2000 art. 2 and Annex II: the cell's ceiling as a multiple of the minimum.

    ``max_cell_fixed`` (interpretation ``fines.max_cell.fixed``) makes the "Multa máxima"
    cell a single value instead of the range [min, max].
    """
    raw = cells[nature][code]
    if raw == "min":
        return Cell(code, "min", 1, provision.min, provision.min)
    if raw == "max":
        multiple = int(provision.max / provision.min)
        low = provision.max if max_cell_fixed else provision.min
        return Cell(code, "max", multiple, low, provision.max)
    k = int(raw)
    return Cell(code, "k", k, provision.min, money(provision.min * k))


def recidivism_window_end(imposed_on: dt.date) -> dt.date:
    """Last day of the recidivism window: same day and month two years later, included.

    Portaria art. 3, IV; years to the same day and month, and 29 February → 1 March (Lei
    810/1949 arts. 1 and 3); the last day counts (Código Civil art. 132).
    """
    try:
        return add_years(imposed_on, RECIDIVISM_YEARS)
    except ValueError:  # beyond year 9999: the window outlasts every representable date
        return dt.date.max


@dataclass(frozen=True)
class PriorCheck:
    """A prior penalty on the same provision and whether it makes the new infraction a
    recidivism. ``status``: ``recidivism`` | ``expired`` (window over) | ``not_prior``
    (imposed on or after the new infraction's date)."""

    prior: PriorPenalty
    window_end: dt.date
    status: str

    @property
    def counts(self) -> bool:
        return self.status == "recidivism"


def check_prior(prior: PriorPenalty, infraction_date: dt.date) -> PriorCheck:
    """Portaria art. 3, IV: an infraction to the same provision after the penalty was imposed
    and before two years have passed (last day included)."""
    end = recidivism_window_end(prior.imposed_on)
    if infraction_date <= prior.imposed_on:
        # A penalty imposed on the day of the new infraction or later is not "prior" to it;
        # the two years run from the day after the imposition (CC art. 132).
        return PriorCheck(prior, end, "not_prior")
    if infraction_date <= end:
        return PriorCheck(prior, end, "recidivism")
    return PriorCheck(prior, end, "expired")


def recidivism(priors: Iterable[PriorPenalty], same: Collection[str], infraction_date: dt.date
               ) -> tuple[PriorCheck | None, list[PriorCheck]]:
    """The prior penalty that makes the infraction a recidivism (the most recently imposed
    of those in the window), and every check on the same provision, for the trace.
    ``same``: the catalogue ids that are the infraction's "mesmo dispositivo legal";
    penalties on other provisions are not recidivism."""
    checks = [check_prior(p, infraction_date) for p in priors if p.provision in same]
    counting = [c for c in checks if c.counts]
    chosen = max(counting, key=lambda c: c.prior.imposed_on) if counting else None
    return chosen, checks


def doubling_causes(recidivist: bool, obstruction: bool, contempt: bool) -> list[str]:
    """Portaria art. 2 (defined in art. 3, IV–VI): the causes present, in the article's order."""
    present = {"recidivism": recidivist, "obstruction": obstruction, "contempt": contempt}
    return [c for c in DOUBLING_CAUSES if present[c]]


def per_worker_total(value: Decimal, per_worker: bool, workers: int | None
                     ) -> tuple[int, Decimal]:
    """Lei 9.719 art. 10, III and art. 11: ``value`` per worker in irregular situation.

    Returns ``(multiplier, total)``; provisions fined per infraction (art. 10, I and II)
    have multiplier 1 whatever the number of workers.
    """
    multiplier = (workers or 0) if per_worker else 1
    return multiplier, money(value * multiplier)

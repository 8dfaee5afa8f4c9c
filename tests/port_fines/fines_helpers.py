"""Shared builders for the port-fines tests (a plainly named module, not a conftest, so it
cannot clash with other test folders)."""

from __future__ import annotations

import datetime as dt
from typing import Any


def make_input(**infraction: Any) -> dict[str, Any]:
    """A valid input for lei-9719/art-8 (per worker, R$ 345,00–3.450,00), overridable."""
    base: dict[str, Any] = {
        "provision": "lei-9719/art-8",
        "date": dt.date(2005, 6, 10),
        "nature": 3,
        "extent": "severe",
        "intent": False,
        "workers": 12,
    }
    priors = infraction.pop("priors", None)
    grading = infraction.pop("grading", None)
    base.update(infraction)
    base = {k: v for k, v in base.items() if v is not None}
    data: dict[str, Any] = {"infraction": base}
    if priors is not None:
        data["offender"] = {"prior_penalties": priors}
    if grading is not None:
        data["grading"] = grading
    return data

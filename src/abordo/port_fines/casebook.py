"""Worked-case adapter: ``run()`` answers in the cases' ``port_fine`` vocabulary
(``tests/cases/README.md``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from abordo.port_fines.engine import grade

# Keys of Decision.result that the vocabulary (and its natural extensions) uses.
RESULT_KEYS = (
    "provision", "nature", "cell", "range", "ceiling", "per_worker", "workers", "doubled",
    "doubling_causes", "recidivism_from", "minimum_applied", "per_worker_value", "amount",
    "chosen_value", "norm_in_force",
)


def run(input: dict[str, Any], on: dt.date | None, options: dict[str, Any],
        base_dir: Path) -> dict[str, Any]:
    """Grade the case's input. The infraction's own date selects the norm (tempus regit
    actum); ``on``, when the case gives it, is the date judged: no infraction or prior penalty
    may come after it. ``base_dir`` is not used (no side files). InputError propagates."""
    del base_dir
    decision = grade(input, options, judged_on=on)
    out: dict[str, Any] = {
        "verdict": decision.verdict.value,
        "regime": decision.regime,
        "interpretations": [i.id for i in decision.interpretations],
        "unconfirmed": bool(decision.unconfirmed),
    }
    for key in RESULT_KEYS:
        if key in decision.result:
            out[key] = decision.result[key]
    if decision.not_covered_reason is not None:
        out["not_covered_reason"] = decision.not_covered_reason.en
    return out

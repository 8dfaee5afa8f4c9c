"""Worked-case adapter: an immigration case → the cases' vocabulary (tests/cases/README.md):
``verdict``, ``regime``, ``persons: [{id, requirement, verdict, deadline}]``,
``interpretations``, ``unconfirmed``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from abordo.crew.load import parse_vessel_case
from abordo.immigration.engine import evaluate


def run(data: dict[str, Any], on: dt.date | None, options: dict[str, Any], base_dir: Path
        ) -> dict[str, Any]:
    """Run one case; raises :class:`~abordo.law.errors.InputError` on bad input and
    ``ValueError`` when the case has no date."""
    if on is None:
        raise ValueError("an immigration case needs `on`")
    # no source: an error in the case's own input names no file (the case runner places it
    # in the case file, at its line); one in a crew file names that file
    case = parse_vessel_case(data, base_dir)
    d = evaluate(case, on, options)
    return {
        "verdict": d.verdict.value,
        "regime": d.regime,
        "persons": [{"id": p["id"], "requirement": p["requirement"], "verdict": p["verdict"],
                     "deadline": p["deadline"]} for p in d.result.get("persons", [])],
        "findings": [f.id for f in d.violations],
        "interpretations": [i.id for i in d.interpretations],
        "unconfirmed": bool(d.unconfirmed),
    }

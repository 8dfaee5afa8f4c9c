"""Worked-case adapter: a crew_quota case → the cases' vocabulary (tests/cases/README.md).

In that vocabulary a group's shortfall is told by ``groups`` (base, required, brazilians);
``findings`` lists the other violations (master / chief engineer not Brazilian, long-haul
without foreign calls), so the per-group ``quota_deficit`` findings are not repeated there.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from abordo.crew.load import parse_vessel_case
from abordo.quota.engine import evaluate


def run(data: dict[str, Any], on: dt.date | None, options: dict[str, Any], base_dir: Path
        ) -> dict[str, Any]:
    if on is None:
        raise ValueError("a crew_quota case needs `on`")
    # no source: an error in the case's own input names no file (the case runner places it
    # in the case file, at its line); one in a crew file names that file
    case = parse_vessel_case(data, base_dir)
    d = evaluate(case, on, options)
    r = d.result
    step = r.get("step")
    nxt = r.get("next_step")
    stay = r.get("stay") or {}
    return {
        "verdict": d.verdict.value,
        "regime": d.regime,
        "days_of_operation": stay.get("days_of_operation"),
        "stay_start": stay.get("start"),
        "step": {"fraction": step["fraction"], "from_day": step["from_day"],
                 "since": step["since"]} if step else None,
        "groups": [{k: g[k] for k in ("group", "base", "required", "brazilians")}
                   for g in r.get("groups", [])],
        "findings": [f.id for f in d.violations if f.id != "quota_deficit"],
        "next_step": {"fraction": nxt["fraction"], "since": nxt["since"]} if nxt else None,
        "interpretations": [i.id for i in d.interpretations],
        "unconfirmed": bool(d.unconfirmed),
    }

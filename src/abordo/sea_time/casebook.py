"""Worked-case adapter: ``run(input, on, options, base_dir)`` → the cases' vocabulary."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from abordo.law.errors import InputError
from abordo.sea_time.engine import compute
from abordo.sea_time.io import resolve_files


def run(input: dict[str, Any], on: dt.date | None, options: dict[str, Any],
        base_dir: Path) -> dict[str, Any]:
    """Run one case: ``input`` in the engine's format (``cir_file`` etc. relative to
    ``base_dir``), ``on`` the request date. Returns ``verdict``, ``regime``,
    ``counted_days``, ``by_category``, ``breakdown``, ``excluded`` (``{from, to, reason}``),
    ``limitations``, ``years`` (float with two decimals, as the cases write it),
    ``interpretations``, ``unconfirmed``. Raises InputError for bad input or a missing date.
    """
    if on is None:
        raise InputError("o caso precisa da data do requerimento (on)", "on",
                         message_en="the case needs the request date (on)")
    data = resolve_files(input, base_dir, on=on)
    decision = compute(data, on, options)
    res = decision.result
    out: dict[str, Any] = {
        "verdict": decision.verdict.value,
        "regime": decision.regime,
        "interpretations": [i.id for i in decision.interpretations],
        "unconfirmed": bool(decision.unconfirmed),
    }
    if decision.verdict.value == "not_covered":
        return out
    out.update(
        counted_days=res["counted_days"],
        by_category=dict(res["by_category"]),
        breakdown=dict(res["breakdown"]),
        excluded=[{"from": e["from"], "to": e["to"], "reason": e["reason"]}
                  for e in res["excluded"]],
        limitations=list(res["limitations"]),
        years=float(res["years"]),
        whole_years=res["whole_years"],
        remaining_days=res["remaining_days"],
    )
    if res.get("eligibility"):
        out["eligibility"] = res["eligibility"]
    return out

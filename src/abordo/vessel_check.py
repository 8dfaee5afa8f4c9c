"""The full pre-boarding answer for one vessel: crew quota + foreign crew immigration +
document checklist, each its own engine's :class:`Decision`, bundled for the faces.

``check_vessel(case, on, options) -> VesselCheck``. Every face (CLI, API, reports, cases)
renders this one object; none recomputes a rule.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from abordo.crew.model import VesselCase
from abordo.immigration import evaluate as evaluate_immigration
from abordo.immigration.checklist import evaluate as evaluate_checklist
from abordo.law.decision import Decision, Verdict, to_jsonable
from abordo.law.interpretations import check_options
from abordo.quota import evaluate as evaluate_quota


@dataclass(frozen=True)
class VesselCheck:
    """Quota, immigration and checklist decisions for one vessel on one date."""

    case: VesselCase
    on: dt.date
    quota: Decision
    immigration: Decision | None = None
    checklist: Decision | None = None

    @property
    def decisions(self) -> list[Decision]:
        return [d for d in (self.quota, self.immigration, self.checklist) if d is not None]

    @property
    def non_compliant(self) -> bool:
        """True when any engine found a violation (quota deficit, irregular person…)."""
        return any(d.verdict == Verdict.NON_COMPLIANT for d in self.decisions)

    @property
    def exit_code(self) -> int:
        """CLI exit code (interfaces.md): 1 non-compliant, else 0."""
        return 1 if self.non_compliant else 0

    def to_json(self, lang: str = "pt") -> dict[str, Any]:
        out: dict[str, Any] = {
            "on": self.on.isoformat(),
            "vessel": to_jsonable(self.quota.result.get("vessel"), lang),
            "non_compliant": self.non_compliant,
            "quota": self.quota.to_json(lang),
        }
        if self.immigration is not None:
            out["immigration"] = self.immigration.to_json(lang)
        if self.checklist is not None:
            out["checklist"] = self.checklist.to_json(lang)
        return out


def check_vessel(case: VesselCase, on: dt.date, options: Mapping[str, Any] | None = None
                 ) -> VesselCheck:
    """Run every vessel engine on ``case`` for ``on``; raises :class:`InputError` on bad input.

    ``options`` carries interpretation choices keyed by family (``quota.groups`` …); each
    engine takes the families it knows.
    """
    opts = dict(options or {})
    # Every choice must name a family of one of these engines (no silent fallback).
    check_options(["abordo.quota", "abordo.immigration"], opts)
    quota_opts = {k: v for k, v in opts.items() if k.startswith("quota.")}
    quota = evaluate_quota(case, on, quota_opts)
    imm_opts = {k: v for k, v in opts.items() if k.startswith("immigration.")}
    immigration = evaluate_immigration(case, on, imm_opts)
    checklist = evaluate_checklist(case, on, None)
    return VesselCheck(case, on, quota, immigration, checklist)

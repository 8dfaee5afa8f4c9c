"""Small builders for sea-time inputs used by the tests (plain dicts, the spec's format)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from abordo.law.decision import Decision
from abordo.sea_time import compute

ON = dt.date(2026, 1, 15)


def D(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def seafarer(category: str = "2ON", group: str = "maritime", **kw: Any) -> dict[str, Any]:
    return {"id": "T01", "group": group, "category": category, **kw}


def rec(embark: str, disembark: str | None, function: str = "2ON", company: str = "Cia A",
        **kw: Any) -> dict[str, Any]:
    r: dict[str, Any] = {"vessel": kw.pop("vessel", "Navio"), "embark": D(embark),
                         "function": function, "company": company, **kw}
    if disembark is not None:
        r["disembark"] = D(disembark)
    return r


def decl(start: str, end: str, category: str = "2ON", company: str = "Cia A",
         **kw: Any) -> dict[str, Any]:
    return {"company": company, "from": D(start), "to": D(end), "category": category, **kw}


def case(purpose: str = "promotion", category: str = "2ON", **sections: Any) -> dict[str, Any]:
    sf = sections.pop("seafarer", None) or seafarer(category)
    return {"seafarer": sf, "purpose": purpose, **sections}


def run(data: dict[str, Any], on: dt.date = ON, /, **options: str) -> Decision:
    return compute(data, on, options or None)


def excluded(decision: Decision) -> list[tuple[str | None, str | None, str]]:
    """``(from, to, reason)`` of the excluded intervals, ISO dates."""
    return [(e["from"].isoformat() if e["from"] else None,
             e["to"].isoformat() if e["to"] else None, e["reason"])
            for e in decision.result["excluded"]]

"""Small builders for vessel cases in tests."""

from __future__ import annotations

from typing import Any

from abordo.crew.load import parse_vessel_case
from abordo.crew.model import VesselCase


def vessel_case(crew: list[dict[str, Any]], *, flag: str = "NO", activity: str = "offshore_support",
                contract: str = "charter", presence: list[dict[str, Any]] | None = None,
                registry: str | None = None, extensions: list[dict[str, Any]] | None = None,
                ) -> VesselCase:
    vessel: dict[str, Any] = {"name": "Test", "flag": flag, "activity": activity}
    if registry:
        vessel["registry"] = registry
    return parse_vessel_case({
        "vessel": vessel,
        "operation": {"contract": contract,
                      "ajb_presence": presence if presence is not None
                      else [{"entry": "2026-01-01", "exit": None}],
                      "extensions": extensions or []},
        "crew": crew,
    })


def person(i: int, rank: str, nationality: str, **extra: Any) -> dict[str, Any]:
    return {"id": f"P{i:03d}", "rank": rank, "nationality": nationality, **extra}

"""Shared builders for the immigration tests (fixtures, so no package import is needed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from abordo.crew.load import parse_vessel_case
from abordo.crew.model import VesselCase

CaseFactory = Callable[..., VesselCase]


def build_case(crew: list[dict[str, Any]], *, flag: str = "NO",
               activity: str = "offshore_support", contract: str = "charter",
               presence: list[dict[str, Any]] | None = None, state: str | None = None,
               **operation: Any) -> VesselCase:
    """A vessel case with the given crew (inline), parsed exactly as a user's file is."""
    op: dict[str, Any] = {"contract": contract, **operation}
    if presence is not None:
        op["ajb_presence"] = presence
    if state is not None:
        op["state"] = state
    data = {"vessel": {"name": "Test Vessel", "flag": flag, "activity": activity},
            "operation": op, "crew": crew}
    return parse_vessel_case(data, None, "test.yaml")


@pytest.fixture
def make_case() -> CaseFactory:
    return build_case

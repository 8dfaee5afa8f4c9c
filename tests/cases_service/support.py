"""Helpers shared by the case-service tests."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from abordo.cases import auth, commands, workflow
from abordo.cases.db import session_factory
from abordo.faces.api import create_app

ROOT = Path(__file__).resolve().parents[2]


def make_user(url: str, email: str, role: str, region: str | None,
              password: str = "senha-segura-123", name: str | None = None) -> str:
    """Create a user and return an API token (an inspector without ``name`` gets the local
    part of the e-mail: an inspector signs by name)."""
    if name is None and role == "inspector":
        name = email.split("@")[0].title()
    with session_factory(url)() as s, s.begin():
        user = auth.add_user(s, email=email, role=role, region=region, password=password,
                             actor="test", name=name)
        return auth.issue_token(s, user, "test")


# Art. 5 I–IV facts of a vessel already at the berth (art. 6 asks for them before assessing).
DOCKED: dict[str, Any] = {
    "agent": "Agência Marítima Exemplo", "vessel_name": "Atlantic Provider",
    "vessel_class": "PSV", "flag": "NO", "free_pratique_requested": True,
    "free_pratique_granted": True, "last_psc_inspection": {"date": "2026-02-10"},
    "expected_unberthing": "2026-04-05", "quay": "Cais do Caju", "berth": "3"}


# The art. 6 assessment's end: the complaint found justified with the master (consulted).
REQUEST_DOCS: dict[str, Any] = {"command": "request_documents", "consulted": "master"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def client_for(url: str) -> TestClient:
    return TestClient(create_app(url), raise_server_exceptions=False)


def q01_case() -> dict[str, Any]:
    """A foreign PSV chartered by a Brazilian company, 90 days in AJB on 2026-04-01:
    quota non-compliant (worked case q01)."""
    data = yaml.safe_load((ROOT / "tests/cases/crew_quota/q01-psv-res42-day90.yaml")
                          .read_text(encoding="utf-8"))
    case: dict[str, Any] = json.loads(json.dumps(data["input"], default=str))
    return case


CMD: TypeAdapter[Any] = TypeAdapter(commands.Command)
TODAY = dt.date(2026, 4, 1)


def run(state: str, data: dict[str, Any], body: dict[str, Any],
        extra: dict[str, Any] | None = None) -> workflow.Outcome:
    """``body`` (a command as the API takes it) applied to a case in ``state`` on TODAY."""
    return workflow.apply(state, data, CMD.validate_python(body), today=TODAY, actor="t",
                          extra=extra)


def open_case(c: TestClient, h: dict[str, str], *, complaint_date: str = "2026-03-28",
              pre_boarding: dict[str, Any] | None = None, **body: Any) -> tuple[int, int]:
    """A case opened through the API on a union's complaint about the quota, the vessel
    docked (``pre_boarding``: the art. 5 facts, DOCKED by default); ``body`` adds to the
    request (``on``…). Returns (id, version)."""
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": complaint_date, "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED if pre_boarding is None else pre_boarding,
        **body})
    assert r.status_code == 201, r.text
    return int(r.json()["id"]), int(r.json()["version"])

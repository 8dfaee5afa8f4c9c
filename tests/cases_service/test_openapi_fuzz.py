"""Schemathesis over the whole OpenAPI document: no 5xx, and every 4xx is problem+json.

Fixed seed (``derandomize=True``); ~60 examples per operation (≥ 1,000 requests in total,
counted and checked by the last test of this module).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from abordo.cases.db import upgrade
from abordo.faces.api import create_app
from cases_service.support import bearer, make_user

EXAMPLES = 60
_DB = Path(tempfile.mkdtemp(prefix="abordo-fuzz-")) / "fuzz.sqlite"
URL = f"sqlite:///{_DB}"
upgrade(URL)
TOKEN = make_user(URL, "admin@fuzz.br", "admin", None, password="senha-do-fuzz")
make_user(URL, "insp@fuzz.br", "inspector", "RJ")
APP = create_app(URL)
_setup = TestClient(APP)
for _ in range(2):
    _setup.post("/api/v1/cases", headers=bearer(TOKEN), json={
        "complaint": {"source": "union", "date": "2026-03-01", "content": "x"},
        "vessel_docked": True, "region": "RJ", "team": ["insp@fuzz.br"]})

schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", APP)
CALLS: dict[str, int] = {}


def problem_json_on_4xx(ctx: Any, response: Any, case: Any) -> bool | None:
    """Bad input → a 4xx ``application/problem+json`` naming the field when it is input."""
    if 400 <= response.status_code < 500:
        ctype = response.headers.get("content-type", "")
        ctype = ctype[0] if isinstance(ctype, list) else ctype
        assert ctype.startswith("application/problem+json"), (response.status_code, ctype)
        body = response.json()
        assert body["status"] == response.status_code and body["detail"]
        if response.status_code == 422:
            assert body["errors"] and all("field" in e for e in body["errors"])
    return None


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_api_never_5xx(case: Any) -> None:
    key = f"{case.method} {case.path}"
    CALLS[key] = CALLS.get(key, 0) + 1
    case.call_and_validate(headers=bearer(TOKEN),
                           checks=[not_a_server_error, problem_json_on_4xx])


def test_zz_enough_requests(request: pytest.FixtureRequest) -> None:
    total = sum(CALLS.values())
    operations = len(list(schema.get_all_operations()))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # split across xdist workers: each sees a share of the examples (all operations,
        # maybe, but not all their examples), so only the configured total can be checked
        assert EXAMPLES * operations >= 1000
        return
    if len(CALLS) < operations:
        pytest.fail(f"run the whole module: {len(CALLS)} of {operations} operations ran")
    print(f"schemathesis: {total} requests over {operations} operations")
    assert total >= 1000, total

"""Role × endpoint matrix: every endpoint enforces scope on the server; no case leaks
across regions; national coordination reads all and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from cases_service.support import bearer, client_for, make_user

COMPLAINT = {"source": "crew_member", "date": "2026-03-01", "content": "salários atrasados"}


@pytest.fixture
def world(db_url: str) -> dict[str, Any]:
    tokens = {
        "rj_insp": make_user(db_url, "rj1@x.gov.br", "inspector", "RJ"),
        "rj_insp2": make_user(db_url, "rj2@x.gov.br", "inspector", "RJ"),
        "rj_chief": make_user(db_url, "chefe.rj@x.gov.br", "regional_chief", "RJ"),
        "sp_insp": make_user(db_url, "sp1@x.gov.br", "inspector", "SP"),
        "sp_chief": make_user(db_url, "chefe.sp@x.gov.br", "regional_chief", "SP"),
        "national": make_user(db_url, "cn@x.gov.br", "national", None),
        "admin": make_user(db_url, "adm@x.gov.br", "admin", None),
    }
    c = client_for(db_url)
    rj = c.post("/api/v1/cases", headers=bearer(tokens["rj_insp"]),
                json={"complaint": COMPLAINT, "vessel_docked": True, "vessel_name": "Navio RJ"})
    sp = c.post("/api/v1/cases", headers=bearer(tokens["sp_insp"]),
                json={"complaint": COMPLAINT, "vessel_docked": True, "vessel_name": "Navio SP"})
    assert rj.status_code == sp.status_code == 201
    return {"c": c, "tokens": tokens, "rj": rj.json()["id"], "sp": sp.json()["id"]}


# who may read / write the RJ case
READ_RJ = {"rj_insp": True, "rj_insp2": False, "rj_chief": True, "sp_insp": False,
           "sp_chief": False, "national": True, "admin": True}
WRITE_RJ = {**READ_RJ, "national": False}


def _endpoints(cid: int) -> list[tuple[str, str, dict[str, Any], bool]]:
    """(method, path, kwargs, is_write)"""
    return [
        ("GET", f"/api/v1/cases/{cid}", {}, False),
        ("GET", f"/api/v1/cases/{cid}/events", {}, False),
        ("GET", f"/api/v1/cases/{cid}/documents", {}, False),
        ("GET", f"/api/v1/cases/{cid}/documents/relatorio", {}, False),
        ("GET", f"/api/v1/cases/{cid}/attachments/1", {}, False),
        ("POST", f"/api/v1/cases/{cid}/commands",
         {"json": {"command": "start_assessment"}}, True),
        ("POST", f"/api/v1/cases/{cid}/attachments",
         {"files": {"file": ("a.txt", b"x", "text/plain")}}, True),
    ]


def test_role_endpoint_matrix(world: dict[str, Any]) -> None:
    c: TestClient = world["c"]
    for role, token in world["tokens"].items():
        h = bearer(token)
        listed = {i["id"] for i in c.get("/api/v1/cases?per_page=100", headers=h).json()["items"]}
        assert (world["rj"] in listed) == READ_RJ[role], role
        for method, path, kwargs, write in _endpoints(world["rj"]):
            r = c.request(method, path, headers=h, **kwargs)
            assert r.headers["content-type"].split(";")[0] in (
                "application/json", "application/problem+json", "text/html", "text/plain"
            ), (role, path)
            if not READ_RJ[role]:
                assert r.status_code == 404, (role, method, path, r.status_code)
                assert "Navio RJ" not in r.text
            elif write and not WRITE_RJ[role]:
                assert r.status_code == 403, (role, method, path, r.status_code)
            else:
                # in scope: allowed, or refused for a reason other than scope
                assert r.status_code not in (401, 403), (role, method, path, r.status_code)
        # anonymous
    for method, path, kwargs, _ in _endpoints(world["rj"]):
        assert c.request(method, path, **kwargs).status_code == 401
    assert c.get("/api/v1/cases").status_code == 401


def test_listing_filters_and_no_region_leak(world: dict[str, Any]) -> None:
    c: TestClient = world["c"]
    chief = bearer(world["tokens"]["sp_chief"])
    # a chief asking for another region gets nothing, not the other region's cases
    r = c.get("/api/v1/cases?region=RJ", headers=chief).json()
    assert r["total"] == 0 and r["items"] == []
    r = c.get("/api/v1/cases?q=navio", headers=bearer(world["tokens"]["national"])).json()
    assert r["total"] == 2
    r = c.get("/api/v1/cases?per_page=1&page=2",
              headers=bearer(world["tokens"]["admin"])).json()
    assert r["total"] == 2 and len(r["items"]) == 1
    # inspectors cannot open cases in another region; national cannot open cases
    bad = c.post("/api/v1/cases", headers=bearer(world["tokens"]["sp_insp"]),
                 json={"complaint": COMPLAINT, "vessel_docked": True, "region": "RJ"})
    assert bad.status_code == 403
    nat = c.post("/api/v1/cases", headers=bearer(world["tokens"]["national"]),
                 json={"complaint": COMPLAINT, "vessel_docked": True, "region": "RJ"})
    assert nat.status_code == 403


def test_team_member_gains_access(world: dict[str, Any]) -> None:
    c: TestClient = world["c"]
    rj2 = bearer(world["tokens"]["rj_insp2"])
    assert c.get(f"/api/v1/cases/{world['rj']}", headers=rj2).status_code == 404
    r = c.post(f"/api/v1/cases/{world['rj']}/commands", headers=bearer(world["tokens"]["rj_chief"]),
               json={"command": "assign_team", "team": ["rj2@x.gov.br"]})
    assert r.status_code == 200, r.text
    assert c.get(f"/api/v1/cases/{world['rj']}", headers=rj2).status_code == 200
    # a team from another region is refused, naming the field
    r = c.post(f"/api/v1/cases/{world['rj']}/commands", headers=bearer(world["tokens"]["admin"]),
               json={"command": "assign_team", "team": ["sp1@x.gov.br"]})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "team[0]"


def test_users_admin_only(world: dict[str, Any]) -> None:
    c: TestClient = world["c"]
    body = {"email": "novo@x.gov.br", "role": "inspector", "region": "RJ",
            "password": "uma-senha-longa", "name": "Nova Inspetora"}
    for role in ("rj_insp", "rj_chief", "national"):
        assert c.post("/api/v1/users", headers=bearer(world["tokens"][role]),
                      json=body).status_code == 403
    r = c.post("/api/v1/users", headers=bearer(world["tokens"]["admin"]), json=body)
    assert r.status_code == 201
    tok = c.post("/api/v1/auth/token", json={"email": "novo@x.gov.br",
                                              "password": "uma-senha-longa"})
    assert tok.status_code == 200
    me = c.get("/api/v1/me", headers=bearer(tok.json()["token"])).json()
    assert me["role"] == "inspector" and me["region"] == "RJ"
    assert c.post("/api/v1/auth/token", json={"email": "novo@x.gov.br",
                                               "password": "errada"}).status_code == 401


def test_cookie_session_requires_csrf(sqlite_url: str) -> None:
    make_user(sqlite_url, "rj1@x.gov.br", "inspector", "RJ", password="senha-segura-123")
    c = client_for(sqlite_url)
    r = c.post("/api/v1/auth/login", json={"email": "rj1@x.gov.br",
                                            "password": "senha-segura-123"})
    assert r.status_code == 200
    csrf = r.json()["csrf_token"]
    assert c.get("/api/v1/me").status_code == 200  # safe request: cookie suffices
    body = {"complaint": COMPLAINT, "vessel_docked": True}
    assert c.post("/api/v1/cases", json=body).status_code == 403
    assert c.post("/api/v1/cases", json=body,
                  headers={"X-CSRF-Token": "forged"}).status_code == 403
    assert c.post("/api/v1/cases", json=body,
                  headers={"X-CSRF-Token": csrf}).status_code == 201
    c.cookies.set("abordo_session", "tampered.value")
    assert c.get("/api/v1/me").status_code == 401


def test_logout_ends_the_session_even_for_a_copied_cookie(sqlite_url: str) -> None:
    make_user(sqlite_url, "rj1@x.gov.br", "inspector", "RJ", password="senha-segura-123")
    c = client_for(sqlite_url)
    r = c.post("/api/v1/auth/login", json={"email": "rj1@x.gov.br",
                                            "password": "senha-segura-123"})
    csrf = r.json()["csrf_token"]
    copied = c.cookies.get("abordo_session")
    assert copied and c.get("/api/v1/me").status_code == 200
    assert c.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
    c.cookies.set("abordo_session", copied)  # replayed after logout
    assert c.get("/api/v1/me").status_code == 401
    body = {"complaint": COMPLAINT, "vessel_docked": True}
    assert c.post("/api/v1/cases", json=body, headers={"X-CSRF-Token": csrf}).status_code == 401

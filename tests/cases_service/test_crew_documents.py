"""One crew member's documents recorded without sending the vessel case again:
``PUT /cases/{id}/crew/{crew_id}/documents`` — set_vessel_case with that one change, its
checks, the version rule and the audit trail."""

from __future__ import annotations

from typing import Any

from cases_service.support import (
    REQUEST_DOCS,
    bearer,
    client_for,
    make_user,
    open_case,
    q01_case,
)

RA = {"type": "residence_authorization", "number": "RA-123", "issued_on": "2026-02-01",
      "valid_until": "2028-02-01"}


def _with_vessel_case(c: Any, h: dict[str, str]) -> int:
    cid, _ = open_case(c, h, on="2026-04-01")
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": q01_case()}):
        r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body)
        assert r.status_code == 200, r.text
    return cid


def _crew(case: dict[str, Any]) -> dict[str, Any]:
    return {p["id"]: p for p in case["facts"]["vessel_case"]["crew"]}


def test_a_crew_member_s_documents_are_recorded_and_the_rest_of_the_case_kept(
        sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = _with_vessel_case(c, h)
    before = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    url = f"/api/v1/cases/{cid}/crew/C04/documents"
    # the crew list someone recorded is replaced in part: the version read is named
    assert c.put(url, headers=h, json={"documents": [RA]}).status_code == 428
    r = c.put(url, headers=h, json={"documents": [RA], "version": before["version"]})
    assert r.status_code == 200, r.text
    after = r.json()
    assert _crew(after)["C04"]["documents"] == [RA]
    # nobody else changed: the vessel, the operation and the other 15 persons as they were
    assert {k: v for k, v in _crew(after).items() if k != "C04"} == \
        {k: v for k, v in _crew(before).items() if k != "C04"}
    assert after["facts"]["vessel_case"]["operation"] == \
        before["facts"]["vessel_case"]["operation"]
    last = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"][-1]
    assert (last["command"], last["reason"]) == ("set_vessel_case",
                                                 "documentos do tripulante C04")
    # an empty list takes them out again (If-Match: * replaces knowingly)
    r = c.put(url, headers={**h, "If-Match": "*"}, json={"documents": []})
    assert r.status_code == 200, r.text
    assert _crew(r.json())["C04"]["documents"] == []


def test_the_engines_judge_the_documents_recorded(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = _with_vessel_case(c, h)
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={"command": "run_engines"})
    assert r.status_code == 200, r.text
    # 91 days in AJB (the vessel's presence) and no residence authorization (Res. CNIg
    # 42/2020, art. 11, § 1º)
    assert _immigration(r.json(), "C04") == ["residence_authorization_missing"]
    r = c.put(f"/api/v1/cases/{cid}/crew/C04/documents", headers={**h, "If-Match": "*"},
              json={"documents": [RA]})
    assert r.status_code == 200, r.text
    # the vessel case changed since the run: the engines' step is open again
    assert "engines" in [s["id"] for s in r.json()["open_steps_detail"]]
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={"command": "run_engines"})
    assert r.status_code == 200, r.text
    assert _immigration(r.json(), "C04") == []
    assert _immigration(r.json(), "C05") == ["residence_authorization_missing"]


def _immigration(case: dict[str, Any], who: str) -> list[str]:
    """The immigration engine's findings on ``who`` in the case."""
    return [f["engine_finding"] for f in case["facts"]["findings"]
            if f["source"] == "engine:immigration" and f.get("subject") == who]


def test_an_unknown_crew_member_a_bad_document_and_a_read_only_role_are_refused(
        sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    ro = bearer(make_user(sqlite_url, "coord@trabalho.gov.br", "national", None))
    c = client_for(sqlite_url)
    cid = _with_vessel_case(c, h)
    star = {**h, "If-Match": "*"}
    r = c.put(f"/api/v1/cases/{cid}/crew/X99/documents", headers=star, json={"documents": [RA]})
    assert r.status_code == 422, r.text
    assert [e["field"] for e in r.json()["errors"]] == ["crew_id"]
    assert "X99" in r.json()["errors"][0]["message"]
    bad = {**RA, "valid_until": "2025-01-01"}  # before its issue
    r = c.put(f"/api/v1/cases/{cid}/crew/C04/documents", headers=star, json={"documents": [bad]})
    assert r.status_code == 422, r.text
    r = c.put(f"/api/v1/cases/{cid}/crew/C04/documents", headers={**ro, "If-Match": "*"},
              json={"documents": [RA]})
    assert r.status_code == 403, r.text


def test_without_vessel_data_there_is_no_crew_to_change(sqlite_url: str) -> None:
    # Each face names what it was given: the upload its file, the documents the vessel case
    # they would go into.
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, h, on="2026-04-01")
    for body in ({"command": "start_assessment"}, REQUEST_DOCS):
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body).status_code == 200
    r = c.post(f"/api/v1/cases/{cid}/crew", headers=h, files={
        "file": ("lista.csv", b"id;funcao;nacionalidade\nA1;Comandante;BR\n", "text/csv")})
    assert r.status_code == 409 and r.json()["errors"][0]["field"] == "file", r.text
    r = c.put(f"/api/v1/cases/{cid}/crew/C04/documents", headers=h, json={"documents": [RA]})
    assert r.status_code == 409 and r.json()["errors"][0]["field"] == "vessel_case", r.text
    assert "set_vessel_case" in r.json()["detail"]

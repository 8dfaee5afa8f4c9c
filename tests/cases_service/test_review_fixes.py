"""Fixes from a user trial of the service: invalid crews refused when given, teams designated
by the regional chief only."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from abordo.cases.auth import check_region, deactivate_user
from abordo.cases.db import session_factory
from abordo.law.errors import InputError
from cases_service.support import (
    DOCKED,
    REQUEST_DOCS,
    bearer,
    client_for,
    make_user,
    open_case,
    q01_case,
)


def _open(c: Any, h: dict[str, str]) -> tuple[int, int]:
    return open_case(c, h, on="2026-04-01")


def test_repeated_crew_id_refused_at_set_vessel_case(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = _open(c, h)
    for body in ({"command": "start_assessment"}, REQUEST_DOCS):
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body).status_code == 200
    case = q01_case()
    case["crew"] = [*case["crew"], dict(case["crew"][0])]  # the first person twice
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
               json={"command": "set_vessel_case", "vessel_case": case})
    assert r.status_code == 422, r.text
    fields = [e["field"] for e in r.json()["errors"]]
    assert fields == [f"vessel_case.crew[{len(case['crew']) - 1}].id"]


def test_only_the_regional_chief_designates_the_team(sqlite_url: str) -> None:
    ana = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    make_user(sqlite_url, "bia@trabalho.gov.br", "inspector", "RJ")
    chief = bearer(make_user(sqlite_url, "chefe@trabalho.gov.br", "regional_chief", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = _open(c, ana)
    body = {"command": "assign_team", "team": ["bia@trabalho.gov.br"]}
    assert c.post(f"/api/v1/cases/{cid}/commands", headers=ana, json=body).status_code == 403
    ok = c.post(f"/api/v1/cases/{cid}/commands", headers=chief, json=body)
    assert ok.status_code == 200, ok.text
    # nor when the case is opened; a name given twice is one member (not a server error)
    opened = c.post("/api/v1/cases", headers=ana, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED, "team": ["bia@trabalho.gov.br"]})
    assert opened.status_code == 403 and "chefia regional" in opened.json()["detail"]
    twice = {"command": "assign_team", "team": ["bia@trabalho.gov.br", "BIA@trabalho.gov.br"]}
    again = c.post(f"/api/v1/cases/{cid}/commands", headers=chief, json=twice)
    assert again.status_code == 200, again.text
    assert again.json()["team"] == ["ana@trabalho.gov.br", "bia@trabalho.gov.br"]


def test_a_retired_inspector_is_not_designated_to_a_team(sqlite_url: str) -> None:
    """A user disabled (abordo users disable) no longer acts: designated, they would sign
    the team's acts (art. 4, sole paragraph) — refused as an unknown inspector, by field."""
    make_user(sqlite_url, "bia@trabalho.gov.br", "inspector", "RJ")
    chief = bearer(make_user(sqlite_url, "chefe@trabalho.gov.br", "regional_chief", "RJ"))
    with session_factory(sqlite_url)() as s, s.begin():
        deactivate_user(s, email="bia@trabalho.gov.br", actor="admin@abordo.local")
    c = client_for(sqlite_url)
    opened = c.post("/api/v1/cases", headers=chief, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED, "team": ["bia@trabalho.gov.br"]})
    assert opened.status_code == 422 and opened.json()["errors"][0]["field"] == "team[0]"
    cid, _ = _open(c, chief)
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=chief,
               json={"command": "assign_team", "team": ["bia@trabalho.gov.br"]})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "team[0]", r.text


def test_facts_are_never_judged_on_a_future_day(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED, "on": "2099-01-01"})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "on"
    cid, _ = _open(c, h)
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": q01_case()}):
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body).status_code == 200
    future = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                    json={"command": "run_engines", "on": "2099-06-01"})
    assert future.status_code == 422 and future.json()["errors"][0]["field"] == "on"


def test_a_command_not_allowed_now_is_a_409_whatever_its_data(sqlite_url: str) -> None:
    """The state and the guards are judged first: run_engines in a case just received is
    refused as such (409 naming command), not for its date (422 on); a vessel case given
    after the notification is refused as such, not for a field the engines cannot judge."""
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = _open(c, h)
    url = f"/api/v1/cases/{cid}/commands"
    r = c.post(url, headers=h, json={"command": "run_engines", "on": "2099-06-01"})
    assert r.status_code == 409 and r.json()["errors"][0]["field"] == "command", r.text
    assert "não permitido no estado" in r.json()["detail"]
    r = c.post(url, headers=h, json={"command": "close", "recorded_on": "2099-06-01"})
    assert r.status_code == 409, r.text
    r = c.post(url, headers=h, json={"command": "set_vessel_case", "on": "2099-06-01",
                                     "vessel_case": {"vessel": {"flag": "NO"}}})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "on"  # allowed now


def test_a_crew_upload_to_a_closed_case_is_a_409_before_its_rows_are_read(
        sqlite_url: str) -> None:
    """The crew upload is set_vessel_case: a case whose state no longer takes one refuses
    it as such (409), not row by row for a file it would never record (422)."""
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, h, on="2026-04-01", vessel_case=q01_case())
    for body in ({"command": "start_assessment"},
                 {"command": "close_unfounded", "consulted": "master", "reason": "sem base"}):
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body).status_code == 200
    bad = "id;função;nacionalidade\nA1;Comandante;XX\n"
    r = c.post(f"/api/v1/cases/{cid}/crew", headers=h,
               files={"file": ("lista.csv", bad.encode(), "text/csv")})
    assert r.status_code == 409 and r.json()["errors"][0]["field"] == "command", r.text
    assert "não permitido no estado" in r.json()["detail"]


def test_a_complaint_dated_in_the_future_is_refused(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    r = client_for(sqlite_url).post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2099-01-01", "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["field"] == "complaint.date"


def test_attachments_keep_only_the_file_name_and_download_safely(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = _open(c, h)
    r = c.post(f"/api/v1/cases/{cid}/attachments", headers=h,
               files={"file": ("../../evil.html", b"<script>x</script>", "text/html")})
    assert r.status_code == 201, r.text
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert [a["filename"] for a in case["attachments"]] == ["evil.html"]
    got = c.get(f"/api/v1/cases/{cid}/attachments/{r.json()['id']}", headers=h)
    assert got.headers["x-content-type-options"] == "nosniff"
    assert got.headers["content-disposition"].startswith('attachment; filename="evil.html"')
    empty = c.post(f"/api/v1/cases/{cid}/attachments", headers=h,
                   files={"file": ("vazio.jpg", b"", "image/jpeg")})
    assert empty.status_code == 422


@pytest.mark.parametrize("bad", ["Atlântida", "RJX", "São Paulo Capital"])
def test_regions_are_state_codes(bad: str) -> None:
    assert check_region("rj") == "RJ" and check_region(" SP ") == "SP"
    assert check_region(None) is None
    with pytest.raises(InputError) as exc:
        check_region(bad)
    assert exc.value.field == "region" and "sigla da UF" in exc.value.message


def test_command_errors_name_the_body_s_own_fields_and_speak_portuguese(
        sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = _open(c, h)
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={"command": "close_unfounded"})
    assert r.status_code == 422
    assert r.json()["title"] == "Entrada inválida"
    assert [e["field"] for e in r.json()["errors"]] == ["reason"]  # not close_unfounded.reason
    refused = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={"command": "close"})
    assert (refused.status_code, refused.json()["title"]) == (409, "Conflito")
    en = c.post(f"/api/v1/cases/{cid}/commands?lang=en", headers=h, json={"command": "close"})
    assert en.json()["title"] == "Conflict"
    # closed as unfounded: nothing left open
    for body in ({"command": "start_assessment"},
                 {"command": "close_unfounded", "consulted": "master",
                  "reason": "denúncia sem fundamento"}):
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body).status_code == 200
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert case["state"] == "closed_unfounded" and case["open_steps"] == []


def test_crew_list_uploaded_as_a_file_replaces_the_crew(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = _open(c, h)
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": q01_case()}):
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body).status_code == 200
    bad = "id;função;nacionalidade;nome\nA1;Comandante;BR;Ana\nA2;AB;XX;Bia\nA3;AB;YY;Caio\n"
    r = c.post(f"/api/v1/cases/{cid}/crew", headers=h,
               files={"file": ("lista.csv", bad.encode(), "text/csv")})
    assert r.status_code == 422, r.text
    errors = r.json()["errors"]
    assert [(e["file"], e["row"], e["field"]) for e in errors] == [
        ("lista.csv", 3, "nacionalidade"), ("lista.csv", 4, "nacionalidade")]  # all, as written
    good = bad.replace("XX", "PH").replace("YY", "BR")
    # it replaces the crew list recorded: the version read is named (428 otherwise)
    read = c.get(f"/api/v1/cases/{cid}", headers=h).json()["version"]
    ok = c.post(f"/api/v1/cases/{cid}/crew", headers={**h, "If-Match": f'"{read}"'},
                files={"file": ("lista.csv", good.encode(), "text/csv")})
    assert ok.status_code == 200, ok.text
    crew = ok.json()["facts"]["vessel_case"]["crew"]
    assert [(p["id"], p["nationality"]) for p in crew] == [("A1", ["BR"]), ("A2", ["PH"]),
                                                           ("A3", ["BR"])]
    assert all("name" not in p for p in crew)  # personal data dropped on import
    last = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"][-1]
    digest = __import__("hashlib").sha256(good.encode()).hexdigest()
    assert last["reason"] == f"lista de tripulantes do arquivo lista.csv (sha256 {digest})"
    assert last["payload"]["crew_ids"] == ["A1", "A2", "A3"]


UNKNOWN_RANKS = ("id,rank,nationality\nC1,Master,NO\nC2,Chief Officer,BR\nC3,Abel Seaman,PH\n"
                 "C4,AB,BR\nC5,Chief Engineer,NO\nC6,3rd Enginer,PH\nC7,Oiler,BR\nC8,Cook,BR\n")


def _assessing_with_q01(c: Any, h: dict[str, str]) -> tuple[int, int]:
    """A case whose vessel case (q01: offshore support under Res. 42, groups by department
    and level) is set; its id and version."""
    cid, _ = _open(c, h)
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": q01_case()}):
        r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body)
        assert r.status_code == 200, r.text
    return cid, r.json()["version"]


def test_a_crew_upload_with_ranks_the_engines_cannot_place_is_refused_row_by_row(
        sqlite_url: str) -> None:
    # Was accepted, then refused at run_engines as vessel_case.crew[5].rank, no file nor
    # row, telling to fill a column of a list no longer at hand.
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, version = _assessing_with_q01(c, h)
    r = c.post(f"/api/v1/cases/{cid}/crew", headers=h,
               files={"file": ("lista.csv", UNKNOWN_RANKS.encode(), "text/csv")})
    assert r.status_code == 422, r.text
    errors = r.json()["errors"]
    assert [(e["file"], e["row"], e["field"]) for e in errors] == [
        ("lista.csv", 4, "rank"), ("lista.csv", 7, "rank")]  # every row, as abordo check
    assert errors[0]["message"] == (
        "função 'Abel Seaman' desconhecida para C3: informe a coluna department (seção) — "
        "exigido para formar os grupos por seção e nível")
    assert errors[1]["message_en"] == (
        "unknown rank '3rd Enginer' for C6: give the department column — needed to form the "
        "groups by department and level")
    assert c.get(f"/api/v1/cases/{cid}", headers=h).json()["version"] == version  # unwritten
    # The columns filled: the list is taken, and the engines judge it.
    fixed = ("id,rank,nationality,department,level\nC1,Master,NO,,\nC2,Chief Officer,BR,,\n"
             "C3,Abel Seaman,PH,deck,rating\nC4,AB,BR,,\nC5,Chief Engineer,NO,,\n"
             "C6,3rd Enginer,PH,máquinas,oficial\nC7,Oiler,BR,,\nC8,Cook,BR,,\n")
    ok = c.post(f"/api/v1/cases/{cid}/crew", headers={**h, "If-Match": f'"{version}"'},
                files={"file": ("lista.csv", fixed.encode(), "text/csv")})
    assert ok.status_code == 200, ok.text
    crew = ok.json()["facts"]["vessel_case"]["crew"]
    assert [(p["id"], p.get("department"), p.get("level")) for p in crew
            if p["id"] in ("C3", "C6")] == [("C3", "deck", "rating"), ("C6", "engine", "officer")]
    ran = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={"command": "run_engines"})
    assert ran.status_code == 200, ran.text


def test_a_vessel_case_with_a_rank_the_engines_cannot_place_is_refused_when_set(
        sqlite_url: str) -> None:
    # Was taken by set_vessel_case and refused only at run_engines.
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, version = _assessing_with_q01(c, h)
    case = q01_case()
    case["crew"][2]["rank"] = "Abel Seaman"
    r = c.post(f"/api/v1/cases/{cid}/commands", headers={**h, "If-Match": f'"{version}"'},
               json={"command": "set_vessel_case", "vessel_case": case})
    assert r.status_code == 422, r.text
    (error,) = r.json()["errors"]
    assert (error["field"], error["file"], error["row"]) == ("vessel_case.crew[2].rank", None,
                                                             None)
    # a field of the body, not a column of a file
    assert error["message"] == ("função 'Abel Seaman' desconhecida para C03: informe "
                                "department (seção) — exigido para formar os grupos por seção "
                                "e nível")
    assert c.get(f"/api/v1/cases/{cid}", headers=h).json()["version"] == version
    # Where the regime needs no group (long haul, no contract), the rank is no error.
    case["vessel"]["activity"], case["operation"]["contract"] = "long_haul", "none"
    ok = c.post(f"/api/v1/cases/{cid}/commands", headers={**h, "If-Match": f'"{version}"'},
                json={"command": "set_vessel_case", "vessel_case": case})
    assert ok.status_code == 200, ok.text
    ran = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={"command": "run_engines"})
    assert ran.status_code == 200, ran.text


def _race_once(monkeypatch: pytest.MonkeyPatch, url: str, case_id: int,
               times: int = 1) -> list[int]:
    """Make the next command lose ``times`` races in a row: another write lands between its
    read and its update."""
    from sqlalchemy import text

    from abordo.cases import service
    from abordo.cases.db import get_engine

    real = service.workflow.apply
    calls: list[int] = []

    def apply(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) <= times:
            with get_engine(url).begin() as conn:
                conn.execute(text("UPDATE cases SET version = version + 1 WHERE id = :i"),
                             {"i": case_id})
        return real(*args, **kwargs)

    monkeypatch.setattr(service.workflow, "apply", apply)
    return calls


def test_a_write_without_version_that_loses_a_race_is_applied_again(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    cid, version = _open(c, h)
    calls = _race_once(monkeypatch, db_url, cid)
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={"command": "start_assessment"})
    assert r.status_code == 200, r.text
    assert (r.json()["state"], r.json()["version"], len(calls)) == ("assessing", version + 2, 2)
    # With a version the caller decides: the lost race is a 409 with the current version.
    calls = _race_once(monkeypatch, db_url, cid)
    stale = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                   json={**REQUEST_DOCS, "version": version + 2})
    assert stale.status_code == 409 and "recarregue" in stale.json()["detail"]
    assert stale.json()["current_version"] == version + 3  # the race's write included
    assert len(calls) == 1


def test_a_write_without_version_that_keeps_losing_is_busy_not_stale(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    cid, version = _open(c, h)
    calls = _race_once(monkeypatch, db_url, cid, times=4)
    r = c.post(f"/api/v1/cases/{cid}/commands?lang=en", headers=h,
               json={"command": "start_assessment"})
    body = r.json()
    # Tried once and re-applied three times; no field is blamed (no version was sent).
    assert (r.status_code, body["type"], len(calls)) == (409, "/problems/busy", 4)
    assert "errors" not in body and "current_version" not in body
    assert body["detail"].startswith("the case changed 4 times in a row")
    got = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert (got["state"], got["version"]) == ("received", version + 4)  # not applied


def test_small_input_checks_of_the_service(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, version = _open(c, h)
    url = f"/api/v1/cases/{cid}/commands"
    both = c.post(url, headers={**h, "If-Match": f'"{version}"'},
                  json={"command": "start_assessment", "version": version + 5})
    assert both.status_code == 422 and both.json()["errors"][0]["field"] == "version"
    anyv = c.post(url, headers={**h, "If-Match": "*"}, json={"command": "start_assessment"})
    assert anyv.status_code == 200, anyv.text
    c.post(url, headers=h, json=REQUEST_DOCS)
    br = q01_case()
    br["vessel"]["flag"] = "BR"
    r = c.post(url, headers=h, json={"command": "set_vessel_case", "vessel_case": br})
    assert r.status_code == 422
    assert r.json()["errors"][0]["field"] == "vessel_case.vessel.registry"
    early = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": False,
        "pre_boarding": {"expected_berthing": "2026-04-05", "expected_unberthing": "2026-04-01"}})
    assert early.status_code == 422
    said = early.json()["detail"]
    assert "desatracação (01/04/2026) anterior à de atracação (05/04/2026)" in said
    assert early.json()["errors"][0]["field"] == "pre_boarding.expected_unberthing"
    ddmm = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED, "on": "01/04/2026"})
    assert ddmm.status_code == 201, ddmm.text


def test_engines_judge_the_day_of_the_inspection_not_the_day_it_is_typed(
        sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED})  # no date of facts given
    cid = r.json()["id"]
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": q01_case()}):
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                      json={**body, "recorded_on": "2026-03-30"}).status_code == 200
    out = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                 json={"command": "run_engines", "recorded_on": "2026-04-01"}).json()
    assert out["facts"]["engine_run"]["on"] == "2026-04-01"
    quota = out["facts"]["engine_run"]["summary"]["crew_quota"]["summary"]
    assert "déficit total 1" in quota  # day 90 of the PSV's stay, as worked case q01


def _refused_notice(c: Any, h: dict[str, str], url: str, issued: str, deadline: str,
                    **outcome: Any) -> None:
    """Notify on ``issued`` (deadline ``deadline``); the agent refuses it expressly the next
    day, a contractual/wage matter (art. 10, II) — ``outcome`` adds to that record."""
    refused_on = (dt.date.fromisoformat(issued) + dt.timedelta(days=1)).isoformat()
    for body in ({"command": "notify", "deadline": deadline, "issued_on": issued},
                 {"command": "record_not_remedied", "risk": "contractual_wage",
                  "refused": True, "recorded_on": refused_on, **outcome}):
        got = c.post(url, headers=h, json=body)
        assert got.status_code == 200, (body, got.text)


def _to_findings(c: Any, h: dict[str, str], vessel_case: dict[str, Any], complaint: str,
                 pre_boarding: dict[str, Any]) -> tuple[int, str]:
    """A case opened on ``complaint``, assessed, with ``vessel_case`` judged by the engines."""
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": complaint, "content": "cota"},
        "vessel_docked": True, "pre_boarding": pre_boarding, "on": complaint})
    assert r.status_code == 201, r.text
    url = f"/api/v1/cases/{r.json()['id']}/commands"
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": vessel_case},
                 {"command": "run_engines"}):
        got = c.post(url, headers=h, json={**body, "recorded_on": complaint})
        assert got.status_code == 200, got.text
    return r.json()["id"], url


def _documents_received(c: Any, h: dict[str, str], cid: int, url: str) -> None:
    """Every item of the case's document checklist recorded as received — the persons' visas
    too, so the engines judge again (open step ``engines``: which immigration findings are
    warnings depends on them)."""
    for item in c.get(f"/api/v1/cases/{cid}", headers=h).json()["facts"]["checklist"]:
        rec = c.post(url, headers=h, json={"command": "record_document", "item": item["item"],
                                           "status": "received"})
        assert rec.status_code == 200, rec.text
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    if "engines" in [s["id"] for s in case["open_steps_detail"]]:
        ran = c.post(url, headers=h, json={"command": "run_engines"})
        assert ran.status_code == 200, ran.text


def test_a_quota_shortfall_under_rn72_calls_for_the_art14_auto(sqlite_url: str) -> None:
    # 2016: RN 72/2006 in force; its figures are cited through IN SIT 70/2007 art. 13, VI.
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    vc = q01_case()
    vc["operation"]["ajb_presence"] = [{"entry": "2015-06-01", "exit": None}]
    cid, url = _to_findings(c, h, vc, "2016-03-01", {**DOCKED, "expected_unberthing":
                                                     "2016-03-20"})
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert any(f["source"] == "engine:quota" and f["severity"] == "violation"
               for f in case["facts"]["findings"])
    assert "quota_auto" in [s["id"] for s in case["open_steps_detail"]]
    auto = c.post(url, headers=h, json={"command": "draft_auto", "kind": "cnig",
                                        "against": {"name": "Outra Empresa Qualquer"}})
    assert auto.status_code == 409 and auto.json()["errors"][0]["field"] == "against"
    ok = c.post(url, headers=h, json={"command": "draft_auto", "kind": "cnig"})
    assert ok.status_code == 200, ok.text
    auto = c.get(f"/api/v1/cases/{cid}/documents/auto-infracao?format=html", headers=h).text
    assert "descumprimento das Resoluções Normativas do CNIg (RN CNIg nº 72/2006)" in auto


def test_a_brazilian_flag_vessel_follows_art2_not_the_foreign_procedure(
        sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    vc = q01_case()
    vc["vessel"].update(flag="BR", registry="ordinary")
    for person in vc["crew"]:  # a foreign master: Lei 9.432 art. 4 violated
        if person.get("rank") == "Master":
            person["nationality"] = "NO"
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True, "pre_boarding": {"flag": "BR"}, "on": "2026-04-01"})
    cid = r.json()["id"]
    url = f"/api/v1/cases/{cid}/commands"
    # no art. 5 facts (free pratique, port state control…): arts. 4–10 are for foreign flags
    assert c.post(url, headers=h, json={"command": "start_assessment",
                                        "recorded_on": "2026-03-30"}).status_code == 200
    for body in ({**REQUEST_DOCS, "recorded_on": "2026-03-30"},
                 {"command": "set_vessel_case", "vessel_case": vc, "recorded_on": "2026-03-30"},
                 {"command": "run_engines", "recorded_on": "2026-04-01"}):
        got = c.post(url, headers=h, json=body)
        assert got.status_code == 200, (body, got.text)
    _refused_notice(c, h, url, "2026-04-01", "2026-04-10")
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    steps = [s["id"] for s in case["open_steps_detail"]]
    assert "detention_request" not in steps and "quota_auto" not in steps
    assert "national_autos" in steps  # art. 2, sole paragraph: an auto for each violation
    consul = c.post(url, headers=h, json={"command": "request_detention"})
    assert consul.status_code == 409 and "art. 3º" in consul.json()["detail"]
    notice = c.get(f"/api/v1/cases/{cid}/documents/notificacao?format=html", headers=h).text
    assert "conforme o ementário (art. 2º, parágrafo único" in notice
    assert "art. 10" not in notice and "art. 9º" not in notice
    assert "Notificação ao armador e ao comandante" in notice
    logged = {e["command"]: e["payload"].get("basis") for e in
              c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"]}
    assert logged["notify"] == logged["record_not_remedied"] == "IN SIT nº 70/2007, art. 2º"
    found = [f["id"] for f in case["facts"]["findings"] if f["severity"] == "violation"]
    auto = c.post(url, headers=h, json={
        "command": "draft_auto", "kind": "ementario", "ementa": "000000-0",
        "capitulation": "Lei 9.432/1997, art. 4º", "findings": found,
        "against": {"name": "Armador Nacional Ltda"}})
    assert auto.status_code == 200, auto.text
    after = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert "national_autos" not in [s["id"] for s in after["open_steps_detail"]]
    assert after["facts"]["autos"][0]["basis"]["provision"] == "art. 2º, parágrafo único"


def test_the_federal_police_letter_names_foreigners_only(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ",
                         name="Ana Souza"))
    c = client_for(sqlite_url)
    vc = q01_case()
    _, url = _to_findings(c, h, vc, "2026-04-01", DOCKED)
    _refused_notice(c, h, url, "2026-04-01", "2026-04-10", repatriation=True)
    br = next(p["id"] for p in vc["crew"] if p["nationality"] == "BR")
    foreign = next(p["id"] for p in vc["crew"] if p["nationality"] != "BR")
    refused = c.post(url, headers=h, json={"command": "refer_federal_police",
                                           "crew": [br], "situation": "contract_expired"})
    assert refused.status_code == 422 and br in refused.json()["detail"]
    ok = c.post(url, headers=h, json={"command": "refer_federal_police",
                                      "crew": [foreign], "situation": "contract_expired"})
    assert ok.status_code == 200, ok.text
    letter = c.get(f"/api/v1/cases/{ok.json()['id']}/documents/oficio-policia-federal"
                   "?format=html", headers=h).text
    assert "<br>Ana Souza<br>Auditor(a)-Fiscal do Trabalho" in letter
    assert "ana@trabalho.gov.br" not in letter


def test_repatriation_deadlines_and_the_decree_only_from_the_decree_s_start(
        sqlite_url: str) -> None:
    # A 2008 case: ILO C166 was cited by IN SIT 70 as ratified (Decreto 2.670/1998); the
    # promulgating Decreto 6.968/2009 and its deadlines did not exist yet.
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    vc = q01_case()
    vc["operation"]["ajb_presence"] = [{"entry": "2008-01-10", "exit": None}]
    cid, url = _to_findings(c, h, vc, "2008-09-01", {**DOCKED, "expected_unberthing":
                                                     "2008-09-20"})
    foreign = next(p["id"] for p in vc["crew"] if p["nationality"] != "BR")
    _refused_notice(c, h, url, "2008-09-01", "2008-09-05", repatriation=True)
    got = c.post(url, headers=h, json={"command": "refer_federal_police", "crew": [foreign],
                                       "situation": "contract_expired",
                                       "recorded_on": "2008-09-03"})
    assert got.status_code == 200, got.text
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert [d["kind"] for d in case["deadlines"]] == ["notification"]
    letter = c.get(f"/api/v1/cases/{cid}/documents/oficio-policia-federal?format=html",
                   headers=h).text
    assert "Decreto nº 2.670/1998" in letter and "6.968" not in letter


def test_a_flag_that_differs_between_pre_boarding_and_vessel_is_warned(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = _open(c, h)  # pre-boarding flag NO
    url = f"/api/v1/cases/{cid}/commands"
    vc = q01_case()
    vc["vessel"].update(flag="PA")
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": vc}):
        assert c.post(url, headers=h, json=body).status_code == 200
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    warned = [w for w in case["warnings"] if w["code"] == "flag_mismatch"]
    assert [(w["pre_boarding_flag"], w["vessel_flag"]) for w in warned] == [("NO", "PA")]
    # an inspector is not offered what only the regional chief may do
    assert "assign_team" not in case["allowed_commands"]
    chief = bearer(make_user(sqlite_url, "chefe@trabalho.gov.br", "regional_chief", "RJ"))
    assert "assign_team" in c.get(f"/api/v1/cases/{cid}", headers=chief).json()[
        "allowed_commands"]


def test_a_document_is_signed_by_the_team_of_its_day_and_events_log_their_basis(
        sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ",
                         name="Ana Souza"))
    chief = bearer(make_user(sqlite_url, "chefe@trabalho.gov.br", "regional_chief", "RJ"))
    make_user(sqlite_url, "bruno@trabalho.gov.br", "inspector", "RJ", name="Bruno Lima")
    c = client_for(sqlite_url)
    cid, url = _to_findings(c, h, q01_case(), "2026-04-01", DOCKED)
    _documents_received(c, h, cid, url)
    for body in ({"command": "notify", "deadline": "2099-01-12"},
                 {"command": "record_remedied"}, {"command": "draft_auto", "kind": "cnig"},
                 {"command": "write_report", "summary": "Ação concluída"}):
        got = c.post(url, headers=h, json=body)
        assert got.status_code == 200, (body, got.text)
    joined = c.post(url, headers=chief, json={"command": "assign_team",
                                              "team": ["bruno@trabalho.gov.br"]})
    assert joined.status_code == 200, joined.text
    report = c.get(f"/api/v1/cases/{cid}/documents/relatorio?format=html", headers=h).text
    assert "Ana Souza" in report and "Bruno" not in report
    # it ends with the place and date and a signature line per inspector of its day
    assert "<br>Ana Souza<br>Auditor(a)-Fiscal do Trabalho" in report
    late = c.post(url, headers=h, json={"command": "draft_auto", "kind": "cnig"})
    assert late.status_code == 409  # after the report, only an auto still owed
    events = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"]
    basis = {e["command"]: e["payload"].get("basis") for e in events}
    assert basis["notify"] == "IN SIT nº 70/2007, art. 9º"
    assert basis["write_report"] == "IN SIT nº 70/2007, art. 11"


def test_the_team_change_is_logged_as_it_results_and_lists_ignore_region_case(
        sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    chief = bearer(make_user(sqlite_url, "chefe@trabalho.gov.br", "regional_chief", "RJ"))
    make_user(sqlite_url, "bruno@trabalho.gov.br", "inspector", "RJ")
    c = client_for(sqlite_url)
    cid, _ = _open(c, h)
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=chief,
               json={"command": "assign_team", "team": ["bruno@trabalho.gov.br"]})
    assert r.json()["team"] == ["ana@trabalho.gov.br", "bruno@trabalho.gov.br"]
    ev = c.get(f"/api/v1/cases/{cid}/events", headers=chief).json()["events"][-1]
    assert ev["payload"]["team_after"] == ["ana@trabalho.gov.br", "bruno@trabalho.gov.br"]
    assert c.get("/api/v1/cases?region=rj", headers=chief).json()["total"] == 1


def test_the_pre_boarding_flag_is_a_country_as_a_vessel_case_s(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = _open(c, h)  # pre-boarding flag NO
    url = f"/api/v1/cases/{cid}/commands"
    body = {"command": "record_pre_boarding", "facts": {"flag": "Panamá"}}
    # a recorded flag replaced: only by a write that names the version it read
    r = c.post(url, headers=h, json=body)
    assert r.status_code == 428 and r.json()["errors"][0]["field"] == "version"
    assert "(facts.flag)" in r.json()["detail"] and r.json()["current_version"] == 1
    r = c.post(url, headers={**h, "If-Match": '"1"'}, json=body)
    assert r.status_code == 200 and r.json()["facts"]["pre_boarding"]["flag"] == "PA"
    for bad in ("XX", "zz"):
        r = c.post(url, headers=h, json={"command": "record_pre_boarding",
                                         "facts": {"flag": bad}})
        assert r.status_code == 422 and r.json()["errors"][0]["field"] == "facts.flag"
        assert "desconhecid" in r.json()["errors"][0]["message"]


def test_a_draft_auto_drafted_in_error_is_voided_with_its_reason(db_url: str) -> None:
    """void_auto sets a minuta aside: kept in the case and the trail, marked void with who,
    when and why; its number is not reused; the art. 14 auto can then be drafted again;
    the auto document prints only the autos in force, and the report says which was voided."""
    h = bearer(make_user(db_url, "ana@trabalho.gov.br", "inspector", "RJ", name="Ana Souza"))
    c = client_for(db_url)
    cid, url = _to_findings(c, h, q01_case(), "2026-04-01", DOCKED)
    _documents_received(c, h, cid, url)
    for body in ({"command": "notify", "deadline": "2099-01-12"},
                 {"command": "record_remedied"},
                 {"command": "draft_auto", "kind": "cnig", "facts": "Texto com erro."}):
        got = c.post(url, headers=h, json=body)
        assert got.status_code == 200, (body, got.text)
    again = c.post(url, headers=h, json={"command": "draft_auto", "kind": "cnig"})
    assert again.status_code == 409  # one art. 14 auto while A1 stands
    no_reason = c.post(url, headers=h, json={"command": "void_auto", "auto": "A1"})
    assert no_reason.status_code == 422 and "reason" in no_reason.text
    voided = c.post(url, headers=h, json={"command": "void_auto", "auto": "A1",
                                          "reason": "Histórico redigido com erro."})
    assert voided.status_code == 200, voided.text
    twice = c.post(url, headers=h, json={"command": "void_auto", "auto": "A1",
                                         "reason": "de novo"})
    assert twice.status_code == 409
    assert "não há auto de infração a anular" in twice.json()["detail"]
    redo = c.post(url, headers=h, json={"command": "draft_auto", "kind": "cnig"})
    assert redo.status_code == 200, redo.text
    facts = c.get(f"/api/v1/cases/{cid}", headers=h).json()["facts"]
    assert [a["id"] for a in facts["autos"]] == ["A1", "A2"]
    assert facts["autos"][0]["voided"] == {"on": facts["autos"][0]["voided"]["on"],
                                           "by": "ana@trabalho.gov.br",
                                           "reason": "Histórico redigido com erro."}
    events = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"]
    assert [e["payload"].get("auto") for e in events if e["command"] == "void_auto"] == ["A1"]
    docs = f"/api/v1/cases/{cid}/documents"
    auto = c.get(f"{docs}/auto-infracao?format=html", headers=h).text
    assert "Auto de infração A2" in auto and "Auto de infração A1" not in auto
    old = c.get(f"{docs}/auto-infracao?format=html&auto=A1", headers=h)
    assert old.status_code == 422 and "auto 'A1' anulado neste caso" in old.text
    report = c.post(url, headers=h, json={"command": "write_report", "summary": "Concluída"})
    assert report.status_code == 200, report.text
    rel = " ".join(c.get(f"{docs}/relatorio?format=html", headers=h).text.split())
    assert "(minuta anulada em" in rel and "por Ana Souza: Histórico redigido com erro)" in rel
    assert rel.count("(cópia anexa, art. 15)") == 1  # A2 only


def test_an_ementario_auto_missing_its_data_is_told_all_at_once(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    _, url = _to_findings(c, h, q01_case(), "2026-04-01", DOCKED)
    bare = c.post(url, headers=h, json={"command": "draft_auto", "kind": "ementario"})
    assert bare.status_code == 422, bare.text
    said = bare.json()["detail"]
    assert "o auto do ementário precisa de: ementa, capitulation, against, findings" in said
    assert bare.json()["errors"][0]["field"] == "ementa"
    unknown = c.post(url, headers=h, json={
        "command": "draft_auto", "kind": "ementario", "ementa": "130123-4",
        "capitulation": "NR-30, item 30.4.2", "against": {"name": "Armador Ltda"},
        "findings": ["F99"]})
    assert unknown.status_code == 422 and "constatação desconhecida: F99" in unknown.text

"""Trial findings on the audit trail's reach: a case with no events, an event edited behind
the system's back, and user rows (role, region, active…) are bound to the trail — caught by
``abordo audit verify`` and refused by the service, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from abordo.cases import audit
from abordo.cases.db import get_engine, session_factory
from abordo.cases.models import AuditEvent
from cases_service.support import DOCKED, bearer, client_for, make_user
from cases_service.test_trial_findings import run_cli


def _open(c: TestClient, h: dict[str, str]) -> int:
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _refused_everywhere(c: TestClient, h: dict[str, str], cid: int) -> None:
    """Every read and write of the case is the integrity refusal; a list names it by id."""
    for path in ("", "/events", "/documents", "/documents/relatorio"):
        r = c.get(f"/api/v1/cases/{cid}{path}", headers=h)
        assert r.status_code == 409, (path, r.text)
        assert r.json()["type"] == "/problems/integrity", path
    w = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
               json={"command": "start_assessment"})
    assert w.status_code == 409 and w.json()["type"] == "/problems/integrity", w.text
    items = c.get("/api/v1/cases", headers=h).json()["items"]
    assert {"id": cid, "integrity": "blocked"} in items


def _verify(db_url: str, capsys: pytest.CaptureFixture[str],
            monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    return run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)


# ------------------------------------------------------------ a case without its events

@pytest.mark.parametrize("last", [True, False], ids=["last-event", "middle-event"])
def test_a_case_whose_events_were_removed_is_caught_and_blocked(
        db_url: str, last: bool, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    first = _open(c, h)
    second = _open(c, h)
    gone = second if last else first
    with get_engine(db_url).begin() as conn:  # its only event removed, the head rewound
        seq, prev = conn.execute(text("SELECT seq, prev_hash FROM audit_events "
                                      "WHERE case_id = :c"), {"c": gone}).one()
        conn.execute(text("DELETE FROM audit_events WHERE case_id = :c"), {"c": gone})
        if last:
            conn.execute(text("UPDATE audit_head SET seq = :s, hash = :h"),
                         {"s": seq - 1, "h": prev})
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1, out
    assert f"caso {gone}: nenhum evento na trilha" in out
    _refused_everywhere(c, h, gone)
    kept = first if last else second
    if last:  # the other case's events are whole: it is still served
        assert c.get(f"/api/v1/cases/{kept}", headers=h).status_code == 200


# ------------------------------------------------------------ an event edited by hand

def test_an_edited_event_is_not_served_as_genuine(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    cid = _open(c, h)
    assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={
        "command": "start_assessment", "reason": "denúncia do sindicato"}).status_code == 200
    assert c.get(f"/api/v1/cases/{cid}/events", headers=h).status_code == 200
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE audit_events SET reason = 'motivo forjado' "
                          "WHERE case_id = :c AND command = 'start_assessment'"), {"c": cid})
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1 and "o conteúdo não confere com o hash" in out
    _refused_everywhere(c, h, cid)
    events = c.get(f"/api/v1/cases/{cid}/events", headers=h)
    assert "motivo forjado" not in events.text


def test_an_event_edited_with_its_hash_recomputed_is_still_refused(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The forger recomputes the edited event's hash and links the next event to it: the
    next event then no longer hashes to its own stored hash."""
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    cid = _open(c, h)
    assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={
        "command": "start_assessment", "reason": "original"}).status_code == 200
    other = _open(c, h)  # the next event in the chain is another case's
    with session_factory(db_url)() as s:
        ev = s.execute(select(AuditEvent).where(AuditEvent.case_id == cid,
                                                AuditEvent.command == "start_assessment")
                       ).scalar_one()
        body = {**audit.event_body(ev), "reason": "forjado"}
        forged, seq = audit.event_hash(ev.prev_hash, body), ev.seq
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE audit_events SET reason = 'forjado', hash = :h "
                          "WHERE seq = :s"), {"h": forged, "s": seq})
        conn.execute(text("UPDATE audit_events SET prev_hash = :h WHERE seq = :s"),
                     {"h": forged, "s": seq + 1})
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1 and f"seq={seq + 1}" in out
    _refused_everywhere(c, h, cid)
    assert c.get(f"/api/v1/cases/{other}", headers=h).status_code == 409  # its event: forged


def _case_events(c: TestClient, h: dict[str, str], cid: int) -> list[dict[str, Any]]:
    r = c.get(f"/api/v1/cases/{cid}/events", headers=h)
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def test_untouched_cases_are_served_as_before(db_url: str) -> None:
    """The checks cost no false alarm: several cases, interleaved events, attachments."""
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    ids = [_open(c, h) for _ in range(3)]
    for cid in ids:
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                      json={"command": "start_assessment"}).status_code == 200
        assert c.post(f"/api/v1/cases/{cid}/attachments", headers=h,
                      files={"file": ("f.jpg", b"x", "image/jpeg")}).status_code == 201
    for cid in ids:
        assert len(_case_events(c, h, cid)) == 3
    items = c.get("/api/v1/cases", headers=h).json()["items"]
    assert all("integrity" not in i for i in items) and len(items) == 3
    with session_factory(db_url)() as s:
        assert audit.verify(s).ok


# ------------------------------------------------------------ every problem reported

def test_audit_verify_reports_every_problem_not_only_the_first(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    ids = [_open(c, h) for _ in range(4)]
    att = c.post(f"/api/v1/cases/{ids[3]}/attachments", headers=h,
                 files={"file": ("f.jpg", b"x", "image/jpeg")}).json()["id"]
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE audit_events SET reason = 'forjado' WHERE case_id = :c"),
                     {"c": ids[0]})
        conn.execute(text("UPDATE cases SET state = 'closed' WHERE id = :c"), {"c": ids[1]})
        conn.execute(text("DELETE FROM audit_events WHERE case_id = :c"), {"c": ids[2]})
        conn.execute(text("UPDATE attachments SET content = :b"), {"b": b"y"})
    with session_factory(db_url)() as s:
        res = audit.verify(s)
        assert not res.ok and res.omitted == 0
        lines = [str(p) for p in res.problems]
        assert res.broken_seq == res.problems[0].seq == 2  # the first one, as before
        capped = audit.verify(s, limit=2)
        assert len(capped.problems) == 2 and capped.omitted == len(lines) - 2
    expected = [f"caso {ids[0]}): o conteúdo não confere com o hash",
                "lacuna na sequência",
                f"caso {ids[1]}: estado 'closed' não é o do último evento",
                f"caso {ids[2]}: nenhum evento na trilha",
                f"anexo {att} do caso {ids[3]}"]
    for part in expected:
        assert sum(part in line for line in lines) == 1, (part, lines)
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1
    assert out.count("trilha de auditoria ADULTERADA:") == len(lines)
    assert f"{len(lines)} problema(s) encontrado(s)" in out
    for part in expected:
        assert part in out

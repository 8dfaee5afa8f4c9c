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
    before = _open(c, h)
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
    if last:  # the other cases' events are whole: they are still served
        for kept in (before, first):
            assert c.get(f"/api/v1/cases/{kept}", headers=h).status_code == 200
    else:  # the events next to the gap can no longer be vouched for: blocked too
        for near in (before, second):
            assert c.get(f"/api/v1/cases/{near}", headers=h).status_code == 409


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
        # the first one, as before (after ana's add_user and her token's issue)
        assert res.broken_seq == res.problems[0].seq == 3
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


# ------------------------------------------------------------ user rows

PASSWORD = "senha-segura-123"  # make_user's


def _login(c: TestClient, email: str, password: str = PASSWORD) -> Any:
    return c.post("/api/v1/auth/token", json={"email": email, "password": password})


def _blocked_user(r: Any) -> None:
    assert r.status_code == 403, r.text
    assert r.json()["type"] == "/problems/integrity"
    assert "abordo audit verify" in r.json()["detail"]


@pytest.mark.parametrize("edit", [
    "UPDATE users SET region = 'RJ' WHERE email = 'carla@x.gov.br'",    # another region's cases
    "UPDATE users SET role = 'admin' WHERE email = 'carla@x.gov.br'",   # every case, users
    "UPDATE users SET role = 'national', region = NULL "
    "WHERE email = 'carla@x.gov.br'",                                    # every case, read
], ids=["region", "role-admin", "role-national"])
def test_a_user_row_edited_by_hand_widens_no_access(
        db_url: str, edit: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    ana = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    carla = bearer(make_user(db_url, "carla@x.gov.br", "regional_chief", "SP"))
    c = client_for(db_url)
    cid = _open(c, ana)  # an RJ case: outside the SP chief's scope
    assert c.get(f"/api/v1/cases/{cid}", headers=carla).status_code == 404
    assert _verify(db_url, capsys, monkeypatch)[0] == 0
    with get_engine(db_url).begin() as conn:
        conn.execute(text(edit))
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1 and "usuário 2 (carla@x.gov.br): e-mail, nome, papel, região" in out
    # her token, a new login, her own view: refused, never the wider scope
    _blocked_user(c.get(f"/api/v1/cases/{cid}", headers=carla))
    _blocked_user(c.get("/api/v1/cases", headers=carla))
    _blocked_user(c.get("/api/v1/me", headers=carla))
    _blocked_user(c.post("/api/v1/users", headers=carla, json={
        "email": "x@x.gov.br", "role": "admin", "password": "12345678"}))
    _blocked_user(_login(c, "carla@x.gov.br"))
    assert c.get(f"/api/v1/cases/{cid}", headers=ana).status_code == 200  # others unaffected
    with get_engine(db_url).begin() as conn:  # put back as the trail left it: served again
        conn.execute(text("UPDATE users SET role = 'regional_chief', region = 'SP' "
                          "WHERE email = 'carla@x.gov.br'"))
    assert c.get(f"/api/v1/cases/{cid}", headers=carla).status_code == 404
    assert _verify(db_url, capsys, monkeypatch)[0] == 0


def test_a_disabled_user_re_enabled_or_a_password_replaced_by_hand_cannot_log_in(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from abordo.cases import auth

    make_user(db_url, "ana@x.gov.br", "inspector", "RJ")
    make_user(db_url, "bia@x.gov.br", "inspector", "RJ")
    c = client_for(db_url)
    with session_factory(db_url)() as s, s.begin():
        auth.deactivate_user(s, email="ana@x.gov.br", actor="test")
    assert _login(c, "ana@x.gov.br").status_code == 401
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE users SET active = true WHERE email = 'ana@x.gov.br'"))
        conn.execute(text("UPDATE users SET password_hash = :h WHERE email = 'bia@x.gov.br'"),
                     {"h": auth.hash_password("senha-do-intruso")})
    _blocked_user(_login(c, "ana@x.gov.br"))
    _blocked_user(_login(c, "bia@x.gov.br", "senha-do-intruso"))
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1 and "usuário 1 (ana@x.gov.br)" in out and "usuário 2 (bia@x.gov.br)" in out
    # nor does a change through the system carry the edit into a new event as genuine
    for command in (["users", "passwd", "--email", "bia@x.gov.br", "--password", "nova-senha-1"],
                    ["users", "disable", "--email", "ana@x.gov.br"]):
        code, out = run_cli([*command, "--db", db_url], capsys, monkeypatch)
        assert code == 2 and "abordo audit verify" in out, out
    assert _verify(db_url, capsys, monkeypatch)[0] == 1


@pytest.mark.parametrize("hide", [
    # the deactivation's unhashed lookup column cleared: the add_user event reads as last
    "UPDATE audit_events SET user_id = NULL WHERE command = 'deactivate_user'",
], ids=["index-cleared"])
def test_a_deactivation_hidden_in_the_trail_does_not_switch_a_user_back_on(
        db_url: str, hide: str) -> None:
    from abordo.cases import auth

    make_user(db_url, "ana@x.gov.br", "inspector", "RJ")
    make_user(db_url, "bia@x.gov.br", "inspector", "RJ")  # an event after ana's add_user
    c = client_for(db_url)
    with session_factory(db_url)() as s, s.begin():
        auth.deactivate_user(s, email="ana@x.gov.br", actor="test")
    make_user(db_url, "caio@x.gov.br", "inspector", "RJ")  # an event after the deactivation
    assert _login(c, "ana@x.gov.br").status_code == 401
    with get_engine(db_url).begin() as conn:
        conn.execute(text(hide))
        conn.execute(text("UPDATE users SET active = true WHERE email = 'ana@x.gov.br'"))
    _blocked_user(_login(c, "ana@x.gov.br"))


def test_a_user_inserted_by_hand_is_refused_and_reported(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from abordo.cases import auth

    make_user(db_url, "ana@x.gov.br", "inspector", "RJ")
    c = client_for(db_url)
    with get_engine(db_url).begin() as conn:
        conn.execute(text("INSERT INTO users (email, role, password_hash, active, created_at) "
                          "SELECT 'intruso@x.br', 'admin', :h, true, created_at FROM users"),
                     {"h": auth.hash_password(PASSWORD)})
        conn.execute(text("INSERT INTO api_tokens (user_id, token_hash, revoked, created_at) "
                          "SELECT id, :t, false, created_at FROM users "
                          "WHERE email = 'intruso@x.br'"), {"t": auth.token_digest("abd_x")})
    _blocked_user(_login(c, "intruso@x.br"))
    _blocked_user(c.get("/api/v1/cases", headers=bearer("abd_x")))
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1 and "(intruso@x.br): nenhum evento da trilha registra" in out


def test_a_tampered_inspector_is_not_designated_nor_signs(db_url: str) -> None:
    chief = bearer(make_user(db_url, "chefe@x.gov.br", "regional_chief", "RJ"))
    make_user(db_url, "ana@x.gov.br", "inspector", "RJ", name="Ana Souza")
    make_user(db_url, "bia@x.gov.br", "inspector", "SP", name="Bia Lima")
    c = client_for(db_url)
    r = c.post("/api/v1/cases", headers=chief, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED, "team": ["ana@x.gov.br"]})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    with get_engine(db_url).begin() as conn:  # an SP inspector moved to RJ by hand
        conn.execute(text("UPDATE users SET region = 'RJ' WHERE email = 'bia@x.gov.br'"))
    assigned = c.post(f"/api/v1/cases/{cid}/commands", headers=chief, json={
        "command": "assign_team", "team": ["bia@x.gov.br"]})
    assert assigned.status_code == 422, assigned.text
    assert assigned.json()["errors"][0]["field"] == "team[0]"
    assert "abordo audit verify" in assigned.json()["detail"]
    for body in ({"command": "start_assessment"}, {"command": "close_unfounded",
                                                   "reason": "sem fundamento",
                                                   "consulted": "master"}):
        ran = c.post(f"/api/v1/cases/{cid}/commands", headers=chief, json=body)
        assert ran.status_code == 200, ran.text
    signed = c.get(f"/api/v1/cases/{cid}/documents/relatorio", headers=chief)
    assert signed.status_code == 200 and "Ana Souza" in signed.text
    with get_engine(db_url).begin() as conn:  # the signer's name changed by hand
        conn.execute(text("UPDATE users SET name = 'Outro Nome' WHERE email = 'ana@x.gov.br'"))
    doc = c.get(f"/api/v1/cases/{cid}/documents/relatorio", headers=chief)
    assert doc.status_code == 409 and doc.json()["type"] == "/problems/integrity"
    assert "Outro Nome" not in doc.text


def test_user_events_log_the_row_they_leave(db_url: str) -> None:
    """Each change through the system logs the row's digest: no false alarm after it."""
    from abordo.cases import auth

    make_user(db_url, "ana@x.gov.br", "inspector", "RJ")
    with session_factory(db_url)() as s, s.begin():
        auth.set_password(s, email="ana@x.gov.br", password="outra-senha-1", actor="t")
    c = client_for(db_url)
    assert _login(c, "ana@x.gov.br", "outra-senha-1").status_code == 200
    with session_factory(db_url)() as s, s.begin():
        auth.deactivate_user(s, email="ana@x.gov.br", actor="t")
    with session_factory(db_url)() as s:
        events = s.execute(select(AuditEvent).order_by(AuditEvent.seq)).scalars().all()
        # the token of make_user, revoked by the new password; the login's, by the
        # retirement: each issue and revocation logs the token's row
        assert [(e.command, e.user_id, e.token_id) for e in events] == [
            ("add_user", 1, None), ("issue_token", None, 1), ("revoke_token", None, 1),
            ("set_password", 1, None), ("issue_token", None, 2), ("revoke_token", None, 2),
            ("deactivate_user", 1, None)]
        assert all(len(e.payload["user_sha256" if e.user_id else "token_sha256"]) == 64
                   for e in events)
        assert audit.verify(s).ok


# ------------------------------------------------------------ migration 0004

def _old_event(conn: Any, command: str, payload: dict[str, Any]) -> None:
    """An event as the code before 0004 appended it (no user_id column, no digest)."""
    import sqlalchemy as sa

    from abordo.cases.models import UTCDateTime, utcnow

    events = sa.table("audit_events", *(sa.column(n) for n in (
        "seq", "case_id", "actor", "command", "reason", "state_before", "state_after",
        "prev_hash", "hash")), sa.column("at", UTCDateTime()), sa.column("payload", sa.JSON))
    head = conn.execute(text("SELECT seq, hash FROM audit_head WHERE id = 1")).one_or_none()
    if head is None:
        conn.execute(text("INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, :g)"),
                     {"g": audit.GENESIS})
        head = (0, audit.GENESIS)
    ev = AuditEvent(seq=head[0] + 1, case_id=None, actor="test", at=utcnow(), command=command,
                    reason=None, state_before=None, state_after=None, payload=payload,
                    prev_hash=head[1], hash="")
    ev.hash = audit.event_hash(head[1], audit.event_body(ev))
    conn.execute(sa.insert(events).values(
        seq=ev.seq, case_id=None, actor="test", at=ev.at, command=command, reason=None,
        state_before=None, state_after=None, payload=payload, prev_hash=ev.prev_hash,
        hash=ev.hash))
    conn.execute(text("UPDATE audit_head SET seq = :s, hash = :h"), {"s": ev.seq, "h": ev.hash})


def _old_user(conn: Any, uid: int, email: str, role: str, region: str | None,
              active: bool = True) -> None:
    from abordo.cases import auth

    conn.execute(text("INSERT INTO users (id, email, name, role, region, password_hash, active, "
                      "created_at) VALUES (:i, :e, NULL, :r, :g, :p, :a, CURRENT_TIMESTAMP)"),
                 {"i": uid, "e": email, "r": role, "g": region, "a": active,
                  "p": auth.hash_password(PASSWORD)})


def test_migration_0004_binds_the_users_the_trail_agrees_with(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from alembic import command

    from abordo.cases.db import alembic_config, is_current

    cfg = alembic_config(db_url)
    with get_engine(db_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")  # the store as the previous head left it
    with get_engine(db_url).begin() as conn:
        # as add_user / deactivate_user logged them before: no digest
        _old_user(conn, 1, "ana@x.gov.br", "inspector", "RJ")
        _old_event(conn, "add_user", {"user_id": 1, "email": "ana@x.gov.br",
                                      "role": "inspector", "region": "RJ"})
        _old_user(conn, 2, "bia@x.gov.br", "inspector", "RJ", active=False)
        _old_event(conn, "add_user", {"user_id": 2, "email": "bia@x.gov.br",
                                      "role": "inspector", "region": "RJ"})
        _old_event(conn, "deactivate_user", {"user_id": 2})
        # changed by hand before the upgrade: its trail says SP
        _old_user(conn, 3, "carla@x.gov.br", "regional_chief", "RJ")
        _old_event(conn, "add_user", {"user_id": 3, "email": "carla@x.gov.br",
                                      "role": "regional_chief", "region": "SP"})
        _old_user(conn, 4, "intruso@x.br", "admin", None)  # inserted by hand: no event
    with get_engine(db_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    assert is_current(db_url)
    with session_factory(db_url)() as s:
        rows = s.execute(select(AuditEvent.seq, AuditEvent.command, AuditEvent.user_id)
                         .order_by(AuditEvent.seq)).all()
    assert [tuple(r) for r in rows] == [
        (1, "add_user", 1), (2, "add_user", 2), (3, "deactivate_user", 2), (4, "add_user", 3),
        (5, "bind_user", 1), (6, "bind_user", 2)]  # the lookup key filled; two bound
    c = client_for(db_url)
    assert _login(c, "ana@x.gov.br").status_code == 200
    assert _login(c, "bia@x.gov.br").status_code == 401  # disabled, as the trail says
    _blocked_user(_login(c, "carla@x.gov.br"))
    _blocked_user(_login(c, "intruso@x.br"))
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1 and out.count("nenhum evento da trilha registra") == 2
    assert "(carla@x.gov.br)" in out and "(intruso@x.br)" in out and "(ana@" not in out
    # down and up again: the chain untouched (the column is not hashed), nobody bound twice
    with get_engine(db_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")
        command.upgrade(cfg, "head")
    with session_factory(db_url)() as s:
        bound = s.execute(select(AuditEvent).where(AuditEvent.command == "bind_user"))
        assert len(bound.scalars().all()) == 2
        problems = [str(p) for p in audit.verify(s).problems]
    assert len(problems) == 2 and all("nenhum evento da trilha" in p for p in problems)


def test_audit_verify_asks_for_the_upgrade_of_an_older_schema(
        sqlite_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from alembic import command

    from abordo.cases.db import alembic_config

    cfg = alembic_config(sqlite_url)
    with get_engine(sqlite_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")
    code, out = _verify(sqlite_url, capsys, monkeypatch)
    assert code == 2 and "rode abordo db upgrade" in out


# ------------------------------------------------------------ API tokens and sessions

def _token_id(db_url: str, n: int = 1) -> int:
    with get_engine(db_url).begin() as conn:
        return int(conn.execute(text("SELECT id FROM api_tokens ORDER BY id")).all()[n - 1][0])


@pytest.mark.parametrize("edit", [
    # a token inserted by hand for a genuine user
    "INSERT INTO api_tokens (user_id, token_hash, revoked, created_at) "
    "SELECT id, '{forged}', false, created_at FROM users WHERE email = 'ana@x.gov.br'",
    # ana's token handed to bia (bia's scope, ana's secret)
    "UPDATE api_tokens SET user_id = (SELECT id FROM users WHERE email = 'bia@x.gov.br') "
    "WHERE id = 1",
    # a token's secret replaced: the forger's secret, ana's token
    "UPDATE api_tokens SET token_hash = '{forged}' WHERE id = 1",
], ids=["inserted", "moved-to-another-user", "secret-replaced"])
def test_a_token_made_or_changed_by_hand_grants_nothing_and_is_reported(
        db_url: str, edit: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from abordo.cases import auth

    ana = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    make_user(db_url, "bia@x.gov.br", "inspector", "SP")
    c = client_for(db_url)
    assert c.get("/api/v1/me", headers=ana).status_code == 200
    forged = "abd_forjado"
    with get_engine(db_url).begin() as conn:
        conn.execute(text(edit.format(forged=auth.token_digest(forged))))
    used = bearer(forged) if "forged" in edit else ana
    r = c.get("/api/v1/me", headers=used)
    _blocked_user(r)
    assert "token " in r.json()["detail"] and "abordo audit verify" in r.json()["detail"]
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1 and "token " in out and "do usuário" in out, out
    # the other user's own token is untouched: still served
    assert _login(c, "bia@x.gov.br").status_code == 200


def test_a_revoked_session_or_token_switched_back_on_by_hand_is_refused(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from abordo.cases import auth

    token = make_user(db_url, "ana@x.gov.br", "inspector", "RJ")
    c = client_for(db_url)
    with session_factory(db_url)() as s, s.begin():  # revoked through the system
        auth.set_password(s, email="ana@x.gov.br", password="outra-senha-1", actor="t")
    assert c.get("/api/v1/me", headers=bearer(token)).status_code == 401
    assert _verify(db_url, capsys, monkeypatch)[0] == 0
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE api_tokens SET revoked = false"))
    _blocked_user(c.get("/api/v1/me", headers=bearer(token)))
    code, out = _verify(db_url, capsys, monkeypatch)
    assert code == 1 and f"token {_token_id(db_url)} do usuário 1: o token gravado" in out
    # nor does hiding the revocation's index make it read as live
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE audit_events SET token_id = NULL "
                          "WHERE command = 'revoke_token'"))
    r = c.get("/api/v1/me", headers=bearer(token))
    _blocked_user(r)
    assert "não indexado" in r.json()["detail"]


def test_logout_is_an_event_and_the_session_stays_ended(db_url: str) -> None:
    make_user(db_url, "ana@x.gov.br", "inspector", "RJ")
    c = client_for(db_url)
    r = c.post("/api/v1/auth/login", json={"email": "ana@x.gov.br", "password": PASSWORD})
    csrf = {"X-CSRF-Token": r.json()["csrf_token"]}
    assert c.get("/api/v1/me").status_code == 200
    cookie = dict(c.cookies)
    assert c.post("/api/v1/auth/logout", headers=csrf).status_code == 200
    with session_factory(db_url)() as s:
        events = s.execute(select(AuditEvent.command, AuditEvent.actor, AuditEvent.token_id)
                           .order_by(AuditEvent.seq)).all()
        assert [tuple(e) for e in events][-2:] == [
            ("issue_token", "ana@x.gov.br", 2), ("revoke_token", "ana@x.gov.br", 2)]
        assert audit.verify(s).ok
    assert c.get("/api/v1/me", cookies=cookie).status_code == 401


def test_migration_0005_revokes_the_tokens_no_event_logs(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from alembic import command

    from abordo.cases.db import alembic_config

    old = make_user(db_url, "ana@x.gov.br", "inspector", "RJ")
    cfg = alembic_config(db_url)
    with get_engine(db_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
    with get_engine(db_url).begin() as conn:  # a token as the code before 0005 issued it
        conn.execute(text("INSERT INTO api_tokens (user_id, token_hash, revoked, label, "
                          "created_at) SELECT user_id, :h, false, 'api', created_at "
                          "FROM api_tokens"),
                     {"h": "0" * 64})
    with get_engine(db_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    with get_engine(db_url).begin() as conn:
        rows = conn.execute(text("SELECT id, revoked FROM api_tokens ORDER BY id")).all()
        indexed = conn.execute(text("SELECT token_id FROM audit_events "
                                    "WHERE command = 'issue_token'")).scalars().all()
    # the token its event logs is live again, the other revoked; the index filled again
    assert [(r[0], bool(r[1])) for r in rows] == [(1, False), (2, True)] and indexed == [1]
    c = client_for(db_url)
    assert c.get("/api/v1/me", headers=bearer(old)).status_code == 200
    assert _verify(db_url, capsys, monkeypatch)[0] == 0
    assert _login(c, "ana@x.gov.br").status_code == 200

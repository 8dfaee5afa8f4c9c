"""A unique value two requests create at the same moment: the one that loses the race gets
the answer of the check it passed (a 422 naming the field), not a database error."""

from __future__ import annotations

import secrets

import pytest
from sqlalchemy import event, func, select

from abordo.cases import audit, auth
from abordo.cases.db import session_factory
from abordo.cases.models import AuditEvent, AuditHead, Setting, User
from abordo.law.errors import InputError
from cases_service.support import bearer, client_for, make_user

RIVAL = "bia@trabalho.gov.br"


def _rival_first(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """Another request stores RIVAL after this one's duplicate check and before its insert
    (the password is hashed in between)."""
    real = auth.hash_password

    def hashed(password: str) -> str:
        monkeypatch.setattr(auth, "hash_password", real)
        make_user(url, RIVAL, "inspector", "RJ", name="Bia")
        return real(password)

    monkeypatch.setattr(auth, "hash_password", hashed)


def test_add_user_losing_the_race_is_the_duplicate_refusal(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _rival_first(monkeypatch, db_url)
    with session_factory(db_url)() as s:
        with pytest.raises(InputError) as refused, s.begin():
            auth.add_user(s, email="Bia@trabalho.gov.br", role="inspector", region="RJ",
                          password="senha-segura-123", actor="test", name="Beatriz")
        assert refused.value.field == "email"
        assert refused.value.message == f"usuário já existe: {RIVAL}"
        assert refused.value.message_en == f"user already exists: {RIVAL}"
        # the transaction is clean: the session goes on, and nothing of the loser is stored
        with s.begin():
            names = s.execute(select(User.name).where(User.email == RIVAL)).scalars().all()
            assert names == ["Bia"]
            # the rival's creation and its token's issue only
            assert s.execute(select(AuditEvent.command).order_by(AuditEvent.seq)
                             ).scalars().all() == ["add_user", "issue_token"]
            assert audit.verify(s).ok


def test_api_add_user_losing_the_race_is_a_422(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    admin = bearer(make_user(db_url, "admin@trabalho.gov.br", "admin", None))
    c = client_for(db_url)
    _rival_first(monkeypatch, db_url)
    r = c.post("/api/v1/users", headers=admin, json={
        "email": RIVAL, "role": "inspector", "region": "RJ", "name": "Beatriz",
        "password": "senha-segura-123"})
    assert r.status_code == 422, r.text
    assert r.json()["errors"] == [{"field": "email", "message": f"usuário já existe: {RIVAL}",
                                   "message_en": f"user already exists: {RIVAL}",
                                   "file": None, "row": None}]
    # the service goes on: the next user is created, the audit chain still verifies
    r = c.post("/api/v1/users", headers=admin, json={
        "email": "caio@trabalho.gov.br", "role": "inspector", "region": "RJ",
        "name": "Caio", "password": "senha-segura-123"})
    assert r.status_code == 201, r.text
    with session_factory(db_url)() as s:
        assert audit.verify(s).ok
        assert s.execute(select(func.count()).select_from(User)).scalar_one() == 3


def test_session_secret_stored_by_another_worker_first(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers' first logins: the one whose secret loses the race signs with the one
    stored."""
    monkeypatch.delenv("ABORDO_SECRET_KEY", raising=False)
    make_user(db_url, "ana@trabalho.gov.br", "inspector", "RJ")
    c = client_for(db_url)

    class Rival:
        """The secret this worker draws (48 bytes; tokens are 32) comes after the other
        worker stored its own."""

        @staticmethod
        def token_urlsafe(n: int) -> str:
            if n == 48:
                with session_factory(db_url)() as s, s.begin():
                    s.add(Setting(key="secret_key", value="segredo-do-outro-processo"))
                return "segredo-perdedor"
            return secrets.token_urlsafe(n)

    monkeypatch.setattr(auth, "secrets", Rival)
    r = c.post("/api/v1/auth/login", json={"email": "ana@trabalho.gov.br",
                                           "password": "senha-segura-123"})
    assert r.status_code == 200, r.text
    with session_factory(db_url)() as s:
        assert s.get(Setting, "secret_key") is not None
        assert s.execute(select(Setting.value)).scalars().all() == ["segredo-do-outro-processo"]
    me = c.get("/api/v1/me")  # the cookie signed with the stored secret is accepted
    assert me.status_code == 200 and me.json()["email"] == "ana@trabalho.gov.br"


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_first_events_at_once_chain_on(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a new database two first writes both find no chain head (PostgreSQL lets them
    run at once; SQLite has one writer at a time): the one whose head loses chains on."""
    rival: list[str] = []

    def rival_first(*_: object) -> None:  # before this write's head is inserted
        if not rival:
            rival.append(RIVAL)
            make_user(db_url, RIVAL, "inspector", "RJ", name="Bia")  # commits event 1

    event.listen(AuditHead, "before_insert", rival_first)
    try:
        with session_factory(db_url)() as s, s.begin():
            auth.add_user(s, email="caio@trabalho.gov.br", role="inspector", region="RJ",
                          password="senha-segura-123", actor="test", name="Caio")
    finally:
        event.remove(AuditHead, "before_insert", rival_first)
    assert rival == [RIVAL]
    with session_factory(db_url)() as s:
        events = s.execute(select(AuditEvent.seq, AuditEvent.payload)
                           .order_by(AuditEvent.seq)).all()
        assert [(seq, p.get("email"), p.get("token_id")) for seq, p in events] == [
            (1, RIVAL, None), (2, None, 1), (3, "caio@trabalho.gov.br", None)]
        result = audit.verify(s)
        assert result.ok and result.checked == 3

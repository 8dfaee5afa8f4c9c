"""Storage on both backends: migrations, aware timestamps, append-only hash-chained audit."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import select, text
from typer.testing import CliRunner

from abordo.cases import audit, auth
from abordo.cases.db import get_engine, is_current, normalize_url, session_factory, upgrade
from abordo.cases.models import AuditEvent, User
from abordo.faces.cli.main import app as cli_app
from abordo.law.errors import InputError
from cases_service.support import make_user


def test_migrated_to_head_and_idempotent(db_url: str) -> None:
    assert is_current(db_url)
    upgrade(db_url)  # second run is a no-op
    assert is_current(db_url)


def test_sqlite_is_wal(sqlite_url: str) -> None:
    with get_engine(sqlite_url).connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_url_normalization() -> None:
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("x.sqlite").startswith("sqlite:////")


def test_timestamps_are_aware_utc(db_url: str) -> None:
    make_user(db_url, "a@x.br", "admin", None)
    with session_factory(db_url)() as s:
        user = s.execute(select(User)).scalar_one()
        ev = s.execute(select(AuditEvent)).scalars().first()
        assert ev is not None
        for value in (user.created_at, ev.at):
            assert value.tzinfo is not None and value.utcoffset() == dt.timedelta(0)
    with pytest.raises(Exception, match="naive"), session_factory(db_url)() as s, s.begin():
        s.add(User(email="n@x.br", role="admin", created_at=dt.datetime(2026, 1, 1)))
        s.flush()


def test_events_cannot_be_updated_or_deleted_by_orm(db_url: str) -> None:
    make_user(db_url, "a@x.br", "admin", None)
    with session_factory(db_url)() as s:
        ev = s.execute(select(AuditEvent)).scalars().first()
        assert ev is not None
        ev.actor = "mallory"
        with pytest.raises(RuntimeError, match="append-only"):
            s.flush()
        s.rollback()
        ev2 = s.execute(select(AuditEvent)).scalars().first()
        s.delete(ev2)
        with pytest.raises(RuntimeError, match="append-only"):
            s.flush()


@pytest.mark.parametrize("tamper", [
    "UPDATE audit_events SET payload = '{\"email\": \"evil@x.br\"}' WHERE seq = 2",
    "UPDATE audit_events SET reason = 'edited' WHERE seq = 2",
    "DELETE FROM audit_events WHERE seq = 3",
])
def test_raw_sql_tampering_is_detected(db_url: str, tamper: str) -> None:
    for i in range(4):
        make_user(db_url, f"u{i}@x.br", "inspector", "RJ")
    with session_factory(db_url)() as s:
        assert audit.verify(s).ok and audit.verify(s).checked == 8  # add_user, issue_token each
    with get_engine(db_url).begin() as conn:
        conn.execute(text(tamper))
    with session_factory(db_url)() as s:
        res = audit.verify(s)
    assert not res.ok
    assert res.broken_seq in (2, 4)
    out = CliRunner().invoke(cli_app, ["audit", "verify", "--db", db_url])
    assert out.exit_code == 1 and f"seq={res.broken_seq}" in out.output


def test_removing_the_last_event_is_detected(db_url: str) -> None:
    for i in range(2):
        make_user(db_url, f"u{i}@x.br", "inspector", "RJ")
    with get_engine(db_url).begin() as conn:
        conn.execute(text("DELETE FROM audit_events WHERE seq = 2"))
    with session_factory(db_url)() as s:
        assert not audit.verify(s).ok


def test_cli_users_add_and_db_upgrade(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    db = str(tmp_path / "cli.sqlite")
    runner = CliRunner()
    assert runner.invoke(cli_app, ["db", "upgrade", "--db", db]).exit_code == 0
    r = runner.invoke(cli_app, ["users", "add", "--email", "x@y.br", "--role", "inspector",
                                "--region", "RJ", "--password", "segredo-123", "--name",
                                "Xavier Lima", "--db", db])
    assert r.exit_code == 0, r.output
    bad = runner.invoke(cli_app, ["users", "add", "--email", "z@y.br", "--role", "chef",
                                  "--db", db])
    assert bad.exit_code != 0
    # every bad field at once; the password's minimum is the API's
    bad = runner.invoke(cli_app, ["users", "add", "--email", "bad", "--role", "wizard",
                                  "--region", "XX", "--password", "x", "--db", db])
    assert isinstance(bad.exception, InputError)  # the entry point prints it, exit 2
    said = bad.exception.render()
    assert all(w in said for w in (
        "campo email: e-mail inválido", "campo role: papel desconhecido 'wizard'",
        "campo region: região desconhecida 'XX'",
        "campo password: senha curta demais (mínimo 8 caracteres)"))
    bad = runner.invoke(cli_app, ["users", "add", "--email", "y@y.br", "--role", "inspector",
                                  "--region", "RJ", "--db", db])
    assert isinstance(bad.exception, InputError) and bad.exception.field == "name"
    ok = runner.invoke(cli_app, ["audit", "verify", "--db", db])
    assert ok.exit_code == 0 and "1 eventos" in ok.output


def test_demo_admin_created_once(sqlite_url: str) -> None:
    from abordo.faces.cli.serve import ensure_demo_admin

    creds = ensure_demo_admin(sqlite_url)
    assert creds is not None and creds[0] == "admin@abordo.local"
    assert ensure_demo_admin(sqlite_url) is None


def test_a_user_can_be_given_a_new_password_and_be_disabled(db_url: str) -> None:
    """The demo administrator must not stay: a password is replaced (its tokens and sessions
    revoked), a user retired (no login, every token revoked), each an audit event; the chain
    still verifies."""
    with session_factory(db_url)() as s, s.begin():
        user = auth.add_user(s, email="Chefe@x.br", role="admin", region=None,
                             password="senha-antiga", actor="test")
        token = auth.issue_token(s, user, "cli")
    with session_factory(db_url)() as s, s.begin():
        with pytest.raises(InputError) as short:
            auth.set_password(s, email="chefe@x.br", password="curta", actor="test")
        assert short.value.field == "password"
        with pytest.raises(InputError) as unknown:
            auth.set_password(s, email="ninguem@x.br", password="senha-nova-1", actor="test")
        assert unknown.value.field == "email"
        user = auth.set_password(s, email="chefe@x.br", password="senha-nova-1", actor="test")
        assert auth.check_password(user, "senha-nova-1")
        assert not auth.check_password(user, "senha-antiga")
        assert auth.user_by_token(s, token) is None  # what the old password opened is closed
        token = auth.issue_token(s, user, "cli")
    with session_factory(db_url)() as s, s.begin():
        assert auth.user_by_token(s, token) is not None
        auth.deactivate_user(s, email="chefe@x.br", actor="test")
    with session_factory(db_url)() as s:
        assert auth.user_by_token(s, token) is None
        commands = [e.command for e in s.execute(
            text("SELECT command FROM audit_events ORDER BY seq")).all()]
        # each token's issue and revocation is an event too, before the user's change
        assert commands == ["add_user", "issue_token", "revoke_token", "set_password",
                            "issue_token", "revoke_token", "deactivate_user"]
        assert audit.verify(s).ok


def test_cli_users_passwd_disable_and_list(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    db = str(tmp_path / "u.sqlite")
    runner = CliRunner()
    assert runner.invoke(cli_app, ["users", "add", "--email", "a@x.br", "--role", "admin",
                                   "--password", "senha-123", "--db", db]).exit_code == 0
    r = runner.invoke(cli_app, ["users", "passwd", "--email", "a@x.br", "--db", db])
    assert r.exit_code == 0 and "senha trocada: a@x.br" in r.output
    assert "senha gerada: " in r.output
    r = runner.invoke(cli_app, ["users", "disable", "--email", "a@x.br", "--db", db])
    assert r.exit_code == 0 and "usuário desativado: a@x.br" in r.output
    r = runner.invoke(cli_app, ["users", "list", "--db", db])
    assert r.exit_code == 0 and "a@x.br" in r.output and "desativado" in r.output
    bad = runner.invoke(cli_app, ["users", "disable", "--email", "b@x.br", "--db", db])
    assert isinstance(bad.exception, InputError) and bad.exception.field == "email"
    missing = runner.invoke(cli_app, ["users", "list", "--db", str(tmp_path / "none.sqlite")])
    assert isinstance(missing.exception, InputError) and missing.exception.field == "--db"


def test_cli_ask_password_reads_it_twice_without_echo(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from abordo.faces.cli import serve

    monkeypatch.setattr(serve, "_at_terminal", lambda: True)  # as typed at a terminal
    assert isinstance(tmp_path, Path)
    db = str(tmp_path / "u.sqlite")
    runner = CliRunner()
    r = runner.invoke(cli_app, ["users", "add", "--email", "a@x.br", "--role", "admin",
                                "--ask-password", "--db", db], input="s3nha-longa\ns3nha-longa\n")
    assert r.exit_code == 0, r.output
    assert "s3nha-longa" not in r.output and "senha gerada" not in r.output
    r = runner.invoke(cli_app, ["users", "passwd", "--email", "a@x.br", "--ask-password",
                                "--db", db],
                      input="outra-senha-9\nerrada\noutra-senha-9\noutra-senha-9\n")
    assert r.exit_code == 0 and "senha trocada: a@x.br" in r.output
    assert "outra-senha-9" not in r.output
    assert "as duas senhas digitadas não conferem" in r.output
    with session_factory(f"sqlite:///{db}")() as s:
        user = s.scalars(select(User).where(User.email == "a@x.br")).one()
        assert auth.check_password(user, "outra-senha-9")
        assert not auth.check_password(user, "s3nha-longa")
    both = runner.invoke(cli_app, ["users", "passwd", "--email", "a@x.br", "--ask-password",
                                   "--password", "x", "--db", db])
    assert isinstance(both.exception, InputError) and both.exception.field == "password"


def test_cli_ask_password_without_a_terminal_reads_one_line(tmp_path: Path) -> None:
    # A script piping the password: one line of standard input, no prompts (and no English
    # warning from Python that the input may be echoed).
    db = str(tmp_path / "u.sqlite")
    runner = CliRunner()
    r = runner.invoke(cli_app, ["users", "add", "--email", "a@x.br", "--role", "admin",
                                "--ask-password", "--db", db], input="s3nha-longa\n")
    assert r.exit_code == 0, r.output
    assert "Senha" not in r.output and "Warning" not in r.output
    with session_factory(f"sqlite:///{db}")() as s:
        user = s.scalars(select(User).where(User.email == "a@x.br")).one()
        assert auth.check_password(user, "s3nha-longa")
    empty = runner.invoke(cli_app, ["users", "passwd", "--email", "a@x.br", "--ask-password",
                                    "--db", db], input="")
    assert isinstance(empty.exception, InputError) and empty.exception.field == "password"

"""Findings of the new-user trial: clear CLI database errors, no false tampering alarm, the
procedure in force by date, Portuguese API messages, one document checklist (the engine's)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from alembic import command
from sqlalchemy import text

from abordo.cases.checklist import checklist_for, cite, procedure_for
from abordo.cases.db import alembic_config, get_engine, session_factory
from abordo.cases.models import Case
from abordo.cases.steps import open_step_details, open_steps
from abordo.crew import parse_vessel_case
from abordo.faces.cli import main as cli_main
from abordo.vessel_check import check_vessel
from cases_service.conftest import PG_ADMIN_URL, _libpq
from cases_service.support import (
    DOCKED,
    REQUEST_DOCS,
    ROOT,
    bearer,
    client_for,
    make_user,
    q01_case,
)

PG_REFUSED = "postgresql://nouser@127.0.0.1:1/db"


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str],
            monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """``abordo <argv>`` through the real entry point (InputError → exit 2)."""
    monkeypatch.setattr(sys, "argv", ["abordo", *argv])
    monkeypatch.setenv("COLUMNS", "400")  # one line per message
    with pytest.raises(SystemExit) as exc:
        cli_main.run()
    out = capsys.readouterr()
    code = exc.value.code if isinstance(exc.value.code, int) else 1
    return code, out.out + out.err


# ----------------------------------------------------------------- 1. CLI database errors

@pytest.mark.parametrize(("argv", "message"), [
    (["db", "upgrade", "--db", "sqlite:////nonexistent/dir/x.sqlite"],
     "campo --db: pasta do banco não existe: /nonexistent/dir"),
    (["db", "upgrade", "--db", "foo://bar"],
     "campo --db: tipo de banco não suportado 'foo' em foo://bar"),
    (["db", "upgrade", "--db", "mysql://u@h/db"],
     "campo --db: driver do banco 'mysql' não instalado (MySQLdb)"),
    (["db", "upgrade", "--db", "postgresql://u@h:abc/db"],
     "campo --db: URL de banco inválida 'postgresql+psycopg://u@h:abc/db'"),
    (["serve", "--port", "0", "--db", "sqlite:////nonexistent/x.sqlite"],
     "campo --db: pasta do banco não existe: /nonexistent"),
    (["serve", "--port", "0", "--db", PG_REFUSED],
     "campo --db: não foi possível abrir o banco postgresql+psycopg://nouser@127.0.0.1:1/db: "
     "connection failed"),
    (["users", "add", "--email", "a@b.br", "--role", "admin", "--db", "foo://bar"],
     "campo --db: tipo de banco não suportado 'foo'"),
])
def test_database_errors_are_clear_and_exit_2(argv: list[str], message: str,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run_cli(argv, capsys, monkeypatch)
    assert code == 2
    assert "erro de entrada: " + message in out, out
    assert "Traceback" not in out


def test_serve_refuses_an_address_it_cannot_listen_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    db = tmp_path / "c.sqlite"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        for argv, message in (
                (["--port", "99999"], "campo --port: porta fora do intervalo 0–65535: 99999"),
                (["--port", "-1"], "campo --port: porta fora do intervalo 0–65535: -1"),
                (["--workers", "0"], "campo --workers: número de processos deve ser ≥ 1: 0"),
                (["--host", "999.1.1.1"], "campo --host: endereço desconhecido '999.1.1.1'"),
                (["--host", "192.0.2.1"], "campo --host: não é possível escutar em "
                 "192.0.2.1:8000: o endereço não pertence a esta máquina"),
                (["--port", str(taken)], f"campo --port: não é possível escutar em "
                 f"127.0.0.1:{taken}: endereço já em uso")):
            code, out = run_cli(["serve", "--db", str(db), *argv], capsys, monkeypatch)
            assert code == 2 and "erro de entrada: " + message in out, out
            assert "Traceback" not in out
            assert not db.exists()  # refused before the database is created


def test_password_is_not_printed(capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run_cli(["db", "upgrade", "--db", "postgresql://u:s3cr3t@127.0.0.1:1/db"],
                        capsys, monkeypatch)
    assert code == 2 and "postgresql+psycopg://u:***@127.0.0.1:1/db" in out
    assert "s3cr3t" not in out


def test_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("abordo")
    res = subprocess.run([str(exe), "audit", "verify", "--db", f"sqlite:///{tmp_path}/n.sqlite"],
                         capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin", "COLUMNS": "300", "ABORDO_LANG": "pt"})
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    assert f"campo --db: arquivo do banco não existe: {tmp_path}/n.sqlite" in res.stderr
    assert not (tmp_path / "n.sqlite").exists()


# ----------------------------------------------------------------- 2. audit verify

def test_audit_verify_mistyped_sqlite_path_creates_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "nope.sqlite"
    code, out = run_cli(["audit", "verify", "--db", f"sqlite:///{target}"], capsys, monkeypatch)
    assert code == 2
    assert f"arquivo do banco não existe: {target}" in out
    assert not target.exists() and list(tmp_path.iterdir()) == []
    # a bare path too (the default ./abordo.sqlite form)
    code, out = run_cli(["audit", "verify", "--db", str(target)], capsys, monkeypatch)
    assert code == 2 and not target.exists()


def test_audit_verify_without_schema_sqlite(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x INTEGER)").connection.close()
    code, out = run_cli(["audit", "verify", "--db", str(other)], capsys, monkeypatch)
    assert code == 2
    assert "banco sem o esquema do Abordo (rode abordo db upgrade)" in out
    not_db = tmp_path / "notes.txt"
    not_db.write_text("não é um banco\n" * 200, encoding="utf-8")
    code, out = run_cli(["audit", "verify", "--db", str(not_db)], capsys, monkeypatch)
    assert code == 2 and "não foi possível abrir o banco" in out


def test_audit_verify_without_schema_postgresql(pg_url: str,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"abordo_empty_{secrets.token_hex(4)}"
    with psycopg.connect(_libpq(PG_ADMIN_URL), autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{PG_ADMIN_URL.rsplit('/', 1)[0]}/{name}"
    try:
        code, out = run_cli(["audit", "verify", "--db", url], capsys, monkeypatch)
        assert code == 2
        assert "banco sem o esquema do Abordo (rode abordo db upgrade)" in out
        code, out = run_cli(["audit", "verify", "--db", PG_REFUSED], capsys, monkeypatch)
        assert code == 2 and "não foi possível abrir o banco" in out
    finally:
        get_engine(url).dispose()
        with psycopg.connect(_libpq(PG_ADMIN_URL), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_audit_verify_still_reports_tampering_with_exit_1(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    make_user(db_url, "a@x.br", "admin", None)
    make_user(db_url, "b@x.br", "admin", None)
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 0 and "4 eventos verificados" in out  # users and tokens
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE audit_events SET actor = 'mallory' WHERE seq = 2"))
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 1 and "seq=2" in out


# ----------------------------------------------------------------- 3. procedure by date

WARNING = ("O procedimento vigente (IN MTP nº 2/2021) não está modelado; o fluxo segue a "
           "IN SIT 70/2007, revogada em 10/12/2021.")


@pytest.mark.parametrize(("day", "version", "warned"), [
    ("2007-08-14", "in-sit-70-2007", False),
    ("2021-12-09", "in-sit-70-2007", False),
    ("2021-12-10", "in-mtp-2-2021", True),
    ("2026-03-01", "in-mtp-2-2021", True),
    ("2007-08-13", "pre-in-sit-70-2007", True),
])
def test_procedure_in_force_on_the_complaint_date(day: str, version: str,
                                                  warned: bool) -> None:
    proc = procedure_for(dt.date.fromisoformat(day))
    assert proc.version == version
    assert (proc.warning is not None) == warned
    if version == "in-mtp-2-2021":
        assert proc.warning is not None and proc.warning["message"] == WARNING
        assert proc.warning["code"] == "procedure_not_modelled"


def test_case_records_procedure_by_date_and_warns(db_url: str) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    old = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2021-12-09", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED}).json()
    new = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2021-12-10", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED}).json()
    assert (old["procedure_version"], old["warnings"]) == ("in-sit-70-2007", [])
    assert new["procedure_version"] == "in-mtp-2-2021"
    assert new["warnings"][0]["message"] == WARNING
    assert new["warnings"][0]["facts_date"] == "2021-12-10"
    assert old["workflow_procedure"] == new["workflow_procedure"] == "in-sit-70-2007"
    events = c.get(f"/api/v1/cases/{new['id']}/events", headers=h).json()["events"]
    assert events[0]["payload"]["procedure_version"] == "in-mtp-2-2021"
    assert events[0]["payload"]["procedure_not_modelled"] is True
    # the stored column itself
    with session_factory(db_url)() as s:
        stored = s.get(Case, new["id"])
        assert stored is not None and stored.procedure_version == "in-mtp-2-2021"


def test_migration_0002_backfills_procedure_version(db_url: str) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    cid = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-01-05", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED}).json()["id"]
    cfg = alembic_config(db_url)
    with get_engine(db_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")  # as stored before: always in-sit-70-2007
    with session_factory(db_url)() as s:
        assert s.execute(text("SELECT procedure_version FROM cases WHERE id = :i"),
                         {"i": cid}).scalar_one() == "in-sit-70-2007"
    with get_engine(db_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    with session_factory(db_url)() as s:
        assert s.execute(text("SELECT procedure_version FROM cases WHERE id = :i"),
                         {"i": cid}).scalar_one() == "in-mtp-2-2021"


def test_documents_carry_the_warning() -> None:
    from abordo.faces.reports import case_documents as documents
    from cases_service.test_documents import full_case

    case = full_case()  # complaint of 2026-03-28
    for kind in ("relatorio", "notificacao", "auto-infracao"):
        html = documents.render(kind, case, team=["ana@x.gov.br"])
        assert WARNING in html, kind
    case.data = {**case.data, "complaint": {**case.data["complaint"], "date": "2020-05-01"}}
    assert "não está modelado" not in documents.render("relatorio", case)


# ----------------------------------------------------------------- 4. Portuguese messages

def test_validation_messages_in_portuguese_with_field_paths(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    r = c.post("/api/v1/cases", headers=h, json={"complaint": {"source": "union",
                                                               "date": "2026-01-01"}})
    assert r.status_code == 422
    errors = {e["field"]: e for e in r.json()["errors"]}
    assert errors["complaint.content"]["message"] == "campo obrigatório ausente"
    assert errors["complaint.content"]["message_en"] == "Field required"
    assert errors["vessel_docked"]["message"] == "campo obrigatório ausente"
    assert r.json()["detail"] == ("complaint.content: campo obrigatório ausente; "
                                  "vessel_docked: campo obrigatório ausente")
    bad = c.post("/api/v1/cases", headers={**h, "content-type": "application/json"},
                 content=b'{"complaint": ')
    body = bad.json()
    assert bad.status_code == 422 and body["errors"][0]["field"] == "body"
    assert body["errors"][0]["message"] == "JSON inválido (posição 14)"
    assert body["errors"][0]["message_en"].startswith("JSON decode error: Expecting value")
    assert "JSON decode error" not in body["detail"]
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "sindicato", "date": "2026-01-01", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED})
    assert r.json()["errors"][0] == {
        "field": "complaint.source", "in": "body", "type": "literal_error",
        "message": "valor não permitido; esperado um de: 'crew_member', 'union', "
                   "'interested_party', 'inspector_observation' ou 'secretariat_planning'",
        "message_en": "Input should be 'crew_member', 'union', 'interested_party', "
                      "'inspector_observation' or 'secretariat_planning'"}
    cid = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-01-01", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED}).json()["id"]
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={"command": "fly"})
    assert r.json()["errors"][0]["field"] == "command"
    assert r.json()["errors"][0]["message"].startswith("valor não permitido: 'fly'")
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
               json={"command": "add_finding", "text": ""})
    assert r.json()["errors"][0]["message"] == "texto curto demais (mínimo 1 caractere)"
    # English on request
    r = c.post("/api/v1/cases?lang=en", headers=h, json={})
    assert r.json()["errors"][0]["message"] == "Field required"
    assert c.get("/api/v1/nowhere", headers=h).json()["detail"] == "recurso não encontrado"


def test_open_steps_carry_portuguese_labels() -> None:
    data = {"checklist": checklist_for(None, dt.date(2026, 4, 1)),
            "findings": [{"id": "F1", "source": "engine:quota", "severity": "violation"}],
            "notifications": [{"id": "N1", "outcome": None}]}
    details = open_step_details(data)
    assert [s["id"] for s in details] == ["documents", "quota_auto", "notification_outcome",
                                          "report"]
    assert details[0]["items"][5] == {
        "id": "crew_payroll", "label": "Recibos do último pagamento à tripulação (crew payroll)"}
    steps = open_steps(data)
    assert len(steps) == len(details)
    assert "Recibos do último pagamento à tripulação (crew payroll) [crew_payroll]" in steps[0]
    assert steps[1] == ("auto de infração por descumprimento de Resolução Normativa do CNIg — "
                        "cota ou imigração (art. 14)")


# ----------------------------------------------------------------- 5. one checklist

def _national() -> dict[str, Any]:
    import json

    import yaml

    data = yaml.safe_load((ROOT / "tests/cases/crew_quota/q04-brazilian-flag-chief-engineer.yaml")
                          .read_text(encoding="utf-8"))
    out: dict[str, Any] = json.loads(json.dumps(data["input"], default=str))
    return out


def _open_assessing(c: Any, h: dict[str, str], vc: dict[str, Any], day: str
                    ) -> tuple[int, int]:
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": day, "content": "x"}, "vessel_docked": True,
        "pre_boarding": DOCKED, "vessel_case": vc, "on": day})
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    out = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                 json={"command": "start_assessment"}).json()
    return cid, out["version"]


@pytest.mark.parametrize(("day", "verdict"), [("2026-04-01", "not_covered"),
                                              ("2020-04-01", "not_applicable")])
def test_brazilian_flag_vessel_gets_the_engine_checklist(db_url: str, day: str,
                                                         verdict: str) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    vc = _national()
    engine = check_vessel(parse_vessel_case(vc), dt.date.fromisoformat(day)).checklist
    assert engine is not None and engine.result["items"] == []
    assert engine.verdict.value == verdict
    cid, version = _open_assessing(c, h, vc, day)
    out = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                 json={**REQUEST_DOCS, "version": version}).json()
    assert out["state"] == "documents_requested"
    assert out["facts"]["checklist"] == []  # as `abordo check`: no art. 7 list (art. 2)
    basis = out["facts"]["checklist_basis"]
    assert basis["verdict"] == verdict and basis["source"] == "vessel_case"
    assert basis["national_vessel"].startswith("embarcação nacional: a IN SIT 70/2007 (art. 2º)")
    assert not any(s["id"] == "documents" for s in out["open_steps_detail"])
    # the inspector may still request art. 7 documents by hand, and record them
    out = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={
        "command": "record_document", "item": "crew_list", "status": "received"}).json()
    manual = out["facts"]["checklist"]
    assert manual == [{"item": "crew_list", "label": "Lista de tripulantes (crew list)",
                       "basis": cite("art. 7º"), "status": "received",
                       "recorded_on": manual[0]["recorded_on"], "binding": False,
                       "applies_because": "solicitado pelo Auditor-Fiscal do Trabalho",
                       "source": "manual"}]
    bad = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={
        "command": "record_document", "item": "passport", "status": "received"})
    assert bad.status_code == 422 and "documento desconhecido 'passport'" in bad.json()["detail"]


def test_manual_art7_request_at_request_documents(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, version = _open_assessing(c, h, _national(), "2026-04-01")
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={
        "command": "request_documents", "consulted": "master", "version": version,
        "extra_items": ["ship_registry", "crew_payroll"]})
    assert r.status_code == 200, r.text
    items = r.json()["facts"]["checklist"]
    assert [(i["item"], i["source"], i["basis"]["provision"]) for i in items] == [
        ("ship_registry", "manual", "art. 7º"), ("crew_payroll", "manual", "art. 7º")]
    assert r.json()["open_steps_detail"][0]["items"] == [
        {"id": "ship_registry", "label": "Registro do navio"},
        {"id": "crew_payroll", "label": "Recibos do último pagamento à tripulação (crew payroll)"}]
    # a new vessel case keeps the items asked by hand
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={
        "command": "set_vessel_case", "vessel_case": _national()})
    assert [i["item"] for i in r.json()["facts"]["checklist"]] == ["ship_registry",
                                                                  "crew_payroll"]


def test_foreign_vessel_checklist_is_the_engine_checklist(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    vc = q01_case()
    cid, version = _open_assessing(c, h, vc, "2026-04-01")
    out = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                 json={**REQUEST_DOCS, "version": version}).json()
    engine = check_vessel(parse_vessel_case(vc), dt.date(2026, 4, 1)).checklist
    assert engine is not None
    expected = []
    for item in engine.to_json("pt")["result"]["items"]:
        if item["stage"] != "documents":
            continue
        expected += [f"{item['id']}:{p}" for p in item["subjects"]] or [item["id"]]
    got = [i["item"] for i in out["facts"]["checklist"]]
    assert got == expected
    assert len(got) == 9 + 2 * 10  # 11 items, two of them per foreign crew member (10)
    assert all(i["binding"] is False for i in out["facts"]["checklist"])  # 2026: not in force
    assert out["facts"]["checklist_basis"]["verdict"] == "not_covered"


def test_audit_verify_catches_a_raw_edit_of_a_case_state(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    r = client_for(db_url).post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED})
    assert r.status_code == 201, r.text
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 0
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE cases SET state = 'closed'"))
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 1
    assert "estado 'closed' não é o do último evento da trilha ('received')" in out


def test_audit_verify_catches_a_raw_edit_of_a_case_s_facts(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED})
    cid = r.json()["id"]
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": q01_case()}):
        assert c.post(f"/api/v1/cases/{cid}/commands", headers=h, json=body).status_code == 200
    events = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"]
    logged = events[-1]["payload"]
    assert logged["vessel"]["name"] == "Atlantic Provider" and len(logged["crew_sha256"]) == 64
    assert logged["crew_ids"][:2] == ["C01", "C02"] and "name" not in str(logged["crew_ids"])
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 0, out
    with get_engine(db_url).begin() as conn:  # a finding removed behind the system's back
        data = conn.execute(text("SELECT data FROM cases")).scalar_one()
        data = json.loads(data) if isinstance(data, str) else data
        data["pre_boarding"]["agent"] = "outro agente"
        conn.execute(text("UPDATE cases SET data = :d"), {"d": json.dumps(data)})
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 1 and f"caso {cid}: os fatos gravados não são os do último evento" in out
    # and no write goes on top of it (the next event would take the edit for genuine)
    more = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                  json={"command": "record_document", "item": "crew_list", "status": "received"})
    assert more.status_code == 409 and more.json()["type"] == "/problems/integrity"
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 1
    with get_engine(db_url).begin() as conn:  # the team changed behind the system's back
        data["pre_boarding"]["agent"] = "Agência Marítima Exemplo"
        conn.execute(text("UPDATE cases SET data = :d"), {"d": json.dumps(data)})
        conn.execute(text("DELETE FROM case_members"))
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 1 and "região, responsável ou equipe" in out


def _open_docked(c: Any, h: dict[str, str]) -> int:
    """A case about a docked vessel, complaint of 2026-03-28; its id."""
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True, "pre_boarding": DOCKED})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_a_raw_edit_of_the_case_columns_or_team_is_caught_on_reads_too(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    carla = bearer(make_user(db_url, "carla@x.gov.br", "inspector", "SP"))
    c = client_for(db_url)
    cid = _open_docked(c, h)
    assert c.get(f"/api/v1/cases/{cid}", headers=h).status_code == 200
    with get_engine(db_url).begin() as conn:  # the procedure followed, changed by hand
        before = conn.execute(text("SELECT procedure_version, vessel_name FROM cases")).one()
        conn.execute(text("UPDATE cases SET procedure_version = 'in-mtp-2-2021', "
                          "vessel_name = 'Navio Trocado'"))
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 1 and "nome da embarcação ou versão do procedimento" in out
    read = c.get(f"/api/v1/cases/{cid}", headers=h)
    assert read.status_code == 409 and read.json()["type"] == "/problems/integrity"
    doc = c.get(f"/api/v1/cases/{cid}/documents/relatorio", headers=h)
    assert doc.status_code == 409
    with get_engine(db_url).begin() as conn:  # put back; then an outsider made a member
        conn.execute(text("UPDATE cases SET procedure_version = :p, vessel_name = :v"),
                     {"p": before[0], "v": before[1]})
    assert c.get(f"/api/v1/cases/{cid}", headers=h).status_code == 200
    with get_engine(db_url).begin() as conn:
        conn.execute(text("INSERT INTO case_members (case_id, user_id) SELECT :c, id FROM "
                          "users WHERE email = 'carla@x.gov.br'"), {"c": cid})
    seen = c.get(f"/api/v1/cases/{cid}", headers=carla)
    assert seen.status_code == 409 and "complaint" not in seen.text
    # listed by id only, for the outsider as for the owner: nothing the row says is shown
    for who in (carla, h):
        items = c.get("/api/v1/cases", headers=who).json()["items"]
        assert items == [{"id": cid, "integrity": "blocked"}]


def test_an_attachment_changed_behind_the_system_s_back_is_refused(
        db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    cid = _open_docked(c, h)
    att = c.post(f"/api/v1/cases/{cid}/attachments", headers=h,
                 files={"file": ("foto.jpg", b"original", "image/jpeg")}).json()["id"]
    url = f"/api/v1/cases/{cid}/attachments/{att}"
    assert c.get(url, headers=h).content == b"original"
    with get_engine(db_url).begin() as conn:  # the bytes swapped, the recorded hash kept
        conn.execute(text("UPDATE attachments SET content = :b"), {"b": b"forged"})
    swapped = c.get(url, headers=h)
    assert swapped.status_code == 409 and swapped.json()["type"] == "/problems/integrity"
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 1 and f"anexo {att}" in out
    with get_engine(db_url).begin() as conn:  # and the recorded hash made to match
        conn.execute(text("UPDATE attachments SET sha256 = :d"),
                     {"d": hashlib.sha256(b"forged").hexdigest()})
    assert c.get(f"/api/v1/cases/{cid}", headers=h).status_code == 409
    assert c.get(url, headers=h).status_code == 409


@pytest.mark.parametrize("edit", [
    "INSERT INTO attachments (case_id, filename, media_type, size, sha256, content, "
    "uploaded_by, uploaded_at) SELECT case_id, 'extra.jpg', media_type, size, sha256, content, "
    "uploaded_by, uploaded_at FROM attachments",          # a file nobody uploaded
    "DELETE FROM attachments",                             # an uploaded file removed
])
def test_an_attachment_inserted_or_removed_by_hand_is_caught(
        db_url: str, edit: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    cid = _open_docked(c, h)
    assert c.post(f"/api/v1/cases/{cid}/attachments", headers=h,
                  files={"file": ("foto.jpg", b"original", "image/jpeg")}).status_code == 201
    with get_engine(db_url).begin() as conn:
        conn.execute(text(edit))
    assert c.get(f"/api/v1/cases/{cid}", headers=h).status_code == 409
    code, out = run_cli(["audit", "verify", "--db", db_url], capsys, monkeypatch)
    assert code == 1 and "anexo" in out


def test_a_write_landing_between_the_two_reads_is_not_taken_for_tampering(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from abordo.cases import audit as audit_module

    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    cid = _open_docked(c, h)
    real = audit_module.case_events
    calls: list[int] = []

    def racing(session: Any, case_id: int) -> list[Any]:
        calls.append(1)
        if len(calls) == 1:  # another user's command commits after the row was read
            monkeypatch.setattr(audit_module, "case_events", real)
            other = client_for(db_url)
            assert other.post(f"/api/v1/cases/{case_id}/commands", headers=h,
                              json={"command": "start_assessment"}).status_code == 200
        return real(session, case_id)

    monkeypatch.setattr(audit_module, "case_events", racing)
    read = c.get(f"/api/v1/cases/{cid}", headers=h)
    assert read.status_code == 200, read.text
    assert read.json()["state"] == "assessing" and calls == [1]

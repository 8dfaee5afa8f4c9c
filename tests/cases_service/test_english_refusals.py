"""The workflow's refusals (409 / 403 / 404 / 413) speak the language asked: Portuguese by
default, English with ``?lang=en`` — and every refusal written in the source has both."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from pydantic import ValidationError

from abordo.cases import commands, transitions
from abordo.law.errors import SEP, Refusal, bilingual

from .support import DOCKED, REQUEST_DOCS, ROOT, bearer, client_for, make_user, q01_case

SRC = ROOT / "src" / "abordo"
REFUSALS = {"TransitionRefused", "CommandInvalid", "Forbidden", "NotFound", "Conflict",
            "Tampered", "_Raced", "HTTPException"}


def _open(c: Any, h: dict[str, str], lang: str = "") -> int:
    r = c.post(f"/api/v1/cases{lang}", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED, "on": "2026-04-01"})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _cmd(c: Any, h: dict[str, str], cid: int, body: dict[str, Any], lang: str = ""
         ) -> Any:
    return c.post(f"/api/v1/cases/{cid}/commands{lang}", headers=h, json=body)


def test_bilingual_splits_portuguese_and_english() -> None:
    assert bilingual(f"caso 3 não encontrado{SEP}case 3 not found") == (
        "caso 3 não encontrado", "case 3 not found")
    assert bilingual("só português") == ("só português", "só português")
    exc = commands.TransitionRefused(f"prazo{SEP}deadline", "deadline")
    assert (str(exc), exc.message, exc.message_en, exc.field) == (
        "prazo", "prazo", "deadline", "deadline")


def test_refusals_in_english_on_request(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = _open(c, h)
    # wrong state
    pt = _cmd(c, h, cid, {"command": "close"})
    en = _cmd(c, h, cid, {"command": "close"}, "?lang=en")
    assert pt.status_code == en.status_code == 409
    assert pt.json()["detail"] == ("comando 'close' não permitido no estado Denúncia recebida "
                                   "(received); permitido em: Relatório circunstanciado "
                                   "(report)")
    assert en.json()["detail"] == ("command 'close' not allowed in state 'received' "
                                   "(allowed in: report)")
    assert en.json()["errors"] == [{"field": "command", "message": en.json()["detail"],
                                    "message_en": en.json()["detail"]}]
    assert pt.json()["errors"][0]["message_en"] == en.json()["detail"]
    # an unmet guard
    for body in ({"command": "start_assessment"}, REQUEST_DOCS):
        assert _cmd(c, h, cid, body).status_code == 200
    r = _cmd(c, h, cid, {"command": "run_engines"}, "?lang=en")
    assert r.json()["detail"] == ("give the vessel's data and crew list first "
                                  "(set_vessel_case)")
    # a refusal naming the field at fault
    r = _cmd(c, h, cid, {"command": "add_finding", "text": "extintor vencido",
                         "severity": "violation"}, "?lang=en")
    assert r.json()["errors"][0]["field"] == "citation"
    assert r.json()["detail"].startswith("give the violation's legal basis (citation")
    # a date before the complaint: bad input (422), in English too
    r = _cmd(c, h, cid, {"command": "record_document", "item": "crew_list",
                         "status": "received", "recorded_on": "2026-03-01"}, "?lang=en")
    assert r.status_code == 422
    assert r.json()["errors"][0]["message"] == ("the record's date before the complaint "
                                                "(2026-03-28)")
    assert r.json()["errors"][0]["field"] == "recorded_on"
    # stale version
    r = _cmd(c, h, cid, {"command": "add_finding", "text": "x", "severity": "info",
                         "version": 1}, "?lang=en")
    assert r.status_code == 409 and r.json()["detail"].startswith("version 1 is stale: the "
                                                                  "case is at version")
    # not found, forbidden (Accept-Language too)
    r = c.get("/api/v1/cases/999", headers={**h, "Accept-Language": "en-GB"})
    assert (r.status_code, r.json()["detail"]) == (404, "case 999 not found")
    assert c.get("/api/v1/cases/999", headers=h).json()["detail"] == "caso 999 não encontrado"
    r = c.post("/api/v1/cases?lang=en", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED, "region": "SP"})
    assert (r.status_code, r.json()["detail"]) == (
        403, "cases can only be opened in one's own region")
    r = c.post("/api/v1/users?lang=en", headers=h, json={
        "email": "b@trabalho.gov.br", "role": "inspector", "region": "RJ",
        "password": "senha-segura-123"})
    assert (r.status_code, r.json()["detail"]) == (403, "only administrators create users")
    r = c.get("/api/v1/cases/1", headers={"Authorization": "Bearer nope"},
              params={"lang": "en"})
    assert (r.status_code, r.json()["detail"]) == (401, "invalid token")
    assert c.get("/api/v1/cases/1", headers={"Authorization": "Bearer nope"}
                 ).json()["detail"] == "token inválido"


def test_open_steps_refusal_lists_step_ids_in_english(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = _open(c, h)
    for body in ({"command": "start_assessment"},
                 REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": q01_case()},
                 {"command": "add_finding", "severity": "info", "text": "Cozinha vistoriada."}):
        assert _cmd(c, h, cid, body).status_code == 200, body
    pt = _cmd(c, h, cid, {"command": "write_report", "summary": "s"})
    en = _cmd(c, h, cid, {"command": "write_report", "summary": "s"}, "?lang=en")
    assert pt.json()["detail"].startswith("passos obrigatórios em aberto: ")
    assert en.json()["detail"].startswith("mandatory steps open: documents: ")
    assert "engines" in en.json()["detail"] and "passos" not in en.json()["detail"]


def _message_parts(node: ast.expr) -> str | None:
    """The literal text of a message argument (f-string parts joined), or None when it is
    not written there (a name or an attribute: checked where it is defined)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):  # the separator may be written {SEP}
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                       else SEP if isinstance(v, ast.FormattedValue)
                       and getattr(v.value, "id", None) == "SEP" else ""
                       for v in node.values)
    if isinstance(node, ast.BinOp):
        parts = [_message_parts(node.left), _message_parts(node.right)]
        return "".join(p for p in parts if p) if any(parts) else None
    return None


@pytest.mark.parametrize("path", sorted(
    p.relative_to(SRC).as_posix() for folder in ("cases", "faces/api", "faces/reports")
    for p in (SRC / folder).glob("*.py")))
def test_every_refusal_written_has_its_english(path: str) -> None:
    """A refusal raised with a Portuguese text and no English would reach an English client
    in Portuguese: each literal message is written "pt ‖ en"; so is each guard's."""
    tree = ast.parse((SRC / path).read_text(encoding="utf-8"))
    missing = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in REFUSALS:
                continue
            arg = node.args[1] if name == "HTTPException" and len(node.args) > 1 else \
                node.args[0]
            text = _message_parts(arg)
            if text is not None and SEP not in text:
                missing.append(f"line {node.lineno}: {text[:60]}")
        if isinstance(node, ast.FunctionDef) and node.name.startswith(("g_", "_art14")):
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    text = _message_parts(ret.value)
                    if text and SEP not in text:
                        missing.append(f"line {ret.lineno}: {text[:60]}")
    assert missing == []


def test_shared_refusal_texts_have_their_english() -> None:
    from abordo.cases import service

    for text in (transitions.NATIONAL_ART10, service.READ_ONLY, service.RACED,
                 *(t.roles_refusal for t in transitions.TRANSITIONS.values() if t.roles)):
        assert SEP in text, text
    assert isinstance(service.Busy(), Refusal) and service.Busy().message_en.startswith(
        "the case changed")


def test_runaway_inputs_are_refused_before_they_are_judged(sqlite_url: str) -> None:
    from abordo.crew.model import MAX_CREW
    from abordo.faces.api.app import MAX_BODY

    c = client_for(sqlite_url)
    body = q01_case()
    body["crew"] = [{"id": f"P{i}", "rank": "AB", "nationality": "PH"}
                    for i in range(MAX_CREW + 1)]
    r = c.post("/api/v1/check?on=2026-04-01", json=body)
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "crew"
    r = c.post("/api/v1/check?on=2026-04-01&lang=en", content=b"{}",
               headers={"content-type": "application/json",
                        "content-length": str(MAX_BODY + 1)})
    assert (r.status_code, r.json()["detail"]) == (413, "request body larger than 21 MB")


def test_a_pre_boarding_fact_against_boarding_is_named_in_english(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
        "vessel_docked": True, "pre_boarding": {**DOCKED, "free_pratique_granted": False}})
    cid = r.json()["id"]
    # recorded, and against boarding: said as such, not as a fact missing
    en = _cmd(c, h, cid, {"command": "start_assessment"}, "?lang=en").json()["detail"]
    assert en == ("free pratique not granted (free_pratique_granted): no boarding without it "
                  "(art. 5, II)")
    pt = _cmd(c, h, cid, {"command": "start_assessment"}).json()["detail"]
    assert pt == ("livre prática não concedida (free_pratique_granted): sem ela não se embarca "
                  "(art. 5º, II)")


def test_missing_pre_boarding_facts_are_named_in_portuguese_words(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "bia@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    facts = {k: v for k, v in DOCKED.items() if k not in ("quay", "berth")}
    cid = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
        "vessel_docked": True, "pre_boarding": facts}).json()["id"]
    pt = _cmd(c, h, cid, {"command": "start_assessment"}).json()["detail"]
    assert pt.endswith("faltam: cais (quay), berço (berth)")
    en = _cmd(c, h, cid, {"command": "start_assessment"}, "?lang=en").json()["detail"]
    assert en.endswith("missing: quay, berth")
    # A version the case never had is "not matching", not "stale".
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
               json={"command": "start_assessment", "version": 9})
    assert r.status_code == 409 and "versão 9 não confere: o caso está na versão" in r.text


def test_a_commands_own_bad_data_is_422_with_its_field(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = _open(c, h)
    for body in ({"command": "start_assessment"}, REQUEST_DOCS):
        assert _cmd(c, h, cid, body).status_code == 200
    r = _cmd(c, h, cid, {"command": "add_finding", "text": "sem EPI", "severity": "violation"})
    assert r.status_code == 422 and r.json()["type"] == "/problems/invalid-input"
    assert r.json()["errors"][0]["field"] == "citation"
    assert r.json()["detail"].startswith("informe o fundamento legal da irregularidade")
    r = _cmd(c, h, cid, {"command": "record_document", "item": "ship_registy",
                         "status": "received"}, "?lang=en")
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "item"
    assert r.json()["detail"].startswith("unknown document 'ship_registy'")
    # a state refusal stays a 409
    assert _cmd(c, h, cid, {"command": "close"}).status_code == 409


def test_an_unknown_country_is_said_in_english_on_request() -> None:
    """A validator's own two-language message (an unknown flag) keeps its English half."""
    from abordo.faces.api.problems import validation_message

    with pytest.raises(ValidationError) as exc:
        commands.PreBoarding.model_validate({"flag": "Atlantis"})
    pt, en = validation_message(exc.value.errors()[0])
    assert pt.startswith("país desconhecido 'Atlantis'")
    assert en.startswith("unknown country 'Atlantis'")

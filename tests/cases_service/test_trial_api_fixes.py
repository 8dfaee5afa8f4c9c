"""Findings of the second user trial of the REST API: the case search by vessel name (accents
and case aside, on both databases), fields named in every refusal, the JSON Schema of the
commands, the documents' legal basis, control characters in what documents print."""

from __future__ import annotations

from typing import Any

from alembic import command
from sqlalchemy import text

from abordo.cases.db import alembic_config, get_engine, session_factory
from cases_service.support import (
    DOCKED,
    REQUEST_DOCS,
    bearer,
    client_for,
    make_user,
    open_case,
    q01_case,
)

# ----------------------------------------------------------------- 4. search by vessel name

NAMES = ["NOSSA SENHORA DA CONCEIÇÃO", "São Jorge", "Atlantic Provider"]


def _search(c: Any, h: dict[str, str], q: str) -> list[str]:
    r = c.get("/api/v1/cases", headers=h, params={"q": q})
    assert r.status_code == 200, r.text
    return sorted(i["vessel_name"] for i in r.json()["items"])


def test_vessel_search_ignores_accents_and_case(db_url: str) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    for name in NAMES:
        open_case(c, h, pre_boarding={**DOCKED, "vessel_name": name})
    for q in ("CONCEIÇÃO", "conceição", "Conceicao", "senhora  da"):
        assert _search(c, h, q) == ["NOSSA SENHORA DA CONCEIÇÃO"], q
    for q in ("sao", "SÃO", "são jorge"):
        assert _search(c, h, q) == ["São Jorge"], q
    assert _search(c, h, "provider") == ["Atlantic Provider"]
    # the search's own characters are text, not wildcards
    assert _search(c, h, "%") == [] and _search(c, h, "_") == []
    # a name corrected later is found by its new spelling (the column follows the facts)
    cid = open_case(c, h, pre_boarding={**DOCKED, "vessel_name": "Maré Alta"})[0]
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={
        "command": "record_pre_boarding", "version": 1, "facts": {"vessel_name": "Ilha Bela"}})
    assert r.status_code == 200, r.text
    assert _search(c, h, "mare") == [] and _search(c, h, "ILHA BELA") == ["Ilha Bela"]


def test_migration_0003_fills_the_search_column(db_url: str) -> None:
    h = bearer(make_user(db_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(db_url)
    open_case(c, h, pre_boarding={**DOCKED, "vessel_name": "NOSSA SENHORA DA CONCEIÇÃO"})
    cfg = alembic_config(db_url)
    with get_engine(db_url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")  # as stored before: no folded column
        command.upgrade(cfg, "head")
    with session_factory(db_url)() as s:
        assert s.execute(text("SELECT vessel_search FROM cases")).scalar_one() == \
            "nossa senhora da conceicao"
    assert _search(c, h, "conceição") == ["NOSSA SENHORA DA CONCEIÇÃO"]


# ----------------------------------------------------- 9. a check of several fields names one

def test_a_check_of_several_fields_names_the_field_of_the_body(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = open_case(c, h)[0]
    url = f"/api/v1/cases/{cid}/commands"

    def fields(body: dict[str, Any], **params: str) -> list[str]:
        r = c.post(url, headers=h, json=body, params=params)
        assert r.status_code == 422, r.text
        return [e["field"] for e in r.json()["errors"]]

    assert fields({"command": "record_document", "status": "received"}) == ["item"]
    assert fields({"command": "record_document", "status": "received", "item": "crew_list",
                   "items": ["ship_registry"]}) == ["items"]
    r = c.post(url, headers=h, params={"lang": "en"},
               json={"command": "record_document", "status": "received"})
    assert r.json()["errors"][0]["message"] == "give item (one document) or items (several)"
    assert r.json()["detail"] == "item: give item (one document) or items (several)"
    # nested: an empty PSC record names its field inside the facts
    assert fields({"command": "record_pre_boarding", "facts": {"last_psc_inspection": {}}}) \
        == ["facts.last_psc_inspection.date"]
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-01", "content": "x"},
        "vessel_docked": True, "pre_boarding": {"last_psc_inspection": {}}})
    assert [e["field"] for e in r.json()["errors"]] == ["pre_boarding.last_psc_inspection.date"]


# ---------------------------------------------------- 10. a body the parser cannot read at all

def test_an_unparsable_body_is_a_422_naming_body(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = open_case(c, h)[0]
    url = f"/api/v1/cases/{cid}/commands"
    as_json = {**h, "content-type": "application/json"}
    r = c.post(url, headers=as_json, content="[" * 100_000)
    body = r.json()
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
    assert body["title"] == "Entrada inválida" and body["type"] == "/problems/invalid-input"
    assert body["detail"] == "body: JSON inválido (aninhamento profundo demais)"
    assert body["errors"][0]["field"] == "body"
    en = c.post(url, headers=as_json, params={"lang": "en"}, content="[" * 100_000).json()
    assert en["detail"] == "body: JSON decode error: nested too deeply"
    assert en["title"] == "Unprocessable Content"
    r = c.post(url, headers=as_json, content=b'{"command": "\xff"}')
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "body"
    assert r.json()["errors"][0]["message"] == "JSON inválido (o texto não está em UTF-8)"
    r = c.post(f"/api/v1/cases/{cid}/crew", content=b"--x\r\nfoo",
               headers={**h, "content-type": "multipart/form-data"})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "body"
    assert r.json()["errors"][0]["message"] == "formulário ilegível"


# ------------------------------------------------------- 11. every bad field of a user at once

def test_a_new_user_s_bad_fields_are_listed_at_once(sqlite_url: str) -> None:
    admin = bearer(make_user(sqlite_url, "adm@x.gov.br", "admin", None))
    c = client_for(sqlite_url)

    def refused(body: dict[str, Any]) -> list[str]:
        r = c.post("/api/v1/users", headers=admin, json={"email": "b@x.gov.br", **body})
        assert r.status_code == 422, r.text
        return sorted(e["field"] for e in r.json()["errors"])

    bad = {"name": "", "region": "R J", "password": "1234"}
    assert refused({**bad, "role": "inspector"}) == ["name", "password", "region"]
    assert refused({**bad, "role": "chefe"}) == ["name", "password", "region", "role"]
    assert refused({"role": "national", "password": " " * 8}) == ["password"]
    r = c.post("/api/v1/users", headers=admin, json={
        "email": "b@x.gov.br", "role": "national", "password": "\t" * 12})
    assert r.json()["errors"][0]["message"] == "senha em branco (só espaços)"
    # the schema still says what a role and a password are
    schema = c.get("/api/v1/openapi.json").json()["components"]["schemas"]["NewUser"]
    assert schema["properties"]["role"]["enum"] == ["inspector", "regional_chief", "national",
                                                    "admin"]
    assert schema["properties"]["password"]["minLength"] == 8
    ok = c.post("/api/v1/users", headers=admin, json={
        "email": "b@x.gov.br", "role": "inspector", "region": "rj", "name": "Bia",
        "password": "  senha com espaços  "})
    assert ok.status_code == 201 and ok.json()["region"] == "RJ"


def test_a_blank_password_is_refused_by_the_cli_rule_too(sqlite_url: str) -> None:
    import pytest

    from abordo.cases import auth
    from abordo.law.errors import InputError

    make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ")
    with session_factory(sqlite_url)() as s, s.begin(), \
            pytest.raises(InputError, match="senha em branco"):
        auth.set_password(s, email="ana@x.gov.br", password=" " * 10, actor="t")


# --------------------------------------------- 12. refusals name their field: file, 403, 413

def _to_documents_requested(c: Any, h: dict[str, str]) -> int:
    cid = open_case(c, h)[0]
    url = f"/api/v1/cases/{cid}/commands"
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": q01_case()}):
        assert c.post(url, headers=h, json=body).status_code == 200
    return cid


def test_a_crew_file_without_people_names_the_file_field(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = _to_documents_requested(c, h)
    for content, says in ((b"", "arquivo de tripulação vazio"),
                          (b"id,rank,nationality\n", "a lista de tripulação não tem nenhuma "
                                                     "pessoa")):
        r = c.post(f"/api/v1/cases/{cid}/crew", headers=h,
                   files={"file": ("lista.csv", content, "text/csv")})
        assert r.status_code == 422, r.text
        assert r.json()["errors"][0] | {} == {"field": "file", "message": says,
                                              "message_en": r.json()["errors"][0]["message_en"],
                                              "file": "lista.csv", "row": None}


def test_403_and_413_name_their_field(sqlite_url: str) -> None:
    from abordo.faces.api.inputs import MAX_UPLOAD

    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True, "region": "SP"})
    assert r.status_code == 403
    assert [(e["field"], e["message"]) for e in r.json()["errors"]] == [
        ("region", "só é possível abrir casos na própria região")]
    cid = open_case(c, h)[0]
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
               json={"command": "assign_team", "team": []})
    assert r.status_code == 403 and r.json()["errors"][0]["field"] == "command"
    # a role refusal with no input at fault lists none
    national = bearer(make_user(sqlite_url, "nat@x.gov.br", "national", None))
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=national,
               json={"command": "start_assessment"})
    assert r.status_code == 403 and "errors" not in r.json()
    big = b"x" * (MAX_UPLOAD + 1)
    r = c.post(f"/api/v1/cases/{cid}/attachments", headers=h,
               files={"file": ("foto.jpg", big, "image/jpeg")})
    assert r.status_code == 413 and r.json()["errors"][0]["field"] == "file"
    assert r.json()["detail"] == "anexo maior que 20 MB"
    r = c.post(f"/api/v1/cases/{cid}/crew", headers=h, params={"lang": "en"},
               files={"file": ("lista.csv", big, "text/csv")})
    assert r.status_code == 413 and r.json()["errors"][0] == {
        "field": "file", "message": "file larger than 20 MB",
        "message_en": "file larger than 20 MB"}
    r = c.post(f"/api/v1/cases/{cid}/commands", content=b"{}",
               headers={**h, "content-type": "application/json",
                        "content-length": str(30 * 2**20)})
    assert r.status_code == 413 and r.json()["errors"][0]["field"] == "body"


def test_a_missing_csrf_token_names_its_header(sqlite_url: str) -> None:
    make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ", password="senha-segura-123")
    c = client_for(sqlite_url)
    assert c.post("/api/v1/auth/login", json={"email": "ana@x.gov.br",
                                              "password": "senha-segura-123"}).status_code == 200
    r = c.post("/api/v1/cases", json={
        "complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
        "vessel_docked": True})
    assert r.status_code == 403 and r.json()["errors"][0]["field"] == "X-CSRF-Token"


# ------------------------------------- 14. the commands' JSON Schema says what the server needs

def test_the_command_schema_refuses_what_the_server_refuses(sqlite_url: str) -> None:
    import jsonschema

    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    schema = c.get("/api/v1/schemas/command", headers=h).json()
    assert schema["$defs"]["ReferFederalPolice"]["required"] == ["command", "crew",
                                                                 "situation"]

    def valid(body: dict[str, Any]) -> bool:
        return jsonschema.Draft202012Validator(schema).is_valid(body)

    # refused by the server whatever the case (422), so refused by the schema
    refused = [
        {"command": "refer_federal_police"},
        {"command": "refer_federal_police", "crew": ["C04"]},
        {"command": "refer_federal_police", "crew": [], "situation": "shipwreck"},
        {"command": "record_document", "status": "received"},
        {"command": "record_document", "status": "received", "item": "a", "items": ["b"]},
        {"command": "record_document", "status": "received", "items": []},
        {"command": "add_finding", "text": "cozinha suja"},
        {"command": "add_finding", "text": "cozinha suja", "severity": "violation",
         "citation": "  "},
        {"command": "record_physical_check", "area": "galley", "ok": False},
        {"command": "draft_auto", "kind": "ementario", "ementa": "130123-4"},
        {"command": "record_pre_boarding", "facts": {"last_psc_inspection": {}}},
    ]
    for body in refused:
        assert not valid(body), body
    accepted = [
        {"command": "refer_federal_police", "crew": ["C04"], "situation": "shipwreck"},
        {"command": "record_document", "status": "received", "item": "crew_list"},
        {"command": "record_document", "status": "received", "item": "crew_list",
         "items": []},
        {"command": "record_document", "status": "missing", "items": ["crew_list"]},
        {"command": "add_finding", "text": "nota", "severity": "info"},
        {"command": "add_finding", "text": "x", "citation": "NR-30, item 30.2.1"},
        {"command": "record_physical_check", "area": "galley", "ok": True},
        {"command": "draft_auto"},
        {"command": "draft_auto", "kind": "ementario", "ementa": "130123-4",
         "capitulation": "NR-30", "against": {"name": "X"}, "findings": ["F1"]},
        {"command": "record_pre_boarding", "facts": {"last_psc_inspection": {
            "notes": "nenhuma registrada"}}},
    ]
    for body in accepted:
        assert valid(body), body
    # and the server refuses the missing field at its name
    cid = open_case(c, h)[0]
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
               json={"command": "refer_federal_police", "crew": ["C04"]})
    assert r.status_code == 422 and [e["field"] for e in r.json()["errors"]] == ["situation"]


# ------------------------------------------- 15. documents: every act cited is in their basis

def _basis(html: str) -> dict[str, str | None]:
    """The "Fundamentação legal" of a document: label → URN (None when none is shown)."""
    import html as html_lib
    import re

    part = html.split("<h2>Fundamentação legal</h2>")[1].split("</ul>")[0]
    out: dict[str, str | None] = {}
    for item in re.findall(r"<li>(.*?)</li>", part, flags=re.S):
        m = re.fullmatch(r"(.*?)(?: <span class=\"muted\">&lt;(.*)&gt;</span>)?", item.strip(),
                         flags=re.S)
        assert m is not None
        out[html_lib.unescape(m.group(1))] = html_lib.unescape(m.group(2)) if m.group(2) \
            else None
    return out


def test_the_consul_letter_lists_every_act_its_text_cites() -> None:
    from abordo.faces.reports import case_documents as documents
    from cases_service.test_documents import full_case

    letter = documents.render("oficio-consul", full_case())
    text = letter.split("<h2>Fundamentação legal</h2>")[0]
    assert "Portaria Interministerial nº 80/2002 e da NORMAM 08" in text
    basis = _basis(letter)
    # not in the norms register: named, without a URN
    assert basis["Portaria Interministerial nº 80/2002"] is None
    assert basis["NORMAM 08"] is None
    assert basis["Portaria MTE nº 210/1999, art. 4º, VI"].startswith("urn:lex:br:")
    police = _basis(documents.render("oficio-policia-federal", full_case()))
    assert {"Convenção OIT nº 166, art. 2º", "Decreto nº 2.670/1998"} <= set(police)
    assert police["Decreto nº 6.968/2009 (execução da Convenção OIT 166)"] == \
        "urn:lex:br:federal:decreto:2009-09-29;6968"
    notice = _basis(documents.render("notificacao", full_case()))
    assert notice["IN SIT nº 70/2007, art. 10"].endswith("!art10")


def test_a_national_notification_lists_the_norms_it_names() -> None:
    from abordo.cases import checklist
    from abordo.faces.reports import case_documents as documents
    from cases_service.test_documents import full_case

    case = full_case()
    case.data["notifications"][0]["basis"] = checklist.cite("art. 2º")
    html = documents.render("notificacao", case)
    assert "a CLT, a NR-30 e a Convenção nº 147 da OIT" in html
    basis = _basis(html)
    assert basis["CLT"] == "urn:lex:br:federal:decreto.lei:1943-05-01;5452"
    assert basis["NR-30"] is None and basis["Convenção OIT nº 147"] is None
    assert basis["IN SIT nº 70/2007, art. 2º, parágrafo único"].endswith("!art2_par1u")


def test_the_report_gives_every_registered_norm_its_urn() -> None:
    """The engines' summary keeps citation labels only: each norm the register holds gets
    its URN in the relatório as the others do; a norm it does not hold has none."""
    from abordo.faces.reports import case_documents as documents
    from cases_service.test_documents import full_case

    case = full_case()
    case.data["engine_run"] = {"on": "2026-04-01", "summary": {"checklist": {"citations": [
        "IN SIT nº 70/2007, art. 5º, I", "IN SIT nº 70/2007, art. 5º, IV",
        "Lei nº 13.445/2017", "IN MTP nº 2/2021", "Código Civil, art. 132",
        "RN CNIg nº 06/2017, na redação da Res. CNIg nº 42/2020, arts. 6º a 8º"]}}}
    case.data["findings"].append({"id": "F9", "source": "inspector", "severity": "violation",
                                  "text": "x", "citation": {"label": "Convenção OIT 147, "
                                                                     "art. 5º", "urn": None}})
    basis = _basis(documents.render("relatorio", case))
    sit = "urn:lex:br:ministerio.trabalho.emprego;secretaria.inspecao.trabalho:" \
          "instrucao.normativa:2007-08-13;70"
    assert basis["IN SIT nº 70/2007, art. 5º, I"] == f"{sit}!art5_inc1"
    assert basis["IN SIT nº 70/2007, art. 5º, IV"] == f"{sit}!art5_inc4"
    assert basis["Lei nº 13.445/2017"] == "urn:lex:br:federal:lei:2017-05-24;13445"
    assert basis["IN MTP nº 2/2021"] == ("urn:lex:br:ministerio.trabalho.previdencia:"
                                         "instrucao.normativa:2021-11-08;2")
    assert basis["Código Civil, art. 132"] == "urn:lex:br:federal:lei:2002-01-10;10406!art132"
    # a range of articles: the norm's own URN, not the first article's
    assert basis["RN CNIg nº 06/2017, na redação da Res. CNIg nº 42/2020, arts. 6º a 8º"] \
        == "urn:lex:br:conselho.nacional.imigracao:resolucao.normativa:2017-12-01;6@2020-10-14"
    assert basis["Convenção OIT 147, art. 5º"] is None
    # (the fixture's engine finding carries a made-up "urn:x")
    assert all(urn is None or urn.startswith("urn:lex:br:") for urn in basis.values()
               if urn != "urn:x")


def test_a_complaint_source_keeps_its_capitals() -> None:
    from abordo.faces.reports import case_documents as documents
    from cases_service.test_documents import full_case

    case = full_case()
    case.data["complaint"]["source"] = "secretariat_planning"
    html = documents.render("relatorio", case)
    assert "Planejamento da Secretaria de Inspeção do Trabalho, em 28/03/2026" in html
    case.data["complaint"]["source"] = "inspector_observation"
    assert "Observação do Auditor-Fiscal do Trabalho, em" in documents.render("relatorio", case)


# ------------------------------------- 16. no control characters in what documents print

RLO, LRI, BEL = "\u202e", "\u2066", "\x07"


def test_bidi_and_control_characters_are_refused_at_their_field(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)

    def refused(r: Any) -> tuple[str, str]:
        assert r.status_code == 422, r.text
        e = r.json()["errors"][0]
        return e["field"], e["message"]

    opening = {"complaint": {"source": "union", "date": "2026-03-28", "content": "x"},
               "vessel_docked": True}
    r = c.post("/api/v1/cases", headers=h, json={
        **opening, "pre_boarding": {**DOCKED, "vessel_name": f"ATLANTIC {RLO}REDIVORP"}})
    assert refused(r) == ("pre_boarding.vessel_name",
                          "caractere de controle não permitido (U+202E)")
    r = c.post("/api/v1/cases", headers=h, params={"lang": "en"},
               json={**opening, "vessel_name": f"X{BEL}"})
    assert refused(r) == ("vessel_name", "control character not allowed (U+0007)")
    # a name is one line; a complaint, a finding, a reason may have several
    r = c.post("/api/v1/cases", headers=h, json={**opening, "vessel_name": "A\nB"})
    assert refused(r)[0] == "vessel_name"
    cid = open_case(c, h)[0]
    url = f"/api/v1/cases/{cid}/commands"
    r = c.post(url, headers=h, json={"command": "start_assessment",
                                     "reason": f"ok {LRI}x"})
    assert refused(r) == ("reason", "caractere de controle não permitido (U+2066)")
    r = c.post(url, headers=h, json={"command": "start_assessment",
                                     "reason": "linha 1\n\tlinha 2\r\n"})
    assert r.status_code == 200, r.text
    r = c.post(url, headers=h, json={**REQUEST_DOCS, "reason": f"{RLO}"})
    assert refused(r)[0] == "reason"
    assert c.post(url, headers=h, json=REQUEST_DOCS).status_code == 200
    vc = q01_case()
    vc["vessel"]["name"] = f"Atlantic{RLO} Provider"
    r = c.post(url, headers=h, json={"command": "set_vessel_case", "vessel_case": vc})
    assert refused(r)[0] == "vessel_case.vessel.name"
    r = c.post(url, headers=h, json={"command": "add_finding", "text": f"água {RLO}suja",
                                     "citation": "NR-30"})
    assert refused(r)[0] == "text"
    r = c.post(f"/api/v1/cases/{cid}/attachments", headers=h, data={"description": f"{RLO}"},
               files={"file": ("a.jpg", b"x", "image/jpeg")})
    assert refused(r)[0] == "description"
    assert c.get("/api/v1/cases", headers=h, params={"q": RLO}).status_code == 422


def test_a_crew_row_or_a_user_s_name_with_control_characters_is_refused(
        sqlite_url: str) -> None:
    admin = bearer(make_user(sqlite_url, "adm@x.gov.br", "admin", None))
    h = bearer(make_user(sqlite_url, "ana@x.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    r = c.post("/api/v1/users", headers=admin, json={
        "email": "b@x.gov.br", "role": "inspector", "region": "RJ",
        "name": f"Ana {RLO}azuoS", "password": "123"})
    assert sorted((e["field"], e["message"]) for e in r.json()["errors"]) == [
        ("name", "caractere de controle não permitido (U+202E)"),
        ("password", "senha curta demais (mínimo 8 caracteres)")]
    cid = _to_documents_requested(c, h)
    csv = f"id,rank,nationality\nC01,Master,NO\nC{RLO}02,Cook,PH\n".encode()
    r = c.post(f"/api/v1/cases/{cid}/crew", headers=h,
               files={"file": ("lista.csv", csv, "text/csv")})
    assert r.status_code == 422, r.text
    e = r.json()["errors"][0]
    assert (e["field"], e["file"], e["row"]) == ("id", "lista.csv", 3)
    r = c.put(f"/api/v1/cases/{cid}/crew/C01/documents", headers=h,
              json={"documents": [], "reason": f"visto {LRI}"})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "reason"


def test_a_document_held_but_not_listed_says_how_to_give_it() -> None:
    from abordo.cases import facts

    data: dict[str, Any] = {
        "checklist": [{"item": "foreign_crew_visas:C04", "subject": "C04",
                       "status": "received"}],
        "vessel_case": {"crew": [{"id": "C04"}]}}
    check = {"immigration": {"findings": [{"severity": "violation", "subject": "C04",
                                           "text": "C04: sem visto", "id": "x"}]}}
    found = facts.engine_findings(check, data)
    assert found[0]["severity"] == "warning"
    assert "informe tipo e validade em set_vessel_case ou em PUT /api/v1/cases/{id}/crew/" \
        "C04/documents" in found[0]["text"]

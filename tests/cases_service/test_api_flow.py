"""A full case driven by the API, from complaint to closed report, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import text
from typer.testing import CliRunner

from abordo.cases.db import get_engine
from abordo.faces.cli.main import app as cli_app
from cases_service.support import bearer, client_for, make_user, q01_case

PRE_BOARDING = {
    "agent": "Agência Marítima Exemplo", "vessel_name": "Atlantic Provider",
    "vessel_class": "PSV", "flag": "NO", "free_pratique_requested": True,
    "free_pratique_granted": True, "last_psc_inspection": {"date": "2026-02-10"},
    "expected_berthing": "2026-03-30", "expected_unberthing": "2026-04-05",
    "quay": "Cais do Caju", "berth": "3",
}


def test_full_case_by_api(db_url: str) -> None:
    token = make_user(db_url, "ana@trabalho.gov.br", "inspector", "RJ")
    h = bearer(token)
    c = client_for(db_url)

    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "union", "date": "2026-03-28",
                      "content": "Tripulantes brasileiros abaixo da cota; cozinha insalubre."},
        "vessel_docked": False, "on": "2026-04-01"})
    assert r.status_code == 201, r.text
    case = r.json()
    cid, version = case["id"], case["version"]
    assert case["state"] == "received"
    # complaint of 2026: the procedure in force is IN MTP 2/2021 (not modelled); the workflow
    # stays IN SIT 70/2007 and the case says so
    assert case["procedure_version"] == "in-mtp-2-2021"
    assert case["workflow_procedure"] == "in-sit-70-2007"
    assert [w["code"] for w in case["warnings"]] == ["procedure_not_modelled"]
    assert case["warnings"][0]["message"] == (
        "O procedimento vigente (IN MTP nº 2/2021) não está modelado; o fluxo segue a "
        "IN SIT 70/2007, revogada em 10/12/2021.")
    assert r.headers["etag"] == '"1"'

    def cmd(body: dict[str, Any], expect: int = 200, **headers: str) -> dict[str, Any]:
        nonlocal version
        resp = c.post(f"/api/v1/cases/{cid}/commands", headers={**h, **headers},
                      json={"version": version, **body})
        assert resp.status_code == expect, resp.text
        out: dict[str, Any] = resp.json()
        if expect == 200:
            version = out["version"]
        return out

    # vessel not docked: assessing needs the pre-boarding facts (art. 5)
    refused = cmd({"command": "start_assessment"}, 409)
    assert refused["type"] == "/problems/transition-refused"
    assert "art. 5" in refused["detail"]
    # an illegal transition: a report before findings
    illegal = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
                     json={"command": "write_report", "summary": "x"})
    assert illegal.status_code == 409
    assert illegal.headers["content-type"].startswith("application/problem+json")
    assert "não permitido no estado Denúncia recebida (received)" in illegal.json()["detail"]

    cmd({"recorded_on": "2026-04-01", "command": "start_pre_boarding"})
    cmd({"recorded_on": "2026-04-01", "command": "record_pre_boarding", "facts": PRE_BOARDING})
    out = cmd({"recorded_on": "2026-04-01", "command": "start_assessment"})
    assert out["state"] == "assessing"
    out = cmd({"recorded_on": "2026-04-01", "command": "request_documents", "consulted": "master"})
    assert out["state"] == "documents_requested"
    # flag NO known from pre-boarding, vessel not described yet: the engine's items common to
    # every foreign vessel (the arts. 12–13 ones wait for the contract)
    assert [i["item"] for i in out["facts"]["checklist"]] == [
        "ship_registry", "crew_list", "ship_particulars", "employment_contracts",
        "minimum_safe_manning", "crew_payroll", "class_certificates"]
    assert out["facts"]["checklist_basis"]["source"] == "pre_boarding_flag"
    assert out["open_steps_detail"][0]["id"] == "documents"
    assert out["open_steps_detail"][0]["items"][0] == {"id": "ship_registry",
                                                        "label": "Registro do navio"}
    assert out["open_steps"][0].startswith(
        "documentos sem registro de recebido/ausente: Registro do navio [ship_registry], "
        "Lista de tripulantes (crew list) [crew_list]")
    out = cmd({"recorded_on": "2026-04-01", "command": "set_vessel_case",
               "vessel_case": q01_case(), "on": "2026-04-01"})
    items = [i["item"] for i in out["facts"]["checklist"]]
    assert {"ship_registry", "crew_list", "crew_payroll", "navigation_type", "caa"} <= set(items)
    assert "foreign_crew_visas:C01" in items and "work_authorizations:C01" in items
    assert out["facts"]["checklist_basis"]["source"] == "vessel_case"

    # a stale write is refused (If-Match and body version), nothing lost
    stale = c.post(f"/api/v1/cases/{cid}/commands", headers={**h, "If-Match": '"1"'},
                   json={"command": "record_document", "item": "crew_list",
                         "status": "received"})
    assert stale.status_code == 409 and stale.json()["type"] == "/problems/stale-version"
    assert stale.json()["current_version"] == version
    assert c.get(f"/api/v1/cases/{cid}", headers=h).json()["version"] == version

    for item in items:
        cmd({"recorded_on": "2026-04-01", "command": "record_document", "item": item,
             "status": "missing" if item == "crew_payroll" else "received"})
    cmd({"recorded_on": "2026-04-01", "command": "record_physical_check", "area": "galley",
         "ok": False, "notes": "câmara fria sem controle de temperatura",
         "citation": "Convenção OIT 147, art. 5º"})
    out = cmd({"recorded_on": "2026-04-01", "command": "run_engines"})
    assert out["state"] == "findings"
    quota = [f for f in out["facts"]["findings"] if f["source"] == "engine:quota"]
    assert quota and all(f["citation"]["label"].startswith("RN CNIg nº 06/2017") for f in quota)
    first = [f["id"] for f in out["facts"]["findings"] if f["source"].startswith("engine:")]
    assert "replaced" not in out["facts"]["engine_run"]
    # A re-run replaces the engines' findings: the record says which, and the date before.
    out = cmd({"recorded_on": "2026-04-01", "command": "run_engines", "on": "2026-03-31"})
    run = out["facts"]["engine_run"]
    assert (run["replaced"], run["previous_on"], run["on"]) == \
        (first, "2026-04-01", "2026-03-31")
    assert [f["id"] for f in run["replaced_findings"]] == first
    assert all(f["text"] and f["source"].startswith("engine:") for f in run["replaced_findings"])
    out = cmd({"recorded_on": "2026-04-01", "command": "run_engines", "on": "2026-04-01"})

    r = c.post(f"/api/v1/cases/{cid}/attachments", headers=h,
               files={"file": ("galley.jpg", b"\xff\xd8fake-jpeg", "image/jpeg")},
               data={"description": "foto da cozinha", "version": str(version)})
    assert r.status_code == 201, r.text
    assert r.json()["sha256"] == (
        "f2ea4a2ac0c6a9dc4a4baf7c1f9b1b8c7e0d4bd9e54d0a87e5e4f5c0e1c9b2a0"[:0]
        or __import__("hashlib").sha256(b"\xff\xd8fake-jpeg").hexdigest())
    version = r.json()["version"]
    got = c.get(f"/api/v1/cases/{cid}/attachments/{r.json()['id']}", headers=h)
    assert got.content == b"\xff\xd8fake-jpeg"

    out = cmd({"command": "notify", "deadline": "2026-04-02", "issued_on": "2026-04-01"})
    assert out["state"] == "notified"
    assert out["deadlines"][0]["due"] == "2026-04-02"
    # detention only after an unmet notification with serious and imminent risk
    cmd({"command": "request_detention"}, 409)
    # the party has until the deadline (2 April; 3 April is Good Friday); an express
    # refusal may be recorded earlier
    early = cmd({"command": "record_not_remedied", "risk": "serious_imminent",
                 "recorded_on": "2026-04-02"}, 409)
    assert "após o prazo" in early["detail"]
    cmd({"command": "record_not_remedied", "risk": "serious_imminent", "repatriation": True,
         "recorded_on": "2026-04-02", "refused": True})
    premature = cmd({"command": "write_report", "summary": "x"}, 409)
    assert "Polícia Federal" in premature["detail"]
    cmd({"command": "request_detention", "consul": "Consulado-Geral da Noruega"})
    out = cmd({"command": "refer_federal_police", "crew": ["C04", "C05"],
               "situation": "contract_expired"})
    kinds = [d["kind"] for d in out["deadlines"]]
    # a foreign vessel: Decreto 6.968/2009 art. 5 § 1º (its shore lodging 15 days after the
    # complaint), not art. 3 (a Brazilian vessel's shipowner, the Foreign Ministry)
    assert "repatriation_shore_lodging" in kinds and "repatriation_foreign_ministry" not in kinds
    assert all(not d["confirmed"] for d in out["deadlines"] if d["kind"].startswith("repat"))
    cmd({"command": "draft_auto", "facts": "Cota de 1/3 descumprida."})
    cmd({"command": "close"}, 409)  # no closing before the report
    out = cmd({"command": "write_report", "summary": "Notificação não atendida; retenção "
               "solicitada; auto lavrado."})
    assert out["state"] == "report"
    out = cmd({"command": "close", "reason": "ação fiscal concluída"})
    assert out["state"] == "closed" and out["open_steps"] == []

    docs = c.get(f"/api/v1/cases/{cid}/documents", headers=h).json()["documents"]
    assert {d["kind"] for d in docs} == {"notificacao", "oficio-consul",
                                         "oficio-policia-federal", "auto-infracao", "relatorio"}
    rel = c.get(f"/api/v1/cases/{cid}/documents/relatorio", headers=h)
    assert rel.status_code == 200 and "Relatório circunstanciado" in rel.text
    assert "Assessoria Internacional" in rel.text and "28/03/2026" in rel.text
    assert "O procedimento vigente (IN MTP nº 2/2021) não está modelado" in rel.text
    assert "Recibos do último pagamento à tripulação" in rel.text
    # every report ends with the interpretations its findings rest on (interfaces.md)
    assert "Interpretações adotadas" in rel.text
    # in words, not by the reading's id (that is for the API and the engines' reports)
    assert "<li>&#34;Em cada seção e em cada conjunto de oficiais e de subalternos" in rel.text
    auto = c.get(f"/api/v1/cases/{cid}/documents/auto-infracao", headers=h).text
    assert "Interpretações adotadas" in auto and "arredond" in auto.lower()
    assert "quota.rounding." not in auto and "in-sit-70-2007" not in auto
    # the quota figures the auto rests on: days, step, per group required and aboard
    for doc in (auto, rel.text):
        flat = " ".join(doc.split())
        assert "dias de operação desde" in flat and "etapa em vigor 1/" in flat
        # each figure with its provision
        assert re.search(r"etapa em vigor 1/\d \(a partir de \d+ dias\), desde "
                         r"\d\d/\d\d/\d{4} \[RN CNIg nº 06/2017[^\]]*art\. 4º", flat)
        assert "<th>Brasileiros exigidos</th>" in flat and "subalternos de convés" in flat
    one = c.get(f"/api/v1/cases/{cid}/documents/auto-infracao?auto=A1", headers=h)
    assert one.status_code == 200 and "Auto de infração A1" in one.text
    assert c.get(f"/api/v1/cases/{cid}/documents/auto-infracao?auto=A9",
                 headers=h).status_code == 422
    consul = c.get(f"/api/v1/cases/{cid}/documents/oficio-consul", headers=h).text
    assert "Interpretações adotadas" not in consul  # it names the galley finding only

    events = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"]
    assert events[0]["command"] == "create_case" and events[-1]["state_after"] == "closed"
    assert all(e["actor"] == "ana@trabalho.gov.br" for e in events)

    runner = CliRunner()
    ok = runner.invoke(cli_app, ["audit", "verify", "--db", db_url])
    assert ok.exit_code == 0, ok.output
    # tamper with one event by raw SQL: verify names it
    target = events[3]["seq"]
    with get_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE audit_events SET actor = 'mallory' WHERE seq = :s"),
                     {"s": target})
    bad = runner.invoke(cli_app, ["audit", "verify", "--db", db_url])
    assert bad.exit_code == 1
    assert f"seq={target}" in bad.output

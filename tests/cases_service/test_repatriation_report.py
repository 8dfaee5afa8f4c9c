"""The 48-hour report of Decreto 6.968/2009 (arts. 3 and 5 § 1º, II), a finding of the
inspector's trial: after a notification not met with ``repatriation: true`` the case showed
``repatriation_report_48h`` with no way to mark it met, closed with it open, and the
relatório said nothing of the decree's deadlines.

``record_repatriation_report`` records the report sent (its day, a reference): a command of
the table, with its guard, date order, audit event and version; the deadlines carry their
status; the relatório lists them; closing is not held by the open deadline (the spec makes
deadlines tracked and shown, not mandatory steps; these are unconfirmed) but says it.
Today is 01/12/2026 in Brasília; the complaint of 10/11/2026.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from fastapi.testclient import TestClient

from abordo.cases import steps
from abordo.law import calendar
from cases_service.support import DOCKED, bearer, client_for, make_user, q01_case

Api = tuple[TestClient, dict[str, str]]


@pytest.fixture
def api(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Api:
    monkeypatch.setattr(calendar, "now_utc",
                        lambda: dt.datetime(2026, 12, 1, 15, 0, tzinfo=dt.UTC))
    return client_for(db_url), bearer(make_user(db_url, "ana@trabalho.gov.br", "inspector",
                                                "RJ"))


def post(api: Api, cid: int, body: dict[str, Any], lang: str = "") -> Any:
    c, h = api
    return c.post(f"/api/v1/cases/{cid}/commands{lang}", headers={**h, "If-Match": "*"},
                  json=body)


def ok(api: Api, cid: int, body: dict[str, Any]) -> dict[str, Any]:
    r = post(api, cid, body)
    assert r.status_code == 200, (body, r.text)
    out: dict[str, Any] = r.json()
    return out


def refused_repatriation(api: Api, repatriation: bool = True) -> int:
    """A foreign PSV whose wages notification N1 (deadline 20/11, a national holiday: due
    23/11) went unmet; the repatriation refused from 24/11 — the report due 26/11."""
    c, h = api
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "crew_member", "date": "2026-11-10", "content": "salários"},
        "vessel_docked": True, "pre_boarding": DOCKED})
    cid = int(r.json()["id"])
    ok(api, cid, {"command": "start_assessment", "recorded_on": "2026-11-11"})
    ok(api, cid, {"command": "request_documents", "consulted": "master",
                  "recorded_on": "2026-11-12"})
    case = ok(api, cid, {"command": "set_vessel_case", "vessel_case": q01_case(),
                         "on": "2026-11-12", "recorded_on": "2026-11-12"})
    pending = [i["item"] for i in case["facts"]["checklist"] if i["status"] == "pending"]
    ok(api, cid, {"command": "record_document", "items": pending, "status": "received",
                  "recorded_on": "2026-11-12"})
    ok(api, cid, {"command": "run_engines", "recorded_on": "2026-11-12"})
    ok(api, cid, {"command": "add_finding", "text": "salários atrasados", "area": "wage",
                  "citation": "CLT, art. 459, § 1º", "recorded_on": "2026-11-13"})
    ok(api, cid, {"command": "notify", "deadline": "2026-11-20", "recorded_on": "2026-11-16"})
    ok(api, cid, {"command": "record_not_remedied", "risk": "contractual_wage",
                  "repatriation": repatriation, "recorded_on": "2026-11-24"})
    return cid


def to_report(api: Api, cid: int, on: str = "2026-11-30") -> dict[str, Any]:
    ok(api, cid, {"command": "refer_federal_police", "crew": ["C04"],
                  "situation": "contract_expired", "recorded_on": "2026-11-25"})
    ok(api, cid, {"command": "draft_auto", "recorded_on": "2026-11-25"})
    return ok(api, cid, {"command": "write_report", "summary": "s", "recorded_on": on})


def report_48h(case: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = next(x for x in case["deadlines"]
                                 if x["kind"] == "repatriation_report_48h")
    return found


def relatorio(api: Api, cid: int) -> str:
    c, h = api
    return " ".join(c.get(f"/api/v1/cases/{cid}/documents/relatorio", headers=h).text.split())


REPORT_TEXT = ("Relatório circunstanciado à Secretaria de Inspeção do Trabalho em 48 horas, o "
               "armador recusando a repatriação (não confirmado)")


def test_the_report_sent_meets_the_deadline_and_the_relatorio_lists_it(api: Api) -> None:
    c, h = api
    cid = refused_repatriation(api)
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert report_48h(case) | {"due": "2026-11-26", "status": "open"} == report_48h(case)
    assert "met_on" not in report_48h(case)
    assert "record_repatriation_report" in case["allowed_commands"]
    # past its day: the case view warns
    assert [w["deadline"] for w in case["warnings"] if w["code"] == "deadline_open"] == [
        "repatriation_report_48h"]
    version = case["version"]
    case = ok(api, cid, {"command": "record_repatriation_report", "version": version,
                         "recorded_on": "2026-11-25",
                         "reference": "Ofício nº 12/2026 (SEI 46000.012345/2026-11)"})
    assert case["version"] == version + 1
    assert report_48h(case) | {"status": "met", "met_on": "2026-11-25"} == report_48h(case)
    assert "late" not in report_48h(case)
    assert "record_repatriation_report" not in case["allowed_commands"]
    assert not [w for w in case["warnings"] if w["code"] == "deadline_open"]
    event = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"][-1]
    assert (event["command"], event["state_before"], event["state_after"]) == (
        "record_repatriation_report", "notified", "notified")
    assert event["payload"] | {
        "recorded_on": "2026-11-25", "due": "2026-11-26", "late": False,
        "reference": "Ofício nº 12/2026 (SEI 46000.012345/2026-11)",
        "basis": "Decreto nº 6.968/2009 (execução da Convenção OIT 166), art. 5º, § 1º, II"
    } == event["payload"]
    again = post(api, cid, {"command": "record_repatriation_report"})
    assert again.status_code == 409 and "já foi registrado" in again.json()["detail"]
    to_report(api, cid)
    html = relatorio(api, cid)
    assert "<h2>6. Prazos</h2>" in html
    assert (f"<td>{REPORT_TEXT}</td><td>26/11/2026</td><td>cumprido em 25/11/2026</td>"
            "<td>Decreto nº 6.968/2009 (execução da Convenção OIT 166), art. 5º, § 1º, II"
            "</td>") in html
    assert ("Relatório à Secretaria de Inspeção do Trabalho sobre a recusa da repatriação "
            "pelo armador (Decreto nº 6.968/2009 (execução da Convenção OIT 166), art. 5º, § "
            "1º, II) enviado em 25/11/2026: Ofício nº 12/2026 (SEI 46000.012345/2026-11).") \
        in html
    # the other deadlines, each with its situation
    assert "<td>23/11/2026</td><td>não atendido</td>" in html  # N1 (20/11, a holiday)
    assert ("<td>25/11/2026</td><td>a cargo do armador ou de seu representante (não "
            "registrado no caso)</td>") in html  # art. 5 § 1º, III: 10/11 + 15
    assert "<td>10/11/2026</td><td>cumprido em 11/11/2026, após o vencimento</td>" in html
    closed = ok(api, cid, {"command": "close"})
    assert not [w for w in closed["warnings"] if w["code"] == "deadline_open"]


@pytest.mark.parametrize(("day", "status", "said"), [
    ("2026-11-23", 409, "anterior ao não atendimento da notificação N1 (recusa da "
                        "repatriação) (24/11/2026)"),
    ("2026-12-02", 422, "data do registro no futuro: 02/12/2026"),
])
def test_the_report_is_dated_after_the_refusal_and_not_in_the_future(
        api: Api, day: str, status: int, said: str) -> None:
    cid = refused_repatriation(api)
    r = post(api, cid, {"command": "record_repatriation_report", "recorded_on": day})
    assert r.status_code == status, r.text
    assert r.json()["errors"][0]["field"] == "recorded_on" and said in r.json()["detail"]


def test_without_a_refused_repatriation_there_is_no_report_to_record(api: Api) -> None:
    c, h = api
    cid = refused_repatriation(api, repatriation=False)
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert "record_repatriation_report" not in case["allowed_commands"]
    r = post(api, cid, {"command": "record_repatriation_report"})
    assert r.status_code == 409, r.text
    assert "record_not_remedied, repatriation" in r.json()["detail"]
    r = post(api, cid, {"command": "record_repatriation_report"}, "?lang=en")
    assert r.json()["detail"].startswith("there is no 48-hour repatriation report to record")
    r = post(api, cid, {"command": "record_repatriation_report", "reference": ""})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "reference", r.text


def test_a_case_closes_with_the_deadline_open_and_says_so(api: Api) -> None:
    """Closing is not refused (the deadline is tracked and shown, not a mandatory step —
    and unconfirmed); the close response, its event and the relatório state it open."""
    c, h = api
    cid = refused_repatriation(api)
    to_report(api, cid)
    closed = ok(api, cid, {"command": "close"})
    assert closed["state"] == "closed"
    assert report_48h(closed)["status"] == "open"
    (warning,) = [w for w in closed["warnings"] if w["code"] == "deadline_open"]
    assert (warning["deadline"], warning["due"]) == ("repatriation_report_48h", "2026-11-26")
    assert warning["message"].startswith(
        "Caso encerrado com prazo em aberto: Relatório circunstanciado à Secretaria de "
        "Inspeção do Trabalho em 48 horas, o armador recusando a repatriação, vencimento em "
        "26/11/2026 (prazo não confirmado)")
    event = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"][-1]
    assert event["payload"]["open_deadlines"] == [{"kind": "repatriation_report_48h",
                                                   "due": "2026-11-26"}]
    html = relatorio(api, cid)
    assert (f"<td>{REPORT_TEXT}</td><td>26/11/2026</td><td>em aberto: nenhum cumprimento "
            "registrado</td>") in html
    assert ("Caso encerrado em 01/12/2026 com prazo em aberto, sem cumprimento registrado: "
            "Relatório circunstanciado à Secretaria de Inspeção do Trabalho em 48 horas, o "
            "armador recusando a repatriação (vencimento em 26/11/2026).") in html
    # a closed case takes no more commands: the report can no longer be recorded
    assert post(api, cid, {"command": "record_repatriation_report"}).status_code == 409


def test_a_report_recorded_late_or_after_the_relatorio_is_said_so(api: Api) -> None:
    """Recorded once the relatório is written (state report), before the case closes: a
    report sent after its 48 hours is met late; sent after the relatório's date, the
    relatório says so — and the report is not dated before it (it reports it)."""
    cid = refused_repatriation(api)
    to_report(api, cid, on="2026-11-28")
    case = ok(api, cid, {"command": "record_repatriation_report",
                         "recorded_on": "2026-11-30"})
    assert case["state"] == "report"
    assert report_48h(case) | {"status": "met", "met_on": "2026-11-30", "late": True} \
        == report_48h(case)
    assert "cumprido em 30/11/2026, após o vencimento, após a data deste relatório" in \
        relatorio(api, cid)
    r = post(api, cid, {"command": "close", "recorded_on": "2026-11-29"})
    assert r.status_code == 409 and "Decreto nº 6.968/2009" in r.json()["detail"], r.text


def test_the_command_is_in_the_published_schemas(api: Api) -> None:
    c, h = api
    schema = c.get("/api/v1/schemas/command", headers=h).json()
    (cmd,) = [d for d in schema["$defs"].values()
              if d.get("properties", {}).get("command", {}).get("const")
              == "record_repatriation_report"]
    assert set(cmd["properties"]) >= {"reference", "recorded_on", "version", "reason"}
    openapi = c.get("/api/v1/openapi.json").json()
    assert "RecordRepatriationReport" in openapi["components"]["schemas"]


def test_each_deadline_has_a_status() -> None:
    d = {"complaint": {"source": "crew_member", "date": "2026-11-10", "content": "x",
                       "repatriation": True}, "notifications": []}
    assert [(x["kind"], x["status"]) for x in steps.deadlines(d)] == [
        ("repatriation_inspection", "open"), ("repatriation_shore_lodging", "not_recorded")]
    d["assessment"] = {"started_on": "2026-11-10"}
    assert steps.deadlines(d)[0] | {"status": "met", "met_on": "2026-11-10"} \
        == steps.deadlines(d)[0]
    d["notifications"] = [{"id": "N1", "deadline": "2026-11-20", "outcome": "remedied",
                           "outcome_on": "2026-11-24"}]
    # found met on 24/11 (after its day, as an outcome is): met, not met late
    assert steps.deadlines(d)[0] | {"status": "met", "met_on": "2026-11-24"} \
        == steps.deadlines(d)[0]
    assert "late" not in steps.deadlines(d)[0]
    assert steps.open_deadlines(d) == []
    # a notification's outcome past its day is an open step, not a deadline warning
    pending = {"notifications": [{"id": "N1", "deadline": "2026-11-20"}]}
    assert [x["status"] for x in steps.deadlines(pending)] == ["open"]
    assert steps.deadline_warnings(pending, dt.date(2026, 12, 1)) == []

"""Findings of the inspector's trial on the dates of the acts (today 01/12/2026 in Brasília,
the complaint of 10/11/2026, the day's work entered later with ``recorded_on``):

5. the crew upload and the crew-documents PUT take ``recorded_on`` like every command, and
   the date checks agree (the engines do not judge a crew list before it was given; the
   report's refusal names the document);
6. the relatório is not dated before anything it reports (a void, a finding…), nor the
   closing;
7. the auto's history says when its findings were found (``found_on``; an engine finding:
   the date its run judged), not the complaint's or the case's date of facts.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from abordo.cases.commands import TransitionRefused
from abordo.faces.reports.case_documents import found_days, found_when
from abordo.law import calendar
from cases_service.support import DOCKED, bearer, client_for, make_user, q01_case, run

CSV = "id;funcao;nacionalidade\n" + "".join(
    f"{m['id']};{m['rank']};{m['nationality']}\n" for m in q01_case()["crew"]
    if m["id"] != "C16")  # (the ROV technician needs a department column: not in this file)


@pytest.fixture
def api(db_url: str, monkeypatch: pytest.MonkeyPatch) -> tuple[TestClient, dict[str, str]]:
    """A client on each backend, on 01/12/2026 at noon in Brasília."""
    monkeypatch.setattr(calendar, "now_utc",
                        lambda: dt.datetime(2026, 12, 1, 15, 0, tzinfo=dt.UTC))
    return client_for(db_url), bearer(make_user(db_url, "ana@trabalho.gov.br", "inspector",
                                                "RJ"))


def _open(c: TestClient, h: dict[str, str], **complaint: Any) -> int:
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "crew_member", "date": "2026-11-10", "content": "cota",
                      **complaint}, "vessel_docked": True, "pre_boarding": DOCKED})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def cmd(c: TestClient, h: dict[str, str], cid: int, body: dict[str, Any]) -> Any:
    """A command (``If-Match: *``); the response."""
    return c.post(f"/api/v1/cases/{cid}/commands", headers={**h, "If-Match": "*"}, json=body)


def ok(c: TestClient, h: dict[str, str], cid: int, body: dict[str, Any]) -> dict[str, Any]:
    r = cmd(c, h, cid, body)
    assert r.status_code == 200, (body, r.text)
    out: dict[str, Any] = r.json()
    return out


def _requested(c: TestClient, h: dict[str, str], cid: int, vessel_case: dict[str, Any]
               ) -> None:
    """Assessed on 11/11, documents asked and the vessel case given on 12/11."""
    ok(c, h, cid, {"command": "start_assessment", "recorded_on": "2026-11-11"})
    ok(c, h, cid, {"command": "request_documents", "consulted": "master",
                   "recorded_on": "2026-11-12"})
    ok(c, h, cid, {"command": "set_vessel_case", "vessel_case": vessel_case,
                   "on": "2026-11-12", "recorded_on": "2026-11-12"})


def _other_documents(c: TestClient, h: dict[str, str], cid: int, on: str,
                     but: tuple[str, ...] = ()) -> None:
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    items = [i["item"] for i in case["facts"]["checklist"]
             if i["status"] == "pending" and i["item"] not in but]
    ok(c, h, cid, {"command": "record_document", "items": items, "status": "received",
                   "recorded_on": on})


def _upload(c: TestClient, h: dict[str, str], cid: int, **form: str) -> Any:
    return c.post(f"/api/v1/cases/{cid}/crew", headers={**h, "If-Match": "*"},
                  files={"file": ("lista.csv", CSV.encode(), "text/csv")}, data=form)


# An ementário auto on the inspector's finding (after the engines' F1, F2…: its id looked up)
EMENTARIO = {"command": "draft_auto", "kind": "ementario", "ementa": "130123-4",
             "capitulation": "NR-30, item 30.2.1", "against": {"name": "Armadora X Ltda"}}


def _own(c: TestClient, h: dict[str, str], cid: int) -> list[str]:
    """The ids of the inspector's findings of the case."""
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    return [f["id"] for f in case["facts"]["findings"] if f["source"] == "inspector"]


def _item(case: dict[str, Any], item: str) -> dict[str, Any]:
    found: dict[str, Any] = next(i for i in case["facts"]["checklist"] if i["item"] == item)
    return found


# --------------------------------------------------------------------- 5. the crew upload

def test_the_crew_upload_is_dated_and_the_acts_after_it_follow(api: Any) -> None:
    """The trial's case: the crew list handed over on 12/11 and entered on 01/12; the
    engines on 14/11, the notification on 16/11 and the report on 30/11 all follow it."""
    c, h = api
    cid = _open(c, h)
    _requested(c, h, cid, {**q01_case(), "crew": []})
    r = _upload(c, h, cid, recorded_on="2026-11-12")
    assert r.status_code == 200, r.text
    assert _item(r.json(), "crew_list") | {"status": "received", "recorded_on": "2026-11-12"} \
        == _item(r.json(), "crew_list")
    event = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"][-1]
    assert (event["command"], event["payload"]["recorded_on"]) == ("set_vessel_case",
                                                                   "2026-11-12")
    _other_documents(c, h, cid, "2026-11-13")
    ok(c, h, cid, {"command": "run_engines", "recorded_on": "2026-11-14"})
    ok(c, h, cid, {"command": "notify", "deadline": "2026-11-20", "recorded_on": "2026-11-16"})
    ok(c, h, cid, {"command": "record_remedied", "recorded_on": "2026-11-24"})
    ok(c, h, cid, {"command": "draft_auto", "recorded_on": "2026-11-25"})
    case = ok(c, h, cid, {"command": "write_report", "summary": "s", "recorded_on": "2026-11-30"})
    assert case["facts"]["report"]["written_on"] == "2026-11-30"


def test_an_undated_upload_is_today_s_and_nothing_judges_it_earlier(api: Any) -> None:
    """Without ``recorded_on`` the list is recorded today (01/12): the engines cannot have
    judged it on 14/11 — refused as the report dated before it would be, naming it."""
    c, h = api
    cid = _open(c, h)
    _requested(c, h, cid, {**q01_case(), "crew": []})
    r = _upload(c, h, cid)
    assert r.status_code == 200, r.text
    assert _item(r.json(), "crew_list")["recorded_on"] == "2026-12-01"
    r = cmd(c, h, cid, {"command": "run_engines", "recorded_on": "2026-11-14"})
    assert r.status_code == 409, r.text
    assert r.json()["errors"][0]["field"] == "recorded_on"
    assert "anterior ao registro dos dados da embarcação e da lista de tripulantes " \
        "(set_vessel_case) (01/12/2026)" in r.json()["detail"]


@pytest.mark.parametrize(("day", "status", "said"), [
    ("2026-12-02", 422, "data do registro no futuro: 02/12/2026"),
    ("2026-11-09", 422, "data do registro anterior à denúncia (10/11/2026)"),
    # it records the crew list received: not before the documents were asked (the latest
    # act the date precedes is named, here before the assessment's start too)
    ("2026-11-11", 409, "anterior à solicitação dos documentos (12/11/2026)"),
    ("2026-11-10", 409, "anterior à solicitação dos documentos (12/11/2026)"),
    ("ontem", 422, "recorded_on"),
])
def test_an_upload_dated_where_no_command_could_be_is_refused(
        api: Any, day: str, status: int, said: str) -> None:
    c, h = api
    cid = _open(c, h)
    _requested(c, h, cid, {**q01_case(), "crew": []})
    r = _upload(c, h, cid, recorded_on=day)
    assert r.status_code == status, r.text
    assert r.json()["errors"][0]["field"] == "recorded_on"
    assert said in r.text
    # nothing written
    assert c.get(f"/api/v1/cases/{cid}", headers=h).json()["facts"]["vessel_case"]["crew"] \
        == []


def test_the_crew_documents_are_dated_too(api: Any) -> None:
    c, h = api
    cid = _open(c, h)
    _requested(c, h, cid, q01_case())
    url = f"/api/v1/cases/{cid}/crew/C04/documents"
    ra = {"type": "residence_authorization", "issued_on": "2026-02-01",
          "valid_until": "2028-02-01"}
    star = {**h, "If-Match": "*"}
    r = c.put(url, headers=star, json={"documents": [ra], "recorded_on": "2026-12-02"})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "recorded_on", r.text
    r = c.put(url, headers=star, json={"documents": [ra], "recorded_on": "2026-11-10"})
    assert r.status_code == 409 and r.json()["errors"][0]["field"] == "recorded_on", r.text
    r = c.put(url, headers=star, json={"documents": [ra], "recorded_on": "2026-11-13"})
    assert r.status_code == 200, r.text
    event = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"][-1]
    assert (event["reason"], event["payload"]["recorded_on"]) == (
        "documentos do tripulante C04", "2026-11-13")
    # the engines judge the documents given on 13/11: not on 12/11
    r = cmd(c, h, cid, {"command": "run_engines", "recorded_on": "2026-11-12"})
    assert r.status_code == 409, r.text
    ok(c, h, cid, {"command": "run_engines", "recorded_on": "2026-11-13"})


def test_the_report_s_refusal_names_the_document_recorded_after_it(api: Any) -> None:
    """The crew list's record of 01/12 holds a report of 30/11, and the refusal says which
    record it is (not "a document's record")."""
    c, h = api
    cid = _open(c, h)
    _requested(c, h, cid, q01_case())  # the crew given before… (crew_list received 12/11)
    case = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert _item(case, "crew_list")["recorded_on"] == "2026-11-12"
    _other_documents(c, h, cid, "2026-11-13", but=("ship_registry",))
    ok(c, h, cid, {"command": "run_engines", "recorded_on": "2026-11-14"})
    ok(c, h, cid, {"command": "notify", "deadline": "2026-11-20", "recorded_on": "2026-11-16"})
    ok(c, h, cid, {"command": "record_remedied", "recorded_on": "2026-11-24"})
    ok(c, h, cid, {"command": "draft_auto", "recorded_on": "2026-11-25"})
    # …and the ship's registry entered today, undated
    ok(c, h, cid, {"command": "record_document", "item": "ship_registry", "status": "received"})
    r = cmd(c, h, cid, {"command": "write_report", "summary": "s", "recorded_on": "2026-11-30"})
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == ("data do registro (30/11/2026) anterior ao registro do "
                                  "documento Registro do navio [ship_registry] (01/12/2026)")
    r = c.post(f"/api/v1/cases/{cid}/commands?lang=en", headers={**h, "If-Match": "*"},
               json={"command": "write_report", "summary": "s", "recorded_on": "2026-11-30"})
    assert "before the record of document ship_registry (2026-12-01)" in r.json()["detail"]


def test_a_refusal_names_the_latest_act_the_date_precedes() -> None:
    """Several acts after the date: the refusal names the latest — the first day the act
    may bear — not merely the first one listed (here the notification)."""
    d = {"complaint": {"source": "union", "date": "2026-03-30", "content": "x"},
         "findings": [], "notifications": [{"id": "N1", "issued_on": "2026-03-31",
                                            "outcome": "remedied", "outcome_on": "2026-03-31"}],
         "escalations": [], "autos": [{"id": "A1", "drafted_on": "2026-04-01"}],
         "checklist": []}
    with pytest.raises(TransitionRefused, match=r"\(30/03/2026\) anterior ao auto A1 "
                                                r"\(01/04/2026\)$"):
        run("remedied", d, {"command": "write_report", "summary": "s",
                            "recorded_on": "2026-03-30"})


# ------------------------------------------------------- 6. the report after what it reports

def test_the_report_is_not_dated_before_a_void_it_reports(api: Any) -> None:
    """The trial's case: an auto voided today (01/12), then the report dated 30/11 — which
    would print "Data: 30/11/2026" over "minuta anulada em 01/12/2026"."""
    c, h = api
    cid = _open(c, h)
    _requested(c, h, cid, q01_case())
    _other_documents(c, h, cid, "2026-11-12")
    ok(c, h, cid, {"command": "run_engines", "recorded_on": "2026-11-12"})
    ok(c, h, cid, {"command": "add_finding", "text": "extintores vencidos", "area": "safety",
                   "citation": "NR-30, item 30.2.1", "recorded_on": "2026-11-13"})
    ok(c, h, cid, {"command": "notify", "deadline": "2026-11-20", "recorded_on": "2026-11-16"})
    ok(c, h, cid, {"command": "record_remedied", "recorded_on": "2026-11-24"})
    ok(c, h, cid, {"command": "draft_auto", "recorded_on": "2026-11-25"})
    ok(c, h, cid, {**EMENTARIO, "findings": _own(c, h, cid), "recorded_on": "2026-11-25"})
    ok(c, h, cid, {"command": "void_auto", "auto": "A2", "reason": "ementa errada"})
    r = cmd(c, h, cid, {"command": "write_report", "summary": "s", "recorded_on": "2026-11-30"})
    assert r.status_code == 409, r.text
    assert r.json()["errors"][0]["field"] == "recorded_on"
    assert "anterior à anulação do auto A2 (01/12/2026)" in r.json()["detail"]
    ok(c, h, cid, {"command": "write_report", "summary": "s"})  # today: after the void


REPORTED: list[tuple[str, dict[str, Any], str]] = [
    ("assessment", {"assessment": {"started_on": "2026-04-02"}}, "ao início da apuração"),
    ("request", {"documents_requested_on": "2026-04-02"}, "à solicitação dos documentos"),
    ("vessel case", {"vessel_case_recorded_on": "2026-04-02"},
     "ao registro dos dados da embarcação"),
    ("document", {"checklist": [{"item": "crew_list", "label": "Lista de tripulantes",
                                 "status": "missing", "recorded_on": "2026-04-02"}]},
     "ao registro do documento Lista de tripulantes [crew_list]"),
    ("check", {"physical_checks": [{"area": "galley", "ok": True,
                                    "recorded_on": "2026-04-02"}]}, "à verificação física"),
    ("engines", {"engine_run": {"on": "2026-03-30", "ran_on": "2026-04-02"}},
     "à execução dos motores"),
    ("finding", {"findings": [{"id": "F1", "source": "inspector", "severity": "info",
                               "text": "x", "found_on": "2026-04-02"}]}, "à constatação F1"),
    ("notification", {"notifications": [{"id": "N1", "issued_on": "2026-04-02",
                                         "outcome": "remedied"}]}, "à notificação N1"),
    ("outcome", {"notifications": [{"id": "N1", "issued_on": "2026-03-31",
                                    "outcome": "remedied", "outcome_on": "2026-04-02"}]},
     "ao resultado da notificação N1"),
    ("art. 10", {"escalations": [{"kind": "mediation", "on": "2026-04-02"}]},
     "à providência do art. 10 (mediation)"),
    ("auto", {"autos": [{"id": "A1", "drafted_on": "2026-04-02"}]}, "ao auto A1"),
    ("void", {"autos": [{"id": "A1", "drafted_on": "2026-03-31",
                         "voided": {"on": "2026-04-02", "by": "x", "reason": "r"}}]},
     "à anulação do auto A1"),
    ("repatriation report", {"repatriation_report": {"sent_on": "2026-04-02"}},
     "ao relatório à Secretaria sobre a repatriação (Decreto nº 6.968/2009)"),
]


@pytest.mark.parametrize(("what", "facts", "said"), REPORTED, ids=[r[0] for r in REPORTED])
def test_the_report_and_the_closing_follow_everything_reported(
        what: str, facts: dict[str, Any], said: str) -> None:
    """Each dated act or fact the relatório shows holds a report dated before it (01/04 is
    "today" in these tests; the act of 02/04 was recorded with a later clock)."""
    d = {"complaint": {"source": "union", "date": "2026-03-30", "content": "x"},
         "findings": [], "notifications": [], "escalations": [], "autos": [], "checklist": [],
         **facts}
    with pytest.raises(TransitionRefused, match=re.escape(f"{said}") + r".* \(02/04/2026\)") \
            as exc:
        run("findings", d, {"command": "write_report", "summary": "s",
                            "recorded_on": "2026-04-01"})
    assert exc.value.field == "recorded_on"
    d["report"] = {"written_on": "2026-03-31"}
    with pytest.raises(TransitionRefused, match=re.escape(said)):
        run("report", d, {"command": "close", "recorded_on": "2026-04-01"})


# --------------------------------------------------------- 7. when the violation was found

def _history(html: str) -> list[str]:
    return re.findall(r"constatou-se (em [^:]*?)(?: o descumprimento|:)", html)


def test_the_auto_says_when_its_findings_were_found(api: Any) -> None:
    """The trial's case: the complaint of 10/11 (the case's date of facts), the engines'
    run judging 12/11, a finding recorded on 13/11 — the ementário auto on it said
    "constatou-se em 10/11/2026"; the art. 14 auto says the day its run judged."""
    c, h = api
    r = c.post("/api/v1/cases", headers=h, json={
        "complaint": {"source": "crew_member", "date": "2026-11-10", "content": "cota"},
        "vessel_docked": True, "pre_boarding": DOCKED, "on": "2026-11-10"})
    cid = int(r.json()["id"])
    _requested(c, h, cid, {k: v for k, v in q01_case().items() if k != "on"})
    _other_documents(c, h, cid, "2026-11-12")
    ok(c, h, cid, {"command": "run_engines", "on": "2026-11-12", "recorded_on": "2026-11-14"})
    ok(c, h, cid, {"command": "add_finding", "text": "extintores vencidos", "area": "safety",
                   "citation": "NR-30, item 30.2.1", "recorded_on": "2026-11-13"})
    own = _own(c, h, cid)
    case = ok(c, h, cid, {"command": "draft_auto", "recorded_on": "2026-11-16"})
    assert case["facts"]["on"] == "2026-11-12"
    ok(c, h, cid, {**EMENTARIO, "findings": own, "recorded_on": "2026-11-16"})
    docs = f"/api/v1/cases/{cid}/documents/auto-infracao"
    assert _history(c.get(f"{docs}?auto=A2", headers=h).text) == ["em 13/11/2026"]
    assert _history(c.get(f"{docs}?auto=A1", headers=h).text) == ["em 12/11/2026"]
    assert _history(c.get(docs, headers=h).text) == ["em 12/11/2026", "em 13/11/2026"]


def test_an_auto_on_findings_of_several_days_gives_each() -> None:
    data = {"engine_run": {"on": "2026-11-10", "ran_on": "2026-11-14"}, "findings": [
        {"id": "F1", "source": "engine:quota"},
        {"id": "F3", "source": "inspector", "found_on": "2026-11-13"},
        {"id": "F4", "source": "inspector", "found_on": "2026-11-13"},
        {"id": "F5", "source": "inspector"}]}  # stored before findings carried their day
    auto = {"id": "A1", "findings": ["F4", "F1", "F3"], "drafted_on": "2026-11-20"}
    assert found_days(data, auto) == [("2026-11-10", ["F1"]), ("2026-11-13", ["F4", "F3"])]
    assert found_when(data, auto) == "em 10/11/2026 (F1) e em 13/11/2026 (F4, F3)"
    assert found_when(data, {**auto, "findings": ["F3", "F4"]}) == "em 13/11/2026"
    assert found_when(data, {**auto, "findings": ["F5"]}) == "em 20/11/2026"
    three = {**auto, "findings": ["F1", "F3", "F5"]}
    assert found_when(data, three) == \
        "em 10/11/2026 (F1), em 13/11/2026 (F3) e em 20/11/2026 (F5)"

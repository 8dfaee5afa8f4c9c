"""A review of the workflow against inspection.md: the pre-boarding state is not skipped, the
art. 5 facts say something, the art. 6 consultation is recorded (never presumed), no report
before findings, and a write that replaces what a colleague recorded names its version."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from pydantic import ValidationError

from abordo.cases import commands, steps, transitions, workflow
from abordo.cases.commands import CommandInvalid, State, TransitionRefused
from abordo.law.errors import InputError
from cases_service.support import (
    CMD,
    DOCKED,
    REQUEST_DOCS,
    bearer,
    client_for,
    make_user,
    open_case,
    q01_case,
    run,
)


def case(docked: bool, **pre: Any) -> dict[str, Any]:
    return {"complaint": {"source": "union", "date": "2026-03-30", "content": "x"},
            "vessel_docked": docked, "findings": [], "notifications": [], "escalations": [],
            "autos": [], "checklist": [], "pre_boarding": {**DOCKED, **pre}}


def test_a_vessel_not_yet_docked_goes_through_pre_boarding() -> None:
    """Spec: only a docked or anchored vessel skips ``pre_boarding`` — art. 5's facts given
    with the complaint do not let an undocked vessel be boarded from ``received``."""
    d = case(False, expected_berthing="2026-04-03")
    with pytest.raises(TransitionRefused, match=r"investigação prévia \(art. 5º\) — "
                                                "start_pre_boarding"):
        run("received", d, {"command": "start_assessment"})
    assert "start_assessment" not in transitions.allowed_commands("received", d)
    d = run("received", d, {"command": "start_pre_boarding"}).data
    assert run("pre_boarding", d, {"command": "start_assessment"}).state == State.ASSESSING
    # docked: straight from received; a Brazilian-flag vessel has no art. 5 step at all
    assert run("received", case(True), {"command": "start_assessment"}).state \
        == State.ASSESSING
    national = {**case(False), "pre_boarding": {"flag": "BR"}}
    assert run("received", national, {"command": "start_assessment"}).state == State.ASSESSING


def test_art5_facts_must_say_something_and_agree() -> None:
    with pytest.raises(ValidationError, match="última inspeção do controle pelo Estado"):
        commands.PreBoarding.model_validate({"last_psc_inspection": {}})
    assert commands.PreBoarding.model_validate(
        {"last_psc_inspection": {"notes": "nenhuma registrada"}}).last_psc_inspection
    with pytest.raises(InputError) as err:
        run("pre_boarding", case(False), {"command": "record_pre_boarding", "facts": {
            "free_pratique_requested": False, "free_pratique_granted": True}})
    assert err.value.field == "facts.free_pratique_granted"
    assert "concedida sem ter sido solicitada" in err.value.message


def test_the_art6_consultation_is_recorded_never_presumed() -> None:
    d = run("received", case(True), {"command": "start_assessment"}).data
    for body in ({"command": "request_documents"},
                 {"command": "close_unfounded", "reason": "sem indício"}):
        with pytest.raises(CommandInvalid, match=r"consulted = master \(comandante\) ou "
                                                 r"next_in_command") as err:
            run("assessing", d, body)
        assert err.value.field == "consulted"
    out = run("assessing", d, {"command": "request_documents", "consulted": "next_in_command",
                               "reason": "relato verossímil de salários atrasados"})
    assert out.data["assessment"] == {
        "started_on": "2026-04-01", "justified": True, "consulted": "next_in_command",
        "reason": "relato verossímil de salários atrasados"}
    # a national vessel's action is not the art. 6 procedure: nobody to name
    national = run("received", {**case(True), "pre_boarding": {"flag": "BR"}},
                   {"command": "start_assessment"}).data
    assert run("assessing", national, {"command": "request_documents"}).data[
        "assessment"]["consulted"] is None


def test_overwriting_what_was_recorded_is_named() -> None:
    """Which writes replace a recorded value (and so need the version they were read at)."""
    d = case(True, agent=None)

    def changed(body: dict[str, Any], data: dict[str, Any],
                extra: dict[str, Any] | None = None) -> list[str]:
        return workflow.overwritten(data, CMD.validate_python(body), extra or {})

    facts = {"command": "record_pre_boarding", "facts": {"agent": "B", "berth": "3"}}
    assert changed(facts, d) == []  # the agent added, the berth as it was
    assert changed({**facts, "facts": {"berth": "7"}}, d) == ["facts.berth"]
    d["checklist"] = [{"item": "crew_list", "status": "pending"}]
    doc = {"command": "record_document", "item": "crew_list", "status": "received"}
    assert changed(doc, d) == []
    d["checklist"][0]["status"] = "received"
    assert changed(doc, d) == []
    assert changed({**doc, "status": "missing"}, d) == ["checklist[crew_list].status"]
    team = {"command": "assign_team", "team": ["b@x"]}
    d["team"] = ["a@x"]
    assert changed(team, d, {"team": ["a@x", "b@x"]}) == []
    assert changed(team, d, {"team": ["b@x"]}) == ["team"]
    first = {"vessel": {"flag": "NO"}, "crew": []}
    vc = {"command": "set_vessel_case", "vessel_case": first}
    assert changed(vc, d, {"vessel_case": first}) == []
    d = run("documents_requested", d, vc, {"vessel_case": first}).data
    assert changed(vc, d, {"vessel_case": first}) == []
    assert changed(vc, d, {"vessel_case": {**first, "vessel": {"flag": "PA"}}}) == [
        "vessel_case.vessel"]
    # the first crew into a vessel case given without one adds; a crew recorded is replaced
    crewed = {**first, "crew": [{"id": "T1"}]}
    assert changed(vc, d, {"vessel_case": crewed}) == []
    d = run("documents_requested", d, vc, {"vessel_case": crewed}).data
    assert changed(vc, d, {"vessel_case": {**first, "crew": [{"id": "X1"}]}}) == [
        "vessel_case.crew"]


def test_a_colleague_s_record_is_never_overwritten_unseen(sqlite_url: str) -> None:
    """Ana and her chief Bia read version 1; Bia changes the berth; Ana, without a version, would
    overwrite it: 428, naming the field. Ana adding a fact not yet recorded needs none."""
    ana = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    bia = bearer(make_user(sqlite_url, "bia@trabalho.gov.br", "regional_chief", "RJ"))
    c = client_for(sqlite_url)
    facts = {k: v for k, v in DOCKED.items() if k != "agent"}
    cid, _ = open_case(c, ana, pre_boarding=facts)
    url = f"/api/v1/cases/{cid}/commands"
    r = c.post(url, headers={**bia, "If-Match": '"1"'},
               json={"command": "record_pre_boarding", "facts": {"berth": "7"}})
    assert r.status_code == 200 and r.json()["version"] == 2
    r = c.post(url, headers=ana, json={"command": "record_pre_boarding",
                                       "facts": {"agent": "Agência A", "berth": "3"}})
    assert r.status_code == 428, r.text
    assert r.json()["type"].endswith("/problems/version-required")
    assert "(facts.berth)" in r.json()["detail"] and r.json()["current_version"] == 2
    r = c.post(url, headers=ana, json={"command": "record_pre_boarding",
                                       "facts": {"agent": "Agência A"}})
    assert r.status_code == 200
    # ``If-Match: *`` (RFC 9110: any version) replaces knowingly
    r = c.post(url, headers={**ana, "If-Match": "*"},
               json={"command": "record_pre_boarding", "facts": {"quay": "Cais Sul"}})
    assert r.status_code == 200 and r.json()["facts"]["pre_boarding"]["quay"] == "Cais Sul"
    assert (r.json()["facts"]["pre_boarding"]["agent"],
            r.json()["facts"]["pre_boarding"]["berth"]) == ("Agência A", "7")


def test_the_national_coordination_is_refused_the_crew_upload_as_read_only(
        sqlite_url: str) -> None:
    ana = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    nat = bearer(make_user(sqlite_url, "cn@trabalho.gov.br", "national", None))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, ana)
    up = c.post(f"/api/v1/cases/{cid}/crew", headers=nat,
                files={"file": ("crew.csv", b"id,rank,nationality\nC1,AB,BR\n", "text/csv")})
    assert up.status_code == 403 and "somente de leitura" in up.json()["detail"]


def test_the_report_states_the_consultation_as_recorded(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, h, on="2026-04-01")
    url = f"/api/v1/cases/{cid}/commands"
    brazilian = q01_case()  # its crew all Brazilian: nothing found
    brazilian["crew"] = [{**m, "nationality": "BR"} for m in brazilian["crew"]]
    for body in ({"command": "start_assessment"},
                 {"command": "request_documents", "consulted": "next_in_command",
                  "reason": "relato verossímil de salários atrasados."},
                 {"command": "set_vessel_case", "vessel_case": brazilian},
                 {"command": "run_engines"}):
        assert c.post(url, headers=h, json=body).status_code == 200, body
    for item in c.get(f"/api/v1/cases/{cid}", headers=h).json()["facts"]["checklist"]:
        assert c.post(url, headers=h, json={"command": "record_document", "item": item["item"],
                                            "status": "received"}).status_code == 200
    r = c.post(url, headers=h, json={"command": "write_report",
                                     "summary": "Nenhuma irregularidade constatada."})
    assert (r.status_code, r.json()["state"]) == (200, "report"), r.text
    html = c.get(f"/api/v1/cases/{cid}/documents/relatorio", headers=h)
    assert html.status_code == 200, html.text
    assert ("em consulta ao substituto imediato do comandante: inspeção justificada — "
            "relato verossímil de salários atrasados.") in html.text


def test_a_repatriation_complaint_shows_the_inspection_deadline_from_the_start(
        sqlite_url: str) -> None:
    """Decreto 6.968/2009 (arts. 3 and 5 § 1º, I): a seafarer asking to be repatriated gets
    an inspection at once after the complaint — shown (unconfirmed) from the case's opening,
    not only after an unmet notification; before the decree (in force 2009-09-30) there is
    no such deadline."""
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)

    def opened(day: str, repatriation: bool) -> list[dict[str, Any]]:
        r = c.post("/api/v1/cases", headers=h, json={
            "complaint": {"source": "crew_member", "date": day, "content": "contrato vencido",
                          "repatriation": repatriation},
            "vessel_docked": True, "pre_boarding": DOCKED})
        assert r.status_code == 201, r.text
        return list(r.json()["deadlines"])

    got = opened("2026-03-28", True)  # a Norwegian vessel: art. 5 § 1º (abandoned in AJB)
    assert [(x["kind"], x["due"], x["confirmed"], x["basis"]["provision"]) for x in got] == [
        ("repatriation_inspection", "2026-03-28", False, "art. 5º, § 1º, I"),
        ("repatriation_shore_lodging", "2026-04-12", False, "art. 5º, § 1º, III")]
    assert opened("2026-03-28", False) == []
    assert opened("2008-09-01", True) == []


def test_without_an_express_refusal_the_decree_counts_from_the_deadline_run_out() -> None:
    """Decreto 6.968/2009 (arts. 3 and 5 § 1º): the 48-hour report runs from the shipowner's
    refusal — the day after the notification's last day when nobody refused expressly,
    however late the outcome is entered; the express refusal's own day otherwise. The
    15-day step runs from the complaint (III: "quinze dias da denúncia")."""
    d = case(True)
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "contrato vencido",
                      "area": "contractual", "severity": "violation", "citation": {"label": "x"}}]
    d["vessel_case"] = {"crew": [{"id": "C04"}]}
    d["engine_run"] = {"on": "2026-04-01"}
    d["assessment"] = {"started_on": "2026-03-31"}
    notified = run("findings", d, {"command": "notify", "deadline": "2026-04-06",
                                   "recorded_on": "2026-04-01"}).data
    late = wf_run_on(notified, {"command": "record_not_remedied", "risk": "contractual_wage",
                                "repatriation": True}, dt.date(2026, 4, 20))
    due = {x["kind"]: x for x in steps.deadlines(late)}
    assert (due["repatriation_report_48h"]["due"], due["repatriation_shore_lodging"]["due"]) \
        == ("2026-04-09", "2026-04-14")  # from 07/04 (the day after 06/04); 30/03 + 15
    assert due["repatriation_inspection"]["met_on"] == "2026-03-31"
    express = wf_run_on(notified, {"command": "record_not_remedied", "risk": "contractual_wage",
                                   "repatriation": True, "refused": True,
                                   "recorded_on": "2026-04-02"}, dt.date(2026, 4, 20))
    due = {x["kind"]: x for x in steps.deadlines(express)}
    assert due["repatriation_report_48h"]["due"] == "2026-04-04"
    # a Brazilian vessel's shipowner: art. 3, the Foreign Ministry after 15 days
    home = {**late, "vessel_case": {"vessel": {"flag": "BR"}, "crew": [{"id": "C04"}]}}
    due = {x["kind"]: x for x in steps.deadlines(home)}
    assert (due["repatriation_foreign_ministry"]["due"],
            due["repatriation_foreign_ministry"]["basis"]["provision"]) == (
        "2026-04-14", "art. 3º, III")
    assert "repatriation_shore_lodging" not in due


def wf_run_on(data: dict[str, Any], body: dict[str, Any], today: dt.date) -> dict[str, Any]:
    return workflow.apply("notified", data, CMD.validate_python(body), today=today,
                          actor="t").data


def test_a_document_received_but_not_in_the_crew_list_is_no_violation(sqlite_url: str) -> None:
    """A FAL 5 list carries no visas: the engine sees persons without documents. Where the
    checklist records a person's document as received, the engine's immigration finding on
    that person is a warning to complete the list, not a violation to notify and fine."""
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, h, complaint_date="2026-05-28", on="2026-06-01")
    url = f"/api/v1/cases/{cid}/commands"
    for body in ({"command": "start_assessment", "recorded_on": "2026-06-01"},
                 {**REQUEST_DOCS, "recorded_on": "2026-06-01"},
                 {"command": "set_vessel_case", "vessel_case": q01_case(),
                  "recorded_on": "2026-06-01"},
                 {"command": "record_document", "item": "work_authorizations:C01",
                  "status": "received", "recorded_on": "2026-06-01"},
                 {"command": "record_document", "item": "foreign_crew_visas:C01",
                  "status": "received", "recorded_on": "2026-06-01"},
                 {"command": "record_document", "item": "foreign_crew_visas:C02",
                  "status": "received", "recorded_on": "2026-06-01"},
                 {"command": "run_engines", "recorded_on": "2026-06-01"}):
        assert c.post(url, headers=h, json=body).status_code == 200, body
    found = c.get(f"/api/v1/cases/{cid}", headers=h).json()["facts"]["findings"]
    immigration = {f["subject"]: f for f in found if f["source"] == "engine:immigration"}
    assert immigration["C01"]["severity"] == "warning"
    assert "registrado como recebido na lista de verificação" in immigration["C01"]["text"]
    # C02's work authorization is still pending: every document of theirs must be in
    assert immigration["C02"]["severity"] == "violation"


def test_the_port_can_be_given_once_aboard_and_a_typo_corrected() -> None:
    d = run("received", case(True), {"command": "start_assessment"}).data
    d = run("assessing", d, {**REQUEST_DOCS, "recorded_on": "2026-04-01"}).data
    out = run("documents_requested", d, {"command": "record_pre_boarding",
                                         "facts": {"port": "Niterói/RJ", "berth": "5"}})
    assert (out.state, out.data["pre_boarding"]["port"], out.data["pre_boarding"]["berth"]) \
        == (State.DOCUMENTS_REQUESTED, "Niterói/RJ", "5")
    assert "record_pre_boarding" not in transitions.allowed_commands(
        "report", {**out.data, "report": {"summary": "s"}})


def test_a_crew_upload_never_replaces_a_colleague_s_crew_list_unseen(sqlite_url: str) -> None:
    ana = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, ana, on="2026-04-01")
    url = f"/api/v1/cases/{cid}/commands"
    bare = {**q01_case(), "crew": []}
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "set_vessel_case", "vessel_case": bare}):
        assert c.post(url, headers=ana, json={**body, "recorded_on": "2026-03-30"}
                      ).status_code == 200, body
    csv = b"id,rank,nationality\nT1,Master,BR\nT2,AB,PH\n"
    up = c.post(f"/api/v1/cases/{cid}/crew", headers=ana,
                files={"file": ("t.csv", csv, "text/csv")})
    assert up.status_code == 200, up.text  # the first crew list: nothing replaced
    other = b"id,rank,nationality\nX1,Master,BR\nX2,AB,PH\n"
    up = c.post(f"/api/v1/cases/{cid}/crew", headers=ana,
                files={"file": ("x.csv", other, "text/csv")})
    assert up.status_code == 428 and "(vessel_case.crew)" in up.json()["detail"]
    version = c.get(f"/api/v1/cases/{cid}", headers=ana).json()["version"]
    up = c.post(f"/api/v1/cases/{cid}/crew", headers={**ana, "If-Match": f'"{version}"'},
                files={"file": ("x.csv", other, "text/csv")})
    assert up.status_code == 200
    assert [m["id"] for m in up.json()["facts"]["vessel_case"]["crew"]] == ["X1", "X2"]


def test_the_crew_list_given_is_received_and_the_pre_boarding_name_is_searchable(
        sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, h, pre_boarding={**DOCKED, "vessel_name": "Mar Azul"},
                       on="2026-04-01")
    assert [x["id"] for x in c.get("/api/v1/cases?q=azul", headers=h).json()["items"]] == [cid]
    url = f"/api/v1/cases/{cid}/commands"
    for body in ({"command": "start_assessment"}, REQUEST_DOCS):
        assert c.post(url, headers=h, json=body).status_code == 200
    out = c.post(url, headers=h, json={"command": "set_vessel_case",
                                       "vessel_case": q01_case()}).json()
    status = {i["item"]: i["status"] for i in out["facts"]["checklist"]}
    assert status["crew_list"] == "received" and status["ship_registry"] == "pending"
    event = c.get(f"/api/v1/cases/{cid}/events", headers=h).json()["events"][-1]
    assert event["payload"]["checklist_received"] == ["crew_list"]


def test_review_of_the_overwrite_and_document_rules() -> None:
    """A person's immigration finding is a warning only when every document item of theirs is
    received; a document recorded otherwise before the notification calls the engines
    again; a vessel case with no crew leaves crew_data open; a case reported before that
    step existed can still close; a stored empty PSC record is no fact."""
    d = case(True)
    d["checklist"] = [{"item": "foreign_crew_visas:C01", "subject": "C01", "status": "received"},
                      {"item": "work_authorizations:C01", "subject": "C01", "status": "missing"},
                      {"item": "foreign_crew_visas:C02", "subject": "C02", "status": "received"}]
    d["vessel_case"] = {"crew": [{"id": "C01"}, {"id": "C02"}, {"id": "C03"}]}
    assert steps.documents_held_unlisted(d) == ["C02"]
    d["vessel_case_sha256"] = "x"
    d["engine_run"] = {"vessel_case_sha256": "x", "documents_held": ["C02"]}
    assert steps.engines_current(d)
    d["checklist"][2]["status"] = "missing"
    assert not steps.engines_current(d)  # C02's finding is a violation now: run again
    d["notifications"] = [{"id": "N1"}]
    assert steps.engines_current(d)  # once notified, the findings stand
    # crew_data: an empty crew given does not clear it; a stored report is not held to it
    e = case(True)
    e["checklist"] = [{"item": "crew_list", "status": "received"}]
    e["vessel_case"] = {"vessel": {"flag": "NO"}, "crew": []}
    assert steps.crew_list_unrecorded(e)
    assert not steps.crew_list_unrecorded({**e, "report": {"summary": "s"}})
    # a port state control record stored empty, before the model refused it
    f = case(True, last_psc_inspection={})
    assert steps.pre_boarding_missing(f) == ["last_psc_inspection"]


def test_the_date_of_facts_and_the_operation_defaults_under_the_version_rule() -> None:
    from abordo.cases.service import validate_vessel_case

    given = {"vessel": {"name": "V", "flag": "NO", "activity": "offshore_support"},
             "crew": [{"id": "C1", "rank": "Master", "nationality": "NO"}]}
    first = validate_vessel_case(given)
    d = {**case(True), "vessel_case": first, "on": "2026-06-01"}
    with_operation = validate_vessel_case({**given, "operation": {
        "contract": "charter", "ajb_presence": [{"entry": "2026-01-01"}]}})
    vc = {"command": "set_vessel_case", "vessel_case": given}
    # the operation where only the defaults stood: added, nothing replaced
    assert workflow.overwritten(d, CMD.validate_python(vc), {"vessel_case": with_operation}) \
        == []
    # another date of facts replaces the one recorded, by either command
    assert workflow.overwritten(d, CMD.validate_python({**vc, "on": "2026-05-01"}),
                                {"vessel_case": first}) == ["on"]
    assert workflow.overwritten(d, CMD.validate_python(
        {"command": "run_engines", "on": "2026-04-15"}), {}) == ["on"]
    assert workflow.overwritten(d, CMD.validate_python(
        {"command": "run_engines", "on": "2026-06-01"}), {}) == []


def test_a_corrected_vessel_name_is_found_by_its_new_spelling(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, h, pre_boarding={**DOCKED, "vessel_name": "Navio Errado"})
    r = c.post(f"/api/v1/cases/{cid}/commands", headers={**h, "If-Match": '"1"'},
               json={"command": "record_pre_boarding", "facts": {"vessel_name": "Mar Azul"}})
    assert r.status_code == 200
    found = c.get("/api/v1/cases?q=azul", headers=h).json()["items"]
    assert [x["id"] for x in found] == [cid]
    assert c.get("/api/v1/cases?q=errado", headers=h).json()["items"] == []


def test_several_documents_are_recorded_in_one_act() -> None:
    d = case(True)
    d["checklist"] = [{"item": "foreign_crew_visas:C01", "subject": "C01", "status": "pending",
                       "basis": {"label": "IN SIT nº 70/2007, art. 13, III"}},
                      {"item": "foreign_crew_visas:C02", "subject": "C02", "status": "pending",
                       "basis": {"label": "IN SIT nº 70/2007, art. 13, III"}},
                      {"item": "crew_payroll", "status": "pending",
                       "basis": {"label": "IN SIT nº 70/2007, art. 7º"}}]
    d["documents_requested_on"] = "2026-04-01"
    out = run("documents_requested", d, {"command": "record_document", "status": "received",
                                         "items": ["foreign_crew_visas:C01",
                                                   "foreign_crew_visas:C02"]})
    assert [i["status"] for i in out.data["checklist"]] == ["received", "received", "pending"]
    assert out.payload["basis"] == "IN SIT nº 70/2007, art. 13, III"
    both = run("documents_requested", d, {"command": "record_document", "status": "missing",
                                          "items": ["crew_payroll", "foreign_crew_visas:C01"]})
    assert both.payload["basis"] == ("IN SIT nº 70/2007, art. 7º; "
                                     "IN SIT nº 70/2007, art. 13, III")
    # replacing statuses recorded: each named
    changed = workflow.overwritten(out.data, CMD.validate_python(
        {"command": "record_document", "status": "missing",
         "items": ["foreign_crew_visas:C01", "foreign_crew_visas:C02", "crew_payroll"]}), {})
    assert changed == ["checklist[foreign_crew_visas:C01].status",
                       "checklist[foreign_crew_visas:C02].status"]
    with pytest.raises(CommandInvalid, match="documento desconhecido 'visto:C09'") as err:
        run("documents_requested", d, {"command": "record_document", "status": "received",
                                       "items": ["foreign_crew_visas:C01", "visto:C09"]})
    assert err.value.field == "items"
    for bad in ({}, {"item": "crew_payroll", "items": ["crew_payroll"]}):
        with pytest.raises(ValidationError, match="informe item"):
            CMD.validate_python({"command": "record_document", "status": "received", **bad})

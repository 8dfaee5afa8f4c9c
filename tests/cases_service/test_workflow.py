"""The transition table and its guards, without a database."""

from __future__ import annotations

import datetime as dt
import typing
from typing import Any

import pytest
from pydantic import ValidationError

from abordo.cases import checklist, commands, steps, transitions, workflow
from abordo.cases.commands import State, TransitionRefused
from abordo.law.errors import InputError
from cases_service.support import CMD, DOCKED, REQUEST_DOCS, TODAY, run


def base(docked: bool = True) -> dict[str, Any]:
    return {"complaint": {"source": "union", "date": "2026-03-30", "content": "x"},
            "vessel_docked": docked, "findings": [], "notifications": [], "escalations": [],
            "autos": [], "checklist": [], "pre_boarding": dict(DOCKED) if docked else {}}


def chartered(company: str = "Empresa BR Ltda") -> dict[str, Any]:
    """A foreign PSV chartered by a Brazilian company (the art. 14 auto's offender)."""
    return {"vessel": {"flag": "NO", "activity": "offshore_support"},
            "operation": {"contract": "charter", "brazilian_company": {"name": company}}}


def national_with_finding() -> dict[str, Any]:
    """A Brazilian-flag case (ordinary registry) with one inspector's violation F1, judged
    by the engines (an ementário auto may be drafted on it)."""
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation",
                      "citation": {"label": "NR-30"}}]
    d["vessel_case"] = {"vessel": {"flag": "BR", "registry": "ordinary"}}
    d["engine_run"] = {"on": "2026-04-01"}
    return d


EMENTARIO_AUTO = {"command": "draft_auto", "kind": "ementario", "ementa": "130123-4",
                  "capitulation": "NR-30, item 30.2.1", "findings": ["F1"],
                  "against": {"name": "Armadora BR Ltda"}}


def test_one_table_covers_every_command() -> None:
    names = {m.model_fields["command"].annotation.__args__[0]
             for m in commands.Command.__origin__.__args__}  # type: ignore[attr-defined]
    assert names == set(transitions.TRANSITIONS)
    for t in transitions.TRANSITIONS.values():
        assert not (t.sources & commands.CLOSED_STATES)


def test_one_handler_per_command_of_the_table() -> None:
    """Each command of the table has its handler, typed for the command it is keyed by."""
    assert list(workflow.HANDLERS) == list(transitions.TRANSITIONS)
    for name, handler in workflow.HANDLERS.items():
        model = typing.get_type_hints(handler)["cmd"]
        assert model.model_fields["command"].annotation.__args__ == (name,), name


def test_docked_vessel_skips_pre_boarding() -> None:
    assert run("received", base(True), {"command": "start_assessment"}).state == State.ASSESSING
    with pytest.raises(TransitionRefused, match="atracada"):
        run("received", base(True), {"command": "start_pre_boarding"})


def test_docked_vessel_still_needs_the_art5_facts() -> None:
    """Art. 6: at the berth or anchored, the assessment comes "após a observância do disposto
    nos incisos I a IV do art. 5º" — only the expected berthing is settled by being there."""
    bare = {**base(True), "pre_boarding": {}}
    with pytest.raises(TransitionRefused, match=r"incisos I a IV do art. 5º \(art. 6º\)") as exc:
        run("received", bare, {"command": "start_assessment"})
    assert "agent" in exc.value.message and "expected_berthing" not in exc.value.message
    out = run("received", bare, {"command": "record_pre_boarding", "facts": DOCKED})
    assert run("received", out.data, {"command": "start_assessment"}).state == State.ASSESSING


def test_undocked_vessel_needs_free_pratique() -> None:
    data = base(False)
    with pytest.raises(TransitionRefused, match=r"art\. 5"):
        run("received", data, {"command": "start_assessment"})
    facts = {"agent": "A", "vessel_name": "V", "vessel_class": "PSV", "flag": "NO",
             "free_pratique_requested": True, "free_pratique_granted": False,
             "last_psc_inspection": {"date": "2026-01-01"}, "expected_berthing": "2026-04-02",
             "expected_unberthing": "2026-04-05", "quay": "Q", "berth": "1"}
    out = run("pre_boarding", data, {"command": "record_pre_boarding", "facts": facts})
    with pytest.raises(TransitionRefused, match="livre prática"):
        run("pre_boarding", out.data, {"command": "start_assessment"})
    out = run("pre_boarding", out.data, {"command": "record_pre_boarding",
                                         "facts": {"free_pratique_granted": True}})
    assert run("pre_boarding", out.data, {"command": "start_assessment"}).state == "assessing"


@pytest.mark.parametrize("state", [s for s in State if s != State.ASSESSING])
def test_closed_unfounded_only_from_assessing(state: State) -> None:
    with pytest.raises(TransitionRefused):
        run(state, base(), {"command": "close_unfounded", "consulted": "master",
                            "reason": "improcedente"})


def test_closed_unfounded_from_assessing() -> None:
    out = run("assessing", base(), {"command": "close_unfounded", "consulted": "master",
                                    "reason": "improcedente"})
    assert out.state == State.CLOSED_UNFOUNDED and out.data["assessment"]["justified"] is False


@pytest.mark.parametrize("state", ["received", "pre_boarding", "assessing", "report",
                                   "closed"])
def test_no_report_before_findings(state: str) -> None:
    with pytest.raises(TransitionRefused):
        run(state, base(), {"command": "write_report", "summary": "s"})


def notified(risk: str, **flags: bool) -> dict[str, Any]:
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    out = run("findings", d, {"command": "notify", "deadline": "2026-04-06"})
    return run("notified", out.data, {"command": "record_not_remedied", "risk": risk,
                                      "refused": True, **flags}).data


def test_not_remedied_only_after_the_deadline_or_on_refusal() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    out = run("findings", d, {"command": "notify", "deadline": "2026-04-01"})
    body = {"command": "record_not_remedied", "risk": "contractual_wage"}
    with pytest.raises(TransitionRefused, match="vence em 01/04/2026") as exc:
        run("notified", out.data, body)  # the deadline day is still the party's
    assert exc.value.field == "recorded_on"
    later = workflow.apply("notified", out.data, CMD.validate_python(body),
                     today=dt.date(2026, 4, 2), actor="t")
    note = later.data["notifications"][-1]
    assert (note["outcome"], note["outcome_on"], note["refused"]) == \
        ("not_remedied", "2026-04-02", False)
    refused = run("notified", out.data, {**body, "refused": True})
    assert refused.data["not_remedied"]["refused"] is True
    assert refused.data["notifications"][-1]["outcome_on"] == "2026-04-01"


def test_detention_only_after_unmet_notification_with_serious_risk() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    out = run("findings", d, {"command": "notify", "deadline": "2026-04-06"})
    with pytest.raises(TransitionRefused, match="grave e iminente"):
        run("notified", out.data, {"command": "request_detention"})
    with pytest.raises(TransitionRefused, match="grave e iminente"):
        run("notified", notified("contractual_wage"), {"command": "request_detention"})
    ok = run("notified", notified("serious_imminent"), {"command": "request_detention"})
    assert ok.data["escalations"][0]["basis"]["provision"] == "art. 10, I"


def test_repatriation_and_strike_steps_are_mandatory() -> None:
    d = notified("lesser_safety", repatriation=True, strike=True)
    with pytest.raises(TransitionRefused, match="Polícia Federal"):
        run("notified", d, {"command": "write_report", "summary": "s"})
    d["vessel_case"] = {"crew": [{"id": "C04"}]}
    d["engine_run"] = {"on": "2026-04-01"}  # the engines ran on it
    d = run("notified", d, {"command": "refer_federal_police", "crew": ["C04"],
                            "situation": "contract_expired"}).data
    with pytest.raises(TransitionRefused, match="mediação"):
        run("notified", d, {"command": "write_report", "summary": "s"})
    d = run("notified", d, {"command": "record_mediation", "notes": "acordo"}).data
    out = run("notified", d, {"command": "write_report", "summary": "s"})
    assert out.state == State.REPORT and out.data["report"]["forward_international"] is True
    assert run("report", out.data, {"command": "close"}).state == State.CLOSED
    with pytest.raises(TransitionRefused, match="Polícia Federal"):
        run("notified", notified("lesser_safety"), {"command": "refer_federal_police",
                                                    "crew": ["C04"],
                                                    "situation": "contract_expired"})


def test_notify_needs_a_violation_and_a_sane_deadline() -> None:
    with pytest.raises(TransitionRefused, match="irregularidade"):
        run("findings", base(), {"command": "notify", "deadline": "2026-04-06"})
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    with pytest.raises(TransitionRefused) as exc:
        run("findings", d, {"command": "notify", "deadline": "2026-03-01"})
    assert exc.value.field == "deadline"


def test_quota_finding_requires_auto_against_brazilian_company() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "engine:quota", "text": "x",
                      "severity": "violation"}]
    d["notifications"] = [{"id": "N1", "deadline": "2026-04-05", "outcome": "remedied"}]
    with pytest.raises(TransitionRefused, match="auto de infração"):
        run("remedied", d, {"command": "write_report", "summary": "s"})
    with pytest.raises(TransitionRefused, match="brazilian_company"):
        run("remedied", d, {"command": "draft_auto"})
    d["vessel_case"] = chartered()
    d["engine_run"] = {"on": "2026-04-01"}  # the engines ran on it
    out = run("remedied", d, {"command": "draft_auto"})
    auto = out.data["autos"][0]
    assert auto["ementa"] == "001139-8" and auto["capitulation"]["label"] == "CLT, art. 444"
    assert auto["against"]["name"] == "Empresa BR Ltda"
    assert auto["basis"]["provision"] == "art. 14"
    assert run("remedied", out.data, {"command": "write_report", "summary": "s"}).state \
        == State.REPORT


def test_the_art14_auto_names_the_company_given_in_the_command_when_the_case_has_none() -> None:
    """The contract may be read only aboard, after notification has fixed the vessel case:
    the auto then names the company (against), never a dead end."""
    d = base()
    d["findings"] = [{"id": "F1", "source": "engine:quota", "text": "x",
                      "severity": "violation"}]
    d["notifications"] = [{"id": "N1", "deadline": "2026-04-05", "outcome": "remedied"}]
    d["vessel_case"] = {"vessel": {"flag": "NO", "activity": "offshore_support"},
                        "operation": {"contract": "charter"}}
    d["engine_run"] = {"on": "2026-04-01"}
    with pytest.raises(TransitionRefused, match="against: nome e CNPJ") as refused:
        run("remedied", d, {"command": "draft_auto"})
    assert refused.value.field == "against"
    with pytest.raises(commands.CommandInvalid,
                       match="informe o CNPJ da empresa autuada") as nameless:
        run("remedied", d, {"command": "draft_auto", "against": {"name": "Apoio Ltda"}})
    assert nameless.value.field == "against.cnpj"
    with pytest.raises(ValidationError, match="CNPJ inválido"):
        run("remedied", d, {"command": "draft_auto",
                            "against": {"name": "Apoio Ltda", "cnpj": "11.222.333/0001-80"}})
    out = run("remedied", d, {"command": "draft_auto", "against": {
        "name": "Exemplo Apoio Marítimo Ltda", "cnpj": "11.222.333/0001-81"}})
    auto = out.data["autos"][0]
    assert auto["against"] == {"name": "Exemplo Apoio Marítimo Ltda",
                               "cnpj": "11.222.333/0001-81"}
    assert (auto["ementa"], auto["findings"]) == ("001139-8", ["F1"])
    assert run("remedied", out.data, {"command": "write_report", "summary": "s"}).state \
        == State.REPORT


def test_checklist_for_foreign_vessel_under_contract() -> None:
    vc = {"vessel": {"flag": "NO", "activity": "long_haul"},
          "operation": {"contract": "charter"},
          "crew": [{"id": "C1", "nationality": ["NO"]}, {"id": "C2", "nationality": ["BR"]}]}
    items = {i["item"] for i in checklist.checklist_for(vc, TODAY)}
    assert {"navigation_type", "foreign_calls_proof", "foreign_crew_visas:C1"} <= items
    assert "caa" not in items and "foreign_crew_visas:C2" not in items
    # before the vessel is described: the 7 art. 7 documents (the contract that brings in
    # arts. 12–13 is not known yet)
    assert [i["basis"]["provision"]
            for i in checklist.checklist_for(None, TODAY)] == ["art. 7º"] * 7
    # without a contract with a Brazilian company, arts. 12–13 add nothing (art. 12)
    for activity in ("long_haul", "cabotage"):
        alone = {**vc, "vessel": {"flag": "NO", "activity": activity},
                 "operation": {"contract": "none"}}
        assert [i["basis"]["provision"] for i in checklist.checklist_for(alone, TODAY)] \
            == ["art. 7º"] * 7


def test_closing_with_pending_documents_is_refused() -> None:
    d = base()
    d["checklist"] = checklist.checklist_for(None, TODAY)
    d["report"] = {"summary": "s"}
    with pytest.raises(TransitionRefused, match="documentos"):
        run("report", d, {"command": "close"})


def test_documents_still_pending_after_the_notification_never_block_the_case() -> None:
    """Notified with the checklist open: the documents can still be recorded (every command
    the report needs is allowed where the report is), then the report is written."""
    d = base()
    d["checklist"] = checklist.checklist_for(None, TODAY)
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    d = run("findings", d, {"command": "notify", "deadline": "2026-04-06"}).data
    d = run("notified", d, {"command": "record_remedied"}).data
    with pytest.raises(TransitionRefused, match="documentos"):
        run("remedied", d, {"command": "write_report", "summary": "s"})
    for item in [i["item"] for i in d["checklist"]]:
        d = run("remedied", d, {"command": "record_document", "item": item,
                                "status": "received"}).data
    out = run("remedied", d, {"command": "write_report", "summary": "s"})
    assert out.state == State.REPORT
    # No state where the report is allowed lacks the commands that clear its open steps.
    report_from = transitions.TRANSITIONS["write_report"].sources
    assert report_from <= transitions.TRANSITIONS["record_document"].sources


def test_notification_dated_before_the_complaint_or_in_the_future_is_refused() -> None:
    d = base()  # complaint of 2026-03-30, today 2026-04-01
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    with pytest.raises(InputError) as exc:
        run("findings", d, {"command": "notify", "issued_on": "2026-03-01",
                            "deadline": "2026-03-10"})
    assert exc.value.field == "issued_on" and "30/03/2026" in str(exc.value)
    with pytest.raises(InputError) as exc:
        run("findings", d, {"command": "notify", "issued_on": "2026-04-02",
                            "deadline": "2026-04-10"})
    assert exc.value.field == "issued_on"
    ok = run("findings", d, {"command": "notify", "issued_on": "2026-03-31",
                             "deadline": "2026-04-10"})
    assert ok.data["notifications"][0]["issued_on"] == "2026-03-31"


def test_acts_recorded_later_keep_the_day_they_happened() -> None:
    d = base()  # complaint 2026-03-30, today 2026-04-01
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    d = run("findings", d, {"command": "notify", "deadline": "2026-04-06",
                            "recorded_on": "2026-03-31"}).data
    assert d["notifications"][0]["issued_on"] == "2026-03-31"
    out = run("notified", d, {"command": "record_remedied", "recorded_on": "2026-03-31"})
    assert out.data["notifications"][0]["outcome_on"] == "2026-03-31"
    for day, why in (("2026-04-02", "futuro: 02/04/2026"),
                     ("2026-03-01", "anterior à denúncia")):
        with pytest.raises(InputError, match=why) as exc:  # 422: no state takes that date
            run("notified", d, {"command": "record_remedied", "recorded_on": day})
        assert exc.value.field == "recorded_on"


def test_command_dates_accept_dd_mm_aaaa() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    out = run("findings", d, {"command": "notify", "deadline": "06/04/2026",
                              "issued_on": "01/04/2026"})
    assert (out.data["notifications"][0]["deadline"],
            out.data["notifications"][0]["issued_on"]) == ("2026-04-06", "2026-04-01")


def test_an_irregular_physical_check_is_a_finding_to_notify() -> None:
    """Art. 8 checks feed art. 9: an irregular check moves the case to findings; one found
    after the notification needs a notification of its own before the report."""
    check = {"command": "record_physical_check", "area": "galley", "ok": False,
             "notes": "sem refrigeração", "citation": "NR-30, item 30.4.2"}
    out = run("documents_requested", base(), check)
    assert out.state == State.FINDINGS and out.data["findings"][0]["id"] == "F1"
    # the finding's basis is the norm broken; art. 8 is the procedure it was found under
    f1 = out.data["findings"][0]
    assert f1["citation"] == {"label": "NR-30, item 30.4.2", "urn": None}
    assert f1["found_under"]["label"].endswith("art. 8º")
    assert out.payload["finding"] == "F1"
    with pytest.raises(TransitionRefused, match="informe a norma descumprida") as exc:
        run("documents_requested", base(), {k: v for k, v in check.items() if k != "citation"})
    assert exc.value.field == "citation"
    regular = run("documents_requested", base(), {**check, "ok": True, "citation": None})
    assert regular.state == State.DOCUMENTS_REQUESTED  # a regular area needs no citation
    out = run("findings", out.data, {"command": "notify", "deadline": "2026-04-01"})
    assert out.data["notifications"][0]["items"] == ["F1"]
    out = run("notified", out.data, {"command": "record_remedied"})
    out = run("remedied", out.data, {**check, "area": "drinking_water"})  # F2, later
    with pytest.raises(TransitionRefused, match=r"ainda não notificadas \(art. 9º\): F2"):
        run("remedied", out.data, {"command": "write_report", "summary": "s"})
    out = run("remedied", out.data, {"command": "notify", "deadline": "2026-04-01"})
    assert out.state == State.NOTIFIED
    assert [n["items"] for n in out.data["notifications"]] == [["F1"], ["F2"]]
    with pytest.raises(TransitionRefused, match="resultado da notificação N2"):
        run("notified", out.data, {"command": "notify", "deadline": "2026-04-01"})
    out = run("notified", out.data, {"command": "record_remedied"})
    assert run("remedied", out.data, {"command": "write_report", "summary": "s"}).state \
        == State.REPORT


def test_acts_are_not_dated_before_the_acts_they_answer() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    out = run("findings", d, {"command": "notify", "deadline": "2026-04-01",
                              "issued_on": "2026-03-31"})
    with pytest.raises(TransitionRefused, match="anterior à emissão da notificação N1") as exc:
        run("notified", out.data, {"command": "record_remedied", "recorded_on": "2026-03-30"})
    assert exc.value.field == "recorded_on"
    out = run("notified", out.data, {"command": "record_remedied", "recorded_on": "2026-04-01"})
    with pytest.raises(TransitionRefused,
                       match=r"\(31/03/2026\) anterior ao resultado da notificação N1"):
        run("remedied", out.data, {"command": "write_report", "summary": "s",
                                   "recorded_on": "2026-03-31"})
    out = run("remedied", out.data, {"command": "write_report", "summary": "s"})
    with pytest.raises(TransitionRefused, match="anterior ao relatório"):
        run("report", out.data, {"command": "close", "recorded_on": "2026-03-31"})


def test_art14_auto_covers_immigration_too_and_other_violations_follow_the_ementario() -> None:
    """Art. 14: a CNIg resolution not met, "inclusive" the admission of Brazilians — an
    immigration finding under RN 06/2017 is autuated like the quota; another violation gets
    the ementa and capitulation of the ementário (art. 2, sole paragraph)."""
    d = base()
    cnig = {"norm_id": "cnig-rn-06-2017", "label": "RN CNIg nº 06/2017, art. 11, § 1º"}
    d["findings"] = [
        {"id": "F1", "source": "engine:immigration", "severity": "violation", "text": "C01",
         "citation": cnig},
        {"id": "F2", "source": "inspector", "severity": "violation", "text": "extintores"}]
    d["vessel_case"] = chartered()
    d["engine_run"] = {"on": "2026-04-01"}  # the engines ran on it
    assert "quota_auto" in [s["id"] for s in steps.open_step_details(d)]
    out = run("findings", d, {"command": "draft_auto"})
    auto = out.data["autos"][0]
    assert (auto["kind"], auto["findings"], auto["ementa"]) == ("cnig", ["F1"], "001139-8")
    assert "quota_auto" not in [s["id"] for s in steps.open_step_details(out.data)]
    with pytest.raises(TransitionRefused, match="ementa") as exc:
        run("findings", out.data, {"command": "draft_auto", "kind": "ementario"})
    assert exc.value.field == "ementa"
    assert out.payload["basis"].endswith("art. 14")
    drafted = run("findings", out.data, {
        "command": "draft_auto", "kind": "ementario", "ementa": "130001-2",
        "capitulation": "NR-30, item 30.x", "against": {"name": "Armador X"},
        "findings": ["F2"]})
    other = drafted.data["autos"][1]
    assert (other["kind"], other["findings"], other["capitulation"]["label"],
            other["basis"]["label"]) == ("ementario", ["F2"], "NR-30, item 30.x",
                                         "CLT, art. 628")  # a foreign vessel: CLT art. 628
    assert drafted.payload["basis"] == "CLT, art. 628"  # the trail logs the auto's own basis


def test_art10_duties_of_an_unmet_notification_survive_a_later_remedied_one() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    d["_seq"] = 1  # as add_finding leaves it
    out = run("findings", d, {"command": "notify", "deadline": "2026-04-01"})
    out = run("notified", out.data, {"command": "record_not_remedied", "refused": True,
                                     "risk": "serious_imminent"})
    out = run("notified", out.data, {"command": "record_physical_check", "area": "galley",
                                     "ok": False, "citation": "NR-30, item 30.4.2"})
    out = run("notified", out.data, {"command": "notify", "deadline": "2026-04-01"})
    out = run("notified", out.data, {"command": "record_not_remedied", "refused": True,
                                     "risk": "lesser_safety"})
    nr = out.data["not_remedied"]
    assert (nr["risk"], nr["notifications"]) == ("serious_imminent", ["N1", "N2"])
    # and when the later one is remedied the case is not stuck: the detention still comes
    out = run("notified", out.data, {"command": "record_physical_check", "area": "food",
                                     "ok": False, "citation": "Convenção OIT 147"})
    out = run("notified", out.data, {"command": "notify", "deadline": "2026-04-01"})
    out = run("notified", out.data, {"command": "record_remedied"})
    assert out.state == State.REMEDIED
    out = run("remedied", out.data, {"command": "request_detention"})
    assert run("remedied", out.data, {"command": "write_report", "summary": "s"}).state \
        == State.REPORT


def test_each_unmet_notification_calls_for_its_own_art10_steps() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "salários", "area": "wage",
                      "severity": "violation"},
                     {"id": "F2", "source": "inspector", "text": "extintores",
                      "area": "safety", "severity": "violation"}]
    d["_seq"] = 2
    d["vessel_case"] = {"crew": [{"id": "C04"}]}
    d["engine_run"] = {"on": "2026-04-01"}  # the engines ran on it
    out = run("findings", d, {"command": "notify", "deadline": "2026-04-01"})
    # a notification with a safety finding may be of serious risk; a wage-only one may not
    out = run("notified", out.data, {"command": "record_not_remedied", "refused": True,
                                     "risk": "serious_imminent", "repatriation": True})
    out = run("notified", out.data, {"command": "request_detention"})
    with pytest.raises(TransitionRefused, match="uma vez por notificação"):
        run("notified", out.data, {"command": "request_detention"})
    out = run("notified", out.data, {"command": "refer_federal_police", "crew": ["C04"],
                                     "situation": "contract_expired"})
    deadlines = {x["kind"]: x["due"] for x in steps.deadlines(out.data)}
    assert deadlines["repatriation_report_48h"] == "2026-04-03"  # from N1's refusal, 01/04
    out = run("notified", out.data, {"command": "record_physical_check", "area": "galley",
                                     "ok": False, "citation": "NR-30, item 30.4.2"})
    out = run("notified", out.data, {"command": "notify", "deadline": "2026-04-01"})
    out = run("notified", out.data, {"command": "record_not_remedied", "refused": True,
                                     "risk": "serious_imminent"})
    assert [s["id"] for s in steps.open_step_details(out.data)][:1] == ["detention_request"]
    wage = base()
    wage["findings"] = [{"id": "F1", "source": "inspector", "text": "salários",
                         "area": "wage", "severity": "violation"}]
    wage["_seq"] = 1
    w = run("findings", wage, {"command": "notify", "deadline": "2026-04-01"})
    with pytest.raises(TransitionRefused, match=r"art\. 10, II") as exc:
        run("notified", w.data, {"command": "record_not_remedied", "refused": True,
                                 "risk": "serious_imminent"})
    assert exc.value.field == "risk"


def test_acts_recorded_later_keep_their_order() -> None:
    d = base()
    d["assessment"] = {"started_on": "2026-03-31"}
    with pytest.raises(TransitionRefused, match=r"anterior ao início da apuração \(art\. 6º\)"):
        run("assessing", d, {**REQUEST_DOCS, "recorded_on": "2026-03-30"})
    out = run("assessing", d, {**REQUEST_DOCS, "recorded_on": "2026-03-31"})
    with pytest.raises(TransitionRefused, match=r"anterior ao início da apuração"):
        run("documents_requested", out.data, {"command": "record_document",
                                               "item": "crew_list", "status": "received",
                                               "recorded_on": "2026-03-30"})
    # nor are the engines run, or a finding recorded, before the assessment began
    for body in ({"command": "run_engines", "recorded_on": "2026-03-30"},
                 {"command": "add_finding", "text": "x", "severity": "info",
                  "recorded_on": "2026-03-30"}):
        with pytest.raises(TransitionRefused, match=r"anterior ao início da apuração"):
            run("documents_requested", {**out.data, "vessel_case": {"crew": []}}, body,
                {"check": {}, "summary": {}})
    late = {**out.data, "documents_requested_on": "2026-04-01"}
    with pytest.raises(TransitionRefused, match="anterior à solicitação dos documentos"):
        run("documents_requested", late, {"command": "record_document", "item": "crew_list",
                                           "status": "received", "recorded_on": "2026-03-31"})
    out = run("documents_requested", out.data, {"command": "record_physical_check",
                                                 "area": "galley", "ok": False,
                                                 "citation": "NR-30"})  # 01/04
    with pytest.raises(TransitionRefused, match="anterior à verificação física") as exc:
        run("findings", out.data, {"command": "notify", "deadline": "2026-04-06",
                                   "issued_on": "2026-03-31"})
    assert exc.value.field == "issued_on"


def test_an_action_where_nothing_was_found_is_reported() -> None:
    """Art. 11: every action ends with a report — but not before findings (spec): the crew
    list received is given to the engines, whose run with nothing found reaches
    ``findings``, and the report follows; pending documents hold it."""
    d = base()
    d["checklist"] = [{"item": "crew_list", "label": "Lista de tripulantes", "status": "pending"}]
    with pytest.raises(TransitionRefused, match=r"não permitido no estado Documentos "
                                                r"solicitados \(documents_requested\)"):
        run("documents_requested", d, {"command": "write_report", "summary": "nada"})
    d["checklist"][0]["status"] = "received"
    # a finding by hand reaches ``findings``, yet the crew list received still feeds the
    # engines: its data are owed first
    d = run("documents_requested", d, {"command": "add_finding", "severity": "info",
                                       "text": "Acomodações vistoriadas."}).data
    assert [s["id"] for s in steps.open_step_details(d)] == ["crew_data", "report"]
    with pytest.raises(TransitionRefused, match="lista de tripulantes recebida e não "
                                                "registrada"):
        run("findings", d, {"command": "write_report", "summary": "nada"})
    vc = {"vessel": {"flag": "NO", "activity": "offshore_support"}, "crew": [{"id": "C1"}]}
    d = run("findings", d, {"command": "set_vessel_case", "vessel_case": vc},
            {"vessel_case": vc}).data
    d = run("findings", d, {"command": "run_engines"},
            {"check": {"quota": {"findings": []}, "immigration": {"findings": []}},
             "summary": {}}).data
    out = run("findings", d, {"command": "write_report", "summary": "Nenhuma irregularidade."})
    assert out.state == State.REPORT
    d["findings"] = [{"id": "F9", "source": "inspector", "text": "x", "severity": "violation"}]
    with pytest.raises(TransitionRefused, match=r"notifique antes do relatório"):
        run("findings", d, {"command": "write_report", "summary": "s"})


def test_a_crew_list_no_engine_has_judged_blocks_the_report() -> None:
    """Findings feed the engines (spec): a vessel case set and never run — or changed after
    the run — is an open mandatory step, so no report of "nothing found" skips them."""
    d = base()
    d["checklist"] = []
    vc = {"vessel": {"flag": "NO", "activity": "offshore_support"}, "crew": [{"id": "C1"}]}
    d = run("findings", d, {"command": "set_vessel_case", "vessel_case": vc},
            {"vessel_case": vc}).data
    assert [s["id"] for s in steps.open_step_details(d)][:1] == ["engines"]
    with pytest.raises(TransitionRefused, match="run_engines"):
        run("findings", d, {"command": "write_report", "summary": "Nada constatado."})
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    with pytest.raises(TransitionRefused, match="run_engines"):  # nor notified before it
        run("findings", d, {"command": "notify", "deadline": "2026-04-06"})
    d["findings"] = []
    d = run("findings", d, {"command": "run_engines"},
            {"check": {"quota": {"findings": []}, "immigration": {"findings": []}},
             "summary": {}}).data
    assert "engines" not in [s["id"] for s in steps.open_step_details(d)]
    changed = {**vc, "crew": [{"id": "C1"}, {"id": "C2"}]}
    d = run("findings", d, {"command": "set_vessel_case", "vessel_case": changed},
            {"vessel_case": changed}).data
    assert [s["id"] for s in steps.open_step_details(d)][:1] == ["engines"]
    legacy = {k: v for k, v in d.items() if k != "vessel_case_sha256"}
    assert "engines" not in [s["id"] for s in steps.open_step_details(legacy)]  # stored before


def test_a_deadline_on_a_day_without_office_hours_runs_to_the_next_business_day() -> None:
    """Lei 9.784/1999 art. 66 § 1º: recorded as given (a notice already served keeps its
    words), due on the next business day — and "não atendida" only after that."""
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    for day, due in (("2026-04-05", "2026-04-06"), ("2026-04-03", "2026-04-06"),
                     ("2026-09-07", "2026-09-08"), ("2026-04-06", None)):
        n = run("findings", d, {"command": "notify", "deadline": day}).data["notifications"][0]
        assert (n["deadline"], n.get("due")) == (day, due)
        (shown,) = steps.deadlines({"notifications": [n]})
        assert shown["due"] == (due or day)
        if due:
            assert shown["basis"]["label"] == "Lei nº 9.784/1999, art. 66, § 1º"
    # a state holiday of the case's region counts too: São Jorge, 23 April, in RJ
    rj = run("findings", d, {"command": "notify", "deadline": "2026-04-23"}, {"region": "RJ"})
    assert rj.data["notifications"][0]["due"] == "2026-04-24"
    sp = run("findings", d, {"command": "notify", "deadline": "2026-04-23"}, {"region": "SP"})
    assert "due" not in sp.data["notifications"][0]
    out = run("findings", d, {"command": "notify", "deadline": "2026-04-05"})
    with pytest.raises(TransitionRefused, match="vence em 06/04/2026"):
        workflow.apply("notified", out.data, CMD.validate_python(
            {"command": "record_not_remedied", "risk": "contractual_wage",
             "recorded_on": "2026-04-06"}), today=dt.date(2026, 4, 7), actor="t")


def test_a_violation_entered_by_hand_names_its_legal_basis() -> None:
    d = base()
    with pytest.raises(TransitionRefused, match="fundamento legal") as exc:
        run("findings", d, {"command": "add_finding", "text": "Água potável insuficiente",
                            "area": "health"})
    assert exc.value.field == "citation"
    ok = run("findings", d, {"command": "add_finding", "text": "Água potável insuficiente",
                             "area": "health", "citation": "NR-30, item 30.2.1"})
    assert ok.data["findings"][-1]["citation"] == {"label": "NR-30, item 30.2.1", "urn": None}
    note = run("findings", d, {"command": "add_finding", "text": "Escada molhada",
                               "severity": "warning"})
    assert note.data["findings"][-1]["citation"] is None  # a remark, not a violation


def test_signed_acts_need_a_team() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    d["team"] = []
    with pytest.raises(TransitionRefused, match="designe-a antes"):
        run("findings", d, {"command": "notify", "deadline": "2026-04-06"})
    assert "notify" not in transitions.allowed_commands("findings", d)  # the view says the same
    assert "close_unfounded" not in transitions.allowed_commands("assessing", d)
    d["team"] = ["ana@x.gov.br"]
    assert "notify" in transitions.allowed_commands("findings", d)
    assert run("findings", d, {"command": "notify", "deadline": "2026-04-06"}).state \
        == State.NOTIFIED


def test_one_ementario_auto_per_fact_ementa_and_offender() -> None:
    d, body = national_with_finding(), EMENTARIO_AUTO
    once = run("findings", d, body)
    # a national vessel's auto rests on IN SIT 70 art. 2, sole paragraph: so does its event
    assert once.payload["basis"].endswith("art. 2º, parágrafo único")
    with pytest.raises(TransitionRefused, match="auto A1 \\(ementa 130123-4\\) já foi minutado"):
        run("findings", once.data, body)
    other = run("findings", once.data, {**body, "ementa": "130124-2"})
    assert [a["ementa"] for a in other.data["autos"]] == ["130123-4", "130124-2"]
    assert other.data["autos"][0]["capitulation"] == {"label": "NR-30, item 30.2.1",
                                                      "urn": None}
    with pytest.raises(ValueError, match="should match pattern"):
        CMD.validate_python({**body, "ementa": "abc"})


def test_the_art14_auto_fixes_the_crew_list_and_is_not_drafted_twice() -> None:
    """Once the art. 14 auto covers the engines' findings the list they judged stays (a new
    one would orphan it); an ementário auto 001139-8 for the same finding is a duplicate."""
    d = base()
    d["findings"] = [{"id": "F1", "source": "engine:quota", "text": "x",
                      "severity": "violation"}]
    vc = chartered()
    d["vessel_case"], d["engine_run"] = vc, {"on": "2026-04-01"}
    d = run("findings", d, {"command": "draft_auto"}).data
    with pytest.raises(TransitionRefused, match="auto A1 já cobre"):
        run("findings", d, {"command": "set_vessel_case", "vessel_case": vc},
            {"vessel_case": vc})
    with pytest.raises(TransitionRefused, match="auto A1 \\(ementa 001139-8\\) já foi minutado"):
        run("findings", d, {"command": "draft_auto", "kind": "ementario",
                            "ementa": "001139-8", "capitulation": "CLT, art. 444",
                            "findings": ["F1"], "against": {"name": "Empresa BR Ltda"}})


def test_an_ementario_auto_on_an_engine_finding_fixes_the_crew_list_too() -> None:
    """A Brazilian-flag vessel's quota (Lei 9.432/1997) is fined by an ementário auto (art.
    2, sole paragraph): a new vessel case or run would replace the finding under it — the
    auto in force on a finding the case no longer has, and the same fact fined again."""
    d = base()
    vc = {"vessel": {"flag": "BR", "registry": "ordinary"}}
    d["findings"] = [{"id": "F1", "source": "engine:quota", "text": "x",
                      "severity": "violation"}]
    d["vessel_case"], d["engine_run"] = vc, {"on": "2026-04-01"}
    d = run("findings", d, {**EMENTARIO_AUTO, "capitulation": "Lei 9.432/1997, art. 4º"}).data
    with pytest.raises(TransitionRefused, match="auto A1 já cobre"):
        run("findings", d, {"command": "set_vessel_case", "vessel_case": vc},
            {"vessel_case": vc})
    with pytest.raises(TransitionRefused, match="já cobre as constatações dos motores"):
        run("findings", d, {"command": "run_engines"}, {"check": {}, "summary": {}})
    # voided, it covers nothing: the list may change again
    d = run("findings", d, {"command": "void_auto", "auto": "A1", "reason": "erro"}).data
    assert run("findings", d, {"command": "set_vessel_case", "vessel_case": vc},
               {"vessel_case": vc}).data["vessel_case"] == vc


def test_an_auto_is_not_voided_before_it_was_drafted() -> None:
    """The void answers the draft (as the outcome its notification): not dated before it."""
    d = run("findings", national_with_finding(), EMENTARIO_AUTO).data  # drafted 2026-04-01
    with pytest.raises(TransitionRefused, match=r"anterior ao auto A1 \(01/04/2026\)") as exc:
        run("findings", d, {"command": "void_auto", "auto": "A1", "reason": "erro",
                            "recorded_on": "2026-03-31"})
    assert exc.value.field == "recorded_on"
    assert run("findings", d, {"command": "void_auto", "auto": "A1", "reason": "erro"}
               ).data["autos"][0]["voided"]["on"] == "2026-04-01"


def test_the_day_an_act_happened_is_in_its_event_for_the_vessel_case_and_the_run() -> None:
    """set_vessel_case and run_engines write their event's payload anew (no personal data):
    the ``recorded_on`` they were given stays in it, as every other command's does."""
    d = base()
    d["assessment"], d["documents_requested_on"] = {"started_on": "2026-03-30"}, "2026-03-30"
    vc = {**chartered(), "crew": [{"id": "C1", "rank": "master", "nationality": "NO"}]}
    out = run("documents_requested", d, {"command": "set_vessel_case", "vessel_case": vc,
                                         "recorded_on": "2026-03-31"}, {"vessel_case": vc})
    assert out.payload["recorded_on"] == "2026-03-31"
    out = run("documents_requested", out.data, {"command": "run_engines",
                                                "recorded_on": "2026-03-31"},
              {"check": {}, "summary": {}})
    assert out.data["engine_run"]["ran_on"] == out.payload["recorded_on"] == "2026-03-31"
    assert "recorded_on" not in run("findings", out.data, {"command": "run_engines"},
                                    {"check": {}, "summary": {}}).payload


def test_a_notification_dated_too_early_names_the_field_that_dated_it() -> None:
    """Refusals name the body's own fields: a notification given no issued_on is dated by
    its recorded_on, and that is the field at fault."""
    d = base()
    d["findings"] = [{"id": "F1", "source": "inspector", "text": "x", "severity": "violation"}]
    d["documents_requested_on"] = "2026-03-31"
    for body, field in (({"recorded_on": "2026-03-30"}, "recorded_on"),
                        ({"issued_on": "2026-03-30"}, "issued_on")):
        with pytest.raises(TransitionRefused, match="anterior à solicitação") as exc:
            run("findings", d, {"command": "notify", "deadline": "2026-04-06", **body})
        assert exc.value.field == field


def test_an_ementario_auto_is_not_dated_before_the_finding_it_fines() -> None:
    """An auto answers its findings (as the art. 14 auto the engines' run): a national
    vessel's irregular check of 1 April is not fined on 31 March."""
    d = {**base(), "vessel_case": {"vessel": {"flag": "BR", "registry": "ordinary"}},
         "assessment": {"started_on": "2026-03-30"}, "documents_requested_on": "2026-03-30"}
    out = run("documents_requested", d, {"command": "record_physical_check", "area": "galley",
                                         "ok": False, "citation": "NR-30, item 30.4.2"})
    assert out.data["findings"][0]["found_on"] == "2026-04-01"
    with pytest.raises(TransitionRefused, match=r"anterior à constatação F1") as exc:
        run("findings", out.data, {**EMENTARIO_AUTO, "recorded_on": "2026-03-31"})
    assert exc.value.field == "recorded_on"
    assert run("findings", out.data, EMENTARIO_AUTO).data["autos"][0]["findings"] == ["F1"]


@pytest.mark.parametrize("spelling", ["ARMADORA BR LTDA.", "Armadora  BR Ltda",
                                      "armadora b.r. ltda"])
def test_an_offender_named_another_way_is_the_same_offender(spelling: str) -> None:
    """Without CNPJ the offender is known by name: accents, case, punctuation and spacing
    do not make another company (one auto per fact, ementa and offender)."""
    d, body = national_with_finding(), EMENTARIO_AUTO
    once = run("findings", d, body)
    with pytest.raises(TransitionRefused, match="já foi minutado contra este autuado"):
        run("findings", once.data, {**body, "against": {"name": spelling}})
    other = run("findings", once.data, {**body, "against": {"name": "Armadora BRA Ltda"}})
    assert [a["against"]["name"] for a in other.data["autos"]] == [
        "Armadora BR Ltda", "Armadora BRA Ltda"]


def test_the_art14_auto_takes_the_company_however_its_name_is_written() -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "engine:quota", "text": "x",
                      "severity": "violation"}]
    d["vessel_case"] = chartered("Navegação Sul S.A.")
    d["engine_run"] = {"on": "2026-04-01"}
    auto = run("findings", d, {"command": "draft_auto",
                               "against": {"name": "NAVEGACAO SUL S/A"}}).data["autos"][0]
    assert auto["against"] == {"name": "Navegação Sul S.A."}
    with pytest.raises(TransitionRefused, match="não informe outro autuado"):
        run("findings", d, {"command": "draft_auto", "against": {"name": "Navegação Norte SA"}})


def test_the_engines_are_not_run_again_under_an_art14_auto_and_a_national_trail_cites_art2(
        ) -> None:
    d = base()
    d["findings"] = [{"id": "F1", "source": "engine:quota", "text": "x",
                      "severity": "violation"}]
    d["vessel_case"] = chartered()
    d["engine_run"] = {"on": "2026-04-01"}
    d = run("findings", d, {"command": "draft_auto"}).data
    with pytest.raises(TransitionRefused, match="já cobre as constatações dos motores") as exc:
        run("findings", d, {"command": "run_engines"}, {"check": {}, "summary": {}})
    assert exc.value.field == "command"
    national = base()
    national["vessel_case"] = {"vessel": {"flag": "BR", "registry": "ordinary"}}
    national["checklist"] = [checklist.manual_item("crew_list")]
    out = run("documents_requested", national,
              {"command": "record_document", "item": "crew_list", "status": "received"})
    assert out.payload["basis"].endswith("art. 2º")

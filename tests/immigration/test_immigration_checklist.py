"""The boarding document checklist (IN SIT 70/2007 arts. 5, 7 and 13)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from abordo.crew.model import VesselCase
from abordo.immigration.checklist import evaluate
from abordo.law.decision import Decision, Verdict
from abordo.law.errors import InputError

CaseFactory = Callable[..., VesselCase]
D = dt.date
CREW = [{"id": "F1", "rank": "AB", "nationality": "PH"},
        {"id": "B1", "rank": "OS", "nationality": "BR"},
        {"id": "S1", "rank": "Surveyor", "nationality": "GB",
         "department": "non_crew_professional"}]
ART7 = ["ship_registry", "crew_list", "ship_particulars", "employment_contracts",
        "minimum_safe_manning", "crew_payroll", "class_certificates"]
ART5 = ["agent_and_vessel", "free_pratique", "last_psc_inspection", "berthing_schedule"]


def ids(d: Decision) -> list[str]:
    return [i["id"] for i in d.result["items"]]


def test_offshore_support_in_2015(make_case: CaseFactory) -> None:
    d = evaluate(make_case(CREW, presence=[{"entry": "2015-01-01"}]), D(2015, 6, 1))
    assert d.verdict == Verdict.COMPUTED and d.regime == "in-sit-70-2007"
    assert ids(d) == [*ART5, *ART7, "navigation_type", "caa", "foreign_crew_visas",
                      "work_authorizations"]
    items = {i["id"]: i for i in d.result["items"]}
    assert items["caa"]["citation"].label == "IN SIT nº 70/2007, art. 13, II"
    assert items["work_authorizations"]["subjects"] == ["F1"]  # foreign crew only
    assert items["crew_list"]["citation"].provision == "art. 7º"
    assert items["berthing_schedule"]["stage"] == "pre_boarding"
    assert all(i["binding"] for i in d.result["items"])
    assert "IN SIT nº 70/2007, art. 7º" in [c.label for c in d.citations]


def test_long_haul_asks_for_proof_of_foreign_calls(make_case: CaseFactory) -> None:
    d = evaluate(make_case(CREW, activity="long_haul", contract="charter"), D(2015, 6, 1))
    assert "foreign_calls_proof" in ids(d)
    assert "caa" not in ids(d) and "work_authorizations" not in ids(d)
    # arts. 12–13 are the action on a vessel under contract with a Brazilian company: without
    # one, the art. 7 documents only
    alone = evaluate(make_case(CREW, activity="long_haul", contract="none"), D(2015, 6, 1))
    assert not {"navigation_type", "foreign_calls_proof", "foreign_crew_visas"} & {
        i.split(":")[0] for i in ids(alone)}
    assert "crew_list" in ids(alone)


@pytest.mark.parametrize(("on", "text"), [
    (D(2026, 6, 15), "IN MTP nº 2/2021"),
    (D(2001, 9, 10), "em 10/09/2001 vigorava IN SIT nº 19/2000"),  # the norm then, named
])
def test_outside_in_sit_70_the_items_are_good_practice(make_case: CaseFactory, on: dt.date,
                                                       text: str) -> None:
    d = evaluate(make_case(CREW, presence=[{"entry": "2001-01-01"}]), on)
    assert d.verdict == Verdict.NOT_COVERED and text in d.not_covered_reason.pt
    assert d.result["in_force"] is False and len(d.result["items"]) == 15
    assert not any(i["binding"] for i in d.result["items"])
    # The legal basis names where each good-practice item comes from (its provision).
    labels = [c.label for c in d.citations]
    assert labels[:2] == ["IN SIT nº 70/2007, art. 5º, I", "IN SIT nº 70/2007, art. 5º, II"]
    assert "IN SIT nº 70/2007, art. 13, V" in labels
    assert len(labels) == len({i["citation"].label for i in d.result["items"]}) == 9


def test_brazilian_flag_gets_no_list(make_case: CaseFactory) -> None:
    d = evaluate(make_case(CREW, flag="BR"), D(2015, 6, 1))
    assert d.verdict == Verdict.NOT_APPLICABLE and d.result["items"] == []
    assert d.citations[-1].provision == "art. 2º"


def test_options_are_rejected(make_case: CaseFactory) -> None:
    with pytest.raises(InputError) as exc:
        evaluate(make_case(CREW), D(2015, 6, 1), {"checklist.docked": True})
    assert exc.value.field == "options.checklist.docked"

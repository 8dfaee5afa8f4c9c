"""A rule written once: opening a case refuses its dates with the workflow's own checks, so
the refusal is the same word for word (Portuguese and English) wherever the date is given."""

from __future__ import annotations

import datetime as dt

import pytest

from abordo.cases import workflow
from abordo.law import calendar
from abordo.law.errors import InputError
from cases_service.support import DOCKED, bearer, client_for, make_user

TODAY = dt.date(2026, 4, 1)


def test_case_dates_in_the_future_are_refused_as_the_workflow_refuses_them(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calendar, "now_utc",
                        lambda: dt.datetime(2026, 4, 1, 15, 0, tzinfo=dt.UTC))
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    tomorrow = TODAY + dt.timedelta(days=1)

    def refusal(**body: object) -> dict[str, object]:
        r = c.post("/api/v1/cases", headers=h, json={
            "complaint": {"source": "union", "date": "2026-03-28", "content": "cota"},
            "vessel_docked": True, "pre_boarding": DOCKED, **body})
        assert r.status_code == 422, r.text
        [error] = r.json()["errors"]
        return {k: error[k] for k in ("field", "message", "message_en")}

    with pytest.raises(InputError) as on:
        workflow.not_future(tomorrow, TODAY)
    assert refusal(on=tomorrow.isoformat()) == {
        "field": "on", "message": on.value.message, "message_en": on.value.message_en}
    assert on.value.message_en == "date of the facts in the future: 2026-04-02"
    with pytest.raises(InputError) as complaint:
        workflow.case_day({}, tomorrow, TODAY, "complaint.date", ("da denúncia", "complaint"))
    got = refusal(complaint={"source": "union", "date": tomorrow.isoformat(), "content": "x"})
    assert got == {"field": "complaint.date", "message": "data da denúncia no futuro: 02/04/2026",
                   "message_en": complaint.value.message_en}
    assert complaint.value.message == got["message"]

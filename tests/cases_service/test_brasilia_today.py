"""The date of an act is the date in Brasília, not the host's (a UTC host is three hours
ahead: after 21:00 in Brasília it is already the next day there)."""

from __future__ import annotations

import datetime as dt

import pytest

from abordo.cases import checklist
from abordo.faces.api import deps as api_deps
from abordo.faces.cli import common
from abordo.law import calendar
from cases_service.support import DOCKED, bearer, client_for, make_user


def _at(monkeypatch: pytest.MonkeyPatch, instant: dt.datetime) -> None:
    monkeypatch.setattr(calendar, "now_utc", lambda: instant)


@pytest.mark.parametrize(("instant", "day"), [
    (dt.datetime(2026, 3, 31, 23, 30, tzinfo=dt.UTC), dt.date(2026, 3, 31)),
    (dt.datetime(2026, 4, 1, 2, 30, tzinfo=dt.UTC), dt.date(2026, 3, 31)),
    (dt.datetime(2026, 4, 1, 2, 59, 59, tzinfo=dt.UTC), dt.date(2026, 3, 31)),
    (dt.datetime(2026, 4, 1, 3, 0, tzinfo=dt.UTC), dt.date(2026, 4, 1)),
    (dt.datetime(2026, 4, 1, 3, 30, tzinfo=dt.UTC), dt.date(2026, 4, 1)),
])
def test_the_date_is_the_date_in_brasilia(monkeypatch: pytest.MonkeyPatch,
                                         instant: dt.datetime, day: dt.date) -> None:
    assert calendar.brasilia_date(instant) == day
    _at(monkeypatch, instant)
    # every face's "today" is that date
    assert calendar.brasilia_date() == day
    assert api_deps.today() == day
    assert common.today() == day
    assert checklist.facts_date({}) == day


def test_an_instant_without_its_zone_is_refused() -> None:
    with pytest.raises(ValueError):
        calendar.brasilia_date(dt.datetime(2026, 4, 1, 2, 30))


def test_a_case_is_not_dated_on_the_next_brazilian_day(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 02:30 UTC on 01/04 (23:30 on 31/03 in Brasília), 01/04 is in the future."""
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)

    def open_on(day: str) -> tuple[int, dict[str, object]]:
        r = c.post("/api/v1/cases", headers=h, json={
            "complaint": {"source": "union", "date": day, "content": "cota"},
            "vessel_docked": True, "pre_boarding": DOCKED})
        return r.status_code, r.json()

    _at(monkeypatch, dt.datetime(2026, 4, 1, 2, 30, tzinfo=dt.UTC))
    status, body = open_on("2026-04-01")
    assert status == 422
    assert [e["field"] for e in body["errors"]] == ["complaint.date"]  # type: ignore[union-attr]
    assert "data da denúncia no futuro: 01/04/2026" in str(body["detail"])
    status, body = open_on("2026-03-31")
    assert status == 201, body
    cid = body["id"]
    # a command recorded "today" is dated 31/03, and 01/04 is refused as a future date
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h,
               json={"command": "start_assessment", "recorded_on": "2026-04-01"})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["field"] == "recorded_on"
    _at(monkeypatch, dt.datetime(2026, 4, 1, 3, 30, tzinfo=dt.UTC))
    status, body = open_on("2026-04-01")
    assert status == 201, body

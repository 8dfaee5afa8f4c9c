"""The flag decides the procedure (IN SIT 70/2007: Seção I, art. 2, for a Brazilian-flag
vessel; Seção II, arts. 3–11, for a foreign one). Once an act rests on it, a corrected flag
may not move the vessel to the other section: the acts owed on it would vanish unseen."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from fastapi.testclient import TestClient

from abordo.cases.commands import TransitionRefused
from abordo.law import calendar
from cases_service.support import REQUEST_DOCS, bearer, client_for, make_user, open_case, run
from cases_service.test_workflow import EMENTARIO_AUTO, national_with_finding


@pytest.fixture(autouse=True)
def _on_1_april(monkeypatch: pytest.MonkeyPatch) -> None:
    """The acts are dated 01/04/2026 (afternoon in Brasília)."""
    monkeypatch.setattr(calendar, "now_utc",
                        lambda: dt.datetime(2026, 4, 1, 15, 0, tzinfo=dt.UTC))


def _open_steps(case: dict[str, Any]) -> list[str]:
    return [step["id"] for step in case["open_steps_detail"]]


def _cmd(c: TestClient, h: dict[str, str], cid: int, body: dict[str, Any],
         status: int = 200) -> dict[str, Any]:
    version = c.get(f"/api/v1/cases/{cid}", headers=h).json()["version"]
    r = c.post(f"/api/v1/cases/{cid}/commands", headers=h, json={**body, "version": version})
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def _unmet_serious(c: TestClient, h: dict[str, str]) -> int:
    """A foreign vessel (NO) at the berth, no vessel case, an irregular galley notified and
    not remedied, with serious and imminent risk: the detention request is owed (art. 10, I)."""
    cid, _ = open_case(c, h, on="2026-04-01")
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "record_physical_check", "area": "galley", "ok": False,
                  "citation": "Convenção OIT 147, art. 5º"},
                 {"command": "notify", "deadline": "2026-04-06"},
                 {"command": "record_not_remedied", "risk": "serious_imminent",
                  "refused": True}):
        _cmd(c, h, cid, body)
    return cid


def test_flag_moving_the_vessel_to_section_i_after_acts_is_refused(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid = _unmet_serious(c, h)
    before = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert "detention_request" in _open_steps(before)
    out = _cmd(c, h, cid, {"command": "record_pre_boarding", "facts": {"flag": "BR"}}, 409)
    assert [e["field"] for e in out["errors"]] == ["facts.flag"]
    assert out["errors"][0]["message"].startswith(
        "a bandeira passaria a embarcação de estrangeira (Seção II, arts. 3º a 11) a nacional "
        "(Seção I, art. 2º), mas já há atos emitidos com base no procedimento da bandeira "
        "registrada (notificação N1)")
    assert "the flag can no longer be changed" in out["errors"][0]["message_en"]
    after = c.get(f"/api/v1/cases/{cid}", headers=h).json()
    assert after["version"] == before["version"]
    assert after["facts"]["pre_boarding"]["flag"] == "NO"
    assert "detention_request" in _open_steps(after)
    # a flag of the same section is still a correction (another foreign flag)
    out = _cmd(c, h, cid, {"command": "record_pre_boarding", "facts": {"flag": "PA"}})
    assert out["facts"]["pre_boarding"]["flag"] == "PA"
    assert "detention_request" in _open_steps(out)


def test_flag_corrected_before_any_act_moves_the_case(sqlite_url: str) -> None:
    h = bearer(make_user(sqlite_url, "ana@trabalho.gov.br", "inspector", "RJ"))
    c = client_for(sqlite_url)
    cid, _ = open_case(c, h, on="2026-04-01")
    for body in ({"command": "start_assessment"}, REQUEST_DOCS,
                 {"command": "record_physical_check", "area": "galley", "ok": False,
                  "citation": "Convenção OIT 147, art. 5º"}):
        _cmd(c, h, cid, body)
    out = _cmd(c, h, cid, {"command": "record_pre_boarding", "facts": {"flag": "BR"}})
    assert out["facts"]["pre_boarding"]["flag"] == "BR"
    # the notification now rests on art. 2 (national vessel)
    out = _cmd(c, h, cid, {"command": "notify", "deadline": "2026-04-06"})
    assert out["facts"]["notifications"][0]["basis"]["provision"] == "art. 2º"
    # and the flag is settled: back to a foreign one is refused
    out = _cmd(c, h, cid, {"command": "record_pre_boarding", "facts": {"flag": "NO"}}, 409)
    assert [e["field"] for e in out["errors"]] == ["facts.flag"]
    assert out["errors"][0]["message"].startswith(
        "a bandeira passaria a embarcação de nacional (Seção I, art. 2º) a estrangeira")


def test_vessel_case_moving_the_vessel_out_of_section_i_after_an_auto() -> None:
    """A Brazilian-flag vessel's ementário auto (art. 2, sole paragraph) on an inspector's
    finding: a vessel case of foreign flag would put the case under Seção II."""
    d = run("findings", national_with_finding(), EMENTARIO_AUTO).data
    foreign = {"vessel": {"flag": "NO"}}
    with pytest.raises(TransitionRefused) as exc:
        run("findings", d, {"command": "set_vessel_case", "vessel_case": foreign},
            {"vessel_case": foreign})
    assert exc.value.field == "vessel_case.vessel.flag"
    assert exc.value.message.startswith(
        "a bandeira passaria a embarcação de nacional (Seção I, art. 2º) a estrangeira "
        "(Seção II, arts. 3º a 11), mas já há atos emitidos com base no procedimento da "
        "bandeira registrada (auto A1)")
    # the same section (a Brazilian vessel in the special registry) is still a correction
    reb = {"vessel": {"flag": "BR", "registry": "REB"}}
    out = run("findings", d, {"command": "set_vessel_case", "vessel_case": reb},
              {"vessel_case": reb})
    assert out.data["vessel_case"] == reb
    # before the auto, the vessel case moves the case to Seção II
    out = run("findings", national_with_finding(),
              {"command": "set_vessel_case", "vessel_case": foreign}, {"vessel_case": foreign})
    assert out.data["vessel_case"] == foreign

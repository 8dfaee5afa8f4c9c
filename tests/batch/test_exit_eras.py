"""An exit is judged by the norm in force when it happened: the screen agrees with the engine
for a vessel whose tolerated-looking exit happened under RN 72/2006 (any exit interrupts)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl

from abordo.batch import screen
from abordo.crew.load import parse_vessel_case
from abordo.quota import evaluate


def test_exit_before_the_current_regime_is_judged_like_the_engine(tmp_path: Path) -> None:
    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry,ajb_exit,absences\n"
        "V1,NO,offshore_support,charter,2016-01-01,,2016-06-02/2016-06-04\n"
        "V2,NO,offshore_support,charter,2026-01-01,,2026-02-11/2026-02-19\n", encoding="utf-8")
    (tmp_path / "crew.csv").write_text(
        "vessel_id,id,rank,nationality\nV1,A,Master,NO\nV1,B,AB,BR\n"
        "V2,A,Master,NO\nV2,B,AB,BR\n", encoding="utf-8")
    on = dt.date(2021, 1, 10)
    rows = {r["id"]: r for r in screen(tmp_path, on).frame.iter_rows(named=True)}
    engine = evaluate(parse_vessel_case({
        "vessel": {"flag": "NO", "activity": "offshore_support"},
        "operation": {"contract": "charter", "ajb_presence": [
            {"entry": "2016-01-01", "exit": "2016-06-01"}, {"entry": "2016-06-05"}]},
        "crew": [{"id": "A", "rank": "Master", "nationality": "NO"},
                 {"id": "B", "rank": "AB", "nationality": "BR"}]}), on)
    assert engine.result["stay"]["start"] == dt.date(2016, 6, 5)
    assert rows["V1"]["stay_start"] == dt.date(2016, 6, 5)
    assert rows["V1"]["days_of_operation"] == engine.result["stay"]["days_of_operation"]
    assert pl.Series([rows["V1"]["verdict"]]).item() == engine.verdict.value


def test_an_exit_under_rn72_adds_its_strict_reading_as_the_engine_does(tmp_path: Path) -> None:
    """An exit made while RN 72/2006 was in force (any exit interrupts) is judged by it, so a
    decision under Res. 42/2020 also rests on that reading — listed by both, and only for
    the exit made then."""
    exits = {"V1": "2017-06-01", "V2": "2019-06-01", "V3": "2020-12-01"}
    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry,ajb_exit\n" + "".join(
            f"{v},NO,offshore_support,charter,2016-01-01,{x}\n" for v, x in exits.items()),
        encoding="utf-8")
    (tmp_path / "crew.csv").write_text(
        "vessel_id,id,rank,nationality\n" + "".join(f"{v},A,Master,NO\n" for v in exits),
        encoding="utf-8")
    on = dt.date(2021, 1, 10)
    rows = {r["id"]: r for r in screen(tmp_path, on).frame.iter_rows(named=True)}
    for vid, exit_ in exits.items():
        engine = evaluate(parse_vessel_case({
            "vessel": {"flag": "NO", "activity": "offshore_support"},
            "operation": {"contract": "charter", "ajb_presence": [
                {"entry": "2016-01-01", "exit": exit_}]},
            "crew": [{"id": "A", "rank": "Master", "nationality": "NO"}]}), on)
        assert rows[vid]["interpretations"] == "; ".join(i.id for i in engine.interpretations)
    assert "quota.days.any_exit_interrupts" in rows["V1"]["interpretations"]
    assert "quota.days.any_exit_interrupts" not in rows["V2"]["interpretations"]


def test_an_absence_under_way_since_rn72_adds_its_strict_reading(tmp_path: Path) -> None:
    """An absence begun while RN 72/2006 was in force and still under way is judged by it."""
    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry,ajb_exit,absences\n"
        "V1,NO,offshore_support,charter,2016-01-01,,2017-11-01/2021-12-31\n", encoding="utf-8")
    (tmp_path / "crew.csv").write_text("vessel_id,id,rank,nationality\nV1,A,Master,NO\n",
                                       encoding="utf-8")
    on = dt.date(2020, 11, 1)
    got = screen(tmp_path, on).frame.row(0, named=True)
    engine = evaluate(parse_vessel_case({
        "vessel": {"flag": "NO", "activity": "offshore_support"},
        "operation": {"contract": "charter", "ajb_presence": [
            {"entry": "2016-01-01", "exit": "2017-10-31"}, {"entry": "2022-01-01"}]},
        "crew": [{"id": "A", "rank": "Master", "nationality": "NO"}]}), on)
    assert got["interpretations"] == "; ".join(i.id for i in engine.interpretations)
    assert "quota.days.any_exit_interrupts" in got["interpretations"]
    assert got["verdict"] == engine.verdict.value

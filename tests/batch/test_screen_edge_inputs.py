"""Inputs at the edges of the screening's formats: each row must be what the single-vessel
engine decides for that vessel, and bad input must be an :class:`InputError` naming the
file, the row and the field — never an exception of a library."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest
import yaml

from abordo.batch import screen
from abordo.crew.load import load_vessel_case
from abordo.crew.model import MAX_CREW
from abordo.law.errors import InputError
from abordo.quota import evaluate


def _row(frame: pl.DataFrame, vid: str) -> dict[str, object]:
    return frame.filter(pl.col("id") == vid).row(0, named=True)


# RN 72/2006 era: any exit interrupts the stay (crew-quota.md, "Days of operation").
EXIT_AND_REENTRY = {
    "vessel": {"name": "PSV", "flag": "NO", "activity": "offshore_support"},
    "operation": {"contract": "charter", "ajb_presence": [
        {"entry": "2012-01-01", "exit": "2012-03-10"}, {"entry": "2012-03-11"}]},
    "crew": [{"id": "C1", "rank": "Master", "nationality": "PH"},
             {"id": "C2", "rank": "AB", "nationality": "PH"},
             {"id": "C3", "rank": "Oiler", "nationality": "BR"}],
}


@pytest.mark.parametrize("stem", ["V1", "V1 ", " V1"])
def test_a_case_file_named_with_spaces_is_decided_as_the_engine_decides(
        tmp_path: Path, stem: str) -> None:
    # The exit on 2012-03-10 and the re-entry the next day end the stay under RN 72/2006:
    # abordo check counts from 2012-03-11 (51 days, no step yet). The file's name, spaces
    # around it or not, changes nothing.
    path = tmp_path / f"{stem}.yaml"
    path.write_text(yaml.safe_dump(EXIT_AND_REENTRY))
    on = dt.date(2012, 5, 1)
    d = evaluate(load_vessel_case(path), on)
    assert (d.verdict.value, d.result["stay"]["start"]) == ("not_yet", dt.date(2012, 3, 11))
    got = _row(screen(tmp_path, on).frame, "V1")
    assert (got["verdict"], got["stay_start"], got["days_of_operation"]) == \
        (d.verdict.value, d.result["stay"]["start"], d.result["stay"]["days_of_operation"])


def test_a_case_file_named_with_spaces_that_the_engine_rejects_is_an_input_error_row(
        tmp_path: Path) -> None:
    case = {"vessel": {"name": "Sem registro", "flag": "BR", "activity": "cabotage"},
            "operation": {"contract": "charter"},
            "crew": [{"id": "C1", "rank": "Master", "nationality": "BR"}]}
    (tmp_path / " V3.yaml").write_text(yaml.safe_dump(case))
    (tmp_path / "V4.yaml").write_text(yaml.safe_dump(EXIT_AND_REENTRY))
    res = screen(tmp_path, dt.date(2012, 5, 1), keep_going=True)
    got = _row(res.frame, "V3")
    assert got["verdict"] == "input_error"
    assert "registro" in str(got["error"] or "")


def test_a_vessel_with_more_persons_than_a_crew_list_takes_is_the_engines_input_error(
        tmp_path: Path) -> None:
    # Routed to the engine (4,095 persons or more): the engine refuses a crew list of more
    # than MAX_CREW persons — an input error (file, row, field), not a library's exception.
    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry\n"
        "HUGE,NO,offshore_support,charter,2025-01-01\n"
        "SMALL,NO,offshore_support,charter,2025-01-01\n")
    n = MAX_CREW + 1
    pl.DataFrame({"vessel_id": ["HUGE"] * n + ["SMALL"],
                  "id": [f"C{i}" for i in range(n)] + ["C1"],
                  "rank": ["AB"] * (n + 1), "nationality": ["PH"] * n + ["BR"]}
                 ).write_csv(tmp_path / "crew.csv")
    on = dt.date(2026, 4, 1)
    res = screen(tmp_path, on, keep_going=True)
    huge = _row(res.frame, "HUGE")
    assert huge["verdict"] == "input_error"
    assert f"{MAX_CREW}" in str(huge["error"] or "")
    assert _row(res.frame, "SMALL")["verdict"] == "compliant"
    with pytest.raises(InputError):
        screen(tmp_path, on)


@pytest.mark.parametrize("column", ["absences", "extensions", "flag", "name"])
def test_a_nested_parquet_column_is_named_as_bad_input(tmp_path: Path, column: str) -> None:
    vessels = {"id": ["V1"], "flag": ["NO"], "activity": ["offshore_support"],
               "contract": ["charter"], "ajb_entry": ["2025-01-01"]}
    value = {"absences": ["2025-02-01/2025-02-05"], "extensions": ["180:2025-09-01"],
             "flag": ["NO"], "name": ["PSV"]}[column]
    pl.DataFrame({**vessels, column: [value]}).write_parquet(tmp_path / "vessels.parquet")
    pl.DataFrame({"vessel_id": ["V1"], "rank": ["AB"], "nationality": ["BR"]}
                 ).write_parquet(tmp_path / "crew.parquet")
    with pytest.raises(InputError) as err:
        screen(tmp_path, dt.date(2026, 4, 1))
    assert err.value.file is not None and err.value.file.endswith("vessels.parquet")
    assert err.value.field == column


def test_a_windows_1252_crew_table_whose_first_accent_comes_late_is_read(
        tmp_path: Path) -> None:
    # docs/screen.md: "CSV: UTF-8 — or Windows-1252 / Latin-1, as Excel saves it".
    ids = [f"V{i:04d}" for i in range(1000)]
    (tmp_path / "vessels.csv").write_text(
        "id,flag,registry,activity,contract\n"
        + "".join(f"{v},BR,ordinary,cabotage,charter\n" for v in ids))
    lines = ["vessel_id,id,rank,nationality"]
    for v in ids:
        lines += [f"{v},C1,Master,BR", f"{v},C2,AB,BR", f"{v},C3,AB,BR", f"{v},C4,Oiler,BR",
                  f"{v},C5,Cook,BR"]
    lines.append(f"{ids[-1]},C6,Chefe de Máquinas,PH")  # beyond the first 64 KiB
    data = ("\n".join(lines) + "\n").encode("cp1252")
    assert len(data) > 65536 and data.index(b"\xe1") > 65536
    (tmp_path / "crew.csv").write_bytes(data)
    res = screen(tmp_path, dt.date(2026, 4, 1))
    last = _row(res.frame, ids[-1])
    assert last["findings"] == "chief_engineer_not_brazilian"
    assert _row(res.frame, ids[0])["verdict"] == "compliant"


def test_a_nested_column_of_the_crew_table_is_named_as_bad_input(tmp_path: Path) -> None:
    pl.DataFrame({"id": ["V1"], "flag": ["NO"], "activity": ["offshore_support"],
                  "contract": ["charter"], "ajb_entry": ["2025-01-01"]}
                 ).write_parquet(tmp_path / "vessels.parquet")
    pl.DataFrame({"vessel_id": ["V1"], "rank": [["AB", "OS"]], "nationality": ["BR"]}
                 ).write_parquet(tmp_path / "crew.parquet")
    with pytest.raises(InputError) as err:
        screen(tmp_path, dt.date(2026, 4, 1))
    assert err.value.file is not None and err.value.file.endswith("crew.parquet")
    assert err.value.field == "rank" and "um só valor" in err.value.message


def test_two_case_files_with_one_id_once_trimmed_are_named(tmp_path: Path) -> None:
    for name in ("V2.yaml", "V2 .yaml"):
        (tmp_path / name).write_text(yaml.safe_dump(EXIT_AND_REENTRY))
    with pytest.raises(InputError) as err:
        screen(tmp_path, dt.date(2012, 5, 1))
    assert "'V2'" in err.value.message
    assert "'V2 .yaml'" in err.value.message and "'V2.yaml'" in err.value.message

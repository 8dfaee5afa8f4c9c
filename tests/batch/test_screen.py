"""Screening of the example fleet: real values per vessel, ranking, horizon, formats,
personal data, case-file folders."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from abordo.batch import crew as crew_module
from abordo.batch import read_fleet, screen, summary, write_result
from abordo.batch.crew import CrewSource, check_vessel_ids, count_crew, unpack_exprs
from abordo.batch.ranking import rank
from abordo.law.errors import InputError

EXAMPLE = Path(__file__).parents[2] / "examples" / "fleet"
ON = dt.date(2026, 6, 1)


@pytest.fixture(scope="module")
def result() -> pl.DataFrame:
    frame: pl.DataFrame = screen(EXAMPLE, ON, horizon=365).frame
    return frame


def row(frame: pl.DataFrame, vid: str) -> dict[str, object]:
    return frame.filter(pl.col("id") == vid).row(0, named=True)


def test_offshore_support_res42_step_and_groups(result: pl.DataFrame) -> None:
    r = row(result, "V01")  # the q01 vessel, two months later
    assert r["verdict"] == "non_compliant"
    assert r["regime"] == "cnig-rn-06-2017@res-42-2020"
    assert (r["days_of_operation"], r["stay_start"]) == (151, dt.date(2026, 1, 1))
    assert (r["step_fraction"], r["step_from_day"], r["step_since"]) == \
        ("1/3", 90, dt.date(2026, 4, 1))
    assert (r["deck.rating_base"], r["deck.rating_required"], r["deck.rating_brazilians"],
            r["deck.rating_deficit"]) == (4, 2, 1, 1)
    assert (r["rest_base"], r["rest_required"], r["rest_brazilians"]) == (3, 1, 1)
    assert r["total_required"] == 6 and r["total_deficit"] == 1
    assert r["findings"] == "quota_deficit"
    assert (r["next_fraction"], r["next_since"], r["days_to_next"]) == \
        ("1/2", dt.date(2026, 6, 30), 29)
    assert r["deck.officer_next_required"] == 2 and r["next_deficit_total"] == 5
    assert r["citation"] == "RN CNIg nº 06/2017, na redação da Res. CNIg nº 42/2020, art. 4º, I, a"
    assert r["interpretations"] == ("quota.days.days_outside_count; "
                                    "quota.rounding.at_least_fraction; "
                                    "quota.groups.department_by_level; "
                                    "quota.groups.rest_is_one_group")
    assert r["crew_size"] == 16
    assert r["deck.petty_officer_base"] is None  # not a group of this rule


def test_short_absence_counts_and_long_absence_restarts(result: pl.DataFrame) -> None:
    r = row(result, "V02")  # 9 days outside in February: the count goes on
    assert (r["stay_start"], r["days_of_operation"]) == (dt.date(2026, 1, 1), 151)
    r = row(result, "V13")  # 20 days outside in June 2025: restarts at re-entry
    assert (r["stay_start"], r["days_of_operation"]) == (dt.date(2025, 6, 21), 345)
    assert r["alt_reading_changes_verdict"] is True


def test_extension_postpones_the_next_step(result: pl.DataFrame) -> None:
    r = row(result, "V09")
    assert (r["step_fraction"], r["step_since"]) == ("1/5", dt.date(2026, 5, 31))
    assert (r["next_since"], r["next_extended"]) == (dt.date(2026, 12, 15), True)


def test_other_regimes(result: pl.DataFrame) -> None:
    assert row(result, "V04")["unconfirmed"] is True  # art. 4, II figures unconfirmed
    assert (row(result, "V04")["total_required"], row(result, "V04")["total_deficit"]) == (40, 29)
    br = row(result, "V05")
    assert (br["verdict"], br["regime"], br["findings"]) == \
        ("non_compliant", "lei-9432-1997", "chief_engineer_not_brazilian")
    assert (br["crew_base"], br["crew_required"], br["crew_brazilians"]) == (14, 10, 10)
    assert br["days_of_operation"] is None
    assert (row(result, "V06")["verdict"], row(result, "V06")["regime"]) == \
        ("compliant", "lei-9432-1997")
    assert (row(result, "V07")["verdict"], row(result, "V07")["reason"]) == \
        ("not_applicable", "exempt_activity")
    assert (row(result, "V08")["verdict"], row(result, "V08")["regime"]) == \
        ("not_covered", "cnig-rn-05-2017")
    # RN 06/2017 as amended sets no contract condition (art. 1º): V12 is judged too.
    assert (row(result, "V12")["verdict"], row(result, "V12")["total_deficit"]) == \
        ("non_compliant", 5)
    assert (row(result, "V03")["verdict"], row(result, "V03")["next_since"]) == \
        ("not_yet", dt.date(2026, 8, 30))


def test_risk_rank(result: pl.DataFrame) -> None:
    order = result.sort("risk_rank")["id"].to_list()
    # non-compliant by shortfall (deficit + position findings), then the step coming short,
    # then the others, not covered and not applicable last.
    assert order[:7] == ["V04", "V10", "V12", "V11", "V01", "V05", "V03"]
    assert order[-3:] == ["V06", "V08", "V07"]
    assert sorted(result["risk_rank"].to_list()) == list(range(1, 14))


def test_rank_rule_on_a_small_frame() -> None:
    f = pl.DataFrame({
        "id": ["a", "b", "c", "d", "e", "f"],
        "verdict": ["compliant", "non_compliant", "not_yet", "non_compliant",
                    "not_applicable", "compliant"],
        "total_deficit": [0, 1, None, 4, None, 0], "findings": [None] * 6,
        "days_to_next": [10, None, 5, None, None, None],
        "next_deficit_total": [2, None, 0, None, None, 0],
        "days_of_operation": [100, 50, 3, 400, None, 10],
    }, schema_overrides={"findings": pl.String})
    assert rank(f).sort("risk_rank")["id"].to_list() == ["d", "b", "a", "c", "f", "e"]


def test_horizon_lists_the_steps_ahead(result: pl.DataFrame) -> None:
    r = row(result, "V01")
    assert (r["horizon_steps"], r["horizon_first_since"], r["horizon_max_deficit"],
            r["horizon_max_deficit_since"]) == (2, dt.date(2026, 6, 30), 6,
                                                dt.date(2026, 12, 27))
    assert str(r["horizon_plan"]).startswith("2026-06-30 1/2 (exigidos 10, déficit 5)")
    assert row(result, "V06")["horizon_steps"] is None  # REB: no plan at all
    assert row(result, "V04")["horizon_steps"] == 0     # last step already reached


def test_outside_ajb_on_the_date() -> None:
    r = row(screen(EXAMPLE, dt.date(2026, 9, 1)).frame, "V11")  # left on 2026-08-20
    assert (r["verdict"], r["reason"], r["in_ajb"]) == ("not_applicable", "outside_ajb", False)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_written_result_round_trips(tmp_path: Path, result: pl.DataFrame, suffix: str) -> None:
    out = tmp_path / f"result{suffix}"
    write_result(result, out)
    back = pl.read_parquet(out) if suffix == ".parquet" else pl.read_csv(out)
    assert back.height == 13 and back.columns == result.columns
    assert not list(tmp_path.glob(".*.tmp"))


def test_personal_data_never_reaches_the_output(tmp_path: Path) -> None:
    shutil.copy(EXAMPLE / "vessels.csv", tmp_path / "vessels.csv")
    crew = pl.read_csv(EXAMPLE / "crew.csv").with_columns(
        name=pl.format("Fulano {}", pl.col("id")),
        passport=pl.format("PX{}", pl.int_range(pl.len())))
    crew.write_csv(tmp_path / "crew.csv")
    out = tmp_path / "r.csv"
    write_result(screen(tmp_path, ON).frame, out)
    text = out.read_text()
    assert "Fulano" not in text and "PX1" not in text


def test_a_folder_of_case_files(tmp_path: Path) -> None:
    cases = Path(__file__).parents[1] / "cases" / "crew_quota"
    for name in ("q01-psv-res42-day90.yaml", "q06-short-absence-does-not-interrupt.yaml",
                 "q08-cruise-rn71-day31.yaml", "q08-cruise-crew.csv"):
        text = (cases / name).read_text()
        if name.endswith(".yaml"):  # keep the case input only (not its expectations)
            import yaml
            text = yaml.safe_dump(yaml.safe_load(text)["input"], allow_unicode=True)
        (tmp_path / name).write_text(text)
    res = screen(tmp_path, dt.date(2026, 4, 1)).frame
    q01 = row(res, "q01-psv-res42-day90")
    assert (q01["verdict"], q01["days_of_operation"], q01["deck.rating_required"]) == \
        ("non_compliant", 90, 2)
    q06 = row(res, "q06-short-absence-does-not-interrupt")
    assert (q06["verdict"], q06["stay_start"], q06["days_of_operation"]) == \
        ("compliant", dt.date(2026, 1, 1), 90)
    q08 = row(res, "q08-cruise-rn71-day31")  # RN 05/2017 era on this date: not covered
    assert (q08["verdict"], q08["crew_size"]) == ("not_covered", 400)
    res10 = row(screen(tmp_path, dt.date(2010, 1, 1)).frame, "q08-cruise-rn71-day31")
    assert (res10["verdict"], res10["all_base"], res10["all_required"],
            res10["all_brazilians"]) == ("non_compliant", 400, 100, 90)

    # A case file that cannot be read: the run stops, naming it — or, keeping going, that
    # vessel alone is an input error and the others are judged.
    bad = (tmp_path / "q01-psv-res42-day90.yaml").read_text().replace(
        "nationality: PH", "nationality: Atlantis", 1)
    (tmp_path / "zz-bad.yaml").write_text(bad)
    with pytest.raises(InputError) as exc:
        screen(tmp_path, dt.date(2026, 4, 1))
    assert exc.value.file is not None and exc.value.file.endswith("zz-bad.yaml")
    assert "país desconhecido 'Atlantis'" in exc.value.message  # the run's error names it
    kept = screen(tmp_path, dt.date(2026, 4, 1), keep_going=True)
    zz = row(kept.frame, "zz-bad")
    # the result's row names the field and the problem, not the value
    assert zz["verdict"] == "input_error" and "Atlantis" not in zz["error"]
    assert "crew[3].nationality: país desconhecido (use o código ISO 3166-1" in zz["error"]
    assert "zz-bad.yaml" in zz["error"] and kept.errors == 1
    assert row(kept.frame, "q01-psv-res42-day90")["verdict"] == "non_compliant"


@pytest.mark.parametrize(("categorical", "rare_limit", "few_explicit"),
                         [(False, 1 << 20, 1 << 17), (True, 1 << 20, 1 << 17),
                          (False, 0, 1 << 17), (True, 0, 1 << 17),
                          (False, 1 << 20, 0), (True, 0, 0)])
def test_fast_pass_and_exact_counts_agree(tmp_path: Path, categorical: bool, rare_limit: int,
                                          few_explicit: int,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows the fast pass cannot take (unusual spellings, explicit columns — or, when many
    rows have them, their invalid values and uncommon cells —, dual nationals, unknown
    ranks, values not seen before) are counted exactly, by a second pass that reads only
    them — collected, or (beyond ``rare_limit`` rows) counted as they stream by; the filter
    the Parquet reader applies selects the same rows as the fast pass's code (no
    recount)."""
    monkeypatch.setattr(crew_module, "FEW_EXPLICIT", few_explicit)
    rows = []
    kinds = [("AB", "BR", None, None), ("AB", "PH", None, None), ("Oiler", "PT/BR", None, None),
             ("ROV Technician", "GB", "non_crew_professional", None),
             ("Cook", "NO/BR", "deck", None), ("Surveyor", "PH", None, None),
             ("master", "BR", None, None), ("Chefe de Máquinas", "PT", None, None),
             ("2nd officer", "br", None, None), ("Deckhand", "PH", "deck", None),
             ("Steward", "PH", "  deck ", None), ("Master", "NO", " engine", None),
             ("Master", "NO", "engine", None),   # a master's position only in his department
             ("Chief Engineer", "PH", "engine", None), ("AB", "PH", "deck", "officer"),
             ("OS", "BR", None, "rating"), (None, "PH", "engine", "petty_officer"),
             ("Cook", "PH", "Convés", None), (None, "BR", "Máquinas", "Oficial")]  # Portuguese
    for v in range(300):
        for i in range(v % 17):
            rank_, nat, dept, level = kinds[(v * 7 + i * 3) % len(kinds) if v % 3 else i % 2]
            rows.append({"vessel_id": f"V{v}", "rank": rank_, "nationality": nat,
                         "department": dept, "level": level})
    df = pl.DataFrame(rows, schema={"vessel_id": pl.String, "rank": pl.String,
                                    "nationality": pl.String, "department": pl.String,
                                    "level": pl.String})
    if categorical:
        df = df.with_columns(pl.col("rank", "nationality").cast(pl.Categorical))
    df.write_parquet(tmp_path / "crew.parquet")
    src = CrewSource(pl.scan_parquet(tmp_path / "crew.parquet"), "crew", 1)
    calls: list[str] = []

    def spy(name: str) -> Any:
        real = getattr(crew_module, name)

        def wrapper(*args: Any) -> Any:
            calls.append(name)
            return real(*args)
        return wrapper

    for name in ("_exact_pass", "_rare_counts"):
        monkeypatch.setattr(crew_module, name, spy(name))
    counts = count_crew(src, rare_limit=rare_limit)
    assert counts.exact_vessels > 0 and counts.passes == 2
    assert calls == ["_rare_counts" if rare_limit else "_exact_pass"]
    assert_single_vessel_counts(counts, rows)


def assert_single_vessel_counts(counts: Any, rows: list[dict[str, Any]]) -> None:
    """Every vessel's counts equal the single-vessel resolution of its rows, person by
    person."""
    from abordo.batch.tables import cell_of
    from abordo.crew.model import CrewInput
    from abordo.crew.ranks import resolve_member
    got = counts.packed.select("vessel_id", *(e.alias(k) for k, e in unpack_exprs().items()))
    expected: dict[str | None, dict[str, int]] = {}
    for r in rows:
        p = CrewInput.model_validate({"id": "x", "rank": r["rank"],
                                      "nationality": r["nationality"],
                                      **({"department": r["department"]}
                                         if r["department"] else {}),
                                      **({"level": r["level"]} if r["level"] else {})})
        m = resolve_member(p, "", None, None)
        e = expected.setdefault(r["vessel_id"], {})
        cell = cell_of(m.department, m.level)
        e[f"n:{cell}"] = e.get(f"n:{cell}", 0) + 1
        e[f"b:{cell}"] = e.get(f"b:{cell}", 0) + m.is_brazilian
        for pos, name in (("master", "master"), ("chief_engineer", "chief")):
            if m.position == pos:
                e[f"{name}_n"] = e.get(f"{name}_n", 0) + 1
                e[f"{name}_x"] = e.get(f"{name}_x", 0) + (not m.is_brazilian)
    assert got.height == len(expected)
    for rec in got.iter_rows(named=True):
        exp = expected[rec["vessel_id"]]
        assert {k: v for k, v in rec.items() if k in exp} == exp, rec["vessel_id"]
        assert sum(v for k, v in rec.items() if k.startswith("n:")) == \
            sum(v for k, v in exp.items() if k.startswith("n:"))


def test_rows_rare_only_for_their_explicit_values_are_read_back_by_those_columns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the only rows the fast pass leaves out are those with an explicit department /
    level (as many rare rows as such rows), the second pass selects them by the explicit
    columns alone — not by the rank and nationality filter — and counts them exactly."""
    kinds = [("AB", "BR", None, None), ("Oiler", "PH", None, None), ("Master", "NO", None, None),
             ("Chief Engineer", "BR", None, None), ("Cook", "PH", "deck", None),
             ("AB", "BR", "engine", "officer"), ("ROV Technician", "GB", "non_crew_professional",
                                                  None)]
    rows = [{"vessel_id": f"V{v}", "rank": r, "nationality": n, "department": d, "level": lv}
            for v in range(40) for i in range(v % 9 + 1)
            for r, n, d, lv in [kinds[(v + i) % 4] if (v + i) % 5 else kinds[4 + v % 3]]]
    pl.DataFrame(rows).write_parquet(tmp_path / "crew.parquet")
    src = CrewSource(pl.scan_parquet(tmp_path / "crew.parquet"), "crew", 1)
    count_crew(src)  # the table's strings are met once (as a second run meets them)
    calls: list[str] = []
    real = crew_module._rare_rows
    monkeypatch.setattr(crew_module, "_rare_rows",
                        lambda *a: calls.append("rank/nationality filter") or real(*a))
    counts = count_crew(src)
    explicit = sum(1 for r in rows if r["department"])
    assert explicit > 0 and counts.passes == 2 and calls == []
    assert_single_vessel_counts(counts, rows)


def test_unknown_vessel_in_crew_is_named() -> None:
    src = CrewSource(pl.LazyFrame({"vessel_id": ["A", "A", "B"], "rank": ["AB"] * 3,
                                   "nationality": ["BR"] * 3}), "crew.csv", 2)
    with pytest.raises(InputError) as exc:
        check_vessel_ids(src, pl.Series(["A", "B"]), pl.Series(["A"]))
    assert (exc.value.file, exc.value.row, exc.value.field) == ("crew.csv", 4, "vessel_id")


def test_read_fleet_normalises(tmp_path: Path) -> None:
    (tmp_path / "vessels.csv").write_text(
        "id;bandeira;atividade;contrato;entrada_ajb;ausencias\n"
        "A; Norway ;cabotage;;2026-01-01;2026-02-01/2026-02-10\n", encoding="utf-8")
    (tmp_path / "crew.csv").write_text("vessel_id;função;nacionalidade\nA;AB;BR\n")
    f = read_fleet(tmp_path)
    v = f.vessels.row(0, named=True)
    assert (v["flag"], v["contract"], v["ajb_entry"]) == ("NO", "none", dt.date(2026, 1, 1))
    assert f.absences.row(0) == (0, dt.date(2026, 2, 1), dt.date(2026, 2, 10))


def test_a_crew_too_large_for_the_packed_counts_goes_to_the_engine(tmp_path: Path) -> None:
    (tmp_path / "vessels.csv").write_text(
        "id,flag,registry,activity,contract\nBIG,BR,ordinary,cabotage,none\n"
        "SMALL,BR,ordinary,cabotage,none\n")
    crew = pl.DataFrame({"vessel_id": ["BIG"] * 4200 + ["SMALL"] * 3,
                         "rank": ["Master", "Chief Engineer"] + ["AB"] * 4198 + ["AB"] * 3,
                         "nationality": ["BR"] * 2900 + ["PH"] * 1300 + ["BR"] * 3})
    crew.write_csv(tmp_path / "crew.csv")
    res = screen(tmp_path, ON)
    assert res.engine_vessels == 1
    big = row(res.frame, "BIG")
    assert (big["crew_base"], big["crew_required"], big["crew_brazilians"],
            big["crew_deficit"]) == (4200, 2800, 2900, 0)
    assert big["verdict"] == "compliant" and big["crew_size"] == 4200


@pytest.mark.parametrize("rare_limit", [1 << 20, 0])
def test_a_bad_explicit_value_is_named_after_unusual_valid_ones(tmp_path: Path,
                                                                 rare_limit: int) -> None:
    """A department never seen before but valid (blanks around it) is not the error; the
    first invalid one is, at its line — whichever way the exact pass runs."""
    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry\nA,NO,offshore_support,charter,2025-01-01\n")
    (tmp_path / "crew.csv").write_text("vessel_id,rank,nationality,department\nA,AB,BR,\n"
                                       "A,Cook,PH,  deck \nA,AB,PH,galley\nA,AB,PH,\n")
    with pytest.raises(InputError) as exc:
        count_crew(read_fleet(tmp_path).crew, rare_limit=rare_limit)
    assert (exc.value.row, exc.value.field) == (4, "department")
    assert "galley" in exc.value.message


def test_charterer_horizon_includes_a_vessel_arriving_later(tmp_path: Path) -> None:
    """A vessel entering AJB after the date judged is not yet judged, but its steps within
    the horizon are counted from its entry — as ``abordo plan`` counts them."""
    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry\nA,NO,offshore_support,charter,2026-07-01\n")
    (tmp_path / "crew.csv").write_text(
        "vessel_id,rank,nationality\n" + "".join(f"A,AB,{n}\n" for n in ("BR", "PH", "PH")))
    res = screen(tmp_path, dt.date(2026, 6, 1), horizon=365)
    a = row(res.frame, "A")
    assert (a["verdict"], a["reason"], a["days_of_operation"]) == (
        "not_applicable", "not_in_ajb", None)
    # 2026-07-01 + 90 = 2026-09-29 (1/3 of 3 ratings: 1, met); + 180 = 2026-12-28 (1/2: 2,
    # deficit 1); the 360-day step (2027-06-26) falls after 2027-06-01.
    assert (a["horizon_steps"], a["horizon_first_since"], a["horizon_max_deficit"],
            a["horizon_max_deficit_since"]) == (2, dt.date(2026, 9, 29), 1,
                                                dt.date(2026, 12, 28))


@pytest.mark.parametrize("n_lanes", [1, 3, 4])
def test_lanes_summed_two_by_two_as_words_split_back_exactly(n_lanes: int) -> None:
    """Per-code increments of up to 4,094 rows each, summed as 128-bit words, give each
    lane's own sum (an odd last lane rides alone in the low half)."""
    lanes = [pl.Series(f"lane{i}", [(4095 - 1) << (12 * k) for k in range(5)] + [0, 7 + i],
                       dtype=pl.UInt64) for i in range(n_lanes)]
    words = crew_module._word_luts(lanes)
    assert len(words) == (n_lanes + 1) // 2
    codes = pl.DataFrame({"c": [0, 1, 2, 3, 4, 6], "v": ["A"] * 6})
    summed = (codes.lazy().select("v", *(pl.lit(w).gather(pl.col("c")).alias(w.name)
                                         for w in words))
              .group_by("v").agg(pl.col(w.name).sum() for w in words)
              .select(crew_module._split_words(words, n_lanes)).collect())
    for i, lane in enumerate(lanes):
        assert summed[f"lane{i}"].item() == sum(lane.gather([0, 1, 2, 3, 4, 6]).to_list())


def test_entry_and_exit_dates_written_dd_mm_aaaa(tmp_path: Path) -> None:
    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry,ajb_exit\n"
        "A,NO,offshore_support,charter,01/01/2026,\nB,NO,offshore_support,charter,2026-01-01,"
        "31/12/2026\n")
    (tmp_path / "crew.csv").write_text("vessel_id,rank,nationality\nA,AB,BR\nB,AB,BR\n")
    res = screen(tmp_path, dt.date(2026, 6, 1))
    assert (row(res.frame, "A")["stay_start"], row(res.frame, "A")["days_of_operation"]) == (
        dt.date(2026, 1, 1), 151)
    assert row(res.frame, "B")["days_of_operation"] == 151
    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry\nA,NO,offshore_support,charter,31/02/2026\n")
    with pytest.raises(InputError) as err:
        screen(tmp_path, dt.date(2026, 6, 1))
    assert (err.value.row, err.value.field) == (2, "ajb_entry")


def test_non_compliant_ties_on_shortfall_go_by_days_of_operation_only() -> None:
    """Rule 1 (docs/screen.md): among non-compliant vessels with the same shortfall, the
    longest in operation first — their next step does not enter."""
    f = pl.DataFrame({
        "id": ["a05", "a16", "a04", "a27"],
        "verdict": ["non_compliant"] * 4, "total_deficit": [3, 3, 3, 3],
        "findings": [None] * 4,
        "days_to_next": [1, 5, 10, None], "next_deficit_total": [6, 5, 4, None],
        "days_of_operation": [359, 185, 180, 400],
    }, schema_overrides={"findings": pl.String})
    assert rank(f).sort("risk_rank")["id"].to_list() == ["a27", "a05", "a16", "a04"]


@pytest.mark.parametrize(("on", "start", "days", "verdict"), [
    # RN 72/2006 era: any exit ends the stay, one followed by re-entry the next day too.
    (dt.date(2010, 6, 1), dt.date(2010, 4, 1), 61, "not_yet"),
    # Res. 42/2020: an exit of fewer than 15 days does not interrupt (0 days outside here).
    (dt.date(2021, 6, 1), dt.date(2021, 1, 1), 151, "non_compliant"),
])
def test_a_case_folder_exit_and_reentry_the_next_day_is_the_engines(
        tmp_path: Path, on: dt.date, start: dt.date, days: int, verdict: str) -> None:
    import yaml

    from abordo.crew.load import load_vessel_case
    from abordo.quota import evaluate

    y = on.year
    case = {"vessel": {"name": "PSV", "flag": "NO", "activity": "offshore_support"},
            "operation": {"contract": "charter", "ajb_presence": [
                {"entry": f"{y}-01-01", "exit": f"{y}-03-31"}, {"entry": f"{y}-04-01"}]},
            "crew": [{"id": "A1", "rank": "Master", "nationality": "NO"},
                     {"id": "A2", "rank": "AB", "nationality": "BR"},
                     {"id": "A3", "rank": "Chief Engineer", "nationality": "NO"},
                     {"id": "A4", "rank": "Cook", "nationality": "PH"}]}
    (tmp_path / "V1.yaml").write_text(yaml.safe_dump(case))
    res = screen(tmp_path, on)
    got = row(res.frame, "V1")
    assert (got["stay_start"], got["days_of_operation"], got["verdict"]) == (start, days, verdict)
    assert res.engine_vessels == 1  # the exit rule is the engine's
    d = evaluate(load_vessel_case(tmp_path / "V1.yaml"), on)
    assert (d.verdict.value, d.result["stay"]["start"], d.result["stay"]["days_of_operation"]) \
        == (verdict, start, days)


def test_a_case_folder_person_whose_entries_show_an_exit_is_warned_as_the_engine_does(
        tmp_path: Path) -> None:
    import yaml

    case = {"vessel": {"name": "PSV", "flag": "NO", "activity": "offshore_support"},
            "operation": {"contract": "charter", "ajb_presence": [{"entry": "2025-01-10"}]},
            "crew": [{"id": "A1", "rank": "Master", "nationality": "NO",
                      "entries": [{"date": "2025-01-10", "by": "sea", "exit": "2025-03-01"}]},
                     {"id": "A2", "rank": "Chief Officer", "nationality": "BR"},
                     {"id": "A3", "rank": "AB", "nationality": "BR"}]}
    (tmp_path / "V1.yaml").write_text(yaml.safe_dump(case))
    case["crew"][0].pop("entries")
    (tmp_path / "V2.yaml").write_text(yaml.safe_dump(case))
    res = screen(tmp_path, dt.date(2025, 6, 1))
    v1, v2 = row(res.frame, "V1"), row(res.frame, "V2")
    assert (v1["verdict"], v1["warnings"], v1["deck.officer_base"]) == \
        ("compliant", "not_in_country", 2)
    assert (v2["verdict"], v2["warnings"]) == ("compliant", None)
    assert res.engine_vessels == 1  # only the vessel with entries goes to the engine
    assert summary(res.frame)["warnings"] == {"not_in_country": 1}


@pytest.mark.parametrize("on", [dt.date(2007, 3, 1), dt.date(2007, 11, 1)])
def test_an_extension_before_its_grounding_norm_is_unconfirmed_as_the_engine_says(
        tmp_path: Path, on: dt.date) -> None:
    """RN 72/2006 extensions rest on IN SIT 70/2007 art. 13, VI (from 2007-08-14): a step
    postponed from a date before it rests on an unconfirmed basis, whatever the date judged
    — screen and engine alike."""
    from abordo.crew.model import VesselCase
    from abordo.quota import evaluate

    (tmp_path / "vessels.csv").write_text(
        "id,name,flag,activity,contract,ajb_entry,extensions\n"
        "V1,A,AG,offshore_support,charter,2006-11-01,90:2007-03-15\n"
        "V2,B,AG,offshore_support,charter,2006-11-01,\n"
        "V3,C,AG,offshore_support,charter,2007-09-01,90:2007-12-15\n")
    (tmp_path / "crew.csv").write_text("vessel_id,id,rank,nationality\nV1,a,Master,PH\n"
                                       "V2,a,Master,PH\nV3,a,Master,PH\n")
    res = screen(tmp_path, on)
    for vid, entry, ext in (
            ("V1", "2006-11-01", [{"step_from_day": 90, "applies_from": "2007-03-15"}]),
            ("V2", "2006-11-01", []),
            # postponed from 2007-11-30, with IN SIT 70/2007 in force: confirmed
            ("V3", "2007-09-01", [{"step_from_day": 90, "applies_from": "2007-12-15"}])):
        d = evaluate(VesselCase.model_validate({
            "vessel": {"name": "A", "flag": "AG", "activity": "offshore_support"},
            "operation": {"contract": "charter", "ajb_presence": [{"entry": entry}],
                          "extensions": ext},
            "crew": [{"id": "a", "rank": "Master", "nationality": "PH"}]}), on)
        got = row(res.frame, vid)
        assert (got["verdict"], got["unconfirmed"]) == (d.verdict.value, bool(d.unconfirmed))
        assert bool(got["unconfirmed"]) is (vid == "V1"), vid
        if got["unconfirmed"]:
            assert [u.name for u in d.unconfirmed] == ["quota.extensions.basis"]


def test_a_fleet_without_any_quota_step_is_screened(tmp_path: Path) -> None:
    """REB and long-haul vessels only: no step in the chunk (no column to fold)."""
    (tmp_path / "vessels.csv").write_text(
        "id,name,flag,registry,activity,contract,ajb_entry\n"
        "V1,A,BR,REB,cabotage,none,2026-01-01\nV2,B,LR,,long_haul,none,2026-01-01\n")
    (tmp_path / "crew.csv").write_text("vessel_id,id,rank,nationality\nV1,a,Master,BR\n"
                                       "V1,b,Chief Engineer,BR\nV2,a,Master,PH\n")
    res = screen(tmp_path, dt.date(2026, 6, 1))
    assert (row(res.frame, "V1")["verdict"], row(res.frame, "V2")["verdict"]) == \
        ("compliant", "not_applicable")


def test_a_vessel_not_in_ajb_relies_on_the_days_reading_only(tmp_path: Path) -> None:
    """As the engine: judged "not in AJB" before any group or rounding, so an option on
    groups is not applied to it (and the summary says so)."""
    import yaml

    from abordo.crew.load import load_vessel_case
    from abordo.quota import evaluate

    case = {"vessel": {"name": "B", "flag": "NO", "activity": "cabotage"},
            "operation": {"contract": "charter", "ajb_presence": [{"entry": "2026-08-01"}]},
            "crew": [{"id": "C1", "rank": "Master", "nationality": "NO"}]}
    (tmp_path / "V1.yaml").write_text(yaml.safe_dump(case))
    opts = {"quota.groups": "department_or_level"}
    res = screen(tmp_path, dt.date(2026, 6, 1), opts)
    d = evaluate(load_vessel_case(tmp_path / "V1.yaml"), dt.date(2026, 6, 1), opts)
    assert row(res.frame, "V1")["interpretations"] == "; ".join(
        i.id for i in d.interpretations) == "quota.days.days_outside_count"
    assert summary(res.frame, 10, opts)["options_not_applicable"] == {
        "quota.groups=department_or_level": 1}


@pytest.mark.parametrize("explicit_rows", [0, 1 << 17])
def test_an_explicit_rating_takes_the_ranks_finer_level_as_the_engine_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, explicit_rows: int) -> None:
    """RN 72 cabotage splits ratings: an AB given `level: rating` is the junior rating the
    rank table says it is (not an undetermined level); an Oiler without a level too."""
    from abordo.crew.model import VesselCase
    from abordo.quota import evaluate

    (tmp_path / "vessels.csv").write_text(
        "id,name,flag,activity,contract,ajb_entry\nV1,A,LR,cabotage,charter,2010-01-01\n")
    (tmp_path / "crew.csv").write_text(
        "vessel_id,id,rank,nationality,department,level\n"
        "V1,A,Master,PH,,\nV1,B,AB,BR,deck,rating\nV1,C,Oiler,BR,,\nV1,D,Bosun,PH,,rating\n")
    monkeypatch.setattr(crew_module, "FEW_EXPLICIT", explicit_rows)
    got = row(screen(tmp_path, dt.date(2010, 6, 1)).frame, "V1")
    case = VesselCase.model_validate({
        "vessel": {"name": "A", "flag": "LR", "activity": "cabotage"},
        "operation": {"contract": "charter", "ajb_presence": [{"entry": "2010-01-01"}]},
        "crew": [{"id": "A", "rank": "Master", "nationality": "PH"},
                 {"id": "B", "rank": "AB", "nationality": "BR", "department": "deck",
                  "level": "rating"},
                 {"id": "C", "rank": "Oiler", "nationality": "BR"},
                 {"id": "D", "rank": "Bosun", "nationality": "PH", "level": "rating"}]})
    d = evaluate(case, dt.date(2010, 6, 1))
    groups = {g["group"]: (g["base"], g["brazilians"]) for g in d.result["groups"]}
    assert groups["deck.junior_rating"] == (1, 1) and groups["deck.petty_officer"] == (1, 0)
    for gid, (base, br) in groups.items():
        assert (got[f"{gid}_base"], got[f"{gid}_brazilians"]) == (base, br), gid
    assert got["verdict"] == d.verdict.value


@pytest.mark.parametrize(("activity", "contract", "entry", "on", "flagged"), [
    ("offshore_support", "charter", "2006-04-01", dt.date(2007, 1, 5), True),  # since RN 72
    ("exploration", "risk", "2015-12-20", dt.date(2016, 12, 20), True),  # next past its end
    ("offshore_support", "charter", "2012-01-01", dt.date(2013, 1, 5), False),  # nothing
    # Not yet in AJB: the answer is "not in AJB", whatever its steps' years.
    ("offshore_support", "charter", "2017-01-19", dt.date(2016, 12, 20), False),
])
def test_a_step_dated_in_an_uncertain_year_is_unconfirmed_as_in_the_engine(
        tmp_path: Path, activity: str, contract: str, entry: str, on: dt.date,
        flagged: bool) -> None:
    from abordo.crew.model import VesselCase
    from abordo.quota import evaluate

    (tmp_path / "vessels.csv").write_text(
        "id,name,flag,activity,contract,ajb_entry\n"
        f"V1,A,PA,{activity},{contract},{entry}\n")
    (tmp_path / "crew.csv").write_text(
        "vessel_id,id,rank,nationality\nV1,A1,Master,PA\nV1,A2,AB,BR\nV1,A3,Oiler,PH\n")
    got = row(screen(tmp_path, on).frame, "V1")
    d = evaluate(VesselCase.model_validate({
        "vessel": {"name": "A", "flag": "PA", "activity": activity},
        "operation": {"contract": contract, "ajb_presence": [{"entry": entry}]},
        "crew": [{"id": "A1", "rank": "Master", "nationality": "PA"},
                 {"id": "A2", "rank": "AB", "nationality": "BR"},
                 {"id": "A3", "rank": "Oiler", "nationality": "PH"}]}), on)
    assert got["unconfirmed"] is bool(d.unconfirmed) is flagged


def test_an_option_the_norm_fixes_is_not_applied_as_the_engine_says(tmp_path: Path) -> None:
    """Res. 42/2020 fixes half-up rounding for cabotage: `quota.rounding=half_up` is then
    not applied (the engine's option_not_applicable), while offshore support rests on it."""
    from abordo.crew.load import parse_vessel_case
    from abordo.quota import evaluate

    (tmp_path / "vessels.csv").write_text(
        "id,flag,activity,contract,ajb_entry\n"
        "V1,NO,cabotage,charter,2025-01-01\nV2,NO,offshore_support,charter,2025-01-01\n",
        encoding="utf-8")
    (tmp_path / "crew.csv").write_text(
        "vessel_id,id,rank,nationality\nV1,A,Master,NO\nV2,A,Master,NO\n", encoding="utf-8")
    on, opts = dt.date(2026, 6, 1), {"quota.rounding": "half_up"}
    res = screen(tmp_path, on, opts)
    for vid, activity, refused in (("V1", "cabotage", "quota.rounding=half_up"),
                                   ("V2", "offshore_support", None)):
        d = evaluate(parse_vessel_case({
            "vessel": {"flag": "NO", "activity": activity},
            "operation": {"contract": "charter", "ajb_presence": [{"entry": "2025-01-01"}]},
            "crew": [{"id": "A", "rank": "Master", "nationality": "NO"}]}), on, opts)
        told = [f.subject for f in d.findings if f.id == "option_not_applicable"]
        assert told == (["quota.rounding"] if refused else [])
        assert row(res.frame, vid)["options_not_applied"] == refused
        assert "quota.rounding.half_up" in row(res.frame, vid)["interpretations"]
    assert summary(res.frame, 10, opts)["options_not_applicable"] == {
        "quota.rounding=half_up": 1}

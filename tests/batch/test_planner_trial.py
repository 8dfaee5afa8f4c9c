"""Findings of a planner's trial of ``abordo screen`` on hand-built fleets: each one now a
test (spreadsheet exports with blank rows and name columns, an output over its own input,
personal data in errors, stays that ended, overtaken steps in the horizon, ranking ties)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from abordo.batch import screen
from abordo.crew.load import parse_vessel_case
from abordo.faces.cli.main import app
from abordo.quota import evaluate, plan

runner = CliRunner()
ON = dt.date(2026, 6, 1)
VESSELS = "id,flag,activity,contract,ajb_entry,ajb_exit,absences,extensions\n"
CREW = "vessel_id,id,rank,nationality\n"


def write(folder: Path, vessels: str, crew: str) -> Path:
    (folder / "vessels.csv").write_text(VESSELS + vessels, encoding="utf-8")
    (folder / "crew.csv").write_text(crew, encoding="utf-8")
    return folder


def write_case(path: Path, crew: str, activity: str = "cabotage") -> None:
    """A case file: a Norwegian vessel of ``activity`` under charter, in AJB since
    2026-01-01, with ``crew`` (the YAML lines from ``crew:`` or ``crew_file:`` on)."""
    path.write_text(f"vessel: {{flag: NO, activity: {activity}}}\n"
                    "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n"
                    + crew, encoding="utf-8")


def run(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, ["screen", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.output


def by_id(frame: pl.DataFrame) -> dict[str, dict[str, object]]:
    return {str(r["id"]): r for r in frame.iter_rows(named=True)}


def test_blank_rows_of_a_spreadsheet_export_are_no_vessel_and_no_person(tmp_path: Path) -> None:
    write(tmp_path, "V1,NO,offshore_support,charter,2026-01-01,,,\n,,,,,,,\n"
          " , , , , , , , \nV2,NO,offshore_support,charter,2026-01-01,,,\n",
          CREW + "V1,C1,Master,NO\n,,,\nV1,C2,Chief Officer,BR\n;;;\n"
          "V2,C3,Master,BR\n")
    (tmp_path / "crew.csv").write_text(
        (tmp_path / "crew.csv").read_text().replace(";;;\n", ",,,\n"), encoding="utf-8")
    res = screen(tmp_path, ON)
    assert res.crew_rows == 3 and res.frame.height == 2
    rows = by_id(res.frame)
    assert (rows["V1"]["crew_size"], rows["V2"]["crew_size"]) == (2, 1)
    # the rows users see stay those of the file, blank rows counted
    (tmp_path / "crew.csv").write_text(CREW + "V1,C1,Master,NO\n,,,\nV1,C2,Chief Officer,XX\n",
                                       encoding="utf-8")
    code, text = run(str(tmp_path), "--on", "2026-06-01")
    assert code == 2 and "crew.csv, linha 4, campo nationality" in " ".join(text.split())
    (tmp_path / "crew.csv").write_text(CREW + "V1,C1,Master,NO\n", encoding="utf-8")
    (tmp_path / "vessels.csv").write_text(
        VESSELS + ",,,,,,,\nV1,ZZ,offshore_support,charter,2026-01-01,,,\n", encoding="utf-8")
    code, text = run(str(tmp_path), "--on", "2026-06-01")
    assert code == 2 and "vessels.csv, linha 3, campo flag" in " ".join(text.split())


def test_personal_name_columns_are_accepted_and_never_read(tmp_path: Path) -> None:
    write(tmp_path, "V1,NO,offshore_support,charter,2026-01-01,,,\n",
          "vessel_id,id,rank,nationality,family name,given names,date of birth\n"
          "V1,C1,Master,NO,Silva,José,1980-01-01\nV1,C2,Chief Officer,BR,Souza,Ana,1990-02-02\n")
    res = screen(tmp_path, ON)
    assert res.frame["crew_size"].to_list() == [2]
    assert not {"family name", "given names", "date of birth"} & set(res.frame.columns)
    # two columns for one field the screening reads are still refused, by the header written
    (tmp_path / "crew.csv").write_text("vessel_id,rank,função,nationality\nV1,AB,AB,BR\n",
                                       encoding="utf-8")
    code, text = run(str(tmp_path), "--on", "2026-06-01")
    assert code == 2 and "coluna repetida 'função': o mesmo campo que 'rank'" in \
        " ".join(text.split())


@pytest.mark.parametrize("name", ["vessels.csv", "crew.csv"])
def test_the_output_cannot_replace_an_input_table(tmp_path: Path, name: str) -> None:
    write(tmp_path, "V1,NO,offshore_support,charter,2026-01-01,,,\n", CREW + "V1,C1,Master,NO\n")
    before = (tmp_path / name).read_bytes()
    code, text = run(str(tmp_path), "--on", "2026-06-01", "-o", str(tmp_path / name))
    assert code == 2 and "é uma das tabelas da frota" in " ".join(text.split())
    assert (tmp_path / name).read_bytes() == before
    code, _ = run(str(tmp_path), "--on", "2026-06-01", "-o", str(tmp_path / "result.csv"))
    assert code == 1 and (tmp_path / "result.csv").exists()  # judged: non-compliant


def test_an_unreadable_case_file_s_values_stay_out_of_the_result(tmp_path: Path) -> None:
    write_case(tmp_path / "P1.yaml", "crew:\n  - {id: C1, rank: Master, nationality: BR, "
               "nome: 'José da Silva', passaporte: FX123456}\n", "offshore_support")
    write_case(tmp_path / "P2.yaml", "crew:\n  - {id: C1, rank: Master, nationality: BR}\n",
               "offshore_support")
    out = tmp_path / "r.csv"
    code, _ = run(str(tmp_path), "--on", "2026-06-01", "--keep-going", "-o", str(out))
    text = out.read_text(encoding="utf-8")
    assert code == 2 and "input_error" in text and "crew[0].nome" in text
    assert "José" not in text and "FX123456" not in text


def test_errors_that_name_a_value_inside_them_keep_it_out_of_the_result(
        tmp_path: Path) -> None:
    """A misspelled rank, a person's id (a name, in a case file) and an unknown country are
    named in the terminal's error, never in the result file's `error` column."""
    tables = tmp_path / "tables"
    tables.mkdir()
    write(tables, "V1,NO,cabotage,charter,2026-01-01,,,\n",
          CREW + "V1,C1,Master,NO\nV1,C2,2nd Engneer,PH\n")
    cases = tmp_path / "cases"
    cases.mkdir()
    write_case(cases / "P1.yaml", "crew:\n  - {id: João da Silva, rank: Mastre, nationality: NO}\n")
    write_case(cases / "P2.yaml",
               "crew:\n  - {id: Maria Souza, rank: Master, nationality: Indai}\n")
    write_case(cases / "P3.yaml", "crew:\n  - {id: Pedro Alves, rank: Master, nationality: NO}\n"
               "  - {id: Pedro Alves, rank: AB, nationality: BR}\n")
    write_case(cases / "P4.yaml", "crew_file: p4.csv\n")
    (cases / "p4.csv").write_text("id,rank,nationality\nLuiza Reis,Master,Narnia\n",
                                  encoding="utf-8")
    for folder, said in ((tables, ["função desconhecida: informe a coluna department"]),
                         # an inline crew has fields, not columns
                         (cases, ["função desconhecida: informe department (seção)",
                                  "país desconhecido (use o código ISO 3166-1, ex.: BR)",
                                  "id repetido"])):
        out = folder / "r.csv"
        code, shown = run(str(folder), "--on", "2026-06-01", "--keep-going", "-o", str(out))
        text = out.read_text(encoding="utf-8")
        assert code == 2, shown
        for words in said:
            assert words in text
        for value in ("Engneer", "V1-C2", "C2", "João", "Mastre", "Maria", "Indai", "Pedro",
                      "Luiza", "Narnia"):
            assert value not in text, value


def test_a_stay_that_ended_stops_counting_and_plans_nothing(tmp_path: Path) -> None:
    """Left AJB on 2026-05-01: 31 days outside on 2026-06-01 (≥ 15, Res. 42 art. 10) — the
    stay ended on its last day in AJB; the count restarts at the next entry."""
    write(tmp_path, "V1,NO,offshore_support,charter,2026-01-01,2026-05-01,,\n"
          "V2,NO,offshore_support,charter,2024-01-01,2025-01-01,,\n"
          "V3,NO,offshore_support,charter,2026-01-01,2026-05-25,,\n"
          "V4,NO,offshore_support,charter,2026-01-01,,2026-05-10/2026-06-20,\n",
          CREW + "V1,C1,AB,NO\nV2,C1,AB,NO\nV3,C1,AB,NO\nV4,C1,AB,NO\n")
    rows = by_id(screen(tmp_path, ON, horizon=60).frame)
    assert (rows["V1"]["verdict"], rows["V1"]["days_of_operation"]) == ("not_applicable", 120)
    assert rows["V1"]["horizon_steps"] == 0 and rows["V1"]["horizon_plan"] is None
    assert rows["V2"]["days_of_operation"] == 366          # 2024-01-01 → 2025-01-01
    # 7 days outside (< 15): the stay goes on, its step still ahead
    assert rows["V3"]["days_of_operation"] == 151 and rows["V3"]["horizon_steps"] == 1
    # in an absence of 23 days so far: over on 2026-05-09
    assert (rows["V4"]["verdict"], rows["V4"]["days_of_operation"]) == ("not_applicable", 128)
    case = parse_vessel_case({
        "vessel": {"flag": "NO", "activity": "offshore_support"},
        "operation": {"contract": "charter",
                      "ajb_presence": [{"entry": "2026-01-01", "exit": "2026-05-01"}]},
        "crew": [{"id": "C1", "rank": "AB", "nationality": "NO"}]})
    d = evaluate(case, ON)
    assert d.result["stay"]["days_of_operation"] == 120
    assert d.result["stay"]["ended_on"] == dt.date(2026, 5, 1)
    texts = " ".join(t.text.pt for t in d.trace)
    assert "a estada terminou em 01/05/2026 e a contagem recomeça na próxima entrada" in texts
    assert "120 dias de operação em 01/05/2026" in texts
    statuses = [(p["from_day"], p["status"]) for p in plan(case, ON).result["plan"]]
    assert statuses == [(90, "past"), (180, "after_stay"), (360, "after_stay")]


def test_a_step_overtaken_by_a_higher_one_is_never_planned(tmp_path: Path) -> None:
    """The 180-day step extended to 2026-07-01 while the 360-day step applies from
    2026-05-27: the 1/2 step never applies (extension_overtaken) — not a future step."""
    write(tmp_path, "V1,NO,offshore_support,charter,2025-06-01,,,180:2026-07-01\n",
          CREW + "".join(f"V1,C{i},AB,NO\n" for i in range(10)))
    for on, steps in ((dt.date(2026, 5, 1), 1), (dt.date(2026, 6, 1), 0)):
        r = by_id(screen(tmp_path, on, horizon=400).frame)["V1"]
        assert r["horizon_steps"] == steps
        assert "1/2" not in str(r["horizon_plan"])
    case = parse_vessel_case({
        "vessel": {"flag": "NO", "activity": "offshore_support"},
        "operation": {"contract": "charter", "ajb_presence": [{"entry": "2025-06-01"}],
                      "extensions": [{"step_from_day": 180, "applies_from": "2026-07-01"}]},
        "crew": [{"id": f"C{i}", "rank": "AB", "nationality": "NO"} for i in range(10)]})
    rows = {p["from_day"]: p["status"] for p in plan(case, dt.date(2026, 5, 1)).result["plan"]}
    assert rows == {90: "current", 180: "overtaken", 360: "future"}


def test_not_applicable_and_not_covered_keep_the_table_order(tmp_path: Path) -> None:
    write(tmp_path, "N1,MT,long_haul,,,,,\n"
          "N2,NO,offshore_support,charter,2026-03-01,2026-04-01,,\n"
          "N3,NO,offshore_support,charter,2026-01-01,2026-05-01,,\n",
          CREW + "N1,C1,Master,MT\nN2,C1,Master,NO\nN3,C1,Master,NO\n")
    frame = screen(tmp_path, ON).frame.sort("risk_rank")
    assert frame["id"].to_list() == ["N1", "N2", "N3"]
    assert set(frame["verdict"]) == {"not_applicable"}


def test_plural_agreement_in_the_summary(tmp_path: Path) -> None:
    write(tmp_path, "V1,NO,offshore_support,charter,2026-03-15,,,\n",
          CREW + "V1,C1,AB,NO\n")
    code, text = run(str(tmp_path), "--on", "2026-06-01", "--horizon", "30")
    flat = " ".join(text.split())
    assert code == 0  # not yet required
    assert "Horizonte de 30 dias: 1 embarcação passa a uma nova etapa; 1 ficaria com déficit " \
        "(total 1 brasileiro)" in flat
    code, text = run(str(tmp_path), "--on", "2026-06-01", "--horizon", "30", "--lang", "en")
    assert code == 0
    assert "1 vessel reaches a new step; 1 would be short (total 1 Brazilian)" in \
        " ".join(text.split())


def test_crew_vessel_ids_are_trimmed_as_the_vessels_ids(tmp_path: Path) -> None:
    write(tmp_path, "E01 ,NO,offshore_support,charter,2026-01-01,,2026-02-01/2026-02-05,\n"
          "E02,NO,offshore_support,charter,2026-01-01,,,\n",
          CREW + " E01 ,C1,Master,NO\nE01,C2,AB,BR\nE02 ,C3,AB,BR\n")
    rows = by_id(screen(tmp_path, ON).frame)
    assert (rows["E01"]["crew_size"], rows["E02"]["crew_size"]) == (2, 1)
    # a vessel the engine decides (paused days: its walk) finds its rows the same way
    paused = by_id(screen(tmp_path, ON, {"quota.days": "days_outside_paused"}).frame)
    assert paused["E01"]["crew_size"] == 2 and paused["E01"]["days_of_operation"] == 146
    (tmp_path / "crew.csv").write_text(CREW + "E01,C1,Master,NO\n   ,C2,AB,BR\n",
                                       encoding="utf-8")
    code, text = run(str(tmp_path), "--on", "2026-06-01")
    assert code == 2 and "crew.csv, linha 3, campo vessel_id: vessel_id ausente" in \
        " ".join(text.split())


@pytest.mark.parametrize(("row", "line", "said"), [
    ('E01,C2,"AB,BR\nE01,C3,AB,BR\n', 3, 'aspas (") abertas e não fechadas nesta linha'),
    ('E01,C2,"AB"x,BR\n', 3, 'aspas (") mal colocadas nesta linha'),
])
def test_a_broken_quote_is_named_by_its_line(tmp_path: Path, row: str, line: int,
                                             said: str) -> None:
    write(tmp_path, "E01,NO,offshore_support,charter,2026-01-01,,,\n",
          CREW + "E01,C1,Master,NO\n" + row)
    code, text = run(str(tmp_path), "--on", "2026-06-01")
    flat = " ".join(text.split())
    assert code == 2 and f"crew.csv, linha {line}: {said}" in flat


def test_an_option_no_rule_uses_is_reported_not_dropped(tmp_path: Path) -> None:
    """REB (positions only) and RN 72-era-free cabotage under Res. 42 do not rest on the
    rounding reading: the summary says for how many vessels the choice was not applied."""
    write(tmp_path, "", CREW + "R1,C1,Master,BR\nO1,C2,Master,NO\n")
    (tmp_path / "vessels.csv").write_text(
        "id,flag,registry,activity,contract,ajb_entry\nR1,BR,REB,cabotage,,\n"
        "O1,NO,,offshore_support,charter,2026-01-01\n", encoding="utf-8")
    code, text = run(str(tmp_path), "--on", "2026-06-01", "--option", "quota.rounding=half_up")
    assert code == 0  # O1, a foreign master alone 151 days in: 1/3 of 1 half up is 0
    assert "opção quota.rounding=half_up não aplicada a 1 embarcação" in " ".join(text.split())
    code, text = run(str(tmp_path), "--on", "2026-06-01", "--option",
                     "quota.rounding=at_least_fraction")
    assert code == 1 and "quota.rounding=at_least_fraction não aplicada a 1 embarcação" in \
        " ".join(text.split())


def test_a_person_listed_twice_in_a_vessel_is_refused_as_check_refuses_it(
        tmp_path: Path) -> None:
    """C3 twice would make four deck officers of three (abordo check: "id repetido")."""
    write(tmp_path, "V1,NO,offshore_support,charter,2026-01-01,,,\n"
          "V2,NO,offshore_support,charter,2026-01-01,,,\n",
          CREW + "V1,C1,Master,NO\nV1,C2,Chief Officer,BR\nV1,C3,2nd Officer,NO\n"
          "V2,C3,AB,NO\nV1, C3 ,2nd Officer,NO\nV1,,AB,NO\nV1,,AB,NO\n")
    code, text = run(str(tmp_path), "--on", "2026-06-01")
    assert code == 2 and ("crew.csv, linha 6, campo id: id repetido na embarcação 'V1': C3 "
                          "(também na linha 4)") in " ".join(text.split())
    # unchecked on request (a table too large to hash every pair): counted as given
    res = screen(tmp_path, ON, check_ids=False)
    assert not res.ids_checked and by_id(res.frame)["V1"]["crew_size"] == 6
    code, text = run(str(tmp_path), "--on", "2026-06-01", "--no-check-ids")
    assert code == 1 and "ids de tripulantes não conferidos" in " ".join(text.split())
    (tmp_path / "crew.csv").write_text(CREW + "V1,C1,Master,NO\nV2,C1,Master,NO\n",
                                       encoding="utf-8")
    assert screen(tmp_path, ON).ids_checked  # the same id in two vessels is two persons


@pytest.mark.parametrize(("days", "said"), [
    ("99999999999", "de 0 a 36525 (recebido: 99999999999)"),
    ("-1", "de 0 a 36525 (recebido: -1)"),
    ("36000", "passa de 31/12/2199"),
])
def test_a_horizon_beyond_what_dates_allow_is_refused(tmp_path: Path, days: str,
                                                      said: str) -> None:
    write(tmp_path, "V1,NO,offshore_support,charter,2026-01-01,,,\n", CREW + "V1,C1,AB,NO\n")
    code, text = run(str(tmp_path), "--on", "2190-01-01", "--horizon", days)
    assert code == 2 and said in " ".join(text.split())


def test_an_option_the_norm_s_text_overrides_is_counted_as_not_applied(tmp_path: Path) -> None:
    """Cabotage under Res. 42/2020 (art. 4, III) has its rounding fixed half up by the text:
    at_least_fraction is not what C1 rests on (abordo check: "o texto da norma fixa o
    arredondamento")."""
    write(tmp_path, "C1,NO,cabotage,charter,2025-01-01,,,\n"
          "O1,NO,offshore_support,charter,2025-01-01,,,\n",
          CREW + "C1,P1,Master,NO\nC1,P2,AB,NO\nO1,P1,AB,BR\n")
    code, text = run(str(tmp_path), "--on", "2026-06-01", "--option",
                     "quota.rounding=at_least_fraction")
    flat = " ".join(text.split())
    assert "opção quota.rounding=at_least_fraction não aplicada a 1 embarcação" in flat
    assert code == 0  # half up: 1/3 of a group of 1 requires none


def test_screening_agrees_on_the_higher_step_and_a_paused_absence_under_way(
        tmp_path: Path) -> None:
    write(tmp_path, "T1,NO,offshore_support,charter,2025-06-01,,,180:2026-05-27\n"
          "P1,NO,offshore_support,charter,2026-01-01,2026-05-25,,\n",
          CREW + "".join(f"T1,C{i},AB,NO\n" for i in range(4)) + "P1,C1,AB,NO\n")
    t1 = by_id(screen(tmp_path, dt.date(2026, 5, 1)).frame)["T1"]
    assert (t1["next_fraction"], t1["next_required_total"]) == ("2/3", 3)
    p1 = by_id(screen(tmp_path, ON, {"quota.days": "days_outside_paused"}, horizon=60
                      ).frame)["P1"]
    assert (p1["days_of_operation"], p1["horizon_first_since"]) == (144, dt.date(2026, 7, 7))


def test_an_extension_the_rule_cannot_use_is_warned_as_check_warns(tmp_path: Path) -> None:
    """Port support under Res. 42/2020 has 90- and 180-day steps: an extension given for a
    360-day step is not applied, and the row says so (the engine's warning)."""
    write(tmp_path, "V1,NO,port_support,charter,2026-01-01,,,360:2026-12-15\n"
                    "V2,NO,port_support,charter,2026-01-01,,,180:2026-12-15\n",
          CREW + "V1,C1,Master,NO\nV2,C1,Master,NO\n")
    rows = by_id(screen(tmp_path, dt.date(2026, 11, 30)).frame)
    d = evaluate(parse_vessel_case({
        "vessel": {"flag": "NO", "activity": "port_support"},
        "operation": {"contract": "charter", "ajb_presence": [{"entry": "2026-01-01"}],
                      "extensions": [{"step_from_day": 360, "applies_from": "2026-12-15"}]},
        "crew": [{"id": "C1", "rank": "Master", "nationality": "NO"}]}), dt.date(2026, 11, 30))
    assert [f.id for f in d.findings if f.severity == "warning"] == ["extension_not_applied"]
    assert rows["V1"]["warnings"] == "extension_not_applied"
    assert rows["V1"]["verdict"] == d.verdict.value
    assert rows["V2"]["warnings"] is None and rows["V2"]["next_extended"] is True


def test_another_engines_input_among_the_cases_is_named_as_such(tmp_path: Path) -> None:
    """A fine input left in a folder of vessel cases: named as a fine input (with the
    command that reads it), as abordo check names it — not by the vessel model's fields."""
    import shutil

    examples = Path(__file__).parents[2] / "examples"
    shutil.copy(examples / "fines" / "rest-interval.yaml", tmp_path / "rest-interval.yaml")
    shutil.copy(examples / "bulk-mar-de-minas.yaml", tmp_path / "bulk.yaml")
    out = tmp_path / "r.csv"
    code, shown = run(str(tmp_path), "--on", "2026-06-01", "--keep-going", "-o", str(out))
    assert code == 2, shown
    said = pl.read_csv(out).filter(pl.col("id") == "rest-interval")["error"].item()
    assert "parece uma entrada de multa (infraction, offender): use abordo fine " \
           f"{tmp_path / 'rest-interval.yaml'};" in said
    assert "campo obrigatório ausente" not in said


@pytest.mark.parametrize("encoding", ["utf-8", "mac_roman"])
def test_a_csv_with_mac_line_ends_is_read(tmp_path: Path, encoding: str) -> None:
    """Excel for Mac's "CSV (Macintosh)" ends lines in CR alone, in MacRoman: read as the
    same table (accents in the header and in a rank included)."""
    write(tmp_path, "V1,NO,cabotage,charter,2026-01-01,,,\n",
          "vessel_id,id,função,nationality\nV1,C1,Master,NO\nV1,C2,Marinheiro de Convés,BR\n")
    plain = by_id(screen(tmp_path, ON).frame)
    for name in ("vessels.csv", "crew.csv"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        (tmp_path / name).write_bytes(text.replace("\n", "\r").encode(encoding))
    assert by_id(screen(tmp_path, ON).frame) == plain
    assert plain["V1"]["crew_size"] == 2

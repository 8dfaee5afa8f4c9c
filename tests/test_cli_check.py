from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from abordo.faces.cli.main import app
from abordo.law.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_check_text_exit_code_and_content() -> None:
    r = runner.invoke(app, ["check", str(ROOT / "examples/psv-atlantic-provider.yaml"),
                            "--on", "2026-11-30"])
    assert r.exit_code == 1
    assert "NÃO CONFORME" in r.output
    assert "subalternos de convés" in r.output
    assert "art. 4º, I, b" in r.output
    assert "16/11/2026" in r.output


def test_check_json_and_english() -> None:
    r = runner.invoke(app, ["check", str(ROOT / "examples/bulk-mar-de-minas.yaml"),
                            "--on", "2026-11-30", "--format", "json", "--lang", "en"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    q = data["quota"]
    assert q["verdict"] == "compliant"
    assert q["result"]["groups"][0] == {"group": "crew", "base": 14, "required": 10,
                                        "brazilians": 11, "deficit": 0, "exact": "28/3",
                                        "citation": q["result"]["groups"][0]["citation"]}
    assert q["summary"].startswith("Compliant")


def test_check_html_is_a_printable_page(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["check", str(ROOT / "examples/tanker-coastal-spirit.yaml"),
                            "--on", "2026-11-30", "--format", "html", "-o", str(out)])
    assert r.exit_code == 1
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "@media print" in html
    assert "oficiais de máquinas" in html and "Fundamentação legal" in html


def test_bad_input_exit_2_no_traceback(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text("vessel: {flag: ZZ, activity: cabotage}\ncrew: []\n", encoding="utf-8")
    r2 = subprocess.run([sys.executable, "-c", "from abordo.faces.cli.main import run; run()",
                         "check", str(p)], capture_output=True, text=True, check=False)
    assert r2.returncode == 2
    assert "vessel.flag" in r2.stderr and "Traceback" not in r2.stderr


def test_plan_and_norms_and_schema() -> None:
    r = runner.invoke(app, ["plan", str(ROOT / "examples/psv-atlantic-provider.yaml"),
                            "--on", "2026-11-30"])
    assert r.exit_code == 1, r.output  # non-compliant on the date, as `check` says
    assert r.output.startswith("Abordo — plano da cota\nAtlantic Provider IMO 9372664 — "
                               "bandeira Noruega (NO)")
    assert "15/05/2027" in r.output
    before = runner.invoke(app, ["plan", str(ROOT / "examples/psv-atlantic-provider.yaml"),
                                 "--on", "2026-04-01"])
    assert before.exit_code == 0, before.output  # not yet in AJB: nothing to comply with
    assert "18/08/2026" in before.output  # 20/05/2026 + 90 days
    r = runner.invoke(app, ["norms", "--on", "2019-05-01"])
    assert "cnig-rn-06-2017" in r.output and r.exit_code == 0
    assert "em 01/05/2019" in r.output and "em vigor" in r.output and "sim" in r.output
    en = runner.invoke(app, ["norms", "--on", "2019-05-01", "--lang", "en"])
    assert "on 2019-05-01" in en.output and "in force" in en.output and "yes" in en.output
    assert "em vigor" not in en.output and "sim " not in en.output
    r = runner.invoke(app, ["schema", "vessel"])
    assert r.exit_code == 0 and '"ajb_presence"' in r.output


def test_bad_input_in_english_with_lang_en(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text("vessel: {flag: ZZ, activity: cabotage}\ncrew: []\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-c", "from abordo.faces.cli.main import run; run()",
                        "check", str(p), "--lang", "en"], capture_output=True, text=True,
                       check=False)
    assert r.returncode == 2
    assert "input error" in r.stderr and "unknown country 'ZZ'" in r.stderr
    assert "país" not in r.stderr


def test_user_text_with_brackets_is_printed_as_written(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text('vessel: {name: "Star [/x] One", flag: LR, activity: cabotage}\n'
                 "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n"
                 'crew:\n  - {id: "[b]A", rank: Master, nationality: GR}\n', encoding="utf-8")
    r = runner.invoke(app, ["check", str(p), "--on", "2026-06-01"])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert "Star [/x] One" in r.output and "[b]A" in r.output


def test_consequence_before_in_sit_70_is_not_anachronistic() -> None:
    from tests.quota.helpers import person, vessel_case

    from abordo.quota import evaluate

    crew = [person(1, "Master", "NO"), person(2, "AB", "PH")]
    d = evaluate(vessel_case(crew, presence=[{"entry": "2006-10-10"}]),
                 __import__("datetime").date(2007, 3, 1))
    text = d.result["consequences"][0]["text"].pt
    assert "IN SIT nº 19/2000" in text and "só vigora a partir de 14/08/2007" in text
    assert d.result["consequences"][0]["status"] == "not_modelled"


def test_errors_found_by_the_engine_still_name_file_and_line(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text("vessel: {flag: NO, activity: offshore_support}\noperation:\n"
                 "  contract: charter\ncrew:\n  - {id: A, rank: Master, nationality: BR}\n",
                 encoding="utf-8")
    r = subprocess.run([sys.executable, "-c", "from abordo.faces.cli.main import run; run()",
                        "check", str(p)], capture_output=True, text=True, check=False)
    assert r.returncode == 2
    assert f"arquivo {p}, linha 2, campo operation.ajb_presence" in r.stderr


def test_report_written_to_a_file_says_where(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["check", str(ROOT / "examples/psv-atlantic-provider.yaml"),
                            "--on", "2026-11-30", "-f", "html", "-o", str(out)])
    assert r.exit_code == 1  # non-compliant, as without -o
    assert f"Relatório gravado em {out}" in r.output
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")


def test_a_bad_on_date_is_the_command_line_s_not_the_file_s() -> None:
    for command in ("check", "plan"):
        r = runner.invoke(app, [command, str(ROOT / "examples/psv-atlantic-provider.yaml"),
                                "--on", "31/02/2026"])
        err = r.exception  # the console entry point turns it into exit 2 and a message
        assert isinstance(err, InputError) and (err.field, err.file) == ("--on", None)
        assert err.render() == "campo --on: data inválida '31/02/2026'; use AAAA-MM-DD ou " \
            "dd/mm/aaaa"


def test_a_bad_command_line_option_is_not_blamed_on_the_input_file() -> None:
    example = str(ROOT / "examples/psv-atlantic-provider.yaml")
    for cmd, argv, field in (
            ("check", ["--option", "foo.bar=baz"], "--option foo.bar"),
            ("check", ["--option", "quota.groups=some"], "--option quota.groups"),
            ("plan", ["--option", "immigration.stay=inclusive"], "--option immigration.stay")):
        r = runner.invoke(app, [cmd, example, "--on", "2026-04-01", *argv])
        assert isinstance(r.exception, InputError), r.output
        assert (r.exception.field, r.exception.file) == (field, None)


def test_a_not_covered_reason_is_said_once_in_text_and_html(tmp_path: Path) -> None:
    reason = "sem fixar proporção: não há número a verificar"
    example = str(ROOT / "examples/cabotage-2001-rn31.yaml")
    text = runner.invoke(app, ["check", example, "--on", "2001-09-20"]).output
    assert " ".join(text.split()).count(reason) == 1
    out = tmp_path / "r.html"
    runner.invoke(app, ["check", example, "--on", "2001-09-20", "-f", "html", "-o", str(out)])
    html = out.read_text(encoding="utf-8")
    before_trace = html[:html.index('class="trace"')]  # the trace tells it once more, as a step
    assert before_trace.count(reason) == 1


def test_next_step_line_names_the_groups_in_words() -> None:
    r = runner.invoke(app, ["check", str(ROOT / "examples/psv-atlantic-provider.yaml"),
                            "--on", "2026-06-01"])
    text = " ".join(r.output.split())
    assert ("Próxima etapa: 1/3 a partir de 18/08/2026 — exigidos: oficiais de convés 2, "
            "subalternos de convés 3") in text
    assert "deck.officer" not in text


def test_html_next_step_names_groups_in_words_and_english_plurals(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["check", str(ROOT / "examples/psv-atlantic-provider.yaml"),
                            "--on", "2026-06-01", "--format", "html", "-o", str(out)])
    assert r.exit_code == 1  # non-compliant on that date
    html = " ".join(out.read_text(encoding="utf-8").split())
    assert "a partir de 18/08/2026 — oficiais de convés 2, subalternos de convés 3" in html
    assert "deck.officer: 2" not in html
    en = runner.invoke(app, ["check", str(ROOT / "examples/psv-atlantic-provider.yaml"),
                             "--on", "2026-11-30", "--lang", "en", "--format", "json"])
    assert "Brazilian(s)" not in en.output and " 1 Brazilians " not in en.output


def test_vessel_file_saved_in_windows_1252_is_read(tmp_path: Path) -> None:
    # "Smart quotes" are bytes 0x93/0x94 in Windows-1252: read as Latin-1 they were control
    # characters the YAML parser refused. One decoder now reads every input (and case files).
    text = (ROOT / "examples/bulk-mar-de-minas.yaml").read_text(encoding="utf-8")
    p = tmp_path / "v.yaml"
    p.write_bytes(("# navio “Mar de Minas” — salvo no Bloco de Notas\n" + text).encode("cp1252"))
    r = runner.invoke(app, ["check", str(p), "--on", "2026-11-30", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["quota"]["verdict"] == "compliant"


def test_a_spreadsheet_given_to_check_says_where_a_crew_list_goes(tmp_path: Path) -> None:
    # Was "YAML inválido: unacceptable character #x0003".
    for path in (ROOT / "examples/psv-atlantic-provider-fal5.xlsx",
                 ROOT / "examples/tanker-coastal-spirit-crew.csv"):
        r = runner.invoke(app, ["check", str(path)])
        err = r.exception
        assert isinstance(err, InputError) and err.file == str(path) and err.field is None
        assert err.message.startswith("é uma planilha: uma lista de tripulantes entra no caso "
                                      f"em crew_file (ex.: crew_file: {path.name}, ")
        assert err.message_en and err.message_en.startswith(
            "is a spreadsheet: a crew list goes into the case as crew_file")
    # An XLSX under a YAML name is known by its first bytes, in plan too.
    disguised = tmp_path / "case.yaml"
    disguised.write_bytes((ROOT / "examples/psv-atlantic-provider-fal5.xlsx").read_bytes())
    r = runner.invoke(app, ["plan", str(disguised)])
    assert isinstance(r.exception, InputError)
    assert r.exception.message.startswith("é uma planilha")
    assert "que abordo plan lê" in r.exception.message


def test_a_fine_or_sea_time_input_given_to_check_names_the_command_to_use() -> None:
    # Was a list of "campo desconhecido".
    fine_path = ROOT / "examples/fines/rest-interval.yaml"
    fine = runner.invoke(app, ["check", str(fine_path)])
    assert isinstance(fine.exception, InputError) and not fine.exception.details
    assert fine.exception.message == (
        f"parece uma entrada de multa (infraction, offender): use abordo fine {fine_path}; "
        "abordo check lê o caso de uma embarcação (vessel, operation, crew)")
    sea_path = ROOT / "examples/sea-time/seafarer-2on-promotion.yaml"
    sea = runner.invoke(app, ["check", str(sea_path), "--lang", "en"])
    assert isinstance(sea.exception, InputError)
    assert sea.exception.message_en == (
        f"looks like a sea-time input (seafarer, cir…): use abordo sea-time {sea_path}; "
        "abordo check reads a vessel case (vessel, operation, crew)")


def test_the_command_to_use_repeats_the_path_as_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was the bare file name ("use abordo fine rest-interval.yaml"), not found from where
    # the user ran the command.
    monkeypatch.chdir(ROOT)
    r = runner.invoke(app, ["check", "examples/fines/rest-interval.yaml"])
    assert isinstance(r.exception, InputError)
    assert "use abordo fine examples/fines/rest-interval.yaml; abordo check lê" \
        in r.exception.message
    spaced = tmp_path / "my case.yaml"
    spaced.write_bytes((ROOT / "examples/psv-atlantic-provider.yaml").read_bytes())
    r = runner.invoke(app, ["fine", str(spaced)])
    assert isinstance(r.exception, InputError)
    assert f"use abordo check '{spaced}'; abordo fine lê" in r.exception.message


@pytest.mark.parametrize(("command", "example", "use", "reads"), [
    ("sea-time", "examples/psv-atlantic-provider.yaml", "check",
     "uma entrada de tempo de embarque"),
    ("fine", "examples/sea-time/seafarer-2on-promotion.yaml", "sea-time",
     "uma entrada de multa"),
    ("sea-time", "examples/fines/rest-interval.yaml", "fine", "uma entrada de tempo de embarque"),
])
def test_every_command_given_another_engines_input_names_the_one_to_use(
        command: str, example: str, use: str, reads: str) -> None:
    r = runner.invoke(app, [command, str(ROOT / example)])
    assert isinstance(r.exception, InputError) and not r.exception.details
    assert r.exception.message.startswith("parece ")
    assert f": use abordo {use} {ROOT / example}; abordo {command} lê {reads}" \
        in r.exception.message


def test_a_vessel_case_with_a_stray_fine_key_keeps_its_field_errors(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text("vessel: {flag: NO, activity: offshore_support}\ninfraction: {}\n",
                 encoding="utf-8")
    r = runner.invoke(app, ["check", str(p)])
    err = r.exception
    assert isinstance(err, InputError)
    assert [(e.field, e.row) for e in [err, *err.details]][-1] == ("infraction", 2)


def test_norms_without_on_shows_what_is_in_force_today(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setattr("abordo.faces.cli.norms.today", lambda: dt.date(2019, 5, 1))
    r = runner.invoke(app, ["norms"])
    assert r.exit_code == 0, r.output
    assert r.output == runner.invoke(app, ["norms", "--on", "2019-05-01"]).output
    line = next(x for x in r.output.splitlines() if x.startswith("│ in-sit-70-2007 "))
    assert "em 01/05/2019" in r.output and line.rstrip(" │").endswith("em vigor")
    rows = json.loads(runner.invoke(app, ["norms", "--format", "json"]).output)
    by_id = {row["id"]: row["in_force_on_date"] for row in rows}
    assert by_id["in-sit-70-2007"] is True and by_id["in-mtp-2-2021"] is False
    # --on still overrides today
    rows = json.loads(runner.invoke(app, ["norms", "-f", "json", "--on", "2022-01-01"]).output)
    assert {row["id"]: row["in_force_on_date"] for row in rows}["in-sit-70-2007"] is False


def test_the_result_line_says_the_verdict_once() -> None:
    r = runner.invoke(app, ["check", str(ROOT / "examples/psv-atlantic-provider.yaml"),
                            "--on", "2026-11-30"])
    lines = [ln for ln in r.output.splitlines() if ln.startswith("Resultado:")]
    assert lines[0].startswith("Resultado: NÃO CONFORME — RN CNIg nº 06/2017")
    assert not any("— Não conforme" in ln or "— Não coberto" in ln for ln in lines)


def test_a_spreadsheet_given_to_fine_or_a_crew_workbook_given_to_sea_time_says_what_to_use(
        ) -> None:
    r = runner.invoke(app, ["fine", str(ROOT / "examples/sea-time/seafarer-2on-promotion.xlsx")])
    assert isinstance(r.exception, InputError)
    assert r.exception.message.startswith("é uma planilha: abordo fine lê a infração em YAML")
    r = runner.invoke(app, ["sea-time", str(ROOT / "examples/psv-atlantic-provider-fal5.xlsx")])
    assert isinstance(r.exception, InputError) and r.exception.field == "seafarer"
    assert "entra num caso como crew_file (abordo check)" in r.exception.message


def test_norms_with_an_unconfirmed_end_are_not_said_in_force_past_their_successor() -> None:
    # RN 58/2003: norms.md gives its start only; modelled to the eve of RN 72/2006, flagged.
    r = runner.invoke(app, ["norms", "--on", "2026-11-30"])
    line = next(x for x in r.output.splitlines() if x.startswith("│ cnig-rn-58-2003 "))
    assert "10/12/2003 → 09/10/2006 (?)" in line and "cnig-rn-72-2006" in line
    assert "em vigor" not in line
    # RN 81/2008 → RN 22 of 12/12/2017 (norms.md); an end unknown and unconfirmed: "(?)".
    rows = {row["id"]: row for row in json.loads(
        runner.invoke(app, ["norms", "-f", "json", "--on", "2026-11-30"]).output)}
    assert rows["cnig-rn-81-2008"]["in_force_to"] == "2017-12-11"
    assert rows["cnig-rn-22-2017"]["in_force_on_date"] is True
    p210 = next(x for x in r.output.splitlines() if x.startswith("│ mte-portaria-210-1999 "))
    assert p210.rstrip(" │").endswith("em vigor (?)")


def r29_tug_file(tmp_path: Path) -> Path:
    """The input of tests/cases/review29 r29-q03 (a tug that left AJB on 2021-12-01)."""
    case = ROOT / "tests/cases/review29/r29-q03-res42-tug-15-day-absence-restart-day90.yaml"
    path = tmp_path / "tug.yaml"
    path.write_text(yaml.safe_dump(yaml.safe_load(case.read_text(encoding="utf-8"))["input"],
                                   allow_unicode=True), encoding="utf-8")
    return path


def test_plan_and_check_agree_during_a_tolerated_absence(tmp_path: Path) -> None:
    """On 2021-12-10 the tug is 9 days outside AJB: the result is "not applicable", so the
    plan shows the step reached as suspended, never "em vigor"; both faces say until when
    the vessel may come back without restarting the count."""
    tug = r29_tug_file(tmp_path)
    plan_out = runner.invoke(app, ["plan", str(tug), "--on", "2021-12-10"]).output
    check_out = runner.invoke(app, ["check", str(tug), "--on", "2021-12-10"]).output
    (row,) = [line for line in plan_out.splitlines() if "28/08/2021" in line]
    assert "suspensa" in row and "em vigor" not in row
    for out in (plan_out, check_out):
        assert "NÃO APLICÁVEL" in out
        assert "Fora das AJB desde 02/12/2021: a contagem prossegue se a embarcação reentrar " \
            "até 16/12/2021" in " ".join(out.split())
    en = runner.invoke(app, ["plan", str(tug), "--on", "2021-12-10", "--lang", "en"]).output
    (row,) = [line for line in en.splitlines() if "2021-08-28" in line]
    assert "suspended" in row and "in force" not in row
    assert "re-enters by 2021-12-16" in " ".join(en.split())


def test_plan_cells_do_not_read_as_fractions(tmp_path: Path) -> None:
    """Required and Brazilians per group are named in the cell ("exig. 1" over "bras. 1"),
    never a bare "1/1" beside the fraction column ("1/3")."""
    r = runner.invoke(app, ["plan", str(r29_tug_file(tmp_path)), "--on", "2021-12-10"])
    lines = r.output.splitlines()
    i = next(i for i, line in enumerate(lines) if "28/08/2021" in line)
    ratios = re.compile(r"(?<![/\d])\d+/\d+(?![/\d])")
    assert ratios.findall(lines[i]) == ["1/3"]  # the fraction column alone
    assert "exig. 1" in lines[i] and "bras. 1" in lines[i + 1]
    assert "exig. = brasileiros exigidos; bras. = brasileiros a bordo" in r.output
    en = runner.invoke(app, ["plan", str(r29_tug_file(tmp_path)), "--on", "2021-12-10",
                             "--lang", "en"]).output
    assert "req. 1" in en and "Braz. 1" in en


REB_CREW = [{"id": "B01", "rank": "Master", "nationality": "BR"},
            {"id": "B02", "rank": "Chief Engineer", "nationality": "BR"},
            *({"id": f"B0{i}", "rank": rank, "nationality": "PH"}
              for i, rank in enumerate(("Chief Officer", "AB", "AB", "Oiler", "Oiler", "Cook"),
                                       start=3))]


def reb_file(tmp_path: Path, crew: list[dict[str, str]]) -> Path:
    """A REB coastal vessel in AJB since 2018 with ``crew``."""
    path = tmp_path / "reb.yaml"
    path.write_text(yaml.safe_dump({
        "vessel": {"name": "Costa REB", "flag": "BR", "registry": "REB",
                   "activity": "cabotage"},
        "operation": {"contract": "none", "ajb_presence": [{"entry": "2018-01-01",
                                                            "exit": None}]},
        "crew": crew}, allow_unicode=True), encoding="utf-8")
    return path


def check_said(path: Path, on: str, *more: str) -> str:
    """``abordo check PATH --on ON …``'s output on one line (the terminal's wraps undone)."""
    return " ".join(runner.invoke(app, ["check", str(path), "--on", on, *more]).output.split())


def check_html(path: Path, on: str, out: Path) -> str:
    """``abordo check PATH --on ON -f html -o OUT``'s page on one line."""
    runner.invoke(app, ["check", str(path), "--on", on, "-f", "html", "-o", str(out)])
    return " ".join(out.read_text(encoding="utf-8").split())


def test_a_reb_report_states_its_rule_in_the_body(tmp_path: Path) -> None:
    """Lei 9.432/1997 art. 11, § 6º: in the REB only the master and the chief engineer must
    be Brazilian, with no proportion. A compliant REB with six foreigners of eight says so in
    a "Regra aplicável" line of the body (text and HTML), not only in the citations."""
    path = reb_file(tmp_path, REB_CREW)
    r = runner.invoke(app, ["check", str(path), "--on", "2025-04-22"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "Resultado: CONFORME — Lei nº 9.432/1997. Norma aplicada: Lei nº 9.432/1997 " \
        "(lei-9432-1997) Regra aplicável: apenas o comandante e o chefe de máquinas devem " \
        "ser brasileiros; não há proporção mínima de brasileiros na tripulação — Lei nº " \
        "9.432/1997, art. 11, § 6º ✓ comandante: B01 BR ✓ chefe de máquinas: B02 BR" in text
    en = check_said(path, "2025-04-22", "--lang", "en")
    assert "Applicable rule: only the master and the chief engineer must be Brazilian; " \
        "there is no minimum proportion of Brazilians in the crew — Lei nº 9.432/1997, " \
        "art. 11, § 6º" in en
    html = check_html(path, "2025-04-22", tmp_path / "r.html")
    assert "<p>Regra aplicável: apenas o comandante e o chefe de máquinas devem ser " \
        "brasileiros; não há proporção mínima de brasileiros na tripulação — <span " \
        "class=\"muted\">Lei nº 9.432/1997, art. 11, § 6º</span></p>" in html
    data = json.loads(runner.invoke(app, ["check", str(path), "--on", "2025-04-22", "-f",
                                          "json"]).output)["quota"]
    assert data["verdict"] == "compliant" and data["result"]["groups"] == []
    assert data["result"]["rule"]["citation"]["label"] == "Lei nº 9.432/1997, art. 11, § 6º"


def test_a_reb_with_no_master_identified_is_no_clean_compliant_headline(tmp_path: Path
                                                                         ) -> None:
    """No one on a REB list is the master: the verdict stays compliant (crew-quota.md gives
    none other), but the result line says first that the requirement was not verified."""
    crew = [dict(REB_CREW[0], rank="CLC"), *REB_CREW[1:]]
    r = runner.invoke(app, ["check", str(reb_file(tmp_path, crew)), "--on", "2025-04-22"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "Resultado: CONFORME — com ressalva: não verificado o requisito de comandante " \
        "brasileiro (ninguém identificado na lista como comandante; coluna position) — Lei nº " \
        "9.432/1997. Norma aplicada" in text
    assert "(alerta) Nenhuma pessoa identificada como comandante na lista" in text


def case_input_file(tmp_path: Path, case: str) -> Path:
    """The input of a worked case, as ``abordo check`` reads it."""
    path = tmp_path / "vessel.yaml"
    data = yaml.safe_load((ROOT / "tests/cases" / case).read_text(encoding="utf-8"))
    path.write_text(yaml.safe_dump(data["input"], allow_unicode=True), encoding="utf-8")
    return path


R30_CRUISE = "review30/r30-q20-rn71-cruise-leap-february-day30.yaml"


def test_a_cruise_without_contract_names_no_contracting_company(tmp_path: Path) -> None:
    """r30-q20: a cruise ship (RN 71/2006 asks for no contract) with ``contract: none`` is
    one short. IN SIT 70/2007 art. 14 addresses the auto to the Brazilian company that
    contracted the foreign vessel and crew-quota.md names no other: none was given, so the
    consequence says the offender is to be identified instead of naming "a empresa
    brasileira contratante" as if there were one."""
    path = case_input_file(tmp_path, R30_CRUISE)
    r = runner.invoke(app, ["check", str(path), "--on", "2016-03-02"])
    assert r.exit_code == 1, r.output
    text = " ".join(r.output.split())
    assert "Consequências: Auto de infração por infração ao art. 444 da CLT (ementa " \
        "001139-8): a IN SIT 70/2007, art. 14, o dirige à empresa brasileira contratante da " \
        "embarcação estrangeira, mas nenhum contrato nem empresa contratante foi informado — " \
        "identifique a autuada antes de lavrar o auto. [CLT, art. 444; IN SIT nº 70/2007, " \
        "art. 14]" in text
    assert "Lavrar auto de infração contra a empresa brasileira contratante" not in text
    en = check_said(path, "2016-03-02", "--lang", "en")
    assert "but no contract or contracting company was given — identify the offender " \
        "before issuing it." in en
    # a contract given, its company unnamed: the company exists, named by its role
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["operation"]["contract"] = "services"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    text = check_said(path, "2016-03-02")
    assert "Consequências: Lavrar auto de infração contra a empresa brasileira contratante " \
        "por infração ao art. 444 da CLT (ementa 001139-8)." in text


def test_a_cruise_step_is_told_as_more_than_30_days_from_the_31st_day(tmp_path: Path) -> None:
    """RN 71/2006 (IN SIT 70/2007 art. 13, VI, b): "há mais de 30 (trinta) dias" — applied
    from start + 30 days, the 31st day of the stay (crew-quota.md §F). r30-q20: in AJB since
    01/02/2016, the step binds on 02/03/2016 (30 full days, the 31st day): said in those
    words, not "a partir do dia 30" beside "30 dias de operação"."""
    path = case_input_file(tmp_path, R30_CRUISE)
    text = check_said(path, "2016-03-02")
    assert "Estada em AJB: desde 01/02/2016, 30 dias de operação [Código Civil, art. 132] " \
        "Etapa em vigor: 1/4 (mais de 30 dias em AJB, a partir do 31º dia da estada) desde " \
        "02/03/2016 — RN CNIg nº 71/2006, art. 7º" in text
    assert "a partir do dia 30" not in text
    en = check_said(path, "2016-03-02", "--lang", "en")
    assert "Step in force: 1/4 (more than 30 days in AJB, from the 31st day of the stay) " \
        "since 2016-03-02" in en
    html = check_html(path, "2016-03-02", tmp_path / "r.html")
    assert "Etapa em vigor: <strong>1/4</strong> (mais de 30 dias em AJB, a partir do 31º dia " \
        "da estada), desde 02/03/2016" in html
    # a step "from N days" keeps its wording
    psv = check_said(ROOT / "examples/psv-atlantic-provider.yaml", "2026-11-30")
    assert "(a partir de 180 dias) desde 16/11/2026" in psv


def test_the_plan_names_each_step_by_its_threshold_not_a_calendar_day(tmp_path: Path) -> None:
    """The plan's step column says "90 dias" — 90 days of operation, reached on start + 90,
    the 91st calendar day of the stay — and, for RN 71/2006's cruise step, the norm's "mais
    de 30 dias"; "a partir do dia 30" would read as the 30th day of the stay."""
    def plan_rows(path: Path, on: str, *more: str) -> list[str]:
        out = runner.invoke(app, ["plan", str(path), "--on", on, *more]).output
        return [line for line in out.splitlines() if re.match(r"│ (\d\d/|\d{4}-)", line)]
    cruise = plan_rows(case_input_file(tmp_path, R30_CRUISE), "2016-03-02")
    assert len(cruise) == 1 and "mais de 30 dias" in cruise[0] and "02/03/2016" in cruise[0]
    psv = ROOT / "examples/psv-atlantic-provider.yaml"
    cells = [[c.strip() for c in row.split("│")[1:4]] for row in plan_rows(psv, "2026-06-01")]
    assert cells == [["18/08/2026", "90 dias", "1/3"], ["16/11/2026", "180 dias", "1/2"],
                     ["15/05/2027", "360 dias", "2/3"]]
    en = plan_rows(psv, "2026-06-01", "--lang", "en")
    assert next([c.strip() for c in row.split("│")[1:3]] for row in en) == \
        ["2026-08-18", "90 days"]


@pytest.mark.parametrize(("command", "example", "said"), [
    ("check", "bulk-mar-de-minas.yaml", "Mar de Minas"),
    ("fine", "fines/rest-interval.yaml", "Multa de R$ 19.320,00"),
    ("sea-time", "sea-time/seafarer-2on-promotion.yaml", "528 dias de embarque computáveis"),
])
def test_an_input_piped_through_dev_stdin_is_read_once(command: str, example: str,
                                                        said: str) -> None:
    """``… | abordo check /dev/stdin``: a pipe is read once, by the reader — peeking at its
    first bytes for a spreadsheet's signature had emptied it ("arquivo vazio"); sea-time
    took a name without an extension for an unsupported format."""
    text = (ROOT / "examples" / example).read_text(encoding="utf-8")
    r = subprocess.run([sys.executable, "-c", "from abordo.faces.cli.main import run; run()",
                        command, "/dev/stdin", *(["--on", "2026-11-30"] if command == "check"
                                                 else [])],
                       input=text, capture_output=True, text=True, check=False)
    assert said in " ".join(r.stdout.split()), r.stderr
    assert "vazio" not in r.stderr and "não suportado" not in r.stderr

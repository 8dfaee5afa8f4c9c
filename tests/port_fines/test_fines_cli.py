"""``abordo fine`` through Typer's CliRunner on the real application."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from abordo.faces.cli.main import app, run
from abordo.law.errors import InputError

runner = CliRunner()

F01 = {"infraction": {"provision": "lei-9719/art-8", "date": "2005-06-10", "nature": 3,
                      "extent": "severe", "intent": False, "workers": 12}}
EXAMPLE = Path(__file__).parents[2] / "examples" / "fines" / "rest-interval.yaml"


@pytest.fixture
def f01_file(tmp_path: Path) -> Path:
    path = tmp_path / "f01.yaml"
    path.write_text(yaml.safe_dump(F01), encoding="utf-8")
    return path


def test_file_form_text(f01_file: Path) -> None:
    result = runner.invoke(app, ["fine", str(f01_file), "--lang", "pt"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "R$ 37.260,00" in out
    assert "Eg+Is" in out
    assert "R$ 3.105,00 × 12" in out
    assert "Lei nº 9.719/1998, art. 8º" in out
    assert "FUNDAMENTAÇÃO DA GRADAÇÃO DA MULTA" in out
    assert "fines.cell.ceiling_default" in out


def test_json_file_form(tmp_path: Path) -> None:
    path = tmp_path / "f01.json"
    path.write_text(json.dumps(F01), encoding="utf-8")
    result = runner.invoke(app, ["fine", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == "computed"
    assert data["result"]["amount"] == "37260.00"
    assert data["result"]["range"] == ["345.00", "3105.00"]


def test_flag_form_with_prior_and_english() -> None:
    result = runner.invoke(app, [
        "fine", "--provision", "lei-9719/art-7/caput", "--date", "10/06/2005", "--nature", "2",
        "--extent", "medium", "--intent", "--prior", "lei-9719/art-7/caput:2004-03-01",
        "--prior", "lei-9719/art-8:2005-01-15", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "R$2,422.00" in result.output
    assert "recidivism" in result.output


def test_flag_form_corrected_and_chosen_value() -> None:
    result = runner.invoke(app, [
        "fine", "--provision", "lei-8630/art-45", "--date", "2008-09-02", "--nature", "1",
        "--extent", "grave", "--intent", "--workers", "5", "--sanable", "--corrected",
        "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["result"]["amount"] == "1725.00"
    result = runner.invoke(app, [
        "fine", "--provision", "lei-9719/art-8", "--date", "2005-06-10", "--nature", "3",
        "--extent", "severe", "--no-intent", "--workers", "2", "--chosen-value", "2.000,00",
        "--reason", "primeira infração", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["result"]["amount"] == "4000.00"


def test_option_minimum_final() -> None:
    args = ["fine", "--provision", "lei-9719/art-8", "--date", "2005-06-10", "--nature", "3",
            "--extent", "severe", "--no-intent", "--workers", "1", "--sanable", "--corrected",
            "--obstruction", "--format", "json"]
    default = json.loads(runner.invoke(app, args).output)
    final = json.loads(runner.invoke(app, [*args, "--option", "fines=minimum.final"]).output)
    assert default["result"]["amount"] == "690.00"
    assert final["result"]["amount"] == "345.00"
    # the other spellings grade() and the API accept, on the command line too
    for spelling in ("fines.minimum=final", "fines=fines.minimum.final"):
        same = runner.invoke(app, [*args, "--option", spelling])
        assert same.exit_code == 0, same.output
        assert json.loads(same.output)["result"]["amount"] == "345.00"


def test_html_to_file(f01_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "fine.html"
    result = runner.invoke(app, ["fine", str(f01_file), "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>")
    assert "R$ 37.260,00" in html
    assert "Eg+Is" in html
    assert "fines.cell.ceiling_default" in html
    assert "FUNDAMENTAÇÃO DA GRADAÇÃO DA MULTA" in html
    assert not (tmp_path / "fine.html.tmp").exists()


def test_list_catalogue() -> None:
    result = runner.invoke(app, ["fine", "--list"])
    assert result.exit_code == 0, result.output
    assert "lei-9719/art-9/safety" in result.output
    assert "575,00–5.750,00" in result.output
    data = json.loads(runner.invoke(app, ["fine", "--list", "--format", "json"]).output)
    assert len(data) == 25
    assert data[0]["min"] == "345.00"


def test_not_covered_exits_zero_and_says_so() -> None:
    result = runner.invoke(app, [
        "fine", "--provision", "lei-9719/art-8", "--date", "2015-03-01", "--nature", "1",
        "--extent", "light", "--no-intent", "--workers", "2", "--lang", "pt"])
    assert result.exit_code == 0, result.output
    assert "NÃO COBERTO" in result.output
    assert "Portaria MTE nº 112" in result.output


def test_bad_file_input_names_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    bad = {"infraction": {k: v for k, v in F01["infraction"].items() if k != "nature"}}
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    result = runner.invoke(app, ["fine", str(path)])
    assert isinstance(result.exception, InputError)
    assert result.exception.field == "infraction.nature"
    assert result.exception.file == str(path)


def test_flag_errors_name_the_flag() -> None:
    result = runner.invoke(app, ["fine", "--provision", "lei-9719/art-8", "--date",
                                 "2005-06-10", "--nature", "3", "--extent", "severe",
                                 "--no-intent"])
    assert isinstance(result.exception, InputError)
    assert result.exception.field == "--workers"
    result = runner.invoke(app, ["fine", "--provision", "lei-9719/art-8", "--date",
                                 "2005-06-10", "--nature", "3", "--extent", "severe",
                                 "--no-intent", "--workers", "1", "--prior", "nonsense"])
    assert isinstance(result.exception, InputError)
    assert result.exception.field == "--prior"
    result = runner.invoke(app, ["fine", "--provision", "lei-9719/art-8", "--date", "ontem"])
    assert isinstance(result.exception, InputError)
    assert result.exception.field == "--date"


def test_file_and_flags_together_is_an_error(f01_file: Path) -> None:
    result = runner.invoke(app, ["fine", str(f01_file), "--workers", "3"])
    assert isinstance(result.exception, InputError)
    assert result.exception.field == "--workers"


def test_nothing_given_is_an_error() -> None:
    result = runner.invoke(app, ["fine"])
    assert isinstance(result.exception, InputError)


def test_entry_point_exit_code_2(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", [
        "abordo", "fine", "--provision", "lei-9719/art-99", "--date", "2005-06-10",
        "--nature", "3", "--extent", "severe", "--no-intent", "--workers", "1"])
    with pytest.raises(SystemExit) as info:
        run()
    assert info.value.code == 2
    assert "--provision" in capsys.readouterr().err


def test_shipped_example_runs() -> None:
    result = runner.invoke(app, ["fine", str(EXAMPLE), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == "computed"
    # Em+Ic, nature 3: 8 × 345,00 = 2.760,00 per worker × 7; the 2006 penalty is out of
    # the window (ended 08/11/2008) and the 2008 one is on another provision.
    assert data["result"]["cell"] == "Em+Ic"
    assert data["result"]["doubled"] is False
    assert data["result"]["amount"] == "19320.00"


def test_impossible_date_in_the_file_names_its_line_not_a_traceback(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace("date: 2009-03-17 ", "date: 2009-02-30 ")
    (tmp_path / "f.yaml").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["fine", str(tmp_path / "f.yaml")])
    err = result.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row, err.field) == (str(tmp_path / "f.yaml"), 12, "infraction.date")
    assert err.message == "data inválida (use AAAA-MM-DD ou dd/mm/aaaa) (recebido: '2009-02-30')"


def test_dates_written_dd_mm_aaaa_in_the_file(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace("date: 2009-03-17 ", "date: 17/03/2009 ")
    (tmp_path / "f.yaml").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["fine", str(tmp_path / "f.yaml")])
    assert result.exit_code == 0, result.output
    assert "R$ 19.320,00" in result.output


def test_a_folder_instead_of_the_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["fine", str(tmp_path)])
    assert isinstance(result.exception, InputError)
    assert result.exception.message == f"é uma pasta, não um arquivo: {tmp_path}"


def test_html_report_ends_with_the_norms_and_interpretations(tmp_path: Path) -> None:
    out = tmp_path / "multa.html"
    result = runner.invoke(app, ["fine", str(EXAMPLE), "-f", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    trace, basis, interp = (html.index(h) for h in ("Como se chegou ao resultado",
                                                    "<h2>Fundamentação legal</h2>",
                                                    "<h2>Interpretações adotadas</h2>"))
    assert trace < basis < interp
    assert "<h2>" not in html[interp + 10:]  # nothing after the interpretations


def test_worker_count_above_the_maximum_says_the_limit_in_portuguese() -> None:
    result = runner.invoke(app, ["fine", "--provision", "lei-9719/art-8", "--date",
                                 "2005-06-10", "--nature", "3", "--extent", "severe",
                                 "--no-intent", "--workers", "1000000000"])
    err = result.exception
    assert isinstance(err, InputError) and err.field == "--workers"
    assert err.message == "valor acima do máximo (≤ 1000000) (recebido: 1000000000)"
    assert err.message_en == "value above the maximum (≤ 1000000) (got 1000000000)"


def test_future_infraction_date_is_refused_not_worded_in_the_past() -> None:
    # Was graded not_covered, "em 01/01/2099 vigorava Portaria MTP nº 667/2021".
    result = runner.invoke(app, ["fine", "--provision", "lei-9719/art-8", "--date",
                                 "2099-01-01", "--nature", "1", "--extent", "light",
                                 "--no-intent", "--workers", "1"])
    err = result.exception
    assert isinstance(err, InputError) and err.field == "--date"
    assert err.message.startswith("data da infração (01/01/2099) posterior à data da "
                                  "gradação (")
    assert "vigorava" not in result.output


def test_prior_penalty_imposed_in_the_future_names_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {**F01, "offender": {"prior_penalties": [
        {"provision": "lei-9719/art-8", "imposed_on": "2004-03-01"},
        {"provision": "lei-9719/art-8", "imposed_on": "2096-11-08"}]}}
    path = tmp_path / "f.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["abordo", "fine", str(path)])
    with pytest.raises(SystemExit) as info:
        run()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "linha 13, campo offender.prior_penalties[1].imposed_on: penalidade imposta em " \
           "08/11/2096, depois da data da gradação" in err, err


def test_flag_form_lists_every_bad_flag_at_once() -> None:
    result = runner.invoke(app, ["fine", "--provision", "lei-9719/art-8", "--date", "2009-13-10",
                                 "--nature", "9", "--extent", "medio", "--intent",
                                 "--workers", "0", "--prior", "x:2001-02-30"])
    err = result.exception  # (the entry point turns it into exit code 2)
    assert isinstance(err, InputError)
    assert [e.field for e in (err, *err.details)] == [
        "--date", "--prior", "--nature", "--extent", "--workers"]
    assert err.message == "data inválida '2009-13-10'; use AAAA-MM-DD ou dd/mm/aaaa"


FLAGS = ["fine", "--provision", "lei-9719/art-8", "--date", "2009-03-17", "--nature", "3",
         "--extent", "medium", "--intent", "--workers", "2", "--reason", "x"]


@pytest.mark.timeout(30)
def test_a_huge_chosen_value_is_refused_at_once_by_flag_and_by_file(tmp_path: Path) -> None:
    result = runner.invoke(app, [*FLAGS, "--chosen-value", "1e999999999"])
    assert isinstance(result.exception, InputError)
    assert result.exception.field == "--chosen-value"
    assert result.exception.message == ("número grande demais (máximo 15 algarismos antes da "
                                        "vírgula) (recebido: '1e999999999')")
    path = tmp_path / "fine.yaml"
    path.write_text("infraction: {provision: lei-9719/art-8, date: 2009-03-17, nature: 3, "
                    "extent: medium, intent: true, workers: 2}\n"
                    "grading: {chosen_value: \"1e10000000\", reason: x}\n", encoding="utf-8")
    result = runner.invoke(app, ["fine", str(path)])
    assert isinstance(result.exception, InputError)
    assert (result.exception.field, result.exception.row) == ("grading.chosen_value", 2)
    assert len(result.exception.render()) < 300


def test_a_chosen_value_reads_the_same_by_flag_as_in_a_file() -> None:
    # The flag was once converted twice: "2,500" became 2.500 and then R$ 2.500,00.
    result = runner.invoke(app, [*FLAGS, "--chosen-value", "2,500"])
    assert isinstance(result.exception, InputError)
    assert result.exception.field == "--chosen-value"
    assert "valor ambíguo '2,500'" in result.exception.message
    for written in ("2.500,00", "2500,00", "2500.00", "R$ 2.500,00"):
        result = runner.invoke(app, [*FLAGS, "--chosen-value", written, "--format", "json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["result"]["amount"] == "5000.00", written

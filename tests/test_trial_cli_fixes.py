"""Defects a new user met on a first trial of the commands (each test names the old output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from abordo.crew.load import load_vessel_case
from abordo.faces.cli.main import app
from abordo.law.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
FINE = ROOT / "examples/fines/rest-interval.yaml"
runner = CliRunner()


def _fine_with(tmp_path: Path, old: str, new: str) -> Path:
    text = FINE.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "fine.yaml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


# --- yes/no fields, unknown keys, entry means -----------------------------------------------

@pytest.mark.parametrize(("word", "intent", "amount"), [
    ("sim", True, "19320.00"), ("Não", False, "14490.00"), ("nao", False, "14490.00"),
    ("yes", True, "19320.00"), ("off", False, "14490.00"), ("1", True, "19320.00"),
])
def test_a_yes_no_field_takes_portuguese_words_as_sheets_do(
        tmp_path: Path, word: str, intent: bool, amount: str) -> None:
    # Was "valor lógico inválido (use true/false) (recebido: 'sim')".
    p = _fine_with(tmp_path, "  intent: true ", f"  intent: {word} ")
    r = runner.invoke(app, ["fine", str(p), "-f", "json"])
    assert r.exit_code == 0, r.output
    result = json.loads(r.output)["result"]
    assert (result["intent"], result["amount"]) == (intent, amount)


def test_a_word_that_is_no_yes_no_is_refused_with_every_word_accepted(tmp_path: Path) -> None:
    # Was "(use true/false)", though yes/no and on/off were read too.
    p = _fine_with(tmp_path, "  intent: true ", "  intent: talvez ")
    r = runner.invoke(app, ["fine", str(p)])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row, err.field) == (str(p), 15, "infraction.intent")
    assert err.message == ("valor lógico inválido (use true/false, yes/no, on/off, sim/não ou "
                           "1/0) (recebido: 'talvez')")
    assert err.message_en == ("invalid boolean (use true/false, yes/no, on/off, sim/não or 1/0)"
                              " (got 'talvez')")


def test_an_unknown_key_quotes_its_value_as_yaml_writes_it(tmp_path: Path) -> None:
    # Was "campo desconhecido (recebido: True)": Python's spelling, not the file's.
    p = _fine_with(tmp_path, "  obstruction: false", "  obstrucao: true")
    r = runner.invoke(app, ["fine", str(p)])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.row, err.field) == (19, "infraction.obstrucao")
    assert err.message == "campo desconhecido (recebido: true)"
    assert err.message_en == "unknown field (got true)"


CASE_HEAD = ("vessel: {flag: NO, activity: offshore_support}\n"
             "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n")


def test_an_entry_by_sea_or_air_takes_its_portuguese_words(tmp_path: Path) -> None:
    # Was "valor não permitido; esperado um de: 'sea' ou 'air' (recebido: 'mar')", though
    # department and level take their Portuguese values.
    p = tmp_path / "v.yaml"
    p.write_text(CASE_HEAD + "crew:\n"
                 "  - {id: C1, rank: AB, nationality: PH, entries: [{date: 2026-01-01, by: mar}]}\n"
                 "  - {id: C2, rank: AB, nationality: PH,"
                 " entries: [{date: 2026-01-02, by: Aéreo}]}\n", encoding="utf-8")
    case = load_vessel_case(p)
    assert [c.entries[0].by for c in case.crew_list] == ["sea", "air"]
    (tmp_path / "crew.csv").write_text(
        "id,rank,nationality,entry_date,entry_by\nA1,AB,PH,2026-02-01,via marítima\n"
        "A2,AB,PH,2026-02-01,ar\n", encoding="utf-8")
    p.write_text(CASE_HEAD + "crew_file: crew.csv\n", encoding="utf-8")
    assert [c.entries[0].by for c in load_vessel_case(p).crew_list] == ["sea", "air"]


def test_an_entry_by_anything_else_is_still_refused(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text(CASE_HEAD + "crew: [{id: C1, rank: AB, nationality: PH,"
                 " entries: [{date: 2026-01-01, by: navio}]}]\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    assert (err.value.row, err.value.field) == (3, "crew[0].entries[0].by")
    assert err.value.message == ("valor não permitido; esperado um de: 'sea' ou 'air' "
                                 "(recebido: 'navio')")


def test_keep_personal_data_sim_keeps_names_as_the_model_reads_it(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text(CASE_HEAD + "keep_personal_data: sim\n"
                 "crew: [{id: C01, rank: AB, nationality: NO, name: Maria Silva}]\n",
                 encoding="utf-8")
    case = load_vessel_case(p)
    assert case.keep_personal_data is True
    assert case.crew_list[0].name == "Maria Silva"

"""A control character or a mark overriding the text's direction in a text field of an
engine's input (a vessel's or a person's name, a rank, a company, a provision…) is refused
naming the field: shown as nothing, it can disguise what a report or a document says. The
value itself is not repeated in the message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from abordo.crew.load import load_vessel_case, read_crew_list
from abordo.faces.cli.main import app
from abordo.law.errors import InputError
from abordo.law.validation import hidden_character

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
TAIL_PT = "não permitido, pode disfarçar o que o documento mostra (apague-o)"
RLO_PT = ("marca de direção do texto U+202E (invisível: muda a ordem em que o texto aparece) "
          f"na posição {{at}} do texto: {TAIL_PT}")
BEL_PT = f"caractere de controle U+0007 (invisível) na posição {{at}} do texto: {TAIL_PT}"


@pytest.mark.parametrize(("text", "code"), [
    ("A\x00B", "U+0000"), ("A\x07B", "U+0007"), ("A\x1bB", "U+001B"), ("A\x7fB", "U+007F"),
    ("A\x85B", "U+0085"), ("A\rB", "U+000D"), ("A\r", "U+000D"), ("A\u202aB", "U+202A"),
    ("A\u202eB", "U+202E"), ("A\u2066B", "U+2066"), ("A\u2069B", "U+2069"),
])
def test_each_hidden_character_is_named(text: str, code: str) -> None:
    said = hidden_character(text)
    assert said is not None and f"{code} (invisível" in said[0] and "na posição 2 " in said[0]
    assert f"{code} (invisible" in said[1] and "at position 2 " in said[1]


@pytest.mark.parametrize("text", ["Navegação São João", "A\tB", "linha 1\nlinha 2",
                                  "linha 1\r\nlinha 2", "Ñandú ‘x’ — 2º", "نور"])
def test_visible_text_tabs_and_line_breaks_pass(text: str) -> None:
    assert hidden_character(text) is None


def test_a_vessel_case_names_the_field_and_its_line(tmp_path: Path) -> None:
    text = (ROOT / "examples/tanker-coastal-spirit.yaml").read_text(encoding="utf-8")
    path = tmp_path / "case.yaml"
    # an escape in double quotes: YAML's reader lets it through, the model does not
    path.write_text(text.replace("name: Coastal Spirit", 'name: "Coastal\\u202eSpirit"')
                    .replace("tanker-coastal-spirit-crew.csv",
                             str(ROOT / "examples/tanker-coastal-spirit-crew.csv")),
                    encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_vessel_case(path)
    err = exc.value
    assert (err.file, err.row, err.field) == (str(path), 5, "vessel.name")
    assert err.message == RLO_PT.format(at=8)
    assert err.message_en == (
        "text-direction mark U+202E (invisible: it changes the order the text shows in) at "
        "position 8 of the text: not allowed, it can disguise what the document shows "
        "(delete it)")


def test_an_inline_crew_rank_is_named(tmp_path: Path) -> None:
    path = tmp_path / "case.json"
    path.write_text('{"vessel": {"flag": "NO", "activity": "offshore_support"},\n'
                    ' "operation": {"contract": "charter"},\n'
                    ' "crew": [{"id": "C1", "rank": "Master", "nationality": "NO"},\n'
                    '          {"id": "C2", "rank": "Mas\\u0007ter", "nationality": "PH"}]}',
                    encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_vessel_case(path)
    assert (exc.value.row, exc.value.field) == (4, "crew[1].rank")
    assert exc.value.message == BEL_PT.format(at=4)


def test_a_crew_sheet_names_the_column_and_row(tmp_path: Path) -> None:
    path = tmp_path / "crew.csv"
    path.write_text("id;função;nacionalidade;nome\nT01;Master;GR;Ana\n"
                    "T02;Cook;PH;Jo\u202eão\nT03;Co\x07ok;PH;Rui\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_crew_list(path, "crew.csv", keep_personal_data=True)
    found = [(e.file, e.row, e.field, e.message) for e in (exc.value, *exc.value.details)]
    assert found == [("crew.csv", 3, "nome", RLO_PT.format(at=3)),
                     ("crew.csv", 4, "função", BEL_PT.format(at=3))]


def test_a_sea_time_sheet_and_workbook_name_the_field(tmp_path: Path) -> None:
    (tmp_path / "cir.csv").write_text("vessel;embark;disembark;function;company\n"
                                      "Navio\u202e A;01/03/2024;10/03/2024;2ON;C\n",
                                      encoding="utf-8")
    (tmp_path / "in.yaml").write_text(
        "seafarer: {id: X, group: maritime, department: deck, category: 2ON}\n"
        "purpose: promotion\ncir_file: cir.csv\n", encoding="utf-8")
    r = runner.invoke(app, ["sea-time", str(tmp_path / "in.yaml"), "--on", "2026-02-02"])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row, err.field, err.message) == ("cir.csv", 2, "vessel",
                                                           RLO_PT.format(at=6))
    book = tmp_path / "book.xlsx"
    shutil.copy(ROOT / "examples/sea-time/seafarer-2on-promotion.xlsx", book)
    wb = load_workbook(book)
    row = next(r for r in wb["seafarer"].iter_rows() if r[0].value == "id")
    row[1].value = "AQ\u202e1"
    wb.save(book)
    r = runner.invoke(app, ["sea-time", str(book), "--on", "2026-02-02"])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row, err.field, err.message) == (
        "book.xlsx[seafarer]", row[0].row, "seafarer.id", RLO_PT.format(at=3))


def test_a_fine_input_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "fine.yaml"
    path.write_text('infraction:\n  provision: "lei-9719/art-8\\a"\n', encoding="utf-8")
    r = runner.invoke(app, ["fine", str(path)])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.row, err.field, err.message) == (2, "infraction.provision",
                                                 BEL_PT.format(at=15))


def test_a_fleet_table_names_the_column_and_row(tmp_path: Path) -> None:
    fleet = tmp_path / "fleet"
    shutil.copytree(ROOT / "examples/fleet", fleet)
    lines = (fleet / "vessels.csv").read_text(encoding="utf-8").split("\n")
    lines[2] = lines[2].replace("Southern Tern", "Southern\u202eTern")
    (fleet / "vessels.csv").write_text("\n".join(lines), encoding="utf-8")
    r = runner.invoke(app, ["screen", str(fleet), "--on", "2026-11-30"])
    assert r.exit_code == 2
    assert r.output.strip() == (
        f"erro de entrada: arquivo {fleet / 'vessels.csv'}, linha 3, campo name: texto com um "
        "caractere invisível (de controle, ou marca de direção do texto): não permitido, pode "
        "disfarçar o que o documento mostra (apague-o) (recebido: 'Southern\\u202eTern')")

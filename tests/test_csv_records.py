"""One reader of CSV records (abordo.law.csvfile) for every CSV input: a quote opened and
never closed — which swallowed the rest of the file into one cell — is refused naming the
file and the line it opened on, in crew lists, sea-time sheets and fleet tables alike."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from abordo.crew.load import read_crew_list
from abordo.faces.cli.main import app
from abordo.law.csvfile import csv_records
from abordo.law.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
UNCLOSED = ('aspas (") abertas e não fechadas nesta linha: o resto do arquivo seria lido '
            "como um só campo")
MISPLACED = ('aspas (") mal colocadas nesta linha: um campo entre aspas deve terminar no '
             "separador")


def test_records_are_numbered_by_the_line_they_start_on() -> None:
    text = 'id;rank\n\nC1;"Chief\nOfficer"\nC2;AB\n'
    assert list(csv_records(io.StringIO(text, newline=""), ";", "c.csv")) == [
        (1, ["id", "rank"]), (2, []), (3, ["C1", "Chief\nOfficer"]), (5, ["C2", "AB"])]


def test_a_crew_list_with_a_quote_never_closed(tmp_path: Path) -> None:
    # Was "linha 3, campo nacionalidade: campo obrigatório ausente": lines 3 to 5 read as
    # one cell, two persons gone.
    path = tmp_path / "crew.csv"
    path.write_text('id;função;nacionalidade\nT01;Master;GR\nT02;"Cook;PH\nT03;Cook;PH\n'
                    "T04;Cook;BR\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_crew_list(path, "crew.csv")
    assert (exc.value.file, exc.value.row, exc.value.field) == ("crew.csv", 3, None)
    assert exc.value.message == UNCLOSED
    assert exc.value.message_en == ('a quote (") opened and never closed on this row: the '
                                    "rest of the file would read as one field")


def test_a_crew_list_with_a_misplaced_quote(tmp_path: Path) -> None:
    # Was read as "Master x": a cell that is not what the sheet shows, taken in silence.
    path = tmp_path / "crew.csv"
    path.write_text('id,rank,nationality\nT01,"Master" x,GR\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_crew_list(path, "crew.csv")
    assert (exc.value.file, exc.value.row, exc.value.message) == ("crew.csv", 2, MISPLACED)


def test_a_crew_row_after_a_cell_on_two_lines_is_named_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "crew.csv"
    path.write_text('id,rank,nationality\nT01,"Chief\nOfficer",GR\nT02,AB,ZZ\n',
                    encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_crew_list(path, "crew.csv")
    assert (exc.value.row, exc.value.field) == (4, "nationality")


def test_a_sea_time_sheet_with_a_quote_never_closed(tmp_path: Path) -> None:
    for name in ("seafarer-2on-promotion-csv.yaml", "declaracoes.csv"):
        shutil.copy(ROOT / "examples/sea-time" / name, tmp_path / name)
    lines = (ROOT / "examples/sea-time/cir.csv").read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b"Norsul", b'"Norsul')
    (tmp_path / "cir.csv").write_bytes(b"\n".join(lines))
    r = runner.invoke(app, ["sea-time", str(tmp_path / "seafarer-2on-promotion-csv.yaml"),
                            "--on", "2026-02-02"])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row, err.field, err.message) == ("cir.csv", 3, None, UNCLOSED)


@pytest.mark.parametrize("table", ["vessels.csv", "crew.csv"])
def test_a_fleet_table_with_a_quote_never_closed(tmp_path: Path, table: str) -> None:
    fleet = tmp_path / "fleet"
    shutil.copytree(ROOT / "examples/fleet", fleet)
    lines = (fleet / table).read_bytes().split(b"\n")
    lines[3] = b'"' + lines[3]
    (fleet / table).write_bytes(b"\n".join(lines))
    r = runner.invoke(app, ["screen", str(fleet), "--on", "2026-11-30"])
    assert r.exit_code == 2
    assert r.output.strip() == f"erro de entrada: arquivo {fleet / table}, linha 4: {UNCLOSED}"


def test_no_other_csv_record_reader() -> None:
    src = ROOT / "src/abordo"
    readers = sorted(str(p.relative_to(src)) for p in src.rglob("*.py")
                     if re.search(r"\bcsv\.(reader|DictReader)\(", p.read_text(encoding="utf-8")))
    assert readers == ["law/csvfile.py"]

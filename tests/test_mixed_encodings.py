"""A text input mixing UTF-8 lines and Windows-1252 lines is refused at the first line whose
encoding differs (abordo.law.documents.decode): read in either encoding, the other lines'
names would be garbled in silence. Files in one encoding read as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from abordo.crew.load import load_vessel_case, read_crew_list
from abordo.faces.cli.main import app
from abordo.law.documents import decode
from abordo.law.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

HEADER = "id;função;nacionalidade;nome\n"
JOAO_UTF8 = "T01;Master;GR;João\n".encode()
CONCEICAO_1252 = "T02;Cook;PH;Conceição\n".encode("cp1252")
PT_TAIL = ("codificação misturada: esta linha está em {this}, mas a linha {first} está em "
           "{that} — os acentos de uma delas seriam lidos errado; salve o arquivo inteiro "
           "numa só codificação, UTF-8 (no Excel: «CSV UTF-8»)")
UTF8, ANSI = "UTF-8", "Windows-1252 (ANSI/Latin-1)"


@pytest.mark.parametrize(("content", "row", "this", "first", "that"), [
    # the header in UTF-8 ("função"), a name in Windows-1252 on line 3
    (HEADER.encode() + b"T00;AB;BR;Ana\n" + CONCEICAO_1252 + JOAO_UTF8, 3, ANSI, 1, UTF8),
    # the header in Windows-1252, a UTF-8 name on line 3
    (HEADER.encode("cp1252") + CONCEICAO_1252 + JOAO_UTF8, 3, UTF8, 1, ANSI),
    # a UTF-8 mark (BOM) says line 1 is UTF-8; a Windows-1252 name on line 4 contradicts it
    (b"\xef\xbb\xbfid;rank;nationality;name\r\n" + JOAO_UTF8.replace(b"\n", b"\r\n")
     + b"T03;AB;BR;Rui\r\n" + CONCEICAO_1252, 4, ANSI, 1, UTF8),
])
def test_a_crew_sheet_mixing_encodings_is_refused_at_the_line(
        tmp_path: Path, content: bytes, row: int, this: str, first: int, that: str) -> None:
    path = tmp_path / "crew.csv"
    path.write_bytes(content)
    with pytest.raises(InputError) as exc:
        read_crew_list(path, "crew.csv", keep_personal_data=True)
    err = exc.value
    assert (err.file, err.row, err.field) == ("crew.csv", row, None)
    assert err.message == PT_TAIL.format(this=this, first=first, that=that)
    assert err.message_en == (
        f"mixed encodings: this line is in {this}, but line {first} is in {that} — the "
        "accents of one of them would be misread; save the whole file in one encoding, UTF-8 "
        "(in Excel: “CSV UTF-8”)")


@pytest.mark.parametrize("encoding", ["cp1252", "utf-8", "utf-8-sig"])
def test_a_sheet_in_one_encoding_reads_as_before(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "crew.csv"
    path.write_bytes((HEADER + "T01;Master;GR;João\nT02;Cook;PH;Conceição\n").encode(encoding))
    persons, rows = read_crew_list(path, "crew.csv", keep_personal_data=True)
    assert [p["name"] for p in persons] == ["João", "Conceição"] and rows == [2, 3]


def test_a_yaml_case_mixing_encodings_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_bytes("# navio “Mar de Minas”\n".encode("cp1252")
                     + (ROOT / "examples/bulk-mar-de-minas.yaml").read_bytes()
                     + "# São João\n".encode())
    with pytest.raises(InputError) as exc:
        load_vessel_case(path)
    assert exc.value.row is not None and exc.value.row > 1
    assert exc.value.message.startswith(
        f"codificação misturada: esta linha está em UTF-8, mas a linha 1 está em {ANSI}")


def test_a_sea_time_sheet_mixing_encodings_names_its_line(tmp_path: Path) -> None:
    for name in ("seafarer-2on-promotion-csv.yaml", "declaracoes.csv"):
        shutil.copy(ROOT / "examples/sea-time" / name, tmp_path / name)
    lines = (ROOT / "examples/sea-time/cir.csv").read_bytes().split(b"\n")
    lines[1] = lines[1].decode("cp1252").encode()  # "não" in UTF-8 on line 2
    (tmp_path / "cir.csv").write_bytes(b"\n".join(lines))
    r = runner.invoke(app, ["sea-time", str(tmp_path / "seafarer-2on-promotion-csv.yaml"),
                            "--on", "2026-02-02"])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row) == ("cir.csv", 3)
    assert err.message == PT_TAIL.format(this=ANSI, first=2, that=UTF8)


def test_a_fleet_table_mixing_encodings_names_its_line(tmp_path: Path) -> None:
    fleet = tmp_path / "fleet"
    shutil.copytree(ROOT / "examples/fleet", fleet)
    lines = (fleet / "vessels.csv").read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b"Atlantic Provider", "Atlântico".encode())
    lines[2] = lines[2].replace(b"Southern Tern", "Gaivota do Sul".encode("cp1252") + b"\xe7")
    (fleet / "vessels.csv").write_bytes(b"\n".join(lines))
    r = runner.invoke(app, ["screen", str(fleet), "--on", "2026-11-30"])
    assert r.exit_code == 2
    assert r.output.strip() == (f"erro de entrada: arquivo {fleet / 'vessels.csv'}, linha 3: "
                                + PT_TAIL.format(this=ANSI, first=2, that=UTF8))


def test_text_without_utf8_characters_is_windows_1252_at_once() -> None:
    assert decode("São João “x”\n".encode("cp1252"), "f.csv", csv=True) == "São João “x”\n"
    assert decode(b"caf\xe9 \x81\n", "f.csv") == "café \x81\n"  # Latin-1 where 1252 has none

"""Findings of an inspection planner's and a crewing manager's first use of ``abordo
screen`` on their own exports (a Brazilian-locale spreadsheet, Parquet, case files): each one
now a test."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from abordo.batch import screen, write_result
from abordo.law import InputError

ON = dt.date(2026, 6, 1)
VESSELS = "id;bandeira;atividade;contrato;entrada_ajb;ausencias;prorrogacoes\n"
CREW = "embarcacao;id;funcao;nacionalidade\n"


def write(folder: Path, vessels: str, crew: str = CREW + "V1;C1;Master;NO\n") -> Path:
    (folder / "vessels.csv").write_text(VESSELS + vessels, encoding="cp1252")
    (folder / "crew.csv").write_text(crew, encoding="cp1252")
    return folder


@pytest.mark.parametrize("absence", ["2026-02-11/2026-02-19", "11/02/2026 a 19/02/2026",
                                     "11/02/2026-19/02/2026", "11/02/2026/19/02/2026",
                                     "11/2/2026 até 19/2/2026"])
def test_absences_and_extensions_take_the_dates_as_a_brazilian_spreadsheet_writes_them(
        tmp_path: Path, absence: str) -> None:
    # ajb_entry takes dd/mm/aaaa; the absences and extensions of the same row do too.
    # Port support, in AJB since 02/03/2026, out 11–19/02… here 9 days out of a stay from
    # 01/01/2026 (Res. CNIg 42/2020 art. 10: under 15 days the count goes on); its 180-day
    # step postponed to 15/12/2026 (art. 4º, sole paragraph).
    write(tmp_path, f"V1;NO;port_support;charter;01/01/2026;{absence};180:15/12/2026\n")
    row = screen(tmp_path, ON).frame.row(0, named=True)
    assert (row["stay_start"], row["days_of_operation"]) == (dt.date(2026, 1, 1), 151)
    assert (row["next_since"], row["next_extended"]) == (dt.date(2026, 12, 15), True)


@pytest.mark.parametrize(("absence", "extension"), [("11/02/26 a 19/02/26", ""),
                                                    ("11/02/2026", ""),
                                                    ("", "180:15/12/26")])
def test_a_brazilian_date_still_needs_its_full_year_and_both_days(
        tmp_path: Path, absence: str, extension: str) -> None:
    write(tmp_path, f"V1;NO;port_support;charter;01/01/2026;{absence};{extension}\n")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert exc.value.row == 2
    assert exc.value.field == ("ausencias" if absence else "prorrogacoes")
    assert "dd/mm/aaaa" in exc.value.message


@pytest.mark.parametrize(("absences", "extension", "field"), [
    ("2026-02-11/2026-02-19/2026-03-01/2026-03-20", "", "ausencias"),
    ("", "180:2026-12-15:2027-01-01", "prorrogacoes")])
def test_a_third_part_is_an_error_not_dropped(tmp_path: Path, absences: str, extension: str,
                                             field: str) -> None:
    # Two absences joined by '/' instead of ';' once read as the first one alone: the 20
    # days out in March (Res. CNIg 42/2020 art. 10: 15 or more restart the stay) were lost.
    write(tmp_path, f"V1;NO;port_support;charter;2026-01-01;{absences};{extension}\n")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert (exc.value.row, exc.value.field) == (2, field)
    assert "inválida" in exc.value.message


def test_a_name_excel_would_run_as_a_formula_is_written_as_text(tmp_path: Path) -> None:
    # The --excel CSV is opened by double click: a vessel name from a charterer's list
    # starting with '=' (or '+', '-', '@') would be a formula Excel runs, not a name.
    (tmp_path / "vessels.csv").write_text(
        'id,name,flag,activity,contract,ajb_entry\n'
        '=1+1,"=HYPERLINK(""http://x"";""y"")",NO,offshore_support,charter,2026-01-01\n'
        "V2,-Southern Tern,NO,offshore_support,charter,2026-01-01\n"
        "V3,@Sea,NO,offshore_support,charter,2026-01-01\n", encoding="utf-8")
    (tmp_path / "crew.csv").write_text("vessel_id,rank,nationality\n=1+1,Master,NO\n"
                                       "V2,Master,NO\nV3,Master,NO\n", encoding="utf-8")
    out = tmp_path / "r.csv"
    write_result(screen(tmp_path, ON).frame, out, excel=True)
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines(), delimiter=";"))
    named = {r[1]: r[2] for r in rows[1:]}
    assert named == {'="=1+1"': '="=HYPERLINK(""http://x"";""y"")"',
                     "V2": '="-Southern Tern"', "V3": '="@Sea"'}


@pytest.mark.parametrize(("content", "said"), [
    (b"PK\x03\x04 a workbook", "não é um arquivo Parquet: é um arquivo compactado (uma "
     "planilha XLSX/ODS com outra extensão?"),
    ("vessel_id;nacionalidade\nV1;NO\n".encode("cp1252"),
     "não é um arquivo Parquet: é texto (um CSV? dê-lhe a extensão .csv: crew.csv)"),
    (b"PAR1\x00\x01 cut short", "arquivo Parquet ilegível (corrompido ou incompleto; "
     "o leitor diz: ")])
def test_a_file_named_parquet_that_is_not_says_what_it_is_in_portuguese(
        tmp_path: Path, content: bytes, said: str) -> None:
    write(tmp_path, "V1;NO;port_support;charter;2026-01-01;;\n")
    (tmp_path / "crew.csv").unlink()
    (tmp_path / "crew.parquet").write_bytes(content)
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert exc.value.file == str(tmp_path / "crew.parquet")
    assert exc.value.message.startswith(said)


@pytest.mark.parametrize(("crew", "row", "field"), [
    (CREW + "V1;C1;Master;NO\nV1;C2;AB;ZZ\n", 3, "nacionalidade"),
    (CREW + "V1;C1;Master;NO\nV9;C2;AB;BR\n", 3, "embarcacao"),
    (CREW + "V1;C1;Master;NO\nV1;C1;AB;BR\n", 3, "id"),
    # a rank the table does not know, in a cabotage vessel (groups by department × level:
    # Res. CNIg 42/2020 art. 4º, III): the single-vessel engine's error
    (CREW + "V1;C1;Master;NO\nV1;C2;Roustabout;BR\n", 3, "funcao")])
def test_a_crew_row_s_error_names_its_column_as_written(tmp_path: Path, crew: str, row: int,
                                                        field: str) -> None:
    # As abordo check names a crew file's column (campo nacionalidade), and as the vessels
    # table's errors name theirs; the field used to be the canonical name (nationality).
    write(tmp_path, "V1;NO;cabotage;charter;2026-01-01;;\n", crew)
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert (exc.value.file, exc.value.row, exc.value.field) == (
        str(tmp_path / "crew.csv"), row, field)


def test_an_engine_error_kept_going_names_the_crew_column_as_written(tmp_path: Path) -> None:
    write(tmp_path, "V1;NO;cabotage;charter;2026-01-01;;\n",
          CREW + "V1;C1;Master;NO\nV1;C2;Roustabout;BR\n")
    row = screen(tmp_path, ON, keep_going=True).frame.row(0, named=True)
    assert row["verdict"] == "input_error"
    assert row["error"].startswith(f"arquivo {tmp_path / 'crew.csv'}, linha 3, campo funcao: ")


def test_a_repeated_vessel_id_names_the_row_that_gave_it_first(tmp_path: Path) -> None:
    write(tmp_path, "V1;NO;port_support;charter;2026-01-01;;\n"
          ";;;;;;\n"  # a blank row of the export: the rows named stay the file's lines
          "V2;NO;port_support;charter;2026-01-01;;\n"
          "V1 ;NO;port_support;charter;2026-01-01;;\n")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert (exc.value.row, exc.value.field) == (5, "id")
    assert exc.value.message.startswith("id de embarcação repetido (também na linha 2)")


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_vessels_table_without_its_required_columns_lists_them_all(
        tmp_path: Path, suffix: str) -> None:
    # A table without the id column once failed with a KeyError traceback.
    write(tmp_path, "")
    table = pl.DataFrame({"nome": ["Atlantic Provider"], "contrato": ["charter"]})
    (tmp_path / "vessels.csv").unlink()
    if suffix == ".csv":
        table.write_csv(tmp_path / "vessels.csv", separator=";")
    else:
        table.write_parquet(tmp_path / "vessels.parquet")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    every = [exc.value, *exc.value.details]
    assert [(e.field, e.message) for e in every] == [
        ("id", "coluna obrigatória ausente: id (embarcação)"),
        ("flag", "coluna obrigatória ausente: flag (bandeira)"),
        ("activity", "coluna obrigatória ausente: activity (atividade)")]
    assert {e.row for e in every} == {1 if suffix == ".csv" else None}


@pytest.mark.parametrize("crew", [
    "Embarcação;Id;Função;Nacionalidade\nV1;C1;Master;NO\n",   # a good crew table
    "Embarcação;Id;Função\nV1;C1;Master\n",                    # no nationality column
    "Embarcação;Id;Função;Nacionalidade;Cor\nV1;C1;Master;NO;azul\n",  # an unknown column
    "Id;Função;Nacionalidade\nC1;Master;NO\n",                 # no vessel column
])
def test_the_vessels_header_is_checked_before_the_crew_table_is_opened(
        tmp_path: Path, crew: str) -> None:
    # A vessels table headed in Portuguese without its id column once crashed (KeyError
    # 'id') after the crew checks: its missing column is now the first error, whatever
    # the crew table holds.
    (tmp_path / "vessels.csv").write_text("bandeira;atividade;entrada_ajb\n"
                                          "NO;offshore_support;2026-01-01\n", encoding="utf-8")
    (tmp_path / "crew.csv").write_text(crew, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert exc.value.file == str(tmp_path / "vessels.csv")
    assert (exc.value.row, exc.value.field, exc.value.message) == (
        1, "id", "coluna obrigatória ausente: id (embarcação)")
    assert exc.value.details == []


def test_the_missing_vessels_column_is_said_by_the_command_without_a_traceback(
        tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from abordo.faces.cli.main import app
    (tmp_path / "vessels.csv").write_text("bandeira;atividade\nNO;offshore_support\n",
                                          encoding="utf-8")
    (tmp_path / "crew.csv").write_text("Embarcação;Id;Função\nV1;C1;Master\n",
                                       encoding="utf-8")
    result = CliRunner().invoke(app, ["screen", str(tmp_path), "--on", "2026-06-01"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert (f"arquivo {tmp_path / 'vessels.csv'}, linha 1, campo id: coluna obrigatória "
            "ausente: id (embarcação)") in result.output


def test_activity_and_contract_are_read_from_their_portuguese_names(tmp_path: Path) -> None:
    # The same two vessels, written with the codes and as a Brazilian planner writes them:
    # one table (crew/data/values.yaml) for the screen and abordo check.
    codes = tmp_path / "codes"
    names = tmp_path / "names"
    codes.mkdir()
    names.mkdir()
    crew = CREW + "V1;C1;Master;NO\nV2;C1;Master;BR\n"
    write(codes, "V1;NO;offshore_support;charter;2026-01-01;;\n"
                 "V2;MT;cabotage;services;2026-01-01;;\n", crew)
    write(names, "V1;NO;Apoio Marítimo;afretamento;2026-01-01;;\n"
                 "V2;MT;CABOTAGEM;Prestação_de_Serviço;2026-01-01;;\n", crew)
    by_code = screen(codes, ON).frame
    by_name = screen(names, ON).frame
    assert by_name.select("activity", "contract").rows() == [
        ("offshore_support", "charter"), ("cabotage", "services")]
    assert by_name.equals(by_code)
    assert by_name["verdict"].to_list() == ["non_compliant", "compliant"]


def test_an_activity_or_contract_not_in_the_table_is_refused_with_the_accepted_values(
        tmp_path: Path) -> None:
    write(tmp_path, "V1;NO;apoio maritimo;afretamento;2026-01-01;;\n"
                    "V2;NO;draga;fretado;2026-01-01;;\n"
                    "V3;NO;navegação interior;;2026-01-01;;\n")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    every = [exc.value, *exc.value.details]
    assert [(e.row, e.field) for e in every] == [(3, "atividade"), (3, "contrato"),
                                                  (4, "atividade")]
    assert every[0].message == (
        "valor não permitido; esperado um de: offshore_support, exploration, platform, "
        "cabotage, port_support, inland_national, inland_international, regasification, "
        "cruise, fishing, long_haul — ou em português: apoio marítimo, exploração, "
        "plataforma, cabotagem, apoio portuário, navegação interior nacional, navegação "
        "interior internacional, regaseificação, cruzeiro, pesca, longo curso "
        "(recebido: 'draga')")
    assert every[1].message == (
        "valor não permitido; esperado um de: charter, services, risk, lease, none — ou em "
        "português: afretamento, prestação de serviço, contrato de risco, arrendamento, sem "
        "contrato (recebido: 'fretado')")
    assert every[2].message.startswith("valor ambíguo — navegação interior, em percurso "
                                       "nacional ou internacional (Lei 9.432/1997, art. 2º, X)")


XLSX = Path(__file__).parents[2] / "examples" / "psv-atlantic-provider-fal5.xlsx"
SAVE_AS_TABLE = ("planilhas não são lidas aqui: salve a planilha como CSV (UTF-8) ou "
                 "Parquet")


@pytest.mark.parametrize(("name", "content", "said"), [
    ("crew.csv", None, "o arquivo não é texto: é um arquivo compactado (uma planilha "
     f"XLSX/ODS com outra extensão? {SAVE_AS_TABLE})"),
    ("crew.parquet", None, "não é um arquivo Parquet: é um arquivo compactado (uma planilha "
     f"XLSX/ODS com outra extensão? {SAVE_AS_TABLE})"),
    ("crew.csv", b"\xd0\xcf\x11\xe0 an old workbook", "o arquivo não é texto: é uma "
     f"planilha ou documento do Office antigo (.xls/.doc) — {SAVE_AS_TABLE}"),
    ("vessels.csv", None, "o arquivo não é texto: é um arquivo compactado (uma planilha "
     f"XLSX/ODS com outra extensão? {SAVE_AS_TABLE})")])
def test_a_workbook_given_as_a_table_is_told_to_be_saved_as_csv_or_parquet(
        tmp_path: Path, name: str, content: bytes | None, said: str) -> None:
    # The screen reads no spreadsheet: "give the sheet with its own extension" (the advice
    # of abordo check, which reads an XLSX crew list) would send the planner nowhere.
    write(tmp_path, "V1;NO;port_support;charter;2026-01-01;;\n")
    (tmp_path / name.replace(".parquet", ".csv")).unlink()
    (tmp_path / name).write_bytes(content if content is not None else XLSX.read_bytes())
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert exc.value.file == str(tmp_path / name)
    assert exc.value.message == said
    assert "sua extensão" not in exc.value.message
    assert exc.value.message_en is not None and exc.value.message_en.endswith(
        "workbooks are not read here: save it as CSV (UTF-8) or Parquet)" if content is None
        else "workbooks are not read here: save it as CSV (UTF-8) or Parquet")


def test_abordo_check_still_says_a_crew_list_workbook_can_keep_its_extension(
        tmp_path: Path) -> None:
    # abordo check reads an XLSX crew list (crew_file): there the advice stands.
    from abordo.crew.load import load_vessel_case
    (tmp_path / "crew.csv").write_bytes(XLSX.read_bytes())
    (tmp_path / "v.yaml").write_text(
        "vessel: {flag: 'NO', activity: offshore_support}\n"
        "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01, exit: null}]}\n"
        "crew_file: crew.csv\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_vessel_case(tmp_path / "v.yaml")
    assert exc.value.message == (
        "o arquivo não é texto: é um arquivo compactado (uma planilha XLSX/ODS com outra "
        "extensão? salve como CSV ou dê a planilha com sua extensão)")


@pytest.mark.parametrize(("header", "message", "message_en"), [
    ("id;bandeira;atividade;entrada_ajb;saida_ajb",
     "saída (saida_ajb) anterior à entrada (entrada_ajb)",
     "exit (saida_ajb) before the entry (entrada_ajb)"),
    ("id;bandeira;atividade;Entrada AJB;Saída AJB",
     "saída (Saída AJB) anterior à entrada (Entrada AJB)",
     "exit (Saída AJB) before the entry (Entrada AJB)"),
    ("id;flag;activity;ajb_entry;ajb_exit",
     "saída (ajb_exit) anterior à entrada (ajb_entry)",
     "exit (ajb_exit) before the entry (ajb_entry)")])
def test_an_exit_before_the_entry_names_both_columns_as_the_header_writes_them(
        tmp_path: Path, header: str, message: str, message_en: str) -> None:
    # Was "saída (exit) anterior à entrada (entry)": English words in a Portuguese message,
    # and not the columns of the file.
    (tmp_path / "vessels.csv").write_text(
        f"{header}\nV1;NO;port_support;2026-03-01;2026-02-01\n", encoding="utf-8")
    (tmp_path / "crew.csv").write_text(CREW + "V1;C1;Master;NO\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert (exc.value.row, exc.value.field) == (2, header.split(";")[-1])
    assert exc.value.message == f"{message} (recebido: '2026-02-01')"
    assert exc.value.message_en == f"{message_en} (got '2026-02-01')"


def test_a_column_the_file_lacks_is_named_by_its_code_and_portuguese_header(
        tmp_path: Path) -> None:
    (tmp_path / "vessels.csv").write_text(
        "id;bandeira;atividade;saida_ajb;ausencias\n"
        "V1;NO;port_support;2026-02-01;\n"
        "V2;NO;port_support;;2026-02-01/2026-02-03\n", encoding="utf-8")
    (tmp_path / "crew.csv").write_text(CREW + "V1;C1;Master;NO\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert (exc.value.row, exc.value.field, exc.value.message) == (
        2, "saida_ajb", "saída (saida_ajb) sem entrada (ajb_entry / entrada_ajb) "
        "(recebido: '2026-02-01')")


def test_an_absence_s_error_names_the_entry_column_as_the_header_writes_it(
        tmp_path: Path) -> None:
    # An absence from the entry day itself (the entry day is a day in AJB: Res. CNIg
    # 42/2020 art. 10 counts the days fully outside).
    write(tmp_path, "V1;NO;port_support;charter;01/01/2026;01/01/2026 a 05/01/2026;\n")
    with pytest.raises(InputError) as exc:
        screen(tmp_path, ON)
    assert (exc.value.row, exc.value.field) == (2, "ausencias")
    assert exc.value.message.startswith(
        "ausência deve começar depois do dia de entrada (entrada_ajb)")
    assert exc.value.message_en is not None and exc.value.message_en.startswith(
        "an absence must start after the entry day (entrada_ajb)")

"""Sheets that would lose or override data are refused, naming file, sheet, row and column,
as the crew lists refuse them (:mod:`abordo.crew.crewfile`): a value in a column with no
header, a column repeated, a field repeated in the ``seafarer`` sheet, an unknown sheet, a
number or a time of day in a date cell."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.workbook import Workbook

from abordo.crew.load import read_crew_list
from abordo.law.errors import InputError
from abordo.sea_time import compute, load_input

ROOT = Path(__file__).resolve().parents[2]
WORKBOOK = ROOT / "examples" / "sea-time" / "seafarer-2on-promotion.xlsx"
ON = dt.date(2026, 2, 2)
SEAFARER_2ON = "seafarer: {id: X, group: maritime, category: 2ON}\npurpose: promotion\n"


def _errors(path: Path) -> list[InputError]:
    with pytest.raises(InputError) as err:
        load_input(path)
    return [err.value, *err.value.details]


def _csv_input(tmp_path: Path, cir: str) -> Path:
    """An input whose CIR is the CSV ``cir`` beside it; its path."""
    (tmp_path / "cir.csv").write_text(cir, encoding="utf-8")
    path = tmp_path / "in.yaml"
    path.write_text(SEAFARER_2ON + "cir_file: cir.csv\n", encoding="utf-8")
    return path


def _workbook(tmp_path: Path, change: Callable[[Workbook], None]) -> Path:
    """The example workbook (528 days) changed by ``change``, saved as ``w.xlsx``."""
    wb = openpyxl.load_workbook(WORKBOOK)
    change(wb)
    path = tmp_path / "w.xlsx"
    wb.save(path)
    return path


def test_the_example_workbook_counts_528_days() -> None:
    assert compute(load_input(WORKBOOK), ON).result["counted_days"] == 528


# --- columns -------------------------------------------------------------------------------

def test_a_csv_value_beyond_the_header_is_refused_naming_its_column(tmp_path: Path) -> None:
    errors = _errors(_csv_input(tmp_path, "vessel;embark;disembark;function;company\n"
                                "A;01/01/2024;01/03/2024;2ON;X;extra\n"))
    assert [(e.file, e.row, e.field) for e in errors] == [("cir.csv", 2, None)]
    assert errors[0].message == ("valor fora das colunas do cabeçalho, na coluna F: 'extra' "
                                 "(falta um cabeçalho ou sobra um separador)")
    assert errors[0].message_en == ("value beyond the header's columns, in column F: 'extra' "
                                    "(a header is missing or a separator is extra)")


def test_a_value_under_a_blank_header_cell_is_refused(tmp_path: Path) -> None:
    errors = _errors(_csv_input(tmp_path, "vessel;;embark;disembark;function;company\n"
                                "A;;01/01/2024;01/03/2024;2ON;X\nB;nota;01/04/2024;01/05/2024;"
                                "2ON;X\n"))
    assert [(e.file, e.row, e.field, e.message) for e in errors] == [
        ("cir.csv", 3, None, "valor na coluna B, de cabeçalho em branco: 'nota' (falta o "
         "nome da coluna)")]


def test_an_xlsx_value_beyond_the_header_is_refused_naming_sheet_row_and_column(
        tmp_path: Path) -> None:
    def stray(wb: Workbook) -> None:
        wb["cir"]["L2"] = "stray"

    errors = _errors(_workbook(tmp_path, stray))
    assert [(e.file, e.row, e.field) for e in errors] == [("w.xlsx[cir]", 2, None)]
    assert "na coluna L: 'stray'" in errors[0].message


def test_a_column_given_twice_is_refused_not_read_last_wins(tmp_path: Path) -> None:
    errors = _errors(_csv_input(tmp_path, "vessel,embark,embark,function,company,navigation\n"
                                "A,01/01/2024,02/01/2024,2ON,X,open_sea\n"))
    assert [(e.file, e.row, e.field, e.message) for e in errors] == [
        ("cir.csv", 1, "embark", "coluna repetida 'embark' (coluna C: a mesma informação da "
         "coluna B, 'embark')")]


def test_an_english_and_a_portuguese_column_for_one_field_are_refused(tmp_path: Path) -> None:
    errors = _errors(_csv_input(tmp_path, "vessel,embarcação,embark,function,company\n"
                                "A,B,01/01/2024,2ON,X\n"))
    assert [(e.file, e.row, e.field) for e in errors] == [("cir.csv", 1, "embarcação")]
    assert errors[0].message == ("coluna repetida 'embarcação' (coluna B: a mesma informação "
                                 "da coluna A, 'vessel')")
    assert errors[0].message_en == ("repeated column 'embarcação' (column B: the same field as "
                                    "column A, 'vessel')")


def test_a_repeated_xlsx_column_is_listed_with_the_sheets_other_problems(
        tmp_path: Path) -> None:
    def twice(wb: Workbook) -> None:
        ws = wb["cir"]
        ws["L1"] = "Embarque"
        ws["F3"] = "31/02/2024"

    errors = _errors(_workbook(tmp_path, twice))
    assert [(e.file, e.row, e.field) for e in errors] == [
        ("w.xlsx[cir]", 1, "Embarque"), ("w.xlsx[cir]", 3, "embark")]
    assert errors[0].message == ("coluna repetida 'Embarque' (coluna L: a mesma informação da "
                                 "coluna F, 'embark')")


# --- the seafarer sheet (field | value) ----------------------------------------------------

def test_a_field_given_twice_in_the_seafarer_sheet_is_refused(tmp_path: Path) -> None:
    # The example's seafarer sheet: field | value on line 1, id on 2 … purpose on 6.
    def twice(wb: Workbook) -> None:
        ws = wb["seafarer"]
        ws.append(["id", "DUP"])
        ws.append(["finalidade", "course"])

    errors = _errors(_workbook(tmp_path, twice))
    assert [(e.file, e.row, e.field, e.message) for e in errors] == [
        ("w.xlsx[seafarer]", 7, "seafarer.id", "campo 'id' repetido (também na linha 2)"),
        ("w.xlsx[seafarer]", 8, "purpose", "campo 'finalidade' repetido (também na linha 6)")]
    assert errors[0].message_en == "field 'id' repeated (also on row 2)"


def test_a_seafarer_sheet_value_without_its_field_or_beyond_the_value_is_refused(
        tmp_path: Path) -> None:
    def stray(wb: Workbook) -> None:
        ws = wb["seafarer"]
        ws["C2"] = "AQ-2"
        ws.append([None, "deck"])

    errors = _errors(_workbook(tmp_path, stray))
    assert [(e.file, e.row, e.field, e.message) for e in errors] == [
        ("w.xlsx[seafarer]", 2, None, "valor fora das colunas do cabeçalho, na coluna C: "
         "'AQ-2' (falta um cabeçalho ou sobra um separador)"),
        ("w.xlsx[seafarer]", 7, None, "valor sem o nome do campo na coluna A: 'deck'")]


# --- sheets --------------------------------------------------------------------------------

EXPECTED_SHEETS = ("seafarer, cir, declarations, foreign_declarations, manoeuvres, standby, "
                   "instructor_activity")


def test_a_misnamed_sheet_is_refused_with_the_name_it_comes_close_to(tmp_path: Path) -> None:
    """A ``declarations`` sheet renamed ``declaration`` was left out: 105 days, not 528."""
    def typo(wb: Workbook) -> None:
        wb["declarations"].title = "declaration"

    errors = _errors(_workbook(tmp_path, typo))
    assert [(e.file, e.row, e.field) for e in errors] == [("w.xlsx[declaration]", None, None)]
    assert errors[0].message == (
        f"aba desconhecida 'declaration' (quis dizer 'declarations'?); as abas de um cômputo "
        f"são {EXPECTED_SHEETS} (ou, em português, declaracoes, declaracoes_estrangeiras, "
        "manobras, a_disposicao, instrutor, aquaviario, maritimo)")
    assert errors[0].message_en == (
        "unknown sheet 'declaration' (did you mean 'declarations'?); a sea-time workbook has "
        f"the sheets {EXPECTED_SHEETS}")


def test_an_unknown_sheet_holding_data_is_refused_a_blank_one_is_not(tmp_path: Path) -> None:
    def extra(wb: Workbook) -> None:
        wb.create_sheet("Plan2")
        wb.create_sheet("notas")["B3"] = "x"

    errors = _errors(_workbook(tmp_path, extra))
    assert [(e.file, e.message.split(";")[0]) for e in errors] == [
        ("w.xlsx[notas]", "aba desconhecida 'notas'")]

    def blank(wb: Workbook) -> None:
        wb.create_sheet("Plan2")

    assert compute(load_input(_workbook(tmp_path, blank)), ON).result["counted_days"] == 528


def test_unknown_sheets_are_listed_with_the_seafarer_sheets_problems(tmp_path: Path) -> None:
    def both(wb: Workbook) -> None:
        wb["standby"].title = "a disposicão"  # Portuguese, accents and spaces ignored: read
        wb["manoeuvres"].title = "manobra"
        wb["seafarer"]["B5"] = "3ON"

    errors = _errors(_workbook(tmp_path, both))
    assert [(e.file, e.row, e.field) for e in errors] == [
        ("w.xlsx[seafarer]", 5, "seafarer.category"), ("w.xlsx[manobra]", None, None)]
    assert errors[1].message.startswith("aba desconhecida 'manobra' (quis dizer 'manobras'?)")


def test_a_workbook_without_a_seafarer_sheet_names_the_sheet_meant_as_it(
        tmp_path: Path) -> None:
    def typo(wb: Workbook) -> None:
        wb["seafarer"].title = "seafarers"

    errors = _errors(_workbook(tmp_path, typo))
    assert [(e.file, e.field) for e in errors] == [("w.xlsx", "seafarer"),
                                                   ("w.xlsx[seafarers]", None)]
    assert errors[0].message.startswith("planilha sem aba 'seafarer' (campo | valor)")
    assert "(quis dizer 'seafarer'?)" in errors[1].message


def test_two_sheets_for_one_section_are_refused(tmp_path: Path) -> None:
    def twice(wb: Workbook) -> None:
        wb.copy_worksheet(wb["declarations"]).title = "Declarações"

    errors = _errors(_workbook(tmp_path, twice))
    assert [(e.file, e.message) for e in errors] == [
        ("w.xlsx[Declarações]", "duas abas para 'declarations': 'declarations' e "
         "'Declarações' (deixe uma só)")]


def test_sheets_named_in_portuguese_are_read(tmp_path: Path) -> None:
    def portuguese(wb: Workbook) -> None:
        wb["declarations"].title = "Declarações"
        wb["seafarer"].title = "Aquaviário"

    path = _workbook(tmp_path, portuguese)
    assert compute(load_input(path), ON).result["counted_days"] == 528


def test_a_referenced_workbook_without_the_sections_sheet_names_the_close_one(
        tmp_path: Path) -> None:
    def typo(wb: Workbook) -> None:
        wb["declarations"].title = "declaration"

    _workbook(tmp_path, typo)
    path = tmp_path / "in.yaml"
    path.write_text(SEAFARER_2ON + "cir_file: w.xlsx\ndeclarations_file: w.xlsx\n",
                    encoding="utf-8")
    errors = _errors(path)
    assert [(e.file, e.field) for e in errors] == [("w.xlsx", "declarations")]
    assert errors[0].message == (
        "planilha sem aba 'declarations' (abas: seafarer, cir, declaration, "
        "foreign_declarations, manoeuvres, standby); 'declaration' seria 'declarations'?")


# --- date cells ----------------------------------------------------------------------------

DATE_EXPECTED = ("data esperada, não um número nem data com horário (use AAAA-MM-DD; no "
                 "Excel, formate a célula como data)")


def test_a_date_cell_with_a_time_of_day_is_refused_naming_the_cell(tmp_path: Path) -> None:
    def timed(wb: Workbook) -> None:
        wb["cir"]["F2"] = dt.datetime(2024, 2, 5, 10, 30)
        wb["manoeuvres"]["A3"] = dt.datetime(2024, 9, 12, 23, 59)

    errors = _errors(_workbook(tmp_path, timed))
    assert [(e.file, e.row, e.field, e.message) for e in errors] == [
        ("w.xlsx[cir]", 2, "embark", f"{DATE_EXPECTED} (recebido: 05/02/2024 10:30)"),
        ("w.xlsx[manoeuvres]", 3, "date", f"{DATE_EXPECTED} (recebido: 12/09/2024 23:59)")]
    assert errors[0].message_en == (
        "a date expected, not a number nor a date with a time (use YYYY-MM-DD; in Excel, format "
        "the cell as a date) (got 05/02/2024 10:30)")


def test_a_date_cell_at_midnight_is_its_date(tmp_path: Path) -> None:
    def midnight(wb: Workbook) -> None:
        wb["cir"]["F2"] = dt.datetime(2024, 2, 5, 0, 0)

    data = load_input(_workbook(tmp_path, midnight))
    assert data["cir"][0]["embark"] == dt.date(2024, 2, 5)


@pytest.mark.parametrize("number", [45000, 86400, 0])
def test_a_number_in_a_date_cell_is_refused_as_the_crew_list_refuses_it(
        tmp_path: Path, number: int) -> None:
    """A cell not formatted as a date: 45000 (Excel's serial of 15/03/2023), or 86400 that
    would otherwise be read as seconds since 1970 (1970-01-02)."""
    def serial(wb: Workbook) -> None:
        cell = wb["cir"]["F2"]
        cell.value, cell.number_format = number, "General"

    errors = _errors(_workbook(tmp_path, serial))
    assert [(e.file, e.row, e.field, e.message) for e in errors] == [
        ("w.xlsx[cir]", 2, "embark", f"{DATE_EXPECTED} (recebido: {number})")]
    # the crew list's words for the same cell
    crew = Workbook()
    crew.active.append(["id", "rank", "nationality", "entry_date", "entry_by"])
    crew.active.append(["C1", "Master", "NO", 45000, "sea"])
    crew.save(tmp_path / "crew.xlsx")
    with pytest.raises(InputError) as err:
        read_crew_list(tmp_path / "crew.xlsx", "crew.xlsx")
    assert err.value.message.removesuffix(" (recebido: '45000')") == DATE_EXPECTED


def test_a_date_formatted_serial_is_the_date_excel_shows(tmp_path: Path) -> None:
    """Excel keeps every date as its serial: 45000 in a cell formatted dd/mm/aaaa is
    15/03/2023 on screen, and is read so (by the crew lists too)."""
    def serial(wb: Workbook) -> None:
        cell = wb["cir"]["F2"]
        cell.value, cell.number_format = 45000, "DD/MM/YYYY"

    data = load_input(_workbook(tmp_path, serial))
    assert data["cir"][0]["embark"] == dt.date(2023, 3, 15)


def test_a_number_in_a_csv_date_column_and_in_the_seafarer_sheet_is_refused(
        tmp_path: Path) -> None:
    errors = _errors(_csv_input(tmp_path, "vessel;embark;disembark;function;company\n"
                                "A;86400;01/03/2024;2ON;X\n"))
    assert [(e.file, e.row, e.field, e.message) for e in errors] == [
        ("cir.csv", 2, "embark", f"{DATE_EXPECTED} (recebido: '86400')")]

    def expiry(wb: Workbook) -> None:
        wb["seafarer"].append(["certificado_valido_ate", 46000])

    errors = _errors(_workbook(tmp_path, expiry))
    assert [(e.file, e.row, e.field, e.message) for e in errors] == [
        ("w.xlsx[seafarer]", 7, "seafarer.certificate_valid_until",
         f"{DATE_EXPECTED} (recebido: 46000)")]

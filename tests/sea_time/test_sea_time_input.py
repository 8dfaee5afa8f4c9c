"""Bad input names file, row and field; sheets in CSV/XLSX; encodings (UTF-8, BOM, Latin-1)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from sea_time_helpers import case, decl, rec, run

from abordo.law.errors import InputError
from abordo.sea_time import compute, load_input

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "sea-time"
ON = dt.date(2026, 2, 2)


def _error(data: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as err:
        run(data)
    return err.value


SEAFARER_2ON = "seafarer: {id: X, group: maritime, category: 2ON}\npurpose: promotion\n"


def _sheets_input(tmp_path: Path, decl: bool = False) -> Path:
    """An input naming ``cir.csv`` (and ``decl.csv``) beside it; its path."""
    path = tmp_path / "in.yaml"
    path.write_text(SEAFARER_2ON + "cir_file: cir.csv\n"
                    + ("declarations_file: decl.csv\n" if decl else ""), encoding="utf-8")
    return path


def _load_error(path: Path) -> InputError:
    with pytest.raises(InputError) as err:
        load_input(path)
    return err.value


def test_disembarkation_before_embarkation() -> None:
    e = _error(case(cir=[rec("2025-03-10", "2025-03-01")]))
    assert e.field == "cir[0].disembark"
    assert "anterior ao embarque" in e.message
    assert e.message_en and "before the embarkation" in e.message_en


def test_unknown_field_bad_date_unknown_category() -> None:
    assert _error(case(cir=[rec("2025-03-01", "2025-03-10", colour="red")])).field == \
        "cir[0].colour"
    bad_date = case(cir=[{"vessel": "A", "embark": "2025-02-30", "function": "2ON",
                          "company": "C"}])
    e = _error(bad_date)
    assert e.field == "cir[0].embark" and "data inválida" in e.message
    e2 = _error(case(cir=[rec("2025-03-01", "2025-03-10", "3ON")]))
    assert e2.field == "cir[0].function" and "categoria desconhecida '3ON'" in e2.message
    e3 = _error({"seafarer": {"id": "x", "group": "river", "category": "2ON"},
                 "purpose": "promotion"})
    assert e3.field == "seafarer.group"
    e4 = _error(case(purpose="retirement"))
    assert e4.field == "purpose"


def test_declaration_for_a_company_with_no_cir_record_counts_nothing_and_is_reported(
        ) -> None:
    # 1.26.1 e: what does not match is not counted — the stray declaration does not stop the
    # count of the service that matches (it was an input error, which blocked everything).
    d = run(case(cir=[rec("2025-03-01", "2025-03-10", company="Alfa")],
                 declarations=[decl("2025-03-01", "2025-03-10", company="Alfa"),
                               decl("2025-04-01", "2025-04-10", company="Alpha")]))
    assert d.result["counted_days"] == 10
    stray = [f for f in d.findings if f.id == "declaration_without_cir_record"]
    assert [(f.subject, f.severity) for f in stray] == [("declarations[1]", "warning")]
    assert "'Alpha'" in stray[0].text.pt and "01/04/2025–10/04/2025" in stray[0].text.pt
    assert stray[0].citation is not None and "1.26.1" in stray[0].citation.provision
    # an Anexo 1-H of a company with no foreign-flag record: the Brazilian-flag record is
    # still judged by its own declaration
    d2 = run(case(cir=[rec("2025-03-01", "2025-03-10", company="Alfa")],
                  declarations=[decl("2025-03-01", "2025-03-10", company="Alfa")],
                  foreign_declarations=[decl("2025-03-01", "2025-03-10", company="Alfa")]))
    assert d2.result["counted_days"] == 10
    assert [f.subject for f in d2.findings if f.id == "declaration_without_cir_record"] == [
        "foreign_declarations[0]"]
    # an Anexo 1-S of a company whose only records are on foreign-flag ships matches nothing
    d3 = run(case(cir=[rec("2025-03-01", "2025-03-10", company="Alfa", flag="PA")],
                  declarations=[decl("2025-03-01", "2025-03-10", company="Alfa")]))
    stray3 = [f for f in d3.findings if f.id == "declaration_without_cir_record"]
    assert [f.subject for f in stray3] == ["declarations[0]"]
    assert "sem registro dessa empresa na CIR em navio de bandeira brasileira" in \
        stray3[0].text.pt


def test_bad_flag_and_declaration_period() -> None:
    assert _error(case(cir=[rec("2025-03-01", "2025-03-10", flag="XX")])).field == \
        "cir[0].flag"
    e = _error(case(cir=[rec("2025-03-01", "2025-03-10")],
                    declarations=[decl("2025-03-10", "2025-03-01")]))
    assert e.field == "declarations[0].to"


def test_flags_and_codes_are_normalised() -> None:
    d = run(case(cir=[rec("2025-03-01", "2025-03-10", "2on", flag="bra")],
                 declarations=[decl("2025-03-01", "2025-03-10", "2ON")]))
    assert d.result["counted_days"] == 10


def _write(path: Path, text: str, encoding: str) -> Path:
    path.write_bytes(text.encode(encoding))
    return path


HEADER = "vessel;embark;disembark;function;company\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "latin-1", "cp1252"])
def test_csv_encodings(tmp_path: Path, encoding: str) -> None:
    _write(tmp_path / "cir.csv", HEADER + "Navio São João;01/03/2025;10/03/2025;2ON;Cia Ômega\n",
           encoding)
    _write(tmp_path / "decl.csv", "empresa,de,até,categoria\nCia Ômega,2025-03-01,2025-03-10,2ON\n",
           encoding)
    data = load_input(_sheets_input(tmp_path, decl=True))
    assert data["cir"][0]["vessel"] == "Navio São João"
    assert data["cir"][0]["embark"] == "2025-03-01"  # dd/mm/aaaa normalised
    assert compute(data, ON).result["counted_days"] == 10


def test_utf16_is_rejected_with_the_file_named(tmp_path: Path) -> None:
    _write(tmp_path / "cir.csv", HEADER, "utf-16")
    err = _load_error(_sheets_input(tmp_path))
    assert err.file == "cir.csv" and "UTF-16" in err.message


def test_csv_row_errors_name_file_row_field(tmp_path: Path) -> None:
    (tmp_path / "cir.csv").write_text(
        HEADER + "A;01/03/2025;10/03/2025;2ON;C\nB;01/04/2025;31/03/2025;2ON;C\n",
        encoding="utf-8")
    e = _load_error(_sheets_input(tmp_path))
    # the second data row is line 3 of the file, as a spreadsheet shows it (header = line 1)
    assert (e.file, e.row, e.field) == ("cir.csv", 3, "disembark")
    # dates said as the sheet writes them (dd/mm/aaaa), in English as ISO
    assert e.render() == ("arquivo cir.csv, linha 3, campo disembark: desembarque (31/03/2025) "
                          "anterior ao embarque (01/04/2025)")
    assert "disembarkation (2025-03-31) is before the embarkation (2025-04-01)" in \
        e.render("en")


def test_csv_unknown_column_and_declaration_row(tmp_path: Path) -> None:
    (tmp_path / "cir.csv").write_text("vessel,embark,function,company,cor\nA,2025-03-01,2ON,C,x\n",
                                      encoding="utf-8")
    err = _load_error(_sheets_input(tmp_path))
    assert (err.file, err.row, err.field) == ("cir.csv", 1, "cor")
    (tmp_path / "cir.csv").write_text("vessel,embark,disembark,function,company\n"
                                      "A,2025-03-01,2025-03-10,2ON,C\n", encoding="utf-8")
    (tmp_path / "decl.csv").write_text("company,from,to,category\nC,2025-03-01,2025-03-10,2ON\n"
                                       "\nC,2025-03-01,2025-03-10,9ZZ\n", encoding="utf-8")
    err2 = _load_error(_sheets_input(tmp_path, decl=True))
    # the blank line (line 3) is skipped but keeps the numbering of the file: 9ZZ is on line 4
    assert (err2.file, err2.row, err2.field) == ("decl.csv", 4, "category")


def test_every_sheet_problem_is_listed_at_once(tmp_path: Path) -> None:
    """A bad date and an unknown category in the CIR sheet and a misspelled column in the
    declarations sheet: one run lists the three (the misspelled column once, not as a
    missing field on every row)."""
    (tmp_path / "cir.csv").write_text(
        "vessel;embark;disembark;function;company\nA;01/03/2025;10/03/2025;2ON;C\n"
        "A;31/02/2025;10/03/2025;2ON;C\nA;01/04/2025;10/04/2025;9ZZ;C\n", encoding="utf-8")
    (tmp_path / "decl.csv").write_text("empresa;de;até;categria\nC;01/03/2025;10/04/2025;2ON\n"
                                       "C;01/05/2025;10/05/2025;2ON\n", encoding="utf-8")
    err = _load_error(_sheets_input(tmp_path, decl=True))
    found = [(e.file, e.row, e.field) for e in [err, *err.details]]
    assert found == [("cir.csv", 3, "embark"), ("cir.csv", 4, "function"),
                     ("decl.csv", 1, "categria"), ("decl.csv", 1, "categoria")]
    assert err.details[-1].message == "faltam colunas obrigatórias: categoria (category)"
    # A sheet with a header only, short of required columns, is told so itself.
    (tmp_path / "cir.csv").write_text("vessel;embark\n", encoding="utf-8")
    err2 = _load_error(tmp_path / "in.yaml")
    assert (err2.file, err2.row, err2.message) == (
        "cir.csv", 1, "faltam colunas obrigatórias: função (function), empresa (company)")


def test_missing_columns_named_as_a_portuguese_sheet_writes_them(tmp_path: Path) -> None:
    # The seafarer's CIR sheet has no column "embark": it says "embarque" (the header the
    # reader takes), and the field in brackets for a sheet with English headers.
    (tmp_path / "cir.csv").write_text("Embarcação;Desembarque;Função;Empresa\n"
                                      "A;10/03/2025;2ON;C\n", encoding="utf-8")
    (tmp_path / "decl.csv").write_text("empresa;categoria\nC;2ON\n", encoding="utf-8")
    err = _load_error(_sheets_input(tmp_path, decl=True))
    found = [(e.file, e.row, e.field, e.message, e.message_en) for e in [err, *err.details]]
    assert found == [
        ("cir.csv", 1, "embarque", "faltam colunas obrigatórias: embarque (embark)",
         "required columns missing: embark (embarque)"),
        ("decl.csv", 1, "início",
         "faltam colunas obrigatórias: início (from), até (to)",
         "required columns missing: from (início), to (até)")]


def test_an_unknown_column_lists_the_columns_as_a_portuguese_sheet_writes_them(
        tmp_path: Path) -> None:
    (tmp_path / "decl.csv").write_text("empresa;de;até;categria\nC;01/03/2025;10/04/2025;2ON\n",
                                       encoding="utf-8")
    (tmp_path / "cir.csv").write_text("vessel;embark;disembark;function;company\n"
                                      "A;01/03/2025;10/03/2025;2ON;C\n", encoding="utf-8")
    err = _load_error(_sheets_input(tmp_path, decl=True))
    unknown = next(e for e in [err, *err.details] if e.field == "categria")
    assert unknown.message.startswith("coluna desconhecida 'categria'; esperado uma de: ")
    listed = unknown.message.split("esperado uma de: ")[1]
    assert "categoria (category)" in listed and "início (from)" in listed
    assert "até (to)" in listed and "empresa (company)" in listed


def test_yaml_errors(tmp_path: Path) -> None:
    p = tmp_path / "in.yaml"
    p.write_text("seafarer: {id: X\npurpose: [\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_input(p)
    assert (err.value.file, err.value.row) == ("in.yaml", 2)
    assert err.value.message.startswith("YAML inválido: ")
    p.write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(InputError):
        load_input(p)
    with pytest.raises(InputError) as err2:
        load_input(tmp_path / "missing.yaml")
    assert "não encontrado" in err2.value.message
    p.write_text(SEAFARER_2ON
                 + "cir: [{vessel: A, embark: 2025-01-01, function: 2ON, company: C}]\n"
                 "cir_file: cir.csv\n", encoding="utf-8")
    with pytest.raises(InputError) as err3:
        load_input(p)
    assert err3.value.field == "cir_file"


def test_json_input_and_purpose_override(tmp_path: Path) -> None:
    p = tmp_path / "in.json"
    p.write_text('{"seafarer": {"id": "X", "group": "maritime", "category": "1OM"},'
                 ' "purpose": "promotion",'
                 ' "cir": [{"vessel": "A", "embark": "2025-03-01", "disembark": "2025-03-10",'
                 ' "function": "1OM", "company": "C", "navigation": "inland"}],'
                 ' "declarations": [{"company": "C", "from": "2025-03-01", "to": "2025-03-10",'
                 ' "category": "1OM"}]}', encoding="utf-8")
    data = load_input(p, purpose="revalidation")
    assert compute(data, ON).result["limitations"] == ["inland_only"]


def test_xlsx_workbook_and_xlsx_sheet_reference(tmp_path: Path) -> None:
    data = load_input(EXAMPLES / "seafarer-2on-promotion.xlsx")
    assert compute(data, ON).result["counted_days"] == 528
    wb = Workbook()
    ws = wb.active
    ws.title = "Plan1"
    ws.append(["Embarcação", "Embarque", "Desembarque", "Função", "Empresa"])
    ws.append(["A", dt.datetime(2025, 3, 1), dt.datetime(2025, 3, 10), "2ON", "C"])
    wb.save(tmp_path / "cir.xlsx")
    (tmp_path / "in.yaml").write_text(
        SEAFARER_2ON
        + "cir_file: cir.xlsx\ndeclarations: [{company: C, from: 2025-03-01, to: 2025-03-10, "
        "category: 2ON}]\n", encoding="utf-8")
    assert compute(load_input(tmp_path / "in.yaml"), ON).result["counted_days"] == 10
    two = Workbook()
    two.active.title = "a"
    two.create_sheet("b")
    two.save(tmp_path / "two.xlsx")
    (tmp_path / "in2.yaml").write_text(SEAFARER_2ON + "cir_file: two.xlsx\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_input(tmp_path / "in2.yaml")
    assert "sem aba 'cir'" in err.value.message
    (tmp_path / "bad.xlsx").write_bytes(b"not a zip")
    with pytest.raises(InputError) as err2:
        load_input(tmp_path / "bad.xlsx")
    assert "o arquivo não é uma planilha XLSX (não está no formato do Excel 2007+" in \
        err2.value.message and "not an XLSX workbook" in (err2.value.message_en or "")


def test_the_three_example_formats_agree() -> None:
    results = [compute(load_input(EXAMPLES / name), ON).result for name in (
        "seafarer-2on-promotion.yaml", "seafarer-2on-promotion-csv.yaml",
        "seafarer-2on-promotion.xlsx")]
    assert {r["counted_days"] for r in results} == {528}
    assert results[0]["excluded"] == results[1]["excluded"] == results[2]["excluded"]
    assert results[0]["breakdown"] == {"cir_declared": 424, "foreign": 90, "standby": 12,
                                       "manoeuvres": 2, "instructor": 0, "navy": 0}


def _yaml_with(tmp_path: Path, sections: str) -> Path:
    p = tmp_path / "in.yaml"
    p.write_text(SEAFARER_2ON + sections, encoding="utf-8")
    return p


def test_impossible_date_on_line_3_of_a_cir_csv(tmp_path: Path) -> None:
    """The trial's example: 31/02/2024 on file line 3 is reported as linha 3, both forms."""
    (tmp_path / "cir.csv").write_text(
        HEADER + "A;01/03/2024;10/03/2024;2ON;C\nB;31/02/2024;10/03/2024;2ON;C\n",
        encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_input(_yaml_with(tmp_path, "cir_file: cir.csv\n"))
    e = err.value
    assert (e.file, e.row, e.field) == ("cir.csv", 3, "embark")
    assert e.render() == ("arquivo cir.csv, linha 3, campo embark: data inexistente "
                          "'31/02/2024'; use AAAA-MM-DD ou dd/mm/aaaa")
    assert e.render("en") == ("file cir.csv, row 3, field embark: no such date '31/02/2024'; "
                              "use YYYY-MM-DD or dd/mm/yyyy")


def test_unreadable_date_in_a_declarations_sheet_names_both_forms(tmp_path: Path) -> None:
    (tmp_path / "cir.csv").write_text(HEADER + "A;01/03/2024;10/03/2024;2ON;C\n",
                                      encoding="utf-8")
    (tmp_path / "decl.csv").write_text("empresa;de;até;categoria\nC;01/03/2024;março;2ON\n",
                                       encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_input(_yaml_with(tmp_path, "cir_file: cir.csv\ndeclarations_file: decl.csv\n"))
    e = err.value
    assert (e.file, e.row, e.field) == ("decl.csv", 2, "até")  # the column as written
    assert e.message == "data inválida 'março'; use AAAA-MM-DD ou dd/mm/aaaa"


def test_csv_rows_are_numbered_by_file_line_with_blank_lines_and_quoted_newlines(
        tmp_path: Path) -> None:
    # line 1 blank, header on line 2; the first record's vessel name spans lines 3–4
    (tmp_path / "cir.csv").write_text(
        "\n" + HEADER + '"Navio\nA";01/03/2024;10/03/2024;2ON;C\nB;01/04/2024;31/03/2024;2ON;C\n',
        encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_input(_yaml_with(tmp_path, "cir_file: cir.csv\n"))
    assert (err.value.row, err.value.field) == (5, "disembark")


def test_xlsx_sheet_rows_are_numbered_as_excel_shows_them(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Plan1"
    ws.append(["Embarcação", "Embarque", "Desembarque", "Função", "Empresa"])
    ws.append(["A", dt.datetime(2025, 3, 1), dt.datetime(2025, 3, 10), "2ON", "C"])
    ws.append(["B", "31/02/2025", dt.datetime(2025, 3, 10), "2ON", "C"])
    wb.save(tmp_path / "cir.xlsx")
    with pytest.raises(InputError) as err:
        load_input(_yaml_with(tmp_path, "cir_file: cir.xlsx\n"))
    e = err.value
    assert (e.file, e.row, e.field) == ("cir.xlsx[Plan1]", 3, "Embarque")
    assert e.message == "data inexistente '31/02/2025'; use AAAA-MM-DD ou dd/mm/aaaa"
    # a declaration of a company with no CIR record is read (and reported by the engine)
    ws2 = wb.create_sheet("declarations")
    ws2.append(["empresa", "de", "até", "categoria"])
    ws2.append(["C", "01/03/2025", "10/03/2025", "2ON"])
    ws2.append(["Z", "01/03/2025", "10/03/2025", "2ON"])
    ws.delete_rows(3)
    ws.title = "cir"
    wb.save(tmp_path / "book.xlsx")
    data = load_input(_yaml_with(tmp_path, "cir_file: book.xlsx\ndeclarations_file: book.xlsx\n"))
    d = compute(data, ON)
    assert d.result["counted_days"] == 10
    assert [f.subject for f in d.findings if f.id == "declaration_without_cir_record"] == [
        "declarations[1]"]


def test_workbook_seafarer_sheet_errors_name_their_line(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "seafarer"
    for row in (["campo", "valor"], ["id", "X"], ["grupo", "maritime"], ["categoria", "3ON"],
                ["finalidade", "promotion"], ["certificado_valido_ate", "30/02/2027"]):
        ws.append(row)
    wb.save(tmp_path / "w.xlsx")
    with pytest.raises(InputError) as err:
        load_input(tmp_path / "w.xlsx")
    e = err.value
    assert (e.file, e.row, e.field) == ("w.xlsx[seafarer]", 4, "seafarer.category")
    date_error = e.details[0]
    assert (date_error.row, date_error.field) == (6, "seafarer.certificate_valid_until")
    assert date_error.message == "data inexistente '30/02/2027'; use AAAA-MM-DD ou dd/mm/aaaa"
    ws["B4"] = "2ON"
    ws["B6"] = "30/01/2027"
    ws["B5"] = "retirement"
    wb.save(tmp_path / "w.xlsx")
    with pytest.raises(InputError) as err2:
        load_input(tmp_path / "w.xlsx")
    assert (err2.value.file, err2.value.row, err2.value.field) == (
        "w.xlsx[seafarer]", 5, "purpose")


def test_an_unknown_column_does_not_hide_a_blank_required_cell(tmp_path: Path) -> None:
    (tmp_path / "cir.csv").write_text(
        "vessel;embark;disembark;function;company;remarkz\nA;;10/03/2025;2ON;C;x\n",
        encoding="utf-8")
    err = _load_error(_sheets_input(tmp_path))
    assert [(e.row, e.field) for e in [err, *err.details]] == [
        (1, "remarkz"), (2, "embark")]


@pytest.mark.parametrize(("section", "field", "value", "limit"), [
    ({"navy_sea_days": 99_999_999_999_999}, "navy_sea_days.days", 99_999_999_999_999, "≤ 36525"),
    ({"navy_sea_days": 10**23}, "navy_sea_days.days", 10**23, "≤ 36525"),
    ({"navy_sea_days": {"days": 36_526, "certificate": "DPMM 1"}}, "navy_sea_days.days", 36_526,
     "≤ 36525"),
    ({"target": {"category": "1ON", "required_days": 40_000}}, "target.required_days", 40_000,
     "≤ 36525"),
    ({"instructor_activity": [{"date": "2025-11-03", "hours": 30,
                               "kind": "simulator_instructor"}]},
     "instructor_activity[0].hours", 30, "≤ 24"),
    ({"navy_sea_days": -1}, "navy_sea_days.days", -1, "≥ 0"),
])
def test_counts_outside_their_bounds_are_refused_naming_the_field(
        section: dict[str, Any], field: str, value: int, limit: str) -> None:
    e = _error(case(purpose="course", **section))
    assert e.field == field
    word = "máximo" if "≤" in limit else "mínimo"
    assert e.message == f"valor {'acima' if '≤' in limit else 'abaixo'} do {word} ({limit}) " \
                        f"(recebido: {value})"
    assert e.message_en and f"({limit}) (got {value})" in e.message_en


def test_the_largest_counts_allowed_are_computed() -> None:
    d = run(case(purpose="course", navy_sea_days=36_525))
    assert d.result["counted_days"] == 36_525


def test_one_days_activities_cannot_add_up_to_more_than_24_hours() -> None:
    acts = [{"date": "2025-11-03", "hours": "20.5", "kind": "simulator_instructor"},
            {"date": "2025-11-04", "hours": 20, "kind": "simulator_instructor"},
            {"date": "2025-11-03", "hours": 4, "kind": "naval_inspector"}]
    e = _error(case(purpose="revalidation", instructor_activity=acts))
    assert e.field == "instructor_activity[2].hours"
    assert e.message == "as atividades de 03/11/2025 somam 24,5 horas, mais que as 24 de um dia"
    assert e.message_en == ("the activities of 2025-11-03 add up to 24.5 hours, more than the "
                            "24 of a day")
    acts[2]["hours"] = "3.5"  # exactly 24 h on the day: accepted
    assert run(case(purpose="revalidation", instructor_activity=acts)).result is not None


def test_navy_days_bound_in_the_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "in.yaml"
    path.write_text(SEAFARER_2ON + "navy_sea_days: 99999999999999\n", encoding="utf-8")
    e = _load_error(path)
    assert (e.file, e.row, e.field) == ("in.yaml", 3, "navy_sea_days.days")
    assert e.message.startswith("valor acima do máximo (≤ 36525)")


@pytest.mark.parametrize(("hours", "counted"), [("4,5", 1), ("3,99", 0), ("4", 1), ("4.0", 1)])
def test_hours_written_with_a_decimal_comma_are_read_as_brazilian_sheets_write_them(
        hours: str, counted: int) -> None:
    acts = [{"date": f"2025-11-0{d}", "hours": hours, "kind": "simulator_instructor"}
            for d in (3, 4)]
    d = run(case(purpose="revalidation", instructor_activity=acts))
    assert d.result["breakdown"].get("instructor", 0) == counted


def test_hours_that_are_not_a_number_are_refused_naming_the_field() -> None:
    acts = [{"date": "2025-11-03", "hours": "4,5h", "kind": "simulator_instructor"}]
    e = _error(case(purpose="revalidation", instructor_activity=acts))
    assert e.field == "instructor_activity[0].hours"


@pytest.mark.timeout(20)
def test_hours_with_a_huge_exponent_are_refused_by_the_money_reading_s_bounds() -> None:
    # The one reading of typed numbers (abordo.law.validation.user_decimal), as chosen_value.
    acts = [{"date": "2025-11-03", "hours": "1e999999999", "kind": "simulator_instructor"}]
    e = _error(case(purpose="revalidation", instructor_activity=acts))
    assert e.field == "instructor_activity[0].hours"
    assert e.message == ("número grande demais (máximo 15 algarismos antes da vírgula) "
                         "(recebido: '1e999999999')")


def test_sheet_errors_name_the_column_as_the_header_writes_it(tmp_path: Path) -> None:
    # A CIR in Portuguese: the seafarer has no column "embark" or "disembark" to look for.
    (tmp_path / "cir.csv").write_text(
        "Embarcação;Embarque;Desembarque;Função;Empresa;LCS\n"
        "A;31/02/2024;10/03/2024;2ON;C;talvez\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_input(_yaml_with(tmp_path, "cir_file: cir.csv\n"))
    assert [(e.row, e.field, e.message) for e in (err.value, *err.value.details)] == [
        (2, "Embarque", "data inexistente '31/02/2024'; use AAAA-MM-DD ou dd/mm/aaaa"),
        (2, "LCS", "valor lógico inválido (use true/false, yes/no, on/off, sim/não ou 1/0) "
                   "(recebido: 'talvez')")]
    # a check of the next stage (after the rows are read) names it the same way
    (tmp_path / "cir.csv").write_text(
        "Embarcação;Embarque;Desembarque;Função;Empresa\nA;10/03/2024;01/03/2024;2ON;C\n",
        encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_input(_yaml_with(tmp_path, "cir_file: cir.csv\n"))
    assert (err.value.file, err.value.row, err.value.field) == ("cir.csv", 2, "Desembarque")
    assert err.value.message == "desembarque (01/03/2024) anterior ao embarque (10/03/2024)"

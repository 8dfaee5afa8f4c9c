"""Sea-time inputs written in Portuguese: the coded values (purpose, group, department,
navigation, vessel kind, offshore role, manoeuvre, instructor activity, attachments, record
book) take the code or the name NORMAM-101 uses, through the one reading of coded values
(abordo.law.values, table sea_time/data/values.yaml) — in the YAML/JSON input, the CSV/XLSX
sheets and the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from sea_time_helpers import ON, case, decl, excluded, rec, run, seafarer
from typer.testing import CliRunner

from abordo.faces.cli.main import app
from abordo.law.errors import InputError
from abordo.sea_time import compute, load_input
from abordo.sea_time.model import parse_input

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sea-time" / "seafarer-2on-promotion.yaml"
runner = CliRunner()


@pytest.mark.parametrize(("written", "code"), [
    ("curso", "course"), ("Inscrição em curso", "course"), ("promoção", "promotion"),
    ("ascensão de categoria", "promotion"), ("ASCENSAO", "promotion"),
    ("revalidação", "revalidation"), ("revalidacao de certificado", "revalidation"),
    ("course", "course"),
])
def test_purpose_in_portuguese(written: str, code: str) -> None:
    assert parse_input(case(written)).purpose == code


def test_seafarer_cir_and_records_in_portuguese_read_as_the_codes() -> None:
    pt = case(
        "revalidação",
        seafarer=seafarer(group="Marítimos", department="seção de convés"),
        cir=[rec("2025-01-01", "2025-01-31", navigation="mar aberto", kind="navio-sonda",
                 offshore_role="Operador de Posicionamento Dinâmico",
                 entered_in="CIR nacional"),
             rec("2025-03-01", "2025-03-10", navigation="Navegação interior",
                 kind="graneleiro")],
        declarations=[decl("2025-01-01", "2025-03-10", own_declaration=True,
                           attachments=["rol de equipagem", "cópia da CIR", "ANTAQ",
                                        "contrato de trabalho", "situação cadastral"])],
        manoeuvres=[{"date": "2025-04-02", "kind": "atracação", "navigation": "mar aberto"},
                    {"date": "2025-04-03", "kind": "suspender"}],
        instructor_activity=[{"date": "2025-05-05", "hours": 6,
                              "kind": "instrutor de simulador"},
                             {"date": "2025-05-06", "hours": 5, "kind": "inspetor naval"}])
    inp = parse_input(pt)
    assert (inp.purpose, inp.seafarer.group, inp.seafarer.department) == (
        "revalidation", "maritime", "deck")
    assert [(r.navigation, r.kind, r.offshore_role, r.entered_in) for r in inp.cir] == [
        ("open_sea", "drillship", "dp_operator", "cir"), ("inland", "bulk_carrier", None, "cir")]
    assert inp.declarations[0].attachments == (
        "crew_list", "cir_copy", "antaq_closure", "employment_proof", "company_registration")
    assert [(m.kind, m.navigation) for m in inp.manoeuvres] == [
        ("berthing", "open_sea"), ("weighing_anchor", "open_sea")]
    assert [a.kind for a in inp.instructor_activity] == ["simulator_instructor",
                                                         "naval_inspector"]
    # the same computation as with the codes: 31 + 10 + 2 manoeuvre days + 1 (2:1)
    d = run(pt)
    assert d.result["counted_days"] == 44
    assert d.result["limitations"] == ["inland_only"]
    assert not any(f.id == "own_declaration_attachments" for f in d.findings)


def test_a_portuguese_unit_kind_keeps_its_rule() -> None:
    # "plataforma fixa" is the fixed platform of item 1.27, not an unknown ordinary vessel
    d = run(case(cir=[rec("2025-01-01", "2025-01-10", kind="Plataforma fixa")],
                 declarations=[decl("2025-01-01", "2025-01-10")]))
    assert d.result["counted_days"] == 0
    assert excluded(d) == [("2025-01-01", "2025-01-10", "fixed_platform")]
    assert not any(f.id == "unknown_vessel_kind" for f in d.findings)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("purpose", "cursinho", "valor não permitido; esperado um de: promotion, course, "
     "revalidation — ou em português: ascensão de categoria, inscrição em curso, revalidação "
     "de certificado (recebido: 'cursinho')"),
    ("cir[0].navigation", "mar abierto", "valor não permitido; esperado um de: open_sea, "
     "inland — ou em português: mar aberto, navegação interior (recebido: 'mar abierto')"),
])
def test_refusal_lists_codes_and_portuguese_names(field: str, value: str, message: str) -> None:
    data: dict[str, Any] = case(cir=[rec("2025-01-01", "2025-01-10")])
    if field == "purpose":
        data["purpose"] = value
    else:
        data["cir"][0]["navigation"] = value
    with pytest.raises(InputError) as err:
        parse_input(data)
    assert (err.value.field, err.value.message) == (field, message)


def test_cli_purpose_in_portuguese() -> None:
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "-f", "json",
                            "--purpose", "curso"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["result"]["purpose"] == "course"
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--purpose", "cursinho"])
    assert isinstance(r.exception, InputError) and r.exception.field == "--purpose"
    assert r.exception.message.startswith(
        "finalidade 'cursinho' inválida: valor não permitido; esperado um de: promotion, "
        "course, revalidation — ou em português: ascensão de categoria")


def test_csv_sheet_in_portuguese(tmp_path: Path) -> None:
    (tmp_path / "cir.csv").write_text(
        "Embarcação;Tipo;Navegação;Embarque;Desembarque;Função;Empresa\n"
        "Norsul Vitória;graneleiro;mar aberto;02/05/2024;30/05/2024;2ON;Navegação Sul\n"
        "Balsa Rio;empurrador;navegação interior;01/06/2024;10/06/2024;2ON;Navegação Sul\n",
        encoding="utf-8")
    (tmp_path / "declaracoes.csv").write_text(
        "Empresa;De;Até;Categoria;Declaração própria;Anexos\n"
        # (a cell holding the separator is quoted: unquoted, "cópia da CIR" would be a value
        # beyond the header, refused)
        'Navegação Sul;02/05/2024;10/06/2024;2ON;sim;"rol de equipagem; cópia da CIR"\n',
        encoding="utf-8")
    (tmp_path / "caso.yaml").write_text(
        "seafarer: {id: M1, group: marítimo, department: convés, category: 2ON}\n"
        "purpose: revalidação\ncir_file: cir.csv\ndeclarations_file: declaracoes.csv\n",
        encoding="utf-8")
    data = load_input(tmp_path / "caso.yaml", on=ON)
    assert [(r["kind"], r["navigation"]) for r in data["cir"]] == [
        ("graneleiro", "mar aberto"), ("empurrador", "navegação interior")]
    assert data["declarations"][0]["attachments"] == ["rol de equipagem", "cópia da CIR"]
    d = compute(data, ON)
    assert d.result["counted_days"] == 39 and d.result["purpose"] == "revalidation"
    assert d.result["limitations"] == ["inland_only"]  # the pusher's inland days
    inp = parse_input(data)
    assert [(r.kind, r.navigation) for r in inp.cir] == [("bulk_carrier", "open_sea"),
                                                         ("pusher", "inland")]


def test_attachments_cell_separated_by_semicolons_or_spaces(tmp_path: Path) -> None:
    from abordo.sea_time.io import attachment_list
    assert attachment_list("rol de equipagem; cópia da CIR|ANTAQ") == [
        "rol de equipagem", "cópia da CIR", "ANTAQ"]
    assert attachment_list("crew_list cir_copy") == ["crew_list", "cir_copy"]


def test_workbook_in_portuguese(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "aquaviário"
    for row in (("campo", "valor"), ("id", "M1"), ("grupo", "Marítimos"),
                ("seção", "Convés"), ("categoria", "2ON"), ("finalidade", "curso")):
        ws.append(row)
    cir = wb.create_sheet("cir")
    cir.append(("embarcação", "tipo", "navegação", "embarque", "desembarque", "função",
                "empresa"))
    cir.append(("Sonda Azul", "navio-sonda", "mar aberto", "01/03/2024", "10/03/2024", "2ON",
                "Cia A"))
    dec = wb.create_sheet("declarações")
    dec.append(("empresa", "de", "até", "categoria"))
    dec.append(("Cia A", "01/03/2024", "10/03/2024", "2ON"))
    man = wb.create_sheet("manobras")
    man.append(("data", "tipo", "navegação"))
    man.append(("05/04/2024", "Fundeio", "mar aberto"))
    wb.save(tmp_path / "caso.xlsx")
    d = compute(load_input(tmp_path / "caso.xlsx", on=ON), ON)
    assert d.result["purpose"] == "course"
    # a drillship without an offshore role does not count (1.27); the manoeuvre does
    assert d.result["counted_days"] == 1
    assert excluded(d)[0] == ("2024-03-01", "2024-03-10", "function_not_counted_on_unit")

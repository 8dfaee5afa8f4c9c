"""``abordo check`` with the immigration and checklist sections: text, JSON, HTML and PDF."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from abordo.crew.load import load_vessel_case, parse_vessel_case
from abordo.faces.cli.main import app
from abordo.faces.reports.vessel_check import html_report, pdf_report, text_report
from abordo.vessel_check import VesselCheck, check_vessel

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "psv-foreign-crew.yaml"
ON = "2026-06-15"
runner = CliRunner()


def example_check() -> VesselCheck:
    return check_vessel(load_vessel_case(EXAMPLE), dt.date(2026, 6, 15))


def test_example_text_report_in_portuguese() -> None:
    r = runner.invoke(app, ["check", str(EXAMPLE), "--on", ON])
    assert r.exit_code == 1, r.output  # C08 and C11 irregular, engine-rating quota deficit
    out = " ".join(r.output.split())  # Rich wraps long lines at the console width
    for heading in ("== Cota de brasileiros a bordo ==",
                    "== Situação migratória da tripulação estrangeira ==",
                    "== Documentos a solicitar na inspeção =="):
        assert heading in out
    assert ("2 irregulares (C08, C11); 3 com providência pendente (C04, C06, C12); "
            "6 regulares") in out
    assert "autorização de residência, validade vencida em 01/06/2026" in out
    assert "o 90º dia é 08/07/2026" in out
    # IN SIT 70/2007 was revoked before 2026: the consequence says so, as the quota's does.
    assert ("Procedimento previsto na IN SIT 70/2007, art. 14 (auto de infração contra Apoio "
            "Offshore Exemplo Ltda., CLT art. 444, ementa 001139-8); revogada com efeitos a "
            "partir de 10/12/2021 — o procedimento vigente (IN MTP nº 2/2021) não está "
            "modelado.") in out
    assert "immigration.stay.inclusive" in out and "immigration.migratory_year_months" in out
    assert "Certificado de Autorização de Afretamento (CAA)" in out


def test_example_json_in_english() -> None:
    r = runner.invoke(app, ["check", str(EXAMPLE), "--on", ON, "--format", "json",
                            "--lang", "en"])
    assert r.exit_code == 1
    data = json.loads(r.output)
    imm = data["immigration"]
    assert imm["verdict"] == "non_compliant" and imm["regime"] == "cnig-rn-06-2017@res-42-2020"
    persons = {p["id"]: p for p in imm["result"]["persons"]}
    assert (persons["C06"]["verdict"], persons["C06"]["deadline"]) == ("action_due",
                                                                       "2026-07-08")
    assert persons["C03"]["requirement_label"] == "visa-exempt (ILO C185)"
    assert imm["result"]["brazilians_omitted"] == ["C02", "C05", "C07", "C09", "C15"]
    assert data["checklist"]["verdict"] == "not_covered"
    assert data["checklist"]["result"]["items"][0]["binding"] is False


def test_example_html_and_pdf() -> None:
    check = example_check()
    html = html_report(check, "pt")
    assert html.startswith("<!doctype html>")
    for heading in ("<h2>Cota de brasileiros a bordo</h2>",
                    "<h2>Situação migratória da tripulação estrangeira</h2>",
                    "<h2>Documentos a solicitar na inspeção</h2>", "<h3>Detalhes por pessoa</h3>"):
        assert heading in html
    c08 = html[html.index("<strong>C08</strong>"):]
    c08 = c08[:c08.index("</tr>")]
    assert '<span class="v-irregular"><strong>irregular</strong></span>' in c08
    assert "validade vencida em 01/06/2026" in c08
    pdf = pdf_report(check, "pt")
    assert pdf.startswith(b"%PDF")
    en = html_report(check, "en")
    assert "Immigration status of foreign crew" in en and "action due" in en


def test_rn31_text_report_shows_the_business_day_arithmetic() -> None:
    case = parse_vessel_case({
        "vessel": {"name": "Baltic Star", "flag": "MT", "activity": "cabotage"},
        "operation": {"contract": "charter", "ajb_presence": [{"entry": "2001-09-03"}]},
        "crew": [{"id": "H01", "rank": "AB", "nationality": "PL"},
                 {"id": "H02", "rank": "Surveyor", "nationality": "GB",
                  "department": "non_crew_professional"}]})
    out = " ".join(text_report(check_vessel(case, dt.date(2001, 9, 10)), "pt").split())
    assert "8 dias úteis após 03/09/2001" in out
    assert "feriados pulados: 07/09/2001 (Independência do Brasil)" in out
    assert "prazo final 14/09/2001" in out
    assert "Profissional não tripulante: fora da RN 31/1998 (art. 14)" in out


def test_a_passed_rn31_deadline_is_not_the_next_deadline() -> None:
    """r29-i15 judged 05/11/2001: the 8 business days ran out on 19/10/2001. The persons'
    column shows the deadline as passed and the action does not ask to file "até
    19/10/2001" — a date already gone — while the finding says it passed."""
    case_file = ROOT / "tests/cases/review29/r29-i15-rn31-operation-start-default-late-joiner.yaml"
    case = parse_vessel_case(yaml.safe_load(case_file.read_text(encoding="utf-8"))["input"])
    check = check_vessel(case, dt.date(2001, 11, 5))
    (b01,) = [p for p in check.immigration.result["persons"] if p["id"] == "B01"]
    assert (b01["verdict"], b01["deadline"], b01["deadline_passed"]) == (
        "irregular", dt.date(2001, 10, 19), True)
    assert "até 19/10/2001" not in b01["action"].pt
    assert b01["action"].pt.startswith("Prazo vencido em 19/10/2001")
    # Art. 9 §§ 1º-2º give the protocol its effect and its 30 days; they do not say that a
    # late request makes up for the missed term, and the action claims no more.
    assert b01["action"].pt == (
        "Prazo vencido em 19/10/2001 sem protocolo do pedido de autorização de trabalho (art. "
        "9º): protocolar o pedido. O protocolo permite o exercício da atividade e mantém os "
        "titulares em situação regular de estada (art. 9º, § 1º), com validade de 30 dias, "
        "prorrogáveis (§ 2º); o art. 9º não diz que um pedido fora do prazo supre o atraso.")
    assert "ainda que fora do prazo" not in b01["action"].pt
    assert "even late" not in b01["action"].en
    assert b01["action"].en.endswith(
        "art. 9 does not say that a late request makes up for the missed deadline.")
    assert "by 2001-10-19" not in b01["action"].en
    assert "até 19/10/2001" not in " ".join(text_report(check, "pt").split())
    rows = [line for line in text_report(check, "pt").splitlines() if "B01 (Master)" in line]
    assert rows and "19/10/2001" not in rows[0] and "vencido em" in rows[0]
    en = text_report(check, "en")
    assert "passed on" in en and "by 2001-10-19" not in " ".join(en.split())
    html = html_report(check, "pt")
    assert "vencido em 19/10/2001" in html
    # A deadline still ahead stays the next deadline.
    early = check_vessel(case, dt.date(2001, 10, 19))
    (b01,) = [p for p in early.immigration.result["persons"] if p["id"] == "B01"]
    assert (b01["verdict"], b01["deadline_passed"]) == ("action_due", False)
    assert "até 19/10/2001" in b01["action"].pt

"""``abordo sea-time`` through Typer's CliRunner (and the real entry point for exit 2)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from abordo.faces.cli import sea_time as sea_time_cli
from abordo.faces.cli.main import app
from abordo.faces.reports.sea_time import summary_rows
from abordo.law.errors import InputError
from abordo.sea_time import compute, load_input

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sea-time" / "seafarer-2on-promotion.yaml"
runner = CliRunner()


def test_text_report_with_timeline() -> None:
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02"])
    assert r.exit_code == 0, r.output
    out = r.output
    assert "528 dias de embarque computáveis (1,45 ano(s))" in out
    assert "2024-08 │███████████████ddddddddddddddd·│  15" in out
    assert "2025-08 │lllllllllllllllllllllllllllllll│   0" in out
    assert "Legenda: █ CIR + declaração (Anexo 1-S)" in out
    assert "NORMAM-101/DPC (reedição de 2025), item 1.28" in out
    assert "sea_time.period.inclusive" in out


def test_json_english_and_purpose_override() -> None:
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "--format", "json",
                            "--lang", "en", "--purpose", "revalidation"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    res = data["result"]
    assert data["verdict"] == "computed" and res["purpose"] == "revalidation"
    assert res["counted_days"] == 528 and res["years"] == "1.45"
    assert res["excluded"][0]["from"] == "2024-08-16"
    assert res["excluded"][0]["citation"]["label"].endswith("item 1.26.1, e")
    assert data["summary"].startswith("528 countable sea days")


def test_html_report_to_file_with_svg_timeline(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "-f", "html",
                            "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "<svg" in html
    # one square per calendar day of the months shown, 2024-02 to 2026-02
    assert html.count("<rect") == (dt.date(2026, 3, 1) - dt.date(2024, 2, 1)).days == 759
    assert "Dias não computados" in html and "Fundamentação legal" in html


def test_text_report_is_portuguese_and_cites_its_figures() -> None:
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02"])
    out = r.output
    assert "AQ-2025-0417 — 2ON, Marítimos (1º grupo), Seção de Convés" in out
    assert "Norma aplicada      NORMAM-101/DPC (reedição de 2025)" in out
    assert ("Dias computados     528  [NORMAM-101/DPC (reedição de 2025), item 1.26.1, d; "
            "item 1.27; item 1.29]") in out
    assert ("Anos (dias / 365)   1,45 — 1 ano e 163 dias  [NORMAM-101/DPC (reedição de "
            "2025), item 1.28]") in out
    # exclusion reasons by their Portuguese label, not the id
    assert "15   sem declaração da empresa     NORMAM-101/DPC" in out
    assert "31   função inferior à categoria   NORMAM-101/DPC" in out
    assert "not_declared:" not in out and "lower_function:" not in out
    # unconfirmed parameters explained to a Brazilian user
    assert "ainda não conferidos na reedição de 2025" in out
    for jargon in ("(not checked)", "shared spec", "re-issued", "parties as of", "maritime"):
        assert jargon not in out, jargon


def test_english_report_labels() -> None:
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "--lang", "en"])
    assert "AQ-2025-0417 — 2ON, Maritime (1st group), Deck department" in r.output
    assert "not declared by the company" in r.output
    assert "Days counted         528  [NORMAM-101/DPC (reedição de 2025), item 1.26.1, d;" in (
        r.output)


def test_json_keeps_the_ids() -> None:
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "-f", "json"])
    res = json.loads(r.output)["result"]
    assert [e["reason"] for e in res["excluded"]] == ["not_declared", "lower_function",
                                                      "not_declared"]
    assert res["seafarer"]["group"] == "maritime" and res["seafarer"]["department"] == "deck"
    assert [c["label"] for c in res["basis"]["years"]] == [
        "NORMAM-101/DPC (reedição de 2025), item 1.28"]


def test_html_report_labels_and_basis(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "-f", "html", "-o",
                        str(out)])
    html = out.read_text(encoding="utf-8")
    assert ('<td>528 <span class="muted">[NORMAM-101/DPC (reedição de 2025), item 1.26.1, d; '
            'item 1.27; item 1.29]</span></td>') in html
    assert ('<td>sem declaração da empresa<br><span class="muted">Período da CIR sem '
            'declaração da empresa que o cubra</span></td>') in html
    assert "<code>not_declared</code>" not in html
    assert "2ON, Marítimos (1º grupo), Seção de Convés" in html


def test_pdf_report_through_the_shared_dispatcher(tmp_path: Path, monkeypatch: Any) -> None:
    out = tmp_path / "r.pdf"
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "-f", "pdf", "-o",
                            str(out)])
    assert r.exit_code == 0, r.output
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-") and len(pdf) > 10_000
    calls: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(sea_time_cli, "emit_report",
                        lambda fmt, subject, lang, output, renderers: calls.append(
                            (fmt, sorted(renderers))))
    runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "-f", "html"])
    assert calls == [("html", ["html", "json", "pdf", "text"])]


def test_not_covered_before_normam_101() -> None:
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "13/09/2023"])
    assert r.exit_code == 0
    assert "NÃO COBERTO" in r.output and "NORMAM-13/DPC" in r.output


def test_options_and_bad_flags_raise_input_errors() -> None:
    r = runner.invoke(app, ["sea-time", str(EXAMPLE), "--on", "2026-02-02", "--option",
                            "sea_time.years=half_up", "-f", "json"])
    assert json.loads(r.output)["result"]["years"] == "1.45"
    for args, field in ((["--purpose", "retire"], "--purpose"), (["-f", "docx"], "--format"),
                        (["-f", "pdf"], "--output"),
                        (["--option", "nonsense"], "--option"), (["--on", "2026-02-31"], "--on"),
                        (["--option", "sea_time.x=y"], "--option sea_time.x")):
        bad = runner.invoke(app, ["sea-time", str(EXAMPLE), *args])
        assert isinstance(bad.exception, InputError), args
        assert bad.exception.field == field


def test_bad_input_exit_2_and_no_traceback(tmp_path: Path) -> None:
    p = tmp_path / "in.yaml"
    p.write_text("seafarer: {id: X, group: maritime, category: 2ON}\npurpose: promotion\n"
                 "cir: [{vessel: A, embark: 2025-03-10, disembark: 2025-03-01, function: 2ON,"
                 " company: C}]\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    r = subprocess.run([sys.executable, "-c", "from abordo.faces.cli.main import run; run()",
                        "sea-time", str(p), "-o", str(out)], capture_output=True, text=True,
                       check=False)
    assert r.returncode == 2
    assert "cir[0].disembark" in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()  # never a partial write


def test_impossible_date_in_a_yaml_input_is_an_input_error(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    for name in ("cir.csv", "declaracoes.csv"):
        (tmp_path / name).write_bytes((EXAMPLE.parent / name).read_bytes())
    (tmp_path / "bad.yaml").write_text(text.replace("embark: 2024-02-05,", "embark: 2024-02-30,"),
                                       encoding="utf-8")
    r = runner.invoke(app, ["sea-time", str(tmp_path / "bad.yaml"), "--on", "2026-02-02"])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row, err.field) == ("bad.yaml", 10, "cir[0].embark")
    assert err.message == "data inválida (use AAAA-MM-DD ou dd/mm/aaaa) (recebido: '2024-02-30')"
    (tmp_path / "br.yaml").write_text(text.replace("embark: 2024-02-05,", "embark: 05/02/2024,"),
                                      encoding="utf-8")
    ok = runner.invoke(app, ["sea-time", str(tmp_path / "br.yaml"), "--on", "2026-02-02"])
    assert ok.exit_code == 0, ok.output
    assert "528" in ok.output


def test_a_folder_given_as_the_input_is_named_as_such(tmp_path: Path) -> None:
    r = runner.invoke(app, ["sea-time", str(tmp_path)])
    assert isinstance(r.exception, InputError)
    assert r.exception.message == f"é uma pasta, não um arquivo: {tmp_path}"


def test_an_open_record_after_the_request_date_names_its_csv_row(tmp_path: Path) -> None:
    for name in ("seafarer-2on-promotion-csv.yaml", "cir.csv", "declaracoes.csv"):
        (tmp_path / name).write_bytes((EXAMPLE.parent / name).read_bytes())
    cir = tmp_path / "cir.csv"
    rows = cir.read_bytes().rstrip(b"\r\n").count(b"\n") + 1  # header + records
    with cir.open("ab") as f:
        f.write(b"Navio Novo;;BR;bulk_carrier;open_sea;01/03/2026;;2ON;Cia Costeira;;\n")
    r = runner.invoke(app, ["sea-time", str(tmp_path / "seafarer-2on-promotion-csv.yaml"),
                            "--on", "2026-02-02"])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row, err.field) == ("cir.csv", rows + 1, "embark")
    assert "depois da data do requerimento (02/02/2026)" in err.message


REVALIDATION_WITH_INSTRUCTOR = """\
seafarer: {id: AQ-0099, group: maritime, department: deck, category: 2ON,
           certificate_valid_until: 28/02/2026}
purpose: revalidation
cir:
  - {vessel: "Empurrador Tietê", flag: BR, kind: pusher, navigation: inland,
     embark: 28/02/2024, disembark: 01/03/2024, function: 2ON, company: "Hidrovias"}
declarations:
  - {company: "Hidrovias", from: 28/02/2024, to: 01/03/2024, category: 2ON}
instructor_activity:
  - {date: 29/02/2024, hours: 6, kind: simulator_instructor}
  - {date: 04/03/2024, hours: 2, kind: simulator_instructor}
  - {date: 04/03/2024, hours: 2.5, kind: simulator_instructor}
  - {date: 05/03/2024, hours: 3, kind: simulator_instructor}
  - {date: 06/03/2024, hours: 8, kind: naval_inspector}
  - {date: 07/03/2024, hours: 4, kind: naval_inspector}
"""


def test_instructor_days_are_not_counted_as_whole_days_of_their_month(tmp_path: Path) -> None:
    # 3 days aboard (28/02, 29/02 of a leap year, 01/03); instructor days of ≥ 4 h: 29/02
    # (already aboard), 04/03 (2 + 2,5 h), 06/03, 07/03 → 3 left ÷ 2 = 1 sea day (item 1.27).
    # Total 4: the months show 2 + 1 days aboard, the line below the 2:1 day — not 2 + 4.
    case = tmp_path / "reval.yaml"
    case.write_text(REVALIDATION_WITH_INSTRUCTOR, encoding="utf-8")
    r = runner.invoke(app, ["sea-time", str(case), "--on", "2025-03-01"])
    assert r.exit_code == 0, r.output
    assert "CALCULADO: 4 dias de embarque computáveis" in r.output
    assert "2024-02 │···························██  │   2" in r.output
    assert "2024-03 │█··IhII························│   1" in r.output
    assert ("instrutor/inspetor: 4 dia(s) de atividade qualificados, 1 já contado(s) a bordo; "
            "3 restante(s) → 1 dia(s) de embarque (2:1), somados ao total, não aos meses"
            in " ".join(r.output.split()))
    html = runner.invoke(app, ["sea-time", str(case), "--on", "2025-03-01", "-f", "html"])
    assert html.exit_code == 0, html.output
    assert '>2024-03</text>' in html.output
    assert html.output.count(f'y="{16 + 16 + 14 - 3}">1</text>') == 1  # March: 1, not 4
    assert "1 já contado(s) a bordo; 3 restante(s)" in html.output


def test_the_target_row_says_when_the_required_time_is_reached(tmp_path: Path) -> None:
    # The example counts 528 days on 2026-02-02: 500 required are reached (+28), 730 are not.
    text = EXAMPLE.read_text(encoding="utf-8")
    rows = {}
    for required, source in ((500, ', source: "NORMAM-101, Cap. 2"'), (730, "")):
        case = tmp_path / f"t{required}.yaml"
        case.write_text(text.replace("target: {category: 1ON}",
                                     f"target: {{category: 1ON, required_days: {required}"
                                     f"{source}}}"), encoding="utf-8")
        decision = compute(load_input(case), dt.date(2026, 2, 2))
        for lang in ("pt", "en"):
            rows[required, lang] = " ".join(
                f"{k} {v}" for k, v, _ in summary_rows(decision, lang) if k in ("Meta", "Target"))
    assert rows[500, "pt"] == ("Meta 1ON: exigidos 500 (NORMAM-101, Cap. 2); "
                               "tempo de embarque exigido atingido, com 28 dias a mais")
    assert rows[500, "en"] == ("Target 1ON: required 500 (NORMAM-101, Cap. 2); "
                               "required sea time reached, 28 days over")
    # no source given: "(informado)", once; the days missing with their unit
    assert rows[730, "pt"] == "Meta 1ON: exigidos 730 (informado); faltam 202 dias"
    assert rows[730, "en"] == "Target 1ON: required 730 (as given); 202 days missing"


def test_the_trace_says_the_target_as_the_report_does(tmp_path: Path) -> None:
    # Reached: the trace step says "atingido, com 28 dias a mais" (or "atingido exatamente"),
    # not "faltam 0"; not reached: "faltam 202 dias" — the same words as the report's target
    # row.
    text = EXAMPLE.read_text(encoding="utf-8")
    steps = {}
    for required in (500, 528, 730):
        case = tmp_path / f"t{required}.yaml"
        case.write_text(text.replace("target: {category: 1ON}",
                                     f"target: {{category: 1ON, required_days: {required}}}"),
                        encoding="utf-8")
        decision = compute(load_input(case), dt.date(2026, 2, 2))
        step = next(s for s in decision.trace if s.rule == "eligibility")
        steps[required] = (step.text.pt, step.text.en)
        target = {k: v for k, v, _ in summary_rows(decision, "pt")}["Meta"]
        assert target.rsplit("; ", 1)[1] in step.text.pt
    assert steps[500] == (
        "Meta 1ON: exige 500 dias (informado); contados 528; tempo de embarque exigido "
        "atingido, com 28 dias a mais.",
        "Target 1ON: requires 500 days (as given); counted 528; required sea time reached, "
        "28 days over.")
    assert steps[528] == (
        "Meta 1ON: exige 528 dias (informado); contados 528; tempo de embarque exigido "
        "atingido exatamente.",
        "Target 1ON: requires 528 days (as given); counted 528; required sea time reached "
        "exactly.")
    assert steps[730] == (
        "Meta 1ON: exige 730 dias (informado); contados 528; faltam 202 dias.",
        "Target 1ON: requires 730 days (as given); counted 528; 202 days missing.")


def test_summary_says_where_the_target_stands_and_no_empty_category(tmp_path: Path) -> None:
    # 364 days read "1,00 ano(s)": the summary says the target is 1 day short; with nothing
    # counted it ends at the purpose, not in "— —".
    text = EXAMPLE.read_text(encoding="utf-8")
    case = tmp_path / "t.yaml"
    case.write_text(text.replace("target: {category: 1ON}",
                                 "target: {category: 1ON, required_days: 529}"),
                    encoding="utf-8")
    d = compute(load_input(case), dt.date(2026, 2, 2))
    assert d.summary.pt == ("528 dias de embarque computáveis (1,45 ano(s)) para ascensão de "
                            "categoria — 2ON: 528; meta 1ON: falta 1 dia.")
    assert d.summary.en.endswith("— 2ON: 528; target 1ON: 1 day missing.")
    empty = compute({"seafarer": {"id": "S0", "group": "maritime", "department": "deck",
                                  "category": "2ON"},
                     "purpose": "promotion", "target": {"category": "1ON", "required_days": 529},
                     "cir": [], "declarations": []}, dt.date(2026, 2, 2))
    assert empty.result["counted_days"] == 0
    assert empty.summary.pt.startswith("0 dias de embarque computáveis (0,00 ano(s)) para "
                                       "ascensão de categoria; meta 1ON: faltam 529 dias")

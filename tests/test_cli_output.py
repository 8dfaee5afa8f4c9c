"""``-o``/``--output`` of every command: never over a file the command reads (the input, a
file it names: ``crew_file``, ``cir_file``…), whatever the name it is given by."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from abordo.faces.cli.main import app
from abordo.law.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
runner = CliRunner()

CASE = ("vessel: {name: X, imo: '9372664', flag: NO, activity: offshore_support}\n"
        "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n"
        "crew_file: lista.csv\n")
CREW = "id,rank,nationality\nC1,Master,BR\nC2,Chief Engineer,NO\n"


def _case(folder: Path) -> Path:
    (folder / "lista.csv").write_text(CREW, encoding="utf-8")
    p = folder / "caso.yaml"
    p.write_text(CASE, encoding="utf-8")
    return p


def _copy(name: str, tmp_path: Path) -> Path:
    """An example folder (``sea-time``, ``fines``…) copied into ``tmp_path``."""
    return Path(shutil.copytree(EXAMPLES / name, tmp_path / name))


def _refused(args: list[str], kept: Path) -> InputError:
    """Run ``args``; the write is refused and ``kept`` has its bytes as before."""
    before = kept.read_bytes()
    r = runner.invoke(app, args)
    assert isinstance(r.exception, InputError), r.output
    assert kept.read_bytes() == before
    assert r.exception.field == "--output"
    return r.exception


@pytest.mark.parametrize("command", ["check", "plan"])
def test_the_report_never_replaces_the_case_it_reads(tmp_path: Path, command: str) -> None:
    # Was: the YAML replaced by the report (exit 1).
    case = _case(tmp_path)
    err = _refused([command, str(case), "--on", "2026-06-15", "-o", str(case)], case)
    assert err.message == (f"a saída {case} é o arquivo de entrada {case}: escolha outro "
                           "arquivo (gravar nela substituiria a entrada)")
    assert err.message_en == (f"the output {case} is the input file {case}: choose another "
                              "file (writing it would replace the input)")


def test_a_pdf_never_replaces_the_crew_list_the_case_names(tmp_path: Path) -> None:
    # Was: the crew list (crew_file) turned into a PDF.
    case = _case(tmp_path)
    crew = tmp_path / "lista.csv"
    err = _refused(["check", str(case), "--on", "2026-06-15", "-f", "pdf", "-o", str(crew)],
                   crew)
    assert err.message == (f"a saída {crew} é o arquivo {crew}, lido por crew_file em {case}: "
                           "escolha outro arquivo (gravar nela substituiria a entrada)")


def test_the_crew_list_is_found_by_any_name_a_link_or_another_spelling(tmp_path: Path) -> None:
    case = _case(tmp_path)
    crew = tmp_path / "lista.csv"
    (tmp_path / "link.csv").symlink_to("lista.csv")
    os.link(crew, tmp_path / "hard.csv")
    for out in (tmp_path / "link.csv", tmp_path / "hard.csv", tmp_path / "." / "lista.csv"):
        err = _refused(["plan", str(case), "--on", "2026-06-15", "-o", str(out)], crew)
        assert err.message.startswith(f"a saída {out} é o arquivo {crew}, lido por crew_file")
    assert (tmp_path / "link.csv").is_symlink()


def test_another_file_is_written_as_before(tmp_path: Path) -> None:
    case = _case(tmp_path)
    out = tmp_path / "relatorio.txt"
    out.write_text("antigo", encoding="utf-8")
    r = runner.invoke(app, ["check", str(case), "--on", "2026-06-15", "-o", str(out)])
    assert r.exit_code == 1, r.output  # judged: non-compliant
    assert out.read_text(encoding="utf-8").startswith("Abordo — verificação da embarcação\n")
    assert (tmp_path / "lista.csv").read_text(encoding="utf-8") == CREW


def test_the_fine_report_never_replaces_the_fine(tmp_path: Path) -> None:
    fine = _copy("fines", tmp_path) / "rest-interval.yaml"
    err = _refused(["fine", str(fine), "-o", str(fine)], fine)
    assert err.message.startswith(f"a saída {fine} é o arquivo de entrada {fine}:")


@pytest.mark.parametrize(("sheet", "key"), [("cir.csv", "cir_file"),
                                            ("declaracoes.csv", "declarations_file")])
def test_the_sea_time_report_never_replaces_a_sheet_the_input_names(
        tmp_path: Path, sheet: str, key: str) -> None:
    folder = _copy("sea-time", tmp_path)
    src = folder / "seafarer-2on-promotion-csv.yaml"
    err = _refused(["sea-time", str(src), "--on", "2026-02-02", "-o", str(folder / sheet)],
                   folder / sheet)
    assert err.message == (f"a saída {folder / sheet} é o arquivo {folder / sheet}, lido por "
                           f"{key} em {src}: escolha outro arquivo (gravar nela substituiria "
                           "a entrada)")


def test_the_sea_time_pdf_never_replaces_its_workbook(tmp_path: Path) -> None:
    book = _copy("sea-time", tmp_path) / "seafarer-2on-promotion.xlsx"
    err = _refused(["sea-time", str(book), "--on", "2026-02-02", "-f", "pdf", "-o", str(book)],
                   book)
    assert err.message.startswith(f"a saída {book} é o arquivo de entrada {book}:")


def test_the_screen_result_never_replaces_a_crew_list_a_case_file_names(tmp_path: Path) -> None:
    # Was: fc/lista.csv (the crew_file of a case in the folder) replaced by the result; the
    # next run failed. The guard knew vessels.* and crew.* only.
    case = _case(tmp_path)
    crew = tmp_path / "lista.csv"
    before = crew.read_bytes()
    r = runner.invoke(app, ["screen", str(tmp_path), "--on", "2026-06-15", "-o", str(crew)])
    assert r.exit_code == 2
    assert crew.read_bytes() == before
    assert " ".join(r.output.split()) == (
        f"erro de entrada: campo --output: a saída {crew} é o arquivo {crew}, lido por "
        f"crew_file em {case}: escolha outro arquivo (gravar nela substituiria a entrada)")


def test_the_refusal_is_exit_2_with_the_message_and_nothing_written(tmp_path: Path) -> None:
    case = _case(tmp_path)
    before = case.read_bytes()
    r = subprocess.run([sys.executable, "-c", "from abordo.faces.cli.main import run; run()",
                        "check", str(case), "--on", "2026-06-15", "-o", str(case)],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2 and r.stdout == ""
    assert " ".join(r.stderr.split()) == (
        f"erro de entrada: campo --output: a saída {case} é o arquivo de entrada {case}: "
        "escolha outro arquivo (gravar nela substituiria a entrada)")
    assert case.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["caso.yaml", "lista.csv"]

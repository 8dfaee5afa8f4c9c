"""``-o``/``--output`` of every command: never over a file the command reads (the input, a
file it names: ``crew_file``, ``cir_file``…), whatever the name it is given by; a link kept,
a FIFO written in place, a file's mode kept, a read-only file refused, nothing partial."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from abordo.faces.cli.main import app
from abordo.law.errors import InputError
from abordo.output_file import write_output

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


# --- what -o writes over: links, FIFOs, permissions ------------------------------------------

def test_a_link_given_as_output_is_kept_and_the_file_it_points_to_written(
        tmp_path: Path) -> None:
    # Was: the link replaced by a regular file, the file it pointed to left as it was.
    case = _case(tmp_path)
    (tmp_path / "alvo.txt").write_text("antigo", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to("alvo.txt")
    r = runner.invoke(app, ["check", str(case), "--on", "2026-06-15", "-o", str(link)])
    assert r.exit_code == 1, r.output
    assert link.is_symlink() and os.readlink(link) == "alvo.txt"
    assert (tmp_path / "alvo.txt").read_text(encoding="utf-8").startswith(
        "Abordo — verificação da embarcação\n")


def test_a_dangling_link_gets_the_file_it_names(tmp_path: Path) -> None:
    case = _case(tmp_path)
    link = tmp_path / "link.txt"
    link.symlink_to("novo.txt")
    r = runner.invoke(app, ["plan", str(case), "--on", "2026-06-15", "-o", str(link)])
    assert r.exit_code == 1, r.output
    assert link.is_symlink()
    assert (tmp_path / "novo.txt").read_text(encoding="utf-8").startswith(
        "Abordo — plano da cota\n")


def test_the_screen_result_through_a_link_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    link = tmp_path / "r.csv"
    link.symlink_to(tmp_path / "out" / "result.csv")
    r = runner.invoke(app, ["screen", str(EXAMPLES / "fleet"), "--on", "2026-06-01",
                            "-o", str(link)])
    assert r.exit_code == 1, r.output
    assert link.is_symlink()
    assert (tmp_path / "out" / "result.csv").read_text(encoding="utf-8").startswith(
        "risk_rank,id,name,")


def test_a_fifo_is_written_in_place_and_stays_a_fifo(tmp_path: Path) -> None:
    # Was: the FIFO replaced by a regular file; its reader got nothing.
    case = _case(tmp_path)
    fifo = tmp_path / "canal"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with fifo.open("rb") as fh:
            got.append(fh.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    r = runner.invoke(app, ["check", str(case), "--on", "2026-06-15", "-o", str(fifo)])
    reader.join(timeout=30)
    assert r.exit_code == 1, r.output
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got and got[0].decode("utf-8").startswith("Abordo — verificação da embarcação\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["canal", "caso.yaml", "lista.csv"]


def test_a_read_only_output_is_refused_even_for_root(tmp_path: Path) -> None:
    # Was: replaced, its mode becoming 644 (root, and anyone who may write the folder).
    case = _case(tmp_path)
    ro = tmp_path / "ro.txt"
    ro.write_text("x\n", encoding="utf-8")
    ro.chmod(0o444)
    err = _refused(["check", str(case), "--on", "2026-06-15", "-o", str(ro)], ro)
    assert err.message == (f"a saída {ro} é somente leitura: escolha outro arquivo ou libere "
                           "a escrita (chmod u+w)")
    assert err.message_en == (f"the output {ro} is read-only: choose another file or allow "
                              "writing (chmod u+w)")
    assert stat.S_IMODE(ro.stat().st_mode) == 0o444


def test_a_replaced_file_keeps_its_mode_and_a_new_one_gets_the_umask_s(
        tmp_path: Path) -> None:
    case = _case(tmp_path)
    old = tmp_path / "velho.txt"
    old.write_text("x\n", encoding="utf-8")
    old.chmod(0o600)
    mask = os.umask(0o022)
    try:
        for out in (old, tmp_path / "novo.txt"):
            r = runner.invoke(app, ["check", str(case), "--on", "2026-06-15", "-o", str(out)])
            assert r.exit_code == 1, r.output
    finally:
        os.umask(mask)
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "novo.txt").stat().st_mode) == 0o644  # 0666 & ~022
    assert old.read_text(encoding="utf-8").startswith("Abordo — verificação da embarcação\n")


@pytest.mark.parametrize("existing", [True, False])
def test_a_failed_write_leaves_the_old_file_and_no_partial_one(
        tmp_path: Path, existing: bool) -> None:
    out = tmp_path / "r.txt"
    if existing:
        out.write_text("antigo", encoding="utf-8")

    def half(path: Path) -> None:
        path.write_text("metade", encoding="utf-8")
        raise OSError(28, "No space left on device")

    with pytest.raises(InputError) as info:
        write_output(out, half)
    assert info.value.field == "--output"
    assert info.value.message == f"não foi possível gravar {out}: No space left on device"
    assert [p.name for p in tmp_path.iterdir()] == (["r.txt"] if existing else [])
    if existing:
        assert out.read_text(encoding="utf-8") == "antigo"


def test_a_failed_result_writes_nothing_to_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "canal"
    os.mkfifo(fifo)

    def fail(path: Path) -> None:
        raise OSError(28, "No space left on device")

    # The FIFO is opened only once the result is whole: no reader needed, nothing blocks.
    with pytest.raises(InputError):
        write_output(fifo, fail)
    assert stat.S_ISFIFO(fifo.stat().st_mode)

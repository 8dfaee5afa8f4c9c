"""An input that exists but cannot be read — a folder where a file goes, a broken or looping
link, a file without read permission, a folder that cannot be opened — is one Portuguese
error naming it (abordo.law.files), from every reader: never an OSError traceback, nor
Click's English "is not readable"."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from abordo.casebook import find_case_files, run_case
from abordo.faces.cli.main import app
from abordo.law.errors import InputError
from abordo.law.files import read_input, unreadable

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
CASE = (ROOT / "examples/tanker-coastal-spirit.yaml").read_text(encoding="utf-8")
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


def _case_with_crew_file(tmp_path: Path, crew_file: str) -> Path:
    case = tmp_path / "case.yaml"
    case.write_text(CASE.replace("crew_file: tanker-coastal-spirit-crew.csv",
                                 f"crew_file: {crew_file}"), encoding="utf-8")
    return case


def _refusal(args: list[str]) -> InputError:
    r = runner.invoke(app, args)  # the error reaches the entry point (exit code 2 there)
    assert isinstance(r.exception, InputError), r.output
    return r.exception


def test_the_words_of_each_reason(tmp_path: Path) -> None:
    f = tmp_path / "f.csv"
    assert unreadable(f, PermissionError(13, "Permission denied")) == (
        f"sem permissão para ler o arquivo: {f}", f"no permission to read the file: {f}")
    assert unreadable(f, IsADirectoryError(21, "Is a directory"))[0] == (
        f"é uma pasta, não um arquivo: {f}")
    assert unreadable(f, FileNotFoundError(2, "No such file"))[0] == (
        f"arquivo não encontrado: {f}")
    assert unreadable(f, OSError(5, "Input/output error"))[0] == (
        f"não foi possível ler o arquivo {f} (erro do sistema: Input/output error)")
    assert unreadable(tmp_path, PermissionError(13, "x"), folder=True)[0] == (
        f"sem permissão para abrir a pasta: {tmp_path}")


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_crew_file_that_is_a_folder_is_named_at_the_case_files_line(
        tmp_path: Path, suffix: str) -> None:
    (tmp_path / f"crew{suffix}").mkdir()
    case = _case_with_crew_file(tmp_path, f"crew{suffix}")
    err = _refusal(["check", str(case), "--on", "2026-11-30"])
    assert (err.file, err.row, err.field) == (str(case), 14, "crew_file")
    assert err.message == f"é uma pasta, não um arquivo: {tmp_path / f'crew{suffix}'}"
    assert err.message_en == f"a folder, not a file: {tmp_path / f'crew{suffix}'}"


def test_a_broken_link_says_where_it_points(tmp_path: Path) -> None:
    (tmp_path / "crew.csv").symlink_to(tmp_path / "gone.csv")
    case = _case_with_crew_file(tmp_path, "crew.csv")
    err = _refusal(["check", str(case), "--on", "2026-11-30"])
    assert (err.file, err.row, err.field) == (str(case), 14, "crew_file")
    assert err.message == (f"arquivo não encontrado: {tmp_path / 'crew.csv'} é um link para "
                           f"{tmp_path / 'gone.csv'}, que não existe")


def test_a_loop_of_links_is_said(tmp_path: Path) -> None:
    loop = tmp_path / "v.yaml"
    loop.symlink_to(loop)
    err = _refusal(["check", str(loop)])
    assert err.file == str(loop)
    assert err.message == f"links simbólicos em ciclo: {loop} não leva a nenhum arquivo"


def test_a_sea_time_sheet_or_workbook_that_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "cir.csv").mkdir()
    (tmp_path / "in.yaml").write_text(
        "seafarer: {id: X, group: maritime, department: deck, category: 2ON}\n"
        "purpose: promotion\ncir_file: cir.csv\n", encoding="utf-8")
    err = _refusal(["sea-time", str(tmp_path / "in.yaml"), "--on", "2026-02-02"])
    assert err.file == "cir.csv"
    assert err.message == f"é uma pasta, não um arquivo: {tmp_path / 'cir.csv'}"
    (tmp_path / "book.xlsx").mkdir()
    err = _refusal(["sea-time", str(tmp_path / "book.xlsx")])
    assert err.file == "book.xlsx"
    assert err.message == f"é uma pasta, não um arquivo: {tmp_path / 'book.xlsx'}"


@pytest.mark.parametrize("table", ["vessels.csv", "crew.csv", "vessels.parquet"])
def test_a_fleet_table_that_is_a_folder(tmp_path: Path, table: str) -> None:
    fleet = tmp_path / "fleet"
    shutil.copytree(ROOT / "examples/fleet", fleet)
    if table == "vessels.parquet":
        (fleet / "vessels.csv").unlink()
    else:
        (fleet / table).unlink()
    (fleet / table).mkdir()
    r = runner.invoke(app, ["screen", str(fleet), "--on", "2026-11-30"])
    assert r.exit_code == 2
    assert r.output.strip() == (f"erro de entrada: arquivo {fleet / table}: é uma pasta, não "
                                f"um arquivo: {fleet / table}")


def test_a_worked_case_that_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").mkdir()
    result = run_case(tmp_path / "c.yaml")
    assert result.status == "invalid"
    assert result.difference == (f"caso ilegível {tmp_path / 'c.yaml'}: é uma pasta, não um "
                                 f"arquivo: {tmp_path / 'c.yaml'}")


@pytest.mark.skipif(ROOT_USER or not hasattr(os, "geteuid"),
                    reason="the root user reads a file whatever its permissions")
def test_a_file_without_read_permission(tmp_path: Path) -> None:
    case = _case_with_crew_file(tmp_path, "crew.csv")
    crew = tmp_path / "crew.csv"
    crew.write_text("id,rank,nationality\nC1,Master,BR\n", encoding="utf-8")
    crew.chmod(0)
    err = _refusal(["check", str(case), "--on", "2026-11-30"])
    assert (err.file, err.field) == (str(case), "crew_file")
    assert err.message == f"sem permissão para ler o arquivo: {crew}"
    case.chmod(0)
    for command in ("check", "plan", "fine", "sea-time"):
        err = _refusal([command, str(case)])  # not Click's "path … is not readable"
        assert (err.file, err.message) == (str(case) if command != "sea-time" else
                                           case.name,
                                           f"sem permissão para ler o arquivo: {case}")
    with pytest.raises(InputError) as exc:
        read_input(case)
    assert exc.value.message_en == f"no permission to read the file: {case}"
    folder = tmp_path / "cases"
    folder.mkdir()
    folder.chmod(0)
    try:
        with pytest.raises(InputError) as exc:
            find_case_files(folder)
        assert exc.value.message == f"sem permissão para abrir a pasta: {folder}"
        r = runner.invoke(app, ["screen", str(folder)])
        assert r.output.strip() == (f"erro de entrada: arquivo {folder}: sem permissão para "
                                    f"abrir a pasta: {folder}")
    finally:
        folder.chmod(0o755)


def test_a_file_without_read_permission_as_another_user() -> None:
    # The root user reads any file: the command is run as an unprivileged user, when this
    # machine has one to run it as (in a folder that user can enter).
    setpriv = shutil.which("setpriv")
    if not ROOT_USER or setpriv is None:
        pytest.skip("needs the root user and setpriv to run the command as another user")
    as_nobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable]
    env = {**os.environ, "HOME": "/tmp"}
    if subprocess.run([*as_nobody, "-c", "import abordo"], env=env, capture_output=True,
                      check=False).returncode:
        pytest.skip("the unprivileged user cannot run this Python")
    work = Path(tempfile.mkdtemp())
    try:
        work.chmod(0o755)
        case = _case_with_crew_file(work, "crew.csv")
        crew = work / "crew.csv"
        crew.write_text("id,rank,nationality\nC1,Master,BR\n", encoding="utf-8")
        crew.chmod(0)
        run = subprocess.run(
            [*as_nobody, "-c", "from abordo.faces.cli.main import run; run()", "check",
             str(case), "--on", "2026-11-30"], capture_output=True, text=True, env=env,
            check=False)
        assert run.returncode == 2, run.stderr
        assert run.stderr.strip() == (f"erro de entrada: arquivo {case}, linha 14, campo "
                                      f"crew_file: sem permissão para ler o arquivo: {crew}")
        case.chmod(0)
        run = subprocess.run(
            [*as_nobody, "-c", "from abordo.faces.cli.main import run; run()", "fine",
             str(case)], capture_output=True, text=True, env=env, check=False)
        assert run.returncode == 2, run.stderr
        assert run.stderr.strip() == (f"erro de entrada: arquivo {case}: sem permissão para "
                                      f"ler o arquivo: {case}")
    finally:
        shutil.rmtree(work)

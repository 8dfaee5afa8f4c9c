"""The command's own words (usage, --help, usage errors) in Portuguese by default."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from abordo.faces.cli.messages import CATALOGUE, compile_catalogue
from abordo.faces.cli.words import translate_error

ROOT = Path(__file__).resolve().parents[1]


def _abordo(*args: str, lang_env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LANG", "ABORDO_LANG")}
    env.update(lang_env or {})
    env["COLUMNS"] = "200"
    return subprocess.run([str(Path(sys.executable).with_name("abordo")), *args],
                          capture_output=True, text=True, env=env, check=False)


def test_help_and_usage_errors_speak_portuguese_by_default() -> None:
    top = _abordo("--help")
    assert top.returncode == 0
    assert "Uso: " in top.stdout and "Usage:" not in top.stdout
    assert "Opções" in top.stdout and "Comandos" in top.stdout
    assert "Mostra esta ajuda e sai." in top.stdout

    missing = _abordo("check")
    assert missing.returncode == 2
    assert "Argumento obrigatório ausente: 'ARQUIVO'." in missing.stderr
    assert "Use 'abordo check --help' para ajuda." in missing.stderr
    assert "Erro" in missing.stderr and "Missing" not in missing.stderr

    bogus = _abordo("check", str(ROOT / "examples/psv-atlantic-provider.yaml"), "--bogus")
    assert bogus.returncode == 2 and "Opção inexistente: --bogus" in bogus.stderr

    bare = _abordo()  # no command: the help, and no error box after it
    assert bare.returncode == 2 and "Comandos" in bare.stdout + bare.stderr
    assert "Erro" not in bare.stdout + bare.stderr

    typo = _abordo("chek")
    assert typo.returncode == 2
    assert "Comando inexistente: 'chek'. Quis dizer 'check'" in typo.stderr

    wrong = _abordo("screen", str(ROOT / "examples/fleet"), "--horizon", "abc")
    assert wrong.returncode == 2
    assert "Valor inválido para '--horizon': deve ser um número inteiro" in wrong.stderr


def test_an_english_locale_keeps_the_english_words() -> None:
    r = _abordo("check", lang_env={"LANG": "en_US.UTF-8"})
    assert r.returncode == 2 and "Missing argument 'FILE'." in r.stderr
    assert "Try 'abordo check --help' for help." in r.stderr
    h = _abordo("check", "--help", "--lang", "en")
    assert "Usage:" in h.stdout and "Show this message and exit." in h.stdout


@pytest.mark.parametrize(("english", "portuguese"), [
    ("Missing option '--on'.", "Opção obrigatória ausente: '--on'."),
    ("Option '--on' requires an argument.", "A opção '--on' exige um valor."),
    ("Got unexpected extra argument(s) (a b)", "Argumentos a mais: a b"),
    ("Invalid value for '--format': 'pdff' is not one of 'text', 'json'.",
     "Valor inválido para '--format': 'pdff' não é um destes: 'text', 'json'."),
    ("No such option: --of (Possible options: --on, --option)",
     "Opção inexistente: --of (opções possíveis: --on, --option)"),
    ("a message no pattern knows", "a message no pattern knows"),
])
def test_usage_errors_translated(english: str, portuguese: str) -> None:
    assert translate_error(english) == portuguese


def test_compiled_catalogue_is_the_compilation_of_its_text() -> None:
    """messages.mo is committed: it must be what `python -m abordo.faces.cli.messages` gives
    for messages.po (edit the .po, then run that)."""
    assert CATALOGUE.with_suffix(".mo").read_bytes() == compile_catalogue()
    with CATALOGUE.open("rb") as f:
        catalog = read_po(f)
    assert all(m.string for m in catalog if m.id), "every Typer message has a translation"


def test_help_names_each_value_in_words_not_python_types() -> None:
    import re

    out = _abordo("check", "--help").stdout
    assert "Uso: abordo check [OPÇÕES]" in out
    assert re.search(r"--on +DATA +data julgada", out)
    assert re.search(r"--output +-o +CAMINHO", out)
    assert re.search(r"--option +FAMÍLIA=VARIANTE", out)
    assert re.search(r"--keep-personal-data +manter nomes", out)  # a flag takes no value
    assert "<str>" not in out and "<bool>" not in out and "<path>" not in out
    fine = _abordo("fine", "--help").stdout
    assert re.search(r"--workers +N +trabalhadores", fine)
    assert re.search(r"--prior +DISPOSITIVO:DATA… +penalidade anterior", fine)
    en = _abordo("check", "--help", lang_env={"LANG": "en_US.UTF-8"}).stdout
    assert re.search(r"--on +DATE ", en) and "[OPTIONS]" in en and "<str>" not in en


@pytest.mark.parametrize(("command", "usage_pt", "usage_en"), [
    (["check"], "Uso: abordo check [OPÇÕES] ARQUIVO", "Usage: abordo check [OPTIONS] FILE"),
    (["plan"], "Uso: abordo plan [OPÇÕES] ARQUIVO", "Usage: abordo plan [OPTIONS] FILE"),
    (["sea-time"], "Uso: abordo sea-time [OPÇÕES] ARQUIVO",
     "Usage: abordo sea-time [OPTIONS] FILE"),
    (["fine"], "Uso: abordo fine [OPÇÕES] [ARQUIVO]", "Usage: abordo fine [OPTIONS] [FILE]"),
    (["screen"], "Uso: abordo screen [OPÇÕES] PASTA", "Usage: abordo screen [OPTIONS] FOLDER"),
    (["schema"], "Uso: abordo schema [OPÇÕES] TIPO", "Usage: abordo schema [OPTIONS] KIND"),
    (["cases", "check"], "Uso: abordo cases check [OPÇÕES] PASTA",
     "Usage: abordo cases check [OPTIONS] FOLDER"),
])
def test_the_usage_line_names_each_argument_in_words(
        command: list[str], usage_pt: str, usage_en: str) -> None:
    # Was Typer's raw parameter name: "abordo check [OPÇÕES] {file}", "fine [OPÇÕES] [file]".
    pt = _abordo(*command, "--help").stdout
    assert pt.splitlines()[1].strip() == usage_pt
    en = _abordo(*command, "--help", lang_env={"LANG": "en_US.UTF-8"}).stdout
    assert en.splitlines()[1].strip() == usage_en
    assert "{" not in pt.splitlines()[1] and "{" not in en.splitlines()[1]


def test_the_help_names_an_argument_without_a_type_beside_it() -> None:
    import re

    out = _abordo("check", "--help").stdout
    assert re.search(r"\* +ARQUIVO +caso da embarcação \(YAML ou JSON\) \[obrigatório\]", out)
    assert "ARQUIVO CAMINHO" not in out and " file " not in out


def test_version_prints_the_installed_distribution_version() -> None:
    from importlib.metadata import version

    out = _abordo("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"abordo {version('abordo')}"
    assert "--version" in _abordo("--help").stdout

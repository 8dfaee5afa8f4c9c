"""Every worked case is a test: the project's copy in tests/cases/ and, when present beside the
checkout, every case in ../shared/cases/ (so a case added there is tested with no code change)."""

from __future__ import annotations

import datetime as dt
import warnings
from pathlib import Path
from typing import Any

import pytest

from abordo.casebook import find_case_files, run_case, run_cases
from abordo.law.errors import InputError

HERE = Path(__file__).parent
ROOTS = [HERE / "cases", HERE.parent.parent / "shared" / "cases"]


def _case_files() -> list[pytest.ParameterSet]:
    params = []
    for root in ROOTS:
        if root.is_dir():
            for path in find_case_files(root):
                label = f"{root.parent.name}/{path.relative_to(root)}"
                params.append(pytest.param(path, id=label))
    return params


CASES = _case_files()


def test_cases_were_found() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("path", CASES)
def test_worked_case(path: Path) -> None:
    result = run_case(path)
    if result.status == "not_built":
        warnings.warn(f"ENGINE NOT BUILT: case {result.case_id} not run ({result.difference})",
                      stacklevel=1)
        pytest.skip(f"ENGINE NOT BUILT: {result.difference}")
    assert result.status == "pass", f"{result.case_id}: {result.difference}"


def test_a_case_file_with_an_impossible_date_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("id: x\nengine: crew_quota\non: 2026-04-31\ninput: {}\n"
                                     "expect: {verdict: compliant}\n", encoding="utf-8")
    (res,) = run_cases([tmp_path / "x.yaml"])
    assert res.status == "invalid" and res.difference == (
        f"caso ilegível {tmp_path / 'x.yaml'}, linha 3, campo on: data inexistente 2026-04-31")
    (tmp_path / "y.yaml").write_text("id: y\nengine: [crew_quota\n", encoding="utf-8")
    (tmp_path / "z.yaml").write_text("id: z\nengine: crew_quota\n", encoding="utf-8")
    (y, z) = run_cases([tmp_path / "y.yaml", tmp_path / "z.yaml"])
    assert (y.difference or "").startswith(f"caso ilegível {tmp_path / 'y.yaml'}, linha 3: "
                                           "YAML inválido: ")
    assert (z.status, z.difference) == ("invalid", f"caso inválido {tmp_path / 'z.yaml'}, campo "
                                        "expect: ausente (o que o caso verifica); campo on: "
                                        "ausente (a data julgada)")


def test_a_case_file_s_yaml_error_is_worded_as_every_input_s(tmp_path: Path) -> None:
    # in Portuguese, as abordo check words the same PyYAML problems
    (tmp_path / "a.yaml").write_text("id: a\nengine: crew_quota\ninput: {vessel: {name: A: B}}\n",
                                     encoding="utf-8")
    (tmp_path / "b.yaml").write_text("id: b\nengine: crew_quota\n\tinput: 1\n", encoding="utf-8")
    a, b = run_cases([tmp_path / "a.yaml", tmp_path / "b.yaml"])
    assert a.difference == (f"caso ilegível {tmp_path / 'a.yaml'}, linha 3: YAML inválido: "
                            "esperava ',' ou '}' (fim do mapa em chaves), mas encontrou ':'")
    assert b.difference == (f"caso ilegível {tmp_path / 'b.yaml'}, linha 3: YAML inválido: "
                            "caractere '\\t' não pode começar um valor (tabulação? use espaços "
                            "na indentação)")


def test_cases_check_on_a_folder_without_cases_is_an_input_error(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from abordo.faces.cli.main import app

    runner = CliRunner()
    def said(r: Any) -> str:
        return " ".join(r.output.split())  # the console wraps long lines

    empty = runner.invoke(app, ["cases", "check", str(tmp_path)])
    assert empty.exit_code == 2 and "nenhum caso resolvido" in said(empty)
    assert "nenhum arquivo YAML" in said(empty)
    (tmp_path / "vessel.yaml").write_text("vessel: {name: X}\n", encoding="utf-8")
    other = runner.invoke(app, ["cases", "check", str(tmp_path)])
    assert other.exit_code == 2 and "1 arquivo YAML, nenhum deles um caso" in said(other)
    # one real case among them: the folder is checked, the stray file is bad input (exit 2,
    # not a failed case: was "ERRO vessel (?)", counted among the failed, exit 1)
    (tmp_path / "case.yaml").write_text(
        "id: c\nengine: port_fine\non: 2026-01-10\ninput: {}\n"
        "expect: {verdict: input_error}\n", encoding="utf-8")
    mixed = runner.invoke(app, ["cases", "check", str(tmp_path)])
    assert mixed.exit_code == 2 and mixed.output.splitlines() == [
        "OK c (port_fine)",
        f"erro de entrada: caso inválido {tmp_path / 'vessel.yaml'}: não é um caso resolvido "
        "(faltam engine e expect)",
        "1 aprovado, 0 reprovados, 1 arquivo de caso inválido ou ilegível"]


LATIN1_CASE = ("id: lat1\nengine: port_fine\ndescription: 'escala de São Luís, infração'\n"
               "input:\n  infraction: {provision: lei-9719/art-8, date: 2009-03-17, nature: 3,"
               " extent: medium, intent: true, workers: 7}\n"
               "expect: {cell: Em+Ic, amount: '19320.00'}\n")


def test_a_latin1_case_file_is_read_as_abordo_check_reads_it(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from abordo.faces.cli.main import app

    (tmp_path / "lat.yaml").write_bytes(LATIN1_CASE.encode("latin-1"))
    (res,) = run_cases([tmp_path / "lat.yaml"])
    assert (res.status, res.case_id, res.difference) == ("pass", "lat1", None)
    r = CliRunner().invoke(app, ["cases", "check", str(tmp_path)])
    assert r.exit_code == 0 and r.output == "OK lat1 (port_fine)\n1 aprovado, 0 reprovados\n"


def test_an_unreadable_case_file_is_bad_input_exit_2_naming_the_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from abordo.faces.cli.main import app

    (tmp_path / "a-good.yaml").write_text(LATIN1_CASE, encoding="utf-8")
    (tmp_path / "b-utf16.yaml").write_bytes(LATIN1_CASE.encode("utf-16"))
    (tmp_path / "c-broken.yaml").write_text("id: y\nengine: [port_fine\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["cases", "check", str(tmp_path)])
    lines = r.output.splitlines()
    assert r.exit_code == 2  # not 1: no case failed, two files could not be read
    assert lines[0] == "OK lat1 (port_fine)"
    assert lines[1] == (f"erro de entrada: caso ilegível {tmp_path / 'b-utf16.yaml'}: "
                        "codificação não suportada (UTF-16); salve como UTF-8")
    assert lines[2].startswith(f"erro de entrada: caso ilegível {tmp_path / 'c-broken.yaml'}, "
                               "linha 3: YAML inválido: ")
    assert lines[3] == "1 aprovado, 0 reprovados, 2 arquivos de caso inválidos ou ilegíveis"
    assert "codec" not in r.output and "Traceback" not in r.output


QUOTA_CASE = """id: {id}
engine: crew_quota
{on}
input:
  vessel: {{name: PSV, flag: NO, activity: offshore_support}}
  operation:
    contract: charter
    ajb_presence: [{{entry: 2026-01-01}}]
  crew:
    - {{id: A, rank: Master, nationality: NO}}
    - {{id: B, rank: AB, nationality: BR}}
expect: {{verdict: non_compliant, days_of_operation: 90}}
"""


def test_a_broken_link_and_an_unlisted_folder_are_reported_not_skipped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A case file the run cannot see — a link to no file, a subfolder it may not list —
    would leave "1 aprovado" with a case never run: each is bad input, exit 2, named."""
    import os

    from typer.testing import CliRunner

    from abordo.faces.cli.main import app

    (tmp_path / "a-good.yaml").write_text(LATIN1_CASE, encoding="utf-8")
    (tmp_path / "b-gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (tmp_path / "closed").mkdir()
    (tmp_path / "closed" / "c.yaml").write_text(LATIN1_CASE, encoding="utf-8")
    real = os.scandir

    def scandir(path: Any) -> Any:  # as a folder without read permission (root reads all)
        if Path(path).name == "closed":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    assert find_case_files(tmp_path) == [tmp_path / "a-good.yaml", tmp_path / "b-gone.yaml",
                                         tmp_path / "closed"]
    r = CliRunner().invoke(app, ["cases", "check", str(tmp_path)])
    lines = r.output.splitlines()
    assert r.exit_code == 2
    assert lines[0] == "OK lat1 (port_fine)"
    assert lines[1].startswith(f"erro de entrada: caso ilegível {tmp_path / 'b-gone.yaml'}: ")
    assert lines[2] == (f"erro de entrada: pasta ilegível {tmp_path / 'closed'}: seus casos "
                        "não foram lidos (sem permissão de leitura?)")
    assert lines[3] == "1 aprovado, 0 reprovados, 2 arquivos de caso inválidos ou ilegíveis"



@pytest.mark.parametrize("on", ["on: 2026-04-01", 'on: "2026-04-01"', "on: 01/04/2026",
                                '"on": 2026-04-01'])
def test_the_date_judged_may_be_quoted_or_brazilian(tmp_path: Path, on: str) -> None:
    (tmp_path / "c.yaml").write_text(QUOTA_CASE.format(id="c", on=on), encoding="utf-8")
    (res,) = run_cases([tmp_path / "c.yaml"])
    assert (res.status, res.difference) == ("pass", None)


@pytest.mark.parametrize(("on", "why"), [
    ("", "ausente (a data julgada)"),
    ("on: 2026-04-01T10:00:00", "datetime.datetime(2026, 4, 1, 10, 0) não é uma data; use "
                                "AAAA-MM-DD"),
    ('on: "31/04/2026"', "data inexistente 31/04/2026"),
    ("on: amanhã", "'amanhã' não é uma data; use AAAA-MM-DD"),
])
def test_a_case_without_a_date_judged_is_invalid_not_an_engine_crash(
        tmp_path: Path, on: str, why: str) -> None:
    (tmp_path / "c.yaml").write_text(QUOTA_CASE.format(id="c", on=on), encoding="utf-8")
    (res,) = run_cases([tmp_path / "c.yaml"])
    assert (res.status, res.difference) == (
        "invalid", f"caso inválido {tmp_path / 'c.yaml'}, {'linha 3, ' if on else ''}campo on: "
                   f"{why}")


def test_a_case_file_reads_yaml_booleans_as_yaml_1_2(tmp_path: Path) -> None:
    """An unquoted NO is Norway (not false) and `on:` is the key `on` (not true)."""
    from abordo.law.yamlload import load_data_text

    data = load_data_text("on: 2026-04-01\nflag: NO\nx: yes\ny: true\nz: Off\n")
    assert data == {"on": dt.date(2026, 4, 1), "flag": "NO", "x": "yes", "y": True,
                    "z": "Off"}
    with pytest.raises(Exception, match="chave repetida 'a'"):
        load_data_text("a: 1\na: 2\n")


def test_cases_check_speaks_english_with_lang_en_or_an_english_locale(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from abordo.faces.cli.main import app

    (tmp_path / "a-good.yaml").write_text(LATIN1_CASE, encoding="utf-8")
    (tmp_path / "b-wrong.yaml").write_text(
        LATIN1_CASE.replace("id: lat1", "id: lat2").replace("19320.00", "1.00"),
        encoding="utf-8")
    (tmp_path / "c-date.yaml").write_text(
        QUOTA_CASE.format(id="q", on='on: "31/04/2026"'), encoding="utf-8")
    want_en = ["OK lat1 (port_fine)",
               "FAIL lat2 (port_fine): amount: expected '1.00', got '19320.00'",
               f"input error: invalid case {tmp_path / 'c-date.yaml'}, line 3, field on: no such "
               "date 31/04/2026",
               "1 passed, 1 failed, 1 invalid or unreadable case file"]
    want_pt = ["OK lat1 (port_fine)",
               "FALHA lat2 (port_fine): amount: esperado '1.00', obtido '19320.00'",
               f"erro de entrada: caso inválido {tmp_path / 'c-date.yaml'}, linha 3, campo on: "
               "data inexistente 31/04/2026",
               "1 aprovado, 1 reprovado, 1 arquivo de caso inválido ou ilegível"]
    runner = CliRunner()
    en = runner.invoke(app, ["cases", "check", str(tmp_path), "--lang", "en"])
    assert (en.exit_code, en.output.splitlines()) == (2, want_en)
    locale = runner.invoke(app, ["cases", "check", str(tmp_path)],
                           env={"LANG": "en_US.UTF-8", "LC_ALL": "", "ABORDO_LANG": ""})
    assert (locale.exit_code, locale.output.splitlines()) == (2, want_en)
    pt = runner.invoke(app, ["cases", "check", str(tmp_path)], env={"LANG": "C.UTF-8"})
    assert (pt.exit_code, pt.output.splitlines()) == (2, want_pt)
    bad = runner.invoke(app, ["cases", "check", str(tmp_path), "--lang", "fr"])
    assert isinstance(bad.exception, InputError)  # exit 2 from the entry point
    assert (bad.exception.field, bad.exception.message) == (
        "--lang", "idioma 'fr' não suportado (pt ou en)")


FINE_CASE = ("id: f1\nengine: port_fine\ninput:\n  infraction: {provision: lei-9719/art-8, "
             "date: 2009-03-17, nature: 3, extent: medium, intent: true, workers: 7}\n"
             "expect: {cell: Em+Ic, amount: '19320.00'}\n")


@pytest.mark.parametrize(("old", "new", "why"), [
    # was "NÃO IMPLEMENTADO … ainda não implementado", exit 1
    ("engine: port_fine", "engine: port_fines",
     "linha 2, campo engine: motor desconhecido 'port_fines' (quis dizer port_fine? os "
     "motores: crew_quota, immigration, port_fine, sea_time)"),
    ("engine: port_fine", "engine: fines",
     "linha 2, campo engine: motor desconhecido 'fines' (os motores: crew_quota, "
     "immigration, port_fine, sea_time)"),
    # was ignored: the case checked nothing and passed
    ("expect:", "expected:",
     "linha 5, campo expected: campo desconhecido (quis dizer expect?); campo expect: "
     "ausente (o que o caso verifica)"),
    ("id: f1\n", "id: f1\nnotes: rever\n", "linha 2, campo notes: campo desconhecido"),
    # was a pass
    ("expect: {cell: Em+Ic, amount: '19320.00'}", "expect: {}",
     "linha 5, campo expect: vazio: um caso sem expectativas não verifica nada"),
    ("expect: {cell: Em+Ic, amount: '19320.00'}", "expect: [cell]",
     "linha 5, campo expect: deve ser um mapeamento (chave: valor)"),
    ("id: f1\n", "id: f1\noptions: [fines.x]\n",
     "linha 2, campo options: deve ser um mapeamento (chave: valor)"),
])
def test_a_case_whose_fields_are_wrong_is_bad_input_naming_line_and_field(
        tmp_path: Path, old: str, new: str, why: str) -> None:
    assert old in FINE_CASE
    (tmp_path / "c.yaml").write_text(FINE_CASE.replace(old, new), encoding="utf-8")
    (res,) = run_cases([tmp_path / "c.yaml"])
    assert (res.status, res.difference) == ("invalid", f"caso inválido {tmp_path / 'c.yaml'}, "
                                                       f"{why}")


def test_the_fields_the_format_describes_are_all_accepted(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(
        FINE_CASE.replace("id: f1\n", "id: f1\ndescription: x\non: 2026-01-10\noptions: {}\n"),
        encoding="utf-8")
    (res,) = run_cases([tmp_path / "c.yaml"])
    assert (res.status, res.difference) == ("pass", None)


@pytest.mark.parametrize(("text", "why"), [
    ("", "arquivo vazio"),
    ("# só um comentário\n", "arquivo vazio"),
    ("- id: a\n", "o arquivo deve conter um mapeamento (chave: valor)"),
    ("vessel: {name: X}\n", "faltam engine e expect"),
])
def test_an_empty_or_other_yaml_file_among_cases_is_bad_input_not_a_failed_case(
        tmp_path: Path, text: str, why: str) -> None:
    from typer.testing import CliRunner

    from abordo.faces.cli.main import app

    (tmp_path / "a.yaml").write_text(FINE_CASE, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(text, encoding="utf-8")
    _, b = run_cases([tmp_path / "a.yaml", tmp_path / "b.yaml"])
    assert (b.status, b.is_case, b.difference) == (
        "invalid", False, f"caso inválido {tmp_path / 'b.yaml'}: não é um caso resolvido ({why})")
    # was "ERRO b (?)", "1 aprovado, 1 reprovado", exit 1
    r = CliRunner().invoke(app, ["cases", "check", str(tmp_path)])
    assert (r.exit_code, r.output.splitlines()) == (2, [
        "OK f1 (port_fine)", f"erro de entrada: {b.difference}",
        "1 aprovado, 0 reprovados, 1 arquivo de caso inválido ou ilegível"])


def test_an_unexpected_input_error_shows_the_engine_s_message_line_and_field(
        tmp_path: Path) -> None:
    # Was only "verdict: esperado 'non_compliant', obtido 'input_error'".
    case = tmp_path / "c.yaml"
    case.write_text(QUOTA_CASE.format(id="c", on="on: 2026-04-01").replace(
        "{id: B, rank: AB, nationality: BR}", "{id: B, rank: AB, nationality: ZZ}"),
        encoding="utf-8")
    (res,) = run_cases([case])
    assert (res.status, res.difference, res.difference_en) == (
        "fail",
        f"verdict: esperado 'non_compliant', obtido 'input_error' — o motor recusou a entrada: "
        f"arquivo {case}, linha 11, campo input.crew[1].nationality: país desconhecido 'ZZ' "
        "(use o código ISO 3166-1, ex.: BR)",
        f"verdict: expected 'non_compliant', got 'input_error' — the engine refused the input: "
        f"file {case}, row 11, field input.crew[1].nationality: unknown country 'ZZ' (use the "
        "ISO 3166-1 code, e.g. BR)")


def test_an_input_error_on_another_field_shows_it_and_a_crew_file_keeps_its_own_row(
        tmp_path: Path) -> None:
    (tmp_path / "crew.csv").write_text("id,rank,nationality\nA,Master,NO\nB,AB,ZZ\n",
                                       encoding="utf-8")
    case = tmp_path / "c.yaml"
    case.write_text(QUOTA_CASE.format(id="c", on="on: 2026-04-01").replace(
        "  crew:\n    - {id: A, rank: Master, nationality: NO}\n"
        "    - {id: B, rank: AB, nationality: BR}\n", "  crew_file: crew.csv\n").replace(
        "expect: {verdict: non_compliant, days_of_operation: 90}",
        "expect: {verdict: input_error, error_field: crew_file}"), encoding="utf-8")
    (res,) = run_cases([case])
    assert res.status == "fail"
    assert res.difference == (
        "error_field: esperado 'crew_file', obtido 'nationality' — o motor recusou a entrada: "
        f"arquivo {tmp_path / 'crew.csv'}, linha 3, campo nationality: país desconhecido 'ZZ' "
        "(use o código ISO 3166-1, ex.: BR)")
    # the same error expected: the case passes, nothing more said
    case.write_text(case.read_text(encoding="utf-8").replace(
        "error_field: crew_file", "error_field: nationality"), encoding="utf-8")
    (res,) = run_cases([case])
    assert (res.status, res.difference) == ("pass", None)


def test_cases_sharing_an_id_are_each_reported_naming_the_other_file(tmp_path: Path) -> None:
    # Was "OK f1 (port_fine)" twice, exit 0: which file an OK line spoke of was unknowable.
    from typer.testing import CliRunner

    from abordo.faces.cli.main import app

    (tmp_path / "sub").mkdir()
    a, b, c = tmp_path / "a.yaml", tmp_path / "sub" / "b.yaml", tmp_path / "c.yaml"
    a.write_text(FINE_CASE, encoding="utf-8")
    b.write_text("# a copy\n" + FINE_CASE, encoding="utf-8")
    c.write_text(FINE_CASE.replace("id: f1", "id: f2"), encoding="utf-8")
    r = CliRunner().invoke(app, ["cases", "check", str(tmp_path)])
    assert (r.exit_code, r.output.splitlines()) == (2, [
        f"erro de entrada: caso inválido {a}, linha 1, campo id: id repetido 'f1' (também em "
        f"{b})",
        "OK f2 (port_fine)",
        f"erro de entrada: caso inválido {b}, linha 2, campo id: id repetido 'f1' (também em "
        f"{a})",
        "1 aprovado, 0 reprovados, 2 arquivos de caso inválidos ou ilegíveis"])
    (_, _, en) = run_cases([a, c, b])
    assert en.difference_en == (f"invalid case {b}, line 2, field id: duplicate id 'f1' (also "
                                f"in {a})")

"""Parser messages (PyYAML, json) in Portuguese, the original kept in English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from abordo.law import parsing
from abordo.law.documents import read_document
from abordo.law.errors import InputError


@pytest.mark.parametrize("table", [parsing._YAML, parsing._JSON])
def test_every_template_formats_with_its_groups(table: tuple[tuple[str, str], ...]) -> None:
    for pattern, pt in table:
        groups = re.compile(pattern).groups
        assert "{" not in pt.format(*["x"] * groups).replace("{x", "")


@pytest.mark.parametrize(("text", "suffix", "pt", "en"), [
    ("vessel: {name: X\n  imo: [\n", ".yaml",
     "YAML inválido: esperava ',' ou '}' (fim do mapa em chaves), mas encontrou ':'",
     "invalid YAML: expected ',' or '}', but got ':'"),
    ("a:\n\t- b\n", ".yaml", "caractere '\\t' não pode começar um valor", "found character"),
    ('{"vessel": {"name": "X",}}', ".json",
     "JSON inválido: esperava o nome de um campo entre aspas duplas",
     "invalid JSON: Expecting property name enclosed in double quotes"),
    ('{"a": 1} x', ".json", "JSON inválido: conteúdo após o fim do documento",
     "invalid JSON: Extra data"),
])
def test_syntax_errors_read_in_portuguese(tmp_path: Path, text: str, suffix: str, pt: str,
                                          en: str) -> None:
    path = tmp_path / f"case{suffix}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_document(path)
    assert pt in exc.value.message and en in (exc.value.message_en or "")


def test_an_unknown_message_is_kept_as_written() -> None:
    assert parsing.yaml_message("something new") == "something new"
    with pytest.raises(json.JSONDecodeError) as exc:
        json.loads("[1,]")
    assert parsing.json_message(exc.value.msg) == "esperava um valor"
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load("a: [")


def test_parser_token_names_are_said_in_words() -> None:
    assert parsing.yaml_message("expected ',' or '}', but got '<stream end>'") == (
        "esperava ',' ou '}' (fim do mapa em chaves), mas encontrou o fim do arquivo")
    assert parsing.json_message("Illegal trailing comma before end of object") == (
        "vírgula sobrando antes de '}'")


@pytest.mark.parametrize(("text", "line", "pt", "en"), [
    ("vessel:\n  name: Coastal\x07Spirit\n", 2,
     "YAML inválido: caractere de controle U+0007 (invisível) na coluna 16, não permitido: "
     "apague-o", "invalid YAML: control character U+0007 (invisible) at column 16, not "
     "allowed: delete it"),
    ('vessel:\r\n  imo: "9404649"\r\n  name: "A\x00B"\r\n', 3,
     "YAML inválido: caractere de controle U+0000 (invisível) na coluna 11, não permitido: "
     "apague-o", "invalid YAML: control character U+0000 (invisible) at column 11, not "
     "allowed: delete it"),
])
def test_a_control_character_in_yaml_is_named_with_its_line_and_column(
        tmp_path: Path, text: str, line: int, pt: str, en: str) -> None:
    # Was PyYAML's "unacceptable character #x0007: special characters are not allowed
    # in "<unicode string>", position 25", without a line; a NUL byte made the whole file
    # "not text".
    path = tmp_path / "case.yaml"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(InputError) as exc:
        read_document(path)
    assert (exc.value.file, exc.value.row) == (str(path), line)
    assert (exc.value.message, exc.value.message_en) == (pt, en)


def test_a_control_character_in_json_is_named_with_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "case.json"
    path.write_bytes(b'{"vessel":\n {"name": "A\x07B"}}')
    with pytest.raises(InputError) as exc:
        read_document(path)
    assert (exc.value.file, exc.value.row) == (str(path), 2)
    assert exc.value.message == "JSON inválido: caractere de controle dentro de um texto " \
        "(coluna 13)"


def test_every_reader_of_yaml_names_the_control_character(tmp_path: Path) -> None:
    from abordo.casebook import run_case
    from abordo.sea_time.io import load_input

    path = tmp_path / "in.yaml"
    path.write_text("seafarer: {id: \"AQ\x07-1\", group: maritime}\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_input(path)
    assert (exc.value.file, exc.value.row) == ("in.yaml", 1)
    assert exc.value.message == ("YAML inválido: caractere de controle U+0007 (invisível) "
                                 "na coluna 19, não permitido: apague-o")
    case = tmp_path / "case.yaml"
    case.write_text("id: x\nengine: fines\ninput:\n  a: \"b\x07c\"\nexpect: {}\n",
                    encoding="utf-8")
    assert run_case(case).difference == (
        f"caso ilegível {case}, linha 4: YAML inválido: caractere de controle U+0007 "
        "(invisível) na coluna 8, não permitido: apague-o")


def test_utf16_without_a_mark_is_still_not_text(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_bytes("vessel: {name: X}\n".encode("utf-16-le"))
    with pytest.raises(InputError) as exc:
        read_document(path)
    assert exc.value.message == "o arquivo não é texto (binário, ou texto UTF-16 sem marca)"

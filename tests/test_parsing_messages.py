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

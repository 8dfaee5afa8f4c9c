"""JSON inputs name the line of a bad field, as YAML inputs do: the line index is built, on
first use only, from the YAML node tree of the same text (abordo.law.documents)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from abordo.crew.load import load_vessel_case
from abordo.law.documents import parse_document
from abordo.law.errors import InputError

CASE = {
    "vessel": {"name": "Atlântico", "flag": "NO", "activity": "offshore_support"},
    "operation": {"contract": "charter", "ajb_presence": [{"entry": "2026-02-30"}]},
    "crew": [{"id": "c1", "rank": "Master", "nationality": "BR"},
             {"id": "c2", "rank": "AB", "nationality": "XX"}],
}


def _errors(path: Path) -> list[tuple[int | None, str | None]]:
    with pytest.raises(InputError) as caught:
        load_vessel_case(path)
    exc = caught.value
    return [(e.row, e.field) for e in [exc, *exc.details]]


@pytest.mark.parametrize("indent", [2, "\t"])
def test_an_indented_json_case_names_each_bad_field_s_line(tmp_path: Path,
                                                           indent: int | str) -> None:
    path = tmp_path / "case.json"
    text = json.dumps(CASE, indent=indent, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    entry = next(i for i, t in enumerate(lines, 1) if "2026-02-30" in t)
    nat = next(i for i, t in enumerate(lines, 1) if '"XX"' in t)
    assert (entry, nat) == (11, 24)
    assert _errors(path) == [(entry, "operation.ajb_presence[0].entry"),
                             (nat, "crew[1].nationality")]


def test_a_one_line_json_case_puts_every_error_on_line_1(tmp_path: Path) -> None:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(CASE), encoding="utf-8")
    assert _errors(path) == [(1, "operation.ajb_presence[0].entry"),
                             (1, "crew[1].nationality")]


def test_the_json_line_index_is_built_only_when_asked() -> None:
    data, index = parse_document('{\n  "a": {\n    "b": 1\n  }\n}', True, "x.json")
    assert data == {"a": {"b": 1}}
    assert dict.__len__(index) == 0  # nothing parsed yet
    assert index[("a", "b")] == 3
    assert ("a",) in index and len(index) == 3  # (), ("a",), ("a", "b")

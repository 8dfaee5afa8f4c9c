"""One reading of coded values for every area (abordo.law.values): a code or its Portuguese
name → the code, and one refusal message, each area's names kept as data in its own data
folder."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import abordo.port_fines.model as fines_model
from abordo.law.values import ValueTable, value_table
from abordo.port_fines import grade


def test_crew_and_fines_read_their_tables_through_the_core() -> None:
    crew = value_table("abordo.crew")
    fines = value_table("abordo.port_fines")
    assert crew.value_code("activity", "Apoio_Marítimo") == "offshore_support"
    assert crew.value_code("contract", "afretamento") == "charter"
    assert fines.value_code("extent", "MÉDIA") == "medium"
    assert fines.value_code("extent", "eg") == "severe"
    assert fines.value_code("extent", "enorme") is None
    assert fines.codes("extent") == ["light", "medium", "severe"]
    assert fines.first_names("extent") == ["leve", "média", "grave"]


def test_the_fines_extent_names_are_data_not_code() -> None:
    source = inspect.getsource(fines_model)
    assert "EXTENT_ALIASES" not in source and '"grave"' not in source
    table = Path(fines_model.__file__).parent / "data" / "values.yaml"
    assert "grave" in table.read_text(encoding="utf-8")


def test_one_refusal_message_for_every_table() -> None:
    table = ValueTable({"purpose": {"promotion": ["promoção"], "course": ["curso"]}}, "t.yaml")
    assert table.refusal("purpose", "x") == (
        "valor não permitido; esperado um de: promotion, course — ou em português: "
        "promoção, curso",
        "value not allowed; expected one of: promotion, course — or in Portuguese: "
        "promoção, curso")
    # the crew's refusal is this one, with its own table
    assert value_table("abordo.crew").refusal("contract", "x")[0].startswith(
        "valor não permitido; esperado um de: charter, services, risk, lease, none — ou em "
        "português: afretamento, prestação de serviço")


def test_a_name_given_to_two_codes_is_refused_when_the_table_is_read() -> None:
    with pytest.raises(ValueError, match="'grave' names both light and severe"):
        ValueTable({"extent": {"light": ["grave"], "severe": ["grave"]}}, "t.yaml")


@pytest.mark.parametrize(("written", "code", "cell"), [
    ("Média", "medium", "Em+Is"), ("EL", "light", "El+Is"), ("grave", "severe", "Eg+Is")])
def test_fines_extent_unchanged(written: str, code: str, cell: str) -> None:
    data = {"infraction": {"provision": "lei-9719/art-8", "date": "2005-06-10", "nature": 3,
                           "extent": written, "intent": False, "workers": 2}}
    result = grade(data).result
    assert (result["extent"], result["cell"]) == (code, cell)

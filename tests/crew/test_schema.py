"""The published JSON Schemas (``abordo schema``, ``/schemas/{kind}``) accept every shipped
example of their kind."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from abordo.crew.model import VesselCase
from abordo.faces.schemas import input_schema
from abordo.law.documents import InputLoader

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [("vessel", p) for p in sorted((ROOT / "examples").glob("*.yaml"))] + [
    ("fine", p) for p in sorted((ROOT / "examples" / "fines").glob("*.yaml"))] + [
    ("sea-time", p) for p in sorted((ROOT / "examples" / "sea-time").glob("*.yaml"))]


@pytest.mark.parametrize(("kind", "path"), EXAMPLES, ids=[p.name for _, p in EXAMPLES])
def test_examples_valid_against_published_schema(kind: str, path: Path) -> None:
    schema = input_schema(kind)
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=InputLoader)
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]
    assert errors == []


def test_schema_rejects_unknown_field() -> None:
    schema = VesselCase.model_json_schema()
    bad = {"vessel": {"flag": "NO", "activity": "cabotage", "colour": "red"}, "crew": []}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(bad))


def test_portuguese_values_and_brazilian_dates_accepted() -> None:
    from abordo.crew.load import parse_vessel_case

    case = parse_vessel_case({
        "vessel": {"flag": "Noruega", "activity": "cabotage"},
        "operation": {"ajb_presence": [{"entry": "20/05/2026"}]},
        "crew": [{"id": "a", "rank": "x", "nationality": "Brasil", "department": "Convés",
                  "level": "não-graduado"}, {"id": "b", "nationality": "PT/Brasil"}]})
    assert case.vessel.flag == "NO"
    assert case.operation.ajb_presence[0].entry.isoformat() == "2026-05-20"
    a, b = case.crew_list
    assert (a.department, a.level, a.nationality) == ("deck", "junior_rating", ("BR",))
    assert b.nationality == ("PT", "BR")

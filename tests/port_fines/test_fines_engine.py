"""Unit tests of the grading engine: real values from Portaria MTE 746/2000 and Lei 9.719."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from fines_helpers import make_input

from abordo.law.decision import Verdict
from abordo.port_fines import FineInput, grade

D = Decimal

# Annex II: ceiling multiple of the minimum per nature and cell ("max" = 10 × min here).
MATRIX = {
    1: {"El+Is": 1, "El+Ic": 3, "Em+Is": 4, "Em+Ic": 6, "Eg+Is": 7, "Eg+Ic": 10},
    2: {"El+Is": 1, "El+Ic": 4, "Em+Is": 5, "Em+Ic": 7, "Eg+Is": 8, "Eg+Ic": 10},
    3: {"El+Is": 1, "El+Ic": 5, "Em+Is": 6, "Em+Ic": 8, "Eg+Is": 9, "Eg+Ic": 10},
}
AXES = {"El": "light", "Em": "medium", "Eg": "severe"}


@pytest.mark.parametrize(
    ("nature", "cell", "multiple"),
    [(n, c, k) for n, row in MATRIX.items() for c, k in row.items()],
)
def test_every_cell_of_annex_ii(nature: int, cell: str, multiple: int) -> None:
    extent, intent = cell.split("+")
    d = grade(make_input(nature=nature, extent=AXES[extent], intent=intent == "Ic", workers=1))
    r = d.result
    ceiling = D("345.00") * multiple
    assert d.verdict == Verdict.COMPUTED
    assert r["cell"] == cell
    assert r["multiple"] == multiple
    assert r["range"] == [D("345.00"), ceiling]
    assert r["ceiling"] == ceiling
    assert r["amount"] == ceiling
    assert r["amount"].as_tuple().exponent == -2


def test_max_cell_fixed_alternative() -> None:
    data = make_input(nature=2, extent="severe", intent=True, workers=1)
    default = grade(data)
    fixed = grade(data, {"fines.max_cell": "fixed"})
    assert default.result["range"] == [D("345.00"), D("3450.00")]
    assert fixed.result["range"] == [D("3450.00"), D("3450.00")]
    assert "fines.max_cell.up_to_max" in [i.id for i in default.interpretations]
    assert "fines.max_cell.fixed" in [i.id for i in fixed.interpretations]
    assert fixed.result["amount"] == D("3450.00")


def test_an_option_the_grading_does_not_rest_on_is_reported() -> None:
    """The cell is not the maximum one: fines.max_cell decides nothing — said, not dropped
    (as the quota engine says it)."""
    d = grade(make_input(), {"fines.max_cell": "fixed"})
    notes = [f for f in d.findings if f.id == "option_not_applicable"]
    assert [(f.severity, f.text.pt) for f in notes] == [(
        "info", "Opção fines.max_cell=fixed não aplicada: esta decisão não depende dessa "
        "leitura (a regra aplicável não a usa).")]
    assert d.result["amount"] == grade(make_input()).result["amount"]
    used = grade(make_input(nature=2, extent="severe", intent=True, workers=1),
                 {"fines.max_cell": "fixed"})
    assert not [f for f in used.findings if f.id == "option_not_applicable"]


def test_rest_interval_per_worker_f01() -> None:
    d = grade(make_input())
    r = d.result
    assert d.regime == "mte-portaria-746-2000"
    assert (r["cell"], r["per_worker"], r["workers"]) == ("Eg+Is", True, 12)
    assert r["per_worker_value"] == D("3105.00")
    assert r["amount"] == D("37260.00")
    assert r["doubled"] is False and r["minimum_applied"] is False
    assert "Lei nº 9.719/1998, art. 10, III" in [c.label for c in d.citations]
    assert [i.id for i in d.interpretations] == ["fines.cell.ceiling_default"]
    # The nature came from the caller: flagged unconfirmed (Annex I lost the column).
    assert [u.name for u in d.unconfirmed] == ["natureza[lei-9719/art-8]"]


def test_per_infraction_provision_ignores_workers() -> None:
    data = make_input(provision="lei-9719/art-9/safety", nature=1, extent="medium",
                      intent=False, workers=40)
    r = grade(data).result
    assert r["per_worker"] is False
    assert r["multiplier"] == 1
    assert r["range"] == [D("575.00"), D("2300.00")]
    assert r["amount"] == D("2300.00")


def test_lei_8630_routed_by_art_11() -> None:
    d = grade(make_input(provision="lei-8630/art-22", nature=1, extent="light", intent=True,
                         workers=None))
    labels = [c.label for c in d.citations]
    assert "Lei nº 9.719/1998, art. 11" in labels
    assert "Lei nº 9.719/1998, art. 10, I" in labels
    assert d.result["amount"] == D("519.00")  # 3 × 173,00, per infraction


def test_corrected_minimum_f03() -> None:
    d = grade(make_input(provision="lei-8630/art-45", date=dt.date(2008, 9, 2), nature=1,
                         extent="severe", intent=True, workers=5, sanable=True,
                         corrected=True))
    r = d.result
    assert r["minimum_applied"] is True
    assert r["per_worker_value"] == D("345.00")
    assert r["amount"] == D("1725.00")


def test_correction_of_non_sanable_infraction_does_not_lower() -> None:
    r = grade(make_input(sanable=False, corrected=True)).result
    assert r["minimum_applied"] is False
    assert r["amount"] == D("37260.00")


def test_sanable_without_proved_correction_does_not_lower() -> None:
    assert grade(make_input(sanable=True)).result["minimum_applied"] is False


def test_double_once_f06() -> None:
    d = grade(make_input(provision="lei-9719/art-2/inc-II", date=dt.date(2009, 11, 20),
                         nature=2, extent="light", intent=False, workers=3,
                         obstruction=True, contempt=True))
    r = d.result
    assert r["range"] == [D("345.00"), D("345.00")]
    assert r["doubled"] is True
    assert r["doubling_causes"] == ["obstruction", "contempt"]
    assert r["per_worker_value"] == D("690.00")
    assert r["amount"] == D("2070.00")
    assert "fines.double.once" in [i.id for i in d.interpretations]


def test_three_causes_still_double_once() -> None:
    r = grade(make_input(workers=1, obstruction=True, contempt=True,
                         priors=[{"provision": "lei-9719/art-8",
                                  "imposed_on": "2005-01-01"}])).result
    assert r["doubling_causes"] == ["recidivism", "obstruction", "contempt"]
    assert r["amount"] == D("6210.00")  # 2 × 3.105,00, not 8 ×


CORRECTED_RECIDIVIST: dict[str, Any] = {
    "workers": 2, "sanable": True, "corrected": True,
    "priors": [{"provision": "lei-9719/art-8", "imposed_on": "2004-03-01"}],
}


def test_doubling_after_minimum_by_default() -> None:
    d = grade(make_input(**CORRECTED_RECIDIVIST))
    r = d.result
    assert r["minimum_applied"] is True and r["doubled"] is True
    assert r["per_worker_value"] == D("690.00")
    assert r["amount"] == D("1380.00")
    assert "fines.double.after_minimum" in [i.id for i in d.interpretations]


@pytest.mark.parametrize("options", [
    {"fines": "minimum.final"},
    {"fines": "fines.minimum.final"},
    {"fines.minimum": "final"},
])
def test_minimum_final_alternative(options: dict[str, str]) -> None:
    d = grade(make_input(**CORRECTED_RECIDIVIST), options)
    r = d.result
    assert r["minimum_applied"] is True and r["doubled"] is False
    assert r["doubling_causes"] == ["recidivism"]
    assert r["amount"] == D("690.00")
    ids = [i.id for i in d.interpretations]
    assert "fines.minimum.final" in ids
    assert next(i for i in d.interpretations if i.id == "fines.minimum.final").chosen_by == \
        "caller"


def test_order_interpretation_only_listed_when_both_apply() -> None:
    d = grade(make_input(obstruction=True))
    assert not {"fines.double.after_minimum", "fines.minimum.final"} & {
        i.id for i in d.interpretations}


def test_chosen_value_with_reason_is_recorded() -> None:
    reason = "primeira autuação da empresa no porto; escala refeita no dia seguinte"
    d = grade(make_input(grading={"chosen_value": "2000.00", "reason": reason}))
    r = d.result
    assert r["graded_value"] == D("2000.00")
    assert r["chosen_value"] == D("2000.00")
    assert r["chosen_reason"] == reason
    assert r["amount"] == D("24000.00")
    assert reason in r["justification"]
    assert any(reason in s.text.pt for s in d.trace)


@pytest.mark.parametrize(("reason", "written"), [
    ("primeira autuação (art. 5º)", "primeira autuação (art. 5º)."),
    ("escala refeita no dia seguinte.", "escala refeita no dia seguinte."),
    ("motivo", "motivo."),
])
def test_chosen_reason_ends_the_sentence_once(reason: str, written: str) -> None:
    text = grade(make_input(grading={"chosen_value": "2000.00", "reason": reason})
                 ).result["justification"]
    line = next(x for x in text.splitlines() if x.startswith("6. Valor fixado"))
    assert line.endswith("pelo seguinte motivo: " + written)


def test_chosen_value_equal_to_ceiling_needs_no_reason() -> None:
    r = grade(make_input(grading={"chosen_value": "3105"})).result
    assert r["graded_value"] == D("3105.00") and r["chosen_reason"] is None


def test_chosen_value_then_doubled() -> None:
    r = grade(make_input(workers=1, contempt=True,
                         grading={"chosen_value": "1000.00", "reason": "motivo"})).result
    assert r["amount"] == D("2000.00")


def test_facts_fill_the_justification() -> None:
    d = grade(make_input(facts={"extent": "Doze avulsos escalados com 6 horas de intervalo.",
                                "intent": "Sistema de escala alertou e o alerta foi ignorado."}))
    text = d.result["justification"]
    assert "Doze avulsos escalados com 6 horas de intervalo." in text
    assert "Sistema de escala alertou" in text
    assert "[descrever" not in text
    assert "art. 6º" in text
    assert "(12) não foi considerado na avaliação da extensão (art. 5º)" in text


def test_justification_skeleton_has_placeholders() -> None:
    text = grade(make_input()).result["justification"]
    assert "Extensão: grave. [descrever os efeitos" in text
    assert "Intenção: sem intenção. [indicar os motivos" in text
    assert "R$ 3.105,00 × 12 trabalhadores em situação irregular = R$ 37.260,00" in text


def test_every_figure_has_a_citation() -> None:
    d = grade(make_input(**CORRECTED_RECIDIVIST))
    basis = d.result["basis"]
    for key in ("range", "ceiling", "graded_value", "minimum_applied", "doubled",
                "recidivism_from", "per_worker_value", "amount"):
        assert basis[key], key
    for m in d.result["modifiers"]:
        assert m["citations"]
    for step in d.trace:
        assert step.citation is not None, step.rule


def test_accepts_fine_input_model_and_portuguese_extent() -> None:
    model = FineInput.model_validate(make_input(extent="grave", nature="3"))
    assert grade(model).result["cell"] == "Eg+Is"


def test_json_is_plain_and_exact() -> None:
    j = grade(make_input()).to_json("en")
    assert j["result"]["amount"] == "37260.00"
    assert j["result"]["range"] == ["345.00", "3105.00"]
    assert j["verdict"] == "computed"
    assert j["summary"].startswith("Fine of R$37,260.00")


def test_thousands_are_marked_in_the_texts() -> None:
    from abordo.law.text import whole

    assert (whole(1000), whole(1000, "en"), whole(12), whole(1_000_000)) == (
        "1.000", "1,000", "12", "1.000.000")

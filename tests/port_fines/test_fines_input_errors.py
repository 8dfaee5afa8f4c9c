"""Every bad input is an InputError naming its field path."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from fines_helpers import make_input

from abordo.law.errors import InputError
from abordo.port_fines import grade, load_catalogue
from abordo.port_fines.catalogue import Catalogue


def _field(data: dict[str, Any], options: dict[str, Any] | None = None,
           catalogue: Catalogue | None = None) -> str | None:
    with pytest.raises(InputError) as info:
        grade(data, options, catalogue=catalogue)
    field: str | None = info.value.field
    return field


@pytest.mark.parametrize(("data", "field"), [
    (make_input(provision="lei-9719/art-99"), "infraction.provision"),
    (make_input(priors=[{"provision": "lei-9719/art-77", "imposed_on": "2004-01-01"}]),
     "offender.prior_penalties[0].provision"),
    (make_input(nature=None), "infraction.nature"),
    (make_input(nature=4), "infraction.nature"),
    (make_input(workers=None), "infraction.workers"),
    (make_input(workers=0), "infraction.workers"),
    (make_input(extent="huge"), "infraction.extent"),
    (make_input(extent=None), "infraction.extent"),
    (make_input(intent="maybe"), "infraction.intent"),
    (make_input(intent=None), "infraction.intent"),
    (make_input(date="2005-13-40"), "infraction.date"),
    (make_input(date=None), "infraction.date"),
    (make_input(priors=[{"provision": "lei-9719/art-8", "imposed_on": "ontem"}]),
     "offender.prior_penalties[0].imposed_on"),
    (make_input(corrected=True), "infraction.sanable"),
    (make_input(colour="red"), "infraction.colour"),
    (make_input(facts={"extent": "x", "mood": "y"}), "infraction.facts.mood"),
    ({**make_input(), "inspector": "X"}, "inspector"),
    (make_input(grading={"chosen_value": "2000.00"}), "grading.reason"),
    (make_input(grading={"chosen_value": "2000.00", "reason": "   "}), "grading.reason"),
    (make_input(grading={"chosen_value": "3105.01", "reason": "r"}), "grading.chosen_value"),
    (make_input(grading={"chosen_value": "344.99", "reason": "r"}), "grading.chosen_value"),
    (make_input(grading={"chosen_value": "2000.005", "reason": "r"}), "grading.chosen_value"),
    (make_input(grading={"chosen_value": "abc", "reason": "r"}), "grading.chosen_value"),
    (make_input(grading={"reason": "sem valor"}), "grading.chosen_value"),
])
def test_input_error_names_field(data: dict[str, Any], field: str) -> None:
    assert _field(data) == field


def test_unknown_option_and_variant() -> None:
    assert _field(make_input(), {"fines.rounding": "up"}) == "options.fines.rounding"
    assert _field(make_input(), {"fines": "triple"}) == "options.fines"


def test_nature_contradicting_a_known_catalogue_nature() -> None:
    cat = Catalogue([p.model_copy(update={"nature": 2}) if p.id == "lei-9719/art-8" else p
                     for p in load_catalogue()])
    assert _field(make_input(nature=3), catalogue=cat) == "infraction.nature"
    # Omitted, the catalogue's nature is used; the same value is accepted.
    assert grade(make_input(nature=None), catalogue=cat).result["nature"] == 2
    d = grade(make_input(nature=2), catalogue=cat)
    assert d.result["nature_source"] == "catalogue"
    assert not d.unconfirmed


def test_unknown_provision_suggests_close_ids() -> None:
    with pytest.raises(InputError) as info:
        grade(make_input(provision="lei-9719/art8"))
    assert "lei-9719/art-8" in info.value.message
    assert info.value.message_en and "did you mean" in info.value.message_en


def test_missing_nature_message_explains_why() -> None:
    with pytest.raises(InputError) as info:
        grade(make_input(provision="lei-9719/art-9/safety", nature=None, workers=None))
    assert info.value.field == "infraction.nature"
    assert "natureza" in info.value.message


@pytest.mark.parametrize(("data", "field"), [
    (make_input(grading={"chosen_value": "1e30", "reason": "r"}), "grading.chosen_value"),
    (make_input(grading={"chosen_value": "NaN", "reason": "r"}), "grading.chosen_value"),
    (make_input(grading={"chosen_value": "1e-30", "reason": "r"}), "grading.chosen_value"),
    (make_input(workers=10**40), "infraction.workers"),
    (make_input(workers=True), "infraction.workers"),
    (make_input(nature=True), "infraction.nature"),
    (make_input(provision=5), "infraction.provision"),
])
def test_extreme_values_are_input_errors_not_crashes(data: dict[str, Any], field: str) -> None:
    assert _field(data) == field


def test_prior_penalty_in_year_9999_is_refused_naming_the_field() -> None:
    # Dates of every input are 1900–2199 (a typo like 9026 is refused), not a crash.
    with pytest.raises(InputError) as err:
        grade(make_input(priors=[{"provision": "lei-9719/art-8", "imposed_on": "9999-12-31"}]))
    assert err.value.field == "offender.prior_penalties[0].imposed_on"
    assert "1900–2199" in err.value.message


def test_english_messages_are_worded_not_the_validation_library_s() -> None:
    with pytest.raises(InputError) as err:
        grade(make_input(extent="huge"))
    assert err.value.message_en == ("value not allowed; expected one of: light, medium, "
                                    "severe — or in Portuguese: leve, média, grave (got 'huge')")
    assert err.value.message == ("valor não permitido; esperado um de: light, medium, severe "
                                 "— ou em português: leve, média, grave (recebido: 'huge')")


def test_extent_refusal_names_the_portuguese_names_it_accepts() -> None:
    # As the vessel's activity: the codes and the names leve, média, grave (art. 3º, II).
    with pytest.raises(InputError) as err:
        grade(make_input(extent="enorme"))
    assert err.value.field == "infraction.extent"
    assert err.value.message == ("valor não permitido; esperado um de: light, medium, severe "
                                 "— ou em português: leve, média, grave (recebido: 'enorme')")
    assert grade(make_input(extent="Média")).result["extent"] == "medium"


def test_unknown_provision_listed_with_the_other_field_errors() -> None:
    data = make_input(extent="sever")
    data["infraction"]["provision"] = "lei-9719/art-88"
    with pytest.raises(InputError) as err:
        grade(data)
    fields = [e.field for e in [err.value, *err.value.details]]
    assert fields == ["infraction.extent", "infraction.provision"]
    assert "dispositivo desconhecido 'lei-9719/art-88'" in err.value.details[0].message


@pytest.mark.parametrize("written", ["2.000,00", "R$ 2.000,00", "2000,00", "2000.00", "2000"])
def test_a_chosen_value_in_a_file_may_be_written_the_brazilian_way(written: str) -> None:
    from decimal import Decimal

    from abordo.port_fines.model import Grading

    assert Grading.model_validate({"chosen_value": written, "reason": "x"}).chosen_value == \
        Decimal("2000")


@pytest.mark.timeout(20)
@pytest.mark.parametrize("written", ["1e999999999", "1e10000000", "-1e999999999"])
def test_a_huge_exponent_is_refused_at_once_in_a_short_message(written: str) -> None:
    # It used to be expanded into millions of digits by the range message (or hang).
    with pytest.raises(InputError) as err:
        grade(make_input(grading={"chosen_value": written, "reason": "r"}))
    assert err.value.field == "grading.chosen_value"
    assert err.value.message == ("número grande demais (máximo 15 algarismos antes da "
                                 f"vírgula) (recebido: '{written}')")
    assert err.value.details == []


def test_a_chosen_value_grouped_with_a_comma_is_refused_as_ambiguous() -> None:
    # "2,500" is R$ 2,50 to a Brazilian and R$ 2.500,00 to an English reader: neither guessed.
    with pytest.raises(InputError) as err:
        grade(make_input(grading={"chosen_value": "2,500", "reason": "r"}))
    assert err.value.field == "grading.chosen_value"
    assert err.value.message.startswith("valor ambíguo '2,500': escreva 2500,00 ou 2.500,00")
    # Written the Brazilian way it is read as written (12 workers × R$ 2.500,00).
    assert grade(make_input(grading={"chosen_value": "2.500,00", "reason": "r"})
                 ).result["amount"] == Decimal("30000.00")
    assert grade(make_input(grading={"chosen_value": "2500,00", "reason": "r"})
                 ).result["amount"] == Decimal("30000.00")


def test_one_infraction_per_input_as_the_docs_say() -> None:
    # Several violations of one act are several autos, one input each, with no total
    # (docs/port-fines.md, "One infraction per input"): a list is refused, not summed.
    with pytest.raises(InputError) as info:
        grade({"infraction": [make_input()["infraction"], make_input()["infraction"]]})
    assert (info.value.field, info.value.message) == ("infraction", "objeto esperado")
    assert _field({**make_input(), "infractions": []}) == "infractions"
    docs = (Path(__file__).resolve().parents[2] / "docs" / "port-fines.md").read_text(
        encoding="utf-8")
    assert "**One infraction per input.**" in docs
    assert ("There is no\nper-act or per-inspection total: each report gives its own amount"
            in docs)

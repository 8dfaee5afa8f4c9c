"""Activity and contract written as a Brazilian planner writes them — the code or its
Portuguese name — read through one table (crew/data/values.yaml) by the vessel-case model
(``abordo check``) and the screen's vessels table."""

from __future__ import annotations

from typing import Any

import pytest

from abordo.crew.load import parse_vessel_case
from abordo.crew.model import Activity, Contract
from abordo.crew.values import codes, value_code
from abordo.law import InputError


def case(activity: Any, contract: Any = "charter") -> dict[str, Any]:
    return {"vessel": {"flag": "NO", "activity": activity},
            "operation": {"contract": contract,
                          "ajb_presence": [{"entry": "2026-01-01", "exit": None}]},
            "crew": []}


@pytest.mark.parametrize(("written", "code"), [
    ("cabotagem", "cabotage"), ("Cabotagem", "cabotage"), ("CABOTAGEM", "cabotage"),
    ("apoio marítimo", "offshore_support"), ("apoio_maritimo", "offshore_support"),
    ("Apoio-Marítimo", "offshore_support"), ("  apoio   maritimo ", "offshore_support"),
    ("apoio portuário", "port_support"), ("longo curso", "long_haul"),
    ("navegação interior nacional", "inland_national"),
    ("navegação interior de percurso internacional", "inland_international"),
    ("plataforma", "platform"), ("prospecção", "exploration"),
    ("regaseificação", "regasification"), ("cruzeiro", "cruise"), ("pesca", "fishing"),
    ("offshore_support", "offshore_support"), ("Cabotage", "cabotage")])
def test_an_activity_is_read_from_its_portuguese_name(written: str, code: str) -> None:
    assert parse_vessel_case(case(written)).vessel.activity is Activity(code)


@pytest.mark.parametrize(("written", "code"), [
    ("afretamento", "charter"), ("Afretamento por tempo", "charter"),
    ("prestação de serviço", "services"), ("Prestacao de Servicos", "services"),
    ("contrato de risco", "risk"), ("arrendamento", "lease"), ("sem contrato", "none"),
    ("charter", "charter")])
def test_a_contract_is_read_from_its_portuguese_name(written: str, code: str) -> None:
    assert parse_vessel_case(case("cabotagem", written)).operation.contract is Contract(code)


def test_an_unknown_value_is_refused_with_the_codes_and_their_portuguese_names() -> None:
    with pytest.raises(InputError) as exc:
        parse_vessel_case(case("draga", "fretado"), source="v.yaml")
    first, second = exc.value, exc.value.details[0]
    assert (first.field, second.field) == ("vessel.activity", "operation.contract")
    assert first.message == (
        "valor não permitido; esperado um de: offshore_support, exploration, platform, "
        "cabotage, port_support, inland_national, inland_international, regasification, "
        "cruise, fishing, long_haul — ou em português: apoio marítimo, exploração, "
        "plataforma, cabotagem, apoio portuário, navegação interior nacional, navegação "
        "interior internacional, regaseificação, cruzeiro, pesca, longo curso "
        "(recebido: 'draga')")
    assert second.message == (
        "valor não permitido; esperado um de: charter, services, risk, lease, none — ou em "
        "português: afretamento, prestação de serviço, contrato de risco, arrendamento, sem "
        "contrato (recebido: 'fretado')")
    assert second.message_en is not None and second.message_en.startswith(
        "value not allowed; expected one of: charter, services, risk, lease, none — or in "
        "Portuguese: afretamento")


def test_inland_navigation_without_its_route_is_ambiguous() -> None:
    # Lei 9.432/1997 art. 2º, X: inland navigation runs on a national or an international
    # route, and only the national one has a quota (Res. CNIg 42/2020 art. 4º, III).
    with pytest.raises(InputError) as exc:
        parse_vessel_case(case("Navegação Interior"))
    assert exc.value.field == "vessel.activity"
    assert exc.value.message == (
        "valor ambíguo — navegação interior, em percurso nacional ou internacional (Lei "
        "9.432/1997, art. 2º, X); use navegação interior nacional (inland_national) ou "
        "navegação interior internacional (inland_international) (recebido: 'Navegação "
        "Interior')")
    assert value_code("activity", "navegação interior") is None


def test_the_table_names_every_code_of_the_model_and_no_name_twice() -> None:
    assert codes("activity") == [a.value for a in Activity]
    assert codes("contract") == [c.value for c in Contract]
    assert value_code("contract", "afretamento") == "charter"


def test_an_exit_before_its_entry_is_said_in_portuguese_only() -> None:
    # Was "saída (exit) anterior à entrada (entry)": the path names the field.
    data = case("cabotage")
    data["operation"]["ajb_presence"] = [{"entry": "2026-03-01", "exit": "2026-02-01"}]
    with pytest.raises(InputError) as exc:
        parse_vessel_case(data)
    assert (exc.value.field, exc.value.message, exc.value.message_en) == (
        "operation.ajb_presence[0].exit", "saída anterior à entrada (recebido: '2026-02-01')",
        "exit before entry (got '2026-02-01')")

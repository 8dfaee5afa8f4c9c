"""Portuguese validation messages say the limit, as the English ones do: one table for the
engines' InputError and for the API's request validation."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from abordo.faces.api.problems import validation_message
from abordo.law.validation import error_message, input_error_from_pydantic


class _Limits(BaseModel):
    model_config = ConfigDict(extra="forbid")

    le: int | None = Field(default=None, le=1_000_000)
    lt: int | None = Field(default=None, lt=10)
    ge: int | None = Field(default=None, ge=1)
    gt: int | None = Field(default=None, gt=0)
    step: int | None = Field(default=None, multiple_of=5)
    items: list[int] | None = Field(default=None, min_length=2, max_length=3)
    text: str | None = Field(default=None, min_length=1, max_length=4)
    money: Decimal | None = Field(default=None, max_digits=5, decimal_places=2)


@pytest.mark.parametrize(("data", "pt", "en"), [
    ({"le": 1_000_000_000}, "valor acima do máximo (≤ 1000000) (recebido: 1000000000)",
     "value above the maximum (≤ 1000000) (got 1000000000)"),
    ({"lt": 10}, "valor acima do máximo (< 10) (recebido: 10)",
     "value above the maximum (< 10) (got 10)"),
    ({"ge": 0}, "valor abaixo do mínimo (≥ 1) (recebido: 0)",
     "value below the minimum (≥ 1) (got 0)"),
    ({"gt": 0}, "valor abaixo do mínimo (> 0) (recebido: 0)",
     "value below the minimum (> 0) (got 0)"),
    ({"step": 7}, "valor não é múltiplo de 5 (recebido: 7)",
     "value not a multiple of 5 (got 7)"),
    ({"items": [1]}, "itens de menos (mínimo 2)", "too few items (at least 2)"),
    ({"items": [1, 2, 3, 4]}, "itens demais (máximo 3)", "too many items (at most 3)"),
    ({"text": ""}, "texto curto demais (mínimo 1 caractere) (recebido: '')",
     "text too short (at least 1 character) (got '')"),
    ({"text": "abcde"}, "texto longo demais (máximo 4 caracteres) (recebido: 'abcde')",
     "text too long (at most 4 characters) (got 'abcde')"),
    ({"money": "1.234"}, "casas decimais demais (máximo 2) (recebido: '1.234')",
     "too many decimal places (at most 2) (got '1.234')"),
    ({"money": "12345.6"}, "algarismos demais (máximo 5) (recebido: '12345.6')",
     "too many digits (at most 5) (got '12345.6')"),
])
def test_every_constraint_says_its_limit_in_both_languages(data: dict[str, object], pt: str,
                                                           en: str) -> None:
    with pytest.raises(ValidationError) as exc:
        _Limits.model_validate(data)
    err = input_error_from_pydantic(exc.value)
    assert (err.message, err.message_en) == (pt, en)
    # The API's Portuguese comes from the same table (its English is pydantic's own).
    api_pt, _ = validation_message(dict(exc.value.errors()[0]))
    assert api_pt == pt.rsplit(" (recebido", 1)[0]


def test_a_limit_missing_from_the_context_leaves_the_base_message() -> None:
    assert error_message("less_than_equal", {}) == "valor acima do máximo"
    assert error_message("less_than_equal", {"le": 24}, "en") == "value above the maximum (≤ 24)"
    assert error_message("no_such_kind", {"le": 24}) is None


def test_a_number_where_a_date_goes_says_to_format_the_cell() -> None:
    import datetime as dt

    class _D(BaseModel):
        day: dt.date

    with pytest.raises(ValidationError) as exc:
        _D.model_validate({"day": "45000"})  # an Excel serial in a cell not formatted as date
    err = input_error_from_pydantic(exc.value)
    assert err.message == ("data esperada, não um número nem data com horário (use AAAA-MM-DD; "
                           "no Excel, formate a célula como data) (recebido: '45000')")

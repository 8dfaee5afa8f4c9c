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


@pytest.mark.parametrize("written", [86400, 86400.0, "86400", " 45000 ", "4,5", 0])
def test_every_date_field_refuses_a_number_even_a_whole_day_of_seconds(written: object
                                                                      ) -> None:
    """The shared ``Date`` type: 86400 would be read by pydantic as 1970-01-02 (seconds since
    1970) — in a case file, a crew list or a sea-time sheet alike, it is refused."""
    from abordo.law.validation import Date

    class _D(BaseModel):
        day: Date

    with pytest.raises(ValidationError) as exc:
        _D.model_validate({"day": written})
    err = input_error_from_pydantic(exc.value)
    assert err.message.startswith("data esperada, não um número nem data com horário (use "
                                  "AAAA-MM-DD; no Excel, formate a célula como data)")
    assert _D.model_validate({"day": "02/01/1970"}).day.isoformat() == "1970-01-02"


@pytest.mark.parametrize("written", ["2026-01-01T00:00:00+03:00", "2026-01-01T00:00Z",
                                     " 2026-01-01 10:30:00-0300 ", "2026-01-01T00:00:00.0+00"])
def test_a_date_field_refuses_a_moment_in_a_time_zone(written: str) -> None:
    """2026-01-01T00:00:00+03:00 is 31/12/2025 in UTC: which day was meant is not the
    reader's guess. Midnight without a zone, as a spreadsheet writes a date cell, is that
    day; a YAML timestamp with a zone is refused as its text is."""
    import datetime as dt

    from abordo.law.validation import Date

    class _D(BaseModel):
        day: Date

    with pytest.raises(ValidationError) as exc:
        _D.model_validate({"day": written})
    assert input_error_from_pydantic(exc.value).message.startswith(
        "data esperada, não um número nem data com horário")
    zoned = dt.datetime(2026, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=3)))
    with pytest.raises(ValidationError):
        _D.model_validate({"day": zoned})
    assert _D.model_validate({"day": "2026-01-01 00:00"}).day == dt.date(2026, 1, 1)
    assert _D.model_validate({"day": dt.datetime(2026, 1, 1)}).day == dt.date(2026, 1, 1)


# --- numbers typed by a user: one bounded reading (abordo.law.validation.user_decimal) ----

@pytest.mark.parametrize(("written", "read"), [
    ("2500", Decimal("2500")), ("2.500,00", Decimal("2500.00")),
    ("R$ 2.000,00", Decimal("2000.00")), ("2,50", Decimal("2.50")),
    ("1000.500", Decimal("1000.500")), ("25E+2", Decimal("2500")), ("0e999999999", Decimal(0)),
    ("999999999999999", Decimal("999999999999999")), (2500.5, Decimal("2500.5")),
    (2500, Decimal("2500")),
])
def test_a_typed_amount_is_read_within_its_bounds(written: object, read: Decimal) -> None:
    from abordo.law.validation import user_decimal

    value = user_decimal(written, money=True)
    assert Decimal(value) == read and str(value) == str(read)


@pytest.mark.parametrize(("written", "pt", "en"), [
    # A huge exponent is refused before anything formats it (it once hung the CLI).
    ("1e999999999", "número grande demais (máximo 15 algarismos antes da vírgula) "
     "(recebido: '1e999999999')", "number too large (at most 15 digits before the decimal "
     "point) (got '1e999999999')"),
    ("1000000000000000", "número grande demais (máximo 15 algarismos antes da vírgula) "
     "(recebido: '1000000000000000')", "number too large (at most 15 digits before the "
     "decimal point) (got '1000000000000000')"),
    ("1e-30", "casas decimais demais (máximo 15) (recebido: '1e-30')",
     "too many decimal places (at most 15) (got '1e-30')"),
    ("NaN", "número finito esperado (recebido: 'NaN')", "finite number expected (got 'NaN')"),
    ("-Infinity", "número finito esperado (recebido: '-Infinity')",
     "finite number expected (got '-Infinity')"),
    (float("inf"), "número finito esperado (recebido: inf)", "finite number expected (got inf)"),
    (1e300, "número grande demais (máximo 15 algarismos antes da vírgula) (recebido: 1e+300)",
     "number too large (at most 15 digits before the decimal point) (got 1e+300)"),
    (Decimal("1e999999999"), "número grande demais (máximo 15 algarismos antes da vírgula) "
     "(recebido: 1E+999999999)", "number too large (at most 15 digits before the decimal "
     "point) (got 1E+999999999)"),
    ("1_000", "número decimal inválido (recebido: '1_000')",
     "invalid decimal number (got '1_000')"),
    # Only the first characters of a long value are repeated.
    ("9" * 5000, "número longo demais (máximo 40 caracteres) (recebido: '99999999999999999999…')",
     "number too long (at most 40 characters) (got '99999999999999999999…')"),
    # Thousands grouped with commas: R$ 2,50 in Brazil, R$ 2.500,00 in English.
    ("2,500", "valor ambíguo '2,500': escreva 2500,00 ou 2.500,00 (a vírgula separa os "
     "centavos; o ponto, se houver, os milhares)", "ambiguous amount '2,500': write 2500.00, "
     "2500,00 or 2.500,00 (a comma separates the centavos; a dot, if any, the thousands)"),
])
def test_a_typed_amount_out_of_bounds_is_refused_in_a_short_message(
        written: object, pt: str, en: str) -> None:
    from abordo.law.validation import Bilingual, user_decimal

    with pytest.raises(Bilingual) as exc:
        user_decimal(written, money=True)
    assert (exc.value.pt, exc.value.en) == (pt, en)


def test_comma_grouping_is_refused_only_in_amounts() -> None:
    from abordo.law.validation import Bilingual, user_decimal

    with pytest.raises(Bilingual, match=r"ambíguo '1,234,567\.89'"):
        user_decimal("1,234,567.89", money=True)
    # Hours: "4,500" is 4,5 hours (4 500 could not be hours of a day).
    assert user_decimal("4,500") == "4.500"

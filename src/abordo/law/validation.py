"""Turning pydantic validation errors into :class:`InputError` with field paths."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from abordo.law.errors import InputError, bilingual
from abordo.law.parsing import character_words
from abordo.law.text import br_decimal, fold


class Bilingual(ValueError):
    """A validation message in Portuguese and English; ``field`` refines the error's path
    (a model-level check names the field it is about, e.g. ``disembark`` or
    ``ajb_presence[1].entry``); ``plain``: the message naming no input value (see
    :attr:`abordo.law.errors.InputError.plain`)."""

    def __init__(self, pt: str, en: str, field: str | None = None,
                 plain: tuple[str, str] | None = None) -> None:
        super().__init__(pt)
        self.pt = pt
        self.en = en
        self.field = field
        self.plain = plain

# --- text that hides what it holds -------------------------------------------------------

# Characters a text field of an input may not hold: they show as nothing, or change what is
# shown around them, and so can disguise what a report or a document says ("Navio A\u202e"
# reordering the rest, a carriage return overwriting the line before it on a terminal):
# control characters (C0 but tab and line feed — a line break written CR LF too — DEL, C1)
# and the marks that override or isolate the text's direction.
HIDDEN_CHARACTER = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")
# The same, as the fleet's columnar reader (Rust regex, no look-ahead) writes it.
HIDDEN_CHARACTER_RUST = (r"[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x{9F}\x{202A}-\x{202E}"
                         r"\x{2066}-\x{2069}]|\r([^\n]|$)")


def hidden_character(text: str) -> tuple[str, str] | None:
    """``(portuguese, english)`` of the first character of ``text`` no input may hold
    (:data:`HIDDEN_CHARACTER`), naming it and its position; None when there is none."""
    found = HIDDEN_CHARACTER.search(text)
    if found is None:
        return None
    pt, en = character_words(ord(found.group()[0]))
    at = found.start() + 1
    return (f"{pt} na posição {at} do texto: não permitido, pode disfarçar o que o documento "
            "mostra (apague-o)",
            f"{en} at position {at} of the text: not allowed, it can disguise what the "
            "document shows (delete it)")


class PlainTextInput(BaseModel):
    """Base of the engines' input models: no text field (nor an item of a list of texts)
    holds a character of :data:`HIDDEN_CHARACTER`. Checked before the fields are read, so
    that no message repeats the text; the error names its field (``vessel.name``,
    ``crew[3].rank``, ``attachments[1]``)."""

    @model_validator(mode="before")
    @classmethod
    def _no_hidden_characters(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        names = set(cls.model_fields) | {i.alias for i in cls.model_fields.values() if i.alias}
        for key, value in data.items():
            if key not in names:
                continue  # an unknown field is refused as such
            texts = [("", value)] if isinstance(value, str) else \
                [(f"[{i}]", v) for i, v in enumerate(value)] \
                if isinstance(value, list | tuple) else []
            for index, text in texts:
                said = hidden_character(text) if isinstance(text, str) else None
                if said is not None:
                    raise Bilingual(*said, field=f"{key}{index}")
        return data


# --- dates in input files ----------------------------------------------------------------

_NUMBER = re.compile(r"\s*[+-]?\d+(?:[.,]\d+)?\s*")
_ZONED = re.compile(r"\s*\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*"
                    r"(?:[Zz]|[+-]\d{2}(?::?\d{2})?)\s*")


def iso_date(value: Any) -> Any:
    """Accept ``dd/mm/aaaa`` (as Brazilian spreadsheets write dates) besides ISO dates.
    Refuse a number, or text that writes one (``45000``, ``4,5``): never a date — an Excel
    cell not formatted as a date holds ``45000``, and pydantic would read a number as
    seconds since 1970 (``86400`` → 1970-01-02)."""
    if (isinstance(value, int | float) and not isinstance(value, bool)) or (
            isinstance(value, str) and _NUMBER.fullmatch(value)):
        raise PydanticCustomError("date_from_datetime_inexact",
                                  "a date expected, not a number")
    # A moment in a time zone is no calendar day: 2026-01-01T00:00:00+03:00 is 31/12/2025 in
    # UTC, and which day the user meant is not the reader's guess. (Midnight without a zone,
    # as a spreadsheet writes a date cell, is that day.)
    if (isinstance(value, dt.datetime) and value.tzinfo is not None) or (
            isinstance(value, str) and _ZONED.fullmatch(value)):
        raise PydanticCustomError("date_from_datetime_inexact",
                                  "a date expected, not a date with a time")
    if isinstance(value, str) and (m := re.fullmatch(r"\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*",
                                                     value)):
        day, month, year = (int(g) for g in m.groups())
        try:
            return dt.date(year, month, day)
        except ValueError:
            raise ValueError(f"data inexistente: {value.strip()} ‖ no such date: "
                             f"{value.strip()}") from None
    return value


# The dates any input accepts: facts under the modelled law (a typo like 9026 is refused).
FIRST_DAY, LAST_DAY = dt.date(1900, 1, 1), dt.date(2199, 12, 31)
OUT_OF_RANGE = (f"data fora do intervalo {FIRST_DAY.year}–{LAST_DAY.year}",
                f"date outside {FIRST_DAY.year}–{LAST_DAY.year}")


def plausible_date(value: dt.date) -> dt.date:
    """Dates of facts under the modelled law: :data:`FIRST_DAY` to :data:`LAST_DAY`."""
    if not FIRST_DAY <= value <= LAST_DAY:
        raise ValueError(f"{OUT_OF_RANGE[0]}: {value.isoformat()}"
                         f" ‖ {OUT_OF_RANGE[1]}: {value.isoformat()}")
    return value


Date = Annotated[dt.date, BeforeValidator(iso_date), AfterValidator(plausible_date)]
"""A date field of any input: ISO ``AAAA-MM-DD`` or ``dd/mm/aaaa``, 1900–2199."""

# --- numbers typed by a user -------------------------------------------------------------

# Bounds of every number a user types (an amount in BRL, hours), checked before the number is
# compared, rounded or shown: ``1e999999999`` is a short text, but the first message to
# format it would write a billion digits. 15 digits before the decimal point (R$ 999
# trillion) and 15 after are beyond any fine or count of hours, and within exact Decimal
# arithmetic (28 digits).
MAX_WHOLE_DIGITS = 15
MAX_PLACES = 15
MAX_NUMBER_TEXT = 40  # characters: "R$ 999.999.999.999.999,99" and its like fit
_QUOTED = 20  # characters of a refused value repeated in its message

# A number in its dot form (after br_decimal): no "_", "Infinity" or "NaN", which Decimal()
# would also take.
_DOT_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
# Thousands grouped with commas, as English writes them ("2,500", "1,234,567.89"): in Brazil
# "2,500" is two reais and fifty centavos.
_COMMA_GROUPED = re.compile(r"[-+]?\d{1,3}(,\d{3})+(\.\d*)?")


def quoted(text: str) -> str:
    """A value received as a message repeats it: quoted, cut to a few characters
    (``'1e99999999999999999999…'``), so a huge input never makes a huge message."""
    return repr(text if len(text) <= _QUOTED else text[:_QUOTED] + "…")


def _number_refused(pt: str, en: str, got: str | None) -> Bilingual:
    said = (f" (recebido: {got})", f" (got {got})") if got else ("", "")
    return Bilingual(pt + said[0], en + said[1], plain=(pt, en))


def user_decimal(value: Any, *, money: bool = False) -> Any:
    """A number a user wrote, checked within :data:`MAX_WHOLE_DIGITS` and :data:`MAX_PLACES`
    (a pydantic ``mode="before"`` validator of a ``Decimal`` field) — refused
    (:class:`Bilingual`, the value quoted short) before anything formats it. The one reading
    of the numbers typed in the engines' inputs. Returns text in its dot form (``'2500.00'``),
    a number as given, for the field's type to convert.

    Text may be written the Brazilian way (``4,5``; :func:`abordo.law.text.br_decimal`);
    ``money``: an amount in BRL, ``R$`` allowed before it and dots grouping thousands
    (``R$ 2.500,00``), and thousands grouped with commas (``2,500``: R$ 2,50 in Brazil,
    R$ 2.500,00 in English) refused as ambiguous. Other types (a list, a boolean) are
    returned as given, for the model to refuse."""
    if isinstance(value, bool):
        return value
    got: str | None
    if isinstance(value, str):
        text = value.strip()
        if money:
            text = text.removeprefix("R$").strip()
        got = quoted(text)
        if len(text) > MAX_NUMBER_TEXT:
            raise _number_refused(f"número longo demais (máximo {MAX_NUMBER_TEXT} caracteres)",
                                  f"number too long (at most {MAX_NUMBER_TEXT} characters)",
                                  got)
        if money and _COMMA_GROUPED.fullmatch(text):
            raise Bilingual(
                f"valor ambíguo {got}: escreva 2500,00 ou 2.500,00 (a vírgula separa os "
                "centavos; o ponto, se houver, os milhares)",
                f"ambiguous amount {got}: write 2500.00, 2500,00 or 2.500,00 (a comma "
                "separates the centavos; a dot, if any, the thousands)",
                plain=("valor ambíguo: escreva 2500,00 ou 2.500,00",
                       "ambiguous amount: write 2500.00, 2500,00 or 2.500,00"))
        dot = br_decimal(text, grouped=money)
        if not _DOT_NUMBER.fullmatch(dot):
            if text.lstrip("+-").casefold() in {"nan", "snan", "inf", "infinity"}:
                raise _number_refused("número finito esperado", "finite number expected", got)
            raise _number_refused("número decimal inválido", "invalid decimal number", got)
        number = Decimal(dot)
    elif isinstance(value, float):
        got = as_written(value)
        if not math.isfinite(value):
            raise _number_refused("número finito esperado", "finite number expected", got)
        number = Decimal(str(value))
    elif isinstance(value, int | Decimal):
        number = Decimal(value)
        text = str(number)  # not str(value): an int of 5 000 digits has no str()
        got = text if len(text) <= _QUOTED else text[:_QUOTED] + "…"
        if not number.is_finite():
            raise _number_refused("número finito esperado", "finite number expected", got)
    else:
        return value
    if number and number.adjusted() >= MAX_WHOLE_DIGITS:
        raise _number_refused(
            f"número grande demais (máximo {MAX_WHOLE_DIGITS} algarismos antes da vírgula)",
            f"number too large (at most {MAX_WHOLE_DIGITS} digits before the decimal point)",
            got)
    exponent = number.as_tuple().exponent
    assert isinstance(exponent, int)  # a finite number
    if exponent < -MAX_PLACES:
        raise _number_refused(f"casas decimais demais (máximo {MAX_PLACES})",
                              f"too many decimal places (at most {MAX_PLACES})", got)
    if isinstance(value, int | float):
        return value  # as given, so that a message of the model quotes it as written
    # 25E+2 and 0E+999999999 in their plain form (2500, 0): within the bounds by now. Text in
    # its dot form, quoted so by a message of the model ("2.500,00" as '2500.00').
    plain = number.quantize(Decimal(1)) if exponent > 0 else number
    return str(plain) if isinstance(value, str) else plain


# --- yes/no fields in input files ---------------------------------------------------------

# The words a yes/no field of a YAML/JSON input takes (case and accents ignored): YAML 1.1's
# (yes/no, on/off: the loaders leave them as text, see yamlload.py) and the Portuguese ones
# the project's spreadsheets take, so that ``intent: sim`` reads as in a crew list. A closed
# list, so that the message refusing a value names every one accepted (pydantic's own bool
# also took t/f and y/n, which no message said).
YES_WORDS = ("true", "yes", "on", "sim", "1")
NO_WORDS = ("false", "no", "off", "nao", "0")
YES_NO_PT = "use true/false, yes/no, on/off, sim/não ou 1/0"
YES_NO_EN = "use true/false, yes/no, on/off, sim/não or 1/0"


def yes_no(value: Any) -> bool:
    """A yes/no field's value: a boolean, 1/0, or one of :data:`YES_WORDS` /
    :data:`NO_WORDS`; anything else is refused (error type ``yes_no_parsing``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = fold(value.strip())
        if word in YES_WORDS:
            return True
        if word in NO_WORDS:
            return False
    raise PydanticCustomError("yes_no_parsing", f"invalid boolean ({YES_NO_EN})")


YesNo = Annotated[bool, BeforeValidator(yes_no)]
"""A yes/no field of any input: see :func:`yes_no`."""

# --- pydantic errors -----------------------------------------------------------------------

# Messages of pydantic error types, by type: a base, then a detail filled from the error's
# ``ctx`` (the limit of a constraint, the values allowed). The one table for the engines'
# InputError and for the API's request validation (faces/api/problems.py), so a limit said in
# English is never dropped in Portuguese. A detail whose ``ctx`` key is absent is left out.
_Message = tuple[tuple[str, str], tuple[str, str]]
_BAD_DATE: _Message = (("data inválida (use AAAA-MM-DD ou dd/mm/aaaa)", ""),
                       ("invalid date (use YYYY-MM-DD or dd/mm/yyyy)", ""))
_BAD_INT: _Message = (("número inteiro inválido", ""), ("invalid integer", ""))
_BAD_BOOL: _Message = (("valor lógico inválido (use true/false)", ""),
                       ("invalid boolean (use true/false)", ""))
_NOT_ALLOWED: _Message = (("valor não permitido", "; esperado um de: {expected}"),
                          ("value not allowed", "; expected one of: {expected}"))
_LIST: _Message = (("lista esperada", ""), ("list expected", ""))
_OBJECT: _Message = (("objeto esperado", ""), ("object expected", ""))
_MISSING: _Message = (("campo obrigatório ausente", ""), ("required field missing", ""))
_BAD_DATETIME: _Message = (("data e hora inválidas", ""), ("invalid date and time", ""))

_MESSAGES: dict[str, _Message] = {
    # kind: ((pt base, pt detail), (en base, en detail))
    "extra_forbidden": (("campo desconhecido", ""), ("unknown field", "")),
    "missing": _MISSING,
    "union_tag_not_found": _MISSING,
    "date_from_datetime_parsing": _BAD_DATE,
    "date_parsing": _BAD_DATE,
    "date_type": _BAD_DATE,
    # A number (an Excel cell not formatted as a date: 45000) or a date with a time of day.
    "date_from_datetime_inexact": (
        ("data esperada, não um número nem data com horário (use AAAA-MM-DD; no Excel, "
         "formate a célula como data)", ""),
        ("a date expected, not a number nor a date with a time (use YYYY-MM-DD; in Excel, "
         "format the cell as a date)", "")),
    "date_future": (("data futura esperada", ""), ("a date in the future expected", "")),
    "date_past": (("data passada esperada", ""), ("a date in the past expected", "")),
    "datetime_parsing": _BAD_DATETIME,
    "datetime_from_date_parsing": _BAD_DATETIME,
    "int_parsing": _BAD_INT,
    "int_type": _BAD_INT,
    "int_parsing_size": (("número inteiro grande demais", ""), ("integer too large", "")),
    "int_from_float": (("número inteiro esperado", ""), ("whole number expected", "")),
    "float_parsing": (("número inválido", ""), ("invalid number", "")),
    "float_type": (("número esperado", ""), ("number expected", "")),
    "finite_number": (("número finito esperado", ""), ("finite number expected", "")),
    "decimal_parsing": (("número decimal inválido", ""), ("invalid decimal number", "")),
    "decimal_type": (("número decimal esperado", ""), ("decimal number expected", "")),
    "decimal_max_digits": (("algarismos demais", " (máximo {max_digits})"),
                           ("too many digits", " (at most {max_digits})")),
    "decimal_max_places": (("casas decimais demais", " (máximo {decimal_places})"),
                           ("too many decimal places", " (at most {decimal_places})")),
    "decimal_whole_digits": (("algarismos inteiros demais", " (máximo {whole_digits})"),
                             ("too many digits before the point", " (at most {whole_digits})")),
    "bool_parsing": _BAD_BOOL,
    "yes_no_parsing": ((f"valor lógico inválido ({YES_NO_PT})", ""),
                       (f"invalid boolean ({YES_NO_EN})", "")),
    "bool_type": _BAD_BOOL,
    "literal_error": _NOT_ALLOWED,
    "enum": _NOT_ALLOWED,
    "union_tag_invalid": (("valor não permitido", ": '{tag}' (esperado: {expected_tags})"),
                          ("value not allowed", ": '{tag}' (expected: {expected_tags})")),
    "string_type": (("texto esperado", ""), ("text expected", "")),
    "string_unicode": (("texto inválido", ""), ("invalid text", "")),
    "string_pattern_mismatch": (("formato inválido", ""), ("invalid format", "")),
    "bytes_type": (("conteúdo binário esperado", ""), ("binary content expected", "")),
    "list_type": _LIST,
    "tuple_type": _LIST,
    "dict_type": _OBJECT,
    "model_type": _OBJECT,
    "model_attributes_type": _OBJECT,
    "json_invalid": (("JSON inválido", ""), ("invalid JSON", "")),
    "json_type": (("JSON esperado", ""), ("JSON expected", "")),
    "url_parsing": (("URL inválida", ""), ("invalid URL", "")),
    "uuid_parsing": (("UUID inválido", ""), ("invalid UUID", "")),
    # Constraints: the limit is always said (``valor acima do máximo (≤ 1000000)``).
    "greater_than_equal": (("valor abaixo do mínimo", " (≥ {ge})"),
                           ("value below the minimum", " (≥ {ge})")),
    "greater_than": (("valor abaixo do mínimo", " (> {gt})"),
                     ("value below the minimum", " (> {gt})")),
    "less_than_equal": (("valor acima do máximo", " (≤ {le})"),
                        ("value above the maximum", " (≤ {le})")),
    "less_than": (("valor acima do máximo", " (< {lt})"),
                  ("value above the maximum", " (< {lt})")),
    "multiple_of": (("valor não é múltiplo", " de {multiple_of}"),
                    ("value not a multiple", " of {multiple_of}")),
    "too_short": (("itens de menos", " (mínimo {min_length})"),
                  ("too few items", " (at least {min_length})")),
    "too_long": (("itens demais", " (máximo {max_length})"),
                 ("too many items", " (at most {max_length})")),
    "string_too_short": (("texto curto demais", " (mínimo {min_length} caracteres)"),
                         ("text too short", " (at least {min_length} characters)")),
    "string_too_long": (("texto longo demais", " (máximo {max_length} caracteres)"),
                        ("text too long", " (at most {max_length} characters)")),
    "bytes_too_short": (("conteúdo curto demais", " (mínimo {min_length} bytes)"),
                        ("content too short", " (at least {min_length} bytes)")),
    "bytes_too_long": (("conteúdo longo demais", " (máximo {max_length} bytes)"),
                       ("content too long", " (at most {max_length} bytes)")),
    "url_too_long": (("URL longa demais", " (máximo {max_length} caracteres)"),
                     ("URL too long", " (at most {max_length} characters)")),
}


def _ctx_text(value: Any, lang: str) -> str:
    """A ``ctx`` value as text: pydantic joins the values allowed with " or "."""
    text = str(value)
    return text.replace(" or ", " ou ") if lang == "pt" else text


def error_message(kind: str, ctx: Mapping[str, Any] | None, lang: str = "pt") -> str | None:
    """The message of a pydantic error of type ``kind`` in ``lang`` (``pt`` | ``en``), its
    limit or allowed values filled from ``ctx``; None for a type the table does not know.

    >>> error_message("less_than_equal", {"le": 1000000})
    'valor acima do máximo (≤ 1000000)'
    """
    entry = _MESSAGES.get(kind)
    if entry is None:
        return None
    base, detail = entry[0] if lang == "pt" else entry[1]
    if detail:
        try:
            filled = detail.format(**{k: _ctx_text(v, lang) for k, v in (ctx or {}).items()})
        except (KeyError, IndexError, ValueError):
            filled = ""  # no limit known: the base alone rather than a template's braces
        detail = filled.replace(" 1 caracteres)", " 1 caractere)").replace(
            " 1 characters)", " 1 character)")
    return base + detail


def loc_to_path(loc: Sequence[int | str], prefix: str = "") -> str:
    """``('crew', 3, 'nationality')`` → ``crew[3].nationality``."""
    path = prefix
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path = f"{path}.{part}" if path else str(part)
    return path


def path_parts(path: str) -> tuple[int | str, ...]:
    """``ajb_presence[1].entry`` → ``('ajb_presence', 1, 'entry')`` (inverse of
    :func:`loc_to_path`)."""
    return tuple(int(p) if p.isdigit() else p
                 for p in re.split(r"\.|\[|\]", path) if p)


def as_written(value: str | float) -> str:
    """A value received, as YAML/JSON write it (``true``, not Python's ``True``); text
    quoted, so that blanks and a number given as text show."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def input_error_from_pydantic(exc: ValidationError, *, file: str | None = None,
                              prefix: str = "", row: int | None = None,
                              row_of: Callable[[tuple[Any, ...]], int | None] | None = None
                              ) -> InputError:
    """One :class:`InputError` for the first problem, the others in ``details``.

    ``row`` is the row of every problem; ``row_of(loc)`` finds each problem's own row.
    """
    errors: list[InputError] = []
    for err in exc.errors():
        if row_of is not None:
            row = row_of(tuple(err["loc"]))
        loc = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-"))]
        path = loc_to_path(loc, prefix)
        kind = str(err["type"])
        ctx: dict[str, Any] = err.get("ctx") or {}
        raw_msg = str(err.get("msg", ""))
        known = error_message(kind, ctx, "pt")
        en = error_message(kind, ctx, "en") or raw_msg
        if kind.startswith("value_error"):
            # Our validators write "Portuguese ‖ English"; others only Portuguese.
            pt, en = bilingual(raw_msg.removeprefix("Value error, "))
        elif known is not None:
            pt = known
        else:  # a type the table lacks: the values allowed, when pydantic gives them, said
            allowed = _ctx_text(ctx.get("expected", ""), "pt")
            pt = f"valor inválido: {allowed}" if allowed else "valor inválido"
        got = err.get("input")
        cause = ctx.get("error")
        if isinstance(cause, Bilingual):  # our own message names the value it is about
            pt, en = cause.pt, cause.en
            if cause.field:
                path = f"{path}.{cause.field}" if path else cause.field
                if row_of is not None:  # the line of the field named, not of its parent
                    row = row_of((*err["loc"], *path_parts(cause.field))) or row
        quoted = None
        if not isinstance(cause, Bilingual) and kind not in {"missing"} \
                and isinstance(got, str | int | float) and len(str(got)) < 60:
            said = as_written(got)
            quoted = (f" (recebido: {said})", f" (got {said})")
            pt, en = pt + quoted[0], en + quoted[1]
        plain = cause.plain if isinstance(cause, Bilingual) else None
        errors.append(InputError(pt, path or None, file, row, message_en=en, quoted=quoted,
                                 plain=plain))
    # Reported in the order of the file (the model's order otherwise).
    return InputError.listing(errors, in_file_order=True)

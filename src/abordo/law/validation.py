"""Turning pydantic validation errors into :class:`InputError` with field paths."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ValidationError

from abordo.law.errors import InputError


class Bilingual(ValueError):
    """A validation message in Portuguese and English; ``field`` refines the error's path
    (a model-level check names the field it is about, e.g. ``disembark`` or
    ``ajb_presence[1].entry``)."""

    def __init__(self, pt: str, en: str, field: str | None = None) -> None:
        super().__init__(pt)
        self.pt = pt
        self.en = en
        self.field = field

# --- dates in input files ----------------------------------------------------------------

def iso_date(value: Any) -> Any:
    """Accept ``dd/mm/aaaa`` (as Brazilian spreadsheets write dates) besides ISO dates."""
    if isinstance(value, str) and (m := re.fullmatch(r"\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*",
                                                     value)):
        day, month, year = (int(g) for g in m.groups())
        try:
            return dt.date(year, month, day)
        except ValueError:
            raise ValueError(f"data inexistente: {value.strip()} ‖ no such date: "
                             f"{value.strip()}") from None
    return value


def plausible_date(value: dt.date) -> dt.date:
    """Dates of facts under the modelled law: 1900 to 2199 (a typo like 9026 is refused)."""
    if not dt.date(1900, 1, 1) <= value <= dt.date(2199, 12, 31):
        raise ValueError(f"data fora do intervalo 1900–2199: {value.isoformat()}"
                         f" ‖ date outside 1900–2199: {value.isoformat()}")
    return value


Date = Annotated[dt.date, BeforeValidator(iso_date), AfterValidator(plausible_date)]
"""A date field of any input: ISO ``AAAA-MM-DD`` or ``dd/mm/aaaa``, 1900–2199."""

# --- pydantic errors -----------------------------------------------------------------------

_PT = {
    "extra_forbidden": "campo desconhecido",
    "missing": "campo obrigatório ausente",
    "date_from_datetime_parsing": "data inválida (use AAAA-MM-DD ou dd/mm/aaaa)",
    "date_parsing": "data inválida (use AAAA-MM-DD ou dd/mm/aaaa)",
    "date_type": "data inválida (use AAAA-MM-DD ou dd/mm/aaaa)",
    "int_parsing": "número inteiro inválido",
    "int_type": "número inteiro inválido",
    "bool_parsing": "valor lógico inválido (use true/false)",
    "bool_type": "valor lógico inválido (use true/false)",
    "literal_error": "valor não permitido",
    "enum": "valor não permitido",
    "string_type": "texto esperado",
    "decimal_parsing": "número decimal inválido",
    "greater_than_equal": "valor abaixo do mínimo",
    "greater_than": "valor abaixo do mínimo",
    "list_type": "lista esperada",
    "dict_type": "objeto esperado",
    "model_type": "objeto esperado",
}
_EN = {
    "extra_forbidden": "unknown field",
    "missing": "required field missing",
    "date_from_datetime_parsing": "invalid date (use YYYY-MM-DD or dd/mm/yyyy)",
    "date_parsing": "invalid date (use YYYY-MM-DD or dd/mm/yyyy)",
    "date_type": "invalid date (use YYYY-MM-DD or dd/mm/yyyy)",
    "int_parsing": "invalid integer",
    "int_type": "invalid integer",
    "bool_parsing": "invalid boolean (use true/false)",
    "bool_type": "invalid boolean (use true/false)",
    "literal_error": "value not allowed",
    "enum": "value not allowed",
    "string_type": "text expected",
    "decimal_parsing": "invalid decimal number",
    "greater_than_equal": "value below the minimum",
    "greater_than": "value below the minimum",
    "list_type": "list expected",
    "dict_type": "object expected",
    "model_type": "object expected",
}


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
        pt = _PT.get(kind, "valor inválido")
        ctx: dict[str, Any] = err.get("ctx") or {}
        detail = str(ctx.get("expected", "")) or str(ctx.get("reason", ""))
        raw_msg = str(err.get("msg", ""))
        en = _EN.get(kind, raw_msg)
        if kind.startswith("value_error"):
            # Our validators write "Portuguese ‖ English"; others only Portuguese.
            text = raw_msg.removeprefix("Value error, ")
            pt, _, en_part = text.partition(" ‖ ")
            en = en_part or text
        elif detail:
            pt = f"{pt}: {detail.replace(' or ', ' ou ')}"
            if kind in _EN:
                en = f"{en}: {detail}"
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
            quoted = (f" (recebido: {got!r})", f" (got {got!r})")
            pt, en = pt + quoted[0], en + quoted[1]
        errors.append(InputError(pt, path or None, file, row, message_en=en, quoted=quoted))
    # Reported in the order of the file (the model's order otherwise).
    return InputError.listing(errors, in_file_order=True)

"""Input model of a vessel case (interfaces.md): vessel, operation, crew.

Unknown fields are errors (``extra="forbid"``): a typo must never be ignored silently.
Countries are ISO 3166-1 (alpha-2, alpha-3 or English name, via pycountry) and stored as
alpha-2; a person may hold several nationalities (``"PT/BR"``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import re
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, Literal

import pycountry
from babel import Locale
from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema, WithJsonSchema
from validate_docbr import CNPJ

from abordo.crew.values import coerce, json_schema
from abordo.law.errors import InputError
from abordo.law.text import fold
from abordo.law.validation import Bilingual, Date, PlainTextInput, YesNo


class Activity(StrEnum):
    """Type of navigation / use of the vessel (glossary.md)."""

    OFFSHORE_SUPPORT = "offshore_support"
    EXPLORATION = "exploration"
    PLATFORM = "platform"
    CABOTAGE = "cabotage"
    PORT_SUPPORT = "port_support"
    INLAND_NATIONAL = "inland_national"
    INLAND_INTERNATIONAL = "inland_international"
    REGASIFICATION = "regasification"
    CRUISE = "cruise"
    FISHING = "fishing"
    LONG_HAUL = "long_haul"


class Contract(StrEnum):
    """Contract with the Brazilian company (afretamento, serviços, risco, arrendamento)."""

    CHARTER = "charter"
    SERVICES = "services"
    RISK = "risk"
    LEASE = "lease"
    NONE = "none"


DEPARTMENTS = ("deck", "engine", "catering", "health", "non_crew_professional",
               "non_seafarer_crew")
LEVELS = ("officer", "rating", "petty_officer", "junior_rating")
POSITIONS = ("master", "chief_engineer")


@cache
def _portuguese_country_names() -> dict[str, str]:
    """Portuguese country name → alpha-2, from Babel's CLDR data (``Noruega`` → ``NO``)."""
    names = Locale.parse("pt_BR").territories
    return {fold(name): code for code, name in names.items() if len(code) == 2}


def country_code(value: Any) -> str:
    """ISO alpha-2 code for an alpha-2/alpha-3 code, or an English or Portuguese name
    (``Brasil``, ``Filipinas``); ValueError otherwise."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("código de país ISO 3166-1 esperado (ex.: BR, NO, PH)"
                         " ‖ ISO 3166-1 country code expected (e.g. BR, NO, PH)")
    text = value.strip()
    if (code := _portuguese_country_names().get(fold(text))) is not None and len(text) > 3:
        return code
    try:
        country = pycountry.countries.lookup(text)
    except LookupError:
        raise Bilingual(f"país desconhecido '{text}' (use o código ISO 3166-1, ex.: BR)",
                        f"unknown country '{text}' (use the ISO 3166-1 code, e.g. BR)",
                        plain=("país desconhecido (use o código ISO 3166-1, ex.: BR)",
                               "unknown country (use the ISO 3166-1 code, e.g. BR)")) from None
    return str(country.alpha_2)


def nationality_codes(value: Any) -> tuple[str, ...]:
    """One or more nationalities: ``"BR"``, ``"PT/BR"``, ``["PT", "BR"]``."""
    if value is None:
        raise ValueError("nacionalidade ausente ‖ nationality missing")
    items = value if isinstance(value, list | tuple) else re.split(r"\s*[/;,|]\s*", str(value))
    codes = tuple(dict.fromkeys(country_code(v) for v in items if str(v).strip()))
    if not codes:
        raise ValueError("nacionalidade ausente ‖ nationality missing")
    return codes



# Portuguese values accepted in the department / level columns (glossary.md).
_DEPARTMENT_PT = {
    "conves": "deck", "secao de conves": "deck", "maquinas": "engine", "maquina": "engine",
    "secao de maquinas": "engine", "camara": "catering", "secao de camara": "catering",
    "saude": "health", "secao de saude": "health",
    "profissional nao tripulante": "non_crew_professional",
    "tripulante nao aquaviario": "non_seafarer_crew",
}
_LEVEL_PT = {
    "oficial": "officer", "oficiais": "officer", "subalterno": "rating",
    "subalternos": "rating", "graduado": "petty_officer", "graduados": "petty_officer",
    "nao graduado": "junior_rating", "nao-graduado": "junior_rating",
    "nao graduados": "junior_rating", "nao-graduados": "junior_rating",
}
# Portuguese values accepted for an entry's means (entries[].by, the entry_by column).
_ENTRY_BY_PT = {
    "mar": "sea", "maritimo": "sea", "por mar": "sea", "via maritima": "sea",
    "ar": "air", "aereo": "air", "aerea": "air", "por ar": "air", "via aerea": "air",
}


def _alias(table: dict[str, str]) -> Any:
    def convert(value: Any) -> Any:
        if isinstance(value, str):
            return table.get(fold(value.strip()), value.strip())
        return value
    return convert


def department_value(text: str) -> str:
    """A department column's value as the crew model reads it (Portuguese names → codes)."""
    return str(_alias(_DEPARTMENT_PT)(text))


def level_value(text: str) -> str:
    """A level column's value as the crew model reads it (Portuguese names → codes)."""
    return str(_alias(_LEVEL_PT)(text))
Country = Annotated[str, BeforeValidator(country_code)]
Nationalities = Annotated[
    tuple[str, ...], BeforeValidator(nationality_codes),
    WithJsonSchema({"anyOf": [
        {"type": "string", "description": "ISO 3166-1 code(s): BR, or PT/BR for dual nationals"},
        {"type": "array", "items": {"type": "string"}}]}),
]


class _Model(PlainTextInput):  # no hidden character in a text field
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


def checked_cnpj(v: str | None) -> str | None:
    """``v`` written as a CNPJ is (``11.222.333/0001-81``, however it was typed) when it is
    a valid one (check digits, validate-docbr) or empty; else ``ValueError`` (pydantic
    validators)."""
    if not v:
        return v
    if not CNPJ().validate(v):
        raise ValueError(f"CNPJ inválido: {v} ‖ invalid CNPJ: {v}")
    return str(CNPJ().mask(re.sub(r"\D", "", v)))


class Company(_Model):
    name: str | None = None
    cnpj: str | None = None

    @field_validator("cnpj")
    @classmethod
    def _cnpj(cls, v: str | None) -> str | None:
        return checked_cnpj(v)


class Vessel(_Model):
    name: str | None = None
    imo: str | None = None
    flag: Country
    registry: Literal["ordinary", "REB"] | None = None
    # The code or its Portuguese name (cabotagem, apoio marítimo…: crew/data/values.yaml).
    activity: Annotated[Activity, BeforeValidator(coerce("activity")),
                        WithJsonSchema(json_schema("activity"))]
    kind: str | None = None
    gross_tonnage: int | None = Field(default=None, ge=0)

    @field_validator("imo", mode="before")
    @classmethod
    def _imo(cls, v: Any) -> str | None:
        """IMO number: 7 digits with the check digit of SOLAS XI-1/3 (weights 7..2)."""
        if v is None or v == "":
            return None
        digits = re.sub(r"^IMO\s*", "", str(v).strip(), flags=re.I)
        if not re.fullmatch(r"\d{7}", digits):
            raise ValueError(f"número IMO deve ter 7 dígitos: {v}"
                             f" ‖ IMO number must have 7 digits: {v}")
        check = sum(int(d) * w for d, w in zip(digits[:6], range(7, 1, -1), strict=True)) % 10
        if check != int(digits[6]):
            raise ValueError(f"número IMO com dígito verificador inválido: {v}"
                             f" ‖ IMO number with an invalid check digit: {v}")
        return digits

    @model_validator(mode="after")
    def _registry(self) -> Vessel:
        if self.registry is not None and self.flag != "BR":
            raise Bilingual("registry (ordinary/REB) só se aplica a embarcação de bandeira BR "
                            f"(bandeira informada: {self.flag})",
                            "registry (ordinary/REB) applies only to a BR-flag vessel (flag "
                            f"given: {self.flag})", "registry")
        return self


class AjbPeriod(_Model):
    """A period of presence in AJB; both days present; ``exit`` None = still there."""

    entry: Date
    exit: Date | None = None

    @field_validator("exit")
    @classmethod
    def _order(cls, v: dt.date | None, info: ValidationInfo) -> dt.date | None:
        # A field check (not a model one), so that the error names ``exit`` (its path says
        # the field: the message is Portuguese only, as an entry's own check).
        entry = info.data.get("entry")
        if v is not None and entry is not None and v < entry:
            raise ValueError("saída anterior à entrada ‖ exit before entry")
        return v


class Extension(_Model):
    """Extension granted by the Ministry (Res. 42/2020 art. 4 sole paragraph)."""

    step_from_day: int = Field(ge=0)
    applies_from: Date
    reference: str | None = None


class Operation(_Model):
    # The code or its Portuguese name (afretamento, prestação de serviço…: values.yaml).
    contract: Annotated[Contract, BeforeValidator(coerce("contract")),
                        WithJsonSchema(json_schema("contract"))] = Contract.NONE
    brazilian_company: Company | None = None
    ajb_presence: list[AjbPeriod] = Field(default_factory=list)
    extensions: list[Extension] = Field(default_factory=list)
    foreign_calls: YesNo | None = None
    state: str | None = None  # UF for the business-day calendar (e.g. RJ)

    @field_validator("state")
    @classmethod
    def _state(cls, v: str | None) -> str | None:
        if v is None:
            return v
        uf = v.upper()
        if pycountry.subdivisions.get(code=f"BR-{uf}") is None:  # type: ignore[no-untyped-call]
            raise ValueError(f"UF desconhecida: {v} ‖ unknown Brazilian state: {v}")
        return uf

    @model_validator(mode="after")
    def _no_overlap(self) -> Operation:
        periods = sorted(enumerate(self.ajb_presence), key=lambda ip: ip[1].entry)
        for (_, a), (j, b) in itertools.pairwise(periods):
            if a.exit is None or a.exit >= b.entry:
                # Named at the later period's entry: the one that starts inside another.
                before = a.exit.isoformat() if a.exit else None
                raise Bilingual(
                    f"período de presença em AJB com entrada em {b.entry.isoformat()} "
                    "sobreposto ao anterior (" + (f"saída em {before}" if before else
                                                  "aberto, sem saída") + ")",
                    f"AJB presence period entering on {b.entry.isoformat()} overlaps the "
                    "previous one (" + (f"exit on {before}" if before else "open, no exit")
                    + ")", f"ajb_presence[{j}].entry")
        return self


class Entry(_Model):
    """An entry into Brazil (immigration.md)."""

    date: Date
    # Required (immigration.md Inputs: only exit and mandatory_crew_change are optional):
    # by air or sea decides Res. 42 art. 11 § 2, and no default may decide it silently.
    by: Annotated[Literal["sea", "air"], BeforeValidator(_alias(_ENTRY_BY_PT))]
    exit: Date | None = None
    mandatory_crew_change: YesNo = False

    @field_validator("exit")
    @classmethod
    def _order(cls, v: dt.date | None, info: ValidationInfo) -> dt.date | None:
        start = info.data.get("date")
        if v is not None and start is not None and v < start:
            raise ValueError("saída anterior à entrada ‖ exit before entry")
        return v


def exit_before(entries: list[Entry], on: dt.date) -> dt.date | None:
    """The exit that shows a person out of Brazil on ``on``: no entry covers ``on`` (the exit
    day is a day present, immigration.md) — the latest exit before it. ``None`` when the
    entries show them in Brazil, or say nothing (no entry by ``on``)."""
    past = [e for e in entries if e.date <= on]
    # In Brazil when any entry covers the day (both days present) — a re-entry on the day
    # of an exit included, whatever order the entries are listed in.
    if not past or any(e.exit is None or e.exit >= on for e in past):
        return None
    return max(e.exit for e in past if e.exit is not None)


DocumentType = Literal[
    "visit_visa", "temporary_visa", "residence_authorization", "work_authorization",
    "work_authorization_request", "residence_authorization_request", "seafarer_card",
    "sid_c185", "passport",
]


class Document(_Model):
    """A document held: type, dates; ``protocol_date`` = date a request was filed."""

    type: DocumentType
    number: str | None = None
    issued_on: Date | None = None
    valid_until: Date | None = None
    protocol_date: Date | None = None

    @field_validator("valid_until")
    @classmethod
    def _valid_after_issue(cls, v: dt.date | None, info: ValidationInfo) -> dt.date | None:
        issued = info.data.get("issued_on")
        if v is not None and issued is not None and v < issued:
            raise ValueError(f"validade ({v.isoformat()}) anterior à emissão "
                             f"({issued.isoformat()}) ‖ valid until {v.isoformat()}, before "
                             f"the issue date {issued.isoformat()}")
        return v


class CrewInput(_Model):
    """One person aboard as given in the input (inline or one crew-file row)."""

    id: str
    rank: str | None = None
    nationality: Nationalities
    department: Annotated[Literal["deck", "engine", "catering", "health",
                                  "non_crew_professional", "non_seafarer_crew"] | None,
                          BeforeValidator(_alias(_DEPARTMENT_PT))] = None
    level: Annotated[Literal["officer", "rating", "petty_officer", "junior_rating"] | None,
                     BeforeValidator(_alias(_LEVEL_PT))] = None
    position: Literal["master", "chief_engineer"] | None = None
    sid_c185: YesNo = False
    seafarer_card: YesNo = False
    entries: list[Entry] = Field(default_factory=list)
    documents: list[Document] = Field(default_factory=list)
    # Personal data: kept only when the input asks for it (LGPD, spec README rule 7).
    name: str | None = None
    document_number: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, v: Any) -> str:
        if isinstance(v, bool) or not isinstance(v, str | int):
            raise ValueError("id deve ser um texto curto (ex.: C01) ‖ id must be short text "
                             "(e.g. C01)")
        if str(v).strip() == "":
            raise ValueError("id ausente ‖ id missing")
        return str(v).strip()


# Persons in one vessel's crew list: above the largest crews afloat (a cruise ship's ~2,400),
# so that a runaway input is refused rather than judged for minutes.
MAX_CREW = 10_000


class VesselCase(_Model):
    """A vessel case file. Exactly one of ``crew`` / ``crew_file``.

    ``crew_source`` (set by the loader) names where each crew row came from, for errors.
    """

    vessel: Vessel
    operation: Operation = Field(default_factory=Operation)
    crew: Annotated[list[CrewInput], Field(max_length=MAX_CREW)] | None = None
    crew_file: str | None = None
    keep_personal_data: YesNo = False
    # Set by the loader: where the case came from and each field's line, so that errors found
    # later by an engine still name file and line. Not part of the input format.
    source: SkipJsonSchema[str | None] = Field(default=None, exclude=True)
    source_lines: SkipJsonSchema[dict[str, int]] = Field(default_factory=dict, exclude=True)
    # Set by the loader (file, row of each crew member); not part of the input format.
    crew_origin: SkipJsonSchema[tuple[tuple[str | None, int | None, str], ...]] = Field(
        default=(), exclude=True)

    @model_validator(mode="after")
    def _crew(self) -> VesselCase:
        if self.crew is None and self.crew_file is None:
            raise Bilingual("informe crew (lista) ou crew_file (CSV/XLSX)",
                            "give crew (a list) or crew_file (CSV/XLSX)", "crew")
        if self.crew is not None and self.crew_file is not None:
            raise Bilingual("informe crew ou crew_file, não ambos",
                            "give crew or crew_file, not both", "crew_file")
        return self

    @property
    def crew_list(self) -> list[CrewInput]:
        return list(self.crew or [])

    def locate(self, exc: InputError) -> InputError:
        """``exc`` with this case's file and the line of its field, when it has neither."""
        if exc.file is not None or self.source is None:
            return exc
        row = exc.row
        if row is None and exc.field:
            path = exc.field
            while path and path not in self.source_lines:
                path = path.rsplit(".", 1)[0] if "." in path else ""
            row = self.source_lines.get(path)
        return dataclasses.replace(exc, file=self.source, row=row,
                                   details=[self.locate(d) for d in exc.details])

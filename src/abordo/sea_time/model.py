"""Input model of the sea-time engine (pydantic v2, unknown fields rejected).

The shape follows the shared spec (``sea-time.md``, "Input"): a seafarer, a purpose, the CIR
entries, the company declarations (Anexo 1-S), the foreign companies' declarations
(Anexo 1-H), manoeuvre records, standby days (Anexo 1-F), instructor / inspector activity and
Navy sea days. Dates are ``datetime.date``; every period is inclusive of both ends. Every
coded value (purpose, group, department, navigation, vessel kind, offshore role, manoeuvre,
instructor activity, attachment, record book) takes its code or the Portuguese name NORMAM-101
uses (``curso``, ``mar aberto``, ``navio-sonda``: ``data/values.yaml``, read by
:mod:`abordo.law.values`).

Cross-record checks that need the category table (unknown category codes) are made here too,
so that every bad input is an :class:`~abordo.law.InputError` naming the field path
(``cir[2].function``) before any rule runs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Annotated, Any, Literal

import pycountry
from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from abordo.law.errors import InputError
from abordo.law.text import br_date
from abordo.law.validation import (
    Bilingual,
    Date,
    PlainTextInput,
    YesNo,
    input_error_from_pydantic,
    user_decimal,
)
from abordo.law.values import ValueTable, value_table
from abordo.sea_time.catalog import categories, version_on

Purpose = Literal["promotion", "course", "revalidation"]
Group = Literal["maritime", "river", "fisher", "diver", "pilot", "docking_agent"]
Department = Literal["deck", "engine", "catering", "health", "diving", "pilotage", "docking"]
Navigation = Literal["open_sea", "inland"]
OffshoreRole = Literal[
    "oim", "barge_supervisor", "ballast_control_operator", "maintenance_supervisor",
    "dp_operator",
]
ManoeuvreKind = Literal[
    "approach", "berthing", "mooring", "anchoring", "weighing_anchor",
    "tanker_cargo_monitoring",
]
InstructorKind = Literal["simulator_instructor", "naval_inspector"]
Attachment = Literal["crew_list", "employment_proof", "company_registration",
                     "antaq_closure", "cir_copy"]
EnteredIn = Literal["cir", "foreign_record_book"]


def values() -> ValueTable:
    """The Portuguese names of the coded values (``sea_time/data/values.yaml``): ``curso``
    → ``course``, ``mar aberto`` → ``open_sea``, ``navio-sonda`` → ``drillship``…"""
    return value_table("abordo.sea_time")


def _coded(kind: str) -> tuple[BeforeValidator, WithJsonSchema]:
    """The validators of a coded field: its code or its Portuguese name (refused otherwise,
    naming both lists), and the schema listing them."""
    return (BeforeValidator(values().coerce(kind)), WithJsonSchema(values().json_schema(kind)))


# The coded fields as the input writes them: the code or its Portuguese name.
PurposeIn = Annotated[Purpose, *_coded("purpose")]
GroupIn = Annotated[Group, *_coded("group")]
DepartmentIn = Annotated[Department, *_coded("department")]
NavigationIn = Annotated[Navigation, *_coded("navigation")]
OffshoreRoleIn = Annotated[OffshoreRole, *_coded("offshore_role")]
ManoeuvreKindIn = Annotated[ManoeuvreKind, *_coded("manoeuvre")]
InstructorKindIn = Annotated[InstructorKind, *_coded("instructor")]
AttachmentIn = Annotated[Attachment, *_coded("attachment")]
EnteredInIn = Annotated[EnteredIn, *_coded("entered_in")]

#: Upper bound of every count of days in the input (Navy sea days, the days a target requires):
#: 100 years of 365.25 days. No career reaches it, so a larger number is a typo, and counts
#: stay far below any size that would make "days / 365" lose exactness.
MAX_DAYS = 36_525
#: Hours of activity on one calendar day, one record or the day's records added up.
MAX_HOURS_PER_DAY = 24

#: The attachments item 1.26.2 d lists for a seafarer's own declaration (I to V).
OWN_DECLARATION_ATTACHMENTS: tuple[str, ...] = (
    "crew_list", "employment_proof", "company_registration", "antaq_closure", "cir_copy",
)


class _Model(PlainTextInput):  # no hidden character in a text field
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True,
                              populate_by_name=True)


def _category_code(value: str) -> str:
    """Normalise a category code (``2on`` → ``2ON``, aliases → code); unknown → error."""
    code = str(value).strip().upper()
    table = categories()
    if code in table.by_code:
        return code
    if code in table.aliases:
        return table.aliases[code]
    known = ", ".join(sorted(table.by_code))
    raise Bilingual(f"categoria desconhecida '{value}'; esperado um código da NORMAM "
                    f"(ex.: 2ON, 1OM, MNC): {known}",
                    f"unknown category '{value}'; expected a NORMAM code (e.g. 2ON, 1OM, MNC): "
                    f"{known}")


def _flag_code(value: str) -> str:
    code = str(value).strip().upper()
    if len(code) == 2 and pycountry.countries.get(alpha_2=code) is not None:
        return code
    if len(code) == 3 and (c := pycountry.countries.get(alpha_3=code)) is not None:
        return str(c.alpha_2)
    raise Bilingual(f"bandeira inválida '{value}'; use o código ISO 3166 de 2 letras "
                    "(BR, PA, LR…)",
                    f"invalid flag '{value}'; use the 2-letter ISO 3166 code (BR, PA, LR…)")


def _period_error(start: dt.date, end: dt.date, what_pt: str, what_en: str,
                  field: str) -> Bilingual:
    """``end`` before ``start``: e.g. a disembarkation before the embarkation."""
    return Bilingual(f"{what_pt} ({end.isoformat()}) anterior ao início ({start.isoformat()})",
                     f"{what_en} ({end.isoformat()}) is before the start ({start.isoformat()})",
                     field)


class Seafarer(_Model):
    """The seafarer: pseudonymous id, group, department and current category (code)."""

    id: str = Field(min_length=1)
    group: GroupIn
    department: DepartmentIn | None = None
    category: str
    certificate_valid_until: Date | None = None

    @field_validator("category")
    @classmethod
    def _cat(cls, v: str) -> str:
        return _category_code(v)

    @model_validator(mode="after")
    def _consistent(self) -> Seafarer:
        cat = categories().by_code[self.category]
        if self.group not in cat.groups:
            raise Bilingual(
                f"a categoria {self.category} não pertence ao grupo {self.group} "
                f"(grupos: {', '.join(cat.groups)})",
                f"category {self.category} does not belong to group {self.group} "
                f"(groups: {', '.join(cat.groups)})", "group")
        if self.department is not None and self.department != cat.department:
            raise Bilingual(
                f"a categoria {self.category} é da seção {cat.department}, "
                f"não {self.department}",
                f"category {self.category} is of the {cat.department} department, "
                f"not {self.department}", "department")
        return self

    @property
    def dept(self) -> str:
        return self.department or categories().by_code[self.category].department


class CirRecord(_Model):
    """One CIR entry: a period aboard one vessel in one function, for one company."""

    vessel: str = Field(min_length=1)
    imo: str | None = None
    flag: str = "BR"
    kind: str = "other"
    navigation: NavigationIn = "open_sea"
    embark: Date
    disembark: Date | None = None
    function: str
    company: str = Field(min_length=1)
    lcs: YesNo = False
    offshore_role: OffshoreRoleIn | None = None
    dpp_date: Date | None = None
    in_service: YesNo = True
    entered_in: EnteredInIn = "cir"

    @field_validator("function")
    @classmethod
    def _fn(cls, v: str) -> str:
        return _category_code(v)

    @field_validator("flag")
    @classmethod
    def _flag(cls, v: str) -> str:
        return _flag_code(v)

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        # The code or its Portuguese name (navio-sonda, plataforma fixa, provas de mar…); the
        # list is open: another kind is an ordinary vessel, kept as written (lower case,
        # ``_`` for spaces) for the finding that names it.
        return values().value_code("vessel_kind", v) or \
            v.strip().lower().replace("-", "_").replace(" ", "_") or "other"

    @model_validator(mode="after")
    def _dates(self) -> CirRecord:
        if self.disembark is not None and self.disembark < self.embark:
            raise Bilingual(
                f"desembarque ({br_date(self.disembark)}) anterior ao embarque "
                f"({br_date(self.embark)})",
                f"disembarkation ({self.disembark.isoformat()}) is before the embarkation "
                f"({self.embark.isoformat()})", "disembark")
        return self


class Declaration(_Model):
    """A company declaration (Anexo 1-S): company, period (inclusive) and category declared."""

    company: str = Field(min_length=1)
    from_: Date = Field(alias="from")
    to: Date
    category: str
    own_declaration: YesNo = False
    prior_format: YesNo = False
    attachments: tuple[AttachmentIn, ...] | None = None

    @field_validator("category")
    @classmethod
    def _cat(cls, v: str) -> str:
        return _category_code(v)

    @model_validator(mode="after")
    def _dates(self) -> Declaration:
        if self.to < self.from_:
            raise _period_error(self.from_, self.to, "fim do período", "end of the period",
                                "to")
        return self


class ForeignDeclaration(_Model):
    """The foreign company's declaration (Anexo 1-H) for service on a foreign-flag ship."""

    company: str = Field(min_length=1)
    from_: Date = Field(alias="from")
    to: Date
    category: str
    flag: str | None = None
    issued_in_brazil: YesNo = False

    @field_validator("category")
    @classmethod
    def _cat(cls, v: str) -> str:
        return _category_code(v)

    @field_validator("flag")
    @classmethod
    def _flag(cls, v: str | None) -> str | None:
        return None if v is None else _flag_code(v)

    @model_validator(mode="after")
    def _dates(self) -> ForeignDeclaration:
        if self.to < self.from_:
            raise _period_error(self.from_, self.to, "fim do período", "end of the period",
                                "to")
        return self


class Manoeuvre(_Model):
    """A manoeuvre recorded on the 'Comprovante de Manobra'."""

    date: Date
    kind: ManoeuvreKindIn
    navigation: NavigationIn = "open_sea"
    vessel: str | None = None


class Standby(_Model):
    """Days aboard at the disposal of the unit, proven by Anexo 1-F (inclusive)."""

    from_: Date = Field(alias="from")
    to: Date
    company: str | None = None
    vessel: str | None = None

    @model_validator(mode="after")
    def _dates(self) -> Standby:
        if self.to < self.from_:
            raise _period_error(self.from_, self.to, "fim do período", "end of the period",
                                "to")
        return self


class InstructorActivity(_Model):
    """One day of naval-inspection or simulator-instruction activity, with its hours."""

    date: Date
    hours: Decimal = Field(ge=0, le=MAX_HOURS_PER_DAY)
    kind: InstructorKindIn

    @field_validator("hours", mode="before")
    @classmethod
    def _br_hours(cls, v: Any) -> Any:
        # Hours come from Brazilian spreadsheets as often as not: "4,5" is 4.5 hours.
        return user_decimal(v)


class NavyService(_Model):
    """Navy sea days (certificate of the Diretoria do Pessoal Militar da Marinha)."""

    days: int = Field(ge=0, le=MAX_DAYS)
    certificate: str | None = None


class Target(_Model):
    """The category sought and, when the caller knows it, the sea time it requires (days)."""

    category: str
    required_days: int | None = Field(default=None, ge=0, le=MAX_DAYS)
    source: str | None = None

    @field_validator("category")
    @classmethod
    def _cat(cls, v: str) -> str:
        return _category_code(v)


class SeaTimeInput(_Model):
    """The whole request. ``navy_sea_days`` is an int or ``{days, certificate}``."""

    seafarer: Seafarer
    purpose: PurposeIn
    cir: tuple[CirRecord, ...] = ()
    declarations: tuple[Declaration, ...] = ()
    foreign_declarations: tuple[ForeignDeclaration, ...] = ()
    manoeuvres: tuple[Manoeuvre, ...] = ()
    standby: tuple[Standby, ...] = ()
    instructor_activity: tuple[InstructorActivity, ...] = ()
    navy_sea_days: NavyService = NavyService(days=0)
    target: Target | None = None

    @field_validator("navy_sea_days", mode="before")
    @classmethod
    def _navy(cls, v: object) -> object:
        if v is None:
            return {"days": 0}
        if isinstance(v, int | str) and not isinstance(v, bool):
            return {"days": v}
        return v

    @model_validator(mode="after")
    def _hours_per_day(self) -> SeaTimeInput:
        # The engine adds up one day's sessions (rules.qualifying_dates): each record within
        # 24 h is not enough, their sum on a date must fit in the day too.
        total: dict[dt.date, Decimal] = {}
        for i, act in enumerate(self.instructor_activity):
            total[act.date] = total.get(act.date, Decimal(0)) + act.hours
            if total[act.date] > MAX_HOURS_PER_DAY:
                day, hours = act.date, total[act.date]
                raise Bilingual(
                    f"as atividades de {day:%d/%m/%Y} somam {str(hours).replace('.', ',')} "
                    f"horas, mais que as {MAX_HOURS_PER_DAY} de um dia",
                    f"the activities of {day.isoformat()} add up to {hours} hours, more "
                    f"than the {MAX_HOURS_PER_DAY} of a day", f"instructor_activity[{i}].hours")
        return self


def parse_input(data: Mapping[str, Any] | SeaTimeInput, on: dt.date | None = None
                ) -> SeaTimeInput:
    """Validate ``data`` (the spec's YAML/JSON shape) into a :class:`SeaTimeInput`.

    Raises :class:`~abordo.law.InputError` naming the field path (``cir[2].disembark``):
    unknown fields, bad dates, unknown category codes, a disembarkation before the
    embarkation, a count of days above :data:`MAX_DAYS` (``navy_sea_days.days``,
    ``target.required_days``), hours of one date above 24 (``instructor_activity[i].hours``);
    with a request date ``on`` that the tool covers, also an open CIR record (still aboard on
    that date) that embarks after it. (A declaration that matches no CIR
    record is not an input error: it counts nothing, and the engine reports it — NORMAM-101
    item 1.26.1 e.)
    """
    if isinstance(data, SeaTimeInput):
        inp = data
    else:
        if not isinstance(data, Mapping):
            raise InputError("a entrada deve ser um objeto (seafarer, purpose, cir, …)", None,
                             message_en="the input must be an object (seafarer, purpose, cir…)")
        try:
            inp = SeaTimeInput.model_validate(dict(data))
        except ValidationError as exc:
            raise input_error_from_pydantic(exc) from None
    if on is not None and version_on(on) is not None:  # a date not covered is only said so
        _check_open_records(inp, on)
    return inp


def _check_open_records(inp: SeaTimeInput, on: dt.date) -> None:
    """An open record means "still aboard on the request date" (spec: sea-time inputs); one
    that embarks after that date contradicts itself — a wrong date, not days to leave out
    in silence (a closed record after the date is excluded and said so)."""
    problems = [
        InputError(f"registro em aberto (ainda a bordo) com embarque em {rec.embark:%d/%m/%Y}, "
                   f"depois da data do requerimento ({on:%d/%m/%Y}): informe o desembarque "
                   "ou corrija a data", f"cir[{i}].embark",
                   message_en=f"open record (still aboard) embarking on {rec.embark.isoformat()}"
                   f", after the request date ({on.isoformat()}): give the disembarkation or "
                   "correct the date")
        for i, rec in enumerate(inp.cir) if rec.disembark is None and rec.embark > on]
    if problems:
        raise InputError.listing(problems)

"""The inspection case's states and inputs (IN SIT 70/2007): the :class:`State` machine's
states, the refusals (:class:`TransitionRefused`, :class:`CommandInvalid`), the complaint and
the pre-boarding facts (art. 5, I–IV), and every command of the workflow (the
:data:`Command` union, validated by pydantic). The document ids a command may name come from
the checklist engine's catalogue (arts. 7 and 13).
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from abordo.crew.model import Country, checked_cnpj
from abordo.law.errors import InputError, Refusal
from abordo.law.validation import Bilingual, Date


class State(StrEnum):
    RECEIVED = "received"
    PRE_BOARDING = "pre_boarding"
    ASSESSING = "assessing"
    DOCUMENTS_REQUESTED = "documents_requested"
    FINDINGS = "findings"
    NOTIFIED = "notified"
    REMEDIED = "remedied"
    REPORT = "report"
    CLOSED = "closed"
    CLOSED_UNFOUNDED = "closed_unfounded"


CLOSED_STATES = {State.CLOSED, State.CLOSED_UNFOUNDED}


OPEN_STATES = [s for s in State if s not in CLOSED_STATES]


STATE_LABELS = {
    "received": "Denúncia recebida", "pre_boarding": "Investigação prévia ao embarque",
    "assessing": "Apuração da procedência", "documents_requested": "Documentos solicitados",
    "findings": "Constatações", "notified": "Notificado", "remedied": "Regularizado",
    "report": "Relatório circunstanciado", "closed": "Encerrado",
    "closed_unfounded": "Encerrado — denúncia improcedente",
}


class TransitionRefused(Refusal):
    """A command not allowed now: wrong state or an unmet guard (HTTP 409); ``message``
    written ``"pt ‖ en"``, ``field`` the input at fault."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class CommandInvalid(TransitionRefused):
    """A command whose own data is wrong, whatever the case's state (a violation without its
    legal basis, a document id no catalogue knows): an input error (HTTP 422)."""


# --------------------------------------------------------------------------- inputs

Text = Annotated[str, Field(min_length=1, max_length=20000)]


Short = Annotated[str, Field(min_length=1, max_length=300)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# JSON Schema of a value given and not null (the fields a command needs under a condition).
_GIVEN: dict[str, Any] = {"not": {"type": "null"}}
_SAID: dict[str, Any] = {"type": "string", "pattern": r"\S"}  # a text, not only spaces


ComplaintSource = Literal["crew_member", "union", "interested_party", "inspector_observation",
                          "secretariat_planning"]


SOURCE_LABELS = {
    "crew_member": "membro da tripulação", "union": "sindicato",
    "interested_party": "pessoa ou organização interessada",
    "inspector_observation": "observação do Auditor-Fiscal do Trabalho",
    "secretariat_planning": "planejamento da Secretaria de Inspeção do Trabalho",
}


class Complaint(_In):
    """The origin of the action (arts. 4 and 12)."""

    source: ComplaintSource
    date: Date
    content: Text
    # A seafarer asking to be repatriated (ILO C166): Decreto 6.968/2009 (arts. 3 and 5 § 1º,
    # I) then wants the inspection at once after the complaint — a deadline the case shows
    # from its opening.
    repatriation: bool = False


class PscInspection(_In):
    """Art. 5, III: the last port state control inspection — its date, or a note (``nenhuma
    registrada``, the MoU's report); one of the two, an empty record says nothing."""

    model_config = ConfigDict(json_schema_extra={"anyOf": [
        {"required": ["date"], "properties": {"date": _GIVEN}},
        {"required": ["notes"], "properties": {"notes": _GIVEN}}]})

    date: Date | None = None
    notes: Annotated[str, Field(min_length=1, max_length=2000)] | None = None

    @model_validator(mode="after")
    def _said(self) -> PscInspection:
        if self.date is None and self.notes is None:
            raise Bilingual("informe a data da última inspeção do controle pelo Estado do "
                            "porto ou uma observação (ex.: nenhuma registrada)",
                            "give the last port state control inspection's date or a note",
                            "date")
        return self


class PreBoarding(_In):
    """Facts gathered before boarding a vessel not yet docked (art. 5, I–IV)."""

    agent: Short | None = None
    vessel_name: Short | None = None
    vessel_class: Short | None = None
    # As a vessel case's flag: ISO 3166-1 code or country name, stored as the alpha-2 code.
    flag: Country | None = None
    free_pratique_requested: bool | None = None
    free_pratique_granted: bool | None = None
    last_psc_inspection: PscInspection | None = None
    expected_berthing: Date | None = None
    expected_unberthing: Date | None = None
    quay: Short | None = None
    berth: Short | None = None
    # Not an art. 5 fact: the municipality of the port (``Macaé/RJ``), where the documents
    # of the action are dated; without it they are dated in the region's state.
    port: Short | None = None


def check_pre_boarding(facts: dict[str, Any], prefix: str) -> None:
    """The art. 5 facts agree with each other (``prefix``: the field path of ``facts``):
    free pratique is granted only where it was requested (II), and the expected unberthing
    does not come before the expected berthing (IV). :class:`InputError` otherwise."""
    if facts.get("free_pratique_granted") is True and facts.get("free_pratique_requested") \
            is False:
        raise InputError("livre prática concedida sem ter sido solicitada: corrija "
                         "free_pratique_requested ou free_pratique_granted",
                         f"{prefix}.free_pratique_granted",
                         message_en="free pratique granted but not requested")
    a, b = facts.get("expected_berthing"), facts.get("expected_unberthing")
    if a and b and str(b) < str(a):
        ta, tb = (dt.date.fromisoformat(str(x)) for x in (a, b))
        raise InputError(f"previsão de desatracação ({tb:%d/%m/%Y}) anterior à de atracação "
                         f"({ta:%d/%m/%Y})", f"{prefix}.expected_unberthing",
                         message_en=f"expected unberthing ({tb}) before the berthing ({ta})")


PRE_BOARDING_REQUIRED = ("agent", "vessel_name", "vessel_class", "flag",
                         "free_pratique_requested", "free_pratique_granted",
                         "last_psc_inspection", "expected_berthing", "expected_unberthing",
                         "quay", "berth")


# Each art. 5 fact in the inspector's words, for the refusals that list what is missing.
PRE_BOARDING_WORDS = {
    "agent": "agente marítimo credenciado", "vessel_name": "nome da embarcação",
    "vessel_class": "classe", "flag": "bandeira",
    "free_pratique_requested": "livre prática solicitada",
    "free_pratique_granted": "livre prática concedida",
    "last_psc_inspection": "última inspeção do controle pelo Estado do porto",
    "expected_berthing": "atracação prevista", "expected_unberthing": "desatracação prevista",
    "quay": "cais", "berth": "berço", "port": "porto (município/UF)",
}


class _Cmd(_In):
    reason: Annotated[str, Field(max_length=5000)] | None = None
    version: int | None = Field(default=None, ge=1,
                                description="the case version this write is based on")
    recorded_on: Date | None = Field(
        default=None, description="the day the act or fact happened, when recorded later "
        "(default: today; not before the complaint, not in the future)")


class StartPreBoarding(_Cmd):
    command: Literal["start_pre_boarding"]


class RecordPreBoarding(_Cmd):
    command: Literal["record_pre_boarding"]
    facts: PreBoarding


class StartAssessment(_Cmd):
    command: Literal["start_assessment"]


# Art. 6: the complaint is assessed "junto ao comandante ou seu substituto imediato".
Consulted = Literal["master", "next_in_command"]
_CONSULTED = ("with whom the complaint was assessed (art. 6): required on a foreign-flag "
              "vessel — the case's flag decides, so the schema cannot say it")


class CloseUnfounded(_Cmd):
    command: Literal["close_unfounded"]
    reason: Text
    consulted: Consulted | None = Field(default=None, description=_CONSULTED)


def catalogue() -> dict[str, dict[str, Any]]:
    from abordo.immigration.checklist import checklist_data

    return {str(i["id"]): i for i in checklist_data()["items"]
            if i.get("stage", "documents") == "documents"}


def document_ids() -> list[str]:
    """Ids of the catalogue's document items (what an inspector may request by hand)."""
    return list(catalogue())


class RequestDocuments(_Cmd):
    command: Literal["request_documents"]
    consulted: Consulted | None = Field(default=None, description=_CONSULTED)
    extra_items: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=list, max_length=30,
        description="catalogue documents requested by hand although the checklist engine "
                    "does not list them (e.g. art. 7 documents of a Brazilian-flag vessel): "
                    "ids such as ship_registry, crew_list, ship_particulars, "
                    "employment_contracts, minimum_safe_manning, crew_payroll")

    @field_validator("extra_items")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        known = document_ids()
        for item in v:
            if item not in known:
                raise ValueError(f"documento desconhecido '{item}' (itens: {', '.join(known)})"
                                 f" ‖ unknown document '{item}' (items: {', '.join(known)})")
        return list(dict.fromkeys(v))


DocumentItem = Annotated[str, Field(min_length=1, max_length=200)]


class RecordDocument(_Cmd):
    """One document of the checklist (``item``), or several with one status (``items``: a
    crew's visas, one item per person, in one act)."""

    # Exactly one of the two (the schema says it as the check below does): ``item``, or
    # ``items`` with at least one id (an empty list is none given).
    model_config = ConfigDict(json_schema_extra={"oneOf": [
        {"required": ["item"], "properties": {"item": {"type": "string"}}},
        {"required": ["items"], "properties": {"items": {"minItems": 1}}}]})

    command: Literal["record_document"]
    item: DocumentItem | None = None
    items: list[DocumentItem] = Field(default_factory=list, max_length=500)
    status: Literal["received", "missing"]

    @model_validator(mode="after")
    def _one_way(self) -> RecordDocument:
        # Named at the field of the body (a check of the whole command would otherwise be
        # reported at the command's name): the one missing, or the one too many.
        if self.item is None and not self.items:
            raise Bilingual("informe item (um documento) ou items (vários)",
                            "give item (one document) or items (several)", "item")
        if self.item is not None and self.items:
            raise Bilingual("informe item (um documento) ou items (vários), não ambos",
                            "give item (one document) or items (several), not both", "items")
        return self

    @property
    def targets(self) -> list[str]:
        """The items recorded, in the order given, each once."""
        return [self.item] if self.item is not None else list(dict.fromkeys(self.items))


class RecordPhysicalCheck(_Cmd):
    # An irregular area needs the norm it breaks (the finding's basis).
    model_config = ConfigDict(json_schema_extra={
        "if": {"required": ["ok"], "properties": {"ok": {"const": False}}},
        "then": {"required": ["citation"], "properties": {"citation": _SAID}}})

    command: Literal["record_physical_check"]
    area: Literal["accommodation", "galley", "cold_rooms", "food", "drinking_water"]
    ok: bool
    notes: Annotated[str, Field(max_length=5000)] | None = None
    # The norm an irregular area breaks (NR-30 item, ILO C147, CLT…): the finding's basis —
    # art. 8 (art. 2 on a national vessel) is the inspector's procedure, not that norm.
    citation: Short | None = None


AREA_LABELS = {"accommodation": "alojamentos", "galley": "cozinha",
               "cold_rooms": "câmaras frigoríficas", "food": "quantidade e qualidade dos alimentos",
               "drinking_water": "provisão de água potável"}


class SetVesselCase(_Cmd):
    command: Literal["set_vessel_case"]
    vessel_case: dict[str, Any]
    on: Date | None = None


class RunEngines(_Cmd):
    command: Literal["run_engines"]
    on: Date | None = None


FindingArea = Literal["safety", "health", "hygiene", "contractual", "wage", "other"]


SAFETY_AREAS = ("safety", "health", "hygiene")  # art. 10, I (the consul's ofício)


class AddFinding(_Cmd):
    # A violation (the default severity) needs its legal basis; a warning or a remark not.
    model_config = ConfigDict(json_schema_extra={
        "if": {"required": ["severity"],
               "properties": {"severity": {"enum": ["warning", "info"]}}},
        "else": {"required": ["citation"], "properties": {"citation": _SAID}}})

    command: Literal["add_finding"]
    text: Text
    severity: Literal["violation", "warning", "info"] = "violation"
    citation: Annotated[str, Field(max_length=500)] | None = None
    area: FindingArea | None = Field(
        default=None, description="safety | health | hygiene (art. 10, I: told to the consul "
        "when the notification is not met) | contractual | wage (art. 10, II) | other")


class Notify(_Cmd):
    command: Literal["notify"]
    deadline: Date
    issued_on: Date | None = None


class RecordRemedied(_Cmd):
    command: Literal["record_remedied"]


class RecordNotRemedied(_Cmd):
    command: Literal["record_not_remedied"]
    risk: Literal["serious_imminent", "contractual_wage", "lesser_safety"]
    repatriation: bool = False
    strike: bool = False
    refused: bool = Field(
        default=False, description="the notified agent or master refused the notification "
        "expressly: the outcome may be recorded before its deadline")


class RequestDetention(_Cmd):
    command: Literal["request_detention"]
    consul: Short | None = None
    notes: Annotated[str, Field(max_length=5000)] | None = None


# ILO C166 art. 2(1), the cases that entitle a seafarer to repatriation.
C166_SITUATIONS = {
    "contract_expired": "contrato de engajamento por prazo ou viagem vencido no exterior "
                        "(art. 2º, 1, a)",
    "notice_expired": "fim do prazo de aviso prévio do contrato (art. 2º, 1, b)",
    "illness_or_injury": "doença ou acidente que exija repatriação (art. 2º, 1, c)",
    "shipwreck": "naufrágio (art. 2º, 1, d)",
    "shipowner_unable": "armador impossibilitado de cumprir suas obrigações legais ou "
                        "contratuais, por falência, venda do navio, mudança de registro ou "
                        "razão análoga (art. 2º, 1, e)",
    "war_zone": "navio destinado a zona de guerra a que o marítimo não consente ir "
                "(art. 2º, 1, f)",
    "employment_terminated": "término ou interrupção do emprego por sentença arbitral ou "
                             "convenção coletiva (art. 2º, 1, g)",
}


class ReferFederalPolice(_Cmd):
    """Art. 10, III: both the persons and the C166 case are in the ofício — required."""

    command: Literal["refer_federal_police"]
    notes: Annotated[str, Field(max_length=5000)] | None = None
    crew: list[Short] = Field(min_length=1, max_length=500,
                              description="ids of the crew members to repatriate")
    situation: Literal["contract_expired", "notice_expired", "illness_or_injury", "shipwreck",
                       "shipowner_unable", "war_zone", "employment_terminated"] = \
        Field(description="the case of ILO C166 art. 2(1) (art. 10, III)")


class RecordMediation(_Cmd):
    command: Literal["record_mediation"]
    notes: Text


class Party(_In):
    name: Short
    cnpj: Annotated[str, Field(max_length=20)] | None = None

    @field_validator("cnpj")
    @classmethod
    def _cnpj(cls, v: str | None) -> str | None:
        return checked_cnpj(v)


class RecordRepatriationReport(_Cmd):
    """Decreto 6.968/2009 (arts. 3 and 5 § 1º, II): the report to the Secretaria de Inspeção
    do Trabalho, owed within 48 hours of the shipowner's refusal to repatriate, was sent —
    on ``recorded_on`` (default today), under ``reference``."""

    command: Literal["record_repatriation_report"]
    reference: Short | None = Field(
        default=None, description="the report's reference (ofício, SEI process or "
        "document number), as sent")


class DraftAuto(_Cmd):
    # An ementário auto needs all four (the art. 14 auto has them from the case; its
    # ``against`` only when the case names no company — the case decides, not the body).
    model_config = ConfigDict(json_schema_extra={
        "if": {"required": ["kind"], "properties": {"kind": {"const": "ementario"}}},
        "then": {"required": ["ementa", "capitulation", "against", "findings"],
                 "properties": {"ementa": _GIVEN, "capitulation": _SAID,
                                "against": _GIVEN, "findings": {"minItems": 1}}}})

    command: Literal["draft_auto"]
    kind: Literal["cnig", "quota", "ementario"] = Field(
        default="cnig", description="cnig (art. 14: a CNIg resolution not met — quota or "
        "immigration — against the Brazilian contracting company, CLT art. 444, ementa "
        "001139-8; 'quota' is the same) | ementario (art. 2, sole paragraph: another "
        "violation, with the ementa and capitulation of the ementário)")
    facts: Annotated[str, Field(max_length=5000)] | None = None
    ementa: Annotated[str, Field(pattern=r"^[0-9]{6}-[0-9]$", description="código do ementário, "
                                 "seis dígitos e o verificador: 001139-8")] | None = None
    capitulation: Annotated[str, Field(max_length=300)] | None = None
    against: Party | None = None
    findings: list[Short] = Field(default_factory=list, max_length=200)


class VoidAuto(_Cmd):
    """Set aside a draft auto drafted in error (a minuta: the auto itself is issued in the
    Ministry's system). It stays in the case, marked void with who, when and why; its
    number is not reused; what it covered may be fined again."""

    command: Literal["void_auto"]
    auto: Short
    reason: Text


class WriteReport(_Cmd):
    command: Literal["write_report"]
    summary: Text
    forward_international: bool | None = None


class Close(_Cmd):
    command: Literal["close"]


class AssignTeam(_Cmd):
    command: Literal["assign_team"]
    team: list[Annotated[str, Field(min_length=3, max_length=254)]] = Field(max_length=20)


Command = Annotated[
    StartPreBoarding | RecordPreBoarding | StartAssessment | CloseUnfounded | RequestDocuments
    | RecordDocument | RecordPhysicalCheck | SetVesselCase | RunEngines | AddFinding | Notify
    | RecordRemedied | RecordNotRemedied | RequestDetention | ReferFederalPolice
    | RecordMediation | RecordRepatriationReport | DraftAuto | VoidAuto | WriteReport | Close
    | AssignTeam,
    Field(discriminator="command"),
]

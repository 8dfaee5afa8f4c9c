"""The inspection-case workflow (inspection.md, IN SIT 70/2007): states, commands and the
ONE transition table.

A command is validated (pydantic), checked against :data:`TRANSITIONS` — the states it may
be given in, the state it leads to, and its guards — and then applied to the case facts,
producing the new state and facts. Nothing here touches the database or the clock: the
service passes ``today`` and stores the result together with its audit event.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from abordo.cases.audit import data_digest
from abordo.crew.model import Country, checked_cnpj, nationality_codes
from abordo.law.calendar import add_business_days, is_business_day
from abordo.law.errors import InputError, Refusal
from abordo.law.norms import norm_registry
from abordo.law.text import fold
from abordo.law.validation import Date

PROCEDURE = "in-sit-70-2007"
"""The procedure the workflow models (IN SIT 70/2007). A case also records the procedure in
force on its date of facts (:func:`procedure_for`), which may differ."""
PROCEDURE_CANDIDATES = ("in-sit-70-2007", "in-mtp-2-2021")
BEFORE_PROCEDURE = "pre-in-sit-70-2007"


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


class PscInspection(_In):
    """Art. 5, III: the last port state control inspection — its date, or a note (``nenhuma
    registrada``, the MoU's report); one of the two, an empty record says nothing."""

    date: Date | None = None
    notes: Annotated[str, Field(min_length=1, max_length=2000)] | None = None

    @model_validator(mode="after")
    def _said(self) -> PscInspection:
        if self.date is None and self.notes is None:
            raise ValueError("informe a data da última inspeção do controle pelo Estado do "
                             "porto ou uma observação (ex.: nenhuma registrada) ‖ give the "
                             "last port state control inspection's date or a note")
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


class CloseUnfounded(_Cmd):
    command: Literal["close_unfounded"]
    reason: Text
    consulted: Consulted | None = None


class RequestDocuments(_Cmd):
    command: Literal["request_documents"]
    consulted: Consulted | None = None
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


class RecordDocument(_Cmd):
    command: Literal["record_document"]
    item: Annotated[str, Field(min_length=1, max_length=200)]
    status: Literal["received", "missing"]


class RecordPhysicalCheck(_Cmd):
    command: Literal["record_physical_check"]
    area: Literal["accommodation", "galley", "cold_rooms", "food", "drinking_water"]
    ok: bool
    notes: Annotated[str, Field(max_length=5000)] | None = None
    # The norm an irregular area breaks (NR-30 item, ILO C147, CLT…): the finding's basis —
    # art. 8 (art. 2 on a national vessel) is the inspector's procedure, not that norm.
    citation: Short | None = None


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
    command: Literal["refer_federal_police"]
    notes: Annotated[str, Field(max_length=5000)] | None = None
    crew: list[Short] = Field(default_factory=list, max_length=500,
                              description="ids of the crew members to repatriate")
    situation: Literal["contract_expired", "notice_expired", "illness_or_injury", "shipwreck",
                       "shipowner_unable", "war_zone", "employment_terminated"] | None = \
        Field(default=None, description="the case of ILO C166 art. 2(1) (art. 10, III)")


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


class DraftAuto(_Cmd):
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
    | RecordMediation | DraftAuto | VoidAuto | WriteReport | Close | AssignTeam,
    Field(discriminator="command"),
]


# --------------------------------------------------------------------------- facts helpers

def cite(provision: str, norm: str = PROCEDURE) -> dict[str, Any]:
    c = norm_registry().cite(norm, provision)
    return {"norm_id": c.norm_id, "provision": c.provision, "version": c.version,
            "label": c.label, "urn": c.urn}


# --------------------------------------------------------------------------- procedure

@dataclass(frozen=True)
class Procedure:
    """The inspection procedure in force on a case's date of facts.

    ``version`` is the norm id in force (``in-sit-70-2007``, ``in-mtp-2-2021``, or
    ``pre-in-sit-70-2007`` before IN SIT 70/2007); ``warning`` is set when that procedure is
    not the one the workflow models (:data:`PROCEDURE`).
    """

    on: Date
    version: str
    warning: dict[str, Any] | None


def facts_date(data: dict[str, Any], created: dt.date | None = None) -> dt.date:
    """The case's date of facts for the procedure: the complaint date (the origin of the
    action), else the creation date."""
    raw = (data.get("complaint") or {}).get("date")
    if raw:
        return dt.date.fromisoformat(str(raw)[:10])
    return created or dt.date.today()


def procedure_for(on: dt.date) -> Procedure:
    """Which procedure was in force on ``on`` and, if it is not modelled, the warning."""
    reg = norm_registry()
    modelled = reg[PROCEDURE]
    if modelled.in_force_on(on):
        return Procedure(on, PROCEDURE, None)
    in_force = next((reg[n] for n in PROCEDURE_CANDIDATES if reg[n].in_force_on(on)), None)
    revoked = (modelled.in_force_to + dt.timedelta(days=1)) if modelled.in_force_to else None
    if in_force is not None and revoked is not None:
        pt = (f"O procedimento vigente ({in_force.label}) não está modelado; o fluxo segue a "
              f"{modelled.label.replace(' nº', '')}, revogada em {revoked:%d/%m/%Y}.")
        en = (f"The procedure in force ({in_force.label}) is not modelled; the workflow "
              f"follows {modelled.label}, revoked from {revoked.isoformat()}.")
        version = in_force.id
    else:
        pt = (f"Em {on:%d/%m/%Y} a {modelled.label} ainda não vigorava (vigência a partir de "
              f"{modelled.in_force_from:%d/%m/%Y}); o procedimento então vigente não está "
              f"modelado; o fluxo segue a {modelled.label.replace(' nº', '')}.")
        en = (f"On {on.isoformat()} {modelled.label} was not yet in force (from "
              f"{modelled.in_force_from.isoformat()}); the procedure then in force is not "
              f"modelled; the workflow follows {modelled.label}.")
        version = BEFORE_PROCEDURE
    return Procedure(on, version, {
        "code": "procedure_not_modelled", "message": pt, "message_en": en,
        "facts_date": on.isoformat(), "procedure_in_force": version,
        "workflow_procedure": PROCEDURE})


def case_warnings(data: dict[str, Any], created: dt.date | None = None
                  ) -> list[dict[str, Any]]:
    """Warnings shown with the case (API read payload and every document)."""
    proc = procedure_for(facts_date(data, created))
    out = [proc.warning] if proc.warning else []
    told = _flag((data.get("pre_boarding") or {}).get("flag"))
    given = _flag(((data.get("vessel_case") or {}).get("vessel") or {}).get("flag"))
    if told and given and told != given:
        # The flag decides the procedure (art. 2 for a national vessel, arts. 3–10 for a
        # foreign one): the vessel facts prevail, but the difference must be seen.
        out.append({"code": "flag_mismatch",
                    "message": f"A bandeira informada na investigação prévia ({told}) difere "
                               f"da dos dados da embarcação ({given}); vale a dos dados da "
                               "embarcação — confira, pois a bandeira define o procedimento "
                               "(art. 2º para embarcação nacional, arts. 3º a 10 para "
                               "estrangeira).",
                    "message_en": f"The flag given at pre-boarding ({told}) differs from the "
                                  f"vessel facts' ({given}); the vessel facts prevail — check "
                                  "it: the flag decides the procedure (art. 2 for a national "
                                  "vessel, arts. 3–10 for a foreign one).",
                    "pre_boarding_flag": told, "vessel_flag": given})
    return out


# --------------------------------------------------------------------------- checklist
#
# The case's document checklist comes from the checklist engine
# (:func:`abordo.immigration.checklist.evaluate`, the one ``abordo check`` runs): its
# ``documents`` items (arts. 7 and 13; the art. 5 items are the pre-boarding facts), one
# entry per crew member for per-person items. Before the vessel is described
# (``set_vessel_case``) the list is the engine's items common to every activity for the flag
# known from pre-boarding (unknown flag: a foreign vessel). A Brazilian-flag vessel gets no
# item (art. 2: CLT, NR-30, ILO C147); the inspector may still request catalogue items by hand
# (``request_documents.extra_items`` or ``record_document`` of a catalogue id).

GENERIC_FOREIGN_FLAG = "PA"  # stands for "some foreign flag" before the flag is known


def _catalogue() -> dict[str, dict[str, Any]]:
    from abordo.immigration.checklist import checklist_data

    return {str(i["id"]): i for i in checklist_data()["items"]
            if i.get("stage", "documents") == "documents"}


def document_ids() -> list[str]:
    """Ids of the catalogue's document items (what an inspector may request by hand)."""
    return list(_catalogue())


@lru_cache(maxsize=256)
def _provisional(flag: str, on: dt.date) -> tuple[str, str]:
    """(items JSON, decision JSON) of the engine for a vessel of ``flag`` of any activity."""
    from abordo.crew.model import Activity, Vessel, VesselCase
    from abordo.immigration.checklist import evaluate

    decisions = [evaluate(VesselCase(vessel=Vessel(flag=flag, activity=a), crew=[]), on)
                 .to_json("pt") for a in Activity]
    common = set.intersection(*({i["id"] for i in dec["result"]["items"]} for dec in decisions))
    items = [i for i in decisions[0]["result"]["items"] if i["id"] in common]
    return json.dumps(items), json.dumps(decisions[0])


def _flag(value: Any) -> str | None:
    from abordo.crew.model import country_code

    if value in (None, ""):
        return None
    try:
        return country_code(value)
    except ValueError:
        return None


def document_checklist(vessel_case: dict[str, Any] | None, on: dt.date,
                       flag: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The document checklist of a case (pending items) and its basis (engine verdict)."""
    if vessel_case:
        from abordo.crew import parse_vessel_case
        from abordo.immigration.checklist import evaluate

        dec = evaluate(parse_vessel_case(vessel_case, None, None), on).to_json("pt")
        raw = list(dec["result"]["items"])
        source = "vessel_case"
        summary = str(dec["summary"])
    else:
        known = _flag(flag)
        items_json, dec_json = _provisional(known or GENERIC_FOREIGN_FLAG, on)
        raw, dec = json.loads(items_json), json.loads(dec_json)
        source = "pre_boarding_flag" if known else "unknown_vessel"
        summary = str(dec["summary"]) if known == "BR" else (
            f"Lista provisória ({len([i for i in raw if i['stage'] == 'documents'])} itens "
            "comuns a toda embarcação estrangeira): completada quando a embarcação e a "
            "tripulação forem informadas (set_vessel_case).")
    items: list[dict[str, Any]] = []
    for i in raw:
        if i.get("stage") != "documents":
            continue
        common: dict[str, Any] = {
            "basis": i["citation"], "status": "pending", "binding": bool(i["binding"]),
            "applies_because": i.get("applies_because"), "source": "engine"}
        subjects = i.get("subjects") or []
        if subjects:
            items += [{"item": f"{i['id']}:{p}", "label": f"{i['text']} — tripulante {p}",
                       "subject": p, **common} for p in subjects]
        else:
            items.append({"item": i["id"], "label": i["text"], **common})
    national = next((str(t["text"]) for t in dec.get("trace", [])
                     if t.get("rule") == "vessel.national"), None)
    basis: dict[str, Any] = {"engine": "checklist", "on": on.isoformat(),
                             "verdict": dec["verdict"],
                             "procedure": dec["result"].get("procedure"),
                             "in_force": bool(dec["result"].get("in_force")),
                             "summary": summary, "source": source, "items": len(items),
                             "national_vessel": national}
    if national:
        said = national.rstrip(".") in summary
        basis["note"] = ("" if said else f"{national[0].upper()}{national[1:]} ") + (
            "Documentos podem ser solicitados pelo Auditor-Fiscal conforme o objeto da "
            "denúncia.")
        # How, in this service (for the API reader, not for the relatório):
        basis["how"] = ("extra_items de request_documents, ou record_document de um item do "
                        "catálogo")
    return items, basis


def checklist_for(vessel_case: dict[str, Any] | None, on: dt.date | None = None,
                  flag: str | None = None) -> list[dict[str, Any]]:
    """The pending document items for ``vessel_case`` on ``on`` (see
    :func:`document_checklist`)."""
    return document_checklist(vessel_case, on or dt.date.today(), flag)[0]


def manual_item(item_id: str) -> dict[str, Any]:
    """A catalogue document requested by the inspector although the engine does not list it
    (e.g. art. 7 documents of a Brazilian-flag vessel)."""
    cat = _catalogue()
    if item_id not in cat:
        raise CommandInvalid(
            f"documento desconhecido '{item_id}' (itens do catálogo: {', '.join(cat)}) ‖ "
            f"unknown document '{item_id}' (catalogue items: {', '.join(cat)})", "item")
    entry = cat[item_id]
    return {"item": item_id, "label": entry["text"]["pt"], "basis": cite(entry["provision"]),
            "status": "pending", "binding": False,
            "applies_because": "solicitado pelo Auditor-Fiscal do Trabalho",
            "source": "manual"}


def merge_checklist(old: list[dict[str, Any]], new: list[dict[str, Any]]
                    ) -> list[dict[str, Any]]:
    """The engine's new list with the statuses already recorded; items requested by hand,
    and items already recorded that no longer apply, are kept."""
    by_id = {i["item"]: i for i in old}
    out = [{**i, **{k: by_id[i["item"]][k] for k in ("status", "recorded_on")
                    if k in by_id.get(i["item"], {})}} for i in new]
    ids = {i["item"] for i in new}
    out += [i for i in old if i["item"] not in ids
            and (i.get("source") == "manual" or i.get("status") != "pending")]
    return out


def _checklist_now(d: dict[str, Any], on: dt.date) -> tuple[list[dict[str, Any]],
                                                            dict[str, Any]]:
    return document_checklist(d.get("vessel_case"), on,
                              (d.get("pre_boarding") or {}).get("flag"))


def pre_boarding_missing(data: dict[str, Any]) -> list[str]:
    """Art. 5 I–IV facts not yet recorded. A docked or anchored vessel needs them too —
    "após a observância do disposto nos incisos I a IV do art. 5º" (art. 6) — except its
    expected berthing, which being at the berth has settled."""
    if national(data):  # arts. 4–10 are the procedure for foreign-flag vessels (art. 3)
        return []
    facts = data.get("pre_boarding") or {}
    wanted = [k for k in PRE_BOARDING_REQUIRED
              if not (data.get("vessel_docked") and k == "expected_berthing")]
    missing = [k for k in wanted if facts.get(k) in (None, "")]
    if facts.get("free_pratique_granted") is False:
        missing.append(NOT_GRANTED[0])
    return missing


# A pre-boarding fact recorded but against boarding: as missing, with why (pt, en).
NOT_GRANTED = ("free_pratique_granted (livre prática não concedida)",
               "free_pratique_granted (free pratique not granted)")


def violations(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in data.get("findings", []) if f.get("severity") == "violation"]


def unnotified(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Violations no notification has named yet (art. 9: each confirmed irregularity is
    notified — one found after a notification needs one of its own)."""
    notes = data.get("notifications", [])
    if any("items" not in n for n in notes):  # stored before notifications named their items
        return []
    named = {i for n in notes for i in n["items"]}
    return [f for f in violations(data) if f["id"] not in named]


def cnig_violations(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Violations of a CNIg resolution found by the engines on a foreign vessel — the
    Brazilians' quota and the foreign crew's immigration status (art. 14: "inclusive em
    relação à admissão de trabalhadores brasileiros"), whether the finding cites the
    resolution itself or the instruction that restates it (art. 13, VI). On a Brazilian-flag
    vessel the quota is Lei 9.432/1997's: its violations are autos of the ementário (art. 2)."""
    if national(data):
        return []
    return [f for f in violations(data)
            if f.get("source") in ("engine:quota", "engine:immigration")]


def without_auto(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Violations on a Brazilian-flag vessel that no auto covers yet: art. 2, sole paragraph
    — "às violações das normas legais deve corresponder a lavratura de autos de infração,
    conforme ementário"."""
    if not national(data):
        return []
    covered = {f for a in active_autos(data) for f in a.get("findings", [])}
    return [f for f in violations(data) if f["id"] not in covered]


def quota_violations(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in violations(data) if f.get("source") == "engine:quota"]


def escalated(data: dict[str, Any], kind: str) -> bool:
    return any(e["kind"] == kind for e in data.get("escalations", []))


def open_step_details(data: dict[str, Any], *, for_report: bool = False
                      ) -> list[dict[str, Any]]:
    """Mandatory steps still open (a case cannot close while any remains), each
    ``{id, label, items?}`` with Portuguese labels (``items``: pending documents)."""
    out: list[dict[str, Any]] = []
    pending = [{"id": i["item"], "label": i.get("label") or i["item"]}
               for i in data.get("checklist", []) if i["status"] == "pending"]
    if pending:
        out.append({"id": "documents", "label": "documentos sem registro de recebido/ausente",
                    "items": pending})
    if crew_list_unrecorded(data):
        out.append({"id": "crew_data",
                    "label": "lista de tripulantes recebida e não registrada: registre-a "
                             "(set_vessel_case) e verifique a cota e a imigração (run_engines)"})
    if engines_due(data):
        # "Findings feed the engines" (spec): a crew list no engine has judged cannot end
        # in a report of no irregularity — nor skip the art. 14 auto it may owe.
        out.append({"id": "engines",
                    "label": "verificação da cota de brasileiros e da imigração sobre a lista "
                             "de tripulantes atual (run_engines; arts. 12–14)"})
    labels = {"detention_request": "ofício ao cônsul e à autoridade marítima (art. 10, I)",
              "federal_police": "ofício à Polícia Federal (art. 10, III)",
              "mediation": "registro de mediação da greve (art. 10, IV)"}
    out += [{"id": kind, "label": labels[kind]} for kind in open_duties(data)]
    if cnig_violations(data) and not art14_autos(data):
        out.append({"id": "quota_auto",
                    "label": "auto de infração por descumprimento de Resolução Normativa do "
                             "CNIg — cota ou imigração (art. 14)"})
    uncovered = without_auto(data)
    if uncovered:
        out.append({"id": "national_autos",
                    "label": "autos de infração conforme o ementário, embarcação nacional "
                             "(art. 2º, parágrafo único), para: "
                             + ", ".join(f["id"] for f in uncovered)})
    notes = data.get("notifications", [])
    if notes and notes[-1].get("outcome") is None:
        out.append({"id": "notification_outcome",
                    "label": "resultado da notificação (atendida ou não)"})
    late = unnotified(data) if notes else []
    if late:
        out.append({"id": "notification_pending",
                    "label": "irregularidades constatadas após a notificação, ainda não "
                             "notificadas (art. 9º): " + ", ".join(f["id"] for f in late)})
    if not for_report and not data.get("report"):
        out.append({"id": "report", "label": "relatório circunstanciado (art. 11)"})
    return out


def crew_list_unrecorded(data: dict[str, Any]) -> bool:
    """The crew list was received (art. 7) before any notification but its data never given
    to the engines: the quota and immigration findings it feeds (arts. 12–14) are then still
    owed. (After a notification the crew list can no longer be set — a list that comes in
    later is recorded as received only.)"""
    return not data.get("vessel_case") and not data.get("notifications") and any(
        i["item"] == "crew_list" and i["status"] == "received"
        for i in data.get("checklist", []))


def engines_due(data: dict[str, Any]) -> bool:
    """A vessel case is set and the engines have not judged it as it stands. (Cases stored
    before the digest was kept carry none: they are not held to it.)"""
    return bool(data.get("vessel_case") and data.get("vessel_case_sha256")
                and not engines_current(data))


def g_engines_current(d: dict[str, Any]) -> str | None:
    """Guard of ``notify``: after it the crew list can no longer change nor be judged, so
    the engines must have judged it first (their findings are notified too)."""
    if crew_list_unrecorded(d):
        return ("a lista de tripulantes foi recebida: registre-a antes (set_vessel_case) e "
                "rode os motores (run_engines) — suas constatações entram na notificação ‖ "
                "the crew list was received: record it first (set_vessel_case) and run the "
                "engines (run_engines) — their findings go into the notification")
    return ("rode antes os motores sobre a lista de tripulantes atual (run_engines): suas "
            "constatações entram na notificação ‖ run the engines on the current crew list "
            "first (run_engines): their findings go into the notification"
            ) if engines_due(d) else None


def g_has_team(d: dict[str, Any]) -> str | None:
    """Guard of the acts whose document the case's team signs (art. 4, sole paragraph)."""
    return ("este ato gera documento assinado pela equipe de fiscalização, e o caso não tem "
            "equipe: designe-a antes (assign_team) ‖ this act produces a document signed by "
            "the inspection team, and the case has no team: assign it first (assign_team)"
            ) if d.get("team") == [] else None


def engines_current(data: dict[str, Any]) -> bool:
    """The engines ran on the vessel case as it now stands (a later ``set_vessel_case``
    makes their findings stale)."""
    run: dict[str, Any] = data.get("engine_run") or {}
    return bool(run) and run.get("vessel_case_sha256") == data.get("vessel_case_sha256")


def open_steps(data: dict[str, Any], *, for_report: bool = False) -> list[str]:
    """The open steps as sentences (pending documents by label, with their ids)."""
    return [_step_sentence(s) for s in open_step_details(data, for_report=for_report)]


def _step_sentence(step: dict[str, Any]) -> str:
    items = ", ".join(f"{i['label']} [{i['id']}]" for i in step.get("items") or [])
    return f"{step['label']}: {items}" if items else str(step["label"])


ART14_KINDS = ("cnig", "quota")  # the art. 14 auto (kind "quota" is the same auto)


def active_autos(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The case's autos not voided (``void_auto``)."""
    return [a for a in data.get("autos", []) if not a.get("voided")]


def art14_autos(data: dict[str, Any]) -> list[str]:
    """Ids of the case's art. 14 autos (at most one: it covers the engines' findings)."""
    return [a["id"] for a in active_autos(data) if a["kind"] in ART14_KINDS]


def brazilian_company(data: dict[str, Any]) -> dict[str, Any] | None:
    op = (data.get("vessel_case") or {}).get("operation") or {}
    company = op.get("brazilian_company")
    return company if company and (company.get("name") or company.get("cnpj")) else None


# --------------------------------------------------------------------------- guards

Guard = Callable[[dict[str, Any]], str | None]


def g_not_docked(d: dict[str, Any]) -> str | None:
    return ("embarcação atracada ou fundeada: a investigação prévia (art. 5) é dispensada ‖ "
            "vessel berthed or anchored: the prior investigation (art. 5) is waived"
            ) if d.get("vessel_docked") else None


def g_boarding_prepared(d: dict[str, Any]) -> str | None:
    """A foreign vessel not yet docked is boarded after the prior investigation (art. 5):
    the case goes through ``pre_boarding``, even when its facts came with the complaint."""
    if d.get("_state") == State.RECEIVED and not d.get("vessel_docked") and not national(d):
        return ("embarcação não atracada: faça antes a investigação prévia (art. 5º) — "
                "start_pre_boarding ‖ vessel not berthed: carry out the prior investigation "
                "(art. 5) first — start_pre_boarding")
    return None


def g_pre_boarding_met(d: dict[str, Any]) -> str | None:
    missing = pre_boarding_missing(d)
    if not missing:
        return None
    en = ", ".join(NOT_GRANTED[1] if m == NOT_GRANTED[0] else m for m in missing)
    pt = ", ".join(m if m == NOT_GRANTED[0] else f"{PRE_BOARDING_WORDS[m]} ({m})"
                   for m in missing)
    if d.get("vessel_docked"):
        return ("embarcação atracada ou fundeada: observe antes os incisos I a IV do art. 5º "
                "(art. 6º) — faltam: " + pt + " ‖ vessel berthed or anchored: "
                "first meet items I to IV of art. 5 (art. 6) — missing: " + en)
    return ("embarcação não atracada: faltam informações da investigação prévia (art. 5): "
            + pt + " ‖ vessel not berthed: prior-investigation facts (art. 5) missing: " + en)


def g_has_vessel_case(d: dict[str, Any]) -> str | None:
    return None if d.get("vessel_case") else (
        "informe antes os dados da embarcação e a lista de tripulantes (set_vessel_case) ‖ "
        "give the vessel's data and crew list first (set_vessel_case)")


def g_has_violation(d: dict[str, Any]) -> str | None:
    notes = d.get("notifications", [])
    if notes and notes[-1].get("outcome") is None:
        return (f"registre antes o resultado da notificação {notes[-1]['id']} ‖ record the "
                f"outcome of notification {notes[-1]['id']} first")
    return None if unnotified(d) else ("não há constatação de irregularidade a notificar ‖ "
                                       "no violation found to notify")


def g_no_outcome(d: dict[str, Any]) -> str | None:
    notes = d.get("notifications", [])
    return None if notes and notes[-1].get("outcome") is None else (
        "o resultado da notificação já foi registrado ‖ the notification's outcome is already "
        "recorded")


DUTIES = {"detention_request": ("risk", "serious_imminent"),
          "federal_police": ("repatriation", True), "mediation": ("strike", True)}


def awaiting(data: dict[str, Any], kind: str) -> list[str]:
    """Ids of the unmet notifications that call for the art. 10 step ``kind`` and that no
    such step has answered yet (each step records the notifications it answers; one stored
    before that answers those unmet by its date). Notifications stored before outcomes were
    kept per notification fall back on the case's ``not_remedied``."""
    if national(data):  # art. 10 is of Seção II: foreign-flag vessels (art. 3)
        return []
    key, value = DUTIES[kind]
    nr = data.get("not_remedied") or {}
    steps = [e for e in data.get("escalations", []) if e.get("kind") == kind]
    out = []
    for n in data.get("notifications", []):
        if n.get("outcome") != "not_remedied" or n.get(key, nr.get(key)) != value:
            continue
        answered = any(n["id"] in e["answers"] if "answers" in e
                       else str(e.get("on", "")) >= str(n.get("outcome_on", ""))
                       for e in steps)
        if not answered:
            out.append(n["id"])
    return out


def open_duties(data: dict[str, Any]) -> list[str]:
    """The art. 10 steps still owed: each unmet notification has its own (a later serious
    risk needs a new letter to the consul)."""
    return [kind for kind in DUTIES if awaiting(data, kind)]


# The articles of Seção II (foreign-flag vessels, art. 3).
SECTION_II = {"art. 4º", "art. 5º", "art. 6º", "art. 7º", "art. 8º", "art. 9º", "art. 10",
              "art. 11"}

NATIONAL_ART10 = ("embarcação de bandeira brasileira: as providências do art. 10 são da ação "
                  "fiscal em embarcação estrangeira (art. 3º); lavre os autos conforme o "
                  "ementário (art. 2º, parágrafo único) ‖ Brazilian-flag vessel: the steps of "
                  "art. 10 belong to the inspection of a foreign vessel (art. 3); issue the "
                  "autos by the ementário (art. 2, sole paragraph)")


def g_not_remedied_serious(d: dict[str, Any]) -> str | None:
    if national(d):
        return NATIONAL_ART10
    return None if "detention_request" in open_duties(d) else (
        "pedido de retenção só após notificação não atendida com grave e iminente risco, "
        "e uma vez por notificação (art. 10, I) ‖ a detention request only after an unmet "
        "notification with serious and imminent risk, once per notification (art. 10, I)")


def g_repatriation(d: dict[str, Any]) -> str | None:
    if national(d):
        return NATIONAL_ART10
    return None if "federal_police" in open_duties(d) else (
        "ofício à Polícia Federal só em caso de repatriação, uma vez por notificação (art. 10, "
        "III) ‖ a letter to the Federal Police only for a repatriation, once per notification "
        "(art. 10, III)")


def g_strike(d: dict[str, Any]) -> str | None:
    if national(d):
        return NATIONAL_ART10
    return None if "mediation" in open_duties(d) else (
        "registro de mediação só com a tripulação em greve, uma vez por notificação (art. 10, "
        "IV) ‖ a mediation record only with the crew on strike, once per notification (art. "
        "10, IV)")


def g_report_allowed(d: dict[str, Any]) -> str | None:
    if d.get("_state") == State.FINDINGS and violations(d):
        return ("há irregularidades constatadas: notifique antes do relatório (art. 9) ‖ "
                "violations found: notify before the report (art. 9)")
    if d.get("_state") == State.NOTIFIED and not d.get("not_remedied"):
        return ("registre antes o resultado da notificação ‖ record the notification's "
                "outcome first")
    return _open_steps_refusal(d, for_report=True)


def g_quota_auto(d: dict[str, Any]) -> str | None:
    """Guard of ``draft_auto``; the kind-specific checks are in :func:`_draft_auto`. After
    the report, only an auto still owed (a case reported before that auto was required)."""
    if not violations(d):
        return "não há irregularidade constatada a autuar ‖ no violation found to fine"
    if d.get("_state") == State.REPORT and not {"quota_auto", "national_autos"} & {
            s["id"] for s in open_step_details(d)}:
        return ("relatório já escrito: nenhum auto de infração está pendente ‖ report already "
                "written: no auto de infração is pending")
    return None


def g_has_active_auto(d: dict[str, Any]) -> str | None:
    if not active_autos(d):
        return "não há auto de infração a anular ‖ there is no auto de infração to void"
    return None


_NO_COMPANY = ("o auto do art. 14 é lavrado contra a empresa brasileira contratante: "
               "informe-a no comando (against: nome e CNPJ) ou em "
               "operation.brazilian_company no caso ‖ the art. 14 auto is issued against the "
               "contracting Brazilian company: give it in the command (against: name and "
               "CNPJ) or as operation.brazilian_company in the case")


def _art14_refusal(d: dict[str, Any], against_given: bool = False) -> str | None:
    if not cnig_violations(d):
        return ("não há constatação de descumprimento de Resolução Normativa do CNIg "
                "(execute run_engines) ‖ no finding of a breach of a CNIg Normative Resolution "
                "(run run_engines)")
    if not brazilian_company(d) and not against_given:
        # The company may be learnt only aboard (the contract is among the documents asked):
        # the auto names it then — the vessel case can no longer change once notified.
        return _NO_COMPANY
    if art14_autos(d):
        return ("auto de infração do art. 14 já minutado ‖ the art. 14 auto de infração is "
                "already drafted")
    return None


def g_no_open_steps(d: dict[str, Any]) -> str | None:
    return _open_steps_refusal(d)


def _open_steps_refusal(d: dict[str, Any], *, for_report: bool = False) -> str | None:
    """The open steps as a refusal (Portuguese labels; in English, the steps' ids)."""
    details = open_step_details(d, for_report=for_report)
    if not details:
        return None
    en = "; ".join(s["id"] + (": " + ", ".join(i["id"] for i in s["items"])
                              if s.get("items") else "") for s in details)
    return ("passos obrigatórios em aberto: " + "; ".join(map(_step_sentence, details))
            + f" ‖ mandatory steps open: {en}")


# --------------------------------------------------------------------------- the table

S = State


@dataclass(frozen=True)
class Transition:
    """``command`` is allowed in ``sources``; leads to ``target`` (None = stays)."""

    sources: frozenset[State]
    target: State | None
    guards: tuple[Guard, ...] = ()
    basis: str = ""
    roles: frozenset[str] = frozenset()  # who may run it (empty: anyone who may write)
    roles_refusal: str = ""  # what the others are told


def _s(*states: State) -> frozenset[State]:
    return frozenset(states)


WORKING = _s(S.RECEIVED, S.PRE_BOARDING, S.ASSESSING, S.DOCUMENTS_REQUESTED, S.FINDINGS)

TRANSITIONS: dict[str, Transition] = {
    "start_pre_boarding": Transition(_s(S.RECEIVED), S.PRE_BOARDING, (g_not_docked,), "art. 5º"),
    "record_pre_boarding": Transition(_s(S.RECEIVED, S.PRE_BOARDING), None, (), "art. 5º"),
    "start_assessment": Transition(_s(S.RECEIVED, S.PRE_BOARDING), S.ASSESSING,
                                   (g_boarding_prepared, g_pre_boarding_met), "art. 6º"),
    "close_unfounded": Transition(_s(S.ASSESSING), S.CLOSED_UNFOUNDED, (g_has_team,),
                                  "art. 6º"),
    "request_documents": Transition(_s(S.ASSESSING), S.DOCUMENTS_REQUESTED, (), "art. 7º"),
    # Documents and checks may still come in after the notification: the report needs them
    # recorded, so they stay recordable until the report (a case never gets stuck).
    "record_document": Transition(_s(S.DOCUMENTS_REQUESTED, S.FINDINGS, S.NOTIFIED, S.REMEDIED),
                                  None, (), "art. 7º"),
    "record_physical_check": Transition(_s(S.DOCUMENTS_REQUESTED, S.FINDINGS, S.NOTIFIED,
                                           S.REMEDIED), None, (), "art. 8º"),
    "set_vessel_case": Transition(WORKING, None, (), "art. 13"),
    "run_engines": Transition(_s(S.DOCUMENTS_REQUESTED, S.FINDINGS), S.FINDINGS,
                              (g_has_vessel_case,), "art. 13, VI"),
    "add_finding": Transition(_s(S.DOCUMENTS_REQUESTED, S.FINDINGS), S.FINDINGS, (), "art. 8º"),
    # A violation found after a notification (a physical check) gets a notification of its
    # own: notify is open again once the previous outcome is recorded.
    "notify": Transition(_s(S.FINDINGS, S.NOTIFIED, S.REMEDIED), S.NOTIFIED,
                         (g_has_violation, g_engines_current, g_has_team), "art. 9º"),
    "record_remedied": Transition(_s(S.NOTIFIED), S.REMEDIED, (g_no_outcome,), "art. 9º"),
    "record_not_remedied": Transition(_s(S.NOTIFIED), None, (g_no_outcome,), "art. 10"),
    # The art. 10 steps of an unmet notification stay open after a later one is remedied.
    "request_detention": Transition(_s(S.NOTIFIED, S.REMEDIED), None,
                                    (g_not_remedied_serious, g_has_team), "art. 10, I"),
    "refer_federal_police": Transition(_s(S.NOTIFIED, S.REMEDIED), None,
                                       (g_repatriation, g_has_team), "art. 10, III"),
    "record_mediation": Transition(_s(S.NOTIFIED, S.REMEDIED), None, (g_strike,),
                                   "art. 10, IV"),
    # Also after the report: a case reported before an auto became owed (stored by an
    # earlier version) can still get it and close.
    "draft_auto": Transition(_s(S.FINDINGS, S.NOTIFIED, S.REMEDIED, S.REPORT), None,
                             (g_quota_auto, g_has_team), "art. 14"),
    # A draft set aside before the case closes (then its report and documents stand).
    "void_auto": Transition(_s(S.FINDINGS, S.NOTIFIED, S.REMEDIED, S.REPORT), None,
                            (g_has_active_auto,)),
    # Art. 11: "ao fim de qualquer ação fiscal" — also one where nothing was found.
    # "No report before findings" (spec): the engines ran, or a finding was recorded by
    # hand — an action where nothing was found reaches ``findings`` with none.
    "write_report": Transition(_s(S.FINDINGS, S.NOTIFIED, S.REMEDIED),
                               S.REPORT, (g_report_allowed, g_has_team), "art. 11"),
    "close": Transition(_s(S.REPORT), S.CLOSED, (g_no_open_steps,), "art. 11"),
    # The team is designated by the regional chief (docs/inspection-service.md).
    "assign_team": Transition(frozenset(OPEN_STATES), None, (), "art. 4º, parágrafo único",
                              frozenset({"regional_chief", "admin"}),
                              "somente a chefia regional designa a equipe ‖ only the "
                              "regional chief assigns the team"),
}


def allowed_commands(state: str, data: dict[str, Any], role: str | None = None
                     ) -> list[str]:
    """Commands whose state, guards and (given ``role``) roles allow them now (for the UI
    and the case view)."""
    d = {**data, "_state": State(state)}
    return [name for name, t in TRANSITIONS.items()
            if State(state) in t.sources and all(g(d) is None for g in t.guards)
            and (role is None or not t.roles or role in t.roles)]


def overwritten(data: dict[str, Any], cmd: BaseModel, extra: dict[str, Any]) -> list[str]:
    """The recorded values ``cmd`` would replace with different ones (field paths): a
    write that changes what someone recorded must name the version it was read at (spec:
    concurrent edits never silently overwrite each other). Adding a fact not yet recorded
    overwrites nothing. ``extra``: as :func:`apply` gets it (validated vessel case, team)."""
    match cmd:
        case RecordPreBoarding():
            old = data.get("pre_boarding") or {}
            new = cmd.facts.model_dump(mode="json", exclude_none=True)
            return [f"facts.{k}" for k, v in new.items() if old.get(k) not in (None, v)]
        case SetVesselCase():
            had = data.get("vessel_case_sha256")
            return ["vessel_case"] if data.get("vessel_case") and had != data_digest(
                extra["vessel_case"]) else []
        case RecordDocument():
            status = next((i["status"] for i in data.get("checklist", [])
                           if i["item"] == cmd.item), "pending")
            return ["status"] if status not in ("pending", cmd.status) else []
        case AssignTeam():
            # adding members overwrites nothing; taking one out changes the team recorded
            return ["team"] if set(data.get("team") or []) - set(extra["team"]) else []
    return []


# --------------------------------------------------------------------------- effects

def _finding_id(data: dict[str, Any]) -> str:
    data["_seq"] = int(data.get("_seq", 0)) + 1
    return f"F{data['_seq']}"


def engine_findings(check_json: dict[str, Any], data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each violation of each engine decision becomes a finding with its citation."""
    out = []
    for engine in ("quota", "immigration", "checklist"):
        dec = check_json.get(engine)
        if not dec:
            continue
        for f in dec.get("findings", []):
            if f.get("severity") != "violation":
                continue
            out.append({"id": _finding_id(data), "source": f"engine:{engine}",
                        "engine_finding": f.get("id"), "text": f.get("text"),
                        "citation": f.get("citation"), "severity": "violation",
                        "subject": f.get("subject")})
    return out


@dataclass
class Outcome:
    state: State
    data: dict[str, Any]
    payload: dict[str, Any]


def apply(state: str, data: dict[str, Any], cmd: BaseModel, *, today: dt.date,
          actor: str, extra: dict[str, Any] | None = None) -> Outcome:
    """Check ``cmd`` against the table and apply it. ``extra`` carries what the service
    computed outside the domain (validated vessel case, engine JSON, team)."""
    name = str(getattr(cmd, "command"))  # noqa: B009
    t = TRANSITIONS[name]
    current = State(state)
    if current not in t.sources:
        where = ", ".join(sorted(s.value for s in t.sources))
        # Portuguese says the states as the case page shows them; the ids follow in brackets.
        where_pt = ", ".join(f"{STATE_LABELS[s.value]} ({s.value})"
                             for s in sorted(t.sources, key=lambda s: s.value))
        raise TransitionRefused(
            f"comando '{name}' não permitido no estado {STATE_LABELS[current.value]} "
            f"({current.value}); permitido em: {where_pt} ‖ command '{name}' not allowed in "
            f"state '{current.value}' (allowed in: {where})", "command")
    d = copy.deepcopy(data)
    d["_state"] = current
    for guard in t.guards:
        msg = guard(d)
        if msg:
            raise TransitionRefused(msg, "command")
    extra = extra or {}
    payload = cmd.model_dump(mode="json", exclude={"version", "reason"}, exclude_none=True)
    when = _recorded_on(d, cmd, today).isoformat()
    _in_order(d, cmd, when)
    match cmd:
        case RecordPreBoarding():
            merged = {**d.get("pre_boarding", {}),
                      **cmd.facts.model_dump(mode="json", exclude_none=True)}
            check_pre_boarding(merged, "facts")
            d["pre_boarding"] = merged
        case StartAssessment():
            d["assessment"] = {"started_on": when}
        case CloseUnfounded():
            _consulted(d, cmd.consulted)
            d["assessment"] = {**d.get("assessment", {}), "justified": False,
                               "consulted": cmd.consulted, "reason": cmd.reason}
            # Art. 11: "ao fim de qualquer ação fiscal" a relatório circunstanciado — an
            # unfounded complaint's too: what was assessed, with whom, and why it ends.
            d["report"] = {"written_on": when, "written_by": actor,
                           "summary": f"Denúncia considerada improcedente após a apuração "
                                      f"(art. 6º): {cmd.reason}",
                           "forward_international": False, "recipients": REPORT_RECIPIENTS,
                           "basis": [cite("art. 11"), cite("art. 6º")],
                           "team": extra.get("team_now")}  # who signs it, as write_report
            d["closed_on"] = when
        case RequestDocuments():
            _consulted(d, cmd.consulted)
            d["assessment"] = {**d.get("assessment", {}), "justified": True,
                               "consulted": cmd.consulted, "reason": cmd.reason}
            items, basis = _checklist_now(d, facts_date(d, today))
            ids = {i["item"] for i in items}
            items += [manual_item(x) for x in cmd.extra_items if x not in ids]
            d["checklist"], d["checklist_basis"] = items, basis
            d["documents_requested_on"] = when
        case RecordDocument():
            items = d.get("checklist", [])
            match_ = [i for i in items if i["item"] == cmd.item]
            if not match_ and cmd.item in document_ids():
                items.append(manual_item(cmd.item))  # a catalogue document asked by hand
                d["checklist"] = items
                match_ = items[-1:]
            if not match_:
                listed = ", ".join(i["item"] for i in items)
                raise CommandInvalid(
                    f"documento desconhecido '{cmd.item}' (itens: {listed or 'nenhum'}; "
                    f"catálogo: {', '.join(document_ids())}) ‖ unknown document '{cmd.item}' "
                    f"(items: {listed or 'none'}; catalogue: {', '.join(document_ids())})",
                    "item")
            match_[0]["status"] = cmd.status
            match_[0]["recorded_on"] = when
        case RecordPhysicalCheck():
            # Every check is kept (an area found irregular, then regular after repair, shows
            # both in the report).
            checks = list(d.get("physical_checks", []))
            # Art. 8 is the foreign-flag procedure; a national vessel's conditions aboard are
            # those of art. 2 (CLT, NR-30, ILO C147).
            check_basis = cite("art. 2º") if national(d) else cite("art. 8º")
            if not cmd.ok and not (cmd.citation or "").strip():
                raise CommandInvalid(
                    "informe a norma descumprida na área irregular (citation: ex.: NR-30, item "
                    "30.4.2; Convenção OIT 147) — o art. 8º (art. 2º na embarcação nacional) é o "
                    "procedimento da verificação, não a norma violada ‖ give the norm the "
                    "irregular area breaks (citation: e.g. NR-30, item 30.4.2; ILO C147) — art. "
                    "8 (art. 2 on a national vessel) is the check's procedure, not the norm "
                    "broken", "citation")
            checks.append({"area": cmd.area, "ok": cmd.ok, "notes": cmd.notes,
                           "recorded_on": when, "basis": check_basis})
            d["physical_checks"] = checks
            if not cmd.ok:
                finding_id = _finding_id(d)
                d.setdefault("findings", []).append({
                    "id": finding_id, "source": "inspector",
                    "text": f"Verificação física ({AREA_LABELS[cmd.area]}): irregular"
                            + (f" — {cmd.notes}" if cmd.notes else ""),
                    "citation": {"label": str(cmd.citation).strip(), "urn": None},
                    "found_under": check_basis, "severity": "violation",
                    "subject": cmd.area})
                payload = {**payload, "finding": finding_id}
        case SetVesselCase():
            not_future(cmd.on, today)
            if covered := art14_autos(d):
                # the auto covers the findings the engines drew from the list as it was
                raise TransitionRefused(
                    f"o auto {', '.join(covered)} já cobre as constatações dos motores sobre a "
                    f"lista de tripulantes registrada: ela não pode mais ser trocada ‖ auto "
                    f"{', '.join(covered)} already covers the engines' findings on the recorded "
                    "crew list: it can no longer be replaced", "vessel_case")
            d["vessel_case"] = extra["vessel_case"]
            if cmd.on:
                d["on"] = cmd.on.isoformat()
            if d.get("documents_requested_on"):
                items, d["checklist_basis"] = _checklist_now(d, facts_date(d, today))
                d["checklist"] = merge_checklist(d.get("checklist", []), items)
            vc = d["vessel_case"]
            # the engines' run is current only for this list (open step "engines")
            d["vessel_case_sha256"] = data_digest(vc)
            # What changed, without copying personal data into the log: the vessel, the
            # operation's digest and the crew's (size, ids, SHA-256 of the list).
            payload = {"command": name, "on": d.get("on"),
                       "vessel": {k: (vc.get("vessel") or {}).get(k)
                                  for k in ("name", "imo", "flag", "activity")},
                       "operation_sha256": data_digest(vc.get("operation")),
                       "crew_size": len(vc.get("crew") or []),
                       "crew_ids": [m.get("id") for m in vc.get("crew") or []],
                       "crew_sha256": data_digest(vc.get("crew") or [])}
        case RunEngines():
            not_future(cmd.on, today)
            if covered := art14_autos(d):
                # the auto covers the findings of the run it was drafted on: a new run would
                # replace them under it
                raise TransitionRefused(
                    f"o auto {', '.join(covered)} já cobre as constatações dos motores: não se "
                    f"executam de novo ‖ auto {', '.join(covered)} already covers the engines' "
                    "findings: they are not run again", "command")
            on = cmd.on.isoformat() if cmd.on else d.get("on") or when
            before = d.get("engine_run") or {}
            d["on"] = on
            findings = [f for f in d.get("findings", [])
                        if not str(f.get("source", "")).startswith("engine:")]
            old = [f for f in d.get("findings", []) if f not in findings]
            new = engine_findings(extra["check"], d)
            d["findings"] = findings + new
            # A re-run replaces the engines' findings: what it replaced, and the date the
            # previous run judged, stay on the record (and in the audit event).
            replaced = {"replaced": [f["id"] for f in old],
                        "previous_on": before.get("on")} if before else {}
            # The case keeps the replaced findings whole (the audit event their ids only).
            kept = {"replaced_findings": old} if before else {}
            d["engine_run"] = {"on": on, "ran_on": when, "summary": extra["summary"],
                               "vessel_case_sha256": d.get("vessel_case_sha256"), **replaced,
                               **kept}
            payload = {"command": name, "on": on, "findings": [f["id"] for f in new],
                       **replaced}
        case AddFinding():
            if cmd.severity == "violation" and not (cmd.citation or "").strip():
                raise CommandInvalid(
                    "informe o fundamento legal da irregularidade (citation: norma e "
                    "dispositivo, ex.: NR-30, item 30.2.1): toda irregularidade o cita nos "
                    "documentos ‖ give the violation's legal basis (citation: norm and "
                    "provision, e.g. NR-30, item 30.2.1): the documents cite it for every "
                    "violation", "citation")
            d.setdefault("findings", []).append({
                "id": _finding_id(d), "source": "inspector", "text": cmd.text,
                # as the engines' citations, so that documents list it among their basis
                "citation": {"label": cmd.citation, "urn": None} if cmd.citation else None,
                "severity": cmd.severity, "subject": None, "area": cmd.area})
        case Notify():
            issued = (_case_day(d, cmd.issued_on, today, "issued_on",
                                ("da notificação", "the notification's"))
                      if cmd.issued_on else dt.date.fromisoformat(when))
            if cmd.deadline < issued:
                raise CommandInvalid("prazo anterior à data da notificação ‖ deadline "
                                     "before the notification's date", "deadline")
            # A deadline falling on a day without office hours (weekend, national holiday or
            # one of the region's state — the SRTE's and the port's) runs to the next business
            # day (Lei 9.784/1999, art. 66, § 1º): recorded as given, ``due`` says until when.
            region = extra.get("region")
            due = cmd.deadline if is_business_day(cmd.deadline, region) \
                else add_business_days(cmd.deadline, 1, region)[0]
            d.setdefault("notifications", []).append({
                "id": f"N{len(d.get('notifications', [])) + 1}",
                "issued_on": issued.isoformat(), "deadline": cmd.deadline.isoformat(),
                **({"due": due.isoformat(), "due_basis": cite("art. 66, § 1º", LEI_9784)}
                   if due != cmd.deadline else {}),
                "addressees": ["shipowner", "master"] if national(d) else ["agent", "master"],
                "items": [f["id"] for f in unnotified(d)], "outcome": None,
                # Art. 9 notifies on a foreign vessel; on a national one the inspection is
                # art. 2's, whose violations lead to autos (sole paragraph).
                "basis": cite("art. 2º") if national(d) else cite("art. 9º"),
                "team": extra.get("team_now")})
            payload = {**payload, "notification": d["notifications"][-1]["id"],
                       "items": d["notifications"][-1]["items"]}
        case RecordRemedied():
            d["notifications"][-1]["outcome"] = "remedied"
            d["notifications"][-1]["outcome_on"] = when
        case RecordNotRemedied():
            _after_deadline(d["notifications"][-1], when, cmd.refused)
            _serious_needs_safety(d, d["notifications"][-1], cmd.risk)
            d["notifications"][-1] |= {"outcome": "not_remedied", "refused": cmd.refused,
                                       "outcome_on": when, "risk": cmd.risk,
                                       "repatriation": cmd.repatriation,
                                       "strike": cmd.strike}
            # Several notifications may go unmet (a later one for a later finding): the art. 10
            # duties add up — the gravest risk, any repatriation or strike — never replaced.
            prev = d.get("not_remedied") or {}
            risks = [r for r in (prev.get("risk"), cmd.risk) if r]
            d["not_remedied"] = {
                "risk": max(risks, key=RISK_ORDER.index),
                "repatriation": bool(prev.get("repatriation")) or cmd.repatriation,
                "strike": bool(prev.get("strike")) or cmd.strike,
                "refused": bool(prev.get("refused")) or cmd.refused,
                "recorded_on": prev.get("recorded_on") or when,
                "notifications": [*prev.get("notifications", []),
                                  d["notifications"][-1]["id"]]}
        case RequestDetention():
            _escalate(d, "detention_request", when, cmd.notes, "art. 10, I",
                      consul=cmd.consul, team=extra.get("team_now"))
        case ReferFederalPolice():
            if not cmd.crew or not cmd.situation:
                raise CommandInvalid("informe os tripulantes a repatriar (crew) e o caso do "
                                        "art. 2º da Convenção OIT 166 (situation) — art. 10, "
                                        "III ‖ give the seafarers to repatriate (crew) and the "
                                        "case of ILO Convention 166 art. 2 (situation) — art. "
                                        "10, III", "crew" if not cmd.crew else "situation")
            known = {m.get("id") for m in (d.get("vessel_case") or {}).get("crew") or []}
            unknown = [c for c in cmd.crew if c not in known]
            if unknown:
                raise CommandInvalid(f"tripulante(s) fora da lista do caso: "
                                        f"{', '.join(unknown)} ‖ seafarer(s) not in the case's "
                                        f"crew list: {', '.join(unknown)}", "crew")
            brazilians = [m.get("id") for m in (d.get("vessel_case") or {}).get("crew") or []
                          if m.get("id") in cmd.crew and _is_brazilian(m)]
            if brazilians:
                # The ofício asks the Federal Police for the repatriation of foreigners (ILO
                # C166 art. 2: to their country); a Brazilian is already home.
                who = ", ".join(map(str, brazilians))
                raise CommandInvalid(f"tripulante(s) brasileiro(s) não se repatriam pela "
                                        f"Polícia Federal: {who} ‖ Brazilian seafarer(s) are "
                                        f"not repatriated through the Federal Police: {who}",
                                        "crew")
            _escalate(d, "federal_police", when, cmd.notes, "art. 10, III",
                      crew=list(dict.fromkeys(cmd.crew)), situation=cmd.situation,
                      team=extra.get("team_now"))
        case RecordMediation():
            _escalate(d, "mediation", when, cmd.notes, "art. 10, IV",
                      team=extra.get("team_now"))
        case DraftAuto():
            auto = {**_draft_auto(d, cmd, when, actor), "team": extra.get("team_now")}
            d.setdefault("autos", []).append(auto)
            payload = {**payload, "auto": auto["id"], "kind": auto["kind"],
                       "findings": auto["findings"]}
        case VoidAuto():
            voiding: dict[str, Any] | None = next(
                (a for a in d.get("autos", []) if a["id"] == cmd.auto), None)
            if voiding is None or voiding.get("voided"):
                there = ", ".join(a["id"] for a in active_autos(d))
                state = "já foi anulado" if voiding else "não existe neste caso"
                raise TransitionRefused(
                    f"o auto {cmd.auto} {state} (autos em vigor: {there}) ‖ auto "
                    f"{cmd.auto} {'is already void' if voiding else 'does not exist'} (autos "
                    f"in force: {there})", "auto")
            voiding["voided"] = {"on": when, "by": actor, "reason": cmd.reason}
            payload = {**payload, "auto": voiding["id"]}
        case WriteReport():
            unmet = bool(d.get("not_remedied"))
            d["report"] = {"written_on": when, "summary": cmd.summary, "written_by": actor,
                           "team": extra.get("team_now"),
                           # the international advisory (art. 11) is for foreign ships
                           "forward_international": cmd.forward_international
                           if cmd.forward_international is not None
                           else unmet and not national(d),
                           "recipients": REPORT_RECIPIENTS,
                           "basis": [cite("art. 11"), cite("art. 15")]}
        case Close():
            d["closed_on"] = when
        case AssignTeam():
            d["team"] = extra["team"]
            # The inspector who opened the case stays in it: the team as it now is.
            payload = {**payload, "team_after": extra["team"]}
        case _:
            pass
    d.pop("_state", None)
    if t.basis:  # the act's legal ground, logged with it (the trail's "why" in law)
        basis = cite(t.basis)
        if isinstance(cmd, Notify):
            basis = d["notifications"][-1]["basis"]
        elif isinstance(cmd, RecordPhysicalCheck):
            basis = d["physical_checks"][-1]["basis"]
        elif isinstance(cmd, RecordDocument):
            item: dict[str, Any] = next(
                (i for i in d.get("checklist", []) if i.get("item") == cmd.item), {})
            basis = item.get("basis") or basis  # e.g. art. 13 for the CAA and the visas
        elif isinstance(cmd, AddFinding) and cmd.area not in (None, *SAFETY_AREAS):
            basis = cite("art. 9º")  # an irregularity confirmed, not a physical check
        elif isinstance(cmd, DraftAuto):
            basis = d["autos"][-1]["basis"]  # art. 14, or the ementário's (art. 2 / CLT 628)
        if national(d) and basis.get("norm_id") == PROCEDURE \
                and str(basis.get("provision", "")).split(",")[0] in (*SECTION_II, "art. 13"):
            # arts. 4–11 are the foreign-flag procedure (art. 3), art. 13 the foreign vessel's
            # crew and documents: a national vessel's inspection rests on art. 2
            basis = cite("art. 2º")
        payload = {**payload, "basis": basis["label"]}
    target = t.target or current
    if isinstance(cmd, RecordPhysicalCheck) and not cmd.ok and current == State.DOCUMENTS_REQUESTED:
        target = State.FINDINGS  # an irregular check is a finding (art. 8), to be notified
    return Outcome(target, d, payload)


AREA_LABELS = {"accommodation": "alojamentos", "galley": "cozinha",
               "cold_rooms": "câmaras frigoríficas", "food": "quantidade e qualidade dos alimentos",
               "drinking_water": "provisão de água potável"}


def _recorded_on(d: dict[str, Any], cmd: BaseModel, today: dt.date) -> dt.date:
    """The day a command records: ``recorded_on`` when the act happened earlier (an
    inspector entering the day's work later), else today."""
    day: dt.date | None = getattr(cmd, "recorded_on", None)
    return today if day is None else _case_day(d, day, today, "recorded_on",
                                               ("do registro", "the record's"))


def _case_day(d: dict[str, Any], day: dt.date, today: dt.date, field: str,
              what: tuple[str, str]) -> dt.date:
    """``day`` when it lies within the case: not in the future, not before the complaint;
    an :class:`InputError` naming ``field`` otherwise — a date no state of the case could
    accept (``what``: Portuguese and English, ("da notificação", "the notification's"))."""
    pt, en = what
    if day > today:
        raise InputError(f"data {pt} no futuro: {day:%d/%m/%Y}", field,
                         message_en=f"{en} date in the future: {day.isoformat()}")
    complaint_on = (d.get("complaint") or {}).get("date")
    if complaint_on and day.isoformat() < str(complaint_on):
        c = dt.date.fromisoformat(str(complaint_on)[:10])
        raise InputError(f"data {pt} anterior à denúncia ({c:%d/%m/%Y})", field,
                         message_en=f"{en} date before the complaint ({c.isoformat()})")
    return day


RISK_ORDER = ["lesser_safety", "contractual_wage", "serious_imminent"]  # art. 10, II → I

REPORT_RECIPIENTS = ["Coordenação Nacional de Inspeção do Trabalho Portuário e Aquaviário",
                     "chefia de fiscalização regional"]  # art. 11


def _in_order(d: dict[str, Any], cmd: BaseModel, when: str) -> None:
    """An act is not dated before the acts it answers: a notification's outcome after its
    issue, an art. 10 step after the outcome, an auto after the engines' findings, the
    report after every act it reports, the closing after the report."""
    notes = d.get("notifications", [])
    last = notes[-1] if notes else {}
    nr = d.get("not_remedied") or {}
    # (day, what it is in Portuguese — "anterior à …" —, in English)
    earlier: list[tuple[str | None, str, str]] = []
    started = (d.get("assessment") or {}).get("started_on")
    start = (started, "ao início da apuração (art. 6º)", "the assessment's start (art. 6)")
    checks = [(c.get("recorded_on"), "à verificação física registrada",
               "the physical check recorded") for c in d.get("physical_checks", [])]
    engines = ((d.get("engine_run") or {}).get("ran_on"), "à execução dos motores",
               "the engines' run")
    notified = [(n.get(k), f"à notificação {n['id']}", f"notification {n['id']}")
                for n in notes for k in ("issued_on", "outcome_on")]
    if isinstance(cmd, RequestDocuments | CloseUnfounded | RecordPhysicalCheck):
        earlier = [start]
    elif isinstance(cmd, RecordDocument):
        earlier = [(d.get("documents_requested_on"), "à solicitação dos documentos",
                    "the documents' request")]
    elif isinstance(cmd, Notify):
        issued = cmd.issued_on.isoformat() if cmd.issued_on else when
        _not_before(issued, [*notified, engines, *checks], "issued_on")
        return
    elif isinstance(cmd, RecordRemedied | RecordNotRemedied):
        earlier = [(last.get("issued_on"), f"à emissão da notificação {last.get('id', '')}",
                    f"the issue of notification {last.get('id', '')}")]
    elif isinstance(cmd, RequestDetention | ReferFederalPolice | RecordMediation):
        earlier = [(nr.get("recorded_on"), "ao registro do não atendimento",
                    "the record of non-compliance")]
    elif isinstance(cmd, DraftAuto):
        earlier = [engines]
    elif isinstance(cmd, WriteReport):
        earlier = [*notified, *checks, engines]
        earlier += [(i.get("recorded_on"), "ao registro de documento", "a document's record")
                    for i in d.get("checklist", []) if i.get("status") != "pending"]
        earlier += [(e.get("on"), "à providência do art. 10", "the art. 10 step")
                    for e in d.get("escalations", [])]
        earlier += [(a.get("drafted_on"), f"ao auto {a['id']}", f"auto {a['id']}")
                    for a in d.get("autos", [])]
    elif isinstance(cmd, Close):
        earlier = [((d.get("report") or {}).get("written_on"), "ao relatório", "the report")]
    _not_before(when, earlier, "recorded_on")


def _consulted(d: dict[str, Any], consulted: str | None) -> None:
    """Art. 6: a foreign vessel's complaint is assessed with the master or the next in
    command — the record says which (never presumed: the relatório states it)."""
    if consulted is None and not national(d):
        raise CommandInvalid(
            "informe com quem a procedência e a seriedade da denúncia foram apuradas (art. "
            "6º): consulted = master (comandante) ou next_in_command (substituto imediato) ‖ "
            "say with whom the complaint's merit and seriousness were assessed (art. 6): "
            "consulted = master or next_in_command", "consulted")


def _not_before(when: str, earlier: list[tuple[str | None, str, str]], field: str) -> None:
    for day, pt, en in earlier:
        if day and when < str(day)[:10]:
            w, e = dt.date.fromisoformat(when), dt.date.fromisoformat(str(day)[:10])
            raise TransitionRefused(
                f"data do registro ({w:%d/%m/%Y}) anterior {pt} ({e:%d/%m/%Y}) ‖ record date "
                f"({w.isoformat()}) before {en} ({e.isoformat()})", field)


def not_future(on: dt.date | None, today: dt.date) -> None:
    """The date of the facts judged is a day that has happened (:class:`InputError`)."""
    if on is not None and on > today:
        raise InputError(f"data dos fatos no futuro: {on:%d/%m/%Y}", "on",
                         message_en=f"date of the facts in the future: {on.isoformat()}")


def _serious_needs_safety(d: dict[str, Any], notification: dict[str, Any], risk: str
                          ) -> None:
    """Art. 10, I: grave and imminent risk concerns "condições de segurança, saúde e higiene
    do trabalho" — a notification of contractual or wage matters alone is art. 10, II."""
    if risk != "serious_imminent" or "items" not in notification:
        return
    by_id = {f["id"]: f for f in d.get("findings", [])}
    items = [by_id[i] for i in notification["items"] if i in by_id]
    if not any(f.get("area") in (None, *SAFETY_AREAS)
               and not str(f.get("source", "")).startswith("engine:") for f in items):
        raise TransitionRefused(
            f"a notificação {notification['id']} não trata de segurança, saúde ou higiene a "
            "bordo: grave e iminente risco (art. 10, I) não se aplica — use contractual_wage "
            f"ou lesser_safety (art. 10, II) ‖ notification {notification['id']} is not about "
            "safety, health or hygiene aboard: serious and imminent risk (art. 10, I) does not "
            "apply — use contractual_wage or lesser_safety (art. 10, II)", "risk")


def _after_deadline(notification: dict[str, Any], when: str, refused: bool) -> None:
    """Art. 10 acts on notifications "não atendidas": the notified party has every day up to
    the deadline, so the outcome is recorded after it — or earlier on an express refusal."""
    due = dt.date.fromisoformat(due_day(notification))
    if not refused and dt.date.fromisoformat(when) <= due:
        raise TransitionRefused(
            f"a notificação {notification['id']} vence em {due:%d/%m/%Y}: o não atendimento "
            "(art. 10) se registra após o prazo, ou antes com a recusa expressa do notificado "
            f"(refused) ‖ notification {notification['id']} is due on {due.isoformat()}: "
            "non-compliance (art. 10) is recorded after the deadline, or earlier on the "
            "notified party's express refusal (refused)", "recorded_on")


def _draft_auto(d: dict[str, Any], cmd: DraftAuto, when: str, actor: str) -> dict[str, Any]:
    """The auto de infração draft: art. 14 (CNIg resolutions: CLT art. 444, ementa
    001139-8, against the Brazilian contracting company) or, for another violation, the
    ementa and capitulation of the ementário given by the inspector (art. 2, sole
    paragraph)."""
    number = f"A{len(d.get('autos', [])) + 1}"
    if cmd.kind in ART14_KINDS:
        refusal = _art14_refusal(d, cmd.against is not None) or g_engines_current(d)
        if refusal:
            raise TransitionRefused(refusal, "against" if refusal == _NO_COMPANY else "kind")
        company = brazilian_company(d)
        if company is None:
            assert cmd.against is not None
            if not cmd.against.cnpj:
                # The auto identifies the company it fines, a company by its CNPJ: named
                # here, it is named in full — an auto is not amended once drafted.
                raise CommandInvalid(
                    "informe o CNPJ da empresa autuada (against.cnpj): o caso não a identifica "
                    "‖ give the fined company's CNPJ (against.cnpj): the case does not identify "
                    "it", "against.cnpj")
            company = cmd.against.model_dump(exclude_none=True)
        elif cmd.against is not None and not _same_company(cmd.against.model_dump(),
                                                           company):
            who = company.get("name") or company.get("cnpj")
            raise TransitionRefused(
                f"o auto do art. 14 é lavrado contra a empresa brasileira contratante ({who}, "
                "operation.brazilian_company): não informe outro autuado (against) ‖ the art. "
                f"14 auto is issued against the contracting Brazilian company ({who}, "
                "operation.brazilian_company): give no other offender (against)", "against")
        return {"id": number, "kind": "cnig", "against": company,
                "ementa": "001139-8", "capitulation": cite("art. 444", "clt"),
                "basis": cite("art. 14"), "findings": [f["id"] for f in cnig_violations(d)],
                "facts": cmd.facts, "drafted_on": when, "drafted_by": actor}
    known = {f["id"] for f in violations(d)}
    chosen = list(dict.fromkeys(cmd.findings))
    # Everything the ementário auto needs and the command lacks, said at once (422).
    missing = [f for f, v in (("ementa", cmd.ementa), ("capitulation", cmd.capitulation),
                              ("against", cmd.against), ("findings", chosen)) if not v]
    among = ", ".join(sorted(known))
    if missing:
        names = ", ".join(missing)
        raise CommandInvalid(
            f"o auto do ementário precisa de: {names} (ementa e capitulação do ementário, o "
            f"autuado e as constatações que cobre, entre: {among}) ‖ the ementário auto needs: "
            f"{names} (the ementário's ementa and capitulation, the offender and the findings "
            f"it covers, among: {among})", missing[0])
    if wrong := [f for f in chosen if f not in known]:
        raise CommandInvalid(f"constatação desconhecida: {', '.join(wrong)} (constatações: "
                             f"{among}) ‖ unknown finding: {', '.join(wrong)} (findings: "
                             f"{among})", "findings")
    assert cmd.against is not None
    for a in active_autos(d):
        # One fact, one auto per ementa and offender (as the art. 14 auto, drafted once).
        if a["ementa"] == cmd.ementa \
                and _same_company(cmd.against.model_dump(), a["against"]) \
                and set(a["findings"]) & set(chosen):
            both = ", ".join(sorted(set(a["findings"]) & set(chosen)))
            raise TransitionRefused(
                f"o auto {a['id']} (ementa {a['ementa']}) já foi minutado contra este autuado "
                f"por {both} ‖ auto {a['id']} (ementa {a['ementa']}) is already drafted against "
                f"this offender for {both}", "findings")
    return {"id": number, "kind": "ementario",
            "against": cmd.against.model_dump(mode="json", exclude_none=True),
            "ementa": cmd.ementa, "capitulation": {"label": cmd.capitulation, "urn": None},
            # CLT art. 628: every violation found gets its auto; for a Brazilian-flag vessel
            # IN SIT 70/2007 art. 2, sole paragraph, says so too ("conforme ementário").
            "basis": cite("art. 2º, parágrafo único") if national(d)
            else cite("art. 628", "clt"), "findings": chosen,
            "facts": cmd.facts, "drafted_on": when, "drafted_by": actor}


def _same_company(given: dict[str, Any], company: dict[str, Any]) -> bool:
    """Whether ``given`` names the contracting company (by CNPJ digits, else by name)."""
    def digits(v: Any) -> str:
        return "".join(ch for ch in str(v or "") if ch.isdigit())

    if given.get("cnpj") and company.get("cnpj"):
        return digits(given["cnpj"]) == digits(company["cnpj"])
    return _name_key(given.get("name")) == _name_key(company.get("name"))


def _name_key(name: Any) -> str:
    """A company name as written anywhere: accents, case, punctuation and spacing aside
    ("Navegação Sul Ltda." = "NAVEGACAO SUL LTDA", "S.A." = "S/A" = "SA")."""
    return "".join(ch for ch in fold(str(name or "")) if ch.isalnum())


def _is_brazilian(member: dict[str, Any]) -> bool:
    """As the engines read it: a dual national with BR is Brazilian."""
    try:
        return "BR" in nationality_codes(member.get("nationality"))
    except ValueError:  # the stored crew was validated: not reached
        return False


def national(d: dict[str, Any]) -> bool:
    """A Brazilian-flag vessel (Seção I, art. 2), by the vessel facts or else the
    pre-boarding (any way of writing the country: BR, BRA, Brasil)."""
    flag = _flag(((d.get("vessel_case") or {}).get("vessel") or {}).get("flag")) \
        or _flag((d.get("pre_boarding") or {}).get("flag"))
    return flag == "BR"


def _escalate(d: dict[str, Any], kind: str, when: str, notes: str | None, provision: str,
              **more: Any) -> None:
    answers = awaiting(d, kind) if kind in DUTIES else []
    d.setdefault("escalations", []).append({"kind": kind, "on": when, "notes": notes,
                                            "basis": cite(provision), "answers": answers,
                                            **more})


# --------------------------------------------------------------------------- deadlines

def c166_promulgated(on: dt.date) -> bool:
    """Whether Decreto 6.968/2009 (ILO C166 promulgated, with its art. 3 deadlines) is in
    force on ``on``."""
    return norm_registry()["decreto-6968-2009"].in_force_on(on)


def _refusal_day(data: dict[str, Any]) -> dt.date | None:
    """The day the repatriation was refused (the first unmet notification that raised it)."""
    first = next((n for n in data.get("notifications", [])
                  if n.get("outcome") == "not_remedied" and n.get("repatriation")), None)
    day = (first or {}).get("outcome_on") or (data.get("not_remedied") or {}).get("recorded_on")
    return dt.date.fromisoformat(str(day)[:10]) if day else None


LEI_9784 = "lei-9784-1999"


def due_day(notification: dict[str, Any]) -> str:
    """The last day the notified party has (ISO): the deadline, or the next business day
    when it fell on a day without office hours (``due``)."""
    return str(notification.get("due") or notification["deadline"])


def deadlines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Deadlines the case tracks, computed with their basis."""
    out: list[dict[str, Any]] = []
    for n in data.get("notifications", []):
        moved = f" (prazo fixado em {dt.date.fromisoformat(n['deadline']):%d/%m/%Y}, dia sem " \
            "expediente: vence no dia útil seguinte)" if n.get("due") else ""
        out.append({"kind": "notification", "due": due_day(n), "confirmed": True,
                    "text": f"Prazo da notificação {n['id']} "
                            + ("ao armador e ao comandante" if "shipowner" in
                               n.get("addressees", []) else "ao agente e ao comandante")
                            + moved,
                    "basis": n.get("due_basis") or n.get("basis")})
    nr = data.get("not_remedied")
    if nr and nr.get("repatriation") and c166_promulgated(
            _refusal_day(data) or dt.date.fromisoformat(str(data["complaint"]["date"])[:10])):
        complaint = dt.date.fromisoformat(data["complaint"]["date"])
        # From the shipowner's refusal on the notification that raised the repatriation.
        first = next((n for n in data.get("notifications", [])
                      if n.get("outcome") == "not_remedied" and n.get("repatriation")), None)
        refused = dt.date.fromisoformat(str((first or {}).get("outcome_on")
                                            or nr["recorded_on"]))
        basis = cite("art. 3º", "decreto-6968-2009")
        out += [
            {"kind": "repatriation_inspection", "due": complaint.isoformat(), "confirmed": False,
             "text": "Inspeção imediata após a denúncia (Convenção OIT 166)", "basis": basis},
            {"kind": "repatriation_report_48h",
             "due": (refused + dt.timedelta(days=2)).isoformat(), "confirmed": False,
             "text": "Relatório à Secretaria em 48 horas se o armador se recusar", "basis": basis},
            {"kind": "repatriation_foreign_ministry",
             "due": (refused + dt.timedelta(days=15)).isoformat(), "confirmed": False,
             "text": "Repatriação pelo Ministério das Relações Exteriores se o armador não a "
                     "fizer em 15 dias", "basis": basis},
        ]
    return out

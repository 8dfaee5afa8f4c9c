"""The procedure a case follows and the documents it asks for (IN SIT 70/2007): the
provision citations (:func:`cite`), the procedure in force on the case's date of facts
(:func:`procedure_for`, with the warnings shown with the case) and the document checklist
(arts. 7 and 13) drawn from the checklist engine.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from abordo.cases.commands import CommandInvalid, catalogue
from abordo.law.calendar import brasilia_date
from abordo.law.norms import norm_registry
from abordo.law.validation import Date

PROCEDURE = "in-sit-70-2007"
"""The procedure the workflow models (IN SIT 70/2007). A case also records the procedure in
force on its date of facts (:func:`procedure_for`), which may differ."""


PROCEDURE_CANDIDATES = ("in-sit-70-2007", "in-mtp-2-2021")


BEFORE_PROCEDURE = "pre-in-sit-70-2007"


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
    return created or brasilia_date()


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
    told = flag_code((data.get("pre_boarding") or {}).get("flag"))
    given = flag_code(((data.get("vessel_case") or {}).get("vessel") or {}).get("flag"))
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


def flag_code(value: Any) -> str | None:
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
        known = flag_code(flag)
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
    return document_checklist(vessel_case, on or brasilia_date(), flag)[0]


def manual_item(item_id: str) -> dict[str, Any]:
    """A catalogue document requested by the inspector although the engine does not list it
    (e.g. art. 7 documents of a Brazilian-flag vessel)."""
    cat = catalogue()
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

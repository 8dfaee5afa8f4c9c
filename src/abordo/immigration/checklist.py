"""The boarding document checklist (inspection.md): what to request from a vessel, each item
with its provision of IN SIT 70/2007 (arts. 5, 7 and 13) and why it applies to this vessel.

``evaluate(case, on, options) -> Decision``. Pure; the items are data
(``data/checklist.yaml``).

Choice where the spec is silent: IN SIT 70/2007 was in force from 2007-08-14 to 2021-12-09.
Outside that window the verdict is ``not_covered`` with the reason (e.g. the current procedure,
IN MTP 2/2021, is not modelled) and the items are still listed, marked ``binding: false``, as
good practice taken from the revoked (or not yet issued) instruction — an inspector still
needs a list, and the output says plainly that it is not the rule in force. Either way the
decision's citations are the items' provisions, so the legal basis names where each comes
from.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from functools import cache
from typing import Any

from abordo.crew.model import VesselCase
from abordo.crew.ranks import CrewMember, resolve_crew
from abordo.immigration.rules import PKG
from abordo.law.decision import Decision, DecisionBuilder, Msg, Verdict
from abordo.law.errors import InputError
from abordo.law.norms import norm_registry
from abordo.law.params import load_data
from abordo.law.text import br_date


@cache
def checklist_data() -> dict[str, Any]:
    """``data/checklist.yaml`` (read once)."""
    data: dict[str, Any] = load_data(PKG, "data/checklist.yaml")
    return data


def _msg(d: Mapping[str, Any]) -> Msg:
    return Msg(str(d["pt"]), str(d["en"]))


def _applies(when: Mapping[str, Any], case: VesselCase, foreign_crew: list[CrewMember]) -> bool:
    """Whether every condition of an item holds for ``case`` (flag, activity, contract,
    foreign crew aboard)."""
    if when.get("flag") == "foreign" and case.vessel.flag == "BR":
        return False
    acts = when.get("activities")
    if acts and case.vessel.activity.value not in acts:
        return False
    contracts = when.get("contracts")
    if contracts and case.operation.contract.value not in contracts:
        return False
    return not (when.get("foreign_crew") and not foreign_crew)


def evaluate(case: VesselCase, on: dt.date, options: Mapping[str, Any] | None = None
             ) -> Decision:
    """The documents and facts to request at a boarding of ``case`` on ``on``.

    Returns a :class:`Decision` with verdict ``computed`` (IN SIT 70/2007 in force on ``on``),
    ``not_covered`` (outside its window: items listed as non-binding good practice, with the
    reason) or ``not_applicable`` (Brazilian-flag vessel: art. 2 gives no document list).
    ``result["items"]``: ``[{id, stage (pre_boarding | documents), text (Msg), citation,
    applies_because (Msg), binding (bool), subjects (person ids, for per-person items)}]``.

    Raises :class:`~abordo.law.errors.InputError` for any option (the checklist has none).
    """
    for key in options or {}:
        raise InputError(f"opção desconhecida '{key}': a lista de documentos não tem opções",
                         f"options.{key}",
                         message_en=f"unknown option '{key}': the document checklist has none")
    data = checklist_data()
    reg = norm_registry()
    norm = reg[data["norm"]]
    b = DecisionBuilder("checklist", on)
    topic = _msg(data["topic"])
    members = resolve_crew(case)
    foreign_crew = [m for m in members if not m.is_brazilian and m.is_crew]
    in_force = norm.in_force_on(on)
    result: dict[str, Any] = {"procedure": norm.id, "procedure_label": norm.label,
                              "in_force": in_force, "items": []}
    reason: Msg | None = None
    if not in_force:
        reason = reg.not_covered_reason(on, list(data["candidates"]), topic)
        b.step("procedure.not_covered",
               f"{reason.pt} Os itens abaixo vêm da {norm.label} e são listados como boa "
               "prática, sem força normativa nesta data.",
               f"{reason.en} The items below come from {norm.label} and are listed as good "
               "practice, not binding on this date.")
    else:
        b.step("procedure.select", f"Procedimento em vigor em {br_date(on)}: "
               f"{norm.title}.", f"Procedure in force on {on.isoformat()}: {norm.title}.",
               reg.cite(norm.id))
    if case.vessel.flag == "BR":
        nv = data["national_vessel"]
        text = _msg(nv)
        cite = reg.cite(norm.id, nv["provision"])
        b.cite(cite)
        b.step("vessel.national", f"{text.pt}.", f"{text.en}.", cite)
        if in_force:
            return b.build(Verdict.NOT_APPLICABLE, norm.id,
                           Msg(f"Não aplicável: {text.pt}.", f"Not applicable: {text.en}."),
                           result=result)
        assert reason is not None
        return b.build(Verdict.NOT_COVERED, None,
                       Msg(f"Não coberto: {reason.pt} Como referência, {text.pt}.",
                           f"Not covered: {reason.en} For reference, {text.en}."),
                       not_covered_reason=reason, result=result)
    foreign_ids = [m.id for m in foreign_crew]
    for item in data["items"]:
        if not _applies(item.get("when") or {}, case, foreign_crew):
            continue
        cite = reg.cite(norm.id, item["provision"])
        because = _msg(item["because"])
        # Every item's provision is listed in the legal basis — also when the instruction is
        # not in force on the date: the items then come from it as good practice (said so).
        b.cite(cite)
        per_person = bool((item.get("when") or {}).get("foreign_crew"))
        result["items"].append({
            "id": item["id"], "stage": item.get("stage", "documents"),
            "text": _msg(item["text"]), "citation": cite, "applies_because": because,
            "binding": in_force, "subjects": foreign_ids if per_person else [],
        })
    n = len(result["items"])
    items_pt = f"{n} {'item' if n == 1 else 'itens'}"
    items_en = f"{n} {'item' if n == 1 else 'items'}"
    b.step("items", f"{items_pt} a solicitar ({'obrigatório' if in_force else 'boa prática'}"
           f"{'s' if in_force and n != 1 else ''}).",
           f"{items_en} to request ({'binding' if in_force else 'good practice'}).", items=n)
    if not in_force:
        assert reason is not None
        listed = "listado" if n == 1 else "listados"
        return b.build(Verdict.NOT_COVERED, None,
                       Msg(f"Não coberto: {reason.pt} {items_pt} {listed} como boa prática "
                           f"(da {norm.label}).",
                           f"Not covered: {reason.en} {items_en} listed as good practice "
                           f"(from {norm.label})."),
                       not_covered_reason=reason, result=result)
    what_pt = "documento ou informação" if n == 1 else "documentos e informações"
    what_en = "document or fact" if n == 1 else "documents and facts"
    return b.build(Verdict.COMPUTED, norm.id,
                   Msg(f"{n} {what_pt} a solicitar ({norm.label}).",
                       f"{n} {what_en} to request ({norm.label})."), result=result)

"""The autos de infração of an inspection (IN SIT 70/2007 art. 14; art. 2, sole paragraph):
drafting one — the art. 14 auto against the Brazilian contracting company, or an ementário
auto — and voiding a draft, one handler per command (:data:`abordo.cases.act.Handler`),
dispatched by :mod:`abordo.cases.workflow`.
"""

from __future__ import annotations

from typing import Any

from abordo.cases.act import Act
from abordo.cases.checklist import cite
from abordo.cases.commands import CommandInvalid, DraftAuto, TransitionRefused, VoidAuto
from abordo.cases.steps import (
    ART14_KINDS,
    active_autos,
    art14_autos,
    brazilian_company,
    cnig_violations,
    national,
    violations,
)
from abordo.cases.transitions import g_engines_current
from abordo.law.text import fold

# --------------------------------------------------------------------------- handlers


def draft_auto(d: dict[str, Any], cmd: DraftAuto, act: Act) -> dict[str, Any]:
    """Art. 14 or art. 2, sole paragraph: an auto de infração drafted (:func:`_auto_draft`),
    signed by the team as it now is."""
    auto = {**_auto_draft(d, cmd, act.when, act.actor), "team": act.extra.get("team_now")}
    d.setdefault("autos", []).append(auto)
    return {**act.payload, "auto": auto["id"], "kind": auto["kind"],
            "findings": auto["findings"]}


def void_auto(d: dict[str, Any], cmd: VoidAuto, act: Act) -> dict[str, Any]:
    """A draft auto set aside: kept in the case, marked void with who, when and why."""
    voiding: dict[str, Any] | None = next(
        (a for a in d.get("autos", []) if a["id"] == cmd.auto), None)
    if voiding is None or voiding.get("voided"):
        there = ", ".join(a["id"] for a in active_autos(d))
        state = "já foi anulado" if voiding else "não existe neste caso"
        raise TransitionRefused(
            f"o auto {cmd.auto} {state} (autos em vigor: {there}) ‖ auto "
            f"{cmd.auto} {'is already void' if voiding else 'does not exist'} (autos "
            f"in force: {there})", "auto")
    voiding["voided"] = {"on": act.when, "by": act.actor, "reason": cmd.reason}
    return {**act.payload, "auto": voiding["id"]}


# --------------------------------------------------------------------------- helpers

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


def _auto_draft(d: dict[str, Any], cmd: DraftAuto, when: str, actor: str) -> dict[str, Any]:
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

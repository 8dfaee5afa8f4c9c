"""Shared evaluation context of the immigration engine (immigration.md), used by both
regimes — RN CNIg 31/1998 and RN CNIg 06/2017 as amended by Res. CNIg 42/2020: the
evaluation (``Ctx``) and a person's row (``Person``), the message, label and date helpers, the
business-deadline detail, the unconfirmed start of a norm, the person-input checks and
periods, and the IN SIT 70/2007 procedure wording once it is revoked.

Package-internal: names without a leading underscore are used by the other modules of
:mod:`abordo.immigration` (``engine``, ``rn31``, ``res42``); they are not a public API.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Mapping
from typing import Any

from abordo.crew.model import Document, Entry, VesselCase
from abordo.crew.ranks import CrewMember
from abordo.immigration.rules import (
    PKG,
    BusinessDeadline,
    Presence,
    Regime,
    document_status,
    is_answered,
    period_order,
    regime_tables,
)
from abordo.law.calendar import add_days, add_years
from abordo.law.decision import Citation, DecisionBuilder, Finding, Msg, UnconfirmedParameter
from abordo.law.errors import InputError
from abordo.law.interpretations import check_options, resolve
from abordo.law.norms import NormRegistry, norm_registry
from abordo.law.text import br_date

REQUIREMENTS: dict[str, Msg] = {
    "none_long_haul": Msg("dispensa de visto (longo curso)", "no visa (long-haul voyage)"),
    "exempt_c185": Msg("isento de visto (OIT C185)", "visa-exempt (ILO C185)"),
    "visit_visa": Msg("visto de visita", "visit visa"),
    "temporary_visa": Msg("visto temporário", "temporary visa"),
    "residence_authorization": Msg("autorização de residência", "residence authorization"),
    "work_authorization_request": Msg("pedido de autorização de trabalho",
                                      "work authorization request"),
    "not_applicable": Msg("não aplicável", "not applicable"),
}

PERSON_VERDICTS = ("regular", "irregular", "action_due", "not_applicable")

# The input's codes in the user's words (glossary.md), for the texts of the trace.
ACTIVITIES: dict[str, Msg] = {
    "offshore_support": Msg("apoio marítimo", "offshore support"),
    "exploration": Msg("prospecção, perfuração, produção ou armazenamento",
                       "exploration, drilling, production or storage"),
    "platform": Msg("plataforma", "platform"),
    "cabotage": Msg("cabotagem", "cabotage"),
    "port_support": Msg("apoio portuário", "port support"),
    "inland_national": Msg("navegação interior de percurso nacional",
                           "national inland navigation"),
    "inland_international": Msg("navegação interior de percurso internacional",
                                "international inland navigation"),
    "regasification": Msg("regaseificação de GNL", "LNG regasification"),
    "cruise": Msg("cruzeiro", "cruise"),
    "fishing": Msg("pesca", "fishing"),
    "long_haul": Msg("longo curso", "long-haul"),
}
CONTRACTS: dict[str, Msg] = {
    "charter": Msg("afretamento", "charter"),
    "services": Msg("prestação de serviços", "services"),
    "risk": Msg("contrato de risco", "risk contract"),
    "lease": Msg("arrendamento", "lease"),
    "none": Msg("sem contrato com empresa brasileira", "no contract with a Brazilian company"),
}
PERSON_VERDICT_WORDS: dict[str, Msg] = {
    "regular": Msg("regular", "regular"), "irregular": Msg("irregular", "irregular"),
    "action_due": Msg("providência pendente", "action due"),
    "not_applicable": Msg("não aplicável", "not applicable"),
}


def count_noun(n: int, one: str, many: str) -> str:
    """``1 dia`` / ``2 dias``: a count with its noun in agreement."""
    return f"{n} {one if n == 1 else many}"


def _label(table: dict[str, Msg], code: str) -> Msg:
    return table.get(code, Msg(code, code))


def br_day(day: dt.date | None) -> str:
    return br_date(day) if day else "—"


def iso_day(day: dt.date | None) -> str:
    return day.isoformat() if day else "—"


class Ctx:
    """What one evaluation shares: the case, date, options, builder and registry."""

    def __init__(self, case: VesselCase, on: dt.date, options: Mapping[str, Any] | None) -> None:
        check_options([PKG], options)
        self.case = case
        self.on = on
        self.options = dict(options or {})
        self.b = DecisionBuilder("immigration", on)
        self.reg: NormRegistry = norm_registry()
        self.state = case.operation.state
        self.activity = case.vessel.activity.value
        self.activity_label = _label(ACTIVITIES, self.activity)
        self.contract_label = _label(CONTRACTS, case.operation.contract.value)

    def cite(self, regime: Regime, provision: str) -> Citation:
        version = regime.version if regime.version != regime.norm else None
        return self.reg.cite(regime.norm, provision, version)


class Person:
    """Accumulates one person's row of ``result['persons']``."""

    def __init__(self, ctx: Ctx, m: CrewMember) -> None:
        self.ctx = ctx
        self.m = m
        # The documents of the person's current stay (RN 31: see rn31._rn31_this_stay).
        self.docs: list[Document] = list(m.source.documents)
        keep = ctx.case.keep_personal_data
        self.row: dict[str, Any] = {
            "id": m.id, "rank": m.rank, "nationality": "/".join(m.nationalities),
            "department": m.department, "crew": m.is_crew,
            "sid_c185": m.source.sid_c185, "seafarer_card": m.source.seafarer_card,
            "documents": [_doc_row(d, ctx.on, keep, list(m.source.documents))
                          for d in m.source.documents],
            "requirement": None, "requirement_label": None, "citation": None,
            "verdict": None, "deadline": None, "deadline_passed": False,
            "deadline_detail": None,
            "action": None, "consequence": None, "notes": [], "stay": None,
        }

    def note(self, pt: str, en: str) -> None:
        self.row["notes"].append(Msg(pt, en))

    def decide(self, requirement: str, verdict: str, citation: Citation | None,
               deadline: dt.date | None = None, action: Msg | None = None) -> None:
        assert verdict in PERSON_VERDICTS
        # A deadline already passed on the date judged (the one an irregular verdict rests
        # on) is told as passed, never as the next deadline to meet.
        passed = deadline is not None and deadline < self.ctx.on
        self.row.update(requirement=requirement, requirement_label=REQUIREMENTS[requirement],
                        citation=citation, verdict=verdict, deadline=deadline,
                        deadline_passed=passed, action=action)
        self.ctx.b.cite(citation)

    @property
    def pid(self) -> str:
        return self.m.id

    @property
    def verdict_word(self) -> Msg:
        """The person's verdict in words (``providência pendente`` / ``action due``)."""
        return PERSON_VERDICT_WORDS[self.row["verdict"]]


def _doc_row(doc: Document, on: dt.date, keep: bool, docs: list[Document]) -> dict[str, Any]:
    status = "answered" if is_answered(doc, docs, on) else document_status(doc, on)
    row: dict[str, Any] = {"type": doc.type, "issued_on": doc.issued_on,
                           "valid_until": doc.valid_until, "protocol_date": doc.protocol_date,
                           "status": status}
    if keep and doc.number:
        row["number"] = doc.number
    return row


def unconfirmed_start(ctx: Ctx, regime: Regime, day: dt.date) -> None:
    """A norm whose exact start is not confirmed (RN 31/1998: "1998", modelled from its 1
    January) leaves uncertain whether it governed a day of its first modelled year, or one
    before it: an answer that depends on such a ``day`` — the date judged, the day a deadline
    is counted from — names the parameter."""
    version = ctx.reg[regime.version]
    if not version.from_confirmed and day < add_years(version.in_force_from, 1):
        ctx.b.unconfirmed(UnconfirmedParameter(
            f"{version.id}:in_force_from",
            Msg(br_day(version.in_force_from), version.in_force_from.isoformat()),
            Msg(f"{version.label}: a data exata de publicação não foi confirmada; a vigência é "
                f"considerada a partir de {br_day(version.in_force_from)}",
                f"{version.label}: the exact publication date is not confirmed; it is taken to "
                f"be in force from {version.in_force_from.isoformat()}"), version.id))


def bd_detail(bd: BusinessDeadline, kind: str, cite: Citation) -> dict[str, Any]:
    return {"kind": kind, "start": bd.start, "count": bd.count, "unit": "business_days",
            "state": bd.state, "deadline": bd.deadline, "counted": list(bd.counted),
            "skipped": [{"date": d, "name": name} for d, name in bd.skipped],
            "citation": cite, "text": bd.explain()}


def _entry_order(e: Entry) -> tuple[dt.date, bool, dt.date]:
    return period_order(e.date, e.exit)


def check_person_input(m: CrewMember) -> None:
    """Reject overlapping entries and requests without a protocol date, naming the field
    (``crew[i].entries[j]``) or, for a crew file, the row and column."""
    indexed = sorted(enumerate(m.source.entries), key=lambda ie: _entry_order(ie[1]))
    for (_, a), (j, nxt) in itertools.pairwise(indexed):
        # Exit and re-entry on the same day is no overlap: that day is counted once.
        if a.exit is None or a.exit > nxt.date:
            field = f"{m.path}.entries[{j}]" if m.path else "entry_date"
            raise InputError(
                f"entradas sobrepostas de {m.id}: a entrada de {br_day(nxt.date)} começa antes da "
                f"saída da anterior ({br_day(a.exit) if a.exit else 'sem saída'})", field, m.file,
                m.row, message_en=f"overlapping entries of {m.id}: the entry of "
                f"{nxt.date.isoformat()} starts before the previous one's exit "
                f"({iso_day(a.exit) if a.exit else 'no exit'})")
    for j, d in enumerate(m.source.documents):
        if d.type.endswith("_request") and d.protocol_date is None:
            field = f"{m.path}.documents[{j}].protocol_date" if m.path \
                else "document_protocol_date"
            raise InputError(f"pedido ({d.type}) de {m.id} sem data de protocolo", field,
                             m.file, m.row,
                             message_en=f"request ({d.type}) of {m.id} without protocol date")


def entries_missing(m: CrewMember) -> InputError:
    """Interpretation ``immigration.entries.required``: a foreign person without entries."""
    return InputError(f"informe as entradas no país de {m.id}",
                      f"{m.path}.entries" if m.path else "entry_date", m.file, m.row,
                      message_en=f"give the entries into the country of {m.id}")


def person_periods(ctx: Ctx, m: CrewMember) -> list[Presence]:
    """The person's periods in Brazil: their entries, or (interpretation
    ``immigration.entries.vessel_presence``) the vessel's presence in AJB."""
    check_person_input(m)
    entries = sorted(m.source.entries, key=_entry_order)
    if entries:
        return [Presence(e.date, e.exit, e.by, e.mandatory_crew_change) for e in entries]
    choice = ctx.b.interpret(resolve(PKG, "immigration.entries", ctx.options))
    field = f"{m.path}.entries" if m.path else "entry_date"
    if choice.variant == "required":
        raise entries_missing(m)
    vessel = ctx.case.operation.ajb_presence
    if not vessel:
        raise InputError(f"sem entradas de {m.id} nem presença da embarcação em AJB: informe "
                         f"{field} ou operation.ajb_presence", field, m.file, m.row,
                         message_en=f"no entries of {m.id} and no presence of the vessel in "
                         f"AJB: give {field} or operation.ajb_presence")
    ctx.b.finding(Finding("entries_missing_vessel_presence_used", Msg(
        f"{m.id}: entradas não informadas; usados os períodos da embarcação em AJB.",
        f"{m.id}: entries not given; the vessel's periods in AJB were used."), None, "info",
        m.id))
    return [Presence(p.entry, p.exit) for p in vessel]


def procedure_not_modelled(ctx: Ctx, who: Msg) -> Msg:
    """After IN SIT 70/2007 (judged after 2021-12-09): 'Procedimento previsto na IN SIT
    70/2007, art. 14 (…); revogada com efeitos a partir de 10/12/2021 — o procedimento vigente
    (IN MTP nº 2/2021)
    não está modelado.' — the wording the quota section uses too."""
    t = regime_tables().consequence
    norm = ctx.reg[t["procedure"]["norm"]]
    assert norm.in_force_to is not None
    revoked = add_days(norm.in_force_to, 1)
    successor = ctx.reg[norm.replaced_by].label if norm.replaced_by else None
    short, prov = t["procedure"]["short"], t["procedure"]["provision"]
    what_pt = f"auto de infração contra {who.pt}, CLT art. 444, ementa {t['ementa']}"
    what_en = f"infraction notice against {who.en}, CLT art. 444, code {t['ementa']}"
    now_pt = (f"o procedimento vigente ({successor}) não está modelado" if successor
              else "o procedimento vigente não está modelado")
    now_en = (f"the current procedure ({successor}) is not modelled" if successor
              else "the current procedure is not modelled")
    return Msg(f"Procedimento previsto na {short}, {prov} ({what_pt}); revogada com efeitos a "
               f"partir de {br_day(revoked)} — {now_pt}.",
               f"Procedure of {short}, {prov} ({what_en}); revoked with effect from "
               f"{revoked.isoformat()} — {now_en}.")

"""Immigration engine: for each foreign person aboard on date D, which document the law
requires (none / visit visa / temporary visa / residence authorization), whether it is in
order, the next deadline and the consequence (immigration.md).

Pure: ``evaluate(case, on, options) -> Decision``. No I/O, no clock.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from collections.abc import Mapping
from typing import Any

from abordo.crew.model import Document, Entry, VesselCase
from abordo.crew.ranks import CrewMember, resolve_crew
from abordo.immigration.rules import (
    DOC_TYPES,
    PKG,
    BusinessDeadline,
    Presence,
    Regime,
    StayCount,
    business_deadline,
    count_stay,
    document_status,
    in_force,
    is_answered,
    is_request,
    operation_start,
    param,
    pending_requests,
    period_order,
    regime_on,
    regime_tables,
    requested_type,
    requests_filed,
    scheduled_limit,
    valid_documents,
)
from abordo.law.calendar import add_days, add_years
from abordo.law.decision import (
    Citation,
    Decision,
    DecisionBuilder,
    Finding,
    Msg,
    UnconfirmedParameter,
    Verdict,
)
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


def _n(n: int, one: str, many: str) -> str:
    """``1 dia`` / ``2 dias``: a count with its noun in agreement."""
    return f"{n} {one if n == 1 else many}"


def _label(table: dict[str, Msg], code: str) -> Msg:
    return table.get(code, Msg(code, code))


def _d(day: dt.date | None) -> str:
    return br_date(day) if day else "—"


def _iso(day: dt.date | None) -> str:
    return day.isoformat() if day else "—"


class _Ctx:
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


class _Person:
    """Accumulates one person's row of ``result['persons']``."""

    def __init__(self, ctx: _Ctx, m: CrewMember) -> None:
        self.ctx = ctx
        self.m = m
        # The documents of the person's current stay (RN 31: see _rn31_this_stay).
        self.docs: list[Document] = list(m.source.documents)
        keep = ctx.case.keep_personal_data
        self.row: dict[str, Any] = {
            "id": m.id, "rank": m.rank, "nationality": "/".join(m.nationalities),
            "department": m.department, "crew": m.is_crew,
            "sid_c185": m.source.sid_c185, "seafarer_card": m.source.seafarer_card,
            "documents": [_doc_row(d, ctx.on, keep, list(m.source.documents))
                          for d in m.source.documents],
            "requirement": None, "requirement_label": None, "citation": None,
            "verdict": None, "deadline": None, "deadline_detail": None,
            "action": None, "consequence": None, "notes": [], "stay": None,
        }

    def note(self, pt: str, en: str) -> None:
        self.row["notes"].append(Msg(pt, en))

    def decide(self, requirement: str, verdict: str, citation: Citation | None,
               deadline: dt.date | None = None, action: Msg | None = None) -> None:
        assert verdict in PERSON_VERDICTS
        self.row.update(requirement=requirement, requirement_label=REQUIREMENTS[requirement],
                        citation=citation, verdict=verdict, deadline=deadline, action=action)
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


def evaluate(case: VesselCase, on: dt.date, options: Mapping[str, Any] | None = None
             ) -> Decision:
    """Judge the immigration status of every foreign person aboard ``case`` on ``on``.

    Regimes: RN CNIg 31/1998 (1998-01-01, unconfirmed, → 2003-12-09) and RN CNIg 06/2017 as
    amended by Res. CNIg 42/2020 (from 2020-10-14); any other date → ``not_covered`` with the
    reason. ``options``: interpretation choices keyed by family (``immigration.stay``,
    ``immigration.migratory_year``, ``immigration.air_entry``, ``immigration.entries``,
    ``immigration.rn31.deadline``).

    Returns a :class:`Decision` with verdict ``non_compliant`` (any person irregular),
    ``compliant`` (persons with action due listed as warning findings), ``not_applicable``
    (no foreign person aboard) or ``not_covered``. ``result`` holds ``vessel``, ``regime``,
    ``persons`` — one dict per foreign person: ``id``, ``nationality``, ``requirement`` (id),
    ``requirement_label``, ``citation``, ``documents`` (each with its ``status`` on the date),
    ``verdict`` (``regular`` | ``irregular`` | ``action_due`` | ``not_applicable``),
    ``deadline`` (date), ``deadline_detail`` (business-day arithmetic: start, count in
    business days, counted days, holidays skipped with names), ``stay`` (calendar days in
    the migratory year), ``action``, ``consequence``, ``notes`` — ``brazilians_omitted`` and
    ``consequences``.

    Raises :class:`~abordo.law.errors.InputError` for an unknown option, overlapping entries,
    a request without protocol date, or missing presence data the rule needs (naming the
    field, and the file and row for crew-file input).
    """
    ctx = _Ctx(case, on, options)
    members = resolve_crew(case)
    b = ctx.b
    v = case.vessel
    result: dict[str, Any] = {
        "vessel": {"name": v.name, "imo": v.imo, "flag": v.flag, "activity": ctx.activity,
                   "contract": case.operation.contract.value, "state": ctx.state},
        "persons": [], "brazilians_omitted": [], "consequences": [],
        "regime_applied": False}
    foreign = [m for m in members if not m.is_brazilian]
    brazilians = [m.id for m in members if m.is_brazilian]
    result["brazilians_omitted"] = brazilians
    b.step("facts", f"Embarcação {v.name or ''} ({v.flag}), {ctx.activity_label.pt}, "
           f"{ctx.contract_label.pt}; {_n(len(members), 'pessoa', 'pessoas')} a bordo, "
           f"{_n(len(foreign), 'estrangeiro', 'estrangeiros')}; data julgada {_d(on)}.",
           f"Vessel {v.name or ''} ({v.flag}), {ctx.activity_label.en}, "
           f"{ctx.contract_label.en}; {_n(len(members), 'person', 'persons')} aboard, "
           f"{len(foreign)} foreign; date judged {on.isoformat()}.", persons=len(members),
           foreign=len(foreign))
    if brazilians:
        b.step("persons.brazilians",
               f"Brasileiros omitidos (a situação migratória não se aplica): "
               f"{', '.join(brazilians)}.",
               f"Brazilians omitted (immigration status does not apply): "
               f"{', '.join(brazilians)}.", ids=brazilians)
    if not foreign:
        return b.build(Verdict.NOT_APPLICABLE, None,
                       Msg("Não aplicável: nenhum estrangeiro a bordo.",
                           "Not applicable: no foreign person aboard."), result=result)

    tables = regime_tables()
    regime = regime_on(on)
    if regime is None:
        reason = ctx.reg.not_covered_reason(on, list(tables.candidates), tables.topic)
        rn31 = ctx.reg["cnig-rn-31-1998"]
        res42 = ctx.reg["cnig-rn-06-2017@res-42-2020"]
        if rn31.in_force_to and rn31.in_force_to < on < res42.in_force_from:
            reason = Msg(f"{reason.pt} Além disso, {tables.gap.pt}.",
                         f"{reason.en} Moreover, {tables.gap.en}.")
        return _not_covered(ctx, None, reason, result)
    result["regime"] = regime.version
    result["regime_label"] = ctx.reg[regime.version].label
    result["regime_short_label"] = regime.short_label
    # RN 31/1998 art. 2 waives the visa of "estrangeiro tripulante de embarcação que ingresse
    # no País sob viagem de longo curso" — any vessel (art. 1 alone says "estrangeira").
    any_flag_long_haul = regime.id == "rn31" and ctx.activity in regime.long_haul_activities
    if v.flag == "BR" and not any_flag_long_haul:
        reason = Msg(f"{tables.topic.pt}: {tables.brazilian_flag.pt}.",
                     f"{tables.topic.en}: {tables.brazilian_flag.en}.")
        return _not_covered(ctx, regime.version, reason, result)
    outside = regime.outside_reason(ctx.activity, on)
    if outside is not None:
        return _not_covered(ctx, regime.version, Msg(f"{tables.topic.pt}: {outside.pt}.",
                                                     f"{tables.topic.en}: {outside.en}."),
                            result)
    version = ctx.reg[regime.version]
    b.step("regime.select", f"Norma em vigor em {_d(on)}: {version.title}.",
           f"Norm in force on {on.isoformat()}: {version.title}.", ctx.cite(regime, ""))
    _unconfirmed_start(ctx, regime, on)  # a date judged in the norm's uncertain first year

    if regime.id == "rn31":
        if ctx.activity not in regime.long_haul_activities and (
                regime.contracts and case.operation.contract.value not in regime.contracts):
            reason = Msg(
                f"{tables.topic.pt}: a RN CNIg 31/1998 rege a tripulação de embarcação "
                "estrangeira em operação nas AJB por contrato de afretamento, prestação de "
                "serviços ou risco com empresa brasileira (art. 1º) ou em viagem de longo curso "
                f"(art. 2º); esta embarcação ({ctx.activity_label.pt}, "
                f"{ctx.contract_label.pt}) não é nenhum dos casos — informe o contrato "
                "(operation.contract).",
                f"{tables.topic.en}: RN CNIg 31/1998 governs the crew of a foreign vessel "
                "operating in AJB under a charter, services or risk contract with a Brazilian "
                f"company (art. 1) or on a long-haul voyage (art. 2); this vessel "
                f"({ctx.activity_label.en}, {ctx.contract_label.en}) is neither — give the "
                "contract (operation.contract).")
            return _not_covered(ctx, regime.version, reason, result)
        persons = [_rn31_person(ctx, regime, m) for m in foreign]
    else:
        if ctx.activity in regime.long_haul_activities:
            basis = regime.long_haul_basis
            if basis is None or not in_force(basis[0], on):
                assert regime.long_haul_after is not None
                return _not_covered(ctx, regime.version, Msg(
                    f"{tables.topic.pt}: {regime.long_haul_after.pt}.",
                    f"{tables.topic.en}: {regime.long_haul_after.en}."), result)
            persons = [_long_haul_in70(ctx, m, basis) for m in foreign]
        else:
            persons = [_res42_person(ctx, regime, m) for m in foreign]
            if foreign:
                # Said, not judged: the input does not carry what these articles turn on.
                b.step("regime.not_checked",
                       "Não verificados: transferência para outra embarcação, trabalho em "
                       "várias embarcações e mudança de empregador (arts. 6º a 8º) e a "
                       "renovação da autorização de residência (art. 12).",
                       "Not checked: transfer to another vessel, work on several vessels and "
                       "change of employer (arts. 6 to 8), and the renewal of the residence "
                       "authorization (art. 12).", ctx.cite(regime, "arts. 6º a 8º"))
    result["persons"] = [p.row for p in persons]
    return _finish(ctx, regime, persons, result)


def _not_covered(ctx: _Ctx, regime: str | None, reason: Msg, result: dict[str, Any]
                 ) -> Decision:
    ctx.b.step("regime.not_covered", reason.pt, reason.en)
    result["regime_applied"] = False  # the report names no norm as applied
    return ctx.b.build(Verdict.NOT_COVERED, regime,
                       Msg(f"Não coberto: {reason.pt}", f"Not covered: {reason.en}"),
                       not_covered_reason=reason, result=result)


# --- RN CNIg 31/1998 --------------------------------------------------------------------------

def _rn31_person(ctx: _Ctx, regime: Regime, m: CrewMember) -> _Person:
    _check_person_input(m)
    p = _Person(ctx, m)
    b = ctx.b
    if not m.is_crew:
        # art. 14: the resolution does not apply to non-crew professionals.
        cite = ctx.cite(regime, regime.non_crew_provision or "art. 14")
        p.decide("not_applicable", "not_applicable", cite)
        p.note("Profissional não tripulante: fora da RN 31/1998 (art. 14); a situação "
               "migratória segue outra norma, não modelada.",
               "Non-crew professional: outside RN 31/1998 (art. 14); their immigration status "
               "follows another norm, not modelled.")
        b.step(f"person.{m.id}.requirement",
               f"{m.id} ({p.row['nationality']}): profissional não tripulante — a RN 31/1998 não "
               "se aplica (art. 14).",
               f"{m.id} ({p.row['nationality']}): non-crew professional — RN 31/1998 does not "
               "apply (art. 14).", cite)
        return p
    if _rn31_not_in_country(ctx, regime, p):
        return p
    if m.department is None:
        # Art. 14 sets non-crew professionals apart: a rank the table does not know, with no
        # department, places the person in Brazil on neither side — presumed crew (the
        # reading listed) or, by the caller's choice, refused.
        reading = b.interpret(resolve(PKG, "immigration.rn31.person", ctx.options))
        if reading.variant == "department_required":
            m.require(level=False, why=(
                " — a RN 31/1998 não se aplica a profissional não tripulante (art. 14): "
                "informe non_crew_professional, se for o caso",
                " — RN 31/1998 does not apply to non-crew professionals (art. 14): give "
                "non_crew_professional if so"))
    if ctx.activity in regime.long_haul_activities:
        return _rn31_long_haul(ctx, regime, p)
    return _rn31_temporary_visa(ctx, regime, p)


def _unconfirmed_start(ctx: _Ctx, regime: Regime, day: dt.date) -> None:
    """A norm whose exact start is not confirmed (RN 31/1998: "1998", modelled from its 1
    January) leaves uncertain whether it governed a day of its first modelled year, or one
    before it: an answer that depends on such a ``day`` — the date judged, the day a deadline
    is counted from — names the parameter."""
    version = ctx.reg[regime.version]
    if not version.from_confirmed and day < add_years(version.in_force_from, 1):
        ctx.b.unconfirmed(UnconfirmedParameter(
            f"{version.id}:in_force_from", _d(version.in_force_from),
            f"{version.label}: a data exata de publicação não foi confirmada; a vigência é "
            f"considerada a partir de {_d(version.in_force_from)}", version.id))


def _rn31_not_in_country(ctx: _Ctx, regime: Regime, p: _Person) -> bool:
    """Decide ``not_applicable`` for a person not in Brazil on the date judged — the question
    is about "each foreign person aboard on date D" (spec), and RN 31/1998 art. 9 § 1º speaks
    of their "estada no território nacional" — as under Res. 42: their own entries show no
    entry yet or an exit before the date; with no entries, the vessel's presence in AJB does
    (the person is presumed to be with the vessel: interpretation
    ``immigration.entries.vessel_presence``, listed whenever it is used). With neither, the
    person is taken to be aboard, as listed; under ``immigration.entries.required`` a person
    without entries is an :class:`InputError` (as under Res. 42)."""
    m, on, b = p.m, ctx.on, ctx.b
    own = bool(m.source.entries)
    reading = resolve(PKG, "immigration.entries", ctx.options)
    if not own and reading.variant == "required":
        b.interpret(reading)
        raise _entries_missing(m)
    periods = ([Presence(e.date, e.exit) for e in m.source.entries] if own else
               [Presence(x.entry, x.exit) for x in ctx.case.operation.ajb_presence])
    if not periods:
        return False
    if not own:
        b.interpret(reading)  # the person presumed with the vessel: present or not, it decides
    # The regularity RN 31 governs is that of the "estada no território nacional" (art. 9º,
    # § 1º): without a stay on the date there is nothing to judge.
    stay_cite = ctx.cite(regime, "art. 9º, § 1º")
    started = [x for x in periods if x.start <= on]
    last_started = max(started, key=lambda x: period_order(x.start, x.end)) if started else None
    outside = last_started is None or (last_started.end is not None and last_started.end < on)
    if not started:
        first = min(x.start for x in periods)
        pt, en = ((f"Entrada prevista para {_d(first)}", f"Entry expected on {first.isoformat()}")
                  if own else (f"A embarcação só entra nas AJB em {_d(first)}",
                               f"The vessel enters AJB only on {first.isoformat()}"))
        p.decide("not_applicable", "not_applicable", stay_cite)
        p.note(f"{pt}: ainda não está no país nesta data.",
               f"{en}: not yet in the country on this date.")
        b.step(f"person.{m.id}.stay", f"{m.id}: {pt[0].lower()}{pt[1:]}, após a data julgada — "
               "não avaliado.", f"{m.id}: {en[0].lower()}{en[1:]}, after the date judged — not "
               "assessed.", stay_cite)
        return True
    if not outside:
        return False
    # The latest period (on one day, an in-and-out before a re-entry) ended before the date.
    assert last_started is not None and last_started.end is not None
    left = last_started.end
    pt, en = ((f"as entradas indicam saída do país em {_d(left)}",
               f"the entries show an exit from the country on {left.isoformat()}") if own
              else (f"a embarcação saiu das AJB em {_d(left)}",
                    f"the vessel left AJB on {left.isoformat()}"))
    p.decide("not_applicable", "not_applicable", stay_cite)
    p.note(f"Não está no Brasil nesta data: {pt}.", f"Not in Brazil on this date: {en}.")
    b.finding(Finding("not_in_country", Msg(f"{m.id}: consta da lista, mas {pt}.",
                                            f"{m.id}: listed aboard, but {en}."),
                      stay_cite, "warning", m.id))
    b.step(f"person.{m.id}.stay", f"{m.id}: {pt}, antes da data julgada — não avaliado.",
           f"{m.id}: {en}, before the date judged — not assessed.", stay_cite)
    return True


def _rn31_long_haul(ctx: _Ctx, regime: Regime, p: _Person) -> _Person:
    """RN 31/1998 art. 2: no visa; the international seafarer's card or equivalent suffices."""
    m, on = p.m, ctx.on
    cite = ctx.cite(regime, regime.long_haul_provision or "art. 2º")
    card = m.source.seafarer_card or m.source.sid_c185 or bool(
        valid_documents(m.source.documents, "seafarer_card", on)
        or valid_documents(m.source.documents, "sid_c185", on))
    p.decide("none_long_haul", "regular", cite)
    if card:
        p.note("Carteira internacional de marítimo (ou equivalente) informada.",
               "International seafarer's card (or equivalent) given.")
    else:
        p.note("Conferir a carteira internacional de marítimo ou documento equivalente a bordo "
               "(art. 2º).", "Check the international seafarer's card or an equivalent "
               "document aboard (art. 2).")
        ctx.b.finding(Finding("seafarer_card_to_check", Msg(
            f"{m.id}: conferir a carteira internacional de marítimo (ou equivalente).",
            f"{m.id}: check the international seafarer's card (or equivalent)."), cite, "info",
            m.id))
    if ctx.case.operation.foreign_calls is False:
        ctx.b.finding(Finding("long_haul_without_foreign_calls", Msg(
            "Declarada de longo curso, mas sem escalas em portos estrangeiros: a dispensa de "
            "visto do art. 2º pressupõe viagem entre portos estrangeiros e brasileiros.",
            "Declared long-haul but with no foreign calls: the visa waiver of art. 2 assumes a "
            "voyage between foreign and Brazilian ports."), cite, "warning"))
    ctx.b.step(f"person.{m.id}.requirement",
               f"{m.id} ({p.row['nationality']}): viagem de longo curso — não se exige visto, "
               f"basta a carteira internacional de marítimo; regular.",
               f"{m.id} ({p.row['nationality']}): long-haul voyage — no visa required, the "
               "international seafarer's card suffices; regular.", cite)
    return p


def _rn31_temporary_visa(ctx: _Ctx, regime: Regime, p: _Person) -> _Person:
    """RN 31/1998 arts. 1, 2 sole paragraph, 9 and 10: temporary visa, the 8-business-day
    request, the 30-day protocol and the extension request."""
    m, on, b = p.m, ctx.on, ctx.b
    # Art. 2 sole paragraph speaks of the long-haul vessel "afretada" into cabotage: under a
    # services or risk contract the visa rests on art. 1 alone.
    cabotage = ctx.activity in regime.cabotage_activities \
        and ctx.case.operation.contract.value == "charter"
    cite = ctx.cite(regime, (regime.cabotage_provision if cabotage else None)
                    or regime.contract_provision or "art. 1º")
    if cabotage:
        b.cite(ctx.cite(regime, regime.contract_provision or "art. 1º"))
    docs = _rn31_this_stay(ctx, p)
    max_years = param("temporary_visa_max_years", on)
    for d in docs:
        if d.type == "temporary_visa" and d.issued_on and d.valid_until and \
                d.valid_until > add_years(d.issued_on, max_years.value):
            b.finding(Finding("temporary_visa_beyond_maximum", Msg(
                f"{m.id}: visto temporário de {_d(d.issued_on)} a {_d(d.valid_until)} excede o "
                f"prazo máximo de {max_years.value} anos (art. 1º).",
                f"{m.id}: temporary visa from {_iso(d.issued_on)} to {_iso(d.valid_until)} "
                f"exceeds the {max_years.value}-year maximum (art. 1)."),
                ctx.cite(regime, max_years.provision), "warning", m.id))
    why_pt = ("embarcação afretada para cabotagem (art. 2º, parágrafo único, c/c art. 1º)"
              if cabotage else "embarcação estrangeira em operação nas AJB por contrato com "
              "empresa brasileira (art. 1º)")
    why_en = ("vessel chartered into cabotage (art. 2 sole paragraph with art. 1)" if cabotage
              else "foreign vessel operating in AJB under a contract with a Brazilian company "
              "(art. 1)")
    b.step(f"person.{m.id}.requirement",
           f"{m.id} ({p.row['nationality']}): {why_pt} — exige-se visto temporário (Lei "
           f"6.815/80 art. 13, V) por até {max_years.value} anos.",
           f"{m.id} ({p.row['nationality']}): {why_en} — a temporary visa (Lei 6.815/80 art. 13,"
           f" V) for up to {max_years.value} years is required.", cite)
    b.cite(ctx.reg.cite("lei-6815-1980", "art. 13, V"))

    visas = valid_documents(docs, "temporary_visa", on)
    if visas:
        return _rn31_visa_held(ctx, regime, p, cite, max(
            visas, key=lambda d: d.valid_until or dt.date.max))
    expired = [d for d in docs if d.type == "temporary_visa"
               and document_status(d, on) == "expired"]
    if expired:
        return _rn31_visa_expired(ctx, regime, p, cite, max(
            expired, key=lambda d: d.valid_until or dt.date.min))
    auths = valid_documents(docs, "work_authorization", on)
    if auths:
        p.decide("temporary_visa", "regular", cite)
        p.note("Autorização de trabalho concedida; o visto é emitido pelo Ministério das "
               "Relações Exteriores (art. 7º).", "Work authorization granted; the visa is "
               "issued by the Ministry of Foreign Affairs (art. 7).")
        b.step(f"person.{m.id}.documents",
               f"{m.id}: autorização de trabalho válida em {_d(on)} — regular.",
               f"{m.id}: work authorization valid on {on.isoformat()} — regular.",
               ctx.cite(regime, "art. 7º"))
        return p
    return _rn31_request_clock(ctx, regime, p, cite)


def _rn31_visa_held(ctx: _Ctx, regime: Regime, p: _Person, cite: Citation, visa: Document
                    ) -> _Person:
    """A valid temporary visa: regular; the next deadline is the extension request, due up to
    30 days before the stay granted ends (art. 10 § 1º)."""
    m, on, b = p.m, ctx.on, ctx.b
    if visa.valid_until is None:
        p.decide("temporary_visa", "regular", cite)
        b.step(f"person.{m.id}.documents", f"{m.id}: visto temporário válido em {_d(on)}.",
               f"{m.id}: temporary visa valid on {on.isoformat()}.", cite)
        return p
    earlier = _rn31_extended(m, visa)
    if earlier and _rn31_extension_once(ctx):
        return _rn31_extension_held(ctx, regime, p, cite, visa, earlier)
    before = param("extension_request_days_before_end", on)
    notice = param("extension_notice_days", on)
    ext_cite = ctx.cite(regime, before.provision)
    ext_deadline = add_days(visa.valid_until, -before.value)
    filed = [d for d in pending_requests(p.docs, "temporary_visa", on)
             if d.protocol_date and d.protocol_date <= ext_deadline]
    detail = {"kind": "extension_request", "start": visa.valid_until, "count": -before.value,
              "unit": "days", "citation": ext_cite, "text": Msg(
                  f"Estada concedida até {_d(visa.valid_until)}; o pedido de prorrogação deve "
                  f"ser protocolado até {before.value} dias antes: {_d(ext_deadline)}.",
                  f"Stay granted until {visa.valid_until.isoformat()}; the extension request "
                  f"must be filed up to {before.value} days before: {ext_deadline.isoformat()}.")}
    p.row["deadline_detail"] = detail
    if filed:
        p.decide("temporary_visa", "regular", cite, visa.valid_until)
        p.note(f"Prorrogação pedida em {_d(filed[0].protocol_date)}, no prazo (art. 10, § 1º).",
               f"Extension requested on {_iso(filed[0].protocol_date)}, in time (art. 10 §1).")
    elif on <= ext_deadline:
        due = on >= add_days(ext_deadline, -notice.value)
        action = Msg(f"Protocolar o pedido de prorrogação até {_d(ext_deadline)} (se a estada "
                     "for continuar).", f"File the extension request by "
                     f"{ext_deadline.isoformat()} (if the stay is to continue).")
        p.decide("temporary_visa", "action_due" if due else "regular", cite, ext_deadline,
                 action)
        if due:
            b.cite(ctx.reg.cite("lei-6815-1980"))
            p.row["consequence"] = Msg(
                f"Sem o pedido até {_d(ext_deadline)}, a estada termina em "
                f"{_d(visa.valid_until)}; depois disso, sem visto nem protocolo, a estada não "
                "é regular e fica sujeita a multa (Lei 6.815/1980) — valores não modelados.",
                f"Without the request by {ext_deadline.isoformat()}, the stay ends on "
                f"{visa.valid_until.isoformat()}; after that, with no visa or protocol, the stay "
                "is not regular and liable to a fine (Lei 6.815/1980) — amounts not modelled.")
            b.finding(Finding("extension_request_due", Msg(
                f"{m.id}: pedido de prorrogação do visto temporário até {_d(ext_deadline)}.",
                f"{m.id}: temporary visa extension request due by "
                f"{ext_deadline.isoformat()}."), ext_cite, "warning", m.id))
    else:
        action = Msg(f"Prazo do pedido de prorrogação vencido em {_d(ext_deadline)}: a estada "
                     f"termina em {_d(visa.valid_until)}.",
                     f"The extension request deadline passed on {ext_deadline.isoformat()}: "
                     f"the stay ends on {visa.valid_until.isoformat()}.")
        p.decide("temporary_visa", "action_due", cite, visa.valid_until, action)
        b.cite(ctx.reg.cite("lei-6815-1980"))
        p.row["consequence"] = Msg(
            f"Depois de {_d(visa.valid_until)}, sem visto nem protocolo, a estada não é regular "
            "e fica sujeita a multa (Lei 6.815/1980) — valores não modelados.",
            f"After {visa.valid_until.isoformat()}, with no visa or protocol, the stay is not "
            "regular and liable to a fine (Lei 6.815/1980) — amounts not modelled.")
        b.finding(Finding("extension_request_missed", Msg(
            f"{m.id}: {action.pt}", f"{m.id}: {action.en}"), ext_cite, "warning", m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: visto temporário válido até {_d(visa.valid_until)}; prorrogação a pedir até "
           f"{_d(ext_deadline)} → {p.verdict_word.pt}.",
           f"{m.id}: temporary visa valid until {visa.valid_until.isoformat()}; extension to "
           f"request by {ext_deadline.isoformat()} → {p.verdict_word.en}.", ext_cite,
           deadline=ext_deadline)
    return p


def _rn31_this_stay(ctx: _Ctx, p: _Person) -> list[Document]:
    """The person's documents that speak to the current operation. Their own entries may
    show that they left Brazil before the vessel's current operation began (its entry into
    AJB under the contract): a visa or authorization that had expired by their return, or a
    request filed by that exit, belonged to an earlier operation — the visa, its request and
    the charterer's 8 business days (art. 9) are those of the operation the person now works
    in ("contado da entrada da embarcação nas AJB sob o contrato"). A leave within the same
    operation sets nothing aside (art. 9 §§ 1º–2º: the protocol keeps them regular; art. 10
    § 1º: an extension filed in time stands). Sets ``p.docs`` and notes what is set aside."""
    m, on = p.m, ctx.on
    entry = _crew_entry(m, on)
    left = max((e.exit for e in m.source.entries if e.exit is not None and entry is not None
                and e.exit < entry), default=None)
    op = operation_start([(q.entry, q.exit) for q in ctx.case.operation.ajb_presence], on)
    if entry is None or left is None or op is None or left >= op:
        return p.docs

    def earlier(d: Document) -> bool:
        if is_request(d):
            return d.protocol_date is not None and d.protocol_date <= left
        start = d.issued_on or d.protocol_date
        return d.valid_until is not None and d.valid_until < entry \
            and (start is None or start <= left)

    old = [d for d in p.docs if earlier(d)]
    if old:
        p.docs = [d for d in p.docs if d not in old]
        names = ", ".join(dict.fromkeys(DOC_TYPES.get(d.type, (d.type, d.type))[0] for d in old))
        names_en = ", ".join(dict.fromkeys(DOC_TYPES.get(d.type, (d.type, d.type))[1]
                                           for d in old))
        p.note(f"Documentos de operação anterior (saída do país em {_d(left)}, antes da "
               f"entrada da embarcação nas AJB em {_d(op)}; nova entrada em {_d(entry)}) não "
               f"valem para esta: {names}.",
               f"Documents of an earlier operation (left the country on {_iso(left)}, before "
               f"the vessel's entry into AJB on {_iso(op)}; entered again on {_iso(entry)}) do "
               f"not serve this one: {names_en}.")
        ctx.b.step(f"person.{m.id}.earlier_stay",
                   f"{m.id}: saiu do país em {_d(left)} e entrou de novo em {_d(entry)}; "
                   f"{names} da operação anterior (vencido antes da nova entrada, ou pedido "
                   "protocolado antes da saída) não contam para a operação atual.",
                   f"{m.id}: left the country on {_iso(left)} and entered again on "
                   f"{_iso(entry)}; {names_en} of the earlier operation (expired before the new "
                   "entry, or a request filed before the exit) do not count for the current "
                   "operation.")
    return p.docs


def _rn31_extended(m: CrewMember, visa: Document) -> int:
    """How many times the stay that ``visa`` belongs to was extended by ``visa``'s time: the
    temporary visas granted, taken in order of issue (repeated ones once), form one stay
    while each begins by the day after the stay's end so far — or later, answering a
    request filed before that end (art. 10 § 1º: the request keeps the stay); each one that
    pushes the end further is an extension (a visa inside the stay extends nothing)."""
    granted = sorted({(d.issued_on, d.valid_until) for d in m.source.documents
                      if d.type == "temporary_visa" and not is_request(d)
                      and d.issued_on is not None and d.valid_until is not None},
                     key=lambda iv: (iv[0], iv[1]))
    asked = [d.protocol_date for d in m.source.documents
             if is_request(d) and requested_type(d) == "temporary_visa" and d.protocol_date]
    end: dt.date | None = None
    extensions = 0
    for issued, until in granted:
        assert issued is not None and until is not None
        bridged = end is not None and any(a <= end and a < issued for a in asked)
        if end is None or (issued > add_days(end, 1) and not bridged):
            end, extensions = until, 0  # a new stay
        elif until > end:
            end, extensions = until, extensions + 1
        if (issued, until) == (visa.issued_on, visa.valid_until):
            return extensions
    return 0


def _rn31_extension_held(ctx: _Ctx, regime: Regime, p: _Person, cite: Citation,
                         visa: Document, earlier: int) -> _Person:
    """Art. 10: the temporary visa "poderá ser prorrogado … por prazo de até dois anos, …
    vedada sua transformação em permanente" — once extended, the stay ends when the
    extension does: no further extension request is due."""
    m, on, b = p.m, ctx.on, ctx.b
    assert visa.valid_until is not None
    limit = param("temporary_visa_extension_max_years", on)
    cite10 = ctx.cite(regime, limit.provision)
    end = visa.valid_until
    p.row["deadline_detail"] = {
        "kind": "stay_end", "start": end, "count": 0, "unit": "calendar_days",
        "citation": cite10,
        "text": Msg(f"Visto temporário já prorrogado: a estada termina em {_d(end)} (art. 10: "
                    f"uma prorrogação de até {limit.value} anos, vedada a transformação em "
                    "permanente).",
                    f"Temporary visa already extended: the stay ends on {end.isoformat()} "
                    f"(art. 10: one extension of up to {limit.value} years, never turned "
                    "permanent).")}
    p.decide("temporary_visa", "regular", cite, end, Msg(
        f"A estada prorrogada termina em {_d(end)}; nova prorrogação não é prevista (art. 10).",
        f"The extended stay ends on {end.isoformat()}; no further extension is provided for "
        "(art. 10)."))
    if earlier > 1:
        b.finding(Finding("extension_beyond_limit", Msg(
            f"{m.id}: {earlier} prorrogações seguidas do visto temporário; o art. 10 prevê uma, "
            f"por até {limit.value} anos, vedada a transformação em permanente.",
            f"{m.id}: {earlier} consecutive extensions of the temporary visa; art. 10 provides "
            f"for one, of up to {limit.value} years, never turned permanent."), cite10,
            "warning", m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: visto temporário prorrogado, válido até {_d(end)} → "
           f"{p.verdict_word.pt}.",
           f"{m.id}: extended temporary visa, valid until {end.isoformat()} → "
           f"{p.verdict_word.en}.", cite10, deadline=end)
    return p


def _rn31_extension_once(ctx: _Ctx) -> bool:
    """Art. 10 read as one extension (``immigration.rn31.extension.once``, listed where it
    decides) or as extensions of up to two years each (``.renewable``)."""
    reading = ctx.b.interpret(resolve(PKG, "immigration.rn31.extension", ctx.options))
    return reading.variant == "once"


def _rn31_extension_expired(ctx: _Ctx, regime: Regime, p: _Person, cite: Citation,
                            visa: Document) -> _Person:
    """The extended stay is over: art. 10 gives no further extension — irregular, whatever
    was requested."""
    m, on, b = p.m, ctx.on, ctx.b
    assert visa.valid_until is not None
    limit = param("temporary_visa_extension_max_years", on)
    cite10 = ctx.cite(regime, limit.provision)
    p.decide("temporary_visa", "irregular", cite10)
    p.row["consequence"] = _rn31_irregular_consequence(ctx)
    b.finding(Finding("extended_stay_ended", Msg(
        f"{m.id}: estada prorrogada terminou em {_d(visa.valid_until)}; o art. 10 não prevê "
        "nova prorrogação (vedada a transformação em permanente).",
        f"{m.id}: the extended stay ended on {visa.valid_until.isoformat()}; art. 10 provides "
        "for no further extension (never turned permanent)."), cite10, subject=m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: visto temporário prorrogado vencido em {_d(visa.valid_until)} → "
           f"{p.verdict_word.pt}.",
           f"{m.id}: extended temporary visa expired on {visa.valid_until.isoformat()} → "
           f"{p.verdict_word.en}.", cite10)
    return p


def _rn31_visa_expired(ctx: _Ctx, regime: Regime, p: _Person, cite: Citation, visa: Document
                       ) -> _Person:
    m, on, b = p.m, ctx.on, ctx.b
    assert visa.valid_until is not None
    if _rn31_extended(m, visa) and _rn31_extension_once(ctx):
        return _rn31_extension_expired(ctx, regime, p, cite, visa)
    before = param("extension_request_days_before_end", on)
    ext_cite = ctx.cite(regime, before.provision)
    ext_deadline = add_days(visa.valid_until, -before.value)
    filed = [d for d in pending_requests(p.docs, "temporary_visa", on)
             if d.protocol_date and d.protocol_date <= ext_deadline]
    if filed:
        p.decide("temporary_visa", "action_due", cite, None, Msg(
            "Prorrogação pedida no prazo; aguarda decisão do Ministério da Justiça (art. 10).",
            "Extension requested in time; awaiting the Ministry of Justice's decision "
            "(art. 10)."))
        b.finding(Finding("extension_pending", Msg(
            f"{m.id}: visto vencido em {_d(visa.valid_until)}, prorrogação pedida em "
            f"{_d(filed[0].protocol_date)} aguardando decisão.",
            f"{m.id}: visa expired on {visa.valid_until.isoformat()}, extension requested on "
            f"{_iso(filed[0].protocol_date)} awaiting decision."), ext_cite, "warning", m.id))
    else:
        p.decide("temporary_visa", "irregular", cite)
        p.row["consequence"] = _rn31_irregular_consequence(ctx)
        b.finding(Finding("temporary_visa_expired", Msg(
            f"{m.id}: visto temporário vencido em {_d(visa.valid_until)}, sem prorrogação "
            "pedida no prazo.", f"{m.id}: temporary visa expired on "
            f"{visa.valid_until.isoformat()}, no extension requested in time."), cite,
            subject=m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: visto temporário vencido em {_d(visa.valid_until)} → {p.verdict_word.pt}.",
           f"{m.id}: temporary visa expired on {visa.valid_until.isoformat()} → "
           f"{p.verdict_word.en}.", ext_cite)
    return p


def _crew_entry(m: CrewMember, on: dt.date) -> dt.date | None:
    """The person's latest entry into Brazil on or before ``on``."""
    past = [e.date for e in m.source.entries if e.date <= on]
    return max(past) if past else None


def _rn31_clock_start(ctx: _Ctx, m: CrewMember, variant: str) -> dt.date | None:
    periods = [(p.entry, p.exit) for p in ctx.case.operation.ajb_presence]
    op = operation_start(periods, ctx.on)
    if variant == "deadline_from_crew_entry":
        entry = _crew_entry(m, ctx.on)
        if entry is not None:
            return max(entry, op) if op else entry
    return op


def _rn31_request_clock(ctx: _Ctx, regime: Regime, p: _Person, cite: Citation) -> _Person:
    """RN 31/1998 art. 9: the charterer has 8 business days to file the work authorization
    request; the protocol keeps the crew regular for 30 days, extendable (§§ 1º–2º)."""
    m, on, b = p.m, ctx.on, ctx.b
    reading = b.interpret(resolve(PKG, "immigration.rn31.deadline", ctx.options))
    if not ctx.case.operation.ajb_presence and (
            reading.variant == "deadline_from_operation_start" or not m.source.entries):
        raise InputError(
            "a RN 31/1998 art. 9º conta o prazo do pedido de autorização de trabalho da entrada "
            "da embarcação nas AJB: informe operation.ajb_presence", "operation.ajb_presence",
            message_en="RN 31/1998 art. 9 counts the work authorization request deadline from "
            "the vessel's entry into AJB: give operation.ajb_presence")
    start = _rn31_clock_start(ctx, m, reading.variant)
    n = param("work_authorization_request_business_days", on)
    art9 = ctx.cite(regime, n.provision)
    if start is None:
        p.decide("temporary_visa", "action_due", cite, None, Msg(
            "A operação ainda não começou nesta data: o prazo de 8 dias úteis correrá da entrada "
            "da embarcação nas AJB.", "The operation has not started on this date: the 8 "
            "business days will run from the vessel's entry into AJB."))
        return p
    bd = business_deadline(start, int(n.value), ctx.state)
    _unconfirmed_start(ctx, regime, start)  # a deadline counted from a day of that year
    p.row["deadline_detail"] = _bd_detail(bd, "work_authorization_request", art9)
    b.step(f"person.{m.id}.deadline", bd.explain().pt, bd.explain().en, art9,
           start=start, count=bd.count, deadline=bd.deadline,
           skipped=[(d, name) for d, name in bd.skipped])
    requests = pending_requests(p.docs, "work_authorization", on)
    if requests:
        # The deadline judges the first request of this operation (one filed before its
        # clock started, for an earlier stay, is no answer to it).
        filed = [r for r in requests_filed(p.docs, "work_authorization", on)
                 if r.protocol_date is not None and r.protocol_date >= start]
        return _rn31_protocol(ctx, regime, p, cite, bd, requests,
                              filed[0] if filed else requests[0])
    action = Msg(f"A afretadora deve protocolar o pedido de autorização de trabalho até "
                 f"{_d(bd.deadline)}.", f"The charterer must file the work authorization "
                 f"request by {bd.deadline.isoformat()}.")
    if on <= bd.deadline:
        p.decide("temporary_visa", "action_due", cite, bd.deadline, action)
        p.row["consequence"] = Msg(
            f"Sem o protocolo até {_d(bd.deadline)}, o tripulante passa à situação irregular.",
            f"Without the protocol by {bd.deadline.isoformat()}, the crew member becomes "
            "irregular.")
        b.finding(Finding("work_authorization_request_due", Msg(
            f"{m.id}: pedido de autorização de trabalho a protocolar até {_d(bd.deadline)}.",
            f"{m.id}: work authorization request to be filed by {bd.deadline.isoformat()}."),
            art9, "warning", m.id))
    else:
        p.decide("temporary_visa", "irregular", cite, bd.deadline, action)
        p.row["consequence"] = _rn31_irregular_consequence(ctx)
        b.finding(Finding("work_authorization_request_overdue", Msg(
            f"{m.id}: sem visto temporário nem protocolo do pedido de autorização de trabalho; "
            f"o prazo venceu em {_d(bd.deadline)}.",
            f"{m.id}: no temporary visa and no work authorization request protocol; the "
            f"deadline passed on {bd.deadline.isoformat()}."), art9, subject=m.id))
    _rn31_alternative(ctx, p, reading.variant, int(n.value))
    return p


def _rn31_protocol(ctx: _Ctx, regime: Regime, p: _Person, cite: Citation,
                   bd: BusinessDeadline, requests: list[Document], first: Document
                   ) -> _Person:
    """Art. 9 §§ 1º–2º: each protocol keeps the crew regular for 30 days (or to the date the
    Ministry extended it to). The first request ever filed (``first``, answered or not)
    answers the 8-business-day deadline; the protocol that runs longest among those not yet
    answered decides the verdict (a new request after one lapsed is a protocol of its
    own)."""
    m, on, b = p.m, ctx.on, ctx.b
    days = param("protocol_validity_days", on)
    pcite = ctx.cite(regime, days.provision)
    b.cite(ctx.cite(regime, "art. 9º, § 1º"))

    def runs_to(r: Document) -> dt.date:
        assert r.protocol_date is not None
        natural = add_days(r.protocol_date, days.value)
        return max(natural, r.valid_until) if r.valid_until else natural  # § 2º

    req = max(requests, key=lambda r: (runs_to(r), r.protocol_date or dt.date.min))
    assert first.protocol_date is not None and req.protocol_date is not None
    valid_to = runs_to(req)
    if valid_to > add_days(req.protocol_date, days.value):
        p.note(f"Protocolo prorrogado até {_d(valid_to)} (art. 9º, § 2º).",
               f"Protocol extended until {valid_to.isoformat()} (art. 9 §2).")
    for earlier in requests:
        if earlier is not req and earlier.protocol_date is not None \
                and earlier.protocol_date < req.protocol_date \
                and runs_to(earlier) < add_days(req.protocol_date, -1):
            p.note(f"Protocolo de {_d(earlier.protocol_date)} vencido em "
                   f"{_d(runs_to(earlier))}, antes do novo pedido de {_d(req.protocol_date)}: "
                   "sem protocolo nesse intervalo.",
                   f"Protocol of {earlier.protocol_date.isoformat()} expired on "
                   f"{runs_to(earlier).isoformat()}, before the new request of "
                   f"{req.protocol_date.isoformat()}: no protocol in between.")
    late = first.protocol_date > bd.deadline
    if late:
        b.finding(Finding("work_authorization_request_late", Msg(
            f"{m.id}: pedido protocolado em {_d(first.protocol_date)}, após o prazo de "
            f"{_d(bd.deadline)} (art. 9º).", f"{m.id}: request filed on "
            f"{first.protocol_date.isoformat()}, after the deadline of {bd.deadline.isoformat()} "
            "(art. 9)."), ctx.cite(regime, "art. 9º"), "warning", m.id))
    # The deadline shown is now the protocol's end: its own arithmetic is the detail (the
    # 8 business days, answered by the request, stay in the trace).
    extended = valid_to > add_days(req.protocol_date, days.value)
    p.row["deadline_detail"] = {
        "kind": "protocol_validity", "start": req.protocol_date,
        "count": (valid_to - req.protocol_date).days, "unit": "calendar_days",
        "citation": pcite, "text": Msg(
            f"Protocolo de {_d(req.protocol_date)} + {days.value} dias = "
            f"{_d(add_days(req.protocol_date, days.value))}"
            + (f"; prorrogado até {_d(valid_to)}" if extended else "") + ".",
            f"Protocol of {req.protocol_date.isoformat()} + {days.value} days = "
            f"{add_days(req.protocol_date, days.value).isoformat()}"
            + (f"; extended until {valid_to.isoformat()}" if extended else "") + ".")}
    if on <= valid_to:
        p.decide("temporary_visa", "regular", pcite, valid_to, Msg(
            f"Protocolo de {_d(req.protocol_date)} válido até {_d(valid_to)} (prorrogável): "
            "obter o visto ou a prorrogação do protocolo até lá.",
            f"Protocol of {req.protocol_date.isoformat()} valid until {valid_to.isoformat()} "
            "(extendable): obtain the visa or the protocol's extension by then."))
    else:
        p.decide("temporary_visa", "irregular", pcite, valid_to, Msg(
            f"Protocolo vencido em {_d(valid_to)} sem visto nem prorrogação.",
            f"Protocol expired on {valid_to.isoformat()} with no visa or extension."))
        p.row["consequence"] = _rn31_irregular_consequence(ctx)
        b.finding(Finding("protocol_expired", Msg(
            f"{m.id}: protocolo do pedido de autorização de trabalho vencido em {_d(valid_to)}.",
            f"{m.id}: work authorization request protocol expired on {valid_to.isoformat()}."),
            pcite, subject=m.id))
    later_pt = later_en = ""
    if req is not first:
        later_pt = f"; protocolo em vigor: o de {_d(req.protocol_date)}"
        later_en = f"; protocol in force: that of {req.protocol_date.isoformat()}"
    b.step(f"person.{m.id}.documents",
           f"{m.id}: pedido protocolado em {_d(first.protocol_date)}"
           f"{' (fora do prazo)' if late else ' (no prazo)'}{later_pt}; o protocolo mantém a "
           f"estada regular por {days.value} dias, até {_d(valid_to)} → {p.verdict_word.pt}.",
           f"{m.id}: request filed on {first.protocol_date.isoformat()}"
           f"{' (late)' if late else ' (in time)'}{later_en}; the protocol keeps the stay "
           f"regular for {days.value} days, until {valid_to.isoformat()} → "
           f"{p.verdict_word.en}.", pcite)
    return p


def _rn31_alternative(ctx: _Ctx, p: _Person, variant: str, n: int) -> None:
    """Report the other reading of art. 9's start when it would change the verdict."""
    other = ("deadline_from_crew_entry" if variant == "deadline_from_operation_start"
             else "deadline_from_operation_start")
    start = _rn31_clock_start(ctx, p.m, other)
    if start is None:
        return
    alt = business_deadline(start, n, ctx.state)
    alt_verdict = "action_due" if ctx.on <= alt.deadline else "irregular"
    if alt_verdict != p.row["verdict"]:
        ctx.b.finding(Finding("alternative_reading_changes_verdict", Msg(
            f"{p.pid}: pela leitura alternativa (immigration.rn31.{other}) o prazo seria "
            f"{_d(alt.deadline)} e a situação, {PERSON_VERDICT_WORDS[alt_verdict].pt}.",
            f"{p.pid}: under the alternative reading (immigration.rn31.{other}) the deadline "
            f"would be {alt.deadline.isoformat()} and the status "
            f"{PERSON_VERDICT_WORDS[alt_verdict].en}."), None, "info",
            p.pid))


def _rn31_irregular_consequence(ctx: _Ctx) -> Msg:
    """RN 31/1998 art. 9 § 1º a contrario: without a protocol the stay is not regular."""
    ctx.b.cite(ctx.reg.cite("lei-6815-1980"))
    return Msg("Sem visto nem protocolo válido, o tripulante não tem estada regular e fica "
               "sujeito a multa (RN 31/1998 art. 9º, § 1º, a contrario; Lei 6.815/1980) — valores "
               "não modelados.",
               "Without a visa or a valid protocol the crew member's stay is not regular and "
               "liable to a fine (RN 31/1998 art. 9 §1, a contrario; Lei 6.815/1980) — amounts "
               "not modelled.")


def _bd_detail(bd: BusinessDeadline, kind: str, cite: Citation) -> dict[str, Any]:
    return {"kind": kind, "start": bd.start, "count": bd.count, "unit": "business_days",
            "state": bd.state, "deadline": bd.deadline, "counted": list(bd.counted),
            "skipped": [{"date": d, "name": name} for d, name in bd.skipped],
            "citation": cite, "text": bd.explain()}


# --- RN CNIg 06/2017 as amended by Res. CNIg 42/2020 -----------------------------------------

def _long_haul_in70(ctx: _Ctx, m: CrewMember, basis: tuple[str, str]) -> _Person:
    """IN SIT 70/2007 art. 13, IV: long-haul and international inland vessels' crews need no
    specific visa (while the instruction is in force)."""
    _check_person_input(m)
    p = _Person(ctx, m)
    cite = ctx.reg.cite(basis[0], basis[1])
    p.decide("none_long_haul", "regular", cite)
    p.note("Conferir a prova de escalas em portos estrangeiros (Diário de Navegação).",
           "Check the proof of calls at foreign ports (log book).")
    ctx.b.step(f"person.{m.id}.requirement",
               f"{m.id} ({p.row['nationality']}): embarcação de longo curso ou de navegação "
               "interior internacional — tripulantes dispensados de vistos específicos; regular.",
               f"{m.id} ({p.row['nationality']}): long-haul or international inland vessel — "
               "crew need no specific visa; regular.", cite)
    return p


def _entry_order(e: Entry) -> tuple[dt.date, bool, dt.date]:
    return period_order(e.date, e.exit)


def _check_person_input(m: CrewMember) -> None:
    """Reject overlapping entries and requests without a protocol date, naming the field
    (``crew[i].entries[j]``) or, for a crew file, the row and column."""
    indexed = sorted(enumerate(m.source.entries), key=lambda ie: _entry_order(ie[1]))
    for (_, a), (j, nxt) in itertools.pairwise(indexed):
        # Exit and re-entry on the same day is no overlap: that day is counted once.
        if a.exit is None or a.exit > nxt.date:
            field = f"{m.path}.entries[{j}]" if m.path else "entry_date"
            raise InputError(
                f"entradas sobrepostas de {m.id}: a entrada de {_d(nxt.date)} começa antes da "
                f"saída da anterior ({_d(a.exit) if a.exit else 'sem saída'})", field, m.file,
                m.row, message_en=f"overlapping entries of {m.id}: the entry of "
                f"{nxt.date.isoformat()} starts before the previous one's exit "
                f"({_iso(a.exit) if a.exit else 'no exit'})")
    for j, d in enumerate(m.source.documents):
        if d.type.endswith("_request") and d.protocol_date is None:
            field = f"{m.path}.documents[{j}].protocol_date" if m.path \
                else "document_protocol_date"
            raise InputError(f"pedido ({d.type}) de {m.id} sem data de protocolo", field,
                             m.file, m.row,
                             message_en=f"request ({d.type}) of {m.id} without protocol date")


def _entries_missing(m: CrewMember) -> InputError:
    """Interpretation ``immigration.entries.required``: a foreign person without entries."""
    return InputError(f"informe as entradas no país de {m.id}",
                      f"{m.path}.entries" if m.path else "entry_date", m.file, m.row,
                      message_en=f"give the entries into the country of {m.id}")


def _person_periods(ctx: _Ctx, m: CrewMember) -> list[Presence]:
    """The person's periods in Brazil: their entries, or (interpretation
    ``immigration.entries.vessel_presence``) the vessel's presence in AJB."""
    _check_person_input(m)
    entries = sorted(m.source.entries, key=_entry_order)
    if entries:
        return [Presence(e.date, e.exit, e.by, e.mandatory_crew_change) for e in entries]
    choice = ctx.b.interpret(resolve(PKG, "immigration.entries", ctx.options))
    field = f"{m.path}.entries" if m.path else "entry_date"
    if choice.variant == "required":
        raise _entries_missing(m)
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


def _res42_person(ctx: _Ctx, regime: Regime, m: CrewMember) -> _Person:
    """RN 06/2017 (Res. 42/2020) arts. 1, 3 §2, 5 and 11: visit visa or C185 exemption up to
    90 days of stay per migratory year; beyond, a residence authorization — and, for a
    continuous stay past 90 days, whatever the migratory year
    (``immigration.stay.continuous_beyond_year``)."""
    p = _Person(ctx, m)
    on, b = ctx.on, ctx.b
    periods = _person_periods(ctx, m)
    if not any(x.start <= on for x in periods):
        first = min(x.start for x in periods)
        p.decide("not_applicable", "not_applicable", None)
        p.note(f"Entrada prevista para {_d(first)}: ainda não está no país nesta data.",
               f"Entry expected on {first.isoformat()}: not yet in the country on this date.")
        b.step(f"person.{m.id}.stay", f"{m.id}: primeira entrada em {_d(first)}, após a data "
               "julgada — não avaliado.", f"{m.id}: first entry on {first.isoformat()}, after "
               "the date judged — not assessed.")
        return p
    limit = param("visit_stay_days", on)
    months = param("migratory_year_months", on)
    stay_reading = b.interpret(resolve(PKG, "immigration.stay", ctx.options))
    year_reading = b.interpret(resolve(PKG, "immigration.migratory_year", ctx.options))
    across = resolve(PKG, "immigration.stay_across_year", ctx.options)
    if not months.confirmed:
        b.unconfirmed(UnconfirmedParameter(
            "immigration.migratory_year_months", f"{months.value} meses", months.source,
            months.version or months.norm))
    art11 = ctx.cite(regime, limit.provision)
    inclusive = stay_reading.variant == "inclusive"
    sc = count_stay(periods, on, limit=int(limit.value), months=int(months.value),
                    inclusive=inclusive, year_reading=year_reading.variant,
                    continuous=across.variant == "continuous_beyond_year")
    # Stays booked ahead are the person's own entries (not the vessel's presence presumed).
    booked = scheduled_limit(periods, on, sc, months=int(months.value), inclusive=inclusive,
                             year_reading=year_reading.variant) if m.source.entries else None
    if sc.across_year:  # the stay runs across a migratory year: the reading decides
        b.interpret(across)
        b.cite(ctx.cite(regime, "art. 1º"))
    p.row["stay"] = _stay_row(sc, inclusive)
    cont_pt = cont_en = ""
    if sc.across_year and sc.continuous_start is not None:
        cont_pt = (f"; estada contínua desde {_d(sc.continuous_start)}: "
                   f"{_n(sc.continuous_days, 'dia', 'dias')}"
                   + ("" if sc.continuous else " (não contada: só o ano migratório conta)"))
        cont_en = (f"; continuous stay since {sc.continuous_start.isoformat()}: "
                   f"{_n(sc.continuous_days, 'day', 'days')}"
                   + ("" if sc.continuous else " (not counted: only the migratory year counts)"))
    whose_pt = " da estada contínua" if sc.limit_basis == "continuous_stay" else ""
    whose_en = " of the continuous stay" if sc.limit_basis == "continuous_stay" else ""
    b.step(f"person.{m.id}.stay",
           f"{m.id} ({p.row['nationality']}): ano migratório de {_d(sc.year_start)} a "
           f"{_d(sc.year_end)}; {_n(sc.days, 'dia', 'dias')} de estada em {_d(on)} (períodos: "
           + "; ".join(f"{_d(a)}–{_d(z)}: {n}" for a, z, n in sc.counted)
           + f"){cont_pt}; {limit.value}º dia{whose_pt}: {_d(sc.limit_date)}.",
           f"{m.id} ({p.row['nationality']}): migratory year {sc.year_start.isoformat()} to "
           f"{sc.year_end.isoformat()}; {_n(sc.days, 'day', 'days')} of stay on "
           f"{on.isoformat()} (periods: "
           + "; ".join(f"{a.isoformat()}–{z.isoformat()}: {n}" for a, z, n in sc.counted)
           + f"){cont_en}; day {limit.value}{whose_en}: {_iso(sc.limit_date)}.", art11,
           days=sc.days, year_start=sc.year_start, limit_date=sc.limit_date,
           continuous_start=sc.continuous_start, continuous_days=sc.continuous_days)
    if not sc.present:
        last = max((x for x in periods if x.start <= on), key=lambda x: x.start)
        p.decide("not_applicable", "not_applicable", None)
        p.note(f"Saída do país em {_d(last.end)}: não está no Brasil nesta data.",
               f"Left the country on {_iso(last.end)}: not in Brazil on this date.")
        b.finding(Finding("not_in_country", Msg(
            f"{m.id}: consta da lista, mas as entradas indicam saída em {_d(last.end)}.",
            f"{m.id}: listed aboard, but the entries show an exit on {_iso(last.end)}."),
            None, "warning", m.id))
        return p
    return _res42_decide(ctx, regime, p, sc, art11, int(limit.value), inclusive, booked)


def _stay_row(sc: StayCount, inclusive: bool) -> dict[str, Any]:
    """``days``: the count compared with the limit (the continuous stay's when it is larger
    and counts); ``year_days``: the migratory year's; ``basis``: which count gives
    ``limit_date`` (``migratory_year`` | ``continuous_stay``)."""
    return {"year_start": sc.year_start, "year_end": sc.year_end,
            "days": sc.effective_days, "year_days": sc.days,
            "continuous_start": sc.continuous_start, "continuous_days": sc.continuous_days,
            "across_year": sc.across_year, "basis": sc.limit_basis, "inclusive": inclusive,
            "limit": sc.limit, "limit_date": sc.limit_date, "planned_exit": sc.planned_exit,
            "periods": [{"from": a, "to": z, "days": n} for a, z, n in sc.counted]}


def _res42_decide(ctx: _Ctx, regime: Regime, p: _Person, sc: StayCount, art11: Citation,
                  limit: int, inclusive: bool, booked: dt.date | None = None) -> _Person:
    m, on, b = p.m, ctx.on, ctx.b
    docs = m.source.documents
    ra_cite = ctx.cite(regime, "art. 11, § 1º")
    b.cite(ctx.cite(regime, "art. 1º"))
    b.cite(ctx.cite(regime, "art. 5º"))
    ras = valid_documents(docs, "residence_authorization", on)
    if not ras and (tvs := valid_documents(docs, "temporary_visa", on)):
        # Art. 3: the temporary visa is granted on the prior residence authorization, so a
        # valid one shows the authorization held.
        b.step(f"person.{m.id}.temporary_visa",
               f"{m.id}: visto temporário válido — concedido com base na autorização de "
               "residência prévia (art. 3º), vale como a autorização.",
               f"{m.id}: valid temporary visa — granted on the prior residence authorization "
               "(art. 3), it stands for the authorization.", ctx.cite(regime, "art. 3º"))
        ras = tvs
    if ras:
        return _res42_ra_held(ctx, regime, p, max(ras, key=lambda d: d.valid_until
                                                    or dt.date.max))
    pending = pending_requests(docs, "residence_authorization", on)
    current = sc.current
    assert current is not None
    caput = True
    if current.by == "air":
        air = ctx.b.interpret(resolve(PKG, "immigration.air_entry", ctx.options))
        if current.mandatory_crew_change:
            # § 2º reaches "novos tripulantes" only: a person whose department is unknown (a
            # rank the table does not know, no department given) cannot be placed — the
            # input must say crew or not (immigration.md Inputs), never a guess.
            m.require(level=False, why=(
                " — a substituição obrigatória por via aérea (art. 11, § 2º) só alcança "
                "tripulantes", " — the mandatory crew change by air (art. 11 §2) reaches "
                "crew members only"))
            if not m.is_crew:
                # § 2º admits by air "novos tripulantes" of a mandatory crew change: a
                # non-crew professional (art. 2, II) is not one, whatever the entry says.
                b.step(f"person.{m.id}.air_entry_crew_change",
                       f"{m.id}: profissional não tripulante (art. 2º, II) — a substituição "
                       "obrigatória da tripulação (art. 11, § 2º) admite por via aérea os "
                       "novos tripulantes, não o alcança.",
                       f"{m.id}: non-crew professional (art. 2, II) — the mandatory crew "
                       "change (art. 11 §2) admits the new crew members by air, not them.",
                       ctx.cite(regime, "art. 11, § 2º"))
        if current.mandatory_crew_change and m.is_crew:
            cc = ctx.cite(regime, "art. 11, § 2º")
            pf = ctx.cite(regime, "art. 11, § 3º")
            b.step(f"person.{m.id}.air_entry",
                   f"{m.id}: entrada por via aérea em {_d(current.start)} para substituição "
                   "obrigatória da tripulação — aplica-se o art. 11 (§ 2º); a afretadora ou "
                   "contratante deve comprová-la à Polícia Federal (§ 3º).",
                   f"{m.id}: entry by air on {current.start.isoformat()} for a mandatory crew "
                   "change — art. 11 applies (§2); the charterer or contractor must prove it to "
                   "the Federal Police (§3).", cc)
            b.finding(Finding("pf_proof_mandatory_crew_change", Msg(
                f"{m.id}: comprovar à Polícia Federal a substituição obrigatória da tripulação "
                "com ingresso aéreo (afretadora ou contratante).",
                f"{m.id}: prove the mandatory crew change by air to the Federal Police "
                "(charterer or contractor)."), pf, "warning", m.id))
            p.note("Troca obrigatória de tripulação por via aérea: comprovação documental à "
                   "Polícia Federal pela afretadora ou contratante (art. 11, § 3º).",
                   "Mandatory crew change by air: documentary proof to the Federal Police by "
                   "the charterer or contractor (art. 11 §3).")
        elif air.variant == "crew_change_only":
            caput = False
            air_why = (("fora da substituição obrigatória da tripulação (não é tripulante)",
                        "outside the mandatory crew change (not a crew member)")
                       if current.mandatory_crew_change else
                       ("sem substituição obrigatória da tripulação",
                        "without a mandatory crew change"))
            b.step(f"person.{m.id}.air_entry",
                   f"{m.id}: entrada por via aérea em {_d(current.start)} {air_why[0]} — o art. 11 "
                   "só a admite excepcionalmente nesse caso (§ 2º): exige-se autorização de "
                   "residência.",
                   f"{m.id}: entry by air on {current.start.isoformat()} {air_why[1]} — art. 11 "
                   "admits it only exceptionally in that case (§2): a residence authorization "
                   "is required.", ctx.cite(regime, "art. 11, § 2º"))
    if not caput:
        cite = ctx.cite(regime, "art. 11, § 2º")
        if pending:
            return _res42_pending(ctx, p, cite, pending[0], None, sc)
        crew_pt, crew_en = (("fora da troca obrigatória de tripulação (não é tripulante)",
                             "outside the mandatory crew change (not a crew member)")
                            if current.mandatory_crew_change else
                            ("sem troca obrigatória de tripulação",
                             "without a mandatory crew change"))
        return _res42_irregular(ctx, regime, p, "residence_authorization", cite, Msg(
            f"{m.id}: entrou por via aérea {crew_pt} e não tem autorização de residência.",
            f"{m.id}: entered by air {crew_en} and holds no residence authorization."),
            "residence_authorization_missing")

    if not sc.past_limit:
        c185 = _holds_c185(p, on)
        base = "exempt_c185" if c185 else "visit_visa"
        if not c185 and not valid_documents(docs, "visit_visa", on):
            expired = [d for d in docs if d.type == "visit_visa"
                       and document_status(d, on) == "expired"]
            why = (f"visto de visita vencido em {_d(expired[0].valid_until)}" if expired else
                   "sem visto de visita nem documento OIT C185")
            why_en = (f"visit visa expired on {_iso(expired[0].valid_until)}" if expired else
                      "no visit visa and no ILO C185 document")
            p.note("Dispensas de visto de visita por nacionalidade (acordos de reciprocidade) "
                   "não estão modeladas: se a nacionalidade for dispensada, registre a dispensa "
                   "como documento visit_visa.", "Visit-visa waivers by nationality "
                   "(reciprocity agreements) are not modelled: if the nationality is exempt, "
                   "record the waiver as a visit_visa document.")
            return _res42_irregular(ctx, regime, p, "visit_visa", art11, Msg(
                f"{m.id}: {why}; em {_d(on)}, {sc.effective_days}º dia de estada.",
                f"{m.id}: {why_en}; on {_iso(on)}, day {sc.effective_days} of stay."),
                "visit_visa_missing")
        held_pt = "documento OIT C185 (isento de visto)" if c185 else "visto de visita válido"
        held_en = "ILO C185 document (visa-exempt)" if c185 else "valid visit visa"
        b.step(f"person.{m.id}.requirement",
               f"{m.id}: {_n(sc.effective_days, 'dia', 'dias')} de estada (até {limit}): "
               f"{held_pt}.", f"{m.id}: {_n(sc.effective_days, 'day', 'days')} of stay (up to "
               f"{limit}): {held_en}.", art11)
        if pending:
            return _res42_pending(ctx, p, ra_cite, pending[0], sc.limit_date, sc)
        # The first day the person stops being regular may come before day ``limit``: a
        # visit visa — or the C185 document that exempts from it — ending first (the later
        # of the two when both are held).
        covers = valid_documents(docs, "visit_visa", on)
        c185_docs = [d for d in docs if d.type == "sid_c185"]
        if c185:
            covers += [d for d in c185_docs if document_status(d, on) == "valid"]
        ends = [d.valid_until for d in covers]
        unbounded = (c185 and not c185_docs) or not ends or None in ends
        cover_end = None if unbounded else max(e for e in ends if e)
        early = cover_end is not None and sc.limit_date is not None \
            and cover_end < sc.limit_date
        exit_ = sc.planned_exit
        passes = exit_ is not None and sc.limit_date is not None and exit_ > sc.limit_date
        if passes or booked is not None:
            assert sc.limit_date is not None
            if passes:
                assert exit_ is not None
                action = Msg(f"A saída prevista ({_d(exit_)}) passa do {limit}º dia "
                             f"({_d(sc.limit_date)}): requerer autorização de residência antes "
                             "(art. 11, § 1º, e art. 5º).",
                             f"The planned exit ({exit_.isoformat()}) is past day {limit} "
                             f"({sc.limit_date.isoformat()}): request a residence authorization "
                             "before then (art. 11 §1 and art. 5).")
            else:
                assert booked is not None
                # The stays already booked in this migratory year add up past the limit.
                sc = dataclasses.replace(sc, limit_date=booked)
                action = Msg(f"As estadas já previstas neste ano migratório somam mais de "
                             f"{limit} dias (o {limit}º dia cai em {_d(booked)}): requerer "
                             "autorização de residência antes (art. 11, § 1º, e art. 5º).",
                             f"The stays already planned in this migratory year add up to more "
                             f"than {limit} days (day {limit} falls on {booked.isoformat()}): "
                             "request a residence authorization before then (art. 11 §1 and "
                             "art. 5).")
                # A document ending while the person is abroad is no deadline of this stay.
                early = cover_end is not None and cover_end < booked and (
                    exit_ is None or cover_end <= exit_)
            assert sc.limit_date is not None
            due: dt.date = cover_end if early and cover_end is not None else sc.limit_date
            if due != sc.limit_date:
                cover = Msg(f" O documento que cobre a estada vale só até {_d(due)}: "
                            "requerê-la até essa data.",
                            f" The document covering the stay is valid only until "
                            f"{due.isoformat()}: request it by then.")
                action = Msg(action.pt + cover.pt, action.en + cover.en)
                p.row["deadline_detail"] = {
                    "kind": "document_end", "start": due, "count": 0,
                    "unit": "calendar_days", "citation": art11, "text": Msg(
                        f"Documento (visto de visita ou OIT C185) válido até {_d(due)}, antes "
                        f"do {limit}º dia ({_d(sc.limit_date)}).",
                        f"Document (visit visa or ILO C185) valid until {due.isoformat()}, "
                        f"before day {limit} ({sc.limit_date.isoformat()}).")}
            elif not passes:
                p.row["deadline_detail"] = {
                    "kind": "stay_limit", "start": sc.year_start, "count": limit,
                    "unit": "calendar_days", "citation": art11, "text": Msg(
                        f"Ano migratório de {_d(sc.year_start)} a {_d(sc.year_end)}: somadas as "
                        f"estadas registradas, o {limit}º dia cai em {_d(sc.limit_date)}.",
                        f"Migratory year {sc.year_start.isoformat()} to "
                        f"{sc.year_end.isoformat()}: with the stays recorded added up, day "
                        f"{limit} falls on {sc.limit_date.isoformat()}.")}
            else:
                p.row["deadline_detail"] = _limit_detail(sc, art11, inclusive)
            p.decide("residence_authorization", "action_due", ra_cite, due, action)
            p.row["consequence"] = Msg(
                f"Sem a autorização, a estada após {_d(due)} será irregular.",
                f"Without the authorization, the stay after {due.isoformat()} will "
                "be irregular.")
            b.finding(Finding("residence_authorization_due", Msg(
                f"{m.id}: {action.pt}", f"{m.id}: {action.en}"), ra_cite, "warning", m.id))
            return p
        # The next deadline is the first day the person stops being regular (above).
        if early and cover_end is not None and sc.limit_date is not None:
            last = next(d for d in covers if d.valid_until == cover_end)
            what_pt, what_en = (("O documento OIT C185 (isenção de visto)", "The ILO C185 "
                                 "document (visa exemption)") if last.type == "sid_c185"
                                else ("O visto de visita", "The visit visa"))
            p.decide(base, "regular", art11, cover_end, Msg(
                f"{what_pt} vale até {_d(cover_end)}, antes do {limit}º dia "
                f"({_d(sc.limit_date)}): depois dele a estada só é regular com novo visto ou "
                "autorização de residência.",
                f"{what_en} is valid until {cover_end.isoformat()}, before day {limit} "
                f"({_iso(sc.limit_date)}): after it the stay is regular only with a new visa "
                "or a residence authorization."))
            return p
        p.decide(base, "regular", art11, sc.limit_date, Msg(
            f"Para permanecer após o {limit}º dia ({_d(sc.limit_date)}), requerer autorização "
            "de residência (art. 11, § 1º).",
            f"To stay beyond day {limit} ({_iso(sc.limit_date)}), request a residence "
            "authorization (art. 11 §1)."))
        p.row["deadline_detail"] = _limit_detail(sc, art11, inclusive)
        return p

    # Past the limit: a residence authorization (arts. 1, 5, 11 § 1º).
    past_on = add_days(sc.limit_date, 1) if sc.limit_date else None
    continuous = sc.limit_basis == "continuous_stay" and sc.continuous_start is not None
    if continuous:
        b.step(f"person.{m.id}.requirement",
               f"{m.id}: estada contínua desde {_d(sc.continuous_start)}, "
               f"{_n(sc.continuous_days, 'dia', 'dias')} ({_n(sc.days, 'dia', 'dias')} no ano "
               f"migratório iniciado em {_d(sc.year_start)}) — passou de {limit} dias em "
               f"{_d(past_on)}; a estada contínua acima de {limit} dias exige autorização de "
               "residência em qualquer ano migratório (arts. 1º, 5º e 11, § 1º).",
               f"{m.id}: continuous stay since {_iso(sc.continuous_start)}, "
               f"{_n(sc.continuous_days, 'day', 'days')} ({_n(sc.days, 'day', 'days')} in the "
               f"migratory year starting {sc.year_start.isoformat()}) — past {limit} days on "
               f"{_iso(past_on)}; a continuous stay over {limit} days requires a residence "
               "authorization in any migratory year (arts. 1, 5 and 11 §1).", ra_cite)
    else:
        b.step(f"person.{m.id}.requirement",
               f"{m.id}: {_n(sc.days, 'dia', 'dias')} de estada no ano migratório — passou de "
               f"{limit} dias em {_d(past_on)}: exige-se autorização de residência (arts. 1º, "
               "5º e 11, § 1º).",
               f"{m.id}: {_n(sc.days, 'day', 'days')} of stay in the migratory year — past "
               f"{limit} days on {_iso(past_on)}: a residence authorization is required "
               "(arts. 1, 5 and 11 §1).", ra_cite)
    if pending:
        return _res42_pending(ctx, p, ra_cite, pending[0], sc.limit_date, sc)
    expired = [d for d in docs if d.type == "residence_authorization"
               and document_status(d, on) == "expired"]
    kind_pt = (f"de estada contínua desde {_d(sc.continuous_start)}" if continuous
               else "de estada")
    kind_en = (f"of continuous stay since {_iso(sc.continuous_start)}" if continuous
               else "of stay")
    days = sc.effective_days
    # The day count is the date judged's, not the expiry's: said with its date.
    text = (Msg(f"{m.id}: autorização de residência vencida em "
                f"{_d(expired[0].valid_until)}; em {_d(on)}, {days}º dia {kind_pt}.",
                f"{m.id}: residence authorization expired on "
                f"{_iso(expired[0].valid_until)}; on {_iso(on)}, day {days} {kind_en}.")
            if expired else
            Msg(f"{m.id}: {_n(days, 'dia', 'dias')} {kind_pt}, acima de {limit}, sem "
                "autorização de residência requerida.",
                f"{m.id}: {_n(days, 'day', 'days')} {kind_en}, over {limit}, with no "
                "residence authorization requested."))
    return _res42_irregular(ctx, regime, p, "residence_authorization", ra_cite, text,
                            "residence_authorization_expired" if expired
                            else "residence_authorization_missing")


def _holds_c185(p: _Person, on: dt.date) -> bool:
    """ILO C185 seafarer identity document: the ``sid_c185`` flag or a ``sid_c185`` document;
    when documents of that type are given, one must be valid on the date."""
    docs = [d for d in p.m.source.documents if d.type == "sid_c185"]
    if docs:
        ok = any(document_status(d, on) == "valid" for d in docs)
        if not ok:
            p.note("Documento OIT C185 fora da validade nesta data: sem isenção de visto.",
                   "ILO C185 document not valid on this date: no visa exemption.")
        return ok
    return p.m.source.sid_c185


def _limit_detail(sc: StayCount, cite: Citation, inclusive: bool) -> dict[str, Any]:
    """How the date of the ``limit``-th day was reached, by the count that gives it."""
    entry_pt = "o dia da entrada conta" if inclusive else "o dia da entrada não conta"
    entry_en = "the entry day counts" if inclusive else "the entry day does not count"
    year_pt = (f"{_n(sc.days, 'dia', 'dias')} de estada no ano migratório iniciado em "
               f"{_d(sc.year_start)}")
    year_en = (f"{_n(sc.days, 'day', 'days')} of stay in the migratory year starting "
               f"{sc.year_start.isoformat()}")
    if sc.limit_basis == "continuous_stay" and sc.continuous_start is not None:
        start = sc.continuous_start
        text = Msg(f"{_n(sc.continuous_days, 'dia', 'dias')} de estada contínua desde "
                   f"{_d(start)}, sem dia fora do país ({entry_pt}), contados em qualquer ano "
                   f"migratório; o {sc.limit}º dia dessa estada é {_d(sc.limit_date)} se a "
                   f"pessoa permanecer ({year_pt}).",
                   f"{_n(sc.continuous_days, 'day', 'days')} of continuous stay since "
                   f"{start.isoformat()}, with no day outside the country ({entry_en}), "
                   f"counted across migratory years; day {sc.limit} of that stay is "
                   f"{_iso(sc.limit_date)} if the person stays ({year_en}).")
    else:
        start = sc.year_start
        text = Msg(f"{year_pt} ({entry_pt}); o {sc.limit}º dia é {_d(sc.limit_date)} se a "
                   "pessoa permanecer.",
                   f"{year_en} ({entry_en}); day {sc.limit} is {_iso(sc.limit_date)} if the "
                   "person stays.")
    return {"kind": "stay_limit", "start": start, "count": sc.limit, "unit": "calendar_days",
            "basis": sc.limit_basis, "deadline": sc.limit_date, "citation": cite, "text": text}


def _res42_ra_held(ctx: _Ctx, regime: Regime, p: _Person, ra: Document) -> _Person:
    m, on, b = p.m, ctx.on, ctx.b
    years = param("residence_authorization_max_years", on)
    cite = ctx.cite(regime, years.provision)
    if ra.issued_on and ra.valid_until and ra.valid_until > add_years(ra.issued_on, years.value):
        b.finding(Finding("residence_authorization_beyond_maximum", Msg(
            f"{m.id}: autorização de residência de {_d(ra.issued_on)} a {_d(ra.valid_until)} "
            f"excede o prazo máximo de {years.value} anos (art. 3º, § 2º).",
            f"{m.id}: residence authorization from {_iso(ra.issued_on)} to "
            f"{_iso(ra.valid_until)} exceeds the {years.value}-year maximum (art. 3 §2)."),
            cite, "warning", m.id))
    p.decide("residence_authorization", "regular", cite, ra.valid_until)
    if ra.valid_until:
        p.note(f"Válida até {_d(ra.valid_until)}; a renovação é disciplinada em resolução "
               "específica (art. 12), não modelada.", f"Valid until {_iso(ra.valid_until)}; "
               "renewal is governed by a specific resolution (art. 12), not modelled.")
    b.step(f"person.{m.id}.documents",
           f"{m.id}: autorização de residência válida em {_d(on)}"
           f"{f' (até {_d(ra.valid_until)})' if ra.valid_until else ''} — regular.",
           f"{m.id}: residence authorization valid on {on.isoformat()}"
           f"{f' (until {ra.valid_until.isoformat()})' if ra.valid_until else ''} — regular.",
           cite)
    return p


def _res42_pending(ctx: _Ctx, p: _Person, cite: Citation, req: Document,
                   limit_date: dt.date | None, sc: StayCount) -> _Person:
    m, b = p.m, ctx.b
    assert req.protocol_date is not None
    late = limit_date is not None and req.protocol_date > limit_date
    p.decide("residence_authorization", "action_due", cite,
             limit_date if limit_date and limit_date >= ctx.on else None, Msg(
                 f"Autorização de residência requerida em {_d(req.protocol_date)}: aguarda "
                 "decisão do Ministério da Justiça e Segurança Pública.",
                 f"Residence authorization requested on {req.protocol_date.isoformat()}: "
                 "awaiting the Ministry of Justice and Public Security's decision."))
    p.row["consequence"] = Msg("Se indeferida, a estada além de 90 dias é irregular.",
                               "If refused, the stay beyond 90 days is irregular.")
    b.finding(Finding("residence_authorization_pending", Msg(
        f"{m.id}: autorização de residência requerida em {_d(req.protocol_date)}, aguardando "
        "decisão.", f"{m.id}: residence authorization requested on "
        f"{req.protocol_date.isoformat()}, awaiting decision."), cite, "warning", m.id))
    if late:
        b.finding(Finding("residence_authorization_request_late", Msg(
            f"{m.id}: pedido feito em {_d(req.protocol_date)}, depois do {sc.limit}º dia "
            f"({_d(limit_date)}).", f"{m.id}: request filed on "
            f"{req.protocol_date.isoformat()}, after day {sc.limit} ({_iso(limit_date)})."),
            cite, "warning", m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: pedido de autorização de residência protocolado em "
           f"{_d(req.protocol_date)} → providência pendente.",
           f"{m.id}: residence authorization request filed on "
           f"{req.protocol_date.isoformat()} → action due.", cite)
    return p


def _res42_irregular(ctx: _Ctx, regime: Regime, p: _Person, requirement: str,
                     cite: Citation, text: Msg, finding_id: str) -> _Person:
    p.decide(requirement, "irregular", cite)
    p.row["consequence"] = _res42_consequence(ctx)
    ctx.b.finding(Finding(finding_id, text, cite, subject=p.pid))
    ctx.b.step(f"person.{p.pid}.verdict", f"{text.pt} → irregular.", f"{text.en} → irregular.",
               cite)
    return p


def _res42_consequence(ctx: _Ctx) -> Msg:
    """A person's consequence: the auto de infração while IN SIT 70/2007 is in force; after
    it, the same wording as the vessel's consequence (the procedure of the date is not
    modelled)."""
    t = regime_tables().consequence
    ctx.b.cite(ctx.reg.cite("lei-13445-2017"))
    police = Msg("sanções migratórias (Lei nº 13.445/2017) a cargo da Polícia Federal, não "
                 "modeladas", "migration sanctions (Lei 13.445/2017) by the Federal Police, "
                 "not modelled")
    if in_force(t["procedure"]["norm"], ctx.on):
        return Msg("Estada irregular: auto de infração contra a empresa brasileira contratante "
                   f"(art. 444 da CLT, ementa {t['ementa']}; {t['procedure']['short']}, "
                   f"{t['procedure']['provision']}); {police.pt}.",
                   "Irregular stay: infraction notice against the Brazilian contracting company "
                   f"(CLT art. 444, code {t['ementa']}; {t['procedure']['short']}, "
                   f"{t['procedure']['provision']}); {police.en}.")
    proc = _procedure_not_modelled(ctx, Msg("a empresa brasileira contratante",
                                            "the Brazilian contracting company"))
    return Msg(f"Estada irregular: {police.pt}. {proc.pt}",
               f"Irregular stay: {police.en}. {proc.en}")


def _procedure_not_modelled(ctx: _Ctx, who: Msg) -> Msg:
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
               f"partir de {_d(revoked)} — {now_pt}.",
               f"Procedure of {short}, {prov} ({what_en}); revoked with effect from "
               f"{revoked.isoformat()} — {now_en}.")


# --- overall ----------------------------------------------------------------------------------

def _finish(ctx: _Ctx, regime: Regime, persons: list[_Person], result: dict[str, Any]
            ) -> Decision:
    b = ctx.b
    # A violation resting on a stay counted from the vessel's presence (no entries given:
    # immigration.entries.vessel_presence) says so in its own words: a notification or an
    # auto quoting it must not state as fact what the crew list did not record.
    presumed = {p.pid for p in persons if not p.m.source.entries}
    b.findings = [dataclasses.replace(f, text=Msg(
        f"{f.text.pt.rstrip('.')} (entradas não informadas: estada contada pelos períodos da "
        "embarcação em AJB).", f"{f.text.en.rstrip('.')} (entries not given: stay counted "
        "from the vessel's periods in AJB).")) if f.severity == "violation"
        and f.subject in presumed else f for f in b.findings]
    verdicts = [p.row["verdict"] for p in persons]
    irregular = [p.pid for p in persons if p.row["verdict"] == "irregular"]
    due = [p.pid for p in persons if p.row["verdict"] == "action_due"]
    regular = [p.pid for p in persons if p.row["verdict"] == "regular"]
    result["counts"] = {v: verdicts.count(v) for v in ("regular", "irregular", "action_due",
                                                       "not_applicable")}
    label = ctx.reg[regime.version].label
    na = [p.pid for p in persons if p.row["verdict"] == "not_applicable"]
    parts_pt = [f"{_n(len(irregular), 'irregular', 'irregulares')} ({', '.join(irregular)})"
                if irregular else "",
                f"{len(due)} com providência pendente ({', '.join(due)})" if due else "",
                _n(len(regular), "regular", "regulares") if regular else "",
                f"{len(na)} não aplicável ({', '.join(na)})" if len(na) == 1 else
                f"{len(na)} não aplicáveis ({', '.join(na)})" if na else ""]
    parts_en = [f"{len(irregular)} irregular ({', '.join(irregular)})" if irregular else "",
                f"{len(due)} with action due ({', '.join(due)})" if due else "",
                f"{len(regular)} regular" if regular else "",
                f"{len(na)} not applicable ({', '.join(na)})" if na else ""]
    detail_pt = "; ".join(x for x in parts_pt if x)
    detail_en = "; ".join(x for x in parts_en if x)
    if irregular:
        _consequence(ctx, result)
        verdict = Verdict.NON_COMPLIANT
        summary = Msg(f"Não conforme ({label}) — estrangeiros: {detail_pt}.",
                      f"Non-compliant ({label}) — foreign persons: {detail_en}.")
    elif len(na) == len(persons):
        verdict = Verdict.NOT_APPLICABLE
        summary = Msg(f"Não aplicável ({label}) — estrangeiros: {detail_pt}.",
                      f"Not applicable ({label}) — foreign persons: {detail_en}.")
    else:
        verdict = Verdict.COMPLIANT
        summary = Msg(f"Conforme ({label}) — estrangeiros: {detail_pt}.",
                      f"Compliant ({label}) — foreign persons: {detail_en}.")
    b.step("verdict", summary.pt, summary.en)
    result["regime_applied"] = True
    return b.build(verdict, regime.version, summary, result=result)


def _consequence(ctx: _Ctx, result: dict[str, Any]) -> None:
    """IN SIT 70/2007 art. 14: a breach of the CNIg resolutions → auto de infração against
    the Brazilian contracting company (CLT art. 444, ementa 001139-8), while in force."""
    t = regime_tables().consequence
    proc_norm = t["procedure"]["norm"]
    company = ctx.case.operation.brazilian_company
    who = company.name if company and company.name else "a empresa brasileira contratante"
    who_en = company.name if company and company.name else "the Brazilian contracting company"
    if in_force(proc_norm, ctx.on):
        clt = ctx.reg.cite(t["clt"]["norm"], t["clt"]["provision"])
        proc = ctx.reg.cite(proc_norm, t["procedure"]["provision"])
        ctx.b.cite(clt)
        ctx.b.cite(proc)
        result["consequences"] = [{
            "id": "auto_de_infracao_clt_444", "status": "in_force", "ementa": t["ementa"],
            "citations": [clt, proc],
            "text": Msg(f"Lavrar auto de infração contra {who} por descumprimento de resolução "
                        f"normativa do CNIg (art. 444 da CLT, ementa {t['ementa']}).",
                        f"Issue an infraction notice against {who_en} for breach of a CNIg "
                        f"normative resolution (CLT art. 444, code {t['ementa']})."),
        }]
        return
    norm = ctx.reg[proc_norm]
    citations: list[Citation] = []
    if norm.in_force_from > ctx.on:  # before IN SIT 70/2007 (the RN 31/1998 years)
        text = Msg(f"O procedimento de inspeção vigente em {_d(ctx.on)} não está modelado (a "
                   f"{t['procedure']['short']}, {t['procedure']['provision']} — auto de "
                   f"infração, art. 444 da CLT — só vigora a partir de "
                   f"{_d(norm.in_force_from)}).",
                   f"The inspection procedure in force on {ctx.on.isoformat()} is not modelled "
                   f"({t['procedure']['short']}, {t['procedure']['provision']} — infraction "
                   f"notice, CLT art. 444 — is in force only from "
                   f"{norm.in_force_from.isoformat()}).")
    else:
        text = _procedure_not_modelled(ctx, Msg(who, who_en))
        # CLT art. 444 is still the provision of the ementa; the procedure is not modelled.
        citations = [ctx.reg.cite(t["clt"]["norm"], t["clt"]["provision"])]
        ctx.b.cite(citations[0])
    ctx.b.step("consequence.procedure", text.pt, text.en)
    result["consequences"] = [{"id": "procedure_not_modelled", "status": "not_modelled",
                               "ementa": t["ementa"], "citations": citations, "text": text}]

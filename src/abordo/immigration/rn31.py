"""RN CNIg 31/1998 (immigration.md): foreign crew of a foreign vessel operating in AJB —
temporary visa (art. 1), long-haul waiver (art. 2), the 8-business-day work authorization
request and the 30-day protocol (art. 9), the extension (art. 10), non-crew professionals
(art. 14).

Package-internal: ``rn31_person`` is called by :mod:`abordo.immigration.engine`; it is not a
public API.
"""

from __future__ import annotations

import datetime as dt

from abordo.crew.model import Document
from abordo.crew.ranks import CrewMember
from abordo.immigration.context import (
    PERSON_VERDICT_WORDS,
    Ctx,
    Person,
    bd_detail,
    br_day,
    check_person_input,
    entries_missing,
    iso_day,
    unconfirmed_start,
)
from abordo.immigration.rules import (
    DOC_TYPES,
    PKG,
    BusinessDeadline,
    Presence,
    Regime,
    business_deadline,
    document_status,
    is_request,
    operation_start,
    param,
    pending_requests,
    period_order,
    requested_type,
    requests_filed,
    valid_documents,
)
from abordo.law.calendar import add_days, add_years
from abordo.law.decision import Citation, Finding, Msg
from abordo.law.errors import InputError
from abordo.law.interpretations import resolve

# --- RN CNIg 31/1998 --------------------------------------------------------------------------

def rn31_person(ctx: Ctx, regime: Regime, m: CrewMember) -> Person:
    check_person_input(m)
    p = Person(ctx, m)
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


def _rn31_not_in_country(ctx: Ctx, regime: Regime, p: Person) -> bool:
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
        raise entries_missing(m)
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
        pt, en = ((f"Entrada prevista para {br_day(first)}",
                   f"Entry expected on {first.isoformat()}")
                  if own else (f"A embarcação só entra nas AJB em {br_day(first)}",
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
    pt, en = ((f"as entradas indicam saída do país em {br_day(left)}",
               f"the entries show an exit from the country on {left.isoformat()}") if own
              else (f"a embarcação saiu das AJB em {br_day(left)}",
                    f"the vessel left AJB on {left.isoformat()}"))
    p.decide("not_applicable", "not_applicable", stay_cite)
    p.note(f"Não está no Brasil nesta data: {pt}.", f"Not in Brazil on this date: {en}.")
    b.finding(Finding("not_in_country", Msg(f"{m.id}: consta da lista, mas {pt}.",
                                            f"{m.id}: listed aboard, but {en}."),
                      stay_cite, "warning", m.id))
    b.step(f"person.{m.id}.stay", f"{m.id}: {pt}, antes da data julgada — não avaliado.",
           f"{m.id}: {en}, before the date judged — not assessed.", stay_cite)
    return True


def _rn31_long_haul(ctx: Ctx, regime: Regime, p: Person) -> Person:
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


def _rn31_temporary_visa(ctx: Ctx, regime: Regime, p: Person) -> Person:
    """RN 31/1998 arts. 1, 2 sole paragraph, 9 and 10: temporary visa, the 8-business-day
    request, the 30-day protocol and the extension request."""
    m, on, b = p.m, ctx.on, ctx.b
    # Art. 1: the crew of a foreign vessel operating in AJB under a charter, services or
    # risk contract with a Brazilian company — a vessel chartered for cabotage included. Art.
    # 2 sole paragraph concerns "a embarcação mencionada no caput" (a long-haul vessel) later
    # "afretada para navegação de cabotagem", and sends it back to art. 1 ("o visto será
    # exigido nos termos do artigo 1º"): the basis cited is art. 1 either way, the sole
    # paragraph is only said in the trace (the input does not tell whether the vessel came
    # in on a long-haul voyage first).
    cabotage = ctx.activity in regime.cabotage_activities \
        and ctx.case.operation.contract.value == "charter"
    cite = ctx.cite(regime, regime.contract_provision or "art. 1º")
    docs = _rn31_this_stay(ctx, p)
    max_years = param("temporary_visa_max_years", on)
    for d in docs:
        if d.type == "temporary_visa" and d.issued_on and d.valid_until and \
                d.valid_until > add_years(d.issued_on, max_years.value):
            b.finding(Finding("temporary_visa_beyond_maximum", Msg(
                f"{m.id}: visto temporário de {br_day(d.issued_on)} a {br_day(d.valid_until)} "
                f"excede o prazo máximo de {max_years.value} anos (art. 1º).",
                f"{m.id}: temporary visa from {iso_day(d.issued_on)} to {iso_day(d.valid_until)} "
                f"exceeds the {max_years.value}-year maximum (art. 1)."),
                ctx.cite(regime, max_years.provision), "warning", m.id))
    sole = regime.cabotage_provision or "art. 2º, parágrafo único"
    why_pt = ("embarcação estrangeira afretada para cabotagem por empresa brasileira (art. 1º; "
              "a que chegou em viagem de longo curso e foi depois afretada para cabotagem "
              f"segue o mesmo art. 1º, por remissão do {sole})"
              if cabotage else "embarcação estrangeira em operação nas AJB por contrato com "
              "empresa brasileira (art. 1º)")
    why_en = ("foreign vessel chartered for cabotage by a Brazilian company (art. 1; one that "
              "came in on a long-haul voyage and was later chartered into cabotage follows the "
              "same art. 1, as art. 2 sole paragraph provides)" if cabotage
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
               f"{m.id}: autorização de trabalho válida em {br_day(on)} — regular.",
               f"{m.id}: work authorization valid on {on.isoformat()} — regular.",
               ctx.cite(regime, "art. 7º"))
        return p
    return _rn31_request_clock(ctx, regime, p, cite)


def _rn31_visa_held(ctx: Ctx, regime: Regime, p: Person, cite: Citation, visa: Document
                    ) -> Person:
    """A valid temporary visa: regular; the next deadline is the extension request, due up to
    30 days before the stay granted ends (art. 10 § 1º)."""
    m, on, b = p.m, ctx.on, ctx.b
    if visa.valid_until is None:
        p.decide("temporary_visa", "regular", cite)
        b.step(f"person.{m.id}.documents", f"{m.id}: visto temporário válido em {br_day(on)}.",
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
                  f"Estada concedida até {br_day(visa.valid_until)}; o pedido de prorrogação deve "
                  f"ser protocolado até {before.value} dias antes: {br_day(ext_deadline)}.",
                  f"Stay granted until {visa.valid_until.isoformat()}; the extension request "
                  f"must be filed up to {before.value} days before: {ext_deadline.isoformat()}.")}
    p.row["deadline_detail"] = detail
    if filed:
        p.decide("temporary_visa", "regular", cite, visa.valid_until)
        p.note(f"Prorrogação pedida em {br_day(filed[0].protocol_date)}, no prazo (art. 10, § 1º).",
               f"Extension requested on {iso_day(filed[0].protocol_date)}, in time (art. 10 §1).")
    elif on <= ext_deadline:
        due = on >= add_days(ext_deadline, -notice.value)
        action = Msg(f"Protocolar o pedido de prorrogação até {br_day(ext_deadline)} (se a estada "
                     "for continuar).", f"File the extension request by "
                     f"{ext_deadline.isoformat()} (if the stay is to continue).")
        p.decide("temporary_visa", "action_due" if due else "regular", cite, ext_deadline,
                 action)
        if due:
            b.cite(ctx.reg.cite("lei-6815-1980"))
            p.row["consequence"] = Msg(
                f"Sem o pedido até {br_day(ext_deadline)}, a estada termina em "
                f"{br_day(visa.valid_until)}; depois disso, sem visto nem protocolo, a estada não "
                "é regular e fica sujeita a multa (Lei 6.815/1980) — valores não modelados.",
                f"Without the request by {ext_deadline.isoformat()}, the stay ends on "
                f"{visa.valid_until.isoformat()}; after that, with no visa or protocol, the stay "
                "is not regular and liable to a fine (Lei 6.815/1980) — amounts not modelled.")
            b.finding(Finding("extension_request_due", Msg(
                f"{m.id}: pedido de prorrogação do visto temporário até {br_day(ext_deadline)}.",
                f"{m.id}: temporary visa extension request due by "
                f"{ext_deadline.isoformat()}."), ext_cite, "warning", m.id))
    else:
        action = Msg(f"Prazo do pedido de prorrogação vencido em {br_day(ext_deadline)}: a estada "
                     f"termina em {br_day(visa.valid_until)}.",
                     f"The extension request deadline passed on {ext_deadline.isoformat()}: "
                     f"the stay ends on {visa.valid_until.isoformat()}.")
        p.decide("temporary_visa", "action_due", cite, visa.valid_until, action)
        b.cite(ctx.reg.cite("lei-6815-1980"))
        p.row["consequence"] = Msg(
            f"Depois de {br_day(visa.valid_until)}, sem visto nem protocolo, a estada não é "
            "regular e fica sujeita a multa (Lei 6.815/1980) — valores não modelados.",
            f"After {visa.valid_until.isoformat()}, with no visa or protocol, the stay is not "
            "regular and liable to a fine (Lei 6.815/1980) — amounts not modelled.")
        b.finding(Finding("extension_request_missed", Msg(
            f"{m.id}: {action.pt}", f"{m.id}: {action.en}"), ext_cite, "warning", m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: visto temporário válido até {br_day(visa.valid_until)}; prorrogação a "
           f"pedir até {br_day(ext_deadline)} → {p.verdict_word.pt}.",
           f"{m.id}: temporary visa valid until {visa.valid_until.isoformat()}; extension to "
           f"request by {ext_deadline.isoformat()} → {p.verdict_word.en}.", ext_cite,
           deadline=ext_deadline)
    return p


def _rn31_this_stay(ctx: Ctx, p: Person) -> list[Document]:
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
        p.note(f"Documentos de operação anterior (saída do país em {br_day(left)}, antes da "
               f"entrada da embarcação nas AJB em {br_day(op)}; nova entrada em "
               f"{br_day(entry)}) não valem para esta: {names}.",
               f"Documents of an earlier operation (left the country on {iso_day(left)}, before "
               f"the vessel's entry into AJB on {iso_day(op)}; entered again on "
               f"{iso_day(entry)}) do not serve this one: {names_en}.")
        ctx.b.step(f"person.{m.id}.earlier_stay",
                   f"{m.id}: saiu do país em {br_day(left)} e entrou de novo em {br_day(entry)}; "
                   f"{names} da operação anterior (vencido antes da nova entrada, ou pedido "
                   "protocolado antes da saída) não contam para a operação atual.",
                   f"{m.id}: left the country on {iso_day(left)} and entered again on "
                   f"{iso_day(entry)}; {names_en} of the earlier operation (expired before the new "
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


def _rn31_extension_held(ctx: Ctx, regime: Regime, p: Person, cite: Citation,
                         visa: Document, earlier: int) -> Person:
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
        "text": Msg(f"Visto temporário já prorrogado: a estada termina em {br_day(end)} (art. 10: "
                    f"uma prorrogação de até {limit.value} anos, vedada a transformação em "
                    "permanente).",
                    f"Temporary visa already extended: the stay ends on {end.isoformat()} "
                    f"(art. 10: one extension of up to {limit.value} years, never turned "
                    "permanent).")}
    p.decide("temporary_visa", "regular", cite, end, Msg(
        f"A estada prorrogada termina em {br_day(end)}; nova prorrogação não é prevista (art. 10).",
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
           f"{m.id}: visto temporário prorrogado, válido até {br_day(end)} → "
           f"{p.verdict_word.pt}.",
           f"{m.id}: extended temporary visa, valid until {end.isoformat()} → "
           f"{p.verdict_word.en}.", cite10, deadline=end)
    return p


def _rn31_extension_once(ctx: Ctx) -> bool:
    """Art. 10 read as one extension (``immigration.rn31.extension.once``, listed where it
    decides) or as extensions of up to two years each (``.renewable``)."""
    reading = ctx.b.interpret(resolve(PKG, "immigration.rn31.extension", ctx.options))
    return reading.variant == "once"


def _rn31_extension_expired(ctx: Ctx, regime: Regime, p: Person, cite: Citation,
                            visa: Document) -> Person:
    """The extended stay is over: art. 10 gives no further extension — irregular, whatever
    was requested."""
    m, on, b = p.m, ctx.on, ctx.b
    assert visa.valid_until is not None
    limit = param("temporary_visa_extension_max_years", on)
    cite10 = ctx.cite(regime, limit.provision)
    p.decide("temporary_visa", "irregular", cite10)
    p.row["consequence"] = _rn31_irregular_consequence(ctx)
    b.finding(Finding("extended_stay_ended", Msg(
        f"{m.id}: estada prorrogada terminou em {br_day(visa.valid_until)}; o art. 10 não prevê "
        "nova prorrogação (vedada a transformação em permanente).",
        f"{m.id}: the extended stay ended on {visa.valid_until.isoformat()}; art. 10 provides "
        "for no further extension (never turned permanent)."), cite10, subject=m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: visto temporário prorrogado vencido em {br_day(visa.valid_until)} → "
           f"{p.verdict_word.pt}.",
           f"{m.id}: extended temporary visa expired on {visa.valid_until.isoformat()} → "
           f"{p.verdict_word.en}.", cite10)
    return p


def _rn31_visa_expired(ctx: Ctx, regime: Regime, p: Person, cite: Citation, visa: Document
                       ) -> Person:
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
            f"{m.id}: visto vencido em {br_day(visa.valid_until)}, prorrogação pedida em "
            f"{br_day(filed[0].protocol_date)} aguardando decisão.",
            f"{m.id}: visa expired on {visa.valid_until.isoformat()}, extension requested on "
            f"{iso_day(filed[0].protocol_date)} awaiting decision."), ext_cite, "warning", m.id))
    else:
        p.decide("temporary_visa", "irregular", cite)
        p.row["consequence"] = _rn31_irregular_consequence(ctx)
        b.finding(Finding("temporary_visa_expired", Msg(
            f"{m.id}: visto temporário vencido em {br_day(visa.valid_until)}, sem prorrogação "
            "pedida no prazo.", f"{m.id}: temporary visa expired on "
            f"{visa.valid_until.isoformat()}, no extension requested in time."), cite,
            subject=m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: visto temporário vencido em {br_day(visa.valid_until)} → {p.verdict_word.pt}.",
           f"{m.id}: temporary visa expired on {visa.valid_until.isoformat()} → "
           f"{p.verdict_word.en}.", ext_cite)
    return p


def _crew_entry(m: CrewMember, on: dt.date) -> dt.date | None:
    """The person's latest entry into Brazil on or before ``on``."""
    past = [e.date for e in m.source.entries if e.date <= on]
    return max(past) if past else None


def _rn31_clock_start(ctx: Ctx, m: CrewMember, variant: str) -> dt.date | None:
    periods = [(p.entry, p.exit) for p in ctx.case.operation.ajb_presence]
    op = operation_start(periods, ctx.on)
    if variant == "deadline_from_crew_entry":
        entry = _crew_entry(m, ctx.on)
        if entry is not None:
            return max(entry, op) if op else entry
    return op


def _rn31_request_clock(ctx: Ctx, regime: Regime, p: Person, cite: Citation) -> Person:
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
    unconfirmed_start(ctx, regime, start)  # a deadline counted from a day of that year
    p.row["deadline_detail"] = bd_detail(bd, "work_authorization_request", art9)
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
    if on <= bd.deadline:
        action = Msg(f"A afretadora deve protocolar o pedido de autorização de trabalho até "
                     f"{br_day(bd.deadline)}.", f"The charterer must file the work "
                     f"authorization request by {bd.deadline.isoformat()}.")
        p.decide("temporary_visa", "action_due", cite, bd.deadline, action)
        p.row["consequence"] = Msg(
            f"Sem o protocolo até {br_day(bd.deadline)}, o tripulante passa à situação irregular.",
            f"Without the protocol by {bd.deadline.isoformat()}, the crew member becomes "
            "irregular.")
        b.finding(Finding("work_authorization_request_due", Msg(
            f"{m.id}: pedido de autorização de trabalho a protocolar até {br_day(bd.deadline)}.",
            f"{m.id}: work authorization request to be filed by {bd.deadline.isoformat()}."),
            art9, "warning", m.id))
    else:
        # The deadline has passed: no deadline lies ahead until a request is filed. Art. 9
        # § 1º gives the protocol its effect (it "permitirá o exercício da atividade e manterá
        # os titulares em situação regular de estada") and § 2º its 30 days, extendable; the
        # article says nothing of a request filed after the 8 business days making up for
        # them, so the action states the protocol's effect and no more (the engine judges a
        # late protocol by its days, the lateness a warning: see _rn31_protocol).
        days = param("protocol_validity_days", on)
        action = Msg(f"Prazo vencido em {br_day(bd.deadline)} sem protocolo do pedido de "
                     "autorização de trabalho (art. 9º): protocolar o pedido. O protocolo "
                     "permite o exercício da atividade e mantém os titulares em situação "
                     f"regular de estada (art. 9º, § 1º), com validade de {days.value} dias, "
                     "prorrogáveis (§ 2º); o art. 9º não diz que um pedido fora do prazo "
                     "supre o atraso.",
                     f"Deadline passed on {bd.deadline.isoformat()} with no work authorization "
                     "request filed (art. 9): file the request. The protocol allows the work "
                     "and keeps the holders' stay regular (art. 9 §1), valid for "
                     f"{days.value} days, extendable (§2); art. 9 does not say that a late "
                     "request makes up for the missed deadline.")
        p.decide("temporary_visa", "irregular", cite, bd.deadline, action)
        p.row["consequence"] = _rn31_irregular_consequence(ctx)
        b.finding(Finding("work_authorization_request_overdue", Msg(
            f"{m.id}: sem visto temporário nem protocolo do pedido de autorização de trabalho; "
            f"o prazo venceu em {br_day(bd.deadline)}.",
            f"{m.id}: no temporary visa and no work authorization request protocol; the "
            f"deadline passed on {bd.deadline.isoformat()}."), art9, subject=m.id))
    _rn31_alternative(ctx, p, reading.variant, int(n.value))
    return p


def _rn31_protocol(ctx: Ctx, regime: Regime, p: Person, cite: Citation,
                   bd: BusinessDeadline, requests: list[Document], first: Document
                   ) -> Person:
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
        p.note(f"Protocolo prorrogado até {br_day(valid_to)} (art. 9º, § 2º).",
               f"Protocol extended until {valid_to.isoformat()} (art. 9 §2).")
    for earlier in requests:
        if earlier is not req and earlier.protocol_date is not None \
                and earlier.protocol_date < req.protocol_date \
                and runs_to(earlier) < add_days(req.protocol_date, -1):
            p.note(f"Protocolo de {br_day(earlier.protocol_date)} vencido em "
                   f"{br_day(runs_to(earlier))}, antes do novo pedido de "
                   f"{br_day(req.protocol_date)}: sem protocolo nesse intervalo.",
                   f"Protocol of {earlier.protocol_date.isoformat()} expired on "
                   f"{runs_to(earlier).isoformat()}, before the new request of "
                   f"{req.protocol_date.isoformat()}: no protocol in between.")
    late = first.protocol_date > bd.deadline
    if late:
        b.finding(Finding("work_authorization_request_late", Msg(
            f"{m.id}: pedido protocolado em {br_day(first.protocol_date)}, após o prazo de "
            f"{br_day(bd.deadline)} (art. 9º).", f"{m.id}: request filed on "
            f"{first.protocol_date.isoformat()}, after the deadline of {bd.deadline.isoformat()} "
            "(art. 9)."), ctx.cite(regime, "art. 9º"), "warning", m.id))
    # The deadline shown is now the protocol's end: its own arithmetic is the detail (the
    # 8 business days, answered by the request, stay in the trace).
    extended = valid_to > add_days(req.protocol_date, days.value)
    p.row["deadline_detail"] = {
        "kind": "protocol_validity", "start": req.protocol_date,
        "count": (valid_to - req.protocol_date).days, "unit": "calendar_days",
        "citation": pcite, "text": Msg(
            f"Protocolo de {br_day(req.protocol_date)} + {days.value} dias = "
            f"{br_day(add_days(req.protocol_date, days.value))}"
            + (f"; prorrogado até {br_day(valid_to)}" if extended else "") + ".",
            f"Protocol of {req.protocol_date.isoformat()} + {days.value} days = "
            f"{add_days(req.protocol_date, days.value).isoformat()}"
            + (f"; extended until {valid_to.isoformat()}" if extended else "") + ".")}
    if on <= valid_to:
        p.decide("temporary_visa", "regular", pcite, valid_to, Msg(
            f"Protocolo de {br_day(req.protocol_date)} válido até {br_day(valid_to)} "
            "(prorrogável): obter o visto ou a prorrogação do protocolo até lá.",
            f"Protocol of {req.protocol_date.isoformat()} valid until {valid_to.isoformat()} "
            "(extendable): obtain the visa or the protocol's extension by then."))
    else:
        p.decide("temporary_visa", "irregular", pcite, valid_to, Msg(
            f"Protocolo vencido em {br_day(valid_to)} sem visto nem prorrogação.",
            f"Protocol expired on {valid_to.isoformat()} with no visa or extension."))
        p.row["consequence"] = _rn31_irregular_consequence(ctx)
        b.finding(Finding("protocol_expired", Msg(
            f"{m.id}: protocolo do pedido de autorização de trabalho vencido em "
            f"{br_day(valid_to)}.",
            f"{m.id}: work authorization request protocol expired on {valid_to.isoformat()}."),
            pcite, subject=m.id))
    later_pt = later_en = ""
    if req is not first:
        later_pt = f"; protocolo em vigor: o de {br_day(req.protocol_date)}"
        later_en = f"; protocol in force: that of {req.protocol_date.isoformat()}"
    b.step(f"person.{m.id}.documents",
           f"{m.id}: pedido protocolado em {br_day(first.protocol_date)}"
           f"{' (fora do prazo)' if late else ' (no prazo)'}{later_pt}; o protocolo mantém a "
           f"estada regular por {days.value} dias, até {br_day(valid_to)} → {p.verdict_word.pt}.",
           f"{m.id}: request filed on {first.protocol_date.isoformat()}"
           f"{' (late)' if late else ' (in time)'}{later_en}; the protocol keeps the stay "
           f"regular for {days.value} days, until {valid_to.isoformat()} → "
           f"{p.verdict_word.en}.", pcite)
    return p


def _rn31_alternative(ctx: Ctx, p: Person, variant: str, n: int) -> None:
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
            f"{br_day(alt.deadline)} e a situação, {PERSON_VERDICT_WORDS[alt_verdict].pt}.",
            f"{p.pid}: under the alternative reading (immigration.rn31.{other}) the deadline "
            f"would be {alt.deadline.isoformat()} and the status "
            f"{PERSON_VERDICT_WORDS[alt_verdict].en}."), None, "info",
            p.pid))


def _rn31_irregular_consequence(ctx: Ctx) -> Msg:
    """RN 31/1998 art. 9 § 1º a contrario: without a protocol the stay is not regular."""
    ctx.b.cite(ctx.reg.cite("lei-6815-1980"))
    return Msg("Sem visto nem protocolo válido, o tripulante não tem estada regular e fica "
               "sujeito a multa (RN 31/1998 art. 9º, § 1º, a contrario; Lei 6.815/1980) — valores "
               "não modelados.",
               "Without a visa or a valid protocol the crew member's stay is not regular and "
               "liable to a fine (RN 31/1998 art. 9 §1, a contrario; Lei 6.815/1980) — amounts "
               "not modelled.")

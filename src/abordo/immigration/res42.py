"""RN CNIg 06/2017 as amended by Res. CNIg 42/2020 (immigration.md): visit visa or ILO C185
exemption up to 90 days of stay per migratory year, beyond it a residence authorization (arts.
1, 3 § 2º, 5 and 11), air entry for a mandatory crew change (art. 11 §§ 2º–3º), and the
consequence of an irregular stay; and, under it, the long-haul path of IN SIT 70/2007 art. 13,
IV (no specific visa, while the instruction is in force).

Package-internal: ``res42_person`` and ``long_haul_in70`` are called by
:mod:`abordo.immigration.engine`; they are not a public API.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from abordo.crew.model import Document
from abordo.crew.ranks import CrewMember
from abordo.immigration.context import (
    Ctx,
    Person,
    br_day,
    check_person_input,
    count_noun,
    iso_day,
    person_periods,
    procedure_not_modelled,
)
from abordo.immigration.rules import (
    PKG,
    Presence,
    Regime,
    StayCount,
    count_stay,
    document_status,
    in_force,
    param,
    pending_requests,
    regime_tables,
    scheduled_limit,
    valid_documents,
)
from abordo.law.calendar import add_days, add_years
from abordo.law.decision import Citation, Finding, Msg, UnconfirmedParameter
from abordo.law.interpretations import resolve

# --- RN CNIg 06/2017 as amended by Res. CNIg 42/2020 -----------------------------------------

def res42_person(ctx: Ctx, regime: Regime, m: CrewMember) -> Person:
    """RN 06/2017 (Res. 42/2020) arts. 1, 3 §2, 5 and 11: visit visa or C185 exemption up to
    90 days of stay per migratory year; beyond, a residence authorization — and, for a
    continuous stay past 90 days, whatever the migratory year
    (``immigration.stay.continuous_beyond_year``)."""
    p = Person(ctx, m)
    on, b = ctx.on, ctx.b
    periods = person_periods(ctx, m)
    if not any(x.start <= on for x in periods):
        first = min(x.start for x in periods)
        p.decide("not_applicable", "not_applicable", None)
        p.note(f"Entrada prevista para {br_day(first)}: ainda não está no país nesta data.",
               f"Entry expected on {first.isoformat()}: not yet in the country on this date.")
        b.step(f"person.{m.id}.stay", f"{m.id}: primeira entrada em {br_day(first)}, após a data "
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
            "immigration.migratory_year_months",
            Msg(f"{months.value} meses", f"{months.value} months"), months.source,
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
        cont_pt = (f"; estada contínua desde {br_day(sc.continuous_start)}: "
                   f"{count_noun(sc.continuous_days, 'dia', 'dias')}"
                   + ("" if sc.continuous else " (não contada: só o ano migratório conta)"))
        cont_en = (f"; continuous stay since {sc.continuous_start.isoformat()}: "
                   f"{count_noun(sc.continuous_days, 'day', 'days')}"
                   + ("" if sc.continuous else " (not counted: only the migratory year counts)"))
    whose_pt = " da estada contínua" if sc.limit_basis == "continuous_stay" else ""
    whose_en = " of the continuous stay" if sc.limit_basis == "continuous_stay" else ""
    b.step(f"person.{m.id}.stay",
           f"{m.id} ({p.row['nationality']}): ano migratório de {br_day(sc.year_start)} a "
           f"{br_day(sc.year_end)}; {count_noun(sc.days, 'dia', 'dias')} de estada em "
           f"{br_day(on)} (períodos: "
           + "; ".join(f"{br_day(a)}–{br_day(z)}: {n}" for a, z, n in sc.counted)
           + f"){cont_pt}; {limit.value}º dia{whose_pt}: {br_day(sc.limit_date)}.",
           f"{m.id} ({p.row['nationality']}): migratory year {sc.year_start.isoformat()} to "
           f"{sc.year_end.isoformat()}; {count_noun(sc.days, 'day', 'days')} of stay on "
           f"{on.isoformat()} (periods: "
           + "; ".join(f"{a.isoformat()}–{z.isoformat()}: {n}" for a, z, n in sc.counted)
           + f"){cont_en}; day {limit.value}{whose_en}: {iso_day(sc.limit_date)}.", art11,
           days=sc.days, year_start=sc.year_start, limit_date=sc.limit_date,
           continuous_start=sc.continuous_start, continuous_days=sc.continuous_days)
    if not sc.present:
        last = max((x for x in periods if x.start <= on), key=lambda x: x.start)
        p.decide("not_applicable", "not_applicable", None)
        p.note(f"Saída do país em {br_day(last.end)}: não está no Brasil nesta data.",
               f"Left the country on {iso_day(last.end)}: not in Brazil on this date.")
        b.finding(Finding("not_in_country", Msg(
            f"{m.id}: consta da lista, mas as entradas indicam saída em {br_day(last.end)}.",
            f"{m.id}: listed aboard, but the entries show an exit on {iso_day(last.end)}."),
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


def _res42_decide(ctx: Ctx, regime: Regime, p: Person, sc: StayCount, art11: Citation,
                  limit: int, inclusive: bool, booked: dt.date | None = None) -> Person:
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
    if not _caput_applies(ctx, regime, p, current):
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
        return _within_limit(ctx, regime, p, sc, art11, ra_cite, pending, limit, inclusive,
                             booked)
    return _past_limit(ctx, regime, p, sc, ra_cite, pending, limit)


def _caput_applies(ctx: Ctx, regime: Regime, p: Person, current: Presence) -> bool:
    """Whether art. 11 caput (the days of stay without a residence authorization) applies to
    the current entry: by sea, yes; by air, for the new crew members of a mandatory crew
    change (§ 2º, with the proof to the Federal Police of § 3º), and otherwise only under
    the reading ``immigration.air_entry`` that does not restrict it — under crew_change_only
    a residence authorization is then required."""
    m, b = p.m, ctx.b
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
                   f"{m.id}: entrada por via aérea em {br_day(current.start)} para substituição "
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
                   f"{m.id}: entrada por via aérea em {br_day(current.start)} {air_why[0]} — "
                   "o art. 11 só a admite excepcionalmente nesse caso (§ 2º): exige-se "
                   "autorização de "
                   "residência.",
                   f"{m.id}: entry by air on {current.start.isoformat()} {air_why[1]} — art. 11 "
                   "admits it only exceptionally in that case (§2): a residence authorization "
                   "is required.", ctx.cite(regime, "art. 11, § 2º"))
    return caput


def _within_limit(ctx: Ctx, regime: Regime, p: Person, sc: StayCount, art11: Citation,
                  ra_cite: Citation, pending: list[Document], limit: int, inclusive: bool,
                  booked: dt.date | None) -> Person:
    """Up to the limit of art. 11 (the days of stay in the migratory year): a visit visa or the
    ILO C185 document that exempts from it; the next deadline is the first day the person
    stops being regular, or the request the planned exit or the stays booked call for."""
    m, on, b = p.m, ctx.on, ctx.b
    docs = m.source.documents
    c185 = _holds_c185(p, on)
    base = "exempt_c185" if c185 else "visit_visa"
    if not c185 and not valid_documents(docs, "visit_visa", on):
        expired = [d for d in docs if d.type == "visit_visa"
                   and document_status(d, on) == "expired"]
        why = (f"visto de visita vencido em {br_day(expired[0].valid_until)}" if expired else
               "sem visto de visita nem documento OIT C185")
        why_en = (f"visit visa expired on {iso_day(expired[0].valid_until)}" if expired else
                  "no visit visa and no ILO C185 document")
        p.note("Dispensas de visto de visita por nacionalidade (acordos de reciprocidade) "
               "não estão modeladas: se a nacionalidade for dispensada, registre a dispensa "
               "como documento visit_visa.", "Visit-visa waivers by nationality "
               "(reciprocity agreements) are not modelled: if the nationality is exempt, "
               "record the waiver as a visit_visa document.")
        return _res42_irregular(ctx, regime, p, "visit_visa", art11, Msg(
            f"{m.id}: {why}; em {br_day(on)}, {sc.effective_days}º dia de estada.",
            f"{m.id}: {why_en}; on {iso_day(on)}, day {sc.effective_days} of stay."),
            "visit_visa_missing")
    held_pt = "documento OIT C185 (isento de visto)" if c185 else "visto de visita válido"
    held_en = "ILO C185 document (visa-exempt)" if c185 else "valid visit visa"
    b.step(f"person.{m.id}.requirement",
           f"{m.id}: {count_noun(sc.effective_days, 'dia', 'dias')} de estada (até {limit}): "
           f"{held_pt}.", f"{m.id}: {count_noun(sc.effective_days, 'day', 'days')} of stay "
           f"(up to {limit}): {held_en}.", art11)
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
            action = Msg(f"A saída prevista ({br_day(exit_)}) passa do {limit}º dia "
                         f"({br_day(sc.limit_date)}): requerer autorização de residência antes "
                         "(art. 11, § 1º, e art. 5º).",
                         f"The planned exit ({exit_.isoformat()}) is past day {limit} "
                         f"({sc.limit_date.isoformat()}): request a residence authorization "
                         "before then (art. 11 §1 and art. 5).")
        else:
            assert booked is not None
            # The stays already booked in this migratory year add up past the limit.
            sc = dataclasses.replace(sc, limit_date=booked)
            action = Msg(f"As estadas já previstas neste ano migratório somam mais de "
                         f"{limit} dias (o {limit}º dia cai em {br_day(booked)}): requerer "
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
            cover = Msg(f" O documento que cobre a estada vale só até {br_day(due)}: "
                        "requerê-la até essa data.",
                        f" The document covering the stay is valid only until "
                        f"{due.isoformat()}: request it by then.")
            action = Msg(action.pt + cover.pt, action.en + cover.en)
            p.row["deadline_detail"] = {
                "kind": "document_end", "start": due, "count": 0,
                "unit": "calendar_days", "citation": art11, "text": Msg(
                    f"Documento (visto de visita ou OIT C185) válido até {br_day(due)}, antes "
                    f"do {limit}º dia ({br_day(sc.limit_date)}).",
                    f"Document (visit visa or ILO C185) valid until {due.isoformat()}, "
                    f"before day {limit} ({sc.limit_date.isoformat()}).")}
        elif not passes:
            p.row["deadline_detail"] = {
                "kind": "stay_limit", "start": sc.year_start, "count": limit,
                "unit": "calendar_days", "citation": art11, "text": Msg(
                    f"Ano migratório de {br_day(sc.year_start)} a {br_day(sc.year_end)}: "
                    f"somadas as estadas registradas, o {limit}º dia cai em "
                    f"{br_day(sc.limit_date)}.",
                    f"Migratory year {sc.year_start.isoformat()} to "
                    f"{sc.year_end.isoformat()}: with the stays recorded added up, day "
                    f"{limit} falls on {sc.limit_date.isoformat()}.")}
        else:
            p.row["deadline_detail"] = _limit_detail(sc, art11, inclusive)
        p.decide("residence_authorization", "action_due", ra_cite, due, action)
        p.row["consequence"] = Msg(
            f"Sem a autorização, a estada após {br_day(due)} será irregular.",
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
            f"{what_pt} vale até {br_day(cover_end)}, antes do {limit}º dia "
            f"({br_day(sc.limit_date)}): depois dele a estada só é regular com novo visto ou "
            "autorização de residência.",
            f"{what_en} is valid until {cover_end.isoformat()}, before day {limit} "
            f"({iso_day(sc.limit_date)}): after it the stay is regular only with a new visa "
            "or a residence authorization."))
        return p
    p.decide(base, "regular", art11, sc.limit_date, Msg(
        f"Para permanecer após o {limit}º dia ({br_day(sc.limit_date)}), requerer autorização "
        "de residência (art. 11, § 1º).",
        f"To stay beyond day {limit} ({iso_day(sc.limit_date)}), request a residence "
        "authorization (art. 11 §1)."))
    p.row["deadline_detail"] = _limit_detail(sc, art11, inclusive)
    return p


def _past_limit(ctx: Ctx, regime: Regime, p: Person, sc: StayCount, ra_cite: Citation,
                pending: list[Document], limit: int) -> Person:
    """Past the limit: a residence authorization is required (arts. 1, 5 and 11 § 1º); a
    request pending, else the person is irregular."""
    m, on, b = p.m, ctx.on, ctx.b
    docs = m.source.documents
    # Past the limit: a residence authorization (arts. 1, 5, 11 § 1º). The limit was passed
    # on the first day of stay after day ``limit`` — a day in Brazil (immigration.md: days of
    # stay; stays within one migratory year add up), the re-entry after an exit on that day.
    past_on = sc.past_date
    assert past_on is not None and sc.limit_date is not None
    continuous = sc.limit_basis == "continuous_stay" and sc.continuous_start is not None
    if continuous:
        b.step(f"person.{m.id}.requirement",
               f"{m.id}: estada contínua desde {br_day(sc.continuous_start)}, "
               f"{count_noun(sc.continuous_days, 'dia', 'dias')} "
               f"({count_noun(sc.days, 'dia', 'dias')} no ano "
               f"migratório iniciado em {br_day(sc.year_start)}) — passou de {limit} dias em "
               f"{br_day(past_on)}; a estada contínua acima de {limit} dias exige autorização de "
               "residência em qualquer ano migratório (arts. 1º, 5º e 11, § 1º).",
               f"{m.id}: continuous stay since {iso_day(sc.continuous_start)}, "
               f"{count_noun(sc.continuous_days, 'day', 'days')} "
               f"({count_noun(sc.days, 'day', 'days')} in the "
               f"migratory year starting {sc.year_start.isoformat()}) — past {limit} days on "
               f"{iso_day(past_on)}; a continuous stay over {limit} days requires a residence "
               "authorization in any migratory year (arts. 1, 5 and 11 §1).", ra_cite)
    else:
        # After an exit on day ``limit`` the next day is spent abroad: say which day it was.
        back_pt = back_en = ""
        if past_on != add_days(sc.limit_date, 1):
            back_pt = (f" (primeiro dia no Brasil depois do {limit}º dia de estada, "
                       f"{br_day(sc.limit_date)})")
            back_en = (f" (the first day in Brazil after day {limit} of stay, "
                       f"{iso_day(sc.limit_date)})")
        b.step(f"person.{m.id}.requirement",
               f"{m.id}: {count_noun(sc.days, 'dia', 'dias')} de estada no ano migratório — "
               f"passou de "
               f"{limit} dias em {br_day(past_on)}{back_pt}: exige-se autorização de residência "
               "(arts. 1º, 5º e 11, § 1º).",
               f"{m.id}: {count_noun(sc.days, 'day', 'days')} of stay in the migratory year — past "
               f"{limit} days on {iso_day(past_on)}{back_en}: a residence authorization is "
               "required (arts. 1, 5 and 11 §1).", ra_cite)
    if pending:
        return _res42_pending(ctx, p, ra_cite, pending[0], sc.limit_date, sc)
    expired = [d for d in docs if d.type == "residence_authorization"
               and document_status(d, on) == "expired"]
    kind_pt = (f"de estada contínua desde {br_day(sc.continuous_start)}" if continuous
               else "de estada")
    kind_en = (f"of continuous stay since {iso_day(sc.continuous_start)}" if continuous
               else "of stay")
    days = sc.effective_days
    # The day count is the date judged's, not the expiry's: said with its date.
    text = (Msg(f"{m.id}: autorização de residência vencida em "
                f"{br_day(expired[0].valid_until)}; em {br_day(on)}, {days}º dia {kind_pt}.",
                f"{m.id}: residence authorization expired on "
                f"{iso_day(expired[0].valid_until)}; on {iso_day(on)}, day {days} {kind_en}.")
            if expired else
            Msg(f"{m.id}: {count_noun(days, 'dia', 'dias')} {kind_pt}, acima de {limit}, sem "
                "autorização de residência requerida.",
                f"{m.id}: {count_noun(days, 'day', 'days')} {kind_en}, over {limit}, with no "
                "residence authorization requested."))
    return _res42_irregular(ctx, regime, p, "residence_authorization", ra_cite, text,
                            "residence_authorization_expired" if expired
                            else "residence_authorization_missing")


def _holds_c185(p: Person, on: dt.date) -> bool:
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
    year_pt = (f"{count_noun(sc.days, 'dia', 'dias')} de estada no ano migratório iniciado em "
               f"{br_day(sc.year_start)}")
    year_en = (f"{count_noun(sc.days, 'day', 'days')} of stay in the migratory year starting "
               f"{sc.year_start.isoformat()}")
    if sc.limit_basis == "continuous_stay" and sc.continuous_start is not None:
        start = sc.continuous_start
        text = Msg(f"{count_noun(sc.continuous_days, 'dia', 'dias')} de estada contínua desde "
                   f"{br_day(start)}, sem dia fora do país ({entry_pt}), contados em qualquer ano "
                   f"migratório; o {sc.limit}º dia dessa estada é {br_day(sc.limit_date)} se a "
                   f"pessoa permanecer ({year_pt}).",
                   f"{count_noun(sc.continuous_days, 'day', 'days')} of continuous stay since "
                   f"{start.isoformat()}, with no day outside the country ({entry_en}), "
                   f"counted across migratory years; day {sc.limit} of that stay is "
                   f"{iso_day(sc.limit_date)} if the person stays ({year_en}).")
    else:
        start = sc.year_start
        text = Msg(f"{year_pt} ({entry_pt}); o {sc.limit}º dia é {br_day(sc.limit_date)} se a "
                   "pessoa permanecer.",
                   f"{year_en} ({entry_en}); day {sc.limit} is {iso_day(sc.limit_date)} if the "
                   "person stays.")
    return {"kind": "stay_limit", "start": start, "count": sc.limit, "unit": "calendar_days",
            "basis": sc.limit_basis, "deadline": sc.limit_date, "citation": cite, "text": text}


def _res42_ra_held(ctx: Ctx, regime: Regime, p: Person, ra: Document) -> Person:
    m, on, b = p.m, ctx.on, ctx.b
    years = param("residence_authorization_max_years", on)
    cite = ctx.cite(regime, years.provision)
    if ra.issued_on and ra.valid_until and ra.valid_until > add_years(ra.issued_on, years.value):
        b.finding(Finding("residence_authorization_beyond_maximum", Msg(
            f"{m.id}: autorização de residência de {br_day(ra.issued_on)} a "
            f"{br_day(ra.valid_until)} "
            f"excede o prazo máximo de {years.value} anos (art. 3º, § 2º).",
            f"{m.id}: residence authorization from {iso_day(ra.issued_on)} to "
            f"{iso_day(ra.valid_until)} exceeds the {years.value}-year maximum (art. 3 §2)."),
            cite, "warning", m.id))
    p.decide("residence_authorization", "regular", cite, ra.valid_until)
    if ra.valid_until:
        p.note(f"Válida até {br_day(ra.valid_until)}; a renovação é disciplinada em resolução "
               "específica (art. 12), não modelada.", f"Valid until {iso_day(ra.valid_until)}; "
               "renewal is governed by a specific resolution (art. 12), not modelled.")
    b.step(f"person.{m.id}.documents",
           f"{m.id}: autorização de residência válida em {br_day(on)}"
           f"{f' (até {br_day(ra.valid_until)})' if ra.valid_until else ''} — regular.",
           f"{m.id}: residence authorization valid on {on.isoformat()}"
           f"{f' (until {ra.valid_until.isoformat()})' if ra.valid_until else ''} — regular.",
           cite)
    return p


def _res42_pending(ctx: Ctx, p: Person, cite: Citation, req: Document,
                   limit_date: dt.date | None, sc: StayCount) -> Person:
    m, b = p.m, ctx.b
    assert req.protocol_date is not None
    # Art. 11 § 1º: the request is due from whoever "pretendam ultrapassar o prazo de estada
    # de noventa dias" — late only when filed once the stay has passed the limit (on or after
    # the first day of stay beyond day ``limit``; a day abroad after day 90 is no such day).
    passed = sc.past_date
    late = limit_date is not None and passed is not None and req.protocol_date >= passed
    p.decide("residence_authorization", "action_due", cite,
             limit_date if limit_date and limit_date >= ctx.on else None, Msg(
                 f"Autorização de residência requerida em {br_day(req.protocol_date)}: aguarda "
                 "decisão do Ministério da Justiça e Segurança Pública.",
                 f"Residence authorization requested on {req.protocol_date.isoformat()}: "
                 "awaiting the Ministry of Justice and Public Security's decision."))
    p.row["consequence"] = Msg("Se indeferida, a estada além de 90 dias é irregular.",
                               "If refused, the stay beyond 90 days is irregular.")
    b.finding(Finding("residence_authorization_pending", Msg(
        f"{m.id}: autorização de residência requerida em {br_day(req.protocol_date)}, aguardando "
        "decisão.", f"{m.id}: residence authorization requested on "
        f"{req.protocol_date.isoformat()}, awaiting decision."), cite, "warning", m.id))
    if late:
        assert passed is not None
        b.finding(Finding("residence_authorization_request_late", Msg(
            f"{m.id}: pedido feito em {br_day(req.protocol_date)}, quando a estada já passava "
            f"de {sc.limit} dias (desde {br_day(passed)}; {sc.limit}º dia de estada: "
            f"{br_day(limit_date)}).", f"{m.id}: request filed on "
            f"{req.protocol_date.isoformat()}, when the stay was already past {sc.limit} days "
            f"(since {passed.isoformat()}; day {sc.limit} of stay: {iso_day(limit_date)})."),
            cite, "warning", m.id))
    b.step(f"person.{m.id}.documents",
           f"{m.id}: pedido de autorização de residência protocolado em "
           f"{br_day(req.protocol_date)} → providência pendente.",
           f"{m.id}: residence authorization request filed on "
           f"{req.protocol_date.isoformat()} → action due.", cite)
    return p


def _res42_irregular(ctx: Ctx, regime: Regime, p: Person, requirement: str,
                     cite: Citation, text: Msg, finding_id: str) -> Person:
    p.decide(requirement, "irregular", cite)
    p.row["consequence"] = _res42_consequence(ctx)
    ctx.b.finding(Finding(finding_id, text, cite, subject=p.pid))
    ctx.b.step(f"person.{p.pid}.verdict", f"{text.pt} → irregular.", f"{text.en} → irregular.",
               cite)
    return p


def _res42_consequence(ctx: Ctx) -> Msg:
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
    proc = procedure_not_modelled(ctx, Msg("a empresa brasileira contratante",
                                            "the Brazilian contracting company"))
    return Msg(f"Estada irregular: {police.pt}. {proc.pt}",
               f"Irregular stay: {police.en}. {proc.en}")


# --- IN SIT 70/2007 art. 13, IV: long haul under RN CNIg 06/2017 ------------------------------

def long_haul_in70(ctx: Ctx, m: CrewMember, basis: tuple[str, str]) -> Person:
    """IN SIT 70/2007 art. 13, IV: long-haul and international inland vessels' crews need no
    specific visa (while the instruction is in force)."""
    check_person_input(m)
    p = Person(ctx, m)
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

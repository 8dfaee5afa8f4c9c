"""The sea-time engine: ``compute(input, on, options) -> Decision`` (pure).

NORMAM-101/DPC, Capítulo 1, Seção IV (items 1.26–1.29), in the version in force on the
request date ``on``. The engine builds, with day-set algebra (:mod:`abordo.sea_time.days`):

1. for each CIR record, the days matched by a company declaration of the same company and
   category (1.26.1 d–e) — or, on a foreign-flag ship of an STCW party, by the foreign
   company's Anexo 1-H (1.29) — after the unit, function and flag rules (1.27–1.29);
2. manoeuvre days (1 per calendar day with manoeuvres), standby days (Anexo 1-F);
3. the union of all those calendar days, each day attributed once (priority: CIR-declared,
   foreign, standby, manoeuvres) — a day never counts twice;
4. instructor / inspector days at 2:1 (revalidation only) and Navy days (courses only);
5. the excluded days, merged into intervals per reason, each with its citation.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from abordo.law.decision import (
    Citation,
    Decision,
    DecisionBuilder,
    Finding,
    Interpretation,
    Msg,
    UnconfirmedParameter,
    Verdict,
)
from abordo.law.interpretations import check_options, report_unused_options, resolve
from abordo.law.norms import norm_registry
from abordo.law.text import br_date, listing, plural
from abordo.sea_time import days as d
from abordo.sea_time import rules
from abordo.sea_time.catalog import (
    PACKAGE,
    annex_1s_since,
    categories,
    param,
    prior_format_until,
    provision,
    stcw_parties,
    version_on,
)
from abordo.sea_time.model import (
    OWN_DECLARATION_ATTACHMENTS,
    CirRecord,
    Declaration,
    ForeignDeclaration,
    SeaTimeInput,
    parse_input,
)

ENGINE = "sea_time"
CANDIDATE_NORMS = ["normam-101-2023", "normam-101-2025"]
#: Sources of counted days, in the order a calendar day is attributed (and reported).
SOURCES = ("cir_declared", "foreign", "standby", "manoeuvres", "instructor", "navy")
CALENDAR_SOURCES = ("cir_declared", "foreign", "standby", "manoeuvres")
#: Every exclusion reason, in the order of precedence used when one day has several
#: (the timeline shows the first; the reading's embarkation day last, a rule's reason first).
REASONS = (
    "after_request_date", "not_in_service", "fixed_platform", "function_not_counted_on_unit",
    "other_group", "other_department", "lower_function", "above_category_without_lcs",
    "flag_not_stcw_party", "category_mismatch", "not_declared", "manoeuvre_not_open_sea",
    "manoeuvre_not_nautical_officer", "instructor_only_for_revalidation", "instructor_not_officer",
    "below_minimum_hours", "navy_only_for_courses", "navy_group_not_listed",
    "embarkation_day",
)
INSTRUCTOR_LABELS = {
    "simulator_instructor": Msg("instrutor de simulador", "simulator instructor"),
    "naval_inspector": Msg("inspetor naval", "naval inspector"),
}
PURPOSE_LABELS = {
    "promotion": Msg("ascensão de categoria", "promotion"),
    "course": Msg("inscrição em curso", "course enrolment"),
    "revalidation": Msg("revalidação de certificado", "certificate revalidation"),
}
SOURCE_LABELS = {
    "cir_declared": Msg("CIR + declaração (Anexo 1-S)", "CIR + declaration (Anexo 1-S)"),
    "foreign": Msg("bandeira estrangeira (Anexo 1-H)", "foreign flag (Anexo 1-H)"),
    "standby": Msg("à disposição (Anexo 1-F)", "standby (Anexo 1-F)"),
    "manoeuvres": Msg("manobras", "manoeuvres"),
    "instructor": Msg("instrutor/inspetor 2:1", "instructor/inspector 2:1"),
    "navy": Msg("dias de mar na Marinha", "Navy sea days"),
}
SOURCE_RULE = {"cir_declared": "cir_declared", "foreign": "foreign", "standby": "standby",
               "manoeuvres": "manoeuvres", "instructor": "instructor", "navy": "navy"}
INTERPRETATION_FAMILIES = (
    "sea_time.norm_date", "sea_time.period", "sea_time.manoeuvres", "sea_time.instructor",
    "sea_time.offshore_roles", "sea_time.sea_trials", "sea_time.inland_limitation",
    "sea_time.lcs_declaration", "sea_time.years",
)


@dataclass
class _Run:
    """State of one computation: builder, date, readings, counted and excluded day sets."""

    b: DecisionBuilder
    on: dt.date
    regime: str
    readings: dict[str, Interpretation]
    counted: dict[tuple[str, str], list[d.Days]] = field(
        default_factory=lambda: defaultdict(list))
    excluded: dict[tuple[str, str], list[d.Days]] = field(
        default_factory=lambda: defaultdict(list))
    navigation: dict[str, list[d.Days]] = field(default_factory=lambda: defaultdict(list))
    undated_exclusions: list[dict[str, Any]] = field(default_factory=list)

    def variant(self, family: str, used: bool = True) -> str:
        """The variant of ``family`` in force; ``used`` records it among the interpretations."""
        interp = self.readings[family]
        if used:
            self.b.interpret(interp)
        return interp.variant

    def cite(self, rule: str) -> Citation:
        """Citation of ``rule`` in the version in force; unconfirmed ones are declared."""
        citation, unconfirmed = _citation(rule, self.on)
        if unconfirmed is not None:
            self.b.unconfirmed(unconfirmed)
        self.b.cite(citation)
        return citation

    def exclude(self, reason: str, days: d.Days, rule: str | None = None) -> None:
        if not days.empty:
            self.excluded[(reason, rule or reason)].append(days)

    def after_request(self, days: d.Days) -> d.Days:
        """The part of ``days`` after the request date, excluded and cited: not yet served —
        the Maritime Authority sums the time in the CIR when it receives the request (item
        1.26.1, d)."""
        late: d.Days = days & d.after(self.on)
        if not late.empty:
            self.exclude("after_request_date", late)
            self.cite("after_request_date")
        return late


@lru_cache(maxsize=1024)
def _citation(rule: str, on: dt.date) -> tuple[Citation, UnconfirmedParameter | None]:
    """The citation of ``rule`` on ``on`` and, when unconfirmed, the parameter to declare."""
    prov = provision(rule, on)
    unconfirmed = None if prov.confirmed else UnconfirmedParameter(
        f"normam101.{rule}", Msg.same(prov.provision), prov.source, prov.norm)
    return norm_registry().cite(prov.norm, prov.provision, prov.norm), unconfirmed


def compute(data: Mapping[str, Any] | SeaTimeInput, on: dt.date,
            options: Mapping[str, Any] | None = None) -> Decision:
    """Countable sea time of one seafarer for one purpose, on the request date ``on``.

    ``data``: the input of the shared spec (``sea-time.md``) as a mapping or a
    :class:`~abordo.sea_time.model.SeaTimeInput`; ``on``: the request date (chooses the
    NORMAM-101 version: 2023-09-14 → 2025-01-19 ``normam-101-2023``, from 2025-01-20
    ``normam-101-2025``; earlier → ``Verdict.NOT_COVERED``); ``options``: interpretation
    choices (``{"sea_time.years": "half_up"}``).

    Returns a :class:`~abordo.law.Decision` with ``verdict`` ``computed`` and ``result``:
    ``counted_days`` (int, days), ``by_category`` ({code: days}), ``years`` (Decimal, two
    decimals), ``whole_years``, ``remaining_days``, ``breakdown`` ({source: days} for
    ``cir_declared, foreign, standby, manoeuvres, instructor, navy``), ``excluded`` (merged
    intervals ``{from, to, days, reason, rule, citation, text}``), ``limitations``
    (``["inland_only"]``), ``interpretations`` (ids), ``counted_periods``, ``instructor``,
    ``eligibility`` (only when the input gives ``target.required_days``) …

    Raises :class:`~abordo.law.InputError` for bad input or an unknown option. An option the
    count does not rest on is reported (finding ``option_not_applicable``, info).
    Legal source: NORMAM-101/DPC items 1.26 (CIR × Anexo 1-S), 1.27 (what counts), 1.28
    (365 days, lower function, other group, LCS, Navy days), 1.29 (foreign flags).
    """
    return report_unused_options(_compute(data, on, options), options or {})


def _compute(data: Mapping[str, Any] | SeaTimeInput, on: dt.date,
             options: Mapping[str, Any] | None) -> Decision:
    inp = parse_input(data, on)
    check_options([PACKAGE], options)
    readings = {f: resolve(PACKAGE, f, options) for f in INTERPRETATION_FAMILIES}
    b = DecisionBuilder(ENGINE, on)
    regime = version_on(on)
    if regime is None:
        return _not_covered(b, on, inp)
    run = _Run(b, on, regime, readings)
    run.variant("sea_time.norm_date")
    b.step("version", f"Data do requerimento {br_date(on)}: aplica-se "
           f"{norm_registry()[regime].title}.",
           f"Request date {on.isoformat()}: {norm_registry()[regime].title} applies.",
           run.cite("procedure"), regime=regime, purpose=inp.purpose)
    own_cat = rules.cat(inp.seafarer.category)
    group, dept = group_label(inp.seafarer.group), department_label(inp.seafarer.dept)
    b.step("seafarer", f"Aquaviário {inp.seafarer.id}: categoria {own_cat.code} "
           f"({own_cat.name}), {group.pt}, {dept.pt}; "
           f"finalidade: {PURPOSE_LABELS[inp.purpose].pt}.",
           f"Seafarer {inp.seafarer.id}: category {own_cat.code} ({own_cat.name}), "
           f"{group.en}, {dept.en}; purpose: {PURPOSE_LABELS[inp.purpose].en}.")

    _cir_records(run, inp)
    _manoeuvres(run, inp)
    _standby(run, inp)
    taken, by_source, by_category, periods = _attribute(run, inp)
    instructor = _instructor(run, inp, taken)
    navy = _navy(run, inp)
    by_source["instructor"] = instructor["counted"]
    by_source["navy"] = navy
    for extra in (instructor["counted"], navy):
        if extra:
            by_category[inp.seafarer.category] = by_category.get(inp.seafarer.category, 0) + extra
    total = d.count(taken) + instructor["counted"] + navy
    excluded = _excluded(run, taken)

    per_year, year_prov = param("days_per_year", on)
    # Item 1.28 sets 1 year = 365 days for promotion and courses only: on a revalidation the
    # years are a figure for reference, resting on no provision (nor on its confirmation).
    year_rule = rules.year_rule_applies(inp.purpose)
    if year_rule:
        run.cite("year_365")
        if not year_prov.confirmed:
            b.unconfirmed(UnconfirmedParameter("normam101.days_per_year",
                                               Msg.same(str(per_year)), year_prov.source,
                                               year_prov.norm))
    yrs, whole, rest = rules.years(total, int(per_year), run.variant("sea_time.years"))
    # the provisions each summary figure rests on, shown next to it in the reports
    counted_basis: list[Citation] = []
    for source in SOURCES:
        if by_source.get(source) and (c := run.cite(SOURCE_RULE[source])) not in counted_basis:
            counted_basis.append(c)
    counted_basis.sort(key=lambda c: [int(n) for n in re.findall(r"\d+", c.provision)])
    basis = {"counted_days": counted_basis or [run.cite("procedure")],
             "years": [run.cite("year_365")] if year_rule else []}
    yrs_pt = str(yrs).replace(".", ",")
    # shown beside the years of a revalidation in the reports, instead of a legal basis
    item = provision("year_365", on).provision
    years_note = None if year_rule else Msg(
        f"só referência: na revalidação o tempo é apurado em dias; 1 ano = {per_year} dias "
        f"({item}) vale para ascensão de categoria e cursos",
        f"for reference only: a revalidation is counted in days; 1 year = {per_year} days "
        f"({item}) applies to promotion and courses")
    if year_rule:
        # "528 dias = 1 ano e 163 dias (1,45 ano(s); …)"; "15 dias (0,04 ano(s); …)"
        span = years_and_days(whole, rest)
        b.step("total", f"Total: {total} dias{' = ' + span.pt if whole else ''} ({yrs_pt} "
               f"ano(s); 1 ano = {per_year} dias).",
               f"Total: {total} days{' = ' + span.en if whole else ''} ({yrs} year(s); "
               f"1 year = {per_year} days).", run.cite("year_365"), counted_days=total)
    else:
        b.step("total", f"Total: {total} dias. Na revalidação o tempo de embarque é apurado "
               f"em dias: a NORMAM-101 fixa 1 ano = {per_year} dias para ascensão de categoria "
               "e cursos, não para a revalidação.",
               f"Total: {total} days. A revalidation's sea time is counted in days: NORMAM-101 "
               f"sets 1 year = {per_year} days for promotion and courses, not for "
               "revalidation.", run.cite("procedure"), counted_days=total)

    limitations = _limitations(run, inp, taken)
    eligibility = _eligibility(run, inp, total)
    _declaration_findings(run, inp)

    # "— 2ON: 364" when a category counted; where the caller gave the target's required
    # days, the summary says where they stand (364 days read as "1,00 ano" are 1 day short).
    categories = ", ".join(f"{k}: {v}" for k, v in by_category.items())
    categories_txt = f" — {categories}" if categories else ""
    target_pt = target_en = ""
    if eligibility and eligibility["required_days"] is not None:
        outcome = target_outcome(eligibility["required_days"], total)
        target_pt = f"; meta {eligibility['target_category']}: {outcome.pt}"
        target_en = f"; target {eligibility['target_category']}: {outcome.en}"
    in_years_pt = f" ({yrs_pt} ano(s))" if year_rule else ""
    in_years_en = f" ({yrs} year(s))" if year_rule else ""
    summary = Msg(
        f"{total} dias de embarque computáveis{in_years_pt} para "
        f"{PURPOSE_LABELS[inp.purpose].pt}{categories_txt}{target_pt}.",
        f"{total} countable sea days{in_years_en} for {PURPOSE_LABELS[inp.purpose].en}"
        f"{categories_txt}{target_en}.",
    )
    result: dict[str, Any] = {
        "seafarer": {"id": inp.seafarer.id, "group": inp.seafarer.group,
                     "department": inp.seafarer.dept, "category": inp.seafarer.category},
        "purpose": inp.purpose,
        "regime": regime,
        "counted_days": total,
        "calendar_days": d.count(taken),
        "by_category": by_category,
        "years": yrs,
        "whole_years": whole,
        "remaining_days": rest,
        "breakdown": {s: by_source.get(s, 0) for s in SOURCES},
        "excluded": excluded,
        "limitations": limitations,
        "counted_periods": periods,
        "instructor": instructor,
        "eligibility": eligibility,
        "basis": basis,
        "years_note": years_note,
    }
    decision = b.build(Verdict.COMPUTED, regime, summary, result=result)
    decision.result["interpretations"] = [i.id for i in decision.interpretations]
    return decision


def _not_covered(b: DecisionBuilder, on: dt.date, inp: SeaTimeInput) -> Decision:
    """Request dated before NORMAM-101: not covered (never a fallback to NORMAM-13)."""
    topic = Msg("Cômputo de tempo de embarque", "Sea-time count")
    reason = norm_registry().not_covered_reason(on, CANDIDATE_NORMS, topic)
    first = norm_registry()[CANDIDATE_NORMS[0]]
    # Before NORMAM-101 the procedure was in NORMAM-13/DPC (Normas da Autoridade Marítima
    # para Aquaviários, Portaria nº 111/DPC/2003 and its modifications), which Abordo does
    # not model.
    reason = Msg(
        f"{reason.pt} Em {br_date(on)} vigorava a NORMAM-13/DPC (Normas da "
        "Autoridade Marítima para Aquaviários), que não está modelada.",
        f"{reason.en} On {on.isoformat()} NORMAM-13/DPC (Maritime Authority Rules for "
        "Waterway Workers) was in force, and it is not modelled.",
    )
    b.step("version", reason.pt, reason.en, norm_registry().cite(first.id), on=on)
    return b.build(
        Verdict.NOT_COVERED, None, reason, not_covered_reason=reason,
        result={"seafarer": {"id": inp.seafarer.id, "group": inp.seafarer.group,
                             "department": inp.seafarer.dept,
                             "category": inp.seafarer.category},
                "purpose": inp.purpose, "regime": None, "interpretations": []},
    )


def _cir_records(run: _Run, inp: SeaTimeInput) -> None:
    """CIR periods × declarations, after the unit / function / flag rules (1.26–1.29)."""
    b, sf = run.b, inp.seafarer
    parties = stcw_parties()
    decls: dict[str, list[tuple[d.Days, str]]] = defaultdict(list)
    update = annex_1s_since()
    for i, dec in enumerate(inp.declarations):
        # A prior-format declaration is one issued before the Anexo 1-S model (1.26.1,
        # Observação): it cannot declare service from then on.
        to = prior_format_until(dec.to) if dec.prior_format else dec.to
        if to < dec.to:
            run.b.finding(Finding("prior_format_after_update", Msg(
                f"Declaração em formato anterior ({dec.company}) cobre dias a partir de "
                f"{br_date(max(dec.from_, update))}, posteriores à adoção do modelo do Anexo "
                f"1-S ({br_date(update)}, publicação da NORMAM-101 de 2023): para eles vale só "
                "esse modelo.",
                f"Prior-format declaration ({dec.company}) covers days from "
                f"{max(dec.from_, update).isoformat()}, after the Anexo 1-S model was adopted "
                f"({update.isoformat()}, the 2023 NORMAM-101): for them only that model is "
                "valid."),
                run.cite("prior_format_declaration"), "warning", f"declarations[{i}]"))
        if to >= dec.from_:
            decls[dec.company.casefold()].append((d.span(dec.from_, to), dec.category))
    foreign_decls: dict[str, list[tuple[d.Days, str]]] = defaultdict(list)
    for fdec in inp.foreign_declarations:
        foreign_decls[fdec.company.casefold()].append((d.span(fdec.from_, fdec.to),
                                                       fdec.category))
    exclusive_start = run.variant("sea_time.period", used=bool(inp.cir)) == "exclusive_start"
    _unknown_kinds(run, inp)
    _overlapping_records(run, inp)
    for i, rec in enumerate(inp.cir):
        end = rec.disembark or run.on
        start = rec.embark + dt.timedelta(1) if exclusive_start else rec.embark
        until_pt = br_date(rec.disembark) if rec.disembark else "a bordo"
        until_en = rec.disembark.isoformat() if rec.disembark else "still aboard"
        name = record_name(i, rec)
        label = Msg(f"{_cap(name.pt)} ({rec.vessel}, "
                    f"{br_date(rec.embark)}–{until_pt}, {rec.function})",
                    f"{_cap(name.en)} ({rec.vessel}, {rec.embark.isoformat()}–{until_en}, "
                    f"{rec.function})")
        if exclusive_start and rec.embark <= run.on:
            # the reading leaves the embarkation day out: say so, as for any day not counted
            run.exclude("embarkation_day", d.span(rec.embark, rec.embark))
        late = run.after_request(d.span(rec.embark, end))
        if not late.empty:
            _disembark_after_request(run, i, rec, d.count(late))
            end = run.on
        late_pt, late_en = _late_note(run, d.count(late))
        period = d.span(start, end)
        trials_pt = trials_en = ""
        if rec.kind == "sea_trials":
            # sea trials count only from the DPP (item 1.27): the days before it are reported
            # under the reason not_in_service (the cases' id) by a rule of their own
            pre = rules.sea_trial_excluded_days(rec, period, run.variant("sea_time.sea_trials"))
            run.cite("sea_trials_before_dpp")
            run.exclude("not_in_service", pre, rule="sea_trials_before_dpp")
            period = period - pre
            if not pre.empty:
                dpp_pt = (f"antes do DPP (emitido em {br_date(rec.dpp_date)})" if rec.dpp_date
                          else "sem DPP")
                dpp_en = (f"before the DPP (issued on {rec.dpp_date.isoformat()})"
                          if rec.dpp_date else "without a DPP")
                trials_pt = f"; {d.count(pre)} dia(s) de provas de mar {dpp_pt}"
                trials_en = f"; {d.count(pre)} day(s) of sea trials {dpp_en}"
        reason = (rules.unit_exclusion(rec, run.variant("sea_time.offshore_roles",
                                                        used=_is_platform(rec.kind)))
                  or rules.function_exclusion(rec, sf)
                  or rules.flag_exclusion(rec.flag, parties))
        if rules.levels_compared(rec, sf):
            _levels_unconfirmed(run, rec.function, sf.category)
        if reason == "other_group":
            _category_unconfirmed(run, "groups", rec.function, sf.category)
        elif reason == "other_department":
            _category_unconfirmed(run, "department", rec.function, sf.category)
        if rec.flag != "BR":
            _parties_unconfirmed(run)
        if reason is not None:
            run.exclude(reason, period)
            n = d.count(period)
            why = provision(reason, run.on).text
            b.step(reason, f"{label.pt}: {n} dia(s) excluído(s) — {why.pt}{trials_pt}"
                   f"{late_pt}.",
                   f"{label.en}: {n} day(s) excluded — {why.en}{trials_en}{late_en}.",
                   run.cite(reason), record=i, days=n, reason=reason)
            continue
        foreign = rec.flag != "BR"
        source = "foreign" if foreign else "cir_declared"
        table = foreign_decls if foreign else decls
        ok = rules.declaration_categories(rec, sf, run.variant("sea_time.lcs_declaration",
                                                               used=rec.lcs))
        match = d.union(s for s, c in table.get(rec.company.casefold(), []) if c in ok)
        other = d.union(s for s, c in table.get(rec.company.casefold(), []) if c not in ok)
        matched = period & match
        rest = period - matched
        mismatch = rest & other if not rest.empty else rest
        undeclared = rest - mismatch if not mismatch.empty else rest
        category = rules.counted_category(rec, sf)
        run.counted[(source, category)].append(matched)
        run.navigation[rec.navigation].append(matched)
        not_declared_rule = "foreign_not_declared" if foreign else "not_declared"
        run.exclude("category_mismatch", mismatch)
        run.exclude("not_declared", undeclared, not_declared_rule)
        n_ok, n_mis, n_und = d.count(matched), d.count(mismatch), d.count(undeclared)
        citation = run.cite(source)
        if rec.lcs:
            run.cite("lcs")
        if rec.navigation == "inland":
            run.cite("inland_only")
        run.cite("vessel_in_service")
        lcs_pt = f"; sob LCS, conta na categoria real {category}" if rec.lcs else ""
        lcs_en = f"; under LCS, counts in the real category {category}" if rec.lcs else ""
        b.step(source, f"{label.pt}: {n_ok} dia(s) conferido(s) com a declaração"
               f"{' (Anexo 1-H)' if foreign else ' (Anexo 1-S)'}{lcs_pt}; "
               f"{n_mis} em outra categoria; {n_und} sem declaração"
               f"{' da empresa estrangeira' if foreign else ''}{trials_pt}{late_pt}.",
               f"{label.en}: {n_ok} day(s) matched by the declaration"
               f"{' (Anexo 1-H)' if foreign else ' (Anexo 1-S)'}{lcs_en}; "
               f"{n_mis} in another category; {n_und} not declared"
               f"{' by the foreign company' if foreign else ''}{trials_en}{late_en}.",
               citation, record=i, matched=n_ok, category_mismatch=n_mis, not_declared=n_und)
        if n_mis:
            run.cite("category_mismatch")
        if n_und:
            run.cite(not_declared_rule)
        if foreign:
            hom = "foreign_homologation" if rec.entered_in == "foreign_record_book" \
                else "foreign_in_cir"
            b.finding(Finding(hom, provision(hom, run.on).text, run.cite(hom), "info",
                              f"cir[{i}]"))


def _unknown_kinds(run: _Run, inp: SeaTimeInput) -> None:
    """An info finding per vessel kind Abordo does not know (probably a typo).

    The shared spec: "any other kind is an ordinary vessel" — so the record still counts as
    one ("qualquer embarcação que esteja normalmente em serviço", item 1.27); the finding lets
    the user check that a platform, FPSO, FSU, drillship or sea trials was not misspelt.
    """
    unknown: dict[str, list[int]] = defaultdict(list)
    for i, rec in enumerate(inp.cir):
        if not rules.kind_recognised(rec.kind):
            unknown[rec.kind].append(i)
    if not unknown:
        return
    citation = run.cite("vessel_in_service")
    special = ", ".join(rules.RULE_KINDS)
    for kind, records in unknown.items():
        guess = rules.closest_kind(kind)
        guess_pt = f" Você quis dizer '{guess}'?" if guess else ""
        guess_en = f" Did you mean '{guess}'?" if guess else ""
        where_pt = ", ".join(str(i + 1) for i in records)
        run.b.finding(Finding("unknown_vessel_kind", Msg(
            f"tipo de embarcação '{kind}' não reconhecido: tratado como embarcação comum "
            f"(registro(s) {where_pt} da CIR). Tipos com regra própria: {special}.{guess_pt}",
            f"vessel kind '{kind}' not recognised: treated as an ordinary vessel (CIR "
            f"entr{'y' if len(records) == 1 else 'ies'} {where_pt}). Kinds with a rule of "
            f"their own: {special}.{guess_en}"),
            citation, "info", ", ".join(f"cir[{i}]" for i in records)))


def _late_note(run: _Run, n: int) -> tuple[str, str]:
    """``"; 15 após a data do requerimento (15/09/2024), não computado(s)"`` for a trace step
    whose item runs past the request date (item 1.26.1, d), or nothing."""
    if not n:
        return "", ""
    return (f"; {n} dia(s) após a data do requerimento ({br_date(run.on)}), não "
            "computado(s)",
            f"; {n} day(s) after the request date ({run.on.isoformat()}), not counted")


def _disembark_after_request(run: _Run, i: int, rec: CirRecord, late: int) -> None:
    """A CIR disembarkation dated after the request date: a date the record book cannot yet
    hold (the count is made on the request, item 1.26.1, d) — the days after the request date
    are left out, and the user is warned to check the entry."""
    disembark = rec.disembark
    if disembark is None or disembark <= run.on:
        return
    name, book = record_name(i, rec), record_book(rec)
    run.b.finding(Finding("disembark_after_request_date", Msg(
        f"{_cap(name.pt)} ({rec.vessel}): desembarque em {br_date(disembark)}, posterior "
        f"à data do requerimento ({br_date(run.on)}) — os {late} dia(s) após essa data não "
        f"são computados. Conferir a data de desembarque lançada n{book.pt}.",
        f"{_cap(name.en)} ({rec.vessel}): disembarkation on {disembark.isoformat()}, after "
        f"the request date ({run.on.isoformat()}) — the {late} day(s) after it are not "
        f"counted. Check the disembarkation date entered in {book.en}."),
        run.cite("after_request_date"), "warning", f"cir[{i}]"))


def record_name(i: int, rec: CirRecord) -> Msg:
    """``registro 2 da CIR`` — or, for service entered in a foreign record book (1.29.1, b:
    "Caderneta de Inscrição e Registro estrangeira (Seaman's Record Book)"), ``registro 2
    da caderneta estrangeira``: the entry named by the book it comes from (its number is its
    place in the input's ``cir`` list)."""
    if rec.entered_in == "foreign_record_book":
        return Msg(f"registro {i + 1} da caderneta estrangeira",
                   f"foreign record book entry {i + 1}")
    return Msg(f"registro {i + 1} da CIR", f"CIR entry {i + 1}")


def record_book(rec: CirRecord) -> Msg:
    """The book a record comes from, after a preposition: ``a CIR`` / ``a caderneta
    estrangeira`` (pt, to follow "n" or "confira "), ``the record book`` (en)."""
    if rec.entered_in == "foreign_record_book":
        return Msg("a caderneta estrangeira", "the foreign record book")
    return Msg("a CIR", "the record book")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def group_label(group: str) -> Msg:
    """``maritime`` → "Marítimos (1º grupo)" / "Maritime (1st group)"."""
    return categories().groups.get(group) or Msg(f"grupo {group}", f"group {group}")


def department_label(dept: str) -> Msg:
    """``deck`` → "Seção de Convés" / "Deck department"."""
    return categories().departments.get(dept) or Msg(f"seção {dept}", f"{dept} department")


def _overlapping_records(run: _Run, inp: SeaTimeInput) -> None:
    """Two CIR records aboard at once for more than a day (a change of vessel shares its
    day): each day counts once, but the record book says the seafarer was on two vessels —
    a warning to check it (item 1.26.1, d: the CIR is the record of the days)."""
    spans = sorted(((r.embark, min(r.disembark or run.on, run.on), i)
                    for i, r in enumerate(inp.cir) if r.embark <= run.on))
    for (_, a_to, i), (b_from, b_to, j) in itertools.combinations(spans, 2):
        first, last = b_from, min(a_to, b_to)
        if (last - first).days < 1:  # none, or one shared day
            continue
        a, b = inp.cir[i], inp.cir[j]
        if a.entered_in == b.entered_in == "cir":
            pair = Msg(f"Registros {i + 1} ({a.vessel}) e {j + 1} ({b.vessel}) da CIR",
                       f"CIR entries {i + 1} ({a.vessel}) and {j + 1} ({b.vessel})")
        else:  # one of them (or both) from a foreign record book: each named by its book
            na, nb = record_name(i, a), record_name(j, b)
            pair = Msg(f"{_cap(na.pt)} ({a.vessel}) e {nb.pt} ({b.vessel})",
                       f"{_cap(na.en)} ({a.vessel}) and {nb.en} ({b.vessel})")
        run.b.finding(Finding("cir_records_overlap", Msg(
            f"{pair.pt} se sobrepõem de {br_date(first)} a {br_date(last)}: cada dia conta "
            "uma vez — confira os registros (dois embarques ao mesmo tempo).",
            f"{pair.en} overlap from {first.isoformat()} to {last.isoformat()}: each day "
            "counts once — check the record book (aboard two vessels at once)."),
            run.cite("cir_declared"), "warning", f"cir[{j}]"))


def _is_platform(kind: str) -> bool:
    return kind in rules.ROLE_UNITS or kind in rules.OTHER_PLATFORMS


def _levels_unconfirmed(run: _Run, *codes: str) -> None:
    table = categories()
    for code in codes:
        run.b.unconfirmed(UnconfirmedParameter(
            f"categories.level.{code}", Msg.same(str(table.by_code[code].level)),
            table.level_source, run.regime))


def _category_unconfirmed(run: _Run, entry: str, *codes: str) -> None:
    """Name the category table's ``entry`` (``groups`` | ``department``) of each code as an
    unconfirmed parameter — Res. CNIg 42/2020 art. 2, I-A confirms the maritime group's
    categories (and their sections) only; a fisher's or a river seafarer's come from
    secondary sources."""
    table = categories()
    for code in codes:
        c = table.by_code[code]
        if c.groups == ("maritime",):
            continue
        names = ([table.groups[g] for g in c.groups] if entry == "groups"
                 else [table.departments[c.department]])
        value = Msg(", ".join(n.pt for n in names), ", ".join(n.en for n in names))
        run.b.unconfirmed(UnconfirmedParameter(f"categories.{entry}.{code}", value,
                                               table.source, run.regime))


def _parties_unconfirmed(run: _Run) -> None:
    parties = stcw_parties()
    if not parties.confirmed:
        run.b.unconfirmed(UnconfirmedParameter(
            "stcw_parties", Msg(f"{len(parties.parties)} Estados-partes em "
                                f"{br_date(parties.as_of)}",
                                f"{len(parties.parties)} States parties on "
                                f"{parties.as_of.isoformat()}"),
            parties.source, run.regime))


def _manoeuvres(run: _Run, inp: SeaTimeInput) -> None:
    """Manoeuvre days: 1 per calendar day with ≥ 1 recorded open-sea manoeuvre (1.27)."""
    if not inp.manoeuvres:
        return
    who = run.variant("sea_time.manoeuvres")
    good: list[d.Days] = []
    late: list[d.Days] = []
    for m in inp.manoeuvres:
        one = d.day(m.date)
        if not run.after_request(one).empty:
            late.append(one)
            continue
        reason = rules.manoeuvre_exclusion(m, inp.seafarer, who)
        if reason:
            run.exclude(reason, one)
            run.cite(reason)
        else:
            good.append(one)
    days = d.union(good)
    run.counted[("manoeuvres", inp.seafarer.category)].append(days)
    run.navigation["open_sea"].append(days)
    late_pt, late_en = _late_note(run, d.count(d.union(late)))
    run.b.step("manoeuvres", f"Manobras: {len(inp.manoeuvres)} registro(s) em "
               f"{d.count(days)} dia(s) de calendário elegível(is) (1 dia por dia com manobra)"
               f"{late_pt}.",
               f"Manoeuvres: {len(inp.manoeuvres)} record(s) on {d.count(days)} eligible "
               f"calendar day(s) (1 day per day with a manoeuvre){late_en}.",
               run.cite("manoeuvres"), records=len(inp.manoeuvres), days=d.count(days))


def _standby(run: _Run, inp: SeaTimeInput) -> None:
    """Standby days aboard proven by Anexo 1-F count (1.27)."""
    if not inp.standby:
        return
    spans = []
    lates = []
    for s in inp.standby:
        span = d.span(s.from_, s.to)
        late = run.after_request(span)
        spans.append(span - late)
        lates.append(late)
    days = d.union(spans)
    run.counted[("standby", inp.seafarer.category)].append(days)
    late_pt, late_en = _late_note(run, d.count(d.union(lates)))
    run.b.step("standby", f"À disposição da unidade (Anexo 1-F): {d.count(days)} dia(s)"
               f"{late_pt}.",
               f"Standby aboard (Anexo 1-F): {d.count(days)} day(s){late_en}.",
               run.cite("standby"), days=d.count(days))


def _category_priority(code: str, own: str) -> tuple[int, int, str]:
    return (0 if code == own else 1, -rules.cat(code).level, code)


def _attribute(run: _Run, inp: SeaTimeInput
               ) -> tuple[d.Days, dict[str, int], dict[str, int], list[dict[str, Any]]]:
    """Union of the calendar days; each day attributed once to a source and a category.

    Rule 2 of the spec / item 1.27: a calendar day counts once, whatever its sources —
    the order of :data:`CALENDAR_SOURCES` decides where a shared day is reported (a manoeuvre
    on a day already aboard adds nothing, case s01).
    """
    own = inp.seafarer.category
    keys = sorted(run.counted, key=lambda k: (CALENDAR_SOURCES.index(k[0]),
                                              _category_priority(k[1], own)))
    taken = d.empty()
    by_source: dict[str, int] = {}
    by_category: dict[str, int] = {}
    periods: list[dict[str, Any]] = []
    overlap: dict[str, int] = {}
    for source, category in keys:
        own_days = d.union(run.counted[(source, category)])
        fresh = own_days - taken
        n = d.count(fresh)
        overlap[source] = overlap.get(source, 0) + d.count(own_days) - n
        taken = taken | fresh
        by_source[source] = by_source.get(source, 0) + n
        if n:
            by_category[category] = by_category.get(category, 0) + n
        periods.extend({"from": a, "to": z, "days": (z - a).days + 1, "source": source,
                        "category": category} for a, z in d.runs(fresh))
    periods.sort(key=lambda p: p["from"])
    shared_pt = "; ".join(f"{SOURCE_LABELS[s].pt}: {n} dia(s) já contado(s) por outra fonte"
                          for s, n in overlap.items() if n)
    shared_en = "; ".join(f"{SOURCE_LABELS[s].en}: {n} day(s) already counted from another "
                          "source" for s, n in overlap.items() if n)
    # what a sum of period lengths would give, to show the days counted once (rule 2)
    summed = sum(d.count(part) for parts in run.counted.values() for part in parts)
    run.b.step("union", f"União dos dias de calendário: {d.count(taken)} dia(s) (a soma dos "
               f"períodos daria {summed}; um dia conta uma só vez)"
               f"{'; ' + shared_pt if shared_pt else ''}.",
               f"Union of calendar days: {d.count(taken)} day(s) (a sum of the periods would "
               f"give {summed}; a day counts once){'; ' + shared_en if shared_en else ''}.",
               run.cite("vessel_in_service") if inp.cir else None,
               calendar_days=d.count(taken), by_source=dict(by_source),
               already_counted=overlap)
    return taken, by_source, by_category, periods


def _instructor(run: _Run, inp: SeaTimeInput, taken: d.Days) -> dict[str, Any]:
    """Instructor / naval-inspector days at 2:1, revalidation only (1.27)."""
    out: dict[str, Any] = {"activity_days": 0, "qualifying_days": 0, "already_counted": 0,
                           "unpaired_days": 0, "counted": 0, "days": []}
    acts = inp.instructor_activity
    if not acts:
        return out
    all_days = d.union(d.day(a.date) for a in acts)
    out["activity_days"] = d.count(all_days)
    reason = rules.instructor_exclusion(inp.purpose, inp.seafarer, run.on)
    if reason:
        run.exclude(rules.REASON_OF_RULE.get(reason, reason), all_days, rule=reason)
        expiry = inp.seafarer.certificate_valid_until
        when = Msg(f" (validade até {br_date(expiry)}, requerimento em {br_date(run.on)})",
                   f" (valid until {expiry.isoformat()}, request on {run.on.isoformat()})"
                   ) if reason == "certificate_expired" and expiry else Msg.same("")
        run.b.step(reason, f"Atividade de instrutor/inspetor: {d.count(all_days)} dia(s) "
                   f"excluído(s) — {provision(reason, run.on).text.pt}{when.pt}.",
                   f"Instructor/inspector activity: {d.count(all_days)} day(s) excluded — "
                   f"{provision(reason, run.on).text.en}{when.en}.", run.cite(reason),
                   days=out["activity_days"])
        return out
    min_hours, _ = param("instructor_min_hours", run.on)
    ratio, _ = param("instructor_days_per_sea_day", run.on)
    late = run.after_request(all_days)
    qualifying = d.union(d.day(day) for day in rules.qualifying_dates(acts, int(min_hours))
                         ) - late
    below = all_days - qualifying - late
    run.exclude("below_minimum_hours", below)
    if not below.empty:
        run.cite("below_minimum_hours")
    pool = qualifying - taken
    _instructor_days_aboard(run, inp, qualifying, taken)
    reading = run.variant("sea_time.instructor")
    counted = rules.instructor_sea_days(d.count(pool), int(ratio), reading)
    out.update(qualifying_days=d.count(qualifying),
               already_counted=d.count(qualifying) - d.count(pool),
               unpaired_days=d.count(pool) % int(ratio) if reading == "floor" else 0,
               counted=counted)
    days_runs = d.runs(pool)
    late_pt, late_en = _late_note(run, d.count(late))
    run.b.step("instructor", f"Instrutor/inspetor: {d.count(qualifying)} dia(s) com ao menos "
               f"{min_hours} h, {out['already_counted']} já contado(s) a bordo; "
               f"{d.count(pool)} ÷ {ratio} = {counted} dia(s) de embarque{late_pt}.",
               f"Instructor/inspector: {d.count(qualifying)} day(s) of at least {min_hours} h, "
               f"{out['already_counted']} already counted aboard; {d.count(pool)} ÷ {ratio} = "
               f"{counted} sea day(s){late_en}.", run.cite("instructor"), **out)
    out["days"] = days_runs
    return out


def _runs_text(days: d.Days, lang: str) -> str:
    """``08/06/2025–09/06/2025 e 01/07/2025`` (pt) / ``2025-06-08–2025-06-09 and …`` (en)."""
    fmt = br_date if lang == "pt" else dt.date.isoformat
    return listing([fmt(a) if a == z else f"{fmt(a)}–{fmt(z)}" for a, z in d.runs(days)],
                   lang)


def _instructor_days_aboard(run: _Run, inp: SeaTimeInput, qualifying: d.Days,
                            taken: d.Days) -> None:
    """A warning per CIR record whose days aboard hold qualifying instructor / inspector
    days. The "efetiva dedicação" of item 1.27 (Observação) is the days the instructor gives
    classes in the simulator or the inspector inspects: the CIR shows the seafarer aboard as
    crew on those days, so one of the two proofs is wrong. The count is the rule's (a day
    already counted aboard is not counted again; a CIR day not counted aboard counts as
    activity): the warning says which was done, for the user to check both documents."""
    kinds = {a.date: a.kind for a in inp.instructor_activity}
    for i, rec in enumerate(inp.cir):
        if rec.embark > run.on:
            continue
        aboard = d.span(rec.embark, min(rec.disembark or run.on, run.on))
        both = qualifying & aboard
        if both.empty:
            continue
        counted_aboard, used = both & taken, both - taken
        names = {kinds[day] for day in d.dates(both)}
        who_pt = " e ".join(INSTRUCTOR_LABELS[k].pt for k in sorted(names))
        who_en = " and ".join(INSTRUCTOR_LABELS[k].en for k in sorted(names))
        until_pt = br_date(rec.disembark) if rec.disembark else "a bordo"
        until_en = rec.disembark.isoformat() if rec.disembark else "still aboard"
        how_pt = " e ".join(part for part in (
            f"{d.count(counted_aboard)} dia(s) já contado(s) a bordo não conta(m) de novo"
            if not counted_aboard.empty else "",
            f"{d.count(used)} dia(s) não contado(s) a bordo entra(m) na razão 2:1"
            if not used.empty else "") if part)
        how_en = " and ".join(part for part in (
            f"{d.count(counted_aboard)} day(s) already counted aboard do not count again"
            if not counted_aboard.empty else "",
            f"{d.count(used)} day(s) not counted aboard go into the 2:1 ratio"
            if not used.empty else "") if part)
        name, book = record_name(i, rec), record_book(rec)
        run.b.finding(Finding("instructor_days_aboard", Msg(
            f"Atividade de {who_pt} em {_runs_text(both, 'pt')}, dias em que o {name.pt} "
            f"({rec.vessel}, {br_date(rec.embark)}–{until_pt}) mostra o aquaviário "
            "embarcado: as provas se contradizem — conferir a declaração do órgão empregador "
            f"e {book.pt}. Na contagem, {how_pt}.",
            f"{who_en.capitalize()} activity on {_runs_text(both, 'en')}, days on which "
            f"{name.en} ({rec.vessel}, {rec.embark.isoformat()}–{until_en}) shows the "
            "seafarer aboard: the proofs contradict each other — check the employer's "
            f"declaration and {book.en}. In the count, {how_en}."),
            run.cite("instructor"), "warning", f"cir[{i}]"))


def _navy(run: _Run, inp: SeaTimeInput) -> int:
    """Navy sea days: only for EPM course enrolment, listed groups (1.28)."""
    n = inp.navy_sea_days.days
    if not n:
        return 0
    reason = rules.navy_exclusion(inp.purpose, inp.seafarer)
    if reason:
        citation = run.cite(reason)
        text = provision(reason, run.on).text
        run.undated_exclusions.append({"from": None, "to": None, "days": n, "reason": reason,
                                       "rule": reason, "citation": citation, "text": text})
        run.b.step(reason, f"Dias de mar na Marinha: {n} dia(s) excluído(s) — {text.pt}.",
                   f"Navy sea days: {n} day(s) excluded — {text.en}.", citation, days=n)
        return 0
    run.b.step("navy", f"Dias de mar na Marinha (atestado da DPMM): {n} dia(s), somados "
               "aos dias de calendário (o atestado não traz datas).",
               f"Navy sea days (DPMM certificate): {n} day(s), added to the calendar days "
               "(the certificate gives no dates).", run.cite("navy"), days=n)
    return n


def _excluded(run: _Run, taken: d.Days) -> list[dict[str, Any]]:
    """Excluded days merged per reason: intervals of consecutive days sharing one reason
    (the worked cases' convention), each with the citation of every rule that excluded its
    days (``citation``: the first; ``citations``: all, when more than one).

    A day counted from another source is not reported as excluded: the question answered is
    why each *uncounted* day did not count.
    """
    by_reason: dict[str, list[tuple[str, d.Days]]] = {}
    for (reason, rule), parts in run.excluded.items():
        rest = d.union(parts) - taken
        if not rest.empty:
            by_reason.setdefault(reason, []).append((rule, rest))
    out: list[dict[str, Any]] = []
    for reason, pieces in by_reason.items():
        for a, z in d.runs(d.union(days for _, days in pieces)):
            here = d.span(a, z)
            rules_here = [rule for rule, days in pieces if not (days & here).empty]
            cites = [run.cite(rule) for rule in rules_here]
            texts = [provision(rule, run.on).text for rule in rules_here]
            entry: dict[str, Any] = {
                "from": a, "to": z, "days": (z - a).days + 1, "reason": reason,
                "rule": rules_here[0], "citation": cites[0],
                "text": texts[0] if len(texts) == 1 else Msg(
                    "; ".join(t.pt for t in texts), "; ".join(t.en for t in texts))}
            if len(rules_here) > 1:
                # which days each provision excluded, for the reports' labels and timeline
                split = sorted((p, q, rule) for rule, days in pieces
                               for p, q in d.runs(days & here))
                entry |= {"rules": rules_here, "citations": cites,
                          "parts": [{"from": p, "to": q, "rule": rule}
                                    for p, q, rule in split]}
            out.append(entry)
    out.sort(key=lambda e: (e["from"], REASONS.index(e["reason"])))
    return out + run.undated_exclusions


def _limitations(run: _Run, inp: SeaTimeInput, taken: d.Days) -> list[str]:
    """``inland_only`` when a revalidation rests on inland navigation (1.27)."""
    inland = d.union(run.navigation.get("inland", [])) & taken
    if inland.empty:
        return []
    open_sea = d.union(run.navigation.get("open_sea", [])) & taken
    inland_only = inland - open_sea
    reading = run.variant("sea_time.inland_limitation", used=inp.purpose == "revalidation")
    if not rules.inland_limitation(inp.purpose, d.count(inland_only), d.count(open_sea),
                                   reading):
        return []
    citation = run.cite("inland_only")
    run.b.finding(Finding(
        "inland_only",
        Msg(f"Revalidação com {d.count(inland_only)} dia(s) só em navegação interior: o "
            "certificado revalidado terá a limitação de somente operar em navegação interior.",
            f"Revalidation with {d.count(inland_only)} day(s) in inland navigation only: the "
            "revalidated certificate is limited to inland navigation."),
        citation, "warning", inp.seafarer.id))
    return ["inland_only"]


def years_and_days(whole: int, rest: int) -> Msg:
    """Whole years and remaining days as said aloud: ``1 ano``, ``1 ano e 163 dias``,
    ``2 anos e 1 dia``, ``15 dias`` (a zero part is left out; nothing at all is ``0 dias``)."""
    pt = [plural(whole, "ano", "anos")] if whole else []
    en = [plural(whole, "year", "years")] if whole else []
    if rest or not whole:
        pt.append(plural(rest, "dia", "dias"))
        en.append(plural(rest, "day", "days"))
    return Msg(" e ".join(pt), " and ".join(en))


def target_outcome(required: int, counted: int) -> Msg:
    """Where the days counted stand against the days the target requires — the one wording
    of the trace and of the reports' target row: ``faltam 202 dias``, or, once reached,
    ``tempo de embarque exigido atingido, com 28 dias a mais`` — ``atingido exatamente`` when
    no day is left over (the JSON's ``eligible: true``)."""
    if counted == required:
        return Msg("tempo de embarque exigido atingido exatamente",
                   "required sea time reached exactly")
    if counted > required:
        extra = counted - required
        return Msg(f"tempo de embarque exigido atingido, com {plural(extra, 'dia', 'dias')} a "
                   "mais", f"required sea time reached, {plural(extra, 'day', 'days')} over")
    missing = required - counted
    return Msg(f"{'falta' if missing == 1 else 'faltam'} {plural(missing, 'dia', 'dias')}",
               f"{plural(missing, 'day', 'days')} missing")


def _eligibility(run: _Run, inp: SeaTimeInput, total: int) -> dict[str, Any] | None:
    """Days still missing for the target category, when the caller gives the requirement.

    The sea time each category requires is in NORMAM-101 Capítulo 2, which is not in the
    seeds: Abordo does not carry those figures. The caller may give ``target.required_days``
    (with its ``source``); the output then flags it as an unconfirmed, caller-given figure.
    """
    if inp.target is None:
        return None
    tgt = inp.target
    if tgt.required_days is None:
        return {"target_category": tgt.category, "required_days": None, "missing_days": None,
                "eligible": None, "requirement_source": None}
    run.b.unconfirmed(UnconfirmedParameter(
        f"target.required_days.{tgt.category}", Msg.same(str(tgt.required_days)),
        Msg.same(tgt.source) if tgt.source else Msg(
            "informado na entrada (a NORMAM-101, Cap. 2, não é modelada pelo Abordo)",
            "given in the input (NORMAM-101, Cap. 2, is not modelled by Abordo)"),
        run.regime))
    missing = max(0, tgt.required_days - total)
    outcome = target_outcome(tgt.required_days, total)
    run.b.step("eligibility", f"Meta {tgt.category}: exige "
               f"{plural(tgt.required_days, 'dia', 'dias')} (informado); contados {total}; "
               f"{outcome.pt}.",
               f"Target {tgt.category}: requires {plural(tgt.required_days, 'day', 'days')} "
               f"(as given); counted {total}; {outcome.en}.", None,
               required_days=tgt.required_days, missing_days=missing)
    return {"target_category": tgt.category, "required_days": tgt.required_days,
            "missing_days": missing, "eligible": missing == 0,
            "requirement_source": tgt.source or "caller"}


def _declaration_findings(run: _Run, inp: SeaTimeInput) -> None:
    """Own declarations (1.26.2 b–d), prior-format declarations (1.26.1, Observação), and
    declarations of a company with no CIR record: they count nothing ("os períodos não
    coincidentes não serão considerados", 1.26.1 e) — most often a company name spelt
    otherwise than in the CIR, or a missing CIR entry, so they are reported (not refused:
    the rest of the service still counts)."""
    # As they are matched: an Anexo 1-S against Brazilian-flag records, an Anexo 1-H against
    # foreign-flag ones.
    cir_companies = {r.company.casefold() for r in inp.cir if r.flag == "BR"}
    foreign_companies = {r.company.casefold() for r in inp.cir if r.flag != "BR"}
    stray: list[tuple[str, Declaration | ForeignDeclaration, str, str]] = [
        (f"declarations[{i}]", dec, "Anexo 1-S", "not_declared")
        for i, dec in enumerate(inp.declarations)
        if dec.company.casefold() not in cir_companies]
    stray += [(f"foreign_declarations[{i}]", dec, "Anexo 1-H", "foreign_not_declared")
              for i, dec in enumerate(inp.foreign_declarations)
              if dec.company.casefold() not in foreign_companies]
    for where, dec, annex, rule in stray:
        ship_pt = " em navio de bandeira " + ("estrangeira" if annex == "Anexo 1-H" else
                                             "brasileira")
        ship_en = " on a " + ("foreign" if annex == "Anexo 1-H" else "Brazilian") + \
            "-flag ship"
        run.b.finding(Finding("declaration_without_cir_record", Msg(
            f"Declaração ({annex}) da empresa '{dec.company}', {br_date(dec.from_)}–"
            f"{br_date(dec.to)}, sem registro dessa empresa na CIR{ship_pt}: não conta dia "
            "algum. Conferir a grafia do nome da empresa ou o registro do embarque na CIR.",
            f"Declaration ({annex}) of company '{dec.company}', {dec.from_.isoformat()}–"
            f"{dec.to.isoformat()}, with no CIR record of that company{ship_en}: it counts no "
            "day. Check the company's name as spelt in the CIR, or the CIR entry."),
            run.cite(rule), "warning", where))
    for i, dec in enumerate(inp.declarations):
        where = f"declarations[{i}]"
        if dec.own_declaration:
            missing = [a for a in OWN_DECLARATION_ATTACHMENTS
                       if dec.attachments is not None and a not in dec.attachments]
            text = provision("own_declaration", run.on).text
            run.b.finding(Finding("own_declaration", Msg(
                f"{text.pt} ({dec.company}, {br_date(dec.from_)}–"
                f"{br_date(dec.to)}).",
                f"{text.en} ({dec.company}, {dec.from_.isoformat()}–{dec.to.isoformat()})."),
                run.cite("own_declaration"), "info", where))
            if dec.attachments is None or missing:
                names = ", ".join(missing or OWN_DECLARATION_ATTACHMENTS)
                run.b.finding(Finding("own_declaration_attachments", Msg(
                    f"Conferir os anexos da declaração própria (item 1.26.2 d): {names}.",
                    f"Check the own declaration's attachments (item 1.26.2 d): {names}."),
                    run.cite("own_declaration"), "warning", where))
        if dec.prior_format and dec.from_ < annex_1s_since():  # (its later days: a warning)
            run.b.finding(Finding("prior_format_declaration",
                                  provision("prior_format_declaration", run.on).text,
                                  run.cite("prior_format_declaration"), "info", where))

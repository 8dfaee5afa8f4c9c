"""The sea-time rules of NORMAM-101/DPC (items 1.26–1.29) as small pure functions.

Each function answers one question of the text and names its provision; the engine
(:mod:`abordo.sea_time.engine`) composes them over day sets. A function returning a reason
returns one of the exclusion ids of the worked cases' vocabulary (``lower_function``,
``fixed_platform`` …) or ``None`` when the rule does not exclude.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from abordo.sea_time import days as d
from abordo.sea_time.catalog import Category, PartyTable, categories
from abordo.sea_time.model import CirRecord, InstructorActivity, Manoeuvre, Seafarer

#: Units where item 1.27 requires one of the listed offshore roles.
ROLE_UNITS = frozenset({"fpso", "fsu", "drillship"})
#: Non-fixed platforms other than FPSO/FSU/drillships (role required only under the
#: ``sea_time.offshore_roles.all_platforms`` reading).
OTHER_PLATFORMS = frozenset({"semi_submersible", "jack_up", "mobile_platform", "platform"})
#: Vessel kinds with a rule of their own (item 1.27; shared spec "Vessel kinds that matter").
RULE_KINDS: tuple[str, ...] = (
    "fixed_platform", "fpso", "fsu", "drillship", "semi_submersible", "jack_up",
    "mobile_platform", "platform", "sea_trials",
)
#: Ordinary vessel kinds Abordo recognises (no rule of their own: "qualquer embarcação que
#: esteja normalmente em serviço", item 1.27). Any other kind is also treated as ordinary,
#: with an info finding, since it is probably a typo of one of these or of RULE_KINDS.
ORDINARY_KINDS = frozenset({
    "other", "vessel", "ship", "general_cargo", "multipurpose", "bulk_carrier", "ore_carrier",
    "container_ship", "tanker", "oil_tanker", "crude_tanker", "product_tanker",
    "chemical_tanker", "shuttle_tanker", "gas_carrier", "lpg_carrier", "lng_carrier",
    "ro_ro", "car_carrier", "reefer", "livestock_carrier", "heavy_lift", "passenger",
    "passenger_ship", "cruise_ship", "ferry", "tug", "pusher", "barge", "push_tow",
    "offshore_supply", "psv", "ahts", "anchor_handling", "crew_boat", "rsv", "dsv",
    "pipe_layer", "pipelay", "crane_vessel", "well_stimulation", "survey_vessel",
    "research_vessel", "cable_layer", "dredger", "fishing_vessel", "trawler",
    "training_ship", "icebreaker", "yacht", "patrol_vessel",
})
#: Groups (and departments) whose Navy sea days count for EPM courses (item 1.28).
NAVY_GROUPS = frozenset({"maritime", "river", "fisher"})
NAVY_DEPARTMENTS = frozenset({"health", "catering"})


def cat(code: str) -> Category:
    return categories().by_code[code]


def unit_exclusion(rec: CirRecord, offshore_roles: str) -> str | None:
    """Whether the unit itself keeps the period from counting (NORMAM-101 item 1.27).

    "qualquer embarcação que esteja normalmente em serviço … incluindo … plataformas (exceto
    as fixas) FPSO, FSU e navios-sonda, quando o oficial exercer as funções de Gerente de
    Instalação Offshore, Supervisor de Embarcação, Operador de Controle de Lastro,
    Supervisor de Manutenção e Operador de Posicionamento Dinâmico."

    Returns ``not_in_service`` (vessel not normally in service), ``fixed_platform``,
    ``function_not_counted_on_unit`` (FPSO/FSU/drillship — or, under
    ``offshore_roles == "all_platforms"``, any non-fixed platform — without a listed role
    exercised by an officer),
    or ``None``. Sea trials are judged day by day in :func:`sea_trial_excluded_days`.
    """
    if not rec.in_service:
        return "not_in_service"
    if rec.kind == "fixed_platform":
        return "fixed_platform"
    role_units = ROLE_UNITS | (OTHER_PLATFORMS if offshore_roles == "all_platforms" else set())
    # "quando o oficial exercer as funções de …": the role counts for an officer only.
    if rec.kind in role_units and (rec.offshore_role is None or not cat(rec.function).officer):
        return "function_not_counted_on_unit"
    return None


def function_exclusion(rec: CirRecord, seafarer: Seafarer) -> str | None:
    """Whether the function exercised keeps the period from counting (items 1.27 and 1.28).

    - ``other_group``: "não será computado … cargo ou função de categoria de grupo diferente
      ao que pertença" (1.28);
    - ``other_department``: a function of another department is not one "para a qual está
      habilitado" (1.27);
    - ``lower_function``: "não será computado … exercendo cargo ou função inferior à sua
      categoria" (1.28) — judged on the levels of equivalence within the department; also
      a function under LCS at or below the seafarer's category now (the real category then
      was below it);
    - ``above_category_without_lcs``: a higher function without a Licença de Categoria
      Superior is not one the seafarer is qualified for (1.27; LCS: 1.28).
    """
    fn, own = cat(rec.function), cat(seafarer.category)
    if seafarer.group not in fn.groups:
        return "other_group"
    if fn.department != own.department:
        return "other_department"
    if rec.lcs and fn.level <= own.level:
        # Under a licence the real category was below the function exercised — so below
        # the seafarer's category now: time of a lower category (1.28: it counts in the real
        # category, not the licensed one).
        return "lower_function"
    if fn.code == own.code:
        return None
    if fn.level < own.level:
        return "lower_function"
    if fn.level > own.level and not rec.lcs:
        return "above_category_without_lcs"
    return None


def levels_compared(rec: CirRecord, seafarer: Seafarer) -> bool:
    """True when :func:`function_exclusion` decided by comparing two categories' levels."""
    fn, own = cat(rec.function), cat(seafarer.category)
    return (seafarer.group in fn.groups and fn.department == own.department
            and fn.code != own.code)


def counted_category(rec: CirRecord, seafarer: Seafarer) -> str:
    """The category the period counts in (item 1.28).

    "O tempo de embarque exercendo função sob Licença de Categoria Superior (LCS) … não será
    computado … na categoria exercida sob licença, mas sim na categoria real do aquaviário."
    Otherwise the function exercised (equal to or, at the same level, beside the category).
    """
    return seafarer.category if rec.lcs else rec.function


def declaration_categories(rec: CirRecord, seafarer: Seafarer, lcs_reading: str) -> set[str]:
    """The declared categories that match the CIR record (item 1.26.1 d–e: same category).

    Normally the function on the CIR. Under LCS, the reading ``function_or_real`` also accepts
    a declaration of the seafarer's real category (``sea_time.lcs_declaration``).
    """
    ok = {rec.function}
    if rec.lcs and lcs_reading == "function_or_real":
        ok.add(seafarer.category)
    return ok


def flag_exclusion(flag: str, parties: PartyTable) -> str | None:
    """``flag_not_stcw_party`` when the flag state is not (shown to be) party to STCW-78.

    NORMAM-101 item 1.29: "será computado o período … embarcado em navios de outras
    bandeiras cujos países sejam, em princípio, signatários da Convenção STCW-78, como
    emendada". Brazil (``BR``) is not a foreign flag and never excluded here.
    """
    if flag == "BR":
        return None
    return None if parties.party_for(flag) else "flag_not_stcw_party"


def sea_trial_excluded_days(rec: CirRecord, period: d.Days, sea_trials: str) -> d.Days:
    """Days of sea trials before the provisional ownership document (item 1.27).

    "Poderá contar ainda, o tempo de embarque em provas de mar nas embarcações em fase de
    construção, após a emissão do Documento Provisório de Propriedade (DPP)." Without a DPP
    date every day is before it. ``sea_trials``: ``from_dpp_day`` (the DPP day counts) or
    ``after_dpp_day``.
    """
    if rec.kind != "sea_trials":
        return d.empty()
    if rec.dpp_date is None:
        return period
    first = rec.dpp_date if sea_trials == "from_dpp_day" else rec.dpp_date + dt.timedelta(1)
    excluded: d.Days = period & d.before(first)
    return excluded


def manoeuvre_exclusion(m: Manoeuvre, seafarer: Seafarer, who: str) -> str | None:
    """Whether a recorded manoeuvre cannot count (item 1.27).

    "manobras de aproximação, atracação/amarração, fundear/ancoragem, suspender/desancoragem
    e acompanhamento de operações de carga e descarga de navios petroleiros em terminais,
    quando realizadas em mar aberto. Para Oficiais de Náutica … 1 (um) dia de embarque quando
    o Oficial realizar uma ou mais manobras, no mesmo dia". ``who``: ``nautical_officers``
    (default) or ``deck_department`` (``sea_time.manoeuvres``).
    """
    if m.navigation != "open_sea":
        return "manoeuvre_not_open_sea"
    own = cat(seafarer.category)
    ok = own.nautical_officer if who == "nautical_officers" else own.department == "deck"
    return None if ok else "manoeuvre_not_nautical_officer"


#: Rules whose excluded days are reported under another reason of the output vocabulary
#: (tests/cases/README.md): an expired certificate is no "Certificado de Competência que
#: esteja, ainda, dentro da validade" — the instructor rule's own condition (1.27) —, so its
#: days are ``instructor_only_for_revalidation``, cited by the expiry rule.
REASON_OF_RULE = {"certificate_expired": "instructor_only_for_revalidation"}


def instructor_exclusion(purpose: str, seafarer: Seafarer, on: dt.date) -> str | None:
    """Whether instructor/inspector activity can count at all (item 1.27).

    "No caso de Oficiais de Náutica ou de Máquinas brasileiros prestando serviço como
    inspetores navais, instrutores de simuladores … para efeito de manutenção do Certificado
    de Competência que esteja, ainda, dentro da validade". Only for ``revalidation``
    (``instructor_only_for_revalidation``), only for nautical or engine officers
    (``instructor_not_officer``) and, when the input gives the certificate's expiry, only
    while it is valid on the request date (``certificate_expired``).
    """
    if purpose != "revalidation":
        return "instructor_only_for_revalidation"
    own = cat(seafarer.category)
    if not (own.nautical_officer or own.engine_officer):
        return "instructor_not_officer"
    if seafarer.certificate_valid_until is not None and seafarer.certificate_valid_until < on:
        return "certificate_expired"
    return None


def qualifying_dates(activities: Iterable[InstructorActivity], min_hours: int
                     ) -> set[dt.date]:
    """The activity days that count toward the ratio: at least ``min_hours`` (4) hours of
    activity on the day — the hours of one day's sessions added up, since the minimum is of
    the day's activity ("com uma atividade mínima de quatro horas", 1.27)."""
    hours: dict[dt.date, Decimal] = {}
    for a in activities:
        hours[a.date] = hours.get(a.date, Decimal(0)) + a.hours
    return {day for day, h in hours.items() if h >= min_hours}


def instructor_sea_days(activity_days: int, ratio: int, reading: str) -> int:
    """Sea days from qualifying activity days (item 1.27).

    "Será computado na razão de 2 (dois) por 1 (um), ou seja, cada 2 (dois) dias de
    atividades laborais será considerado como 1 (um) dia de embarque". ``reading``: ``floor``
    (default, an odd day left over does not count) or ``ceil``.
    """
    if reading == "ceil":
        return -(-activity_days // ratio)
    return activity_days // ratio


def navy_exclusion(purpose: str, seafarer: Seafarer) -> str | None:
    """Whether Navy sea days can count (item 1.28).

    "Os aquaviários pertencentes aos Grupos Marítimos, Fluviários, Pescadores e das Seções
    de Saúde e Câmara oriundos da Marinha do Brasil, poderão contabilizar os seus dias de
    mar … para o fim específico de realização de cursos do Ensino Profissional Marítimo".
    """
    if purpose != "course":
        return "navy_only_for_courses"
    if seafarer.group not in NAVY_GROUPS and seafarer.dept not in NAVY_DEPARTMENTS:
        return "navy_group_not_listed"
    return None


#: Purposes for which item 1.28 sets the year: "Para efeito de ascensão de categoria ou
#: requisito para cursos, deverá ser considerado 1 (um) ano igual a 365 dias" — not the
#: revalidation of a certificate (shared spec, sea-time rule 8).
YEAR_365_PURPOSES = frozenset({"promotion", "course"})


def year_rule_applies(purpose: str) -> bool:
    """Whether item 1.28's "1 ano = 365 dias" governs the count of ``purpose``."""
    return purpose in YEAR_365_PURPOSES


def years(days: int, per_year: int, reading: str) -> tuple[Decimal, int, int]:
    """``(years with two decimals, whole years, remaining days)`` (item 1.28: 1 year = 365).

    ``reading``: ``half_up`` (default: the spec's "two decimals") or ``truncate``.
    """
    rounding = ROUND_DOWN if reading == "truncate" else ROUND_HALF_UP
    y = (Decimal(days) / Decimal(per_year)).quantize(Decimal("0.01"), rounding=rounding)
    return y, days // per_year, days % per_year


def inland_limitation(purpose: str, inland_only_days: int, open_sea_days: int,
                      reading: str) -> bool:
    """Whether the revalidated certificate carries "somente navegação interior" (item 1.27).

    "O embarque na navegação interior também será considerado na contagem de tempo.
    Contudo, por ocasião da revalidação de Certificados de Competência, constará a limitação
    de somente operar em navegação interior." ``inland_only_days``: counted days aboard that
    come only from inland navigation. ``reading``: ``any_inland_day`` or ``all_inland``.
    """
    if purpose != "revalidation" or inland_only_days == 0:
        return False
    return reading == "any_inland_day" or open_sea_days == 0


def kind_recognised(kind: str) -> bool:
    """Whether ``kind`` is a vessel kind Abordo knows (with a rule of its own or ordinary).

    The shared spec: "any other kind is an ordinary vessel" (item 1.27) — an unknown kind is
    still counted as ordinary; the engine only reports it, as it may be a typo.
    """
    return kind in RULE_KINDS or kind in ORDINARY_KINDS


def closest_kind(kind: str) -> str | None:
    """The known kind ``kind`` most probably misspells (``containr_ship`` → ``container_ship``)."""
    import difflib

    match = difflib.get_close_matches(kind, sorted({*RULE_KINDS, *ORDINARY_KINDS}), n=1,
                                      cutoff=0.75)
    return match[0] if match else None

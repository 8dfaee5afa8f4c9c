"""Rules of the immigration status of foreign crew (immigration.md), as small pure functions.

Figures come from ``data/params.yaml`` (dated, with provision, source and ``confirmed``);
regimes from ``data/regimes.yaml`` with windows of force from the norm registry. Nothing here
builds a decision: :mod:`abordo.immigration.engine` does.

- RN CNIg 31/1998 (1998 → 2003-12-09): long-haul exemption (art. 2), temporary visa for
  crew of a foreign vessel under contract with a Brazilian company (arts. 1, 2 sole
  paragraph), the charterer's 8 business days to request the work authorization (art. 9),
  the protocol's 30 days (art. 9 §§1–2), the extension request 30 days before the stay ends
  (art. 10 §1), non-crew professionals outside (art. 14).
- RN CNIg 06/2017 as amended by Res. CNIg 42/2020 (from 2020-10-14): up to 90 days of stay
  per migratory year with a visit visa or the ILO C185 exemption (art. 11), beyond that a
  residence authorization (arts. 1, 3 §2, 5, 11 §1); a continuous stay past 90 days needs it
  whatever the migratory year (``immigration.stay.continuous_beyond_year``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from abordo.crew.model import Document
from abordo.law import calendar
from abordo.law.calendar import add_business_days, add_days, add_years, is_business_day
from abordo.law.decision import Msg
from abordo.law.norms import norm_registry
from abordo.law.params import dated_value, in_window, load_data
from abordo.law.text import br_date

PKG = "abordo.immigration"


# --- dated figures ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Param:
    """A dated figure in force on a date: value, the provision stating it, source, confirmed.

    ``legal`` is False for an Abordo setting that is not a legal figure.
    """

    name: str
    value: Any
    norm: str
    version: str | None
    provision: str
    source: Msg
    confirmed: bool
    legal: bool = True


def param(name: str, on: dt.date) -> Param:
    """The figure ``name`` of ``data/params.yaml`` in force on ``on``.

    Raises ``LookupError`` when no entry covers the date (a caller asked for a figure of a
    regime not in force: a programming error, never a user's).
    """
    entries: list[dict[str, Any]] = load_data(PKG, "data/params.yaml")[name]
    pv = dated_value(entries, on)
    if pv is None:
        raise LookupError(f"no value of {name} in force on {on.isoformat()}")
    raw = next(e for e in entries if e["valid_from"] == pv.valid_from)
    return Param(name, pv.value, str(raw["norm"]), raw.get("version"), str(raw["provision"]),
                 pv.source, pv.confirmed, bool(raw.get("legal", True)))


# --- regimes ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outside:
    """Activities governed, from ``valid_from``, by a specific resolution not modelled."""

    activities: tuple[str, ...]
    valid_from: dt.date
    reason: Msg


@dataclass(frozen=True)
class Regime:
    """One immigration regime: its norm/version and the provisions the engine cites."""

    id: str
    norm: str
    version: str
    contracts: tuple[str, ...] | None
    contract_provision: str | None
    long_haul_activities: tuple[str, ...]
    long_haul_provision: str | None
    long_haul_basis: tuple[str, str] | None
    long_haul_after: Msg | None
    cabotage_activities: tuple[str, ...]
    cabotage_provision: str | None
    non_crew_provision: str | None
    # Why a Brazilian-flag vessel's foreign crew is not covered, naming the norms of the
    # regime's time (a revoked norm is not cited as if in force).
    brazilian_flag: Msg
    outside: tuple[Outside, ...] = field(default_factory=tuple)
    short_label: str | None = None  # the norm in short, for a citation column

    def outside_reason(self, activity: str, on: dt.date) -> Msg | None:
        """Why ``activity`` falls under a specific resolution on ``on`` (None if it does not)."""
        for o in self.outside:
            if activity in o.activities and o.valid_from <= on:
                return o.reason
        return None


@dataclass(frozen=True)
class RegimeTables:
    regimes: tuple[Regime, ...]
    candidates: tuple[str, ...]
    topic: Msg
    gap: Msg
    consequence: dict[str, Any]


def _msg(d: dict[str, Any]) -> Msg:
    return Msg(str(d["pt"]), str(d["en"]))


@cache
def regime_tables() -> RegimeTables:
    """``data/regimes.yaml`` parsed (read once)."""
    data = load_data(PKG, "data/regimes.yaml")
    regs = []
    for r in data["regimes"]:
        basis = r.get("long_haul_basis")
        regs.append(Regime(
            id=r["id"], norm=r["norm"], version=r["version"],
            contracts=tuple(r["contracts"]) if r.get("contracts") else None,
            contract_provision=r.get("contract_provision"),
            long_haul_activities=tuple(r.get("long_haul_activities", ())),
            long_haul_provision=r.get("long_haul_provision"),
            long_haul_basis=(basis["norm"], basis["provision"]) if basis else None,
            long_haul_after=_msg(r["long_haul_after"]) if r.get("long_haul_after") else None,
            cabotage_activities=tuple(r.get("cabotage_activities", ())),
            cabotage_provision=r.get("cabotage_provision"),
            non_crew_provision=r.get("non_crew_provision"),
            brazilian_flag=_msg(r["brazilian_flag"]),
            outside=tuple(Outside(tuple(o["activities"]), o["valid_from"], _msg(o))
                          for o in r.get("outside", [])),
            short_label=r.get("short_label"),
        ))
    return RegimeTables(tuple(regs), tuple(data["candidates"]), _msg(data["topic"]),
                        _msg(data["gap"]), data["consequence"])


def regime_on(on: dt.date) -> Regime | None:
    """The modelled regime whose norm version is in force on ``on`` (registry windows)."""
    reg = norm_registry()
    for r in regime_tables().regimes:
        norm = reg[r.version]
        if norm.modelled and norm.in_force_on(on):
            return r
    return None


# --- documents --------------------------------------------------------------------------------

REQUEST_OF = {
    "work_authorization_request": "work_authorization",
    "residence_authorization_request": "residence_authorization",
}


def is_request(doc: Document) -> bool:
    """A request not (yet) decided: a ``*_request`` type, or a document with only a
    ``protocol_date`` (no issue or validity date) — e.g. a pending visa extension."""
    return doc.type in REQUEST_OF or (
        doc.protocol_date is not None and doc.issued_on is None and doc.valid_until is None)


def requested_type(doc: Document) -> str:
    """What a request asks for (``work_authorization_request`` → ``work_authorization``)."""
    return REQUEST_OF.get(doc.type, doc.type)


def document_status(doc: Document, on: dt.date) -> str:
    """Status of ``doc`` on ``on``: ``valid`` | ``expired`` | ``not_yet_valid`` (granted
    documents, both dates inclusive) or ``pending`` | ``not_yet_filed`` (requests, by their
    protocol date)."""
    if is_request(doc):
        if doc.protocol_date is None:
            return "not_yet_filed"
        return "pending" if doc.protocol_date <= on else "not_yet_filed"
    if doc.issued_on is not None and doc.issued_on > on:
        return "not_yet_valid"
    if doc.valid_until is not None and doc.valid_until < on:
        return "expired"
    return "valid"


def valid_documents(docs: Iterable[Document], kind: str, on: dt.date) -> list[Document]:
    """Granted documents of type ``kind`` valid on ``on``."""
    return [d for d in docs if d.type == kind and not is_request(d)
            and document_status(d, on) == "valid"]


# What a grant of each requested type may be: the residence authorization's request is also
# answered by the temporary visa granted on it (RN 06/2017 art. 3, as amended).
ANSWERED_BY = {"residence_authorization": ("residence_authorization", "temporary_visa")}


def is_answered(doc: Document, docs: Iterable[Document], on: dt.date) -> bool:
    """Whether the request ``doc`` was answered by ``on``: a document of the type it asks
    for (:data:`ANSWERED_BY`) granted on or after its protocol date — the grant decides the
    request, and its validity, not the protocol's, counts from then."""
    if not is_request(doc) or doc.protocol_date is None:
        return False
    kinds = ANSWERED_BY.get(requested_type(doc), (requested_type(doc),))
    return any(d.type in kinds and not is_request(d) and d.issued_on is not None
               and doc.protocol_date <= d.issued_on <= on for d in docs)


def requests_filed(docs: Iterable[Document], kind: str, on: dt.date) -> list[Document]:
    """Every request for ``kind`` protocolled on or before ``on`` (answered or not),
    earliest first — the first is the one a filing deadline judges."""
    out = [d for d in docs if is_request(d) and requested_type(d) == kind
           and document_status(d, on) == "pending"]
    return sorted(out, key=lambda d: d.protocol_date or dt.date.min)


def pending_requests(docs: Iterable[Document], kind: str, on: dt.date) -> list[Document]:
    """Requests for ``kind`` protocolled on or before ``on`` and not yet answered
    (:func:`is_answered`), earliest first."""
    docs = list(docs)
    return [d for d in requests_filed(docs, kind, on) if not is_answered(d, docs, on)]


# --- stays and the migratory year (Res. 42/2020 regime) --------------------------------------

@dataclass(frozen=True)
class Presence:
    """A period in Brazil, ``start``..``end`` both days present; ``end`` None = still there."""

    start: dt.date
    end: dt.date | None
    by: str = "sea"
    mandatory_crew_change: bool = False


@dataclass(frozen=True)
class StayCount:
    """Days of stay counted against the limit on the date judged.

    ``days``: calendar days of stay (per the counting reading) in the migratory year that
    contains the date, added up over its stays; ``continuous_start`` / ``continuous_days``: the
    current continuous stay (one open entry, or entries with no day outside between them) and
    its days up to the date, whatever the migratory year; ``year_limit_date`` /
    ``continuous_limit_date``: the date of the ``limit``-th day by each count (past, or
    projected assuming the person stays). ``continuous`` says whether the continuous stay
    counts too (interpretation ``immigration.stay.continuous_beyond_year``): then
    ``limit_date`` is the earlier of the two and the limit is passed when either count passes
    it; otherwise only the migratory year counts. ``present``: whether the person is in Brazil
    on the date; ``current`` the presence period containing the date. ``past_date``: the day
    the limit was passed — the first day counted after day ``limit`` (immigration.md: "the
    90th day is 2026-11-29 and 2026-11-30 is past 90 days"), by the earlier of the counts
    that passed it; a day spent outside Brazil is no day of stay, so after an exit it is the
    first day back in the country, not the day after day ``limit``. None while not passed.
    """

    year_start: dt.date
    year_end: dt.date
    days: int
    limit: int
    limit_date: dt.date | None
    present: bool
    current: Presence | None
    counted: tuple[tuple[dt.date, dt.date, int], ...]  # (from, to, days) per period
    continuous_start: dt.date | None = None
    continuous_days: int = 0
    year_limit_date: dt.date | None = None
    continuous_limit_date: dt.date | None = None
    continuous: bool = True
    past_date: dt.date | None = None

    @property
    def past_limit(self) -> bool:
        return self.days > self.limit or (self.continuous and self.continuous_days > self.limit)

    @property
    def effective_days(self) -> int:
        """The count compared with the limit: the larger of the two when the continuous stay
        counts, else the migratory year's."""
        return max(self.days, self.continuous_days) if self.continuous else self.days

    @property
    def limit_basis(self) -> str:
        """Which count gives ``limit_date``: ``continuous_stay`` or ``migratory_year``."""
        c, y = self.continuous_limit_date, self.year_limit_date
        if self.continuous and c is not None and (y is None or c < y):
            return "continuous_stay"
        return "migratory_year"

    @property
    def across_year(self) -> bool:
        """Whether counting the continuous stay across the migratory year changes anything
        (limit passed, or the date of the ``limit``-th day) — then the reading is relied on."""
        year_past = self.days > self.limit
        cont_past = year_past or self.continuous_days > self.limit
        c, y = self.continuous_limit_date, self.year_limit_date
        cont_date = min(c, y) if c is not None and y is not None else (c or y)
        return year_past != cont_past or cont_date != y

    @property
    def planned_exit(self) -> dt.date | None:
        return self.current.end if self.current else None


def year_end(start: dt.date, months: int) -> dt.date:
    """Last day of the migratory year starting on ``start`` (``months`` a multiple of 12;
    years to the same day and month, Lei 810/1949)."""
    return add_days(add_years(start, months // 12), -1)


def migratory_year(periods: list[Presence], on: dt.date, months: int, reading: str
                   ) -> tuple[dt.date, dt.date]:
    """The migratory year containing ``on`` (Decreto 9.199/2017 art. 1 sole paragraph VIII).

    ``from_first_entry``: 12 months from the first entry, then on its anniversaries;
    ``reset_at_next_entry``: after a year ends, the next starts at the next entry (the next
    day when the person is still in the country). ``periods`` sorted, starting on or before
    ``on``.
    """
    first = start = periods[0].start
    end = year_end(start, months)
    k = 0
    while on > end:
        if reading == "from_first_entry":
            # Each year starts on an anniversary of the first entry (not the day after the
            # previous year's end: from a 29 February that drifts to 1 March for good).
            k += 1
            start = add_years(first, k * months // 12)
            end = add_days(add_years(first, (k + 1) * months // 12), -1)
            continue
        nxt = add_days(end, 1)
        spanning = [p for p in periods if p.start <= end and (p.end is None or p.end > end)]
        later = [p.start for p in periods if p.start > end]
        if spanning:
            start = nxt
        elif later and min(later) <= on:
            start = min(later)
        else:  # no entry since the year ended: the date is in no year; report the last
            return start, end
        end = year_end(start, months)
    return start, end


def _counted_days(periods: list[Presence], ys: dt.date, ye: dt.date, on: dt.date,
                  inclusive: bool) -> list[dt.date]:
    """Every calendar day counted as stay in ``[ys, min(ye, on)]``, each once (an exit and
    a re-entry on the same day share that day)."""
    out: set[dt.date] = set()
    for p in periods:
        a = max(p.start, ys)
        b = min(p.end or on, on, ye)
        day = a
        while day <= b:
            if inclusive or day != p.start:
                out.add(day)
            day += dt.timedelta(days=1)
    return sorted(out)


def continuous_stay(periods: list[Presence], on: dt.date) -> list[Presence]:
    """The periods of the continuous stay containing ``on``: the current period and the ones
    before it with no full day outside in between (exit on one day, re-entry the next).
    Empty when the person is not in Brazil on ``on``. ``periods`` sorted by start."""
    past = [p for p in periods if p.start <= on]
    if not past or (past[-1].end is not None and past[-1].end < on):
        return []
    i = len(past) - 1
    while i > 0:
        prev_end = past[i - 1].end
        if prev_end is None or (past[i].start - prev_end).days > 1:
            break
        i -= 1
    return past[i:]


def period_order(start: dt.date, end: dt.date | None) -> tuple[dt.date, bool, dt.date]:
    """Periods by start; on one day, one that also ends that day (in and out) first — so an
    exit and a re-entry on the same day follow each other."""
    return start, end is None, end or start


def count_stay(periods: list[Presence], on: dt.date, *, limit: int, months: int,
               inclusive: bool = True, year_reading: str = "from_first_entry",
               continuous: bool = True) -> StayCount:
    """Days of stay in the migratory year containing ``on``, added up over the periods
    (RN 06/2017 art. 11: 'prazo de estada de até noventa dias, a cada ano migratório'), and
    the days of the current continuous stay (art. 1: residence authorization for a 'prazo de
    estada superior a noventa dias').

    ``inclusive`` (interpretation ``immigration.stay.inclusive``): the entry day is day 1 and
    ``on`` counts — entering on 2026-09-01, day 90 is 2026-11-29. ``continuous``
    (interpretation ``immigration.stay.continuous_beyond_year``): a continuous stay that passes
    ``limit`` days passes the limit whatever the migratory year — in Brazil since 2025-11-01
    with no day outside, on 2026-11-01 the new migratory year has 1 day but the stay 366, and
    day 90 was 2026-01-29; with ``continuous=False`` only the migratory year counts and its
    count restarts at 1 on the anniversary. ``limit_date`` is the date of day ``limit``; when
    not yet reached it is projected assuming the person stays. Periods must not overlap; only
    those starting on or before ``on`` count. Raises ``ValueError`` when no period starts by
    ``on``.
    """
    past = sorted((p for p in periods if p.start <= on),
                  key=lambda p: period_order(p.start, p.end))
    if not past:
        raise ValueError("no presence period starts on or before the date judged")
    ys, ye = migratory_year(past, on, months, year_reading)
    days = _counted_days(past, ys, ye, on, inclusive)
    last = past[-1]
    present = last.end is None or last.end >= on
    current = last if present else None
    counted = []
    taken: set[dt.date] = set()  # a day shared by an exit and a re-entry counts once
    for p in past:
        a, b = max(p.start, ys), min(p.end or on, on, ye)
        if b >= a:
            mine = [d for d in days if a <= d <= b and d not in taken]
            taken.update(mine)
            counted.append((a, b, len(mine)))
    year_limit: dt.date | None
    if len(days) >= limit:
        year_limit = days[limit - 1]
    elif present:
        projected = add_days(on, limit - len(days))
        # Past the year's end the migratory year's count restarts at 1 on the next day.
        year_limit = projected if projected <= ye else add_days(ye, limit)
    else:
        year_limit = None
    if present and year_limit == ye:
        # Day ``limit`` falls on the year's last day: the next day opens a new migratory
        # year whose count restarts at 1, so the year's count is not passed then.
        year_limit = add_days(ye, limit)
    chain = continuous_stay(past, on)
    cont_start: dt.date | None = None
    cont_days: list[dt.date] = []
    cont_limit: dt.date | None = None
    if chain:
        cont_start = chain[0].start
        cont_days = _counted_days(chain, cont_start, on, on, inclusive)
        cont_limit = (cont_days[limit - 1] if len(cont_days) >= limit
                      else add_days(on, limit - len(cont_days)))
    limit_date = year_limit
    if continuous and cont_limit is not None and (year_limit is None or cont_limit < year_limit):
        limit_date = cont_limit
    # Art. 11: the limit is passed on day ``limit`` + 1 of stay — a day counted, so a day in
    # Brazil: after an exit on day ``limit`` it is the day of the re-entry in the same year.
    passed = [d[limit] for d in (days, cont_days if continuous else []) if len(d) > limit]
    return StayCount(ys, ye, len(days), limit, limit_date, present, current, tuple(counted),
                     cont_start, len(cont_days), year_limit, cont_limit, continuous,
                     min(passed) if passed else None)


def scheduled_limit(periods: list[Presence], on: dt.date, sc: StayCount, *, months: int,
                    inclusive: bool, year_reading: str) -> dt.date | None:
    """Day ``sc.limit`` of the migratory year as the periods already recorded after ``on``
    (a rotation booked) add up with the stays so far — "stays within one migratory year add
    up" (art. 11): the date, when they reach it within the year; else None."""
    if not sc.present or sc.past_limit:
        return None
    for x in sorted((x for x in periods if x.start > on), key=lambda x: x.start):
        if x.start > sc.year_end:
            break
        end = min(x.end or sc.year_end, sc.year_end)
        ahead = count_stay(periods, end, limit=sc.limit, months=months, inclusive=inclusive,
                           year_reading=year_reading, continuous=False)
        # Past the limit as everywhere: day ``limit`` + 1 (90 days booked are within it).
        if ahead.year_start == sc.year_start and ahead.days > sc.limit:
            return ahead.year_limit_date
    return None


# --- business-day deadlines (RN 31/1998 art. 9) ----------------------------------------------

@dataclass(frozen=True)
class BusinessDeadline:
    """``count`` business days after ``start`` (start excluded): the deadline, the days
    counted and the holidays skipped (date, name) from the ``holidays`` library; ``optional``:
    the days counted that the library lists as optional days off (pontos facultativos —
    Carnival, Corpus Christi…), which are not holidays (spec README rule 5: the national
    holiday calendar)."""

    start: dt.date
    count: int
    state: str | None
    deadline: dt.date
    counted: tuple[dt.date, ...]
    skipped: tuple[tuple[dt.date, Msg], ...]  # each holiday's name in both languages
    optional: tuple[tuple[dt.date, Msg], ...] = ()  # pontos facultativos counted

    def explain(self) -> Msg:
        """The arithmetic in words: days counted, weekends and holidays skipped, and the
        optional days off counted as business days."""
        counted_pt = ", ".join(d.strftime("%d/%m") for d in self.counted)
        counted_en = ", ".join(d.isoformat() for d in self.counted)
        hol_pt = "; ".join(f"{br_date(d)} ({n.pt})" for d, n in self.skipped)
        hol_en = "; ".join(f"{d.isoformat()} ({n.en})" for d, n in self.skipped)
        cal_pt = f"calendário nacional{f' e de {self.state}' if self.state else ''}"
        cal_en = f"national calendar{f' and {self.state}' if self.state else ''}"
        opt_pt = opt_en = ""
        if self.optional:
            opt_pt = ("; contados como dias úteis por serem pontos facultativos, não feriados: "
                      + ", ".join(f"{br_date(d)} ({n.pt})" for d, n in self.optional))
            opt_en = ("; counted as business days, being optional days off (pontos "
                      "facultativos), not holidays: "
                      + ", ".join(f"{d.isoformat()} ({n.en})" for d, n in self.optional))
        return Msg(
            f"{self.count} dias úteis após {br_date(self.start)} (excluído esse "
            f"dia; {cal_pt}): {counted_pt}; feriados pulados: {hol_pt or 'nenhum'}{opt_pt}; "
            f"sábados e domingos pulados → prazo final {br_date(self.deadline)}.",
            f"{self.count} business days after {self.start.isoformat()} (that day excluded; "
            f"{cal_en}): {counted_en}; holidays skipped: {hol_en or 'none'}{opt_en}; "
            f"Saturdays and Sundays skipped → last day {self.deadline.isoformat()}.")


def business_deadline(start: dt.date, count: int, state: str | None) -> BusinessDeadline:
    """The ``count``-th business day after ``start`` (Brazilian national holidays and, when
    given, the state's — :func:`abordo.law.calendar.add_business_days`)."""
    deadline, skipped = add_business_days(start, count, state)
    counted = []
    day = start
    while day < deadline:
        day += dt.timedelta(days=1)
        if is_business_day(day, state):
            counted.append(day)
    # The names in English from the library too (its en_US translation), for --lang en.
    named = tuple((d, Msg(name, calendar.holiday_name(d, state, "en") or name))
                  for d, name in skipped)
    # Optional days off (pontos facultativos) are no holidays: counted, and said so.
    optional = tuple((d, Msg(pt, calendar.optional_day_name(d, state, "en") or pt))
                     for d in counted if (pt := calendar.optional_day_name(d, state)))
    return BusinessDeadline(start, count, state, deadline, tuple(counted), named, optional)


def operation_start(periods: list[tuple[dt.date, dt.date | None]], on: dt.date
                    ) -> dt.date | None:
    """The vessel's entry into AJB under the contract (RN 31/1998 art. 9; spec: "counted
    from the vessel's entry into AJB under the contract"): the first presence period of the
    operation started by ``on`` — a later exit and return does not start the clock again.
    None if none started."""
    past = [p[0] for p in periods if p[0] <= on]
    return min(past) if past else None


def in_force(norm_id: str, on: dt.date) -> bool:
    """Whether ``norm_id`` of the registry is in force on ``on``."""
    n = norm_registry()[norm_id]
    return in_window(on, n.in_force_from, n.in_force_to)


# Document types in words (engine notes and reports say the same).
DOC_TYPES: dict[str, tuple[str, str]] = {
    "visit_visa": ("visto de visita", "visit visa"),
    "temporary_visa": ("visto temporário", "temporary visa"),
    "residence_authorization": ("autorização de residência", "residence authorization"),
    "work_authorization": ("autorização de trabalho", "work authorization"),
    "work_authorization_request": ("pedido de autorização de trabalho",
                                   "work authorization request"),
    "residence_authorization_request": ("pedido de autorização de residência",
                                        "residence authorization request"),
    "seafarer_card": ("carteira internacional de marítimo", "international seafarer's card"),
    "sid_c185": ("documento de identidade de marítimo (OIT C185)",
                 "seafarer identity document (ILO C185)"),
    "passport": ("passaporte", "passport"),
}

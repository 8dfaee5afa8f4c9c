"""RN CNIg 06/2017 as amended by Res. CNIg 42/2020: visit visa / C185 exemption up to 90 days
per migratory year, residence authorization beyond (real values, one rule per test)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from abordo.crew.model import VesselCase
from abordo.immigration import evaluate
from abordo.immigration.rules import Presence, count_stay
from abordo.law.decision import Decision, Verdict
from abordo.law.errors import InputError

CaseFactory = Callable[..., VesselCase]
D = dt.date
PRESENCE = [{"entry": "2026-02-02", "exit": None}]


def person(pid: str = "P01", **kw: object) -> dict[str, object]:
    return {"id": pid, "rank": "AB", "nationality": "PH", **kw}


def row(decision: Decision, pid: str) -> dict[str, Any]:
    persons = decision.result["persons"]
    return next(p for p in persons if p["id"] == pid)


def finding_ids(decision: Decision) -> set[str]:
    return {f.id for f in decision.findings}


# --- counting -----------------------------------------------------------------------------

def test_day_90_and_day_91_counted_inclusively() -> None:
    periods = [Presence(D(2026, 9, 1), None)]
    on90 = count_stay(periods, D(2026, 11, 29), limit=90, months=12)
    on91 = count_stay(periods, D(2026, 11, 30), limit=90, months=12)
    assert (on90.days, on90.limit_date, on90.past_limit) == (90, D(2026, 11, 29), False)
    assert (on91.days, on91.limit_date, on91.past_limit) == (91, D(2026, 11, 29), True)
    assert (on90.year_start, on90.year_end) == (D(2026, 9, 1), D(2027, 8, 31))


def test_stays_in_one_migratory_year_add_up() -> None:
    periods = [Presence(D(2026, 1, 5), D(2026, 1, 25)), Presence(D(2026, 5, 1), None)]
    sc = count_stay(periods, D(2026, 6, 15), limit=90, months=12)
    assert sc.days == 21 + 46
    assert sc.counted == ((D(2026, 1, 5), D(2026, 1, 25), 21), (D(2026, 5, 1), D(2026, 6, 15), 46))
    assert sc.limit_date == D(2026, 7, 8)


def test_the_limit_is_passed_on_the_first_day_of_stay_after_day_90() -> None:
    """A day abroad is no day of stay: after an exit on day 90 the limit is passed on the
    day of the re-entry in the same migratory year (r30-i12, Y01), not on the next day."""
    back = [Presence(D(2023, 3, 1), D(2023, 5, 29)), Presence(D(2024, 2, 29), None)]
    sc = count_stay(back, D(2024, 2, 29), limit=90, months=12)
    assert (sc.year_start, sc.year_end, sc.days) == (D(2023, 3, 1), D(2024, 2, 29), 91)
    assert (sc.limit_date, sc.past_date, sc.past_limit) == (D(2023, 5, 29), D(2024, 2, 29),
                                                            True)
    stay = count_stay([Presence(D(2026, 9, 1), None)], D(2026, 12, 5), limit=90, months=12)
    assert (stay.limit_date, stay.past_date) == (D(2026, 11, 29), D(2026, 11, 30))
    within = count_stay([Presence(D(2026, 9, 1), None)], D(2026, 11, 29), limit=90, months=12)
    assert within.past_date is None


def test_migratory_year_readings_differ_after_a_gap() -> None:
    periods = [Presence(D(2025, 1, 10), D(2025, 2, 28)), Presence(D(2026, 3, 1), None)]
    anniv = count_stay(periods, D(2027, 1, 20), limit=90, months=12)
    reset = count_stay(periods, D(2027, 1, 20), limit=90, months=12,
                       year_reading="reset_at_next_entry")
    assert (anniv.year_start, anniv.days) == (D(2027, 1, 10), 11)
    assert (reset.year_start, reset.year_end, reset.days) == (D(2026, 3, 1), D(2027, 2, 28), 326)


def test_limit_projected_into_next_migratory_year() -> None:
    # 80 days used early in the year, back 5 days before the year ends. The migratory year's
    # count restarts on 2027-01-01 (day 90: 2027-03-31), but the stay that began on
    # 2026-12-27 is continuous: its 90th day, 2027-03-26, comes first.
    periods = [Presence(D(2026, 1, 1), D(2026, 3, 21)), Presence(D(2026, 12, 27), None)]
    sc = count_stay(periods, D(2026, 12, 28), limit=90, months=12)
    assert sc.days == 80 + 2
    assert (sc.year_limit_date, sc.continuous_limit_date) == (D(2027, 3, 31), D(2027, 3, 26))
    assert (sc.limit_date, sc.limit_basis, sc.across_year) == (D(2027, 3, 26),
                                                               "continuous_stay", True)
    year_only = count_stay(periods, D(2026, 12, 28), limit=90, months=12, continuous=False)
    assert (year_only.limit_date, year_only.limit_basis) == (D(2027, 3, 31), "migratory_year")


# --- visit visa / C185 ----------------------------------------------------------------------

def test_c185_holder_regular_until_day_90_then_needs_residence(make_case: CaseFactory) -> None:
    case = make_case([person(sid_c185=True, entries=[{"date": "2026-09-01", "by": "sea"}])],
                     presence=[{"entry": "2026-09-01"}])
    d90 = evaluate(case, D(2026, 11, 29))
    p = row(d90, "P01")
    assert (p["requirement"], p["verdict"], p["deadline"]) == ("exempt_c185", "regular",
                                                               D(2026, 11, 29))
    assert d90.verdict == Verdict.COMPLIANT and d90.regime == "cnig-rn-06-2017@res-42-2020"
    d91 = evaluate(case, D(2026, 11, 30))
    p = row(d91, "P01")
    assert (p["requirement"], p["verdict"]) == ("residence_authorization", "irregular")
    assert p["citation"].label.endswith("art. 11, § 1º")
    assert d91.verdict == Verdict.NON_COMPLIANT
    assert "residence_authorization_missing" in finding_ids(d91)
    # IN SIT 70/2007 was revoked: the consequence says the procedure is not modelled.
    assert d91.result["consequences"][0]["id"] == "procedure_not_modelled"
    assert "Lei nº 13.445/2017" in {c.label for c in d91.citations}  # migration sanctions
    assert {i.id for i in d91.interpretations} >= {"immigration.stay.inclusive",
                                                   "immigration.migratory_year.from_first_entry"}
    assert [u.name for u in d91.unconfirmed] == ["immigration.migratory_year_months"]


def test_exclusive_reading_chosen_by_the_caller(make_case: CaseFactory) -> None:
    case = make_case([person(sid_c185=True, entries=[{"date": "2026-09-01", "by": "sea"}])],
                     presence=[{"entry": "2026-09-01"}])
    d = evaluate(case, D(2026, 11, 30), {"immigration.stay": "exclusive"})
    p = row(d, "P01")
    assert p["stay"]["days"] == 90 and p["verdict"] == "regular"
    chosen = next(i for i in d.interpretations if i.family == "immigration.stay")
    assert chosen.id == "immigration.stay.exclusive" and chosen.chosen_by == "caller"


def test_unknown_option_is_an_input_error(make_case: CaseFactory) -> None:
    case = make_case([person(entries=[{"date": "2026-09-01", "by": "sea"}])], presence=PRESENCE)
    with pytest.raises(InputError) as exc:
        evaluate(case, D(2026, 10, 1), {"immigration.stay": "sometimes"})
    assert exc.value.field == "options.immigration.stay"
    with pytest.raises(InputError) as exc:
        evaluate(case, D(2026, 10, 1), {"immigration.nope": "x"})
    assert exc.value.field == "options.immigration.nope"


def test_visit_visa_valid_expired_and_missing(make_case: CaseFactory) -> None:
    entry = [{"date": "2026-10-01", "by": "sea"}]
    case = make_case([
        person("V1", entries=entry,
               documents=[{"type": "visit_visa", "valid_until": "2027-09-30"}]),
        person("V2", entries=entry,
               documents=[{"type": "visit_visa", "valid_until": "2026-11-01"}]),
        person("V3", entries=entry),
    ], presence=PRESENCE)
    d = evaluate(case, D(2026, 11, 30))
    assert row(d, "V1")["verdict"] == "regular" and row(d, "V1")["deadline"] == D(2026, 12, 29)
    assert row(d, "V2")["verdict"] == "irregular"
    assert row(d, "V2")["documents"][0]["status"] == "expired"
    assert row(d, "V3")["verdict"] == "irregular"
    assert any("reciprocidade" in n.pt for n in row(d, "V3")["notes"])
    assert d.result["counts"] == {"regular": 1, "irregular": 2, "action_due": 0,
                                  "not_applicable": 0}


def test_planned_exit_past_day_90_is_action_due(make_case: CaseFactory) -> None:
    case = make_case([person(entries=[{"date": "2026-04-10", "by": "sea", "exit": "2026-08-30"}],
                             documents=[{"type": "visit_visa", "valid_until": "2027-03-01"}])],
                     presence=PRESENCE)
    d = evaluate(case, D(2026, 6, 15))
    p = row(d, "P01")
    assert (p["requirement"], p["verdict"], p["deadline"]) == (
        "residence_authorization", "action_due", D(2026, 7, 8))
    assert d.verdict == Verdict.COMPLIANT
    f = next(f for f in d.findings if f.id == "residence_authorization_due")
    assert f.severity == "warning" and f.subject == "P01"


def test_residence_authorization_requested_held_and_expired(make_case: CaseFactory) -> None:
    entry = [{"date": "2026-02-02", "by": "sea"}]
    case = make_case([
        person("R1", entries=entry, documents=[
            {"type": "residence_authorization_request", "protocol_date": "2026-04-20"}]),
        person("R2", entries=entry, documents=[
            {"type": "residence_authorization_request", "protocol_date": "2026-06-01"}]),
        person("R3", entries=entry, documents=[
            {"type": "residence_authorization", "issued_on": "2026-01-20",
             "valid_until": "2028-01-19"}]),
        person("R4", entries=entry, documents=[
            {"type": "residence_authorization", "issued_on": "2025-06-01",
             "valid_until": "2026-06-01"}]),
        person("R5", entries=entry, documents=[
            {"type": "residence_authorization", "issued_on": "2026-01-01",
             "valid_until": "2028-06-30"}]),
    ], presence=PRESENCE)
    d = evaluate(case, D(2026, 6, 15))
    assert row(d, "R1")["verdict"] == "action_due"
    assert row(d, "R2")["verdict"] == "action_due"
    late = [f for f in d.findings if f.id == "residence_authorization_request_late"]
    assert [f.subject for f in late] == ["R2"]  # filed after day 90 (2026-05-02)
    assert late[0].text.pt == ("R2: pedido feito em 01/06/2026, quando a estada já passava de "
                               "90 dias (desde 03/05/2026; 90º dia de estada: 02/05/2026).")
    assert (row(d, "R3")["verdict"], row(d, "R3")["deadline"]) == ("regular", D(2028, 1, 19))
    assert row(d, "R3")["citation"].provision == "art. 3º, § 2º"
    assert row(d, "R4")["verdict"] == "irregular"
    assert "residence_authorization_expired" in finding_ids(d)
    beyond = [f for f in d.findings if f.id == "residence_authorization_beyond_maximum"]
    assert [f.subject for f in beyond] == ["R5"]  # more than 2 years (art. 3 § 2)


def test_mandatory_crew_change_by_air_flags_the_federal_police_proof(
        make_case: CaseFactory) -> None:
    case = make_case([person(sid_c185=True, entries=[
        {"date": "2026-05-20", "by": "air", "mandatory_crew_change": True}])], presence=PRESENCE)
    d = evaluate(case, D(2026, 6, 15))
    p = row(d, "P01")
    assert (p["requirement"], p["verdict"]) == ("exempt_c185", "regular")
    f = next(f for f in d.findings if f.id == "pf_proof_mandatory_crew_change")
    assert f.severity == "warning" and f.citation.provision == "art. 11, § 3º"


def test_air_entry_without_crew_change_needs_residence_by_default(
        make_case: CaseFactory) -> None:
    crew = [person(entries=[{"date": "2026-06-01", "by": "air"}],
                   documents=[{"type": "visit_visa", "valid_until": "2027-01-01"}])]
    case = make_case(crew, presence=PRESENCE)
    d = evaluate(case, D(2026, 6, 15))
    assert (row(d, "P01")["requirement"], row(d, "P01")["verdict"]) == (
        "residence_authorization", "irregular")
    assert "immigration.air_entry.crew_change_only" in {i.id for i in d.interpretations}
    alt = evaluate(case, D(2026, 6, 15), {"immigration.air_entry": "any_entry"})
    assert (row(alt, "P01")["requirement"], row(alt, "P01")["verdict"]) == ("visit_visa",
                                                                            "regular")


def test_person_without_entries_uses_the_vessel_presence(make_case: CaseFactory) -> None:
    case = make_case([person(sid_c185=True)], presence=[{"entry": "2026-09-01"}])
    d = evaluate(case, D(2026, 11, 30))
    assert row(d, "P01")["stay"]["days"] == 91 and row(d, "P01")["verdict"] == "irregular"
    assert "entries_missing_vessel_presence_used" in finding_ids(d)
    assert "immigration.entries.vessel_presence" in {i.id for i in d.interpretations}
    with pytest.raises(InputError) as exc:
        evaluate(case, D(2026, 11, 30), {"immigration.entries": "required"})
    assert exc.value.field == "crew[0].entries"


def test_person_who_left_or_has_not_arrived(make_case: CaseFactory) -> None:
    case = make_case([person("L1", entries=[{"date": "2026-03-01", "by": "sea",
                                             "exit": "2026-04-01"}]),
                      person("L2", entries=[{"date": "2026-07-01", "by": "sea"}])],
                     presence=PRESENCE)
    d = evaluate(case, D(2026, 6, 15))
    assert row(d, "L1")["verdict"] == "not_applicable" and "not_in_country" in finding_ids(d)
    assert row(d, "L2")["verdict"] == "not_applicable"
    assert d.verdict == Verdict.NOT_APPLICABLE


def test_overlapping_entries_and_request_without_protocol_are_input_errors(
        make_case: CaseFactory) -> None:
    case = make_case([person(entries=[{"date": "2026-05-01", "by": "sea"},
                                      {"date": "2026-03-01", "by": "sea"}])],
                     presence=PRESENCE)
    with pytest.raises(InputError) as exc:
        evaluate(case, D(2026, 6, 15))
    assert exc.value.field == "crew[0].entries[0]"
    case = make_case([person(entries=[{"date": "2026-05-01", "by": "sea"}],
                             documents=[{"type": "residence_authorization_request"}])],
                     presence=PRESENCE)
    with pytest.raises(InputError) as exc:
        evaluate(case, D(2026, 6, 15))
    assert exc.value.field == "crew[0].documents[0].protocol_date"


# --- who is judged, and when ----------------------------------------------------------------

def test_brazilians_are_omitted_and_dual_nationals_count_as_brazilian(
        make_case: CaseFactory) -> None:
    case = make_case([person("B1", nationality="BR"), person("B2", nationality="PT/BR")],
                     presence=PRESENCE)
    d = evaluate(case, D(2026, 6, 15))
    assert d.verdict == Verdict.NOT_APPLICABLE
    assert d.result["brazilians_omitted"] == ["B1", "B2"] and d.result["persons"] == []


def test_brazilian_flag_is_not_covered(make_case: CaseFactory) -> None:
    case = make_case([person()], flag="BR", presence=PRESENCE)
    d = evaluate(case, D(2026, 6, 15))
    assert d.verdict == Verdict.NOT_COVERED and "bandeira brasileira" in d.not_covered_reason.pt


def test_brazilian_flag_reason_names_the_norms_of_its_time(make_case: CaseFactory) -> None:
    """RN CNIg 31/1998 was revoked by RN 58/2003 (DOU 10/12/2003): a date under Res. 42
    (r30-q08, 2025) names what is in force — RN 06/2017 art. 1 (foreign flag) and Lei
    9.432/1997 arts. 4 and 11 § 6 — and RN 31 only while it was in force."""
    case = make_case([person(entries=[{"date": "2025-01-02", "by": "sea"}])], flag="BR",
                     activity="cabotage", contract="none",
                     presence=[{"entry": "2000-01-03", "exit": None}])
    d = evaluate(case, D(2025, 4, 22))
    assert d.verdict == Verdict.NOT_COVERED
    assert d.not_covered_reason.pt == (
        "Situação migratória da tripulação estrangeira: a situação migratória de estrangeiros "
        "tripulantes de embarcação de bandeira brasileira não está modelada (a RN CNIg "
        "06/2017, art. 1º, trata de embarcação ou plataforma de bandeira estrangeira; a Lei nº "
        "9.432/1997, arts. 4º e 11, § 6º, trata apenas da proporção de brasileiros, vista na "
        "cota).")
    assert "RN CNIg 31/1998" not in d.not_covered_reason.en
    assert "Lei 9.432/1997 arts. 4 and 11 §6" in d.not_covered_reason.en
    then = evaluate(case, D(2001, 4, 23))
    assert then.verdict == Verdict.NOT_COVERED
    assert "a RN CNIg 31/1998 arts. 4º–5º e a Lei nº 9.432/1997" in then.not_covered_reason.pt


@pytest.mark.parametrize(("on", "text"), [
    (D(2010, 6, 1), "RN CNIg nº 58/2003"),
    (D(2019, 3, 1), "RN CNIg nº 06/2017 (redação original)"),
    (D(1997, 6, 1), "só vigora a partir de 01/01/1998"),
])
def test_dates_outside_the_modelled_regimes_are_not_covered(
        make_case: CaseFactory, on: dt.date, text: str) -> None:
    case = make_case([person(entries=[{"date": on.isoformat(), "by": "sea"}])],
                     presence=[{"entry": on.isoformat()}])
    d = evaluate(case, on)
    assert d.verdict == Verdict.NOT_COVERED and d.regime is None
    assert text in d.not_covered_reason.pt and d.result["persons"] == []


def test_long_haul_under_res42_depends_on_in_sit_70(make_case: CaseFactory) -> None:
    crew = [person(entries=[{"date": "2021-06-01", "by": "sea"}])]
    case = make_case(crew, activity="long_haul", contract="none")
    d = evaluate(case, D(2021, 6, 10))
    p = row(d, "P01")
    assert (p["requirement"], p["verdict"]) == ("none_long_haul", "regular")
    assert p["citation"].label == "IN SIT nº 70/2007, art. 13, IV"
    later = evaluate(case, D(2022, 1, 10))
    assert later.verdict == Verdict.NOT_COVERED and "Lei nº 13.445/2017" in \
        later.not_covered_reason.pt


def test_cruise_ship_crew_is_not_covered(make_case: CaseFactory) -> None:
    case = make_case([person(entries=[{"date": "2026-01-05", "by": "sea"}])], activity="cruise",
                     presence=[{"entry": "2026-01-05"}])
    d = evaluate(case, D(2026, 2, 1))
    assert d.verdict == Verdict.NOT_COVERED and "RN CNIg nº 05/2017" in d.not_covered_reason.pt


def test_irregular_during_in_sit_70_gets_the_auto_de_infracao(make_case: CaseFactory) -> None:
    case = make_case([person(entries=[{"date": "2021-01-04", "by": "sea"}])],
                     presence=[{"entry": "2021-01-04"}],
                     brazilian_company={"name": "Contratante Exemplo Ltda."})
    d = evaluate(case, D(2021, 6, 1))
    c = d.result["consequences"][0]
    assert c["id"] == "auto_de_infracao_clt_444" and c["ementa"] == "001139-8"
    assert "Contratante Exemplo Ltda." in c["text"].pt
    assert [x.label for x in c["citations"]] == ["CLT, art. 444", "IN SIT nº 70/2007, art. 14"]
    assert "IN SIT 70/2007, art. 14" in row(d, "P01")["consequence"].pt


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
def test_exit_and_reentry_on_the_same_day_is_one_stay(make_case: CaseFactory,
                                                      order: tuple[int, int, int]) -> None:
    """Out and back in on 2026-02-28 (also a same-day visit): the day counts once, whatever
    order the entries are listed in; day 90 is 2026-01-10 + 89 = 2026-04-09."""
    entries = [{"date": "2026-01-10", "by": "sea", "exit": "2026-02-28"},
               {"date": "2026-02-28", "by": "air", "exit": "2026-02-28"},
               {"date": "2026-02-28", "by": "sea"}]
    case = make_case([person("P1", entries=[entries[i] for i in order],
                             documents=[{"type": "visit_visa", "valid_until": "2027-01-01"}])],
                     presence=PRESENCE)
    p = row(evaluate(case, D(2026, 4, 9)), "P1")
    assert (p["requirement"], p["verdict"]) == ("visit_visa", "regular")
    stay = p["stay"]
    assert (stay["days"], stay["continuous_start"]) == (90, D(2026, 1, 10))
    # Each day belongs to one period: the periods add up to the total.
    assert [x["days"] for x in stay["periods"]] == [50, 0, 40]
    assert sum(x["days"] for x in stay["periods"]) == stay["days"]
    assert row(evaluate(case, D(2026, 4, 10)), "P1")["verdict"] == "irregular"


def test_overlapping_entries_are_refused_naming_the_entry(make_case: CaseFactory) -> None:
    case = make_case([person("P1", entries=[{"date": "2026-01-10", "by": "sea",
                                             "exit": "2026-03-01"},
                                            {"date": "2026-02-28", "by": "sea"}])],
                     presence=PRESENCE)
    with pytest.raises(InputError) as err:
        evaluate(case, D(2026, 4, 9))
    assert err.value.field == "crew[0].entries[1]"
    assert "começa antes da saída da anterior (01/03/2026)" in err.value.message


def test_a_residence_request_answered_by_the_temporary_visa_granted_on_it(
        make_case: CaseFactory) -> None:
    """Art. 3: the temporary visa is granted on the residence authorization; once it expired
    (30/09/2025), the request it answered no longer keeps P01 "awaiting decision"."""
    docs = [{"type": "residence_authorization_request", "protocol_date": "2025-03-01"},
            {"type": "temporary_visa", "issued_on": "2025-03-20", "valid_until": "2025-09-30"}]
    c = make_case([person(entries=[{"date": "2025-01-01", "by": "sea"}], documents=docs)],
                  presence=[{"entry": "2025-01-01", "exit": None}])
    d = evaluate(c, D(2026, 1, 5))
    p = row(d, "P01")
    assert p["verdict"] == "irregular" and d.verdict == Verdict.NON_COMPLIANT
    assert [x["status"] for x in p["documents"]] == ["answered", "expired"]


def test_the_articles_not_checked_are_said_with_their_citation(make_case: CaseFactory) -> None:
    d = evaluate(make_case([person(entries=[{"date": "2026-02-02", "by": "sea"}])],
                           presence=PRESENCE),
                 D(2026, 3, 2))
    step = next(s for s in d.trace if s.rule == "regime.not_checked")
    assert "arts. 6º a 8º" in step.text.pt and "art. 12" in step.text.pt
    assert step.citation is not None and step.citation.provision == "arts. 6º a 8º"


def test_a_booked_return_trip_that_passes_90_days_asks_for_the_authorization(
        make_case: CaseFactory) -> None:
    """In 05/01–05/03 (60 days) and back 01/06–15/07 (45): 105 days in one migratory year —
    day 90 falls on 30/06, so the authorization is due now, not 'day 90 if the person stays'
    (04/04, when the person is abroad)."""
    c185 = {"type": "sid_c185", "issued_on": "2020-01-01", "valid_until": "2030-01-01"}
    case = make_case([person(entries=[{"date": "2026-01-05", "by": "sea", "exit": "2026-03-05"},
                                      {"date": "2026-06-01", "by": "sea", "exit": "2026-07-15"}],
                             documents=[c185])], presence=PRESENCE)
    p = row(evaluate(case, D(2026, 2, 20)), "P01")
    assert (p["requirement"], p["verdict"], p["deadline"]) == (
        "residence_authorization", "action_due", D(2026, 6, 30))


@pytest.mark.parametrize(("second", "visa_until", "expect"), [
    # 60 + 30 = 90 days booked: within the limit (passed at day 91, as everywhere).
    ({"date": "2026-06-01", "by": "sea", "exit": "2026-06-30"}, None,
     ("exempt_c185", "regular", None)),
    # A visit visa ending while the person is abroad is no deadline of this stay: day 90.
    ({"date": "2026-06-01", "by": "sea", "exit": "2026-07-15"}, "2026-04-30",
     ("residence_authorization", "action_due", D(2026, 6, 30))),
])
def test_booked_stays_pass_the_limit_at_day_91_and_a_document_ending_abroad_is_no_deadline(
        make_case: CaseFactory, second: dict[str, str], visa_until: str | None,
        expect: tuple[str, str, dt.date | None]) -> None:
    doc = ({"type": "visit_visa", "issued_on": "2025-12-01", "valid_until": visa_until}
           if visa_until else
           {"type": "sid_c185", "issued_on": "2020-01-01", "valid_until": "2030-01-01"})
    case = make_case([person(entries=[{"date": "2026-01-05", "by": "sea",
                                       "exit": "2026-03-05"}, second],
                             documents=[doc])], presence=PRESENCE)
    p = row(evaluate(case, D(2026, 2, 20)), "P01")
    assert (p["requirement"], p["verdict"]) == expect[:2]
    if expect[2] is not None:
        assert p["deadline"] == expect[2] and p["deadline_detail"]["kind"] == "stay_limit"


def test_a_document_ending_before_day_90_of_a_planned_stay_is_the_deadline_shown(
        make_case: CaseFactory) -> None:
    visa = {"type": "visit_visa", "issued_on": "2026-01-01", "valid_until": "2026-03-31"}
    case = make_case([person(entries=[{"date": "2026-02-01", "by": "sea", "exit": "2026-06-30"}],
                             documents=[visa])], presence=PRESENCE)
    p = row(evaluate(case, D(2026, 3, 10)), "P01")
    assert (p["verdict"], p["deadline"]) == ("action_due", D(2026, 3, 31))
    assert p["deadline_detail"]["kind"] == "document_end"


def test_a_violation_resting_on_the_vessels_presence_says_so() -> None:
    """A FAL 5 list carries no entries: the stay of such a person is counted from the
    vessel's presence (immigration.entries.vessel_presence), and the violation a notification
    or an auto will quote says it, not only the interpretations at the end."""
    case = VesselCase.model_validate({
        "vessel": {"name": "X", "flag": "NO", "activity": "offshore_support"},
        "operation": {"contract": "charter", "ajb_presence": [{"entry": "2026-01-01"}]},
        "crew": [{"id": "C1", "rank": "Master", "nationality": "PH"},
                 {"id": "C2", "rank": "AB", "nationality": "PH",
                  "entries": [{"date": "2026-01-01", "by": "sea"}]}]})
    d = evaluate(case, dt.date(2026, 6, 1))
    texts = {f.subject: f.text.pt for f in d.violations}
    assert texts["C1"].endswith("(entradas não informadas: estada contada pelos períodos da "
                                "embarcação em AJB).")
    assert "entradas não informadas" not in texts["C2"]
    assert texts["C1"].split(" (entradas")[0] == texts["C2"].replace("C2", "C1").rstrip(".")


# --- the day the limit is passed after an exit (r30-i12, Y01) ---------------------------------

def _back_on_the_leap_day(make_case: CaseFactory, *documents: dict[str, str]) -> VesselCase:
    """90 days from 01/03/2023 (day 90: 29/05/2023), then abroad until 29/02/2024 — still
    his first migratory year (01/03/2023 to 29/02/2024)."""
    visa = {"type": "visit_visa", "issued_on": "2023-02-01", "valid_until": "2026-01-31"}
    return make_case([person("Y01", rank="Electrician", nationality="PL", entries=[
        {"date": "2023-03-01", "by": "sea", "exit": "2023-05-29"},
        {"date": "2024-02-29", "by": "air", "mandatory_crew_change": True}],
        documents=[visa, *documents])], presence=[{"entry": "2023-01-01", "exit": None}])


def test_past_90_days_on_the_reentry_not_while_abroad(make_case: CaseFactory) -> None:
    d = evaluate(_back_on_the_leap_day(make_case), D(2024, 2, 29))
    p = row(d, "Y01")
    assert (p["requirement"], p["verdict"]) == ("residence_authorization", "irregular")
    step = next(s for s in d.trace if s.rule == "person.Y01.requirement")
    assert step.text.pt == (
        "Y01: 91 dias de estada no ano migratório — passou de 90 dias em 29/02/2024 (primeiro "
        "dia no Brasil depois do 90º dia de estada, 29/05/2023): exige-se autorização de "
        "residência (arts. 1º, 5º e 11, § 1º).")
    assert "past 90 days on 2024-02-29 (the first day in Brazil after day 90 of stay, " \
        "2023-05-29)" in step.text.en
    assert "30/05/2023" not in " ".join(s.text.pt for s in d.trace)


def test_a_request_filed_abroad_before_the_reentry_is_not_late(make_case: CaseFactory) -> None:
    asked = {"type": "residence_authorization_request", "protocol_date": "2024-02-15"}
    d = evaluate(_back_on_the_leap_day(make_case, asked), D(2024, 2, 29))
    assert (row(d, "Y01")["verdict"], row(d, "Y01")["deadline"]) == ("action_due", None)
    assert "residence_authorization_request_late" not in finding_ids(d)


def test_a_request_filed_on_the_reentry_day_is_late(make_case: CaseFactory) -> None:
    asked = {"type": "residence_authorization_request", "protocol_date": "2024-02-29"}
    d = evaluate(_back_on_the_leap_day(make_case, asked), D(2024, 2, 29))
    assert row(d, "Y01")["verdict"] == "action_due"
    (late,) = [f for f in d.findings if f.id == "residence_authorization_request_late"]
    assert late.text.pt == ("Y01: pedido feito em 29/02/2024, quando a estada já passava de 90 "
                            "dias (desde 29/02/2024; 90º dia de estada: 29/05/2023).")
    assert late.text.en == ("Y01: request filed on 2024-02-29, when the stay was already past "
                            "90 days (since 2024-02-29; day 90 of stay: 2023-05-29).")

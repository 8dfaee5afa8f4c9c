"""The sea-time engine, rule by rule, with real values (NORMAM-101/DPC items 1.26–1.29)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sea_time_helpers import D, case, decl, excluded, rec, run, seafarer

from abordo.law.decision import Verdict
from abordo.law.errors import InputError


def test_declared_days_lower_function_platform_and_manoeuvres() -> None:
    """The worked case s01, recomputed: 120 declared days + 2 manoeuvre days."""
    data = case(
        cir=[rec("2025-01-10", "2025-04-09", company="Alfa"),
             rec("2025-06-01", "2025-07-15", company="Beta"),
             rec("2025-09-01", "2025-09-30", "MNC", company="Gama"),
             rec("2025-10-01", "2025-10-20", company="Gama", kind="fixed_platform")],
        declarations=[decl("2025-01-10", "2025-04-09", company="Alfa"),
                      decl("2025-06-01", "2025-06-30", company="Beta"),
                      decl("2025-09-01", "2025-09-30", "MNC", company="Gama"),
                      decl("2025-10-01", "2025-10-20", company="Gama")],
        manoeuvres=[{"date": D("2025-04-09"), "kind": "berthing"},
                    {"date": D("2025-05-03"), "kind": "anchoring"},
                    {"date": D("2025-05-03"), "kind": "weighing_anchor"},
                    {"date": D("2025-05-04"), "kind": "berthing"}])
    d = run(data)
    r = d.result
    assert d.verdict == Verdict.COMPUTED and d.regime == "normam-101-2025"
    assert r["counted_days"] == 122 and r["calendar_days"] == 122
    assert r["by_category"] == {"2ON": 122}
    assert r["breakdown"] == {"cir_declared": 120, "foreign": 0, "standby": 0,
                              "manoeuvres": 2, "instructor": 0, "navy": 0}
    assert r["years"] == Decimal("0.33") and (r["whole_years"], r["remaining_days"]) == (0, 122)
    assert excluded(d) == [("2025-07-01", "2025-07-15", "not_declared"),
                           ("2025-09-01", "2025-09-30", "lower_function"),
                           ("2025-10-01", "2025-10-20", "fixed_platform")]
    labels = {e["reason"]: e["citation"].label for e in r["excluded"]}
    assert labels["not_declared"] == "NORMAM-101/DPC (reedição de 2025), item 1.26.1, e"
    assert labels["lower_function"].endswith("item 1.28")
    assert labels["fixed_platform"].endswith("item 1.27")
    # the lower-function judgement rests on the (unconfirmed) level table
    assert {"categories.level.MNC", "categories.level.2ON"} <= {u.name for u in d.unconfirmed}
    assert r["counted_periods"][1] == {"from": D("2025-05-03"), "to": D("2025-05-04"),
                                       "days": 2, "source": "manoeuvres", "category": "2ON"}


def test_version_by_request_date_and_not_covered() -> None:
    data = case(cir=[rec("2023-10-01", "2023-10-10")], declarations=[decl("2023-10-01",
                                                                          "2023-10-10")])
    d23 = run(data, dt.date(2024, 6, 1))
    assert d23.regime == "normam-101-2023" and d23.result["counted_days"] == 10
    # under the 2023 text (the seed) nothing rests on an unconfirmed provision
    assert not [u for u in d23.unconfirmed if u.name.startswith("normam101.")]
    assert d23.citations[0].label == "NORMAM-101/DPC, item 1.26.1"
    d25 = run(data, dt.date(2025, 1, 20))
    assert d25.regime == "normam-101-2025"
    assert "normam101.cir_declared" in {u.name for u in d25.unconfirmed}
    old = run(data, dt.date(2023, 9, 13))
    assert old.verdict == Verdict.NOT_COVERED and old.regime is None
    assert old.not_covered_reason is not None
    assert "NORMAM-13/DPC" in old.not_covered_reason.pt
    assert "14/09/2023" in old.not_covered_reason.pt


def test_overlapping_records_count_once() -> None:
    data = case(category="MNC",
                cir=[rec("2024-03-01", "2024-04-15", "MNC", company="E"),
                     rec("2024-04-10", "2024-05-30", "MNC", company="Z")],
                declarations=[decl("2024-03-01", "2024-04-15", "MNC", company="E"),
                              decl("2024-04-10", "2024-05-30", "MNC", company="Z")])
    dec = run(data)
    r = dec.result
    assert r["counted_days"] == 91  # not 46 + 51 = 97
    assert r["counted_periods"] == [{"from": D("2024-03-01"), "to": D("2024-05-30"),
                                     "days": 91, "source": "cir_declared", "category": "MNC"}]
    # ...and the record book is questioned: aboard two vessels from 10/04 to 15/04.
    (f,) = [f for f in dec.findings if f.id == "cir_records_overlap"]
    assert f.subject == "cir[1]" and "de 10/04/2024 a 15/04/2024" in f.text.pt
    # A change of vessel on one day (disembark and embark the same day) is no overlap.
    same_day = case(category="MNC", cir=[rec("2024-03-01", "2024-04-15", "MNC"),
                                         rec("2024-04-15", "2024-05-30", "MNC")])
    assert "cir_records_overlap" not in {f.id for f in run(same_day).findings}


def test_category_mismatch_and_partial_declaration() -> None:
    data = case(cir=[rec("2025-02-01", "2025-02-28")],
                declarations=[decl("2025-02-01", "2025-02-10"),
                              decl("2025-02-11", "2025-02-20", "1ON")])
    d = run(data)
    assert d.result["counted_days"] == 10
    assert excluded(d) == [("2025-02-11", "2025-02-20", "category_mismatch"),
                           ("2025-02-21", "2025-02-28", "not_declared")]


def test_lcs_counts_in_real_category_and_declaration_reading() -> None:
    cir = [rec("2025-02-01", "2025-02-28", "1ON", lcs=True)]
    d = run(case(cir=cir, declarations=[decl("2025-02-01", "2025-02-28", "1ON")]))
    assert d.result["by_category"] == {"2ON": 28}
    # a declaration in the real category is accepted by default …
    d2 = run(case(cir=cir, declarations=[decl("2025-02-01", "2025-02-28", "2ON")]))
    assert d2.result["counted_days"] == 28
    assert "sea_time.lcs_declaration.function_or_real" in d2.result["interpretations"]
    # … and not under the strict reading
    d3 = run(case(cir=cir, declarations=[decl("2025-02-01", "2025-02-28", "2ON")]),
             **{"sea_time.lcs_declaration": "function_only"})
    assert d3.result["counted_days"] == 0
    assert excluded(d3) == [("2025-02-01", "2025-02-28", "category_mismatch")]


def test_higher_function_without_lcs_other_department_other_group() -> None:
    cir = [rec("2025-01-01", "2025-01-10", "1ON"), rec("2025-02-01", "2025-02-10", "2OM"),
           rec("2025-03-01", "2025-03-10", "PLF")]
    decls = [decl("2025-01-01", "2025-01-10", "1ON"), decl("2025-02-01", "2025-02-10", "2OM"),
             decl("2025-03-01", "2025-03-10", "PLF")]
    d = run(case(cir=cir, declarations=decls))
    assert d.result["counted_days"] == 0
    assert excluded(d) == [("2025-01-01", "2025-01-10", "above_category_without_lcs"),
                           ("2025-02-01", "2025-02-10", "other_department"),
                           ("2025-03-01", "2025-03-10", "other_group")]
    assert "categories.groups.PLF" in {u.name for u in d.unconfirmed}


def test_same_level_is_not_lower_and_catering_serves_every_group() -> None:
    # a river-group cook: CZA belongs to every group (câmara section, item 1.28)
    d = run(case(seafarer=seafarer("CZA", group="river"),
                 cir=[rec("2025-05-01", "2025-05-31", "CZA")],
                 declarations=[decl("2025-05-01", "2025-05-31", "CZA")]))
    assert d.result["by_category"] == {"CZA": 31}


@pytest.mark.parametrize(("kind", "role", "reading", "days", "reason"), [
    ("fpso", None, "fpso_fsu_drillship", 0, "function_not_counted_on_unit"),
    ("fpso", "dp_operator", "fpso_fsu_drillship", 30, None),
    ("drillship", "oim", "fpso_fsu_drillship", 30, None),
    ("fsu", None, "fpso_fsu_drillship", 0, "function_not_counted_on_unit"),
    ("semi_submersible", None, "fpso_fsu_drillship", 30, None),
    ("semi_submersible", None, "all_platforms", 0, "function_not_counted_on_unit"),
    ("fixed_platform", "oim", "fpso_fsu_drillship", 0, "fixed_platform"),
])
def test_platforms(kind: str, role: str | None, reading: str, days: int,
                   reason: str | None) -> None:
    r = rec("2025-06-01", "2025-06-30", kind=kind, **({"offshore_role": role} if role else {}))
    d = run(case(cir=[r], declarations=[decl("2025-06-01", "2025-06-30")]),
            **{"sea_time.offshore_roles": reading})
    assert d.result["counted_days"] == days
    assert [e[2] for e in excluded(d)] == ([reason] if reason else [])


def test_sea_trials_count_from_the_dpp() -> None:
    trial = rec("2025-03-01", "2025-03-20", kind="sea_trials", dpp_date=D("2025-03-11"))
    data = case(cir=[trial], declarations=[decl("2025-03-01", "2025-03-20")])
    d = run(data)
    assert d.result["counted_days"] == 10
    assert excluded(d) == [("2025-03-01", "2025-03-10", "not_in_service")]
    d2 = run(data, **{"sea_time.sea_trials": "after_dpp_day"})
    assert d2.result["counted_days"] == 9
    no_dpp = rec("2025-03-01", "2025-03-20", kind="sea_trials")
    d3 = run(case(cir=[no_dpp], declarations=[decl("2025-03-01", "2025-03-20")]))
    assert d3.result["counted_days"] == 0
    laid_up = rec("2025-04-01", "2025-04-05", in_service=False)
    d4 = run(case(cir=[laid_up], declarations=[decl("2025-04-01", "2025-04-05")]))
    assert excluded(d4) == [("2025-04-01", "2025-04-05", "not_in_service")]


def test_foreign_flag_party_declared_non_party_and_territory() -> None:
    cir = [rec("2025-01-01", "2025-01-31", company="Lib", flag="LR"),
           rec("2025-02-01", "2025-02-28", company="Lib", flag="LR"),
           rec("2025-03-01", "2025-03-10", company="HKco", flag="HK"),
           rec("2025-04-01", "2025-04-10", company="Kg", flag="KG")]
    fdecls = [decl("2025-01-01", "2025-01-31", company="Lib"),
              decl("2025-03-01", "2025-03-10", company="HKco"),
              decl("2025-04-01", "2025-04-10", company="Kg")]
    d = run(case(cir=cir, foreign_declarations=fdecls))
    r = d.result
    assert r["breakdown"]["foreign"] == 41 and r["breakdown"]["cir_declared"] == 0
    assert excluded(d) == [("2025-02-01", "2025-02-28", "not_declared"),
                           ("2025-04-01", "2025-04-10", "flag_not_stcw_party")]
    not_declared = r["excluded"][0]
    assert not_declared["rule"] == "foreign_not_declared"
    assert not_declared["citation"].provision == "item 1.29.1, c"
    assert "stcw_parties" in {u.name for u in d.unconfirmed}
    assert {f.id for f in d.findings} == {"foreign_in_cir"}


def test_anexo_1s_does_not_cover_a_foreign_flag_and_homologation_is_flagged() -> None:
    cir = [rec("2025-01-01", "2025-01-10", company="Pan", flag="PA",
               entered_in="foreign_record_book")]
    d = run(case(cir=cir, declarations=[decl("2025-01-01", "2025-01-10", company="Pan")]))
    assert d.result["counted_days"] == 0
    # the 1-S matches no Brazilian-flag record: it is reported as such
    assert sorted(f.id for f in d.findings) == ["declaration_without_cir_record",
                                                "foreign_homologation"]


def test_manoeuvres_open_sea_officers_only() -> None:
    mans = [{"date": D("2025-05-03"), "kind": "berthing"},
            {"date": D("2025-05-04"), "kind": "anchoring", "navigation": "inland"}]
    d = run(case(manoeuvres=mans))
    assert d.result["breakdown"]["manoeuvres"] == 1
    assert excluded(d) == [("2025-05-04", "2025-05-04", "manoeuvre_not_open_sea")]
    rating = run(case(category="MNC", manoeuvres=mans[:1]))
    assert rating.result["counted_days"] == 0
    assert excluded(rating) == [("2025-05-03", "2025-05-03", "manoeuvre_not_nautical_officer")]
    deck = run(case(category="MCB", manoeuvres=mans[:1]),
               **{"sea_time.manoeuvres": "deck_department"})
    assert deck.result["counted_days"] == 1


def test_standby_counts_and_joins_the_union() -> None:
    data = case(cir=[rec("2025-05-01", "2025-05-10")],
                declarations=[decl("2025-05-01", "2025-05-10")],
                standby=[{"from": D("2025-05-08"), "to": D("2025-05-15"), "company": "Cia A"}])
    r = run(data).result
    assert r["counted_days"] == 15
    assert r["breakdown"]["cir_declared"] == 10 and r["breakdown"]["standby"] == 5


def _instructor(*hours: int, start: str = "2025-11-03") -> list[dict[str, object]]:
    first = D(start)
    return [{"date": first + dt.timedelta(i), "hours": h, "kind": "simulator_instructor"}
            for i, h in enumerate(hours)]


def test_instructor_ratio_revalidation_only() -> None:
    acts = _instructor(6, 6, 4, 3, 8, 8, 5, 3, 6, 6, 7)  # 9 days of ≥ 4 h
    d = run(case("revalidation", "1ON", instructor_activity=acts), dt.date(2026, 3, 1))
    r = d.result
    assert r["counted_days"] == 4 and r["breakdown"]["instructor"] == 4
    assert r["instructor"]["qualifying_days"] == 9 and r["instructor"]["unpaired_days"] == 1
    assert excluded(d) == [("2025-11-06", "2025-11-06", "below_minimum_hours"),
                           ("2025-11-10", "2025-11-10", "below_minimum_hours")]
    ceil = run(case("revalidation", "1ON", instructor_activity=acts), dt.date(2026, 3, 1),
               **{"sea_time.instructor": "ceil"})
    assert ceil.result["counted_days"] == 5
    promo = run(case("promotion", "1ON", instructor_activity=acts), dt.date(2026, 3, 1))
    assert promo.result["counted_days"] == 0
    assert excluded(promo) == [("2025-11-03", "2025-11-13", "instructor_only_for_revalidation")]


def test_instructor_officers_valid_certificate_and_days_already_aboard() -> None:
    acts = _instructor(6, 6, 6, 6)
    rating = run(case("revalidation", "MNC", instructor_activity=acts))
    assert excluded(rating)[0][2] == "instructor_not_officer"
    expired = run(case("revalidation", seafarer=seafarer(
        "1OM", certificate_valid_until=D("2025-12-31")), instructor_activity=acts))
    # reported under the vocabulary's reason, cited and explained by the expiry rule
    assert excluded(expired)[0][2] == "instructor_only_for_revalidation"
    assert "31/12/2025" in " ".join(s.text.pt for s in expired.trace)
    # two of the four activity days were already counted aboard: (4 - 2) // 2 = 1
    aboard = run(case("revalidation", cir=[rec("2025-11-01", "2025-11-04")],
                      declarations=[decl("2025-11-01", "2025-11-04")],
                      instructor_activity=acts))
    r = aboard.result
    assert r["instructor"]["already_counted"] == 2 and r["breakdown"]["instructor"] == 1
    assert r["counted_days"] == 5


def test_navy_days_courses_only() -> None:
    course = run(case("course", category="MOC", navy_sea_days=120))
    assert course.result["counted_days"] == 120 and course.result["by_category"] == {"MOC": 120}
    promo = run(case("promotion", navy_sea_days={"days": 120, "certificate": "DPMM 1/2025"}))
    assert promo.result["counted_days"] == 0
    assert excluded(promo) == [(None, None, "navy_only_for_courses")]
    assert promo.result["excluded"][0]["days"] == 120
    diver = run(case("course", seafarer=seafarer("MGE", group="diver"), navy_sea_days=30))
    assert excluded(diver) == [(None, None, "navy_group_not_listed")]


def test_open_record_runs_to_the_request_date_and_later_days_are_excluded() -> None:
    data = case(cir=[rec("2026-01-01", None), rec("2026-01-10", "2026-01-20", company="B")],
                declarations=[decl("2026-01-01", "2026-01-31"),
                              decl("2026-01-10", "2026-01-20", company="B")])
    d = run(data, dt.date(2026, 1, 15))
    assert d.result["counted_days"] == 15
    assert excluded(d) == [("2026-01-16", "2026-01-20", "after_request_date")]


def test_period_reading_exclusive_start() -> None:
    data = case(cir=[rec("2025-01-01", "2025-01-10")],
                declarations=[decl("2025-01-01", "2025-01-10")])
    assert run(data).result["counted_days"] == 10
    d = run(data, **{"sea_time.period": "exclusive_start"})
    assert d.result["counted_days"] == 9
    assert "sea_time.period.exclusive_start" in d.result["interpretations"]


def test_years_truncate_or_half_up() -> None:
    data = case(cir=[rec("2024-01-01", "2024-12-29")],
                declarations=[decl("2024-01-01", "2024-12-29")])
    d = run(data)
    assert d.result["counted_days"] == 364
    assert d.result["years"] == Decimal("1.00")  # 364/365 = 0.9973, rounded
    assert run(data, **{"sea_time.years": "truncate"}).result["years"] == Decimal("0.99")
    two = run(case(cir=[rec("2023-10-01", "2025-09-29")],
                   declarations=[decl("2023-10-01", "2025-09-29")]))
    assert (two.result["counted_days"], two.result["whole_years"],
            two.result["remaining_days"]) == (730, 2, 0)


def test_inland_limitation() -> None:
    inland = rec("2025-03-01", "2025-05-29", "1OM", navigation="inland", company="Eta")
    sea = rec("2025-06-01", "2025-06-30", "1OM", company="Eta")
    decls = [decl("2025-03-01", "2025-06-30", "1OM", company="Eta")]
    reval = run(case("revalidation", "1OM", cir=[inland], declarations=decls))
    assert reval.result["limitations"] == ["inland_only"]
    assert [f.id for f in reval.findings] == ["inland_only"]
    mixed = case("revalidation", "1OM", cir=[inland, sea], declarations=decls)
    assert run(mixed).result["limitations"] == ["inland_only"]
    assert run(mixed, **{"sea_time.inland_limitation": "all_inland"}).result[
        "limitations"] == []
    promo = run(case("promotion", "1OM", cir=[inland], declarations=decls))
    assert promo.result["limitations"] == [] and promo.result["counted_days"] == 90


def test_eligibility_only_with_a_given_requirement() -> None:
    data = case(cir=[rec("2025-01-01", "2025-03-31")],
                declarations=[decl("2025-01-01", "2025-03-31")],
                target={"category": "1ON", "required_days": 365, "source": "test figure"})
    d = run(data)
    assert d.result["eligibility"] == {"target_category": "1ON", "required_days": 365,
                                       "missing_days": 275, "eligible": False,
                                       "requirement_source": "test figure"}
    assert "target.required_days.1ON" in {u.name for u in d.unconfirmed}
    unknown = run(case(target={"category": "1ON"}))
    assert unknown.result["eligibility"]["required_days"] is None
    assert run(case()).result["eligibility"] is None


def test_own_and_prior_format_declarations_are_reported() -> None:
    # (a prior format is a declaration issued before the Anexo 1-S model: service of 2023)
    data = case(cir=[rec("2023-08-01", "2023-08-31", company="Closed")],
                declarations=[decl("2023-08-01", "2023-08-31", company="Closed",
                                   own_declaration=True, prior_format=True,
                                   attachments=["crew_list", "cir_copy"])])
    d = run(data)
    assert d.result["counted_days"] == 31
    ids = [f.id for f in d.findings]
    assert ids == ["own_declaration", "own_declaration_attachments",
                   "prior_format_declaration"]
    warning = d.findings[1]
    assert warning.severity == "warning"
    assert "employment_proof, company_registration, antaq_closure" in warning.text.en


def test_excluded_days_merge_per_reason_and_skip_days_counted_elsewhere() -> None:
    data = case(cir=[rec("2025-01-01", "2025-01-10", company="A"),
                     rec("2025-01-11", "2025-01-20", company="B"),
                     rec("2025-01-15", "2025-01-25", company="C")],
                declarations=[decl("2025-01-15", "2025-01-25", company="C")])
    d = run(data)
    assert d.result["counted_days"] == 11
    # A and B undeclared merge into one interval; B's 15–20 were counted through C
    assert excluded(d) == [("2025-01-01", "2025-01-14", "not_declared")]


def test_unknown_option_is_an_input_error() -> None:
    with pytest.raises(InputError) as err:
        run(case(), **{"sea_time.nope": "x"})
    assert err.value.field == "options.sea_time.nope"
    with pytest.raises(InputError) as err2:
        run(case(), **{"sea_time.years": "round_up"})
    assert err2.value.field == "options.sea_time.years"


def test_trace_and_citations_are_complete() -> None:
    d = run(case(cir=[rec("2025-01-01", "2025-01-10")],
                 declarations=[decl("2025-01-01", "2025-01-05")]))
    rules = [s.rule for s in d.trace]
    assert rules[:3] == ["version", "seafarer", "cir_declared"]
    assert rules[-1] == "total"
    # every excluded interval and every counted source is backed by a citation
    provisions = {c.provision for c in d.citations}
    assert {"item 1.26.1, d", "item 1.26.1, e", "item 1.28"} <= provisions
    assert all(e["citation"] is not None for e in d.result["excluded"])


def test_unknown_vessel_kind_counts_as_ordinary_with_an_info_finding() -> None:
    data = case(cir=[rec("2025-03-01", "2025-03-10", kind="containr_ship"),
                     rec("2025-04-01", "2025-04-10", kind="bulk_carrier"),
                     rec("2025-05-01", "2025-05-10", kind="Containr Ship")],
                declarations=[decl("2025-03-01", "2025-05-10")])
    d = run(data)
    assert d.result["counted_days"] == 30 and d.result["excluded"] == []
    [f] = d.findings
    assert (f.id, f.severity, f.subject) == ("unknown_vessel_kind", "info", "cir[0], cir[2]")
    assert f.text.pt == (
        "tipo de embarcação 'containr_ship' não reconhecido: tratado como embarcação comum "
        "(registro(s) 1, 3 da CIR). Tipos com regra própria: fixed_platform, fpso, fsu, "
        "drillship, semi_submersible, jack_up, mobile_platform, platform, sea_trials. "
        "Você quis dizer 'container_ship'?")
    assert f.text.en.startswith("vessel kind 'containr_ship' not recognised: treated as an "
                                "ordinary vessel (CIR entries 1, 3).")
    assert f.citation is not None and f.citation.provision == "item 1.27"
    # a known kind, ordinary or with a rule of its own, raises no finding
    known = case(cir=[rec("2025-03-01", "2025-03-10", kind="tug"),
                      rec("2025-04-01", "2025-04-10", kind="fpso", offshore_role="oim")],
                 declarations=[decl("2025-03-01", "2025-04-10")])
    assert list(run(known).findings) == []


def test_summary_figures_carry_their_legal_basis() -> None:
    data = case(cir=[rec("2025-03-01", "2025-03-10"),
                     rec("2025-04-01", "2025-04-10", company="Tankers Inc", flag="LR")],
                declarations=[decl("2025-03-01", "2025-03-10")],
                foreign_declarations=[decl("2025-04-01", "2025-04-10", company="Tankers Inc")],
                standby=[{"from": D("2025-05-01"), "to": D("2025-05-03")}])
    basis = run(data).result["basis"]
    assert [c.label for c in basis["counted_days"]] == [
        "NORMAM-101/DPC (reedição de 2025), item 1.26.1, d",
        "NORMAM-101/DPC (reedição de 2025), item 1.27",
        "NORMAM-101/DPC (reedição de 2025), item 1.29"]
    assert [c.label for c in basis["years"]] == ["NORMAM-101/DPC (reedição de 2025), item 1.28"]
    # nothing counted: the count rests on the procedure itself (item 1.26.1)
    empty = run(case(), dt.date(2024, 6, 1)).result["basis"]
    assert [c.label for c in empty["counted_days"]] == ["NORMAM-101/DPC, item 1.26.1"]


def test_unconfirmed_sources_are_portuguese_for_the_user() -> None:
    data = case(cir=[rec("2025-03-01", "2025-03-10", "MNC", company="Tankers Inc", flag="LR")],
                foreign_declarations=[decl("2025-03-01", "2025-03-10", company="Tankers Inc")],
                target={"category": "1ON", "required_days": 365})
    d = run(data)
    by_name = {u.name: u for u in d.unconfirmed}
    assert by_name["normam101.procedure"].source.pt == (
        "NORMAM-101/DPC reeditada pela Portaria DPC/DGN/MB nº 169/2025 (DOU 20/01/2025): texto "
        "e número do item da versão de 2023, ainda não conferidos na reedição de 2025")
    assert by_name["categories.level.MNC"].source.pt == (
        "nível de equivalência da NORMAM-13/DPC, Anexo 2-A (norma anterior); a NORMAM-101/DPC, "
        "Cap. 2, não foi conferida — não confirmado")
    assert by_name["stcw_parties"].value.pt == "130 Estados-partes em 30/06/2025"
    assert by_name["stcw_parties"].source.pt.startswith(
        "IMO, Status of IMO Treaties — Convenção STCW-78, como emendada (lista compilada")
    assert by_name["target.required_days.1ON"].source.pt == (
        "informado na entrada (a NORMAM-101, Cap. 2, não é modelada pelo Abordo)")
    for u in d.unconfirmed:
        for jargon in ("not checked", "shared spec", "sea-time.md", "seed", "re-issued",
                       "parties as of", "caller"):
            assert jargon not in u.source.pt and jargon not in u.value.pt, (u.name, jargon)
    # ... and English ones for an English output (was the Portuguese text under --lang en).
    assert by_name["normam101.procedure"].source.en == (
        "NORMAM-101/DPC as re-issued by Portaria DPC/DGN/MB nº 169/2025 (DOU 20/01/2025): "
        "wording and item number of the 2023 version, not yet checked in the 2025 re-issue")
    assert by_name["categories.level.MNC"].source.en == (
        "level of equivalence of NORMAM-13/DPC, Anexo 2-A (the previous norm); NORMAM-101/DPC, "
        "Cap. 2, was not checked — unconfirmed")
    assert by_name["stcw_parties"].value.en == "130 States parties on 2025-06-30"
    assert by_name["target.required_days.1ON"].source.en == (
        "given in the input (NORMAM-101, Cap. 2, is not modelled by Abordo)")
    for u in d.unconfirmed:
        for word in ("conferid", "não ", "informado", "Estados-partes", "nível"):
            assert word not in u.source.en and word not in u.value.en, (u.name, word)


def test_trace_names_the_group_and_department_in_portuguese() -> None:
    d = run(case(cir=[rec("2025-03-01", "2025-03-10")],
                 declarations=[decl("2025-03-01", "2025-03-10")]))
    steps = {s.rule: s.text for s in d.trace}
    assert steps["seafarer"].pt == (
        "Aquaviário T01: categoria 2ON (Segundo Oficial de Náutica), Marítimos (1º grupo), "
        "Seção de Convés; finalidade: ascensão de categoria.")
    assert steps["cir_declared"].pt.startswith(
        "Registro 1 da CIR (Navio, 01/03/2025–10/03/2025, 2ON): 10 dia(s) conferido(s)")


def test_an_open_record_embarking_after_the_request_date_is_an_input_error() -> None:
    """Open = still aboard on the request date (spec, sea-time inputs): embarking after it
    contradicts the record; a closed record after the date is excluded and said so."""
    with pytest.raises(InputError) as err:
        run(case(cir=[rec("2024-01-01", "2024-01-10"), rec("2026-07-01", None)]),
            dt.date(2026, 6, 1))
    assert err.value.field == "cir[1].embark"
    assert err.value.message.startswith("registro em aberto (ainda a bordo) com embarque em "
                                        "01/07/2026, depois da data do requerimento (01/06/2026)")
    closed = run(case(cir=[rec("2026-07-01", "2026-07-10")]), dt.date(2026, 6, 1))
    assert excluded(closed) == [("2026-07-01", "2026-07-10", "after_request_date")]
    # on a date the tool does not cover, the answer is "not covered", whatever the records
    assert run(case(cir=[rec("2026-07-01", None)]), dt.date(2020, 1, 1)).verdict == \
        Verdict.NOT_COVERED


def test_exclusive_start_lists_the_embarkation_days_it_leaves_out() -> None:
    """Under sea_time.period = exclusive_start every record's embarkation day is a day not
    counted, and is reported as such — unless another record counts it (a transfer day)."""
    data = case(cir=[rec("2025-01-01", "2025-01-10"), rec("2025-01-10", "2025-01-20"),
                     rec("2025-02-01", "2025-02-01")],
                declarations=[decl("2025-01-01", "2025-02-01")])
    d = run(data, **{"sea_time.period": "exclusive_start"})
    assert d.result["counted_days"] == 19  # 02–10 and 10–20 (the 10th once); 1 Feb not
    assert excluded(d) == [("2025-01-01", "2025-01-01", "embarkation_day"),
                           ("2025-02-01", "2025-02-01", "embarkation_day")]
    assert d.result["excluded"][0]["citation"].provision == "item 1.26.1"
    assert run(data).result["excluded"] == []


def test_an_option_the_count_does_not_rest_on_is_reported() -> None:
    data = case(cir=[rec("2025-01-01", "2025-01-10")],
                declarations=[decl("2025-01-01", "2025-01-10")])
    d = run(data, **{"sea_time.sea_trials": "after_dpp_day"})  # no sea trials here
    assert [(f.id, f.severity) for f in d.findings if f.id == "option_not_applicable"] == \
        [("option_not_applicable", "info")]
    assert d.result["counted_days"] == 10
    used = run(data, **{"sea_time.period": "exclusive_start"})
    assert not [f for f in used.findings if f.id == "option_not_applicable"]


def test_a_prior_format_declaration_counts_only_before_the_anexo_1s_model() -> None:
    """Anexo 1-S since the 2023 text (14/09/2023): an old-format declaration of January 2024
    counts nothing, whatever edition is in force on the request date — with a warning and
    without the "accepted" note."""
    data = case(cir=[rec("2024-01-01", "2024-01-31", company="Old")],
                declarations=[decl("2024-01-01", "2024-01-31", company="Old",
                                   prior_format=True)])
    for on in ("2024-06-01", "2025-01-19", "2025-01-20", "2026-03-01"):
        d = run(data, dt.date.fromisoformat(on))
        assert d.result["counted_days"] == 0, on
        ids = {f.id for f in d.findings}
        assert "prior_format_after_update" in ids and "prior_format_declaration" not in ids

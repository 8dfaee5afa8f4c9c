from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from tests.quota.helpers import person, vessel_case

from abordo.crew.load import parse_vessel_case
from abordo.crew.model import VesselCase
from abordo.law.decision import Verdict
from abordo.law.errors import InputError
from abordo.quota import evaluate, plan
from abordo.quota.rules import at_least_fraction, half_up

D = dt.date


def test_rounding_rules_exact() -> None:
    assert at_least_fraction(Fraction(1, 3), 9) == 3  # never 3.0000001 -> 4
    assert at_least_fraction(Fraction(2, 3), 14) == 10
    assert half_up(Fraction(1, 5), 7) == 1
    assert half_up(Fraction(1, 5), 8) == 2
    assert half_up(Fraction(1, 3), 3) == 1
    assert half_up(Fraction(1, 5), 2) == 0
    assert half_up(Fraction(1, 2), 1) == 1  # exactly 0.5 rounds up


PSV_CREW = [person(1, "Master", "NO"), person(2, "AB", "PH"), person(3, "Chief Engineer", "NO"),
            person(4, "Oiler", "PH"), person(5, "Cook", "PH")]


def test_res42_step_boundaries_and_next_step() -> None:
    case = vessel_case(PSV_CREW)
    day89 = evaluate(case, D(2026, 3, 31))
    assert day89.verdict == Verdict.NOT_YET
    assert day89.result["next_step"]["since"] == D(2026, 4, 1)
    day90 = evaluate(case, D(2026, 4, 1))
    assert day90.verdict == Verdict.NON_COMPLIANT
    assert day90.result["step"]["fraction"] == Fraction(1, 3)
    assert [g["required"] for g in day90.result["groups"]] == [1, 1, 1, 1, 1]
    assert day90.result["total_deficit"] == 5
    day180 = evaluate(case, D(2026, 6, 30))
    assert day180.result["step"]["fraction"] == Fraction(1, 2)
    day360 = evaluate(case, D(2026, 12, 27))
    assert day360.result["step"]["fraction"] == Fraction(2, 3)
    assert day360.result["next_step"] is None


def test_non_compliance_names_consequence_and_citations() -> None:
    d = evaluate(vessel_case(PSV_CREW), D(2026, 4, 1))
    labels = [c.label for c in d.citations]
    assert any("art. 4º, I, a" in lab for lab in labels)
    assert any(lab == "CLT, art. 444" for lab in labels)
    assert d.result["consequences"][0]["ementa"] == "001139-8"
    assert all(f.citation is not None for f in d.violations)


def test_extension_moves_the_step() -> None:
    case = vessel_case(PSV_CREW, extensions=[
        {"step_from_day": 90, "applies_from": "2026-05-15", "reference": "MJSP 123/2026"}])
    assert evaluate(case, D(2026, 5, 14)).verdict == Verdict.NOT_YET
    d = evaluate(case, D(2026, 5, 15))
    assert d.result["step"]["since"] == D(2026, 5, 15)
    assert d.result["step"]["extended"] is True


def test_fifteen_day_rule_boundaries() -> None:
    # 14 days fully outside: continuous; 15 days: restart.
    short = vessel_case(PSV_CREW, presence=[{"entry": "2026-01-01", "exit": "2026-02-10"},
                                            {"entry": "2026-02-25", "exit": None}])
    assert evaluate(short, D(2026, 4, 1)).result["stay"]["start"] == D(2026, 1, 1)
    long = vessel_case(PSV_CREW, presence=[{"entry": "2026-01-01", "exit": "2026-02-10"},
                                           {"entry": "2026-02-26", "exit": None}])
    assert evaluate(long, D(2026, 4, 1)).result["stay"]["start"] == D(2026, 2, 26)


def test_days_outside_paused_alternative() -> None:
    case = vessel_case(PSV_CREW, presence=[{"entry": "2026-01-01", "exit": "2026-02-10"},
                                           {"entry": "2026-02-20", "exit": None}])
    d = evaluate(case, D(2026, 4, 1), {"quota.days": "days_outside_paused"})
    assert d.result["stay"]["days_of_operation"] == 81  # 90 minus 9 days outside
    assert "quota.days.days_outside_paused" in [i.id for i in d.interpretations]
    assert d.verdict == Verdict.NOT_YET


def test_paused_days_after_a_step_do_not_move_it() -> None:
    """Under days_outside_paused only the days outside before a threshold delay it: a step
    reached on 2026-04-01 stays there after a later absence (and so does the plan)."""
    case = vessel_case(PSV_CREW, presence=[{"entry": "2026-01-01", "exit": "2026-06-25"},
                                           {"entry": "2026-07-10", "exit": None}])
    opts = {"quota.days": "days_outside_paused"}
    before = evaluate(case, D(2026, 6, 25), opts)
    after = evaluate(case, D(2026, 7, 10), opts)
    assert before.result["step"]["since"] == after.result["step"]["since"] == D(2026, 4, 1)
    assert after.result["stay"]["days_of_operation"] == 176  # 190 − 14 days outside
    # the next threshold (day 180) is reached after the absence: it is delayed by it
    assert after.result["next_step"]["since"] == D(2026, 7, 14)
    steps = {s["from_day"]: s["since"] for s in plan(case, D(2026, 7, 10), opts).result["plan"]}
    assert (steps[90], steps[180]) == (D(2026, 4, 1), D(2026, 7, 14))


def test_a_department_override_keeps_the_ranks_position() -> None:
    """crew-quota.md, Inputs: the position comes from the rank when it names it; an explicit
    department changes the group, not the position (a foreign chief engineer stays one)."""
    crew = [person(1, "Master", "BR"), person(2, "Chief Engineer", "PT", department="deck"),
            person(3, "AB", "BR")]
    d = evaluate(vessel_case(crew, flag="BR", activity="cabotage", registry="ordinary"),
                 D(2026, 4, 1))
    assert d.verdict == Verdict.NON_COMPLIANT
    assert [f.id for f in d.violations] == ["chief_engineer_not_brazilian"]


def test_rn72_any_exit_interrupts() -> None:
    crew = [person(1, "Master", "DE"), person(2, "AB", "BR")]
    case = vessel_case(crew, activity="cabotage", presence=[
        {"entry": "2011-01-01", "exit": "2011-03-01"}, {"entry": "2011-03-03", "exit": None}])
    d = evaluate(case, D(2011, 6, 10))
    assert d.regime == "cnig-rn-72-2006"
    assert d.result["stay"]["start"] == D(2011, 3, 3)
    assert "quota.days.any_exit_interrupts" in [i.id for i in d.interpretations]


def test_alternative_group_reading_reported_when_verdict_changes() -> None:
    # deck: 1 officer BR + 2 ratings foreign; engine: 1 officer foreign + 2 ratings BR.
    crew = [person(1, "Chief Officer", "BR"), person(2, "AB", "PH"), person(3, "AB", "PH"),
            person(4, "2nd Engineer", "PH"), person(5, "Oiler", "BR"), person(6, "Oiler", "BR")]
    case = vessel_case(crew, activity="cabotage")
    d = evaluate(case, D(2026, 4, 1))  # 1/5 half up
    by_level = {g["group"]: g for g in d.result["groups"]}
    assert by_level["deck.rating"]["required"] == 0
    alt = d.result["alternative"]
    assert alt["reading"] == "quota.groups.department_or_level"
    alt_groups = {g["group"]: g for g in alt["groups"]}
    assert alt_groups["officer"]["base"] == 2 and alt_groups["rating"]["base"] == 4
    chosen = evaluate(case, D(2026, 4, 1), {"quota.groups": "department_or_level"})
    assert [g["group"] for g in chosen.result["groups"]] == [
        "deck", "engine", "officer", "rating", "rest"]


def test_not_covered_windows() -> None:
    case = vessel_case(PSV_CREW, presence=[{"entry": "2018-01-01", "exit": None}])
    d = evaluate(case, D(2019, 5, 1))
    assert d.verdict == Verdict.NOT_COVERED
    assert d.not_covered_reason is not None and "06/2017" in d.not_covered_reason.pt
    cruise = vessel_case(PSV_CREW, activity="cruise", contract="none",
                         presence=[{"entry": "2024-01-01", "exit": None}])
    assert evaluate(cruise, D(2024, 3, 1)).verdict == Verdict.NOT_COVERED
    port = vessel_case(PSV_CREW, activity="port_support",
                       presence=[{"entry": "2011-01-01", "exit": None}])
    assert evaluate(port, D(2012, 1, 1)).verdict == Verdict.NOT_COVERED


def test_an_activity_no_norm_then_gave_a_quota_is_not_said_unmodelled() -> None:
    """r30-q18: an FSRU in 2015. RN 72/2006 does not list regasification, and no norm then in
    force set a quota for it (glossary.md: added by Res. CNIg 42/2020): the reason says so
    and names the first provision that did — never "the norm that would govern it is not
    modelled". Port support in 2012 (no such entry in the tables): no modelled norm then
    sets one. Both stay not covered (crew-quota.md §D)."""
    fsru = vessel_case(PSV_CREW, activity="regasification",
                       presence=[{"entry": "2014-06-01", "exit": None}])
    d = evaluate(fsru, D(2015, 3, 2))
    assert d.verdict == Verdict.NOT_COVERED and d.regime == "cnig-rn-72-2006"
    assert d.not_covered_reason is not None
    assert d.not_covered_reason.pt == (
        "a atividade regaseificação de GNL (regasification) não consta de RN CNIg nº "
        "72/2006, em vigor nesta data; nenhuma norma em vigor nesta data fixa cota de "
        "brasileiros para essa atividade: a primeira é a de RN CNIg nº 06/2017, na redação "
        "da Res. CNIg nº 42/2020, art. 4º, III, em vigor a partir de 14/10/2020")
    assert d.not_covered_reason.en.endswith(
        "no norm in force on this date sets a quota of Brazilians for that activity: the "
        "first is that of RN CNIg nº 06/2017, na redação da Res. CNIg nº 42/2020, art. 4º, "
        "III, in force from 2020-10-14")
    assert "não está modelada" not in d.summary.pt
    step = next(t for t in d.trace if t.rule == "regime.activity_not_listed")
    assert step.citation is not None and step.citation.provision == "art. 4º, III"
    port = evaluate(vessel_case(PSV_CREW, activity="port_support",
                                presence=[{"entry": "2011-01-01", "exit": None}]),
                    D(2012, 1, 1))
    assert port.verdict == Verdict.NOT_COVERED and port.not_covered_reason is not None
    assert port.not_covered_reason.pt == (
        "a atividade apoio portuário (port_support) não consta de RN CNIg nº 72/2006, em "
        "vigor nesta data; nenhuma norma modelada em vigor nesta data fixa cota de "
        "brasileiros para essa atividade")


def test_contract_condition_only_where_the_norm_sets_it() -> None:
    # RN 72/2006 (contract condition: IN SIT 70/2007 art. 12): contract with a Brazilian
    # company required.
    old = vessel_case(PSV_CREW, contract="none", presence=[{"entry": "2010-01-01"}])
    d = evaluate(old, D(2010, 6, 1))
    assert d.verdict == Verdict.NOT_APPLICABLE
    assert [c.label for c in d.citations][-1] == "IN SIT nº 70/2007, art. 12"
    # RN 06/2017 as amended (art. 1º): foreign vessels operating in AJB, whatever the contract.
    assert evaluate(vessel_case(PSV_CREW, contract="none"), D(2026, 6, 1)).verdict == \
        Verdict.NON_COMPLIANT


def test_citations_name_the_norm_that_holds_the_provision() -> None:
    rn72 = evaluate(vessel_case(PSV_CREW, presence=[{"entry": "2010-01-01"}]), D(2010, 6, 1))
    assert rn72.result["step"]["citation"].label == "IN SIT nº 70/2007, art. 13, VI, c, 1.1"
    before_in = evaluate(vessel_case(PSV_CREW, presence=[{"entry": "2006-10-10"}]),
                         D(2007, 3, 1))
    assert before_in.result["step"]["citation"].label == "RN CNIg nº 72/2006, art. 3º"
    res42 = evaluate(vessel_case(PSV_CREW), D(2026, 4, 1))
    cites = {g["group"]: g["citation"].label for g in res42.result["groups"]}
    assert cites["deck.officer"].endswith("art. 4º, I, a, 1")
    assert cites["rest"].endswith("art. 4º, I, a, 2")


def test_long_haul_without_foreign_calls_is_a_finding() -> None:
    from abordo.crew.load import parse_vessel_case

    case = parse_vessel_case({"vessel": {"flag": "PA", "activity": "long_haul"},
                              "operation": {"foreign_calls": False}, "crew": PSV_CREW})
    d = evaluate(case, D(2015, 1, 1))
    assert d.verdict == Verdict.NON_COMPLIANT
    assert [f.id for f in d.violations] == ["long_haul_without_foreign_calls"]


def test_unknown_rank_is_error_only_when_group_needed() -> None:
    crew = [person(1, "Master", "NO"), person(2, "Derrickman", "BR")]
    drill = vessel_case(crew, activity="exploration")
    d = evaluate(drill, D(2026, 7, 1))  # group "all": no department needed
    assert d.verdict == Verdict.COMPLIANT
    assert d.result["groups"][0] | {"citation": None} == {
        "group": "all", "base": 2, "required": 1, "brazilians": 1, "deficit": 0,
        "exact": Fraction(2, 5), "citation": None}
    psv = vessel_case(crew)
    with pytest.raises(InputError) as err:
        evaluate(psv, D(2026, 4, 1))
    assert err.value.field == "crew[1].rank"


def test_rn72_needs_split_rating_levels() -> None:
    crew = [person(1, "Master", "DE"), person(2, "Seaman", "BR", department="deck",
                                                 level="rating")]
    case = vessel_case(crew, activity="cabotage", presence=[{"entry": "2011-01-01"}])
    with pytest.raises(InputError) as err:
        evaluate(case, D(2011, 6, 1))
    assert err.value.field == "crew[1].level"


def test_brazilian_flag_master_findings_and_missing_registry() -> None:
    crew = [person(1, "Master", "PT"), person(2, "Chief Engineer", "BR"), person(3, "AB", "BR")]
    d = evaluate(vessel_case(crew, flag="BR", registry="ordinary", activity="cabotage"),
                 D(2026, 1, 1))
    assert [f.id for f in d.violations] == ["master_not_brazilian"]
    assert d.result["groups"][0]["required"] == 2
    with pytest.raises(InputError) as err:
        evaluate(vessel_case(crew, flag="BR", activity="cabotage"), D(2026, 1, 1))
    assert err.value.field == "vessel.registry"


def test_plan_lists_every_step() -> None:
    d = plan(vessel_case(PSV_CREW), D(2026, 5, 1))
    rows = d.result["plan"]
    assert [(r["since"], r["fraction"], r["status"]) for r in rows] == [
        (D(2026, 4, 1), Fraction(1, 3), "current"),
        (D(2026, 6, 30), Fraction(1, 2), "future"),
        (D(2026, 12, 27), Fraction(2, 3), "future")]
    assert rows[2]["total_required"] == 5


def test_plan_of_a_vessel_not_yet_in_ajb_counts_from_its_planned_entry() -> None:
    # Entry 2026-07-01 (the day itself excluded, CC art. 132): 90 days → 2026-09-29.
    arriving = vessel_case(PSV_CREW, presence=[{"entry": "2026-07-01", "exit": None}],
                           extensions=[{"step_from_day": 180, "applies_from": "2027-02-01"}])
    d = plan(arriving, D(2026, 5, 1))
    assert d.verdict == Verdict.NOT_APPLICABLE  # still not in AJB on the date judged
    rows = d.result["plan"]
    assert [(r["since"], r["fraction"], r["status"], r["extended"]) for r in rows] == [
        (D(2026, 9, 29), Fraction(1, 3), "future", False),
        (D(2027, 2, 1), Fraction(1, 2), "future", True),   # natural 2026-12-28, extended
        (D(2027, 6, 26), Fraction(2, 3), "future", False)]
    assert [r["total_required"] for r in rows] == [5, 5, 5]
    assert "stay.planned" in {t.rule for t in d.trace}
    # The judgement itself is unchanged: no steps outside planning.
    e = evaluate(arriving, D(2026, 5, 1))
    assert e.verdict == Verdict.NOT_APPLICABLE and e.result["plan"] == []


def test_extension_for_a_missing_step_is_reported_not_dropped() -> None:
    case = vessel_case(PSV_CREW, extensions=[{"step_from_day": 120, "applies_from": "2026-06-01"}])
    d = evaluate(case, D(2026, 4, 1))
    warn = [f for f in d.findings if f.id == "extension_not_applied"]
    assert len(warn) == 1 and "etapas: 90, 180, 360" in warn[0].text.pt
    assert d.result["step"]["since"] == D(2026, 4, 1)  # the 90-day step is unchanged



def test_choices_the_norm_leaves_no_room_for_are_reported() -> None:
    cabotage = vessel_case(PSV_CREW, activity="cabotage")
    d = evaluate(cabotage, D(2026, 4, 1), {"quota.rounding": "at_least_fraction"})
    info = [f for f in d.findings if f.id == "option_not_applicable"]
    assert len(info) == 1 and "quota.rounding=at_least_fraction" in info[0].text.pt
    rn72 = vessel_case(PSV_CREW, activity="cabotage", presence=[{"entry": "2011-01-01"}])
    d72 = evaluate(rn72, D(2011, 6, 1), {"quota.days": "days_outside_paused"})
    assert [f.id for f in d72.findings if f.severity == "info"] == ["option_not_applicable"]
    res42 = evaluate(vessel_case(PSV_CREW), D(2026, 4, 1))
    days = next(i for i in res42.interpretations if i.family == "quota.days")
    assert days.alternatives == ("quota.days.days_outside_paused",)  # only what can be chosen
    with pytest.raises(InputError):
        evaluate(vessel_case(PSV_CREW), D(2026, 4, 1), {"quota.days": "any_exit_interrupts"})


def test_extensions_that_cannot_apply_are_reported() -> None:
    early = vessel_case(PSV_CREW, extensions=[{"step_from_day": 90, "applies_from": "2026-03-01"}])
    d = evaluate(early, D(2026, 4, 1))
    assert d.result["step"]["since"] == D(2026, 4, 1)
    assert [f.id for f in d.findings if f.severity == "warning"] == ["extension_not_applied"]
    twice = vessel_case(PSV_CREW, extensions=[
        {"step_from_day": 90, "applies_from": "2026-05-01"},
        {"step_from_day": 90, "applies_from": "2026-06-01"}])
    d2 = evaluate(twice, D(2026, 5, 15))
    assert d2.verdict == Verdict.NOT_YET
    assert "extension_repeated" in [f.id for f in d2.findings]


def test_not_covered_reasons_name_the_norm_then_in_force() -> None:
    before = evaluate(vessel_case(PSV_CREW, presence=[{"entry": "2001-01-01"}]), D(2001, 6, 1))
    assert before.verdict == Verdict.NOT_COVERED
    assert "RN CNIg nº 31/1998, art. 3º" in before.not_covered_reason.pt  # type: ignore[union-attr]
    gap = evaluate(vessel_case(PSV_CREW, presence=[{"entry": "2018-01-01"}]), D(2019, 5, 1))
    assert "RN CNIg nº 06/2017 (redação original)" in gap.not_covered_reason.pt  # type: ignore[union-attr]


def test_an_exit_is_judged_by_the_norm_in_force_when_it_happened() -> None:
    # A 3-day exit in 2016 (RN 72/2006: any exit interrupts) still interrupts when judged in
    # 2021 under Res. 42/2020, whose 15-day tolerance did not exist then.
    crew = [person(1, "Master", "NO")]
    case = vessel_case(crew, presence=[{"entry": "2016-01-01", "exit": "2016-06-01"},
                                       {"entry": "2016-06-05", "exit": None}])
    d = evaluate(case, D(2021, 1, 10))
    assert d.result["stay"]["start"] == D(2016, 6, 5)
    assert "quota.days.any_exit_interrupts" in [i.id for i in d.interpretations]
    # ...and the trace tells it with that norm's rule, not today's 15-day tolerance.
    (gap,) = [t for t in d.trace if t.rule == "stay.gap"]
    assert "RN CNIg nº 72/2006 exige operação contínua" in gap.text.pt
    assert "15 dias" not in gap.text.pt
    assert gap.citation is not None and gap.citation.norm_id == "cnig-rn-72-2006"
    # An 8-day exit in September 2020 fell in the unmodelled window: today's rule is used
    # and the output says the rule then in force is not modelled.
    gap = vessel_case(crew, activity="exploration",
                      presence=[{"entry": "2020-06-01", "exit": "2020-09-01"},
                                {"entry": "2020-09-10", "exit": None}])
    d2 = evaluate(gap, D(2020, 12, 15))
    assert d2.result["stay"]["start"] == D(2020, 6, 1)
    assert any(u.name == "cnig-rn-06-2017:exit-rule" for u in d2.unconfirmed)
    # A 4-day exit in March 2006, before RN 72/2006 (the first regime modelled): today's
    # rule too, and said so.
    early = vessel_case(crew, presence=[{"entry": "2005-01-01", "exit": "2006-03-01"},
                                        {"entry": "2006-03-06", "exit": None}])
    d3 = evaluate(early, D(2021, 1, 1))
    assert d3.result["stay"]["start"] == D(2005, 1, 1)
    assert [u.name for u in d3.unconfirmed] == [
        "cnig-rn-06-2017@res-42-2020:exit-rule-before-cnig-rn-72-2006"]
    # An exit with re-entry the next day is an exit too (a rule of continuity would end the
    # stay there): flagged alike.
    next_day = vessel_case(crew, presence=[{"entry": "2005-01-01", "exit": "2006-03-01"},
                                           {"entry": "2006-03-02", "exit": None}])
    assert [u.name for u in evaluate(next_day, D(2021, 1, 1)).unconfirmed] == [
        "cnig-rn-06-2017@res-42-2020:exit-rule-before-cnig-rn-72-2006"]
    # Not flagged where the result does not rest on it: an exit long enough to interrupt
    # under any rule, or an exit before a later interruption.
    for presence in ([{"entry": "2005-01-01", "exit": "2006-03-01"},
                      {"entry": "2006-09-01", "exit": None}],
                     [{"entry": "2005-01-01", "exit": "2006-03-01"},
                      {"entry": "2006-03-06", "exit": "2010-01-01"},
                      {"entry": "2010-03-01", "exit": None}]):
        d4 = evaluate(vessel_case(crew, presence=presence), D(2021, 1, 1))
        assert not [u.name for u in d4.unconfirmed if "exit-rule" in u.name]


def test_long_haul_exemption_carries_its_legal_basis() -> None:
    crew = [person(1, "AB", "PH")]
    def run(day: D) -> list[str]:
        case = vessel_case(crew, activity="long_haul", contract="none",
                           presence=[{"entry": "2005-01-01"}])
        d = evaluate(case, day)
        assert d.verdict == Verdict.NOT_APPLICABLE
        return [c.label for c in d.citations]
    assert run(D(2012, 1, 1)) == ["RN CNIg nº 72/2006, art. 3º", "IN SIT nº 70/2007, art. 13, IV"]
    assert run(D(2025, 1, 1)) == ["RN CNIg nº 06/2017, na redação da Res. CNIg nº 42/2020, art. 4º"]


def test_total_under_overlapping_groups_is_called_a_sum_of_group_deficits() -> None:
    d = evaluate(vessel_case(PSV_CREW), D(2026, 4, 1), {"quota.groups": "department_or_level"})
    assert d.verdict == Verdict.NON_COMPLIANT
    total = d.result["total_deficit"]
    assert total == sum(g["deficit"] for g in d.result["groups"])
    assert f"soma dos déficits dos grupos {total} (grupos sobrepostos" in d.summary.pt
    plain = evaluate(vessel_case(PSV_CREW), D(2026, 4, 1))
    assert f"déficit total {plain.result['total_deficit']}." in plain.summary.pt


def test_not_covered_cites_the_norm_then_in_force() -> None:
    gap = evaluate(vessel_case(PSV_CREW, presence=[{"entry": "2019-01-01"}]), D(2019, 5, 1))
    assert gap.verdict == Verdict.NOT_COVERED
    assert gap.result["regime_label"] == "RN CNIg nº 06/2017 (redação original)"
    assert [c.label for c in gap.citations] == ["RN CNIg nº 06/2017 (redação original)"]
    rn31 = evaluate(vessel_case(PSV_CREW, activity="cabotage",
                                presence=[{"entry": "2001-01-01"}]), D(2001, 9, 10))
    assert rn31.verdict == Verdict.NOT_COVERED
    assert [c.label for c in rn31.citations] == ["RN CNIg nº 31/1998, art. 3º"]
    # the facts are told in words, not codes
    facts = next(t for t in gap.trace if t.rule == "facts")
    assert "(Noruega (NO)), atividade apoio marítimo, contrato: afretamento" in facts.text.pt


def test_step_reached_before_the_regime_binds_from_its_start_citing_lindb() -> None:
    """A PSV in AJB since 2019 had passed day 90 before Res. CNIg 42/2020 (14/10/2020): the
    step binds from that day, on the principle that a rule acts only once in force."""
    d = evaluate(vessel_case(PSV_CREW, presence=[{"entry": "2019-06-01", "exit": None}]),
                 D(2020, 10, 20))
    step = next(s for s in d.trace if s.rule == "step.from_regime_start")
    assert step.citation is not None and step.citation.label == "LINDB, art. 6º"
    assert "exigível a partir de 14/10/2020" in step.text.pt
    assert "LINDB, art. 6º" in {c.label for c in d.citations}


def test_consequence_before_in_sit_70_cites_the_procedure_then_in_force() -> None:
    crew = [person(i, "AB" if i % 2 else "Oiler", "PH") for i in range(1, 21)]
    d = evaluate(vessel_case(crew, activity="offshore_support",
                             presence=[{"entry": "2006-11-01", "exit": None}]), D(2007, 6, 1))
    assert d.verdict == Verdict.NON_COMPLIANT
    step = next(s for s in d.trace if s.rule == "consequence.procedure")
    assert step.citation is not None and step.citation.norm_id == "in-sit-19-2000"


def test_next_step_after_the_regime_ends_is_not_announced() -> None:
    """RN 72/2006 ends on 30/11/2017; its 180-day step would fall on 28/02/2018, when the
    original RN 06/2017 (not modelled) is in force: no next step, told in the trace, and the
    plan marks that step as beyond the norm."""
    crew = [person(1, "Master", "NO"), person(2, "AB", "BR"), person(3, "Chief Engineer", "NO"),
            person(4, "Cook", "BR")]
    case = vessel_case(crew, presence=[{"entry": "2017-09-01", "exit": None}])
    d = evaluate(case, D(2017, 11, 30))
    assert d.regime == "cnig-rn-72-2006" and d.result["next_step"] is None
    told = next(s for s in d.trace if s.rule == "step.next_beyond_regime")
    assert "cairia em 28/02/2018" in told.text.pt and "não está modelada" in told.text.pt
    assert told.citation is not None and told.citation.norm_id == "cnig-rn-06-2017"
    rows = plan(case, D(2017, 11, 30)).result["plan"]
    assert [(r["since"], r["status"]) for r in rows] == [
        (D(2017, 11, 30), "current"), (D(2018, 2, 28), "beyond_regime"),
        (D(2018, 8, 27), "beyond_regime")]


def test_unknown_and_missing_ranks_are_listed_together() -> None:
    crew = [*PSV_CREW, person(6, "Captain Hook", "PH"), {"id": "P007", "nationality": "PH"}]
    with pytest.raises(InputError) as exc:
        evaluate(vessel_case(crew), D(2026, 4, 1))
    said = exc.value.render()
    assert "função 'Captain Hook' desconhecida para P006" in said
    assert "função ausente para P007" in said and "''" not in said


def test_an_option_the_decision_never_uses_is_reported() -> None:
    """Options on a REB vessel (positions only) or a group reading on a rule with no groups
    are told as not applied, never silently dropped."""
    reb = vessel_case([person(1, "Master", "BR"), person(2, "Chief Engineer", "BR")],
                      flag="BR", registry="REB", activity="cabotage")
    d = evaluate(reb, D(2026, 4, 1), {"quota.rounding": "half_up", "quota.days":
                                      "days_outside_paused"})
    told = [f.text.pt for f in d.findings if f.id == "option_not_applicable"]
    assert told == [
        "Opção quota.rounding=half_up não aplicada: esta decisão não depende dessa leitura "
        "(a regra aplicável não a usa).",
        "Opção quota.days=days_outside_paused não aplicada: esta decisão não depende dessa "
        "leitura (a regra aplicável não a usa)."]
    psv = vessel_case(PSV_CREW)  # Res. 42 offshore support: groups, rounding and days all used
    used = evaluate(psv, D(2026, 4, 1), {"quota.rounding": "half_up"})
    assert not [f for f in used.findings if f.id == "option_not_applicable"]


def test_an_extension_past_a_higher_step_is_reported() -> None:
    # Entry 2026-01-01: day 90 on 2026-04-01, day 180 on 2026-06-30. The 90-day step put off
    # to 2026-08-01 is overtaken by the 180-day step on 2026-06-30.
    case = vessel_case(PSV_CREW, extensions=[{"step_from_day": 90, "applies_from": "2026-08-01"}])
    d = evaluate(case, D(2026, 7, 15))
    assert (d.result["step"]["from_day"], d.result["step"]["since"]) == (180, D(2026, 6, 30))
    over = [f for f in d.findings if f.id == "extension_overtaken"]
    assert [(f.severity, f.text.pt) for f in over] == [(
        "warning", "A prorrogação da etapa de 90 dias (até 01/08/2026) alcança a etapa de 180 "
        "dias, que vale desde 30/06/2026: a partir dessa data vale a etapa maior e a prorrogação "
        "deixa de ter efeito.")]
    # its basis: the provision of the step that takes over
    assert over[0].citation is not None and over[0].citation.provision == "art. 4º, I, b"
    # Before the higher step's date the extension still holds, and it is said all the same.
    early = evaluate(case, D(2026, 5, 1))
    assert early.verdict == Verdict.NOT_YET
    assert "extension_overtaken" in [f.id for f in early.findings]
    # An extension ending before the next step is not reported.
    fine = vessel_case(PSV_CREW, extensions=[{"step_from_day": 90, "applies_from": "2026-05-01"}])
    assert "extension_overtaken" not in [f.id for f in evaluate(fine, D(2026, 5, 15)).findings]


def test_an_empty_crew_list_is_judged_with_a_warning_not_silently_compliant() -> None:
    d = evaluate(vessel_case([]), dt.date(2026, 6, 1))
    assert d.verdict == Verdict.COMPLIANT  # 0 required of 0 persons
    warned = [f for f in d.findings if f.id == "no_crew"]
    assert len(warned) == 1 and warned[0].severity == "warning"
    assert warned[0].text.pt.startswith("Lista de tripulantes vazia")
    assert not [f for f in evaluate(vessel_case([person(1, "AB", "BR")]),
                                    dt.date(2026, 6, 1)).findings if f.id == "no_crew"]


def test_on_one_date_the_higher_step_is_the_next_one() -> None:
    """180 extended to 27/05/2026, the day the 360-day step is reached: the 2/3 step is next
    (the 1/2 never applies — extension_overtaken)."""
    case = vessel_case([person(i, "AB", "NO") for i in range(4)],
                       presence=[{"entry": "2025-06-01"}],
                       extensions=[{"step_from_day": 180, "applies_from": "2026-05-27"}])
    d = evaluate(case, dt.date(2026, 5, 1))
    nxt = d.result["next_step"]
    assert (nxt["fraction"], nxt["from_day"], nxt["since"]) == (
        Fraction(2, 3), 360, dt.date(2026, 5, 27))
    assert sum(g["required"] for g in nxt["groups"]) == 3


def test_an_absence_under_way_is_not_counted_under_the_paused_reading() -> None:
    """Out since 26/05/2026 (7 days on 01/06): days_outside_paused stops the count at 144
    and moves the 180-day step by those 7 days; the counting reading goes on to 151."""
    case = vessel_case([person(1, "AB", "NO")],
                       presence=[{"entry": "2026-01-01", "exit": "2026-05-25"}])
    on = dt.date(2026, 6, 1)
    paused = plan(case, on, {"quota.days": "days_outside_paused"}).result
    counted = plan(case, on).result
    assert (paused["stay"]["days_of_operation"], counted["stay"]["days_of_operation"]) == (
        144, 151)
    since = {r["from_day"]: r["since"] for r in paused["plan"]}
    assert since[180] == dt.date(2026, 7, 7)
    assert {r["from_day"]: r["since"] for r in counted["plan"]}[180] == dt.date(2026, 6, 30)


def test_an_absence_under_way_tolerated_by_a_rule_not_modelled_is_unconfirmed() -> None:
    """Out since 11/10/2020, under RN 06/2017 (not modelled), judged under Res. 42/2020 on
    20/10: that the stay goes on rests on the unmodelled exit rule."""
    case = vessel_case([person(1, "AB", "NO")],
                       presence=[{"entry": "2020-06-01", "exit": "2020-10-10"}])
    d = plan(case, dt.date(2020, 10, 20))
    assert any(u.name.endswith(":exit-rule") for u in d.unconfirmed)


def test_a_step_after_the_stay_ended_is_after_stay_even_if_a_higher_one_overtakes_it() -> None:
    case = vessel_case([person(1, "AB", "NO")],
                       presence=[{"entry": "2026-01-01", "exit": "2026-06-01"},
                                 {"entry": "2026-07-01"}],
                       extensions=[{"step_from_day": 90, "applies_from": "2026-09-01"}])
    rows = plan(case, dt.date(2026, 6, 20)).result["plan"]
    assert {r["from_day"]: r["status"] for r in rows} == {
        90: "after_stay", 180: "after_stay", 360: "after_stay"}


def test_an_exit_with_reentry_the_next_day_under_an_exit_rule_not_modelled_is_unconfirmed(
        ) -> None:
    """Left 31/05/2018 (RN 06/2017, whose exit rule is not modelled), back 01/06/2018: the
    stay goes on only by today's 15-day tolerance — the answer names that parameter; the
    trace tells the exit and re-entry (no day fully outside)."""
    case = vessel_case([person(1, "Master", "NO"), person(2, "AB", "BR")],
                       presence=[{"entry": "2018-01-01", "exit": "2018-05-31"},
                                 {"entry": "2018-06-01"}])
    d = evaluate(case, dt.date(2021, 1, 4))
    assert d.result["stay"]["start"] == dt.date(2018, 1, 1)
    assert "cnig-rn-06-2017:exit-rule" in {u.name for u in d.unconfirmed}
    gap = next(s for s in d.trace if s.rule == "stay.gap")
    assert gap.text.pt.startswith("Saída das AJB em 31/05/2018 e reentrada em 01/06/2018 "
                                  "(nenhum dia inteiro fora) — menos de 15")


def test_the_contract_condition_cites_in_sit_70_art_12_only_once_in_force() -> None:
    """IN SIT 70/2007 (from 14/08/2007) art. 12 states the contract condition of RN 72's
    quota; before it, the condition is cited as RN 72/2006's own."""
    case = vessel_case([person(1, "Master", "PH")], contract="none",
                       presence=[{"entry": "2006-12-01"}])
    for day, label in ((D(2007, 1, 15), "RN CNIg nº 72/2006"),
                       (D(2008, 1, 15), "IN SIT nº 70/2007, art. 12")):
        d = evaluate(case, day)
        step = next(s for s in d.trace if s.rule == "regime.contract")
        assert d.verdict == Verdict.NOT_APPLICABLE
        assert step.citation is not None and step.citation.label == label


def test_a_plan_step_past_the_norms_end_in_an_uncertain_year_is_unconfirmed() -> None:
    """RN 72's end (30/11/2017) is the day before RN 06/2017's unconfirmed start: a planned
    step of December 2017 is 'beyond_regime' only if that start holds."""
    case = vessel_case([person(1, "Master", "PA"), person(2, "AB", "BR")],
                       activity="exploration", contract="risk",
                       presence=[{"entry": "2016-01-01"}])
    d = plan(case, D(2016, 8, 1))
    assert [(r["since"], r["status"]) for r in d.result["plan"]][-1] == (
        D(2017, 12, 21), "beyond_regime")
    assert [u.name for u in d.unconfirmed] == ["cnig-rn-06-2017:in_force_from"]
    assert not evaluate(case, D(2016, 8, 1)).unconfirmed  # the check states no 2017 date


def test_a_listed_person_whose_entries_show_an_exit_is_counted_and_warned() -> None:
    crew = [person(1, "Master", "NO",
                   entries=[{"date": "2026-01-01", "by": "sea", "exit": "2026-03-01"}]),
            person(2, "Chief Officer", "BR"), person(3, "AB", "BR"),
            person(4, "Chief Engineer", "BR", entries=[
                {"date": "2026-01-01", "by": "sea", "exit": "2026-02-01"},
                {"date": "2026-02-10", "by": "air"}])]  # back since: no warning
    case = vessel_case(crew)
    d = evaluate(case, D(2026, 4, 10))
    warned = [f for f in d.findings if f.id == "not_in_country"]
    assert [(f.severity, f.subject) for f in warned] == [("warning", "P001")]
    assert "saída do país em 01/03/2026 sem nova entrada até 10/04/2026" in warned[0].text.pt
    assert d.result["groups"][0]["base"] == 2  # counted as listed: the list says aboard
    # The exit day itself is a day present (immigration.md): no warning on it.
    assert not [f for f in evaluate(case, D(2026, 3, 1)).findings if f.id == "not_in_country"]
    # An exit and a re-entry on one day, in either order: in Brazil, as immigration judges.
    for entries in ([{"date": "2026-03-01", "by": "sea", "exit": "2026-03-01"},
                     {"date": "2026-03-01", "by": "sea"}],
                    [{"date": "2026-03-01", "by": "sea"},
                     {"date": "2026-03-01", "by": "sea", "exit": "2026-03-01"}]):
        same_day = vessel_case([person(1, "Master", "NO", entries=entries), *crew[1:]])
        d = evaluate(same_day, D(2026, 3, 10))
        assert not [f for f in d.findings if f.id == "not_in_country"]


def test_a_res42_extension_rests_on_its_own_sole_paragraph_not_an_unconfirmed_basis() -> None:
    case = vessel_case(PSV_CREW, extensions=[{"step_from_day": 90, "applies_from": "2026-05-01"}])
    d = evaluate(case, D(2026, 4, 10))
    assert d.verdict == Verdict.NOT_YET and d.result["next_step"]["since"] == D(2026, 5, 1)
    assert [u.name for u in d.unconfirmed] == []
    assert any(c.provision == "art. 4º, parágrafo único" for c in d.citations)


def test_a_position_nobody_holds_is_said_unchecked_in_a_compliant_summary() -> None:
    """Lei 9.432/1997 art. 4º: a position nobody holds is no violation (a launch has no chief
    engineer), but "compliant" says first that the requirement was not verified."""
    crew = [person(1, "CLC", "AR"), person(2, "OSM", "AR"), person(3, "MNC", "BR"),
            person(4, "MNC", "BR"), person(5, "MNM", "BR"), person(6, "CZA", "BR")]
    d = evaluate(vessel_case(crew, flag="BR", registry="ordinary", activity="cabotage",
                             contract="none"), D(2026, 7, 1))
    assert d.verdict == Verdict.COMPLIANT
    assert d.summary.pt == (
        "Conforme com ressalva: não verificados os requisitos de comandante e chefe de "
        "máquinas brasileiros (ninguém identificado na lista como comandante nem chefe de "
        "máquinas; coluna position) — Lei nº 9.432/1997.")
    assert d.summary.en == (
        "Compliant with a reservation: the requirements of a Brazilian master and chief "
        "engineer not verified (nobody identified in the list as master nor chief engineer; "
        "position column) — Lei nº 9.432/1997.")
    crew[0] = person(1, "CLC", "AR", position="master")
    crew[1] = person(2, "OSM", "BR", position="chief_engineer")
    d = evaluate(vessel_case(crew, flag="BR", registry="ordinary", activity="cabotage",
                             contract="none"), D(2026, 7, 1))
    assert d.verdict == Verdict.NON_COMPLIANT  # the master is Argentine
    crew[0] = person(1, "CLC", "BR", position="master")
    d = evaluate(vessel_case(crew, flag="BR", registry="ordinary", activity="cabotage",
                             contract="none"), D(2026, 7, 1))
    assert (d.verdict, d.summary.pt) == (Verdict.COMPLIANT, "Conforme: Lei nº 9.432/1997.")


def test_a_reb_master_nobody_holds_is_a_reservation_in_the_headline() -> None:
    """REB (Lei 9.432/1997 art. 11, § 6º): no one on the list is the master. crew-quota.md
    gives no verdict for an unverifiable position, so the verdict stays "compliant", with the
    warning finding; the summary (the report's headline) opens with the reservation."""
    crew = [person(1, "CLC", "BR"), person(2, "Chief Engineer", "BR"), person(3, "AB", "PH"),
            person(4, "AB", "PH"), person(5, "Oiler", "PH"), person(6, "Cook", "PH")]
    d = evaluate(vessel_case(crew, flag="BR", registry="REB", activity="cabotage",
                             contract="none"), D(2025, 4, 22))
    assert d.verdict == Verdict.COMPLIANT and d.violations == ()
    assert [f.id for f in d.findings] == ["master_not_identified"]
    assert d.summary.pt == (
        "Conforme com ressalva: não verificado o requisito de comandante brasileiro (ninguém "
        "identificado na lista como comandante; coluna position) — Lei nº 9.432/1997.")
    assert d.summary.en == (
        "Compliant with a reservation: the requirement of a Brazilian master not verified "
        "(nobody identified in the list as master; position column) — Lei nº 9.432/1997.")


R30_CRUISE = Path(__file__).resolve().parents[1] / "cases/review30/" \
    "r30-q20-rn71-cruise-leap-february-day30.yaml"


def test_the_cruise_step_is_told_in_rn71_s_words() -> None:
    """RN 71/2006 (IN SIT 70/2007 art. 13, VI, b): "há mais de 30 (trinta) dias", applied from
    start + 30, the 31st day of the stay (crew-quota.md §F). In AJB since 01/02/2016: the eve
    (29 full days) is not yet, 02/03/2016 (30 full days, the 31st day) binds; both the step
    and the trace say "more than 30 days … from the 31st day", not "from day 30"."""
    case = parse_vessel_case(yaml.safe_load(R30_CRUISE.read_text(encoding="utf-8"))["input"])
    eve = evaluate(case, D(2016, 3, 1))
    assert eve.verdict == Verdict.NOT_YET
    assert eve.result["next_step"]["since"] == D(2016, 3, 2)
    assert eve.result["next_step"]["threshold"].pt == (
        "mais de 30 dias em AJB, a partir do 31º dia da estada")
    (nxt,) = [t.text for t in eve.trace if t.rule == "step.next"]
    assert nxt.pt == ("Próxima etapa: 1/4 com mais de 30 dias em AJB, a partir do 31º dia da "
                      "estada, em 02/03/2016.")
    d = evaluate(case, D(2016, 3, 2))
    assert (d.verdict, d.result["stay"]["days_of_operation"]) == (Verdict.NON_COMPLIANT, 30)
    step = d.result["step"]
    assert (step["from_day"], step["since"]) == (30, D(2016, 3, 2))
    assert step["threshold"].en == "more than 30 days in AJB, from the 31st day of the stay"
    (cur,) = [t.text for t in d.trace if t.rule == "step.current"]
    assert cur.pt == ("Etapa em vigor: 1/4 de brasileiros com mais de 30 dias em AJB, a "
                      "partir do 31º dia da estada, desde 02/03/2016.")
    assert cur.en == ("Step in force: 1/4 Brazilians after more than 30 days in AJB, from the "
                      "31st day of the stay, since 2016-03-02.")
    # a step "from N days" (Res. 42/2020) has no such words and keeps its wording
    psv = evaluate(vessel_case(PSV_CREW), D(2026, 4, 1))
    assert psv.result["step"]["threshold"] is None
    (cur,) = [t.text for t in psv.trace if t.rule == "step.current"]
    assert cur.pt == ("Etapa em vigor: 1/3 de brasileiros a partir de 90 dias de operação, "
                      "desde 01/04/2026.")


R29_TUG = Path(__file__).resolve().parents[1] / "cases/review29/" \
    "r29-q03-res42-tug-15-day-absence-restart-day90.yaml"


def r29_tug() -> VesselCase:
    return parse_vessel_case(yaml.safe_load(R29_TUG.read_text(encoding="utf-8"))["input"])


def test_plan_rows_agree_with_the_verdict_during_a_tolerated_absence() -> None:
    """r29-q03's tug, 8 days outside AJB on 2021-12-10 (exit 2021-12-01): the verdict is
    "not applicable — outside AJB", so no step of the plan is "in force" that day; the step
    reached is suspended, and both the check and the plan say until when the vessel may
    come back without restarting the count (exit + Res. 42/2020 art. 10's 15 days, from
    the regimes' data: 16/12/2021 → 14 full days outside)."""
    case = r29_tug()
    d = evaluate(case, D(2021, 12, 10))
    p = plan(case, D(2021, 12, 10))
    for res in (d, p):
        assert res.verdict == Verdict.NOT_APPLICABLE
        assert res.result["stay"]["return_by"] == D(2021, 12, 16)
        assert res.result["stay"]["outside_since"] == D(2021, 12, 2)
        assert "reentrar até 16/12/2021" in res.summary.pt
        assert "re-enters by 2021-12-16" in res.summary.en
        (absence,) = [t for t in res.trace if t.rule == "stay.absence"]
        assert "reentrar até 16/12/2021" in absence.text.pt
        assert absence.citation is not None and absence.citation.provision == "art. 10"
    statuses = [(r["from_day"], r["status"]) for r in p.result["plan"]]
    assert statuses == [(90, "past"), (180, "suspended")]
    # The last day of the tolerance: still suspended, back by the same date; the next day
    # the absence has reached 15 days and the stay is over (its steps after it do not apply).
    last = evaluate(case, D(2021, 12, 15))
    assert last.result["stay"]["return_by"] == D(2021, 12, 16)
    over = plan(case, D(2021, 12, 16))
    assert over.result["stay"]["return_by"] is None
    assert over.result["stay"]["ended_on"] == D(2021, 12, 1)
    assert "reentrar até" not in over.summary.pt
    assert "suspended" not in {r["status"] for r in over.result["plan"]}
    # In AJB: nothing to return by.
    assert evaluate(case, D(2021, 11, 30)).result["stay"]["return_by"] is None


def test_no_return_date_where_any_exit_interrupts() -> None:
    # RN 72/2006: any exit ends the stay, so there is no tolerated absence to come back from.
    case = vessel_case([person(1, "Master", "NO")],
                       presence=[{"entry": "2010-01-01", "exit": "2010-06-01"}])
    d = plan(case, D(2010, 6, 3))
    assert d.result["stay"]["return_by"] is None and d.result["stay"]["ended_on"] is not None
    assert "suspended" not in {r["status"] for r in d.result["plan"]}


def test_an_exit_before_the_first_modelled_regime_is_flagged_under_rn72_too() -> None:
    """r29-q19: a 3-day exit in July 2006, before RN 72/2006 (the first foreign regime
    modelled), judged on 2006-12-01 under RN 72. As under Res. 42/2020, the exit is judged
    by the rule in force on the date judged (any exit interrupts: verdict and stay as
    before), the output names that as unconfirmed — a rule then in force may have tolerated
    3 days, as Res. 42/2020's 15 would — and the trace does not say RN 72, not yet in
    force, required continuity then."""
    case_file = Path(__file__).resolve().parents[1] / "cases/review29/" \
        "r29-q19-rn72-cabotage-exit-before-rn72-restarts.yaml"
    case = parse_vessel_case(yaml.safe_load(case_file.read_text(encoding="utf-8"))["input"])
    d = evaluate(case, D(2006, 12, 1))
    assert d.verdict == Verdict.NON_COMPLIANT and d.result["stay"]["start"] == D(2006, 7, 4)
    params = {u.name: u for u in d.unconfirmed}
    exit_rule = params["cnig-rn-72-2006:exit-rule-before-cnig-rn-72-2006"]
    assert exit_rule.value.pt == "qualquer saída interrompe"
    assert "01/07/2006" in exit_rule.source.pt and "não modelada" in exit_rule.source.pt
    (gap,) = [t for t in d.trace if t.rule == "stay.gap"]
    assert "RN CNIg nº 72/2006 exige operação contínua" not in gap.text.pt
    assert "saída anterior à RN CNIg nº 72/2006, sob regra de saída não modelada: aplicada a " \
        "regra da norma em vigor na data julgada" in gap.text.pt
    assert "exit before RN CNIg nº 72/2006, under an exit rule not modelled" in gap.text.en
    # An exit as long as the widest tolerance modelled (15 days) interrupts under any rule
    # of continuity: not flagged, as under Res. 42/2020.
    crew = [person(1, "Master", "NO")]
    long_exit = vessel_case(crew, presence=[{"entry": "2006-03-01", "exit": "2006-06-30"},
                                            {"entry": "2006-07-16", "exit": None}])
    d2 = evaluate(long_exit, D(2006, 12, 1))
    assert d2.result["stay"]["start"] == D(2006, 7, 16)
    assert not [u.name for u in d2.unconfirmed if "exit-rule" in u.name]
    # An exit before an interruption that itself starts the stay does not decide it.
    earlier = vessel_case(crew, presence=[{"entry": "2006-03-01", "exit": "2006-04-30"},
                                          {"entry": "2006-05-03", "exit": "2006-06-30"},
                                          {"entry": "2006-07-20", "exit": None}])
    assert not [u.name for u in evaluate(earlier, D(2006, 12, 1)).unconfirmed
                if "exit-rule" in u.name]

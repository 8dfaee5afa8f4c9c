"""RN CNIg 31/1998: long-haul exemption, temporary visa, the charterer's 8 business days
(holidays from the ``holidays`` library), the 30-day protocol and the extension request."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest

import abordo.law.calendar as calendar
from abordo.crew.load import parse_vessel_case
from abordo.crew.model import VesselCase
from abordo.immigration import evaluate
from abordo.immigration.rules import business_deadline
from abordo.law.decision import Decision, Msg, Verdict
from abordo.law.errors import InputError

CaseFactory = Callable[..., VesselCase]
D = dt.date
START = [{"entry": "2001-09-03", "exit": None}]  # Monday; 7 Sep 2001 is a Friday holiday


def person(pid: str = "H01", **kw: object) -> dict[str, object]:
    return {"id": pid, "rank": "AB", "nationality": "PL", **kw}


def row(decision: Decision, pid: str = "H01") -> dict[str, Any]:
    persons = decision.result["persons"]
    return next(p for p in persons if p["id"] == pid)


def cabotage(make_case: CaseFactory, crew: list[dict[str, object]], **kw: object) -> VesselCase:
    return make_case(crew, flag="MT", activity="cabotage", presence=kw.pop("presence", START),
                     **kw)


def test_i05_eight_business_days_skip_independence_day(make_case: CaseFactory) -> None:
    d = evaluate(cabotage(make_case, [person(entries=[{"date": "2001-09-03", "by": "sea"}])]),
                 D(2001, 9, 10))
    p = row(d)
    assert (p["requirement"], p["verdict"], p["deadline"]) == ("temporary_visa", "action_due",
                                                               D(2001, 9, 14))
    det = p["deadline_detail"]
    assert det["count"] == 8 and det["unit"] == "business_days" and det["start"] == D(2001, 9, 3)
    assert det["skipped"] == [{"date": D(2001, 9, 7),
                               "name": Msg("Independência do Brasil", "Independence Day")}]
    assert det["counted"] == [D(2001, 9, n) for n in (4, 5, 6, 10, 11, 12, 13, 14)]
    assert "07/09/2001 (Independência do Brasil)" in det["text"].pt
    assert p["citation"].provision == "art. 1º"  # chartered for cabotage: art. 1
    assert d.regime == "cnig-rn-31-1998" and d.verdict == Verdict.COMPLIANT
    assert "immigration.rn31.deadline_from_operation_start" in {i.id for i in d.interpretations}


def test_deadline_comes_from_the_holidays_library(make_case: CaseFactory,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """With the library's lookup patched so that 7 Sep 2001 is an ordinary day, the deadline
    moves to 13 Sep: nothing in Abordo hard-codes the holiday."""
    real = calendar.holiday_name

    def without_independence_day(day: dt.date, state: str | None = None) -> str | None:
        return None if day == D(2001, 9, 7) else real(day, state)

    monkeypatch.setattr(calendar, "holiday_name", without_independence_day)
    d = evaluate(cabotage(make_case, [person()]), D(2001, 9, 10))
    assert row(d)["deadline"] == D(2001, 9, 13)
    assert row(d)["deadline_detail"]["skipped"] == []


def test_state_holiday_when_the_state_is_given() -> None:
    # 9 July 2001 (Monday) is a São Paulo state holiday in the holidays library.
    national = business_deadline(D(2001, 7, 2), 8, None)
    sp = business_deadline(D(2001, 7, 2), 8, "SP")
    assert national.deadline == D(2001, 7, 12)
    assert sp.deadline == D(2001, 7, 13)
    assert sp.skipped == ((D(2001, 7, 9), Msg("Revolução Constitucionalista",
                                              "Constitutionalist Revolution")),)


def test_carnival_and_corpus_christi_are_counted_as_pontos_facultativos() -> None:
    """r30-i01 / r30-i04: Carnival, Ash Wednesday and Corpus Christi are optional days off
    (pontos facultativos) in the holidays library, not holidays — counted as business days
    (spec README rule 5: the national holiday calendar), and the trace says why."""
    carnival = business_deadline(D(2003, 2, 28), 8, None)
    assert carnival.deadline == D(2003, 3, 12) and carnival.skipped == ()
    assert carnival.optional == ((D(2003, 3, 3), Msg("Carnaval", "Carnival")),
                                 (D(2003, 3, 4), Msg("Carnaval", "Carnival")),
                                 (D(2003, 3, 5), Msg("Quarta-feira de Cinzas", "Ash Wednesday")))
    text = carnival.explain()
    assert text.pt == (
        "8 dias úteis após 28/02/2003 (excluído esse dia; calendário nacional): 03/03, 04/03, "
        "05/03, 06/03, 07/03, 10/03, 11/03, 12/03; feriados pulados: nenhum; contados como "
        "dias úteis por serem pontos facultativos, não feriados: 03/03/2003 (Carnaval), "
        "04/03/2003 (Carnaval), 05/03/2003 (Quarta-feira de Cinzas); sábados e domingos "
        "pulados → prazo final 12/03/2003.")
    corpus = business_deadline(D(2002, 5, 26), 8, None)
    assert corpus.deadline == D(2002, 6, 5)
    assert corpus.optional == ((D(2002, 5, 30), Msg("Corpus Christi", "Corpus Christi")),)
    assert ("counted as business days, being optional days off (pontos facultativos), not "
            "holidays: 2002-05-30 (Corpus Christi); Saturdays") in corpus.explain().en
    plain = business_deadline(D(2001, 9, 3), 8, None)  # Independence Day: a holiday
    assert plain.optional == () and "pontos facultativos" not in plain.explain().pt


def test_holiday_names_follow_the_output_language(make_case: CaseFactory) -> None:
    """r29-i11's count in Rio de Janeiro skips 15/11 and 20/11/2002: with --lang en the
    names are the holidays library's English ones, not the Portuguese."""
    bd = business_deadline(D(2002, 11, 12), 8, "RJ")
    assert [n.en for _, n in bd.skipped] == ["Republic Proclamation Day", "Black Awareness Day"]
    assert [n.pt for _, n in bd.skipped] == ["Proclamação da República", "Consciência Negra"]
    text = bd.explain()
    assert "2002-11-15 (Republic Proclamation Day); 2002-11-20 (Black Awareness Day)" in text.en
    assert "Proclamação" not in text.en and "Consciência" not in text.en
    assert "15/11/2002 (Proclamação da República)" in text.pt
    d = evaluate(cabotage(make_case, [person()], presence=[{"entry": "2002-11-12"}],
                          state="RJ"), D(2002, 11, 14))
    payload = json.dumps(d.to_json("en"), ensure_ascii=False)
    assert "Black Awareness Day" in payload and "Consciência Negra" not in payload
    assert "Consciência Negra" in json.dumps(d.to_json("pt"), ensure_ascii=False)


def test_no_request_after_the_deadline_is_irregular(make_case: CaseFactory) -> None:
    d = evaluate(cabotage(make_case, [person()]), D(2001, 9, 17))
    assert row(d)["verdict"] == "irregular" and d.verdict == Verdict.NON_COMPLIANT
    assert [f.id for f in d.violations] == ["work_authorization_request_overdue"]
    # The visa of Lei 6.815/1980 (then in force) is cited, and so is the law for the fine.
    assert {"Lei nº 6.815/1980, art. 13, V", "Lei nº 6.815/1980"} <= {c.label for c in d.citations}
    assert "Lei 6.815/1980" in row(d)["consequence"].pt
    # RN 31 predates IN SIT 70/2007: no auto de infração modelled for 2001.
    assert d.result["consequences"][0]["id"] == "procedure_not_modelled"


def test_protocol_in_time_keeps_the_crew_regular_for_30_days(make_case: CaseFactory) -> None:
    req = [{"type": "work_authorization_request", "protocol_date": "2001-09-12"}]
    case = cabotage(make_case, [person(documents=req)])
    d = evaluate(case, D(2001, 10, 1))
    p = row(d)
    assert (p["verdict"], p["deadline"]) == ("regular", D(2001, 10, 12))
    assert p["citation"].provision == "art. 9º, § 2º"
    expired = evaluate(case, D(2001, 10, 13))
    assert row(expired)["verdict"] == "irregular"
    assert "protocol_expired" in {f.id for f in expired.violations}


def test_protocol_extended_by_the_ministry(make_case: CaseFactory) -> None:
    req = [{"type": "work_authorization_request", "protocol_date": "2001-09-12",
            "valid_until": "2001-11-30"}]
    d = evaluate(cabotage(make_case, [person(documents=req)]), D(2001, 11, 1))
    assert (row(d)["verdict"], row(d)["deadline"]) == ("regular", D(2001, 11, 30))


def test_late_protocol_is_regular_with_a_warning(make_case: CaseFactory) -> None:
    req = [{"type": "work_authorization_request", "protocol_date": "2001-09-20"}]
    d = evaluate(cabotage(make_case, [person(documents=req)]), D(2001, 9, 25))
    assert row(d)["verdict"] == "regular"
    late = next(f for f in d.findings if f.id == "work_authorization_request_late")
    assert late.severity == "warning"


def test_temporary_visa_and_its_extension_request(make_case: CaseFactory) -> None:
    visa = {"type": "temporary_visa", "issued_on": "2001-01-01", "valid_until": "2002-12-31"}
    case = cabotage(make_case, [person(documents=[visa])])
    early = row(evaluate(case, D(2002, 6, 1)))
    assert (early["verdict"], early["deadline"]) == ("regular", D(2002, 12, 1))
    window = evaluate(case, D(2002, 11, 15))
    assert (row(window)["verdict"], row(window)["deadline"]) == ("action_due", D(2002, 12, 1))
    assert "extension_request_due" in {f.id for f in window.findings}
    # the consequence is stated with the pending action (immigration.md, Output)
    assert row(window)["consequence"].pt.startswith(
        "Sem o pedido até 01/12/2002, a estada termina em 31/12/2002")
    missed = row(evaluate(case, D(2002, 12, 10)))
    assert (missed["verdict"], missed["deadline"]) == ("action_due", D(2002, 12, 31))
    assert missed["consequence"].pt.startswith("Depois de 31/12/2002, sem visto nem protocolo")
    assert row(evaluate(case, D(2003, 1, 5)))["verdict"] == "irregular"
    filed = cabotage(make_case, [person(documents=[
        visa, {"type": "temporary_visa", "protocol_date": "2002-11-20"}])])
    assert row(evaluate(filed, D(2002, 11, 25)))["verdict"] == "regular"
    assert row(evaluate(filed, D(2003, 1, 5)))["verdict"] == "action_due"


def test_granted_work_authorization_is_regular(make_case: CaseFactory) -> None:
    auth = [{"type": "work_authorization", "issued_on": "2001-09-10"}]
    d = evaluate(cabotage(make_case, [person(documents=auth)]), D(2001, 9, 20))
    assert row(d)["verdict"] == "regular"


def test_long_haul_needs_no_visa(make_case: CaseFactory) -> None:
    case = make_case([person(entries=[{"date": "2001-03-08", "by": "sea"}])], flag="MT",
                     activity="long_haul", contract="none", presence=[{"entry": "2001-03-08"}])
    d = evaluate(case, D(2001, 3, 10))
    p = row(d)
    assert (p["requirement"], p["verdict"]) == ("none_long_haul", "regular")
    assert p["citation"].provision == "art. 2º"
    assert "seafarer_card_to_check" in {f.id for f in d.findings}


def test_non_crew_professional_is_outside_rn31(make_case: CaseFactory) -> None:
    crew = [person("H02", rank="Surveyor", department="non_crew_professional")]
    d = evaluate(cabotage(make_case, crew), D(2001, 9, 10))
    assert (row(d, "H02")["requirement"], row(d, "H02")["verdict"]) == ("not_applicable",
                                                                      "not_applicable")
    assert row(d, "H02")["citation"].provision == "art. 14"
    assert d.verdict == Verdict.NOT_APPLICABLE


def test_vessel_outside_rn31_is_not_covered(make_case: CaseFactory) -> None:
    no_contract = cabotage(make_case, [person()], contract="none")
    d = evaluate(no_contract, D(2001, 9, 10))
    assert d.verdict == Verdict.NOT_COVERED and "operation.contract" in d.not_covered_reason.pt
    fishing = make_case([person()], flag="MT", activity="fishing", contract="lease",
                        presence=START)
    d = evaluate(fishing, D(2001, 9, 10))
    assert d.verdict == Verdict.NOT_COVERED and "RN CNIg nº 46/2000" in d.not_covered_reason.pt


def test_late_joiner_and_the_alternative_reading(make_case: CaseFactory) -> None:
    case = cabotage(make_case, [person(entries=[{"date": "2001-10-01", "by": "air"}])])
    d = evaluate(case, D(2001, 10, 5))
    assert row(d)["verdict"] == "irregular"  # 8 business days from 03/09 long gone
    alt = next(f for f in d.findings if f.id == "alternative_reading_changes_verdict")
    assert "11/10/2001" in alt.text.pt
    chosen = evaluate(case, D(2001, 10, 5), {"immigration.rn31.deadline":
                                             "deadline_from_crew_entry"})
    assert (row(chosen)["verdict"], row(chosen)["deadline"]) == ("action_due", D(2001, 10, 11))


def test_1998_relies_on_an_unconfirmed_start_date(make_case: CaseFactory) -> None:
    case = cabotage(make_case, [person()], presence=[{"entry": "1998-06-01"}])
    d = evaluate(case, D(1998, 6, 3))
    assert [u.name for u in d.unconfirmed] == ["cnig-rn-31-1998:in_force_from"]
    assert evaluate(cabotage(make_case, [person()]), D(2001, 9, 10)).unconfirmed == ()


def test_request_without_protocol_date_is_an_input_error(make_case: CaseFactory) -> None:
    case = cabotage(make_case, [person(documents=[{"type": "work_authorization_request"}])])
    with pytest.raises(InputError) as exc:
        evaluate(case, D(2001, 9, 10))
    assert exc.value.field == "crew[0].documents[0].protocol_date"


def test_the_first_request_ever_filed_answers_the_deadline_even_once_granted(
        make_case: CaseFactory) -> None:
    """Request 10/09/2001 (in time), work authorization granted 20/09 to 31/12, a new
    request 20/12: on 05/01/2002 the new protocol keeps H01 regular, no late warning, and
    the first request shows as answered, not pending."""
    docs = [{"type": "work_authorization_request", "protocol_date": "2001-09-10"},
            {"type": "work_authorization", "issued_on": "2001-09-20",
             "valid_until": "2001-12-31"},
            {"type": "work_authorization_request", "protocol_date": "2001-12-20"}]
    d = evaluate(cabotage(make_case, [person(documents=docs)]), D(2002, 1, 5))
    p = row(d)
    assert (p["verdict"], p["deadline"]) == ("regular", D(2002, 1, 19))
    assert not [f for f in d.findings if f.id == "work_authorization_request_late"]
    assert [x["status"] for x in p["documents"]] == ["answered", "expired", "pending"]


def test_a_request_of_an_earlier_stay_does_not_answer_this_operation_s_deadline(
        make_case: CaseFactory) -> None:
    """A request of 2000 (answered by a 2000 authorization) says nothing of the 8 business
    days of the operation begun on 03/09/2001: the request of 25/09/2001 is late."""
    docs = [{"type": "work_authorization_request", "protocol_date": "2000-02-01"},
            {"type": "work_authorization", "issued_on": "2000-02-20", "valid_until": "2001-02-20"},
            {"type": "work_authorization_request", "protocol_date": "2001-09-25"}]
    d = evaluate(cabotage(make_case, [person(entries=[{"date": "2001-09-03", "by": "sea"}],
                                             documents=docs)]),
                 D(2001, 9, 28))
    late = [f for f in d.findings if f.id == "work_authorization_request_late"]
    assert len(late) == 1 and "25/09/2001" in late[0].text.pt and "14/09/2001" in late[0].text.pt


@pytest.mark.parametrize(("entry", "activity", "documents", "on", "flagged"), [
    # The deadline counted from an operation begun in RN 31's uncertain first year: flagged.
    ("1998-12-28", "cabotage", [], D(1999, 1, 5), True),
    # A valid temporary visa, or a long-haul vessel: nothing counted from that day.
    ("1998-03-02", "cabotage", [{"type": "temporary_visa", "issued_on": "2003-08-01",
                                 "valid_until": "2005-08-01"}], D(2003, 9, 10), False),
    ("1998-03-02", "long_haul", [], D(2003, 9, 10), False),
    # A date judged in that year is flagged whatever it is counted from.
    ("1998-03-02", "long_haul", [], D(1998, 6, 1), True),
])
def test_rn31_unconfirmed_start_is_named_only_where_the_answer_rests_on_it(
        make_case: CaseFactory, entry: str, activity: str, documents: list[dict[str, str]],
        on: dt.date, flagged: bool) -> None:
    case = make_case([person(documents=documents)], flag="MT", activity=activity,
                     presence=[{"entry": entry, "exit": None}])
    d = evaluate(case, on)
    assert ("cnig-rn-31-1998:in_force_from" in {u.name for u in d.unconfirmed}) is flagged


def test_rn31_entries_required_refuses_a_person_without_entries(make_case: CaseFactory) -> None:
    case = cabotage(make_case, [person()])
    with pytest.raises(InputError) as exc:
        evaluate(case, D(2001, 9, 10), {"immigration.entries": "required"})
    assert exc.value.field == "crew[0].entries"
    d = evaluate(case, D(2001, 9, 10))  # by default the vessel's presence is presumed
    assert "immigration.entries.vessel_presence" in {i.id for i in d.interpretations}
    assert row(d)["verdict"] == "action_due"


def _visa(issued: str, until: str) -> dict[str, str]:
    return {"type": "temporary_visa", "issued_on": issued, "valid_until": until}


def test_an_extended_visa_asks_for_no_further_extension(make_case: CaseFactory) -> None:
    """Art. 10: one extension of up to 2 years, never turned permanent — the stay ends with
    it; a third consecutive visa is a second extension, reported."""
    once = cabotage(make_case, [person(documents=[
        _visa("1999-03-01", "2001-02-28"), _visa("2001-03-01", "2003-02-28")])],
        presence=[{"entry": "1999-03-01", "exit": None}])
    d = evaluate(once, D(2002, 6, 3))
    p = row(d)
    assert (p["verdict"], p["deadline"]) == ("regular", D(2003, 2, 28))
    assert p["deadline_detail"]["kind"] == "stay_end"
    assert "extension_beyond_limit" not in {f.id for f in d.findings}
    first = evaluate(cabotage(make_case, [person(documents=[_visa("1999-03-01", "2001-02-28")])],
                              presence=[{"entry": "1999-03-01", "exit": None}]), D(2000, 6, 1))
    assert row(first)["deadline"] == D(2001, 1, 29)  # the extension request, 30 days before
    twice = cabotage(make_case, [person(documents=[
        _visa("1998-02-01", "2000-01-31"), _visa("2000-02-01", "2002-01-31"),
        _visa("2002-02-01", "2004-01-31")])], presence=[{"entry": "1998-02-01", "exit": None}])
    d2 = evaluate(twice, D(2003, 6, 2))
    assert row(d2)["deadline"] == D(2004, 1, 31)
    (f,) = [f for f in d2.findings if f.id == "extension_beyond_limit"]
    assert f.citation is not None and f.citation.provision == "art. 10"


def test_a_protocols_deadline_shows_its_own_arithmetic(make_case: CaseFactory) -> None:
    case = cabotage(make_case, [person(entries=[{"date": "2001-09-03", "by": "sea"}], documents=[
        {"type": "work_authorization_request", "protocol_date": "2001-09-06"}])])
    p = row(evaluate(case, D(2001, 9, 20)))
    assert (p["verdict"], p["deadline"]) == ("regular", D(2001, 10, 6))
    assert p["deadline_detail"]["kind"] == "protocol_validity"
    assert p["deadline_detail"]["text"].pt == "Protocolo de 06/09/2001 + 30 dias = 06/10/2001."


@pytest.mark.parametrize(("contract", "remission"), [("charter", True), ("services", False)])
def test_cabotage_rests_on_art_1_and_names_the_sole_paragraph_as_a_remission(
        make_case: CaseFactory, contract: str, remission: bool) -> None:
    """Art. 1 governs a foreign vessel chartered for cabotage; art. 2 sole paragraph only
    sends the long-haul vessel later chartered into cabotage back to art. 1 ("nos termos do
    artigo 1º"), so the basis column says art. 1 and the trace names the remission for a
    charter (the sole paragraph speaks of a vessel "afretada")."""
    case = cabotage(make_case, [person(entries=[{"date": "2001-09-03", "by": "sea"}])],
                    contract=contract)
    d = evaluate(case, D(2001, 9, 10))
    assert row(d)["citation"].provision == "art. 1º"
    step = next(s for s in d.trace if s.rule == "person.H01.requirement")
    assert step.citation is not None and step.citation.provision == "art. 1º"
    assert ("art. 2º, parágrafo único" in step.text.pt) is remission
    if remission:
        assert step.text.pt.startswith(
            "H01 (PL): embarcação estrangeira afretada para cabotagem por empresa brasileira "
            "(art. 1º; a que chegou em viagem de longo curso e foi depois afretada para "
            "cabotagem segue o mesmo art. 1º, por remissão do art. 2º, parágrafo único)")
    assert "art. 2º, parágrafo único" not in {c.provision for c in d.citations}


def _ext_case(make_case: CaseFactory, *documents: dict[str, str]) -> VesselCase:
    return cabotage(make_case, [person(documents=list(documents))],
                    presence=[{"entry": "1999-03-01", "exit": None}])


FIRST = _visa("1999-03-01", "2001-02-28")
ASKED = {"type": "temporary_visa", "protocol_date": "2001-01-15"}


@pytest.mark.parametrize("documents", [
    (FIRST, ASKED, _visa("2001-03-20", "2003-02-28")),  # granted after the end, asked in time
    (FIRST, _visa("1999-06-01", "1999-12-31"), _visa("2001-03-01", "2003-02-28")),  # nested
    (FIRST, FIRST, _visa("2001-03-01", "2003-02-28")),  # the first listed twice
])
def test_the_extension_is_found_however_the_visas_are_listed(
        make_case: CaseFactory, documents: tuple[dict[str, str], ...]) -> None:
    d = evaluate(_ext_case(make_case, *documents), D(2003, 1, 20))
    p = row(d)
    assert (p["verdict"], p["deadline"], p["deadline_detail"]["kind"]) == (
        "regular", D(2003, 2, 28), "stay_end")
    assert "extension_beyond_limit" not in {f.id for f in d.findings}
    assert "immigration.rn31.extension.once" in {i.id for i in d.interpretations}


def test_an_extended_stay_that_ended_is_irregular_whatever_was_asked(
        make_case: CaseFactory) -> None:
    case = _ext_case(make_case, FIRST, _visa("2001-03-01", "2003-02-28"),
                     {"type": "temporary_visa", "protocol_date": "2002-12-01"})
    d = evaluate(case, D(2003, 3, 10))
    assert row(d)["verdict"] == "irregular"
    assert "extended_stay_ended" in {f.id for f in d.findings}
    # Read as renewable, the request made in time keeps the stay pending a decision.
    r = evaluate(case, D(2003, 3, 10), {"immigration.rn31.extension": "renewable"})
    assert row(r)["verdict"] == "action_due"
    assert "extension_pending" in {f.id for f in r.findings}


def test_a_leave_within_the_operation_keeps_its_documents(make_case: CaseFactory) -> None:
    """Only a stay that ended before the vessel's operation began sets its documents aside:
    a person on leave during the operation keeps the protocol (art. 9 §§ 1º–2º) and an
    extension request filed in time (art. 10 § 1º)."""
    protocol = cabotage(make_case, [person(
        entries=[{"date": "1999-01-04", "by": "sea", "exit": "1999-03-01"},
                 {"date": "1999-03-20", "by": "air"}],
        documents=[{"type": "work_authorization_request", "protocol_date": "1999-01-08",
                    "valid_until": "1999-12-31"}])],
        presence=[{"entry": "1999-01-04"}])
    got = row(evaluate(protocol, D(1999, 4, 1)))
    assert (got["verdict"], got["deadline"]) == ("regular", D(1999, 12, 31))
    extension = cabotage(make_case, [person(
        entries=[{"date": "2000-01-10", "by": "sea", "exit": "2001-05-20"},
                 {"date": "2001-06-10", "by": "sea"}],
        documents=[{"type": "temporary_visa", "issued_on": "2000-01-20",
                    "valid_until": "2001-06-30"},
                   {"type": "temporary_visa", "protocol_date": "2001-05-15"}])],
        presence=[{"entry": "2000-01-10"}])
    got = row(evaluate(extension, D(2001, 6, 20)))
    assert got["verdict"] == "regular"
    assert not any("operação anterior" in n.pt for n in got["notes"])


def test_the_contract_hint_only_when_the_contract_is_missing(make_case: CaseFactory) -> None:
    """A leased fishing vessel in 1999 (before RN 46/2000): the lease was given, so the
    not-covered reason says why it selects no modelled regime instead of asking for the
    contract; the hint stays for a case without a contract (not given, or "none")."""
    crew = [person(nationality="ES")]
    presence = [{"entry": "1999-03-01"}]
    leased = evaluate(make_case(crew, flag="ES", activity="fishing", contract="lease",
                                presence=presence), D(1999, 6, 1))
    assert leased.verdict == Verdict.NOT_COVERED
    reason = leased.not_covered_reason
    assert reason is not None
    assert "informe o contrato" not in reason.pt and "operation.contract" not in reason.pt
    assert "o contrato informado, arrendamento (lease), não é um dos do art. 1º" in reason.pt
    assert "the contract given, lease (lease), is not one of art. 1's" in reason.en
    missing = parse_vessel_case({"vessel": {"flag": "ES", "activity": "fishing"},
                                 "operation": {"ajb_presence": presence}, "crew": crew})
    declared = make_case(crew, flag="ES", activity="fishing", contract="none",
                         presence=presence)
    for case in (missing, declared):
        reason = evaluate(case, D(1999, 6, 1)).not_covered_reason
        assert reason is not None and reason.pt.endswith(
            "— se houver contrato com empresa brasileira, informe-o (operation.contract).")
        assert "o contrato informado" not in reason.pt

"""Recidivism window (Portaria art. 3, IV; Lei 810/1949; CC art. 132) and the time axis."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from fines_helpers import make_input

from abordo.law.decision import Verdict
from abordo.law.errors import InputError
from abordo.port_fines import grade, load_catalogue
from abordo.port_fines.catalogue import Catalogue
from abordo.port_fines.rules import recidivism_window_end

PRIOR = {"provision": "lei-9719/art-8", "imposed_on": "2004-03-01"}


def _graded(date: dt.date, *priors: dict[str, str]) -> dict[str, Any]:
    result: dict[str, Any] = grade(make_input(date=date, workers=1, priors=list(priors))).result
    return result


def test_last_day_of_window_is_recidivism() -> None:
    r = _graded(dt.date(2006, 3, 1), PRIOR)
    assert r["doubled"] is True
    assert r["recidivism_from"] == dt.date(2004, 3, 1)
    assert r["amount"] == Decimal("6210.00")


def test_next_day_is_not_recidivism() -> None:
    r = _graded(dt.date(2006, 3, 2), PRIOR)
    assert r["doubled"] is False
    assert r["recidivism_from"] is None


def test_same_day_as_imposition_is_not_recidivism() -> None:
    r = _graded(dt.date(2006, 3, 1), {"provision": "lei-9719/art-8", "imposed_on": "2006-03-01"})
    assert r["doubled"] is False


def test_penalty_imposed_after_the_infraction_does_not_count() -> None:
    r = _graded(dt.date(2005, 6, 10), {"provision": "lei-9719/art-8", "imposed_on": "2005-07-01"})
    assert r["doubled"] is False


def test_29_february_imposition_window_ends_1_march() -> None:
    assert recidivism_window_end(dt.date(2004, 2, 29)) == dt.date(2006, 3, 1)
    assert recidivism_window_end(dt.date(2008, 2, 29)) == dt.date(2010, 3, 1)
    leap = {"provision": "lei-9719/art-8", "imposed_on": "2004-02-29"}
    assert _graded(dt.date(2006, 2, 28), leap)["doubled"] is True
    assert _graded(dt.date(2006, 3, 1), leap)["doubled"] is True
    assert _graded(dt.date(2006, 3, 2), leap)["doubled"] is False
    d = grade(make_input(date=dt.date(2006, 3, 1), workers=1, priors=[leap]))
    assert "Lei nº 810/1949, art. 3º" in [c.label for c in d.citations]


def test_other_provision_is_not_recidivism() -> None:
    r = _graded(dt.date(2005, 6, 10), {"provision": "lei-9719/art-6", "imposed_on": "2005-01-01"})
    assert r["doubled"] is False


def test_most_recent_qualifying_penalty_is_shown() -> None:
    r = _graded(dt.date(2005, 6, 10), PRIOR,
                {"provision": "lei-9719/art-8", "imposed_on": "2005-02-01"},
                {"provision": "lei-9719/art-8", "imposed_on": "2001-01-01"})
    assert r["recidivism_from"] == dt.date(2005, 2, 1)
    assert r["recidivism"] == {"provision": "lei-9719/art-8",
                               "imposed_on": dt.date(2005, 2, 1),
                               "window_end": dt.date(2007, 2, 1)}


def test_expired_penalty_is_explained_in_trace() -> None:
    d = grade(make_input(date=dt.date(2007, 1, 1), workers=1, priors=[PRIOR]))
    texts = [s.text.pt for s in d.trace if s.rule == "port_fines.recidivism"]
    assert texts and "encerrado em 01/03/2006" in texts[0]


@pytest.mark.parametrize(("date", "covered"), [
    (dt.date(2000, 10, 4), False),
    (dt.date(2000, 10, 5), True),
    (dt.date(2012, 1, 22), True),
    (dt.date(2012, 1, 23), False),
])
def test_portaria_746_window(date: dt.date, covered: bool) -> None:
    d = grade(make_input(date=date))
    assert (d.verdict == Verdict.COMPUTED) is covered
    if not covered:
        assert d.verdict == Verdict.NOT_COVERED
        assert d.not_covered_reason is not None
        assert d.regime is None


def test_not_covered_names_successor() -> None:
    d = grade(make_input(date=dt.date(2015, 3, 1)))
    assert d.not_covered_reason is not None
    assert "Portaria MTE nº 112" in d.not_covered_reason.pt
    assert "Portaria MTb nº 290/1997" in d.not_covered_reason.pt
    d = grade(make_input(date=dt.date(2022, 5, 1)))
    assert d.not_covered_reason is not None
    assert "Portaria MTP nº 667" in d.not_covered_reason.pt
    d = grade(make_input(date=dt.date(1999, 5, 1)))
    assert d.not_covered_reason is not None
    assert "05/10/2000" in d.not_covered_reason.pt


def test_not_covered_from_2024_names_the_later_updates_of_the_amounts() -> None:
    # norms.md, Lei 9.719/1998: "amounts updated by later ministerial acts (e.g. Portaria MTE
    # 66/2024, 1.131/2025) — not modelled"; only their years are known (worked case r30b-f08).
    d = grade(make_input(date=dt.date(2025, 6, 2), nature=2, extent="medium", workers=10))
    assert d.verdict == Verdict.NOT_COVERED
    assert d.result["norm_in_force"] == "mtp-portaria-667-2021"
    reason = d.not_covered_reason
    assert reason is not None
    assert reason.pt == (
        "Gradação das multas da Lei nº 9.719/1998: em 02/06/2025 vigorava Portaria MTP nº "
        "667/2021 (Portaria MTP nº 667, de 8 de novembro de 2021), que não está modelada. "
        "Os valores das multas da Lei nº 9.719/1998 foram atualizados por atos ministeriais "
        "posteriores, também não modelados: Portaria MTE nº 66/2024 e Portaria MTE nº "
        "1.131/2025 (de 2025, sem data de vigência confirmada: pode ser posterior a "
        "02/06/2025); os valores originais da lei (os do Anexo I da Portaria MTE nº 746/2000) "
        "não valem para 02/06/2025.")
    assert reason.en.endswith(
        "The amounts of the Lei 9.719/1998 fines were updated by later ministerial acts, not "
        "modelled either: Portaria MTE nº 66/2024 and Portaria MTE nº 1.131/2025 (of 2025, its "
        "date of effect unconfirmed: it may be later than 2025-06-02); the law's original "
        "amounts (those of Annex I of Portaria MTE 746/2000) do not apply on 2025-06-02.")
    # In 2024 only the 2024 act, itself of unconfirmed date: the original amounts are not
    # said to be gone.
    mid_2024 = grade(make_input(date=dt.date(2024, 6, 1))).not_covered_reason
    assert mid_2024 is not None
    assert mid_2024.pt.endswith(
        "também não modelados: Portaria MTE nº 66/2024 (de 2024, sem data de vigência "
        "confirmada: pode ser posterior a 01/06/2024).")
    # From 2026 both acts are in force whatever their day.
    later = grade(make_input(date=dt.date(2026, 3, 1))).not_covered_reason
    assert later is not None
    assert ("não modelados: Portaria MTE nº 66/2024 e Portaria MTE nº 1.131/2025; os valores "
            "originais da lei") in later.pt
    # Before 2024 no update is named.
    for day in (dt.date(2015, 3, 1), dt.date(2022, 5, 1), dt.date(2023, 12, 31)):
        before = grade(make_input(date=day)).not_covered_reason
        assert before is not None
        assert "atualizados" not in before.pt and "66/2024" not in before.pt


def test_not_covered_does_not_ask_for_nature() -> None:
    d = grade(make_input(date=dt.date(2015, 3, 1), nature=None, workers=None))
    assert d.verdict == Verdict.NOT_COVERED


def test_lei_8630_after_revocation() -> None:
    d = grade(make_input(provision="lei-8630/art-26/caput", date=dt.date(2014, 2, 1)))
    assert d.verdict == Verdict.NOT_COVERED
    reason = d.not_covered_reason
    assert reason is not None
    assert "vigorou até 04/06/2013" in reason.pt
    assert "Lei nº 12.815/2013, art. 40, caput" in reason.pt
    assert d.result["successor"] == "Lei nº 12.815/2013, art. 40, caput"


def test_provision_out_of_force_inside_portaria_window() -> None:
    # A provision whose force ends inside the Portaria's window (a catalogue edit) is
    # not_covered on its own account.
    cat = load_catalogue()
    changed = [p.model_copy(update={"valid_to": dt.date(2005, 1, 1)})
               if p.id == "lei-8630/art-45" else p for p in cat]
    d = grade(make_input(provision="lei-8630/art-45", date=dt.date(2006, 1, 1)),
              catalogue=Catalogue(changed))
    assert d.verdict == Verdict.NOT_COVERED
    assert d.not_covered_reason is not None
    assert "vigorou até 01/01/2005" in d.not_covered_reason.pt


def test_art9_health_and_safety_are_one_legal_provision_by_default() -> None:
    """Art. 3, IV asks for "o mesmo dispositivo legal": Lei 9.719 art. 9 is one provision
    (the two Annex I entries only carry art. 10, II's two ranges)."""
    data = make_input(provision="lei-9719/art-9/safety", date=dt.date(2006, 1, 10), nature=1,
                      extent="light", workers=None,
                      priors=[{"provision": "lei-9719/art-9/health", "imposed_on": "2005-02-01"}])
    d = grade(data)
    assert (d.result["doubled"], d.result["amount"]) == (True, Decimal("1150.00"))
    assert d.result["recidivism"]["provision"] == "lei-9719/art-9/health"
    assert "fines.recidivism.same_legal_provision" in {i.id for i in d.interpretations}
    alt = grade(data, options={"fines.recidivism": "same_catalogue_entry"})
    assert (alt.result["doubled"], alt.result["amount"]) == (False, Decimal("575.00"))
    assert "fines.recidivism.same_catalogue_entry" in {i.id for i in alt.interpretations}
    # Without a prior on the sibling entry the reading decides nothing and is not listed.
    plain = grade(make_input(priors=[PRIOR]))
    assert not any(i.id.startswith("fines.recidivism") for i in plain.interpretations)


def test_infraction_and_prior_penalties_after_the_date_judged_are_refused() -> None:
    # The date judged (the faces give today) bounds the facts: a 2099 infraction or a
    # penalty imposed after it has not happened — refused, not graded under today's norm.
    data = make_input(date=dt.date(2099, 1, 1), workers=1,
                      priors=[PRIOR, {"provision": "lei-9719/art-8", "imposed_on": "2098-01-01"}])
    with pytest.raises(InputError) as err:
        grade(data, judged_on=dt.date(2026, 11, 30))
    e = err.value
    assert [x.field for x in [e, *e.details]] == ["infraction.date",
                                                  "offender.prior_penalties[1].imposed_on"]
    assert e.message == ("data da infração (01/01/2099) posterior à data da gradação "
                         "(30/11/2026): só se gradua infração já ocorrida")
    assert e.details[0].message_en == ("penalty imposed on 2098-01-01, after the date of the "
                                       "grading (2026-11-30): give only penalties already "
                                       "imposed")
    # On the date judged itself both are facts already: graded.
    same_day = make_input(date=dt.date(2009, 3, 17), workers=1,
                          priors=[{"provision": "lei-9719/art-8", "imposed_on": "2009-03-17"}])
    assert grade(same_day, judged_on=dt.date(2009, 3, 17)).result["doubled"] is False


def test_penalty_between_the_infraction_and_the_date_judged_is_traced_not_refused() -> None:
    # Part of the offender's record when the fine is graded, but not prior to the infraction
    # (worked case r10-pf07): no recidivism, and the trace says why.
    d = grade(make_input(date=dt.date(2005, 6, 10), workers=1,
                         priors=[{"provision": "lei-9719/art-8", "imposed_on": "2005-07-01"}]),
              judged_on=dt.date(2026, 11, 30))
    assert d.result["doubled"] is False
    texts = [s.text.pt for s in d.trace if s.rule == "port_fines.recidivism"]
    assert texts == ["Penalidade no mesmo dispositivo imposta em 01/07/2005, não anterior à "
                     "infração de 10/06/2005: não gera reincidência."]


def test_the_signed_justification_states_the_window_not_less_than_two_years() -> None:
    # Imposed 10/02/2009, infraction 10/02/2011: exactly two years, still recidivism (the
    # window's last day is included) — the art. 6 text must not say "menos de 2 anos".
    d = grade(make_input(date=dt.date(2011, 2, 10), extent="medium", intent=True, nature=1,
                         workers=15,
                         priors=[{"provision": "lei-9719/art-8", "imposed_on": "2009-02-10"}],
                         grading={"chosen_value": "1500.00",
                                  "reason": "primeira ocorrência no porto"}))
    text = d.result["justification"]
    assert d.result["amount"] == Decimal("45000.00")
    assert "menos de 2 anos" not in text
    assert ("7. Multa aplicada em dobro por reincidência: R$ 1.500,00 × 2 = R$ 3.000,00 por "
            "trabalhador (art. 2º). Reincidência: penalidade anterior no mesmo dispositivo, "
            "imposta em 10/02/2009; prazo de 2 anos da imposição até 10/02/2011, inclusive "
            "(art. 3º, IV).\n" in text)
    # the chosen value's reason closes its sentence like every other item
    assert ("6. Valor fixado: R$ 1.500,00 por trabalhador, abaixo do teto de R$ 2.070,00, pelo "
            "seguinte motivo: primeira ocorrência no porto.\n7." in text)


def test_the_justification_of_a_window_from_29_february_ends_on_1_march() -> None:
    d = grade(make_input(date=dt.date(2010, 3, 1), extent="light", intent=False, workers=2,
                         priors=[{"provision": "lei-9719/art-8", "imposed_on": "2008-02-29"}]))
    assert d.result["amount"] == Decimal("1380.00")
    assert ("imposta em 29/02/2008; prazo de 2 anos da imposição até 01/03/2010, inclusive, "
            "pois 29/02 não tem correspondente e o prazo vence em 1º de março (art. 3º, IV; "
            "Lei nº 810/1949, art. 3º).\n" in d.result["justification"])

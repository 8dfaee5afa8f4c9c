"""The Portuguese of the fine's texts: lists, number agreement, a sibling prior named,
the result line said once."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from fines_helpers import make_input

from abordo.faces.reports.port_fines import html_report, text_report
from abordo.law.decision import Decision
from abordo.port_fines import grade
from abordo.port_fines.text import entry_label


def test_doubling_causes_are_joined_with_e() -> None:
    d = grade(make_input(obstruction=True, contempt=True))
    text = " ".join(s.text.pt for s in d.trace)
    assert "Multa em dobro por oposição à fiscalização e desacato à autoridade:" in text
    assert "Fine doubled for obstruction of the inspection and contempt of the inspector:" in \
        " ".join(s.text.en for s in d.trace)


def test_one_worker_is_singular() -> None:
    per_worker = text_report(grade(make_input(workers=1)))
    assert "× 1 trabalhador em situação irregular =" in per_worker
    assert "trabalhadores em situação irregular =" not in per_worker
    per_infraction = grade(make_input(provision="lei-9719/art-9/safety", nature=1,
                                      workers=1))
    assert "; o trabalhador informado não multiplica a multa" in " ".join(
        s.text.pt for s in per_infraction.trace)


def test_prior_on_the_sibling_entry_is_named() -> None:
    d = grade(make_input(provision="lei-9719/art-9/safety", nature=1, date=dt.date(2010, 4, 1),
                         priors=[{"provision": "lei-9719/art-9/health",
                                  "imposed_on": dt.date(2009, 4, 1)}]))
    assert d.result["doubled"] is True
    why = "penalidade anterior no mesmo dispositivo legal (Lei nº 9.719/1998, art. 9º — " \
          "normas de saúde), imposta em 01/04/2009"
    assert why in d.result["justification"]
    same = grade(make_input(priors=[{"provision": "lei-9719/art-8",
                                     "imposed_on": dt.date(2004, 6, 10)}]))
    assert "penalidade anterior no mesmo dispositivo, imposta em 10/06/2004" in \
        same.result["justification"]


def test_the_draft_decision_names_the_prior_as_a_practitioner_writes_it() -> None:
    # r30b-f03: art. 9 safety after an art. 9 health penalty, plus obstruction. The minuta
    # cites the law, no nested parenthesis and no catalogue id; the ids stay in the JSON.
    d = grade({"infraction": {"provision": "lei-9719/art-9/safety", "date": "2010-08-17",
                              "nature": 3, "extent": "medium", "intent": True,
                              "obstruction": True},
               "offender": {"prior_penalties": [
                   {"provision": "lei-9719/art-8", "imposed_on": "2008-08-17"},
                   {"provision": "lei-9719/art-9/health", "imposed_on": "2009-01-10"}]}})
    assert d.result["amount"] == Decimal("9200.00")
    text = d.result["justification"]
    assert ("7. Multa aplicada em dobro por reincidência e oposição à fiscalização: "
            "R$ 4.600,00 × 2 = R$ 9.200,00 (art. 2º). Reincidência: penalidade anterior no "
            "mesmo dispositivo legal (Lei nº 9.719/1998, art. 9º — normas de saúde), imposta "
            "em 10/01/2009; prazo de 2 anos da imposição até 10/01/2011, inclusive "
            "(art. 3º, IV).\n8. Valor da multa: R$ 9.200,00, por infração") in text
    # Nature given with the input: the decision cites Annex I and asks to check it there.
    assert ("2. Natureza: 3 (Anexo I). [conferir a natureza no texto oficial do Anexo I — "
            "art. 3º, I]\n") in text
    assert "informada pelo usuário" not in text
    assert "lei-9719/" not in text
    assert re.search(r"\([^()]*\(", text) is None  # no parenthesis opened inside another
    finding = next(f for f in d.findings if f.id == "recidivism")
    assert finding.text.pt == (
        "Reincidência: penalidade no mesmo dispositivo legal (Lei nº 9.719/1998, art. 9º — "
        "normas de saúde) imposta em 10/01/2009; prazo de 2 anos até 10/01/2011.")
    assert d.result["recidivism"]["provision"] == "lei-9719/art-9/health"


def test_entry_label_turns_the_closing_parenthesis_into_a_dash() -> None:
    assert entry_label("Lei nº 9.719/1998, art. 9º (normas de segurança)") == \
        "Lei nº 9.719/1998, art. 9º — normas de segurança"
    assert entry_label("Lei nº 8.630/1993, art. 26, parágrafo único") == \
        "Lei nº 8.630/1993, art. 26, parágrafo único"
    assert entry_label("a (b) c") == "a (b) c"


def test_the_minimum_kept_final_cites_no_interpretation_id_in_the_decision() -> None:
    d = grade(make_input(workers=1, sanable=True, corrected=True,
                         priors=[{"provision": "lei-9719/art-8", "imposed_on": "2004-06-10"}]),
              options={"fines": "minimum.final"})
    assert d.result["amount"] == Decimal("345.00")
    assert "8. Presente(s) reincidência, a multa não é dobrada: o valor mínimo do art. 4º é " \
        "definitivo.\n" in d.result["justification"]
    assert "fines.minimum.final" not in d.result["justification"]
    assert "fines.minimum.final" in {i.id for i in d.interpretations}


def test_not_covered_result_line_says_it_once() -> None:
    out = text_report(grade(make_input(provision="lei-9719/art-1", date=dt.date(1998, 11, 29))))
    assert "Resultado: NÃO COBERTO — infração de 29/11/1998 fora da norma modelada." in out
    assert "Lei nº 9.719/1998, art. 1º: a multa só existe a partir de 30/11/1998" in out
    assert "Dispositivo infringido: Lei nº 9.719/1998, art. 1º [lei-9719/art-1]" in out


def test_not_covered_title_claims_no_grading_by_the_portaria() -> None:
    # r30b-f08: an infraction of 02/06/2025, long after Portaria 746/2000 (to 22/01/2012).
    late = grade(make_input(date=dt.date(2025, 6, 2), nature=2, extent="medium", workers=10))
    out = text_report(late)
    assert out.splitlines()[0] == "Multa do trabalho portuário — Lei nº 9.719/1998"
    assert "746/2000" not in out.splitlines()[0]
    assert text_report(late, "en").splitlines()[0] == "Port-labour fine — Lei 9.719/1998"
    assert "<h1>Multa do trabalho portuário — Lei nº 9.719/1998</h1>" in html_report(late)
    # A graded fine keeps the Portaria in its title.
    assert text_report(grade(make_input())).splitlines()[0] == (
        "Multa do trabalho portuário — Lei nº 9.719/1998, gradação da Portaria MTE nº 746/2000")


def _recidivism_steps(d: Decision, lang: str = "pt") -> list[str]:
    return [s.text.get(lang) for s in d.trace if s.rule == "port_fines.recidivism"]


def test_same_catalogue_entry_says_another_annex_i_item_not_another_provision() -> None:
    # r30b-f20: art. 9 health on 05/05/2011 under fines.recidivism.same_catalogue_entry; the
    # safety penalty is on the same legal provision (art. 9) but another Annex I item.
    d = grade({"infraction": {"provision": "lei-9719/art-9/health", "date": "2011-05-05",
                              "nature": 1, "extent": "severe", "intent": True},
               "offender": {"prior_penalties": [
                   {"provision": "lei-9719/art-9/safety", "imposed_on": "2010-05-05"},
                   {"provision": "lei-9719/art-9/health", "imposed_on": "2009-05-04"}]}},
              options={"fines.recidivism": "same_catalogue_entry"})
    assert (d.result["doubled"], d.result["amount"]) == (False, Decimal("3450.00"))
    steps = _recidivism_steps(d)
    assert steps == [
        "Penalidade no mesmo dispositivo imposta em 04/05/2009: prazo de 2 anos encerrado em "
        "04/05/2011; infração em 05/05/2011 → não é reincidência.",
        "Penalidade anterior em outro item do Anexo I (Lei nº 9.719/1998, art. 9º — normas de "
        "segurança), imposta em 05/05/2010: não gera reincidência — a opção escolhida exige o "
        "mesmo item do Anexo I, não só o mesmo dispositivo legal."]
    assert _recidivism_steps(d, "en")[1] == (
        "Prior penalty on another Annex I entry (Lei nº 9.719/1998, art. 9º — normas de "
        "segurança), imposed on 2010-05-05: no recidivism — the reading chosen requires the "
        "same Annex I entry, not only the same legal provision.")
    assert not any("lei-9719/" in s or "outro dispositivo" in s for s in steps)
    # The reading's own words say the same: one legal provision, two Annex I items.
    reading = next(i for i in d.interpretations
                   if i.id == "fines.recidivism.same_catalogue_entry")
    assert reading.text.pt.startswith(
        "Leitura alternativa: a reincidência exige o mesmo item do Anexo I. Saúde e segurança "
        "do art. 9º, embora no mesmo dispositivo legal, são itens distintos")
    # The id stays in the machine-readable data of the step.
    other = next(s for s in d.trace if s.data.get("status") == "other_entry")
    assert other.data["provision"] == "lei-9719/art-9/safety"


def test_a_prior_on_another_legal_provision_is_named_by_law_and_article() -> None:
    # r30b-f03's art. 8 prior beside an art. 9 safety infraction (default reading).
    d = grade(make_input(provision="lei-9719/art-9/safety", nature=1, date=dt.date(2010, 1, 1),
                         workers=None,
                         priors=[{"provision": "lei-9719/art-8", "imposed_on": "2008-01-01"}]))
    assert _recidivism_steps(d) == [
        "Penalidade anterior em outro dispositivo legal (Lei nº 9.719/1998, art. 8º), imposta "
        "em 01/01/2008: não gera reincidência (exige-se o mesmo dispositivo legal).",
        "Nenhuma penalidade anterior no mesmo dispositivo legal (Lei nº 9.719/1998, art. 9º): "
        "não há reincidência."]
    alt = grade(make_input(provision="lei-9719/art-9/health", nature=1,
                           date=dt.date(2010, 1, 1), workers=None,
                           priors=[{"provision": "lei-9719/art-8", "imposed_on": "2008-01-01"}]),
                options={"fines.recidivism": "same_catalogue_entry"})
    assert _recidivism_steps(alt)[1] == (
        "Nenhuma penalidade anterior no mesmo item do Anexo I (Lei nº 9.719/1998, art. 9º — "
        "normas de saúde): não há reincidência.")
    plain = grade(make_input(provision="lei-9719/art-7/caput", workers=None,
                             priors=[{"provision": "lei-9719/art-8", "imposed_on": "2004-01-01"}]))
    assert _recidivism_steps(plain)[1] == (
        "Nenhuma penalidade anterior no mesmo dispositivo (Lei nº 9.719/1998, art. 7º, caput): "
        "não há reincidência.")

"""The Portuguese of the fine's texts: lists, number agreement, a sibling prior named,
the result line said once."""

from __future__ import annotations

import datetime as dt

from fines_helpers import make_input

from abordo.faces.reports.port_fines import html_report, text_report
from abordo.port_fines import grade


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
    why = "penalidade anterior no mesmo dispositivo legal (art. 9º (normas de saúde) " \
          "[lei-9719/art-9/health]) imposta em 01/04/2009"
    assert why in d.result["justification"]
    same = grade(make_input(priors=[{"provision": "lei-9719/art-8",
                                     "imposed_on": dt.date(2004, 6, 10)}]))
    assert "penalidade anterior no mesmo dispositivo imposta em 10/06/2004" in \
        same.result["justification"]


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

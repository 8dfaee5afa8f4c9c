"""What the sea-time output says (trace, findings, labels), checked against the worked cases of
review30b: the counts stay those of the cases, the wording explains them."""

from __future__ import annotations

import datetime as dt

from sea_time_helpers import D, case, decl, excluded, rec, run

from abordo.law.decision import Decision


def _steps(d: Decision) -> dict[str, str]:
    return {s.rule: s.text.pt for s in d.trace}


def _findings(d: Decision, code: str) -> list[str]:
    return [f.text.pt for f in d.findings if f.id == code]


def test_items_after_the_request_date_say_so_and_cite_the_count_on_request() -> None:
    """Case r30b-s03: CIR to 30/09, Anexo 1-F 16–18/09 and a manoeuvre on 20/09, request
    15/09/2024 — 15 days count; each later item says why it adds nothing, the exclusion cites
    item 1.26.1, d (the sum made on receiving the request), and the CIR disembarkation after
    the request date is a warning."""
    d = run(case(cir=[rec("2024-09-01", "2024-09-30", vessel="Navio Juriti",
                          company="Cia Juriti")],
                 declarations=[decl("2024-09-01", "2024-09-30", company="Cia Juriti")],
                 standby=[{"from": D("2024-09-16"), "to": D("2024-09-18"),
                           "company": "Cia Juriti"}],
                 manoeuvres=[{"date": D("2024-09-20"), "kind": "berthing"}]),
            dt.date(2024, 9, 15))
    assert d.result["counted_days"] == 15
    assert excluded(d) == [("2024-09-16", "2024-09-30", "after_request_date")]
    late = d.result["excluded"][0]
    assert late["citation"].label == "NORMAM-101/DPC, item 1.26.1, d"
    assert late["text"].pt == (
        "Dias posteriores à data do requerimento: ainda não cumpridos — o somatório do tempo "
        "de embarque é feito pela Autoridade Marítima ao receber os documentos do requerimento")
    steps = _steps(d)
    assert steps["standby"] == ("À disposição da unidade (Anexo 1-F): 0 dia(s); 3 dia(s) após "
                                "a data do requerimento (15/09/2024), não computado(s).")
    assert steps["manoeuvres"] == (
        "Manobras: 1 registro(s) em 0 dia(s) de calendário elegível(is) (1 dia por dia com "
        "manobra); 1 dia(s) após a data do requerimento (15/09/2024), não computado(s).")
    assert steps["cir_declared"].endswith(
        "0 sem declaração; 15 dia(s) após a data do requerimento (15/09/2024), não "
        "computado(s).")
    assert _findings(d, "disembark_after_request_date") == [
        "Registro 1 da CIR (Navio Juriti): desembarque em 30/09/2024, posterior à data do "
        "requerimento (15/09/2024) — os 15 dia(s) após essa data não são computados. Conferir "
        "a data de desembarque lançada na CIR."]
    warning = next(f for f in d.findings if f.id == "disembark_after_request_date")
    assert (warning.severity, warning.subject) == ("warning", "cir[0]")
    assert warning.citation is not None and warning.citation.provision == "item 1.26.1, d"


def test_no_late_note_or_warning_when_everything_is_before_the_request_date() -> None:
    d = run(case(cir=[rec("2024-09-01", "2024-09-15")],
                 declarations=[decl("2024-09-01", "2024-09-15")],
                 standby=[{"from": D("2024-09-10"), "to": D("2024-09-12")}]),
            dt.date(2024, 9, 15))
    steps = _steps(d)
    assert steps["standby"] == "À disposição da unidade (Anexo 1-F): 3 dia(s)."
    assert "após a data do requerimento" not in steps["cir_declared"]
    assert not _findings(d, "disembark_after_request_date")
    # an open record runs to the request date: no date after it, no warning
    still_aboard = run(case(cir=[rec("2024-09-01", None)],
                            declarations=[decl("2024-09-01", "2024-09-30")]),
                       dt.date(2024, 9, 15))
    assert still_aboard.result["counted_days"] == 15
    assert not _findings(still_aboard, "disembark_after_request_date")

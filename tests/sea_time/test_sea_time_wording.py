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


def _warning_on(d: Decision, code: str) -> tuple[str, str, str | None]:
    """Severity, subject and cited provision of the first finding ``code``."""
    f = next(f for f in d.findings if f.id == code)
    return f.severity, f.subject, f.citation.provision if f.citation else None


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
    assert _warning_on(d, "disembark_after_request_date") == ("warning", "cir[0]", "item 1.26.1, d")


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


def _revalidation_s07() -> dict[str, object]:
    """Case r30b-s07: 1ON revalidation, CIR 01–10/06/2025 declared to 05/06, simulator classes
    on 08–09/06 and 01–02/07 (6 h each)."""
    return case(
        "revalidation",
        seafarer={"id": "T30-07", "group": "maritime", "category": "1ON",
                  "certificate_valid_until": D("2026-12-31")},
        cir=[rec("2025-06-01", "2025-06-10", "1ON", vessel="Navio Curió", company="Cia Curió")],
        declarations=[decl("2025-06-01", "2025-06-05", "1ON", company="Cia Curió")],
        instructor_activity=[{"date": D(day), "hours": 6, "kind": "simulator_instructor"}
                             for day in ("2025-06-08", "2025-06-09", "2025-07-01",
                                         "2025-07-02")])


def test_a_revalidation_does_not_rest_on_the_365_day_year_of_item_1_28() -> None:
    """Item 1.28 sets 1 year = 365 days for promotion and courses: a revalidation is counted
    in days, its years are shown for reference only, not cited to 1.28 nor flagged as an
    unconfirmed parameter of it (the JSON keeps the figures the cases check)."""
    from decimal import Decimal

    from abordo.faces.reports.sea_time import summary_rows, text_report

    d = run(_revalidation_s07(), dt.date(2025, 10, 1))
    r = d.result
    assert (r["counted_days"], r["years"], r["whole_years"], r["remaining_days"]) == (
        7, Decimal("0.02"), 0, 7)
    assert r["basis"]["years"] == []
    assert "item 1.28" not in {c.provision for c in d.citations}
    names = {u.name for u in d.unconfirmed}
    assert "normam101.year_365" not in names and "normam101.days_per_year" not in names
    assert "normam101.procedure" in names  # the 2025 re-issue: the count itself still is
    assert "sea_time.years.half_up" in r["interpretations"]  # the figure is still rounded
    assert d.summary.pt == ("7 dias de embarque computáveis para revalidação de certificado "
                            "— 1ON: 7.")
    assert _steps(d)["total"] == (
        "Total: 7 dias. Na revalidação o tempo de embarque é apurado em dias: a NORMAM-101 "
        "fixa 1 ano = 365 dias para ascensão de categoria e cursos, não para a revalidação.")
    years_row = next(row for row in summary_rows(d, "pt") if row[0] == "Anos (dias / 365)")
    assert years_row[2] == ("[só referência: na revalidação o tempo é apurado em dias; 1 ano "
                            "= 365 dias (item 1.28) vale para ascensão de categoria e cursos]")
    assert summary_rows(d, "en")[4][2] == (
        "[for reference only: a revalidation is counted in days; 1 year = 365 days (item "
        "1.28) applies to promotion and courses]")
    assert "só referência: na revalidação" in text_report(d, "pt", width=200)
    # promotion and courses keep the rule, its citation and (2025 re-issue) its flag
    promo = run(case(cir=[rec("2025-06-01", "2025-06-05")],
                     declarations=[decl("2025-06-01", "2025-06-05")]), dt.date(2025, 10, 1))
    assert [c.provision for c in promo.result["basis"]["years"]] == ["item 1.28"]
    assert "normam101.days_per_year" in {u.name for u in promo.unconfirmed}
    assert promo.result["years_note"] is None
    assert promo.summary.pt.startswith("5 dias de embarque computáveis (0,01 ano(s)) para")


def test_simulator_days_on_cir_days_aboard_are_a_warning_and_the_count_stays() -> None:
    """Case r30b-s07: the simulator centre declares classes on 08–09/06/2025, days the CIR
    shows the 1ON aboard (not declared by the company, so not counted aboard): the two proofs
    contradict each other — a warning; the count stays 5 + 4 ÷ 2 = 7."""
    d = run(_revalidation_s07(), dt.date(2025, 10, 1))
    assert d.result["counted_days"] == 7
    assert d.result["breakdown"]["instructor"] == 2
    assert _findings(d, "instructor_days_aboard") == [
        "Atividade de instrutor de simulador em 08/06/2025–09/06/2025, dias em que o registro 1 "
        "da CIR (Navio Curió, 01/06/2025–10/06/2025) mostra o aquaviário embarcado: as provas "
        "se contradizem — conferir a declaração do órgão empregador e a CIR. Na contagem, 2 "
        "dia(s) não contado(s) a bordo entra(m) na razão 2:1."]
    assert _warning_on(d, "instructor_days_aboard") == ("warning", "cir[0]", "item 1.27")


def test_inspector_days_on_counted_and_uncounted_days_aboard_are_told_apart() -> None:
    """An inspection on a day already counted aboard (deducted) and one on an undeclared CIR
    day (counted 2:1), a third day ashore and one under 4 h aboard (not a qualifying day)."""
    data = case("revalidation",
                seafarer={"id": "T01", "group": "maritime", "category": "1ON",
                          "certificate_valid_until": D("2027-01-01")},
                cir=[rec("2025-03-01", "2025-03-10", "1ON")],
                declarations=[decl("2025-03-01", "2025-03-05", "1ON")],
                instructor_activity=[
                    {"date": D(day), "hours": h, "kind": "naval_inspector"}
                    for day, h in (("2025-03-02", 6), ("2025-03-08", 5), ("2025-03-09", 3),
                                   ("2025-04-02", 8))])
    d = run(data, dt.date(2025, 6, 1))
    assert (d.result["counted_days"], d.result["instructor"]["counted"]) == (6, 1)
    assert _findings(d, "instructor_days_aboard") == [
        "Atividade de inspetor naval em 02/03/2025 e 08/03/2025, dias em que o registro 1 da "
        "CIR (Navio, 01/03/2025–10/03/2025) mostra o aquaviário embarcado: as provas se "
        "contradizem — conferir a declaração do órgão empregador e a CIR. Na contagem, 1 "
        "dia(s) já contado(s) a bordo não conta(m) de novo e 1 dia(s) não contado(s) a bordo "
        "entra(m) na razão 2:1."]
    # activity away from every CIR record: no warning
    ashore = dict(data, instructor_activity=[
        {"date": D("2025-04-02"), "hours": 8, "kind": "naval_inspector"}])
    assert not _findings(run(ashore, dt.date(2025, 6, 1)), "instructor_days_aboard")


def _foreign_s10() -> dict[str, object]:
    """Case r30b-s10: Norwegian PSV entered in the CIR, 1-H for all of it; Liberian bulk
    carrier in the foreign record book 01–31/08/2024, 1-H only to 20/08."""
    return case(
        cir=[rec("2024-05-01", "2024-05-28", vessel="Nordic Sula", flag="NO",
                 company="Nordic Offshore AS", entered_in="cir"),
             rec("2024-08-01", "2024-08-31", vessel="Monrovia Trader", flag="LR",
                 company="Monrovia Bulk Inc", entered_in="foreign_record_book")],
        foreign_declarations=[
            decl("2024-05-01", "2024-05-28", company="Nordic Offshore AS", flag="NO"),
            decl("2024-08-01", "2024-08-20", company="Monrovia Bulk Inc", flag="LR")])


def test_foreign_days_without_the_anexo_1h_and_the_foreign_record_book_are_named() -> None:
    """The 11 Liberian days the Anexo 1-H does not cover are labelled as the foreign
    company's missing declaration (the provision's own text, item 1.29.1, c), not as the
    Brazilian company's (Anexo 1-S); the entry from the foreign record book is named by it."""
    from abordo.faces.reports.sea_time import excluded_rows, legend, timeline

    d = run(_foreign_s10(), dt.date(2024, 12, 1))
    assert d.result["counted_days"] == 48
    assert excluded(d) == [("2024-08-21", "2024-08-31", "not_declared")]  # the cases' id
    assert excluded_rows(d, "pt") == [(
        "21/08/2024", "31/08/2024", 11, "sem declaração da empresa estrangeira (Anexo 1-H)",
        "Período em navio estrangeiro sem declaração da empresa estrangeira (Anexo 1-H) que o "
        "cubra", "NORMAM-101/DPC, item 1.29.1, c")]
    assert excluded_rows(d, "en")[0][3] == "not declared by the foreign company (Anexo 1-H)"
    assert ("foreign_not_declared", "D", "sem declaração da empresa estrangeira (Anexo 1-H)"
            ) in legend(timeline(d), "pt")
    steps = [s.text.pt for s in d.trace if s.rule == "foreign"]
    assert steps == [
        "Registro 1 da CIR (Nordic Sula, 01/05/2024–28/05/2024, 2ON): 28 dia(s) conferido(s) "
        "com a declaração (Anexo 1-H); 0 em outra categoria; 0 sem declaração da empresa "
        "estrangeira.",
        "Registro 2 da caderneta estrangeira (Monrovia Trader, 01/08/2024–31/08/2024, 2ON): 20 "
        "dia(s) conferido(s) com a declaração (Anexo 1-H); 0 em outra categoria; 11 sem "
        "declaração da empresa estrangeira."]
    assert [s.text.en for s in d.trace if s.rule == "foreign"][1].startswith(
        "Foreign record book entry 2 (Monrovia Trader, 2024-08-01–2024-08-31, 2ON): 20 day(s)")


def test_an_interval_two_provisions_excluded_is_labelled_and_painted_by_each() -> None:
    """Brazilian days without an Anexo 1-S (06–10/08) run into foreign days without an
    Anexo 1-H (11–14/08): one interval for the reason not_declared (the cases' convention),
    labelled by both provisions and painted day by day on the timeline."""
    from abordo.faces.reports.sea_time import excluded_rows, timeline

    d = run(case(cir=[rec("2024-08-01", "2024-08-10", company="Cia BR"),
                      rec("2024-08-11", "2024-08-20", flag="LR", company="Monrovia Inc")],
                 declarations=[decl("2024-08-01", "2024-08-05", company="Cia BR")],
                 foreign_declarations=[decl("2024-08-15", "2024-08-20",
                                            company="Monrovia Inc", flag="LR")]),
            dt.date(2024, 12, 1))
    assert excluded(d) == [("2024-08-06", "2024-08-14", "not_declared")]
    assert d.result["excluded"][0]["parts"] == [
        {"from": D("2024-08-06"), "to": D("2024-08-10"), "rule": "not_declared"},
        {"from": D("2024-08-11"), "to": D("2024-08-14"), "rule": "foreign_not_declared"}]
    assert excluded_rows(d, "pt")[0][3] == (
        "sem declaração da empresa; sem declaração da empresa estrangeira (Anexo 1-H)")
    august = timeline(d)[0].codes
    assert august[5:14] == ("not_declared",) * 5 + ("foreign_not_declared",) * 4


def test_findings_name_a_foreign_record_book_entry_by_its_book() -> None:
    d = run(case(cir=[rec("2024-08-01", "2024-08-10", company="Cia BR"),
                      rec("2024-08-05", "2024-12-31", vessel="Monrovia Trader", flag="LR",
                          company="Monrovia Inc", entered_in="foreign_record_book")],
                 declarations=[decl("2024-08-01", "2024-08-10", company="Cia BR")]),
            dt.date(2024, 12, 1))
    assert _findings(d, "cir_records_overlap") == [
        "Registro 1 da CIR (Navio) e registro 2 da caderneta estrangeira (Monrovia Trader) se "
        "sobrepõem de 05/08/2024 a 10/08/2024: cada dia conta uma vez — confira os registros "
        "(dois embarques ao mesmo tempo)."]
    assert _findings(d, "disembark_after_request_date") == [
        "Registro 2 da caderneta estrangeira (Monrovia Trader): desembarque em 31/12/2024, "
        "posterior à data do requerimento (01/12/2024) — os 30 dia(s) após essa data não são "
        "computados. Conferir a data de desembarque lançada na caderneta estrangeira."]


def test_a_laid_up_vessel_and_sea_trials_before_the_dpp_have_labels_of_their_own() -> None:
    """Cases r30b-s11 (inland sea trials, DPP 27/11/2024) and r30b-s20 (laid-up vessel, Anexo
    1-F inside): one reason id, not_in_service, for the cases; two provisions, each labelled
    by itself instead of "fora de serviço / provas de mar antes do DPP"."""
    from abordo.faces.reports.sea_time import excluded_rows, legend, timeline

    trials = run(case("revalidation", "2OM",
                      seafarer={"id": "T30-11", "group": "maritime", "category": "2OM",
                                "department": "engine"},
                      cir=[rec("2024-11-25", "2024-11-30", "2OM", vessel="Casco 305",
                               kind="sea_trials", dpp_date=D("2024-11-27"),
                               navigation="inland")],
                      declarations=[decl("2024-11-25", "2024-11-30", "2OM")]),
                 dt.date(2024, 12, 20))
    assert trials.result["counted_days"] == 4
    assert excluded(trials) == [("2024-11-25", "2024-11-26", "not_in_service")]
    assert trials.result["excluded"][0]["rule"] == "sea_trials_before_dpp"
    assert excluded_rows(trials, "pt") == [(
        "25/11/2024", "26/11/2024", 2, "provas de mar antes do DPP",
        "Provas de mar de embarcação em construção antes da emissão do Documento Provisório "
        "de Propriedade (DPP), ou sem DPP", "NORMAM-101/DPC, item 1.27")]
    assert legend(timeline(trials), "en")[1] == ("sea_trials_before_dpp", "t",
                                                 "sea trials before the DPP")
    assert _steps(trials)["cir_declared"].endswith(
        "0 sem declaração; 2 dia(s) de provas de mar antes do DPP (emitido em 27/11/2024).")

    laid_up = run(case(cir=[rec("2024-08-01", "2024-08-31", vessel="Navio Inhambu",
                                in_service=False)],
                       declarations=[decl("2024-08-01", "2024-08-31")],
                       standby=[{"from": D("2024-08-10"), "to": D("2024-08-20")}]),
                  dt.date(2024, 10, 1))
    assert laid_up.result["counted_days"] == 11
    assert excluded(laid_up) == [("2024-08-01", "2024-08-09", "not_in_service"),
                                 ("2024-08-21", "2024-08-31", "not_in_service")]
    rows = excluded_rows(laid_up, "pt")
    assert {row[3] for row in rows} == {"embarcação fora de serviço"}
    assert rows[0][4] == ("Embarcação fora de serviço: conta só o embarque em embarcação "
                          "normalmente em serviço")
    assert ("not_in_service", "n", "embarcação fora de serviço") in legend(
        timeline(laid_up), "pt")

    # no DPP at all: every day of the trials, said so
    no_dpp = run(case(cir=[rec("2024-02-01", "2024-02-03", kind="sea_trials")],
                      declarations=[decl("2024-02-01", "2024-02-03")]), dt.date(2024, 6, 1))
    assert _steps(no_dpp)["cir_declared"].endswith(
        "0 sem declaração; 3 dia(s) de provas de mar sem DPP.")


def test_an_exact_target_and_whole_years_read_as_portuguese() -> None:
    """Cases r30b-s01 (365 days, 365 required) and r30b-s16 (180 of 180): "atingido
    exatamente", "1 ano" — not "atingido (+0 dia(s))", "1 ano(s) e 0 dia(s)"."""
    from abordo.faces.reports.sea_time import summary_rows
    from abordo.sea_time.engine import target_outcome, years_and_days

    d = run(case(cir=[rec("2023-03-01", "2024-02-28")],
                 declarations=[decl("2023-03-01", "2024-02-28")],
                 target={"category": "1ON", "required_days": 365}), dt.date(2024, 3, 15))
    assert d.result["counted_days"] == 365
    assert d.result["eligibility"]["missing_days"] == 0 and d.result["eligibility"]["eligible"]
    assert d.summary.pt.endswith("meta 1ON: tempo de embarque exigido atingido exatamente.")
    steps = _steps(d)
    assert steps["total"] == "Total: 365 dias = 1 ano (1,00 ano(s); 1 ano = 365 dias)."
    assert steps["eligibility"] == ("Meta 1ON: exige 365 dias (informado); contados 365; "
                                    "tempo de embarque exigido atingido exatamente.")
    rows = {k: v for k, v, _ in summary_rows(d, "pt")}
    assert rows["Anos (dias / 365)"] == "1,00 — 1 ano"
    assert {k: v for k, v, _ in summary_rows(d, "en")}["Years (days / 365)"] == "1.00 — 1 year"

    assert [years_and_days(w, r).pt for w, r in ((0, 0), (0, 1), (0, 15), (1, 0), (1, 1),
                                                  (1, 163), (8, 2))] == [
        "0 dias", "1 dia", "15 dias", "1 ano", "1 ano e 1 dia", "1 ano e 163 dias",
        "8 anos e 2 dias"]
    assert years_and_days(2, 1).en == "2 years and 1 day"
    assert [target_outcome(365, n).pt for n in (365, 366, 393, 364, 163)] == [
        "tempo de embarque exigido atingido exatamente",
        "tempo de embarque exigido atingido, com 1 dia a mais",
        "tempo de embarque exigido atingido, com 28 dias a mais",
        "falta 1 dia", "faltam 202 dias"]
    assert [target_outcome(365, n).en for n in (365, 366, 364)] == [
        "required sea time reached exactly", "required sea time reached, 1 day over",
        "1 day missing"]

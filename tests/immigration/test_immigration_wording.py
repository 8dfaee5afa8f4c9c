"""What a Brazilian reader sees: the norm applied only when a regime was applied, Portuguese
sources and plurals, the citation column with its norm, the consequence after IN SIT 70/2007
and the checklist's legal basis (real texts)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from abordo.crew.load import parse_vessel_case
from abordo.crew.model import VesselCase
from abordo.faces.reports.immigration import basis_text, immigration_text_blocks
from abordo.faces.reports.vessel_check import html_report, text_report
from abordo.immigration import evaluate
from abordo.immigration.checklist import evaluate as checklist
from abordo.law.decision import Decision
from abordo.vessel_check import check_vessel

CaseFactory = Callable[..., VesselCase]
D = dt.date
PROCEDURE = ("Procedimento previsto na IN SIT 70/2007, art. 14 (auto de infração contra {who}, "
             "CLT art. 444, ementa 001139-8); revogada com efeitos a partir de 10/12/2021 — "
             "o procedimento vigente (IN MTP nº 2/2021) não está modelado.")


def person(pid: str, entry: str, **kw: object) -> dict[str, object]:
    return {"id": pid, "rank": "AB", "nationality": "PH",
            "entries": [{"date": entry, "by": "sea"}], **kw}


def row(decision: Decision, pid: str) -> dict[str, Any]:
    return next(p for p in decision.result["persons"] if p["id"] == pid)


def brazilian_flag(crew: list[dict[str, object]]) -> VesselCase:
    return parse_vessel_case({
        "vessel": {"name": "Navio BR", "flag": "BR", "activity": "cabotage",
                   "registry": "ordinary"},
        "operation": {"contract": "none", "ajb_presence": [{"entry": "2026-01-01"}]},
        "crew": crew}, None, "test.yaml")


def section(html: str, name: str) -> str:
    start = html.index(f'<section class="{name}">')
    return html[start:html.index("</section>", start)]


def flat(text: str) -> str:
    return " ".join(text.split())


# --- 2. the norm applied --------------------------------------------------------------------

def test_brazilian_flag_names_no_norm_as_applied(make_case: CaseFactory) -> None:
    case = brazilian_flag([person("P01", "2026-01-01")])
    d = evaluate(case, D(2026, 6, 1))
    assert d.verdict.value == "not_covered" and d.result["regime_applied"] is False
    text = flat(" ".join(x for x in immigration_text_blocks(d, "pt") if isinstance(x, str)))
    assert "Norma aplicada" not in text and "bandeira brasileira" in text
    html = section(html_report(check_vessel(case, D(2026, 6, 1)), "pt"), "immigration")
    assert "Norma aplicada" not in html


def test_not_covered_activity_names_no_norm_as_applied(make_case: CaseFactory) -> None:
    case = make_case([person("P01", "2026-01-01")], activity="cruise")
    d = evaluate(case, D(2026, 6, 1))
    assert d.regime == "cnig-rn-06-2017@res-42-2020" and d.result["regime_applied"] is False
    assert "Norma aplicada" not in " ".join(
        x for x in immigration_text_blocks(d, "pt") if isinstance(x, str))


def test_applied_regime_is_named(make_case: CaseFactory) -> None:
    d = evaluate(make_case([person("P01", "2026-05-01", sid_c185=True)]), D(2026, 6, 1))
    assert d.result["regime_applied"] is True
    assert ("Norma aplicada: RN CNIg nº 06/2017, na redação da Res. CNIg nº 42/2020 "
            "(cnig-rn-06-2017@res-42-2020)") in immigration_text_blocks(d, "pt")


# --- 3. Portuguese: sources, plurals, citation column ---------------------------------------

def test_unconfirmed_migratory_year_source_is_portuguese(make_case: CaseFactory) -> None:
    d = evaluate(make_case([person("P01", "2026-05-01", sid_c185=True)]), D(2026, 6, 1))
    (u,) = d.unconfirmed
    assert (u.name, u.value.pt) == ("immigration.migratory_year_months", "12 meses")
    assert u.source.pt.endswith("— lido em fontes secundárias: o texto oficial do decreto e o "
                                "ato da Polícia Federal que disciplina o ano migratório não "
                                "foram conferidos")
    for english in ("read in", "seeds", "not read", "not checked", "shared spec"):
        assert english not in u.source.pt
    # The English output's (was the Portuguese text under --lang en).
    assert u.value.en == "12 months"
    assert u.source.en.endswith("— read in secondary sources: the official text of the decree "
                                "and the Federal Police act on the migratory year were not "
                                "checked")


def test_unconfirmed_rn31_start_source_is_portuguese(make_case: CaseFactory) -> None:
    case = make_case([person("H01", "1998-06-01")], activity="long_haul", contract="none")
    d = evaluate(case, D(1998, 6, 10))
    (u,) = d.unconfirmed
    assert (u.name, u.value.pt) == ("cnig-rn-31-1998:in_force_from", "01/01/1998")
    assert u.source.pt == ("RN CNIg nº 31/1998: a data exata de publicação não foi confirmada; "
                           "a vigência é considerada a partir de 01/01/1998")
    assert (u.value.en, u.source.en) == (
        "1998-01-01", "RN CNIg nº 31/1998: the exact publication date is not confirmed; it is "
        "taken to be in force from 1998-01-01")


def test_counts_agree_in_number(make_case: CaseFactory) -> None:
    one = evaluate(make_case([person("P01", "2026-05-01", sid_c185=True)]), D(2026, 6, 1))
    facts = one.trace[0].text.pt
    assert facts == ("Embarcação Test Vessel (NO), apoio marítimo, afretamento; 1 pessoa a "
                     "bordo, 1 estrangeiro; data julgada 01/06/2026.")
    assert one.summary.pt.endswith("— estrangeiros: 1 regular.")
    two = evaluate(make_case([person("P01", "2026-05-01", sid_c185=True),
                              person("P02", "2026-05-01", sid_c185=True),
                              person("P03", "2026-01-02"), person("P04", "2026-01-02")]),
                   D(2026, 6, 1))
    assert "4 pessoas a bordo, 4 estrangeiros" in two.trace[0].text.pt
    assert two.summary.pt.endswith("— estrangeiros: 2 irregulares (P03, P04); 2 regulares.")
    day1 = evaluate(make_case([person("P01", "2026-06-01", sid_c185=True)]), D(2026, 6, 1))
    assert "1 dia de estada em 01/06/2026" in day1.trace[2].text.pt
    assert row(day1, "P01")["deadline_detail"]["text"].pt.startswith(
        "1 dia de estada no ano migratório iniciado em 01/06/2026 (o dia da entrada conta)")


def test_no_internal_codes_in_the_portuguese_trace(make_case: CaseFactory) -> None:
    case = make_case([person("P01", "2026-01-02")], activity="cabotage", contract="services")
    d = evaluate(case, D(2026, 6, 1))
    text = " ".join(s.text.pt for s in d.trace)
    assert "cabotagem, prestação de serviços" in text
    for code in ("cabotage", "services", "action_due", "offshore_support", "charter"):
        assert not re.search(rf"\b{code}\b", text), code


def test_basis_column_names_the_norm(make_case: CaseFactory) -> None:
    case = make_case([person("P01", "2026-01-02")], presence=[{"entry": "2026-01-02"}])
    d = evaluate(case, D(2026, 6, 1))
    assert basis_text(d, row(d, "P01")) == "RN 06/2017 (Res. 42/2020), art. 11, § 1º"
    html = section(html_report(check_vessel(case, D(2026, 6, 1)), "pt"), "immigration")
    assert '<td class="muted">RN 06/2017 (Res. 42/2020), art. 11, § 1º</td>' in html


def test_basis_column_keeps_another_norms_full_label(make_case: CaseFactory) -> None:
    case = make_case([person("P01", "2021-03-01")], activity="long_haul", contract="none")
    d = evaluate(case, D(2021, 6, 1))
    assert basis_text(d, row(d, "P01")) == "IN SIT nº 70/2007, art. 13, IV"


def test_rn31_basis_uses_its_short_name(make_case: CaseFactory) -> None:
    case = make_case([person("H01", "2001-09-03")], activity="cabotage",
                     presence=[{"entry": "2001-09-03"}])
    d = evaluate(case, D(2001, 9, 10))
    assert basis_text(d, row(d, "H01")) == "RN 31/1998, art. 1º"  # cabotage charter: art. 1
    assert row(d, "H01")["verdict"] == "action_due"


def test_rn31_trace_says_the_verdict_in_words(make_case: CaseFactory) -> None:
    visa = {"type": "temporary_visa", "issued_on": "2001-11-01", "valid_until": "2002-10-31"}
    case = make_case([person("H01", "2001-11-01", documents=[visa])], activity="cabotage",
                     presence=[{"entry": "2001-11-01"}])
    d = evaluate(case, D(2002, 9, 15))
    assert (row(d, "H01")["verdict"], row(d, "H01")["deadline"]) == ("action_due",
                                                                     D(2002, 10, 1))
    step = next(s for s in d.trace if s.rule == "person.H01.documents")
    assert step.text.pt == ("H01: visto temporário válido até 31/10/2002; prorrogação a pedir "
                            "até 01/10/2002 → providência pendente.")
    assert step.text.en.endswith("→ action due.")


# --- 4. the consequence after IN SIT 70/2007 ------------------------------------------------

def test_consequence_after_in_sit_70_reads_like_the_quota(make_case: CaseFactory) -> None:
    case = make_case([person("P01", "2026-01-02")], presence=[{"entry": "2026-01-02"}],
                     brazilian_company={"name": "Contratante Exemplo Ltda."})
    d = evaluate(case, D(2026, 6, 1))
    (c,) = d.result["consequences"]
    assert (c["id"], c["status"], c["ementa"]) == ("procedure_not_modelled", "not_modelled",
                                                   "001139-8")
    assert c["text"].pt == PROCEDURE.format(who="Contratante Exemplo Ltda.")
    assert [x.label for x in c["citations"]] == ["CLT, art. 444"]
    assert row(d, "P01")["consequence"].pt == (
        "Estada irregular: sanções migratórias (Lei nº 13.445/2017) a cargo da Polícia Federal, "
        "não modeladas. " + PROCEDURE.format(who="a empresa brasileira contratante"))
    out = flat(text_report(check_vessel(case, D(2026, 6, 1)), "pt"))
    assert PROCEDURE.format(who="Contratante Exemplo Ltda.") in out


def test_consequence_on_the_last_day_of_in_sit_70_is_the_auto(make_case: CaseFactory) -> None:
    case = make_case([person("P01", "2021-06-01")])
    d = evaluate(case, D(2021, 12, 9))
    (c,) = d.result["consequences"]
    assert (c["id"], c["status"]) == ("auto_de_infracao_clt_444", "in_force")
    assert c["text"].pt.startswith("Lavrar auto de infração contra a empresa brasileira "
                                   "contratante")
    after = evaluate(case, D(2021, 12, 10)).result["consequences"][0]
    assert after["text"].pt == PROCEDURE.format(who="a empresa brasileira contratante")


# --- 5. the checklist's legal basis ---------------------------------------------------------

def test_checklist_html_lists_the_items_citations(make_case: CaseFactory) -> None:
    case = make_case([person("P01", "2026-05-01", sid_c185=True)],
                     presence=[{"entry": "2026-05-01"}])
    d = checklist(case, D(2026, 6, 1))
    assert d.verdict.value == "not_covered"
    labels = [c.label for c in d.citations]
    assert labels == sorted(set(labels), key=labels.index)  # each provision once
    assert {"IN SIT nº 70/2007, art. 7º", "IN SIT nº 70/2007, art. 13, II",
            "IN SIT nº 70/2007, art. 13, V"} <= set(labels)
    # The report ends with every norm the sections cited (the checklist's included).
    html = html_report(check_vessel(case, D(2026, 6, 1)), "pt")
    end = html[html.index("Fundamentação deste relatório"):]
    basis = end[end.index("<h2>Fundamentação legal</h2>"):end.index("<h2>Interpretações")]
    assert "<li>IN SIT nº 70/2007, art. 7º <span" in basis
    assert "nenhum" not in basis
    assert "<li>nenhuma</li>" not in end  # the quota and immigration interpretations
    assert d.summary.pt.endswith("15 itens listados como boa prática (da IN SIT nº 70/2007).")


def test_checklist_in_force_cites_every_item(make_case: CaseFactory) -> None:
    d = checklist(make_case([person("P01", "2015-05-01")]), D(2015, 6, 1))
    assert d.summary.pt == "15 documentos e informações a solicitar (IN SIT nº 70/2007)."
    assert len(d.citations) == 1 + 9  # the instruction + nine distinct provisions


def test_checklist_brazilian_flag_after_in_sit_70_keeps_its_basis(make_case: CaseFactory
                                                                   ) -> None:
    d = checklist(brazilian_flag([person("P01", "2026-01-01")]), D(2026, 6, 1))
    assert d.verdict.value == "not_covered"
    assert [c.label for c in d.citations] == ["IN SIT nº 70/2007, art. 2º"]
    assert "0 itens" not in d.summary.pt

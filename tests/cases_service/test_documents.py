"""Each document renders in Portuguese to HTML and to PDF, with its citations."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from abordo.cases import checklist, commands, workflow
from abordo.cases.models import Case
from abordo.faces.reports import case_documents as documents
from abordo.law.errors import InputError

FIND = [{"id": "F1", "source": "engine:quota", "severity": "violation", "subject": "deck.rating",
         "text": "Subalternos de convés: faltam 1 brasileiro(s) (1 de 2 exigidos).",
         "citation": {"label": "RN CNIg nº 06/2017, na redação da Res. CNIg nº 42/2020, "
                               "art. 4º, I, a", "urn": "urn:x"}}]


def inspector_finding(fid: str, text: str, area: str | None = None,
                      subject: str | None = None) -> dict[str, Any]:
    """A violation the inspectors recorded (add_finding / a physical check)."""
    found: dict[str, Any] = {"id": fid, "source": "inspector", "severity": "violation",
                             "subject": subject, "citation": None, "text": text}
    return found | ({"area": area} if area else {})


def full_case() -> Case:
    data: dict[str, Any] = {
        "complaint": {"source": "union", "date": "2026-03-28", "content": "cota descumprida"},
        "vessel_docked": True, "on": "2026-04-01",
        "vessel_case": {"vessel": {"name": "Atlantic Provider", "imo": "9372664", "flag": "NO",
                                   "activity": "offshore_support"},
                        "operation": {"contract": "charter", "brazilian_company": {
                            "name": "Exemplo Apoio Marítimo Ltda", "cnpj": "11.222.333/0001-81"}}},
        "checklist": checklist.checklist_for(None), "findings": FIND,
        "physical_checks": [{"area": "galley", "ok": True, "notes": None}],
        "notifications": [{"id": "N1", "issued_on": "2026-04-01", "deadline": "2026-04-03",
                           "outcome": "not_remedied", "basis": checklist.cite("art. 9º")}],
        "not_remedied": {"risk": "serious_imminent", "repatriation": True, "strike": False,
                         "recorded_on": "2026-04-04"},
        "escalations": [
            {"kind": "detention_request", "on": "2026-04-04", "notes": None,
             "consul": "Consulado da Noruega", "basis": checklist.cite("art. 10, I")},
            {"kind": "federal_police", "on": "2026-04-04", "notes": None,
             "basis": checklist.cite("art. 10, III")}],
        "autos": [{"id": "A1", "kind": "quota", "against": {"name": "Exemplo Apoio Marítimo Ltda",
                                                            "cnpj": "11.222.333/0001-81"},
                   "ementa": "001139-8", "capitulation": checklist.cite("art. 444", "clt"),
                   "basis": checklist.cite("art. 14"), "findings": ["F1"], "facts": None,
                   "drafted_on": "2026-04-04", "drafted_by": "ana@x.gov.br"}],
        "report": {"written_on": "2026-04-05", "summary": "Retenção solicitada.",
                   "forward_international": True, "written_by": "ana@x.gov.br",
                   "recipients": ["Coordenação Nacional", "chefia regional"],
                   "basis": [checklist.cite("art. 11"), checklist.cite("art. 15")]},
    }
    for item in data["checklist"]:
        item["status"] = "received"
    return Case(id=7, state="report", region="RJ", owner_id=1, vessel_name="Atlantic Provider",
                procedure_version="in-sit-70-2007", version=12, data=data)


EXPECT = {
    "notificacao": ["NOTIFICADOS", "03/04/2026", "art. 9º", "Subalternos de convés"],
    "oficio-consul": ["retenção", "Consulado da Noruega", "art. 10, I", "NORMAM 08"],
    "oficio-policia-federal": ["Polícia Federal", "Convenção nº 166", "não confirmado",
                               "Decreto nº 6.968/2009"],
    "auto-infracao": ["001139-8", "CLT, art. 444", "Exemplo Apoio Marítimo Ltda",
                      "IN SIT nº 70/2007, art. 14"],
    "relatorio": ["Relatório circunstanciado", "Assessoria Internacional", "28/03/2026",
                  "A1", "RN CNIg nº 06/2017", "IN SIT nº 70/2007, art. 11"],
}


@pytest.mark.parametrize("kind", list(EXPECT))
def test_document_html_and_pdf(kind: str, tmp_path: Path) -> None:
    case = full_case()
    assert kind in documents.available(case.data)
    html = documents.render(kind, case, team=["ana@x.gov.br"])
    assert 'lang="pt-BR"' in html and "Fundamentação legal" in html
    assert "procedimento vigente na data dos fatos: IN SIT nº 70/2007" in html  # not its id
    for text in EXPECT[kind]:
        assert text in html, text
    from weasyprint import HTML

    rendered = HTML(string=html).render()
    assert len(rendered.pages) >= 1
    pdf = documents.to_pdf(html)
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")
    if shutil.which("pdftotext"):
        out = tmp_path / "doc.pdf"
        out.write_bytes(pdf)
        txt = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                             check=True).stdout
        assert EXPECT[kind][0].split()[0] in txt


def test_unavailable_document_is_refused() -> None:
    case = full_case()
    case.data = {**case.data, "autos": []}
    with pytest.raises(commands.TransitionRefused):
        documents.render("auto-infracao", case)


def test_consul_letter_lists_safety_findings_only() -> None:
    """Art. 10, I is about safety, health and hygiene: a quota shortfall is not among the
    conditions of grave and imminent risk the consul is told about."""
    case = full_case()
    html = documents.render("oficio-consul", case)
    assert "Subalternos de convés" not in html
    assert "(condições descritas no relatório da ação fiscal)" in html
    case.data["findings"] = [*FIND, inspector_finding("F2", "Câmara frigorífica sem refrigeração.")]
    html = documents.render("oficio-consul", case)
    assert "Câmara frigorífica sem refrigeração." in html
    assert "Subalternos de convés" not in html


def test_documents_name_the_flag_and_activity_in_portuguese() -> None:
    case = full_case()
    case.data["engine_run"] = {"on": "2026-04-01", "summary": {
        "crew_quota": {"summary": "Não conforme."}, "immigration": {"summary": "Regular."}}}
    for kind in ("notificacao", "relatorio"):
        html = documents.render(kind, case)
        assert "Noruega (NO)" in html and "apoio marítimo" in html
        assert "offshore_support" not in html
    html = documents.render("relatorio", case)
    assert "Cota de brasileiros: Não conforme." in html and "crew_quota:" not in html


def test_notification_lists_what_was_notified() -> None:
    """A finding recorded after the notification (a physical check) is not in it."""
    case = full_case()
    case.data["notifications"][0]["items"] = ["F1"]
    case.data["findings"] = [*FIND, inspector_finding(
        "F2", "Verificação física (cozinha): irregular", subject="galley")]
    html = documents.render("notificacao", case)
    assert "Subalternos de convés" in html and "Verificação física (cozinha)" not in html
    assert "Verificação física (cozinha)" in documents.render("relatorio", case)


def test_an_unfounded_complaint_has_its_report() -> None:
    """Art. 11: "ao fim de qualquer ação fiscal" a relatório circunstanciado."""
    from pydantic import TypeAdapter

    data: dict[str, Any] = {
        "complaint": {"source": "union", "date": "2026-03-30", "content": "salários"},
        "vessel_docked": True, "findings": [], "notifications": [], "escalations": [],
        "autos": [], "checklist": [], "assessment": {"started_on": "2026-03-31"}}
    cmd = TypeAdapter(commands.Command).validate_python(
        {"command": "close_unfounded", "consulted": "master",
         "reason": "salários pagos em dia"})
    out = workflow.apply("assessing", data, cmd, today=__import__("datetime").date(2026, 4, 1),
                   actor="ana@x.gov.br", extra={"team_now": ["ana@x.gov.br"]})
    assert out.data["report"]["team"] == ["ana@x.gov.br"]  # who signs it
    case = Case(id=8, state=out.state.value, region="RJ", owner_id=1, vessel_name="Navio",
                procedure_version="in-sit-70-2007", version=2, data=out.data)
    assert documents.available(out.data) == ["relatorio"]
    html = documents.render("relatorio", case)
    assert "em consulta ao comandante: denúncia improcedente — salários pagos em dia" in html
    assert "IN SIT nº 70/2007, art. 11" in html and out.data["closed_on"] == "2026-04-01"


def test_consul_letter_leaves_out_wage_findings_and_police_letter_names_the_crew() -> None:
    """Art. 10, I is about safety, health and hygiene (wages are art. 10, II); art. 10, III
    tells the Federal Police who is to be repatriated and under which case of C166 art. 2."""
    case = full_case()
    case.data["findings"] = [*FIND,
                             inspector_finding("F2", "Salários atrasados há dois meses.", "wage"),
                             inspector_finding("F3", "Extintores vencidos.", "safety")]
    consul = documents.render("oficio-consul", case)
    assert "Extintores vencidos." in consul and "Salários atrasados" not in consul
    case.data["vessel_case"]["crew"] = [{"id": "C04", "rank": "Bosun", "nationality": ["PH"]}]
    case.data["escalations"][1] |= {"crew": ["C04"], "situation": "contract_expired"}
    police = documents.render("oficio-policia-federal", case)
    assert "contrato de engajamento por prazo ou viagem vencido no exterior" in police
    assert "C04" in police and "Filipinas (PH)" in police
    assert "Subalternos de convés" not in police  # a quota shortfall is no repatriation ground


def test_refer_federal_police_names_crew_of_the_case() -> None:
    d = base_notified()
    d["vessel_case"] = {"crew": [{"id": "C04"}]}
    with pytest.raises(commands.TransitionRefused, match="fora da lista do caso: C99"):
        apply(d, {"command": "refer_federal_police", "crew": ["C99"],
                  "situation": "contract_expired"})
    # both are required by the command's own schema (GET /schemas/command says so)
    with pytest.raises(ValidationError, match="situation"):
        apply(d, {"command": "refer_federal_police", "crew": ["C04"]})
    out = apply(d, {"command": "refer_federal_police", "crew": ["C04", "C04"],
                    "situation": "shipowner_unable"})
    esc = out.data["escalations"][-1]
    assert (esc["crew"], esc["situation"]) == (["C04"], "shipowner_unable")


def base_notified() -> dict[str, Any]:
    d = full_case().data
    d["escalations"] = []
    return d


def apply(d: dict[str, Any], body: dict[str, Any]) -> Any:
    import datetime as dt

    from pydantic import TypeAdapter

    return workflow.apply("notified", d, TypeAdapter(commands.Command).validate_python(body),
                    today=dt.date(2026, 4, 10), actor="ana@x.gov.br")


def test_each_document_cites_what_it_rests_on() -> None:
    case = full_case()
    case.data["notifications"][0]["items"] = ["F1"]
    legal = {k: documents.render(k, case).split("Fundamentação legal")[1] for k in EXPECT}
    assert "IN SIT nº 70/2007, art. 9º" in legal["notificacao"]
    assert "RN CNIg nº 06/2017, na redação da Res. CNIg nº 42/2020, art. 4º, I, a" \
        in legal["notificacao"]
    for kind in ("notificacao", "oficio-consul"):
        assert "CLT, art. 444" not in legal[kind] and "art. 10, III" not in legal[kind]
    assert "CLT, art. 444" in legal["auto-infracao"] and "art. 9º" not in legal["auto-infracao"]
    assert "Decreto nº 6.968/2009" in legal["oficio-policia-federal"]
    assert all(lbl in legal["relatorio"] for lbl in ("CLT, art. 444", "art. 10, III", "art. 11"))


def test_each_notification_has_its_document() -> None:
    case = full_case()
    case.data["notifications"] = [
        {"id": "N1", "issued_on": "2026-04-01", "deadline": "2026-04-03", "items": ["F1"],
         "outcome": "not_remedied", "basis": checklist.cite("art. 9º")},
        {"id": "N2", "issued_on": "2026-04-05", "deadline": "2026-04-08", "items": [],
         "outcome": "remedied", "basis": checklist.cite("art. 9º")}]
    first = documents.render("notificacao", case, notification="N1")
    assert "Notificação N1" in first and "Subalternos de convés" in first
    assert "Notificação N2" in documents.render("notificacao", case)
    with pytest.raises(InputError, match="há: N1, N2"):
        documents.render("notificacao", case, notification="N9")
    consul = documents.render("oficio-consul", case)
    assert "a notificação N1, com prazo até 03/04/2026, não foi atendida" in consul


def test_a_letter_says_what_was_so_on_its_day() -> None:
    """The consul's letter answers the notifications unmet when it was sent: a finding or a
    notification recorded after it does not slip into it."""
    case = full_case()
    case.data["findings"] = [*FIND, inspector_finding("F2", "Extintores vencidos.", "safety"),
                             inspector_finding("F3", "Câmara fria desligada.", "safety")]
    case.data["notifications"] = [
        {"id": "N1", "issued_on": "2026-04-01", "deadline": "2026-04-03",
         "items": ["F1", "F2"], "outcome": "not_remedied", "risk": "serious_imminent",
         "outcome_on": "2026-04-04", "basis": checklist.cite("art. 9º")},
        {"id": "N2", "issued_on": "2026-04-06", "deadline": "2026-04-08", "items": ["F3"],
         "outcome": "not_remedied", "risk": "lesser_safety", "outcome_on": "2026-04-09",
         "basis": checklist.cite("art. 9º")}]
    case.data["escalations"][0]["answers"] = ["N1"]
    consul = documents.render("oficio-consul", case)
    assert "a notificação N1, com prazo até 03/04/2026, não foi atendida" in consul
    assert "Extintores vencidos." in consul
    assert "N2" not in consul and "Câmara fria desligada." not in consul


def test_the_basis_list_holds_what_the_text_cites() -> None:
    """The notification and the consul's letter cite Portaria MTE 210/1999 in their text
    (IN SIT 70, arts. 9 and 10, I): it is in their "Fundamentação legal" too; so is the
    citation an inspector gave a finding by hand."""
    case = full_case()
    case.data["findings"].append({"id": "F9", "source": "inspector", "severity": "violation",
                                  "text": "Água potável insuficiente", "area": "health",
                                  "citation": {"label": "NR-30, item 30.2.1", "urn": None}})
    case.data["notifications"][-1]["items"] = ["F9"]
    basis = documents.render("notificacao", case).split("Fundamentação legal")[1]
    assert "Portaria MTE nº 210/1999, art. 4º, IV" in basis
    assert "NR-30, item 30.2.1" in basis
    letter = documents.render("oficio-consul", case).split("Fundamentação legal")[1]
    assert "Portaria MTE nº 210/1999, art. 4º, VI" in letter


def test_letters_say_a_notification_was_refused_before_its_deadline() -> None:
    """An express refusal (IN SIT 70 art. 10: recorded before the deadline) is said as such:
    the letters do not claim the deadline ran out unmet."""
    case = full_case()
    case.data["notifications"][0] |= {"deadline": "2026-04-30", "refused": True,
                                      "outcome_on": "2026-04-04"}
    consul = " ".join(documents.render("oficio-consul", case).split())
    assert ("a notificação N1, com prazo até 30/04/2026 — cujo atendimento o notificado "
            "recusou expressamente em 04/04/2026, antes do fim do prazo —, não foi atendida"
            ) in consul
    police = " ".join(documents.render("oficio-policia-federal", case).split())
    assert "a notificação N1 (cujo atendimento o notificado recusou expressamente em " \
        "04/04/2026) tenha sido atendida" in police
    case.data["notifications"][0]["refused"] = False
    assert "recusou" not in documents.render("oficio-consul", case)


@pytest.mark.parametrize(("day", "ministry"), [
    ("2012-05-02", "MINISTÉRIO DO TRABALHO E EMPREGO"),
    ("2018-03-01", "MINISTÉRIO DO TRABALHO —"),
    ("2021-04-29", "MINISTÉRIO DA ECONOMIA"),
    ("2022-03-01", "MINISTÉRIO DO TRABALHO E PREVIDÊNCIA"),
    ("2026-04-05", "MINISTÉRIO DO TRABALHO E EMPREGO"),
])
def test_a_document_speaks_with_the_names_of_its_act_s_day(day: str, ministry: str) -> None:
    """Tempus regit actum: the body an act is issued in the name of is that of its day."""
    case = full_case()
    case.data["report"]["written_on"] = day
    html = documents.render("relatorio", case)
    assert ministry in html
    assert documents.issuing_body(dt.date.fromisoformat(day))["confirmed"] is False


def test_one_auto_at_a_time_with_its_defence_deadline_and_signature() -> None:
    case = full_case()
    second = {**case.data["autos"][0], "id": "A2", "kind": "ementario", "ementa": "130123-4",
              "capitulation": {"label": "NR-30, item 30.4.2", "urn": None},
              "drafted_by": "bruno@x.gov.br"}
    case.data["autos"].append(second)
    both = documents.render("auto-infracao", case)
    assert "Auto de infração A1" in both and "Auto de infração A2" in both
    one = " ".join(documents.render("auto-infracao", case, auto="A2").split())
    assert "Auto de infração A2" in one and "Auto de infração A1" not in one
    assert "10 (dez) dias, contados do recebimento deste auto, para apresentar defesa" in one
    assert "CLT, art. 629, § 3º" in one  # also in its legal basis
    assert '<p class="signature">______________________________<br>bruno@x.gov.br' in one
    # its history dates what was found: the day of the facts
    assert "bandeira Noruega (NO), constatou-se em 01/04/2026:" in one
    with pytest.raises(InputError, match="auto 'A9' não existe neste caso"):
        documents.render("auto-infracao", case, auto="A9")


def test_a_national_notification_names_the_shipowner_when_the_case_does() -> None:
    case = full_case()
    case.data["vessel_case"]["vessel"] |= {"flag": "BR", "registry": "ordinary"}
    case.data["vessel_case"]["operation"]["brazilian_company"] = {
        "name": "Navegação Angra S.A.", "cnpj": "11.222.333/0001-81"}
    case.data["notifications"][0]["basis"] = checklist.cite("art. 2º")
    html = " ".join(documents.render("notificacao", case).split())
    assert ("Ao armador (empregador), Navegação Angra S.A. — CNPJ 11.222.333/0001-81, e ao "
            "Comandante") in html


def test_a_refusal_after_the_deadline_is_not_said_to_come_before_it() -> None:
    case = full_case()
    case.data["notifications"][0] |= {"deadline": "2026-04-03", "refused": True,
                                      "outcome_on": "2026-04-04"}
    consul = " ".join(documents.render("oficio-consul", case).split())
    assert "recusou expressamente em 04/04/2026 —" in consul
    assert "antes do fim do prazo" not in consul


def test_the_issuing_body_s_name_is_listed_among_the_unconfirmed() -> None:
    html = " ".join(documents.render("relatorio", full_case()).split())
    assert "Parâmetros não confirmados" in html
    assert "órgão emissor na data do ato = MINISTÉRIO DO TRABALHO E EMPREGO" in html
    assert documents.d_long("2026-04-01") == "1º de abril de 2026"
    assert documents.d_long("2021-04-29") == "29 de abril de 2021"


def test_the_report_says_what_art_10_asks_for_each_unmet_notification() -> None:
    case = full_case()
    case.data["notifications"] = [
        {"id": "N1", "issued_on": "2026-04-01", "deadline": "2026-04-03", "items": ["F1"],
         "outcome": "not_remedied", "risk": "contractual_wage", "outcome_on": "2026-04-04",
         "basis": checklist.cite("art. 9º")}]
    text = " ".join(documents.render("relatorio", case).split())
    assert ("não atendida, registrada em 04/04/2026 — irregularidade de origem contratual ou "
            "salarial (art. 10, II): esgotadas as formas de solução e coletadas as provas "
            "documentais, é objeto deste relatório.") in text
    # the report proposes forwarding it (forward_international): said once, as proposed
    assert "propõe-se o encaminhamento deste relatório à Assessoria Internacional" in text
    assert "pode propor o encaminhamento" not in text
    case.data["report"]["forward_international"] = False  # not proposed: art. 11 reminded
    text = " ".join(documents.render("relatorio", case).split())
    assert "o Auditor-Fiscal pode propor o encaminhamento deste relatório à Assessoria " \
           "Internacional do MTE (art. 11)" in text
    assert "propõe-se o encaminhamento" not in text


def test_a_finding_about_a_listed_person_names_their_rank_and_nationality() -> None:
    """A FAL Form 5 numbers its crew: "1: 324 dias…" alone says nothing of who."""
    case = full_case()
    case.data["vessel_case"]["crew"] = [{"id": "1", "rank": "Chief Officer",
                                         "nationality": ["PH"]}]
    case.data["findings"] = [*FIND, {
        "id": "F5", "source": "engine:immigration", "severity": "violation", "subject": "1",
        "text": "1: 324 dias de estada, acima de 90, sem autorização de residência requerida.",
        "citation": {"label": "RN CNIg nº 06/2017, art. 1º", "urn": None}}]
    text = " ".join(documents.render("relatorio", case).split())
    assert ("Tripulante 1 (Chief Officer, PH): 324 dias de estada, acima de 90, sem "
            "autorização de residência requerida.") in text


def test_acts_are_dated_at_the_port_and_signed_and_the_notification_has_a_receipt() -> None:
    """Each act ends with its place and date and a signature line per inspector of its team;
    the notified party acknowledges receipt (ciente). The place is the port's municipality
    when the case records it, else the region's state."""
    case = full_case()
    html = documents.render("notificacao", case, team=["ana@x.gov.br"],
                            people={"ana@x.gov.br": "Ana Souza"})
    assert "<p>RJ, 1º de abril de 2026.</p>" in html
    assert "<br>Ana Souza<br>Auditor(a)-Fiscal do Trabalho" in html
    assert "<strong>Ciente</strong> — recebemos a 1ª via desta notificação" in html
    assert "<br>Comandante — nome legível" in html and "<br>Agente Marítimo — nome legível" in html
    case.data["pre_boarding"] = {"port": "Macaé/RJ", "quay": "Imbetiba", "berth": "2"}
    for kind, dated in (("notificacao", "1º de abril de 2026"),
                        ("oficio-consul", "4 de abril de 2026"),
                        ("oficio-policia-federal", "4 de abril de 2026"),
                        ("auto-infracao", "4 de abril de 2026"),
                        ("relatorio", "5 de abril de 2026")):
        html = documents.render(kind, case, team=["ana@x.gov.br"])
        assert f"<p>Macaé/RJ, {dated}.</p>" in html, kind
        if kind != "auto-infracao":  # (each auto is signed where it ends)
            # signed below everything the act rests on
            assert html.index("Fundamentação legal") < html.index(f"Macaé/RJ, {dated}"), kind
    auto = documents.render("auto-infracao", case)
    assert "Local da inspeção: Imbetiba, berço 2 — Macaé/RJ." in auto
    assert "<th>Porto</th><td>Macaé/RJ</td>" in auto
    # the company receives its copy against a receipt (CLT art. 629)
    assert "<strong>Recibo</strong> (CLT, art. 629: uma via entregue ao infrator, contra " \
           "recibo) — recebi a 1ª via deste auto" in auto


def test_a_port_is_a_pre_boarding_fact_but_not_one_art_5_requires() -> None:
    facts = commands.PreBoarding.model_validate({"port": "Santos/SP"})
    assert facts.port == "Santos/SP"
    assert "port" not in commands.PRE_BOARDING_REQUIRED


def test_the_federal_police_letter_gives_the_repatriation_deadline_only() -> None:
    """The Federal Police is told the repatriation's own deadline — for a foreign vessel,
    Decreto 6.968/2009 art. 5 § 1º, III: 15 days after the complaint (28/03) — not the
    inspection's internal deadlines; C166 promulgated by Decreto 2.670/1998, executed by
    Decreto 6.968/2009."""
    html = documents.render("oficio-policia-federal", full_case())
    assert ("Alojamento e alimentação em terra pelo armador ou seu representante se a "
            "repatriação não for providenciada em 15 dias da denúncia e não houver condições "
            "de segurança e saúde a bordo: 12/04/2026 (não confirmado) — Decreto nº "
            "6.968/2009 (execução da Convenção OIT 166), art. 5º, § 1º, III") in html
    assert "Convenção nº 166 da OIT (promulgada pelo Decreto nº 2.670/1998; sua execução, " \
           "pelo Decreto nº 6.968/2009)" in html
    assert "48 horas" not in html and "Fiscalização imediata" not in html


def test_an_auto_states_the_step_violated_and_the_report_also_the_next() -> None:
    case = full_case()
    case.data["engine_run"] = {"on": "2026-04-01", "summary": {"crew_quota": {
        "summary": "Não conforme.", "figures": {
            "days_of_operation": 151, "stay_start": "2025-11-01",
            "step": {"fraction": "1/5", "from_day": 90, "since": "2026-01-30",
                     "citation": "RN CNIg nº 06/2017, art. 4º, I, a"},
            "groups": [{"label": "Subalternos de convés", "base": 6, "required": 2,
                        "brazilians": 1, "deficit": 1}],
            "next_step": {"fraction": "1/3", "since": "2026-06-29", "required": 3,
                          "citation": "RN CNIg nº 06/2017, art. 4º, I, b"}}}}}
    auto = " ".join(documents.render("auto-infracao", case).split())
    report = " ".join(documents.render("relatorio", case).split())
    for doc in (auto, report):
        assert "151 dias de operação desde 01/11/2025 (excluído o dia do início, Código Civil, " \
               "art. 132); etapa em vigor 1/5" in doc
    assert "Próxima etapa: 1/3 a partir de 29/06/2026" in report
    assert "Próxima etapa" not in auto


def test_a_cruise_step_is_stated_in_rn71_s_words_in_the_documents() -> None:
    """RN 71/2006: "mais de 30 dias" in AJB, from the 31st day of the stay (crew-quota.md
    §F) — the figures carry the engine's words; a run stored without them keeps "a partir
    de N dias"."""
    from abordo.cases.service import quota_figures
    from abordo.crew.load import parse_vessel_case
    from abordo.quota import evaluate

    src = Path(__file__).resolve().parents[1] / "cases/review30/" \
        "r30-q20-rn71-cruise-leap-february-day30.yaml"
    d = evaluate(parse_vessel_case(yaml.safe_load(src.read_text(encoding="utf-8"))["input"]),
                 dt.date(2016, 3, 2))
    figures = quota_figures(d.result)
    assert figures["step"]["threshold"] == "mais de 30 dias em AJB, a partir do 31º dia da " \
        "estada"
    case = full_case()
    case.data["engine_run"] = {"on": "2016-03-02", "summary": {"crew_quota": {
        "summary": "Não conforme.", "figures": figures}}}
    report = " ".join(documents.render("relatorio", case).split())
    assert "30 dias de operação desde 01/02/2016 (excluído o dia do início, Código Civil, " \
        "art. 132); etapa em vigor 1/4 (mais de 30 dias em AJB, a partir do 31º dia da " \
        "estada), desde 02/03/2016 [RN CNIg nº 71/2006, art. 7º]" in report


def test_a_reb_vessel_s_documents_state_its_rule_of_positions_alone() -> None:
    """Lei 9.432/1997 art. 11 § 6º: a REB vessel's rule is its master and chief engineer
    Brazilian, with no proportion — the documents state that rule, as `abordo check` does,
    beside the two positions found."""
    from abordo.cases.service import quota_figures
    from abordo.crew.load import parse_vessel_case
    from abordo.quota import evaluate

    d = evaluate(parse_vessel_case({
        "vessel": {"name": "Costa REB", "flag": "BR", "registry": "REB",
                   "activity": "cabotage"},
        "operation": {"contract": "none",
                      "ajb_presence": [{"entry": "2018-01-01", "exit": None}]},
        "crew": [{"id": "B01", "rank": "Master", "nationality": "BR"},
                 {"id": "B02", "rank": "Chief Engineer", "nationality": "PH"}]}),
        dt.date(2026, 4, 1))
    figures = quota_figures(d.result)
    case = full_case()
    case.data["engine_run"] = {"on": "2026-04-01", "summary": {"crew_quota": {
        "summary": "Não conforme.", "figures": figures}}}
    for kind in ("relatorio", "auto-infracao"):
        doc = " ".join(documents.render(kind, case).split())
        assert "Regra aplicável: apenas o comandante e o chefe de máquinas devem ser " \
            "brasileiros; não há proporção mínima de brasileiros na tripulação [Lei nº " \
            "9.432/1997, art. 11, § 6º]." in doc, kind
        assert "Chefe de máquinas: B02 (PH) — não brasileiro" in doc


def test_a_cnpj_typed_as_digits_is_written_as_a_cnpj_is() -> None:
    party = commands.Party.model_validate({"name": "Exemplo Ltda", "cnpj": "11222333000181"})
    assert party.cnpj == "11.222.333/0001-81"
    with pytest.raises(ValueError, match="CNPJ inválido"):
        commands.Party.model_validate({"name": "Exemplo Ltda", "cnpj": "11222333000182"})


def test_every_act_names_the_contract_the_berthing_and_the_psc_note() -> None:
    """Art. 12: the foreign vessel's contract and Brazilian company are in every act's vessel
    table, with the expected berthing and unberthing (the Federal Police needs the day the
    ship sails); the last port state control's note is printed when it has no date."""
    case = full_case()
    case.data["pre_boarding"] = {"expected_unberthing": "2026-04-08",
                                 "last_psc_inspection": {"notes": "nenhuma registrada no Brasil"}}
    for kind in ("oficio-policia-federal", "relatorio", "notificacao"):
        html = documents.render(kind, case)
        assert ("<tr><th>Atracação prevista</th><td>—</td><th>Desatracação prevista</th>"
                "<td>08/04/2026</td></tr>") in html, kind
        assert ("<tr><th>Contrato</th><td>afretamento</td><th>Empresa brasileira</th><td>"
                "Exemplo Apoio Marítimo Ltda — CNPJ 11.222.333/0001-81</td></tr>") in html, kind
    report = documents.render("relatorio", case)
    assert ("última vistoria do Controle do Estado do Porto: nenhuma registrada no Brasil "
            "(atracação") in report
    # the table's own count, beside the engine's (which counts a per-person item once)
    assert "Na tabela abaixo, 7 itens: os documentos a apresentar" in report

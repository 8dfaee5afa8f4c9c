"""The one-vessel report (``abordo check``): quota, then immigration and the document
checklist when those engines are present — text, HTML and PDF from the same decisions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from abordo.crew.model import VesselCase
from abordo.faces.reports.blocks import basis_text_blocks, merged_basis, render_html, render_rich
from abordo.faces.reports.format import fmt_date
from abordo.faces.reports.quota import quota_text_blocks
from abordo.law.decision import Decision
from abordo.law.labels import country, label
from abordo.vessel_check import VesselCheck


def vessel_line(case: VesselCase, on: dt.date, lang: str) -> str:
    """``Atlantic Provider IMO 9372664 — bandeira Noruega (NO), apoio marítimo, …``."""
    v = case.vessel
    imo = f" IMO {v.imo}" if v.imo else ""
    reg = f" ({label(v.registry, lang)})" if v.registry else ""
    contract = case.operation.contract.value
    return (f"{v.name or '—'}{imo} — {'flag' if lang == 'en' else 'bandeira'} "
            f"{country(v.flag, lang)}{reg}, {label(v.activity.value, lang)}, "
            f"{label(contract, lang)}; "
            f"{'date judged' if lang == 'en' else 'data julgada'}: {fmt_date(on, lang)}")


def header_lines(check: VesselCheck, lang: str) -> list[str]:
    title = "Abordo — vessel check" if lang == "en" else "Abordo — verificação da embarcação"
    return [title, vessel_line(check.case, check.on, lang)]


def text_report(check: VesselCheck, lang: str = "pt") -> str:
    """Plain-text report (Portuguese by default)."""
    # Each section explains itself; the report ends with every norm and interpretation used.
    blocks: list[Any] = [*header_lines(check, lang),
                         *quota_text_blocks(check.quota, lang, with_basis=False)]
    if check.immigration is not None:
        from abordo.faces.reports.immigration import immigration_text_blocks

        blocks.extend(immigration_text_blocks(check.immigration, lang, with_basis=False))
    if check.checklist is not None:
        from abordo.faces.reports.immigration import checklist_text_blocks

        blocks.extend(checklist_text_blocks(check.checklist, lang, with_basis=False))
    blocks.append("\n== " + ("Legal basis of this report" if lang == "en" else
                              "Fundamentação deste relatório") + " ==")
    blocks.extend(basis_text_blocks(_decisions(check), lang))
    return render_rich(*blocks)


def _decisions(check: VesselCheck) -> list[Decision]:
    return [d for d in (check.quota, check.immigration, check.checklist) if d is not None]


def html_report(check: VesselCheck, lang: str = "pt") -> str:
    """A standalone printable HTML page."""
    citations, interpretations = merged_basis(_decisions(check))
    from abordo.faces.reports.immigration import person_documents

    # the immigration section words a person's documents as the text report does (one source)
    return render_html("vessel_check.html.j2", lang, check=check, q=check.quota,
                       person_documents=person_documents,
                       title=header_lines(check, lang), section_basis=False,
                       all_citations=citations, all_interpretations=interpretations)


def pdf_report(check: VesselCheck, lang: str = "pt") -> bytes:
    """The HTML report printed to PDF with WeasyPrint."""
    from weasyprint import HTML

    pdf: bytes = HTML(string=html_report(check, lang)).write_pdf()
    return pdf

"""Immigration and document-checklist sections of the reports (text and HTML) — they render
the engines' Decisions only (abordo.immigration, abordo.immigration.checklist)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from abordo.faces.reports.blocks import common_text_blocks, result_line, t
from abordo.faces.reports.format import fmt_date
from abordo.immigration.rules import DOC_TYPES
from abordo.law.decision import Decision, verdict_label

L: dict[str, tuple[str, str]] = {
    "title": ("Situação migratória da tripulação estrangeira",
              "Immigration status of foreign crew"),
    "checklist": ("Documentos a solicitar na inspeção", "Documents to request at the inspection"),
    "person": ("pessoa", "person"), "nationality": ("nacionalidade", "nationality"),
    "requirement": ("exigência", "requirement"), "stay": ("dias de estada", "days of stay"),
    "documents": ("documentos", "documents"), "verdict": ("situação", "status"),
    "deadline": ("próximo prazo", "next deadline"), "basis": ("fundamento", "legal basis"),
    "details": ("Detalhes por pessoa", "Details per person"),
    "action": ("providência", "action"), "consequence": ("consequência", "consequence"),
    "arithmetic": ("contagem", "count"), "note": ("observação", "note"),
    "consequences": ("Consequências", "Consequences"),
    "brazilians": ("Brasileiros (não avaliados)", "Brazilians (not assessed)"),
    "item": ("item", "item"), "because": ("por quê", "why"),
    "binding": ("obrigatório", "binding"), "good_practice": ("boa prática", "good practice"),
    "persons": ("pessoas", "persons"), "pre_boarding": ("Antes do embarque (art. 5º)",
                                                          "Before boarding (art. 5)"),
    "stage_documents": ("Documentos", "Documents"),
    "none": ("nenhum", "none"), "migratory_year": ("ano migratório", "migratory year"),
    "passed": ("vencido em", "passed on"),
}


DOC_STATUS: dict[str, tuple[str, str]] = {
    "valid": ("em validade", "valid"), "expired": ("validade vencida", "expired"),
    "not_yet_valid": ("ainda sem validade", "not yet valid"),
    "pending": ("protocolado, pendente", "filed, pending"),
    "not_yet_filed": ("não protocolado na data", "not filed by the date"),
}


def lbl(key: str, lang: str) -> str:
    pt, en = L[key]
    return en if lang == "en" else pt


def _pick(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    pt, en = table.get(key, (key, key))
    return en if lang == "en" else pt


def doc_text(doc: dict[str, Any], lang: str) -> str:
    """``visto de visita, válido até 30/09/2027`` — one document and its status on the date."""
    en = lang == "en"
    kind = _pick(DOC_TYPES, doc["type"], lang)
    status = doc["status"]
    if status == "answered":
        filed = fmt_date(doc.get("protocol_date"), lang)
        return (f"{kind}, filed on {filed}, answered (granted)" if en else
                f"{kind}, protocolado em {filed}, respondido (concedido)")
    if status in ("pending", "not_yet_filed"):
        filed = fmt_date(doc.get("protocol_date"), lang)
        return (f"{kind}, filed on {filed}, pending" if en else
                f"{kind}, protocolado em {filed}, pendente") if status == "pending" else (
                f"{kind}, not filed by the date" if en else f"{kind}, não protocolado na data")
    if status == "expired":
        return f"{kind}, {'expired on' if en else 'validade vencida em'} " \
            f"{fmt_date(doc.get('valid_until'), lang)}"
    if status == "not_yet_valid":
        return f"{kind}, {'valid from' if en else 'validade a partir de'} " \
            f"{fmt_date(doc.get('issued_on'), lang)}"
    if doc.get("valid_until"):
        return f"{kind}, {'valid until' if en else 'validade até'} " \
            f"{fmt_date(doc['valid_until'], lang)}"
    return f"{kind}, {_pick(DOC_STATUS, status, lang)}"


def person_documents(p: dict[str, Any], lang: str) -> list[str]:
    """Every document of a person row as text, with the C185 / seafarer's card flags."""
    out = [doc_text(d, lang) for d in p.get("documents", [])]
    if p.get("sid_c185") and not any(d["type"] == "sid_c185" for d in p.get("documents", [])):
        out.append(_pick(DOC_TYPES, "sid_c185", lang))
    if p.get("seafarer_card"):
        out.append(_pick(DOC_TYPES, "seafarer_card", lang))
    return out


def stay_text(p: dict[str, Any], lang: str) -> str:
    s = p.get("stay")
    if not s:
        return "—"
    return f"{s['days']}/{s['limit']}"


def basis_text(d: Decision, p: dict[str, Any]) -> str:
    """The person's citation with its norm: the regime's short name and the provision
    (``RN 06/2017 (Res. 42/2020), art. 11, § 1º``), or the full label of another norm."""
    c = p.get("citation")
    if c is None:
        return "—"
    short = d.result.get("regime_short_label")
    if c.version == d.regime and c.provision and short:
        return f"{short}, {c.provision}"
    return str(c.label)


def regime_applied(d: Decision) -> bool:
    """Whether a regime was applied (not for a vessel or date the engine does not cover)."""
    return bool(d.regime) and bool(d.result.get("regime_applied"))


def stay_lines(p: dict[str, Any], lang: str) -> list[str]:
    """The migratory year's count and, when it runs across a migratory year, the continuous
    stay's: ``ano migratório 01/11/2026–31/10/2027: 1 dia; estada contínua desde …``."""
    s = p.get("stay")
    if not s:
        return []
    en = lang == "en"
    year_days = s.get("year_days", s["days"])
    out = [f"{lbl('migratory_year', lang)} {fmt_date(s['year_start'], lang)}–"
           f"{fmt_date(s['year_end'], lang)}: {days_text(year_days, lang)}"]
    if s.get("across_year") and s.get("continuous_start"):
        out.append(f"{'continuous stay since' if en else 'estada contínua desde'} "
                   f"{fmt_date(s['continuous_start'], lang)}: "
                   f"{days_text(s['continuous_days'], lang)}")
    return ["; ".join(out)]


def days_text(n: int, lang: str) -> str:
    """``1 dia`` / ``2 dias`` (``1 day`` / ``2 days``)."""
    if lang == "en":
        return f"{n} {'day' if n == 1 else 'days'}"
    return f"{n} {'dia' if n == 1 else 'dias'}"


def persons_table(d: Decision, lang: str) -> Table:
    """One row per foreign person: requirement, days of stay, status, next deadline, basis."""
    table = Table(title=None, show_lines=False)
    for col in ("person", "nationality", "requirement", "stay", "verdict", "deadline", "basis"):
        table.add_column(lbl(col, lang), justify="right" if col == "stay" else "left")
    for p in d.result.get("persons", []):
        table.add_row(
            f"{p['id']}" + (f" ({p['rank']})" if p.get("rank") else ""), p["nationality"],
            p["requirement_label"].get(lang) if p.get("requirement_label") else "—",
            stay_text(p, lang), verdict_label(p["verdict"], lang).upper(),
            deadline_text(p, lang), basis_text(d, p))
    return table


def deadline_text(p: dict[str, Any], lang: str) -> str:
    """The "next deadline" cell: the date still ahead, or ``vencido em 19/10/2001`` for one
    already passed on the date judged (an irregular verdict's), never shown as next."""
    if p.get("deadline") and p.get("deadline_passed"):
        return f"{lbl('passed', lang)} {fmt_date(p['deadline'], lang)}"
    return fmt_date(p.get("deadline"), lang)


def person_details(p: dict[str, Any], lang: str) -> list[str]:
    """The per-person lines under the table: action, arithmetic, consequence, notes."""
    out: list[str] = []
    head = f"  {p['id']}:"
    docs = person_documents(p, lang)
    out.append(f"{head} {lbl('documents', lang)}: {'; '.join(docs) or lbl('none', lang)}")
    head = "   "
    for line in stay_lines(p, lang):
        out.append(f"{head} {line}")
        head = "   "
    if p.get("action"):
        out.append(f"{head} {lbl('action', lang)}: {p['action'].get(lang)}")
        head = "   "
    det = p.get("deadline_detail")
    if det and det.get("text"):
        cite = f" [{det['citation'].label}]" if det.get("citation") else ""
        out.append(f"{head} {lbl('arithmetic', lang)}: {det['text'].get(lang)}{cite}")
        head = "   "
    if p.get("consequence"):
        out.append(f"{head} {lbl('consequence', lang)}: {p['consequence'].get(lang)}")
        head = "   "
    for n in p.get("notes", []):
        out.append(f"{head} {lbl('note', lang)}: {n.get(lang)}")
        head = "   "
    return out


def immigration_text_blocks(d: Decision, lang: str, with_basis: bool = True) -> list[Any]:
    """The immigration section as Rich renderables (Portuguese by default)."""
    r = d.result
    out: list[Any] = [f"\n== {lbl('title', lang)} ==",
                      result_line(d, lang)]
    if regime_applied(d):
        out.append(f"{t('regime', lang)}: {r.get('regime_label', d.regime)} ({d.regime})")
    if r.get("persons"):
        out.append(persons_table(d, lang))
        out.append(f"{lbl('details', lang)}:")
        for p in r["persons"]:
            out.extend(person_details(p, lang))
    if r.get("brazilians_omitted"):
        out.append(f"{lbl('brazilians', lang)}: {', '.join(r['brazilians_omitted'])}")
    for c in r.get("consequences", []):
        cites = "; ".join(x.label for x in c.get("citations", []))
        out.append(f"{lbl('consequences', lang)}: {c['text'].get(lang)}"
                   + (f" [{cites}]" if cites else ""))
    out.extend(common_text_blocks(d, lang, with_basis=with_basis))
    return out


def checklist_text_blocks(d: Decision, lang: str, with_basis: bool = True) -> list[Any]:
    """The document checklist as Rich renderables: one box per item, its provision and why."""
    r = d.result
    out: list[Any] = [f"\n== {lbl('checklist', lang)} ==",
                      result_line(d, lang)]
    stages = (("pre_boarding", lbl("pre_boarding", lang)),
              ("documents", lbl("stage_documents", lang)))
    n = 0
    for stage, title in stages:
        items = [i for i in r.get("items", []) if i["stage"] == stage]
        if not items:
            continue
        out.append(f"{title}:")
        for i in items:
            n += 1
            kind = "" if i["binding"] else f" ({lbl('good_practice', lang)})"
            who = f" — {lbl('persons', lang)}: {', '.join(i['subjects'])}" if i["subjects"] \
                else ""
            out.append(f"  {n:>2}. [ ] {i['text'].get(lang)}{who}")
            out.append(f"       {i['citation'].label}{kind} — {lbl('because', lang)}: "
                       f"{i['applies_because'].get(lang)}")
    out.extend(common_text_blocks(d, lang, with_trace=False, with_basis=with_basis))
    return out


"""Reports of the port-fines engine (``abordo fine``): text (Rich), HTML (Jinja2), JSON, and
the Annex I catalogue table. Everything shown comes from the :class:`Decision`; nothing here
computes a fine."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table

from abordo.faces.reports.blocks import (
    common_text_blocks,
    render_html,
    render_rich,
    result_line,
)
from abordo.faces.reports.format import fmt_date, fmt_money, fmt_number
from abordo.law.decision import Citation, Decision, Msg, Verdict
from abordo.law.norms import norm_registry
from abordo.port_fines.catalogue import Catalogue, Provision, gradation_versions

L: dict[str, tuple[str, str]] = {
    "title": ("Multa do trabalho portuário — Lei nº 9.719/1998, gradação da Portaria MTE nº "
              "746/2000",
              "Port-labour fine — Lei 9.719/1998, graded under Portaria MTE 746/2000"),
    # Not covered: the Portaria grades nothing on that date (or for that provision), so the
    # title names the law only; the reason says which act was in force.
    "title_not_covered": ("Multa do trabalho portuário — Lei nº 9.719/1998",
                          "Port-labour fine — Lei 9.719/1998"),
    "provision": ("Dispositivo infringido", "Provision breached"),
    "date": ("Data da infração", "Date of the infraction"),
    "grading": ("Gradação", "Grading"),
    "item": ("item", "item"),
    "value": ("valor", "value"),
    "basis": ("fundamento", "legal basis"),
    "annex_range": ("Faixa do Anexo I", "Annex I range"),
    "nature": ("Natureza", "Nature"),
    "nature_caller": ("informada pelo usuário; não confirmada no Anexo I",
                      "given by the user; not confirmed in Annex I"),
    "nature_catalogue": ("Anexo I", "Annex I"),
    "extent_intent": ("Extensão / intenção", "Extent / intent"),
    "cell": ("Célula do Anexo II", "Annex II cell"),
    "cell_range": ("Faixa da célula", "Cell range"),
    "fixed": ("Valor fixado", "Value set"),
    "ceiling": ("teto da célula", "the cell's ceiling"),
    "chosen": ("escolhido abaixo do teto; motivo", "chosen below the ceiling; reason"),
    "modifiers": ("Modificadores, na ordem", "Modifiers, in order"),
    "applied": ("aplicado", "applied"),
    "not_applied": ("não aplicado", "not applied"),
    "minimum": ("Correção de infração sanável → valor mínimo (art. 4º)",
                "Corrected sanable infraction → minimum (art. 4)"),
    "doubling": ("Dobra por reincidência, oposição ou desacato (art. 2º)",
                 "Doubling for recidivism, obstruction or contempt (art. 2)"),
    "per_worker": ("Multiplicação por trabalhador", "Per-worker multiplication"),
    "per_infraction": ("Multa por infração (não multiplica por trabalhador)",
                       "Fine per infraction (not multiplied by workers)"),
    "workers": ("trabalhadores em situação irregular", "workers in irregular situation"),
    "worker": ("trabalhador em situação irregular", "worker in irregular situation"),
    "total": ("VALOR TOTAL DA MULTA", "TOTAL FINE"),
    "justification": ("Fundamentação — minuta a completar pela autoridade (art. 6º)",
                      "Justification — skeleton for the authority to complete (art. 6)"),
    "per_worker_suffix": (" por trabalhador", " per worker"),
    "to": ("a", "to"),
    "with_intent": ("com intenção", "with intent"),
    "without_intent": ("sem intenção", "without intent"),
    "light": ("leve", "light"), "medium": ("média", "medium"), "severe": ("grave", "severe"),
    "catalogue": ("Anexo I da Portaria MTE nº 746/2000 — catálogo de dispositivos",
                  "Annex I of Portaria MTE 746/2000 — provision catalogue"),
    "id": ("id", "id"),
    "range": ("faixa (R$)", "range (BRL)"),
    "per_worker_col": ("p/ trab.", "per wkr"),
    "nature_col": ("nat.", "nat."),
    "catalogue_note": (
        "nat. ? = natureza desconhecida (a coluna falta no texto de referência do Anexo I): "
        "informe-a ao calcular (--nature). Faixas por trabalhador quando \"p/ trab.\" = sim "
        "(Lei nº 9.719/1998, art. 10, III e art. 11). A gradação modelada ({}) vale para "
        "infrações {}.",
        "nat. ? = nature unknown (the column is missing from the reference text of Annex I): "
        "give it when grading (--nature). Ranges are per worker when \"per wkr\" = yes "
        "(Lei 9.719/1998, art. 10, III and art. 11). The gradation modelled ({}) covers "
        "infractions {}."),
    "in_force": ("vigência", "in force"),
    "from_to": ("de {} a {}", "from {} to {}"),
    "from_on": ("a partir de {}", "from {} on"),
    "description": ("descrição", "description"),
    "unknown": ("desconhecida", "unknown"),
    "yes": ("sim", "yes"), "no": ("não", "no"),
    "until": ("até", "until"), "open": ("em vigor", "in force"),
    "common_start": ("Todos os dispositivos são multáveis desde {} (Lei nº 9.719/1998).",
                     "Every provision carries the fine from {} (Lei 9.719/1998)."),
    "successor": ("sucessor", "successor"),
}


def lbl(key: str, lang: str) -> str:
    pt, en = L[key]
    return en if lang == "en" else pt


def _cites(cites: list[Citation] | None) -> str:
    if not cites:
        return ""
    seen: list[str] = []
    for c in cites:
        if c.label not in seen:
            seen.append(c.label)
    return "; ".join(seen)


def _msg(m: Msg | str, lang: str) -> str:
    return m.get(lang) if isinstance(m, Msg) else str(m)


def grading_rows(d: Decision, lang: str) -> list[tuple[str, str, str]]:
    """(item, value, legal basis) rows of the grading table — shared by text and HTML."""
    r = d.result
    basis: dict[str, list[Citation]] = r["basis"]
    pw = lbl("per_worker_suffix", lang) if r["per_worker"] else ""
    low, ceiling = r["range"]
    nature_note = lbl("nature_caller" if r["nature_source"] == "caller" else "nature_catalogue",
                      lang)
    fixed = fmt_money(r["graded_value"], lang) + pw
    if r["chosen_reason"]:
        fixed += f" ({lbl('chosen', lang)}: {r['chosen_reason']})"
    else:
        fixed += f" ({lbl('ceiling', lang)})"
    return [
        (lbl("annex_range", lang),
         f"{fmt_money(r['minimum'], lang)} {lbl('to', lang)} {fmt_money(r['maximum'], lang)}{pw}",
         _cites(basis["range"][1:])),
        (lbl("nature", lang), f"{r['nature']} ({nature_note})",
         _cites([c for c in d.citations if c.provision in {"Anexo I"}])),
        (lbl("extent_intent", lang),
         f"{lbl(r['extent'], lang)} / "
         f"{lbl('with_intent' if r['intent'] else 'without_intent', lang)}",
         _cites([c for c in d.citations if c.provision in {"art. 3º, II", "art. 3º, III"}])),
        (lbl("cell", lang), f"{r['cell']} — {_msg(r['cell_rule'], lang)}",
         _cites(basis["ceiling"])),
        (lbl("cell_range", lang),
         f"{fmt_money(low, lang)} {lbl('to', lang)} {fmt_money(ceiling, lang)}{pw}",
         _cites(basis["range"][:1])),
        (lbl("fixed", lang), fixed, _cites(basis["graded_value"])),
    ]


def modifier_rows(d: Decision, lang: str) -> list[tuple[str, str, str, str]]:
    """(name, applied?, explanation, legal basis) for art. 4 then art. 2, in the order applied."""
    rows = []
    for m in d.result["modifiers"]:
        rows.append((
            lbl(m["id"], lang),
            lbl("applied" if m["applied"] else "not_applied", lang),
            _msg(m["text"], lang),
            _cites(m["citations"]),
        ))
    return rows


def total_line(d: Decision, lang: str) -> tuple[str, str, str]:
    """(label, computation, legal basis) of the per-worker multiplication or per-infraction
    fine."""
    r = d.result
    unit = fmt_money(r["per_worker_value"], lang)
    total = fmt_money(r["amount"], lang)
    if r["per_worker"]:
        return (lbl("per_worker", lang),
                f"{unit} × {fmt_number(r['multiplier'], lang)} "
                f"{lbl('worker' if r['multiplier'] == 1 else 'workers', lang)} = {total}",
                _cites(r["basis"]["amount"]))
    return (lbl("per_infraction", lang), total, _cites(r["basis"]["amount"]))


def header_lines(d: Decision, lang: str) -> list[str]:
    r = d.result
    lines = [
        lbl("title" if d.verdict == Verdict.COMPUTED else "title_not_covered", lang),
        result_line(d, lang),
        "",
        # The id in brackets: a label may end in its own parenthesis ("(normas de segurança)").
        f"{lbl('provision', lang)}: {r['provision_label']} [{r['provision']}]",
        f"  {r['description']}",
        f"{lbl('date', lang)}: {fmt_date(r['date'], lang)}",
    ]
    if d.regime:
        lines.append(f"{'Norma aplicada' if lang != 'en' else 'Norm applied'}: "
                     f"{norm_label(d.regime)} ({d.regime})")
    return lines


def norm_label(norm_id: str) -> str:
    """The registry's label of ``norm_id`` (``Portaria MTE nº 746/2000``); the id if unknown."""
    reg = norm_registry()
    return reg[norm_id].label if norm_id in reg else norm_id


def text_blocks(d: Decision, lang: str = "pt") -> list[RenderableType]:
    """The text report as Rich renderables (header, grading, modifiers, total, skeleton,
    then the common blocks: citations, interpretations, unconfirmed parameters, trace)."""
    out: list[RenderableType] = list(header_lines(d, lang))
    if d.verdict == Verdict.NOT_COVERED:
        if d.result.get("successor"):
            out.append(f"{lbl('successor', lang)}: {d.result['successor']}")
        out.extend(common_text_blocks(d, lang))
        return out
    grading = Table(title=lbl("grading", lang), show_lines=False, expand=False)
    for col in ("item", "value", "basis"):
        grading.add_column(lbl(col, lang))
    for row in grading_rows(d, lang):
        grading.add_row(*row)
    out += ["", grading, "", f"{lbl('modifiers', lang)}:"]
    for n, (name, applied, text, cites) in enumerate(modifier_rows(d, lang), 1):
        out.append(f"  {n}. {name}: {applied}. {text} [{cites}]")
    label, computation, cites = total_line(d, lang)
    out += ["", f"{label}: {computation} [{cites}]",
            f"{lbl('total', lang)}: {fmt_money(d.result['amount'], lang)}", "",
            f"{lbl('justification', lang)}:", d.result["justification"]]
    out.extend(common_text_blocks(d, lang))
    return out


def text_report(d: Decision, lang: str = "pt") -> str:
    """Plain-text report (Portuguese by default); money as ``R$ 1.234,56``."""
    return render_rich(*text_blocks(d, lang))


def html_report(d: Decision, lang: str = "pt") -> str:
    """A standalone printable HTML page (``templates/port_fines.html.j2``)."""
    computed = d.verdict == Verdict.COMPUTED
    return render_html(
        "port_fines.html.j2", lang, d=d, r=d.result, lbl=lbl, norm_label=norm_label,
        header=header_lines(d, lang),
        grading=grading_rows(d, lang) if computed else [],
        modifiers=modifier_rows(d, lang) if computed else [],
        total=total_line(d, lang) if computed else None,
    )


def json_report(d: Decision, lang: str = "pt") -> str:
    """``decision.to_json(lang)`` as indented JSON (exact decimals as strings)."""
    return json.dumps(d.to_json(lang), ensure_ascii=False, indent=2)


def pdf_report(d: Decision, lang: str = "pt") -> bytes:
    """The HTML report printed to PDF with WeasyPrint."""
    from weasyprint import HTML

    pdf: bytes = HTML(string=html_report(d, lang)).write_pdf()
    return pdf


def _in_force(p: Provision, lang: str, common_start: bool) -> str:
    """``até 04/06/2013`` / ``em vigor``; the start only when the entries' starts differ."""
    start = "" if common_start else f"{fmt_date(p.valid_from, lang)} "
    if p.valid_to is None:
        return f"{start}{lbl('open', lang)}"
    return f"{start}{lbl('until', lang)} {fmt_date(p.valid_to, lang)}"


def catalogue_table(cat: Catalogue, lang: str = "pt", *, with_description: bool = True
                    ) -> Table:
    """Annex I as a Rich table: id, range (BRL), nature, per worker, window of force and,
    when ``with_description``, what the provision requires."""
    starts = {p.valid_from for p in cat}
    common_start = len(starts) == 1
    # The window of the gradation modelled, from its dated table (the note restates no date).
    versions = gradation_versions()
    first, last = versions[0], versions[-1]
    start = fmt_date(first["valid_from"], lang)
    window = (lbl("from_to", lang).format(start, fmt_date(last["valid_to"], lang))
              if last.get("valid_to") else lbl("from_on", lang).format(start))
    acts = dict.fromkeys(norm_registry()[v["norm"]].label for v in versions)
    note = lbl("catalogue_note", lang).format(", ".join(acts), window)
    if common_start:
        note += " " + lbl("common_start", lang).format(fmt_date(next(iter(starts)), lang))
    table = Table(title=lbl("catalogue", lang), box=box.SIMPLE_HEAD, pad_edge=False,
                  show_edge=False, caption=note, caption_justify="left")
    for col in ("id", "range", "nature_col", "per_worker_col", "in_force"):
        table.add_column(lbl(col, lang), no_wrap=True)
    if with_description:
        table.add_column(lbl("description", lang), overflow="fold", ratio=1)
    for p in cat:
        row = [
            p.id,
            f"{fmt_number(p.min, lang, 2)}–{fmt_number(p.max, lang, 2)}",
            "?" if p.known_nature is None else str(p.known_nature),
            lbl("yes" if p.per_worker else "no", lang),
            _in_force(p, lang, common_start),
        ]
        if with_description:
            row.append(p.description)
        table.add_row(*row)
    return table


def catalogue_text(cat: Catalogue, lang: str = "pt") -> str:
    return render_rich(catalogue_table(cat, lang), width=160)


def catalogue_json(cat: Catalogue) -> str:
    """Annex I as JSON (decimal strings, ISO dates)."""
    def plain(p: Provision) -> dict[str, Any]:
        data = p.model_dump(mode="json")
        for k in ("min", "max"):
            data[k] = f"{Decimal(data[k]):.2f}"
        return data

    return json.dumps([plain(p) for p in cat], ensure_ascii=False, indent=2)

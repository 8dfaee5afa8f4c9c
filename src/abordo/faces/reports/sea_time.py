"""Reports of the sea-time engine (``abordo sea-time``): text (Rich), HTML (Jinja2), PDF
(WeasyPrint, from the HTML), JSON.

Both the text and the HTML report show a timeline of the period, one line per month and one
cell per calendar day: counted (by source) or excluded (by reason). The summary figures carry
their legal basis next to them. Ids (reasons, groups, departments) are shown with a label in
the report's language; the JSON keeps the ids. Everything shown comes from the
:class:`~abordo.law.Decision`; nothing here counts a day.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table

from abordo.faces.reports.blocks import common_text_blocks, render_html, render_rich
from abordo.faces.reports.format import fmt_date, fmt_number
from abordo.law.decision import Citation, Decision, Msg, verdict_label
from abordo.law.norms import norm_registry
from abordo.sea_time.engine import (
    PURPOSE_LABELS,
    SOURCE_LABELS,
    department_label,
    group_label,
    target_outcome,
    years_and_days,
)

L: dict[str, tuple[str, str]] = {
    "title": ("Cômputo de tempo de embarque — NORMAM-101/DPC",
              "Sea-time count — NORMAM-101/DPC"),
    "seafarer": ("Aquaviário", "Seafarer"),
    "purpose": ("Finalidade", "Purpose"),
    "regime": ("Norma aplicada", "Norm applied"),
    "counted": ("Dias computados", "Days counted"),
    "years": ("Anos (dias / 365)", "Years (days / 365)"),
    "by_category": ("Por categoria", "By category"),
    "breakdown": ("Por origem", "By source"),
    "source": ("origem", "source"),
    "days": ("dias", "days"),
    "category": ("categoria", "category"),
    "periods": ("Períodos computados", "Periods counted"),
    "excluded": ("Dias não computados", "Days not counted"),
    "from": ("de", "from"),
    "to": ("até", "to"),
    "reason": ("motivo", "reason"),
    "basis": ("fundamento", "legal basis"),
    "limitations": ("Limitações", "Limitations"),
    "inland_only": ("somente navegação interior", "inland navigation only"),
    "eligibility": ("Meta", "Target"),
    "required": ("exigidos", "required"),
    "as_given": ("informado", "as given"),
    "not_modelled": ("tempo exigido não modelado (está na NORMAM-101, Cap. 2, que o Abordo não "
                     "contém)", "required sea time not modelled (it is in NORMAM-101 ch. 2, "
                     "which Abordo does not hold)"),
    "timeline": ("Linha do tempo (um caractere por dia)", "Timeline (one character per day)"),
    "timeline_html": ("Linha do tempo (um quadrado por dia; à direita, dias computados no mês)",
                      "Timeline (one square per day; right, days counted in the month)"),
    "legend": ("Legenda", "Legend"),
    "none_day": ("sem registro", "no record"),
    "instructor_note": ("instrutor/inspetor: {} dia(s) de atividade qualificados, {} já "
                        "contado(s) a bordo; {} restante(s) → {} dia(s) de embarque (2:1), "
                        "somados ao total, não aos meses",
                        "instructor/inspector: {} qualifying activity day(s), {} already "
                        "counted aboard; {} left → {} sea day(s) (2:1), added to the total, "
                        "not to the months"),
    "none": ("nenhum", "none"),
    "undated": ("sem datas", "undated"),
    "caller": ("informado na entrada", "given in the input"),
}

REASONS = {
    "not_declared": ("sem declaração da empresa", "not declared by the company"),
    "category_mismatch": ("declarado em outra categoria", "declared in another category"),
    "lower_function": ("função inferior à categoria", "function lower than the category"),
    "other_group": ("função de outro grupo", "function of another group"),
    "other_department": ("função de outra seção", "function of another department"),
    "above_category_without_lcs": ("função superior sem LCS",
                                   "higher function without LCS"),
    "fixed_platform": ("plataforma fixa", "fixed platform"),
    "function_not_counted_on_unit": ("FPSO/FSU/navio-sonda sem função offshore listada",
                                     "FPSO/FSU/drillship without a listed offshore role"),
    "not_in_service": ("embarcação fora de serviço", "vessel not in service"),
    "flag_not_stcw_party": ("bandeira não comprovadamente parte da STCW",
                            "flag not shown to be an STCW party"),
    "after_request_date": ("após a data do requerimento", "after the request date"),
    "embarkation_day": ("dia do embarque (leitura exclusive_start)",
                        "embarkation day (exclusive_start reading)"),
    "instructor_only_for_revalidation": ("instrutor/inspetor: só para revalidação",
                                         "instructor/inspector: revalidation only"),
    "below_minimum_hours": ("atividade com menos de 4 horas", "activity under 4 hours"),
    "instructor_not_officer": ("2:1 só para oficiais de náutica ou máquinas",
                               "2:1 only for nautical or engine officers"),
    "manoeuvre_not_open_sea": ("manobra fora de mar aberto", "manoeuvre not in open sea"),
    "manoeuvre_not_nautical_officer": ("manobra: só oficiais de náutica",
                                       "manoeuvre: nautical officers only"),
    "navy_only_for_courses": ("dias da Marinha: só para cursos", "Navy days: courses only"),
    "navy_group_not_listed": ("dias da Marinha: grupo não listado",
                              "Navy days: group not listed"),
}
#: Labels of the provisions (``rule`` of an excluded interval) that say more than their
#: reason: the same reason id (kept in the JSON, the cases' vocabulary) is then shown as its
#: provision reads (normam101.yaml).
RULE_LABELS = {
    "foreign_not_declared": ("sem declaração da empresa estrangeira (Anexo 1-H)",
                             "not declared by the foreign company (Anexo 1-H)"),
    "sea_trials_before_dpp": ("provas de mar antes do DPP", "sea trials before the DPP"),
}
#: One character per day status on the text timeline, and a colour for the HTML one.
CHARS: dict[str, str] = {
    "cir_declared": "█", "foreign": "▓", "standby": "▒", "manoeuvres": "M", "instructor": "I",
    "not_declared": "d", "category_mismatch": "c", "lower_function": "l", "other_group": "g",
    "other_department": "s", "above_category_without_lcs": "a", "fixed_platform": "p",
    "function_not_counted_on_unit": "u", "not_in_service": "n", "flag_not_stcw_party": "f",
    "after_request_date": "r", "embarkation_day": "e", "instructor_only_for_revalidation": "i",
    "below_minimum_hours": "h", "instructor_not_officer": "o",
    "manoeuvre_not_open_sea": "w", "manoeuvre_not_nautical_officer": "k",
    "foreign_not_declared": "D", "sea_trials_before_dpp": "t", "": "·",
}
COLOURS: dict[str, str] = {
    "cir_declared": "#1b7f3b", "foreign": "#2f6fb3", "standby": "#58a55c",
    "manoeuvres": "#0b4f2a", "instructor": "#7c5cbf", "not_declared": "#d9822b",
    "category_mismatch": "#e0a03a", "lower_function": "#c0392b", "other_group": "#8e44ad",
    "other_department": "#a0522d", "above_category_without_lcs": "#b03a2e",
    "fixed_platform": "#6d4c41", "function_not_counted_on_unit": "#8d6e63",
    "not_in_service": "#795548", "flag_not_stcw_party": "#c2185b",
    "after_request_date": "#9e9e9e", "embarkation_day": "#bdbdbd",
    "instructor_only_for_revalidation": "#b39ddb",
    "below_minimum_hours": "#ce93d8", "instructor_not_officer": "#9575cd",
    "manoeuvre_not_open_sea": "#ffb74d",
    "manoeuvre_not_nautical_officer": "#ff8a65", "foreign_not_declared": "#b5651d",
    "sea_trials_before_dpp": "#a1887f", "": "#eeeeee",
}
COUNTED = ("cir_declared", "foreign", "standby", "manoeuvres", "instructor")


def lbl(key: str, lang: str) -> str:
    pt, en = L[key]
    return en if lang == "en" else pt


def _pair(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    pt, en = table.get(key, (key, key))
    return en if lang == "en" else pt


def _msg(label: Msg, lang: str) -> str:
    return label.en if lang == "en" else label.pt


def source_label(key: str, lang: str) -> str:
    """The engine's own name of a source of counted days (``SOURCE_LABELS``)."""
    found = SOURCE_LABELS.get(key)
    return _msg(found, lang) if found else key


def reason_label(key: str, lang: str) -> str:
    """The label of a reason id, or of a provision of :data:`RULE_LABELS`."""
    return _pair(RULE_LABELS, key, lang) if key in RULE_LABELS else _pair(REASONS, key, lang)


def exclusion_code(reason: str, rule: str | None) -> str:
    """The status shown for days excluded by ``rule`` for ``reason``: the provision when it
    has a label of its own (:data:`RULE_LABELS`), else the reason."""
    return rule if rule in RULE_LABELS else reason


def exclusion_label(e: dict[str, Any], lang: str) -> str:
    """The label of an excluded interval: each provision that excluded its days, named once
    (``sem declaração da empresa estrangeira (Anexo 1-H)`` for a foreign-flag period)."""
    labels: list[str] = []
    for rule in e.get("rules") or [e.get("rule")]:
        label = reason_label(exclusion_code(e["reason"], rule), lang)
        if label not in labels:
            labels.append(label)
    return "; ".join(labels)


def basis_text(citations: list[Citation] | None) -> str:
    """``[NORMAM-101/DPC, item 1.26.1, d; item 1.27]``: the norm named once per version."""
    if not citations:
        return ""
    parts: list[str] = []
    last_norm = None
    for c in citations:
        norm = c.label.removesuffix(f", {c.provision}") if c.provision else c.label
        if norm == last_norm and c.provision:
            parts.append(c.provision)
        else:
            parts.append(c.label)
        last_norm = norm
    return f"[{'; '.join(parts)}]"


@dataclass(frozen=True)
class Month:
    """One timeline row: ``codes[i]`` is the status of day ``i + 1`` ("" = no record)."""

    year: int
    month: int
    codes: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def counted(self) -> int:
        """Days counted in the month. An instructor day (``I``) is not one: two of them make
        one sea day (NORMAM-101 item 1.27), a figure of the whole count, not of a month."""
        return sum(1 for c in self.codes if c in COUNTED and c != "instructor")


def timeline(d: Decision) -> list[Month]:
    """The months from the first to the last day recorded, each day's status.

    A day counted wins over an exclusion; between exclusions the engine's order of reasons
    (the order of ``result['excluded']`` for a day) decides which one is shown.
    """
    r = d.result
    status: dict[dt.date, str] = {}

    def paint(first: dt.date, last: dt.date, code: str, override: bool) -> None:
        day = first
        while day <= last:
            if override or day not in status:
                status[day] = code
            day += dt.timedelta(1)

    for e in r.get("excluded", []):
        if e["from"] is None:
            continue
        # an interval two provisions excluded is painted day by day, each by its own
        for part in e.get("parts") or [e]:
            paint(part["from"], part["to"], exclusion_code(e["reason"], part.get("rule")),
                  False)
    for p in r.get("counted_periods", []):
        paint(p["from"], p["to"], p["source"], True)
    for first, last in (r.get("instructor") or {}).get("days", []):
        paint(first, last, "instructor", True)
    if not status:
        return []
    first_day, last_day = min(status), max(status)
    months: list[Month] = []
    y, m = first_day.year, first_day.month
    while (y, m) <= (last_day.year, last_day.month):
        n = calendar.monthrange(y, m)[1]
        months.append(Month(y, m, tuple(status.get(dt.date(y, m, i), "")
                                        for i in range(1, n + 1))))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return months


def instructor_note(instr: dict[str, Any], lang: str) -> str:
    """The line under the timeline: how the instructor days became sea days (2:1)."""
    qualifying, already = instr["qualifying_days"], instr["already_counted"]
    return lbl("instructor_note", lang).format(qualifying, already, qualifying - already,
                                               instr["counted"])


def legend(months: list[Month], lang: str) -> list[tuple[str, str, str]]:
    """``(code, char, label)`` for every status present on the timeline."""
    used = {c for mo in months for c in mo.codes}
    out = []
    for code in CHARS:
        if code in used:
            label = (lbl("none_day", lang) if code == "" else source_label(code, lang)
                     if code in COUNTED else reason_label(code, lang))
            out.append((code, CHARS[code], label))
    return out


def timeline_text(d: Decision, lang: str) -> list[str]:
    """The compact month-by-month bar: ``2025-01 │·········█████…│  22``."""
    months = timeline(d)
    if not months:
        return []
    ruler = [" "] * 31
    for mark in (1, 5, 10, 15, 20, 25, 30):
        text = str(mark)
        start = mark - len(text)  # right-align the number on its day's column
        ruler[start:start + len(text)] = list(text)
    lines = [f"{lbl('timeline', lang)}:", f"{'':8} {''.join(ruler)}"]
    for mo in months:
        bar = "".join(CHARS[c] for c in mo.codes).ljust(31)
        lines.append(f"{mo.label} │{bar}│ {mo.counted:>3}")
    marks = "  ".join(f"{ch} {label}" for _, ch, label in legend(months, lang))
    lines.append(f"{lbl('legend', lang)}: {marks}")
    return lines


def _period_text(e: dict[str, Any], lang: str) -> tuple[str, str]:
    if e.get("from") is None:
        return (lbl("undated", lang), "")
    return (fmt_date(e["from"], lang), fmt_date(e["to"], lang))


def _regime_label(d: Decision) -> str:
    if not d.regime:
        return "—"
    try:
        return norm_registry()[d.regime].label
    except KeyError:
        return d.regime


def summary_rows(d: Decision, lang: str) -> list[tuple[str, str, str]]:
    """Label / value / legal basis rows of the header table — shared by text and HTML."""
    r = d.result
    sf = r["seafarer"]
    # The engine's names of the group and department (categories.yaml) and of the purpose.
    who = [_msg(label(sf[key]), lang) for label, key in
           ((group_label, "group"), (department_label, "department")) if sf.get(key)]
    purpose = PURPOSE_LABELS.get(r["purpose"])
    rows = [
        (lbl("seafarer", lang), f"{sf['id']} — " + ", ".join([sf["category"], *who]), ""),
        (lbl("purpose", lang), _msg(purpose, lang) if purpose else r["purpose"], ""),
        (lbl("regime", lang), _regime_label(d), ""),
    ]
    if d.verdict.value != "computed":
        return rows
    basis = r.get("basis") or {}
    # A revalidation's years rest on no provision (item 1.28 is for promotion and courses):
    # the engine's note says so where the basis would be.
    note = r.get("years_note")
    rows += [
        (lbl("counted", lang), fmt_number(r["counted_days"], lang),
         basis_text(basis.get("counted_days"))),
        (lbl("years", lang),
         f"{fmt_number(r['years'], lang, 2)} — "
         f"{years_and_days(r['whole_years'], r['remaining_days']).get(lang)}",
         f"[{_msg(note, lang)}]" if isinstance(note, Msg) else basis_text(basis.get("years"))),
        (lbl("by_category", lang),
         ", ".join(f"{k}: {v}" for k, v in r["by_category"].items()) or lbl("none", lang), ""),
    ]
    if r["limitations"]:
        rows.append((lbl("limitations", lang),
                     ", ".join(lbl(x, lang) if x in L else x for x in r["limitations"]), ""))
    el = r.get("eligibility")
    if el:
        if el["required_days"] is None:
            rows.append((lbl("eligibility", lang),
                         f"{el['target_category']}: {lbl('not_modelled', lang)}", ""))
        else:
            src = el["requirement_source"]
            # The figure is the caller's (NORMAM-101 Cap. 2 is not modelled): its source as
            # given, else "informado".
            source = f" ({lbl('as_given', lang) if src == 'caller' else src})"
            # The trace's wording (engine.target_outcome): one text, not two copies.
            outcome = target_outcome(el["required_days"], r["counted_days"]).get(lang)
            rows.append((lbl("eligibility", lang),
                         f"{el['target_category']}: {lbl('required', lang)} "
                         f"{el['required_days']}{source}; {outcome}", ""))
    return rows


def breakdown_rows(d: Decision, lang: str) -> list[tuple[str, int]]:
    return [(source_label(k, lang), v) for k, v in d.result["breakdown"].items() if v]


def excluded_rows(d: Decision, lang: str) -> list[tuple[str, str, int, str, str, str]]:
    """(from, to, days, reason label, rule text, citation) per merged excluded interval.

    The reason is shown by its label in ``lang`` (the JSON keeps the id, ``reason``)."""
    rows = []
    for e in d.result["excluded"]:
        first, last = _period_text(e, lang)
        text = e["text"].get(lang) if isinstance(e["text"], Msg) else str(e["text"])
        cites = e.get("citations") or [e["citation"]]
        rows.append((first, last, e["days"], exclusion_label(e, lang), text,
                     "; ".join(c.label for c in cites)))
    return rows


def text_report(d: Decision, lang: str = "pt", width: int = 110) -> str:
    """The plain-text report: header, timeline, tables, then the shared blocks and trace."""
    items: list[RenderableType] = [
        lbl("title", lang),
        f"{verdict_label(d.verdict, lang).upper()}: {d.summary.get(lang)}",
        "",
    ]
    head = Table(box=box.SIMPLE, show_header=False)
    head.add_column()
    head.add_column()
    for k, v, basis in summary_rows(d, lang):
        head.add_row(k, f"{v}  {basis}" if basis else v)
    items.append(head)
    if d.verdict.value == "computed":
        items.extend(timeline_text(d, lang))
        instr = d.result.get("instructor") or {}
        if instr.get("activity_days"):
            items.append(instructor_note(instr, lang))
        br = Table(title=lbl("breakdown", lang), box=box.SIMPLE)
        br.add_column(lbl("source", lang))
        br.add_column(lbl("days", lang), justify="right")
        for source, n in breakdown_rows(d, lang):
            br.add_row(source, str(n))
        if not breakdown_rows(d, lang):
            br.add_row(lbl("none", lang), "0")
        items.append(br)
        if d.result["counted_periods"]:
            pt = Table(title=lbl("periods", lang), box=box.SIMPLE)
            for col in ("from", "to", "days", "source", "category"):
                pt.add_column(lbl(col, lang), justify="right" if col == "days" else "left")
            for p in d.result["counted_periods"]:
                pt.add_row(fmt_date(p["from"], lang), fmt_date(p["to"], lang), str(p["days"]),
                           source_label(p["source"], lang), p["category"])
            items.append(pt)
        ex = Table(title=lbl("excluded", lang), box=box.SIMPLE)
        for col in ("from", "to", "days", "reason", "basis"):
            ex.add_column(lbl(col, lang), justify="right" if col == "days" else "left")
        for first, last, n, reason, _text, cite in excluded_rows(d, lang):
            ex.add_row(first, last, str(n), reason, cite)
        if not d.result["excluded"]:
            ex.add_row("—", "—", "0", lbl("none", lang), "")
        items.append(ex)
    items.extend(common_text_blocks(d, lang))
    return render_rich(*items, width=width)


def timeline_svg(d: Decision, lang: str) -> str:
    """An inline SVG timeline: one row per month, one square per day, coloured by status."""
    months = timeline(d)
    if not months:
        return ""
    cell, gap, left, top = 14, 2, 64, 16
    width = left + 31 * (cell + gap) + 40
    height = top + len(months) * (cell + gap) + 4
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'role="img" aria-label="{lbl("timeline_html", lang)}" '
             f'style="font: 10px sans-serif">']
    for i in (1, 5, 10, 15, 20, 25, 30):
        x = left + (i - 1) * (cell + gap) + cell / 2
        parts.append(f'<text x="{x}" y="11" text-anchor="middle" fill="#555">{i}</text>')
    for row, mo in enumerate(months):
        y = top + row * (cell + gap)
        parts.append(f'<text x="0" y="{y + cell - 3}">{mo.label}</text>')
        for i, code in enumerate(mo.codes):
            x = left + i * (cell + gap)
            day = dt.date(mo.year, mo.month, i + 1)
            what = (lbl("none_day", lang) if code == "" else source_label(code, lang)
                    if code in COUNTED else reason_label(code, lang))
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                         f'fill="{COLOURS[code]}"><title>{fmt_date(day, lang)}: {what}'
                         '</title></rect>')
        parts.append(f'<text x="{left + 31 * (cell + gap) + 4}" y="{y + cell - 3}">'
                     f'{mo.counted}</text>')
    parts.append("</svg>")
    return "".join(parts)


def html_report(d: Decision, lang: str = "pt") -> str:
    """The HTML report (``templates/sea_time.html.j2``)."""
    months = timeline(d)
    return render_html(
        "sea_time.html.j2", lang, d=d, r=d.result, lbl=lbl, title=lbl("title", lang),
        summary=summary_rows(d, lang),
        breakdown=breakdown_rows(d, lang) if d.verdict.value == "computed" else [],
        excluded=excluded_rows(d, lang) if d.verdict.value == "computed" else [],
        periods=d.result.get("counted_periods", []), source_label=source_label,
        reason_label=reason_label, instructor_note=instructor_note, svg=timeline_svg(d, lang),
        legend=[(COLOURS[c], label) for c, _, label in legend(months, lang)],
    )


def pdf_report(d: Decision, lang: str = "pt") -> bytes:
    """The HTML report printed to PDF with WeasyPrint."""
    from weasyprint import HTML

    pdf: bytes = HTML(string=html_report(d, lang)).write_pdf()
    return pdf


def json_report(d: Decision, lang: str = "pt") -> str:
    """The decision as JSON (dates ISO, Decimals as strings)."""
    return json.dumps(d.to_json(lang), ensure_ascii=False, indent=2)

"""Crew-quota section of the reports (text and HTML) — renders the engine's Decision only."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from abordo.faces.reports.blocks import common_text_blocks, result_line, t
from abordo.faces.reports.format import fmt_date, fmt_fraction
from abordo.law.decision import Decision
from abordo.law.labels import label
from abordo.quota.rules import group_label

L = {
    "title": ("Cota de brasileiros a bordo", "Quota of Brazilians aboard"),
    "group": ("grupo", "group"), "base": ("base", "base"),
    "required": ("exigidos", "required"), "brazilians": ("brasileiros", "Brazilians"),
    "deficit": ("déficit", "deficit"), "stay": ("Estada em AJB", "Stay in AJB"),
    "since": ("desde", "since"), "from": ("a partir de", "from"),
    "ended": ("— encerrada em", "— ended on"),
    "days": ("dias de operação", "days of operation"), "day_unit": ("dias", "days"),
    "step": ("Etapa em vigor", "Step in force"), "next": ("Próxima etapa", "Next step"),
    "rule": ("Regra aplicável", "Applicable rule"),
    "none": ("nenhuma", "none"), "positions": ("Comandante e chefe de máquinas",
                                               "Master and chief engineer"),
    "consequences": ("Consequências", "Consequences"), "plan": ("Plano de etapas", "Step plan"),
    "date": ("data", "date"), "fraction": ("fração", "fraction"),
    "from_day": ("a partir de", "from"), "threshold": ("etapa", "step"),
    "status": ("situação", "status"),
    "alternative": ("Leitura alternativa dos grupos", "Alternative group reading"),
    "outside": ("Fora das AJB desde", "Outside AJB since"),
    "return_by": ("a contagem prossegue se a embarcação reentrar até",
                  "the count goes on if the vessel re-enters by"),
    "req_short": ("exig.", "req."), "braz_short": ("bras.", "Braz."),
    "cells": ("exig. = brasileiros exigidos; bras. = brasileiros a bordo (tripulação atual)",
              "req. = Brazilians required; Braz. = Brazilians aboard (current crew)"),
}


def lbl(key: str, lang: str) -> str:
    pt, en = L[key]
    return en if lang == "en" else pt


def groups_table(rows: list[dict[str, Any]], lang: str, title: str | None = None) -> Table:
    table = Table(title=title)
    for col in ("group", "base", "required", "brazilians", "deficit"):
        table.add_column(lbl(col, lang), justify="left" if col == "group" else "right")
    for g in rows:
        table.add_row(f"{group_label(g['group'], lang)} ({g['group']})", str(g["base"]),
                      str(g["required"]), str(g["brazilians"]),
                      str(g["deficit"]) if g["deficit"] else "—")
    return table


def quota_text_blocks(d: Decision, lang: str, with_basis: bool = True) -> list[Any]:
    """The quota section as Rich renderables."""
    r = d.result
    out: list[Any] = [f"\n== {lbl('title', lang)} ==",
                      result_line(d, lang)]
    if d.regime:
        out.append(f"{t('regime', lang)}: {r.get('regime_label', d.regime)} ({d.regime})")
    rule = r.get("rule")
    if rule:  # a rule with no step (REB: the positions alone), stated as a step is
        out.append(f"{lbl('rule', lang)}: {rule['text'].get(lang)} — {rule['citation'].label}")
    stay = r.get("stay")
    if stay:
        cite = next((s.citation.label for s in d.trace if s.rule == "stay.days" and s.citation),
                    "")
        ended = (f" {lbl('ended', lang)} {fmt_date(stay['ended_on'], lang)}"
                 if stay.get("ended_on") else "")
        out.append(f"{lbl('stay', lang)}: {lbl('since', lang)} {fmt_date(stay['start'], lang)}"
                   f"{ended}, {stay['days_of_operation']} {lbl('days', lang)}"
                   + (f" [{cite}]" if cite else ""))
        if stay.get("return_by"):
            # A tolerated absence under way: until when the vessel may come back without
            # restarting the count (the exit rule's tolerance, from the regime's data).
            absence = next((s for s in d.trace if s.rule == "stay.absence"), None)
            rule = f" [{absence.citation.label}]" if absence and absence.citation else ""
            out.append(f"{lbl('outside', lang)} {fmt_date(stay['outside_since'], lang)}: "
                       f"{lbl('return_by', lang)} "
                       f"{fmt_date(stay['return_by'], lang)}{rule}")
    step = r.get("step")
    if step:
        since = f" {lbl('since', lang)} {fmt_date(step['since'], lang)}" if step.get("since") \
            else ""
        # the norm's own words where it says "more than N days" (RN 71/2006: the 31st day)
        words = step.get("threshold")
        start = f" ({words.get(lang)})" if words else \
            f" ({lbl('from_day', lang)} {step['from_day']} {lbl('day_unit', lang)})" \
            if step["from_day"] else ""
        out.append(f"{lbl('step', lang)}: {fmt_fraction(step['fraction'])}{start}{since} — "
                   f"{step['citation'].label}")
    if r.get("groups"):
        out.append(groups_table(r["groups"], lang))
    for p in r.get("positions", []):
        who = p["person"] or "?"
        ok = {True: "✓", False: "✗", None: "?"}[p["brazilian"]]
        out.append(f"  {ok} {label(p['position'], lang)}: {who} {p.get('nationality') or ''}")
    nxt = r.get("next_step")
    if nxt:
        need = ", ".join(f"{group_label(g['group'], lang)} {g['required']}"
                         for g in nxt["groups"])
        out.append(f"{lbl('next', lang)}: {fmt_fraction(nxt['fraction'])} "
                   f"{lbl('from', lang)} {fmt_date(nxt['since'], lang)} — "
                   f"{lbl('required', lang)}: {need} [{nxt['citation'].label}]")
    elif "next_step" in r:
        out.append(f"{lbl('next', lang)}: {lbl('none', lang)}")
    alt = r.get("alternative")
    if alt and alt["changes_verdict"]:
        out.append(groups_table(alt["groups"], lang,
                                f"{lbl('alternative', lang)} ({alt['reading']})"))
    for c in r.get("consequences", []):
        out.append(f"{lbl('consequences', lang)}: {c['text'].get(lang)} "
                   f"[{'; '.join(x.label for x in c['citations'])}]")
    out.extend(common_text_blocks(d, lang, with_basis=with_basis))
    return out


def plan_table(d: Decision, lang: str) -> Table:
    rows = d.result.get("plan", [])
    table = Table(title=lbl("plan", lang), caption=lbl("cells", lang))
    table.add_column(lbl("date", lang))
    table.add_column(lbl("threshold", lang), justify="right")
    table.add_column(lbl("fraction", lang), justify="right")
    groups = [g["group"] for g in rows[0]["groups"]] if rows else []
    for g in groups:
        table.add_column(group_label(g, lang), justify="right")
    table.add_column(lbl("deficit", lang), justify="right")
    table.add_column(lbl("status", lang))
    # Each group's cell names its two numbers, one a line ("exig. 1" over "bras. 2"): a bare
    # "1/2" beside the fraction column would read as a fraction.
    req, braz = lbl("req_short", lang), lbl("braz_short", lang)
    for row in rows:
        cells = [f"{req} {x['required']}\n{braz} {x['brazilians']}" for x in row["groups"]]
        table.add_row(fmt_date(row["since"], lang), row["threshold_days"].get(lang),
                      fmt_fraction(row["fraction"]), *cells, str(row["total_deficit"]),
                      label(row["status"], lang) + (" *" if row["extended"] else ""))
    return table

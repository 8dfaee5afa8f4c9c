"""Rendering of the parts every decision shares: findings, citations, interpretations,
unconfirmed parameters and the trace — in text (Rich) and HTML (Jinja2). Engines' reports
add their own tables around these blocks; nothing here knows a rule."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from rich.console import Console, RenderableType
from rich.table import Table

from abordo.faces.reports.format import fmt_date, fmt_money, fmt_number
from abordo.law.decision import Citation, Decision, Interpretation, verdict_label
from abordo.law.labels import label

T = {
    "findings": ("Constatações", "Findings"),
    "citations": ("Fundamentação legal", "Legal basis"),
    "interpretations": ("Interpretações adotadas", "Interpretations used"),
    "unconfirmed": ("Parâmetros não confirmados", "Unconfirmed parameters"),
    "trace": ("Como se chegou ao resultado", "How the result was reached"),
    "verdict": ("Resultado", "Result"),
    "regime": ("Norma aplicada", "Norm applied"),
    "not_covered": ("Não coberto", "Not covered"),
    "none": ("nenhuma", "none"),
    "violation": ("infração", "violation"),
    "warning": ("alerta", "warning"),
    "info": ("informação", "info"),
    "default": ("padrão", "default"),
    "caller": ("escolhida", "chosen"),
    "norm": ("texto da norma", "the norm's text"),
    "alternatives": ("alternativas", "alternatives"),
}


def t(key: str, lang: str) -> str:
    pt, en = T[key]
    return en if lang == "en" else pt


def render_rich(*items: RenderableType, width: int = 110) -> str:
    """Render Rich renderables to plain text (no colour codes)."""
    # markup=False: user text ("Star [red] One", a crew id "[b]A") is printed as written.
    console = Console(width=width, record=True, color_system=None, file=io.StringIO(),
                      markup=False)
    for item in items:
        # Plain strings are printed verbatim: "[padrão]" is text, not Rich markup.
        console.print(item, markup=False, highlight=False)
    return console.export_text()



def result_line(decision: Decision, lang: str) -> str:
    """``Resultado: NÃO CONFORME — <summary>``, the summary's own leading verdict word left
    out (``Não conforme: …`` would say it twice)."""
    word = verdict_label(decision.verdict, lang)
    summary = decision.summary.get(lang)
    if summary.casefold().startswith(word.casefold()):
        summary = summary[len(word):].lstrip(" :—-")
        if summary.startswith("(") and (close := summary.find(")")) > 0:
            summary = summary[1:close] + summary[close + 1:]  # "(norm) — …" → "norm — …"
    head = f"{t('verdict', lang)}: {word.upper()}"
    return f"{head} — {summary}" if summary else head


def common_text_blocks(decision: Decision, lang: str, with_trace: bool = True,
                       with_basis: bool = True) -> list[RenderableType]:
    """Findings, unconfirmed parameters, trace, then — last, as every report ends — the
    norms cited and the interpretations used (``with_basis``; a report of several decisions
    lists them once at its end instead, :func:`basis_text_blocks`)."""
    out: list[RenderableType] = []
    reason = decision.not_covered_reason.get(lang) if decision.not_covered_reason else None
    if reason and reason not in decision.summary.get(lang):  # said once, in the result line
        out.append(f"{t('not_covered', lang)}: {reason}")
    if decision.findings:
        out.append(f"\n{t('findings', lang)}:")
        for f in decision.findings:
            cite = f" [{f.citation.label}]" if f.citation else ""
            out.append(f"  • ({t(f.severity, lang)}) {f.text.get(lang)}{cite}")
    if decision.unconfirmed:
        out.append(f"\n{t('unconfirmed', lang)}:")
        for u in decision.unconfirmed:
            out.append(f"  • {u.name} = {u.value.get(lang)} — {u.source.get(lang)}")
    if with_trace and decision.trace:
        table = Table(title=t("trace", lang), show_lines=False, expand=False)
        table.add_column("#", justify="right")
        table.add_column("regra" if lang == "pt" else "rule")
        table.add_column("passo" if lang == "pt" else "step")
        for n, step in enumerate(decision.trace, 1):
            table.add_row(str(n), step.rule, step.text.get(lang))
        out.append("")
        out.append(table)
    if with_basis:
        out.extend(basis_text_blocks([decision], lang))
    return out


def merged_basis(decisions: Sequence[Decision]) -> tuple[list[Citation], list[Interpretation]]:
    """The citations and interpretations of ``decisions``, each once, in order of use."""
    cites: dict[tuple[str, str], Citation] = {}
    interps: dict[str, Interpretation] = {}
    for d in decisions:
        for c in d.citations:
            cites.setdefault(c.key(), c)
        for i in d.interpretations:
            interps.setdefault(i.id, i)
    return list(cites.values()), list(interps.values())


def basis_text_blocks(decisions: Sequence[Decision], lang: str) -> list[RenderableType]:
    """The norms cited and the interpretations used by ``decisions`` (the end of a report)."""
    citations, interpretations = merged_basis(decisions)
    out: list[RenderableType] = []
    if citations:
        out.append(f"\n{t('citations', lang)}:")
        for c in citations:
            out.append(f"  • {c.label}  <{c.urn}>")
    out.append(f"\n{t('interpretations', lang)}:")
    if not interpretations:
        out.append(f"  {t('none', lang)}")
    for i in interpretations:
        alts = (f" ({t('alternatives', lang)}: {', '.join(i.alternatives)})"
                if i.alternatives else "")
        out.append(f"  • {i.id} [{t(i.chosen_by, lang)}]: {i.text.get(lang)}{alts}")
    return out


@cache
def jinja_env() -> Environment:
    """The report templates' environment, with the pt-BR/en formatting filters."""
    env = Environment(
        loader=PackageLoader("abordo.faces.reports", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["date"] = fmt_date
    env.filters["money"] = fmt_money
    env.filters["number"] = fmt_number
    env.globals["t"] = t
    env.globals["verdict_label"] = verdict_label
    env.globals["group_label"] = _group_label
    env.globals["label"] = label
    return env


def _group_label(group: str, lang: str) -> str:
    from abordo.quota.rules import group_label

    return group_label(group, lang)


def render_html(template: str, lang: str, **context: Any) -> str:
    """Render ``templates/<template>`` with ``lang`` and the context."""
    return jinja_env().get_template(template).render(lang=lang, **context)

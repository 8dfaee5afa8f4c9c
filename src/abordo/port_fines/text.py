"""Words of the port-fines engine: labels in pt/en, BRL formatting for messages, and the
justification skeleton of Portaria MTE nº 746/2000 art. 6 (Portuguese: it is the text the
Delegado Regional do Trabalho completes and signs)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from abordo.law.decision import Msg
from abordo.law.text import br_date, whole
from abordo.port_fines.rules import Cell

EXTENT = {"light": Msg("leve", "light"), "medium": Msg("média", "medium"),
          "severe": Msg("grave", "severe")}
INTENT = {True: Msg("com intenção", "with intent"), False: Msg("sem intenção", "without intent")}
CAUSES = {
    "recidivism": Msg("reincidência", "recidivism"),
    "obstruction": Msg("oposição à fiscalização", "obstruction of the inspection"),
    "contempt": Msg("desacato à autoridade", "contempt of the inspector"),
}


def brl(value: Decimal, lang: str = "pt") -> str:
    """``R$ 1.234,56`` (pt) or ``R$1,234.56`` (en) — the same shapes as the reports' Babel
    formatting, without making the engine depend on the faces."""
    s = f"{value:,.2f}"
    if lang == "en":
        return f"R${s}"
    return "R$ " + s.replace(",", "_").replace(".", ",").replace("_", ".")


def d_pt(day: dt.date) -> str:
    return br_date(day)


def split_entry(label: str) -> tuple[str, str | None]:
    """A catalogue entry's citation label split into the legal provision and the entry's
    own closing parenthesis: ``Lei nº 9.719/1998, art. 9º (normas de saúde)`` →
    (``Lei nº 9.719/1998, art. 9º``, ``normas de saúde``); a label without one → (label,
    None)."""
    head, sep, tail = label.rstrip().removesuffix(")").rpartition(" (")
    if not sep or not label.rstrip().endswith(")") or "(" in tail or ")" in tail:
        return label, None
    return head, tail


def entry_label(label: str) -> str:
    """A catalogue entry's citation as a practitioner writes it in running text: the label's
    closing parenthesis becomes a dash — ``Lei nº 9.719/1998, art. 9º (normas de saúde)`` →
    ``Lei nº 9.719/1998, art. 9º — normas de saúde`` — so that it can itself stand between
    parentheses. A label without one is returned as it is."""
    head, tail = split_entry(label)
    return label if tail is None else f"{head} — {tail}"


def cell_rule(cell: Cell) -> Msg:
    """The Annex II wording of a cell: "Multa mínima", "Até k vezes…", "Multa máxima"."""
    if cell.marker == "min":
        return Msg("multa mínima", "minimum fine")
    if cell.marker == "max":
        return Msg(f"multa máxima ({cell.multiple} × o mínimo)",
                   f"maximum fine ({cell.multiple} × the minimum)")
    return Msg(f"até {cell.multiple} vezes o valor da multa mínima",
               f"up to {cell.multiple} times the minimum fine")


@dataclass(frozen=True)
class JustificationFacts:
    """What the skeleton needs; amounts in BRL (per worker where ``per_worker``)."""

    provision_label: str
    description: str
    date: dt.date
    nature: int
    nature_from_caller: bool
    extent: str
    extent_facts: str | None
    intent: bool
    intent_facts: str | None
    workers: int | None
    per_worker: bool
    cell: Cell
    graded: Decimal
    chosen_reason: str | None
    modifiers: tuple[str, ...]
    unit_value: Decimal
    multiplier: int
    amount: Decimal
    amount_basis: str


EXTENT_PLACEHOLDER = (
    "[descrever os efeitos da infração em prejuízo dos trabalhadores e/ou do sistema de "
    "organização e administração da mão de obra do trabalho portuário — art. 3º, II]"
)
NATURE_CHECK = "[conferir a natureza no texto oficial do Anexo I — art. 3º, I]"
INTENT_PLACEHOLDER = (
    "[indicar os motivos da prática, apurados pelos antecedentes do infrator e pelos meios ao "
    "seu alcance para cumprir a lei — art. 3º, III]"
)


def justification(f: JustificationFacts) -> str:
    """Portaria 746/2000 art. 6: the Delegado motivates the extent and the intent.

    Returns a Portuguese skeleton filled with the facts given; bracketed parts are for the
    authority to complete.
    """
    per = " por trabalhador" if f.per_worker else ""
    # Art. 3º, I: the nature is Annex I's. Where the reference text lacks the column the
    # nature came with the input: the decision still cites Annex I (where the nature is
    # set), and a bracket asks the authority to check it there — the report says why.
    nature_check = f" {NATURE_CHECK}" if f.nature_from_caller else ""
    lines = [
        "FUNDAMENTAÇÃO DA GRADAÇÃO DA MULTA (Portaria MTE nº 746/2000, art. 6º)",
        "",
        f"1. Infração: {f.provision_label} — {f.description} Data da infração: {d_pt(f.date)}.",
        f"2. Natureza: {f.nature} (Anexo I).{nature_check}",
        f"3. Extensão: {EXTENT[f.extent].pt}. {f.extent_facts or EXTENT_PLACEHOLDER}",
    ]
    if f.per_worker and f.workers:
        lines.append(
            f"   O número de trabalhadores em situação irregular ({whole(f.workers)}) não foi "
            "considerado na avaliação da extensão (art. 5º)."
        )
    lines += [
        f"4. Intenção: {INTENT[f.intent].pt}. {f.intent_facts or INTENT_PLACEHOLDER}",
        f"5. Enquadramento: célula {f.cell.code} do Anexo II, natureza {f.nature} — "
        f"{cell_rule(f.cell).pt}: de {brl(f.cell.low)} a {brl(f.cell.ceiling)}{per}.",
    ]
    if f.chosen_reason:
        lines.append(
            f"6. Valor fixado: {brl(f.graded)}{per}, abaixo do teto de {brl(f.cell.ceiling)}, "
            f"pelo seguinte motivo: {f.chosen_reason}"
            + ("" if f.chosen_reason.rstrip().endswith((".", "!", "?")) else ".")
        )
    else:
        lines.append(f"6. Valor fixado: {brl(f.graded)}{per} (teto da célula).")
    n = 7
    for text in f.modifiers:
        lines.append(f"{n}. {text}")
        n += 1
    if f.per_worker:
        lines.append(
            f"{n}. Valor da multa: {brl(f.unit_value)} × {whole(f.multiplier)} "
            f"{'trabalhador' if f.multiplier == 1 else 'trabalhadores'} em "
            f"situação irregular = {brl(f.amount)} ({f.amount_basis})."
        )
    else:
        lines.append(f"{n}. Valor da multa: {brl(f.amount)}, por infração ({f.amount_basis}).")
    return "\n".join(lines)

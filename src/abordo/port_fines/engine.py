"""``grade()``: one port-labour infraction graded under Portaria MTE nº 746/2000.

Order of the computation (shared spec ``port-fines.md``): provision and its Annex I range →
norm in force on the infraction date → nature → Annex II cell and its ceiling → value (the
ceiling, or the authority's reasoned choice) → art. 4 minimum → art. 2 doubling → per-worker
multiplication (Lei 9.719 art. 10, III) → art. 6 justification skeleton.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pydantic import ValidationError

from abordo.law.decision import (
    Citation,
    Decision,
    DecisionBuilder,
    Finding,
    Interpretation,
    Msg,
    UnconfirmedParameter,
    Verdict,
)
from abordo.law.errors import InputError
from abordo.law.interpretations import catalogue as interpretation_catalogue
from abordo.law.interpretations import check_options, report_unused_options, resolve
from abordo.law.norms import NormRegistry, norm_registry
from abordo.law.params import dated_value
from abordo.law.text import listing, whole
from abordo.law.validation import input_error_from_pydantic
from abordo.port_fines import rules
from abordo.port_fines.catalogue import (
    CENT,
    PACKAGE,
    Catalogue,
    Provision,
    amount_updates,
    gradation_versions,
)
from abordo.port_fines.catalogue import load_catalogue as _load_catalogue
from abordo.port_fines.model import FineInput, PriorPenalty
from abordo.port_fines.text import (
    CAUSES,
    EXTENT,
    INTENT,
    JustificationFacts,
    brl,
    cell_rule,
    d_pt,
    entry_label,
    justification,
    split_entry,
)

ENGINE = "port_fine"
NORM = "mte-portaria-746-2000"
LEI_9719 = "lei-9719-1998"
# The gradation acts for Lei 9.719 fines, in time order (norms.md): only the first is modelled.
GRADATION_NORMS = ["mte-portaria-746-2000", "mte-portaria-112-2012", "mtp-portaria-667-2021"]
FAMILIES = ("fines.cell", "fines.max_cell", "fines.double", "fines", "fines.recidivism")


def parse_input(data: Mapping[str, Any] | FineInput) -> FineInput:
    """Validate ``data`` against :class:`FineInput`; :class:`InputError` naming the field."""
    if isinstance(data, FineInput):
        return data
    try:
        return FineInput.model_validate(data)
    except ValidationError as exc:
        raise input_error_from_pydantic(exc) from None


def normalize_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Options as ``{family: variant}``; an interpretation may also be named by its id.

    ``{"fines": "minimum.final"}``, ``{"fines": "fines.minimum.final"}`` and
    ``{"fines.minimum": "final"}`` all choose ``fines.minimum.final``. Anything that names no
    interpretation is left as given, for :func:`check_options` / :func:`resolve` to reject.
    """
    cat = interpretation_catalogue(PACKAGE)
    out: dict[str, Any] = {}
    for key, value in (options or {}).items():
        key = str(key)
        if not isinstance(value, str):
            out[key] = value
            continue
        full = value if value.startswith(f"{key}.") else f"{key}.{value}"
        matched = False
        for family in sorted(cat, key=len, reverse=True):
            rest = full.removeprefix(f"{family}.")
            if full.startswith(f"{family}.") and rest in cat[family]["variants"]:
                out[family] = rest
                matched = True
                break
        if not matched:
            out[key] = value
    return out


def _provision(cat: Catalogue, provision_id: str, field: str) -> Provision:
    prov = cat.get(provision_id)
    if prov is None:
        close = difflib.get_close_matches(provision_id, cat.ids, n=3, cutoff=0.6)
        hint_pt = f"; talvez: {', '.join(close)}" if close else ""
        hint_en = f"; did you mean: {', '.join(close)}" if close else ""
        raise InputError(
            f"dispositivo desconhecido '{provision_id}': não consta do Anexo I da Portaria MTE "
            f"nº 746/2000 (veja `abordo fine --list`){hint_pt}",
            field,
            message_en=f"unknown provision '{provision_id}': not in Annex I of Portaria MTE "
            f"746/2000 (see `abordo fine --list`){hint_en}",
        )
    return prov


@dataclass(frozen=True)
class _Cites:
    """Every citation the grading of one provision can use."""

    provision: Citation
    basis: Citation
    via: Citation | None
    annex1: Citation
    annex2: Citation
    art2: Citation
    art3_extent: Citation
    art3_intent: Citation
    art3_recidivism: Citation
    art3_obstruction: Citation
    art3_contempt: Citation
    art4: Citation
    art5: Citation
    art6: Citation
    lei810: Citation
    lei810_art3: Citation

    @property
    def range(self) -> list[Citation]:
        """The range of Annex I, set by Lei 9.719 art. 10 (via art. 11 for Lei 8.630)."""
        return [self.annex1, self.basis, *([self.via] if self.via else [])]


def _cites(reg: NormRegistry, prov: Provision) -> _Cites:
    def p(provision: str) -> Citation:
        return reg.cite(NORM, provision)

    return _Cites(
        provision=reg.cite(prov.citation.norm, prov.citation.provision),
        basis=reg.cite(LEI_9719, prov.fine_basis),
        via=reg.cite(LEI_9719, prov.via) if prov.via else None,
        annex1=p("Anexo I"), annex2=p("Anexo II"), art2=p("art. 2º"),
        art3_extent=p("art. 3º, II"), art3_intent=p("art. 3º, III"),
        art3_recidivism=p("art. 3º, IV"), art3_obstruction=p("art. 3º, V"),
        art3_contempt=p("art. 3º, VI"), art4=p("art. 4º"), art5=p("art. 5º"),
        art6=p("art. 6º"),
        lei810=reg.cite("lei-810-1949", "art. 1º"),
        lei810_art3=reg.cite("lei-810-1949", "art. 3º"),
    )


def _unknown_provisions(data: Mapping[str, Any], cat: Catalogue) -> list[InputError]:
    """Unknown provision ids in the raw input, to list with its other errors at once."""
    found: list[tuple[Any, str]] = []
    inf = data.get("infraction")
    if isinstance(inf, Mapping):
        found.append((inf.get("provision"), "infraction.provision"))
    off = data.get("offender")
    priors = off.get("prior_penalties") if isinstance(off, Mapping) else None
    if isinstance(priors, list):
        found += [(p.get("provision"), f"offender.prior_penalties[{i}].provision")
                  for i, p in enumerate(priors) if isinstance(p, Mapping)]
    out = []
    for value, where in found:
        if isinstance(value, str) and value.strip():
            try:
                _provision(cat, value.strip(), where)
            except InputError as exc:
                out.append(exc)
    return out


def grade(data: Mapping[str, Any] | FineInput, options: Mapping[str, Any] | None = None, *,
          catalogue: Catalogue | None = None, judged_on: dt.date | None = None) -> Decision:
    """Grade one infraction of Lei 9.719/1998 under Portaria MTE nº 746/2000.

    ``data``: the input of :mod:`abordo.port_fines.model` (dict or :class:`FineInput`).
    ``options``: interpretation choices, e.g. ``{"fines": "minimum.final"}``.
    ``catalogue``: an Annex I catalogue to use instead of the shipped one (tests).
    ``judged_on``: the date the grading is made (the faces give today; None: not checked).
    The engine reads no clock: with it, an infraction or a prior penalty dated after it —
    facts that have not happened yet — is an input error.

    Returns a :class:`Decision` with verdict ``computed`` (``result`` holds the range, cell,
    modifiers, per-worker value and total ``amount``, all ``Decimal`` BRL to the centavo, and
    the art. 6 justification skeleton), or ``not_covered`` when the infraction date falls
    outside Portaria 746/2000 (2000-10-05 → 2012-01-22) or outside the provision's own force
    (Lei 8.630/1993 entries end on 2013-06-04).

    Raises :class:`InputError` naming the field: unknown provision (``infraction.provision``,
    ``offender.prior_penalties[i].provision``), missing or contradicting nature
    (``infraction.nature``), missing worker count on a per-worker provision
    (``infraction.workers``), correction without saying whether the infraction is sanable
    (``infraction.sanable``), a chosen value without reason or outside the cell
    (``grading.reason`` / ``grading.chosen_value``), unknown fields or bad values, unknown
    options (``options.<family>``), with ``judged_on`` an infraction date
    (``infraction.date``) or a penalty imposed (``offender.prior_penalties[i].imposed_on``)
    after it. (A penalty imposed after the infraction but not after ``judged_on`` is part of
    the offender's record: not prior to the infraction, it is traced and makes no
    recidivism.) An option the grading does not rest on is reported (finding
    ``option_not_applicable``, info).
    """
    opts = normalize_options(options)
    return report_unused_options(_grade(data, opts, catalogue, judged_on), opts)


def _not_yet_happened(fine: FineInput, judged_on: dt.date) -> list[InputError]:
    """Spec README rule 2: facts are judged on the date of the facts, and the caller gives the
    date judged (default today). A fine grades an infraction found, and recidivism rests on
    penalties already imposed: either dated after the date judged is a typo (2099 for 2009),
    not a hypothetical to grade under whichever norm is in force today."""
    on_pt, on_en = d_pt(judged_on), judged_on.isoformat()
    out = []
    inf = fine.infraction.date
    if inf > judged_on:
        out.append(InputError(
            f"data da infração ({d_pt(inf)}) posterior à data da gradação ({on_pt}): só se "
            "gradua infração já ocorrida", "infraction.date",
            message_en=f"infraction date ({inf.isoformat()}) after the date of the grading "
            f"({on_en}): only an infraction that has happened is graded"))
    for i, prior in enumerate(fine.offender.prior_penalties):
        if prior.imposed_on > judged_on:
            out.append(InputError(
                f"penalidade imposta em {d_pt(prior.imposed_on)}, depois da data da gradação "
                f"({on_pt}): informe só penalidades já impostas",
                f"offender.prior_penalties[{i}].imposed_on",
                message_en=f"penalty imposed on {prior.imposed_on.isoformat()}, after the date "
                f"of the grading ({on_en}): give only penalties already imposed"))
    return out


@dataclass
class _Grading:
    """What the stages of one grading share: the trace, the citations, the provision and the
    infraction, the per-worker wording, and the basis, modifiers and justification sentences
    gathered as the stages run (in the order the result lists them)."""

    b: DecisionBuilder
    c: _Cites
    prov: Provision
    fine: FineInput
    per: str  # " por trabalhador" when the fine is per worker (Lei 9.719 art. 10, III)
    per_en: str
    basis: dict[str, list[Citation]] = field(default_factory=dict)
    modifiers: list[dict[str, Any]] = field(default_factory=list)
    justification: list[str] = field(default_factory=list)

    @property
    def inf(self) -> Any:
        return self.fine.infraction


def _parsed(data: Mapping[str, Any] | FineInput, cat: Catalogue,
            judged_on: dt.date | None) -> FineInput:
    """The input read, every problem at once: the unknown provisions beside the field errors,
    then facts dated after the date judged."""
    try:
        fine = parse_input(data)
    except InputError as exc:
        more = _unknown_provisions(data, cat) if isinstance(data, Mapping) else []
        named = {e.field for e in [exc, *exc.details]}
        extra = [e for e in more if e.field not in named]
        if not extra:
            raise
        raise InputError.listing([exc, *exc.details, *extra]) from None
    if judged_on is not None and (future := _not_yet_happened(fine, judged_on)):
        raise InputError.listing(future)
    return fine


def _grade(data: Mapping[str, Any] | FineInput, opts: dict[str, Any],
           catalogue: Catalogue | None, judged_on: dt.date | None) -> Decision:
    cat = catalogue if catalogue is not None else _load_catalogue()
    fine = _parsed(data, cat, judged_on)
    check_options([PACKAGE], opts)
    chosen_interp: dict[str, Interpretation] = {f: resolve(PACKAGE, f, opts) for f in FAMILIES}
    inf = fine.infraction
    prov = _provision(cat, inf.provision, "infraction.provision")
    for i, prior in enumerate(fine.offender.prior_penalties):
        _provision(cat, prior.provision, f"offender.prior_penalties[{i}].provision")

    reg = norm_registry()
    c = _cites(reg, prov)
    g = _Grading(DecisionBuilder(ENGINE, inf.date), c, prov, fine,
                 " por trabalhador" if prov.per_worker else "",
                 " per worker" if prov.per_worker else "")
    b = g.b
    b.step("port_fines.provision",
           f"Dispositivo infringido: {c.provision.label} — {prov.description}",
           f"Provision breached: {c.provision.label} ({prov.id}).",
           c.provision, provision=prov.id, date=inf.date)

    # Tempus regit actum (spec README rule 2): the gradation act and the provision in force
    # on the infraction date; outside them the answer is not_covered, never a fallback.
    grad = dated_value(gradation_versions(), inf.date)
    if grad is None or not prov.in_force_on(inf.date):
        return _not_covered(b, reg, prov, c, inf.date, gradation_missing=grad is None)
    _trace_regime(b, reg, inf.date)
    amount_basis = f"{c.via.label} c/c {prov.fine_basis}" if c.via else c.basis.label
    b.step("port_fines.range",
           f"Faixa do Anexo I: {brl(prov.min)} a {brl(prov.max)}{g.per} ({amount_basis}).",
           f"Annex I range: {brl(prov.min, 'en')} to {brl(prov.max, 'en')}{g.per_en} "
           f"({amount_basis}).",
           c.basis, minimum=prov.min, maximum=prov.max, per_worker=prov.per_worker)
    b.cite(c.annex1)
    b.cite(c.via)

    # Nature (art. 3, I; Annex I). The seed's column is empty: the caller supplies it.
    nature, nature_from_caller = _nature(b, prov, inf.nature, c)
    _require_counts(g)
    cell, code, rule = _annex_ii_cell(g, grad.value, nature, chosen_interp)
    graded, chosen_reason = _graded_value(b, fine, cell, c, g.per, g.per_en)
    g.basis.update({
        "provision": [c.provision],
        "range": [c.annex2, *c.range],
        "ceiling": [c.annex2, c.art2],
        "graded_value": [c.annex2, c.art6] if chosen_reason else [c.annex2],
    })
    # The modifiers, in the order of the spec: art. 4 minimum, then art. 2 doubling (whose
    # recidivism cause comes from the prior penalties, art. 3, IV).
    unit, minimum_applied = _minimum(g, graded)
    recid = _recidivism(g, cat, chosen_interp["fines.recidivism"])
    unit, doubled, causes = _doubling(g, cat, unit, minimum_applied, recid, chosen_interp)
    multiplier, amount = _amount(g, unit, amount_basis)

    facts = inf.facts
    text_just = justification(JustificationFacts(
        provision_label=c.provision.label, description=prov.description, date=inf.date,
        nature=nature, nature_from_caller=nature_from_caller, extent=inf.extent,
        extent_facts=facts.extent if facts else None, intent=inf.intent,
        intent_facts=facts.intent if facts else None, workers=inf.workers,
        per_worker=prov.per_worker, cell=cell, graded=graded, chosen_reason=chosen_reason,
        modifiers=tuple(g.justification), unit_value=unit, multiplier=multiplier,
        amount=amount, amount_basis=amount_basis,
    ))
    b.step("port_fines.justification",
           "Minuta de fundamentação gerada; a autoridade deve completar e motivar a extensão e a "
           "intenção.",
           "Justification skeleton produced; the authority must complete it, motivating the "
           "extent and the intent.", c.art6)

    result: dict[str, Any] = {
        "provision": prov.id,
        "provision_label": c.provision.label,
        "description": prov.description,
        "date": inf.date,
        "nature": nature,
        "nature_source": "caller" if nature_from_caller else "catalogue",
        "extent": inf.extent,
        "intent": inf.intent,
        "cell": code,
        "cell_rule": rule,
        "multiple": cell.multiple,
        "minimum": prov.min,
        "maximum": prov.max,
        "range": [cell.low, cell.ceiling],
        "ceiling": cell.ceiling,
        "chosen_value": graded if chosen_reason else None,
        "chosen_reason": chosen_reason,
        "graded_value": graded,
        "minimum_applied": minimum_applied,
        "doubled": doubled,
        "doubling_causes": causes,
        "recidivism_from": recid.prior.imposed_on if recid else None,
        "recidivism": ({"provision": recid.prior.provision,
                        "imposed_on": recid.prior.imposed_on,
                        "window_end": recid.window_end} if recid else None),
        "per_worker": prov.per_worker,
        "workers": inf.workers,
        "multiplier": multiplier,
        "per_worker_value": unit,
        "amount": amount,
        "modifiers": g.modifiers,
        "justification": text_just,
        "basis": g.basis,
    }
    if prov.per_worker:
        summary = Msg(
            f"Multa de {brl(amount)} ({brl(unit)} por trabalhador × {whole(multiplier)}) — "
            f"{c.provision.label}, célula {code}.",
            f"Fine of {brl(amount, 'en')} ({brl(unit, 'en')} per worker × "
            f"{whole(multiplier, 'en')}) — "
            f"{c.provision.label}, cell {code}.")
    else:
        summary = Msg(f"Multa de {brl(amount)} — {c.provision.label}, célula {code}.",
                      f"Fine of {brl(amount, 'en')} — {c.provision.label}, cell {code}.")
    return b.build(Verdict.COMPUTED, NORM, summary, result=result)


def _trace_regime(b: DecisionBuilder, reg: NormRegistry, on: dt.date) -> None:
    """The gradation act in force on the infraction date, named with its window as the norms'
    register gives them (not restated here)."""
    act = reg[NORM]
    window = (f"{d_pt(act.in_force_from)} a {d_pt(act.in_force_to)}" if act.in_force_to
              else f"desde {d_pt(act.in_force_from)}")
    window_en = (f"{act.in_force_from.isoformat()} to {act.in_force_to.isoformat()}"
                 if act.in_force_to else f"since {act.in_force_from.isoformat()}")
    b.step("port_fines.regime",
           f"Em {d_pt(on)} vigorava a {act.label} ({window}), que gradua as multas "
           "variáveis da Lei nº 9.719/1998.",
           f"On {on.isoformat()} {act.label} ({window_en}) was in force, grading the "
           "variable fines of Lei 9.719/1998.",
           reg.cite(NORM, "art. 1º"))


def _require_counts(g: _Grading) -> None:
    """The facts the amount needs and no default may replace: the workers of a per-worker
    fine (Lei 9.719 art. 10, III; Portaria art. 5) and, for a correction, whether the
    infraction is sanable (art. 4)."""
    inf, prov, c = g.inf, g.prov, g.c
    if prov.per_worker and inf.workers is None:
        raise InputError(
            f"informe o número de trabalhadores em situação irregular: a multa de "
            f"{prov.id} é por trabalhador ({c.basis.label})",
            "infraction.workers",
            message_en=f"give the number of workers in irregular situation: the fine for "
            f"{prov.id} is per worker ({c.basis.label})",
        )
    if inf.corrected and inf.sanable is None:
        raise InputError(
            "informe se a infração é sanável (sanable: true/false): a correção só reduz a multa "
            "ao mínimo se a infração for sanável (Portaria MTE nº 746/2000, art. 4º)",
            "infraction.sanable",
            message_en="say whether the infraction is sanable (sanable: true/false): the "
            "correction lowers the fine to the minimum only for sanable infractions (art. 4)",
        )


def _annex_ii_cell(g: _Grading, value: dict[str, Any], nature: int,
                   chosen_interp: dict[str, Interpretation]) -> tuple[rules.Cell, str, Msg]:
    """The Annex II cell of (nature, extent, intent) — art. 3, I–III — with its rule in
    words; the number of workers does not enter the extent of a per-capita fine (art. 5)."""
    b, c, inf, prov = g.b, g.c, g.inf, g.prov
    code = rules.cell_code(inf.extent, inf.intent, value["legend"])
    max_fixed = chosen_interp["fines.max_cell"].variant == "fixed"
    cell = rules.annex_ii_cell(value["cells"], nature, code, prov, max_cell_fixed=max_fixed)
    b.interpret(chosen_interp["fines.cell"])
    if cell.marker == "max":
        b.interpret(chosen_interp["fines.max_cell"])
    rule = cell_rule(cell)
    b.step("port_fines.cell",
           f"Natureza {nature}, extensão {EXTENT[inf.extent].pt}, {INTENT[inf.intent].pt} → "
           f"célula {code} do Anexo II: {rule.pt}; faixa de {brl(cell.low)} a "
           f"{brl(cell.ceiling)}{g.per}.",
           f"Nature {nature}, {EXTENT[inf.extent].en} extent, {INTENT[inf.intent].en} → Annex "
           f"II cell {code}: {rule.en}; range {brl(cell.low, 'en')} to "
           f"{brl(cell.ceiling, 'en')}{g.per_en}.",
           c.annex2, cell=code, multiple=cell.multiple, low=cell.low, ceiling=cell.ceiling)
    b.cite(c.art2)
    b.cite(c.art3_extent)
    b.cite(c.art3_intent)
    if prov.per_worker:
        b.step("port_fines.extent_not_by_workers",
               f"O número de trabalhadores ({whole(inf.workers or 0)}) não entra na avaliação "
               "da extensão (multa per capita).",
               f"The number of workers ({whole(inf.workers or 0, 'en')}) is not used to assess "
               "the extent "
               "(per-capita fine).",
               c.art5, workers=inf.workers)
    return cell, code, rule


def _minimum(g: _Grading, graded: Decimal) -> tuple[Decimal, bool]:
    """Art. 4: a sanable infraction whose correction the defence proved → the minimum.
    Returns the value per worker after it and whether it applied."""
    inf, prov, c = g.inf, g.prov, g.c
    minimum_applied = bool(inf.sanable and inf.corrected)
    unit = prov.min if minimum_applied else graded
    if minimum_applied:
        text = Msg(
            f"Infração sanável, correção comprovada na defesa: multa no valor mínimo, "
            f"{brl(prov.min)}{g.per}.",
            f"Sanable infraction, correction proved in the defence: the minimum fine, "
            f"{brl(prov.min, 'en')}{g.per_en}.",
        )
        g.justification.append(
            f"Infração sanável e corrigida, conforme comprovado na defesa: aplica-se o valor "
            f"mínimo de {brl(prov.min)}{g.per} (art. 4º).")
        g.basis["minimum_applied"] = [c.art4]
    elif inf.corrected:
        text = Msg("Correção alegada, mas a infração não é sanável: o art. 4º não se aplica.",
                   "Correction claimed, but the infraction is not sanable: art. 4 does not apply.")
    elif inf.sanable:
        text = Msg("Infração sanável, mas a correção não foi comprovada na defesa: o art. 4º "
                   "não se aplica.",
                   "Sanable infraction, but the correction was not proved in the defence: art. 4 "
                   "does not apply.")
    else:
        text = Msg("Sem correção comprovada de infração sanável: o art. 4º não se aplica.",
                   "No proved correction of a sanable infraction: art. 4 does not apply.")
    g.b.step("port_fines.minimum", text.pt, text.en, c.art4, applied=minimum_applied,
             before=graded, after=unit)
    g.modifiers.append({"id": "minimum", "applied": minimum_applied, "before": graded,
                        "after": unit, "text": text, "citations": [c.art4]})
    return unit, minimum_applied


def _recidivism(g: _Grading, cat: Catalogue, reading: Interpretation
                ) -> rules.PriorCheck | None:
    """Recidivism (art. 3, IV) derived from the prior penalties: one on the same legal
    provision imposed within two years before the infraction. "Mesmo dispositivo legal": the
    catalogue entries sharing this one's legal provision count too, under the default
    reading (fines.recidivism)."""
    b, c, prov, fine = g.b, g.c, g.prov, g.fine
    inf = fine.infraction
    siblings = {p.id for p in cat if p.dispositivo == prov.dispositivo} - {prov.id}
    same = {prov.id} | (siblings if reading.variant == "same_legal_provision" else set())
    if any(p.provision in siblings for p in fine.offender.prior_penalties):
        b.interpret(reading)  # the reading decides only with a prior on a sibling entry
    recid, checks = rules.recidivism(fine.offender.prior_penalties, same, inf.date)
    for chk in checks:
        _trace_prior(b, chk, inf.date, c, _prior_on(chk.prior, prov, cat))
    for p in fine.offender.prior_penalties:
        if p.provision not in same:
            _trace_other_prior(b, c, p, _entry_name(cat, p.provision),
                               same_legal_provision=p.provision in siblings)
    if not checks and fine.offender.prior_penalties:
        if same == {prov.id} and not siblings:
            where = Msg(f"no mesmo dispositivo ({_entry_name(cat, prov.id)})",
                        f"on the same provision ({_entry_name(cat, prov.id)})")
        elif same == {prov.id}:  # fines.recidivism.same_catalogue_entry
            where = Msg(f"no mesmo item do Anexo I ({_entry_name(cat, prov.id)})",
                        f"on the same Annex I entry ({_entry_name(cat, prov.id)})")
        else:  # the entries sharing one legal provision (art. 9: health and safety)
            name = _legal_provision_name(c)
            where = Msg(f"no mesmo dispositivo legal ({name})",
                        f"on the same legal provision ({name})")
        b.step("port_fines.recidivism",
               f"Nenhuma penalidade anterior {where.pt}: não há reincidência.",
               f"No prior penalty {where.en}: no recidivism.",
               c.art3_recidivism)
    if recid is not None:
        where = _prior_on(recid.prior, prov, cat)
        b.finding(Finding(
            "recidivism",
            Msg(f"Reincidência: penalidade {where.pt} imposta em "
                f"{d_pt(recid.prior.imposed_on)}; prazo de 2 anos até "
                f"{d_pt(recid.window_end)}.",
                f"Recidivism: penalty {where.en} imposed on "
                f"{recid.prior.imposed_on.isoformat()}; two-year window until "
                f"{recid.window_end.isoformat()}."),
            c.art3_recidivism, severity="info", subject=prov.id))
    return recid


def _doubling(g: _Grading, cat: Catalogue, unit: Decimal, minimum_applied: bool,
              recid: rules.PriorCheck | None, chosen_interp: dict[str, Interpretation]
              ) -> tuple[Decimal, bool, list[str]]:
    """Art. 2: the fine doubled, once whatever the number of causes (recidivism, obstruction,
    contempt — art. 3, IV–VI); after the art. 4 minimum, by the reading ``fines``. Returns
    the value per worker after it, whether it doubled and the causes."""
    b, c, inf = g.b, g.c, g.inf
    causes = rules.doubling_causes(recid is not None, inf.obstruction, inf.contempt)
    order = chosen_interp["fines"]
    doubled = False
    before = unit
    cause_cites = {"recidivism": c.art3_recidivism, "obstruction": c.art3_obstruction,
                   "contempt": c.art3_contempt}
    causes_pt = listing([CAUSES[x].pt for x in causes], "pt")
    causes_en = listing([CAUSES[x].en for x in causes], "en")
    if causes and minimum_applied:
        b.interpret(order)  # the order of art. 4 and art. 2 matters only when both apply
    if causes and minimum_applied and order.variant == "minimum.final":
        text = Msg(f"Causa(s) de dobra ({causes_pt}) presentes, mas o valor mínimo do art. 4º "
                   "é definitivo: sem dobra.",
                   f"Doubling cause(s) ({causes_en}) present, but the art. 4 minimum is final: "
                   "not doubled.")
        g.justification.append(
            f"Presente(s) {causes_pt}, a multa não é dobrada: o valor mínimo do art. 4º é "
            "definitivo.")  # the reading (fines.minimum.final) is listed in the report
    elif causes:
        doubled = True
        unit = rules.money(unit * 2)
        b.interpret(chosen_interp["fines.double"])
        text = Msg(f"Multa em dobro por {causes_pt}: {brl(before)} × 2 = {brl(unit)}{g.per}"
                   + (" (uma única dobra, ainda que concorram várias causas)."
                      if len(causes) > 1 else "."),
                   f"Fine doubled for {causes_en}: {brl(before, 'en')} × 2 = "
                   f"{brl(unit, 'en')}{g.per_en}"
                   + (" (doubled once, though several causes concur)." if len(causes) > 1
                      else "."))
        rec_txt = ""
        if recid is not None:
            # The window's last day is recidivism too (Lei 810/1949; Código Civil art. 132):
            # the text the authority signs says so, not "less than 2 years" — on that day it
            # is exactly two. A sentence of its own, after the doubling: the prior's provision
            # may carry its own parenthesis, never nested in another.
            imp = recid.prior.imposed_on
            leap = ((", pois 29/02 não tem correspondente e o prazo vence em 1º de março",
                     "; Lei nº 810/1949, art. 3º")
                    if (imp.month, imp.day) == (2, 29) else ("", ""))
            where = _prior_on(recid.prior, g.prov, cat).pt
            rec_txt = (f" Reincidência: penalidade anterior {where}, imposta em {d_pt(imp)}; "
                       f"prazo de 2 anos da imposição até {d_pt(recid.window_end)}, "
                       f"inclusive{leap[0]} (art. 3º, IV{leap[1]}).")
        g.justification.append(
            f"Multa aplicada em dobro por {causes_pt}: {brl(before)} × 2 = "
            f"{brl(unit)}{g.per} (art. 2º).{rec_txt}")
        g.basis["doubled"] = [c.art2, *(cause_cites[x] for x in causes)]
    else:
        text = Msg("Sem reincidência, oposição à fiscalização ou desacato: sem dobra.",
                   "No recidivism, obstruction or contempt: not doubled.")
    b.step("port_fines.doubling", text.pt, text.en, c.art2, causes=causes, doubled=doubled,
           before=before, after=unit)
    for x in causes:
        b.cite(cause_cites[x])
    g.modifiers.append({"id": "doubling", "applied": doubled, "causes": causes,
                        "before": before, "after": unit, "text": text,
                        "citations": [c.art2, *(cause_cites[x] for x in causes)]})
    if recid is not None:
        g.basis["recidivism_from"] = [c.art3_recidivism, c.lei810]
    return unit, doubled, causes


def _amount(g: _Grading, unit: Decimal, amount_basis: str) -> tuple[int, Decimal]:
    """The amount: the value per worker times the workers in irregular situation (Lei 9.719
    art. 10, III; art. 11), or the value itself for a fine per infraction. Returns the
    multiplier and the amount (BRL)."""
    b, c, inf, prov = g.b, g.c, g.inf, g.prov
    multiplier, amount = rules.per_worker_total(unit, prov.per_worker, inf.workers)
    if prov.per_worker:
        b.step("port_fines.per_worker",
               f"Multa por trabalhador em situação irregular: {brl(unit)} × "
               f"{whole(multiplier)} = {brl(amount)}.",
               f"Fine per worker in irregular situation: {brl(unit, 'en')} × "
               f"{whole(multiplier, 'en')} = "
               f"{brl(amount, 'en')}.",
               c.basis, unit=unit, workers=multiplier, amount=amount)
    else:
        note_pt = note_en = ""
        if inf.workers == 1:
            note_pt = "; o trabalhador informado não multiplica a multa"
            note_en = "; the worker given does not multiply the fine"
        elif inf.workers:
            note_pt = (f"; os {whole(inf.workers)} trabalhadores informados não multiplicam a "
                       "multa")
            note_en = f"; the {whole(inf.workers, 'en')} workers given do not multiply the fine"
        b.step("port_fines.per_infraction",
               f"Multa por infração ({amount_basis}){note_pt}: {brl(amount)}.",
               f"Fine per infraction ({amount_basis}){note_en}: {brl(amount, 'en')}.",
               c.basis, unit=unit, amount=amount)
    g.basis["per_worker_value"] = [c.annex2, c.basis]
    g.basis["amount"] = [c.basis, *([c.via] if c.via else [])]
    return multiplier, amount


def _nature(b: DecisionBuilder, prov: Provision, given: int | None, c: _Cites
            ) -> tuple[int, bool]:
    """Portaria art. 3, I: the nature is Annex I's; while unknown there, the caller's."""
    known = prov.known_nature
    if known is None:
        if given is None:
            raise InputError(
                f"informe a natureza da infração (1, 2 ou 3): o Anexo I da Portaria MTE nº "
                f"746/2000 no texto de referência não traz a natureza de {prov.id}",
                "infraction.nature",
                message_en=f"give the nature of the infraction (1, 2 or 3): the reference text "
                f"of Annex I of Portaria MTE 746/2000 lacks the nature of {prov.id}",
            )
        b.unconfirmed(UnconfirmedParameter(
            f"natureza[{prov.id}]", Msg.same(str(given)),
            Msg("informada pelo usuário — a coluna \"Natureza\" do Anexo I não consta do texto "
                "de referência (DOU 05/10/2000)",
                "given by the user — the reference text of Annex I (DOU 05/10/2000) lacks its "
                "\"Natureza\" (nature) column"), NORM))
        b.finding(Finding(
            "nature_from_caller",
            Msg(f"Natureza {given} informada pelo usuário: o Anexo I disponível não traz a "
                "natureza deste dispositivo; confira-a no texto oficial.",
                f"Nature {given} given by the user: the available Annex I lacks this "
                "provision's nature; check it against the official text."),
            c.annex1, severity="warning", subject=prov.id))
        b.step("port_fines.nature",
               f"Natureza {given}, informada pelo usuário (o Anexo I de referência não a traz).",
               f"Nature {given}, given by the user (the reference Annex I lacks it).",
               c.annex1, nature=given, source="caller")
        return given, True
    if given is not None and given != known:
        raise InputError(
            f"natureza {given} contradiz o Anexo I, que classifica {prov.id} como natureza "
            f"{known}",
            "infraction.nature",
            message_en=f"nature {given} contradicts Annex I, which classifies {prov.id} as "
            f"nature {known}",
        )
    b.step("port_fines.nature", f"Natureza {known}, conforme o Anexo I.",
           f"Nature {known}, per Annex I.", c.annex1, nature=known, source="catalogue")
    return known, False


def _graded_value(b: DecisionBuilder, fine: FineInput, cell: rules.Cell, c: _Cites,
                  per: str, per_en: str) -> tuple[Decimal, str | None]:
    """The value fixed in the cell: the ceiling (``fines.cell.ceiling_default``) or the
    authority's reasoned choice within [low, ceiling] (Portaria arts. 2 and 6)."""
    chosen = fine.grading.chosen_value
    reason = (fine.grading.reason or "").strip() or None
    if chosen is None:
        if reason:
            raise InputError(
                "motivo informado sem valor escolhido: informe grading.chosen_value ou retire "
                "grading.reason",
                "grading.chosen_value",
                message_en="a reason was given without a chosen value: give "
                "grading.chosen_value or drop grading.reason",
            )
        b.step("port_fines.value",
               f"Valor sugerido: o teto da célula, {brl(cell.ceiling)}{per}.",
               f"Suggested value: the cell's ceiling, {brl(cell.ceiling, 'en')}{per_en}.",
               c.annex2, value=cell.ceiling)
        return cell.ceiling, None
    # Range first: a value far outside it (1e30) must not reach quantize().
    if not cell.low <= chosen <= cell.ceiling:
        raise InputError(
            f"valor escolhido {brl(chosen)} fora da faixa da célula {cell.code}: de "
            f"{brl(cell.low)} a {brl(cell.ceiling)}",
            "grading.chosen_value",
            message_en=f"chosen value {brl(chosen, 'en')} outside the range of cell {cell.code}: "
            f"{brl(cell.low, 'en')} to {brl(cell.ceiling, 'en')}",
        )
    if chosen != chosen.quantize(CENT):
        raise InputError(f"valor escolhido {chosen} tem mais de duas casas decimais (centavos)",
                         "grading.chosen_value",
                         message_en=f"chosen value {chosen} has more than two decimal places")
    chosen = chosen.quantize(CENT)
    if chosen != cell.ceiling and reason is None:
        raise InputError(
            f"valor abaixo do teto ({brl(chosen)} < {brl(cell.ceiling)}) exige o motivo "
            "(grading.reason), que será registrado (Portaria MTE nº 746/2000, art. 6º)",
            "grading.reason",
            message_en=f"a value below the ceiling ({brl(chosen, 'en')} < "
            f"{brl(cell.ceiling, 'en')}) needs a reason (grading.reason), which is recorded "
            "(art. 6)",
        )
    if chosen == cell.ceiling:
        b.step("port_fines.value",
               f"Valor escolhido igual ao teto da célula, {brl(chosen)}{per}.",
               f"Chosen value equal to the cell's ceiling, {brl(chosen, 'en')}{per_en}.",
               c.annex2, value=chosen)
        return chosen, None
    b.step("port_fines.value",
           f"Valor fixado pela autoridade abaixo do teto: {brl(chosen)}{per} (teto "
           f"{brl(cell.ceiling)}). Motivo registrado: {reason}",
           f"Value set by the authority below the ceiling: {brl(chosen, 'en')}{per_en} "
           f"(ceiling {brl(cell.ceiling, 'en')}). Recorded reason: {reason}",
           c.art6, value=chosen, ceiling=cell.ceiling, reason=reason)
    return chosen, reason


def _prior_on(prior: PriorPenalty, prov: Provision, cat: Catalogue) -> Msg:
    """Where a prior penalty lies: "no mesmo dispositivo", or — for a catalogue entry that
    shares this one's legal provision (art. 9: health / safety) — which entry it was."""
    if prior.provision == prov.id:
        return Msg("no mesmo dispositivo", "on the same provision")
    name = _entry_name(cat, prior.provision)
    return Msg(f"no mesmo dispositivo legal ({name})", f"on the same legal provision ({name})")


def _entry_name(cat: Catalogue, provision_id: str) -> str:
    """A catalogue entry named for people — law, article and, for art. 9, which rules:
    ``Lei nº 9.719/1998, art. 9º — normas de saúde`` (the id stays in the JSON fields)."""
    entry = cat.get(provision_id)
    if entry is None:  # not reached: prior penalties' provisions are checked on input
        return provision_id
    return entry_label(norm_registry().cite(entry.citation.norm,
                                            entry.citation.provision).label)


def _trace_other_prior(b: DecisionBuilder, c: _Cites, prior: PriorPenalty, name: str, *,
                       same_legal_provision: bool) -> None:
    """A prior penalty that is not on the infraction's provision: no recidivism (art. 3º,
    IV). On a sibling entry (same legal provision, another Annex I item: art. 9 health /
    safety) this happens only under fines.recidivism.same_catalogue_entry, and the text says
    what differs — the item, not the legal provision."""
    imp = prior.imposed_on
    if same_legal_provision:
        pt = (f"Penalidade anterior em outro item do Anexo I ({name}), imposta em {d_pt(imp)}: "
              "não gera reincidência — a opção escolhida exige o mesmo item do Anexo I, não só "
              "o mesmo dispositivo legal.")
        en = (f"Prior penalty on another Annex I entry ({name}), imposed on {imp.isoformat()}: "
              "no recidivism — the reading chosen requires the same Annex I entry, not only the "
              "same legal provision.")
    else:
        pt = (f"Penalidade anterior em outro dispositivo legal ({name}), imposta em "
              f"{d_pt(imp)}: não gera reincidência (exige-se o mesmo dispositivo legal).")
        en = (f"Prior penalty on another legal provision ({name}), imposed on "
              f"{imp.isoformat()}: no recidivism (the same legal provision is required).")
    b.step("port_fines.recidivism", pt, en, c.art3_recidivism, provision=prior.provision,
           imposed_on=imp,
           status="other_entry" if same_legal_provision else "other_provision")


def _legal_provision_name(c: _Cites) -> str:
    """The legal provision that several entries share, for people: the provision's label
    without its entry's own parenthesis (``Lei nº 9.719/1998, art. 9º``)."""
    return split_entry(c.provision.label)[0]


def _trace_prior(b: DecisionBuilder, chk: rules.PriorCheck, on: dt.date, c: _Cites,
                 where: Msg) -> None:
    imp = chk.prior.imposed_on
    cite = c.lei810_art3 if (imp.month, imp.day) == (2, 29) else c.lei810
    leap_pt = " (29/02 sem correspondente: o prazo vence em 1º de março)" if cite is \
        c.lei810_art3 else ""
    leap_en = " (29 Feb has no counterpart: the window ends on 1 March)" if cite is \
        c.lei810_art3 else ""
    if chk.status == "recidivism":
        pt = (f"Penalidade {where.pt} imposta em {d_pt(imp)}: prazo de 2 anos até "
              f"{d_pt(chk.window_end)}, inclusive{leap_pt}; infração em {d_pt(on)} → "
              "reincidência.")
        en = (f"Penalty {where.en} imposed on {imp.isoformat()}: two-year window "
              f"until {chk.window_end.isoformat()}, inclusive{leap_en}; infraction on "
              f"{on.isoformat()} → recidivism.")
    elif chk.status == "expired":
        pt = (f"Penalidade {where.pt} imposta em {d_pt(imp)}: prazo de 2 anos "
              f"encerrado em {d_pt(chk.window_end)}{leap_pt}; infração em {d_pt(on)} → não é "
              "reincidência.")
        en = (f"Penalty {where.en} imposed on {imp.isoformat()}: two-year window "
              f"ended on {chk.window_end.isoformat()}{leap_en}; infraction on {on.isoformat()} "
              "→ not recidivism.")
    else:
        pt = (f"Penalidade {where.pt} imposta em {d_pt(imp)}, não anterior à "
              f"infração de {d_pt(on)}: não gera reincidência.")
        en = (f"Penalty {where.en} imposed on {imp.isoformat()}, not before the "
              f"infraction of {on.isoformat()}: no recidivism.")
    b.step("port_fines.recidivism", pt, en, c.art3_recidivism, imposed_on=imp,
           window_end=chk.window_end, status=chk.status)
    b.cite(cite)


def _not_covered(b: DecisionBuilder, reg: NormRegistry, prov: Provision, c: _Cites,
                 on: dt.date, *, gradation_missing: bool) -> Decision:
    """Spec README rule 2 and norms.md "Gaps": explained not_covered, never a fallback."""
    reasons: list[Msg] = []
    if not prov.in_force_on(on):
        reasons.append(_provision_out_of_force(reg, prov, c, on))
    if gradation_missing:
        reasons.append(reg.not_covered_reason(
            on, GRADATION_NORMS,
            Msg("Gradação das multas da Lei nº 9.719/1998",
                "Gradation of the Lei 9.719/1998 fines")))
        updated = _amounts_updated(on)
        if updated is not None:
            reasons.append(updated)
    reason = Msg(" ".join(r.pt for r in reasons), " ".join(r.en for r in reasons))
    in_force = next((n.id for n in (reg[i] for i in GRADATION_NORMS) if n.in_force_on(on)), None)
    b.step("port_fines.not_covered", reason.pt, reason.en,
           reg.cite(in_force) if in_force else reg.cite(NORM), date=on)
    result: dict[str, Any] = {
        "provision": prov.id,
        "provision_label": c.provision.label,
        "description": prov.description,
        "date": on,
        "norm_in_force": in_force,
        "successor": (reg.cite(prov.successor.norm, prov.successor.provision).label
                      if prov.successor else None),
    }
    return b.build(
        Verdict.NOT_COVERED, None,
        Msg(f"Não coberto: infração de {d_pt(on)} fora da norma modelada.",
            f"Not covered: infraction of {on.isoformat()} outside the norm modelled."),
        not_covered_reason=reason, result=result)


def _amounts_updated(on: dt.date) -> Msg | None:
    """norms.md, Lei 9.719/1998: "amounts updated by later ministerial acts (e.g. Portaria MTE
    66/2024, 1.131/2025) — not modelled". The acts of ``data/amount_updates.yaml`` in force
    on ``on``; one known by its year only is named as possibly in force when ``on`` falls in
    that year. None when no such act had begun by ``on``."""
    d, iso = d_pt(on), on.isoformat()
    named: list[Msg] = []
    certain = False
    for u in amount_updates():
        start: dt.date = u["valid_from"]
        confirmed = bool(u.get("confirmed", True))
        if (on >= start) if confirmed else (on.year > start.year):
            certain = True
            named.append(Msg.same(u["act"]))
        elif not confirmed and on.year == start.year:
            named.append(Msg(
                f"{u['act']} (de {start.year}, sem data de vigência confirmada: pode ser "
                f"posterior a {d})",
                f"{u['act']} (of {start.year}, its date of effect unconfirmed: it may be "
                f"later than {iso})"))
    if not named:
        return None
    tail = Msg(f"; os valores originais da lei (os do Anexo I da Portaria MTE nº 746/2000) "
               f"não valem para {d}",
               f"; the law's original amounts (those of Annex I of Portaria MTE 746/2000) do "
               f"not apply on {iso}") if certain else Msg.same("")
    return Msg(
        "Os valores das multas da Lei nº 9.719/1998 foram atualizados por atos ministeriais "
        f"posteriores, também não modelados: {listing([m.pt for m in named], 'pt')}{tail.pt}.",
        "The amounts of the Lei 9.719/1998 fines were updated by later ministerial acts, not "
        f"modelled either: {listing([m.en for m in named], 'en')}{tail.en}.")


def _provision_out_of_force(reg: NormRegistry, prov: Provision, c: _Cites, on: dt.date) -> Msg:
    if prov.valid_to is not None and on > prov.valid_to:
        law = reg[prov.law]
        succ = reg[law.replaced_by] if law.replaced_by else None
        art_pt = art_en = ""
        if prov.successor:
            lab = reg.cite(prov.successor.norm, prov.successor.provision).label
            art_pt, art_en = f"; dispositivo correspondente: {lab}", f"; corresponding: {lab}"
        elif succ:
            art_pt = "; dispositivo correspondente não confirmado"
            art_en = "; corresponding provision unconfirmed"
        by_pt = f" (revogada pela {succ.label}, não modelada{art_pt})" if succ else ""
        by_en = f" (revoked by {succ.label}, not modelled{art_en})" if succ else ""
        return Msg(
            f"{c.provision.label} vigorou até {d_pt(prov.valid_to)}{by_pt}.",
            f"{c.provision.label} was in force until {prov.valid_to.isoformat()}{by_en}.")
    return Msg(
        f"{c.provision.label}: a multa só existe a partir de {d_pt(prov.valid_from)} "
        "(Lei nº 9.719/1998).",
        f"{c.provision.label}: the fine exists only from {prov.valid_from.isoformat()} "
        "(Lei 9.719/1998).")

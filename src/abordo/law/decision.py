"""Decision objects every engine returns, and the JSON form every face renders.

A :class:`Decision` is the single answer of an engine for one question on one date: a
verdict, the findings, the citations of every provision used, the interpretations relied on,
the unconfirmed parameters used, an ordered explanation trace and an engine-specific
``result`` payload (plain data). Faces render it; none recomputes it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any


class Verdict(StrEnum):
    """Overall outcome. ``computed`` is for engines that grade or count (fines, sea time)."""

    COMPLIANT = "compliant"
    NON_COMPLIANT = "non_compliant"
    NOT_APPLICABLE = "not_applicable"
    NOT_YET = "not_yet"
    NOT_COVERED = "not_covered"
    COMPUTED = "computed"


VERDICT_LABELS: dict[str, tuple[str, str]] = {
    "compliant": ("conforme", "compliant"),
    "non_compliant": ("não conforme", "non-compliant"),
    "not_applicable": ("não aplicável", "not applicable"),
    "not_yet": ("ainda não exigível", "not yet required"),
    "not_covered": ("não coberto", "not covered"),
    "computed": ("calculado", "computed"),
    "regular": ("regular", "regular"),
    "irregular": ("irregular", "irregular"),
    "action_due": ("providência pendente", "action due"),
}


def verdict_label(verdict: str, lang: str = "pt") -> str:
    pt, en = VERDICT_LABELS.get(str(verdict), (str(verdict), str(verdict)))
    return en if lang == "en" else pt


@dataclass(frozen=True)
class Msg:
    """A user-facing sentence in Portuguese (default) and English."""

    pt: str
    en: str

    def get(self, lang: str = "pt") -> str:
        return self.en if lang == "en" else self.pt

    @classmethod
    def same(cls, text: str) -> Msg:
        """A text written alike in both languages: a number, a provision (``item 1.27``)."""
        return cls(text, text)


@dataclass(frozen=True)
class Citation:
    """A provision of a norm, in the version in force on the date judged.

    ``label`` is the human citation (``Lei nº 9.432/1997, art. 4º``); ``urn`` the LexML URN
    with the provision fragment; ``version`` the id of the norm version applied.
    """

    norm_id: str
    provision: str
    version: str
    label: str
    urn: str

    def key(self) -> tuple[str, str]:
        return (self.version, self.provision)


@dataclass(frozen=True)
class Interpretation:
    """A named reading of an ambiguous point (``quota.rounding.half_up``) and its alternatives."""

    id: str
    family: str
    variant: str
    text: Msg
    alternatives: tuple[str, ...]
    chosen_by: str = "default"  # "default" | "caller" | "norm" (the text itself decides)


@dataclass(frozen=True)
class UnconfirmedParameter:
    """A figure used that is not confirmed in the seed or an official text. ``value`` and
    ``source`` are shown to the user, so each is in both languages (``Msg.same`` for a
    figure or a provision written alike)."""

    name: str
    value: Msg
    source: Msg
    norm_id: str


@dataclass(frozen=True)
class TraceStep:
    """One ordered step of the explanation: the rule applied, what it said, numbers used."""

    rule: str
    text: Msg
    citation: Citation | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Finding:
    """A fact the decision establishes. ``severity``: violation | warning | info."""

    id: str
    text: Msg
    citation: Citation | None = None
    severity: str = "violation"
    subject: str | None = None


@dataclass(frozen=True)
class Decision:
    """The answer of one engine. ``result`` holds the engine-specific data (plain values)."""

    engine: str
    on: dt.date | None
    verdict: Verdict
    regime: str | None
    summary: Msg
    findings: tuple[Finding, ...] = ()
    citations: tuple[Citation, ...] = ()
    interpretations: tuple[Interpretation, ...] = ()
    unconfirmed: tuple[UnconfirmedParameter, ...] = ()
    trace: tuple[TraceStep, ...] = ()
    not_covered_reason: Msg | None = None
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def violations(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "violation")

    def to_json(self, lang: str = "pt") -> dict[str, Any]:
        """A JSON-ready dict: dates ISO, Decimal and Fraction as strings, texts in ``lang``."""
        out = to_jsonable(self, lang)
        assert isinstance(out, dict)
        return out


class DecisionBuilder:
    """Collects trace steps, citations, interpretations and unconfirmed parameters in order."""

    def __init__(self, engine: str, on: dt.date | None) -> None:
        self.engine = engine
        self.on = on
        self.trace: list[TraceStep] = []
        self.findings: list[Finding] = []
        self._citations: dict[tuple[str, str], Citation] = {}
        self._interpretations: dict[str, Interpretation] = {}
        self._unconfirmed: dict[str, UnconfirmedParameter] = {}

    def cite(self, citation: Citation | None) -> Citation | None:
        if citation is not None:
            self._citations.setdefault(citation.key(), citation)
        return citation

    def step(self, rule: str, pt: str, en: str, citation: Citation | None = None,
             **data: Any) -> None:
        self.cite(citation)
        self.trace.append(TraceStep(rule, Msg(pt, en), citation, dict(data)))

    def finding(self, finding: Finding) -> None:
        self.cite(finding.citation)
        self.findings.append(finding)

    def interpret(self, interpretation: Interpretation) -> Interpretation:
        self._interpretations.setdefault(interpretation.id, interpretation)
        return interpretation

    def unconfirmed(self, param: UnconfirmedParameter) -> None:
        self._unconfirmed.setdefault(param.name, param)

    def interpreted(self, interpretation_id: str) -> bool:
        """Whether the interpretation ``interpretation_id`` was applied so far."""
        return interpretation_id in self._interpretations

    def extend(self, other: Decision) -> None:
        """Absorb another decision's citations, interpretations and unconfirmed parameters."""
        for c in other.citations:
            self.cite(c)
        for i in other.interpretations:
            self.interpret(i)
        for u in other.unconfirmed:
            self.unconfirmed(u)

    def build(self, verdict: Verdict, regime: str | None, summary: Msg, *,
              not_covered_reason: Msg | None = None,
              result: dict[str, Any] | None = None) -> Decision:
        return Decision(
            engine=self.engine, on=self.on, verdict=verdict, regime=regime, summary=summary,
            findings=tuple(self.findings), citations=tuple(self._citations.values()),
            interpretations=tuple(self._interpretations.values()),
            unconfirmed=tuple(self._unconfirmed.values()), trace=tuple(self.trace),
            not_covered_reason=not_covered_reason, result=result or {},
        )


def to_jsonable(obj: Any, lang: str = "pt") -> Any:
    """Plain JSON data from decisions and their parts; exact numbers kept as strings."""
    if isinstance(obj, Msg):
        return obj.get(lang)
    if isinstance(obj, StrEnum):
        return obj.value
    if isinstance(obj, bool | int | str) or obj is None:
        return obj
    if isinstance(obj, float):
        return obj
    if isinstance(obj, Decimal):
        return str(obj)
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, dt.datetime):
        return obj.isoformat()
    if isinstance(obj, dt.date):
        return obj.isoformat()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name), lang) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v, lang) for k, v in obj.items()}
    if isinstance(obj, Iterable):
        return [to_jsonable(v, lang) for v in obj]
    return str(obj)

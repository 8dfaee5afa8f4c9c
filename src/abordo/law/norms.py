"""Norm registry: ids, windows of force, successors, LexML URNs and citations.

Ids follow the spec (``norms.md``): ``lei-9432-1997``, ``cnig-rn-06-2017@res-42-2020`` …
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cache

from abordo.law.decision import Citation, Msg, UnconfirmedParameter
from abordo.law.params import in_window, load_data
from abordo.law.text import br_date


@dataclass(frozen=True)
class Norm:
    """One norm (or one version of an amended norm) and its window of force (inclusive)."""

    id: str
    label: str
    title: str
    urn: str
    in_force_from: dt.date
    in_force_to: dt.date | None
    from_confirmed: bool = True
    to_confirmed: bool = True
    replaced_by: str | None = None
    modelled: bool = True
    note: str | None = None

    def in_force_on(self, on: dt.date) -> bool:
        return in_window(on, self.in_force_from, self.in_force_to)


class NormRegistry:
    """Lookup of norms by id; :meth:`cite` builds citations with LexML fragments."""

    def __init__(self, norms: list[Norm]) -> None:
        self._by_id = {n.id: n for n in norms}

    def __getitem__(self, norm_id: str) -> Norm:
        return self._by_id[norm_id]

    def __contains__(self, norm_id: object) -> bool:
        return norm_id in self._by_id

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._by_id.values())

    def in_force_on(self, on: dt.date) -> list[Norm]:
        return [n for n in self._by_id.values() if n.in_force_on(on)]

    def cite(self, norm_id: str, provision: str = "", version: str | None = None) -> Citation:
        """Citation of ``provision`` (``art. 4, I, a``) of ``norm_id`` in ``version``."""
        norm = self._by_id[norm_id]
        ver = self._by_id[version] if version else norm
        frag = lexml_fragment(provision)
        urn = f"{ver.urn}!{frag}" if frag else ver.urn
        label = f"{ver.label}, {provision}" if provision else ver.label
        return Citation(norm.id, provision, ver.id, label, urn)

    def cite_label(self, label: str) -> Citation | None:
        """The citation a label written as :meth:`cite` writes them stands for, with its URN
        (``IN SIT nº 70/2007, art. 5º, I``, ``Lei nº 13.445/2017``): the registry's norm whose
        label the text is, or begins (then ``, `` and the provision); the longest such label
        when several do. None for a norm the registry does not hold (``NR-30, item 30.2.1``).
        A provision naming several articles (``arts. 6º a 8º``) gets the norm's URN."""
        best: Norm | None = None
        for norm in self._by_id.values():
            if (label == norm.label or label.startswith(f"{norm.label}, ")) and (
                    best is None or len(norm.label) > len(best.label)):
                best = norm
        if best is None:
            return None
        provision = label[len(best.label):].removeprefix(", ")
        frag = "" if provision.startswith("arts.") else lexml_fragment(provision)
        base = best.id.split("@", 1)[0]
        return Citation(base if base in self._by_id else best.id, provision, best.id, label,
                        f"{best.urn}!{frag}" if frag else best.urn)

    def unconfirmed_boundaries(self, norm_id: str, on: dt.date) -> list[UnconfirmedParameter]:
        """Unconfirmed ends of ``norm_id``'s window that a judgement on ``on`` rests on.

        A boundary marked unconfirmed (norms.md "(?)": the act's own date, a year only, or a
        modelling assumption) is treated as uncertain within its calendar year, so a date
        judged in that year depends on it.
        """
        n = self._by_id[norm_id]
        out = []
        for end, date, confirmed in (("in_force_from", n.in_force_from, n.from_confirmed),
                                     ("in_force_to", n.in_force_to, n.to_confirmed)):
            if date is not None and not confirmed and date.year == on.year:
                start = end == "in_force_from"
                out.append(UnconfirmedParameter(
                    f"{norm_id}:{end}", Msg(br_date(date), date.isoformat()),
                    Msg(f"{n.label}: {'início' if start else 'fim'} de vigência não confirmado "
                        "(data do ato ou hipótese de modelagem)",
                        f"{n.label}: {'start' if start else 'end'} of its force unconfirmed "
                        "(the act's own date or a modelling assumption)"), norm_id))
        return out

    def uncertain_years(self, norm_id: str) -> frozenset[int]:
        """The calendar years within which ``norm_id``'s unconfirmed window ends may fall: a
        date in one of them rests on that end (:meth:`unconfirmed_boundaries`)."""
        n = self._by_id[norm_id]
        return frozenset(d.year for d, ok in ((n.in_force_from, n.from_confirmed),
                                              (n.in_force_to, n.to_confirmed))
                         if d is not None and not ok)

    def not_covered_reason(self, on: dt.date, candidates: list[str], topic: Msg) -> Msg:
        """Why no modelled norm among ``candidates`` answers ``topic`` on ``on``."""
        d = br_date(on)
        # The most recent norm in force is the one that governs; name it first.
        for nid in sorted(candidates, key=lambda c: self._by_id[c].in_force_from, reverse=True):
            n = self._by_id[nid]
            if n.in_force_on(on) and not n.modelled:
                return Msg(
                    f"{topic.pt}: em {d} vigorava {n.label} ({n.title}), que não está modelada.",
                    f"{topic.en}: on {on.isoformat()} {n.label} was in force, and it is not "
                    "modelled.",
                )
        before = [self._by_id[c] for c in candidates if self._by_id[c].in_force_to
                  and self._by_id[c].in_force_to < on]  # type: ignore[operator]
        if before:
            last = max(before, key=lambda n: n.in_force_to)  # type: ignore[arg-type,return-value]
            succ = self._by_id.get(last.replaced_by or "")
            # A successor modelled for another engine (RN 72/2006: quotas) is not for this one.
            here_pt, here_en = (" para este tema", " for this subject") \
                if succ and succ.modelled else ("", "")
            succ_pt = f"; a norma sucessora ({succ.title}) não está modelada{here_pt}" \
                if succ else ""
            succ_en = f"; its successor ({succ.title}) is not modelled{here_en}" if succ else ""
            to = br_date(last.in_force_to)  # type: ignore[arg-type]
            q_pt, q_en = ("", "") if last.to_confirmed else (" (data não confirmada)",
                                                            " (date unconfirmed)")
            return Msg(
                f"{topic.pt}: {last.label} vigorou até {to}{q_pt}{succ_pt}.",
                f"{topic.en}: {last.label} was in force until "
                f"{last.in_force_to.isoformat()}{q_en}{succ_en}.",  # type: ignore[union-attr]
            )
        first = min((self._by_id[c] for c in candidates), key=lambda n: n.in_force_from)
        return Msg(
            f"{topic.pt}: a primeira norma modelada ({first.label}) só vigora a partir de "
            f"{br_date(first.in_force_from)}.",
            f"{topic.en}: the first norm modelled ({first.label}) is in force only from "
            f"{first.in_force_from.isoformat()}.",
        )


_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50}


def _roman(token: str) -> int | None:
    if not token or any(ch not in _ROMAN for ch in token):
        return None
    total = 0
    for a, b in zip(token, token[1:] + " ", strict=True):
        v = _ROMAN[a]
        total += -v if b in _ROMAN and _ROMAN[b] > v else v
    return total


def lexml_fragment(provision: str) -> str:
    """LexML fragment of a provision written ``art. 4, I, a, 1`` or ``art. 11, § 6``."""
    parts: list[str] = []
    for raw in [p.strip() for p in provision.split(",") if p.strip()]:
        tok = raw.replace("º", "").replace("°", "")
        if m := re.fullmatch(r"arts?\.\s*(\d+)(?:-([A-Z]))?.*", tok):
            parts.append(f"art{m.group(1)}" + (f"-{m.group(2)}" if m.group(2) else ""))
        elif tok.lower().startswith(("parágrafo único", "par. único", "sole paragraph")):
            parts.append("par1u")
        elif m := re.fullmatch(r"(?:§|§§|par\.)\s*(\d+).*", tok):
            parts.append(f"par{m.group(1)}")
        elif (n := _roman(tok)) is not None:
            parts.append(f"inc{n}")
        elif re.fullmatch(r"[a-z]", tok):
            parts.append(f"ali{ord(tok) - ord('a') + 1}")
        elif tok.isdigit():
            parts.append(f"ite{tok}")
        elif tok in {"caput"}:
            parts.append("cpt")
        else:
            break
    return "_".join(parts)


@cache
def norm_registry() -> NormRegistry:
    """The registry loaded from ``law/data/norms.yaml`` (immutable, read once)."""
    rows = load_data("abordo.law", "data/norms.yaml")
    return NormRegistry([Norm(**row) for row in rows])

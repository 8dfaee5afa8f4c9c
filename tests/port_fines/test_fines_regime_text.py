"""The gradation act's name and window in the trace and in the catalogue's note come from the
norms' register and the dated Annex II table, never restated in code."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from fines_helpers import make_input
from rich.console import Console

from abordo.faces.reports import port_fines as report
from abordo.port_fines import grade
from abordo.port_fines.catalogue import load_catalogue


def _step(decision: Any, step_id: str) -> Any:
    return next(s for s in decision.trace if s.rule == step_id)


def test_the_regime_step_names_the_act_and_its_window_from_the_register() -> None:
    d = grade(make_input(date=dt.date(2005, 6, 10)))
    step = _step(d, "port_fines.regime")
    assert step.text.pt == ("Em 10/06/2005 vigorava a Portaria MTE nº 746/2000 (05/10/2000 a "
                            "22/01/2012), que gradua as multas variáveis da Lei nº 9.719/1998.")
    assert step.text.en == ("On 2005-06-10 Portaria MTE nº 746/2000 (2000-10-05 to 2012-01-22) "
                            "was in force, grading the variable fines of Lei 9.719/1998.")


def _note(lang: str) -> str:
    console = Console(width=400, record=True)
    console.print(report.catalogue_table(load_catalogue(), lang))
    return " ".join(console.export_text().split())


def test_the_catalogue_note_gives_the_window_of_the_dated_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert ("A gradação modelada (Portaria MTE nº 746/2000) vale para infrações de 05/10/2000 "
            "a 22/01/2012.") in _note("pt")
    # A later entry in the dated table moves the note's end with it.
    first = dict(report.gradation_versions()[0])
    later = first | {"valid_from": dt.date(2012, 1, 23), "valid_to": None}
    monkeypatch.setattr(report, "gradation_versions", lambda: [first, later])
    assert ("The gradation modelled (Portaria MTE nº 746/2000) covers infractions from "
            "2000-10-05 on.") in _note("en")

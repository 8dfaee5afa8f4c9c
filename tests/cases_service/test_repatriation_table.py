"""The dated table of repatriation deadlines (cases/data/repatriation.yaml): Decreto
6.968/2009, arts. 3 and 5 § 1º, read from data and in step with the norms' register."""

from __future__ import annotations

import datetime as dt

from abordo.cases.steps import c166_decree_in_force, repatriation_rule
from abordo.law.norms import norm_registry
from abordo.law.params import load_data

ENTRIES = load_data("abordo.cases", "data/repatriation.yaml")["repatriation"]


def test_each_entry_is_in_force_exactly_while_its_norm_is() -> None:
    for e in ENTRIES:
        norm = norm_registry()[e["norm"]]
        start = e["valid_from"]
        assert norm.in_force_on(start)
        assert not norm.in_force_on(start - dt.timedelta(days=1))
        assert repatriation_rule(start - dt.timedelta(days=1)) is None
        if e.get("valid_to") is None:
            assert norm.in_force_on(dt.date(2100, 1, 1))


def test_the_rule_in_force_gives_the_decree_periods_and_paths() -> None:
    assert not c166_decree_in_force(dt.date(2009, 9, 29))
    assert c166_decree_in_force(dt.date(2009, 9, 30))
    rule = repatriation_rule(dt.date(2026, 3, 28))
    assert rule is not None
    assert rule.norm == "decreto-6968-2009"
    assert (rule.report_within, rule.step_after) == (dt.timedelta(days=2),
                                                    dt.timedelta(days=15))
    assert (rule.paths[True].article, rule.paths[False].article) == ("art. 3º",
                                                                     "art. 5º, § 1º")
    assert (rule.paths[True].after_kind, rule.paths[False].after_kind) == (
        "repatriation_foreign_ministry", "repatriation_shore_lodging")
    assert rule.report.startswith("Relatório circunstanciado")
    assert rule.confirmed is False

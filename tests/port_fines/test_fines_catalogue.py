"""The Annex I catalogue matches the shared spec (ids, ranges, per-worker flags, dates)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from abordo.port_fines import load_catalogue

SPEC_IDS = [
    "lei-9719/art-1", "lei-9719/art-2/inc-I", "lei-9719/art-2/inc-II", "lei-9719/art-2/par-1",
    "lei-9719/art-2/par-2", "lei-9719/art-2/par-3", "lei-9719/art-2/par-6",
    "lei-9719/art-3/inc-I", "lei-9719/art-3/inc-II", "lei-9719/art-3/par-1",
    "lei-9719/art-3/par-2", "lei-9719/art-4", "lei-9719/art-5", "lei-9719/art-6",
    "lei-9719/art-7/caput", "lei-9719/art-7/par-unico", "lei-9719/art-8",
    "lei-9719/art-9/health", "lei-9719/art-9/safety", "lei-8630/art-22", "lei-8630/art-25",
    "lei-8630/art-26/caput", "lei-8630/art-26/par-unico", "lei-8630/art-28", "lei-8630/art-45",
]
PER_INFRACTION = {"lei-9719/art-7/caput", "lei-9719/art-9/health", "lei-9719/art-9/safety",
                  "lei-8630/art-22", "lei-8630/art-25", "lei-8630/art-28"}
LOW = {"lei-9719/art-7/caput", "lei-8630/art-22", "lei-8630/art-25", "lei-8630/art-28"}


def test_ids_are_the_spec_list_in_order() -> None:
    assert load_catalogue().ids == SPEC_IDS


def test_ranges_and_per_worker_flags() -> None:
    for p in load_catalogue():
        if p.id in LOW:
            expected = Decimal("173.00")
        elif p.id == "lei-9719/art-9/safety":
            expected = Decimal("575.00")
        else:
            expected = Decimal("345.00")
        assert p.min == expected, p.id
        assert p.max == expected * 10, p.id
        assert p.per_worker is (p.id not in PER_INFRACTION), p.id
        assert p.nature == "unknown"
        assert p.source and p.confirmed


def test_lei_8630_entries_stop_at_revocation() -> None:
    cat = load_catalogue()
    for p in cat:
        if p.law == "lei-8630-1993":
            assert p.valid_to == dt.date(2013, 6, 4)
            assert p.via == "art. 11"
        else:
            assert p.valid_to is None
    caput = cat.get("lei-8630/art-26/caput")
    sole = cat.get("lei-8630/art-26/par-unico")
    assert caput is not None and sole is not None
    assert caput.successor is not None and caput.successor.provision == "art. 40, caput"
    assert sole.successor is not None and sole.successor.provision == "art. 40, § 2º"

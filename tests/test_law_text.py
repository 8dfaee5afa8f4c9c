"""Shared text helpers: Brazilian decimal numbers."""

from __future__ import annotations

import pytest

from abordo.law.text import br_decimal


@pytest.mark.parametrize(("text", "grouped", "read"), [
    ("4,5", False, "4.5"), ("-3,25", False, "-3.25"), ("2.500,00", False, "2500.00"),
    ("4.5", False, "4.5"), ("12", False, "12"), ("2.500", True, "2500"), ("2.5", True, "2.5"),
    ("2.500", False, "2.500"),
    # Not numbers written the Brazilian way: left as given, for the model to refuse.
    ("4,", False, "4,"), ("1,5e3", False, "1,5e3"), ("4,5h", False, "4,5h"), ("1,2,3", False,
                                                                              "1,2,3"),
])
def test_brazilian_decimals_in_their_dot_form(text: str, grouped: bool, read: str) -> None:
    assert br_decimal(text, grouped=grouped) == read


def test_natural_key_orders_provisions_by_number() -> None:
    from abordo.law.text import natural_key

    labels = ["IN SIT nº 70/2007, art. 11", "IN SIT nº 70/2007, art. 4º",
              "IN SIT nº 70/2007, art. 11, § 1º", "IN SIT nº 70/2007, art. 9º",
              "NR-30, item 30.10", "NR-30, item 30.2.1"]
    assert sorted(labels, key=natural_key) == [
        "IN SIT nº 70/2007, art. 4º", "IN SIT nº 70/2007, art. 9º",
        "IN SIT nº 70/2007, art. 11", "IN SIT nº 70/2007, art. 11, § 1º",
        "NR-30, item 30.2.1", "NR-30, item 30.10"]

"""Labels for reports: the input vocabulary and country names (:mod:`abordo.law.labels`)."""

from __future__ import annotations

from abordo.law.labels import LABELS, country, label

__all__ = ["LABELS", "country", "label"]

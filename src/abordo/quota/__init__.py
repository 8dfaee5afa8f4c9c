"""Crew nationality quotas: minimum Brazilians aboard (crew-quota.md).

``evaluate(case, on, options) -> Decision`` judges a crew on a date;
``plan(case, on, options) -> Decision`` lists every step of the stay.
"""

from abordo.quota.engine import evaluate, plan

__all__ = ["evaluate", "plan"]

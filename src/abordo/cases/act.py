"""A command being applied to a case (IN SIT 70/2007): the day it records — within the case,
never in the future — and what its handler is given besides the case data and the command
(:class:`Act`). The handlers are in :mod:`abordo.cases.facts`, :mod:`abordo.cases.acts` and
:mod:`abordo.cases.autos`; :mod:`abordo.cases.workflow` dispatches to them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from abordo.law.errors import InputError


@dataclass(frozen=True)
class Act:
    """What a command's handler is given besides the case data and the command: ``when``,
    the day recorded (ISO; ``recorded_on``, else today); ``today``; ``actor``, who records
    it; ``extra``, what the service computed outside the domain (validated vessel case,
    engine JSON and summary, team, region); ``payload``, the command's fields as the audit
    event logs them unless the handler writes its own."""

    when: str
    today: dt.date
    actor: str
    extra: dict[str, Any]
    payload: dict[str, Any]


# A command's effect: it changes the case data ``d`` (a copy) in place and returns the
# payload its audit event logs. The command argument is the model the table's key names.
Handler = Callable[[dict[str, Any], Any, Act], dict[str, Any]]


def recorded_on(d: dict[str, Any], cmd: BaseModel, today: dt.date) -> dt.date:
    """The day a command records: ``recorded_on`` when the act happened earlier (an
    inspector entering the day's work later), else today."""
    day: dt.date | None = getattr(cmd, "recorded_on", None)
    return today if day is None else case_day(d, day, today, "recorded_on",
                                              ("do registro", "the record's"))


def case_day(d: dict[str, Any], day: dt.date, today: dt.date, field: str,
             what: tuple[str, str]) -> dt.date:
    """``day`` when it lies within the case: not in the future, not before the complaint;
    an :class:`InputError` naming ``field`` otherwise — a date no state of the case could
    accept (``what``: Portuguese and English, ("da notificação", "the notification's"))."""
    pt, en = what
    if day > today:
        raise InputError(f"data {pt} no futuro: {day:%d/%m/%Y}", field,
                         message_en=f"{en} date in the future: {day.isoformat()}")
    complaint_on = (d.get("complaint") or {}).get("date")
    if complaint_on and day.isoformat() < str(complaint_on):
        c = dt.date.fromisoformat(str(complaint_on)[:10])
        raise InputError(f"data {pt} anterior à denúncia ({c:%d/%m/%Y})", field,
                         message_en=f"{en} date before the complaint ({c.isoformat()})")
    return day


def not_future(on: dt.date | None, today: dt.date) -> None:
    """The date of the facts judged is a day that has happened (:class:`InputError`)."""
    if on is not None and on > today:
        raise InputError(f"data dos fatos no futuro: {on:%d/%m/%Y}", "on",
                         message_en=f"date of the facts in the future: {on.isoformat()}")

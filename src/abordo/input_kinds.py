"""Which engine's input a YAML/JSON document is, by its top-level keys: a file given to the
wrong command (or found in a fleet's folder of vessel cases) is named as what it is, not by
the field list of the model that cannot read it."""

from __future__ import annotations

import shlex
from pathlib import Path

from abordo.law.documents import read_document
from abordo.law.errors import InputError

# Each input kind: the command that reads it, its top-level keys, its words (pt, en).
_KINDS: dict[str, tuple[str, str, str]] = {
    "vessel": ("check", "o caso de uma embarcação (vessel, operation, crew)",
               "a vessel case (vessel, operation, crew)"),
    "fine": ("fine", "uma entrada de multa (infraction, offender)",
             "a fine input (infraction, offender)"),
    "sea_time": ("sea-time", "uma entrada de tempo de embarque (seafarer, cir…)",
                 "a sea-time input (seafarer, cir…)"),
}


def _kind_keys() -> dict[str, set[str]]:
    from abordo.port_fines.model import FineInput
    from abordo.sea_time.io import SECTIONS
    from abordo.sea_time.model import SeaTimeInput

    return {"vessel": {"vessel", "operation", "crew", "crew_file"},
            "fine": set(FineInput.model_fields),
            "sea_time": set(SeaTimeInput.model_fields) | {f"{s}_file" for s in SECTIONS}}


def wrong_kind(path: Path, command: str, expected: str) -> InputError | None:
    """When the YAML/JSON ``path`` given to ``abordo {command}`` (which reads ``expected``:
    vessel | fine | sea_time) is another engine's input — its top-level keys are that
    engine's and none of ``expected``'s — the error naming the command to use; else None."""
    try:
        data, _ = read_document(path)
    except InputError:
        return None
    keys, kinds = set(data), _kind_keys()
    if not keys or keys & kinds[expected]:
        return None
    scores = {k: len(keys & kinds[k]) for k in kinds if k != expected}
    best = max(scores, key=lambda k: scores[k])
    if not scores[best]:
        return None
    use, pt, en = _KINDS[best]
    reads_pt, reads_en = _KINDS[expected][1], _KINDS[expected][2]
    # The path as given (folder included, quoted for the shell when it must be), so the
    # command can be copied and run from where the user is; the bare name is not found there.
    given = shlex.quote(str(path))
    return InputError(f"parece {pt}: use abordo {use} {given}; abordo {command} lê "
                      f"{reads_pt}", file=str(path),
                      message_en=f"looks like {en}: use abordo {use} {given}; "
                      f"abordo {command} reads {reads_en}")

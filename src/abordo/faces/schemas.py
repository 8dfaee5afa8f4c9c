"""JSON Schemas of the engines' input files — one place for the CLI (``abordo schema``) and
the REST API (``/schemas/{kind}``)."""

from __future__ import annotations

from typing import Any

from abordo.law.errors import InputError

KINDS = ("vessel", "fine", "sea-time")


def input_schema(kind: str) -> dict[str, Any]:
    """JSON Schema of the input file of ``kind`` (``vessel`` | ``fine`` | ``sea-time``).

    Raises :class:`InputError` (field ``KIND``) for another kind.
    """
    if kind == "vessel":
        from abordo.crew.model import VesselCase
        return VesselCase.model_json_schema()
    if kind == "fine":
        from abordo.port_fines.model import FineInput
        return FineInput.model_json_schema()
    if kind == "sea-time":
        from abordo.sea_time import input_schema as sea_time_schema
        return sea_time_schema()
    raise InputError(f"tipo desconhecido '{kind}' (use: {', '.join(KINDS)})", "KIND",
                     message_en=f"unknown kind '{kind}' (use: {', '.join(KINDS)})")

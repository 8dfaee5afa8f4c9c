"""``abordo schema KIND``: the JSON Schema of an input format."""

from __future__ import annotations

import importlib
import json

import typer

from abordo.faces.cli.common import console
from abordo.faces.cli.words import PtCommand
from abordo.law.errors import InputError

# kind → "module:Model" (the pydantic input model of each engine)
SCHEMAS = {
    "vessel": "abordo.crew.model:VesselCase",
    "fine": "abordo.port_fines.model:FineInput",
    "sea-time": "abordo.sea_time.model:SeaTimeInput",
}


def schema_for(kind: str) -> dict[str, object]:
    """JSON Schema of ``kind``; :class:`InputError` for an unknown kind."""
    target = SCHEMAS.get(kind)
    if target is None:
        raise InputError(f"tipo desconhecido '{kind}' (use: {', '.join(SCHEMAS)})", "KIND",
                         message_en=f"unknown kind '{kind}' (use: {', '.join(SCHEMAS)})")
    module, _, name = target.partition(":")
    try:
        model = getattr(importlib.import_module(module), name)
    except (ModuleNotFoundError, AttributeError):
        raise InputError(f"esquema '{kind}' ainda não disponível", "KIND",
                         message_en=f"schema '{kind}' not available yet") from None
    schema: dict[str, object] = model.model_json_schema()
    return schema


def register(app: typer.Typer) -> None:
    @app.command(cls=PtCommand)
    def schema(kind: str = typer.Argument(..., help="vessel | fine | sea-time")) -> None:
        """Imprime o JSON Schema de um formato de entrada."""
        console.print_json(json.dumps(schema_for(kind), ensure_ascii=False))

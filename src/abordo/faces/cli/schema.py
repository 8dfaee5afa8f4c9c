"""``abordo schema KIND``: the JSON Schema of an input format."""

from __future__ import annotations

import json

import typer

from abordo.faces.cli.common import console
from abordo.faces.cli.words import PtCommand
from abordo.faces.schemas import input_schema


def register(app: typer.Typer) -> None:
    @app.command(cls=PtCommand)
    def schema(kind: str = typer.Argument(..., help="vessel | fine | sea-time")) -> None:
        """Imprime o JSON Schema de um formato de entrada."""
        console.print_json(json.dumps(input_schema(kind), ensure_ascii=False))

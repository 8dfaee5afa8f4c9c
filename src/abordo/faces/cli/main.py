"""The ``abordo`` command. Each sub-module registers its commands on :data:`app`.

Exit codes (interfaces.md): 0 compliant / ok, 1 non-compliant, 2 bad input.
"""

from __future__ import annotations

import importlib
import sys

import typer

from abordo.faces.cli.common import console_err, default_lang
from abordo.faces.cli.messages import use_language
from abordo.faces.cli.words import PtGroup
from abordo.law.errors import InputError

app = typer.Typer(
    cls=PtGroup,
    name="abordo",
    help="Abordo — direito do trabalho aquaviário e portuário, executável e explicado.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules, each with ``register(app)``; a module not present yet is skipped.
COMMAND_MODULES = [
    "abordo.faces.cli.check",
    "abordo.faces.cli.norms",
    "abordo.faces.cli.schema",
    "abordo.faces.cli.cases",
    "abordo.faces.cli.fine",
    "abordo.faces.cli.sea_time",
    "abordo.faces.cli.screen",
    "abordo.faces.cli.serve",
]


def _print_version(value: bool) -> None:
    if value:
        from abordo import __version__

        typer.echo(f"abordo {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_print_version,
                                       is_eager=True, help="Mostra a versão e sai.")) -> None:
    """Abordo — direito do trabalho aquaviário e portuário, executável e explicado."""


for _name in COMMAND_MODULES:
    try:
        _mod = importlib.import_module(_name)
    except ModuleNotFoundError as _exc:
        if _exc.name == _name:
            continue
        raise
    _mod.register(app)


def _error_lang(argv: list[str]) -> str:
    """The language asked with ``--lang`` (also ``--lang=en``), else the locale's."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return "en" if argv[i + 1] == "en" else "pt"
        if arg.startswith("--lang="):
            return "en" if arg.endswith("=en") else "pt"
    return default_lang()


def run() -> None:
    """Entry point: bad input anywhere becomes a clear message and exit code 2."""
    use_language(_error_lang(sys.argv[1:]))  # Click's and Typer's own messages too
    try:
        app()
    except InputError as exc:
        lang = _error_lang(sys.argv[1:])
        label = "input error" if lang == "en" else "erro de entrada"
        console_err.print(f"[bold red]{label}[/]: ", end="", highlight=False)
        console_err.print(exc.render(lang), markup=False, highlight=False)
        sys.exit(2)

"""``abordo cases check DIR``: run a folder of worked cases, one line per case."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from abordo.casebook import find_case_files, run_cases
from abordo.faces.cli.common import console
from abordo.faces.cli.words import PtCommand, PtGroup


def register(app: typer.Typer) -> None:
    cases_app = typer.Typer(cls=PtGroup, help="Casos resolvidos (worked cases).",
                            no_args_is_help=True)

    @cases_app.command("check", cls=PtCommand)
    def check(directory: Path = typer.Argument(..., help="pasta (ou arquivo) de casos")) -> None:
        """Roda cada caso e imprime OK / FALHA com a primeira diferença; resumo no fim.

        Saída 0 todos aprovados, 1 algum caso reprovado, 2 arquivo de caso ilegível."""
        if not directory.exists():
            console.print(f"[bold red]erro de entrada[/]: pasta ou arquivo de casos não "
                          f"encontrado: {escape(str(directory))}")
            raise typer.Exit(2)
        results = run_cases(find_case_files(directory))
        if not any(r.is_case for r in results):
            # Nothing to check is a wrong folder, not a failed case (exit 2, as bad input).
            what = "nenhum arquivo YAML" if not results else \
                f"{len(results)} arquivo(s) YAML, nenhum deles um caso (faltam engine/expect)"
            console.print(f"[bold red]erro de entrada[/]: nenhum caso resolvido em "
                          f"{escape(str(directory))}: {what}")
            raise typer.Exit(2)
        passed = failed = not_built = invalid = 0
        for r in results:
            if r.status == "invalid":
                invalid += 1
                console.print(f"[bold red]erro de entrada[/]: {escape(r.difference or '')}",
                              soft_wrap=True)
            elif r.status == "pass":
                passed += 1
                # one line per case, whatever the terminal's width (for grep)
                console.print(f"[green]OK[/] {escape(r.case_id)} ({r.engine})", soft_wrap=True)
            elif r.status == "not_built":
                not_built += 1
                console.print(f"[yellow]NÃO IMPLEMENTADO[/] {escape(r.case_id)}: "
                              f"{escape(r.difference or '')}", soft_wrap=True)
            else:
                failed += 1
                label = "FALHA" if r.status == "fail" else "ERRO"
                console.print(f"[red]{label}[/] {escape(r.case_id)} ({r.engine}): "
                              f"{escape(r.difference or '')}", markup=True, soft_wrap=True)
        tail = f", {not_built} não implementado(s)" if not_built else ""
        tail += f", {invalid} arquivo(s) de caso ilegível(is)" if invalid else ""
        console.print(f"{passed} aprovado(s), {failed} reprovado(s){tail}")
        # A case file that cannot be read is bad input (2), as for every command; 1 says
        # that a case ran and failed.
        raise typer.Exit(2 if invalid else 1 if failed or not_built else 0)

    app.add_typer(cases_app, name="cases")

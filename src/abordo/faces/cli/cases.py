"""``abordo cases check DIR``: run a folder of worked cases, one line per case."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from abordo.casebook import find_case_files, run_cases
from abordo.faces.cli.common import LangOpt, console, resolve_lang
from abordo.faces.cli.words import PtCommand, PtGroup
from abordo.law.text import plural

#: The command's own words: Portuguese, English.
WORDS: dict[str, tuple[str, str]] = {
    "input_error": ("erro de entrada", "input error"),
    "ok": ("OK", "OK"),
    "fail": ("FALHA", "FAIL"),
    "error": ("ERRO", "ERROR"),
    "not_built": ("NÃO IMPLEMENTADO", "NOT BUILT"),
}


def _summary(lang: str, passed: int, failed: int, not_built: int, invalid: int) -> str:
    if lang == "en":
        parts = [f"{passed} passed", f"{failed} failed"]
        parts += [f"{not_built} not built"] if not_built else []
        parts += [plural(invalid, "invalid or unreadable case file",
                         "invalid or unreadable case files")] if invalid else []
        return ", ".join(parts)
    parts = [plural(passed, "aprovado", "aprovados"), plural(failed, "reprovado", "reprovados")]
    parts += [plural(not_built, "não implementado", "não implementados")] if not_built else []
    parts += [plural(invalid, "arquivo de caso inválido ou ilegível",
                     "arquivos de caso inválidos ou ilegíveis")] if invalid else []
    return ", ".join(parts)


def register(app: typer.Typer) -> None:
    cases_app = typer.Typer(cls=PtGroup, help="Casos resolvidos (worked cases).",
                            no_args_is_help=True)

    @cases_app.command("check", cls=PtCommand)
    def check(directory: Path = typer.Argument(..., help="pasta (ou arquivo) de casos",
                                                         readable=False),
              lang: str | None = LangOpt) -> None:
        """Roda cada caso e imprime OK / FALHA com a primeira diferença; resumo no fim.
        Saída 0 todos aprovados, 1 algum caso reprovado, 2 arquivo de caso ilegível ou
        inválido (campo ou motor desconhecido, expect vazio, id repetido, arquivo YAML que
        não é um caso)."""
        language = resolve_lang(lang)
        en = language == "en"

        def word(key: str) -> str:
            return WORDS[key][1 if en else 0]

        if not directory.exists():
            what = (f"case folder or file not found: {directory}" if en else
                    f"pasta ou arquivo de casos não encontrado: {directory}")
            console.print(f"[bold red]{word('input_error')}[/]: {escape(what)}", soft_wrap=True)
            raise typer.Exit(2)
        results = run_cases(find_case_files(directory))
        if not any(r.is_case for r in results):
            # Nothing to check is a wrong folder, not a failed case (exit 2, as bad input).
            if en:
                what = "no YAML file" if not results else \
                    f"{plural(len(results), 'YAML file', 'YAML files')}, none of them a case " \
                    "(engine/expect missing)"
                what = f"no worked case in {directory}: {what}"
            else:
                what = "nenhum arquivo YAML" if not results else \
                    f"{plural(len(results), 'arquivo YAML', 'arquivos YAML')}, nenhum deles um " \
                    "caso (faltam engine/expect)"
                what = f"nenhum caso resolvido em {directory}: {what}"
            console.print(f"[bold red]{word('input_error')}[/]: {escape(what)}", soft_wrap=True)
            raise typer.Exit(2)
        passed = failed = not_built = invalid = 0
        for r in results:
            said = escape(r.said(language))
            if r.status == "invalid":
                invalid += 1
                console.print(f"[bold red]{word('input_error')}[/]: {said}", soft_wrap=True)
            elif r.status == "pass":
                passed += 1
                # one line per case, whatever the terminal's width (for grep)
                console.print(f"[green]{word('ok')}[/] {escape(r.case_id)} ({r.engine})",
                              soft_wrap=True)
            elif r.status == "not_built":
                not_built += 1
                console.print(f"[yellow]{word('not_built')}[/] {escape(r.case_id)}: {said}",
                              soft_wrap=True)
            else:
                failed += 1
                label = word("fail") if r.status == "fail" else word("error")
                console.print(f"[red]{label}[/] {escape(r.case_id)} ({r.engine}): {said}",
                              soft_wrap=True)
        console.print(_summary(language, passed, failed, not_built, invalid), soft_wrap=True)
        # A case file that cannot be read is bad input (2), as for every command; 1 says
        # that a case ran and failed.
        raise typer.Exit(2 if invalid else 1 if failed or not_built else 0)

    app.add_typer(cases_app, name="cases")

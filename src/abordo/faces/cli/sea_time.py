"""``abordo sea-time FILE``: count a seafarer's sea time (NORMAM-101/DPC items 1.26–1.29).

FILE is YAML or JSON in the engine's input format (its sections may point to CSV/XLSX sheets:
``cir_file: cir.csv``), or an XLSX workbook with a ``seafarer`` sheet and section sheets.
``--format text|json|html|pdf`` (PDF: the HTML report printed by WeasyPrint; needs ``-o``).
Exit 0 when computed or not covered (the report says which), 2 on bad input (the
:class:`InputError` is turned into exit 2 by the main entry point).
"""

from __future__ import annotations

from pathlib import Path

import typer

from abordo.faces.cli.common import (
    FormatOpt,
    LangOpt,
    OutOpt,
    Renderer,
    emit_report,
    parse_on,
    parse_options,
    resolve_lang,
    today,
)
from abordo.faces.cli.words import PtCommand
from abordo.faces.reports.sea_time import html_report, json_report, pdf_report, text_report
from abordo.input_kinds import wrong_kind
from abordo.law.errors import InputError
from abordo.output_file import check_output, input_files
from abordo.sea_time import compute, load_input
from abordo.sea_time.model import values

RENDERERS: dict[str, Renderer] = {"text": text_report, "json": json_report,
                                   "html": html_report, "pdf": pdf_report}
FORMATS = tuple(RENDERERS)


def register(app: typer.Typer) -> None:
    @app.command("sea-time", cls=PtCommand)
    def sea_time(
        file: Path = typer.Argument(..., help="entrada (YAML, JSON ou XLSX)",
                                    readable=False),
        on: str | None = typer.Option(
            None, "--on", help="data do requerimento (AAAA-MM-DD ou dd/mm/aaaa; padrão: hoje)"),
        purpose: str | None = typer.Option(
            None, "--purpose", help="finalidade: promotion | course | revalidation, ou em "
            "português: ascensão de categoria, curso, revalidação (substitui o arquivo)"),
        option: list[str] | None = typer.Option(
            None, "--option", help="interpretação, ex.: sea_time.years=half_up (repetível)"),
        fmt: str = FormatOpt,
        lang: str | None = LangOpt,
        output: Path | None = OutOpt,
    ) -> None:
        """Cômputo de tempo de embarque (NORMAM-101/DPC, itens 1.26 a 1.29).

        Formatos: text, json, html, pdf (pdf exige -o).
        Saída 0 calculado ou não coberto (o relatório diz qual), 2 entrada inválida."""
        language = resolve_lang(lang)
        if language not in ("pt", "en"):
            raise InputError(f"idioma '{language}' não suportado (pt ou en)", "--lang",
                             message_en=f"unsupported language '{language}' (pt or en)")
        if fmt not in RENDERERS:  # before reading the input (emit_report says the same)
            raise InputError(f"formato '{fmt}' não suportado ({', '.join(FORMATS)})",
                             "--format", message_en=f"unsupported format '{fmt}' "
                             f"({', '.join(FORMATS)})")
        if purpose is not None:
            # The code or its Portuguese name (curso, revalidação…: sea_time/data/values.yaml).
            code = values().value_code("purpose", purpose)
            if code is None:
                pt, en = values().refusal("purpose", purpose)
                raise InputError(f"finalidade '{purpose}' inválida: {pt}", "--purpose",
                                 message_en=f"invalid purpose '{purpose}': {en}")
            purpose = code
        date = parse_on(on) or today()
        options = parse_options(option, ["abordo.sea_time"])
        check_output(output, input_files(file))
        try:
            data = load_input(file, purpose=purpose, on=date)
        except InputError:
            other = wrong_kind(file, "sea-time", "sea_time")
            if other is not None:
                raise other from None
            raise
        decision = compute(data, date, options)
        emit_report(fmt, decision, language, output, RENDERERS)

"""``abordo check`` (quota + immigration + checklist for one vessel) and ``abordo plan``."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from abordo.crew.load import load_vessel_case
from abordo.crew.model import VesselCase
from abordo.faces.cli.common import (
    LangOpt,
    OutOpt,
    emit,
    emit_report,
    is_spreadsheet,
    parse_on,
    parse_options,
    resolve_lang,
    today,
)
from abordo.faces.cli.words import PtCommand
from abordo.faces.reports.blocks import render_rich
from abordo.faces.reports.quota import plan_table, quota_text_blocks
from abordo.faces.reports.vessel_check import html_report, pdf_report, text_report, vessel_line
from abordo.input_kinds import wrong_kind
from abordo.law.decision import Verdict
from abordo.law.errors import InputError
from abordo.output_file import check_output, input_files
from abordo.quota import plan as plan_quota
from abordo.vessel_check import check_vessel


def load_case(path: Path, keep_personal_data: bool | None = None, command: str = "check"
              ) -> VesselCase:
    """The vessel case of ``abordo check``/``plan`` (``command``), as
    :func:`load_vessel_case` reads it.

    Raises :class:`InputError` naming the file for the wrong kind of file, instead of the
    parser's or the model's words about it: a spreadsheet (a crew list goes into the case as
    ``crew_file``), or a fine / sea-time input (the command to use)."""
    if is_spreadsheet(path):
        raise InputError(
            "é uma planilha: uma lista de tripulantes entra no caso em crew_file (ex.: "
            f"crew_file: {path.name}, num caso YAML ou JSON com vessel e operation), que "
            f"abordo {command} lê; um cômputo de tempo de embarque em XLSX: abordo sea-time",
            file=str(path),
            message_en="is a spreadsheet: a crew list goes into the case as crew_file (e.g. "
            f"crew_file: {path.name}, in a YAML or JSON case with vessel and operation), "
            f"which abordo {command} reads; a sea-time workbook: abordo sea-time")
    try:
        return load_vessel_case(path, keep_personal_data)
    except InputError:
        other = wrong_kind(path, command, "vessel")
        if other is not None:
            raise other from None
        raise


OptionOpt = typer.Option(
    None, "--option", help="interpretação escolhida, ex.: quota.groups=department_or_level")


def register(app: typer.Typer) -> None:
    @app.command(cls=PtCommand)
    def check(
        file: Path = typer.Argument(..., help="caso da embarcação (YAML ou JSON)",
                                    readable=False),
        on: str | None = typer.Option(None, "--on", help="data julgada (padrão: hoje)"),
        fmt: str = typer.Option("text", "--format", "-f", help="text | json | html | pdf"),
        lang: str | None = LangOpt,
        output: Path | None = OutOpt,
        option: list[str] | None = OptionOpt,
        keep_personal_data: bool = typer.Option(
            False, "--keep-personal-data",
            help="manter nomes e números de documento (padrão: descartados na leitura, LGPD), "
            "como keep_personal_data: true no caso; nenhum relatório mostra nomes, só o JSON "
            "mostra o número de cada documento (documents[].number)"),
    ) -> None:
        """Verifica uma embarcação: cota de brasileiros, imigração e documentos a pedir.

        Saída 0 conforme, 1 não conforme, 2 entrada inválida."""
        language = resolve_lang(lang)
        day = parse_on(on) or today()  # the command line first
        opts = parse_options(option, ["abordo.quota", "abordo.immigration"])
        check_output(output, input_files(file))
        case = load_case(file, keep_personal_data or None)
        try:
            result = check_vessel(case, day, opts)
        except InputError as exc:
            raise case.locate(exc) from None
        emit_report(fmt, result, language, output, {
            "text": text_report, "html": html_report, "pdf": pdf_report,
            "json": lambda r, lg: json.dumps(r.to_json(lg), ensure_ascii=False, indent=2)})
        raise typer.Exit(result.exit_code)

    @app.command(cls=PtCommand)
    def plan(
        file: Path = typer.Argument(..., help="caso da embarcação (YAML ou JSON)",
                                    readable=False),
        on: str | None = typer.Option(None, "--on", help="data de referência (padrão: hoje)"),
        fmt: str = typer.Option("text", "--format", "-f", help="text | json"),
        lang: str | None = LangOpt,
        output: Path | None = OutOpt,
        option: list[str] | None = OptionOpt,
    ) -> None:
        """Todas as etapas da cota na estada: data, fração e brasileiros exigidos por grupo
        (cada célula: "exig. N" sobre "bras. N", exigidos e brasileiros da tripulação atual).
        Formatos: text, json."""
        language = resolve_lang(lang)
        day = parse_on(on) or today()  # the command line first
        opts = parse_options(option, ["abordo.quota"])
        check_output(output, input_files(file))
        case = load_case(file, command="plan")
        try:
            d = plan_quota(case, day, opts)
        except InputError as exc:
            raise case.locate(exc) from None
        if fmt == "json":
            emit(json.dumps(d.to_json(language), ensure_ascii=False, indent=2), output)
        elif fmt == "text":
            title = "Abordo — quota plan" if language == "en" else "Abordo — plano da cota"
            blocks = [title, vessel_line(case, d.on or today(), language),
                      *quota_text_blocks(d, language)]
            if d.result.get("plan"):
                blocks.insert(5, plan_table(d, language))
            # The plan has a column per group: render wide enough not to cut dates.
            emit(render_rich(*blocks, width=160), output)
        else:
            raise InputError(f"formato '{fmt}' não suportado em plan (text, json)", "--format",
                             message_en=f"unsupported format '{fmt}' for plan")
        # Exit codes as for every command (interfaces.md): 1 when non-compliant on the date.
        raise typer.Exit(1 if d.verdict == Verdict.NON_COMPLIANT else 0)

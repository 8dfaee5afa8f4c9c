"""``abordo fine``: grade a port-labour fine (Lei 9.719/1998, Portaria MTE 746/2000).

Two forms: ``abordo fine FILE`` (YAML or JSON in the engine's input format) or the flags
(``--provision --date --nature --extent --intent/--no-intent --workers …``); ``abordo fine
--list`` prints the Annex I catalogue. Exit 0 when graded or not covered (the report says so),
2 on bad input (the :class:`InputError` is turned into exit 2 by the main entry point).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path
from typing import Any

import typer

from abordo.faces.cli.common import (
    FormatOpt,
    LangOpt,
    OutOpt,
    console,
    emit,
    emit_report,
    is_spreadsheet,
    parse_options,
    resolve_lang,
    today,
)
from abordo.faces.cli.words import PtCommand
from abordo.faces.reports.port_fines import (
    catalogue_json,
    catalogue_table,
    catalogue_text,
    html_report,
    json_report,
    pdf_report,
    text_report,
)
from abordo.input_kinds import wrong_kind
from abordo.law.documents import LineIndex, locate, read_document
from abordo.law.errors import InputError
from abordo.output_file import check_output, input_files
from abordo.port_fines import grade, load_catalogue
from abordo.port_fines.engine import normalize_options

FORMATS = ("text", "json", "html", "pdf")

# Input field → the flag that sets it, so errors in the flag form name the flag.
FLAG_OF_FIELD = {
    "infraction.provision": "--provision", "infraction.date": "--date",
    "infraction.nature": "--nature", "infraction.extent": "--extent",
    "infraction.intent": "--intent/--no-intent", "infraction.workers": "--workers",
    "infraction.sanable": "--sanable/--not-sanable", "infraction.corrected": "--corrected",
    "infraction.obstruction": "--obstruction", "infraction.contempt": "--contempt",
    "grading.chosen_value": "--chosen-value", "grading.reason": "--reason",
}


def parse_date(value: str, field: str) -> dt.date:
    """ISO ``YYYY-MM-DD`` or ``dd/mm/aaaa``."""
    for fmt in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            return dt.datetime.strptime(value.strip(), fmt).date()
        except ValueError:
            continue
    raise InputError(f"data inválida '{value}'; use AAAA-MM-DD ou dd/mm/aaaa", field,
                     message_en=f"invalid date '{value}'; use YYYY-MM-DD or dd/mm/yyyy")


def parse_prior(value: str) -> dict[str, Any]:
    """``PROVISION:DATE`` (e.g. ``lei-9719/art-8:2004-03-01``) → a prior penalty."""
    provision, sep, date = value.rpartition(":")
    if not sep or not provision.strip():
        raise InputError(
            f"penalidade anterior '{value}' deve ter a forma DISPOSITIVO:DATA "
            "(ex.: lei-9719/art-8:2004-03-01)", "--prior",
            message_en=f"prior penalty '{value}' must be PROVISION:DATE "
            "(e.g. lei-9719/art-8:2004-03-01)")
    return {"provision": provision.strip(), "imposed_on": parse_date(date, "--prior")}


def read_input(path: Path) -> tuple[dict[str, Any], LineIndex]:
    """The input file (YAML or JSON) as a dict, and the line of each field; errors name the
    file (and the line)."""
    if is_spreadsheet(path):
        raise InputError(
            "é uma planilha: abordo fine lê a infração em YAML ou JSON (ou as opções "
            "--provision, --date …); um cômputo de tempo de embarque em XLSX: abordo sea-time; "
            "uma lista de tripulantes: crew_file de um caso (abordo check)", file=str(path),
            message_en="is a spreadsheet: abordo fine reads the infraction in YAML or JSON (or "
            "the flags --provision, --date …); a sea-time workbook: abordo sea-time; a crew "
            "list: crew_file of a case (abordo check)")
    data, index = read_document(path)
    if "infraction" not in data:
        other = wrong_kind(path, "fine", "fine")
        if other is not None:
            raise other
        raise InputError("o arquivo deve conter um objeto com 'infraction' (e, se houver, "
                         "'offender' e 'grading')", "infraction", file=str(path),
                         message_en="the file must hold an object with 'infraction' (and "
                         "optionally 'offender' and 'grading')")
    return data, index


def _flag_error(exc: InputError) -> InputError:
    """Rename input field paths to the flags that set them (flag form)."""
    field = exc.field or ""
    flag = FLAG_OF_FIELD.get(field)
    if flag is None and field.startswith("offender.prior_penalties"):
        flag = "--prior"
    if flag is None and field.startswith("options."):
        flag = "--option"
    if flag is None:
        return exc
    return dataclasses.replace(exc, field=flag, details=[_flag_error(d) for d in exc.details])


def register(app: typer.Typer) -> None:
    @app.command("fine", cls=PtCommand)
    def fine(
        file: Path | None = typer.Argument(
            None, help="infração a graduar (YAML ou JSON); ou use as opções abaixo",
            readable=False),
        list_catalogue: bool = typer.Option(
            False, "--list", help="lista o catálogo do Anexo I (dispositivos e faixas)"),
        provision: str | None = typer.Option(
            None, "--provision", help="id do dispositivo, ex.: lei-9719/art-8 (veja --list)"),
        date: str | None = typer.Option(
            None, "--date", help="data da infração (AAAA-MM-DD ou dd/mm/aaaa)"),
        nature: int | None = typer.Option(None, "--nature", help="natureza: 1, 2 ou 3"),
        extent: str | None = typer.Option(
            None, "--extent", help="extensão: light|medium|severe (leve|média|grave)"),
        intent: bool | None = typer.Option(
            None, "--intent/--no-intent", help="com ou sem intenção"),
        workers: int | None = typer.Option(
            None, "--workers", help="trabalhadores em situação irregular"),
        sanable: bool | None = typer.Option(
            None, "--sanable/--not-sanable", help="infração sanável (art. 4º)"),
        corrected: bool = typer.Option(
            False, "--corrected", help="a defesa comprovou a correção (art. 4º)"),
        obstruction: bool = typer.Option(
            False, "--obstruction", help="oposição à fiscalização (art. 3º, V)"),
        contempt: bool = typer.Option(
            False, "--contempt", help="desacato à autoridade (art. 3º, VI)"),
        prior: list[str] | None = typer.Option(
            None, "--prior", help="penalidade anterior DISPOSITIVO:DATA (repetível)"),
        chosen_value: str | None = typer.Option(
            None, "--chosen-value", help="valor abaixo do teto (R$, exige --reason)"),
        reason: str | None = typer.Option(
            None, "--reason", help="motivo do valor escolhido (art. 6º)"),
        option: list[str] | None = typer.Option(
            None, "--option", help="interpretação, ex.: fines=minimum.final (repetível)"),
        fmt: str = FormatOpt,
        lang: str | None = LangOpt,
        output: Path | None = OutOpt,
    ) -> None:
        """Gradua uma multa da Lei nº 9.719/1998 pela Portaria MTE nº 746/2000.

        Saída 0 calculada ou não coberta (o relatório diz qual), 2 entrada inválida."""
        language = resolve_lang(lang)
        if fmt not in FORMATS:
            raise InputError(f"formato '{fmt}' não suportado ({', '.join(FORMATS)})",
                             "--format", message_en=f"unsupported format '{fmt}'")
        check_output(output, input_files(file) if file is not None else ())
        if list_catalogue:
            cat = load_catalogue()
            if fmt == "json":
                emit(catalogue_json(cat), output)
            elif output is not None:
                emit(catalogue_text(cat, language), output)
            else:
                # The descriptions need room: on a narrow terminal show the figures only.
                console.print(catalogue_table(cat, language,
                                              with_description=console.width >= 120))
            return

        flags: dict[str, Any] = {
            "provision": provision, "date": date, "nature": nature, "extent": extent,
            "intent": intent, "workers": workers, "sanable": sanable,
        }
        infraction = {k: v for k, v in flags.items() if v is not None}
        for key, on in (("corrected", corrected), ("obstruction", obstruction),
                        ("contempt", contempt)):
            if on:
                infraction[key] = True
        grading = {k: v for k, v in (("chosen_value", chosen_value), ("reason", reason))
                   if v is not None}
        # the spellings grade() and the API accept (fines.minimum=final, fines=minimum.final)
        options = parse_options(option, ["abordo.port_fines"], normalize_options)

        if file is not None:
            if infraction or grading or prior:
                given = next(iter([*infraction, *grading, *(["prior"] if prior else [])]))
                flag = FLAG_OF_FIELD.get(f"infraction.{given}") or FLAG_OF_FIELD.get(
                    f"grading.{given}") or "--prior"
                raise InputError(
                    "use o arquivo OU as opções da infração, não ambos", flag,
                    message_en="give the file OR the infraction flags, not both")
            data, index = read_input(file)
            try:
                decision = grade(data, options, judged_on=today())
            except InputError as exc:
                raise locate(exc, str(file), index) from None
        else:
            if not infraction:
                raise InputError(
                    "informe o arquivo da infração, as opções (--provision, --date, --nature, "
                    "--extent, --intent/--no-intent, --workers …) ou --list", "--provision",
                    message_en="give the infraction file, the flags (--provision, --date, "
                    "--nature, --extent, --intent/--no-intent, --workers …) or --list")
            # Every problem at once: a flag that cannot be read is set aside (its error kept)
            # and the rest still goes through the model; the model's complaint about the flag
            # set aside (a date now missing) is the same problem, said once.
            early: list[InputError] = []
            if date is not None:
                try:
                    infraction["date"] = parse_date(date, "--date")
                except InputError as exc:
                    early.append(exc)
                    del infraction["date"]
            data = {"infraction": infraction}
            if prior:
                penalties = []
                for p in prior:
                    try:
                        penalties.append(parse_prior(p))
                    except InputError as exc:
                        early.append(exc)
                data["offender"] = {"prior_penalties": penalties}
            if grading:
                data["grading"] = grading  # --chosen-value is read by the model, as a file's
            try:
                decision = grade(data, options, judged_on=today())
            except InputError as exc:
                found = [dataclasses.replace(_flag_error(e), details=[])
                         for e in (exc, *exc.details)]
                said = {e.field for e in early}
                raise InputError.listing(
                    [*early, *(e for e in found if e.field not in said)]) from None
            if early:
                raise InputError.listing(early)

        emit_report(fmt, decision, language, output, {
            "text": text_report, "json": json_report, "html": html_report,
            "pdf": pdf_report})

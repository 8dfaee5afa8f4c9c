"""``abordo screen FLEET``: screen a whole fleet on the crew-quota rules, rank by risk.

Exit codes: 0 every vessel compliant (or not subject), 1 some vessel non-compliant, 2 bad
input (the message names the file, row and field; with ``--keep-going`` the vessels the
engine rejects are listed as ``input_error`` and the run still exits 2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from abordo.batch import ScreenResult, check_result_path, screen, summary, write_result
from abordo.batch.fleet import fleet_inputs
from abordo.faces.cli.common import (
    LangOpt,
    console,
    console_err,
    default_lang,
    parse_on,
    parse_options,
    resolve_lang,
    today,
)
from abordo.faces.cli.words import PtCommand
from abordo.faces.reports.format import fmt_date
from abordo.law.decision import verdict_label
from abordo.law.errors import InputError
from abordo.output_file import check_output

STAGES = {
    "rules": ("tabelas de regimes", "regime tables"),
    "vessels": ("lendo embarcações", "reading vessels"),
    "crew.fast": ("lendo tripulação", "reading crew"),
    "crew.exact": ("contagem exata (linhas raras)", "exact count (rare rows)"),
    "evaluate": ("avaliando", "evaluating"),
    "engine": ("motor individual (casos raros)", "single-vessel engine (rare cases)"),
    "rank": ("ordenando por risco", "ranking by risk"),
    "write": ("gravando", "writing"),
}


FINDING_LABELS = {
    "quota_deficit": ("cota", "quota"),
    "master_not_brazilian": ("comandante", "master"),
    "chief_engineer_not_brazilian": ("chefe de máquinas", "chief engineer"),
    "long_haul_without_foreign_calls": ("longo curso sem escala", "long haul, no foreign call"),
}


WARNING_LABELS = {
    "no_crew": ("sem nenhuma pessoa na tabela de tripulação",
                "with no person in the crew table"),
    "master_not_identified": ("sem comandante identificado — informe a coluna position",
                              "with no master identified — give the position column"),
    "chief_engineer_not_identified": ("sem chefe de máquinas identificado — informe a coluna "
                                      "position", "with no chief engineer identified — give "
                                      "the position column"),
    "not_in_country": ("com pessoa listada cujas entradas indicam saída do país — confira a "
                       "lista", "with a listed person whose entries show an exit from the "
                       "country — check the list"),
}


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _findings(value: str | None, lang: str) -> str:
    i = 1 if lang == "en" else 0
    return ", ".join(FINDING_LABELS.get(f, (f, f))[i] for f in (value or "").split(";") if f)


def _verdict(v: str, lang: str) -> str:
    if v == "input_error":
        return "input error" if lang == "en" else "erro de entrada"
    return verdict_label(v, lang)


def _date(d: Any, lang: str) -> str:
    return "" if d is None else fmt_date(d, lang)


def _print_summary(res: ScreenResult, lang: str, top: int, out: Path | None,
                   options: dict[str, Any] | None = None) -> None:
    s = summary(res.frame, top, options)
    pt = lang != "en"
    out_console = console if console.is_terminal else Console(
        highlight=False, soft_wrap=False, width=120)
    on = res.rules.on
    out_console.print(
        f"[bold]{'Triagem da frota' if pt else 'Fleet screening'}[/] — "
        f"{'data julgada' if pt else 'date judged'} {_date(on, lang)} — "
        + (_plural(s["vessels"], "embarcação", "embarcações") if pt else
           _plural(s["vessels"], "vessel", "vessels")) + ", "
        + (_plural(res.crew_rows, "pessoa a bordo", "pessoas a bordo") if pt else
           _plural(res.crew_rows, "person aboard", "persons aboard")))
    t = Table(title="Embarcações por resultado" if pt else "Vessels by verdict")
    t.add_column("resultado" if pt else "verdict", no_wrap=True)
    t.add_column("embarcações" if pt else "vessels", justify="right")
    for verdict, n in s["by_verdict"].items():
        t.add_row(_verdict(verdict, lang), str(n))
    out_console.print(t)
    # The tiers of a risk: non-compliant, input error, a step coming short (ranking rule).
    rows = [r for r in s["top"]
            if r["tier"] in ("non_compliant", "input_error", "step_coming_short")]
    if rows:
        t = Table(title="Maiores riscos (risk_rank)" if pt else "Highest risk (risk_rank)")
        heads = (("#", "#"), ("embarcação", "vessel"), ("resultado", "verdict"),
                 ("dias", "days"), ("déficit", "deficit"), ("achados", "findings"),
                 ("próxima etapa", "next step"), ("déficit então", "deficit then"))
        for h in heads:
            # a verdict wrapped on a narrow terminal would read "não / conforme"
            t.add_column(h[0] if pt else h[1],
                         justify="right" if h[1] in ("#", "days", "deficit", "deficit then")
                         else "left", no_wrap=h[1] == "verdict")
        for r in rows:
            vessel = escape(f"{r['id']} {r['name'] or ''}".strip())
            step, then = _date(r["next_since"], lang), _s(r["next_deficit_total"])
            if r["tier"] == "step_coming_short" and not (r["next_deficit_total"] or 0) > 0:
                # Short only later in the horizon plan (a vessel not yet in AJB has no next
                # step): that date and deficit, marked as the horizon's.
                step = (f"{_date(r['horizon_max_deficit_since'], lang)} "
                        f"({'horizonte' if pt else 'horizon'})")
                then = _s(r["horizon_max_deficit"])
            t.add_row(str(r["risk_rank"]), vessel, _verdict(r["verdict"], lang),
                      _s(r["days_of_operation"]), _s(r["total_deficit"]),
                      _findings(r["findings"], lang), step, then)
        out_console.print(t)
    if "horizon" in s:
        h = s["horizon"]
        n, short, total = h["vessels_with_steps"], h["vessels_short"], h["max_deficit_total"]
        out_console.print(
            (f"Horizonte de {_plural(res.horizon or 0, 'dia', 'dias')}: "
             f"{_plural(n, 'embarcação passa', 'embarcações passam')} a uma nova etapa; "
             f"{short} {'ficaria' if short == 1 else 'ficariam'} com déficit (total "
             f"{_plural(total, 'brasileiro', 'brasileiros')}) com a tripulação atual.")
            if pt else
            (f"Horizon of {_plural(res.horizon or 0, 'day', 'days')}: "
             f"{_plural(n, 'vessel reaches', 'vessels reach')} a new step; {short} would be "
             f"short (total {_plural(total, 'Brazilian', 'Brazilians')}) with the current "
             "crew."))
    if s["total_deficit"]:
        n = s["total_deficit"]
        out_console.print(
            f"Déficit total na data julgada: {_plural(n, 'brasileiro', 'brasileiros')}."
            if pt else
            f"Total deficit on the date judged: {_plural(n, 'Brazilian', 'Brazilians')}.")
    if s.get("unconfirmed"):
        n = s["unconfirmed"]
        many = _plural(n, "embarcação julgada", "embarcações julgadas") if pt else \
            _plural(n, "vessel", "vessels")
        out_console.print(
            f"[yellow]Alerta[/] (coluna unconfirmed): {many} com parâmetro não confirmado "
            "(texto elidido ou data de vigência incerta) — ver o relatório de cada uma "
            "(abordo check)."
            if pt else
            f"[yellow]Warning[/] (column unconfirmed): {many} judged on a parameter not "
            "confirmed (elided text or uncertain date of a norm) — see each vessel's report "
            "(abordo check).")
    for wid, n in s.get("warnings", {}).items():
        pt_label, en_label = WARNING_LABELS.get(wid, (wid, wid))
        out_console.print(
            f"[yellow]Alerta[/] ({wid}): {_plural(n, 'embarcação', 'embarcações')} {pt_label}."
            if pt else
            f"[yellow]Warning[/] ({wid}): {_plural(n, 'vessel', 'vessels')} {en_label}.")
    if not res.ids_checked:
        out_console.print(
            "[yellow]Alerta[/]: ids de tripulantes não conferidos quanto a repetição na mesma "
            "embarcação (tabela grande, ou --no-check-ids); use --check-ids para conferir."
            if pt else
            "[yellow]Warning[/]: crew ids not checked for repeats within a vessel (large "
            "table, or --no-check-ids); use --check-ids to check them.")
    for opt, n in s.get("options_not_applicable", {}).items():
        if n:  # a choice is reported, never silently dropped
            out_console.print(
                f"[yellow]Alerta[/] (option_not_applicable): opção {opt} não aplicada a "
                f"{_plural(n, 'embarcação', 'embarcações')} — a regra aplicável não usa essa "
                "leitura, ou o texto da norma já fixa essa escolha." if pt else
                f"[yellow]Warning[/] (option_not_applicable): option {opt} not applied to "
                f"{_plural(n, 'vessel', 'vessels')} — the applicable rule does not use that "
                "reading, or the norm's text already fixes that choice.")
    used = sorted({i for v in res.frame["interpretations"].drop_nulls().unique().to_list()
                   for i in str(v).split("; ") if i})
    if used:
        out_console.print(f"{'Interpretações aplicadas' if pt else 'Interpretations relied on'}: "
                          + ", ".join(used))
    if res.errors:
        # Name the first few with the engine's message: the reason should not need the file.
        bad = res.frame.filter(pl.col("verdict") == "input_error").select("id", "error")
        n = res.errors
        what = (f"{_plural(n, 'embarcação não julgada', 'embarcações não julgadas')} por erro "
                "de entrada (verdict input_error, mensagem na coluna error)" if pt else
                f"{_plural(n, 'vessel', 'vessels')} not judged: input error (verdict "
                "input_error, message in column error)")
        console_err.print(f"[yellow]{what}[/]")
        for vid, msg in bad.head(5).iter_rows():
            console_err.print(f"  {vid}: {msg}", markup=False, highlight=False)
    if out is not None:
        out_console.print(f"{'Resultado gravado em' if pt else 'Result written to'} "
                          f"{escape(str(out))} ("
                          + (_plural(res.frame.height, "linha", "linhas") if pt else
                             _plural(res.frame.height, "row", "rows")) + ").")


def _s(v: Any) -> str:
    return "" if v is None else str(v)


def register(app: typer.Typer) -> None:
    @app.command("screen", cls=PtCommand)
    def screen_cmd(
        fleet: Path = typer.Argument(..., help="pasta da frota: vessels.csv|parquet + "
                                     "crew.csv|parquet, ou arquivos de caso YAML/JSON",
                                     readable=False),
        on: str | None = typer.Option(None, "--on", help="data julgada (padrão: hoje)"),
        output: Path | None = typer.Option(None, "--output", "-o",
                                           help="resultado: .parquet ou .csv",
                                           readable=False),
        excel: bool = typer.Option(False, "--excel",
                                   help="CSV para o Excel em português: separador ';' e BOM "
                                        "UTF-8"),
        horizon: int | None = typer.Option(None, "--horizon",
                                           help="dias à frente (visão do afretador)"),
        option: list[str] | None = typer.Option(None, "--option",
                                                help="interpretação: família=variante"),
        keep_going: bool = typer.Option(False, "--keep-going",
                                        help="não parar em embarcação com dados inválidos"),
        top: int = typer.Option(10, "--top", help="linhas da tabela de maiores riscos"),
        check_ids: bool | None = typer.Option(
            None, "--check-ids/--no-check-ids",
            help="recusar id de tripulante repetido na mesma embarcação (padrão: até "
                 "1.000.000 de linhas de tripulação)"),
        lang: str | None = LangOpt,
    ) -> None:
        """Triagem de uma frota inteira: resultado por embarcação, ordenado por risco."""
        try:
            lang = resolve_lang(lang)
            day = parse_on(on) or today()
            if top < 0:
                raise InputError(f"--top deve ser um número de linhas ≥ 0: {top}", "--top",
                                 message_en=f"--top must be a number of rows ≥ 0: {top}")
            opts = parse_options(option, ["abordo.quota"])
            check_result_path(output, excel)  # before the run, not after it
            check_output(output, fleet_inputs(fleet))
            with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                          TimeElapsedColumn(), console=console_err, transient=True,
                          disable=not console_err.is_terminal) as progress:
                task = progress.add_task("abordo screen", total=len(STAGES))

                def stage(name: str) -> None:
                    key, _, count = name.partition(" ")
                    pt, en = STAGES.get(key, (key, key))
                    text = f"{en if lang == 'en' else pt} {count}".strip()
                    progress.update(task, description=text, advance=0 if count else 1)

                res = screen(fleet, day, opts, horizon, keep_going, lang, stage,
                             check_ids=check_ids)
                if output is not None:
                    stage("write")
                    write_result(res.frame, output, excel=excel)
        except InputError as exc:
            shown = lang if lang in ("pt", "en") else default_lang()
            label = "input error" if shown == "en" else "erro de entrada"
            console_err.print(f"[bold red]{label}[/]: ", end="", highlight=False)
            console_err.print(exc.render(shown), markup=False, highlight=False)
            raise typer.Exit(2) from None
        _print_summary(res, lang, top, output, opts)
        raise typer.Exit(2 if res.errors else 1 if res.non_compliant else 0)

"""The command line's own words in Portuguese: usage line, ``--help`` and usage errors.

Typer (0.29) prints some of its words through gettext — the help panels' titles, "Try …
for help", ``[default: …]`` — and those come from the catalogue of
:mod:`abordo.faces.cli.messages`. The rest is fixed English text in its parser: the
``Usage:`` line, the help option's description and the usage errors ("Missing argument
'file'.", "No such option: --x"). The command and group classes here give those in
Portuguese (``--lang en`` or an English locale keeps the English): every ``abordo``
command and group is built with them.
"""

from __future__ import annotations

import os
import re
from typing import Any

from typer._click.core import Context
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperCommand, TyperGroup

# Usage errors of the parser, English → Portuguese (applied in order to the whole message).
_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), r) for p, r in (
        (r"^Missing argument (.+)\.$", r"Argumento obrigatório ausente: \1."),
        (r"^Missing option (.+)\.$", r"Opção obrigatória ausente: \1."),
        (r"^Missing parameter:? (.+?)\.?$", r"Parâmetro obrigatório ausente: \1."),
        (r"^No such option: (\S+)", r"Opção inexistente: \1"),
        (r"\(Possible options: (.+)\)$", r"(opções possíveis: \1)"),
        (r"^Option (.+) requires an argument\.$", r"A opção \1 exige um valor."),
        (r"^Option (.+) requires (\d+) arguments\.$", r"A opção \1 exige \2 valores."),
        (r"^Option (.+) does not take a value\.$", r"A opção \1 não recebe valor."),
        (r"^Got unexpected extra argument(?:s|\(s\))? \((.*)\)$", r"Argumentos a mais: \1"),
        (r"^Invalid value for (.+?): ", r"Valor inválido para \1: "),
        (r"^Invalid value: ", r"Valor inválido: "),
        (r"Value (.+) is not a valid integer\.", r"\1 não é um número inteiro."),
        (r"Value (.+) is not a valid (float|number)\.", r"\1 não é um número."),
        (r"Value (.+) is not a valid (\w+)\.", r"\1 não é um valor válido (\2)."),
        (r"(.+) is not one of (.+)\.$", r"\1 não é um destes: \2."),
        (r"Input should be a valid integer.*$", r"deve ser um número inteiro"),
        (r"Input should be a valid number.*$", r"deve ser um número"),
        (r"Input should be a valid (\w+).*$", r"deve ser um valor válido (\1)"),
        (r"\. Did you mean (.+)\?$", r". Quis dizer \1?"),
    ))
HELP_TEXT = "Mostra esta ajuda e sai."

# What the help's type column shows for a value, by option name first, else by the type Typer
# names (``<str>`` …): (Portuguese, English). A flag takes no value: nothing is shown.
_VALUE_BY_NAME: dict[str, tuple[str, str]] = {
    "--on": ("DATA", "DATE"), "--date": ("DATA", "DATE"), "--lang": ("pt|en", "pt|en"),
    "--format": ("FORMATO", "FORMAT"), "--prior": ("DISPOSITIVO:DATA…", "PROVISION:DATE…"),
    "--chosen-value": ("VALOR", "AMOUNT"), "--reason": ("MOTIVO", "REASON"),
    "--option": ("FAMÍLIA=VARIANTE", "FAMILY=VARIANT"),
    "--db": ("URL", "URL"), "--email": ("E-MAIL", "EMAIL"), "--password": ("SENHA", "PASSWORD"),
    "--token": ("TOKEN", "TOKEN"), "--host": ("ENDEREÇO", "ADDRESS"),
}
# The name an argument goes by in the usage line, the help and the usage errors, by its
# parameter's name: (Portuguese, English). Typer shows the Python name otherwise, in braces
# when required (``abordo check [OPÇÕES] {file}``).
_ARGUMENT_NAMES: dict[str, tuple[str, str]] = {
    "file": ("ARQUIVO", "FILE"), "directory": ("PASTA", "FOLDER"),
    "fleet": ("PASTA", "FOLDER"), "kind": ("TIPO", "KIND"),
}
_VALUE_BY_TYPE: dict[str, tuple[str, str]] = {
    "<bool>": ("", ""), "<str>": ("TEXTO", "TEXT"), "<int>": ("N", "N"),
    "<float>": ("NÚMERO", "NUMBER"), "<path>": ("CAMINHO", "PATH"),
    "<file>": ("ARQUIVO", "FILE"), "<directory>": ("PASTA", "FOLDER"),
    "<list[str]>": ("TEXTO…", "TEXT…"), "<list[path]>": ("CAMINHO…", "PATH…"),
}


def _portuguese() -> bool:
    # The language chosen at start-up (abordo.faces.cli.messages.use_language).
    return not os.environ.get("LANGUAGE", "").startswith("en")


def translate_error(message: str) -> str:
    """A usage error of the parser in Portuguese (unchanged when no pattern knows it)."""
    for pattern, repl in _ERRORS:
        message = pattern.sub(repl, message)
    return message


def _in_portuguese(exc: UsageError) -> UsageError:
    if not _portuguese() or isinstance(exc, NoArgsIsHelpError):  # help shown: no error
        return exc
    out = UsageError(translate_error(exc.format_message()), exc.ctx)
    out.exit_code = exc.exit_code
    return out


class _Words:
    """What the command and group classes share (a mixin over Typer's classes)."""

    def get_usage(self, ctx: Context) -> str:
        self._argument_names()
        usage: str = super().get_usage(ctx)  # type: ignore[misc]
        # A required argument plain (``ARQUIVO``), as usage lines write it; an optional one
        # keeps its brackets.
        names = "|".join(re.escape(n) for pair in _ARGUMENT_NAMES.values() for n in pair)
        usage = re.sub(rf"\{{({names})\}}", r"\1", usage)
        if not _portuguese():
            return usage
        return (re.sub(r"^Usage:", "Uso:", usage).replace("[OPTIONS]", "[OPÇÕES]")
                .replace("COMMAND [ARGS]...", "COMANDO [ARGS]..."))

    def format_help(self, ctx: Context, formatter: Any) -> None:
        self._argument_names()
        self._value_labels(ctx)
        super().format_help(ctx, formatter)  # type: ignore[misc]

    def _argument_names(self) -> None:
        """Each argument named in the language of this run (:data:`_ARGUMENT_NAMES`): set
        on every use, since the language is chosen per run and a test runs several."""
        for param in self.params:  # type: ignore[attr-defined]
            pair = _ARGUMENT_NAMES.get(param.name or "")
            if param.param_type_name == "argument" and pair is not None:
                param.metavar = pair[0] if _portuguese() else pair[1]
                # The name says what it is: no type column beside it (``ARQUIVO CAMINHO``).
                param.display_type_rich = lambda ctx: ""
                param._abordo_words = True

    def _value_labels(self, ctx: Context) -> None:
        """Words in the help's type column instead of Typer's ``<str>``/``<bool>``: ``--on
        DATA``, ``--output CAMINHO``, a flag with none (an explicit metavar is kept)."""
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            if param.metavar is not None or getattr(param, "_abordo_words", False):
                continue
            shown = param.display_type_rich(ctx)
            named = next((_VALUE_BY_NAME[o] for o in param.opts if o in _VALUE_BY_NAME), None)
            # A flag takes no value, whatever its name (``users add --token``).
            pair = ("", "") if getattr(param, "is_flag", False) else (
                named or _VALUE_BY_TYPE.get(shown or ""))
            if pair is not None:
                # Typer reads the type column from here; the language is the one of each help.
                param.display_type_rich = (
                    lambda ctx, _pair=pair: _pair[0] if _portuguese() else _pair[1])
                param._abordo_words = True

    def get_help_option(self, ctx: Context) -> Any:
        opt = super().get_help_option(ctx)  # type: ignore[misc]
        if opt is not None and _portuguese():
            opt.help = HELP_TEXT
        return opt

    def make_context(self, info_name: str | None, args: list[str],
                     parent: Context | None = None, **extra: Any) -> Context:
        self._argument_names()  # a missing argument's error names it so
        try:
            ctx: Context = super().make_context(  # type: ignore[misc]
                info_name, args, parent=parent, **extra)
        except UsageError as exc:
            raise _in_portuguese(exc) from None
        return ctx


class PtCommand(_Words, TyperCommand):
    """A Typer command whose own words are Portuguese."""


class PtGroup(_Words, TyperGroup):
    """A Typer group whose own words are Portuguese (its commands' lookup errors too)."""

    def resolve_command(self, ctx: Context, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as exc:
            raise _in_portuguese(exc) from None


"""Portuguese for the messages of the YAML and JSON parsers (PyYAML, :mod:`json`), so that a
syntax error in an input file reads in the user's language like every other input error.

A message the table does not know is kept as the parser wrote it (English), never dropped.
"""

from __future__ import annotations

import re

import yaml

from abordo.law.errors import bilingual

# (pattern of the parser's message, Portuguese with the pattern's groups)
_TOKEN = r"'([^']*)'"
# Templates take the parser's token already said ({0}: see _TOKENS, else quoted).
_YAML: tuple[tuple[str, str], ...] = (
    (rf"expected ',' or '\}}', but got {_TOKEN}",
     "esperava ',' ou '}}' (fim do mapa em chaves), mas encontrou {0}"),
    (rf"expected ',' or '\]', but got {_TOKEN}",
     "esperava ',' ou ']' (fim da lista em colchetes), mas encontrou {0}"),
    (r"mapping values are not allowed here",
     "':' fora de lugar (um valor com ':' precisa de aspas, ou a indentação está errada)"),
    (rf"found character {_TOKEN} that cannot start any token",
     "caractere {0} não pode começar um valor (tabulação? use espaços na indentação)"),
    (r"found unexpected end of stream",
     "o arquivo terminou antes do fim de um valor (aspas não fechadas?)"),
    (rf"found undefined alias {_TOKEN}", "apelido (alias) {0} não definido"),
    (r"could not find expected ':'", "':' esperado (chave sem valor?)"),
    (rf"expected <block end>, but found {_TOKEN}",
     "indentação inconsistente: encontrou {0} onde o bloco deveria terminar"),
    (r"did not find expected key", "chave esperada (indentação inconsistente?)"),
    (r"did not find expected '-' indicator", "'-' de item de lista esperado"),
    (rf"found duplicate anchor {_TOKEN}.*", "âncora {0} repetida"),
    (rf"expected the node content, but found {_TOKEN}", "valor esperado, mas encontrou {0}"),
    (r"found unknown escape character.*", "sequência de escape desconhecida entre aspas"),
)
# PyYAML's names of the tokens it met, as a reader of the file would say them.
_TOKENS = {
    "<stream end>": "o fim do arquivo", "<block end>": "o fim de um bloco",
    "<block mapping start>": "um campo com outra indentação",
    "<block sequence start>": "o início de uma lista", "<document start>": "'---'",
    "?": "'?' (chave complexa)",
}
_JSON: tuple[tuple[str, str], ...] = (
    (r"Expecting property name enclosed in double quotes",
     "esperava o nome de um campo entre aspas duplas (vírgula sobrando antes de '}}'?)"),
    (r"Expecting ',' delimiter", "esperava ',' entre dois itens"),
    (r"Expecting ':' delimiter", "esperava ':' entre o campo e o valor"),
    (r"Expecting value", "esperava um valor"),
    (r"Extra data", "conteúdo após o fim do documento"),
    (r"Unterminated string starting at", "texto entre aspas não fechado"),
    (r"Invalid control character at", "caractere de controle dentro de um texto"),
    (r"Invalid \\escape", "sequência de escape inválida"),
    # Python 3.13 and later
    (r"Illegal trailing comma before end of object", "vírgula sobrando antes de '}}'"),
    (r"Illegal trailing comma before end of array", "vírgula sobrando antes de ']'"),
)


def _translate(message: str, table: tuple[tuple[str, str], ...]) -> str:
    for pattern, pt in table:
        m = re.fullmatch(pattern, message.strip(), flags=re.DOTALL)
        if m:
            return pt.format(*(_TOKENS.get(g, f"'{g}'") for g in m.groups()))
    return message


def yaml_message(message: str) -> str:
    """Portuguese for a PyYAML ``problem`` (the text unchanged when not in the table)."""
    return _translate(message, _YAML)


# The line breaks of YAML (and of the editors that show its lines).
_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


def text_position(text: str, index: int) -> tuple[int, int]:
    """``(line, column)``, both from 1, of the character at ``index`` of ``text``."""
    start, line = 0, 1
    for brk in _BREAK.finditer(text, 0, index):
        start, line = brk.end(), line + 1
    return line, index - start + 1


def character_words(code: int) -> tuple[str, str]:
    """``(portuguese, english)`` naming a character a reader refuses: ``U+0007`` and, for a
    control character, that it is one (it shows as nothing, or as a box); for a mark of
    the text's direction (U+202A–U+202E, U+2066–U+2069), that it is one (it shows as
    nothing, and reorders what follows it)."""
    name = f"U+{code:04X}"
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return f"caractere de controle {name} (invisível)", f"control character {name} (invisible)"
    if 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
        return (f"marca de direção do texto {name} (invisível: muda a ordem em que o texto "
                "aparece)", f"text-direction mark {name} (invisible: it changes the order "
                "the text shows in)")
    return f"caractere {name}", f"character {name}"


def yaml_problem(exc: yaml.YAMLError, text: str) -> tuple[str, str, int | None]:
    """``(portuguese, english, line)`` of why PyYAML refused ``text``. A character it does not
    accept (a control character such as U+0007 or U+0000: its reader gives only an offset
    into the text) is named with its line and column."""
    if isinstance(exc, yaml.reader.ReaderError) and isinstance(exc.character, int):
        line, column = text_position(text, exc.position)
        pt, en = character_words(exc.character)
        return (f"{pt} na coluna {column}, não permitido: apague-o",
                f"{en} at column {column}, not allowed: delete it", line)
    mark = getattr(exc, "problem_mark", None)
    pt, en = bilingual(str(getattr(exc, "problem", None) or exc))
    return yaml_message(pt), en, (mark.line + 1 if mark is not None else None)


def json_message(message: str) -> str:
    """Portuguese for a :class:`json.JSONDecodeError` ``msg``."""
    return _translate(message, _JSON)


def workbook_problem(exc: Exception) -> tuple[str, str]:
    """``(portuguese, english)`` of why openpyxl could not open a workbook — it raises many
    kinds for a file that is not one, or a damaged one."""
    import zipfile

    if isinstance(exc, zipfile.BadZipFile):
        return ("o arquivo não é uma planilha XLSX (não está no formato do Excel 2007+: "
                "um .xls antigo, um CSV renomeado ou um arquivo corrompido?)",
                f"the file is not an XLSX workbook ({exc})")
    if isinstance(exc, KeyError | EOFError | zipfile.LargeZipFile):
        return ("planilha XLSX incompleta ou corrompida (salve-a de novo no Excel)",
                f"incomplete or damaged XLSX workbook ({exc})")
    return f"planilha XLSX ilegível ({exc})", f"unreadable XLSX workbook ({exc})"

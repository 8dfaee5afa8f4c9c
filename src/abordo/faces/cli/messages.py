"""Portuguese for the messages of Click and Typer: the usage line, the help panels
("Opções", "Comandos") and their errors ("Argumento ausente", "Opção inexistente").

Both libraries mark their messages for gettext in its default domain (``messages``). The
``abordo`` command binds that domain to its own catalogue and chooses the language once, at
start-up (:func:`use_language`), so that the whole command speaks the language of its own
messages (Portuguese by default, English with ``--lang en`` or an English locale).

The catalogue is ``locale/pt_BR/LC_MESSAGES/messages.po`` (text, reviewed by hand), compiled
to ``messages.mo`` beside it by ``python -m abordo.faces.cli.messages``; a test checks that
the compiled file is the compilation of the text.
"""

from __future__ import annotations

import gettext
import io
import os
from pathlib import Path

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"  # gettext's default domain, where Click and Typer look their text up
CATALOGUE = LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_catalogue(po: Path = CATALOGUE) -> bytes:
    """The ``.mo`` bytes of the ``.po`` file ``po`` (fuzzy entries left out)."""
    # Imported here: only compiling needs them, not every start of the command.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def use_language(lang: str) -> None:
    """Make Click's and Typer's messages speak ``lang`` (``pt`` or ``en``) in this process.

    Process-wide by nature (gettext reads its language from ``LANGUAGE``): only the
    command's entry point calls it, before the first message is looked up.
    """
    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    os.environ["LANGUAGE"] = "en" if lang == "en" else "pt_BR"


def main() -> None:
    """Compile the catalogue (run after editing the ``.po`` file)."""
    target = CATALOGUE.with_suffix(".mo")
    target.write_bytes(compile_catalogue())
    print(f"{target} escrito")


if __name__ == "__main__":
    main()

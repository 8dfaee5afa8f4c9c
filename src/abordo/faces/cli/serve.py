"""``abordo serve``, ``abordo db upgrade``, ``abordo users add``, ``abordo audit verify``."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer
from sqlalchemy import func, select

from abordo.faces.cli.common import console, console_err
from abordo.faces.cli.words import PtCommand, PtGroup
from abordo.law.errors import InputError

DbOpt = typer.Option(None, "--db", help="URL do banco (padrão: $ABORDO_DB ou ./abordo.sqlite)")


def _url(db: str | None) -> str:
    from abordo.cases.db import default_url, normalize_url

    return normalize_url(db) if db else default_url()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def db_error(url: str, exc: BaseException) -> InputError:
    """A database/driver error at the CLI boundary as a clear ``--db`` input error (exit 2)."""
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    from abordo.cases.db import display_url

    shown = display_url(url)
    scheme = url.split("://", 1)[0] if "://" in url else "?"
    if isinstance(exc, NoSuchModuleError):
        pt = (f"tipo de banco não suportado '{scheme}' em {shown}: use sqlite:///arquivo.sqlite "
              "(ou um caminho de arquivo) ou postgresql://usuário@host/banco")
        en = (f"unsupported database type '{scheme}' in {shown}: use sqlite:///file.sqlite "
              "(or a file path) or postgresql://user@host/database")
    elif isinstance(exc, ImportError):
        pt = (f"driver do banco '{scheme}' não instalado ({exc.name or exc}): o Abordo usa "
              "SQLite ou PostgreSQL (psycopg)")
        en = (f"database driver for '{scheme}' not installed ({exc.name or exc}): Abordo uses "
              "SQLite or PostgreSQL (psycopg)")
    elif isinstance(exc, ArgumentError | ValueError):
        pt = f"URL de banco inválida '{shown}': {_first_line(exc)}"
        en = f"invalid database URL '{shown}': {_first_line(exc)}"
    elif isinstance(exc, DBAPIError):
        pt = f"não foi possível abrir o banco {shown}: {_first_line(exc)}"
        en = f"cannot open the database {shown}: {_first_line(exc)}"
    else:
        pt = f"erro no banco {shown}: {_first_line(exc)}"
        en = f"database error in {shown}: {_first_line(exc)}"
    return InputError(pt, "--db", message_en=en)


@contextmanager
def db_errors(url: str) -> Iterator[None]:
    """Turn SQLAlchemy, driver and migration errors into :func:`db_error` (no traceback)."""
    from alembic.util.exc import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    try:
        yield
    except InputError:
        raise
    except (SQLAlchemyError, ImportError, ValueError, CommandError, OSError) as exc:
        raise db_error(url, exc) from None


ASK_HELP = "pedir a senha no terminal, sem eco (sem terminal: uma linha da entrada padrão)"


def _at_terminal() -> bool:
    """Whether the password can be asked at a terminal (standard input is one)."""
    return sys.stdin.isatty()


def _asked(password: str | None, ask: bool) -> str | None:
    """The password given, or asked at the terminal without echo (``--ask-password``: it then
    stays out of the shell's history and the process list), typed twice."""
    if not ask:
        return password
    if password is not None:
        raise InputError("use --password ou --ask-password, não os dois", "password",
                         message_en="use --password or --ask-password, not both")
    if not _at_terminal():
        # No terminal (a script piping it): one line of standard input, without the prompts
        # and Python's English warning that the input may be echoed.
        line = sys.stdin.readline().rstrip("\r\n")
        if not line:
            raise InputError("senha não informada (sem terminal, --ask-password lê uma linha "
                             "da entrada padrão)", "password", message_en="no password given "
                             "(without a terminal, --ask-password reads one line of standard "
                             "input)")
        return line
    try:
        while True:  # typed twice; Typer's own confirmation speaks English only
            first: str = typer.prompt("Senha", hide_input=True)
            if first == typer.prompt("Repita a senha", hide_input=True):
                return first
            console_err.print("as duas senhas digitadas não conferem; digite de novo")
    except typer.Abort:  # end of input (or Ctrl-C) at the prompt: no password, exit 2
        raise InputError("senha não informada", "password",
                         message_en="no password given") from None


def checked_url(db: str | None, *, must_exist: bool = False) -> str:
    """The ``--db`` URL, checked before anything connects: a SQLite file's folder must exist
    (and, with ``must_exist``, the file itself: nothing is created by mistake)."""
    from abordo.cases.db import sqlite_file

    url = _url(db)
    with db_errors(url):
        path = sqlite_file(url)
    if path is None:
        return url
    if path.is_dir():
        raise InputError(f"o banco indicado é uma pasta, não um arquivo: {path}", "--db",
                         message_en=f"the database given is a folder, not a file: {path}")
    if must_exist and not path.exists():
        raise InputError(f"arquivo do banco não existe: {path} (confira o caminho; nada foi "
                         "criado)", "--db",
                         message_en=f"database file does not exist: {path} (check the path; "
                                    "nothing was created)")
    if not path.parent.is_dir():
        raise InputError(f"pasta do banco não existe: {path.parent}", "--db",
                         message_en=f"database folder does not exist: {path.parent}")
    return url


def prepare_db(db: str | None) -> str:
    """Checked URL, migrated to the last revision (creates a SQLite file if needed)."""
    from abordo.cases.db import upgrade

    url = checked_url(db)
    with db_errors(url):
        upgrade(url)
    return url


def ensure_demo_admin(url: str) -> tuple[str, str] | None:
    """On an empty user table, create a local demo administrator; returns its credentials."""
    from abordo.cases import auth
    from abordo.cases.db import session_factory
    from abordo.cases.models import User

    with session_factory(url)() as s, s.begin():
        if s.execute(select(func.count()).select_from(User)).scalar_one():
            return None
        password = secrets.token_urlsafe(12)
        auth.add_user(s, email="admin@abordo.local", role="admin", region=None,
                      password=password, actor="abordo serve", name="Administrador (demo)")
        return "admin@abordo.local", password


_BIND_ERRORS = {  # errno → (pt, en, option at fault)
    "EADDRINUSE": ("endereço já em uso (outro servidor nesta porta?)",
                   "address already in use (another server on this port?)", "--port"),
    "EACCES": ("permissão negada (portas abaixo de 1024 exigem privilégio)",
               "permission denied (ports below 1024 need privileges)", "--port"),
    "EADDRNOTAVAIL": ("o endereço não pertence a esta máquina",
                      "the address does not belong to this machine", "--host"),
}


def check_listen(host: str, port: int, workers: int) -> None:
    """Refuse, before anything starts or is written, an address the server could not listen
    on: a port outside 0–65535, a host that does not resolve or is not this machine's, an
    address already in use (InputError naming ``--port`` / ``--host`` / ``--workers``,
    exit 2 — not the server's traceback). Every address the host resolves to is tried, as
    the server binds them all; ``--host ""`` means every interface."""
    import errno
    import socket

    if not 0 <= port <= 65535:
        raise InputError(f"porta fora do intervalo 0–65535: {port}", "--port",
                         message_en=f"port outside 0–65535: {port}")
    if workers < 1:
        raise InputError(f"número de processos deve ser ≥ 1: {workers}", "--workers",
                         message_en=f"the number of workers must be ≥ 1: {workers}")
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise InputError(f"endereço desconhecido '{host}'", "--host",
                         message_en=f"unknown address '{host}' ({exc})") from None
    for family, kind, proto, _, addr in dict.fromkeys(
            (i[0], i[1], i[2], i[3], i[4]) for i in infos):
        with socket.socket(family, kind, proto) as probe:
            # As the server does (SO_REUSEADDR): a port in TIME_WAIT is free, one in use not.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(addr)
            except OSError as exc:
                name = errno.errorcode.get(exc.errno or 0, "")
                pt, en, option = _BIND_ERRORS.get(
                    name, (f"erro do sistema: {exc.strerror or exc}",
                           f"system error: {exc.strerror or exc}", "--port"))
                shown = f"[{addr[0]}]" if family == socket.AF_INET6 else addr[0]
                raise InputError(f"não é possível escutar em {shown}:{port}: {pt}", option,
                                 message_en=f"cannot listen on {shown}:{port}: {en}") from None


def register(app: typer.Typer) -> None:
    db_app = typer.Typer(cls=PtGroup, help="Banco de dados dos casos.", no_args_is_help=True)
    users_app = typer.Typer(cls=PtGroup, help="Usuários, papéis e regiões.", no_args_is_help=True)
    audit_app = typer.Typer(cls=PtGroup, help="Trilha de auditoria.", no_args_is_help=True)

    @app.command("serve", cls=PtCommand)
    def serve(db: str | None = DbOpt,
              host: str = typer.Option("127.0.0.1", "--host"),
              port: int = typer.Option(8000, "--port"),
              workers: int = typer.Option(1, "--workers", help="processos uvicorn")) -> None:
        """API REST (/api/v1, OpenAPI em /api/v1/docs); cria e migra o banco se preciso."""
        import os

        import uvicorn

        from abordo.cases.db import display_url

        check_listen(host, port, workers)  # before the database is created or migrated
        url = prepare_db(db)
        with db_errors(url):
            creds = ensure_demo_admin(url)
        if creds:
            console.print("Banco vazio: criado administrador local de demonstração "
                          "(crie usuários com `abordo users add`; troque esta senha com "
                          "`abordo users passwd` ou desative a conta com `abordo users "
                          "disable`):")
            console.print(f"  e-mail: {creds[0]}\n  senha:  {creds[1]}")
        console.print(f"Abordo API em http://{host}:{port}/api/v1/docs — banco "
                      f"{display_url(url)}")
        os.environ["ABORDO_DB"] = url
        if workers > 1:
            uvicorn.run("abordo.faces.api.asgi:app", host=host, port=port, workers=workers)
        else:
            from abordo.faces.api import create_app

            uvicorn.run(create_app(url), host=host, port=port)

    @db_app.command("upgrade", cls=PtCommand)
    def db_upgrade(db: str | None = DbOpt) -> None:
        """Aplica as migrações (Alembic) até a última versão."""
        from abordo.cases.db import display_url

        url = prepare_db(db)
        console.print(f"banco atualizado: {display_url(url)}")

    @users_app.command("add", cls=PtCommand)
    def users_add(email: str = typer.Option(..., "--email"),
                  role: str = typer.Option(..., "--role",
                                           help="inspector | regional_chief | national | admin"),
                  region: str | None = typer.Option(None, "--region"),
                  password: str | None = typer.Option(
                      None, "--password", help="senha (padrão: gerada e mostrada)"),
                  ask: bool = typer.Option(False, "--ask-password",
                                           help=ASK_HELP),
                  name: str | None = typer.Option(None, "--name"),
                  token: bool = typer.Option(False, "--token", help="emitir um token de API"),
                  db: str | None = DbOpt) -> None:
        """Cria um usuário (registrado na trilha de auditoria)."""
        from abordo.cases import auth
        from abordo.cases.db import session_factory

        password = _asked(password, ask)
        url = prepare_db(db)
        generated = password is None
        pw = password or secrets.token_urlsafe(12)
        with session_factory(url)() as s, s.begin():
            user = auth.add_user(s, email=email, role=role, region=region, password=pw,
                                 actor="cli", name=name)
            tok = auth.issue_token(s, user, "cli", actor="cli") if token else None
        console.print(f"usuário criado: {user.email} ({user.role}, região {user.region or '—'})")
        if generated:
            console.print(f"senha gerada: {pw}")
        if tok:
            console.print(f"token de API: {tok}")

    @users_app.command("passwd", cls=PtCommand)
    def users_passwd(email: str = typer.Option(..., "--email"),
                     password: str | None = typer.Option(
                         None, "--password", help="nova senha (padrão: gerada e mostrada)"),
                     ask: bool = typer.Option(False, "--ask-password",
                                              help=ASK_HELP),
                     db: str | None = DbOpt) -> None:
        """Troca a senha de um usuário (registrado na trilha de auditoria)."""
        from abordo.cases import auth
        from abordo.cases.db import session_factory

        password = _asked(password, ask)
        url = checked_url(db, must_exist=True)
        pw = password or secrets.token_urlsafe(12)
        with db_errors(url), session_factory(url)() as s, s.begin():
            user = auth.set_password(s, email=email, password=pw, actor="cli")
        console.print(f"senha trocada: {user.email}")
        if password is None:
            console.print(f"senha gerada: {pw}")

    @users_app.command("disable", cls=PtCommand)
    def users_disable(email: str = typer.Option(..., "--email"),
                      db: str | None = DbOpt) -> None:
        """Desativa um usuário: sem login, tokens e sessões revogados; os registros ficam."""
        from abordo.cases import auth
        from abordo.cases.db import session_factory

        url = checked_url(db, must_exist=True)
        with db_errors(url), session_factory(url)() as s, s.begin():
            user = auth.deactivate_user(s, email=email, actor="cli")
        console.print(f"usuário desativado: {user.email}")

    @users_app.command("list", cls=PtCommand)
    def users_list(db: str | None = DbOpt) -> None:
        """Lista os usuários: e-mail, nome, papel, região, ativo."""
        from sqlalchemy import select

        from abordo.cases.db import session_factory
        from abordo.cases.models import User

        url = checked_url(db, must_exist=True)
        with db_errors(url), session_factory(url)() as s:
            users = s.execute(select(User).order_by(User.email)).scalars().all()
            for u in users:
                console.print(f"{u.email}\t{u.name or '—'}\t{u.role}\t{u.region or '—'}\t"
                              f"{'ativo' if u.active else 'desativado'}")

    @audit_app.command("verify", cls=PtCommand)
    def audit_verify(db: str | None = DbOpt) -> None:
        """Verifica a cadeia de hashes, os casos, os usuários e os anexos; lista cada
        problema encontrado e sai com 1 se houver algum (2: banco inexistente, sem o
        esquema do Abordo ou noutra revisão dele)."""
        from abordo.cases import audit
        from abordo.cases.db import display_url, has_schema, is_current, session_factory

        url = checked_url(db, must_exist=True)
        found = 0
        with db_errors(url):
            if not has_schema(url):
                raise InputError(
                    f"banco sem o esquema do Abordo (rode abordo db upgrade): {display_url(url)}",
                    "--db", message_en="database without the Abordo schema (run abordo db "
                                       f"upgrade): {display_url(url)}")
            if not is_current(url):
                raise InputError(
                    f"banco numa revisão do esquema que não é a desta versão do Abordo (rode "
                    f"abordo db upgrade): {display_url(url)}", "--db",
                    message_en="database at another revision of the schema than this Abordo "
                               f"version's (run abordo db upgrade): {display_url(url)}")
            with session_factory(url)() as s:
                walk = audit.Verification(s)
                for problem in walk:  # each one as it is found (a large log is streamed)
                    found += 1
                    console_err.print(f"trilha de auditoria ADULTERADA: {problem}")
        if not found:
            console.print(f"trilha de auditoria íntegra: {walk.checked} eventos verificados")
            return
        console_err.print(f"{found} problema(s) encontrado(s); {walk.checked} eventos "
                          "verificados")
        raise typer.Exit(1)

    app.add_typer(db_app, name="db")
    app.add_typer(users_app, name="users")
    app.add_typer(audit_app, name="audit")

"""``abordo serve``, ``abordo db upgrade``, ``abordo users add``, ``abordo audit verify``."""

from __future__ import annotations

import secrets

import typer
from sqlalchemy import func, select

from abordo.faces.cli.common import console, console_err

DbOpt = typer.Option(None, "--db", help="URL do banco (padrão: $ABORDO_DB ou ./abordo.sqlite)")


def _url(db: str | None) -> str:
    from abordo.cases.db import default_url, normalize_url

    return normalize_url(db) if db else default_url()


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


def register(app: typer.Typer) -> None:
    db_app = typer.Typer(help="Banco de dados dos casos.", no_args_is_help=True)
    users_app = typer.Typer(help="Usuários, papéis e regiões.", no_args_is_help=True)
    audit_app = typer.Typer(help="Trilha de auditoria.", no_args_is_help=True)

    @app.command("serve")
    def serve(db: str | None = DbOpt,
              host: str = typer.Option("127.0.0.1", "--host"),
              port: int = typer.Option(8000, "--port"),
              workers: int = typer.Option(1, "--workers", help="processos uvicorn")) -> None:
        """API REST (/api/v1, OpenAPI em /api/v1/docs); cria e migra o banco se preciso."""
        import os

        import uvicorn

        from abordo.cases.db import upgrade

        url = _url(db)
        upgrade(url)
        creds = ensure_demo_admin(url)
        if creds:
            console.print("Banco vazio: criado administrador local de demonstração "
                          "(troque a senha / crie usuários com `abordo users add`):")
            console.print(f"  e-mail: {creds[0]}\n  senha:  {creds[1]}")
        console.print(f"Abordo API em http://{host}:{port}/api/v1/docs — banco {url}")
        os.environ["ABORDO_DB"] = url
        if workers > 1:
            uvicorn.run("abordo.faces.api.asgi:app", host=host, port=port, workers=workers)
        else:
            from abordo.faces.api import create_app

            uvicorn.run(create_app(url), host=host, port=port)

    @db_app.command("upgrade")
    def db_upgrade(db: str | None = DbOpt) -> None:
        """Aplica as migrações (Alembic) até a última versão."""
        from abordo.cases.db import upgrade

        url = _url(db)
        upgrade(url)
        console.print(f"banco atualizado: {url}")

    @users_app.command("add")
    def users_add(email: str = typer.Option(..., "--email"),
                  role: str = typer.Option(..., "--role",
                                           help="inspector | regional_chief | national | admin"),
                  region: str | None = typer.Option(None, "--region"),
                  password: str | None = typer.Option(None, "--password"),
                  name: str | None = typer.Option(None, "--name"),
                  token: bool = typer.Option(False, "--token", help="emitir um token de API"),
                  db: str | None = DbOpt) -> None:
        """Cria um usuário (registrado na trilha de auditoria)."""
        from abordo.cases import auth
        from abordo.cases.db import session_factory, upgrade

        url = _url(db)
        upgrade(url)
        generated = password is None
        pw = password or secrets.token_urlsafe(12)
        with session_factory(url)() as s, s.begin():
            user = auth.add_user(s, email=email, role=role, region=region, password=pw,
                                 actor="cli", name=name)
            tok = auth.issue_token(s, user, "cli") if token else None
        console.print(f"usuário criado: {user.email} ({user.role}, região {user.region or '—'})")
        if generated:
            console.print(f"senha gerada: {pw}")
        if tok:
            console.print(f"token de API: {tok}")

    @audit_app.command("verify")
    def audit_verify(db: str | None = DbOpt) -> None:
        """Verifica a cadeia de hashes; sai com 1 no primeiro evento adulterado."""
        from abordo.cases import audit
        from abordo.cases.db import session_factory

        with session_factory(_url(db))() as s:
            res = audit.verify(s)
        if res.ok:
            console.print(f"trilha de auditoria íntegra: {res.checked} eventos verificados")
            return
        console_err.print(f"trilha de auditoria ADULTERADA: evento seq={res.broken_seq} "
                          f"(id={res.broken_id}): {res.reason}")
        raise typer.Exit(1)

    app.add_typer(db_app, name="db")
    app.add_typer(users_app, name="users")
    app.add_typer(audit_app, name="audit")

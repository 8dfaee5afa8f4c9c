"""Database URLs, engines (SQLite in WAL mode, PostgreSQL by URL) and Alembic migrations.

Alembic is configured in code (no ``alembic.ini``): the scripts ship as package data in
``abordo/cases/migrations``.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"
DEFAULT_FILE = "abordo.sqlite"


def default_url() -> str:
    """``$ABORDO_DB`` (a URL or a file path), else ``./abordo.sqlite``."""
    return normalize_url(os.environ.get("ABORDO_DB") or DEFAULT_FILE)


def normalize_url(value: str) -> str:
    """A SQLAlchemy URL; a bare path means a SQLite file; ``postgresql://`` uses psycopg 3."""
    if "://" not in value:
        return f"sqlite:///{Path(value).expanduser().absolute()}"
    if value.startswith("postgresql://") or value.startswith("postgres://"):
        return "postgresql+psycopg://" + value.split("://", 1)[1]
    return value


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


@cache
def get_engine(url: str) -> Engine:
    """One engine per URL per process (workers share nothing else)."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
    elif url.startswith("postgresql"):
        engine = create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 10})
    else:
        engine = create_engine(url, pool_pre_ping=True)
    return engine


def display_url(url: str) -> str:
    """The URL with its password hidden (for messages)."""
    try:
        parsed = make_url(normalize_url(url))
    except Exception:  # an unparsable URL is shown as given
        return url
    if parsed.password is None:
        return normalize_url(url)
    return parsed.render_as_string(hide_password=True)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for an in-memory or a non-SQLite database)."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database).expanduser()


#: the tables a database must hold to be an Abordo case store
SCHEMA_TABLES = ("cases", "audit_events", "audit_head", "users")


def has_schema(url: str) -> bool:
    """True when the database holds the Abordo tables (``abordo db upgrade`` was run)."""
    names = set(inspect(get_engine(url)).get_table_names())
    return set(SCHEMA_TABLES) <= names


def session_factory(url: str) -> sessionmaker[Session]:
    return sessionmaker(get_engine(url), expire_on_commit=False)


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Apply every migration up to ``revision`` (creates the SQLite file if needed)."""
    cfg = alembic_config(url)
    with get_engine(url).begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def is_current(url: str) -> bool:
    """True when the database is at the head revision."""
    script = ScriptDirectory.from_config(alembic_config(url))
    with get_engine(url).connect() as conn:
        current = MigrationContext.configure(conn).get_current_heads()
    return set(current) == set(script.get_heads())

"""Fixtures: the storage suite runs on SQLite and on PostgreSQL (``ABORDO_TEST_PG_URL``).

PostgreSQL is required, never skipped: if it is unreachable these tests fail (CI starts it).
A fresh database ``abordo_test_<random>`` is created per session and dropped at the end.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from abordo.cases.db import get_engine, upgrade

PG_ADMIN_URL = os.environ.get("ABORDO_TEST_PG_URL",
                              "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
ROOT = Path(__file__).resolve().parents[2]


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    name = f"abordo_test_{secrets.token_hex(4)}"
    with psycopg.connect(_libpq(PG_ADMIN_URL), autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN_URL.rsplit("/", 1)[0]
    url = f"{base}/{name}"
    try:
        yield url
    finally:
        get_engine(url).dispose()
        with psycopg.connect(_libpq(PG_ADMIN_URL), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database on each backend."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'abordo.sqlite'}"
    else:
        base: str = request.getfixturevalue("pg_url")
        # each test gets its own schema-free clean database state: truncate after migrating
        url = base
    upgrade(url)
    if request.param == "postgresql":
        with get_engine(url).begin() as conn:
            conn.exec_driver_sql(
                "TRUNCATE case_members, attachments, api_tokens, cases, users, settings, "
                "audit_head, audit_events RESTART IDENTITY CASCADE")
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'abordo.sqlite'}"
    upgrade(url)
    return url



"""Cases are searched by a folded vessel name, the same on SQLite and PostgreSQL.

The case list searched ``lower(vessel_name)``, and SQLite's ``lower()`` folds ASCII letters
only: ``?q=conceição`` did not find ``NOSSA SENHORA DA CONCEIÇÃO``, nor ``?q=sao`` ``São``.
This revision adds ``cases.vessel_search``, the name with accents, case and repeated spaces
folded away, written by the service on every change of the name
(:func:`abordo.cases.service.search_key`), and fills it for the cases stored before it with
the same rule, frozen here as it was written.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-10
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

_cases = sa.table("cases", sa.column("id", sa.Integer), sa.column("vessel_name", sa.String),
                  sa.column("vessel_search", sa.String))


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def _key(name: str | None) -> str | None:
    if name is None:
        return None
    chars = (_fold(ch) or ("" if unicodedata.combining(ch) else ch.casefold())
             for ch in unicodedata.normalize("NFKD", name))
    return " ".join("".join(chars).split())


def upgrade() -> None:
    """Add ``cases.vessel_search`` and fill it from each case's vessel name."""
    op.add_column("cases", sa.Column("vessel_search", sa.String(length=400), nullable=True))
    conn = op.get_bind()
    for row in conn.execute(sa.select(_cases.c.id, _cases.c.vessel_name)).all():
        if row.vessel_name is not None:
            conn.execute(sa.update(_cases).where(_cases.c.id == row.id)
                         .values(vessel_search=_key(row.vessel_name)))


def downgrade() -> None:
    """Drop the folded name (in place: a SQLite table rebuilt under the foreign keys of the
    case's team and attachments could not be dropped; SQLite ≥ 3.35 drops a column)."""
    op.drop_column("cases", "vessel_search")

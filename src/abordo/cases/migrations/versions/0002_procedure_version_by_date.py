"""Cases record the procedure in force on their date of facts, not always IN SIT 70/2007.

Before this revision every case stored ``procedure_version = 'in-sit-70-2007'``, even for a
complaint after that instruction was revoked (effects from 2021-12-10, IN MTP nº 2/2021). This
data migration sets, for each case, the procedure in force on its complaint date (the rule of
:func:`abordo.cases.checklist.procedure_for`, frozen here as it was written). No schema
change; the workflow modelled is still IN SIT 70/2007 and the API/documents warn when it is
not the procedure in force.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_cases = sa.table("cases", sa.column("id", sa.Integer), sa.column("data", sa.JSON),
                  sa.column("procedure_version", sa.String))


IN_SIT_70 = (dt.date(2007, 8, 14), dt.date(2021, 12, 9))


def _version(day: dt.date) -> str:
    if day < IN_SIT_70[0]:
        return "pre-in-sit-70-2007"
    return "in-sit-70-2007" if day <= IN_SIT_70[1] else "in-mtp-2-2021"


def upgrade() -> None:
    """Set each case's procedure version from its complaint date."""
    conn = op.get_bind()
    rows = conn.execute(sa.select(_cases.c.id, _cases.c.data,
                                  _cases.c.procedure_version)).all()
    for row in rows:
        data = row.data if isinstance(row.data, dict) else {}
        try:
            day = dt.date.fromisoformat(str((data.get("complaint") or {})["date"])[:10])
        except (KeyError, TypeError, ValueError):
            continue
        version = _version(day)
        if version != row.procedure_version:
            conn.execute(sa.update(_cases).where(_cases.c.id == row.id)
                         .values(procedure_version=version))


def downgrade() -> None:
    """Every case back to the single procedure recorded before this revision."""
    op.get_bind().execute(sa.update(_cases).values(procedure_version="in-sit-70-2007"))

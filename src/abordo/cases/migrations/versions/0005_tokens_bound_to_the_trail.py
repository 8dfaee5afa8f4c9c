"""API tokens and browser sessions are bound to the audit trail, as users are.

A token row inserted by hand, a revoked one switched back on, or one moved to another user
granted access unseen: tokens were issued and revoked outside the trail. From this revision
each issue and each revocation is an audit event (``issue_token``, ``revoke_token``) logging
``token_sha256``, the digest of the row (:func:`abordo.cases.audit.token_row_digest`); the
service refuses a token whose row is not the one its last event logged, and ``abordo audit
verify`` reports it.

Schema: ``audit_events.token_id`` (indexed), the token such an event is about — the lookup
key of its last event, copied from the payload's ``token_id`` (which the hash covers; the
column is not hashed, as ``user_id`` of 0004). Token events already in the trail (an
upgrade again after a downgrade) get it from their payload.

Data: the tokens and browser sessions issued before this revision have no event, and the
trail cannot tell one issued by the system from one inserted by hand: every one still live
that no event logs is revoked here (each user logs in again; an API token is issued anew with ``POST
/api/v1/auth/token`` or ``abordo users add --token``). A revoked token grants nothing, so
``audit verify`` does not ask an event of it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

# The events about one token as of this revision.
TOKEN_COMMANDS = ("issue_token", "revoke_token")

_tokens = sa.table("api_tokens", sa.column("id", sa.Integer),
                   sa.column("revoked", sa.Boolean))
_events = sa.table("audit_events", sa.column("id", sa.Integer),
                   sa.column("case_id", sa.Integer), sa.column("command", sa.String),
                   sa.column("payload", sa.JSON), sa.column("token_id", sa.Integer))


def upgrade() -> None:
    """Add ``audit_events.token_id`` and fill it for the token events; revoke the live
    tokens no event logs."""
    with op.batch_alter_table("audit_events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("token_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_audit_events_token_id"), ["token_id"],
                              unique=False)
    conn = op.get_bind()
    logged: set[int] = set()
    for row in conn.execute(sa.select(_events.c.id, _events.c.payload).where(
            _events.c.case_id.is_(None), _events.c.command.in_(TOKEN_COMMANDS))).all():
        token_id = row.payload.get("token_id") if isinstance(row.payload, dict) else None
        if isinstance(token_id, int):
            conn.execute(sa.update(_events).where(_events.c.id == row.id)
                         .values(token_id=token_id))
            logged.add(token_id)
    for (token_id,) in conn.execute(sa.select(_tokens.c.id).where(
            _tokens.c.revoked.is_(False))).all():
        if token_id not in logged:
            conn.execute(sa.update(_tokens).where(_tokens.c.id == token_id)
                         .values(revoked=True))


def downgrade() -> None:
    """Drop the lookup column (the token events stay: the chain is append-only, and the
    hashes never covered the column; the tokens revoked stay revoked)."""
    with op.batch_alter_table("audit_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_events_token_id"))
        batch_op.drop_column("token_id")

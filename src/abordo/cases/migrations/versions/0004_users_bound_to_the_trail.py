"""Audit events name the user they are about; every user row is bound to the trail.

A raw edit of the users table (a region, a role, ``active``, a password hash) widened access
unseen: ``abordo audit verify`` did not look at users, and the service granted what the row
said. From this revision every event about a user (``add_user``, ``set_password``,
``deactivate_user``) logs ``user_sha256``, the digest of what its row grants
(:func:`abordo.cases.audit.user_digest`), as a case's events log the digests of the case;
the service refuses a user whose row is not the one its last event logged, and
``abordo audit verify`` reports it.

Schema: ``audit_events.user_id`` (indexed), the user such an event is about — the lookup key
of a user's last event, copied from the payload's ``user_id`` (which the hash covers; the
column itself is not hashed, so it can be added and dropped without touching the chain:
``audit verify`` checks it against the payload). Existing user events get it from their
payload.

Data: users stored before this revision have no digest logged. Each one whose row agrees
with what the trail logged of it — one ``add_user`` event with its e-mail, role and region;
disabled if and only if a ``deactivate_user`` event says so — is bound now by one
``bind_user`` event (actor ``abordo db upgrade``) logging its digest. A user whose row
disagrees, or that no ``add_user`` event created, is left unbound: it was changed or
inserted outside the system, so it is refused and reported, not blessed. (Its name and
password hash were never logged: they are bound as they are.)

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-10
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

from abordo.cases import audit
from abordo.cases.models import AuditEvent, UTCDateTime, utcnow

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

# The events about one user as of this revision (``bind_user``: this one's).
USER_COMMANDS = ("add_user", "set_password", "deactivate_user", "bind_user")
ACTOR = "abordo db upgrade"
REASON = "usuário ligado à trilha de auditoria (migração 0004)"

_events = sa.table(
    "audit_events", sa.column("id", sa.Integer), sa.column("seq", sa.BigInteger),
    sa.column("case_id", sa.Integer), sa.column("actor", sa.String),
    sa.column("at", UTCDateTime()), sa.column("command", sa.String),
    sa.column("reason", sa.Text), sa.column("state_before", sa.String),
    sa.column("state_after", sa.String), sa.column("payload", sa.JSON),
    sa.column("prev_hash", sa.String), sa.column("hash", sa.String),
    sa.column("user_id", sa.Integer))
_head = sa.table("audit_head", sa.column("id", sa.Integer), sa.column("seq", sa.BigInteger),
                 sa.column("hash", sa.String))
_users = sa.table("users", sa.column("id", sa.Integer), sa.column("email", sa.String),
                  sa.column("name", sa.String), sa.column("role", sa.String),
                  sa.column("region", sa.String), sa.column("active", sa.Boolean),
                  sa.column("password_hash", sa.String))


def _agrees(user: Any, logged: list[tuple[str, dict[str, Any]]]) -> bool:
    """Whether the row is what the trail logged of the user (before digests were kept)."""
    added = [payload for command, payload in logged if command == "add_user"]
    if len(added) != 1:
        return False
    first = added[0]
    if (first.get("email"), first.get("role"), first.get("region")) \
            != (user.email, user.role, user.region):
        return False
    disabled = any(command == "deactivate_user" for command, _ in logged)
    return bool(user.active) is not disabled


def _append(conn: sa.Connection, user_id: int, digest: str) -> None:
    """One ``bind_user`` event at the chain's end, hashed as every event is."""
    head = conn.execute(sa.select(_head.c.seq, _head.c.hash).where(_head.c.id == 1)
                        .with_for_update()).one_or_none()
    if head is None:
        conn.execute(sa.insert(_head).values(id=1, seq=0, hash=audit.GENESIS))
        seq, prev = 0, audit.GENESIS
    else:
        seq, prev = int(head.seq), str(head.hash)
    payload = json.loads(audit.canonical_json({"user_id": user_id, "user_sha256": digest}))
    ev = AuditEvent(seq=seq + 1, case_id=None, actor=ACTOR, at=utcnow(), command="bind_user",
                    reason=REASON, state_before=None, state_after=None, payload=payload,
                    prev_hash=prev, hash="", user_id=user_id)
    ev.hash = audit.event_hash(prev, audit.event_body(ev))
    conn.execute(sa.insert(_events).values(
        seq=ev.seq, case_id=None, actor=ev.actor, at=ev.at, command=ev.command,
        reason=ev.reason, state_before=None, state_after=None, payload=payload,
        prev_hash=prev, hash=ev.hash, user_id=user_id))
    conn.execute(sa.update(_head).where(_head.c.id == 1).values(seq=ev.seq, hash=ev.hash))


def upgrade() -> None:
    """Add ``audit_events.user_id``, fill it for the user events, bind the users."""
    with op.batch_alter_table("audit_events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("user_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_audit_events_user_id"), ["user_id"],
                              unique=False)
    conn = op.get_bind()
    logged: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    rows = conn.execute(sa.select(_events.c.id, _events.c.command, _events.c.payload)
                        .where(_events.c.case_id.is_(None),
                               _events.c.command.in_(USER_COMMANDS))
                        .order_by(_events.c.seq)).all()
    for row in rows:
        payload = row.payload if isinstance(row.payload, dict) else {}
        user_id = payload.get("user_id")
        if not isinstance(user_id, int):
            continue
        conn.execute(sa.update(_events).where(_events.c.id == row.id).values(user_id=user_id))
        logged.setdefault(user_id, []).append((row.command, payload))
    for user in conn.execute(sa.select(_users).order_by(_users.c.id)).all():
        events = logged.get(user.id, [])
        if events and "user_sha256" in events[-1][1]:
            continue  # bound already (upgraded again after a downgrade), or to be reported
        if _agrees(user, events):
            _append(conn, user.id, audit.user_digest(user))


def downgrade() -> None:
    """Drop the lookup column (the ``bind_user`` events stay: the chain is append-only, and
    the hashes never covered the column)."""
    with op.batch_alter_table("audit_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_events_user_id"))
        batch_op.drop_column("user_id")

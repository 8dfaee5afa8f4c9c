"""SQLAlchemy 2 models of the inspection-case store. Timestamps are always UTC-aware."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    event,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, Mapper, mapped_column


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A timezone-aware UTC timestamp on every backend; naive values are refused."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect
                           ) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive timestamp refused: use an aware UTC datetime")
        value = value.astimezone(dt.UTC)
        # SQLite keeps no offset: store the UTC wall clock, re-attached on read.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: dt.datetime | None, dialect: Dialect
                             ) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, dt.datetime: UTCDateTime}


class Setting(Base):
    """Key/value settings shared by every worker (the session-signing secret)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str | None] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(32))
    region: Mapped[str | None] = mapped_column(String(32))
    password_hash: Mapped[str | None] = mapped_column(String(256))
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class ApiToken(Base):
    """A bearer token; only its SHA-256 is stored."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    revoked: Mapped[bool] = mapped_column(default=False)


class Case(Base):
    """One inspection action on one vessel. ``data`` holds the workflow facts (JSON)."""

    __tablename__ = "cases"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[str] = mapped_column(String(32), index=True)
    region: Mapped[str] = mapped_column(String(32), index=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    vessel_name: Mapped[str | None] = mapped_column(String(200))
    # ``vessel_name`` folded for search (accents and case aside), written by the service
    # with :func:`abordo.cases.service.search_key`: the same on SQLite and PostgreSQL.
    vessel_search: Mapped[str | None] = mapped_column(String(400))
    procedure_version: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=1)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class CaseMember(Base):
    """The inspection team (art. 4 sole paragraph): who may work on a case."""

    __tablename__ = "case_members"
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)


class Attachment(Base):
    __tablename__ = "attachments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    filename: Mapped[str] = mapped_column(String(255))
    media_type: Mapped[str] = mapped_column(String(127))
    size: Mapped[int] = mapped_column(BigInteger)
    sha256: Mapped[str] = mapped_column(String(64))
    description: Mapped[str | None] = mapped_column(Text)
    content: Mapped[bytes] = mapped_column(LargeBinary)
    uploaded_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    uploaded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class AuditHead(Base):
    """One row: the last sequence number and hash of the chain (locked on append)."""

    __tablename__ = "audit_head"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    hash: Mapped[str] = mapped_column(String(64))


class AuditEvent(Base):
    """An append-only, hash-chained record of one command. Never updated nor deleted."""

    __tablename__ = "audit_events"
    __table_args__ = (UniqueConstraint("seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger)
    case_id: Mapped[int | None] = mapped_column(Integer, index=True)
    actor: Mapped[str] = mapped_column(String(254))
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    command: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str | None] = mapped_column(Text)
    state_before: Mapped[str | None] = mapped_column(String(32))
    state_after: Mapped[str | None] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The user an event of user management is about: a lookup key copied from the payload's
    # ``user_id`` (which the hash covers), not hashed itself (migration 0004).
    user_id: Mapped[int | None] = mapped_column(Integer, index=True)
    # The API token or browser session an event is about, likewise (migration 0005).
    token_id: Mapped[int | None] = mapped_column(Integer, index=True)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


def _refuse(_mapper: Mapper[Any], _conn: Any, _target: Any) -> None:
    raise RuntimeError("audit events are append-only: no update, no delete")


event.listen(AuditEvent, "before_update", _refuse)
event.listen(AuditEvent, "before_delete", _refuse)

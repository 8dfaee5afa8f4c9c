"""What the routers check in a request before the service does: control characters, the version
a write is based on (``If-Match``) and uploaded files."""

from typing import Any

from fastapi import UploadFile

from abordo.law.errors import InputError, Refusal
from abordo.law.text import control_problem

MAX_UPLOAD = 20 * 1024 * 1024
MAX_BODY = MAX_UPLOAD + 1024 * 1024  # an upload and its form fields


class TooLarge(Refusal):
    """A request larger than the service reads (HTTP 413); ``field``: what is too large —
    the uploaded ``file``, or the ``body``."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


# The fields written in several lines (a complaint, a finding, notes, reasons, a summary, an
# auto's facts, an attachment's description): tab and line breaks allowed in them.
MULTILINE = frozenset({"content", "text", "notes", "reason", "summary", "facts",
                       "description"})


def no_control(obj: Any, path: str = "", key: str = "") -> None:
    """Characters no document should print are refused in every text of a body (``path``:
    the field of ``obj``): NUL (PostgreSQL text cannot hold it), any other control character
    — tab and line breaks only in a text of several lines (:data:`MULTILINE`) — and the
    bidirectional overrides and isolates, which would show a name, a reason or a finding
    otherwise than it is stored (:func:`abordo.law.text.control_char`)."""
    if isinstance(obj, str):
        problem = control_problem(obj, path or None, line_breaks=key in MULTILINE)
        if problem is not None:
            raise problem
    elif isinstance(obj, dict):
        for k, v in obj.items():
            no_control(k, path)
            no_control(v, f"{path}.{k}" if path else str(k), str(k))
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            no_control(v, f"{path}[{i}]", key)


def any_version(if_match: str | None) -> bool:
    """``If-Match: *`` (RFC 9110): any version — the caller replaces knowingly."""
    return (if_match or "").strip() == "*"


def expected_version(if_match: str | None, body_version: int | None) -> int | None:
    """The version a write is based on: ``If-Match`` (``"3"``; ``*`` = any, RFC 9110) or the
    body's ``version``; both given must agree."""
    if if_match is None or any_version(if_match):
        return body_version
    raw = if_match.strip().removeprefix("W/").strip('"')
    if not raw.isdigit() or len(raw) > 9:
        raise InputError("If-Match deve ser a versão do caso (ex.: \"3\")", "If-Match",
                         message_en="If-Match must be the case version")
    if body_version is not None and body_version != int(raw):
        raise InputError(f"If-Match ({raw}) e version ({body_version}) divergem", "version",
                         message_en=f"If-Match ({raw}) and version ({body_version}) differ")
    return int(raw)


async def read_upload(file: UploadFile, what: tuple[str, str]) -> bytes:
    """The uploaded bytes, refused (413) beyond 20 MB without reading more than that."""
    content = await file.read(MAX_UPLOAD + 1)
    if len(content) > MAX_UPLOAD:
        raise TooLarge(f"{what[0]} maior que 20 MB ‖ {what[1]} larger than 20 MB", "file")
    return content


def safe_filename(name: str | None) -> str:
    """The file's own name, without any folder part or control characters (a name like
    ``../../x.html`` is stored as ``x.html``)."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip().lstrip(".")
    return base[:255] or "anexo"

"""FastAPI application: stateless engine endpoints and the inspection-case endpoints.

Authentication: ``Authorization: Bearer <token>`` (API tokens, stored hashed) or the signed
session cookie set by ``POST /api/v1/auth/login``; cookie-authenticated unsafe requests must
carry the session's CSRF token in ``X-CSRF-Token``. Every case endpoint applies the caller's
scope on the server (:func:`abordo.cases.auth.scoped_cases`).

The routes live in one router per concern (:mod:`.users`, :mod:`.engines`, :mod:`.cases`,
:mod:`.crew`, :mod:`.attachments`, :mod:`.documents`), sharing :mod:`.deps`; each application
keeps its own service and session key in ``app.state``.
"""

from fastapi import APIRouter, FastAPI, Request
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from abordo.cases.db import default_url, normalize_url
from abordo.cases.service import CaseService
from abordo.faces.api import attachments, cases, crew, documents, engines, problems, users
from abordo.faces.api.inputs import MAX_BODY
from abordo.faces.api.sessions import SessionKeys


class _PastTheLimit(Exception):
    """The body streamed past :class:`BodyLimit`'s limit (raised to the reader)."""


class BodyLimit:
    """A body the service will not read whole is refused (413, problems.body_too_large):
    before it is read when its length is declared, whichever route it is for; else counted as
    it streams (chunked) and refused once past ``limit``, with nothing read past that chunk —
    whatever the reader made of the broken read (FastAPI's 400, a form's error) is replaced
    by the 413. An upload's file is also capped as it is read (``MAX_UPLOAD``)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length", "")
        if length.isdigit() and int(length) > self.limit:
            await problems.body_too_large(Request(scope))(scope, receive, send)
            return
        received = 0
        past = started = False

        async def counted() -> Message:
            nonlocal received, past
            if past:
                raise _PastTheLimit
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    past = True
                    raise _PastTheLimit
            return message

        async def answer(message: Message) -> None:
            nonlocal started
            if past:
                return  # the app's answer to a read cut short: the 413 goes instead
            started = True
            await send(message)

        try:
            await self.app(scope, counted, answer)
        except Exception:
            if not past or started:
                raise
        if past and not started:
            await problems.body_too_large(Request(scope))(scope, receive, send)


def create_app(db_url: str | None = None) -> FastAPI:
    url = normalize_url(db_url or default_url())
    service = CaseService(url)
    app = FastAPI(title="Abordo API", version="1.0.0",
                  description="Direito do trabalho aquaviário e portuário, executável e "
                              "explicado: motores e casos de inspeção (IN SIT 70/2007).",
                  openapi_url="/api/v1/openapi.json", docs_url="/api/v1/docs",
                  redoc_url=None)
    app.state.service = service
    app.state.session_keys = SessionKeys(service)
    problems.install(app)
    app.add_middleware(BodyLimit, limit=MAX_BODY)

    api = APIRouter(prefix="/api/v1")
    api.include_router(users.router)
    api.include_router(engines.router)
    api.include_router(cases.router)
    api.include_router(crew.router)
    api.include_router(attachments.router)
    api.include_router(documents.router)
    app.include_router(api)
    return app

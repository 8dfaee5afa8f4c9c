"""FastAPI application: stateless engine endpoints and the inspection-case endpoints.

Authentication: ``Authorization: Bearer <token>`` (API tokens, stored hashed) or the signed
session cookie set by ``POST /api/v1/auth/login``; cookie-authenticated unsafe requests must
carry the session's CSRF token in ``X-CSRF-Token``. Every case endpoint applies the caller's
scope on the server (:func:`abordo.cases.auth.scoped_cases`).

The routes live in one router per concern (:mod:`.users`, :mod:`.engines`, :mod:`.cases`,
:mod:`.crew`, :mod:`.attachments`, :mod:`.documents`), sharing :mod:`.deps`; each application
keeps its own service and session key in ``app.state``.
"""

from typing import Any

from fastapi import APIRouter, FastAPI, Request

from abordo.cases.db import default_url, normalize_url
from abordo.cases.service import CaseService
from abordo.faces.api import attachments, cases, crew, documents, engines, problems, users
from abordo.faces.api.inputs import MAX_UPLOAD
from abordo.faces.api.sessions import SessionKeys

MAX_BODY = MAX_UPLOAD + 1024 * 1024  # an upload and its form fields


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

    @app.middleware("http")
    async def body_limit(request: Request, call_next: Any) -> Any:
        # A body the service will not read whole: refused before it is read (a declared
        # length; the multipart uploads are also capped as they are read, MAX_UPLOAD).
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > MAX_BODY:
            en = problems.wants_en(request)
            mb = MAX_BODY // 2**20
            pt_msg, en_msg = (f"corpo da requisição maior que {mb} MB",
                              f"request body larger than {mb} MB")
            # an upload's bulk is its file (attachments, crew list); else the body itself
            form = request.headers.get("content-type", "").startswith("multipart/")
            return problems.problem(
                413, en_msg if en else pt_msg, en=en,
                errors=[{"field": "file" if form else "body",
                         "message": en_msg if en else pt_msg, "message_en": en_msg}])
        return await call_next(request)

    api = APIRouter(prefix="/api/v1")
    api.include_router(users.router)
    api.include_router(engines.router)
    api.include_router(cases.router)
    api.include_router(crew.router)
    api.include_router(attachments.router)
    api.include_router(documents.router)
    app.include_router(api)
    return app

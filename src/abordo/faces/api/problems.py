"""RFC 9457 problem details: every error is ``application/problem+json`` naming fields."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from abordo.cases.service import Conflict, Forbidden, NotFound
from abordo.cases.workflow import TransitionRefused
from abordo.law.errors import InputError
from abordo.law.validation import loc_to_path

PROBLEM = "application/problem+json"
TITLES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
          405: "Method Not Allowed", 409: "Conflict", 413: "Content Too Large",
          415: "Unsupported Media Type", 422: "Unprocessable Content",
          428: "Precondition Required", 500: "Internal Server Error",
          501: "Not Implemented"}


def problem(status: int, detail: str, *, type_: str = "about:blank",
            errors: list[dict[str, Any]] | None = None, headers: dict[str, str] | None = None,
            **extra: Any) -> JSONResponse:
    body: dict[str, Any] = {"type": type_, "title": TITLES.get(status, "Error"),
                            "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    body.update(extra)
    return JSONResponse(body, status_code=status, media_type=PROBLEM, headers=headers)


def input_problem(exc: InputError) -> JSONResponse:
    errors = [{"field": e.field, "message": e.message, "message_en": e.message_en,
               "file": e.file, "row": e.row} for e in [exc, *exc.details]]
    return problem(422, exc.render(), type_="/problems/invalid-input", errors=errors)


def install(app: FastAPI) -> None:
    @app.exception_handler(InputError)
    async def _input(_r: Request, exc: InputError) -> JSONResponse:
        return input_problem(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_r: Request, exc: RequestValidationError) -> JSONResponse:
        errors = []
        for err in exc.errors():
            loc = list(err.get("loc", ()))
            where = str(loc[0]) if loc else "body"
            path = loc_to_path([p for p in loc[1:] if isinstance(p, int | str)])
            errors.append({"field": path or where, "in": where,
                           "message": str(err.get("msg", "invalid")),
                           "type": str(err.get("type", ""))})
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:5])
        return problem(422, detail or "invalid request", type_="/problems/invalid-input",
                       errors=errors)

    @app.exception_handler(TransitionRefused)
    async def _refused(_r: Request, exc: TransitionRefused) -> JSONResponse:
        return problem(409, exc.message, type_="/problems/transition-refused",
                       errors=[{"field": exc.field, "message": exc.message}])

    @app.exception_handler(Conflict)
    async def _conflict(_r: Request, exc: Conflict) -> JSONResponse:
        return problem(409, exc.message, type_="/problems/stale-version",
                       current_version=exc.current_version,
                       errors=[{"field": "version", "message": exc.message}])

    @app.exception_handler(NotFound)
    async def _nf(_r: Request, exc: NotFound) -> JSONResponse:
        return problem(404, str(exc))

    @app.exception_handler(Forbidden)
    async def _forbidden(_r: Request, exc: Forbidden) -> JSONResponse:
        return problem(403, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_r: Request, exc: StarletteHTTPException) -> JSONResponse:
        return problem(exc.status_code, str(exc.detail),
                       headers=dict(exc.headers) if exc.headers else None)

    @app.exception_handler(Exception)
    async def _crash(_r: Request, exc: Exception) -> JSONResponse:
        return problem(500, "erro interno", type_="/problems/internal")

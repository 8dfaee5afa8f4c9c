"""RFC 9457 problem details: every error is ``application/problem+json`` naming fields."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from abordo.cases.auth import TamperedUser
from abordo.cases.commands import CommandInvalid, TransitionRefused
from abordo.cases.service import Busy, Conflict, Forbidden, NotFound, Tampered, VersionRequired
from abordo.cases.transitions import TRANSITIONS
from abordo.faces.api.inputs import MAX_BODY, TooLarge
from abordo.law.errors import InputError, Refusal, bilingual
from abordo.law.validation import Bilingual, error_message, loc_to_path

PROBLEM = "application/problem+json"
TITLES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
          405: "Method Not Allowed", 409: "Conflict", 413: "Content Too Large",
          415: "Unsupported Media Type", 422: "Unprocessable Content",
          428: "Precondition Required", 500: "Internal Server Error",
          501: "Not Implemented"}
# User-facing text is Portuguese by default (``?lang=en`` / ``Accept-Language: en``: English).
TITLES_PT = {400: "Requisição inválida", 401: "Não autenticado", 403: "Proibido",
             404: "Não encontrado", 405: "Método não permitido", 409: "Conflito",
             413: "Conteúdo grande demais", 415: "Tipo de conteúdo não suportado",
             422: "Entrada inválida", 428: "Pré-condição exigida",
             500: "Erro interno do servidor", 501: "Não implementado"}


HTTP_PT = {"Not Found": "recurso não encontrado", "Method Not Allowed": "método não permitido",
           "Unsupported Media Type": "tipo de conteúdo não suportado",
           "Internal Server Error": "erro interno", "Unauthorized": "não autenticado",
           "Forbidden": "acesso negado", "Bad Request": "requisição inválida",
           "Request Entity Too Large": "conteúdo grande demais",
           "Content Too Large": "conteúdo grande demais"}


def validation_message(err: dict[str, Any]) -> tuple[str, str]:
    """(Portuguese, English) message of one pydantic/FastAPI validation error: Portuguese from
    the engines' own table (:func:`abordo.law.validation.error_message`, limits and values
    allowed included), English pydantic's own."""
    kind = str(err.get("type", ""))
    en = str(err.get("msg", "invalid"))
    ctx: dict[str, Any] = dict(err.get("ctx") or {})
    if isinstance(ctx.get("error"), Bilingual):  # our own message, in both languages
        return ctx["error"].pt, ctx["error"].en
    if kind.startswith("value_error") or kind == "assertion_error":
        # our validators write "Portuguese ‖ English"
        return bilingual(en.removeprefix("Value error, ").removeprefix("Assertion failed, "))
    known = error_message(kind, ctx, "pt")
    if known is None:
        return f"valor inválido ({kind or 'erro'})", en
    pt = known
    if kind == "json_invalid" and ctx.get("error"):
        en = f"{en}: {ctx['error']}"  # the parser's own words stay in the English message
    return pt, en


def wants_en(request: Request) -> bool:
    """English asked (``?lang=en`` or ``Accept-Language: en…``)."""
    lang = request.query_params.get("lang") or request.headers.get("accept-language", "")
    return str(lang).lower().startswith("en")



def problem(status: int, detail: str, *, type_: str = "about:blank",
            errors: list[dict[str, Any]] | None = None, headers: dict[str, str] | None = None,
            en: bool = False, **extra: Any) -> JSONResponse:
    title = TITLES.get(status, "Error") if en else TITLES_PT.get(status, "Erro")
    body: dict[str, Any] = {"type": type_, "title": title, "status": status,
                            "detail": detail}
    if errors is not None:
        body["errors"] = errors
    body.update(extra)
    return JSONResponse(body, status_code=status, media_type=PROBLEM, headers=headers)


def input_problem(exc: InputError, en: bool = False) -> JSONResponse:
    """422 for bad input: every problem with its field (file, row), in the language asked
    (``message`` in it; ``message_en`` always English)."""
    errors = [{"field": e.field,
               "message": (e.message_en or e.message) if en else e.message,
               "message_en": e.message_en, "file": e.file, "row": e.row}
              for e in [exc, *exc.details]]
    return problem(422, exc.render("en" if en else "pt"), type_="/problems/invalid-input",
                   errors=errors, en=en)


def body_too_large(request: Request) -> JSONResponse:
    """413 for a body past :data:`~abordo.faces.api.inputs.MAX_BODY` — declared so in its
    length, or counted so as it streams —, naming ``file`` for an upload (its bulk is the
    file: attachments, crew list), else ``body``."""
    en = wants_en(request)
    mb = MAX_BODY // 2**20
    pt_msg, en_msg = (f"corpo da requisição maior que {mb} MB",
                      f"request body larger than {mb} MB")
    form = request.headers.get("content-type", "").startswith("multipart/")
    return problem(413, en_msg if en else pt_msg, en=en,
                   errors=[{"field": "file" if form else "body",
                            "message": en_msg if en else pt_msg, "message_en": en_msg}])


def unreadable_body(request: Request, cause: BaseException) -> JSONResponse:
    """422 naming ``body`` for a body that could not be parsed at all, in the language asked
    (``message_en`` always English), worded as the JSON syntax errors are."""
    ctype = request.headers.get("content-type", "").lower()
    if ctype.startswith(("multipart/", "application/x-www-form-urlencoded")):
        said = str(getattr(cause, "detail", "") or cause)
        kind, pt, en = "form_invalid", "formulário ilegível", f"unreadable form: {said}"
    elif isinstance(cause, RecursionError):
        kind, pt, en = ("json_invalid", "JSON inválido (aninhamento profundo demais)",
                        "JSON decode error: nested too deeply")
    elif isinstance(cause, UnicodeError):
        kind, pt, en = ("json_invalid", "JSON inválido (o texto não está em UTF-8)",
                        "JSON decode error: the text is not UTF-8")
    else:
        kind, pt, en = "json_invalid", "JSON inválido", "JSON decode error"
    en_wanted = wants_en(request)
    message = en if en_wanted else pt
    return problem(422, f"body: {message}", type_="/problems/invalid-input",
                   errors=[{"field": "body", "in": "body", "message": message,
                            "message_en": en, "type": kind}], en=en_wanted)


def install(app: FastAPI) -> None:
    @app.exception_handler(InputError)
    async def _input(r: Request, exc: InputError) -> JSONResponse:
        return input_problem(exc, wants_en(r))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        en_wanted = wants_en(request)
        errors = []
        for err in exc.errors():
            loc = list(err.get("loc", ()))
            where = str(loc[0]) if loc else "body"
            kind = str(err.get("type", ""))
            # a JSON syntax error's location is a character position, not a field
            parts = [] if kind == "json_invalid" else loc[1:]
            if where == "body" and parts and parts[0] in TRANSITIONS:
                parts = parts[1:]  # the command's tag is not a field of the body sent
            path = loc_to_path([p for p in parts if isinstance(p, int | str)])
            tag = str((err.get("ctx") or {}).get("discriminator", "")).strip("'\"")
            if kind.startswith("union_tag") and tag:
                path = f"{path}.{tag}" if path else tag  # the field that selects the variant
            cause = (err.get("ctx") or {}).get("error")
            if isinstance(cause, Bilingual) and cause.field:
                # a check of several fields names the one it is about (``item``)
                path = f"{path}.{cause.field}" if path else cause.field
            pt, en = validation_message(err)
            if kind == "json_invalid" and loc and isinstance(loc[-1], int):
                pt = f"{pt} (posição {loc[-1]})"
                en = f"{en} (position {loc[-1]})"
            errors.append({"field": path or where, "in": where,
                           "message": en if en_wanted else pt, "message_en": en,
                           "type": kind})
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:5])
        return problem(422, detail or ("invalid request" if en_wanted else
                                       "requisição inválida"),
                       type_="/problems/invalid-input", errors=errors, en=en_wanted)

    def refusal(r: Request, exc: Refusal, status: int, type_: str = "about:blank",
                errors: bool = False, field: str | None = None, **extra: Any) -> JSONResponse:
        """A refusal of the workflow in the language asked; with ``errors``, the field at
        fault listed too (``message_en`` always English)."""
        en = wants_en(r)
        text = exc.message_en if en else exc.message
        listed = [{"field": field, "message": text, "message_en": exc.message_en}] \
            if errors else None
        return problem(status, text, type_=type_, errors=listed, en=en, **extra)

    @app.exception_handler(TransitionRefused)
    async def _refused(r: Request, exc: TransitionRefused) -> JSONResponse:
        if isinstance(exc, CommandInvalid):  # the command's own data, not the case's state
            return refusal(r, exc, 422, "/problems/invalid-input", True, exc.field)
        return refusal(r, exc, 409, "/problems/transition-refused", True, exc.field)

    @app.exception_handler(Conflict)
    async def _conflict(r: Request, exc: Conflict) -> JSONResponse:
        return refusal(r, exc, 409, "/problems/stale-version", True, "version",
                       current_version=exc.current_version)

    @app.exception_handler(VersionRequired)
    async def _version_required(r: Request, exc: VersionRequired) -> JSONResponse:
        return refusal(r, exc, 428, "/problems/version-required", True, "version",
                       current_version=exc.current_version)

    @app.exception_handler(Busy)
    async def _busy(r: Request, exc: Busy) -> JSONResponse:
        # No version was sent: no field is at fault, and the version the case has by now is
        # for the caller to read again.
        return refusal(r, exc, 409, "/problems/busy")

    @app.exception_handler(Tampered)
    async def _tampered(r: Request, exc: Tampered) -> JSONResponse:
        return refusal(r, exc, 409, "/problems/integrity")

    @app.exception_handler(TamperedUser)
    async def _tampered_user(r: Request, exc: TamperedUser) -> JSONResponse:
        # The caller's own row was changed outside the system: nothing is granted on it.
        return refusal(r, exc, 403, "/problems/integrity")

    @app.exception_handler(NotFound)
    async def _nf(r: Request, exc: NotFound) -> JSONResponse:
        return refusal(r, exc, 404)

    @app.exception_handler(Forbidden)
    async def _forbidden(r: Request, exc: Forbidden) -> JSONResponse:
        return refusal(r, exc, 403, errors=exc.field is not None, field=exc.field)

    @app.exception_handler(TooLarge)
    async def _too_large(r: Request, exc: TooLarge) -> JSONResponse:
        return refusal(r, exc, 413, errors=True, field=exc.field)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # Only the framework answers 400 (FastAPI's "There was an error parsing the
            # body", Starlette's broken multipart): a body its parser gave up on — JSON
            # nested deeper than the parser goes, bytes that are not UTF-8, a form without
            # its boundary — is bad input at ``body``, as any other JSON syntax error.
            return unreadable_body(request, exc.__cause__ or exc)
        # Our details are written "pt ‖ en"; the framework's own are English.
        pt, en = bilingual(str(exc.detail))
        detail = en if wants_en(request) else HTTP_PT.get(pt, pt)
        return problem(exc.status_code, detail, en=wants_en(request),
                       headers=dict(exc.headers) if exc.headers else None)

    @app.exception_handler(Exception)
    async def _crash(r: Request, exc: Exception) -> JSONResponse:
        en = wants_en(r)
        return problem(500, "internal error" if en else "erro interno",
                       type_="/problems/internal", en=en)

"""What every router shares: the application's service and session keys, the caller
(:func:`current_user`), the role checks, the request's language and dates, and "today"."""

import datetime as dt
import secrets
from typing import Annotated, Any, Literal

from fastapi import Body, Depends, Header, HTTPException, Path, Query, Request
from itsdangerous import BadSignature

from abordo.cases import auth
from abordo.cases.models import User
from abordo.cases.service import CaseService, Forbidden
from abordo.faces.api.sessions import SESSION_COOKIE, SESSION_MAX_AGE, SessionKeys
from abordo.law.calendar import brasilia_date
from abordo.law.validation import Date

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

Lang = Annotated[Literal["pt", "en"], Query(description="idioma dos textos")]
OnDate = Annotated[Date | None, Query(description="data dos fatos, AAAA-MM-DD ou dd/mm/aaaa "
                                                  "(padrão: hoje)")]
# Interpretation choices, ``family=value``, as the CLI's ``--option`` (at most 20).
Options = Annotated[list[str] | None, Query(max_length=20)]
CaseId = Annotated[int, Path(ge=1, le=2_147_483_647)]
AnyObject = Annotated[dict[str, Any], Body(description="o mesmo conteúdo do arquivo de entrada "
                                                       "da CLI (veja GET /api/v1/schemas/...)")]


def today() -> dt.date:
    """The date in Brasília (the date of the acts), not the host's."""
    return brasilia_date()


def get_service(request: Request) -> CaseService:
    """The service of the application answering (``create_app``'s database)."""
    service: CaseService = request.app.state.service
    return service


def get_session_keys(request: Request) -> SessionKeys:
    keys: SessionKeys = request.app.state.session_keys
    return keys


Service = Annotated[CaseService, Depends(get_service)]
Keys = Annotated[SessionKeys, Depends(get_session_keys)]


def current_user(request: Request, service: Service, keys: Keys,
                 authorization: Annotated[str | None, Header()] = None,
                 x_csrf_token: Annotated[str | None, Header()] = None) -> User:
    with service.sessions() as s:
        if authorization:
            scheme, _, token = authorization.partition(" ")
            if scheme.lower() != "bearer" or not token:
                raise HTTPException(401, "use Authorization: Bearer <token> ‖ use "
                                    "Authorization: Bearer <token>",
                                    headers={"WWW-Authenticate": "Bearer"})
            user = auth.user_by_token(s, token.strip())
            if user is None:
                raise HTTPException(401, "token inválido ‖ invalid token",
                                    headers={"WWW-Authenticate": "Bearer"})
            return user
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            raise HTTPException(401, "autenticação necessária ‖ authentication required",
                                headers={"WWW-Authenticate": "Bearer"})
        try:
            sess = keys.serializer().loads(cookie, max_age=SESSION_MAX_AGE)
            sid, csrf = str(sess["sid"]), str(sess["csrf"])
        except (BadSignature, KeyError, TypeError, ValueError):
            raise HTTPException(401, "sessão inválida ou expirada ‖ invalid or expired "
                                "session") from None
        if request.method in UNSAFE and not (
                x_csrf_token and secrets.compare_digest(x_csrf_token, csrf)):
            raise Forbidden("token CSRF ausente ou inválido (X-CSRF-Token) ‖ missing or "
                            "invalid CSRF token (X-CSRF-Token)", "X-CSRF-Token")
        # The session lives on the server (a revocable token): logout ends it for good,
        # even if the cookie was copied.
        user = auth.user_by_token(s, sid)
        if user is None:
            raise HTTPException(401, "sessão inválida ou encerrada ‖ invalid or ended session")
        return user


CurrentUser = Annotated[User, Depends(current_user)]


def require_admin(user: User) -> None:
    """Only an administrator manages users (checked after the request is validated)."""
    if user.role != auth.Role.ADMIN.value:
        raise Forbidden("somente administradores criam usuários ‖ only administrators "
                        "create users")

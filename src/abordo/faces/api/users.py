"""Authentication (API tokens, browser sessions) and users: ``/auth/*``, ``/me``, ``/users``."""

import contextlib
import os
import secrets
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from itsdangerous import BadSignature
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from abordo.cases import auth
from abordo.cases.models import User
from abordo.cases.service import CaseService
from abordo.faces.api.deps import CurrentUser, Keys, Service, require_admin
from abordo.faces.api.sessions import SESSION_COOKIE, SESSION_MAX_AGE
from abordo.faces.api.views import user_json

router = APIRouter()


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(min_length=3, max_length=254)
    password: str = Field(min_length=1, max_length=1024)


class NewUser(BaseModel):
    """A user to create. Only the shape is checked here; what each value may be (the role,
    the region's UF, the password's length, an inspector's name) is judged by
    :func:`abordo.cases.auth.add_user`, which lists every bad field at once — a check here
    would stop the request before the others are seen. The schema still says it."""

    model_config = ConfigDict(extra="forbid")
    email: str = Field(max_length=254)
    role: str = Field(max_length=64, json_schema_extra={"enum": [r.value for r in auth.Role]})
    region: str | None = Field(default=None, max_length=32, description="sigla da UF (RJ, SP…);"
                               " obrigatória para inspector e regional_chief")
    password: str | None = Field(default=None, max_length=1024, json_schema_extra={
        "minLength": auth.MIN_PASSWORD, "pattern": r"\S"},
        description=f"ao menos {auth.MIN_PASSWORD} caracteres, não só espaços")
    name: str | None = Field(default=None, max_length=200,
                             description="obrigatório para inspector (assina os documentos)")


def _login(service: CaseService, body: Credentials) -> User:
    with service.sessions() as s:
        user = s.execute(select(User).where(User.email == body.email.strip().lower())
                         ).scalar_one_or_none()
        if user is None or not user.active or not auth.check_password(user, body.password):
            raise HTTPException(401, "e-mail ou senha inválidos ‖ invalid e-mail or password")
        auth.require_untouched(s, user)  # no token on a row changed outside the system
        return user


@router.post("/auth/token", tags=["auth"], summary="Emitir um token de API")
def issue_token(body: Credentials, service: Service) -> dict[str, str]:
    user = _login(service, body)
    with service.tx() as s:
        token = auth.issue_token(s, s.get(User, user.id) or user, "api")
    return {"token": token, "token_type": "bearer"}


@router.post("/auth/login", tags=["auth"], summary="Abrir sessão do navegador (cookie)")
def login(body: Credentials, response: Response, service: Service,
          keys: Keys) -> dict[str, str]:
    user = _login(service, body)
    csrf = secrets.token_urlsafe(24)
    with service.tx() as s:
        sid = auth.issue_token(s, s.get(User, user.id) or user, "browser-session")
    value = keys.serializer().dumps({"sid": sid, "csrf": csrf})
    response.set_cookie(SESSION_COOKIE, value, max_age=SESSION_MAX_AGE, httponly=True,
                        samesite="strict", secure=os.environ.get("ABORDO_SECURE_COOKIE")
                        == "1")
    return {"csrf_token": csrf}


@router.post("/auth/logout", tags=["auth"])
def logout(request: Request, response: Response, user: CurrentUser, service: Service,
           keys: Keys) -> dict[str, str]:
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        with contextlib.suppress(BadSignature, KeyError, TypeError), service.tx() as s:
            auth.revoke_token(s, str(keys.serializer().loads(cookie)["sid"]), user.email)
    response.delete_cookie(SESSION_COOKIE)
    return {"status": "ok"}


@router.get("/me", tags=["auth"])
def me(user: CurrentUser) -> dict[str, Any]:
    return user_json(user)


@router.post("/users", tags=["auth"], status_code=201, summary="Criar usuário (administrador)")
def add_user(body: NewUser, user: CurrentUser, service: Service) -> dict[str, Any]:
    require_admin(user)  # add_user refuses control characters with the other problems
    with service.tx() as s:
        new = auth.add_user(s, email=body.email, role=body.role, region=body.region,
                            password=body.password, actor=user.email, name=body.name)
        return user_json(new)

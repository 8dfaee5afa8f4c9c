"""FastAPI application: stateless engine endpoints and the inspection-case endpoints.

Authentication: ``Authorization: Bearer <token>`` (API tokens, stored hashed) or the signed
session cookie set by ``POST /api/v1/auth/login``; cookie-authenticated unsafe requests must
carry the session's CSRF token in ``X-CSRF-Token``. Every case endpoint applies the caller's
scope on the server (:func:`abordo.cases.auth.scoped_cases`).
"""


import contextlib
import datetime as dt
import hashlib
import importlib
import os
import secrets
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import (
    APIRouter,
    Body,
    Depends,
    FastAPI,
    File,
    Form,
    Header,
    HTTPException,
    Path,
    Query,
    Request,
    Response,
    UploadFile,
)
from fastapi.responses import HTMLResponse, JSONResponse
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from abordo.cases import auth, checklist, commands, steps, transitions, workflow
from abordo.cases.db import default_url, normalize_url
from abordo.cases.models import Attachment, Case, User
from abordo.cases.service import (
    CaseCreate,
    CaseService,
    check_attachments,
    engines_day,
    read_crew_upload,
    validate_vessel_case,
)
from abordo.faces.api import problems
from abordo.faces.reports import case_documents as documents
from abordo.law.calendar import brasilia_date
from abordo.law.errors import InputError
from abordo.law.validation import Date

SESSION_COOKIE = "abordo_session"
SESSION_MAX_AGE = 12 * 3600
MAX_UPLOAD = 20 * 1024 * 1024
MAX_BODY = MAX_UPLOAD + 1024 * 1024  # an upload and its form fields
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

Lang = Annotated[Literal["pt", "en"], Query(description="idioma dos textos")]
OnDate = Annotated[Date | None, Query(description="data dos fatos, AAAA-MM-DD ou dd/mm/aaaa "
                                                  "(padrão: hoje)")]
CaseId = Annotated[int, Path(ge=1, le=2_147_483_647)]
AnyObject = Annotated[dict[str, Any], Body(description="o mesmo conteúdo do arquivo de entrada "
                                                       "da CLI (veja GET /api/v1/schemas/...)")]


def today() -> dt.date:
    """The date in Brasília (the date of the acts), not the host's."""
    return brasilia_date()


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(min_length=3, max_length=254)
    password: str = Field(min_length=1, max_length=1024)


class NewUser(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(min_length=3, max_length=254)
    role: Literal["inspector", "regional_chief", "national", "admin"]
    region: str | None = Field(default=None, min_length=1, max_length=32)
    password: str | None = Field(default=None, min_length=auth.MIN_PASSWORD, max_length=1024)
    name: str | None = Field(default=None, max_length=200)


def _no_nul(obj: Any, path: str = "") -> None:
    """NUL characters are refused everywhere (PostgreSQL text cannot hold them)."""
    if isinstance(obj, str):
        if "\x00" in obj:
            raise InputError("caractere NUL não permitido", path or None,
                             message_en="NUL character not allowed")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _no_nul(k, path)
            _no_nul(v, f"{path}.{k}" if path else str(k))
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            _no_nul(v, f"{path}[{i}]")


def _any_version(if_match: str | None) -> bool:
    """``If-Match: *`` (RFC 9110): any version — the caller replaces knowingly."""
    return (if_match or "").strip() == "*"


def _version(if_match: str | None, body_version: int | None) -> int | None:
    """The version a write is based on: ``If-Match`` (``"3"``; ``*`` = any, RFC 9110) or the
    body's ``version``; both given must agree."""
    if if_match is None or _any_version(if_match):
        return body_version
    raw = if_match.strip().removeprefix("W/").strip('"')
    if not raw.isdigit() or len(raw) > 9:
        raise InputError("If-Match deve ser a versão do caso (ex.: \"3\")", "If-Match",
                         message_en="If-Match must be the case version")
    if body_version is not None and body_version != int(raw):
        raise InputError(f"If-Match ({raw}) e version ({body_version}) divergem", "version",
                         message_en=f"If-Match ({raw}) and version ({body_version}) differ")
    return int(raw)


def _load(module: str, name: str) -> Any:
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            raise HTTPException(501, f"motor ainda não disponível: {module} ‖ engine not "
                                    f"available yet: {module}") from None
        raise
    fn = getattr(mod, name, None)
    if fn is None:
        raise HTTPException(501, f"motor ainda não disponível: {module}.{name} ‖ engine not "
                                f"available yet: {module}.{name}")
    return fn


def _options(option: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, item in enumerate(option or []):
        if "=" not in item:
            raise InputError("opção deve ser chave=valor", f"option[{i}]",
                             message_en="option must be key=value")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def create_app(db_url: str | None = None) -> FastAPI:
    url = normalize_url(db_url or default_url())
    service = CaseService(url)
    app = FastAPI(title="Abordo API", version="1.0.0",
                  description="Direito do trabalho aquaviário e portuário, executável e "
                              "explicado: motores e casos de inspeção (IN SIT 70/2007).",
                  openapi_url="/api/v1/openapi.json", docs_url="/api/v1/docs",
                  redoc_url=None)
    app.state.service = service
    problems.install(app)

    @app.middleware("http")
    async def body_limit(request: Request, call_next: Any) -> Any:
        # A body the service will not read whole: refused before it is read (a declared
        # length; the multipart uploads are also capped as they are read, MAX_UPLOAD).
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > MAX_BODY:
            en = problems.wants_en(request)
            return problems.problem(
                413, f"request body larger than {MAX_BODY // 2**20} MB" if en else
                f"corpo da requisição maior que {MAX_BODY // 2**20} MB", en=en)
        return await call_next(request)
    api = APIRouter(prefix="/api/v1")
    secret_cache: dict[str, str] = {}

    def secret() -> str:
        if "k" not in secret_cache:
            env = os.environ.get("ABORDO_SECRET_KEY")
            if env:
                secret_cache["k"] = env
            else:
                try:
                    with service.tx() as s:
                        secret_cache["k"] = auth.secret_key(s)
                except IntegrityError:
                    # Another worker stored it at the same moment: that one is the key.
                    with service.tx() as s:
                        secret_cache["k"] = auth.secret_key(s)
        return secret_cache["k"]

    def serializer() -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(secret(), salt="abordo-session")

    def current_user(request: Request,
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
                sess = serializer().loads(cookie, max_age=SESSION_MAX_AGE)
                sid, csrf = str(sess["sid"]), str(sess["csrf"])
            except (BadSignature, KeyError, TypeError, ValueError):
                raise HTTPException(401, "sessão inválida ou expirada ‖ invalid or expired "
                                    "session") from None
            if request.method in UNSAFE and not (
                    x_csrf_token and secrets.compare_digest(x_csrf_token, csrf)):
                raise HTTPException(403, "token CSRF ausente ou inválido (X-CSRF-Token) ‖ "
                                    "missing or invalid CSRF token (X-CSRF-Token)")
            # The session lives on the server (a revocable token): logout ends it for good,
            # even if the cookie was copied.
            user = auth.user_by_token(s, sid)
            if user is None:
                raise HTTPException(401, "sessão inválida ou encerrada ‖ invalid or ended session")
            return user

    CurrentUser = Annotated[User, Depends(current_user)]

    # ----------------------------------------------------------------- auth
    def _login(body: Credentials) -> User:
        with service.sessions() as s:
            user = s.execute(select(User).where(User.email == body.email.strip().lower())
                             ).scalar_one_or_none()
            if user is None or not user.active or not auth.check_password(user, body.password):
                raise HTTPException(401, "e-mail ou senha inválidos ‖ invalid e-mail or password")
            return user

    @api.post("/auth/token", tags=["auth"], summary="Emitir um token de API")
    def issue_token(body: Credentials) -> dict[str, str]:
        user = _login(body)
        with service.tx() as s:
            token = auth.issue_token(s, s.get(User, user.id) or user, "api")
        return {"token": token, "token_type": "bearer"}

    @api.post("/auth/login", tags=["auth"], summary="Abrir sessão do navegador (cookie)")
    def login(body: Credentials, response: Response) -> dict[str, str]:
        user = _login(body)
        csrf = secrets.token_urlsafe(24)
        with service.tx() as s:
            sid = auth.issue_token(s, s.get(User, user.id) or user, "browser-session")
        value = serializer().dumps({"sid": sid, "csrf": csrf})
        response.set_cookie(SESSION_COOKIE, value, max_age=SESSION_MAX_AGE, httponly=True,
                            samesite="strict", secure=os.environ.get("ABORDO_SECURE_COOKIE")
                            == "1")
        return {"csrf_token": csrf}

    @api.post("/auth/logout", tags=["auth"])
    def logout(request: Request, response: Response, user: CurrentUser) -> dict[str, str]:
        cookie = request.cookies.get(SESSION_COOKIE)
        if cookie:
            with contextlib.suppress(BadSignature, KeyError, TypeError), service.tx() as s:
                auth.revoke_token(s, str(serializer().loads(cookie)["sid"]))
        response.delete_cookie(SESSION_COOKIE)
        return {"status": "ok"}

    @api.get("/me", tags=["auth"])
    def me(user: CurrentUser) -> dict[str, Any]:
        return _user_json(user)

    @api.post("/users", tags=["auth"], status_code=201, summary="Criar usuário (administrador)")
    def add_user(body: NewUser, user: CurrentUser) -> dict[str, Any]:
        if user.role != auth.Role.ADMIN.value:
            raise HTTPException(403, "somente administradores criam usuários ‖ only "
                                     "administrators create users")
        _no_nul(body.model_dump())
        with service.tx() as s:
            new = auth.add_user(s, email=body.email, role=body.role, region=body.region,
                                password=body.password, actor=user.email, name=body.name)
            return _user_json(new)

    # ----------------------------------------------------------------- engines
    def _vessel(data: dict[str, Any]) -> Any:
        from abordo.crew.load import parse_inline_vessel_case

        return parse_inline_vessel_case(data)

    @api.post("/quota", tags=["engines"], summary="Cota de brasileiros a bordo")
    def quota(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
              option: Annotated[list[str] | None, Query(max_length=20)] = None
              ) -> dict[str, Any]:
        from abordo.quota import evaluate

        opts = _options(option)
        result: dict[str, Any] = evaluate(_vessel(body), on or today(), opts).to_json(lang)
        return result

    @api.post("/quota/plan", tags=["engines"], summary="Todos os degraus futuros da cota")
    def quota_plan(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
                   option: Annotated[list[str] | None, Query(max_length=20)] = None
                   ) -> dict[str, Any]:
        from abordo.quota import plan

        result: dict[str, Any] = plan(_vessel(body), on or today(),
                                      _options(option)).to_json(lang)
        return result

    @api.post("/check", tags=["engines"], summary="Cota + imigração + checklist (abordo check)")
    def check(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
              option: Annotated[list[str] | None, Query(max_length=20)] = None
              ) -> dict[str, Any]:
        from abordo.vessel_check import check_vessel

        result: dict[str, Any] = check_vessel(_vessel(body), on or today(),
                                              _options(option)).to_json(lang)
        return result

    @api.post("/immigration", tags=["engines"], summary="Imigração da tripulação estrangeira")
    def immigration(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
                    option: Annotated[list[str] | None, Query(max_length=20)] = None
                    ) -> dict[str, Any]:
        from abordo.law.interpretations import check_options
        from abordo.vessel_check import check_vessel

        opts = _options(option)
        check_options(["abordo.immigration"], opts)  # only this engine's choices here
        result = check_vessel(_vessel(body), on or today(), opts)
        if result.immigration is None:
            raise HTTPException(501, "motor de imigração ainda não disponível ‖ immigration "
                                     "engine not available yet")
        out: dict[str, Any] = result.immigration.to_json(lang)
        if result.checklist is not None:
            out = {**out, "checklist": result.checklist.to_json(lang)}
        return out

    @api.post("/fines", tags=["engines"], summary="Multas da Lei 9.719/98 (gradação)")
    def fines(body: AnyObject, lang: Lang = "pt",
              option: Annotated[list[str] | None, Query(max_length=20)] = None
              ) -> dict[str, Any]:
        grade = _load("abordo.port_fines", "grade")
        result: dict[str, Any] = grade(body, _options(option),
                                       judged_on=today()).to_json(lang)
        return result

    @api.post("/sea-time", tags=["engines"], summary="Cômputo de tempo de embarque")
    def sea_time(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
                 option: Annotated[list[str] | None, Query(max_length=20)] = None
                 ) -> dict[str, Any]:
        compute = _load("abordo.sea_time", "compute")
        result: dict[str, Any] = compute(body, on or today(), _options(option)).to_json(lang)
        return result

    @api.get("/norms", tags=["engines"], summary="Normas modeladas e vigência")
    def norms(on: OnDate = None) -> dict[str, Any]:
        from abordo.law.norms import norm_registry

        day = on or today()
        items = [{"id": n.id, "label": n.label, "title": n.title, "urn": n.urn,
                  "in_force_from": n.in_force_from.isoformat(),
                  "in_force_to": n.in_force_to.isoformat() if n.in_force_to else None,
                  "replaced_by": n.replaced_by, "modelled": n.modelled,
                  "in_force": n.in_force_on(day)} for n in norm_registry()]
        return {"on": day.isoformat(), "norms": items}

    @api.get("/schemas/{kind}", tags=["engines"], summary="JSON Schema de um formato de entrada")
    def schema(kind: Literal["vessel", "fine", "sea-time", "case", "command"]) -> dict[str, Any]:
        from pydantic import TypeAdapter

        from abordo.faces.schemas import input_schema

        if kind == "case":
            return CaseCreate.model_json_schema()
        if kind == "command":
            out: dict[str, Any] = TypeAdapter(commands.Command).json_schema()
            return out
        return input_schema(kind)

    # ----------------------------------------------------------------- cases
    def case_json(case: Case, user: User) -> dict[str, Any]:
        with service.sessions() as s:
            team = service.team(s, case.id)
            atts = service.attachments(s, case.id)
            owner = s.get(User, case.owner_id)
        data = {k: v for k, v in case.data.items() if not k.startswith("_")}
        closed = case.state in commands.CLOSED_STATES
        return {
            "id": case.id, "state": case.state,
            "state_label": commands.STATE_LABELS.get(case.state, case.state),
            "region": case.region, "owner": owner.email if owner else None, "team": team,
            "vessel_name": case.vessel_name, "version": case.version,
            "procedure_version": case.procedure_version,
            "workflow_procedure": checklist.PROCEDURE,
            "warnings": checklist.case_warnings(case.data, brasilia_date(case.created_at)),
            "created_at": case.created_at.isoformat(), "updated_at": case.updated_at.isoformat(),
            "facts": data,
            "allowed_commands": transitions.allowed_commands(case.state, case.data, user.role)
            if auth.can_write(user) else [],
            # A closed case has no step left to do (closed_unfounded writes no report).
            "open_steps": [] if closed else steps.open_steps(case.data),
            "open_steps_detail": [] if closed else steps.open_step_details(case.data),
            "deadlines": steps.deadlines(case.data),
            "attachments": [{"id": a.id, "filename": a.filename, "media_type": a.media_type,
                             "size": a.size, "sha256": a.sha256, "description": a.description,
                             "uploaded_at": a.uploaded_at.isoformat()} for a in atts],
            "documents": documents.available(case.data),
        }

    def _with_etag(body: dict[str, Any], status: int = 200) -> JSONResponse:
        return JSONResponse(body, status_code=status, headers={"ETag": f'"{body["version"]}"'})

    @api.post("/cases", tags=["cases"], status_code=201, summary="Abrir um caso (ação fiscal)")
    def create_case(body: CaseCreate, user: CurrentUser) -> JSONResponse:
        _no_nul(body.model_dump(mode="json"))
        case_id = service.create(user, body, today())
        with service.sessions() as s:
            case = service.get(s, user, case_id)
        return _with_etag(case_json(case, user), 201)

    @api.get("/cases", tags=["cases"], summary="Casos no escopo do usuário")
    def list_cases(user: CurrentUser,
                   state: Annotated[commands.State | None, Query()] = None,
                   region: Annotated[str | None, Query(max_length=32)] = None,
                   q: Annotated[str | None, Query(max_length=200)] = None,
                   page: Annotated[int, Query(ge=1, le=100_000)] = 1,
                   per_page: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
        _no_nul([region, q])
        with service.sessions() as s:
            res = service.list_cases(s, user, state=state.value if state else None,
                                     region=region, q=q, page=page, per_page=per_page)
        return {"total": res.total, "page": res.page, "per_page": res.per_page,
                "items": [{"id": c.id, "integrity": "blocked"} if c.id in res.blocked else
                          {"id": c.id, "state": c.state, "region": c.region,
                           "vessel_name": c.vessel_name, "version": c.version,
                           "updated_at": c.updated_at.isoformat()} for c in res.items]}

    @api.get("/cases/{case_id}", tags=["cases"], summary="Ler um caso")
    def read_case(case_id: CaseId, user: CurrentUser) -> JSONResponse:
        with service.sessions() as s:
            case = service.get(s, user, case_id)
        return _with_etag(case_json(case, user))

    @api.post("/cases/{case_id}/commands", tags=["cases"],
              summary="Executar um comando do fluxo (transição)")
    def run_command(case_id: CaseId, cmd: Annotated[commands.Command, Body()],
                    user: CurrentUser,
                    if_match: Annotated[str | None, Header()] = None) -> JSONResponse:
        _no_nul(cmd.model_dump(mode="json"))
        case = service.command(user, case_id, cmd,
                               expected_version=_version(if_match, cmd.version), today=today(),
                               any_version=_any_version(if_match))
        return _with_etag(case_json(case, user))

    @api.post("/cases/{case_id}/crew", tags=["cases"],
              summary="Enviar a lista de tripulantes (CSV/XLSX, FAL 5) do caso")
    async def upload_crew(case_id: CaseId, user: CurrentUser,
                          file: Annotated[UploadFile, File()],
                          version: Annotated[int | None, Form(ge=1, le=999_999_999)] = None,
                          if_match: Annotated[str | None, Header()] = None) -> JSONResponse:
        """The crew list file replaces the crew of the case's vessel data (``set_vessel_case``
        with the same checks): every bad row is listed at once with its line and column;
        personal data (names, documents, birth) is dropped on import."""
        service.require_writer(user)  # a read-only role is told so before any other check
        content = await _read_upload(file, ("arquivo", "file"))
        name = _safe_filename(file.filename)
        with service.sessions() as s:
            read = service.get(s, user, case_id)
            current, read_version = read.data.get("vessel_case"), read.version
        # set_vessel_case's state and guards first, as the service judges a command's: a
        # case that no longer takes a crew list is a 409, not a 422 on rows never recorded.
        workflow.admissible(read.state, read.data, commands.SetVesselCase(
            command="set_vessel_case", vessel_case={}))
        if not current:
            raise commands.TransitionRefused(
                "informe antes os dados da embarcação e da operação (set_vessel_case) ‖ give "
                "the vessel's and the operation's data first (set_vessel_case)", "file")
        crew, rows = read_crew_upload(content, name)
        vessel_case = {k: v for k, v in current.items() if k not in ("crew", "crew_file")}
        # set_vessel_case's own check, each person named by the file's row and column (as
        # abordo check names a crew file's): every row the engines could not judge is
        # refused now, at once — not later, at run_engines, as crew[5] of no file.
        validated = validate_vessel_case({**vessel_case, "crew": crew}, on=engines_day(
            read.data, None, None, today()), crew_rows=(name, rows))
        # The audit trail says where the crew came from: the file's name and SHA-256.
        source = f"lista de tripulantes do arquivo {name} (sha256 " \
                 f"{hashlib.sha256(content).hexdigest()})"
        cmd = commands.SetVesselCase(command="set_vessel_case", reason=source,
                                     vessel_case={**vessel_case, "crew": crew}, version=version)
        # The new crew goes with the vessel facts read above: it is written only on that
        # version (a change in between is a 409, never overwritten with stale facts); a crew
        # list someone recorded is replaced only by a caller who names the version they read
        # (or If-Match: *), as set_vessel_case's.
        case = service.command(user, case_id, cmd, expected_version=_version(if_match, version),
                               today=today(), any_version=_any_version(if_match),
                               based_on=read_version, validated=validated)
        return _with_etag(case_json(case, user))

    @api.get("/cases/{case_id}/events", tags=["cases"], summary="Trilha de auditoria do caso")
    def case_events(case_id: CaseId, user: CurrentUser) -> dict[str, Any]:
        with service.sessions() as s:
            service.get(s, user, case_id)
            evs = service.events(s, case_id)
        return {"events": [{"seq": e.seq, "at": e.at.isoformat(), "actor": e.actor,
                            "command": e.command, "reason": e.reason,
                            "state_before": e.state_before, "state_after": e.state_after,
                            "payload": e.payload, "hash": e.hash} for e in evs]}

    @api.post("/cases/{case_id}/attachments", tags=["cases"], status_code=201,
              summary="Anexar arquivo (foto, documento digitalizado)")
    async def attach(case_id: CaseId, user: CurrentUser,
                     file: Annotated[UploadFile, File()],
                     description: Annotated[str | None, Form(max_length=2000)] = None,
                     version: Annotated[int | None, Form(ge=1, le=999_999_999)] = None,
                     if_match: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        content = await _read_upload(file, ("anexo", "attachment"))
        filename = _safe_filename(file.filename)
        if not content:
            raise InputError("anexo vazio", "file", message_en="empty attachment")
        _no_nul([description])
        att_id = service.attach(user, case_id, filename=filename,
                                media_type=(file.content_type or "application/octet-stream")
                                [:127], content=content, description=description,
                                expected_version=_version(if_match, version))
        with service.sessions() as s:
            att = s.get(Attachment, att_id)
            case = service.get(s, user, case_id)
        assert att is not None
        return {"id": att.id, "sha256": att.sha256, "size": att.size, "version": case.version}

    @api.get("/cases/{case_id}/attachments/{attachment_id}", tags=["cases"],
             summary="Baixar um anexo")
    def get_attachment(case_id: CaseId, attachment_id: CaseId, user: CurrentUser) -> Response:
        with service.sessions() as s:
            service.get(s, user, case_id)
            att = s.get(Attachment, attachment_id)
            if att is None or att.case_id != case_id:
                raise HTTPException(404, "anexo não encontrado ‖ attachment not found")
            # the bytes served are those logged
            check_attachments(s, case_id, [att], content=True, whole=False)
            return Response(att.content, media_type=att.media_type,
                            headers={"X-Content-SHA256": att.sha256,
                                     "X-Content-Type-Options": "nosniff",
                                     "Content-Disposition": _disposition(att.filename)})

    @api.get("/cases/{case_id}/documents", tags=["documents"],
             summary="Documentos disponíveis para o caso")
    def list_documents(case_id: CaseId, user: CurrentUser) -> dict[str, Any]:
        with service.sessions() as s:
            case = service.get(s, user, case_id)
        return {"documents": [{"kind": k, "title": documents.TITLES[k],
                               "html": f"/api/v1/cases/{case_id}/documents/{k}?format=html",
                               "pdf": f"/api/v1/cases/{case_id}/documents/{k}?format=pdf"}
                              for k in documents.available(case.data)]}

    @api.get("/cases/{case_id}/documents/{kind}", tags=["documents"],
             summary="Gerar um documento (HTML ou PDF)",
             responses={200: {"content": {"text/html": {}, "application/pdf": {}}}})
    def get_document(case_id: CaseId, kind: documents.Kind, user: CurrentUser,
                     format: Annotated[Literal["html", "pdf"], Query()] = "html",
                     notification: Annotated[str | None, Query(
                         max_length=10, description="notificacao: which notification (N1, "
                         "N2…; default the latest)")] = None,
                     auto: Annotated[str | None, Query(
                         max_length=10, description="auto-infracao: which auto (A1, A2…; "
                         "default every auto of the case)")] = None) -> Response:
        with service.sessions() as s:
            case = service.get(s, user, case_id)
            team = service.team(s, case_id)
            people = service.signatories(s, [*team, *documents.signers(case.data)])
            atts = service.attachments(s, case_id)
        html = documents.render(kind, case, team=team, people=people, attachments=atts,
                                notification=notification, auto=auto)
        if format == "pdf":
            return Response(documents.to_pdf(html), media_type="application/pdf",
                            headers={"Content-Disposition": _disposition(
                                f"caso-{case_id}-{kind}.pdf", inline=True)})
        return HTMLResponse(html)

    app.include_router(api)
    return app


async def _read_upload(file: UploadFile, what: tuple[str, str]) -> bytes:
    """The uploaded bytes, refused (413) beyond 20 MB without reading more than that."""
    content = await file.read(MAX_UPLOAD + 1)
    if len(content) > MAX_UPLOAD:
        raise HTTPException(413, f"{what[0]} maior que 20 MB ‖ {what[1]} larger than 20 MB")
    return content


def _safe_filename(name: str | None) -> str:
    """The file's own name, without any folder part or control characters (a name like
    ``../../x.html`` is stored as ``x.html``)."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip().lstrip(".")
    return base[:255] or "anexo"


def _disposition(filename: str, inline: bool = False) -> str:
    """``Content-Disposition`` with the name (RFC 6266: ASCII fallback + UTF-8 form)."""
    ascii_name = "".join(ch if ch.isascii() and ch not in '"\\' else "_" for ch in filename)
    kind = "inline" if inline else "attachment"
    return f"{kind}; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"


def _user_json(user: User) -> dict[str, Any]:
    return {"id": user.id, "email": user.email, "role": user.role, "region": user.region,
            "name": user.name}

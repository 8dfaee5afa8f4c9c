"""Inspection cases: open, list, read, run a workflow command, read the audit trail. Every
read applies the caller's scope on the server (:func:`abordo.cases.auth.scoped_cases`)."""

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query
from fastapi.responses import JSONResponse

from abordo.cases import commands
from abordo.cases.service import CaseCreate
from abordo.faces.api.deps import CaseId, CurrentUser, Service, today
from abordo.faces.api.inputs import any_version, expected_version, no_control
from abordo.faces.api.views import case_json, with_etag

router = APIRouter()


@router.post("/cases", tags=["cases"], status_code=201, summary="Abrir um caso (ação fiscal)")
def create_case(body: CaseCreate, user: CurrentUser, service: Service) -> JSONResponse:
    no_control(body.model_dump(mode="json"))
    case_id = service.create(user, body, today())
    with service.sessions() as s:
        case = service.get(s, user, case_id)
    return with_etag(case_json(service, case, user), 201)


@router.get("/cases", tags=["cases"], summary="Casos no escopo do usuário")
def list_cases(user: CurrentUser, service: Service,
               state: Annotated[commands.State | None, Query()] = None,
               region: Annotated[str | None, Query(max_length=32)] = None,
               q: Annotated[str | None, Query(max_length=200)] = None,
               page: Annotated[int, Query(ge=1, le=100_000)] = 1,
               per_page: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
    no_control({"region": region, "q": q})
    with service.sessions() as s:
        res = service.list_cases(s, user, state=state.value if state else None,
                                 region=region, q=q, page=page, per_page=per_page)
    return {"total": res.total, "page": res.page, "per_page": res.per_page,
            "items": [{"id": c.id, "integrity": "blocked"} if c.id in res.blocked else
                      {"id": c.id, "state": c.state, "region": c.region,
                       "vessel_name": c.vessel_name, "version": c.version,
                       "updated_at": c.updated_at.isoformat()} for c in res.items]}


@router.get("/cases/{case_id}", tags=["cases"], summary="Ler um caso")
def read_case(case_id: CaseId, user: CurrentUser, service: Service) -> JSONResponse:
    with service.sessions() as s:
        case = service.get(s, user, case_id)
    return with_etag(case_json(service, case, user))


@router.post("/cases/{case_id}/commands", tags=["cases"],
             summary="Executar um comando do fluxo (transição)")
def run_command(case_id: CaseId, cmd: Annotated[commands.Command, Body()],
                user: CurrentUser, service: Service,
                if_match: Annotated[str | None, Header()] = None) -> JSONResponse:
    no_control(cmd.model_dump(mode="json"))
    case = service.command(user, case_id, cmd,
                           expected_version=expected_version(if_match, cmd.version),
                           today=today(), any_version=any_version(if_match))
    return with_etag(case_json(service, case, user))


@router.get("/cases/{case_id}/events", tags=["cases"], summary="Trilha de auditoria do caso")
def case_events(case_id: CaseId, user: CurrentUser, service: Service) -> dict[str, Any]:
    with service.sessions() as s:
        service.get(s, user, case_id)
        evs = service.events(s, case_id)
    return {"events": [{"seq": e.seq, "at": e.at.isoformat(), "actor": e.actor,
                        "command": e.command, "reason": e.reason,
                        "state_before": e.state_before, "state_after": e.state_after,
                        "payload": e.payload, "hash": e.hash} for e in evs]}

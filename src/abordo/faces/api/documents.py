"""The documents of a case (notification, letters, auto de infração, report) in HTML or PDF."""

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from fastapi.responses import HTMLResponse

from abordo.faces.api.deps import CaseId, CurrentUser, Service
from abordo.faces.api.views import disposition
from abordo.faces.reports import case_documents

router = APIRouter()


@router.get("/cases/{case_id}/documents", tags=["documents"],
            summary="Documentos disponíveis para o caso")
def list_documents(case_id: CaseId, user: CurrentUser, service: Service) -> dict[str, Any]:
    with service.sessions() as s:
        case = service.get(s, user, case_id)
    return {"documents": [{"kind": k, "title": case_documents.TITLES[k],
                           "html": f"/api/v1/cases/{case_id}/documents/{k}?format=html",
                           "pdf": f"/api/v1/cases/{case_id}/documents/{k}?format=pdf"}
                          for k in case_documents.available(case.data)]}


@router.get("/cases/{case_id}/documents/{kind}", tags=["documents"],
            summary="Gerar um documento (HTML ou PDF)",
            responses={200: {"content": {"text/html": {}, "application/pdf": {}}}})
def get_document(case_id: CaseId, kind: case_documents.Kind, user: CurrentUser,
                 service: Service,
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
        people = service.signatories(s, [*team, *case_documents.signers(case.data)])
        atts = service.attachments(s, case_id)
    html = case_documents.render(kind, case, team=team, people=people, attachments=atts,
                                 notification=notification, auto=auto)
    if format == "pdf":
        return Response(case_documents.to_pdf(html), media_type="application/pdf",
                        headers={"Content-Disposition": disposition(
                            f"caso-{case_id}-{kind}.pdf", inline=True)})
    return HTMLResponse(html)

"""A case's attachments (photos, scanned documents): upload, and download of the bytes
logged in the audit trail."""

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Header, HTTPException, Response, UploadFile

from abordo.cases.models import Attachment
from abordo.cases.service import check_attachments
from abordo.faces.api.deps import CaseId, CurrentUser, Service
from abordo.faces.api.inputs import expected_version, no_control, read_upload, safe_filename
from abordo.faces.api.views import disposition
from abordo.law.errors import InputError

router = APIRouter()


@router.post("/cases/{case_id}/attachments", tags=["cases"], status_code=201,
             summary="Anexar arquivo (foto, documento digitalizado)")
async def attach(case_id: CaseId, user: CurrentUser, service: Service,
                 file: Annotated[UploadFile, File()],
                 description: Annotated[str | None, Form(max_length=2000)] = None,
                 version: Annotated[int | None, Form(ge=1, le=999_999_999)] = None,
                 if_match: Annotated[str | None, Header()] = None) -> dict[str, Any]:
    content = await read_upload(file, ("anexo", "attachment"))
    filename = safe_filename(file.filename)
    if not content:
        raise InputError("anexo vazio", "file", message_en="empty attachment")
    no_control({"description": description})
    att_id = service.attach(user, case_id, filename=filename,
                            media_type=(file.content_type or "application/octet-stream")
                            [:127], content=content, description=description,
                            expected_version=expected_version(if_match, version))
    with service.sessions() as s:
        att = s.get(Attachment, att_id)
        case = service.get(s, user, case_id)
    assert att is not None
    return {"id": att.id, "sha256": att.sha256, "size": att.size, "version": case.version}


@router.get("/cases/{case_id}/attachments/{attachment_id}", tags=["cases"],
            summary="Baixar um anexo")
def get_attachment(case_id: CaseId, attachment_id: CaseId, user: CurrentUser,
                   service: Service) -> Response:
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
                                 "Content-Disposition": disposition(att.filename)})

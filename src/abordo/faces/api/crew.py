"""A case's crew changed in part, each through ``set_vessel_case`` with its checks: the crew
list sent as a file (CSV/XLSX, FAL Form 5), each bad row named by its line and column; one
person's documents (visas, residence authorizations), without sending the vessel case again.
"""

import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Body, File, Form, Header, UploadFile
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from abordo.cases.service import read_crew_upload
from abordo.crew.model import Document
from abordo.faces.api.deps import CaseId, CurrentUser, Service, today
from abordo.faces.api.inputs import (
    any_version,
    expected_version,
    no_control,
    read_upload,
    safe_filename,
)
from abordo.faces.api.views import case_json, with_etag
from abordo.law.errors import InputError
from abordo.law.validation import Date

router = APIRouter()

RECORDED_ON = ("the day the change happened, when recorded later (default: today in Brasília; "
               "not before the complaint, not in the future, not before the acts it answers — "
               "the assessment's start, the documents' request)")


@router.post("/cases/{case_id}/crew", tags=["cases"],
             summary="Enviar a lista de tripulantes (CSV/XLSX, FAL 5) do caso")
async def upload_crew(case_id: CaseId, user: CurrentUser, service: Service,
                      file: Annotated[UploadFile, File()],
                      version: Annotated[int | None, Form(ge=1, le=999_999_999)] = None,
                      recorded_on: Annotated[Date | None, Form(description=RECORDED_ON)
                                             ] = None,
                      if_match: Annotated[str | None, Header()] = None) -> JSONResponse:
    """The crew list file replaces the crew of the case's vessel data (``set_vessel_case``
    with the same checks): every bad row is listed at once with its line and column;
    personal data (names, documents, birth) is dropped on import. ``recorded_on``: the day
    the list was handed over, when entered later (the checklist's crew list is recorded
    received on it), as every command's."""
    service.require_writer(user)  # a read-only role is told so before the file is read
    content = await read_upload(file, ("arquivo", "file"))
    name = safe_filename(file.filename)

    def with_file_crew(current: dict[str, Any]
                       ) -> tuple[dict[str, Any], tuple[str, list[int]]]:
        crew, rows = read_crew_upload(content, name)
        # what the documents would print of a row (its id, rank…), at its line and column
        bad: list[InputError] = []
        for person, row in zip(crew, rows, strict=True):
            try:
                no_control(person)
            except InputError as exc:
                bad.append(exc.with_location(file=name, row=row))
        if bad:
            raise InputError.listing(bad)
        kept = {k: v for k, v in current.items() if k not in ("crew", "crew_file")}
        return {**kept, "crew": crew}, (name, rows)

    # The audit trail says where the crew came from: the file's name and SHA-256.
    source = f"lista de tripulantes do arquivo {name} (sha256 " \
             f"{hashlib.sha256(content).hexdigest()})"
    case = service.amend_vessel_case(user, case_id, with_file_crew, reason=source,
                                     expected_version=expected_version(if_match, version),
                                     any_version=any_version(if_match), today=today(),
                                     field="file", recorded_on=recorded_on)
    return with_etag(case_json(service, case, user))


class CrewDocuments(BaseModel):
    """The documents one crew member holds, replacing those recorded for them."""

    model_config = ConfigDict(extra="forbid")
    documents: list[Document] = Field(max_length=50, description=(
        "visas, residence authorizations, work authorizations, ILO C185 document, requests "
        "(protocol_date) — as a vessel case's crew[i].documents"))
    version: int | None = Field(default=None, ge=1, le=999_999_999)
    reason: str | None = Field(default=None, max_length=2000)
    recorded_on: Date | None = Field(default=None, description=RECORDED_ON)


@router.put("/cases/{case_id}/crew/{crew_id}/documents", tags=["cases"],
            summary="Registrar os documentos de um tripulante (vistos, autorizações)")
def set_crew_documents(case_id: CaseId, crew_id: str, user: CurrentUser, service: Service,
                       body: Annotated[CrewDocuments, Body()],
                       if_match: Annotated[str | None, Header()] = None) -> JSONResponse:
    """The documents of crew member ``crew_id`` (the id of the case's crew list) replace
    those recorded for them: ``set_vessel_case`` with that one change and its checks — the
    immigration engine judges them at the next ``run_engines`` (IN SIT 70/2007 arts. 12–13:
    visas and work authorizations of the foreign crew). Replacing documents someone recorded
    needs the version read (``version`` or ``If-Match``), as every replacement does."""
    def with_documents(current: dict[str, Any]) -> tuple[dict[str, Any], None]:
        crew = list(current.get("crew") or [])
        at = next((i for i, m in enumerate(crew) if str(m.get("id")) == crew_id), None)
        if at is None:
            raise InputError(f"tripulante '{crew_id}' não consta da lista de tripulantes do "
                             "caso", "crew_id", message_en=f"crew member '{crew_id}' is not in "
                             "the case's crew list")
        documents = [d.model_dump(mode="json", exclude_none=True) for d in body.documents]
        crew[at] = {k: v for k, v in crew[at].items() if k != "documents"} | (
            {"documents": documents} if documents else {})
        return {**current, "crew": crew}, None

    no_control(body.model_dump(mode="json"))
    reason = body.reason or f"documentos do tripulante {crew_id}"
    case = service.amend_vessel_case(user, case_id, with_documents, reason=reason,
                                     expected_version=expected_version(if_match, body.version),
                                     any_version=any_version(if_match), today=today(),
                                     recorded_on=body.recorded_on)
    return with_etag(case_json(service, case, user))

"""The crew list of a case sent as a file (CSV/XLSX, FAL Form 5): ``set_vessel_case`` with
the crew read from the file, each bad row named by its line and column."""

import hashlib
from typing import Annotated

from fastapi import APIRouter, File, Form, Header, UploadFile
from fastapi.responses import JSONResponse

from abordo.cases import commands, workflow
from abordo.cases.service import engines_day, read_crew_upload, validate_vessel_case
from abordo.faces.api.deps import CaseId, CurrentUser, Service, today
from abordo.faces.api.inputs import any_version, expected_version, read_upload, safe_filename
from abordo.faces.api.views import case_json, with_etag

router = APIRouter()


@router.post("/cases/{case_id}/crew", tags=["cases"],
             summary="Enviar a lista de tripulantes (CSV/XLSX, FAL 5) do caso")
async def upload_crew(case_id: CaseId, user: CurrentUser, service: Service,
                      file: Annotated[UploadFile, File()],
                      version: Annotated[int | None, Form(ge=1, le=999_999_999)] = None,
                      if_match: Annotated[str | None, Header()] = None) -> JSONResponse:
    """The crew list file replaces the crew of the case's vessel data (``set_vessel_case``
    with the same checks): every bad row is listed at once with its line and column;
    personal data (names, documents, birth) is dropped on import."""
    service.require_writer(user)  # a read-only role is told so before any other check
    content = await read_upload(file, ("arquivo", "file"))
    name = safe_filename(file.filename)
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
    case = service.command(user, case_id, cmd,
                           expected_version=expected_version(if_match, version),
                           today=today(), any_version=any_version(if_match),
                           based_on=read_version, validated=validated)
    return with_etag(case_json(service, case, user))

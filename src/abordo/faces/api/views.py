"""How a case, a user and a served file are written in the API's responses."""

from typing import Any
from urllib.parse import quote

from fastapi.responses import JSONResponse

from abordo.cases import auth, checklist, commands, steps, transitions
from abordo.cases.models import Case, User
from abordo.cases.service import CaseService
from abordo.faces.reports import case_documents
from abordo.law.calendar import brasilia_date


def case_json(service: CaseService, case: Case, user: User) -> dict[str, Any]:
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
        # (a deadline still owed once past, reported or closed: the close response says it)
        "warnings": checklist.case_warnings(case.data, brasilia_date(case.created_at))
        + steps.deadline_warnings(case.data, brasilia_date()),
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
        "documents": case_documents.available(case.data),
    }


def with_etag(body: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers={"ETag": f'"{body["version"]}"'})


def user_json(user: User) -> dict[str, Any]:
    return {"id": user.id, "email": user.email, "role": user.role, "region": user.region,
            "name": user.name}


def disposition(filename: str, inline: bool = False) -> str:
    """``Content-Disposition`` with the name (RFC 6266: ASCII fallback + UTF-8 form)."""
    ascii_name = "".join(ch if ch.isascii() and ch not in '"\\' else "_" for ch in filename)
    kind = "inline" if inline else "attachment"
    return f"{kind}; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"

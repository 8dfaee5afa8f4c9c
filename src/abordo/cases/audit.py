"""The append-only audit log: every command is one event, hash-chained.

``hash = sha256(prev_hash + canonical_json(event))`` where the event is its sequence number,
case, actor, UTC timestamp, command, reason, states before and after, and payload. Any later
edit of a stored event (or removal of one in the middle) breaks the chain; :func:`verify`
names the first broken event. Each case event carries the digest of the case's facts after
it, so that an edit of the cases table itself is caught too. The chain head lives in one row
locked on append, so the chain stays linear with several workers on one PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from abordo.cases.models import Attachment, AuditEvent, AuditHead, Case, CaseMember, utcnow

GENESIS = "0" * 64


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


def _at(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds")


def event_body(ev: AuditEvent) -> dict[str, Any]:
    return {
        "seq": ev.seq, "case_id": ev.case_id, "actor": ev.actor, "at": _at(ev.at),
        "command": ev.command, "reason": ev.reason, "state_before": ev.state_before,
        "state_after": ev.state_after, "payload": ev.payload,
    }


def event_hash(prev_hash: str, body: dict[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical_json(body)).encode("utf-8")).hexdigest()


def data_digest(data: Any) -> str:
    """SHA-256 of a case's facts in canonical JSON: logged with each event, so that a raw
    edit of the stored facts is caught by :func:`verify`."""
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def scope_digest(session: Session, case: Case) -> str:
    """SHA-256 of who may see and act on a case: its region, owner and team members."""
    members = sorted(m for (m,) in session.execute(
        select(CaseMember.user_id).where(CaseMember.case_id == case.id)))
    return data_digest({"region": case.region, "owner_id": case.owner_id,
                        "members": members})


def record_digest(state: str, vessel_name: str | None, procedure_version: str) -> str:
    """SHA-256 of a case's own columns besides its facts: state, vessel name (searched and
    listed) and the procedure version it follows."""
    return data_digest({"state": state, "vessel_name": vessel_name,
                        "procedure_version": procedure_version})


def case_record(case: Case) -> str:
    return record_digest(case.state, case.vessel_name, case.procedure_version)


_DIGESTS = ("data_sha256", "scope_sha256", "record_sha256")


def logged_digests(session: Session, case_id: int) -> dict[str, str]:
    """The digests the case's last events left (a key missing: never logged — cases
    stored before that digest was kept)."""
    found: dict[str, str] = {}
    for (payload,) in session.execute(
            select(AuditEvent.payload).where(AuditEvent.case_id == case_id,
                                             AuditEvent.command != "attach")
            .order_by(AuditEvent.seq.desc())):
        payload = payload if isinstance(payload, dict) else {}
        for key in _DIGESTS:
            if key not in found and payload.get(key):
                found[key] = str(payload[key])
        if len(found) == len(_DIGESTS):
            break
    return found


def untouched(session: Session, case: Case) -> str | None:
    """Why the stored case is not the one its trail left (a change made outside the
    system; ``"pt ‖ en"``), or None. Checked before every read and write of a case, so such
    a change is neither shown as genuine nor carried into the next event."""
    logged = logged_digests(session, case.id)
    if logged.get("data_sha256", data_digest(case.data)) != data_digest(case.data):
        return (f"caso {case.id}: os fatos gravados não são os do último evento da trilha"
                f" ‖ case {case.id}: the stored facts are not those of the trail's last event")
    scope = logged.get("scope_sha256")
    if scope is not None and scope != scope_digest(session, case):
        return (f"caso {case.id}: região, responsável ou equipe gravados não são os do último "
                f"evento da trilha ‖ case {case.id}: the stored region, owner or team are not "
                "those of the trail's last event")
    if logged.get("record_sha256", case_record(case)) != case_record(case):
        return (f"caso {case.id}: estado, nome da embarcação ou versão do procedimento "
                f"gravados não são os do último evento da trilha ‖ case {case.id}: the stored "
                "state, vessel name or procedure version are not those of the trail's last "
                "event")
    return None


def _locked_head(session: Session) -> AuditHead:
    """The chain head, locked until the transaction ends; created by the first event. Two
    first events at once (several workers on a new PostgreSQL database) both find no head:
    the one whose insert loses goes on from the head the other stored, instead of failing on
    its key. (Every caller has written before appending, so on SQLite — one writer at a
    time — the savepoint is inside the transaction already begun.)"""
    def locked() -> AuditHead | None:
        return session.execute(select(AuditHead).where(AuditHead.id == 1)
                               .with_for_update()).scalar_one_or_none()

    head = locked()
    if head is not None:
        return head
    try:
        with session.begin_nested():
            head = AuditHead(id=1, seq=0, hash=GENESIS)
            session.add(head)
        return head
    except IntegrityError:
        stored = locked()
        assert stored is not None  # the insert lost to a committed head
        return stored


def append(session: Session, *, actor: str, command: str, case_id: int | None,
           reason: str | None, state_before: str | None, state_after: str | None,
           payload: dict[str, Any], case_data: Any = None,
           case: Case | None = None, record: str | None = None) -> AuditEvent:
    """Append one event in the caller's transaction (locks the chain head); ``case_data``:
    the case's facts after the command (their digest goes in the payload); ``case``: the
    case, whose region, owner and team are digested too (after the command's changes);
    ``record``: :func:`record_digest` of its columns after the command."""
    if case_data is not None:
        payload = {**payload, "data_sha256": data_digest(case_data)}
    if record is not None:
        payload = {**payload, "record_sha256": record}
    if case is not None:
        session.flush()
        payload = {**payload, "scope_sha256": scope_digest(session, case)}
    head = _locked_head(session)
    payload = json.loads(canonical_json(payload))
    ev = AuditEvent(seq=head.seq + 1, case_id=case_id, actor=actor,
                    at=utcnow(), command=command,
                    reason=reason, state_before=state_before, state_after=state_after,
                    payload=payload, prev_hash=head.hash, hash="")
    ev.hash = event_hash(head.hash, event_body(ev))
    session.add(ev)
    head.seq = ev.seq
    head.hash = ev.hash
    session.flush()
    return ev


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    checked: int
    broken_seq: int | None = None
    broken_id: int | None = None
    reason: str | None = None


def verify(session: Session) -> VerifyResult:
    """Walk the chain in sequence order; report the first event that does not verify, then
    check that each case's current state is the one its last event left (a raw edit of the
    cases table is caught too). Reasons are in Portuguese."""
    prev = GENESIS
    expected_seq = 1
    n = 0
    last_state: dict[int, str | None] = {}
    last_data: dict[int, str] = {}
    last_scope: dict[int, str] = {}
    last_record: dict[int, str] = {}
    uploads: dict[int, tuple[int, str]] = {}  # attachment id → (case, SHA-256) logged
    for ev in session.execute(select(AuditEvent).order_by(AuditEvent.seq)).scalars():
        if ev.seq != expected_seq:
            return VerifyResult(False, n, ev.seq, ev.id,
                                f"lacuna na sequência: esperado {expected_seq}")
        if ev.prev_hash != prev:
            return VerifyResult(False, n, ev.seq, ev.id, "o hash anterior não confere")
        if event_hash(prev, event_body(ev)) != ev.hash:
            return VerifyResult(False, n, ev.seq, ev.id, "o conteúdo não confere com o hash")
        if ev.case_id is not None and ev.state_after is not None:
            last_state[ev.case_id] = ev.state_after
        if ev.case_id is not None and isinstance(ev.payload, dict):
            if "data_sha256" in ev.payload:
                last_data[ev.case_id] = str(ev.payload["data_sha256"])
            if "scope_sha256" in ev.payload:
                last_scope[ev.case_id] = str(ev.payload["scope_sha256"])
            if "record_sha256" in ev.payload:
                last_record[ev.case_id] = str(ev.payload["record_sha256"])
            if ev.command == "attach" and "attachment_id" in ev.payload:
                uploads[int(ev.payload["attachment_id"])] = (ev.case_id,
                                                             str(ev.payload.get("sha256")))
        prev = ev.hash
        expected_seq += 1
        n += 1
    head = session.get(AuditHead, 1)
    if head is not None and (head.seq != n or head.hash != prev):
        return VerifyResult(False, n, head.seq, None,
                            "o topo da cadeia não confere com o último evento (eventos "
                            "removidos?)")
    for case in session.execute(select(Case)).scalars():
        logged = last_state.get(case.id)
        if logged is not None and logged != case.state:
            return VerifyResult(False, n, None, None,
                                f"caso {case.id}: estado '{case.state}' não é o do último "
                                f"evento da trilha ('{logged}')")
        digest = last_data.get(case.id)
        if digest is not None and digest != data_digest(case.data):
            return VerifyResult(False, n, None, None,
                                f"caso {case.id}: os fatos gravados não são os do último "
                                "evento da trilha (alteração fora do sistema?)")
        scope = last_scope.get(case.id)
        if scope is not None and scope != scope_digest(session, case):
            return VerifyResult(False, n, None, None,
                                f"caso {case.id}: região, responsável ou equipe gravados não "
                                "são os do último evento da trilha (alteração fora do "
                                "sistema?)")
        record = last_record.get(case.id)
        if record is not None and record != case_record(case):
            return VerifyResult(False, n, None, None,
                                f"caso {case.id}: nome da embarcação ou versão do procedimento "
                                "gravados não são os do último evento da trilha (alteração "
                                "fora do sistema?)")
    stored: set[int] = set()
    for att in session.execute(select(Attachment).execution_options(yield_per=32)).scalars():
        stored.add(att.id)
        if uploads.get(att.id) != (att.case_id, att.sha256) \
                or hashlib.sha256(att.content).hexdigest() != att.sha256:
            return VerifyResult(False, n, None, None,
                                f"anexo {att.id} do caso {att.case_id}: o arquivo gravado não é "
                                "o do registro do envio (alteração fora do sistema?)")
    gone = sorted(set(uploads) - stored)
    if gone:
        return VerifyResult(False, n, None, None,
                            f"anexo {gone[0]} do caso {uploads[gone[0]][0]}: enviado, mas não "
                            "está mais gravado (remoção fora do sistema?)")
    return VerifyResult(True, n)

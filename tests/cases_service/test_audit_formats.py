"""The digests a stored trail holds are computed the same way forever.

Every event hash, and every ``data_sha256`` / ``user_sha256`` / ``token_sha256`` /
``record_sha256`` in a payload, is checked again by each later release (``abordo audit
verify``, the per-request checks), and migration 0004 computed ``user_sha256`` with
:func:`abordo.cases.audit.user_digest` as it is: a change of any of these functions would
turn every stored trail into "tampered". These values were computed once, by hand from the
documented format (SHA-256 of canonical JSON: sorted keys, no spaces, UTF-8 unescaped), and
must never change; a new format needs a new event kind or field, not an edit here."""

from __future__ import annotations

import datetime as dt
import hashlib
from types import SimpleNamespace

from abordo.cases import audit
from abordo.cases.models import ApiToken, AuditEvent


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_canonical_json_and_the_event_hash_are_frozen() -> None:
    assert audit.GENESIS == "0" * 64
    assert audit.canonical_json({"b": 1, "a": "é", "d": dt.date(2026, 1, 2)}) == \
        '{"a":"é","b":1,"d":"2026-01-02"}'
    ev = AuditEvent(seq=1, case_id=None, actor="cli",
                    at=dt.datetime(2026, 12, 1, 6, 30, tzinfo=dt.timezone(dt.timedelta(hours=-3))),
                    command="add_user", reason=None, state_before=None, state_after=None,
                    payload={"user_id": 7, "email": "ana@x.gov.br"}, prev_hash=audit.GENESIS,
                    hash="")
    body = ('{"actor":"cli","at":"2026-12-01T09:30:00.000000+00:00","case_id":null,'
            '"command":"add_user","payload":{"email":"ana@x.gov.br","user_id":7},'
            '"reason":null,"seq":1,"state_after":null,"state_before":null}')
    assert audit.canonical_json(audit.event_body(ev)) == body  # the instant in UTC
    assert audit.event_hash(audit.GENESIS, audit.event_body(ev)) == _sha("0" * 64 + body) == \
        "1ed1bbfb7fc7ba7544de769132fdf20e3d45566a563fbfc374773ca652791024"


def test_the_row_digests_are_frozen() -> None:
    user = SimpleNamespace(id=7, email="ana@x.gov.br", name="Ana Souza", role="inspector",
                           region="RJ", active=True, password_hash="$argon2id$x")
    assert audit.user_digest(user) == _sha(
        '{"active":true,"email":"ana@x.gov.br","id":7,"name":"Ana Souza",'
        '"password_hash":"$argon2id$x","region":"RJ","role":"inspector"}') == \
        "2991ebb76019de7510cd56f6008e21065505e3998d40be6886b8831e039419aa"
    token = ApiToken(id=3, user_id=7, token_hash="a" * 64, label="api", revoked=False)
    assert audit.token_row_digest(token) == _sha(
        '{"id":3,"label":"api","revoked":false,"token_hash":"' + "a" * 64 + '","user_id":7}'
    ) == "90ce7ab0f56327a519f90aa02fe9bf5a657d4d93e52b491d332612e5630dc443"
    assert audit.data_digest({"x": [1, 2]}) == _sha('{"x":[1,2]}') == \
        "036b898f9248c0e83d645e262473d1d93b3085400b881ff658928b81ca06de91"
    assert audit.record_digest("open", "Navio", "in-sit-70-2007") == _sha(
        '{"procedure_version":"in-sit-70-2007","state":"open","vessel_name":"Navio"}') == \
        "e0341b6c99b1fe936ca3c38e42fda21f3bf80c0728d17c8cfd3b4f37a75852ce"

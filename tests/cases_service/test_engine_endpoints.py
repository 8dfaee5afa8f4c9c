"""Stateless engine endpoints return the same JSON as the CLI (the engines' ``to_json``)."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient

from abordo.crew import parse_vessel_case
from abordo.quota import evaluate
from abordo.vessel_check import check_vessel
from cases_service.support import client_for, q01_case


@pytest.fixture
def c(sqlite_url: str) -> TestClient:
    return client_for(sqlite_url)


def test_check_and_quota_same_json_as_engines(c: TestClient) -> None:
    body = q01_case()
    case = parse_vessel_case(body)
    on = dt.date(2026, 4, 1)
    r = c.post("/api/v1/check?on=2026-04-01", json=body)
    assert r.status_code == 200
    assert r.json() == check_vessel(case, on).to_json("pt")
    r = c.post("/api/v1/quota?on=2026-04-01&lang=en", json=body)
    assert r.json() == evaluate(case, on, {}).to_json("en")
    assert r.json()["verdict"] == "non_compliant"
    plan = c.post("/api/v1/quota/plan?on=2026-04-01", json=body)
    assert plan.status_code == 200


def test_bad_input_names_the_field(c: TestClient) -> None:
    body = q01_case()
    body["vessel"]["flag"] = "XX"
    r = c.post("/api/v1/check?on=2026-04-01", json=body)
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["errors"][0]["field"] == "vessel.flag"
    body = q01_case()
    body["crew"][2]["nationalty"] = "BR"
    r = c.post("/api/v1/check", json=body)
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "crew[2].nationalty"
    r = c.post("/api/v1/check?on=31/02/2026", json=q01_case())
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "on"
    # dd/mm/aaaa is a date (as the message says), and the same date as ISO
    ddmm = c.post("/api/v1/quota?on=01/04/2026", json=q01_case())
    assert ddmm.status_code == 200, ddmm.text
    assert ddmm.json() == c.post("/api/v1/quota?on=2026-04-01", json=q01_case()).json()
    # an engine input error follows the language asked
    body = q01_case()
    body["vessel"]["flag"] = "XX"
    en = c.post("/api/v1/check?on=2026-04-01&lang=en", json=body).json()
    assert en["title"] == "Unprocessable Content" and "unknown country" in en["detail"]
    assert "desconhecido" not in en["errors"][0]["message"]
    pt = c.post("/api/v1/check?on=2026-04-01", json=body).json()
    assert pt["title"] == "Entrada inválida" and "desconhecido" in pt["detail"]
    body = q01_case()
    body["crew_file"] = "/etc/passwd"
    del body["crew"]
    r = c.post("/api/v1/check", json=body)
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "crew_file"
    # listed with every other problem of the case, not alone
    body["vessel"] = {**body["vessel"], "flag": "ZZ", "activity": "rowing"}
    r = c.post("/api/v1/check", json=body)
    assert [e["field"] for e in r.json()["errors"]] == [
        "crew_file", "vessel.flag", "vessel.activity"]
    r = c.post("/api/v1/check", content=b"{not json", headers={"content-type":
                                                               "application/json"})
    assert r.status_code == 422


def test_norms_and_schemas(c: TestClient) -> None:
    norms = c.get("/api/v1/norms?on=2020-01-01").json()["norms"]
    in_sit = next(n for n in norms if n["id"] == "in-sit-70-2007")
    assert in_sit["in_force"] is True
    norms = c.get("/api/v1/norms?on=2022-01-01").json()["norms"]
    assert next(n for n in norms if n["id"] == "in-sit-70-2007")["in_force"] is False
    vessel = c.get("/api/v1/schemas/vessel").json()
    assert "vessel" in vessel["properties"]
    assert c.get("/api/v1/schemas/command").status_code == 200
    assert c.get("/api/v1/schemas/nope").status_code == 422
    assert c.get("/api/v1/openapi.json").json()["openapi"].startswith("3.")


def test_fines_and_sea_time_delegate_to_engines(c: TestClient) -> None:
    r = c.post("/api/v1/fines", json={"bogus": 1})
    assert r.status_code in (422, 501)
    assert r.headers["content-type"].startswith("application/problem+json")
    r = c.post("/api/v1/sea-time", json={"bogus": 1})
    assert r.status_code in (422, 501)
    assert r.headers["content-type"].startswith("application/problem+json")


def _worked(path: str) -> dict[str, object]:
    import json

    import yaml

    from cases_service.support import ROOT

    data = yaml.safe_load((ROOT / "tests/cases" / path).read_text(encoding="utf-8"))
    out: dict[str, object] = json.loads(json.dumps(data, default=str))
    return out


def test_fines_and_sea_time_same_json_as_engines(c: TestClient) -> None:
    from abordo.port_fines import grade
    from abordo.sea_time import compute

    fine = _worked("port_fine/f01-rest-interval-per-worker.yaml")
    r = c.post("/api/v1/fines", json=fine["input"])
    assert r.status_code == 200, r.text
    assert r.json() == grade(fine["input"], {}).to_json("pt")  # type: ignore[arg-type]
    assert r.json()["result"]["amount"] == "37260.00"
    st = _worked("sea_time/s01-cir-declaration-match.yaml")
    r = c.post("/api/v1/sea-time?on=2026-01-15", json=st["input"])
    assert r.status_code == 200, r.text
    assert r.json() == compute(st["input"], dt.date(2026, 1, 15), {}).to_json("pt")  # type: ignore[arg-type]


def test_plan_and_immigration_endpoints_apply_and_check_their_options(c: TestClient) -> None:
    from abordo.quota import plan

    body = q01_case()
    case = parse_vessel_case(body)
    on = dt.date(2026, 4, 1)
    opts = {"quota.groups": "department_or_level"}
    r = c.post("/api/v1/quota/plan?on=2026-04-01&option=quota.groups=department_or_level",
               json=body)
    assert r.status_code == 200 and r.json() == plan(case, on, opts).to_json("pt")
    assert "quota.groups.department_or_level" in str(r.json()["interpretations"])
    imm = c.post("/api/v1/immigration?on=2026-04-01&option=immigration.stay=exclusive",
                 json=body)
    assert imm.status_code == 200
    assert "immigration.stay.exclusive" in str(imm.json()["interpretations"])
    for url in ("/api/v1/quota/plan", "/api/v1/immigration"):
        bogus = c.post(f"{url}?on=2026-04-01&option=bogus=x", json=body)
        assert bogus.status_code == 422, url


FINE = {"infraction": {"provision": "lei-9719/art-8", "date": "2009-03-17", "nature": 3,
                       "extent": "medium", "intent": True, "workers": 2}}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("chosen", ["1e100000000", 1e308, "NaN"])
def test_a_huge_chosen_value_is_a_short_422_naming_the_field(c: TestClient,
                                                              chosen: object) -> None:
    # "1e100000000" once made a 400 MB answer: the range message wrote out every digit.
    r = c.post("/api/v1/fines", json={**FINE, "grading": {"chosen_value": chosen,
                                                           "reason": "x"}})
    assert r.status_code == 422
    assert len(r.content) < 1000
    error = r.json()["errors"][0]
    assert error["field"] == "grading.chosen_value"
    assert error["message"].startswith(("número grande demais (máximo 15 algarismos",
                                        "número finito esperado"))


def test_an_ambiguous_chosen_value_is_refused_and_a_brazilian_one_read(c: TestClient) -> None:
    r = c.post("/api/v1/fines", json={**FINE, "grading": {"chosen_value": "2,500",
                                                           "reason": "x"}})
    assert r.status_code == 422
    assert r.json()["errors"][0]["message"].startswith("valor ambíguo '2,500'")
    r = c.post("/api/v1/fines", json={**FINE, "grading": {"chosen_value": "R$ 2.500,00",
                                                           "reason": "x"}})
    assert r.status_code == 200, r.text
    assert r.json()["result"]["amount"] == "5000.00"


def _post_streamed(url: str, path: str, chunks: list[bytes], content_type: str
                   ) -> tuple[int, dict[str, str], bytes, int]:
    """POST ``chunks`` without a length (chunked, as a real server hands them over — the
    TestClient reads a streamed body whole first): status, headers, body, bytes pulled."""
    import asyncio

    from abordo.faces.api import create_app

    app = create_app(url)
    pending = iter(chunks)
    pulled = 0
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        nonlocal pulled
        chunk = next(pending, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        pulled += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": b"", "client": ("test", 1),
             "server": ("test", 80),
             "headers": [(b"host", b"test"), (b"content-type", content_type.encode()),
                         (b"transfer-encoding", b"chunked")]}
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    start = sent[0]
    headers = {k.decode(): v.decode() for k, v in start["headers"]}  # type: ignore[attr-defined]
    body = b"".join(m.get("body", b"") for m in sent[1:])  # type: ignore[misc]
    return int(start["status"]), headers, body, pulled  # type: ignore[call-overload]


@pytest.mark.timeout(60)
def test_a_chunked_body_past_the_limit_is_a_413_read_no_further(sqlite_url: str) -> None:
    # The limit was checked on Content-Length only: 30 MB sent without it were read and
    # parsed whole (a 422 instead of the 413).
    import json

    from abordo.faces.api.inputs import MAX_BODY

    mb = b"x" * 2**20
    chunks = [b'{"vessel": "', *[mb] * 30, b'"}']
    status, headers, body, pulled = _post_streamed(sqlite_url, "/api/v1/check", chunks,
                                                   "application/json")
    assert status == 413
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body) == {
        "type": "about:blank", "title": "Conteúdo grande demais", "status": 413,
        "detail": "corpo da requisição maior que 21 MB",
        "errors": [{"field": "body", "message": "corpo da requisição maior que 21 MB",
                    "message_en": "request body larger than 21 MB"}]}
    assert MAX_BODY < pulled <= MAX_BODY + len(mb)  # the chunk that passed it, no more
    # An upload sent so names its file, as for a declared length.
    rows = b"C1,AB,BR\n" * 2**17  # 1,1 MB
    status, _, body, pulled = _post_streamed(
        sqlite_url, "/api/v1/cases/1/crew",
        [b'--b\r\nContent-Disposition: form-data; name="file"; filename="l.csv"\r\n'
         b"Content-Type: text/csv\r\n\r\nid,rank,nationality\n", *[rows] * 30],
        "multipart/form-data; boundary=b")
    assert status == 413 and json.loads(body)["errors"][0]["field"] == "file"
    assert MAX_BODY < pulled <= MAX_BODY + len(rows)
    # Below the limit a streamed body is read as any other.
    status, _, body, _ = _post_streamed(sqlite_url, "/api/v1/fines",
                                        [json.dumps(FINE).encode()], "application/json")
    assert status == 200, body
    assert json.loads(body)["result"]["amount"] == "5520.00"

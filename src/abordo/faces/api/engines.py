"""The stateless engine endpoints: quota, check, immigration, fines, sea time, norms and the
input schemas. No login, no database: the same engines as the CLI's."""

import importlib
from typing import Any, Literal

from fastapi import APIRouter, HTTPException

from abordo.cases import commands
from abordo.cases.service import CaseCreate
from abordo.faces.api.deps import AnyObject, Lang, OnDate, Options, today
from abordo.law.errors import InputError

router = APIRouter()


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


def _vessel(data: dict[str, Any]) -> Any:
    from abordo.crew.load import parse_inline_vessel_case

    return parse_inline_vessel_case(data)


@router.post("/quota", tags=["engines"], summary="Cota de brasileiros a bordo")
def quota(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
          option: Options = None
          ) -> dict[str, Any]:
    from abordo.quota import evaluate

    opts = _options(option)
    result: dict[str, Any] = evaluate(_vessel(body), on or today(), opts).to_json(lang)
    return result


@router.post("/quota/plan", tags=["engines"], summary="Todos os degraus futuros da cota")
def quota_plan(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
               option: Options = None
               ) -> dict[str, Any]:
    from abordo.quota import plan

    result: dict[str, Any] = plan(_vessel(body), on or today(),
                                  _options(option)).to_json(lang)
    return result


@router.post("/check", tags=["engines"], summary="Cota + imigração + checklist (abordo check)")
def check(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
          option: Options = None
          ) -> dict[str, Any]:
    from abordo.vessel_check import check_vessel

    result: dict[str, Any] = check_vessel(_vessel(body), on or today(),
                                          _options(option)).to_json(lang)
    return result


@router.post("/immigration", tags=["engines"], summary="Imigração da tripulação estrangeira")
def immigration(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
                option: Options = None
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


@router.post("/fines", tags=["engines"], summary="Multas da Lei 9.719/98 (gradação)")
def fines(body: AnyObject, lang: Lang = "pt",
          option: Options = None
          ) -> dict[str, Any]:
    grade = _load("abordo.port_fines", "grade")
    result: dict[str, Any] = grade(body, _options(option),
                                   judged_on=today()).to_json(lang)
    return result


@router.post("/sea-time", tags=["engines"], summary="Cômputo de tempo de embarque")
def sea_time(body: AnyObject, lang: Lang = "pt", on: OnDate = None,
             option: Options = None
             ) -> dict[str, Any]:
    compute = _load("abordo.sea_time", "compute")
    result: dict[str, Any] = compute(body, on or today(), _options(option)).to_json(lang)
    return result


@router.get("/norms", tags=["engines"], summary="Normas modeladas e vigência")
def norms(on: OnDate = None) -> dict[str, Any]:
    from abordo.law.norms import norm_registry

    day = on or today()
    items = [{"id": n.id, "label": n.label, "title": n.title, "urn": n.urn,
              "in_force_from": n.in_force_from.isoformat(),
              "in_force_to": n.in_force_to.isoformat() if n.in_force_to else None,
              "replaced_by": n.replaced_by, "modelled": n.modelled,
              "in_force": n.in_force_on(day)} for n in norm_registry()]
    return {"on": day.isoformat(), "norms": items}


@router.get("/schemas/{kind}", tags=["engines"], summary="JSON Schema de um formato de entrada")
def schema(kind: Literal["vessel", "fine", "sea-time", "case", "command"]) -> dict[str, Any]:
    from pydantic import TypeAdapter

    from abordo.faces.schemas import input_schema

    if kind == "case":
        return CaseCreate.model_json_schema()
    if kind == "command":
        out: dict[str, Any] = TypeAdapter(commands.Command).json_schema()
        return out
    return input_schema(kind)

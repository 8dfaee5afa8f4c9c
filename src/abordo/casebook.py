"""Worked cases: run a folder of case files through the engines and compare expectations.

A case file (see ``tests/cases/README.md``) names its ``engine``, the date ``on``, the
``input`` in the engine's own format, optional ``options`` and an ``expect`` block checked
key by key. Each engine exposes ``<package>.casebook.run(input, on, options, base_dir)``
returning its output in the cases' vocabulary; this module only loads, dispatches, compares.
"""

from __future__ import annotations

import datetime as dt
import difflib
import fnmatch
import importlib
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from abordo.law.documents import (
    LineIndex,
    decode,
    line_of,
    locate,
    parse_document,
    read_document,
)
from abordo.law.errors import DUPLICATE_ID, InputError
from abordo.law.files import list_folder, read_input
from abordo.law.parsing import yaml_problem
from abordo.law.validation import loc_to_path
from abordo.law.yamlload import load_data_text

ENGINES: dict[str, str] = {
    "crew_quota": "abordo.quota.casebook",
    "immigration": "abordo.immigration.casebook",
    "port_fine": "abordo.port_fines.casebook",
    "sea_time": "abordo.sea_time.casebook",
}

# Lists of objects are matched by these keys; other lists compare as sets.
LIST_KEYS = {"groups": "group", "persons": "id"}
# Lists where every expected item must appear among the actual ones (output may hold more).
SUBSET_LISTS = {"excluded", "interpretations"}

Runner = Callable[[dict[str, Any], dt.date | None, dict[str, Any], Path], dict[str, Any]]


#: A message in Portuguese and English: ``(pt, en)``.
Text = tuple[str, str]


@dataclass(frozen=True)
class CaseResult:
    """``status``: pass | fail | not_built (an engine listed in :data:`ENGINES` whose module
    is missing) | error (the engine crashed) | invalid (bad input, not a failed case: a case
    file that cannot be read — its encoding, its YAML — or whose fields are wrong: an
    unknown field or engine, ``expect`` missing or empty, ``on`` not a date, ``expect`` /
    ``input`` / ``options`` not mappings, an ``id`` another file has too; ``is_case`` false
    for a YAML file that is no worked case at all: empty, not a mapping, or with neither
    ``engine`` nor ``expect``). ``difference`` is Portuguese, ``difference_en`` English (see
    :meth:`said`)."""

    case_id: str
    path: Path
    engine: str
    status: str
    difference: str | None = None
    is_case: bool = True
    difference_en: str | None = None

    def said(self, lang: str = "pt") -> str:
        """The difference (or the problem) in ``lang`` (``pt`` or ``en``); empty if none."""
        return (self.difference_en if lang == "en" and self.difference_en else
                self.difference) or ""


def _result(case_id: str, path: Path, engine: str, status: str, why: Text | None = None,
            is_case: bool = True) -> CaseResult:
    return CaseResult(case_id, path, engine, status, why[0] if why else None, is_case,
                      why[1] if why else None)


def find_case_files(root: Path) -> list[Path]:
    """Every ``*.yaml`` / ``*.yml`` case under ``root`` (recursively, links to folders not
    followed), sorted; or ``root`` when it is not a folder. A link to no file and a
    subfolder that cannot be listed are in the list too, so that :func:`run_cases` reports
    them: a case the run cannot see is not to pass unnoticed."""
    if not root.is_dir():
        return [root]
    list_folder(root)  # a folder that cannot be opened is said, never read as empty
    found: list[Path] = []
    os_errors: list[OSError] = []
    for folder, _, names in os.walk(root, onerror=os_errors.append):
        found.extend(Path(folder, n) for n in names if fnmatch.fnmatchcase(n, "*.y*ml")
                     and not Path(folder, n).is_dir())
    found.extend(Path(e.filename) for e in os_errors if e.filename)
    return sorted(found)


def load_runner(engine: str) -> Runner | None:
    module = ENGINES.get(engine)
    if module is None:
        return None
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return None
        raise
    run: Runner = mod.run
    return run


def normalize(value: Any) -> Any:
    """Bring expected and actual values to one comparable form (ISO dates, decimal strings)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dict):
        return {str(k): normalize(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalize(v) for v in value]
    return value


def compare(expect: dict[str, Any], actual: dict[str, Any]) -> Text | None:
    """The first difference between ``expect`` and ``actual`` (None when all keys match)."""
    for key, exp in expect.items():
        exp_n = normalize(exp)
        if key not in actual:
            return (f"{key}: esperado {exp_n!r}, a saída não tem essa chave",
                    f"{key}: expected {exp_n!r}, the output has no such key")
        act_n = normalize(actual[key])
        diff = _compare_value(key, exp_n, act_n)
        if diff:
            return diff
    return None


def _differs(key: str, exp: Any, act: Any) -> Text:
    return f"{key}: esperado {exp!r}, obtido {act!r}", f"{key}: expected {exp!r}, got {act!r}"


def _compare_value(key: str, exp: Any, act: Any) -> Text | None:
    if key in LIST_KEYS and isinstance(exp, list):
        k = LIST_KEYS[key]
        by_key = {str(a.get(k)): a for a in act or []}
        for item in exp:
            got = by_key.get(str(item.get(k)))
            if got is None:
                return (f"{key}[{item.get(k)}]: ausente da saída",
                        f"{key}[{item.get(k)}]: missing from the output")
            for f, v in item.items():
                if normalize(got.get(f)) != v:
                    return _differs(f"{key}[{item.get(k)}].{f}", v, got.get(f))
        return None
    if key in SUBSET_LISTS and isinstance(exp, list):
        for item in exp:
            if item not in (act or []):
                return (f"{key}: esperado {item!r} entre {act!r}",
                        f"{key}: expected {item!r} among {act!r}")
        return None
    if isinstance(exp, list) and isinstance(act, list) and key == "findings":
        return None if sorted(map(str, exp)) == sorted(map(str, act)) else (
            _differs(key, exp, act))
    if isinstance(exp, dict) and isinstance(act, dict) and key in {"breakdown", "by_category"}:
        for k, v in exp.items():
            if act.get(k, 0) != v:
                return _differs(f"{key}.{k}", v, act.get(k))
        extra = {k: v for k, v in act.items() if k not in exp and v}
        return (f"{key}: não nulo inesperado {extra!r}",
                f"{key}: unexpected non-zero {extra!r}") if extra else None
    if isinstance(exp, dict) and isinstance(act, dict):
        for k, v in exp.items():
            if act.get(k) != v:
                return _differs(f"{key}.{k}", v, act.get(k))
        return None
    if exp != act:
        return _differs(key, exp, act)
    return None


def run_case(path: Path) -> CaseResult:
    """Load one case file, run its engine and compare with its ``expect`` block."""
    try:
        # Decoded as every other input (abordo check, fine, sea-time): UTF-8, else the
        # Windows-1252 / Latin-1 an editor on Windows saves.
        text = decode(read_input(path), str(path))
        # YAML 1.2 booleans (a bare `on:` key is the date judged, an unquoted NO is Norway);
        # dates parsed; repeated keys refused.
        case = load_data_text(text)
    except InputError as exc:  # not readable (no permission…), UTF-16 or binary content
        return _result(path.stem, path, "?", "invalid", (
            f"caso ilegível {path}: {exc.message}",
            f"unreadable case {path}: {exc.message_en or exc.message}"))
    except (yaml.YAMLError, ValueError) as exc:
        return _result(path.stem, path, "?", "invalid", _unreadable(path, exc, text))
    if not isinstance(case, dict) or not {"engine", "expect"} & set(case):
        # Empty, a list, or some other document (a vessel file) — no case to run.
        why = (("arquivo vazio", "empty file") if case is None else
               ("faltam engine e expect", "engine and expect missing") if isinstance(case, dict)
               else ("o arquivo deve conter um mapeamento (chave: valor)",
                     "the file must hold a mapping (key: value)"))
        return _result(path.stem, path, "?", "invalid", (
            f"caso inválido {path}: não é um caso resolvido ({why[0]})",
            f"invalid case {path}: not a worked case ({why[1]})"), is_case=False)
    case_id = str(case.get("id", path.stem))
    engine = str(case.get("engine", "?"))
    on, problems = _shape(case)
    if problems:
        index = _line_index(text, path)  # in the file's order, fields missing last
        problems.sort(key=lambda p: index.get((p[0],), 1 << 30))
        pt = "; ".join(_at(index, field, why[0]) for field, why in problems)
        en = "; ".join(_at(index, field, why[1], "en") for field, why in problems)
        return _result(case_id, path, engine, "invalid",
                       (f"caso inválido {path}, {pt}", f"invalid case {path}, {en}"))
    runner = load_runner(engine)
    if runner is None:
        return _result(case_id, path, engine, "not_built", (
            f"motor '{engine}' ainda não implementado",
            f"engine '{engine}' not implemented yet"))
    refused: InputError | None = None
    try:
        actual = runner(case.get("input") or {}, on, case.get("options") or {}, path.parent)
    except InputError as exc:
        refused = exc
        actual = {"verdict": "input_error", "error_field": exc.field, "error": exc.render("en")}
    except Exception as exc:  # a crash in one case must not hide the others
        return _result(case_id, path, engine, "error", (
            f"o motor falhou ({type(exc).__name__}): {exc}",
            f"the engine failed ({type(exc).__name__}): {exc}"))
    diff = compare(case["expect"], actual)
    if diff and refused is not None:
        # Not only "obtido 'input_error'": what the engine refused, and where.
        located = _in_case_file(refused, path, text)
        diff = (f"{diff[0]} — o motor recusou a entrada: {located.render('pt')}",
                f"{diff[1]} — the engine refused the input: {located.render('en')}")
        diff = (diff[0].replace("\n", "; "), diff[1].replace("\n", "; "))  # one line a case
    return _result(case_id, path, engine, "fail" if diff else "pass", diff)


def _in_case_file(exc: InputError, path: Path, text: str) -> InputError:
    """``exc`` placed in the case file: a problem of the case's own input (no file named)
    gets the file, its field under ``input`` and that field's line; one in a side file (a
    crew list) keeps its file and row."""
    index = _line_index(text, path)
    return InputError.listing([
        e if e.file else locate(e.with_location(prefix="input"), str(path), index)
        for e in (exc.alone(), *exc.details)])


#: Engines whose cases may omit ``on`` (a fine's infraction date selects its norm).
_ON_OPTIONAL = frozenset({"port_fine"})


#: The fields of a case file (tests/cases/README.md). Any other is refused: a misspelt
#: ``expected:`` for ``expect:`` would otherwise check nothing and pass.
CASE_FIELDS = ("id", "engine", "description", "on", "input", "options", "expect")


def _shape(case: dict[str, Any]) -> tuple[dt.date | None, list[tuple[str, Text]]]:
    """The date judged and every problem of the case's own fields, each with its field:
    a field missing or unknown, an unknown engine, ``expect`` empty (a case that checks
    nothing), ``input`` / ``options`` / ``expect`` not mappings, ``on`` not a date."""
    problems: list[tuple[str, Text]] = []
    for key in case:
        if str(key) not in CASE_FIELDS:
            guess = difflib.get_close_matches(str(key), CASE_FIELDS, n=1, cutoff=0.6)
            problems.append((str(key), (
                "campo desconhecido" + (f" (quis dizer {guess[0]}?)" if guess else ""),
                "unknown field" + (f" (did you mean {guess[0]}?)" if guess else ""))))
    engines = ", ".join(ENGINES)
    engine = case.get("engine")
    if engine is None:
        problems.append(("engine", (f"ausente ({engines})", f"missing ({engines})")))
    elif str(engine) not in ENGINES:
        guess = difflib.get_close_matches(str(engine), ENGINES, n=1, cutoff=0.6)
        problems.append(("engine", (
            f"motor desconhecido '{engine}' ("
            + (f"quis dizer {guess[0]}? " if guess else "") + f"os motores: {engines})",
            f"unknown engine '{engine}' ("
            + (f"did you mean {guess[0]}? " if guess else "") + f"the engines: {engines})")))
    expect = case.get("expect")
    if expect is None:
        problems.append(("expect", ("ausente (o que o caso verifica)",
                                    "missing (what the case checks)")))
    elif not isinstance(expect, dict):
        problems.append(("expect", _NOT_A_MAPPING))
    elif not expect:
        problems.append(("expect", ("vazio: um caso sem expectativas não verifica nada",
                                    "empty: a case with no expectations checks nothing")))
    for key in ("input", "options"):
        if case.get(key) is not None and not isinstance(case[key], dict):
            problems.append((key, _NOT_A_MAPPING))
    on, why = _date_judged(case.get("on"), str(engine))
    if why is not None and str(engine) in ENGINES:  # whether it needs one: by its engine
        problems.append(("on", why))
    return on, problems


_NOT_A_MAPPING = ("deve ser um mapeamento (chave: valor)", "must be a mapping (key: value)")


def _line_index(text: str, path: Path) -> LineIndex:
    """Each field's line in the case file (empty if the text cannot be indexed)."""
    try:
        return parse_document(text, False, str(path))[1]
    except InputError:
        return {}


def _at(index: LineIndex, field: str, message: str, lang: str = "pt") -> str:
    """``linha 9, campo expected: <message>`` (the line when the field has one)."""
    line = index.get((field,))
    where = (f"{'line' if lang == 'en' else 'linha'} {line}, " if line else "")
    return f"{where}{'field' if lang == 'en' else 'campo'} {field}: {message}"


def _date_judged(value: Any, engine: str) -> tuple[dt.date | None, Text | None]:
    """The case's ``on``: a date (``2026-04-01``, quoted or not, or ``01/04/2026``); the
    reason it is not one otherwise."""
    if value is None:
        return None, (None if engine in _ON_OPTIONAL else
                      ("ausente (a data julgada)", "missing (the date judged)"))
    # datetime before date: a datetime is a date too (YAML reads 2026-04-01T10:00 as one).
    if isinstance(value, dt.datetime) or not isinstance(value, dt.date | str):
        return None, (f"{value!r} não é uma data; use AAAA-MM-DD",
                      f"{value!r} is not a date; use YYYY-MM-DD")
    if isinstance(value, dt.date):
        return value, None
    text = value.strip()
    try:
        if m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text):
            return dt.date(int(m[3]), int(m[2]), int(m[1])), None
        if _ISO_DATE.fullmatch(text):
            return dt.date.fromisoformat(text), None
    except ValueError:
        return None, (f"data inexistente {text}", f"no such date {text}")
    return None, (f"{text!r} não é uma data; use AAAA-MM-DD",
                  f"{text!r} is not a date; use YYYY-MM-DD")


def _unreadable(path: Path, exc: Exception, text: str) -> Text:
    """Why ``path`` could not be read, with the line (and field) where that is known."""
    if isinstance(exc, yaml.YAMLError):
        # worded as every input's YAML error (abordo check): one table of PyYAML's problems
        pt, en, line = yaml_problem(exc, text)
        at_pt, at_en = (f", linha {line}", f", line {line}") if line is not None else ("", "")
        return (f"caso ilegível {path}{at_pt}: YAML inválido: {pt}",
                f"unreadable case {path}{at_en}: invalid YAML: {en}")
    if isinstance(exc, ValueError) and not isinstance(exc, UnicodeDecodeError):
        # YAML reads 2026-02-30 as a date and fails; read again with dates as text to find it.
        try:
            data, index = read_document(path)
        except InputError as again:  # e.g. a repeated key, which this reading refuses
            return (f"caso ilegível {path}: {again.render()}",
                    f"unreadable case {path}: {again.render('en')}")
        for loc, value in _leaves(data, ()):
            if isinstance(value, str) and _ISO_DATE.fullmatch(value):
                try:
                    dt.date.fromisoformat(value)
                except ValueError:
                    line, field = line_of(index, loc), loc_to_path(list(loc))
                    return (f"caso ilegível {path}, linha {line}, campo {field}: data "
                            f"inexistente {value}",
                            f"unreadable case {path}, line {line}, field {field}: no such "
                            f"date {value}")
    return f"caso ilegível {path}: {exc}", f"unreadable case {path}: {exc}"


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _leaves(obj: Any, loc: tuple[Any, ...]) -> Iterable[tuple[tuple[Any, ...], Any]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, (*loc, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, (*loc, i))
    else:
        yield loc, obj


def run_cases(paths: Iterable[Path]) -> list[CaseResult]:
    """:func:`run_case` on each path; cases sharing one ``id`` are each reported invalid,
    naming the others (a report's lines name cases by id: an "OK" could be the other's)."""
    results = [_unlisted_folder(p) if p.is_dir() else run_case(p) for p in paths]
    by_id: dict[str, list[CaseResult]] = {}
    for r in results:
        if r.is_case and r.status != "invalid":  # an unreadable file keeps its own problem
            by_id.setdefault(r.case_id, []).append(r)
    repeated = {id(r): same for same in by_id.values() if len(same) > 1 for r in same}
    return [_repeated_id(r, repeated[id(r)]) if id(r) in repeated else r for r in results]


def _unlisted_folder(path: Path) -> CaseResult:
    """A subfolder :func:`find_case_files` could not list: its cases were not run."""
    return _result(path.name, path, "?", "invalid", (
        f"pasta ilegível {path}: seus casos não foram lidos (sem permissão de leitura?)",
        f"unreadable folder {path}: its cases were not read (no read permission?)"))


def _repeated_id(result: CaseResult, same: list[CaseResult]) -> CaseResult:
    others = ", ".join(str(o.path) for o in same if o is not result)
    where = ("", "")
    try:
        line = line_of(read_document(result.path)[1], ("id",))
    except InputError:
        line = None
    if line is not None:
        where = (f"linha {line}, ", f"line {line}, ")
    pt, en = DUPLICATE_ID
    return _result(result.case_id, result.path, result.engine, "invalid", (
        f"caso inválido {result.path}, {where[0]}campo id: {pt} '{result.case_id}' (também "
        f"em {others})",
        f"invalid case {result.path}, {where[1]}field id: {en} '{result.case_id}' (also in "
        f"{others})"))

"""Every worked case is a test: the project's copy in tests/cases/ and, when present beside the
checkout, every case in ../shared/cases/ (so a case added there is tested with no code change)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from abordo.casebook import find_case_files, run_case, run_cases

HERE = Path(__file__).parent
ROOTS = [HERE / "cases", HERE.parent.parent / "shared" / "cases"]


def _case_files() -> list[pytest.ParameterSet]:
    params = []
    for root in ROOTS:
        if root.is_dir():
            for path in find_case_files(root):
                label = f"{root.parent.name}/{path.relative_to(root)}"
                params.append(pytest.param(path, id=label))
    return params


CASES = _case_files()


def test_cases_were_found() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("path", CASES)
def test_worked_case(path: Path) -> None:
    result = run_case(path)
    if result.status == "not_built":
        warnings.warn(f"ENGINE NOT BUILT: case {result.case_id} not run ({result.difference})",
                      stacklevel=1)
        pytest.skip(f"ENGINE NOT BUILT: {result.difference}")
    assert result.status == "pass", f"{result.case_id}: {result.difference}"


def test_a_case_file_with_an_impossible_date_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("id: x\nengine: crew_quota\non: 2026-04-31\ninput: {}\n"
                                     "expect: {verdict: compliant}\n", encoding="utf-8")
    (res,) = run_cases([tmp_path / "x.yaml"])
    assert res.status == "error" and res.difference == (
        f"unreadable case file {tmp_path / 'x.yaml'}, line 3, field on: no such date 2026-04-31")
    (tmp_path / "y.yaml").write_text("id: y\nengine: [crew_quota\n", encoding="utf-8")
    (tmp_path / "z.yaml").write_text("id: z\nengine: crew_quota\n", encoding="utf-8")
    (y, z) = run_cases([tmp_path / "y.yaml", tmp_path / "z.yaml"])
    assert (y.difference or "").startswith(f"unreadable case file {tmp_path / 'y.yaml'}, line 3")
    assert z.difference == f"{tmp_path / 'z.yaml'}: not a case file (engine/expect missing)"

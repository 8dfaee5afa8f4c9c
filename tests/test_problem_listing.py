"""An input with very many problems lists the first 50 and says how many more there are
(``… e mais N problemas``), instead of thousands of lines — or, before, of 50 lines with
no word of the others."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from abordo.faces.cli.main import app
from abordo.law.errors import MAX_LISTED, InputError

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _problems(n: int, file: str = "f.csv") -> list[InputError]:
    return [InputError(f"problema {i}", "x", file, i + 2, message_en=f"problem {i}")
            for i in range(n)]


def test_a_listing_keeps_the_first_fifty_and_counts_the_others() -> None:
    err = InputError.listing(list(reversed(_problems(500))), in_file_order=True)
    assert MAX_LISTED == 50
    assert (err.row, len(err.details), err.omitted) == (2, 49, 450)
    lines = err.render().splitlines()
    assert len(lines) == 51
    assert lines[49] == "arquivo f.csv, linha 51, campo x: problema 49"
    assert lines[50] == "… e mais 450 problemas"
    assert err.render("en").splitlines()[-1] == "… and 450 more problems"


def test_fifty_problems_or_fewer_are_all_listed() -> None:
    assert "e mais" not in InputError.listing(_problems(50)).render()
    one_more = InputError.listing(_problems(51))
    assert one_more.render().splitlines()[-1] == "… e mais 1 problema"
    assert one_more.render("en").splitlines()[-1] == "… and 1 more problem"


def test_the_count_survives_a_listing_listed_again_with_other_problems() -> None:
    # A crew file's problems listed with the case file's own (abordo.crew.load), or a
    # sheet's with the other sheets' (sea time): each list flattened, then listed again.
    crew = InputError.listing(_problems(120, "crew.csv"))
    case = InputError.listing(_problems(3, "case.yaml"))
    again = InputError.listing([e.alone() for e in (case, *case.details, crew, *crew.details)])
    assert len(again.details) == 49
    assert again.omitted == 123 - 50  # of the 123 problems, 50 listed
    assert again.render().splitlines()[-1] == "… e mais 73 problemas"
    assert again.with_location(file="other").omitted == 73


def test_a_crew_list_with_500_bad_rows(tmp_path: Path) -> None:
    (tmp_path / "crew.csv").write_text(
        "id;função;nacionalidade\n" + "".join(f"T{i:03};Master;ZZ\n" for i in range(500)),
        encoding="utf-8")
    case = (ROOT / "examples/tanker-coastal-spirit.yaml").read_text(encoding="utf-8")
    (tmp_path / "case.yaml").write_text(
        case.replace("tanker-coastal-spirit-crew.csv", "crew.csv"), encoding="utf-8")
    r = runner.invoke(app, ["check", str(tmp_path / "case.yaml"), "--on", "2026-11-30"])
    err = r.exception
    assert isinstance(err, InputError)
    lines = err.render().splitlines()
    assert len(lines) == 51
    assert lines[0] == (f"arquivo {tmp_path / 'crew.csv'}, linha 2, campo nacionalidade: país "
                        "desconhecido 'ZZ' (use o código ISO 3166-1, ex.: BR)")
    assert lines[49].startswith(f"arquivo {tmp_path / 'crew.csv'}, linha 51, ")
    assert lines[50] == "… e mais 450 problemas"


def test_a_sea_time_sheet_with_120_bad_rows(tmp_path: Path) -> None:
    (tmp_path / "cir.csv").write_text(
        "vessel;embark;disembark;function;company\n"
        + "".join(f"N{i};01/03/2024;31/02/2024;2ON;C\n" for i in range(120)), encoding="utf-8")
    (tmp_path / "in.yaml").write_text(
        "seafarer: {id: X, group: maritime, department: deck, category: 2ON}\n"
        "purpose: promotion\ncir_file: cir.csv\n", encoding="utf-8")
    r = runner.invoke(app, ["sea-time", str(tmp_path / "in.yaml"), "--on", "2026-02-02"])
    err = r.exception
    assert isinstance(err, InputError)
    lines = err.render().splitlines()
    assert lines[49] == ("arquivo cir.csv, linha 51, campo disembark: data inexistente "
                         "'31/02/2024'; use AAAA-MM-DD ou dd/mm/aaaa")
    assert lines[50:] == ["… e mais 70 problemas"]

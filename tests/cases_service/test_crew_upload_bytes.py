"""An uploaded crew list is read from its bytes, with the loader used for files on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from abordo.cases.service import read_crew_upload
from abordo.crew.load import read_crew_list
from abordo.law.errors import InputError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", ["psv-atlantic-provider-fal5.xlsx",
                                  "tanker-coastal-spirit-crew.csv"])
def test_upload_reads_as_the_file_on_disk(name: str) -> None:
    path = EXAMPLES / name
    persons, rows = read_crew_upload(path.read_bytes(), "lista enviada" + path.suffix)
    assert (persons, rows) == read_crew_list(path, name)
    assert len(persons) >= 10 and rows[0] > 1


def test_broken_workbook_upload_names_the_uploaded_file() -> None:
    with pytest.raises(InputError) as err:
        read_crew_upload(b"PK\x03\x04 not a workbook", "tripulacao.xlsx")
    assert err.value.file == "tripulacao.xlsx"


def test_bad_row_in_upload_names_file_row_and_column() -> None:
    content = "Nome;Função;Nacionalidade\nA;Master;BR\nB;AB;Xyzland\n".encode()
    with pytest.raises(InputError) as err:
        read_crew_upload(content, "lista.csv")
    e = err.value
    assert (e.file, e.row, e.field) == ("lista.csv", 3, "Nacionalidade")

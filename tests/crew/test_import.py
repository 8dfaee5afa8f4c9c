from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from abordo.crew import load_vessel_case, resolve_crew
from abordo.law.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def write_case(tmp: Path, crew_file: str) -> Path:
    p = tmp / "case.yaml"
    p.write_text("vessel: {flag: LR, activity: cabotage}\noperation: {contract: charter, "
                 "ajb_presence: [{entry: 2026-01-01}]}\n"
                 f"crew_file: {crew_file}\n", encoding="utf-8")
    return p


def test_fal_form5_xlsx_drops_personal_data() -> None:
    case = load_vessel_case(ROOT / "examples" / "psv-atlantic-provider.yaml")
    members = resolve_crew(case)
    assert len(members) == 24
    assert members[0].position == "master" and members[0].nationalities == ("NO",)
    assert members[2].is_brazilian and members[2].row == 8
    assert all(m.source.name is None and m.source.document_number is None for m in members)
    kept = load_vessel_case(ROOT / "examples" / "psv-atlantic-provider.yaml", True)
    assert kept.crew_list[0].name == "HANSEN, Lars Erik"


def test_latin1_semicolon_csv_with_portuguese_headers() -> None:
    case = load_vessel_case(ROOT / "examples" / "tanker-coastal-spirit.yaml")
    members = resolve_crew(case)
    cook = next(m for m in members if m.id == "T19")
    assert (cook.rank, cook.department) == ("Cozinheiro", "catering")
    dual = next(m for m in members if m.id == "T21")
    assert dual.nationalities == ("PT", "BR") and dual.is_brazilian


def test_utf8_bom_csv(tmp_path: Path) -> None:
    (tmp_path / "c.csv").write_bytes("\ufeffid,função,nacionalidade\nA1,Imediato,BRA\n"
                                     .encode())
    m = resolve_crew(load_vessel_case(write_case(tmp_path, "c.csv")))[0]
    assert (m.id, m.department, m.level, m.nationalities) == ("A1", "deck", "officer", ("BR",))


@pytest.mark.parametrize(("content", "row", "field", "words"), [
    ("id,rank,nationality\nA1,AB,XX\n", 2, "nationality", "país desconhecido"),
    ("id,rank,nationality,shoe size\nA1,AB,BR,42\n", 1, "shoe size", "coluna desconhecida"),
    ("id,rank,nationality,sid_c185\nA1,AB,BR,talvez\n", 2, "sid_c185", "valor lógico"),
    ("id,rank,nationality,entry_date\nA1,AB,PH,31/02/2026\n", 2, "entry_date", "data"),
    ("id,rank,nationality,level\nA1,AB,PH,captain\n", 2, "level", "valor não permitido"),
])
def test_bad_csv_names_file_row_field(tmp_path: Path, content: str, row: int, field: str,
                                      words: str) -> None:
    (tmp_path / "c.csv").write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(write_case(tmp_path, "c.csv"))
    e = err.value
    assert (e.file, e.row, e.field) == (str(tmp_path / "c.csv"), row, field)
    assert words in e.message


def test_empty_and_binary_files(tmp_path: Path) -> None:
    (tmp_path / "e.csv").write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="vazio"):
        load_vessel_case(write_case(tmp_path, "e.csv"))
    wb = Workbook()
    wb.save(tmp_path / "x.csv")  # an XLSX with a .csv name
    with pytest.raises(InputError, match="não é texto"):
        load_vessel_case(write_case(tmp_path, "x.csv"))
    (tmp_path / "p.csv").write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    with pytest.raises(InputError, match="o arquivo não é texto: é um PDF"):
        load_vessel_case(write_case(tmp_path, "p.csv"))
    (tmp_path / "r.xlsx").write_bytes(bytes(range(256)) * 4)  # not a workbook at all
    with pytest.raises(InputError, match="o arquivo não é uma planilha XLSX") as exc:
        load_vessel_case(write_case(tmp_path, "r.xlsx"))
    assert exc.value.file is not None and exc.value.file.endswith("r.xlsx")


def test_an_xlsx_date_cell_with_a_time_of_day_is_refused_not_cut(tmp_path: Path) -> None:
    """An entry date typed with its hour (05/01/2026 10:00) was cut to 2026-01-05: which day
    a time belongs to is not the reader's guess, as in every input. Midnight is the day."""
    import datetime as dt

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["id", "rank", "nationality", "entry_date", "entry_by"])
    ws.append(["C1", "Master", "PH", dt.datetime(2026, 1, 5), "sea"])
    ws.append(["C2", "AB", "PH", dt.datetime(2026, 1, 5, 10, 0), "sea"])
    wb.save(tmp_path / "crew.xlsx")
    with pytest.raises(InputError) as err:
        load_vessel_case(write_case(tmp_path, "crew.xlsx"))
    assert (err.value.row, err.value.field) == (3, "entry_date")
    assert err.value.message.startswith("data esperada, não um número nem data com horário")
    assert "2026-01-05T10:00:00" in err.value.render()


def test_yaml_errors_name_line_and_field(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text("vessel: {flag: NO, activity: offshore_support}\noperation:\n  contract: charter\n"
                 "  ajb_presence:\n    - {entry: 2026-13-01}\ncrew: [{id: A, rank: AB, "
                 "nationality: BR, colour: blue}]\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    assert err.value.field == "operation.ajb_presence[0].entry"
    assert err.value.row == 5
    colour = next(d for d in err.value.details if d.field == "crew[0].colour")
    assert colour.row == 6  # each problem carries its own line


def test_every_bad_row_reported_at_once(tmp_path: Path) -> None:
    (tmp_path / "c.csv").write_text("id,rank,nationality\nA1,AB,XX\nA2,AB,BR\nA3,OS,YY\n",
                                    encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(write_case(tmp_path, "c.csv"))
    assert [(e.row, e.field) for e in [err.value, *err.value.details]] == [
        (2, "nationality"), (4, "nationality")]


def test_crlf_semicolon_csv_with_blank_lines(tmp_path: Path) -> None:
    (tmp_path / "c.csv").write_bytes(b"id;rank;nationality\r\n1;Master;NO\r\n\r\n"
                                     b"2;AB;BR\r\n\r\n")
    members = resolve_crew(load_vessel_case(write_case(tmp_path, "c.csv")))
    assert [(m.id, m.row) for m in members] == [("1", 2), ("2", 4)]


def test_unknown_ranks_in_yaml_named_with_file_line_all_at_once(tmp_path: Path) -> None:
    from abordo.quota import evaluate

    p = tmp_path / "v.yaml"
    p.write_text("vessel: {flag: LR, activity: cabotage}\noperation: {contract: charter, "
                 "ajb_presence: [{entry: 2026-01-01}]}\ncrew:\n"
                 "  - {id: C1, rank: Master, nationality: GR}\n"
                 "  - {id: C2, rank: Cheif Enginer, nationality: GR}\n"
                 "  - {id: C3, rank: Deckhand Supreme, nationality: PH}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        evaluate(load_vessel_case(p), __import__("datetime").date(2026, 6, 1))
    got = [(e.file, e.row, e.field) for e in [err.value, *err.value.details]]
    assert got == [(str(p), 5, "crew[1].rank"), (str(p), 6, "crew[2].rank")]


def test_duplicate_ids_rejected(tmp_path: Path) -> None:
    (tmp_path / "c.csv").write_text("id,rank,nationality\nA1,AB,BR\nA1,OS,BR\n",
                                    encoding="utf-8")
    with pytest.raises(InputError) as err:
        resolve_crew(load_vessel_case(write_case(tmp_path, "c.csv")))
    assert (err.value.row, err.value.field) == (3, "id")
    # listed with the file's other bad rows, at once
    (tmp_path / "c.csv").write_text("id,rank,nationality\nA1,AB,BR\nA1,OS,BR\nA3,OS,XX\n",
                                    encoding="utf-8")
    with pytest.raises(InputError) as err2:
        load_vessel_case(write_case(tmp_path, "c.csv"))
    assert [(e.row, e.field) for e in [err2.value, *err2.value.details]] == [
        (3, "id"), (4, "nationality")]
    assert err2.value.message == "id repetido: A1 (também na linha 2)"


@pytest.mark.parametrize(("content", "row", "field", "words"), [
    ("id,rank,nationality\nA,Master,NO\nB,,\nC,AB,BR\n", 3, "nationality", "ausente"),
    ("id,rank,nationality,rank\nA,Master,NO,AB\n", 1, "rank", "coluna repetida"),
    ("id,rank,nationality\nA,Master,NO,extra\n", 2, None, "fora das colunas"),
    ("id,rank,nationality,exit_date\nA,AB,PH,2026-01-01\n", 2, "entry_date", "sem"),
    ("id,rank,nationality,document_valid_until\nA,AB,PH,2027-01-01\n", 2, "document_type",
     "sem"),
])
def test_no_crew_data_silently_lost(tmp_path: Path, content: str, row: int, field: str | None,
                                    words: str) -> None:
    (tmp_path / "c.csv").write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(write_case(tmp_path, "c.csv"))
    assert (err.value.row, err.value.field) == (row, field)
    assert words in err.value.message


@pytest.mark.parametrize(("text", "words"), [
    ("vessel: {flag: LR, activity: cabotage}\ncrew: [{id: A, rank: AB, nationality: BR}]\n"
     "crew: []\n", "chave repetida 'crew'"),
    ("vessel: {flag: LR, activity: cabotage}\ncrew: [{id: [X], rank: AB, nationality: BR}]\n",
     "id deve ser"),
    ("vessel: {flag: LR, activity: cabotage}\noperation: {ajb_presence: [{entry: 9026-01-01}]}"
     "\ncrew: [{id: A, rank: AB, nationality: BR}]\n", "fora do intervalo"),
    ("a: &a [1, 2]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b]\n"
     "d: &d [*c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d]\n",
     "campo desconhecido"),
    ("x: " + "[" * 3000 + "]" * 3000 + "\n", "aninhada"),
])
def test_yaml_traps_are_input_errors(tmp_path: Path, text: str, words: str) -> None:
    p = tmp_path / "v.yaml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    assert words in err.value.render()


def test_json_duplicate_key(tmp_path: Path) -> None:
    p = tmp_path / "v.json"
    p.write_text('{"vessel": {"flag": "LR", "activity": "cabotage"}, "crew": [], "crew": []}',
                 encoding="utf-8")
    with pytest.raises(InputError, match="chave repetida 'crew'"):
        load_vessel_case(p)


def test_keep_personal_data_only_when_truly_asked(tmp_path: Path) -> None:
    from abordo.crew.load import parse_vessel_case

    data = {"vessel": {"flag": "LR", "activity": "cabotage"}, "keep_personal_data": "false",
            "crew": [{"id": "A", "rank": "AB", "nationality": "BR", "name": "João",
                      "document_number": "P123"}]}
    person = parse_vessel_case(data).crew_list[0]
    assert (person.name, person.document_number) == (None, None)


def test_a_misspelled_column_is_named_and_a_missing_crew_file_points_at_its_line(
        tmp_path: Path) -> None:
    case = tmp_path / "v.yaml"
    case.write_text('vessel: {name: X, flag: "NO", activity: offshore_support}\n'
                    "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n"
                    "crew_file: crew.csv\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(case)
    assert (err.value.file, err.value.row, err.value.field) == (str(case), 3, "crew_file")
    (tmp_path / "crew.csv").write_text("id,rank,nacionalidad\nA1,AB,PH\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(case)
    assert (err.value.row, err.value.field) == (1, "nacionalidad")
    assert "coluna desconhecida 'nacionalidad'" in err.value.message


def test_case_file_and_crew_file_problems_are_listed_together(tmp_path: Path) -> None:
    (tmp_path / "c.csv").write_text("id,rank,department,nationality\nA1,AB,,BR\n"
                                    "A2,Cook,kitchen,BR\nA3,OS,,Mordor\n", encoding="utf-8")
    p = tmp_path / "case.yaml"
    p.write_text("vessel: {flag: LR, activity: cabotage, color: red}\n"
                 "operation: {contract: charter,\n"
                 "  ajb_presence: [{entry: 2026-03-01, exit: 2026-02-01}]}\n"
                 "crew_file: c.csv\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    found = [(e.file, e.row, e.field) for e in [err.value, *err.value.details]]
    case, crew = str(p), str(tmp_path / "c.csv")
    # the case file's own problems first, then the crew file's rows
    assert found == [(case, 1, "vessel.color"),
                     (case, 3, "operation.ajb_presence[0].exit"),
                     (crew, 3, "department"), (crew, 4, "nationality")]


def test_inline_repeated_id_is_listed_with_the_other_problems(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text("vessel: {flag: NO, activity: offshore_support}\n"
                 "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n"
                 "crew:\n  - {id: C01, rank: AB, nationality: BR}\n"
                 "  - {id: C02, rank: AB, nationality: XX}\n"
                 "  - {id: C02, rank: OS, nationality: BR}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    found = [(e.row, e.field, e.message) for e in [err.value, *err.value.details]]
    assert found[0][:2] == (5, "crew[1].nationality")
    assert found[1] == (6, "crew[2].id", "id repetido: C02 (também em crew[1])")


def test_a_check_across_fields_names_the_field_and_its_own_line(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text("vessel:\n  flag: LR\n  activity: cabotage\n  registry: REB\n"
                 "operation:\n  contract: charter\n  ajb_presence:\n"
                 "    - {entry: 2026-03-01}\n    - {entry: 2026-03-05}\n"
                 "crew: [{id: A1, rank: AB, nationality: PH}]\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    found = [(e.row, e.field) for e in [err.value, *err.value.details]]
    assert found == [(4, "vessel.registry"), (9, "operation.ajb_presence[1].entry")]
    assert "bandeira informada: LR" in err.value.message


CASE_HEAD = ("vessel: {name: A, flag: NO, activity: offshore_support}\n"
             "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n")


@pytest.mark.parametrize(("flag", "kept"), [("yes", True), ("true", True), ("on", True),
                                            ("no", False), ("false", False)])
def test_keep_personal_data_is_read_as_the_model_reads_a_yes_no_field(
        tmp_path: Path, flag: str, kept: bool) -> None:
    p = tmp_path / "v.yaml"
    p.write_text(CASE_HEAD + f"keep_personal_data: {flag}\n"
                 "crew: [{id: C01, rank: AB, nationality: NO, name: Maria Silva}]\n")
    case = load_vessel_case(p)
    assert tuple(case.crew_list[0].nationality) == ("NO",)  # an unquoted NO is Norway
    assert case.crew_list[0].name == ("Maria Silva" if kept else None)


@pytest.mark.parametrize(("text", "field"), [
    (CASE_HEAD + "crew: [{id: C01, rank: AB, nationality: false}]\n", "crew[0].nationality"),
    (CASE_HEAD.replace("flag: NO", "flag: false") + "crew: []\n", "vessel.flag"),
])
def test_a_boolean_where_a_country_goes_is_refused_not_read_as_norway(
        tmp_path: Path, text: str, field: str) -> None:
    p = tmp_path / "v.yaml"
    p.write_text(text)
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    assert err.value.field == field


def test_yaml_merge_keys_are_read(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text("base: &b {name: A, flag: NO}\nvessel:\n  <<: *b\n  activity: offshore_support\n"
                 "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n"
                 "crew: []\n".replace("base: &b", "x-anchors: &b"))
    with pytest.raises(InputError) as err:  # the anchors' holder is an unknown field…
        load_vessel_case(p)
    assert err.value.field == "x-anchors"
    p.write_text("vessel: &v {name: A, flag: NO, activity: offshore_support}\n"
                 "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n"
                 "crew: [{<<: {rank: AB, nationality: NO}, id: C01}]\n")
    assert load_vessel_case(p).crew_list[0].rank == "AB"  # …a merge key itself is read


@pytest.mark.parametrize(("rank", "code"), [
    ("1º Oficial de Náutica", "1ON"), ("1° Oficial de Náutica", "1ON"),  # degree sign typed
    ("1o Oficial de Máquinas", "1OM"), ("2º  oficial de máquinas", "2OM"), ("1ON", "1ON"),
    ("1ºOficial de Náutica", "1ON"), ("1.o Oficial de Máquinas", "1OM"),
    ("2OM", "2OM"),
])
def test_ordinals_however_typed_find_the_same_rank(rank: str, code: str) -> None:
    from abordo.crew.ranks import rank_table

    entry = rank_table().lookup(rank)
    assert entry is not None and entry.code == code


@pytest.mark.parametrize(("header", "named"), [("Nacionalidade", "Nacionalidade"),
                                               ("nationality", "nationality")])
def test_a_crew_file_error_names_the_column_as_the_header_writes_it(
        tmp_path: Path, header: str, named: str) -> None:
    (tmp_path / "crew.csv").write_text(f"id;Função;{header}\nA1;Comandante;brasileira\n",
                                       encoding="utf-8")
    (tmp_path / "v.yaml").write_text(CASE_HEAD + "crew_file: crew.csv\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(tmp_path / "v.yaml")
    assert (Path(str(err.value.file)).name, err.value.row, err.value.field) == (
        "crew.csv", 2, named)


def test_every_bad_column_of_the_header_is_listed_at_once(tmp_path: Path) -> None:
    (tmp_path / "c.csv").write_text("id,rnak,nationality,departmnet,rank,função\n"
                                    "A1,Master,PH,deck,Master,Master\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_vessel_case(write_case(tmp_path, "c.csv"))
    got = [(e.field, e.row, e.message.split(" (")[0]) for e in (exc.value, *exc.value.details)]
    assert got == [("rnak", 1, "coluna desconhecida 'rnak'"),
                   ("departmnet", 1, "coluna desconhecida 'departmnet'"),
                   ("função", 1, "coluna repetida 'função'")]

"""Defects a new user met on a first trial of the commands (each test names the old output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from abordo.crew.load import load_vessel_case
from abordo.faces.cli.main import app
from abordo.law.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
FINE = ROOT / "examples/fines/rest-interval.yaml"
runner = CliRunner()


def _fine_with(tmp_path: Path, old: str, new: str) -> Path:
    text = FINE.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "fine.yaml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


# --- yes/no fields, unknown keys, entry means -----------------------------------------------

@pytest.mark.parametrize(("word", "intent", "amount"), [
    ("sim", True, "19320.00"), ("Não", False, "14490.00"), ("nao", False, "14490.00"),
    ("yes", True, "19320.00"), ("off", False, "14490.00"), ("1", True, "19320.00"),
])
def test_a_yes_no_field_takes_portuguese_words_as_sheets_do(
        tmp_path: Path, word: str, intent: bool, amount: str) -> None:
    # Was "valor lógico inválido (use true/false) (recebido: 'sim')".
    p = _fine_with(tmp_path, "  intent: true ", f"  intent: {word} ")
    r = runner.invoke(app, ["fine", str(p), "-f", "json"])
    assert r.exit_code == 0, r.output
    result = json.loads(r.output)["result"]
    assert (result["intent"], result["amount"]) == (intent, amount)


def test_a_word_that_is_no_yes_no_is_refused_with_every_word_accepted(tmp_path: Path) -> None:
    # Was "(use true/false)", though yes/no and on/off were read too.
    p = _fine_with(tmp_path, "  intent: true ", "  intent: talvez ")
    r = runner.invoke(app, ["fine", str(p)])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.file, err.row, err.field) == (str(p), 15, "infraction.intent")
    assert err.message == ("valor lógico inválido (use true/false, yes/no, on/off, sim/não ou "
                           "1/0) (recebido: 'talvez')")
    assert err.message_en == ("invalid boolean (use true/false, yes/no, on/off, sim/não or 1/0)"
                              " (got 'talvez')")


def test_an_unknown_key_quotes_its_value_as_yaml_writes_it(tmp_path: Path) -> None:
    # Was "campo desconhecido (recebido: True)": Python's spelling, not the file's.
    p = _fine_with(tmp_path, "  obstruction: false", "  obstrucao: true")
    r = runner.invoke(app, ["fine", str(p)])
    err = r.exception
    assert isinstance(err, InputError)
    assert (err.row, err.field) == (19, "infraction.obstrucao")
    assert err.message == "campo desconhecido (recebido: true)"
    assert err.message_en == "unknown field (got true)"


CASE_HEAD = ("vessel: {flag: NO, activity: offshore_support}\n"
             "operation: {contract: charter, ajb_presence: [{entry: 2026-01-01}]}\n")


def test_an_entry_by_sea_or_air_takes_its_portuguese_words(tmp_path: Path) -> None:
    # Was "valor não permitido; esperado um de: 'sea' ou 'air' (recebido: 'mar')", though
    # department and level take their Portuguese values.
    p = tmp_path / "v.yaml"
    p.write_text(CASE_HEAD + "crew:\n"
                 "  - {id: C1, rank: AB, nationality: PH, entries: [{date: 2026-01-01, by: mar}]}\n"
                 "  - {id: C2, rank: AB, nationality: PH,"
                 " entries: [{date: 2026-01-02, by: Aéreo}]}\n", encoding="utf-8")
    case = load_vessel_case(p)
    assert [c.entries[0].by for c in case.crew_list] == ["sea", "air"]
    (tmp_path / "crew.csv").write_text(
        "id,rank,nationality,entry_date,entry_by\nA1,AB,PH,2026-02-01,via marítima\n"
        "A2,AB,PH,2026-02-01,ar\n", encoding="utf-8")
    p.write_text(CASE_HEAD + "crew_file: crew.csv\n", encoding="utf-8")
    assert [c.entries[0].by for c in load_vessel_case(p).crew_list] == ["sea", "air"]


def test_an_entry_by_anything_else_is_still_refused(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text(CASE_HEAD + "crew: [{id: C1, rank: AB, nationality: PH,"
                 " entries: [{date: 2026-01-01, by: navio}]}]\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    assert (err.value.row, err.value.field) == (3, "crew[0].entries[0].by")
    assert err.value.message == ("valor não permitido; esperado um de: 'sea' ou 'air' "
                                 "(recebido: 'navio')")


def test_keep_personal_data_sim_keeps_names_as_the_model_reads_it(tmp_path: Path) -> None:
    p = tmp_path / "v.yaml"
    p.write_text(CASE_HEAD + "keep_personal_data: sim\n"
                 "crew: [{id: C01, rank: AB, nationality: NO, name: Maria Silva}]\n",
                 encoding="utf-8")
    case = load_vessel_case(p)
    assert case.keep_personal_data is True
    assert case.crew_list[0].name == "Maria Silva"


# --- English output -------------------------------------------------------------------------

def test_the_quota_consequence_names_the_company_in_english(tmp_path: Path) -> None:
    # Was "infraction notice against a empresa brasileira contratante" under --lang en.
    text = (ROOT / "examples/psv-foreign-crew.yaml").read_text(encoding="utf-8")
    nameless = tmp_path / "v.yaml"
    nameless.write_text("\n".join(ln for ln in text.splitlines()
                                  if "brazilian_company" not in ln), encoding="utf-8")
    r = runner.invoke(app, ["check", str(nameless), "--on", "2026-06-15", "--lang", "en",
                            "-f", "json"])
    (consequence,) = json.loads(r.output)["quota"]["result"]["consequences"]
    assert consequence["text"] == (
        "Procedure of IN SIT 70/2007 art. 14 (infraction notice against the Brazilian "
        "contracting company, CLT art. 444, code 001139-8); revoked with effect from "
        "2021-12-10 — the current procedure (IN MTP nº 2/2021) is not modelled.")
    r = runner.invoke(app, ["check", str(nameless), "--on", "2026-06-15", "--lang", "en"])
    assert "empresa brasileira" not in r.output


def test_the_fine_s_unconfirmed_nature_is_said_in_english() -> None:
    # Was "natureza[lei-9719/art-8] = 3 — informada pelo usuário — a coluna …" under --lang en.
    r = runner.invoke(app, ["fine", str(FINE), "--lang", "en", "-f", "json"])
    (u,) = json.loads(r.output)["unconfirmed"]
    assert (u["name"], u["value"], u["source"]) == (
        "natureza[lei-9719/art-8]", "3", "given by the user — the reference text of Annex I "
        "(DOU 05/10/2000) lacks its \"Natureza\" (nature) column")
    pt = runner.invoke(app, ["fine", str(FINE), "-f", "json"])
    assert json.loads(pt.output)["unconfirmed"][0]["source"].startswith(
        "informada pelo usuário — a coluna \"Natureza\"")


def test_every_unconfirmed_sea_time_parameter_is_said_in_english() -> None:
    example = ROOT / "examples/sea-time/seafarer-2on-promotion.yaml"
    r = runner.invoke(app, ["sea-time", str(example), "--on", "2026-02-02", "--lang", "en",
                            "-f", "json"])
    by_name = {u["name"]: u for u in json.loads(r.output)["unconfirmed"]}
    assert by_name["normam101.procedure"] == {
        "name": "normam101.procedure", "value": "item 1.26.1", "norm_id": "normam-101-2025",
        "source": "NORMAM-101/DPC as re-issued by Portaria DPC/DGN/MB nº 169/2025 (DOU "
                  "20/01/2025): wording and item number of the 2023 version, not yet checked "
                  "in the 2025 re-issue"}
    assert by_name["stcw_parties"]["value"] == "130 States parties on 2025-06-30"
    assert by_name["categories.level.2ON"]["source"] == (
        "level of equivalence of NORMAM-13/DPC, Anexo 2-A (the previous norm); NORMAM-101/DPC, "
        "Cap. 2, was not checked — unconfirmed")
    for u in by_name.values():  # no Portuguese left in any of them
        for word in ("conferid", "não ", "reeditada", "Estados-partes", "nível"):
            assert word not in u["source"] + u["value"], (u["name"], word)
    text = runner.invoke(app, ["sea-time", str(example), "--on", "2026-02-02", "--lang", "en"])
    assert "not yet checked in the 2025 re-issue" in text.output
    assert "ainda não conferidos" not in text.output


def _unconfirmed_entries(node: object, path: str) -> list[tuple[str, bool]]:
    """Every entry of a data table marked ``confirmed: false`` with a source, and whether it
    has that source in English."""
    out: list[tuple[str, bool]] = []
    if isinstance(node, dict):
        if node.get("confirmed") is False and "source" in node:
            out.append((path, bool(node.get("source_en"))))
        for k, v in node.items():
            out += _unconfirmed_entries(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _unconfirmed_entries(v, f"{path}[{i}]")
    return out


def test_every_unconfirmed_source_of_the_data_tables_has_its_english() -> None:
    """An unconfirmed figure's source is shown to the user in the output's language: a table
    entry without ``source_en`` would put Portuguese into an English output."""
    from abordo.law.yamlload import load_data_text
    from abordo.sea_time.catalog import categories

    found = [e for p in sorted((ROOT / "src/abordo").glob("*/data/*.yaml"))
             for e in _unconfirmed_entries(load_data_text(p.read_text(encoding="utf-8")),
                                           p.name)]
    assert found == [("repatriation.yaml.repatriation[0]", True),
                     ("params.yaml.migratory_year_months[0]", True),
                     ("regimes.yaml.families.foreign_general[2].rules[1]", True),
                     ("stcw_parties.yaml", True)]
    table = categories()  # its sources hold for every category (no confirmed flag of its own)
    assert table.level_source.en.startswith("level of equivalence of NORMAM-13/DPC")
    assert table.source.en.startswith("Res. CNIg 42/2020, art. 2, I-A (categories of the")


# --- UTF-16 files ---------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["check", "fine", "sea-time"])
def test_a_utf16_yaml_is_told_to_be_saved_as_utf8_not_as_csv(
        tmp_path: Path, command: str) -> None:
    # Was "salve como UTF-8 ou CSV": no command reads a vessel case, fine or sea-time input
    # from a CSV.
    p = tmp_path / "input.yaml"
    p.write_bytes("vessel: {flag: 'NO', activity: offshore_support}\n".encode("utf-16"))
    r = runner.invoke(app, [command, str(p)])
    err = r.exception
    assert isinstance(err, InputError)
    assert err.file is not None and err.file.endswith("input.yaml")
    assert err.message == "codificação não suportada (UTF-16); salve como UTF-8"
    assert err.message_en == "unsupported encoding (UTF-16); save as UTF-8"


def test_a_utf16_crew_csv_is_told_how_excel_saves_a_csv_read_here(tmp_path: Path) -> None:
    (tmp_path / "crew.csv").write_bytes("id,rank,nationality\nA1,AB,PH\n".encode("utf-16"))
    p = tmp_path / "v.yaml"
    p.write_text(CASE_HEAD + "crew_file: crew.csv\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_vessel_case(p)
    assert err.value.file == str(tmp_path / "crew.csv")
    assert err.value.message == ("codificação não suportada (UTF-16); salve como UTF-8 (no "
                                 "Excel: «CSV UTF-8» ou «CSV»)")
    assert err.value.message_en == ("unsupported encoding (UTF-16); save as UTF-8 (in Excel: "
                                    "“CSV UTF-8” or “CSV”)")


# --- --keep-personal-data -------------------------------------------------------------------

def test_keep_personal_data_on_the_command_line_does_what_the_case_s_key_does(
        tmp_path: Path) -> None:
    # Was: the option kept names in memory but left the case's keep_personal_data false, so
    # a document's number never showed, as it does with keep_personal_data: true.
    body = (CASE_HEAD.replace("flag: NO", "flag: LR") + "crew:\n"
            "  - {id: C1, rank: AB, nationality: PH, name: Maria Silva,"
            " entries: [{date: 2026-01-01, by: sea}],"
            " documents: [{type: visit_visa, number: VV-778899, valid_until: 2027-01-01}]}\n")
    p = tmp_path / "v.yaml"
    p.write_text(body, encoding="utf-8")

    def documents(path: Path, *extra: str) -> list[dict[str, object]]:
        r = runner.invoke(app, ["check", str(path), "--on", "2026-03-01", "-f", "json", *extra])
        person = json.loads(r.output)["immigration"]["result"]["persons"][0]
        assert "Maria" not in r.output  # no report prints a name, kept or not
        docs: list[dict[str, object]] = person["documents"]
        return docs

    assert "number" not in documents(p)[0]
    assert documents(p, "--keep-personal-data")[0]["number"] == "VV-778899"
    keyed = tmp_path / "keyed.yaml"
    keyed.write_text("keep_personal_data: true\n" + body, encoding="utf-8")
    assert documents(keyed) == documents(p, "--keep-personal-data")


def test_keep_personal_data_keeps_the_fal5_names_read_though_no_report_prints_them() -> None:
    from abordo.faces.cli.check import load_case

    example = ROOT / "examples/psv-atlantic-provider.yaml"
    kept = load_case(example, True)
    assert kept.keep_personal_data is True
    assert (kept.crew_list[0].name, kept.crew_list[0].document_number) == (
        "HANSEN, Lars Erik", "Passport 30211877")
    dropped = load_case(example)
    assert (dropped.crew_list[0].name, dropped.crew_list[0].document_number) == (None, None)
    # As README says: the checks need no name, so the output is the same either way.
    plain = runner.invoke(app, ["check", str(example), "--on", "2026-11-30", "-f", "json"])
    asked = runner.invoke(app, ["check", str(example), "--on", "2026-11-30", "-f", "json",
                                "--keep-personal-data"])
    assert plain.output == asked.output and "HANSEN" not in asked.output

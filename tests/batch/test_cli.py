"""``abordo screen`` through the CLI: exit codes, output files, summary, and bad input named
by file, row and field (never a traceback, never a partial write)."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from abordo.faces.cli.main import app
from abordo.law.errors import InputError

EXAMPLE = Path(__file__).parents[2] / "examples" / "fleet"
runner = CliRunner()


def fleet(tmp_path: Path) -> Path:
    for name in ("vessels.csv", "crew.csv"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    return tmp_path


def run(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, ["screen", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.output


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_example_fleet_summary_and_exit_1(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    code, text = run(str(EXAMPLE), "--on", "2026-06-01", "-o", str(out))
    assert code == 1  # some vessels are non-compliant
    assert "13 embarcações, 388 pessoas a bordo" in text
    assert "não conforme" in text and "V04 Deep Explorer" in text
    assert "Déficit total na data julgada: 46 brasileiros." in text
    assert "Alerta (coluna unconfirmed): 2 embarcações julgadas com parâmetro não confirmado" in \
        " ".join(text.split())
    df = pl.read_parquet(out)
    assert df.height == 13 and df["risk_rank"].min() == 1


def test_english_horizon_and_csv(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    code, text = run(str(EXAMPLE), "--on", "2026-06-01", "--horizon", "365", "-o", str(out),
                     "--lang", "en")
    assert code == 1
    assert "Horizon of 365 days: 6 vessels reach a new step; 5 would be short" in text
    assert pl.read_csv(out)["horizon_steps"].drop_nulls().sum() == 10


def test_exit_0_when_every_vessel_complies(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    vessels = pl.read_csv(f / "vessels.csv").filter(pl.col("id").is_in(["V02", "V06", "V07"]))
    vessels.write_csv(f / "vessels.csv")
    pl.read_csv(f / "crew.csv").filter(pl.col("vessel_id").is_in(["V02", "V06", "V07"])) \
        .write_csv(f / "crew.csv")
    code, _ = run(str(f), "--on", "2026-06-01")
    assert code == 0


def test_option_changes_the_reading(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    code, _ = run(str(EXAMPLE), "--on", "2026-06-01", "-o", str(out),
                  "--option", "quota.groups=department_or_level")
    assert code == 1
    df = pl.read_csv(out)
    assert "deck_base" in df.columns and "deck.officer_base" not in df.columns
    v13 = df.filter(pl.col("id") == "V13").row(0, named=True)
    assert v13["verdict"] == "non_compliant"  # the alternative reading changes V13's verdict
    assert "quota.groups.department_or_level" in v13["interpretations"]


def bad(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "never.parquet"
    code, text = run(str(tmp_path), "--on", "2026-06-01", "-o", str(out), *args)
    assert code == 2, text
    assert "Traceback" not in text
    assert not out.exists()  # never a partial write
    return " ".join(text.split())


def test_unknown_column(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    edit(f / "vessels.csv", "foreign_calls", "escalas_extras")
    text = bad(f)
    assert "vessels.csv, linha 1, campo escalas_extras: coluna desconhecida" in text


def test_bad_date(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    edit(f / "vessels.csv", "2026-06-01", "2026-13-01")  # V03, row 4
    text = bad(f)
    assert ("vessels.csv, linha 4, campo ajb_entry: data inválida (use AAAA-MM-DD ou "
            "dd/mm/aaaa)") in text


@pytest.mark.parametrize(("written", "said"), [
    ("31/12/26", "data inválida (use AAAA-MM-DD ou dd/mm/aaaa) (recebido: '31/12/26')"),
    ("26-12-31", "data inválida (use AAAA-MM-DD ou dd/mm/aaaa) (recebido: '26-12-31')"),
    ("0026-12-31", "data fora do intervalo 1900–2199 (recebido: '0026-12-31')"),
    ("2300-01-01", "data fora do intervalo 1900–2199 (recebido: '2300-01-01')"),
])
def test_a_date_needs_its_year_in_full_and_in_range(tmp_path: Path, written: str,
                                                    said: str) -> None:
    """A two-digit year is not the year 26 (a stay of 730,000 days), as `abordo check`
    refuses it: the vessel entry, an absence and an extension alike."""
    f = fleet(tmp_path)
    edit(f / "vessels.csv", "2026-06-01", written)  # V03, row 4
    assert f"vessels.csv, linha 4, campo ajb_entry: {said}" in bad(f)
    (tmp_path / "absence").mkdir()
    f = fleet(tmp_path / "absence")
    edit(f / "vessels.csv", "2026-02-11/2026-02-19", f"2026-02-11/{written}")  # V02, row 3
    assert "vessels.csv, linha 3, campo absences:" in bad(f)
    (tmp_path / "extension").mkdir()
    f = fleet(tmp_path / "extension")
    edit(f / "vessels.csv", "2026-02-11/2026-02-19,,", f"2026-02-11/2026-02-19,180:{written},")
    assert "vessels.csv, linha 3, campo extensions:" in bad(f)


def test_unknown_vessel_id_in_crew(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    edit(f / "crew.csv", "V01,V01-C005", "V99,V01-C005")  # row 6
    text = bad(f)
    assert "crew.csv, linha 6, campo vessel_id: embarcação 'V99' não consta" in text


def test_empty_files(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    (f / "crew.csv").write_text("")
    assert "crew.csv: arquivo vazio" in bad(f)
    (f / "crew.csv").write_text("vessel_id,rank,nationality\n")
    assert "crew.csv: a tabela de tripulação não tem nenhuma pessoa" in bad(f)
    (f / "vessels.csv").write_text("id,flag,activity\n")
    assert "vessels.csv: a tabela de embarcações não tem nenhuma linha" in bad(f)


def test_bad_nationality_and_absence(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    edit(f / "crew.csv", "V01,V01-C003,2nd Officer,BR", "V01,V01-C003,2nd Officer,ZZ")  # row 4
    assert "crew.csv, linha 4, campo nationality: país desconhecido 'ZZ'" in bad(f)
    f = fleet(tmp_path)
    text = (f / "vessels.csv").read_text()
    (f / "vessels.csv").write_text(text.replace(",NO,", ",Atlantis,", 1))
    said = bad(f)
    assert "campo flag: país desconhecido 'Atlantis'" in said and "‖" not in said
    assert "unknown country" not in said
    f = fleet(tmp_path)
    edit(f / "vessels.csv", "2026-02-11/2026-02-19", "2026-02-11 to 2026-02-19")  # V02, row 3
    assert "vessels.csv, linha 3, campo absences: ausência inválida" in bad(f)


def test_unknown_option_and_horizon(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    assert "campo --option quota.grups: opção desconhecida" in bad(f, "--option",
                                                                   "quota.grups=x")
    assert "campo --option: opção 'quota.groups' deve ter a forma família=variante" in \
        bad(f, "--option", "quota.groups")
    assert "campo --lang" in bad(f, "--lang", "fr")
    assert "campo --horizon" in bad(f, "--horizon", "-1")
    assert "campo --top: --top deve ser um número de linhas ≥ 0: -1" in bad(f, "--top", "-1")


def test_unknown_rank_where_a_group_needs_it(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    edit(f / "crew.csv", "V01,V01-C005,AB,PH,", "V01,V01-C005,Roustabout,PH,")  # row 6
    text = bad(f)
    assert "crew.csv, linha 6, campo rank: função 'Roustabout' desconhecida" in text
    # --keep-going: the vessel is listed as not judged, the others are judged; exit 2.
    out = tmp_path / "r.csv"
    code, text = run(str(f), "--on", "2026-06-01", "--keep-going", "-o", str(out))
    assert code == 2
    assert "1 embarcação não julgada por erro de entrada" in text
    assert "V01: arquivo" in text and "linha 6, campo rank" in text  # the reason, on screen
    df = pl.read_csv(out)
    v01 = df.filter(pl.col("id") == "V01").row(0, named=True)
    assert v01["verdict"] == "input_error"
    # the file names the row and the problem, never the value (screen.md: no personal data)
    assert "linha 6, campo rank: função desconhecida" in v01["error"]
    assert "Roustabout" not in v01["error"] and "V01-C005" not in v01["error"]
    assert df.filter(pl.col("verdict") == "non_compliant").height == 5


@pytest.mark.parametrize("name", ["vessels.csv", "crew.csv"])
def test_missing_table(tmp_path: Path, name: str) -> None:
    f = fleet(tmp_path)
    (f / name).unlink()
    text = bad(f)
    assert "crew.csv|parquet" in text or "vessels.csv|parquet" in text


def test_output_in_a_missing_folder_is_refused_before_the_run(tmp_path: Path) -> None:
    result = runner.invoke(app, ["screen", str(EXAMPLE), "-o", str(tmp_path / "no" / "r.parquet")])
    assert result.exit_code == 2
    assert "campo --output: pasta de saída não existe" in result.output
    assert "Triagem" not in result.output  # nothing screened, nothing written


def test_every_failing_check_of_the_vessels_table_is_listed_in_file_order(
        tmp_path: Path) -> None:
    f = fleet(tmp_path)
    lines = (f / "vessels.csv").read_text(encoding="utf-8").splitlines()
    for n, col, value in ((4, 7, "2026-13-01"), (6, 5, "submarine"), (7, 5, "submarine")):
        cells = lines[n - 1].split(",")
        cells[col] = value
        lines[n - 1] = ",".join(cells)
    (f / "vessels.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    said = bad(f)
    at4 = said.index("linha 4, campo ajb_entry: data inválida")
    at6 = said.index("linha 6, campo activity: valor não permitido")
    assert at4 < at6
    assert "(recebido: 'submarine') — e outra linha com o mesmo problema" in said
    # a row with an exit and an unreadable entry: the entry is the one problem of that row
    (tmp_path / "x").mkdir()
    f2 = fleet(tmp_path / "x")
    lines = (f2 / "vessels.csv").read_text(encoding="utf-8").splitlines()
    cells = lines[3].split(",")
    cells[7], cells[8] = "2026-13-01", "2026-05-01"
    lines[3] = ",".join(cells)
    (f2 / "vessels.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    said2 = bad(f2)
    assert "linha 4, campo ajb_entry: data inválida" in said2
    assert "sem entrada" not in said2


def test_vessels_without_crew_or_position_holders_are_flagged(tmp_path: Path) -> None:
    """A vessel with no crew rows and a REB vessel whose list names no master / chief
    engineer (CLC / OSM are qualifications, not positions) are not silently compliant: the
    engine's *_not_identified warnings and no_crew go to the warnings column and the
    summary."""
    f = fleet(tmp_path)
    with (f / "vessels.csv").open("a", encoding="utf-8") as v:
        v.write("V14,Sem Tripulação,,PA,,offshore_support,charter,2026-01-01,,,,\n"
                "V15,Rebocador REB,,BR,REB,port_support,,,,,,\n")
    with (f / "crew.csv").open("a", encoding="utf-8") as c:
        c.write("V15,V15-1,CLC,PH,\nV15,V15-2,OSM,PH,\nV15,V15-3,MNC,BR,\n")
    out = tmp_path / "r.csv"
    code, text = run(str(f), "--on", "2026-06-01", "-o", str(out))
    assert code == 1
    said = " ".join(text.split())
    assert "Alerta (no_crew): 1 embarcação sem nenhuma pessoa na tabela de tripulação." in said
    assert ("Alerta (master_not_identified): 1 embarcação sem comandante identificado — "
            "informe a coluna position.") in said
    df = pl.read_csv(out).sort("id")
    got = {r["id"]: (r["verdict"], r["warnings"], r["crew_size"]) for r in df.iter_rows(named=True)
           if r["id"] in ("V06", "V14", "V15")}
    assert got == {"V06": ("compliant", None, 10), "V14": ("compliant", "no_crew", 0),
                   "V15": ("compliant",
                           "master_not_identified;chief_engineer_not_identified", 3)}


def test_a_row_with_too_many_fields_is_named_by_its_line(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    edit(f / "crew.csv", "V01,V01-C002,Chief Officer,NO,", "V01,V01-C002,Chief Officer,NO,,x")
    code, text = run(str(f), "--on", "2026-06-01", "-o", str(tmp_path / "r.csv"))
    assert code == 2 and not (tmp_path / "r.csv").exists()
    said = " ".join(text.split())
    assert "crew.csv, linha 3: linha com 6 campos; o cabeçalho tem 5 (separador ',')" in said
    assert "truncate_ragged_lines" not in said
    (tmp_path / "v").mkdir()
    f2 = fleet(tmp_path / "v")
    edit(f2 / "vessels.csv", "V02,Southern Tern,", "V02,Southern Tern,,,")
    code, text = run(str(f2), "--on", "2026-06-01")
    assert code == 2 and "vessels.csv, linha 3: linha com 14 campos; o cabeçalho tem 12" in \
        " ".join(text.split())


def test_the_first_bad_crew_row_in_file_order_is_named(tmp_path: Path) -> None:
    """A row with no vessel (line 3) before a row with no nationality (line 4): the first."""
    f = fleet(tmp_path)
    edit(f / "crew.csv", "V01,V01-C002,Chief Officer,NO,", ",V01-C002,Chief Officer,NO,")
    text = (f / "crew.csv").read_text(encoding="utf-8").splitlines()
    text[3] = ",".join([*text[3].split(",")[:3], "", ""])  # line 4: nationality blank
    (f / "crew.csv").write_text("\n".join(text) + "\n", encoding="utf-8")
    code, out = run(str(f), "--on", "2026-06-01")
    assert code == 2
    assert "crew.csv, linha 3, campo vessel_id: vessel_id ausente" in " ".join(out.split())


def test_a_windows_1252_csv_as_excel_saves_it_is_read(tmp_path: Path) -> None:
    """Excel saves CSV in Windows-1252: read as the crew-file loader of `check` reads it."""
    f = fleet(tmp_path)
    edit(f / "vessels.csv", "Atlantic Provider", "Atlântico Provedor")
    for name in ("vessels.csv", "crew.csv"):
        (f / name).write_bytes((f / name).read_text(encoding="utf-8").encode("cp1252"))
    out = tmp_path / "r.csv"
    code, text = run(str(f), "--on", "2026-06-01", "-o", str(out))
    assert code == 1 and "13 embarcações, 388 pessoas a bordo" in text
    df = pl.read_csv(out)
    assert df.filter(pl.col("id") == "V01")["name"].item() == "Atlântico Provedor"
    assert df.filter(pl.col("id") == "V04")["total_deficit"].item() == 29


def test_a_spreadsheet_in_the_fleet_folder_is_named(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    (f / "crew.csv").rename(f / "crew.xlsx")
    code, text = run(str(f), "--on", "2026-06-01")
    assert code == 2
    assert "crew.xlsx: planilhas não são lidas na triagem; exporte a tabela como CSV (UTF-8) " \
        "ou Parquet" in " ".join(text.split())  # "arquivo …/crew.xlsx: planilhas …"


def test_float_vessel_ids_are_refused(tmp_path: Path) -> None:
    f = fleet(tmp_path)
    v = pl.read_csv(f / "vessels.csv", infer_schema=False)
    v = v.with_columns(id=pl.int_range(1, v.height + 1).cast(pl.Float64))
    v.write_parquet(f / "vessels.parquet")
    (f / "vessels.csv").unlink()
    code, text = run(str(f), "--on", "2026-06-01")
    assert code == 2
    assert "vessels.parquet, campo id: a coluna id deve ser texto ou inteiro (é Float64)" in \
        " ".join(text.split())


def test_excel_csv_has_semicolons_and_a_bom_and_reads_back_equal(tmp_path: Path) -> None:
    plain, excel = tmp_path / "r.csv", tmp_path / "r-excel.csv"
    assert run(str(EXAMPLE), "--on", "2026-06-01", "-o", str(plain))[0] == 1
    assert run(str(EXAMPLE), "--on", "2026-06-01", "-o", str(excel), "--excel")[0] == 1
    raw = excel.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfrisk_rank;id;name;")
    back = pl.read_csv(excel, separator=";", encoding="utf8-lossy", infer_schema=False)
    back = back.rename({back.columns[0]: back.columns[0].lstrip("\ufeff")})
    # fractions as text formulas, as Excel must not read 1/3 as a date: ="1/3"
    assert back["step_fraction"].drop_nulls().unique().sort().to_list() == [
        '="1/3"', '="1/5"', '="2/3"']
    unwrapped = back.with_columns(pl.col(c).str.replace(r'^="(.*)"$', "$1") for c in back.columns)
    assert unwrapped.equals(pl.read_csv(plain, infer_schema=False))
    code, text = run(str(EXAMPLE), "--on", "2026-06-01", "-o", str(tmp_path / "r.parquet"),
                     "--excel")
    assert code == 2 and "--excel vale só com -o arquivo.csv" in text
    assert not (tmp_path / "r.parquet").exists()


def test_an_unwritable_output_format_is_refused_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`-o result.xlsx` is refused at once (not after screening the whole fleet), and the
    Python API refuses it with the same words."""
    import abordo.faces.cli.screen as cli_screen
    from abordo.batch import write_result

    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the fleet was screened")

    monkeypatch.setattr(cli_screen, "screen", no_run)
    code, text = run(str(EXAMPLE), "--on", "2026-06-01", "-o", str(tmp_path / "r.xlsx"))
    assert code == 2 and "formato de saída não suportado: .xlsx (use .parquet ou .csv)" in text
    code, text = run(str(EXAMPLE), "--on", "2026-06-01", "--excel")
    assert code == 2 and "--excel vale só com -o arquivo.csv" in text
    with pytest.raises(InputError, match=r"--excel vale só com -o arquivo\.csv"):
        write_result(pl.DataFrame({"id": ["V1"]}), tmp_path / "r.parquet", excel=True)
    assert list(tmp_path.iterdir()) == []

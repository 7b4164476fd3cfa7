"""Every table read through its schema (`core.schema`): a run's tables, the odds and the
atlas with the right columns and the wrong types, values out of range, NaN where none may be,
repeated keys or a file cut short are one line naming the file and the column (exit 2, 400 on
the page): never a traceback, a silent answer, or an array sized by a score before it is
checked."""

import shutil
import tracemalloc
from importlib import resources

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from starlette.testclient import TestClient

from euchre_sim.advice.atlas import Atlas
from euchre_sim.advice.atlas_build import write_table
from euchre_sim.core.errors import UserError
from euchre_sim.core.rules import build_rules
from euchre_sim.core.run_tables import SEAT_LETTERS, SIDES
from euchre_sim.core.seats import SEAT_NAMES, TEAM_NAMES
from euchre_sim.game.odds import read_odds
from euchre_sim.web.app import create_app
from euchre_sim.web.worker import Worker

from .helpers import run_cli

HAND = ["--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "2"]
RUN_TABLES = ("calls", "summary", "decisions", "auction")


def _one_line(result, *words: str) -> None:
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and all(word in lines[0] for word in words), result.output


def _as_text(source, target, names) -> None:
    """A copy of run `source` whose tables `names` hold their values as text."""
    shutil.copytree(source, target)
    for name in names:
        pd.read_parquet(source / f"{name}.parquet").astype(str).to_parquet(
            target / f"{name}.parquet")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A runs folder: `good`, a small `simulate --bidding` run, and `tgood`, a small
    tournament; `bad` and `tbad` the same with every table's values as text."""
    root = tmp_path_factory.mktemp("runs")
    run_cli(["simulate", "--deals", "200", "--seed", "1", "--bidding", "rules", "--tables",
             "calls,decisions,auction", "--out", str(root / "good"), "--workers", "1",
             "--no-progress"])
    run_cli(["tournament", "--games", "4", "--seed", "1", "--play", "rules", "--out",
             str(root / "tgood"), "--workers", "1", "--no-progress"])
    _as_text(root / "good", root / "bad", RUN_TABLES)
    _as_text(root / "tgood", root / "tbad", ("games", "hands"))
    return root


@pytest.mark.parametrize("args, run, table", [
    (["table", "{bad}"], "bad", "calls"),
    (["table", "{bad}", "--table", "auction"], "bad", "auction"),
    (["compare", "{good}", "{bad}"], "bad", "calls"),
    (["plot", "{bad}", "--output", "{root}/p.png"], "bad", "summary"),
    (["chart", "{bad}", "--output", "{root}/c.html"], "bad", "decisions"),
    (["advise", *HAND, "--bidding", "table", "--bidder-table", "{bad}", "--deals", "50"], "bad",
     "decisions"),
    (["odds", "--from", "{bad}", "--out", "{root}/odds"], "bad", "auction"),
    (["table", "{tbad}", "--table", "hands"], "tbad", "hands"),
    (["compare", "{tgood}", "{tbad}"], "tbad", "games")])
def test_a_run_table_of_text_is_one_line_naming_it_and_its_column(runs, args, run, table):
    names = {name: runs / name for name in ("bad", "good", "tbad", "tgood")} | {"root": runs}
    result = run_cli([arg.format(**names) for arg in args], code=2)
    _one_line(result, repr(str(runs / run / f"{table}.parquet")), "holds text, not")


def test_the_page_answers_a_run_table_of_text_with_400(runs):
    advise = {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 2, "deals": 50,
              "bidding": "table", "bidder_table": "bad"}
    with TestClient(create_app(Worker(), runs_root=str(runs)),
                    base_url="http://127.0.0.1") as client:
        for response in (client.get("/api/run/table", params={"dir": "bad"}),
                         client.get("/api/run/plot", params={"dir": "bad", "kind": "heatmaps"}),
                         client.post("/api/advise", json=advise)):
            assert response.status_code == 400, response.text
            assert "holds text, not whole numbers" in response.json()["error"]


def _damaged(frame: pd.DataFrame, damage: str) -> pd.DataFrame:
    frame = frame.copy()
    column, _, value = damage.partition("=")
    if damage == "repeated":
        return pd.concat([frame, frame.iloc[:1]], ignore_index=True)
    frame[column] = frame[column].astype(np.float64 if value in ("nan", "inf") else
                                         frame[column].dtype)
    frame.loc[0, column] = float(value)
    return frame


@pytest.mark.parametrize("damage, fault", [
    ("n=-1", "column 'n' holds -1, below 1"), ("n=0", "column 'n' holds 0, below 1"),
    ("mean_points=nan", "'mean_points' is empty"), ("make_rate=nan", "'make_rate' is empty"),
    ("make_rate=inf", "'make_rate' holds an infinity"), ("make_rate=2", "above 1"),
    ("points_se=-0.5", "'points_se' holds -0.5, below 0"), ("seat=7", "'seat' holds 7"),
    ("repeated", "repeats the key of an earlier row (round, seat, alone, hand_key)")])
def test_a_calls_table_out_of_its_range_is_one_line(runs, tmp_path, damage, fault):
    shutil.copytree(runs / "good", tmp_path / "run")
    path = tmp_path / "run" / "calls.parquet"
    _damaged(pd.read_parquet(path), damage).to_parquet(path)
    _one_line(run_cli(["table", str(tmp_path / "run")], code=2), repr(str(path)), fault)


def test_a_table_cut_short_is_one_line(runs, tmp_path):
    shutil.copytree(runs / "good", tmp_path / "run")
    path = tmp_path / "run" / "calls.parquet"
    path.write_bytes(path.read_bytes()[:1000])
    _one_line(run_cli(["table", str(tmp_path / "run")], code=2),
              f"cannot read the calls table {str(path)!r}")


@pytest.fixture
def odds_dir(tmp_path):
    """A folder holding the shipped standard odds as odds.parquet."""
    folder = tmp_path / "odds"
    folder.mkdir()
    shipped = resources.files("euchre_sim.data") / "odds_standard.parquet"
    (folder / "odds.parquet").write_bytes(shipped.read_bytes())
    return folder


def _odds_damage(frame: pd.DataFrame, damage: str) -> pd.DataFrame:
    if damage == "empty":
        return frame.iloc[:0]
    if damage == "a score missing":
        return frame.iloc[1:]
    if damage in ("repeated", "p_win=nan"):
        return _damaged(frame, damage)
    column, _, value = damage.partition("=")
    frame = frame.astype({column: np.int64})
    frame.loc[0, column] = int(value)
    return frame


@pytest.mark.parametrize("damage, fault", [
    ("us=1000000", "column 'us' holds 1000000, above 100"),
    ("us=9000", "column 'us' holds 9000, above 100"),
    ("them=-1", "column 'them' holds -1, below 0"), ("empty", "0 rows"),
    ("a score missing", "239 rows: not each score of a game to 10 once"),
    ("repeated", "repeats the key"), ("p_win=nan", "'p_win' is empty")])
def test_an_odds_table_is_checked_before_any_array_is_sized(odds_dir, damage, fault):
    path = odds_dir / "odds.parquet"
    _odds_damage(pd.read_parquet(path), damage).to_parquet(path)
    result = run_cli(["advise", *HAND, "--bidding", "rules", "--deals", "50", "--score", "8-9",
                      "--odds", str(odds_dir)], code=2)
    _one_line(result, repr(str(path)), fault)
    tracemalloc.start()
    try:
        with pytest.raises(UserError):
            read_odds(str(odds_dir), build_rules("standard"))
        assert tracemalloc.get_traced_memory()[1] < 20 * 2**20
    finally:
        tracemalloc.stop()


@pytest.fixture
def small_atlas(tmp_path):
    """The first rows of the shipped standard atlas, as an atlas file, and their frame."""
    shipped = resources.files("euchre_sim.data") / "atlas_standard.parquet"
    with resources.as_file(shipped) as path:
        rows = pq.ParquetFile(path).read_row_group(0).to_pandas().head(200)
    write_table(rows, str(tmp_path / "atlas.parquet"), {"deals": 1})
    return tmp_path / "atlas.parquet", rows


@pytest.mark.parametrize("damage, fault", [
    ("n=0", "column 'n' holds 0, below 1"), ("chosen_rate=nan", "'chosen_rate' is empty"),
    ("gain_se=-0.25", "'gain_se' holds -0.25, below 0"),
    ("dd_mean_points=inf", "'dd_mean_points' holds an infinity"),
    ("n_us_1=4000000000", "results of key .* add up to"), ("repeated", "repeats the key")])
def test_an_atlas_row_out_of_its_range_is_never_answered(small_atlas, damage, fault):
    path, rows = small_atlas
    write_table(_damaged(rows, damage).astype(rows.dtypes.to_dict()), str(path), {})
    with pytest.raises(UserError, match=fault) as caught:
        Atlas(path).rows([int(rows["key"].iloc[0])])
    assert repr(str(path)) in str(caught.value)


@pytest.mark.parametrize("damage", ["cut short", "keys as text"])
def test_an_atlas_that_is_not_one_is_one_line(small_atlas, damage):
    path, rows = small_atlas
    if damage == "cut short":
        path.write_bytes(path.read_bytes()[:1000])
    else:
        rows.astype({"key": str}).to_parquet(path)
    with pytest.raises(UserError, match=f"cannot read the atlas {str(path)!r}"):
        Atlas(path)


def test_the_tables_name_seats_and_sides_as_core_seats_does():
    """`core.run_tables` spells them itself (core.seats loads Numba, reading a table must not)."""
    assert "".join(SEAT_LETTERS) == SEAT_NAMES and SIDES == TEAM_NAMES

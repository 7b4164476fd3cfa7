"""simulate: exact counts, trump distribution, identical tables however run, resume, advise."""

import fcntl
import io
import json
import os
import signal
import subprocess
import sys
import time
from math import comb

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from euchre_sim.advice.advise import advise
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.cli.main import cli
from euchre_sim.core.cards import cards_of
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import make_points
from euchre_sim.play.player import Player
from euchre_sim.runs.code_digest import code_digest
from euchre_sim.runs.runner import CODE_KEY, LOCK

from . import naive
from .helpers import class_text_parts
from .helpers import run_cli as run
from .interrupts import interrupted_twice, start_run, wait_for_chunks
from .kernels import sampled_deals, solve
from .naive import hand_class_parts

DEALS = 400


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim") / "base"
    run(["simulate", "--deals", str(DEALS), "--seed", "7", "--out", str(out), "--workers", "1",
         "--chunk-size", "100", "--keep-deals", "--no-progress"])
    return out


def tables(out):
    names = ("calls", "summary", "outcomes", "deals")
    return {name: pd.read_parquet(out / f"{name}.parquet") for name in names
            if (out / f"{name}.parquet").exists()}


def test_round_one_counts_sum_to_the_deals(base_run):
    calls = pd.read_parquet(base_run / "calls.parquet")
    r1 = calls[calls["round"] == 1].groupby(["seat", "alone"])["n"].sum()
    assert (r1 == DEALS).all() and len(r1) == 8


def test_round_two_counts_three_suits_per_deal(base_run):
    calls = pd.read_parquet(base_run / "calls.parquet")
    r2 = calls[calls["round"] == 2].groupby(["seat", "alone"])["n"].sum()
    assert (r2 == 3 * DEALS).all()


FEATURES = ["trumps", "right", "left", "aces", "voids"]
MEASURES = ["n", "make_rate", "make_se", "march_rate", "march_se", "euchred_rate",
            "euchred_se", "mean_points", "points_se"]


@pytest.fixture(scope="module")
def naive_outcomes(base_run) -> pd.DataFrame:
    """Every kept outcome (exact tricks, checked against the solver below) with the maker's
    position from the dealer (N deals: E is 1 ... N is 4), and the class and features of the
    maker's five dealt cards read by tests/naive.py."""
    deck = build_rules("standard").card_deck
    deals = pd.read_parquet(base_run / "deals.parquet").set_index("deal")
    rows = []
    for row in pd.read_parquet(base_run / "outcomes.parquet").itertuples(index=False):
        deal = deals.loc[row.deal]
        hand, trump = deck.parse_hand(deal[row.maker]), deck.parse_suit(row.trump)
        parts = hand_class_parts(hand, trump, row.round, deck.parse_card(deal["upcard"]),
                                 False, deck)
        rows.append({"round": row.round, "seat": "NESW".index(row.maker) or 4,
                     "alone": row.alone, "hand": _class_id(parts),
                     **dict(zip(FEATURES, naive.class_features(hand, trump, False), strict=True)),
                     "tricks": row.maker_tricks, "points": row.points})
    return pd.DataFrame(rows)


def _class_id(parts: dict) -> tuple:
    return parts["T"], parts["N"], parts["D"], tuple(parts["O"]), parts["ref"]


def _rates(outcomes: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Counts, rates with sqrt(p(1-p)/n), mean points with sd/sqrt(n), by `keys`."""
    frame = outcomes.assign(make=outcomes["tricks"] >= 3, march=outcomes["tricks"] == 5,
                            euchred=outcomes["tricks"] < 3)
    out = frame.groupby(keys).agg(n=("points", "size"), make_rate=("make", "mean"),
                                  march_rate=("march", "mean"),
                                  euchred_rate=("euchred", "mean"),
                                  mean_points=("points", "mean"), sd=("points", "std"))
    for name in ("make", "march", "euchred"):
        p = out[f"{name}_rate"]
        out[f"{name}_se"] = np.sqrt(p * (1 - p) / out["n"])
    out["points_se"] = out["sd"] / np.sqrt(out["n"])
    return out[MEASURES]


def _assert_same_rows(table: pd.DataFrame, want: pd.DataFrame, keys: list[str]) -> None:
    got = table.set_index(keys).sort_index()
    assert got.index.tolist() == want.index.tolist()
    assert (got["n"].to_numpy() == want["n"].to_numpy()).all()
    np.testing.assert_allclose(got[MEASURES].to_numpy(np.float64),
                               want[MEASURES].to_numpy(np.float64), rtol=1e-9, atol=1e-12)


def test_calls_table_is_the_outcomes_grouped_by_class(base_run, naive_outcomes):
    """calls.parquet row by row against the outcomes grouped by the naive class (the hand
    text read back into parts) and the naive trump count."""
    keys = ["round", "seat", "alone", "hand", "trumps"]
    calls = pd.read_parquet(base_run / "calls.parquet")
    calls["hand"] = [_class_id(class_text_parts(text)) for text in calls["hand"]]
    _assert_same_rows(calls, _rates(naive_outcomes, keys).sort_index(), keys)


def test_summary_table_is_the_outcomes_grouped_by_features(base_run, naive_outcomes):
    keys = ["round", "seat", "alone", *FEATURES]
    summary = pd.read_parquet(base_run / "summary.parquet")
    _assert_same_rows(summary, _rates(naive_outcomes, keys).sort_index(), keys)


def test_trump_counts_follow_the_hypergeometric_law(base_run):
    # Round 1, seat 1: 6 trumps besides the upcard among the 23 unseen cards, 5 held.
    calls = pd.read_parquet(base_run / "calls.parquet")
    seat1 = calls[(calls["round"] == 1) & (calls["seat"] == 1) & ~calls["alone"]]
    observed = seat1.groupby("trumps")["n"].sum().reindex(range(6), fill_value=0)
    expected = np.array([comb(6, k) * comb(17, 5 - k) / comb(23, 5) for k in range(6)]) * DEALS
    chi2 = (((observed.to_numpy() - expected) ** 2) / expected)[:4].sum()
    assert chi2 < 16.3  # 3 degrees of freedom, p = 0.001


def test_identical_tables_for_workers_and_chunk_sizes(base_run, tmp_path):
    other = tmp_path / "other"
    run(["simulate", "--deals", str(DEALS), "--seed", "7", "--out", str(other), "--workers", "2",
         "--chunk-size", "150", "--keep-deals", "--no-progress"])
    a, b = tables(base_run), tables(other)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name])


def _outcome_rows(base_run, round_no: int, deals_below: int):
    """(row, hands by seat, upcard, maker seat) of kept outcomes."""
    deck = build_rules("standard").card_deck
    deals = pd.read_parquet(base_run / "deals.parquet").set_index("deal")
    outcomes = pd.read_parquet(base_run / "outcomes.parquet")
    rows = outcomes[(outcomes["round"] == round_no) & (outcomes["deal"] < deals_below)]
    for _, row in rows.iterrows():
        deal = deals.loc[row["deal"]]
        yield (row, [deck.parse_hand(deal[s]) for s in "NESW"], deck.parse_card(deal["upcard"]),
               "NESW".index(row["maker"]))


def solved_maker_tricks(rules, hands: list[int], trump: int, maker: int, alone: bool,
                        upcard: int | None = None) -> int:
    """The makers' tricks of one call of a deal N dealt, one exact solve per position: the
    dealer's left leads (the next seat in play when it sits out); in round 1 (`upcard` given)
    the dealer, unless it sits out, takes the upcard and keeps the discard best for NS."""
    active = [True] * 4
    if alone:
        active[(maker + 2) % 4] = False
    leader = next(s for s in (1, 2, 3, 0) if active[s])
    if upcard is None or not active[0]:
        ns = solve(rules, hands, trump, leader, active)
    else:
        six = hands[0] | 1 << upcard
        ns = max(solve(rules, [six & ~(1 << c)] + hands[1:], trump, leader, active)
                 for c in cards_of(six))
    return ns if maker % 2 == 0 else 5 - ns


def scoring_class(tricks: int) -> str:
    """What the makers' tricks score by the rules: euchred (0-2), made (3-4) or marched (5)."""
    return "euchred" if tricks < 3 else "marched" if tricks == 5 else "made"


def test_default_path_gives_the_exact_count_paths_tables(ruleset):
    """simulate without --keep-deals finds each call's scoring class with zero-window searches
    (and a shortcut over the dealer's discards), keeping a representative count of tricks;
    with --keep-deals it counts tricks exactly. On the same deals every call must land in the
    same class and score the same points, and the chunk's tables must be identical."""
    from euchre_sim.sim.chunk import ChunkJob, chunk_records
    from euchre_sim.sim.tables import compute_chunk

    fast, _ = chunk_records(ChunkJob.of(ruleset, 21, 0, 150), exact=False)
    exact, _ = chunk_records(ChunkJob.of(ruleset, 21, 0, 150), exact=True)
    assert len(exact["deal"]) > 150
    for name in fast:
        if name != "maker_tricks":
            assert (fast[name] == exact[name]).all(), name
    assert [scoring_class(t) for t in fast["maker_tricks"]] == \
        [scoring_class(t) for t in exact["maker_tricks"]]
    job = ChunkJob(ruleset.options(), 21, 0, 0, 150, False, Player())
    (_, _, default), (_, _, kept) = compute_chunk(job), compute_chunk(job._replace(keep_deals=True))
    assert default["calls.sums"] == kept["calls.sums"]
    pd.testing.assert_frame_equal(pd.read_parquet(io.BytesIO(default["summary.parquet"])),
                                  pd.read_parquet(io.BytesIO(kept["summary.parquet"])))


def test_outcomes_match_the_solver(base_run):
    rules = build_rules("standard")
    deck = rules.card_deck
    for row, hands, _, maker in _outcome_rows(base_run, 2, 5):
        assert row["maker_tricks"] == solved_maker_tricks(rules, hands,
                                                          deck.parse_suit(row["trump"]), maker,
                                                          row["alone"])
        assert row["points"] == make_points(rules, row["maker_tricks"], row["alone"], False)


def test_run_json_and_parquet_metadata(base_run):
    info = json.loads((base_run / "run.json").read_text())
    assert info["seed"] == 7 and info["deals"] == DEALS and info["play"] == "dd"
    assert info["rules"]["deck"] == 24 and "version" in info and "elapsed_seconds" in info
    import pyarrow.parquet as pq

    meta = json.loads(pq.read_schema(base_run / "calls.parquet").metadata[b"euchre_sim"])
    assert meta["seed"] == 7


def test_refuses_a_non_empty_out_without_resume(base_run):
    result = CliRunner().invoke(cli, ["simulate", "--deals", "10", "--out", str(base_run)])
    assert result.exit_code == 2 and "not empty" in result.output


def test_resume_refuses_a_different_seed(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"seed": 1, "deals": 10, "chunk_size": 5,
                                                   "rules": {}, "keep_deals": False,
                                                   CODE_KEY: code_digest()}))
    result = CliRunner().invoke(cli, ["simulate", "--deals", "10", "--seed", "2", "--out",
                                      str(out), "--resume"])
    assert result.exit_code == 2 and "different seed" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_resume_after_kill_gives_identical_tables(base_run, tmp_path):
    out = tmp_path / "killed"
    args = [sys.executable, "-m", "euchre_sim.cli", "simulate", "--deals", str(DEALS), "--seed",
            "7", "--out", str(out), "--workers", "1", "--chunk-size", "50", "--keep-deals",
            "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    chunks = out / "chunks"
    wait_for_chunks(proc, chunks, 2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (out / "calls.parquet").exists()
    run(["simulate", "--deals", str(DEALS), "--seed", "7", "--out", str(out), "--workers", "1",
         "--keep-deals", "--resume", "--no-progress"])
    a, b = tables(base_run), tables(out)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name])


def _living(processes) -> list:
    """The processes still running (a zombie waiting for its reaper has ended)."""
    import psutil

    alive = []
    for process in processes:
        try:
            if process.status() != psutil.STATUS_ZOMBIE:
                alive.append(process)
        except psutil.NoSuchProcess:
            pass
    return alive


def _folder_held(folder) -> bool:
    """Does a process still hold the run folder's lock (`runs.runner`: the writing run and the
    workers it forked)?"""
    fd = os.open(folder / LOCK, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # our own lock, if taken, goes with it
    return False


def test_workers_exit_when_the_parent_is_killed(tmp_path):
    """kill -9 of simulate leaves no worker running; --resume then finishes the run with the
    tables of an uninterrupted one."""
    import psutil

    out = tmp_path / "orphaned"

    def args(folder):
        return ["simulate", "--deals", "20000", "--seed", "3", "--out", str(folder),
                "--workers", "2", "--chunk-size", "1000", "--no-progress"]

    proc = subprocess.Popen([sys.executable, "-m", "euchre_sim.cli", *args(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_chunks(proc, out / "chunks", 1)
    workers = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    try:
        assert workers
        deadline = time.time() + 10
        while (_living(workers) or _folder_held(out)) and time.time() < deadline:
            time.sleep(0.1)
        assert _living(workers) == []
        # every process of the killed run has let go of the folder, a worker forked after
        # the list above was taken too
        assert not _folder_held(out)
    finally:
        for worker in _living(workers):  # never leave an orphan behind a failed test
            worker.kill()
    assert not (out / "calls.parquet").exists()
    run([*args(out), "--resume"])
    run(args(tmp_path / "whole"))
    a, b = tables(tmp_path / "whole"), tables(out)
    assert sorted(a) == ["calls", "summary"]
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name])


def _check_advise_against_the_solver(rules, hand, position, down=None, up=None, deals=40,
                                     seed=5):
    """Every action's rates, mean points and standard error equal those of the deals advise
    sampled, each solved one position at a time (round 1: every discard of the dealer's)."""
    deck = rules.card_deck
    result = advise(AdviceQuestion(rules, hand, position, up=up, turned_down=down, deals=deals,
                                    seed=seed, player=Player()))
    sampled = sampled_deals(rules, hand, position, up or down, deals, seed)
    seat = position % 4  # N deals
    upcard = deck.parse_card(up) if up else None
    per_deal = []
    for action in result["actions"]:
        trump = deck.parse_suit(action["suit"])
        tricks = np.array([solved_maker_tricks(rules, hands, trump, seat, action["alone"],
                                               upcard) for hands in sampled])
        points = [make_points(rules, t, action["alone"], False) for t in tricks]
        assert action["n"] == deals
        assert action["make_rate"] == pytest.approx(np.mean(tricks >= 3))
        assert action["march_rate"] == pytest.approx(np.mean(tricks == 5))
        assert action["euchred_rate"] == pytest.approx(np.mean(tricks < 3))
        assert action["mean_points"] == pytest.approx(np.mean(points))
        # within what the call can score (a euchre to a lone call's march), the error stated
        # the sample's or the interval's wider side over 1.96 where that is wider (issue 76)
        lo, hi = action["ci95"]
        low = -rules.euchre_points
        high = rules.lone_march_points if action["alone"] else rules.march_points
        assert low <= lo <= action["mean_points"] <= hi <= high
        se = np.std(points, ddof=1) / np.sqrt(deals)
        assert action["points_se"] == pytest.approx(max(
            se, (action["mean_points"] - lo) / 1.959964, (hi - action["mean_points"]) / 1.959964))
        per_deal.append(np.array(points, dtype=float))
    # the margin of the top call over the next, paired on the same deals
    diff = per_deal[0] - per_deal[1]
    margin = result["margin"]
    assert margin["paired"] and margin["lead"] == pytest.approx(diff.mean())
    if diff.std() > 0:
        assert margin["lead_se"] == pytest.approx(diff.std(ddof=1) / np.sqrt(deals), rel=0.05)
    return result


def test_advise_agrees_with_the_solver_on_its_own_deals():
    _check_advise_against_the_solver(build_rules("standard"), "JS AS 9H 9D TC", 3, down="QC")


def test_benny_turned_down_under_no_trump_opens_every_suit_and_no_trump():
    """Online rules (004_baf3b20d3e4ad955.txt): Benny turned up names no suit, so round 2 may
    name any of the four suits, or no-trump where it is on: ten calls, with partner and alone."""
    rules = build_rules("standard", ["joker=true", "no_trump=true"])
    result = _check_advise_against_the_solver(rules, "JS AS 9H 9D TC", 1, down="JK", deals=30)
    calls = sorted((a["suit"], a["alone"]) for a in result["actions"])
    assert calls == sorted((suit, alone) for suit in ("C", "D", "H", "S", "NT")
                           for alone in (False, True))


def test_advise_pinned_hand_figures_are_the_solvers_on_its_deals():
    """README's pinned hand, JS AS 9H 9D TC with 9S up at seat 1: both order-ups' figures
    over 4,000 sampled deals are those of the deals solved one by one (each of the dealer's
    six discards), and by them ordering up with partner is the best call."""
    result = _check_advise_against_the_solver(build_rules("standard"), "JS AS 9H 9D TC", 1,
                                              up="9S", deals=4000, seed=1)
    best = result["actions"][0]
    assert best["action"] == "order_up" and not best["alone"]
    assert best["mean_points"] > result["actions"][1]["mean_points"]


@pytest.mark.parametrize("args,culprit", [
    (["simulate", "--deals", "5", "--out", "x", "--set", "deck=99"], "'deck'"),
    (["simulate", "--deals", "0", "--out", "x"], "--deals"),
    (["advise", "--hand", "JS AS 9H 9D XC", "--up", "9S", "--seat", "1"], "'XC'"),
    (["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "5"], "--seat"),
    (["advise", "--hand", "JS AS 9H 9D TC", "--seat", "1"], "--up"),
    (["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--turned-down", "9C", "--seat", "1"],
     "exactly one"),
    (["solve", "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC"], "4 cards"),
    (["solve", "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JH"], "duplicate"),
    (["solve", "--input", "/no/file"], "cannot read"),
    (["table", "/no/dir"], "no run folder '/no/dir'"),
    (["export", "/no/dir", "--format", "csv"], "no run folder '/no/dir'"),
    (["export", "/no/dir", "--format", "xml"], "'xml'"),
    (["plot", "/no/dir", "--output", "x.png"], "no run folder '/no/dir'"),
])
def test_bad_input_one_line_exit_2(args, culprit):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert culprit in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_plot_into_a_missing_folder_is_one_line_exit_2(base_run, tmp_path):
    png = tmp_path / "missing" / "x.png"
    result = run(["plot", str(base_run), "--output", str(png)], code=2)
    assert str(png) in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1 and not png.parent.exists()


def test_ctrl_c_reports_one_line_and_resume_finishes(tmp_path):
    out = tmp_path / "interrupted"
    args = ["simulate", "--deals", "3000", "--seed", "3", "--out", str(out), "--workers", "2",
            "--chunk-size", "100", "--no-progress"]
    proc = start_run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    chunks = out / "chunks"
    wait_for_chunks(proc, chunks, 2)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "--resume" in err
    run(["simulate", "--deals", "3000", "--seed", "3", "--out", str(out), "--workers", "2",
         "--resume", "--no-progress"])
    assert (out / "calls.parquet").exists() and not chunks.exists()


def test_two_quick_ctrl_c_stop_the_workers_and_keep_the_chunks_stored(tmp_path):
    """A second Ctrl-C 0.1 s after the first used to break off the wait for the running
    chunks and leave the run waiting on its workers forever: now the first stops the workers
    at once and the second is ignored; every chunk stored is whole (a resume trusts it)."""
    out = tmp_path / "twice"
    err = interrupted_twice(["simulate", "--deals", "200000", "--seed", "3", "--out", str(out),
                             "--workers", "2", "--chunk-size", "1000", "--no-progress"], out)
    assert "Traceback" not in err and "--resume" in err.splitlines()[-1]
    stored = [c for c in (out / "chunks").iterdir() if not c.name.startswith(".")]
    assert stored and all((c / "commit.json").is_file() for c in stored)


def test_round_one_outcomes_take_the_dealers_best_discard(base_run):
    """Round 1 rows against every one of the dealer's six discards, solved one by one."""
    rules = build_rules("standard")
    rows = list(_outcome_rows(base_run, 1, 4))
    assert len(rows) == 4 * 8
    for row, hands, up, maker in rows:
        assert row["maker_tricks"] == solved_maker_tricks(rules, hands, up >> 3, maker,
                                                          row["alone"], up)


def test_record_batches_do_not_change_a_chunks_sums(monkeypatch):
    """A chunk's call records are summed a batch of deals at a time (bounded memory): small
    batches give the sums of the whole chunk's records at once."""
    from euchre_sim.sim import chunk
    from euchre_sim.sim.callsums import record_sums

    rules = build_rules("standard")
    hands, ups, calls = chunk.chunk_calls(chunk.ChunkJob.of(rules, 21, 1000, 150), exact=False)
    records = chunk.call_records(rules, 1000, hands, ups, calls)
    whole_keys, whole_sums = record_sums(records)
    monkeypatch.setattr(chunk, "RECORD_BATCH", 7)
    (keys, sums), summary = chunk.chunk_sums(rules, 1000, hands, ups, calls)
    assert (keys == whole_keys).all() and (sums == whole_sums).all()
    pd.testing.assert_frame_equal(summary, chunk.summary_sums(records))


@pytest.mark.parametrize("shift", [50, 52])
def test_chunk_sums_merge_in_any_batches_to_the_sums_of_everything(tmp_path, shift):
    """Chunk sums files (a block per bucket, an index of them up front) read back a few
    buckets at a time give the sums of all their rows grouped at once, the last buckets
    included."""
    from euchre_sim.sim.callsums import N_BUCKETS, ChunkSums, bucketed_sums, group_sums

    rng = np.random.default_rng(5)
    end = N_BUCKETS << shift  # keys lie below: their buckets are 0 .. N_BUCKETS - 1
    names = ["a", "b"]
    everything_keys, everything_values, paths = [], [], []
    for i in range(3):
        keys = rng.integers(0, end, 2000, dtype=np.uint64)
        keys[:50] = np.uint64(end - 1 - i)  # the very last bucket
        values = rng.integers(0, 100, (2000, 2))
        everything_keys.append(keys)
        everything_values.append(values)
        path = tmp_path / f"{i}.sums"
        path.write_bytes(bucketed_sums(*group_sums(keys, values), names, shift))
        paths.append(str(path))
    want_keys, want_values = group_sums(np.concatenate(everything_keys),
                                        np.concatenate(everything_values))
    chunks = ChunkSums(paths, names)
    for max_rows in (1, 37, 10**9):
        parts = [chunks.read(batch) for batch in chunks.batches(max_rows)]
        assert (np.concatenate([k for k, _ in parts]) == want_keys).all()
        assert (np.concatenate([v for _, v in parts]) == want_values).all()

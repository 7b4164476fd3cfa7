"""simulate --bidding: decisions and auction tables against a plain-Python auction on the same
deals, identical however run, and resume."""

import json
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre_sim.core.cards import cards_of
from euchre_sim.core.dealing import deal_batch
from euchre_sim.solver.calltable import analyze_deals

from . import naive
from .conftest import RULE_SETS
from .helpers import run_cli
from .test_bidding import DEFAULTS, _naive_outcome

DEALS = 150
CASES = [("standard", "dd"), ("online", "rules"), ("benny_nt", "dd"), ("benny_nt", "rules"),
         ("yooker", "rules")]
RULE_ARGS = {"standard": [], "online": ["--rules", "online"], "yooker": ["--rules", "yooker"],
             "benny_nt": ["--rules", "online", "--set", "joker=true", "--set", "no_trump=true",
                          "--set", "defend_alone=true", "--set", "canadian_loner=true",
                          "--set", "lone_player_plays_last=true"]}


def _naive_tables(rules, bidding, seed, deals):
    """Decision sums by (round, seat, action, suit label, alone), contract counts by (round,
    seat, alone, defended), and the forced table's decision sums (the first caller's round-1
    call taken back as a pass: its round-2 decision, where no later seat calls before it), from
    the naive auction over the solver's call tables of the run's deals (N deals: positions 2
    and 4 are NS)."""
    hands, ups = deal_batch(rules, seed, 0, deals, 0)
    calls = analyze_deals(rules, hands, ups, 0, exact=True, defence=True)
    decisions = defaultdict(lambda: np.zeros(4))  # n, chosen, points, gain
    forced = defaultdict(lambda: np.zeros(4))
    contracts = defaultdict(int)
    for d in range(deals):
        upcard = int(ups[d])
        outcome = _naive_outcome(calls[d])

        def hand_at(pos, d=d):
            return cards_of(int(hands[d, pos % 4]))

        def resolved(call, outcome=outcome, hand_at=hand_at, upcard=upcard):
            """(points to the makers, lone defender j or None) of a call."""
            if bidding == "dd":
                points = naive.dd_defence(rules, outcome, call)
                if points == naive.call_points(rules, outcome(*call), call[3]):
                    return points, None
                return points, 0  # some defender went alone (which one: not needed here)
            return naive.rules_defence(rules, DEFAULTS, hand_at, upcard, outcome, call)

        if bidding == "dd":
            choices, values = naive.dd_auction(rules, outcome, upcard)
        else:
            choices = [naive.rules_bidder_choice(rules, DEFAULTS, hand_at(p), upcard, r, p)
                       for r in (1, 2) for p in range(1, 5)]
            values = [0] * 9
            for k in range(7, -1, -1):
                c = choices[k]
                pts = resolved(c)[0] if c is not None else None
                values[k] = values[k + 1] if c is None else (pts if c[1] % 2 == 0 else -pts)

        def record(k, table, choices=choices, values=values, upcard=upcard, hand_at=hand_at,
                   resolved=resolved):
            round_no, pos = k // 4 + 1, k % 4 + 1
            side = 1 if pos % 2 == 0 else -1
            stuck = round_no == 2 and pos == 4 and rules.stick_the_dealer
            pass_points = 0 if stuck else side * values[k + 1]
            if not stuck:
                table[(round_no, pos, "pass", "-", False)] += [1, choices[k] is None,
                                                              pass_points, 0]
            for trump, alone in naive.open_calls(rules, round_no, pos, upcard):
                call = (round_no, pos, trump, alone)
                pts = resolved(call)[0]
                action = "order_up" if round_no == 1 else "call"
                label = naive.call_label(rules, hand_at(pos), upcard, round_no, trump)
                table[(round_no, pos, action, label, alone)] += [1, choices[k] == call, pts,
                                                                 pts - pass_points]

        for k in range(8):
            round_no, pos = k // 4 + 1, k % 4 + 1
            if round_no == 1 and upcard == 32:
                continue
            record(k, decisions)
            if choices[k] is not None:
                defended = resolved(choices[k])[1] is not None
                contracts[(round_no, pos, choices[k][3], defended)] += 1
                break
        else:
            contracts[(0, 0, False, False)] += 1
        callers = [k for k in range(8) if choices[k] is not None]
        if callers and callers[0] < 4 and not any(callers[0] < k < callers[0] + 4
                                                   for k in callers):
            record(callers[0] + 4, forced)
    return decisions, contracts, forced


def _decision_sums(decisions: pd.DataFrame) -> pd.DataFrame:
    """n, chosen, points and gains summed by (round, seat, action, suit label, alone)."""
    decisions["suit_label"] = decisions["suit"].fillna("-")
    decisions["chosen"] = decisions["chosen_rate"] * decisions["n"]
    decisions["points"] = decisions["mean_points"] * decisions["n"]
    decisions["gains"] = decisions["gain"].fillna(decisions["mean_points"]) * decisions["n"]
    return decisions.groupby(["round", "seat", "action", "suit_label", "alone"])[
        ["n", "chosen", "points", "gains"]].sum()


@pytest.mark.parametrize("name,bidding", CASES)
def test_decisions_auction_and_forced_match_a_naive_auction(tmp_path, name, bidding):
    """The decisions, auction and forced tables (round 2 after the round-1 caller's pass
    forced) against the naive auction's."""
    rules = RULE_SETS[name]
    out = tmp_path / "run"
    run_cli(["simulate", "--deals", str(DEALS), "--seed", "4", "--out", str(out), "--workers",
             "1", "--no-progress", "--bidding", bidding, "--tables",
             "calls,decisions,auction,forced"] + RULE_ARGS[name])
    want, contracts, forced = _naive_tables(rules, bidding, 4, DEALS)
    for table, sums in (("decisions", want), ("forced", forced)):
        got = _decision_sums(pd.read_parquet(out / f"{table}.parquet"))
        assert len(got) == len(sums) > 0, table
        for (round_no, pos, action, label, alone), row in sums.items():
            assert got.loc[(round_no, pos, action, label, alone)].to_numpy() == \
                pytest.approx(row), (table, round_no, pos, action, label, alone)
    auction = pd.read_parquet(out / "auction.parquet")
    assert {(int(r), int(s), bool(a), bool(f)): int(n) for r, s, a, f, n in
            auction[["round", "seat", "alone", "defended", "n"]].itertuples(index=False)} \
        == contracts
    info = json.loads((out / "run.json").read_text())
    assert info["bidding"] == bidding
    assert info["auction"]["pass_out_rate"] == contracts.get((0, 0, False, False), 0) / DEALS


def test_bidding_tables_identical_whatever_workers_and_chunks(tmp_path, monkeypatch):
    """Also when the tables are merged and written a few rows at a time (a long run's
    merge: the first rows, round 1's, name no suit)."""
    from euchre_sim.sim import tables

    runs = []
    for workers, chunk, merge_rows in ((1, 500, None), (2, 170, None), (1, 300, 97)):
        if merge_rows:
            monkeypatch.setattr(tables, "MERGE_ROWS", merge_rows)
        out = tmp_path / f"w{workers}_{chunk}"
        run_cli(["simulate", "--deals", "1000", "--seed", "8", "--out", str(out), "--workers",
                 str(workers), "--chunk-size", str(chunk), "--no-progress", "--bidding", "rules"])
        runs.append({name: pd.read_parquet(out / f"{name}.parquet")
                     for name in ("decisions", "auction", "calls")})
    for name in runs[0]:
        for other in runs[1:]:
            pd.testing.assert_frame_equal(runs[0][name], other[name])


def test_resume_refuses_another_bidder(tmp_path):
    out = tmp_path / "run"
    run_cli(["simulate", "--deals", "200", "--seed", "1", "--out", str(out), "--no-progress",
             "--bidding", "dd"])
    bad = run_cli(["simulate", "--deals", "200", "--seed", "1", "--out", str(out),
                   "--no-progress", "--bidding", "rules", "--resume"], code=2)
    assert "different bidding" in bad.output


def test_decision_classes_read_the_hand_against_the_turned_down_card(tmp_path):
    """Round-2 decision rows of one class share the hand's holding in the turned-down suit."""
    out = tmp_path / "run"
    run_cli(["simulate", "--deals", "300", "--seed", "2", "--out", str(out), "--no-progress",
             "--bidding", "dd"])
    decisions = pd.read_parquet(out / "decisions.parquet")
    round2 = decisions[decisions["round"] == 2]
    assert round2["hand"].str.contains("down=").all()
    assert round2["hand"].str.endswith("t").all()  # the turned-down card is of the T suit
    per_class = round2.groupby(["seat", "hand_key"])["action"].agg(set)
    assert per_class.map(lambda actions: "pass" in actions).mean() > 0.9


def test_played_out_auction_plays_only_the_calls_it_reads(tmp_path):
    """--play rules with the rules bidder writes decisions and auction only, playing the calls
    the auction reads; the same tables as a run that plays every call (--tables with calls);
    so does --tables forced alone (it plays only the calls of round 2 after the forced pass;
    double dummy solves only round 2's);
    --keep-deals keeps every table; bad --tables are one line, exit 2."""
    base = ["simulate", "--deals", "300", "--seed", "4", "--workers", "1", "--no-progress",
            "--play", "rules", "--bidding", "rules", "--rules", "online"]
    run_cli(base + ["--out", str(tmp_path / "reached")])
    run_cli(base + ["--out", str(tmp_path / "forced"), "--tables", "forced"])
    run_cli(base + ["--out", str(tmp_path / "every"), "--tables",
                    "calls,decisions,auction,forced"])
    assert sorted(p.name for p in (tmp_path / "reached").glob("*.parquet")) == \
        ["auction.parquet", "decisions.parquet"]
    assert sorted(p.name for p in (tmp_path / "forced").glob("*.parquet")) == ["forced.parquet"]
    assert "auction" not in json.loads((tmp_path / "forced" / "run.json").read_text())
    assert (tmp_path / "every" / "calls.parquet").is_file()
    dd = base[:-6] + ["--play", "dd", "--bidding", "rules", "--rules", "online"]
    run_cli(dd + ["--out", str(tmp_path / "dd-forced"), "--tables", "forced"])
    run_cli(dd + ["--out", str(tmp_path / "dd-every"), "--tables", "decisions,forced"])
    for run, every_run, name in (("reached", "every", "decisions"),
                                 ("reached", "every", "auction"), ("forced", "every", "forced"),
                                 ("dd-forced", "dd-every", "forced")):
        reached = pd.read_parquet(tmp_path / run / f"{name}.parquet")
        every = pd.read_parquet(tmp_path / every_run / f"{name}.parquet")
        assert len(every) > 0
        pd.testing.assert_frame_equal(reached, every)
    run_cli(base + ["--out", str(tmp_path / "kept"), "--keep-deals"])
    assert (tmp_path / "kept" / "outcomes.parquet").is_file()
    for bad, message in ((["--tables", "calls,odds"], "--tables takes names"),
                         (["--tables", "auction", "--keep-deals"], "--keep-deals keeps")):
        result = run_cli(base + ["--out", str(tmp_path / "bad")] + bad, code=2)
        assert message in result.output and result.output.count("\n") == 1
    result = run_cli(["simulate", "--deals", "10", "--out", str(tmp_path / "nb"), "--tables",
                      "decisions"], code=2)
    assert "need a bidder" in result.output


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**40))
def test_forced_rows_play_every_call_the_forced_table_reads(name, seed):
    """On random deals of every rule set: the forced table from a call table of only the rows
    `forced_rows` marks equals the one from every row played (the conventional player)."""
    from euchre_sim.bidding.auction import FORCED_READS
    from euchre_sim.play.player import Player
    from euchre_sim.play.playout import Playout, play_deals
    from euchre_sim.sim.chunk import SIM_DEALER, decision_bytes, run_auctions

    rules = RULE_SETS[name]
    player = Player(bidder="rules", play="rules")
    hands, ups = deal_batch(rules, seed, 0, 40, SIM_DEALER)
    tables = []
    for reads in (0, FORCED_READS):
        calls = play_deals(rules, Playout(player, defence=True, reads=reads),
                           (hands, ups, SIM_DEALER), seed, 0)
        auctions = run_auctions(rules, player.record(), hands, ups, calls)[0]
        tables.append(decision_bytes(rules, hands, ups, auctions, forced=True))
    assert tables[0] == tables[1]

"""`tournament`: whole games against a plain-Python twin, duplicate fairness, the files, the
game-odds DP against direct play from a score, and reproducibility."""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pandas as pd
import pytest

from euchre_sim.bidding.params import HUMAN_FILE, PARAMS
from euchre_sim.core.cards import cards_of
from euchre_sim.core.dealing import deal_one
from euchre_sim.core.rules import build_rules
from euchre_sim.core.seats import SEAT_NAMES
from euchre_sim.game.tournament import (
    TournamentPlan,
    game_records,
    hand_frame,
    prepare_tournament,
)
from euchre_sim.play.player import Player

from . import naive
from .helpers import run_cli
from .interrupts import interrupted_twice
from .kernels import solve

PARAMS_BY_NAME = {key: default for key, default, _ in PARAMS}
# the conventional bidders' numbers: the human bidder's are the fitted file's, read here apart
with open(HUMAN_FILE, encoding="utf-8") as _file:
    WEIGHTS = {"rules": PARAMS_BY_NAME, "human": PARAMS_BY_NAME | json.load(_file)["params"]}


def _makers_tricks(rules, hands, upcard, dealer, call, j=None):
    """Makers' tricks of `call` = (round, position, trump, alone) under perfect play, lone
    defender j when given: the rules' seats and leader spelled out, the dealer's best discard
    tried card by card."""
    round_no, position, trump, alone = call
    maker = (dealer + position) % 4
    active = [True] * 4
    if alone:
        active[(maker + 2) % 4] = False
    if j is not None:
        defender = (dealer + (2 if position % 2 else 1) + 2 * j) % 4
        active[(defender + 2) % 4] = False
    first = (maker + 1) % 4 if alone and rules.lone_player_plays_last else (dealer + 1) % 4
    leader = next(s % 4 for s in range(first, first + 4) if active[s % 4])
    if round_no == 1 and active[dealer]:
        six = hands[dealer] | 1 << upcard
        options = [hands[:dealer] + [six & ~(1 << c)] + hands[dealer + 1:] for c in cards_of(six)]
        dealer_side = [solve(rules, h, trump, leader, active) for h in options]
        ns = max(dealer_side) if dealer % 2 == 0 else min(dealer_side)
    else:
        ns = solve(rules, hands, trump, leader, active)
    return ns if maker % 2 == 0 else 5 - ns


def _naive_wins(odds, us, them, we_deal_next, top):
    """The chance of the game after each result column (us 1..top, them 1..top, nobody)."""
    target = int(odds.index.get_level_values("us").max())

    def p(a, b):
        return float(odds.loc[(min(a, target), min(b, target), we_deal_next), "p_win"])

    return np.array([p(us + k, them) for k in range(1, top + 1)]
                    + [p(us, them + k) for k in range(1, top + 1)] + [p(us, them)])


def _naive_hand(rules, hands, upcard, dealer, bidders, score=(0, 0), frame=None, odds=None):
    """(call or None, lone defender j or None, makers' points) of one hand: each seat bids by
    its side's bidder (bidders[seat % 2]: "rules" and "human" read its hand with their own
    numbers (WEIGHTS), "table" and "game" the
    decisions `frame` (game: for the game from `score`, by the `odds`), "dd" maximises its
    side's points by backward induction over every outcome and every later seat's choice)."""
    from .test_bidding import _naive_table_choice
    @cache
    def outcome(round_no, position, trump, alone, j=None):
        return _makers_tricks(rules, hands, upcard, dealer, (round_no, position, trump, alone), j)

    def hand_at(position):
        return cards_of(hands[(dealer + position) % 4])

    def resolved(call):
        defenders = bidders[(dealer + call[1] + 1) % 2]
        if defenders == "dd":  # the others defend as the rules bidder
            points = naive.dd_defence(rules, outcome, call)
            if points == naive.call_points(rules, outcome(*call), call[3]):
                return points, None
            lone = [j for j in (1, 0)
                    if naive.call_points(rules, outcome(*call, j), call[3], True) == points]
            return points, lone[0]
        return naive.rules_defence(rules, WEIGHTS.get(defenders, PARAMS_BY_NAME), hand_at,
                                   upcard, outcome, call)

    turns = [(r, p) for r in (1, 2) for p in (1, 2, 3, 4)]
    choices = [None] * 8
    values = [0] * 9  # NS points from each turn on
    for k in range(7, -1, -1):
        round_no, position = turns[k]
        seat = (dealer + position) % 4
        side = 1 if seat % 2 == 0 else -1
        if bidders[seat % 2] in WEIGHTS:
            call = naive.rules_bidder_choice(rules, WEIGHTS[bidders[seat % 2]],
                                             hand_at(position), upcard, round_no, position)
        elif bidders[seat % 2] in ("table", "game"):
            wins = None
            if bidders[seat % 2] == "game":
                us, them = score if seat % 2 == 0 else score[::-1]
                wins = _naive_wins(odds, us, them, (dealer + 1) % 2 == seat % 2,
                                   rules.max_hand_points)
            call = _naive_table_choice(rules, frame, hands[seat], upcard, round_no, position,
                                       PARAMS_BY_NAME["table_min_n"], wins)
        else:
            stuck = round_no == 2 and position == 4 and rules.stick_the_dealer
            call, mine = None, None if stuck else side * values[k + 1]
            for trump, alone in naive.open_calls(rules, round_no, position, upcard):
                points = resolved((round_no, position, trump, alone))[0]
                if mine is None or points > mine:
                    call, mine = (round_no, position, trump, alone), points
        choices[k] = call
        values[k] = values[k + 1] if call is None else side * resolved(call)[0]
    call = next((c for c in choices if c is not None), None)
    if call is None:
        return None, None, 0
    points, j = resolved(call)
    return call, j, points


def naive_game(rules, seed, game, copy, bidders, start=(0, 0), first_dealer=None, frame=None,
               odds=None):
    """The hands of one game as (dealer, maker, trump, alone, lone defender seat, NS points,
    EW points), by plain Python: A (bidders[0]) holds NS in copy 0, EW in copy 1."""
    score = list(start)
    dealer = game % 4 if first_dealer is None else first_dealer
    by_side = bidders if copy == 0 else bidders[::-1]
    out = []
    for h in range(200):
        hands, upcard = deal_one(rules, seed, (game << 20) | h, dealer)
        call, j, points = _naive_hand(rules, hands, upcard, dealer, by_side, tuple(score), frame,
                                      odds)
        if call is None:
            out.append((dealer, -1, -1, False, -1, 0, 0))
        else:
            round_no, position, trump, alone = call
            maker = (dealer + position) % 4
            defender = -1 if j is None else (dealer + (2 if position % 2 else 1) + 2 * j) % 4
            gained = [0, 0]
            gained[maker % 2 if points > 0 else 1 - maker % 2] = abs(points)
            score = [score[0] + gained[0], score[1] + gained[1]]
            out.append((dealer, maker, trump, alone, defender, *gained))
        if max(score) >= rules.target:
            return out
        dealer = (dealer + 1) % 4
    raise AssertionError("game did not end")


def _job(rules, bidders, games=3, duplicate=True, start=(0, 0), dealer=-1, seed=5, table=None,
         odds=None):
    from euchre_sim.game.tournament import TournamentJob

    players = tuple(Player(b, "dd", weights=_weights(b), table=table) for b in bidders)
    return TournamentJob(rules.options(), seed, 0, 0, games, players, duplicate, start, dealer,
                         50, odds)


def _weights(bidder: str) -> tuple:
    """A player's bidder's numbers in PARAMS order (the defaults but for human)."""
    return tuple(WEIGHTS.get(bidder, PARAMS_BY_NAME)[key] for key, _, _ in PARAMS)


def _compare_with_twin(rules, job, bidders, **twin):
    records = game_records(job)
    got = pd.DataFrame(records[:, [0, 1, 3, 8, 9, 10, 11, 13, 14]],
                       columns=["game", "copy", "dealer", "maker", "trump", "alone", "defender",
                                "ns", "ew"])
    for (game, copy), rows in got.groupby(["game", "copy"]):
        want = naive_game(rules, job.seed, game, copy, bidders, job.start,
                          None if job.dealer < 0 else job.dealer, **twin)
        have = [(r.dealer, r.maker, r.trump, bool(r.alone), r.defender, r.ns, r.ew)
                for r in rows.itertuples()]
        assert have == want, (game, copy)


RULE_SETS = {
    "standard": build_rules("standard"),
    "stick_defend_alone_lone_last": build_rules("standard", (
        "stick_the_dealer=true", "defend_alone=true", "lone_player_plays_last=true")),
    "no_trump_32_cards": build_rules("standard", ("no_trump=true", "deck=32")),
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@pytest.mark.parametrize("bidders", [("rules", "rules"), ("dd", "rules"), ("human", "rules"),
                                     ("dd", "human")])
def test_games_match_the_plain_python_twin(name, bidders):
    rules = RULE_SETS[name]
    _compare_with_twin(rules, _job(rules, bidders, games=2), bidders)


@pytest.mark.parametrize("start", [(0, 0), (8, 9)])
def test_game_bidder_against_table_bidder_matches_the_twin(tmp_path, start):
    """The game bidder at every score of the games, by the decisions' result shares and the
    odds, against the table bidder: each seat's bid as the naive table twin makes it."""
    from euchre_sim.bidding.table import load_decision_table
    from euchre_sim.game.odds import odds_array

    rules = RULE_SETS["standard"]
    run = tmp_path / "run"
    run_cli(["simulate", "--deals", "3000", "--seed", "6", "--out", str(run), "--no-progress",
             "--bidding", "rules", "--workers", "1"])
    run_cli(["odds", "--from", str(run), "--out", str(run)])
    frame = pd.read_parquet(run / "decisions.parquet")
    odds = pd.read_parquet(run / "odds.parquet").set_index(["us", "them", "we_deal"])
    job = _job(rules, ("game", "table"), games=3, start=start, dealer=1,
               table=load_decision_table(str(run), rules),
               odds=odds_array(pd.read_parquet(run / "odds.parquet")))
    _compare_with_twin(rules, job, ("game", "table"), frame=frame, odds=odds)


def test_duplicate_copies_deal_the_same_cards_to_the_same_seats():
    rules = RULE_SETS["standard"]
    frame = hand_frame(rules, game_records(_job(rules, ("dd", "rules"), games=4)))
    both = frame.merge(frame, on=["game", "hand"], suffixes=("_0", "_1"))
    both = both[(both["copy_0"] == 0) & (both["copy_1"] == 1)]
    assert len(both) > 20
    assert (both["upcard_0"] == both["upcard_1"]).all()
    assert (both["dealer_0"] == both["dealer_1"]).all()
    # the same players in both seats give the same game: only the labels swap
    same = hand_frame(rules, game_records(_job(rules, ("rules", "rules"), games=4)))
    first, second = same[same["copy"] == 0], same[same["copy"] == 1]
    assert first.drop(columns="copy").reset_index(drop=True).equals(
        second.drop(columns="copy").reset_index(drop=True))


def test_from_score_and_dealer_start_every_game_there():
    rules = RULE_SETS["standard"]
    job = _job(rules, ("rules", "rules"), games=5, duplicate=False, start=(8, 9), dealer=2)
    frame = hand_frame(rules, game_records(job))
    firsts = frame[frame["hand"] == 0]
    assert (firsts["ns_before"] == 8).all() and (firsts["ew_before"] == 9).all()
    assert (firsts["dealer"] == "S").all()
    for _, rows in frame.groupby("game"):
        ns = 8 + rows["ns_points"].cumsum()
        ew = 9 + rows["ew_points"].cumsum()
        assert (ns.iloc[:-1] < 10).all() and (ew.iloc[:-1] < 10).all()
        assert max(ns.iloc[-1], ew.iloc[-1]) >= 10
        assert list(rows["dealer"]) == [SEAT_NAMES[(2 + i) % 4] for i in range(len(rows))]


def test_drinking_preset_counts_drinks_from_a_card_by_card_play():
    """Under the drinking rules every hand is played card by card (failed follows counted):
    each hand's drinks, summed over the seats, against a hand count of the eight rules."""
    rules = build_rules("drinking")
    job = _job(rules, ("rules", "rules"), games=3, duplicate=False)
    frame = hand_frame(rules, game_records(job))
    drinks = frame[[f"drinks_{s.lower()}" for s in SEAT_NAMES]].to_numpy()
    records = game_records(job)
    for i, row in frame.iterrows():
        failed = records[i, 15:19]
        if row["action"] is None:  # both rounds passed: rule 6 only
            assert list(drinks[i]) == [1, 1, 1, 1]
            continue
        maker = SEAT_NAMES.index(row["maker"])
        tricks = int(row["tricks"])
        points = row["ns_points"] + row["ew_points"]
        loner = maker if row["alone"] else -1
        total = (4 if row["action"] == "call" else 0)  # rule 6
        total += 3  # rule 1
        total += 2 * 5  # rule 2: each trick, the two losers
        total += int(failed.sum())  # rule 4
        total += 2 * points  # rule 3
        total += 8 if tricks < 3 else 0  # rule 7
        if loner >= 0:  # rule 8: the loner's extra at every event, then the endings
            total += 1  # the partner
            total += 2 if tricks >= 3 else 5
            events = (1 if row["action"] == "call" else 0) + (5 - tricks) + \
                int(failed[loner]) + (1 if tricks < 3 else 0) + (1 if tricks < 3 else 0)
            total += events
        assert drinks[i].sum() == total, (i, row.to_dict())


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("tournament") / "t"
    result = run_cli(["tournament", "--ns", "dd", "--ew", "rules", "--games", "60", "--seed",
                      "3", "--out", str(out), "--workers", "1", "--chunk-size", "20", "--json"])
    return out, json.loads(result.stdout)


def test_files_and_summary_agree(small_run):
    out, summary = small_run
    games = pd.read_parquet(out / "games.parquet")
    hands = pd.read_parquet(out / "hands.parquet")
    assert len(games) == 120 and summary["games"] == 120 and summary["pairs"] == 60
    assert set(games["winner"]) <= {"NS", "EW"}
    final = hands.groupby(["game", "copy"]).agg(
        ns=("ns_points", "sum"), ew=("ew_points", "sum"), n=("hand", "size"))
    assert (final["ns"].to_numpy() == games["ns_score"].to_numpy()).all()
    assert (final["n"].to_numpy() == games["hands"].to_numpy()).all()
    a_won = np.where(games["ns_player"] == "A", games["winner"] == "NS", games["winner"] == "EW")
    pairs = a_won.reshape(-1, 2).mean(axis=1)
    assert summary["a_win_rate"] == pytest.approx(pairs.mean())
    assert summary["a_win_rate_se"] == pytest.approx(pairs.std(ddof=1) / np.sqrt(60))


def test_workers_and_chunks_do_not_change_the_tables(small_run, tmp_path):
    out, _ = small_run
    run_cli(["tournament", "--ns", "dd", "--ew", "rules", "--games", "60", "--seed", "3",
             "--out", str(tmp_path / "b"), "--workers", "2", "--chunk-size", "7",
             "--no-progress"])
    for name in ("games", "hands"):
        pd.testing.assert_frame_equal(pd.read_parquet(out / f"{name}.parquet"),
                                      pd.read_parquet(tmp_path / "b" / f"{name}.parquet"))


def test_resume_refuses_other_players(small_run, tmp_path):
    run_cli(["tournament", "--games", "4", "--out", str(tmp_path / "r"), "--workers", "1",
             "--no-progress"])
    result = run_cli(["tournament", "--games", "4", "--ns", "dd", "--out", str(tmp_path / "r"),
                      "--resume"], code=2)
    assert "players" in result.output


def test_bad_from_score_is_one_line(tmp_path):
    result = run_cli(["tournament", "--games", "1", "--from-score", "10-3", "--out",
                      str(tmp_path / "x")], code=2)
    assert "--from-score" in result.output and "Traceback" not in result.output


def test_prepare_refuses_a_table_bidder_without_a_table(tmp_path):
    from euchre_sim.core.errors import UserError

    with pytest.raises(UserError):
        TournamentPlan(str(tmp_path / "t"), RULE_SETS["standard"], 1, 2,
                       (Player("table", "dd"), Player("rules", "dd")))


@pytest.fixture(scope="module")
def rules_odds(tmp_path_factory):
    """The odds DP of the rules bidder with double-dummy play, from 20,000 simulated deals."""
    out = tmp_path_factory.mktemp("odds") / "o"
    run_cli(["odds", "--out", str(out), "--deals", "20000", "--seed", "11", "--bidding",
             "rules", "--workers", "1"])
    return pd.read_parquet(out / "odds.parquet").set_index(["us", "them", "we_deal"])


@pytest.mark.parametrize("score,dealer", [((0, 0), "N"), ((6, 8), "E"), ((8, 9), "N"),
                                           ((9, 7), "W")])
def test_odds_dp_agrees_with_games_played_from_the_score(rules_odds, score, dealer, tmp_path):
    """The DP's chance for NS against NS's win rate in games played from that score by the
    same bidder and play (independent deals), within four combined standard errors."""
    out = tmp_path / "t"
    result = run_cli(["tournament", "--games", "3000", "--seed", "17", "--from-score",
                      f"{score[0]}-{score[1]}", "--dealer", dealer, "--no-duplicate",
                      "--out", str(out), "--workers", "1", "--json"])
    summary = json.loads(result.stdout)
    row = rules_odds.loc[(score[0], score[1], dealer in "NS")]
    combined = np.hypot(summary["ns_win_rate_se"], row["p_win_se"])
    assert abs(summary["ns_win_rate"] - row["p_win"]) < 4 * combined, (summary, row)
    games = pd.read_parquet(out / "games.parquet")
    assert (games["ns_start"] == score[0]).all() and (games["first_dealer"] == dealer).all()


def test_resume_after_an_interruption_gives_the_same_tables(small_run, tmp_path):
    """Only the first chunk finished (as if the run was stopped there): --resume plays the
    rest and the tables are those of the uninterrupted run."""
    from euchre_sim.game.tournament import compute_games
    from euchre_sim.runs.runner import store_chunk

    out, _ = small_run
    plan = prepare_tournament(TournamentPlan(str(tmp_path / "r"), RULE_SETS["standard"], 3, 60,
                                             (Player("dd", "dd"), Player("rules", "dd")),
                                             chunk_size=20))
    index, _, files = compute_games(next(plan.jobs()))
    store_chunk(plan.out_dir, plan.run_key, index, files)
    run_cli(["tournament", "--ns", "dd", "--ew", "rules", "--games", "60", "--seed", "3",
             "--out", str(tmp_path / "r"), "--workers", "1", "--resume", "--no-progress"])
    for name in ("games", "hands"):
        pd.testing.assert_frame_equal(pd.read_parquet(out / f"{name}.parquet"),
                                      pd.read_parquet(tmp_path / "r" / f"{name}.parquet"))


def test_each_player_plays_its_cards_by_its_own_model(tmp_path):
    """--ns-play/--ew-play: the model follows the player across the duplicate copies, and a
    conventional card player against double dummy changes the tricks of some hands (the same
    bidders, the same deals) while a hand's contracts stay the rules bidder's."""
    both = {}
    for name, plays in (("mixed", ["--ns-play", "rules", "--ew-play", "dd"]), ("dd", [])):
        run_cli(["tournament", "--games", "6", "--seed", "9", "--out", str(tmp_path / name),
                 "--workers", "1", "--no-progress", "--from-score", "0-0", "--dealer", "N",
                 *plays])
        both[name] = (pd.read_parquet(tmp_path / name / "games.parquet"),
                      pd.read_parquet(tmp_path / name / "hands.parquet"))
    games, hands = both["mixed"]
    assert (games.loc[games["copy"] == 0, ["ns_play", "ew_play"]] == ["rules", "dd"]).all().all()
    assert (games.loc[games["copy"] == 1, ["ns_play", "ew_play"]] == ["dd", "rules"]).all().all()
    first = hands[hands["hand"] == 0].set_index(["game", "copy"])
    plain = both["dd"][1]
    plain_first = plain[plain["hand"] == 0].set_index(["game", "copy"])
    assert (first["action"].fillna("") == plain_first["action"].fillna("")).all()
    assert (first["maker"].fillna("") == plain_first["maker"].fillna("")).all()
    assert (first["tricks"] != plain_first["tricks"]).any()


def test_two_quick_ctrl_c_stop_a_tournament(tmp_path):
    """As `simulate`'s (test_simulate): the first Ctrl-C stops the workers at once, the
    second 0.1 s later is ignored, and the run ends with 130 and its chunks kept."""
    out = tmp_path / "twice"
    err = interrupted_twice(["tournament", "--games", "200000", "--seed", "3", "--out", str(out),
                             "--workers", "2", "--chunk-size", "100", "--no-progress"], out)
    assert "Traceback" not in err and "--resume" in err.splitlines()[-1]

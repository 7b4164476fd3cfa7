"""Bidders that never call make no game end (issue 77, item 6): `odds` refuses them, and
`tournament` and `play` end with one line saying which game did not end and why (exit 2),
never a winner made up at the 1,000-hand cap. A game's summary with one pair writes no NaN."""

import json

import pytest

from euchre_sim.core.errors import UserError
from euchre_sim.core.rules import build_rules
from euchre_sim.game import selfplay
from euchre_sim.game.match import HANDS_PER_GAME

from .helpers import run_cli

# every threshold to call (or go alone) out of reach: the rules bidder passes every hand
NEVER = {key: 1e9 for key in ("call_1_1", "call_1_2", "call_1_3", "call_1_4", "call_2_1",
                              "call_2_2", "call_2_3", "call_2_4", "alone", "nt_call",
                              "nt_alone")}
UNFINISHED = (f"euchre-sim: error: game 1 did not end: after {HANDS_PER_GAME:,} hands neither "
              "side had reached 10 (NS 0 - EW 0; every hand was passed out: the bidders never "
              "call)")


@pytest.fixture
def never(tmp_path):
    path = tmp_path / "never.json"
    path.write_text(json.dumps(NEVER))
    return str(path)


def _lines(result) -> list[str]:
    return result.output.strip().splitlines()


def test_odds_refuses_bidders_that_never_call(never, tmp_path):
    out = tmp_path / "odds"
    result = run_cli(["odds", "--out", str(out), "--deals", "200", "--bidder-params", never,
                      "--workers", "1", "--no-progress"], code=2)
    assert _lines(result)[-1] == (
        f"euchre-sim: error: no odds from the auction table {str(out / 'auction.parquet')!r}: "
        "the bidders never called (all 200 deals were passed out), so no game would ever end")
    assert not (out / "odds.parquet").exists()


def test_a_tournament_of_bidders_that_never_call_names_the_game_that_did_not_end(never,
                                                                               tmp_path):
    out = tmp_path / "t"
    result = run_cli(["tournament", "--games", "1", "--bidder-params", never, "--out", str(out),
                      "--workers", "1", "--no-progress"], code=2)
    assert _lines(result) == [UNFINISHED]
    assert not (out / "games.parquet").exists() and not (out / "run.json").exists()


@pytest.mark.parametrize("output", [None, "hands.jsonl"])
def test_play_of_bidders_that_never_call_names_the_game_that_did_not_end(never, tmp_path,
                                                                         output):
    args = ["play", "--games", "2", "--ns", "rules", "--ew", "rules", "--bidder-params", never]
    if output:
        args += ["--output", str(tmp_path / output)]
    result = run_cli(args, code=2)
    assert _lines(result) == [UNFINISHED]  # no "game 1: NS 0 - EW 0", no winner
    assert list(tmp_path.iterdir()) == [tmp_path / "never.json"]  # nothing half written


def test_a_game_short_of_the_target_at_the_cap_is_an_error_with_its_score(monkeypatch):
    """With the cap at 3 hands, a game to 10 of bidders that call cannot end within it: the
    error gives the score the 3 hands played make, and says the bidders call too seldom."""
    monkeypatch.setattr(selfplay, "HANDS_PER_GAME", 3)
    rules = build_rules("standard")
    played = []
    with pytest.raises(UserError) as caught:
        for hand in selfplay.play_games(rules, 1, seed=4, strategy_names=("rules", "rules")):
            played.append(hand)
    assert len(played) == 3
    ns = sum(h.state.points()[0] for h in played)
    ew = sum(h.state.points()[1] for h in played)
    assert played[-1].score_after == [ns, ew] and max(ns, ew) < 10
    assert any(not h.state.passed_out for h in played)
    assert str(caught.value).startswith("game 1 did not end: after 3 hands")
    assert f"(NS {ns} - EW {ew}; the bidders call too seldom to finish a game)" in \
        str(caught.value)


def test_a_tournament_of_one_pair_writes_strict_json(tmp_path):
    """One duplicate pair has no spread to estimate A's win rate's error from: run.json
    holds null there, never NaN (which is no JSON)."""
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    out = tmp_path / "t"
    run_cli(["tournament", "--games", "1", "--out", str(out), "--workers", "1",
             "--no-progress"])
    summary = json.loads((out / "run.json").read_text(), parse_constant=refuse)["summary"]
    assert summary["pairs"] == 1 and summary["a_win_rate_se"] is None

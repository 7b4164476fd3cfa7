"""Games to 10: the odds DP against games played, playing for the game against playing for
points, and drinks per game by bidder.

Prints JSON:
- dp_vs_games: at several scores and first dealers, the DP's chance for NS (odds of a
  `simulate --bidding rules` run, double-dummy play) beside NS's win rate in games played from
  that score by the same bidder and play (`tournament --from-score --no-duplicate`), each with
  its standard error, and the difference in combined standard errors;
- game_vs_points: the game bidder against the table bidder it is built on, in duplicate: the
  table from `simulate --bidding table` reading a `--bidding rules` run (one policy-iteration
  step), the odds from that same table run; the game bidder's win rate with its 95 % interval
  and both sides' points per hand;
- drinks: under the drinking preset (conventional card play, so each hand is played card by
  card), mean drinks per game by seat and by player for rules against rules and dd against
  rules.
STUDY_DEALS (default 400,000), STUDY_GAMES (games per score, default 20,000), STUDY_PAIRS
(duplicate pairs, default 100,000) and STUDY_WORKERS (default: all cores) set the sizes.
"""

import json
import os
import tempfile
import time
from dataclasses import replace

import numpy as np

import euchre_sim
from euchre_sim.bidding.params import bidder_weights
from euchre_sim.core.rules import build_rules
from euchre_sim.game.tournament import (
    TournamentPlan,
    finish_tournament,
    prepare_tournament,
    run_tournament,
)
from euchre_sim.play.player import Player
from euchre_sim.report.query import run_odds
from euchre_sim.runs.cores import default_workers

DEALS = int(os.environ.get("STUDY_DEALS", "400000"))
GAMES = int(os.environ.get("STUDY_GAMES", "20000"))
PAIRS = int(os.environ.get("STUDY_PAIRS", "100000"))
WORKERS = int(os.environ.get("STUDY_WORKERS", default_workers()))
PARAMS = bidder_weights()
SCORES = [((0, 0), 0), ((4, 6), 1), ((6, 8), 0), ((8, 9), 0), ((8, 9), 1), ((9, 8), 3),
          ((9, 9), 2)]


def simulate(rules, out: str, seed: int, bidding: str, table_dir: str | None = None) -> None:
    """A run of DEALS deals bid by `bidding` (its default parameters: PARAMS) through the API."""
    euchre_sim.simulate(DEALS, out=out, seed=seed, rules=rules, workers=WORKERS,
                        bidding=bidding, bidder_table=table_dir)


def tournament(rules, out: str, seed: int, games: int, players, **options) -> dict:
    start = time.perf_counter()
    players = tuple(replace(p, weights=PARAMS) for p in players)
    plan = prepare_tournament(TournamentPlan(out, rules, seed, games, players, **options))
    run_tournament(plan, WORKERS, lambda n: None)
    return finish_tournament(plan, time.perf_counter() - start, WORKERS)


def dp_vs_games(rules, tmp: str) -> list[dict]:
    run = os.path.join(tmp, "rules")
    simulate(rules, run, 1, "rules")
    odds = run_odds(run)[1].set_index(["us", "them", "we_deal"])
    rows = []
    for i, ((ns, ew), dealer) in enumerate(SCORES):
        info = tournament(rules, os.path.join(tmp, f"score{i}"), 10 + i, GAMES,
                          (Player("rules", "dd"),) * 2, duplicate=False, start=(ns, ew),
                          dealer=dealer)
        s = info["summary"]
        dp = odds.loc[(ns, ew, dealer % 2 == 0)]
        combined = float(np.hypot(s["ns_win_rate_se"], dp["p_win_se"]))
        rows.append({"score": f"{ns}-{ew}", "first_dealer": "NESW"[dealer],
                     "dp_p_win": round(float(dp["p_win"]), 4),
                     "dp_se": round(float(dp["p_win_se"]), 4),
                     "games_ns_win_rate": round(s["ns_win_rate"], 4),
                     "games_se": round(s["ns_win_rate_se"], 4),
                     "difference_in_se": round((s["ns_win_rate"] - dp["p_win"]) / combined, 2)})
    return rows


def game_vs_points(rules, tmp: str) -> dict:
    first = os.path.join(tmp, "policy0")
    table = os.path.join(tmp, "policy1")
    simulate(rules, first, 2, "rules")
    simulate(rules, table, 3, "table", first)
    run_odds(table)[1].to_parquet(os.path.join(table, "odds.parquet"), index=False)
    info = tournament(rules, os.path.join(tmp, "game_vs_table"), 4, PAIRS,
                      (Player("game", "dd"), Player("table", "dd")), bidder_table=table,
                      odds_dir=table)
    s = info["summary"]
    return {"pairs": PAIRS, "game_bidder_win_rate": round(s["a_win_rate"], 4),
            "interval_95": [round(x, 4) for x in s["a_win_rate_95"]],
            "game_bidder_points_per_hand_over_table": round(s["a_points_per_hand"], 4),
            "points_per_hand_se": round(s["a_points_per_hand_se"], 4),
            "hands_per_game": round(s["hands_per_game"], 2),
            "seconds": info["elapsed_seconds"]}


def drinks(tmp: str) -> dict:
    rules = build_rules("drinking")
    out = {}
    for a in ("rules", "dd"):
        info = tournament(rules, os.path.join(tmp, f"drinks-{a}"), 5, max(1, GAMES // 10),
                          (Player(a, "rules"), Player("rules", "rules")))
        s = info["summary"]
        out[f"{a}_vs_rules"] = {"by_seat": {k: round(v, 2) for k, v in
                                            s["drinks_per_game_by_seat"].items()},
                                "by_player": {k: round(v, 2) for k, v in
                                              s["drinks_per_game_by_player"].items()},
                                "a_win_rate": round(s["a_win_rate"], 4)}
    return out


def main() -> None:
    rules = build_rules("standard")
    with tempfile.TemporaryDirectory() as tmp:
        result = {"deals": DEALS, "games_per_score": GAMES, "workers": WORKERS,
                  "dp_vs_games": dp_vs_games(rules, tmp),
                  "game_vs_points": game_vs_points(rules, tmp),
                  "drinks": drinks(tmp)}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

"""Whole games per second: the tournament's games kernel and the whole command, one core.

Prints JSON, medians of RUNS:
- kernel: games/s of `game_records` (duplicate pairs, both copies counted) for the rules bidder
  against itself and for the dd bidder against the rules bidder, double-dummy play;
- command: `tournament --play dd` (rules against rules) on one worker, start-up, Parquet and
  summary included;
- yardstick in the same run: the Python engine's self-play (its trump-counting strategy
  bidding, dd play: the way whole games were played before the kernel), games/s, and the
  kernel's speed-up over it.
BENCH_GAMES sets the duplicate pairs of the kernel and command runs (default 5,000).
"""

import json
import os
import shutil
import statistics
import tempfile
import time

from euchre_sim.core.rules import build_rules
from euchre_sim.game.selfplay import play_games
from euchre_sim.game.tournament import (
    TournamentJob,
    TournamentPlan,
    finish_tournament,
    game_records,
    prepare_tournament,
    run_tournament,
)
from euchre_sim.play.player import Player

RUNS = 3
GAMES = int(os.environ.get("BENCH_GAMES", "5000"))
YARDSTICK_GAMES = 10
RULES = build_rules("standard")


def kernel_rate(bidders: tuple, pairs: int) -> float:
    players = tuple(Player(b, "dd") for b in bidders)
    rates = []
    for r in range(RUNS):
        job = TournamentJob(RULES.options(), 100 + r, 0, 0, pairs, players, True, (0, 0), -1, 50)
        start = time.perf_counter()
        game_records(job)
        rates.append(2 * pairs / (time.perf_counter() - start))
    return statistics.median(rates)


def command_rate(tmp: str) -> float:
    rates = []
    for r in range(RUNS):
        out = os.path.join(tmp, f"t{r}")
        start = time.perf_counter()
        plan = prepare_tournament(TournamentPlan(out, RULES, r, GAMES,
                                                 (Player("rules", "dd"),) * 2))
        run_tournament(plan, 1, lambda n: None)
        finish_tournament(plan, time.perf_counter() - start, 1)
        rates.append(2 * GAMES / (time.perf_counter() - start))
        shutil.rmtree(out)
    return statistics.median(rates)


def selfplay_rate() -> float:
    rates = []
    for r in range(RUNS):
        start = time.perf_counter()
        for _ in play_games(RULES, YARDSTICK_GAMES, r, ("rules", "rules"), "dd"):
            pass
        rates.append(YARDSTICK_GAMES / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    game_records(TournamentJob(RULES.options(), 1, 0, 0, 2, (Player("dd", "dd"),
                                                            Player("rules", "dd")), True,
                               (0, 0), -1, 50))  # compile
    for _ in play_games(RULES, 1, 0, ("rules", "rules"), "dd"):
        pass
    rules_rate = kernel_rate(("rules", "rules"), GAMES)
    dd_rate = kernel_rate(("dd", "rules"), max(1, GAMES // 10))
    with tempfile.TemporaryDirectory() as tmp:
        command = command_rate(tmp)
    yardstick = selfplay_rate()
    print(json.dumps({
        "games_per_second_per_core": {
            "kernel_rules_vs_rules_dd_play": round(rules_rate),
            "kernel_dd_vs_rules_dd_play": round(dd_rate),
            "command_rules_vs_rules_dd_play": round(command)},
        "yardstick_python_selfplay_dd_play_games_per_second": round(yardstick, 2),
        "speedup_command_over_selfplay": round(command / yardstick, 1),
        "goal_games_per_second_per_core": 2000,
        "pairs": GAMES, "runs": RUNS}, indent=2))


if __name__ == "__main__":
    main()

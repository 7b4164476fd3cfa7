"""Speed of play advice and `review` (issue 28, item 6), one process (one core), warm cache.

- a 10-hand game (rules bidder, dd play, seed fixed) reviewed with K = 50: every bid, discard
  and card valued (goal: <= 10 s), in this process and as the command in a fresh one;
- one card advised from a seat's view with K = 200 worlds (goal: <= 1 s), on the opening lead
  and mid-hand;
- the yardstick in the same run: `advise` of a bid over 200 deals (the same number of solved
  deals as the card's worlds).
Medians of --repeat runs. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from euchre_sim.advice.advice_request import answer, ask_any
from euchre_sim.advice.review import ReviewSettings, review_hand
from euchre_sim.core.rules import build_rules
from euchre_sim.game.history import ReplayedHand, state_to_record
from euchre_sim.game.selfplay import play_games
from euchre_sim.play.player import Player

CARD_QUESTIONS = {
    "opening lead": {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1, "trump": "S",
                     "maker": 4},
    "trick 2, second to play": {"hand": "KS QH 9C TH", "up": "9S", "seat": 1, "trump": "S",
                                "maker": 4, "played": "AD KD 9D 9S / QC"},
}


def timed(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _review_command(game) -> None:
    """`euchre-sim review` of the hands, K = 50, as a user runs it (start-up included)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "game.jsonl")
        with open(path, "w", encoding="utf-8") as handle:
            for n, state in enumerate(game, 1):
                handle.write(json.dumps(state_to_record(state, n)) + "\n")
        subprocess.run([sys.executable, "-m", "euchre_sim.cli", "review", path, "--worlds",
                        "50", "--no-progress"], check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rules = build_rules("standard")
    game = [h.state for h in play_games(rules, 3, 11)][:10]
    settings = ReviewSettings(Player(worlds=50), seed=1)

    def review_game() -> int:
        return sum(1 for i, s in enumerate(game)
                   for _ in review_hand(ReplayedHand(s, [0] * 4), i, i, settings))

    decisions = review_game()  # warm: compiles once
    out = {"review": {"hands": len(game), "decisions": decisions, "worlds": 50,
                      "seconds": timed(review_game, args.repeat), "goal_seconds": 10},
           "review, the command in a fresh process": {
               "seconds": timed(lambda: _review_command(game), args.repeat),
               "goal_seconds": 10}}
    for name, fields in CARD_QUESTIONS.items():
        question = ask_any(rules, fields | {"worlds": 200})
        answer(question)
        out[f"card: {name}"] = {"worlds": 200, "seconds": timed(lambda q=question: answer(q),
                                                                args.repeat * 3),
                                "goal_seconds": 1}
    bid = ask_any(rules, {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1, "deals": 200})
    answer(bid)
    out["yardstick: advise a bid, 200 deals"] = {
        "seconds": timed(lambda: answer(bid), args.repeat * 3)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

"""Complete random hands (deal, bid, play, score) per second on one core.

Prints JSON: the jitted engine and the pure-Python engine (the reference) in the same run,
medians of several runs after warm-up, and their ratio.
"""

import json
import random
import statistics
import time

from euchre_sim.core.dealing import deal_one
from euchre_sim.core.rules import build_rules
from euchre_sim.game.random_hands import random_hands
from euchre_sim.game.selfplay import play_hand
from euchre_sim.game.strategies import RandomStrategy

RUNS = 5
FAST_HANDS = 500_000
SLOW_HANDS = 2_000


def time_fast(rules, run: int) -> float:
    start = time.perf_counter()
    random_hands(rules, seed=run, start=0, count=FAST_HANDS)
    return FAST_HANDS / (time.perf_counter() - start)


def time_slow(rules, run: int) -> float:
    rng = random.Random(run)
    players = [RandomStrategy(rng)] * 4
    start = time.perf_counter()
    for i in range(SLOW_HANDS):
        hands, upcard = deal_one(rules, run, i, i % 4)
        play_hand(rules, i % 4, hands, upcard, players)
    return SLOW_HANDS / (time.perf_counter() - start)


def main() -> None:
    report = {}
    for preset, sets in (("standard", []), ("online", ["joker=true", "no_trump=true"])):
        rules = build_rules(preset, sets)
        random_hands(rules, 0, 0, 1000)  # warm-up (JIT)
        time_slow(rules, 0)
        fast = statistics.median(time_fast(rules, r) for r in range(RUNS))
        slow = statistics.median(time_slow(rules, r) for r in range(RUNS))
        report[preset + ("+" + ",".join(sets) if sets else "")] = {
            "jitted_hands_per_s": round(fast),
            "python_reference_hands_per_s": round(slow),
            "speedup": round(fast / slow, 1),
        }
    print(json.dumps({"benchmark": "engine", "runs": RUNS, "results": report}, indent=2))


if __name__ == "__main__":
    main()

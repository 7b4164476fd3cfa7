"""PIMC against PIMC in duplicate (a strength figure, not timed).

The rules bidder's contract of each of BENCH_MATCH random deals (default 2,000) is played out
twice by PIMC (BENCH_WORLDS worlds, default 50, both sides inferring from the auction under
the rules bidder): once with NS the player under test and EW the yardstick, once with the
seats swapped. The player under test stops a decision early once its best card is clear
(`play.pimc.CLEAR_Z` standard errors, or BENCH_CLEAR_Z); the yardstick always solves all its
worlds. Prints
JSON: the tested side's points per deal over the two plays (NS minus EW, halved), with its
95 % interval, and the worlds each side solved.
"""

import json
import os

from contract_play import duplicate_gains

from euchre_sim.core.rules import build_rules
from euchre_sim.core.stats import interval95, mean_se
from euchre_sim.play.net_weights import no_card_nets
from euchre_sim.play.pimc import CLEAR_Z, inference_of, new_pimc_work
from euchre_sim.play.player import Player

MATCH = int(os.environ.get("BENCH_MATCH", "2000"))
TESTED_Z = float(os.environ.get("BENCH_CLEAR_Z", str(CLEAR_Z)))  # the tested player's z
WORLDS = int(os.environ.get("BENCH_WORLDS", "50"))
SEED = 31


def duplicate(rules) -> dict:
    tested = new_pimc_work(inference_of(Player("rules").record()), no_card_nets(),
                           TESTED_Z)
    yardstick = new_pimc_work(inference_of(Player("rules").record()), no_card_nets(), 0.0)
    gains = duplicate_gains(rules, tested, yardstick, MATCH, SEED, WORLDS)
    mean, se = mean_se(gains)
    return {"deals_played": len(gains), "tested_points_per_deal": round(mean, 4),
            "interval_95": [round(x, 4) for x in interval95(mean, se)],
            "hands_differing": int((gains != 0).sum()),
            "worlds_tested": [int(x) for x in tested.inference.counters],
            "worlds_yardstick": [int(x) for x in yardstick.inference.counters]}


if __name__ == "__main__":
    print(json.dumps({"match": MATCH, "worlds": WORLDS, "clear_z": TESTED_Z,
                      "duplicate": duplicate(build_rules("standard"))}, indent=2))

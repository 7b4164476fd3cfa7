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

import numpy as np

from euchre_sim.bidding.conventional import conventional_choice
from euchre_sim.bidding.params import BIDDER_RULES, bidder_params
from euchre_sim.core.calls import row_call
from euchre_sim.core.dealing import deal_batch, deal_key, seed_to_u64
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.play.models import MODEL_PIMC
from euchre_sim.play.pimc import CLEAR_Z, inference_of, new_pimc_work
from euchre_sim.play.playout import played_call
from euchre_sim.solver.search import new_tt

MATCH = int(os.environ.get("BENCH_MATCH", "2000"))
TESTED_Z = float(os.environ.get("BENCH_CLEAR_Z", str(CLEAR_Z)))  # the tested player's z
WORLDS = int(os.environ.get("BENCH_WORLDS", "50"))
SEED = 31


def duplicate(rules) -> dict:
    tb = compile_rules(rules)
    params = bidder_params()
    tested = new_pimc_work(inference_of(BIDDER_RULES), TESTED_Z)
    yardstick = new_pimc_work(inference_of(BIDDER_RULES), 0.0)
    hands, ups = deal_batch(rules, SEED, 0, MATCH)
    tt = new_tt()
    gains = []
    for i in range(MATCH):
        call = next((row for k in range(8)
                     if (row := conventional_choice(tb, params, hands[i, (k % 4 + 1) % 4],
                                                    ups[i], k // 4 + 1, k % 4 + 1)) >= 0),
                    -1)
        if call < 0:
            continue  # passed out
        round_no, pos, trump, alone = (int(x) for x in row_call(call))
        if round_no == 1:
            trump = int(ups[i]) >> 3
        key = np.uint64(deal_key(seed_to_u64(SEED), np.uint64(i)))
        ns_points = []
        for works in ((tested, yardstick), (yardstick, tested)):
            tricks = played_call(MODEL_PIMC, tb, hands[i], ups[i], 0, round_no, trump, pos & 3,
                                 pos if alone else 0, 0, WORLDS, key, tt, works)
            points = int(tb.score[alone, 0, tricks])
            ns_points.append(points if pos % 2 == 0 else -points)
        gains.append((ns_points[0] - ns_points[1]) / 2)
    gains = np.array(gains, dtype=np.float64)
    se = gains.std(ddof=1) / np.sqrt(len(gains))
    return {"deals_played": len(gains), "tested_points_per_deal": round(gains.mean(), 4),
            "interval_95": [round(gains.mean() - 1.96 * se, 4),
                            round(gains.mean() + 1.96 * se, 4)],
            "hands_differing": int((gains != 0).sum()),
            "worlds_tested": [int(x) for x in tested[5][2]],
            "worlds_yardstick": [int(x) for x in yardstick[5][2]]}


if __name__ == "__main__":
    print(json.dumps({"match": MATCH, "worlds": WORLDS, "clear_z": TESTED_Z,
                      "duplicate": duplicate(build_rules("standard"))}, indent=2))

"""This PIMC against the PIMC of commit a58238a (issue 24's "today's"), in duplicate (a
strength figure, not timed).

The old package is imported beside this one (`old_package.old_module`); the play state's
layout is the same in both, so each side chooses from the view of its seat that the engine's
hand gives (`contract_play.engine_contract`: the package's engine plays the hand, each team's
cards from its side). The rules bidder's contract of each of BENCH_MATCH random deals
(default 2,000; standard rules, dealer N) is played out twice by PIMC with BENCH_WORLDS worlds
(default 50), every seat inferring from the auction under the rules bidder: the new player NS
and the old EW, then swapped (BENCH_SEED: the deals, default 41; BENCH_CLEAR_Z: the new side's
race, 0 for all worlds). Prints JSON: the new side's points per deal (NS minus EW, halved)
with its 95 % interval, the hands that differ, and each side's worlds.

    .venv/bin/python studies/pimc_versions.py
"""

import json
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from contract_play import engine_contract, maker_tricks, rules_contracts  # noqa: E402
from old_package import old_module  # noqa: E402

from euchre_sim.bidding.params import BIDDER_RULES  # noqa: E402 (the old commit's bidder id)
from euchre_sim.core.dealing import deal_batch, deal_key, seed_to_u64  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import compile_rules  # noqa: E402
from euchre_sim.core.stats import interval95, mean_se  # noqa: E402
from euchre_sim.play import pimc as new_pimc  # noqa: E402
from euchre_sim.play.net_weights import no_card_nets  # noqa: E402
from euchre_sim.play.player import Player  # noqa: E402
from euchre_sim.play.state import S_DEALER, Position  # noqa: E402
from euchre_sim.play.worlds import forget_hopeless  # noqa: E402
from euchre_sim.solver.search import new_tt  # noqa: E402

OLD_COMMIT = "a58238a"
MATCH = int(os.environ.get("BENCH_MATCH", "2000"))
WORLDS = int(os.environ.get("BENCH_WORLDS", "50"))
NEW_Z = float(os.environ.get("BENCH_CLEAR_Z", str(new_pimc.CLEAR_Z)))  # the new side's race
SEED = int(os.environ.get("BENCH_SEED", "41"))


class Side:
    """One version's PIMC player: its compiled rules, work, table and entry points."""

    def __init__(self, rules, pimc, compile_rules_of, new_tt_of, work):
        self.tb = compile_rules_of(rules)
        self.pimc = pimc
        self.tt = new_tt_of()
        self.work = work

    def begin(self):
        """A new contract: this version's PIMC forgets which seats had no agreeing world
        (`play_contract` does the same; the old commit kept nothing)."""
        if self.pimc is new_pimc:
            forget_hopeless(self.work.inference)

    def card(self, lay, hands, st, pm, seat, key):
        if self.pimc is new_pimc:  # positions and worlds as records (issue 57)
            return new_pimc.pimc_card(self.tb, Position(lay, hands, st, pm, seat),
                                      new_pimc.Worlds(WORLDS, key, False), self.tt, self.work)
        return self.pimc.pimc_card(self.tb, lay, hands, st, pm, seat, WORLDS, key, False,
                                   self.tt, self.work)

    def discard(self, lay, hands, st, pm, key):
        if self.pimc is new_pimc:
            return new_pimc.pimc_discard(self.tb, Position(lay, hands, st, pm, st[S_DEALER]),
                                         new_pimc.Worlds(WORLDS, key, False), self.tt,
                                         self.work)
        return self.pimc.pimc_discard(self.tb, lay, hands, st, pm, WORLDS, key, False, self.tt,
                                      self.work)


def main() -> dict:
    rules = build_rules("standard")
    old = {part: old_module(OLD_COMMIT, part)
           for part in ("play.pimc", "core.ruletables", "solver.search")}
    tb = compile_rules(rules)
    new_side = Side(rules, new_pimc, compile_rules, new_tt,
                    new_pimc.new_pimc_work(new_pimc.inference_of(Player("rules").record()),
                                           no_card_nets(), NEW_Z))
    old_side = Side(rules, old["play.pimc"], old["core.ruletables"].compile_rules,
                    old["solver.search"].new_tt,
                    old["play.pimc"].new_pimc_work(old["play.pimc"].inference_of(BIDDER_RULES)))
    hands, ups = deal_batch(rules, SEED, 0, MATCH)
    gains = []
    for i, (round_no, pos, trump, alone) in zip(*rules_contracts(tb, hands, ups), strict=True):
        key = np.uint64(deal_key(seed_to_u64(SEED), np.uint64(i)))
        ns_points = []
        for sides in ((new_side, old_side), (old_side, new_side)):
            new_side.begin()
            tricks = maker_tricks(engine_contract(rules, hands[i], ups[i],
                                                  (round_no, pos, trump, alone), sides, key))
            points = int(tb.score[alone, 0, tricks])
            ns_points.append(points if pos % 2 == 0 else -points)
        gains.append((ns_points[0] - ns_points[1]) / 2)
    gains = np.array(gains, dtype=np.float64)
    mean, se = mean_se(gains)
    return {"old_commit": OLD_COMMIT, "match": MATCH, "worlds": WORLDS, "new_clear_z": NEW_Z,
            "deals_played": len(gains), "new_points_per_deal": round(mean, 4),
            "interval_95": [round(x, 4) for x in interval95(mean, se)],
            "hands_differing": int((gains != 0).sum()),
            "worlds_new": [int(x) for x in new_side.work.inference.counters],
            "worlds_old": [int(x) for x in old_side.work[5][2]]}  # its positional tuple


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))

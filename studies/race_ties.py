"""What stopping on ties would cost PIMC, estimated offline (a strength figure, not timed).

PIMC's race keeps a card that has tied with the leader in every world so far, so a decision
whose candidates all tie runs to its K worlds. The variant measured here drops such a card
once it has tied in every one of T worlds (the leader is then the conventional card among
them), for each T of BENCH_TIES (default 20,25,30,40). The rules bidder's contract of each of
BENCH_MATCH random deals (default 150, BENCH_SEED 7) is played out by PIMC (K = 50, every seat
inferring under the rules bidder); at each card decision with a choice, every candidate's
points in 50 worlds are solved once (`play.pimc.option_values`), the race and each variant
are replayed on them (`play.pimc.race_survivors`), and where a variant picks another card than
the race, both cards are judged on 300 fresh worlds of the seat. Prints JSON: the worlds each
rule solves and, per variant, the decisions it changes and its points lost per deal (both
sides' decisions; a duplicate match loses about half of it per deal).

    .venv/bin/python studies/race_ties.py
"""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from contract_play import engine_contract, rules_contracts  # noqa: E402

from euchre_sim.core.dealing import deal_batch, deal_key, seed_to_u64  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import compile_rules  # noqa: E402
from euchre_sim.play import pimc  # noqa: E402
from euchre_sim.play.conventional import conventional_card  # noqa: E402
from euchre_sim.play.net_weights import no_card_nets  # noqa: E402
from euchre_sim.play.player import Player  # noqa: E402
from euchre_sim.play.state import S_DEALER, S_MAKER, Position, settled  # noqa: E402
from euchre_sim.play.worlds import forget_hopeless  # noqa: E402
from euchre_sim.solver.search import new_tt  # noqa: E402

MATCH = int(os.environ.get("BENCH_MATCH", "150"))
SEED = int(os.environ.get("BENCH_SEED", "7"))
TIES = [int(t) for t in os.environ.get("BENCH_TIES", "20,25,30,40").split(",")]
WORLDS = 50
JUDGE_WORLDS = 300


def race_pick(values, maximize, cands, preferred, ties):
    """(index picked, worlds used) by `_best_over_worlds`' race on these worlds' points, and,
    with `ties`, a card tied with the leader in every one of at least `ties` worlds dropped."""
    n = values.shape[1]
    sums = np.zeros(pimc.MAX_CANDIDATES, dtype=np.int64)
    cross = np.zeros((pimc.MAX_CANDIDATES, pimc.MAX_CANDIDATES), dtype=np.int64)
    alive = (1 << n) - 1
    for w in range(WORLDS):
        live = [i for i in range(n) if (alive >> i) & 1]
        for i in live:
            sums[i] += values[w, i]
            for j in live:
                cross[i, j] += values[w, i] * values[w, j]
        m = w + 1
        if m >= pimc.FIRST_LOOK and m % pimc.LOOK_EVERY == 0 and m < WORLDS:
            alive = pimc.race_survivors(pimc.Race(sums, cross, cands, n, preferred, maximize),
                                        alive, m, pimc.CLEAR_Z)
            if ties and m >= ties:
                alive = _without_ties(values[:m], alive, maximize, cands, preferred)
            if alive & (alive - 1) == 0:
                break
    sign = 1 if maximize else -1
    live = [i for i in range(n) if (alive >> i) & 1]
    top = max(sign * sums[i] for i in live)
    best = [i for i in live if sign * sums[i] == top]
    return next((i for i in best if cands[i] == preferred), best[0]), w + 1


def _without_ties(values, alive, maximize, cands, preferred):
    """`alive` less the cards equal to the leader (the preferred card among the best) in
    every world."""
    sign = 1 if maximize else -1
    live = [i for i in range(values.shape[1]) if (alive >> i) & 1]
    totals = {i: sign * values[:, i].sum() for i in live}
    best = [i for i in live if totals[i] == max(totals.values())]
    leader = next((i for i in best if cands[i] == preferred), best[0])
    for i in live:
        if i != leader and (values[:, i] == values[:, leader]).all():
            alive &= ~(1 << i)
    return alive


class Recorder:
    """A PIMC player (`contract_play.engine_contract`) that solves every candidate of each card
    decision in its 50 worlds, plays the race's card replayed on them (PIMC's own card for
    those worlds: `tests/test_play_models.py` ties the two), and judges the cards that the
    variants part on in fresh worlds of a work of their own (`probe`), so that nothing of
    the judging reaches the play."""

    def __init__(self, rules):
        self.tb = compile_rules(rules)
        self.tt = new_tt()
        self.work = pimc.new_pimc_work(pimc.inference_of(Player("rules").record()), no_card_nets())
        self.probe = pimc.new_pimc_work(pimc.inference_of(Player("rules").record()), no_card_nets())
        self.out = np.zeros((JUDGE_WORLDS, pimc.MAX_CANDIDATES), dtype=np.int64)
        self.worlds = {0: 0, **{t: 0 for t in TIES}}
        self.losses = {t: [] for t in TIES}

    def card(self, lay, hands, st, pm, seat, key):
        played = self._study(lay, hands, st, pm, seat, key)
        if played is not None:
            return played
        return pimc.pimc_card(self.tb, Position(lay, hands, st, pm, seat),
                              pimc.Worlds(WORLDS, key, False), self.tt, self.work)

    def discard(self, lay, hands, st, pm, key):
        return pimc.pimc_discard(self.tb, Position(lay, hands, st, pm, st[S_DEALER]),
                                 pimc.Worlds(WORLDS, key, False), self.tt, self.work)

    def _solve(self, lay, hands, st, pm, seat, worlds, key, work):
        n = pimc.option_values(self.tb, Position(lay, hands, st, pm, seat), False, 0,
                               pimc.Worlds(worlds, key, False), self.tt, work, self.out)
        return self.out[:worlds, :n].copy(), work.candidates[:n].copy()

    def _study(self, lay, hands, st, pm, seat, key):
        """The race's card for this decision, with the variants' worlds and losses counted
        (None: a decision without a choice, left to pimc_card)."""
        n = pimc.option_candidates(lay, hands, st, pm, seat, False, self.work.candidates)
        if n < 2 or settled(st):
            return None
        preferred = pimc.option_of(lay, hands, st, pm, seat,
                                   conventional_card(lay, hands, st, pm, seat))
        maximize = bool((seat & 1) == (st[S_MAKER] & 1))
        values, cands = self._solve(lay, hands, st, pm, seat, WORLDS, key, self.work)
        base, used = race_pick(values, maximize, cands, preferred, 0)
        self.worlds[0] += used
        picks = {}
        for t in TIES:
            picks[t], used = race_pick(values, maximize, cands, preferred, t)
            self.worlds[t] += used
        judged = None
        for t in TIES:
            loss = 0.0
            if picks[t] != base:
                if judged is None:
                    forget_hopeless(self.probe.inference)
                    judge, _ = self._solve(lay, hands, st, pm, seat, JUDGE_WORLDS,
                                           np.uint64(deal_key(key, np.uint64(99))), self.probe)
                    judged = judge.mean(axis=0) * (1 if maximize else -1)
                loss = float(judged[base] - judged[picks[t]])
            self.losses[t].append(loss)
        return int(cands[base])


def main() -> dict:
    rules = build_rules("standard")
    recorder = Recorder(rules)
    hands, ups = deal_batch(rules, SEED, 0, MATCH)
    for i, (round_no, pos, trump, alone) in zip(*rules_contracts(recorder.tb, hands, ups),
                                                strict=True):
        key = np.uint64(deal_key(seed_to_u64(SEED), np.uint64(i)))
        forget_hopeless(recorder.work.inference)  # a new contract, as play_contract starts one
        engine_contract(rules, hands[i], ups[i], (round_no, pos, trump, alone),
                        (recorder, recorder), key)
    decisions = len(recorder.losses[TIES[0]])
    report = {"deals": MATCH, "seed": SEED, "decisions": decisions,
              "worlds_race": recorder.worlds[0]}
    for t in TIES:
        losses = np.array(recorder.losses[t])
        report[f"drop_ties_after_{t}"] = {
            "worlds": recorder.worlds[t],
            "worlds_saved": round(1 - recorder.worlds[t] / recorder.worlds[0], 3),
            "decisions_changed": int((losses != 0).sum()),
            "points_lost_per_deal": round(losses.sum() / MATCH, 4),
            "se": round(float(np.sqrt((losses ** 2).sum())) / MATCH, 4)}
    return report


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))

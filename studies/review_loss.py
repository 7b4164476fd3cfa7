"""Points a card player loses per hand against double dummy, when all four seats play by it
(issue 28): hands self-played with the rules bidder and the model, then every card and discard
reviewed with the true deal solved (`review --kinds discard,card`). Prints JSON.

    python studies/review_loss.py --hands 1000
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from euchre_sim.advice.review import ReviewSettings, review_hand
from euchre_sim.core.rules import build_rules
from euchre_sim.core.stats import mean_se
from euchre_sim.game.history import ReplayedHand
from euchre_sim.game.selfplay import play_games
from euchre_sim.play.player import Player

MODELS = (("rules", None), ("pimc", 10), ("pimc", 50))


def played_hands(rules, model: str, worlds: int | None, hands: int, seed: int):
    """The first `hands` hands not passed out of games self-played by `model` at every seat."""
    out = []
    for hand in play_games(rules, 10_000, seed, strategy_names=("rules", "rules"), play=model,
                           worlds=worlds or 1):
        if not hand.state.passed_out:
            out.append(hand.state)
            if len(out) == hands:
                return out
    return out


def losses(states, seed: int) -> dict:
    """Mean dd points lost per hand (cards and discards; and by category), with errors."""
    settings = ReviewSettings(Player(worlds=2), seed=seed, kinds=("discard", "card"))
    per_hand = {c: np.zeros(len(states)) for c in ("discard", "lead", "follow")}
    for i, state in enumerate(states):
        for row in review_hand(ReplayedHand(state, [0] * 4), i, i, settings):
            per_hand[row["category"]][i] += row["dd_loss"]
    total = sum(per_hand.values())
    figures = {"per_hand": mean_se(total)}
    figures |= {c: mean_se(v) for c, v in per_hand.items()}
    return {k: {"mean": m, "se": se} for k, (m, se) in figures.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    args = parser.parse_args()
    rules = build_rules(args.rules)
    out = {"hands": args.hands, "rules": args.rules, "seed": args.seed, "models": {}}
    for model, worlds in MODELS:
        started = time.perf_counter()
        states = played_hands(rules, model, worlds, args.hands, args.seed)
        played = time.perf_counter() - started
        figures = losses(states, args.seed)
        name = model if worlds is None else f"{model} K={worlds}"
        out["models"][name] = figures | {"play_seconds": played,
                                         "review_seconds": time.perf_counter() - started - played}
        print(json.dumps({name: out["models"][name]}), flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()

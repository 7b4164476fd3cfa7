"""Do a play model's results stay the same when two suits that play alike swap names? (a
study, not a timed test.)

The atlas's classes merge suit-swapped twins (`core.handclass`): hands that differ only in
which of two suits that play alike is which. That is exact for double dummy; a model whose
inputs or ties depend on suit ids plays twins a little differently. Deals 0..DEALS-1 of seed
7 (dealer N) and each deal's twin, two suits swapped that play alike whatever is trump in
round 2 (Yooker: the first two suits other than the upcard's; a French deck: the two suits of
the other colour), are played out by the model (`play.playout.play_deals`, seed 5), and every
round-2 call of a deal is compared with the same call (its trump renamed) of the twin, by its
result: euchred, made or marched.

    .venv/bin/python studies/suit_symmetry.py [--rules standard|yooker|…] [--play learned]

Prints JSON: the calls compared and how many changed their result.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from euchre_sim.core.calls import call_row  # noqa: E402
from euchre_sim.core.dealing import deal_batch  # noqa: E402
from euchre_sim.core.rules import preset  # noqa: E402
from euchre_sim.play.player import Player  # noqa: E402
from euchre_sim.play.playout import Playout, play_deals  # noqa: E402

DEALS = int(os.environ.get("STUDY_DEALS", "300"))


def swapped_suits(rules, upcard: int) -> tuple[int, int]:
    """Two suits that play alike in round 2 whatever is named, given the turned-down card."""
    up_suit = upcard >> 3
    if rules.yooker:
        return tuple(s for s in range(4) if s != up_suit)[:2]
    return (0, 3) if up_suit in (1, 2) else (1, 2)  # the other colour (clubs and spades black)


def renamed(mask: int, names: list[int]) -> int:
    """A set of cards with suit s renamed names[s]."""
    out = 0
    for card in range(64):
        if mask >> card & 1:
            out |= 1 << ((names[card >> 3] << 3) | (card & 7))
    return out


def result(tricks: int) -> int:
    return 0 if tricks < 3 else 1 if tricks < 5 else 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--play", default="learned")
    args = parser.parse_args()
    rules = preset(args.rules)
    hands, ups = deal_batch(rules, 7, 0, DEALS, 0)
    playout = Playout(Player(play=args.play))
    compared = changed = 0
    for i in range(DEALS):
        names = list(range(8))
        a, b = swapped_suits(rules, int(ups[i]))
        names[a], names[b] = b, a
        twin_hands = np.array([renamed(int(h), names) for h in hands[i]], dtype=hands.dtype)
        twin_up = np.array([renamed(1 << int(ups[i]), names).bit_length() - 1], dtype=ups.dtype)
        calls = play_deals(rules, playout, (hands[i:i + 1], ups[i:i + 1], 0), 5, i)[0]
        twin = play_deals(rules, playout, (twin_hands[None, :], twin_up, 0), 5, i)[0]
        for pos in range(1, 5):
            for alone in range(2):
                for trump in range(4):
                    tricks = calls[call_row(2, pos, trump, alone)]
                    if tricks >= 0:
                        compared += 1
                        changed += result(tricks) != result(
                            twin[call_row(2, pos, names[trump], alone)])
    print(json.dumps({"rules": args.rules, "play": args.play, "deals": DEALS,
                      "round_2_calls": compared, "result_changed": changed,
                      "share_changed": changed / compared}, indent=1))


if __name__ == "__main__":
    main()

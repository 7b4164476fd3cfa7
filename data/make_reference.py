"""Rebuild data/solve_reference.jsonl: deals with their `solve` tables from brute force.

Run from the repository root: python data/make_reference.py
Each line: {"preset", "settings", "dealer", "deal", "table"}; the table rows are computed by
the plain minimax of tests/naive.py (no pruning, no tables), with the opening leader the rules
give, so the fast solver can be checked against an independent answer.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from euchre_sim.core.dealing import deal_one  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.seats import SEAT_NAMES  # noqa: E402
from tests.naive import brute_force_ns_tricks  # noqa: E402

CASES = [("standard", []), ("yooker", []), ("online", ["lone_player_plays_last=true"]),
         ("online", ["joker=true", "no_trump=true"]), ("standard", ["deck=32"]),
         ("drinking", ["deck=28", "joker=true"])]


def leader_for(dealer: int, active: list[bool], loner: int, lone_last: bool) -> int:
    seat = (loner + 1) % 4 if loner >= 0 and lone_last else (dealer + 1) % 4
    while not active[seat]:
        seat = (seat + 1) % 4
    return seat


def main() -> None:
    out_path = os.path.join(os.path.dirname(__file__), "solve_reference.jsonl")
    with open(out_path, "w", encoding="utf-8") as out:
        for n, (preset, settings) in enumerate(CASES):
            rules = build_rules(preset, settings)
            deck = rules.card_deck
            for k in range(2):
                dealer = (n + k) % 4
                hands, _ = deal_one(rules, 99, 10 * n + k, dealer)
                table = []
                for trump in rules.trump_choices:
                    for loner in (-1, 0, 1, 2, 3):
                        active = [True] * 4
                        if loner >= 0:
                            active[(loner + 2) % 4] = False
                        leader = leader_for(dealer, active, loner, rules.lone_player_plays_last)
                        ns = brute_force_ns_tricks(hands, trump, leader, active, rules.yooker)
                        table.append({"trump": deck.suit_name(trump),
                                      "alone": SEAT_NAMES[loner] if loner >= 0 else None,
                                      "leader": SEAT_NAMES[leader], "ns_tricks": ns,
                                      "ew_tricks": 5 - ns})
                out.write(json.dumps({"preset": preset, "settings": settings,
                                      "dealer": SEAT_NAMES[dealer],
                                      "deal": deck.format_deal(hands), "table": table}) + "\n")


if __name__ == "__main__":
    main()

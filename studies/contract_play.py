"""The contracts the studies play, through the package's own functions: the rules bidder's
contract of each deal (its auction, `game.match.auction_row`), a contract played by one play
model at a time in duplicate (`play.playout.play_contract`), and a contract played through
the engine (`game.engine`) with a Python player per team, for a study that seats two players
the package cannot name (an older version of it, a variant under study).

A Python player chooses from the kernels' view of its seat (`game.model_strategy.
state_arrays`): `discard(lay, hands, st, pm, key)` and `card(lay, hands, st, pm, seat, key)`
each return a power bit (`lay` the trump's layout, `hands` in power bits, `key` the
decision's own: decision k of a contract draws deal_key(key, k)).
"""

import numpy as np

from euchre_sim.bidding.auction import NO_WINS
from euchre_sim.core.calls import Contract, row_call
from euchre_sim.core.dealing import Deal, deal_batch, deal_key, seed_to_u64
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.core.seats import team_of
from euchre_sim.game.engine import HandState
from euchre_sim.game.match import auction_row
from euchre_sim.game.model_strategy import state_arrays
from euchre_sim.play.models import KERNEL_PIMC
from euchre_sim.play.player import Player
from euchre_sim.play.playout import new_play_work, play_contract
from euchre_sim.solver.search import new_tt


def rules_rows(tb, hands, ups) -> np.ndarray:
    """The call-table row of the rules bidder's contract of each deal (dealer N, -1: passed
    out), by the package's auction (`game.match.auction_row`)."""
    rules, odds = Player("rules").record(), np.zeros((1, 1, 2))
    return np.array([auction_row((rules, rules), tb, Deal(hands[i], ups[i], 0), 0, 0, odds,
                                 NO_WINS)[0]
                     for i in range(hands.shape[0])], dtype=np.int64)


def rules_contracts(tb, hands, ups):
    """The rules bidder's contract of each deal (dealer N), passed-out deals left out: (deal
    indices, (round, position, trump, alone) rows)."""
    rows = rules_rows(tb, hands, ups)
    kept = np.flatnonzero(rows >= 0)
    calls = []
    for i in kept:
        round_no, pos, trump, alone = (int(x) for x in row_call(rows[i]))
        calls.append((round_no, pos, int(ups[i]) >> 3 if round_no == 1 else trump, alone))
    return kept, np.array(calls, dtype=np.int64).reshape(-1, 4)


def duplicate_gains(rules, side_a, side_b, match: int, seed: int, worlds: int) -> np.ndarray:
    """Side A's points per deal against side B (PIMC works), teams swapped: the rules
    bidder's contract of each of `match` deals played out twice by PIMC
    (`play.playout.play_contract`), A as NS then as EW (NS minus EW, halved); passed-out
    deals are left out."""
    tb = compile_rules(rules)
    hands, ups = deal_batch(rules, seed, 0, match)
    tt = new_tt()
    gains = []
    for i, (round_no, pos, trump, alone) in zip(*rules_contracts(tb, hands, ups), strict=True):
        key = np.uint64(deal_key(seed_to_u64(seed), np.uint64(i)))
        ns_points = []
        for works in ((side_a, side_b), (side_b, side_a)):
            tricks = play_contract(new_play_work((KERNEL_PIMC, KERNEL_PIMC), tb, worlds, works),
                                   Deal(hands[i], ups[i], 0),
                                   Contract(round_no, trump, pos if alone else 0, 0), pos & 3,
                                   key, tt)
            points = int(tb.score[alone, 0, tricks])
            ns_points.append(points if pos % 2 == 0 else -points)
        gains.append((ns_points[0] - ns_points[1]) / 2)
    return np.array(gains, dtype=np.float64)


def engine_contract(rules, hands, upcard: int, contract, players, key) -> HandState:
    """The finished hand of a deal (card ids by seat, dealer N) in which `contract` (round,
    position, trump, alone) is called where the auction reaches it, every seat before it
    passing and nobody defending alone, each team's discard and cards by players[team]."""
    round_no, pos, trump, alone = (int(x) for x in contract)
    state = HandState(rules, 0, [int(h) for h in hands], int(upcard))
    while (state.round, state.position(state.turn)) != (round_no, pos):
        state.bid(next(b for b in state.legal_bids() if b.action == "pass"))
    state.bid(next(b for b in state.legal_bids() if b.action != "pass"
                   and b.suit == trump and b.alone == bool(alone)))
    tb, decisions = state.tables, 0

    def decided(choose, *seat):
        nonlocal decisions
        hp, st, pm = state_arrays(state)
        p = choose(tb.layout[trump], hp, st, pm, *seat,
                   np.uint64(deal_key(key, np.uint64(decisions))))
        decisions += 1
        return int(tb.power_card[trump, p])

    if state.phase == "discard":
        state.discard(decided(players[team_of(state.dealer)].discard))
    state.defend(None)
    while state.phase == "play":
        seat = state.turn
        state.play(seat, decided(players[team_of(seat)].card, seat))
    return state


def maker_tricks(state: HandState) -> int:
    """The makers' tricks of a finished hand."""
    return state.team_tricks()[team_of(state.maker)]

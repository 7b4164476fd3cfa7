"""Whole games bid and played by kernels (Numba): the engine of `tournament`.

A game runs to `target` from a starting score, the deal passing left and a passed-out hand
redealt by the next dealer. Each side has its bidder (`bidding`) and its card-play model
(`play`). Hand h of game g is deal (g << 20 | h) of the seed's counter-based generator, dealt
by that hand's dealer: the two copies of a duplicate pair see the same cards in the same
seats, with the sides' players swapped. A hand needs only the contract its auction reaches:
the rules and table bidders read their own hands, so only that contract is solved or played
out; a dd bidder (which bids knowing every outcome) needs the deal's whole call table.

Each hand is one record (HAND_FIELDS, int64) of the game's course.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..bidding.auction import (
    N_TURNS,
    NO_WINS,
    Auction,
    auction_choices,
    call_bidder_choice,
    defends_alone,
    first_call,
)
from ..bidding.params import BIDDER_DD, BIDDER_GAME
from ..core.calls import (
    BOTH_ROUNDS,
    N_CALLS,
    N_ROWS,
    WITH_DEFENCE,
    Contract,
    defence_open,
    defence_row,
    defender_position,
    row_call,
    turn_position,
)
from ..core.dealing import Deal, deal_into, deal_key
from ..core.errors import UserError
from ..core.jit import njit
from ..core.ruletables import RuleTables
from ..core.seats import left_of, seat_at, team_of
from ..play.models import KERNEL_SOLVER
from ..play.pimc import new_pimc_work
from ..play.playout import ALL_ROWS, call_play_contract, call_play_deal, new_play_work
from ..play.state import S_FAILED
from ..solver.calltable import call_analyze_deal, call_dealer_side_tricks
from ..solver.search import SolverTT, new_work
from .odds import result_wins

HAND_FIELDS = ("game", "copy", "hand", "dealer", "ns_before", "ew_before", "upcard", "round",
               "maker", "trump", "alone", "defender", "tricks", "ns_points", "ew_points",
               "failed_n", "failed_e", "failed_s", "failed_w")
(F_GAME, F_COPY, F_HAND, F_DEALER, F_NS_BEFORE, F_EW_BEFORE, F_UPCARD, F_ROUND, F_MAKER,
 F_TRUMP, F_ALONE, F_DEFENDER, F_TRICKS, F_NS_POINTS, F_EW_POINTS, F_FAILED) = range(16)
N_FIELDS = len(HAND_FIELDS)
# round 0: passed out (maker, trump, defender, tricks -1); failed_*: times each seat could not
# follow suit (counted only when the hand is played card by card)
# a game still short of the target after this many hands is not played on: no game is
# recorded without a winner reaching the target (`unfinished_game`: the command ends)
HANDS_PER_GAME = 1000


def unfinished_game(game: int, hands: int, ns: int, ew: int, target: int,
                    all_passed: bool) -> UserError:
    """The line of game `game` (from 1) still short of the `target` at NS `ns` - EW `ew`
    after its `hands` (HANDS_PER_GAME) hands, `all_passed` when every hand was passed out:
    the game is not recorded, and no winner made up."""
    why = "every hand was passed out: the bidders never call" if all_passed else \
        "the bidders call too seldom to finish a game"
    return UserError(f"game {game:,} did not end: after {hands:,} hands neither side had "
                     f"reached {target} (NS {ns} - EW {ew}; {why})")


class Match(NamedTuple):
    """What every game of a run shares, as the kernels read it: the compiled rules (`tb`), the
    deck's card ids (`deck_cards`), the `seed`, the `target`, every game's starting score
    (`ns_start`, `ew_start`) and first dealer (`first_dealer`; -1: seat g % 4 in game g),
    whether each game is played twice, the sides' players swapped (`duplicate`), whether
    every hand is played card by card, even where the solver's value would do (`card_play`:
    to count failed follows), PIMC's worlds per decision (`n_worlds`), the game bidder's odds
    p[us, them, we_deal] (`odds`) and the count of its results (`odds_results`: the decision
    table's result columns, 2 max_hand_points + 1), and the solver's transposition table
    (`tt`)."""

    tb: RuleTables
    deck_cards: np.ndarray
    seed: np.uint64
    target: int
    ns_start: int
    ew_start: int
    first_dealer: int
    duplicate: bool
    card_play: bool
    n_worlds: int
    odds: np.ndarray
    odds_results: int
    tt: SolverTT


class HandWork(NamedTuple):
    """A game's work buffers, used again by each of its hands: the solver's (`solver`,
    `solver.search.new_work`), the card play's (`cards`, `play.playout.PlayWork`: each side's
    model and card player's work, the hand's buffers), the hand's `auction`
    (`bidding.auction.Auction`) and the game bidder's chance of winning after each result
    (`wins`)."""

    solver: tuple
    cards: tuple
    auction: Auction
    wins: np.ndarray


@njit
def deal_index(game, hand):
    """The generator's index of hand `hand` of game `game` (self-play and tournaments)."""
    return np.uint64((game << 20) | hand)


@njit
def auction_row(players, tb, deal, ns, ew, odds, wins):
    """The row the rules, table and game bidders' auction reaches (-1: passed out) and the
    lone defender's position (0: none); players by side (team 0 NS: records, `play.player`).
    The game bidder plays for the game from the score (ns, ew) by the odds table (p[us, them,
    we_deal]); wins: its work buffer."""
    hands, upcard, dealer = deal
    ns_player, ew_player = players  # by field once: a record picked by a run-time index is
    #                                 copied whole
    bidders = (ns_player.bidder, ew_player.bidder)
    weights = (ns_player.weights, ew_player.weights)
    tables = (ns_player.table, ew_player.table)
    for k in range(N_TURNS):
        pos = turn_position(k)
        seat = seat_at(dealer, pos)
        team = team_of(seat)
        bidder = bidders[team]
        if bidder == BIDDER_GAME:
            us, them = (ns, ew) if team == 0 else (ew, ns)
            result_wins(odds, us, them, team_of(left_of(dealer)) == team,
                        (wins.shape[0] - 1) // 2, wins)
        row = call_bidder_choice(bidder, tb, weights[team], tables[team], hands[seat], upcard, k,
                            wins if bidder == BIDDER_GAME else NO_WINS)
        if row < 0:
            continue
        if defence_open(tb.flags):
            round_no, _, trump, _ = row_call(row)
            if round_no == 1:
                trump = upcard >> 3
            for j in range(2):
                if defends_alone(tb, weights[1 - team], deal, round_no, pos, trump, j):
                    return row, defender_position(pos, j)
        return row, 0
    return -1, 0


@njit
def play_hand(match, players, work, deal, ns, ew, key, rec):
    """Bid and play one hand of the `match` at the score (ns, ew), players by side (team 0
    NS: records, `play.player`), in the game's `work` buffers; fills rec[F_ROUND:] (the
    contract, tricks, points, failed follows)."""
    tb, tt = match.tb, match.tt
    upcard, dealer = deal.upcard, deal.dealer
    cards = work.cards
    both_dd = cards.models[0] == KERNEL_SOLVER and cards.models[1] == KERNEL_SOLVER
    if players[0].bidder == BIDDER_DD or players[1].bidder == BIDDER_DD:
        calls, contracts, choices, _ = work.auction
        if both_dd:
            call_analyze_deal(tb, deal, True, 0, BOTH_ROUNDS | WITH_DEFENCE, tt, work.solver,
                              calls)
        else:
            call_play_deal(cards, deal, key, 0, BOTH_ROUNDS | WITH_DEFENCE, ALL_ROWS, tt, calls)
        auction_choices(players, tb, deal, work.auction)
        k = first_call(choices, 0)
        row = choices[k] if k >= 0 else -1
        def_pos = contracts[row, 2] if row >= 0 else 0
    else:
        row, def_pos = auction_row(players, tb, deal, ns, ew, match.odds, work.wins)
    rec[F_FAILED:F_FAILED + 4] = 0
    if row < 0:
        rec[F_ROUND] = 0
        rec[F_MAKER] = rec[F_TRUMP] = rec[F_DEFENDER] = rec[F_TRICKS] = -1
        rec[F_ALONE] = rec[F_NS_POINTS] = rec[F_EW_POINTS] = 0
        return
    round_no, pos, trump, alone = row_call(row)
    if round_no == 1:
        trump = upcard >> 3
    maker = seat_at(dealer, pos)
    alone_pos = pos if alone else 0
    if both_dd and not match.card_play:
        contract = Contract(round_no, trump, alone_pos, def_pos)
        dealer_tricks = call_dealer_side_tricks(tb, deal, contract, True, team_of(maker), tt,
                                                work.solver)
        tricks = dealer_tricks if team_of(maker) == team_of(dealer) else 5 - dealer_tricks
    else:
        played = row if def_pos == 0 else defence_row(row, (def_pos - 1) // 2)
        tricks = call_play_contract(cards, deal, Contract(round_no, trump, alone_pos, def_pos),
                                    maker, deal_key(key, np.uint64(played)), tt)
        for s in range(4):
            rec[F_FAILED + s] = cards.st[S_FAILED + s]
    points = tb.score[alone, 1 if def_pos else 0, tricks]
    rec[F_ROUND] = round_no
    rec[F_MAKER] = maker
    rec[F_TRUMP] = trump
    rec[F_ALONE] = alone
    rec[F_DEFENDER] = seat_at(dealer, def_pos) if def_pos else -1
    rec[F_TRICKS] = tricks
    makers = points if points > 0 else 0
    defenders = -points if points < 0 else 0
    rec[F_NS_POINTS] = makers if team_of(maker) == 0 else defenders
    rec[F_EW_POINTS] = defenders if team_of(maker) == 0 else makers


@njit
def play_game(match, players, pws, game, copy, dealer, out):
    """Play game `game` of the `match` (copy 0 or 1 of its duplicate pair: the play keys
    differ) from the match's starting score with `dealer` dealing first; players and pws
    (their PIMC work) by side (team 0 NS). Writes one record per hand into out
    (HANDS_PER_GAME rows); returns the hands played."""
    deck_cards, seed, target = match.deck_cards, match.seed, match.target
    hands = np.zeros(4, dtype=np.uint64)
    deal_work = np.empty_like(deck_cards)
    auction = Auction(np.empty(N_ROWS, dtype=np.int8), np.zeros((N_CALLS, 3), dtype=np.int64),
                      np.zeros(N_TURNS, dtype=np.int64), np.zeros(N_TURNS + 1, dtype=np.int64))
    cards = new_play_work((players[0].play, players[1].play), match.tb, match.n_worlds, pws)
    work = HandWork(new_work(), cards, auction, np.zeros(match.odds_results))
    ns = match.ns_start
    ew = match.ew_start
    for h in range(HANDS_PER_GAME):
        index = deal_index(game, h)
        upcard = deal_into(deck_cards, seed, index, dealer, hands, deal_work)
        key = deal_key(deal_key(seed, index), np.uint64(copy))
        rec = out[h]
        rec[F_GAME] = game
        rec[F_COPY] = copy
        rec[F_HAND] = h
        rec[F_DEALER] = dealer
        rec[F_NS_BEFORE] = ns
        rec[F_EW_BEFORE] = ew
        rec[F_UPCARD] = upcard
        play_hand(match, players, work, Deal(hands, upcard, dealer), ns, ew, key, rec)
        ns += rec[F_NS_POINTS]
        ew += rec[F_EW_POINTS]
        dealer = left_of(dealer)
        if ns >= target or ew >= target:
            return h + 1
    return HANDS_PER_GAME


@njit
def play_games(match, players, inference, first_game, n_games, out, buffer):
    """Games first_game.. of the `match` (each twice, the sides' players swapped, when
    duplicate), one record per hand appended to out; returns the records written, or -1 when
    out is too small. players (records, `play.player`) and inference by player (0: the --ns
    player, 1: the --ew one)."""
    pws_a = new_pimc_work(inference[0], players[0].nets)
    pws_b = new_pimc_work(inference[1], players[1].nets)
    first_dealer = match.first_dealer
    n = 0
    for g in range(first_game, first_game + n_games):
        dealer = first_dealer if first_dealer >= 0 else g & 3
        for copy in range(2 if match.duplicate else 1):
            if copy == 0:
                seat_players = (players[0], players[1])
                pws = (pws_a, pws_b)
            else:
                seat_players = (players[1], players[0])
                pws = (pws_b, pws_a)
            played = play_game(match, seat_players, pws, g, copy, dealer, buffer)
            if n + played > out.shape[0]:
                return -1
            out[n:n + played] = buffer[:played]
            n += played
    return n

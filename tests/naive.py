"""Slow, obviously-correct references written straight from the rule texts (no tables)."""

import math

import numpy as np

from euchre_sim.core.cards import JOKER, card_rank, card_suit, cards_of

JACK = 4  # rank index of the jack in the French deck (7 8 9 T J Q K A)
ACE = 7
YOOKER_THREE = 2  # rank index of the 3 in the Yooker deck (1 2 3 4 5 6)
YOOKER_SIX = 5
NO_TRUMP = 4


def same_colour_suit(suit: int) -> int:
    """Clubs <-> spades (black), diamonds <-> hearts (red)."""
    return {0: 3, 3: 0, 1: 2, 2: 1}[suit]


def is_left_bower(card: int, trump: int, yooker: bool) -> bool:
    return (not yooker and trump != NO_TRUMP and card != JOKER
            and card_rank(card) == JACK and card_suit(card) == same_colour_suit(trump))


def effective_suit(card: int, trump: int, yooker: bool):
    """The suit a card follows as: the left bower and Benny are trumps; Benny in NT: none."""
    if card == JOKER:
        return None if trump == NO_TRUMP else trump
    if is_left_bower(card, trump, yooker):
        return trump
    return card_suit(card)


def trump_strength(card: int, trump: int, yooker: bool) -> int:
    """Higher is stronger, among trumps only."""
    if card == JOKER:
        return 100
    if yooker:
        return 50 if card_rank(card) == YOOKER_THREE else card_rank(card)
    if card_rank(card) == JACK:
        return 90 if card_suit(card) == trump else 80
    return card_rank(card)


def beats(challenger: int, best: int, led, trump: int, yooker: bool) -> bool:
    """Does `challenger` beat the card currently winning the trick?"""
    if trump == NO_TRUMP:
        if best == JOKER:
            return False
        if challenger == JOKER:
            return True
        return card_suit(challenger) == led and card_rank(challenger) > card_rank(best)
    c_trump = effective_suit(challenger, trump, yooker) == trump
    b_trump = effective_suit(best, trump, yooker) == trump
    if c_trump and not b_trump:
        return True
    if b_trump and not c_trump:
        return False
    if c_trump and b_trump:
        return trump_strength(challenger, trump, yooker) > trump_strength(best, trump, yooker)
    return (effective_suit(challenger, trump, yooker) == led
            and card_rank(challenger) > card_rank(best))


def trick_winner(cards: list[int], trump: int, yooker: bool) -> int:
    led = effective_suit(cards[0], trump, yooker)
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], led, trump, yooker):
            best = i
    return best


def legal_cards(hand: int, led_card, trump: int, yooker: bool) -> int:
    """Follow the led card's suit when able; Benny may not lead a no-trump hand unless alone."""
    cards = cards_of(hand)
    if led_card is None:
        if trump == NO_TRUMP and JOKER in cards and len(cards) > 1:
            cards = [c for c in cards if c != JOKER]
        return sum(1 << c for c in cards)
    led = effective_suit(led_card, trump, yooker)
    follow = [c for c in cards if effective_suit(c, trump, yooker) == led and led is not None]
    return sum(1 << c for c in (follow or cards))


def brute_force_ns_tricks(hands: list[int], trump: int, leader: int, active: list[bool],
                          yooker: bool, trick: tuple = ()) -> int:
    """NS tricks under perfect play: plain minimax over every legal card (memo on full state).

    `trick`: cards already played to the current trick, led by `leader` (then the value
    counts the current trick too)."""
    memo: dict = {}
    seats = [s for s in range(4) if active[s]]

    def order_from(first: int) -> list[int]:
        i = seats.index(first)
        return seats[i:] + seats[:i]

    def trick_value(hs: tuple, first: int) -> int:
        if hs[first] == 0:
            return 0
        key = (hs, first)
        if key not in memo:
            memo[key] = play(hs, order_from(first), [])
        return memo[key]

    def play(hs: tuple, order: list[int], played: list[int]) -> int:
        pos = len(played)
        if pos == len(order):
            winner = order[trick_winner(played, trump, yooker)]
            return (winner % 2 == 0) + trick_value(hs, winner)
        seat = order[pos]
        led = played[0] if played else None
        values = []
        for card in cards_of(legal_cards(hs[seat], led, trump, yooker)):
            rest = list(hs)
            rest[seat] &= ~(1 << card)
            values.append(play(tuple(rest), order, played + [card]))
        return max(values) if seat % 2 == 0 else min(values)

    start = tuple(h if active[s] else 0 for s, h in enumerate(hands))
    if trick:
        return play(start, order_from(leader), list(trick))
    return trick_value(start, leader)


def hand_class_parts(hand: int, trump: int, round_no: int, ref_card, yooker: bool,
                     deck) -> dict:
    """The hand class as readable parts, from the rule text: trumps by rank, the same-colour
    suit, the turned-down suit (round 2, when it is another suit), the other suits unordered,
    and the reference card. Returns {'T': str, 'N': str|None, 'D': str|None, 'O': sorted list,
    'ref': str}."""
    cards = cards_of(hand)

    def rank_name(card: int) -> str:
        return deck.card_name(card)[0]

    def trump_name(card: int) -> str:
        if card == JOKER:
            return "B"
        if not yooker and card_rank(card) == JACK:
            return "R" if card_suit(card) == trump else "L"
        return rank_name(card)

    def holding(suit_cards: list[int]) -> str:
        ordered = sorted(suit_cards, key=lambda c: -card_rank(c))
        return "".join(rank_name(c) for c in ordered) or "-"

    in_trump = [c for c in cards if effective_suit(c, trump, yooker) == trump]
    if trump == NO_TRUMP:
        in_trump = [c for c in cards if c == JOKER]
    t = "".join(trump_name(c) for c in sorted(in_trump, key=lambda c: -trump_strength(
        c, trump, yooker))) or "-"
    next_suit = None if yooker or trump == NO_TRUMP else same_colour_suit(trump)
    down_suit = None
    ref = None
    if ref_card is not None:
        ref_eff = effective_suit(ref_card, trump, yooker)
        if round_no == 1:
            ref = "up=" + trump_name(ref_card)
        elif ref_eff == trump:
            ref = "down=" + trump_name(ref_card) + "t"
        elif ref_eff == next_suit:
            ref = "down=" + rank_name(ref_card) + "n"
        else:
            ref = "down=" + rank_name(ref_card) + "x"
            down_suit = ref_eff
    by_suit = {s: [c for c in cards if effective_suit(c, trump, yooker) == s] for s in range(4)}
    others = [holding(by_suit[s]) for s in range(4) if s not in (trump, next_suit, down_suit)]
    return {"T": t, "N": holding(by_suit[next_suit]) if next_suit is not None else None,
            "D": holding(by_suit[down_suit]) if down_suit is not None else None,
            "O": sorted(others), "ref": ref}


def open_calls(rules, round_no: int, position: int, upcard: int) -> list[tuple[int, bool]]:
    """(trump, alone) open to a position, read straight from the rules texts: round 1 orders up
    the upcard's suit (not when Benny is turned up; Canadian loner: the dealer's partner only
    alone); round 2 names another suit, or no-trump where allowed (Benny names no suit)."""
    alones = (False, True) if rules.allow_alone else (False,)
    if round_no == 1:
        if upcard == JOKER:
            return []
        canadian = rules.canadian_loner and position == 2
        return [(card_suit(upcard), alone) for alone in alones if alone or not canadian]
    suits = [s for s in range(4) if upcard == JOKER or s != card_suit(upcard)]
    if rules.no_trump:
        suits.append(NO_TRUMP)
    return [(s, alone) for s in suits for alone in alones]


def call_points(rules, tricks: int, alone: bool, defender_alone: bool = False) -> int:
    """Points to the makers of a hand they took `tricks` of."""
    if tricks < 3:
        return -(rules.lone_defence_points if defender_alone else rules.euchre_points)
    if tricks < 5:
        return 1
    return rules.lone_march_points if alone else rules.march_points


def dd_defence(rules, outcome, call) -> int:
    """Points to the makers of `call` once the defenders, seeing everything, decide whether
    one defends alone (asked from the dealer's left; `outcome(*call, j)`: the makers' tricks
    against defender j alone): the later one goes alone when that costs the makers, the
    earlier one when that costs them more than what follows its pass."""
    alone = call[3]
    value = call_points(rules, outcome(*call), alone)
    if not rules.defend_alone:
        return value
    for j in (1, 0):
        lone = call_points(rules, outcome(*call, j), alone, True)
        value = min(value, lone)
    return value


def dd_auction(rules, outcome, upcard: int, dealer: int = 0):
    """The perfect-information auction by plain recursion: each seat in turn maximises its
    side's points knowing every call's outcome (`outcome(round, position, trump, alone[, j])`:
    the makers' tricks, against lone defender j when given) and that later seats do the same;
    a passed-out deal is worth 0; ties go to passing, then partnership over alone, then the
    lower trump. Returns (the calls chosen at every turn, (round, position, trump, alone) or
    None, and the NS value from each turn on)."""
    turns = [(r, p) for r in (1, 2) for p in (1, 2, 3, 4)]
    choices: list = [None] * 8
    values = [0] * 9
    for k in range(7, -1, -1):
        round_no, position = turns[k]
        side = 1 if (dealer + position) % 2 == 0 else -1  # NS points = side * my points
        stuck = round_no == 2 and position == 4 and rules.stick_the_dealer
        best, mine = None, None
        if not stuck:
            mine = side * values[k + 1]  # a pass: the rest of the auction
        for trump, alone in open_calls(rules, round_no, position, upcard):
            points = dd_defence(rules, outcome, (round_no, position, trump, alone))
            if mine is None or points > mine:
                best, mine = (round_no, position, trump, alone), points
        choices[k] = best
        values[k] = side * mine
    return choices, values


def rank_from_top(rules, card: int, trump: int) -> int:
    """0 for the best card of its suit (as it follows) in the deck, 1 for the next, ..."""
    yooker = rules.yooker
    suit = effective_suit(card, trump, yooker)
    same = [c for c in rules.card_deck.cards if effective_suit(c, trump, yooker) == suit]
    if trump != NO_TRUMP and suit == trump:
        same.sort(key=lambda c: -trump_strength(c, trump, yooker))
    else:
        same.sort(key=lambda c: -card_rank(c))
    return same.index(card)


def rules_bidder_value(rules, params: dict, hand: list[int], trump: int) -> float:
    """The conventional bidder's point count of a hand for a trump, from the README's table."""
    if trump == NO_TRUMP:
        value = 0.0
        for c in hand:
            rank = None if c == JOKER else rank_from_top(rules, c, trump)
            value += (params["nt_joker"] if c == JOKER else params["nt_ace"] if rank == 0
                      else params["nt_king"] if rank == 1 else 0.0)
        return _to_nano(value)
    trump_weights = [params["trump_1"], params["trump_2"], params["trump_3"], params["trump_4"]]
    value = 0.0
    trumps = [c for c in hand if effective_suit(c, trump, rules.yooker) == trump]
    for c in trumps:
        rank = rank_from_top(rules, c, trump)
        value += trump_weights[rank] if rank < 4 else params["trump_low"]
    for c in hand:
        if c not in trumps:
            rank = rank_from_top(rules, c, trump)
            value += params["off_ace"] if rank == 0 else params["off_king"] if rank == 1 else 0
    if trumps:
        plain = {effective_suit(c, trump, rules.yooker) for c in hand if c not in trumps}
        value += params["void"] * sum(1 for s in range(4) if s != trump and s not in plain)
    return _to_nano(value)


def _to_nano(value: float) -> float:
    """Values are compared to 1e-9 (docs/auction.md: a tie is a tie whatever the order of the
    sum)."""
    return math.floor(value * 1e9 + 0.5) / 1e9


def rules_bidder_choice(rules, params: dict, hand: list[int], upcard: int, round_no: int,
                        position: int):
    """The conventional bidder's call (round, position, trump, alone) or None, from the README."""
    def weight(card: int, trump: int) -> float:
        rank = rank_from_top(rules, card, trump)
        return [params["trump_1"], params["trump_2"], params["trump_3"],
                params["trump_4"]][rank] if rank < 4 else params["trump_low"]

    calls = open_calls(rules, round_no, position, upcard)
    if round_no == 1:
        if not calls:
            return None
        trump = card_suit(upcard)
        if position == 4:
            six = hand + [upcard]
            partner = alone_value = max(rules_bidder_value(rules, params, six[:i] + six[i + 1:],
                                                           trump) for i in range(6))
        else:
            alone_value = rules_bidder_value(rules, params, hand, trump)
            share = params["upcard_partner"] if position == 2 else -params["upcard_opponent"]
            partner = alone_value + share * weight(upcard, trump)
        if (trump, True) in calls and alone_value >= params["alone"]:
            return (1, position, trump, True)
        if (trump, False) in calls and partner >= params[f"call_1_{position}"]:
            return (1, position, trump, False)
        return None
    best = None
    for trump in sorted({t for t, _ in calls}):
        value = rules_bidder_value(rules, params, hand, trump)
        threshold = params["nt_call"] if trump == NO_TRUMP else params[f"call_2_{position}"]
        if best is None or value - threshold > best[0]:
            best = (value - threshold, trump, value)
    stuck = position == 4 and rules.stick_the_dealer
    if best is None or (best[0] < 0 and not stuck):
        return None
    _, trump, value = best
    alone_threshold = params["nt_alone"] if trump == NO_TRUMP else params["alone"]
    alone = (trump, True) in calls and value >= alone_threshold
    return (2, position, trump, alone)


def rules_defence(rules, params: dict, hand_at, upcard: int, outcome, call):
    """(points to the makers, lone defender j or None) of `call` when the conventional
    defenders decide, from the dealer's left: alone when the hand (the dealer's with the upcard
    taken and its cheapest card dropped) is worth params["defend_alone"] for the trump named.
    `hand_at(position)`: that position's dealt cards."""
    round_no, position, trump, alone = call
    if rules.defend_alone:
        for j in (0, 1):
            d_pos = (2 if position % 2 else 1) + 2 * j
            hand = hand_at(d_pos)
            if round_no == 1 and d_pos == 4:
                six = hand + [upcard]
                value = max(rules_bidder_value(rules, params, six[:i] + six[i + 1:], trump)
                            for i in range(6))
            else:
                value = rules_bidder_value(rules, params, hand, trump)
            if value >= params["defend_alone"]:
                return call_points(rules, outcome(*call, j), alone, True), j
    return call_points(rules, outcome(*call), alone), None
def class_features(hand: int, trump: int, yooker: bool) -> tuple[int, int, int, int, int]:
    """(trumps, right, left, off-suit aces, voids) read from the cards: trumps counts the
    bowers and Benny (in no-trump, Benny alone); right is the jack of trump (Yooker: the 3 of
    the power shape, its top card); left the jack of the same colour; an off-suit ace is the top
    plain card (Yooker: the 6) of a suit other than trump; a void a suit other than trump that
    the hand cannot follow."""
    cards = [c for c in cards_of(hand) if c != JOKER]
    if trump == NO_TRUMP:
        trumps = len(cards_of(hand)) - len(cards)
    else:
        trumps = sum(effective_suit(c, trump, yooker) == trump for c in cards_of(hand))
    top = YOOKER_THREE if yooker else JACK
    right = trump != NO_TRUMP and any(card_suit(c) == trump and card_rank(c) == top
                                      for c in cards)
    left = any(is_left_bower(c, trump, yooker) for c in cards)
    ace = YOOKER_SIX if yooker else ACE
    others = [s for s in range(4) if s != trump]
    aces = sum(card_suit(c) in others and card_rank(c) == ace for c in cards)
    voids = sum(all(effective_suit(c, trump, yooker) != s for c in cards) for s in others)
    return trumps, int(right), int(left), aces, voids


def call_label(rules, hand: list[int], upcard: int, round_no: int, trump: int) -> str:
    """The suit a call names, as the decisions table reads it against the upcard or the
    turned-down card: up, next (the same colour), other1, other2 ... (the remaining suits in
    the class key's order: by the mask of their cards' ranks from the top, 1 << rank, larger
    first, ties in suit order), NT."""
    if round_no == 1:
        return "up"
    if trump == NO_TRUMP:
        return "NT"
    ref = NO_TRUMP if upcard == JOKER else card_suit(upcard)
    nxt = None if ref == NO_TRUMP or rules.yooker else same_colour_suit(ref)
    if trump == nxt:
        return "next"

    def holding(suit: int) -> int:
        return sum(1 << rank_from_top(rules, c, ref) for c in hand
                   if c != JOKER and effective_suit(c, ref, rules.yooker) == suit)

    others = sorted((s for s in range(4) if s not in (ref, nxt)),
                    key=lambda s: -holding(s))
    return f"other{others.index(trump) + 1}"


def mlp_scores(layers, active) -> np.ndarray:
    """The learned player's net in float64, from its definition (three (weights[in, out],
    bias) layers, the weights as float32 keeps them): relu(b1 + sum of the active features'
    rows of W1), relu(.W2 + b2), .W3 + b3."""
    (w1, b1), (w2, b2), (w3, b3) = [(np.asarray(w, np.float32).astype(np.float64),
                                     np.asarray(b, np.float32).astype(np.float64))
                                    for w, b in layers]
    h1 = np.maximum(b1 + w1[list(active)].sum(axis=0), 0.0)
    h2 = np.maximum(h1 @ w2 + b2, 0.0)
    return h2 @ w3 + b3

"""The conventional player in lone hands (issue 24): how the loner trumps and draws trump
(conventions 10-11) and what the defenders owe a loner (12-13)."""

import itertools
import random

import numpy as np
import pytest

from euchre_sim.core.calls import seats_in_play
from euchre_sim.core.cards import cards_of
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.play.conventional import conventional_card, conventional_discard
from euchre_sim.play.state import (
    P_VOID,
    S_DISCARD,
    S_MAKER_TRICKS,
    S_TRICKS,
    S_TURN,
    StateStart,
    new_state,
    play_card,
)

from .naive import brute_force_ns_tricks, effective_suit, legal_cards, trump_strength

RULES = build_rules("standard")
TB = compile_rules(RULES)
DECK = RULES.card_deck


def _power(trump: int, cards: int) -> np.uint64:
    return np.uint64(sum(1 << int(TB.power_bit[trump, c]) for c in cards_of(cards)))


def _card(trump: int, p: int) -> str:
    return DECK.card_name(int(TB.power_card[trump, p]))


def _bit(trump: int, name: str) -> int:
    return int(TB.power_bit[trump, DECK.parse_card(name)])


# --- the loner's blunder of issue 24: JS KS QS TS 9S, AS turned up, position 3 alone ----------

LONER_HAND = "JS KS QS TS 9S"
DEALER = 0
LONER = 3  # position 3 from the dealer (seat 0); its partner, position 1, sits out


def _lone_order_up(rng: random.Random):
    """A random deal around the loner's hand, the dealer taking the AS, played out by the
    conventional player: (trick-1 cards by seat, the dealer's hand after its discard, final
    state)."""
    t = DECK.parse_suit("S")
    hand = DECK.parse_hand(LONER_HAND)
    up = DECK.parse_card("AS")
    rest = [c for c in DECK.cards if not (hand >> c) & 1 and c != up]
    rng.shuffle(rest)
    dealt = [sum(1 << c for c in rest[5 * k:5 * k + 5]) for k in range(3)]  # seats 0, 1, 2
    dealt[0] |= 1 << up
    active, leader = seats_in_play(DEALER, LONER, 0, False)
    hands = np.array([_power(t, dealt[0]), 0, _power(t, dealt[2]), _power(t, hand)],
                     dtype=np.uint64)
    st_, pm = new_state(StateStart(t, DEALER, LONER, 1, 0, active, leader, _bit(t, "AS"),
                                   np.uint64(0)))
    d = conventional_discard(TB.layout[t], hands, st_, pm)
    hands[DEALER] &= ~np.uint64(1 << d)
    st_[S_DISCARD] = d
    dealer_hand = int(hands[DEALER])
    trick = {}
    while st_[S_TRICKS] < 5:
        seat = int(st_[S_TURN])
        p = conventional_card(TB.layout[t], hands, st_, pm, seat)
        if st_[S_TRICKS] == 0:
            trick[seat] = p
        play_card(TB.layout[t], hands, st_, pm, p)
    return trick, dealer_hand, st_


def test_loner_ruffs_trick_one_with_its_lowest_trump_keeping_the_right_bower():
    """Second to play and void, the loner ruffs with the 9S: the JS would win this trick but
    leave K Q T 9 under the dealer's AS, a trick lost for certain."""
    lay = TB.layout[DECK.parse_suit("S")]
    rng = random.Random(3)
    ruffs = 0
    for _ in range(200):
        trick, _, _ = _lone_order_up(rng)
        led = trick[2]
        if not lay[led] & lay[_bit(3, "JS")]:  # an off suit led: the loner is void
            assert _card(3, trick[LONER]) == "9S"
            ruffs += 1
    assert ruffs > 150


def test_loner_marches_whenever_the_dealers_ace_falls_under_the_right_bower():
    """Hand-reasoned: the 9S ruff holds when the dealer follows trick 1, then the JS draws the
    AS and the left bower unless the dealer holds both; a trump lead is won by the JS and
    draws the AS (the dealer's only other trump is the left bower, which the leader led)."""
    t = DECK.parse_suit("S")
    lay = TB.layout[t]
    left = _bit(t, "JC")
    rng = random.Random(4)
    marches = []
    for _ in range(600):
        trick, dealer_hand, st_ = _lone_order_up(rng)
        led_suit = lay[trick[2]]
        if led_suit & lay[_bit(t, "JS")]:
            expected = True
        else:
            expected = bool(dealer_hand & led_suit) and not dealer_hand >> left & 1
        march = st_[S_MAKER_TRICKS] == 5
        assert march == expected
        marches.append(march)
    assert 0.3 < np.mean(marches) < 0.6


# --- brute force over small lone endgames --------------------------------------------------

N_SEAT, E_SEAT, W_SEAT = 0, 1, 3  # the loner sits N (its partner S is out); W leads a ruff
IN_PLAY = [True, True, False, True]


def _endgame(rng: random.Random, ruff: bool):
    """A lone endgame of n tricks whose every card out of the three hands is known to be out
    of play: the loner to lead, with trumps that draw the defenders' trumps from the top (its
    i-th highest above their i-th highest; weaker trumps may do better cashing side cards
    first, which the conventions do not try), or W to lead a plain suit the loner is void in,
    the loner holding a trump."""
    while True:
        t = rng.randrange(4)
        n = rng.randint(2, 4)
        cards = rng.sample(DECK.cards, len(DECK.cards))

        def suit(c, t=t):
            return effective_suit(c, t, False)

        if not ruff:
            hands = [cards[:n], cards[n:2 * n], cards[2 * n:3 * n]]
            mine, theirs = ([sorted((trump_strength(c, t, False) for c in h if suit(c) == t),
                                    reverse=True) for h in (hands[0], hands[1] + hands[2])])
            if theirs and len(mine) >= len(theirs) and all(map(int.__gt__, mine, theirs)):
                return t, n, [sum(1 << c for c in h) for h in hands], None
            continue
        led_suit = rng.choice([s for s in range(4) if s != t])
        loner = [c for c in cards if suit(c) != led_suit][:n]
        if not any(suit(c) == t for c in loner):
            continue
        rest = [c for c in cards if c not in loner]
        led = next(c for c in rest if suit(c) == led_suit)
        rest.remove(led)
        hands = [loner, rest[n - 1:2 * n - 1], rest[:n - 1]]
        return t, n, [sum(1 << c for c in h) for h in hands], led


def _choice(t: int, hands: list[int], led) -> int:
    """The conventional loner's card (a card id): N holds hands[0], E hands[1], W hands[2]."""
    lay = TB.layout[t]
    power = np.array([_power(t, hands[0]), _power(t, hands[1]), 0, _power(t, hands[2])],
                     dtype=np.uint64)
    everything = hands[0] | hands[1] | hands[2] | (1 << led if led is not None else 0)
    known_out = _power(t, DECK.mask & ~everything)
    st_, pm = new_state(StateStart(t, W_SEAT, N_SEAT, 1, 0, 0b1011,
                                   W_SEAT if led is not None else N_SEAT, -1, np.uint64(known_out)))
    if led is not None:
        power[W_SEAT] |= np.uint64(1 << _bit(t, DECK.card_name(led)))
        play_card(lay, power, st_, pm, _bit(t, DECK.card_name(led)))
    assert st_[S_TURN] == N_SEAT
    return int(TB.power_card[t, conventional_card(lay, power, st_, pm, N_SEAT)])


def _outcomes(t: int, hands: list[int], led) -> dict:
    """Each legal card's (fewest, most) loner tricks of the rest of the hand under perfect
    play, over every placement of the defenders' cards the loner cannot see."""
    first = W_SEAT if led is not None else N_SEAT
    w_size = bin(hands[2]).count("1")
    hidden = cards_of(hands[1] | hands[2])
    out = {}
    for card in cards_of(legal_cards(hands[0], led, t, False)):
        tricks = []
        for w_cards in itertools.combinations(hidden, w_size):
            w = sum(1 << c for c in w_cards)
            placed = [hands[0] & ~(1 << card), (hands[1] | hands[2]) & ~w, 0, w]
            played = (led, card) if led is not None else (card,)
            tricks.append(brute_force_ns_tricks(placed, t, first, IN_PLAY, False, played))
        out[card] = (min(tricks), max(tricks))
    return out


ENDGAMES = 100  # seeded small lone endgames of each kind (leads and ruffs)
MAX_SLIPS = 0.02  # the share the conventions may get wrong (rules of thumb, not a solver)


def _slip(t: int, n: int, hands: list[int], led) -> bool:
    """Does the loner's card break the property of the test below in this endgame?"""
    outcomes = _outcomes(t, hands, led)
    if len(outcomes) < 2:
        return False
    worst, best = outcomes[_choice(t, hands, led)]
    if any(b == n for _, b in outcomes.values()):
        return best < n or any((w >= worst and b >= best) and (w > worst or b > best)
                               for w, b in outcomes.values())
    return worst < max(w for w, _ in outcomes.values())


@pytest.mark.parametrize("ruff", [False, True])
def test_loner_rarely_gives_up_a_trick_or_the_march_that_another_card_keeps(ruff):
    """Leading with trumps that can draw, or ruffing (perfect play after the card, over every
    placement of the unseen cards): while some card keeps a march possible, the loner's card
    keeps it possible and no other card takes at least as many tricks in the worst placement
    and in the best, and more in one (the worst case alone is not the loner's aim: a low ruff
    that a void defender may overruff keeps the march that ruffing with the top trump gives
    up); once no card can march, no card guarantees more tricks. Conventions 10-11 are rules
    of thumb: they may miss in a few of the positions (MAX_SLIPS), no more."""
    slips = [seed for seed in range(ENDGAMES)
             if _slip(*_endgame(random.Random(seed), ruff))]
    assert len(slips) <= MAX_SLIPS * ENDGAMES, slips


# --- the defence against a loner -----------------------------------------------------------

def _defender_choice(deal: str, trump: str, leader: int, plays: list[str],
                     loner_voids: str = "") -> str:
    """The conventional card of the seat to play: N alone (S out), E and W defending."""
    t = DECK.parse_suit(trump)
    lay = TB.layout[t]
    dealt = DECK.parse_deal(deal)
    hands = np.array([_power(t, h) if s != 2 else 0 for s, h in enumerate(dealt)],
                     dtype=np.uint64)
    st_, pm = new_state(StateStart(t, W_SEAT, N_SEAT, 1, 0, 0b1011, leader, -1, np.uint64(0)))
    for suit in loner_voids:
        pm[P_VOID + N_SEAT] |= lay[_bit(t, "A" + suit)]
    for card in plays:
        play_card(lay, hands, st_, pm, _bit(t, card))
    return _card(t, conventional_card(lay, hands, st_, pm, int(st_[S_TURN])))


def test_defender_after_the_loner_wins_as_cheaply_as_it_can():
    # N (alone, hearts) leads KC; E holds AC 9C: only its partner is left to play, so AC wins
    deal = "N:JH AH KH KC 9S/AC 9C QH TD 9D/QS JS TS 9H AD/TC QC JD KD AS"
    assert _defender_choice(deal, "H", leader=0, plays=["KC"]) == "AC"


def test_defender_before_the_loner_plays_over_its_partners_beatable_card():
    # E leads 9D, W holds AD TD and the loner plays last: W plays the AD, not low
    deal = "N:JH AH KH KC 9S/9D 9C QH TC QC/QS JS TS 9H KD/AD TD JD AC AS"
    assert _defender_choice(deal, "H", leader=1, plays=["9D"]) == "AD"


def test_defender_throws_a_suit_the_loner_is_void_in_first():
    # N leads AS; E, void in spades and trumps, throws the TC (N has shown void in clubs),
    # not the 9D of its shortest suit
    deal = "N:JH AH KH AS 9S/QC KC TC 9D QD/QS JS TS 9H KD/9C JD AC TH AD"
    assert _defender_choice(deal, "H", leader=0, plays=["AS"], loner_voids="C") == "TC"


def test_defender_keeps_a_guarded_king_and_throws_a_spare_card():
    # E throws the 9D (AD needs no guard) and keeps KC 9C (the AC is unseen: KC needs one)
    deal = "N:JH AH KH AS 9S/KC 9C AD TD 9D/QS JS TS 9H KD/TC QC JD AC QD"
    assert _defender_choice(deal, "H", leader=0, plays=["AS"]) == "9D"

"""Jitted trick kernels on card ids: legal cards, the trick's winner, the next seat in play."""

from .jit import njit


@njit
def legal_mask(tables, trump, hand, led_suit):
    """Cards of `hand` that may be played; led_suit -1 when leading."""
    if led_suit < 0:
        allowed = hand & ~tables.lead_forbidden[trump]
        return allowed if allowed else hand
    follow = hand & tables.suit_mask[trump, led_suit]
    return follow if follow else hand


@njit
def trick_winner(tables, trump, cards, n_played):
    """Index into `cards` (play order, cards[0] led) of the card that wins the trick."""
    led = tables.eff_suit[trump, cards[0]]
    best = 0
    best_key = tables.win_key[trump, led, cards[0]]
    for i in range(1, n_played):
        key = tables.win_key[trump, led, cards[i]]
        if key > best_key:
            best = i
            best_key = key
    return best


@njit(inline="always")
def next_active(active, seat):
    """The next seat clockwise whose bit is set in `active` (the seats in play)."""
    seat = (seat + 1) & 3
    while not (active >> seat) & 1:
        seat = (seat + 1) & 3
    return seat

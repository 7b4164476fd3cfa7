"""Seats N E S W (0-3, clockwise), positions from the dealer's left and the partnerships NS
and EW. The seat arithmetic is jitted and inlined, for kernels and Python alike."""

from .errors import UserError
from .jit import njit

SEAT_NAMES = "NESW"
TEAM_NAMES = ("NS", "EW")


def parse_seat(token: str | int) -> int:
    """Seat index 0-3 from 'N', 'e', '2' or 3."""
    text = str(token).strip().upper()
    if text in SEAT_NAMES and len(text) == 1:
        return SEAT_NAMES.index(text)
    if text in ("0", "1", "2", "3"):
        return int(text)
    raise UserError(f"unknown seat {token!r} (use N E S W or 0-3)")


@njit(inline="always")
def seat_at(dealer, pos):
    """The seat at position `pos` from the dealer's left (1-4; 4 and 0 are the dealer): `pos`
    seats clockwise from `dealer`, whatever seat that is."""
    return (dealer + pos) & 3


@njit(inline="always")
def position_of(dealer, seat):
    """Position 1-4 of `seat` from the dealer's left (4: the dealer): `seat_at`'s inverse."""
    return ((seat - dealer - 1) & 3) + 1


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


@njit(inline="always")
def team_of(seat):
    """0 for NS, 1 for EW."""
    return seat & 1


def side_sign(seat: int) -> int:
    """NS points times this are `seat`'s side's (1 for NS, -1 for EW)."""
    return 1 if seat % 2 == 0 else -1


@njit(inline="always")
def partner_of(seat):
    return (seat + 2) & 3


@njit(inline="always")
def left_of(seat):
    """The next seat clockwise: the one that plays after `seat`."""
    return (seat + 1) & 3


@njit(inline="always")
def right_of(seat):
    """The seat before `seat` clockwise."""
    return (seat + 3) & 3

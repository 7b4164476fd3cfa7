"""PTN, the PBN-style text of TricksterCards' bots (TestBots/PTN.cs), read into SPEC hand
records. Tags `[Name "value"]` with data lines after them; one hand from each `[Event]`.
`[Deal "D:h h h h"]` gives the dealer and the hands clockwise from the dealer (suits S.H.D.C,
`-` an unknown hand); `[Auction "X"]` the bids from X, four a line (`Pass`, a suit, `NT`, with
`Alone` after it; `-` none); `[Play "X"]` the tricks, a line each, cards (suit then rank) in
seat order from X. PTN has no tag for the upcard or the discard: we read `[Upcard "S9"]` and
`[Discard "C9"]`."""

from __future__ import annotations

import re

from ..core.errors import UserError
from ..core.files import loads
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES, left_of, seat_at
from .notation import DealError, NotedDeal, contract, to_record, trick_winner

_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]$')
_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_PTN_SUITS = "SHDC"  # suit order of a PTN hand
_SIDES = {"N": 0, "E": 1, "S": 2, "W": 3}
# GameOptionsJson key -> the option it sets (and how), None: only its default is supported
_OPTIONS = {"gameOverScore": ("target", int), "allowNoTrump": ("no_trump", bool),
            "variation": None, "players": None}
_OPTION_DEFAULTS = {"variation": 0, "players": 4}


def is_ptn(text: str) -> bool:
    """Whether the text opens with a PTN tag (comments and blank lines aside)."""
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("%"):
            return bool(_TAG.match(line))
    return False


def _tags(text: str) -> list[tuple[str, str, list[str]]]:
    tags: list[tuple[str, str, list[str]]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        match = _TAG.match(line)
        if match:
            tags.append((match.group(1), match.group(2).replace('\\"', '"'), []))
        elif tags:
            tags[-1][2].append(line)
        else:
            raise UserError(f"not PTN: {line[:40]!r} before any tag")
    return tags


def _hands_of(tags) -> list[list[tuple[str, str, list[str]]]]:
    hands: list[list] = []
    for tag in tags:
        if tag[0] == "Event" or not hands or (tag[0] == "Deal" and any(
                t[0] == "Deal" for t in hands[-1])):
            hands.append([])
        hands[-1].append(tag)
    return [h for h in hands if any(t[0] == "Deal" for t in h)]


def ptn_rules(options_json: str, base: RuleSet) -> RuleSet:
    """`base` with a GameOptionsJson's options; one we cannot play raises UserError."""
    try:
        options = loads(options_json)
    except ValueError:
        raise UserError("PTN GameOptionsJson is not JSON") from None
    if not isinstance(options, dict):
        raise UserError("PTN GameOptionsJson must be an object")
    changes = {}
    for key, value in options.items():
        if key not in _OPTIONS:
            raise UserError(f"PTN game option {key!r} is not supported")
        if _OPTIONS[key] is None:
            if value != _OPTION_DEFAULTS[key]:
                raise UserError(f"PTN game option {key!r}={value!r} is not supported")
            continue
        option, kind = _OPTIONS[key]
        try:
            changes[option] = kind(value)
        except (TypeError, ValueError, OverflowError):
            raise UserError(f"PTN game option {key!r} takes a {kind.__name__}, got "
                            f"{value!r:.40}") from None
    return base.replace(**changes)


def read_ptn(text: str, base: RuleSet):
    """(rules, [(id, record or None, error or None) per hand]); the first GameOptionsJson sets
    the rules, a hand with other options is not read."""
    hands = _hands_of(_tags(text))
    if not hands:
        raise UserError("no PTN deal found (no [Deal] tag)")
    options = [tag[1] for hand in hands for tag in hand if tag[0] == "GameOptionsJson"]
    rules = ptn_rules(options[0], base) if options else base
    entries = []
    for index, hand in enumerate(hands, 1):
        tags = {name: (value, data) for name, value, data in hand}
        try:
            if "GameOptionsJson" in tags and tags["GameOptionsJson"][0] != options[0]:
                raise DealError("its GameOptionsJson differs from the file's first")
            deal = _noted(tags, rules)
            record = to_record(deal, index, rules)
            _check_columns(record, tags, rules)
            entries.append((index, record, None))
        except (DealError, UserError) as err:
            entries.append((index, None, f"hand {index}: {err}"))
    return rules, entries


def _side(text: str) -> int:
    side = text.strip().upper()
    if side not in _SIDES:
        raise DealError(f"side {text!r} is not N, E, S or W")
    return _SIDES[side]


def _card(token: str, rules: RuleSet) -> int:
    """A card in PTN's suit-then-rank form (or rank-then-suit), suit letter or symbol."""
    text = "".join(_SYMBOLS.get(ch, ch) for ch in token.strip()).upper()
    if len(text) == 2 and text[0] in _PTN_SUITS and text[1] not in _PTN_SUITS:
        text = text[1] + text[0]
    try:
        return rules.card_deck.parse_card(text)
    except UserError as err:
        raise DealError(str(err)) from None


def _noted(tags: dict, rules: RuleSet) -> NotedDeal:
    if "Upcard" not in tags:
        raise DealError("no [Upcard] tag (PTN does not record the upcard)")
    deal_text = tags["Deal"][0]
    if ":" not in deal_text:
        raise DealError(f"deal {deal_text!r} must start with the dealer's side, e.g. 'N:'")
    side, hands_text = deal_text.split(":", 1)
    dealer = _side(side)
    parts = hands_text.split()
    if len(parts) != 4:
        raise DealError(f"deal {deal_text!r} must give four hands")
    dealt = [0, 0, 0, 0]
    for offset, part in enumerate(parts):
        dealt[seat_at(dealer, offset)] = _hand(part, rules)
    upcard = _card(tags["Upcard"][0], rules)
    bids = _bids(tags, dealer, upcard, rules)
    noted = NotedDeal(dealer, upcard, bids, [], dealt=dealt)
    if "Discard" in tags:
        noted.discard = _card(tags["Discard"][0], rules)
    made = contract(noted)
    if made is not None and "Play" in tags:
        noted.tricks = _ordered_tricks(tags["Play"], made[1], rules)
    return noted


def _hand(part: str, rules: RuleSet) -> int:
    if part == "-":
        return 0
    suits = part.split(".")
    if len(suits) != 4:
        raise DealError(f"hand {part!r} must give four suits S.H.D.C")
    mask = 0
    for suit, ranks in zip(_PTN_SUITS, suits, strict=True):
        for rank in ranks:
            mask |= 1 << _card(suit + rank, rules)
    return mask


def _bids(tags: dict, dealer: int, upcard: int, rules: RuleSet) -> list[dict]:
    if "Auction" not in tags:
        raise DealError("no [Auction] tag")
    first, lines = tags["Auction"]
    if _side(first) != left_of(dealer):
        raise DealError(f"the auction starts at {first}, not at the dealer's left")
    bids = []
    for index, token in enumerate(" ".join(lines).split()):
        if token == "-":
            continue
        bid: dict = {"seat": SEAT_NAMES[seat_at(dealer, 1 + index)], "round": 1 + index // 4}
        word = "".join(_SYMBOLS.get(ch, ch) for ch in token)
        alone = word.lower().endswith("alone")
        suit = word[:-5] if alone else word
        if word.lower() == "pass":
            bid["action"] = "pass"
        elif suit.upper() in ("S", "H", "D", "C", "NT"):
            trump = rules.card_deck.parse_suit(suit)
            if bid["round"] == 1 and trump == upcard >> 3:
                bid |= {"action": "order_up"}
            else:
                bid |= {"action": "call", "suit": rules.card_deck.suit_name(trump),
                        "trump": trump}
            bid["alone"] = alone
        else:
            raise DealError(f"bid {token!r} is not a Euchre bid (Pass, a suit, NT, Alone)")
        bids.append(bid)
    return bids


def _columns(line: str, rules: RuleSet) -> list[int | None]:
    tokens = line.split()
    if len(tokens) != 4:
        raise DealError(f"play line {line!r} must give four seats (- for none)")
    return [None if t == "-" else _card(t, rules) for t in tokens]


def _ordered_tricks(play: tuple[str, list[str]], trump: int, rules: RuleSet) -> list[list[int]]:
    """Each line's cards in playing order: from the leader, who is X at first and then the
    winner of the trick before."""
    first = _side(play[0])
    leader = first
    tricks = []
    for line in play[1]:
        columns = _columns(line, rules)
        order = [seat_at(leader, k) for k in range(4)]
        seats = [s for s in order if columns[(s - first) % 4] is not None]
        cards = [columns[(s - first) % 4] for s in seats]
        if not cards:
            raise DealError(f"play line {line!r} has no card")
        tricks.append(cards)
        leader = seats[trick_winner(rules, trump, cards)]
    return tricks


def _check_columns(record: dict, tags: dict, rules: RuleSet) -> None:
    """The seats the rules give each card must be the PTN columns it was written in."""
    if "Play" not in tags or not record["tricks"]:
        return
    first = _side(tags["Play"][0])
    for number, (trick, line) in enumerate(zip(record["tricks"], tags["Play"][1],
                                               strict=False), 1):
        columns = _columns(line, rules)
        for play in trick["plays"]:
            seat = SEAT_NAMES.index(play["seat"])
            card = columns[(seat - first) % 4]
            if card is None or rules.card_deck.card_name(card) != play["card"]:
                raise DealError(f"trick {number}: {play['card']} is not in seat "
                                f"{play['seat']}'s column (who leads or who sits out "
                                f"differs from the rules)")

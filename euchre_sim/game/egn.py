"""Euchre Game Notation (EGN, NextSuit-Labs/euchre-game-notation): one game a JSON document,
read into SPEC hand records with the rule set its `ruleset` block means, and written back."""

from __future__ import annotations

from collections.abc import Callable

from ..core.cards import JOKER, card_rank, card_suit
from ..core.errors import UserError
from ..core.output import written
from ..core.rules import RuleSet
from ..core.ruletables import NO_TRUMP
from ..core.seats import SEAT_NAMES, TEAM_NAMES, seat_at
from .notation import DealError, NotedDeal, to_record

FILE_TYPE = "Euchre Game Notation"
VERSION = "1.6"
READ_VERSIONS = ("1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6")  # x.y, or x.y.z of them
_SUITS = "cdhs"  # EGN suit letters in our suit order (C D H S)
_CALLS = {"s": 3, "h": 2, "d": 1, "c": 0, "n": NO_TRUMP}


def _flag(name: str, option: str, invert: bool = False):
    def apply(value, rules: RuleSet) -> dict:
        if not isinstance(value, bool):
            raise UserError(f"EGN ruleset field {name!r} must be true or false, not {value!r}")
        return {option: value != invert}
    return apply


def _unsupported_if_true(name: str):
    def apply(value, rules: RuleSet) -> dict:
        if value:
            raise UserError(f"EGN ruleset field {name!r}={_json(value)} is not supported")
        return {}
    return apply


def _int_field(name: str, check) -> Callable:
    def apply(value, rules: RuleSet) -> dict:
        if not isinstance(value, int) or isinstance(value, bool):
            raise UserError(f"EGN ruleset field {name!r} must be a whole number, not {value!r}")
        result = check(value, rules)
        if result is None:
            raise UserError(f"EGN ruleset field {name!r}={value} is not supported")
        return result
    return apply


def _json(value) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value)


# EGN ruleset field -> (EGN default, how it sets our options)
RULESET_FIELDS = {
    "std": (True, _flag("std", "stick_the_dealer")),
    "min_rank": (9, _int_field("min_rank", lambda v, r: {"deck": 4 * (15 - v)}
                               if v in (7, 8, 9) else None)),
    "winning_score": (10, _int_field("winning_score", lambda v, r: {"target": v}
                                     if v > 0 else None)),
    "num_deals": (0, _int_field("num_deals", lambda v, r: {} if v == 0 else None)),
    "canadian": (False, _flag("canadian", "canadian_loner")),
    "loner_lead": ("LEFT_OF_DEALER", None),
    "loner_march_score": (4, _int_field("loner_march_score", lambda v, r:
                                        {"lone_march_points": v} if v >= 0 else None)),
    "loner_euchred_score": (2, _int_field("loner_euchred_score", lambda v, r:
                                          {} if v == r.euchre_points else None)),
    "defend_alone": (False, _flag("defend_alone", "defend_alone")),
    "farmers": (False, _unsupported_if_true("farmers")),
    "partners_best": (False, _unsupported_if_true("partners_best")),
    "go_under": (False, _unsupported_if_true("go_under")),
    "joker": (False, _flag("joker", "joker")),
    "num_players": (4, _int_field("num_players", lambda v, r: {} if v == 4 else None)),
    "allow_no_trump": (False, _flag("allow_no_trump", "no_trump")),
    "fast_break": (False, _unsupported_if_true("fast_break")),
    "four_trick_tokens": (False, _unsupported_if_true("four_trick_tokens")),
}
_LONER_LEAD = {"LEFT_OF_DEALER": False, "LEFT_OF_LONER": True}


def egn_rules(ruleset, base: RuleSet) -> RuleSet:
    """`base` with every EGN ruleset field set (EGN's default where the block omits one);
    an unknown field or a value we do not support raises UserError naming it."""
    if ruleset is None:
        ruleset = {}
    if not isinstance(ruleset, dict):
        raise UserError("EGN 'ruleset' must be an object")
    for name in ruleset:
        if name not in RULESET_FIELDS:
            raise UserError(f"EGN ruleset field {name!r} is not supported")
    changes: dict = {"yooker": False}
    for name, (default, apply) in RULESET_FIELDS.items():
        value = ruleset.get(name, default)
        if name == "loner_lead":
            if value not in _LONER_LEAD:
                raise UserError(f"EGN ruleset field 'loner_lead'={value!r} is not supported")
            changes["lone_player_plays_last"] = _LONER_LEAD[value]
        else:
            changes |= apply(value, base)
    return base.replace(**changes)


def rules_to_egn(rules: RuleSet) -> dict:
    """The EGN ruleset block of our rules; raises UserError for an option EGN cannot say."""
    for name, ok in (("yooker", not rules.yooker), ("march_points", rules.march_points == 2),
                     ("euchre_points", rules.euchre_points == 2),
                     ("lone_defence_points", rules.lone_defence_points == 4
                      or not rules.defend_alone),
                     ("renege_penalty", rules.renege_penalty == 0)):
        if not ok:
            raise UserError(f"EGN cannot record option {name}={getattr(rules, name)}")
    return {"std": rules.stick_the_dealer, "min_rank": 15 - rules.deck // 4,
            "winning_score": rules.target, "canadian": rules.canadian_loner,
            "loner_lead": "LEFT_OF_LONER" if rules.lone_player_plays_last else "LEFT_OF_DEALER",
            "loner_march_score": rules.lone_march_points,
            "loner_euchred_score": rules.euchre_points, "defend_alone": rules.defend_alone,
            "joker": rules.joker, "allow_no_trump": rules.no_trump}


def is_egn(document) -> bool:
    return isinstance(document, dict) and document.get("fileType") == FILE_TYPE


def read_egn(document: dict, base: RuleSet) -> tuple[RuleSet, list[tuple[int, dict | None,
                                                                            str | None]]]:
    """(rules, [(id, record or None, error or None) per deal]) of an EGN document; a document
    that is not EGN or a ruleset we cannot play raises UserError."""
    if not is_egn(document):
        raise UserError(f"not an EGN document (no \"fileType\": \"{FILE_TYPE}\")")
    _check_version(document.get("version"))
    metadata = document.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise UserError("EGN 'metadata' must be an object")
    rules = egn_rules(metadata.get("ruleset"), base)
    deals = document.get("deals")
    if not isinstance(deals, list):
        raise UserError("EGN 'deals' must be a list")
    game = _game(metadata)
    entries = []
    for index, raw in enumerate(deals, 1):
        number = raw.get("dealNumber", index - 1) if isinstance(raw, dict) else index - 1
        try:
            deal = _noted(raw, rules)
            deal.extra = game | {"deal": number}
            entries.append((index, to_record(deal, index, rules), None))
        except (DealError, UserError) as err:
            entries.append((index, None, f"hand {index}: deal {number}: {err}"))
    return rules, entries


def _check_version(version) -> None:
    """A UserError unless `version` is one READ_VERSIONS names (1.0 and 1.0.0 alike)."""
    parts = version.split(".") if isinstance(version, str) else []
    if not (len(parts) in (2, 3) and ".".join(parts[:2]) in READ_VERSIONS
            and (len(parts) == 2 or parts[2].isdigit())):
        raise UserError(f"EGN version {version!r:.20} is not one this reads ({READ_VERSIONS[0]} "
                        f"to {READ_VERSIONS[-1]})")


def _game(metadata: dict) -> dict:
    """The record keys that keep a game's metadata."""
    game = {k: metadata[k] for k in ("gameId", "title", "date") if k in metadata}
    for key in ("initialScore", "finalScore", "teamNames"):
        value = metadata.get(key)
        if isinstance(value, list) and len(value) == 2:
            game[key] = dict(zip(TEAM_NAMES, value, strict=True))
    extra = {"game": game}
    players = metadata.get("players")
    if isinstance(players, list) and len(players) == 4:
        extra["players"] = {SEAT_NAMES[s]: p.get("name") if isinstance(p, dict) else p
                            for s, p in enumerate(players)}
    return extra


def _noted(raw, rules: RuleSet) -> NotedDeal:
    if not isinstance(raw, dict) or not isinstance(raw.get("initialState"), dict):
        raise DealError("a deal must be an object with 'initialState'")
    state = raw["initialState"]
    dealer = state.get("dealer")
    if dealer not in (0, 1, 2, 3):
        raise DealError(f"dealer {dealer!r} is not a seat 0-3")
    upcard = parse_egn_card(state.get("upCard"), rules, None)
    phases = [p for p in raw.get("phases") or [] if isinstance(p, dict)]
    bidding = next((p for p in phases if p.get("type") == "EUCHRE_BIDDING"), None)
    play = next((p for p in phases if p.get("type") == "TRICK_PLAY"), None)
    if bidding is None:
        raise DealError("no bidding recorded")
    if bidding.get("cardExchanges"):
        raise DealError("card exchanges are not supported")
    alone = bool(bidding.get("isAlone") or (play or {}).get("isAlone"))
    bids, trump = _bids(bidding.get("calls") or [], dealer, upcard, alone, rules)
    discard = bidding.get("discard")
    defender = bidding.get("aloneDefender", -1)
    if defender not in (-1, 0, 1, 2, 3):
        raise DealError(f"aloneDefender {defender!r} is not a seat 0-3 or -1")
    dealt = [0, 0, 0, 0]
    known = state.get("playerCards", state.get("player_cards"))  # the EGN 1.0 name
    for seat, cards in enumerate((known or [])[:4]):
        for name in cards or []:
            dealt[seat] |= 1 << parse_egn_card(name, rules, None)
    tricks = [[parse_egn_card(c, rules, trump) for c in trick]
              for trick in (play or {}).get("tricks") or []]
    lead = (play or {}).get("initialLead")  # EGN 1.0: the first leader, else derived
    return NotedDeal(dealer, upcard, bids, tricks,
                     parse_egn_card(discard, rules, trump) if discard is not None else None,
                     defender if defender >= 0 else None, dealt,
                     first_leader=lead if lead in (0, 1, 2, 3) else None)


def _bids(calls: list, dealer: int, upcard: int, alone: bool,
          rules: RuleSet) -> tuple[list[dict], int | None]:
    """SPEC bids of EGN calls (clockwise from the dealer's left) and the trump they make."""
    bids, trump = [], None
    first_round = 2 if upcard == JOKER else 1
    for index, call in enumerate(calls):
        bid: dict = {"seat": SEAT_NAMES[seat_at(dealer, 1 + index)],
                     "round": first_round if index < 4 else 2}
        if call == "Pass":
            bid["action"] = "pass"
        elif call == "Order":
            bid["action"] = "order_up"
        elif call in _CALLS:
            bid |= {"action": "call", "suit": rules.card_deck.suit_name(_CALLS[call]),
                    "trump": _CALLS[call]}
        else:
            raise DealError(f"call {call!r} cannot be replayed")
        if bid["action"] != "pass":
            bid["alone"] = alone if trump is None else False
            if trump is None:
                trump = bid.get("trump", upcard >> 3)
        bids.append(bid)
    return bids, trump


def parse_egn_card(name, rules: RuleSet, trump: int | None) -> int:
    """A card id from EGN notation: rank (N for 9) and suit letter, R and L the bowers of
    `trump`, B the joker; an unknown card (X) or a generic suit cannot be replayed."""
    if not isinstance(name, str) or not name:
        raise DealError(f"card {name!r} is not EGN notation")
    deck = rules.card_deck
    if name in ("R", "L"):
        if trump is None or trump == NO_TRUMP:
            raise DealError(f"card {name!r} names a bower without a trump suit")
        suit = trump if name == "R" else 3 - trump  # C-S and D-H share a colour
        return deck.parse_card("J" + deck.suits[suit])
    if name == "B":
        return deck.parse_card("JK")
    if "X" in name or "x" in name[1:] or (len(name) == 2 and name[1] in "tng"):
        raise DealError(f"card {name!r} is unknown or generic and cannot be replayed")
    text = ("9" + name[1:]) if name[0] == "N" else name
    try:
        return deck.parse_card(text)
    except UserError as err:
        raise DealError(str(err)) from None


def egn_card(card: int) -> str:
    """EGN's name of a card id."""
    if card == JOKER:
        return "B"
    return "789TJQKA"[card_rank(card)] + _SUITS[card_suit(card)]


def write_egn(records: list[dict], rules: RuleSet, title: str, players: list[str],
              initial_score: tuple[int, int] = (0, 0),
              annotations: list[dict] | None = None) -> dict:
    """One game's EGN document from its SPEC records in order; `annotations[i]`, deal i's
    EGN annotations ({"calls": {index: [text]}, "plays": {index: [text]}}). A record's
    hidden cards (its "unknown") leave its players' cards out."""
    final = list(initial_score)
    deals = []
    for number, record in enumerate(records):
        points = record.get("points") or {}
        final = [final[0] + points.get("NS", 0), final[1] + points.get("EW", 0)]
        deal = _egn_deal(record, number, rules)
        notes = annotations[number] if annotations else {}
        for phase, key, egn_key in ((0, "calls", "callAnnotations"),
                                    (1, "plays", "playAnnotations")):
            if notes.get(key) and len(deal["phases"]) > phase:
                deal["phases"][phase][egn_key] = {str(i): texts
                                                  for i, texts in notes[key].items()}
        deals.append(deal)
    metadata = {"title": title, "players": players, "initialScore": list(initial_score),
                "finalScore": final, "ruleset": rules_to_egn(rules)}
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": metadata, "deals": deals}


def _egn_deal(record: dict, number: int, rules: RuleSet) -> dict:
    deck = rules.card_deck

    def name(token: str) -> str:
        return egn_card(deck.parse_card(token))

    hands = record["hands"]
    if isinstance(hands, dict):
        hands = [hands[s] for s in SEAT_NAMES]
    hands = [deck.parse_cards(" ".join(h) if isinstance(h, list) else h) for h in hands]
    calls, alone = [], False
    for bid in record["bids"]:
        if bid["action"] == "pass":
            calls.append("Pass")
            continue
        alone = bool(bid.get("alone"))
        calls.append("Order" if bid["action"] == "order_up" else
                     "n" if bid["suit"] == "NT" else _SUITS[deck.parse_suit(bid["suit"])])
    bidding: dict = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls,
                     "isAlone": alone}
    if record.get("discard") is not None:
        bidding["discard"] = name(record["discard"])
    if record.get("defend_alone") is not None:
        bidding["aloneDefender"] = SEAT_NAMES.index(record["defend_alone"])
    phases = [bidding]
    if record.get("tricks"):
        phases.append({"phaseNumber": 1, "type": "TRICK_PLAY",
                       "tricks": [[name(p["card"]) for p in t["plays"]]
                                  for t in record["tricks"]]})
    state = {"dealer": SEAT_NAMES.index(record["dealer"]), "upCard": name(record["upcard"])}
    if not record.get("unknown"):
        state["playerCards"] = [[egn_card(c) for c in h] for h in hands]
    return {"dealNumber": number, "initialState": state, "phases": phases}


def game_path(path: str, game: int, games: int) -> str:
    """Where game `game` (1-based) of `games` goes: PATH itself for one game, else the game
    number before the suffix (games.egn -> games-3.egn); EGN holds one game a document."""
    if games == 1:
        return path
    stem = path[:-4] if path.lower().endswith(".egn") else path
    return f"{stem}-{game}.egn"


def save_egn(path: str, document: dict) -> None:
    """Write an EGN document whole (`core.output.written`)."""
    import json

    with written(path) as handle:
        json.dump(document, handle, indent=2)
        handle.write("\n")

"""The API's JSON bodies read into the library's questions (the bid, or with `trump` a decision
during the play): the field names (`turned_down` or `turned-down`), their types checked, the
deals and worlds capped; every mistake a one-line Error."""

from __future__ import annotations

from collections.abc import Callable

from ..api import Error
from ..api.catalog import RuleSet, parse_seat, play_model
from ..api.options import rules_of
from ..api.questions import PATH_FIELDS, AdviceQuestion, PlayQuestion, ask_any, models_of

MAX_WORLDS = 10_000
MAX_PLAY_WORLDS = 2_000  # a play decision solves every world for every card
_ADVISE_FIELDS = {"hand": str, "up": str, "turned_down": str, "seat": int, "deals": int,
                  "seed": int, "rules": str, "set": (dict, list), "play": str, "worlds": int,
                  "bidding": str, "bidder_params": str, "bidder_table": str, "score": str,
                  "odds": str, "trump": str, "maker": int, "alone": bool, "played": str,
                  "discard_from": str, "discard": str, "atlas": bool}
_SOLVE_FIELDS = {"deal": str, "dealer": (str, int), "rules": str, "set": (dict, list)}
_TYPE_NAMES = {str: "a string", int: "a whole number", bool: "true or false",
               list: "a list", dict: "an object", (dict, list): "an object of options",
               (str, int): "a seat", (str, dict): "a card's name or a bid object"}


def fields_of(body, allowed: dict, what: str) -> dict:
    """The body's fields, names normalised, each of its allowed type; nulls dropped."""
    if not isinstance(body, dict):
        raise Error(f"the {what} body must be a JSON object")
    out = {}
    for raw_name, value in body.items():
        name = str(raw_name).replace("-", "_")
        if name not in allowed:
            raise Error(f"unknown field {raw_name!r} for {what} "
                            f"(fields: {', '.join(allowed)})")
        kind = allowed[name]
        if value is None:
            continue
        if isinstance(value, bool) != (kind is bool) or not isinstance(value, kind):
            raise Error(f"field {raw_name!r} must be {_TYPE_NAMES[kind]}, got {value!r}")
        out[name] = value
    return out


def advise_question(body, place: Callable[[str], str] | None = None
                    ) -> AdviceQuestion | PlayQuestion:
    """The question of an /api/advise body, checked (the hand and the card too, so a bad query
    fails before it waits in the queue): the bid, or with `trump` a decision during the play;
    the files and folders it names passed through `place` (serve: under its runs folder)."""
    fields = fields_of(body, _ADVISE_FIELDS, "advise")
    needs = ("seat",) if "discard_from" in fields else ("hand", "seat")
    for needed in needs:
        if needed not in fields:
            raise Error(f"advise needs {needed!r}")
    rules = rules_of(fields.pop("rules", "standard"), fields.pop("set", None))
    play = models_of(fields.get("play"), fields.get("bidding"))[0]  # the page's caps first
    cap = play_model(play).pace.max_deals  # minutes of work at most
    if "deals" in fields and not 2 <= fields["deals"] <= cap:
        raise Error(f"deals must be 2 to {cap:,} with play {play}, got {fields['deals']:,}")
    worlds_cap = MAX_PLAY_WORLDS if "trump" in fields else MAX_WORLDS
    if not 1 <= fields.get("worlds", 1) <= worlds_cap:
        what = " for a decision during the play" if "trump" in fields else ""
        raise Error(f"worlds must be 1 to {worlds_cap:,}{what}")
    if place is not None:
        fields |= {name: place(fields[name]) for name in PATH_FIELDS if name in fields}
    return ask_any(rules, fields)


def rate_key(question: AdviceQuestion | PlayQuestion) -> str:
    """Queries that run at about the same speed per work unit share a key."""
    if isinstance(question, PlayQuestion):
        return "play decision"
    return question.player.play + (" in the auction" if question.player.bidder else "")


def solve_args(body) -> tuple[RuleSet, list[int], int]:
    """(rules, hands by seat, dealer) from an /api/solve body."""
    fields = fields_of(body, _SOLVE_FIELDS, "solve")
    if "deal" not in fields:
        raise Error("solve needs 'deal', e.g. \"N:JH JD AH KS 9C/...\"")
    rules = rules_of(fields.get("rules", "standard"), fields.get("set"))
    return rules, rules.card_deck.parse_deal(fields["deal"]), parse_seat(fields.get("dealer",
                                                                                     "N"))

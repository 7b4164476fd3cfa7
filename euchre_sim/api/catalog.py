"""The public facts: the rule presets and their options (`RuleSet`), the seats (N E S W), the
play models and their defaults, the bidders and what each does, the limits a question is held
to, the z of a 95 % interval and the cards of a rule set's deck. The command line and the page
read their choices, defaults and help from here.

Each fact has one definition, in the wing that uses it; the names that need numpy or Numba
(the rules, seats, bidders, `Z95`, ...) are read from there when first used (PEP 562), so that
importing this module loads neither.

Examples
--------
>>> from euchre_sim.api import catalog
>>> catalog.PLAY_MODELS[:3], catalog.DEFAULT_PLAY
(('dd', 'rules', 'pimc'), 'dd')
>>> catalog.parse_seat("e"), catalog.SEAT_NAMES
(1, 'NESW')
>>> catalog.preset("drinking").drinks
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import DamagedInstall
from ..core.limits import MAX_PLAY_GAMES, MAX_WORLDS, at_most, check_seed
from ..play.models import (
    DEFAULT_PLAY,
    DEFAULT_WORLDS,
    MODELS,
    PLAY_MODELS,
    SOLVER_PACE,
    VALUED_WORLDS,
    PlayModel,
    describe_model,
    play_model,
)
from .lazy_names import lazy_names

if TYPE_CHECKING:
    from ..bidding.params import BIDDERS, GAME_BIDDERS, SELF_PLAY_BIDDERS
    from ..bidding.params import DESCRIPTIONS as BIDDER_DESCRIPTIONS
    from ..core.rules import PRESETS, RuleSet, build_rules, option_fields, preset
    from ..core.seats import SEAT_NAMES, parse_seat, seat_name
    from ..core.stats import Z95
    from ..play.player import PLAYER_FIELDS, people
    from ..runs.cores import default_workers

# the names read when first used: (module, its name there) by name
_LATER = {
    "BIDDERS": ("..bidding.params", "BIDDERS"),
    "GAME_BIDDERS": ("..bidding.params", "GAME_BIDDERS"),
    "SELF_PLAY_BIDDERS": ("..bidding.params", "SELF_PLAY_BIDDERS"),
    "BIDDER_DESCRIPTIONS": ("..bidding.params", "DESCRIPTIONS"),
    "PRESETS": ("..core.rules", "PRESETS"),
    "RuleSet": ("..core.rules", "RuleSet"),
    "build_rules": ("..core.rules", "build_rules"),
    "option_fields": ("..core.rules", "option_fields"),
    "preset": ("..core.rules", "preset"),
    "SEAT_NAMES": ("..core.seats", "SEAT_NAMES"),
    "parse_seat": ("..core.seats", "parse_seat"),
    "seat_name": ("..core.seats", "seat_name"),
    "Z95": ("..core.stats", "Z95"),
    "PLAYER_FIELDS": ("..play.player", "PLAYER_FIELDS"),
    "people": ("..play.player", "people"),
    "default_workers": ("..runs.cores", "default_workers"),
}

SUIT_SYMBOLS = {"french": "♣♦♥♠", "yooker": "★▲■●"}  # a deck's suits, in its suit order

__all__ = ["BIDDERS", "BIDDER_DESCRIPTIONS", "DEFAULT_PLAY", "DEFAULT_WORLDS", "GAME_BIDDERS",
           "MAX_PLAY_GAMES", "MAX_WORLDS", "MODELS", "PLAYER_FIELDS", "PLAY_MODELS", "PRESETS",
           "SEAT_NAMES", "SELF_PLAY_BIDDERS", "SOLVER_PACE", "SUIT_SYMBOLS", "VALUED_WORLDS",
           "Z95", "DamagedInstall", "PlayModel", "RuleSet", "at_most", "build_rules",
           "check_seed", "deck_catalog", "default_workers", "describe_model", "option_fields",
           "parse_seat", "people", "play_model", "preset", "seat_name"]


__getattr__, __dir__ = lazy_names(__name__, _LATER, __all__)


def deck_catalog(rules: RuleSet) -> dict:
    """The cards of a rule set's deck, as the page offers them.

    Parameters
    ----------
    rules : RuleSet
        The rules whose deck is shown (`preset`, or `api.options.rules_of`).

    Returns
    -------
    dict
        ``size``, ``style`` (french or yooker), ``describe`` (the deck in words), ``joker``
        (Benny's name, or None), ``suits`` (each suit's name, symbol and cards, high rank
        first, as the API reads card names; the joker apart) and ``euchre_text`` (what a
        euchre counts under the rules, for the note on mean points).

    Examples
    --------
    >>> from euchre_sim.api.catalog import deck_catalog, preset
    >>> deck = deck_catalog(preset("standard"))
    >>> deck["size"], deck["joker"], deck["suits"][3]
    (24, None, {'suit': 'S', 'symbol': '♠', 'cards': ['AS', 'KS', 'QS', 'JS', 'TS', '9S']})
    """
    from ..core.cards import JOKER, card_suit

    deck = rules.card_deck
    cards = deck.sorted_cards(deck.mask)
    symbols = SUIT_SYMBOLS[deck.style]
    return {"size": len(cards), "style": deck.style, "describe": deck.describe(),
            "joker": deck.card_name(JOKER) if deck.joker else None,
            "suits": [{"suit": deck.suits[s], "symbol": symbols[s],
                       "cards": [deck.card_name(c) for c in cards
                                 if c != JOKER and card_suit(c) == s]}
                      for s in range(4)],
            "euchre_text": rules.euchre_text}

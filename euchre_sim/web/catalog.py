"""What the page offers: presets and options with their meanings (as `euchre-sim rules`
lists them), the play models' registry and the bidders, and the cards of a rule set's deck."""

from __future__ import annotations

from ..bidding.params import DESCRIPTIONS as BIDDER_DESCRIPTIONS
from ..core.cards import JOKER, card_suit
from ..core.rules import PRESETS, RuleSet, option_fields, preset
from ..core.stats import Z95
from ..play.models import DEFAULT_PLAY, MODELS
from ..play.player import people

SUIT_SYMBOLS = {"french": "♣♦♥♠", "yooker": "★▲■●"}


def rules_catalog() -> dict:
    """Every preset with its options' values, every option's meaning and kind, the choices
    the advise form offers (`models_catalog`, the bidders), and the z of the page's 95 %
    intervals."""
    options = [{"name": f.name, "meaning": f.metadata["meaning"],
                "kind": "bool" if f.type in ("bool", bool) else "int",
                "choices": list(f.metadata["choices"])} for f in option_fields()]
    return {"presets": {name: {"description": text, "options": preset(name).options()}
                        for name, (text, _) in PRESETS.items()},
            "options": options, "bidding": BIDDER_DESCRIPTIONS, "z95": Z95} | models_catalog()


def models_catalog() -> dict:
    """The play models' registry as the page reads it (`play.models.MODELS`, in order): each
    model's name, what it does, whether worlds are one of its settings, whether it plays by
    the nets, whether it plays as the solver, `advise`'s deals when none are asked and a
    query's most; the model a run names by default, and a table of people's bidder and
    model (the form's first choice)."""
    return {"models": [{"name": m.name, "description": m.description,
                        "samples_worlds": m.samples_worlds, "uses_net": m.uses_net,
                        "solved": m.solved, "deals": m.pace.advise_deals,
                        "max_deals": m.pace.max_deals} for m in MODELS],
            "default_play": DEFAULT_PLAY,
            "people": {"bidding": people().bidder, "play": people().play}}


def deck_catalog(rules: RuleSet) -> dict:
    """The deck's cards by suit, high rank first, as the card names the API reads, with the
    suits' symbols; the joker (Benny) apart; and what a euchre counts under the rules (for the
    note on mean points)."""
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

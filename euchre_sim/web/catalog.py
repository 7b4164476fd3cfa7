"""What the page offers: presets and options with their meanings (as `euchre-sim rules`
lists them), the play models' registry and the bidders, and the cards of a rule set's deck
(`api.catalog.deck_catalog`)."""

from __future__ import annotations

from ..api.catalog import (
    BIDDER_DESCRIPTIONS,
    DEFAULT_PLAY,
    MODELS,
    PRESETS,
    Z95,
    deck_catalog,
    option_fields,
    people,
    preset,
)

__all__ = ["deck_catalog", "models_catalog", "rules_catalog"]


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
    """The play models' registry as the page reads it (`api.catalog.MODELS`, in order): each
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

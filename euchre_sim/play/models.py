"""Names of the card-play models (no Numba here: the CLI reads them at start-up)."""

PLAY_MODELS = ("dd", "rules", "pimc", "learned")
MODEL_DD, MODEL_CONVENTIONAL, MODEL_PIMC, MODEL_LEARNED = range(4)
SAMPLING_MODELS = ("pimc", "learned")  # models that sample worlds (learned: where its net
# does not know the deal, it plays as PIMC)
DEFAULT_WORLDS = 50
DESCRIPTIONS = {
    "dd": "double dummy: every seat sees every hand and plays perfectly",
    "rules": "conventional player: own hand and cards played only",
    "pimc": "perfect-information Monte Carlo over sampled worlds",
    "learned": "a small network trained on PIMC's decisions (PIMC where it does not apply)",
}


def model_id(name: str) -> int:
    return PLAY_MODELS.index(name)


def describe_model(name: str, worlds: int | None = None) -> str:
    """The model for a title: 'rules: conventional player: ...'; PIMC with its worlds."""
    text = f"{name}: {DESCRIPTIONS[name]}"
    return f"{text}, {worlds} worlds" if worlds else text

"""Names of the card-play models (no Numba here: the CLI reads them at start-up)."""

PLAY_MODELS = ("dd", "rules", "pimc", "learned", "learned-search")
MODEL_DD, MODEL_CONVENTIONAL, MODEL_PIMC, MODEL_LEARNED, MODEL_LEARNED_SEARCH = range(5)
LEARNED_MODELS = ("learned", "learned-search")  # the models that play by the net
SAMPLING_MODELS = ("pimc",) + LEARNED_MODELS  # models that may sample worlds (learned-search
# at its close calls; learned where a player has no net for the deal)
SEARCH_MARGIN = 0.5  # learned-search: candidates the net scores within this of its best are
# PIMC's to decide among (studies/learned_strength.py measured 0.1 to 1.0)
DEFAULT_WORLDS = 50
DESCRIPTIONS = {
    "dd": "double dummy: every seat sees every hand and plays perfectly",
    "rules": "conventional player: own hand and cards played only",
    "pimc": "perfect-information Monte Carlo over sampled worlds",
    "learned": "a small network trained on PIMC's decisions",
    "learned-search": "the learned network, its close calls settled by PIMC's worlds",
}


def model_id(name: str) -> int:
    return PLAY_MODELS.index(name)


def describe_model(name: str, worlds: int | None = None) -> str:
    """The model for a title: 'rules: conventional player: ...'; PIMC with its worlds."""
    text = f"{name}: {DESCRIPTIONS[name]}"
    return f"{text}, {worlds} worlds" if worlds else text

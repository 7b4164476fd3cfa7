"""The play models' registry: one record a model, which the CLI's choices, the kernels'
dispatch, the page (`/api/rules`) and the docs read (no Numba here: the CLI reads it at
start-up). Adding a model: docs/layout.md, "A new play model"."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import FieldError
from ..core.limits import MAX_CHUNK

# The card players the kernels run (`play.playout.choose_card`), a model's `kernel`
KERNEL_SOLVER, KERNEL_CONVENTIONAL, KERNEL_PIMC, KERNEL_NET, KERNEL_NET_SEARCH = range(5)
SEARCH_MARGIN = 0.5  # learned-search: candidates the net scores within this of its best are
# PIMC's to decide among (studies/learned_strength.py measured 0.1 to 1.0)
DEFAULT_WORLDS = 50
VALUED_WORLDS = 2  # a decision's options valued over worlds (their standard errors) need two
DEFAULT_PLAY = "dd"  # a player's model unless one is named


@dataclass(frozen=True)
class Pace:
    """What a model's cost a deal asks of the work around it: a chunk's fewest and most deals
    (simulate) and games (tournament), about a hundred chunks between (`chunk_size`);
    `advise`'s deals when none are asked and those of the odds it solves; `advise`'s deals
    between progress reports (`batch`); the page's most deals a query."""

    chunk_deals: tuple[int, int]
    chunk_games: tuple[int, int]
    advise_deals: int
    odds_deals: int
    batch: int
    max_deals: int


# The solver's pace: thousands of deals a second a core (a chunk of 20,000 deals: ~180 MB)
SOLVER_PACE = Pace((1_000, MAX_CHUNK), (500, MAX_CHUNK), 20_000, 20_000, 500, 200_000)
# A model whose decisions sample and solve worlds: a hundred or so deals a second a core
WORLDS_PACE = Pace((10, 200), (1, 20), 1_000, 300, 10, 10_000)


@dataclass(frozen=True)
class PlayModel:
    """A card-play model: its name (`--play`), the card player the kernels run (KERNEL_*),
    whether worlds are one of its settings (it samples worlds at some decisions: PIMC at
    every one, learned-search at its close calls, learned where it has no net for the deal),
    whether it plays by the shipped nets, its pace and what it does."""

    name: str
    kernel: int
    samples_worlds: bool
    uses_net: bool
    pace: Pace
    description: str

    @property
    def solved(self) -> bool:
        """Plays as the solver (every hand seen, perfect play): a call table is the solver's
        values, no hand is played out."""
        return self.kernel == KERNEL_SOLVER


MODELS = (
    PlayModel("dd", KERNEL_SOLVER, False, False, SOLVER_PACE,
              "double dummy: every seat sees every hand and plays perfectly"),
    PlayModel("rules", KERNEL_CONVENTIONAL, False, False, SOLVER_PACE,
              "conventional player: own hand and cards played only"),
    PlayModel("pimc", KERNEL_PIMC, True, False, WORLDS_PACE,
              "perfect-information Monte Carlo over sampled worlds"),
    PlayModel("learned", KERNEL_NET, True, True, SOLVER_PACE,
              "a small network trained on PIMC's decisions"),
    PlayModel("learned-search", KERNEL_NET_SEARCH, True, True, WORLDS_PACE,
              "the learned network, its close calls settled by PIMC's worlds"),
)
PLAY_MODELS = tuple(m.name for m in MODELS)  # the names, in the order the CLI lists them
_BY_NAME = {m.name: m for m in MODELS}


def play_model(name: str) -> PlayModel:
    """The model named `name`; a FieldError naming {play} for any other name."""
    if name not in _BY_NAME:
        raise FieldError("{play} must be one of {models}, got {got!r}",
                         models=", ".join(PLAY_MODELS), got=name)
    return _BY_NAME[name]


def chunk_size(count: int, bounds: tuple[int, int]) -> int:
    """About a hundred chunks of `count` deals or games, within `bounds` (a pace's fewest and
    most a chunk)."""
    return int(min(bounds[1], max(bounds[0], -(-count // 100))))


def describe_model(name: str, worlds: int | None = None) -> str:
    """The model for a title: 'rules: conventional player: ...'; with its worlds, if any."""
    text = f"{name}: {play_model(name).description}"
    return f"{text}, {worlds} worlds" if worlds else text

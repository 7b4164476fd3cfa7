"""An `advise` question answered as the command line and the web page print it: the
`advise --json` object (plain advice, or advice in the auction with `bidding`, and the game's
odds with `score`; or, given a `trump`, a decision during the play)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..bidding.params import BIDDERS
from ..core.errors import FieldError
from ..core.jit import as_python
from ..core.rules import RuleSet
from ..play.player import PLAYER_FIELDS, player_of
from .question import PLAY_FIELDS, AdviceQuestion, ask

if TYPE_CHECKING:  # what simulates or plays is imported by the answer that needs it
    from .advise import Progress
    from .play_question import PlayQuestion

BID_ONLY = ("deals", "score", "odds")  # fields a play decision does not take


def ask_any(rules: RuleSet, fields: dict) -> AdviceQuestion | PlayQuestion:
    """The bid question, or with `trump` the play decision (its own fields checked, its
    player built from the player's fields: `play.player.player_of`)."""
    given = {k: v for k, v in fields.items() if v is not None and v is not False}
    with as_python():  # a question's checks call a few small kernels once: no Numba for them
        return _question(rules, given)


def _question(rules: RuleSet, given: dict) -> AdviceQuestion | PlayQuestion:
    if given.get("trump") is None:
        extra = [k for k in PLAY_FIELDS if k in given]
        if extra:
            raise FieldError(f"{{{extra[0]}}} is for a decision during the play: give "
                             "{trump} and {maker} too")
        return ask(rules, given)
    bid_only = [k for k in BID_ONLY if k in given]
    if bid_only:
        raise FieldError(f"{{{bid_only[0]}}} is for the bid: a decision during the play "
                         "samples {worlds} worlds and solves each")
    from .play_question import PlayQuestion

    player = player_of(rules, **{k: given.pop(k) for k in PLAYER_FIELDS if k in given},
                       bidders=BIDDERS)
    return PlayQuestion(rules, **given, player=player)


def answer(question: AdviceQuestion | PlayQuestion, progress: Progress | None = None,
           workers: int = 1) -> dict:
    """The `advise --json` object of the question; advice in the auction tries its deals in
    `workers` processes (the answer is the same)."""
    if not isinstance(question, AdviceQuestion):
        from .play_question import answer_play

        return answer_play(question, progress)
    if question.bidding is None:
        from .advise import advise

        return advise(question, progress=progress)
    from .atlas import atlas_answer

    with as_python():  # an answer read from the atlas loads no Numba
        found = atlas_answer(question)
    if found is not None:
        return found
    from .auction_advice import advise_in_auction

    return advise_in_auction(question, progress, workers)

"""An `advise` question answered as the command line and the web page print it: the
`advise --json` object (plain advice, or advice in the auction with `bidding`, and the game's
odds with `score`)."""

from __future__ import annotations

from .advise import Progress, advise
from .question import AdviceQuestion


def answer(question: AdviceQuestion, progress: Progress | None = None) -> dict:
    """The `advise --json` object of the question."""
    if question.bidding is None:
        return advise(question, progress=progress)
    from .auction_advice import advise_in_auction

    return advise_in_auction(question, progress)

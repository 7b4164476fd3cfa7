"""`review`: every decision of recorded hands valued, and the points each choice lost.

A hand is replayed from its record (`game.history`); at each bid, the dealer's discard, each
defender's choice to defend alone and each card, every legal option is valued (`bid_options`,
`position`) and the chosen one's loss is the best option's value minus its own (>= 0), `dd`
on the true deal and `pimc` from the seat's knowledge.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from ..core.cards import cards_of
from ..core.errors import UserError
from ..core.limits import MAX_SEED, check_seed
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES
from ..core.stats import mean_se
from ..game.engine import HandState
from ..game.hand_files import read_hand_file
from ..game.history import RecordError, ReplayedHand, bid_label, replay_hand
from ..play.player import Player
from ..solver.search import new_tt
from .bid_options import bid_options, bid_question
from .position import Valuer, bidder_inference, card_options, defence_options

KINDS = ("bid", "discard", "defend_alone", "card")
HIDDEN_DRAWS = 20  # deals a bid's dd is averaged over when the record hides cards
DECISIONS_PER_HAND = 32  # decision keys: hand h's slot k (see review_hand) is h * 32 + k


@dataclass(frozen=True)
class ReviewSettings:
    """`player` (`play.player`): its K worlds (and K deals for a bid's `pimc`), each solved,
    and its bidder, if it has one, for what the worlds infer and for what follows a pass
    (`dd` without one); the seed; the kinds of decision valued (the others are replayed, not
    listed)."""

    player: Player = Player()
    seed: int = 0
    kinds: tuple[str, ...] = KINDS

    def __post_init__(self):
        self.player.valuing()
        check_seed(self.seed)
        unknown = sorted(set(self.kinds) - set(KINDS))
        if unknown:
            raise UserError(f"unknown decision kind {unknown[0]!r} (kinds: {', '.join(KINDS)})")

    def continuation(self) -> Player:
        """The player who bids what follows a pass: the player, with the dd bidder where it
        has none."""
        return self.player if self.player.bidder else replace(self.player, bidder="dd")

    def facts(self) -> dict:
        """The settings as a review's run.json names them."""
        player = self.player
        return {"worlds": player.worlds, "seed": self.seed, "bidding": player.bidder,
                "bidder_params": player.named_weights, "bidder_table": player.table_dir,
                "kinds": list(self.kinds)}


def decision_seed(seed: int, hand: int, slot: int) -> int:
    """A seed of its own for decision `slot` of hand `hand` (0-based, DECISIONS_PER_HAND slots
    a hand), within the seeds a question takes."""
    return (seed + hand * DECISIONS_PER_HAND + slot) % (MAX_SEED + 1)


def _losses(options: list[dict], chosen) -> dict:
    """dd_loss, pimc_loss and its standard error (paired over the same worlds where the
    values are known world by world, else from the two standard errors)."""
    mine = next((o for o in options if o["option"] == chosen), None)
    out = {"dd_loss": None, "pimc_loss": None, "pimc_loss_se": None}
    if mine is None:  # an illegal card (a renege under the penalty rule): not an option
        return out
    known = [o for o in options if o["dd"] is not None]
    if known and mine["dd"] is not None:
        out["dd_loss"] = max(o["dd"] for o in known) - mine["dd"]
    valued = [o for o in options if o["pimc"] is not None]
    if valued and mine["pimc"] is not None:
        best = max(valued, key=lambda o: o["pimc"])
        out["pimc_loss"] = best["pimc"] - mine["pimc"]
        if best is mine:
            out["pimc_loss_se"] = 0.0
        elif "values" in mine:
            out["pimc_loss_se"] = mean_se(best["values"] - mine["values"])[1]
        elif best["pimc_se"] is not None and mine["pimc_se"] is not None:
            out["pimc_loss_se"] = float(np.hypot(best["pimc_se"], mine["pimc_se"]))
    return out


def decision_row(record_id, kind: str, seat: int, trick, chosen, options: list[dict],
              category: str | None = None) -> dict:
    """A review row (SPEC); `category` splits cards into leads and follows."""
    row = {"id": record_id, "kind": kind, "category": category or kind,
           "seat": SEAT_NAMES[seat], "trick": trick, "chosen": chosen,
           "options": options} | _losses(options, chosen)
    for option in options:
        option.pop("values", None)
        option.pop("card", None)
    return row


def review_hand(hand: ReplayedHand, record_id, index: int, settings: ReviewSettings,
                tt=None) -> Iterator[dict]:
    """The decisions of one replayed hand, in order, each valued (SPEC `review --json`).

    Cards a record hides (`game.history.ReplayedHand.filled`: a loner's partner's hand, a
    dealer's discard) are never taken for known: a bid's `dd` is the mean over
    HIDDEN_DRAWS deals with them drawn from the cards nobody saw (the row says
    `"sampled": true`), a seat whose own hand is hidden gets no `pimc` for its bid, a hidden
    discard is not reviewed, and the dealer's worlds treat its hidden discard as unseen.
    Cards in play are all recorded, so every card's `dd` is exact."""
    final, filled = hand.state, hand.filled
    tt = tt if tt is not None else new_tt()
    state = HandState(final.rules, final.dealer, final.dealt, final.upcard)
    deals = _hidden_draws(hand, settings.seed + index) if any(filled) else [final.dealt]
    discard_hidden = final.discarded >= 0 and bool(filled[final.dealer] >> final.discarded & 1)

    def key(slot: int) -> int:
        """Decision keys by place, whichever kinds are valued: bids 0-7, the discard 8,
        defence 9-10, cards 11-30."""
        return index * DECISIONS_PER_HAND + slot

    for number, bid in enumerate(final.bids):
        if "bid" in settings.kinds:
            seed = decision_seed(settings.seed, index, number)
            question = bid_question(state, settings.continuation(), settings.player.worlds, seed)
            options = bid_options(state, question, deals, advised=not filled[state.turn])
            row = decision_row(record_id, "bid", state.turn, None, bid_label(state, bid), options)
            yield row | ({"sampled": True} if len(deals) > 1 else {})
        state.bid(bid)
    if final.passed_out:
        return
    valuer = Valuer(settings.player.worlds, settings.seed, bidder_inference(settings.player),
                    discard_hidden=discard_hidden)
    name = final.rules.card_deck.card_name
    if state.phase == "discard":
        if "discard" in settings.kinds and not discard_hidden:
            options = card_options(state, valuer, key(8), tt)
            yield decision_row(record_id, "discard", state.dealer, None, name(final.discarded),
                            options)
        state.discard(final.discarded)
    if state.phase == "defend":
        for number, seat in enumerate(state.defenders() if "defend_alone" in settings.kinds
                                      else []):
            options = defence_options(state, seat, valuer, key(9 + number), tt)
            chosen = "alone" if final.defender_alone == seat else "partner"
            yield decision_row(record_id, "defend_alone", seat, None, chosen, options)
            if chosen == "alone":
                break
        state.defend(final.defender_alone if final.defender_alone >= 0 else None)
    moves = [move for trick in final.tricks for move in trick.plays]
    for number, (seat, card) in enumerate(moves):
        if "card" in settings.kinds:
            category = "follow" if state.tricks[-1].plays else "lead"
            options = card_options(state, valuer, key(11 + number), tt)
            yield decision_row(record_id, "card", seat, len(state.tricks), name(card), options,
                            category)
        state.play(seat, card)


def _hidden_draws(hand: ReplayedHand, seed: int) -> list[list[int]]:
    """HIDDEN_DRAWS deals: the record's known cards, and its hidden ones drawn at random from
    the cards nobody saw (those filled in and the rest of the kitty)."""
    state, filled = hand.state, hand.filled
    known = [dealt & ~mask for dealt, mask in zip(state.dealt, filled, strict=True)]
    seen = known[0] | known[1] | known[2] | known[3] | (1 << state.upcard)
    pool = cards_of(state.rules.card_deck.mask & ~seen)
    rng = random.Random(seed)
    draws = []
    for _ in range(HIDDEN_DRAWS):
        cards = rng.sample(pool, len(pool))
        dealt = list(known)
        for seat, mask in enumerate(filled):
            for _ in cards_of(mask):
                dealt[seat] |= 1 << cards.pop()
        draws.append(dealt)
    return draws


def review_file(file: str, rules: RuleSet, settings: ReviewSettings,
                progress: Callable[[int, int], None] | None = None
                ) -> tuple[RuleSet, list[tuple], list[dict], list[tuple]]:
    """(the rules used, the (id, `ReplayedHand`) pairs, every decision's row, (id, reason)
    of the hands rejected) of a hand file; UserError when nothing in it can be read."""
    rules, hands, errors = read_hands(file, rules)
    return rules, hands, review_states(hands, settings, progress), errors


def review_states(hands: list[tuple], settings: ReviewSettings,
                  progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """Every decision of the replayed hands ((record id, `ReplayedHand`) pairs)."""
    tt = new_tt()
    rows = []
    for index, (record_id, final) in enumerate(hands):
        rows.extend(review_hand(final, record_id, index, settings, tt))
        if progress is not None:
            progress(index + 1, len(hands))
    return rows


def read_hands(file: str, rules: RuleSet) -> tuple[RuleSet, list[tuple], list[tuple]]:
    """(the rules its hands are played by, (id, `ReplayedHand`) pairs, (id, reason) of the
    hands rejected) of a hand file (JSON Lines, EGN or PTN: `game.hand_files`); UserError
    when nothing in it can be read."""
    hand_file = read_hand_file(file, rules)
    hands, errors = [], []
    for entry in hand_file.entries:
        if entry.record is None:
            errors.append((entry.id, entry.error))
            continue
        try:
            hands.append((entry.id, replay_hand(entry.record, hand_file.rules)))
        except RecordError as err:
            errors.append((entry.id, f"hand {entry.id}: {err}"))
    return hand_file.rules, hands, errors

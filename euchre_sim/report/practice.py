"""A practice session: the player's hands one after another (the deal passing left), what each
decision cost, each hand's summary and the running tally, and the hands played as EGN with each
loss annotated as `review --egn` writes it."""

from __future__ import annotations

from ..advice.practice_feedback import decision_cost
from ..core.errors import UserError
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES, left_of
from ..core.stats import Z95
from ..game.egn import write_egn
from ..game.history import state_to_record
from ..game.practice import PLAYER_SEAT, PracticeHand, first_dealer
from ..solver.search import new_tt
from .review import CATEGORIES, annotation, option_label

# points lost a hand against double dummy, all four seats' cards and discards (docs/web.md):
# people in the championship games of tests/data/egn, and PIMC (docs/play-models.md)
YARDSTICKS = {"people": 0.60, "pimc": 0.611}
WORST = 5  # the session's costliest decisions kept, with the moment each was taken


class PracticeSession:
    """Hands of `rules` from deal `deal` of `seed`, the player at `position` (1-4 from the
    dealer's left) in the first; each of its decisions valued (`decision_cost`)."""

    def __init__(self, rules: RuleSet, position: int, seed: int, deal: int = 0):
        self.rules, self.seed = rules, seed
        self.hand = PracticeHand(rules, seed, deal, first_dealer(position))
        self.rows: list[dict] = []  # the player's decisions, `id` the deal
        self.views: list[dict] = []  # the player's view at each decision
        self.done: list[PracticeHand] = []  # the hands finished
        self.notes: dict[int, dict] = {}  # by deal: EGN annotations of calls and plays
        self.tt = new_tt()

    def act(self, action) -> dict:
        """The player's action (one of the hand's `legal`, as given) taken, and its feedback:
        the review row with `points_lost` and `dd_points_lost`."""
        hand = self.hand
        hand.check(action)
        state, kind = hand.state, hand.deciding()
        mine = [r for r in self.rows if r["id"] == hand.deal]
        row = decision_cost(state, kind, action, self.seed, hand.deal, len(mine), self.tt)
        self.rows.append(row)
        self.views.append(hand.view() | {"others": []})
        text = annotation(row)
        if text is not None and kind in ("bid", "card"):
            where, index = (("calls", len(state.bids)) if kind == "bid" else
                            ("plays", sum(len(t.plays) for t in state.tricks)))
            self.notes.setdefault(hand.deal, {"calls": {}, "plays": {}})[where][index] = [text]
        hand.act(action)
        if hand.over:
            self.done.append(hand)
        return row

    def check_next(self) -> None:
        """UserError unless the hand in play is over (the next may be dealt)."""
        if not self.hand.over:
            raise UserError("the hand is not over: play it out first")

    def next_hand(self) -> None:
        """The next deal, dealt by the seat to the left (`check_next`)."""
        self.check_next()
        state = self.hand.state
        self.hand = PracticeHand(self.rules, self.seed, self.hand.deal + 1,
                                 left_of(state.dealer))

    def state(self, feedback: dict | None = None) -> dict:
        """The hand as the player sees it, the hand's summary once it is over, the tally."""
        hand = self.hand
        return hand.view() | {
            "feedback": feedback,
            "summary": self.summary(hand.deal) if hand.over else None,
            "tally": self.tally()}

    def summary(self, deal: int) -> dict:
        """A hand's points lost by kind of decision, at the table of people and double dummy,
        its decisions' feedback, and the yardsticks."""
        rows = [r for r in self.rows if r["id"] == deal]
        return {"deal": deal, "decisions": rows, "lost": _lost(rows),
                "yardsticks": YARDSTICKS}

    def tally(self) -> dict:
        """Over the hands finished: points lost a hand by kind, and the costliest decisions
        with the player's view at each."""
        hands = len(self.done)
        deals = {hand.deal for hand in self.done}
        rows = [r for r in self.rows if r["id"] in deals]
        lost = _lost(rows)
        per_hand = {kind: {side: value / hands for side, value in sides.items()}
                    for kind, sides in lost.items()} if hands else None
        ranked = sorted((i for i, r in enumerate(self.rows) if r["id"] in deals),
                        key=lambda i: -_cost(self.rows[i]))
        worst = [{"deal": self.rows[i]["id"], "kind": self.rows[i]["kind"],
                  "chosen": option_label(self.rows[i]["chosen"]),
                  "best": _best(self.rows[i]), "points_lost": self.rows[i]["points_lost"],
                  "dd_points_lost": self.rows[i]["dd_points_lost"], "view": self.views[i]}
                 for i in ranked[:WORST] if _cost(self.rows[i]) > 0]
        return {"hands": hands, "decisions": len(rows), "lost": lost, "per_hand": per_hand,
                "worst": worst}

    def egn(self) -> dict:
        """The hands finished as one EGN document, each loss annotated on its call or play."""
        records = [state_to_record(hand.state, hand.deal) for hand in self.done]
        players = ["You" if seat == PLAYER_SEAT else f"{name} (human bidder, learned play)"
                   for seat, name in enumerate(SEAT_NAMES)]
        deals = ", ".join(str(hand.deal) for hand in self.done) or "none yet"
        title = f"euchre-sim practice, seed {self.seed}, deals {deals}"
        return write_egn(records, self.rules, title, players,
                         annotations=[self.notes.get(hand.deal, {}) for hand in self.done])


def _lost(rows: list[dict]) -> dict:
    """Points lost by kind (review's categories) and in all, at the table of people and double
    dummy (a loss not valued counts 0)."""
    lost = {kind: {"people": 0.0, "dd": 0.0} for kind in (*CATEGORIES, "total")}
    for row in rows:
        for kind in (row["category"], "total"):
            lost[kind]["people"] += row["points_lost"] or 0.0
            lost[kind]["dd"] += row["dd_points_lost"] or 0.0
    return lost


def _cost(row: dict) -> float:
    """What a decision cost, to rank them: at the table of people, else double dummy."""
    return row["points_lost"] if row["points_lost"] is not None else row["dd_points_lost"] or 0.0


def _best(row: dict) -> str | None:
    """The option best at the table of people where its margin separates it at 95 % (`best`),
    'too close to call' with the two and the margin where it does not, the double-dummy best
    (exact) where the table of people did not value the decision; None where nothing did."""
    found = row.get("margin")
    if row.get("best") is not None:
        return option_label(row["best"]["option"])
    if found is not None and any(o["pimc"] is not None for o in row["options"]):
        return (f"too close to call: {option_label(found['option'])} or "
                f"{option_label(found['runner_up'])}, {found['lead']:+.2f} ± "
                f"{Z95 * found['lead_se']:.2f}")
    valued = [o for o in row["options"] if o["dd"] is not None]
    return option_label(max(valued, key=lambda o: o["dd"])["option"]) if valued else None

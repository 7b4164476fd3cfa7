"""A practice session: the player's hands one after another (the deal passing left) at the table
chosen, as single hands or a whole game to the rules' target, what each decision cost, each
hand's summary, the game's and the running tally, the hands played as EGN with each loss
annotated as `review --egn` writes it, and a retry: the same deal again up to one of the
player's decisions, to choose differently."""

from __future__ import annotations

from ..advice.practice_feedback import decision_cost
from ..advice.practice_tables import DEFAULT_TABLE, TABLES, table_sides
from ..core.errors import UserError
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES, left_of
from ..game.egn import write_egn
from ..game.history import state_to_record
from ..game.practice import PLAYER_SEAT, PracticeHand, first_dealer
from ..solver.search import new_tt
from .practice_tally import YARDSTICKS, hand_notes, lost_by_kind, tally
from .review import annotation


class PracticeSession:
    """Hands of `rules` from deal `deal` of `seed` at `table` (`practice_tables.TABLES`), the
    player at `position` (1-4 from the dealer's left) in the first; with `game`, a game to the
    rules' target from `score` ([the player's side, theirs]). Each decision is valued
    (`decision_cost`); `seq` counts the actions and hands dealt."""

    def __init__(self, rules: RuleSet, position: int, seed: int, deal: int = 0,
                 table: str = DEFAULT_TABLE, game: bool = False,
                 score: tuple[int, int] = (0, 0)):
        self.rules, self.seed, self.table, self.game = rules, seed, table, game
        self.start_score = tuple(score)
        self.sides = table_sides(rules, table)
        self.hands = [PracticeHand(rules, seed, deal, first_dealer(position), self.sides)]
        self.rows: list[dict] = []  # the player's decisions, `id` the deal
        self.views: list[dict] = []  # the player's view at each decision
        self.actions: list[list] = [[]]  # by hand: the player's actions, in order
        self.notes: list[dict] = [{"calls": {}, "plays": {}}]  # by hand: EGN annotations
        self.retried: dict | None = None  # the line a retry left (`retry`)
        self.seq = 0
        self.tt = new_tt()

    @property
    def hand(self) -> PracticeHand:
        """The hand in play (or the last one, over)."""
        return self.hands[-1]

    @property
    def done(self) -> list[PracticeHand]:
        """The hands finished."""
        return [hand for hand in self.hands if hand.over]

    def score(self) -> list[int]:
        """[the player's side, theirs] after the hands finished, from the starting score."""
        return _added(self.start_score, self.done)

    @property
    def game_over(self) -> bool:
        return self.game and max(self.score()) >= self.rules.target

    def act(self, action) -> dict:
        """The player's action (one of the hand's `legal`, as given) taken, and its feedback:
        the review row with `points_lost`, `dd_points_lost`, its `hand` and `decision`
        (counted from 0: what `retry` takes)."""
        hand = self.hand
        hand.check(action)
        state, kind = hand.state, hand.deciding()
        slot = len(self.actions[-1])
        score = tuple(self.score()) if self.game else None
        row = decision_cost(state, kind, action, self.seed, hand.deal, slot, self.tt, score)
        self._taken(action, row | {"hand": len(self.hands) - 1, "decision": slot})
        return self.rows[-1]

    def _taken(self, action, row: dict) -> None:
        """The action taken in the hand in play, its row and the view before it kept, its
        loss noted for the EGN."""
        hand = self.hand
        self.rows.append(row)
        self.views.append(hand.view() | {"others": []})
        self.actions[-1].append(action)
        text = annotation(row)
        if text is not None:
            hand_notes(self.notes[-1], hand.state, row["kind"], text)
        hand.act(action)
        self.seq += 1

    def check_next(self) -> None:
        """UserError unless the hand in play is over and the game goes on."""
        if not self.hand.over:
            raise UserError("the hand is not over: play it out first")
        if self.game_over:
            us, them = self.score()
            raise UserError(f"the game is over ({us}-{them}): deal a new game")

    def next_hand(self) -> None:
        """The next deal, dealt by the seat to the left (`check_next`)."""
        self.check_next()
        state = self.hand.state
        self.hands.append(PracticeHand(self.rules, self.seed, self.hand.deal + 1,
                                       left_of(state.dealer), self.sides))
        self.actions.append([])
        self.notes.append({"calls": {}, "plays": {}})
        self.seq += 1

    def check_retry(self, hand: int, decision: int) -> None:
        """UserError unless hand `hand` (from 0) has the player's decision `decision` taken."""
        if not 0 <= hand < len(self.hands):
            raise UserError(f"hand must be 0 to {len(self.hands) - 1}, got {hand}")
        taken = len(self.actions[hand])
        if not 0 <= decision < taken:
            raise UserError(f"decision must be 0 to {taken - 1} in hand {hand} (your decisions "
                            f"taken there), got {decision}" if taken else
                            f"hand {hand} has no decision of yours taken yet")

    def retry(self, hand: int, decision: int) -> PracticeSession:
        """A new session at decision `decision` of hand `hand` (counted from 0 in this
        session's hands) of the same deal: the same seed, table and, in a game, the score
        before that hand; the player's earlier actions of the hand taken again (their feedback
        kept: the same decisions, valued alike), the others answering as they did. Its
        `retried` names the line left: the choice, its feedback and the hand's outcome."""
        self.check_retry(hand, decision)
        taken = self.actions[hand]
        played = self.hands[hand]
        before = tuple(_added(self.start_score, self.hands[:hand]))
        again = PracticeSession(self.rules, played.state.position(PLAYER_SEAT), self.seed,
                                played.deal, self.table, self.game, before)
        rows = [r for r in self.rows if r["id"] == played.deal and r["hand"] == hand]
        for action, row in zip(taken[:decision], rows, strict=False):
            again._taken(action, row | {"hand": 0})
        original = rows[decision]
        again.retried = {
            "hand": hand, "decision": decision, "deal": played.deal, "chosen": taken[decision],
            "feedback": original,
            "points": (dict(zip(("NS", "EW"), played.state.points(), strict=True))
                       if played.over else None),
            "tricks_won": (dict(zip(("NS", "EW"), played.state.team_tricks(), strict=True))
                           if played.over else None)}
        return again

    def state(self, feedback: dict | None = None) -> dict:
        """The hand as the player sees it, its summary once it is over, the game's, the
        tally and the sequence number."""
        hand = self.hand
        return hand.view() | {
            "seq": self.seq, "table": self.table, "feedback": feedback,
            "score": self.score() if self.game else None,
            "game_over": self.game_over if self.game else None,
            "summary": self.summary(len(self.hands) - 1) if hand.over else None,
            "game": self.game_summary() if self.game else None,
            "retry": self.retried,
            "tally": tally(self.rows, self.views, [i for i, h in enumerate(self.hands)
                                                   if h.over])}

    def summary(self, index: int) -> dict:
        """Hand `index`'s points lost by kind of decision, at the table of people and double
        dummy, its decisions' feedback, the yardsticks and the table."""
        rows = [r for r in self.rows if r["hand"] == index]
        return {"deal": self.hands[index].deal, "decisions": rows, "lost": lost_by_kind(rows),
                "yardsticks": YARDSTICKS, "table": self.table}

    def game_summary(self) -> dict:
        """The game: its target, score, whether it is over and who won, and each hand finished
        (its deal, dealer, points and the score after it, the player's side first)."""
        us, them = self.start_score
        hands = []
        for hand in self.done:
            scored = hand.state.points()
            us, them = us + scored[0], them + scored[1]
            hands.append({"deal": hand.deal, "dealer": SEAT_NAMES[hand.state.dealer],
                          "points": scored, "score": [us, them]})
        over = self.game_over
        return {"target": self.rules.target, "start": list(self.start_score),
                "score": [us, them], "over": over, "table": self.table,
                "winner": ("you" if us > them else "them") if over else None, "hands": hands}

    def egn(self) -> dict:
        """The hands finished as one EGN document, each loss annotated on its call or play,
        the table named."""
        finished = [i for i, hand in enumerate(self.hands) if hand.over]
        records = [state_to_record(self.hands[i].state, self.hands[i].deal) for i in finished]
        others = f"{self.table} table: {TABLES[self.table]}"
        players = ["You" if seat == PLAYER_SEAT else f"{name} ({others})"
                   for seat, name in enumerate(SEAT_NAMES)]
        deals = ", ".join(str(self.hands[i].deal) for i in finished) or "none yet"
        kind = "game" if self.game else "hands"
        title = f"euchre-sim practice {kind}, {self.table} table, seed {self.seed}, deals {deals}"
        return write_egn(records, self.rules, title, players, self.start_score,
                         annotations=[self.notes[i] for i in finished])


def _added(score: tuple[int, int], hands: list[PracticeHand]) -> list[int]:
    """`score` ([the player's side, theirs]) with the points of `hands` (finished) added: the
    player sits S, so NS's points are the player's side's."""
    us, them = score
    for hand in hands:
        scored = hand.state.points()
        us, them = us + scored[0], them + scored[1]
    return [us, them]

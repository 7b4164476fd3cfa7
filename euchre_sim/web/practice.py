"""The Practice tab's games: sessions (`api.games.PracticeSession`) kept by an id no other
page can guess, at most MAX_GAMES at once, each forgotten EXPIRE_SECONDS after its last use;
the bodies of their routes checked, and the queries the worker runs for them."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..api import Error
from ..api.games import PracticeSession, check_practice
from ..api.options import rules_of
from .bodies import fields_of
from .reviews import finite
from .worker import Busy, Query

MAX_GAMES = 16  # practice games live at once; one more is refused (429)
EXPIRE_SECONDS = 3600  # a game untouched this long is forgotten
MAX_DEAL = 10**9  # the first deal's number
_NEW_FIELDS = {"rules": str, "set": (dict, list), "seat": int, "seed": int, "deal": int}
_ACT_FIELDS = {"action": (str, dict)}


class NoGame(LookupError):
    """No live game has the id (answered 404)."""


@dataclass
class _Game:
    session: PracticeSession | None = None  # None until its first hand is dealt
    used: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


class PracticeGames:
    """The live games by id; `clock` gives the seconds that expiry counts."""

    def __init__(self, max_games: int = MAX_GAMES, expire_seconds: float = EXPIRE_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.max_games, self.expire_seconds, self.clock = max_games, expire_seconds, clock
        self._games: dict[str, _Game] = {}
        self._lock = threading.Lock()

    def new(self, body) -> tuple[str, Query]:
        """A game's id, its place taken (Busy when MAX_GAMES are live), and the query that
        deals its first hand; the body checked first."""
        fields = fields_of(body, _NEW_FIELDS, "practice")
        rules = rules_of(fields.get("rules", "standard"), fields.get("set"))
        position, seed, deal = fields.get("seat", 1), fields.get("seed", 0), fields.get("deal", 0)
        check_practice(position, seed)  # before the game takes a place
        if not 0 <= deal <= MAX_DEAL:
            raise Error(f"deal must be 0 to {MAX_DEAL:,}, got {deal:,}")
        game_id = secrets.token_hex(8)
        with self._lock:
            self._expire()
            if len(self._games) >= self.max_games:
                raise Busy(f"the server holds {self.max_games} practice games: try again when "
                           f"one has been left for {self.expire_seconds / 60:.0f} minutes")
            self._games[game_id] = _Game(used=self.clock())

        def deal_first(progress) -> dict:
            session = PracticeSession(rules, position, seed, deal)
            with self._lock:
                self._games[game_id].session = session
            return {"id": game_id} | finite(session.state())
        return game_id, deal_first

    def drop(self, game_id: str) -> None:
        """Forget a game (its first hand could not be dealt)."""
        with self._lock:
            self._games.pop(game_id, None)

    def act(self, game_id: str, body) -> Query:
        """The query that takes the player's action in the game and answers the next state
        with the action's feedback."""
        fields = fields_of(body, _ACT_FIELDS, "practice act")
        if "action" not in fields:
            raise Error("a practice act needs 'action', one of the state's 'legal'")
        game = self._game(game_id)
        with game.lock:  # a bad action fails before it waits
            game.session.hand.check(fields["action"])

        def act(progress) -> dict:
            with game.lock:
                feedback = game.session.act(fields["action"])
                return finite(game.session.state(feedback))
        return act

    def next_hand(self, game_id: str, body) -> Query:
        """The query that deals the game's next hand (the one in play must be over)."""
        fields_of(body, {}, "practice next")
        game = self._game(game_id)
        with game.lock:  # a hand in play fails before it waits
            game.session.check_next()

        def deal_next(progress) -> dict:
            with game.lock:
                game.session.next_hand()
                return finite(game.session.state())
        return deal_next

    def egn(self, game_id: str) -> dict:
        """The hands the game has finished as EGN, losses annotated."""
        game = self._game(game_id)
        with game.lock:
            return game.session.egn()

    def _game(self, game_id: str) -> _Game:
        with self._lock:
            self._expire()
            game = self._games.get(game_id)
            if game is None or game.session is None:
                raise NoGame(f"no practice game {game_id[:40]!r} (a game is forgotten "
                         f"{self.expire_seconds / 60:.0f} minutes after its last move)")
            game.used = self.clock()
            return game

    def _expire(self) -> None:
        now = self.clock()
        for game_id in [i for i, g in self._games.items() if now - g.used > self.expire_seconds]:
            del self._games[game_id]

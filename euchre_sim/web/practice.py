"""The Practice tab's games: sessions (`api.games.PracticeSession`) kept by an id no other
page can guess, at most MAX_PER_CLIENT for one client address and MAX_GAMES in all (a new game
past either ends the least recently used one: never a refusal), each forgotten EXPIRE_SECONDS
after its last use; the bodies of their routes checked (a null field refused), each state
answered kept by the `seq` it answered, so that an action sent twice is taken once; and the
queries the worker runs for them."""

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
from .worker import Query

MAX_GAMES = 256  # practice games live at once, every client's
MAX_PER_CLIENT = 8  # ... and one client address's
EXPIRE_SECONDS = 3600  # a game untouched this long is forgotten
MAX_DEAL = 10**9  # the first deal's number
_NEW_FIELDS = {"rules": str, "set": (dict, list), "seat": int, "seed": int, "deal": int,
               "table": str, "game": bool, "replaces": str}
_ACT_FIELDS = {"action": (str, dict), "seq": int}
_NEXT_FIELDS = {"seq": int}
_RETRY_FIELDS = {"hand": int, "decision": int}


class NoGame(LookupError):
    """No live game has the id (answered 404)."""


class Stale(Exception):
    """An act or a next answering a state whose answer is no longer kept (answered 409)."""


@dataclass
class _Game:
    client: str
    session: PracticeSession | None = None  # None until its first hand is dealt
    used: float = 0.0
    answered: dict[int, dict] = field(default_factory=dict)  # by seq: the state it produced
    lock: threading.Lock = field(default_factory=threading.Lock)


def _fields(body, allowed: dict, what: str) -> dict:
    """`fields_of`, a null refused (it would be taken for the field's default)."""
    if isinstance(body, dict):
        for name, value in body.items():
            if value is None:
                raise Error(f"field {str(name)[:40]!r} of {what} must not be null")
    return fields_of(body, allowed, what)


class PracticeGames:
    """The live games by id; `clock` gives the seconds that expiry and eviction count."""

    def __init__(self, max_games: int = MAX_GAMES, expire_seconds: float = EXPIRE_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 max_per_client: int = MAX_PER_CLIENT):
        self.max_games, self.expire_seconds, self.clock = max_games, expire_seconds, clock
        self.max_per_client = max_per_client
        self._games: dict[str, _Game] = {}
        self._lock = threading.Lock()

    def new(self, body, client: str = "") -> tuple[str, Query]:
        """A game's id, its place taken (the game it `replaces`, if the client's, ended; the
        client's or everyone's least recently used game ended at the caps), and the query
        that deals its first hand; the body checked first."""
        fields = _fields(body, _NEW_FIELDS, "practice")
        rules = rules_of(fields.get("rules", "standard"), fields.get("set"))
        position, seed, deal = fields.get("seat", 1), fields.get("seed", 0), fields.get("deal", 0)
        table, game = fields.get("table", "people"), fields.get("game", False)
        check_practice(position, seed, table, rules)  # before the game takes a place
        if not 0 <= deal <= MAX_DEAL:
            raise Error(f"deal must be 0 to {MAX_DEAL:,}, got {deal:,}")
        game_id = self._place(client, fields.get("replaces"))
        return game_id, self._dealing(game_id, lambda: PracticeSession(
            rules, position, seed, deal, table, game))

    def retry(self, game_id: str, body, client: str = "") -> tuple[str, Query]:
        """A new game at one of the game's decisions (`PracticeSession.retry`), its place taken
        as a new game's, and the query that deals it."""
        fields = _fields(body, _RETRY_FIELDS, "practice retry")
        for name in _RETRY_FIELDS:
            if name not in fields:
                raise Error(f"a practice retry needs {name!r} (counted from 0)")
        game = self._game(game_id)
        with game.lock:  # a decision not taken fails before it waits
            game.session.check_retry(fields["hand"], fields["decision"])
        new_id = self._place(client, None)

        def again() -> PracticeSession:
            with game.lock:
                return game.session.retry(fields["hand"], fields["decision"])
        return new_id, self._dealing(new_id, again, {"of": game_id})

    def _dealing(self, game_id: str, deal: Callable[[], PracticeSession],
                 extra: dict | None = None) -> Query:
        def deal_first(progress) -> dict:
            session = deal()
            with self._lock:
                if game_id in self._games:
                    self._games[game_id].session = session
            state = {"id": game_id} | finite(session.state())
            if extra and state["retry"] is not None:
                state["retry"] |= extra
            return state
        return deal_first

    def _place(self, client: str, replaces: str | None) -> str:
        """A new game's id, in place: the game it replaces ended (only the client's own), the
        expired forgotten, then the client's least recently used game ended at its cap and
        everyone's at MAX_GAMES."""
        game_id = secrets.token_hex(8)
        with self._lock:
            if replaces is not None and getattr(self._games.get(replaces), "client",
                                                None) == client:
                del self._games[replaces]
            self._expire()
            mine = [i for i, g in self._games.items() if g.client == client]
            if len(mine) >= self.max_per_client:
                del self._games[min(mine, key=lambda i: self._games[i].used)]
            if len(self._games) >= self.max_games:
                del self._games[min(self._games, key=lambda i: self._games[i].used)]
            self._games[game_id] = _Game(client, used=self.clock())
        return game_id

    def drop(self, game_id: str) -> None:
        """Forget a game (its first hand could not be dealt)."""
        with self._lock:
            self._games.pop(game_id, None)

    def act(self, game_id: str, body) -> Query:
        """The query that takes the player's action in the game and answers the next state
        with the action's feedback; an act whose `seq` was taken already is answered with the
        state it produced."""
        fields = _fields(body, _ACT_FIELDS, "practice act")
        if "action" not in fields:
            raise Error("a practice act needs 'action', one of the state's 'legal'")
        game = self._game(game_id)
        seq = fields.get("seq")
        with game.lock:  # a bad action fails before it waits
            if _fresh(game, seq):
                game.session.hand.check(fields["action"])

        def act(progress) -> dict:
            with game.lock:
                if not _fresh(game, seq):
                    return game.answered[seq]
                return _answer(game, lambda s: s.state(s.act(fields["action"])))
        return act

    def next_hand(self, game_id: str, body) -> Query:
        """The query that deals the game's next hand (the one in play must be over); a next
        whose `seq` was taken already is answered with the state it produced."""
        seq = _fields(body, _NEXT_FIELDS, "practice next").get("seq")
        game = self._game(game_id)
        with game.lock:  # a hand in play fails before it waits
            if _fresh(game, seq):
                game.session.check_next()

        def deal_next(progress) -> dict:
            with game.lock:
                if not _fresh(game, seq):
                    return game.answered[seq]
                return _answer(game, lambda s: (s.next_hand(), s.state())[1])
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
                             f"{self.expire_seconds / 60:.0f} minutes after its last move, "
                             "or when its player deals a new one)")
            game.used = self.clock()
            return game

    def _expire(self) -> None:
        now = self.clock()
        for game_id in [i for i, g in self._games.items() if now - g.used > self.expire_seconds]:
            del self._games[game_id]


def _fresh(game: _Game, seq: int | None) -> bool:
    """Is the act or next to be taken (no `seq`, or the game's)? False: answered already;
    Error for a seq ahead of the game's, Stale for one whose answer is not kept."""
    now = game.session.seq
    if seq is None or seq == now:
        return True
    if seq > now:
        raise Error(f"seq {seq} is ahead of the game's ({now})")
    if seq not in game.answered:
        raise Stale(f"seq {seq} was answered long ago; the game is at seq {now}")
    return False


def _answer(game: _Game, step: Callable[[PracticeSession], dict]) -> dict:
    """The state a step of the session produces, kept by the seq it answered."""
    before = game.session.seq
    state = finite(step(game.session))
    game.answered[before] = state
    return state


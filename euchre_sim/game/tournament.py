"""A tournament: whole games between two players, each a bidder and a card-play model, in
duplicate by default (every game played twice from the same deals, the players' seats
swapped, so the luck of the cards cancels).

Player A is the `--ns` player, B the `--ew` one; in a duplicate pair's second copy B holds
the NS seats. A game's score, dealer and cards belong to the seats, so both copies start from
the same score with the same dealer. Games are chunked like a simulation (`runner`): any
worker count, `--resume` and Dask give the same tables. The folder ends with games.parquet
(one row per game played), hands.parquet (one row per hand) and run.json (the summary).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..bidding.params import params_by_name
from ..bidding.table import DecisionTable, file_source, load_decision_table
from ..core.cards import JOKER
from ..core.dealing import deck_array, seed_to_u64
from ..core.errors import FieldError, UserError
from ..core.limits import MAX_GAMES, check_seed
from ..core.results import n_results
from ..core.rules import RuleSet, rules_from_dict
from ..core.ruletables import compile_rules
from ..core.seats import SEAT_NAMES, TEAM_NAMES
from ..core.stats import interval95, mean_se_of_sums
from ..play.models import chunk_size
from ..play.pimc import inference_of
from ..play.player import TABLE_BIDDERS
from ..runs.runner import (
    ChunkedPlan,
    checked_chunks,
    chunk_storer,
    close_run,
    run_jobs_dask,
    run_jobs_local,
    stream_parquet,
    writing_run,
)
from ..solver.search import shared_tt
from .drinks import HandFacts, drinks_of
from .match import HAND_FIELDS, HANDS_PER_GAME, N_FIELDS, Match, play_games, unfinished_game
from .odds import read_odds


class TournamentJob(NamedTuple):
    """Everything a chunk of games depends on (its result is a pure function of these)."""

    options: dict
    seed: int
    index: int
    first_game: int
    count: int
    players: tuple  # (A, B): play.player.Player, their decision tables loaded
    duplicate: bool
    start: tuple  # (NS, EW) score at the start of every game
    dealer: int  # the first dealer's seat (-1: seat g % 4 deals first in game g)
    worlds: int  # both players' worlds per PIMC decision
    odds: np.ndarray | None = None  # the game bidder's p[us, them, we_deal]


@dataclass(frozen=True)
class TournamentPlan(ChunkedPlan):
    """A tournament, checked: `games` games of the seed between `players` (A, B), in chunks of
    `chunk_size` games (default: `default_chunk_size`), in duplicate pairs unless
    `duplicate` is False, each from the `start` score (NS, EW), the first dealer `dealer`
    (-1: seat g % 4 deals first in game g); `players` (play.player.Player: a bidder, its
    weights, a play model and the worlds per PIMC decision, the same for both); the table and
    game bidders' decisions from `bidder_table`, the game bidder's chances from `odds_dir`
    (an odds run's folder)."""

    out_dir: str
    rules: RuleSet
    seed: int
    games: int
    players: tuple
    chunk_size: int | None = None
    duplicate: bool = True
    start: tuple = (0, 0)
    dealer: int = -1
    bidder_table: str | None = None
    odds_dir: str | None = None
    odds: np.ndarray | None = field(default=None, compare=False)

    def __post_init__(self):
        def settle(name: str, value) -> None:
            object.__setattr__(self, name, value)

        self.check_size("games", MAX_GAMES)
        check_seed(self.seed)
        rules, start = self.rules, tuple(self.start)
        if max(start) >= rules.target or min(start) < 0:
            raise FieldError("{from_score} {us}-{them}: each side's score must be from 0 to "
                             "{top} (the game is to {target})", us=start[0], them=start[1],
                             top=rules.target - 1, target=rules.target)
        bidders = {p.bidder for p in self.players}
        if bool(bidders & {"table", "game"}) != (self.bidder_table is not None):
            raise FieldError("the table and game bidders read their decisions from "
                             "{bidder_table} DIR (and only they do)")
        if ("game" in bidders) != (self.odds_dir is not None):
            raise FieldError("the game bidder reads its chances of the game from {odds} DIR "
                             "(and only it does)")
        if "game" in bidders and "dd" in bidders:
            raise UserError("the game bidder plays against the rules, table or game bidder, "
                            "not dd")
        if len({p.worlds for p in self.players}) != 1:
            raise FieldError("both players sample the same {worlds} (the games' kernels take "
                             "one)")
        table = self.players_table()
        settle("players", tuple(
            replace(p, table_dir=self.bidder_table, table=table) if p.bidder in TABLE_BIDDERS
            else p for p in self.players))
        if self.odds_dir is not None and self.odds is None:
            settle("odds", self._read_odds(table))
        settle("start", start)

    @property
    def worlds(self) -> int:
        """Both players' worlds per PIMC decision."""
        return self.players[0].worlds

    def players_table(self) -> DecisionTable | None:
        """The table and game bidders' decisions, read once for both players."""
        loaded = [p.table for p in self.players if p.table is not None]
        if loaded:
            return loaded[0]
        return None if self.bidder_table is None else load_decision_table(self.bidder_table,
                                                                          self.rules)

    def _read_odds(self, table: DecisionTable) -> np.ndarray:
        """The game bidder's p[us, them, we_deal], checked against the rules and the table."""
        odds = read_odds(self.odds_dir, self.rules)
        if table.results.shape[1] != n_results(self.rules.max_hand_points):
            raise UserError(f"the decisions in {self.bidder_table!r} keep no result shares "
                            "(simulate --bidding again with this version)")
        return odds

    @property
    def total(self) -> int:
        return self.games

    @property
    def chunk_items(self) -> int:
        """Games per chunk: as asked, else `default_chunk_size`."""
        return self.chunk_size or default_chunk_size(self.games, self.players)

    def job(self, index: int, first: int, count: int) -> TournamentJob:
        """Chunk `index`'s job: `count` games from game `first`."""
        return TournamentJob(self.rules.options(), self.seed, index, first, count, self.players,
                             self.duplicate, self.start, self.dealer, self.worlds, self.odds)

    def warm_up(self) -> None:
        """Compile (or load from Numba's cache) every kernel the games call, once, in this
        process: one game of the first chunk (`RunPlan.warm_up`)."""
        compute_games(self.job(0, 0, 1))

    def identity(self) -> dict:
        """What the run computes: a resumed run must match it exactly."""
        return {"kind": "tournament", "seed": self.seed, "games": self.games,
                "rules": self.rules.options(),
                "players": {name: {"bidding": p.bidder, "play": p.play} | p.net_source()
                            for name, p in zip("AB", self.players, strict=True)},
                "duplicate": self.duplicate, "start": list(self.start),
                "dealer": None if self.dealer < 0 else SEAT_NAMES[self.dealer],
                "worlds": self.worlds if any(p.sampled_worlds for p in self.players) else None,
                "bidder_params": {name: params_by_name(p.record().weights) for name, p in
                                  zip("AB", self.players, strict=True)},
                "bidder_table": file_source(self.bidder_table),
                "odds": file_source(self.odds_dir, "odds.parquet")}



def default_chunk_size(games: int, players: tuple) -> int:
    """About a hundred chunks, of as few games as the slower player's pace asks
    (`play.models.Pace`)."""
    return min(chunk_size(games, p.model.pace.chunk_games) for p in players)


def prepare_tournament(plan: TournamentPlan, resume: bool = False,
                       warn: Callable[[str], None] | None = None) -> TournamentPlan:
    """Check the folder; write (or check) the manifest; warn(line) names each damaged chunk a
    resume removes (`runner.open_run`). A resumed run keeps its chunk size unless the plan
    names one (then they must agree)."""
    return plan.opened(resume, warn)


def game_records(job: TournamentJob) -> np.ndarray:
    """The hand records (game.match.HAND_FIELDS) of the job's games, in game order."""
    rules = rules_from_dict(job.options)
    players = tuple(p.record() for p in job.players)
    inference = tuple(inference_of(r if p.sampled_worlds else None)
                      for r, p in zip(players, job.players, strict=True))
    odds = job.odds if job.odds is not None else np.zeros((1, 1, 2))
    match = Match(compile_rules(rules), deck_array(rules), seed_to_u64(job.seed), rules.target,
                  job.start[0], job.start[1], job.dealer, job.duplicate, rules.drinks,
                  job.worlds, odds, n_results(rules.max_hand_points), shared_tt())
    copies = 2 if job.duplicate else 1
    buffer = np.zeros((HANDS_PER_GAME, N_FIELDS), dtype=np.int64)
    capacity = job.count * copies * 16
    while True:
        out = np.zeros((capacity, N_FIELDS), dtype=np.int64)
        n = play_games(match, (players[0], players[1]), inference, job.first_game, job.count,
                       out, buffer)
        if n >= 0:
            return out[:n]
        capacity *= 2


def hand_frame(rules: RuleSet, records: np.ndarray) -> pd.DataFrame:
    """hands.parquet rows: seats as letters, the contract as the auction's action and trump."""
    cols = {name: records[:, i] for i, name in enumerate(HAND_FIELDS)}
    deck = rules.card_deck
    seat = np.array(list(SEAT_NAMES) + [None], dtype=object)
    suits = np.array([deck.suit_name(s) for s in range(4)] + ["NT", None], dtype=object)
    passed = cols["round"] == 0
    frame = pd.DataFrame({
        "game": cols["game"], "copy": cols["copy"].astype(np.int8),
        "hand": cols["hand"].astype(np.int32), "dealer": seat[cols["dealer"]],
        "ns_before": cols["ns_before"].astype(np.int16),
        "ew_before": cols["ew_before"].astype(np.int16),
        "upcard": [deck.card_name(int(c)) for c in cols["upcard"]],
        "action": np.where(passed, None, np.where(cols["round"] == 1, "order_up", "call")),
        "trump": suits[cols["trump"]], "maker": seat[cols["maker"]],
        "alone": cols["alone"].astype(bool), "defender": seat[cols["defender"]],
        "tricks": pd.array(np.where(passed, -1, cols["tricks"]), dtype="Int8"),
        "ns_points": cols["ns_points"].astype(np.int16),
        "ew_points": cols["ew_points"].astype(np.int16)})
    frame.loc[passed, "tricks"] = pd.NA
    if rules.drinks:
        drinks = np.array([drinks_of(_facts(cols, i)) for i in range(len(records))],
                          dtype=np.int16).reshape(-1, 4)
        for s, name in enumerate(SEAT_NAMES):
            frame[f"drinks_{name.lower()}"] = drinks[:, s]
    return frame


def _facts(cols: dict, i: int) -> HandFacts:
    round_no = int(cols["round"][i])
    maker = int(cols["maker"][i])
    tricks = int(cols["tricks"][i])
    won = (0, 0)
    if maker >= 0:
        won = (tricks, 5 - tricks) if maker % 2 == 0 else (5 - tricks, tricks)
    return HandFacts(round_no != 1 and int(cols["upcard"][i]) != JOKER, maker,
                     bool(cols["alone"][i]), won,
                     tuple(int(cols[f"failed_{s.lower()}"][i]) for s in SEAT_NAMES),
                     (int(cols["ns_points"][i]), int(cols["ew_points"][i])))


def game_frame(job: TournamentJob, hands: pd.DataFrame) -> pd.DataFrame:
    """games.parquet rows: one per game played, who sat where, the final score, the winner."""
    last = hands.groupby(["game", "copy"], sort=True).tail(1)
    ns = (last["ns_before"] + last["ns_points"]).to_numpy()
    ew = (last["ew_before"] + last["ew_points"]).to_numpy()
    _check_finished(job, hands, last, ns, ew)
    copy = last["copy"].to_numpy()
    a, b = job.players
    frame = pd.DataFrame({
        "game": last["game"].to_numpy(), "copy": copy.astype(np.int8),
        "ns_player": np.where(copy == 0, "A", "B"), "ew_player": np.where(copy == 0, "B", "A"),
        "ns_bidder": np.where(copy == 0, a.bidder, b.bidder),
        "ns_play": np.where(copy == 0, a.play, b.play),
        "ew_bidder": np.where(copy == 0, b.bidder, a.bidder),
        "ew_play": np.where(copy == 0, b.play, a.play),
        "ns_start": np.int16(job.start[0]), "ew_start": np.int16(job.start[1]),
        "first_dealer": hands.groupby(["game", "copy"], sort=True)["dealer"].first().to_numpy(),
        "hands": (last["hand"].to_numpy() + 1).astype(np.int32),
        "ns_score": ns.astype(np.int16), "ew_score": ew.astype(np.int16),
        "winner": np.where(ns > ew, TEAM_NAMES[0], TEAM_NAMES[1])})
    frame["a_won"] = (frame["winner"] == TEAM_NAMES[0]) == (frame["ns_player"] == "A")
    drink_cols = [c for c in hands.columns if c.startswith("drinks_")]
    if drink_cols:
        sums = hands.groupby(["game", "copy"], sort=True)[drink_cols].sum()
        for c in drink_cols:
            frame[c] = sums[c].to_numpy().astype(np.int32)
    return frame


def _check_finished(job: TournamentJob, hands: pd.DataFrame, last: pd.DataFrame,
                    ns: np.ndarray, ew: np.ndarray) -> None:
    """A UserError (`match.unfinished_game`) for the first game whose last hand left both
    sides short of the target: it stopped at HANDS_PER_GAME hands, and has no winner."""
    target = rules_from_dict(job.options).target
    short = np.flatnonzero((ns < target) & (ew < target))
    if len(short):
        i = short[0]
        game, copy = int(last["game"].iloc[i]), int(last["copy"].iloc[i])
        played = hands[(hands["game"] == game) & (hands["copy"] == copy)]
        raise unfinished_game(game + 1, len(played), int(ns[i]), int(ew[i]), target,
                              all_passed=bool(played["action"].isna().all()))


def compute_games(job: TournamentJob) -> tuple[int, int, dict[str, bytes]]:
    """Play one chunk of games anywhere; returns (index, games, files as Parquet bytes)."""
    rules = rules_from_dict(job.options)
    hands = hand_frame(rules, game_records(job))
    files = {}
    for name, frame in (("hands", hands), ("games", game_frame(job, hands))):
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        files[f"{name}.parquet"] = buffer.getvalue()
    return job.index, job.count, files


def run_tournament(plan: TournamentPlan, workers: int, on_done, scheduler: str | None = None
                   ) -> None:
    """Play the pending chunks: local processes, or a Dask cluster with `scheduler`."""
    store = chunk_storer(plan, on_done)
    with writing_run(plan.out_dir):
        if scheduler:
            run_jobs_dask(plan.pending(), compute_games, store, scheduler, workers,
                          name="euchre-games")
        else:
            run_jobs_local(plan.pending(), compute_games, store, workers)


def summary_sums(games: pd.DataFrame, hands: pd.DataFrame, duplicate: bool) -> dict:
    """What one chunk's games add to the summary (`summarize`), each [n, sum, sum of squares]:
    A's result per duplicate pair (or game), A's net points per hand, NS's wins, hands per
    game, hands passed out, and each seat's and each player's drinks per game."""
    def moments(values) -> np.ndarray:
        x = np.asarray(values, dtype=np.float64)
        return np.array([len(x), x.sum(), (x * x).sum()])

    won = games["a_won"].to_numpy(np.float64)
    a_is_ns = np.where(hands["copy"].to_numpy() == 0, 1, -1)
    net = hands["ns_points"].to_numpy(np.float64) - hands["ew_points"].to_numpy(np.float64)
    sums = {"a_won": moments(won.reshape(-1, 2).mean(axis=1) if duplicate else won),
            "a_net": moments(net * a_is_ns),
            "ns_won": moments(games["winner"] == TEAM_NAMES[0]),
            "hands": moments(games["hands"]), "passed": moments(hands["action"].isna())}
    drink_cols = [c for c in games.columns if c.startswith("drinks_")]
    if drink_cols:
        sums |= {c: moments(games[c]) for c in drink_cols}
        seat_drinks = games[drink_cols].to_numpy(np.float64)
        ns = seat_drinks[:, 0] + seat_drinks[:, 2]
        ew = seat_drinks[:, 1] + seat_drinks[:, 3]
        a_ns = (games["ns_player"] == "A").to_numpy()
        sums |= {"player A": moments(np.where(a_ns, ns, ew)),
                 "player B": moments(np.where(a_ns, ew, ns))}
    return sums


def summarize(sums: dict, duplicate: bool) -> dict:
    """Player A's game-win rate with its 95 % interval (over duplicate pairs, whose two games
    share their cards), A's net points per hand, hands per game, and mean drinks per seat
    and per player, from the sums of every chunk (`summary_sums`)."""
    def mean_and_se(name: str) -> tuple[float, float]:
        n, total, squares = sums[name]
        return tuple(float(v) for v in mean_se_of_sums(total, squares, n))

    rate, se = mean_and_se("a_won")
    per_hand, per_hand_se = mean_and_se("a_net")
    ns_rate, ns_se = mean_and_se("ns_won")
    summary = {
        "games": int(sums["ns_won"][0]), "pairs": int(sums["a_won"][0]) if duplicate else None,
        "a_win_rate": rate, "a_win_rate_se": se,
        "a_win_rate_95": interval95(rate, se),
        "ns_win_rate": ns_rate, "ns_win_rate_se": ns_se,
        "a_points_per_hand": per_hand, "a_points_per_hand_se": per_hand_se,
        "hands_per_game": mean_and_se("hands")[0],
        "passed_out_rate": mean_and_se("passed")[0]}
    drink_cols = [c for c in sums if c.startswith("drinks_")]
    if drink_cols:
        summary["drinks_per_game_by_seat"] = {
            c.removeprefix("drinks_").upper(): mean_and_se(c)[0] for c in drink_cols}
        summary["drinks_per_game_by_player"] = {
            name: mean_and_se(f"player {name}")[0] for name in "AB"}
    return summary


def finish_tournament(plan: TournamentPlan, elapsed: float, workers: int,
                      engine: str = "local", warn: Callable[[str], None] | None = None) -> dict:
    """Merge the chunks into games.parquet and hands.parquet, summarise into run.json. Each
    chunk is checked first: a damaged one is played again here (`runner.checked_chunks`)."""
    import pyarrow.parquet as pq

    chunks = checked_chunks(plan, lambda: run_tournament(plan, workers, lambda games: None),
                            warn)
    sums: dict = {}
    for chunk in chunks:  # a chunk at a time: the memory of one chunk, whatever the run's size
        part = summary_sums(pd.read_parquet(os.path.join(chunk, "games.parquet")),
                            pd.read_parquet(os.path.join(chunk, "hands.parquet"),
                                            columns=["copy", "ns_points", "ew_points", "action"]),
                            plan.duplicate)
        sums = {name: sums.get(name, 0) + value for name, value in part.items()}
    info = plan.manifest() | {
        "elapsed_seconds": round(elapsed, 3), "workers": workers, "engine": engine,
        "players_described": {"A": plan.players[0].label(), "B": plan.players[1].label()},
        "summary": summarize(sums, plan.duplicate)}
    for name in ("games", "hands"):
        stream_parquet((pq.read_table(os.path.join(c, f"{name}.parquet")) for c in chunks),
                       os.path.join(plan.out_dir, f"{name}.parquet"), info)
    close_run(plan.out_dir, plan.manifest(), info)
    return info


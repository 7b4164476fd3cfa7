"""Perfect-information Monte Carlo play (`--play pimc`), and double-dummy play as its special
case of one world, the true deal (`--play dd` in self-play).

At each decision the seat samples worlds consistent with what it knows (`worlds`), solves each
world from the current position for every distinct card it may play, and plays the card
with the best mean points for its side. Each solve asks only what decides the points: do the
makers reach 3 tricks, and all 5 (one or two zero-window searches of the double-dummy solver,
started mid-trick when need be). When the points are already settled, or several cards tie
on the best mean, the conventional player's card is taken among the best.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.bits import one_bit
from ..core.jit import njit
from ..core.ruletables import LAYOUT_TRUMPS
from ..core.seats import team_of
from ..core.trick import legal_cards, next_active
from ..solver.equivalence import candidates, run_top
from ..solver.search import Search, TrickPoint, call_search_at, new_work
from .conventional import conventional_card, conventional_discard
from .net_inference import new_net_work
from .player import Player, PlayerRecord
from .state import (
    P_LED,
    P_TRICK,
    S_ACTIVE,
    S_DEALER,
    S_DEFENDER_ALONE,
    S_MAKER,
    S_MAKER_ALONE,
    S_MAKER_TRICKS,
    S_N_ACTIVE,
    S_POS,
    S_TRICKS,
    S_TURN,
    S_UP,
    S_WBIT,
    S_WSEAT,
    TRICKS_PER_HAND,
    Position,
    settled,
    unseen_by,
)
from .worlds import CHAIN_WORDS, SCRATCH_INTS, SCRATCH_WORDS, sample_world

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
MAX_CANDIDATES = 8
FIRST_LOOK = 10  # worlds before a decision may stop early
LOOK_EVERY = 5  # then a look every 5 worlds
CLEAR_Z = 3.0  # the best candidate's paired lead over each other, in standard errors


class Inference(NamedTuple):
    """What a PIMC player's worlds infer from, and their work (see `worlds`): the player whose
    auction the worlds agree with (its bidder NO_BIDDER: nothing, only what was seen);
    counters (worlds asked, worlds that agree with everything, worlds that had to leave
    something out); the chain's buffers and the places it dealt; which seats found no
    agreeing world in the hand (`worlds.forget_hopeless`); the samplers' work."""

    player: PlayerRecord
    counters: np.ndarray
    chain: np.ndarray
    placed: np.ndarray
    hopeless: np.ndarray
    ints: np.ndarray
    words: np.ndarray


def inference_of(player: PlayerRecord | None = None) -> Inference:
    """An Inference whose worlds agree with `player`'s auction (None: infer nothing)."""
    return Inference(player if player is not None else Player().record(), np.zeros(3, np.int64),
                     np.zeros(CHAIN_WORDS, np.int64), np.zeros(10, np.uint64),
                     np.zeros(4, np.bool_), np.zeros(SCRATCH_INTS, np.int64),
                     np.zeros(SCRATCH_WORDS, np.uint64))


class PimcWork(NamedTuple):
    """The buffers of one card player (`new_pimc_work`): PIMC's, and the learned player's
    net and its buffers."""

    search: tuple  # the solver's work (solver.search.new_work)
    world: np.ndarray  # one world's hands, by seat
    cards: np.ndarray  # a card list
    candidates: np.ndarray
    sums: np.ndarray  # each candidate's points over the worlds so far
    inference: Inference
    cross: np.ndarray  # the sums' cross products
    clear_z: np.ndarray  # when a decision stops early (race_survivors; 0: never)
    values: np.ndarray  # one world's points by candidate
    nets: tuple  # the learned player's nets (net_weights.CardNets; empty: none)
    net_work: tuple  # its buffers (net_inference.NetWork)


@njit
def new_pimc_work(inference, nets, clear_z=CLEAR_Z):
    """Buffers of one card player inferring from `inference` (`inference_of`), its learned
    nets `nets` (net_weights; empty ones for every other model); clear_z: when a PIMC decision
    stops early (see `race_survivors`; 0: never, every decision takes all its worlds)."""
    return PimcWork(new_work(), np.zeros(4, dtype=np.uint64), np.zeros(64, dtype=np.int64),
                    np.zeros(MAX_CANDIDATES, dtype=np.int64),
                    np.zeros(MAX_CANDIDATES, dtype=np.int64), inference,
                    np.zeros((MAX_CANDIDATES, MAX_CANDIDATES), dtype=np.int64),
                    np.array([clear_z], dtype=np.float64),
                    np.zeros(MAX_CANDIDATES, dtype=np.int64), nets, new_net_work(nets))


class Worlds(NamedTuple):
    """The worlds a decision is valued over: `n_worlds` of its seat's (`sample_world`'s)
    from the decision's `key`, or the true deal alone (`true_world`: double-dummy play)."""

    n_worlds: int
    key: np.uint64
    true_world: bool


class SolveFrom(NamedTuple):
    """Where a solve of a world starts: the makers' tricks (`made`) of the tricks complete
    (`done`), the seat to play next (`nxt`) and its place in the trick (`pos`, 0: on lead),
    the trick's led suit (`led`, its cards' bits) and its winning power bit and seat so far
    (`wbit`, `wseat`; -1: none yet)."""

    made: int
    done: int
    nxt: int
    pos: int
    led: np.uint64
    wbit: int
    wseat: int


class Race(NamedTuple):
    """A decision's race among its candidates (`race_survivors`): each one's points summed
    over the worlds so far (`sums`) and the sums' cross products (`cross`), the candidates
    (`cands`, the first n of them), the one that wins a tie for the best (`preferred`), and
    whether the deciding seat's side wants the most points to the makers (`maximize`)."""

    sums: np.ndarray
    cross: np.ndarray
    cands: np.ndarray
    n: int
    preferred: int
    maximize: bool


@njit(nrt=False, inline="always")
def _ns_reach(lay, wh, st, start, left, target, tt, work):
    """Do NS take at least `target` of the `left` tricks still open?"""
    if target <= 0:
        return True
    if target > left:
        return False
    v = call_search_at(Search(lay, st[S_ACTIVE], st[S_N_ACTIVE], tt), wh,
                       TrickPoint(start.nxt, start.pos, start.led, start.wbit, start.wseat),
                       target - 1, target, work)
    return v >= target


@njit(nrt=False, inline="always")
def _makers_at_least(lay, wh, st, start, left, k, tt, work):
    if team_of(st[S_MAKER]) == 0:
        return _ns_reach(lay, wh, st, start, left, k, tt, work)
    return not _ns_reach(lay, wh, st, start, left, left - k + 1, tt, work)


@njit(nrt=False)
def _maker_points(score, lay, wh, st, start, tt, work):
    """Points to the makers (`score`: the rules' points table) under perfect play of world
    `wh` from `start` (a SolveFrom). Kernels below the decision take the arrays they read,
    not the rule tables: a struct of arrays passed down every call is copied at every call."""
    made, done = start.made, start.done
    left = TRICKS_PER_HAND - done
    need = 3 - made
    made_it = need <= 0 or (need <= left and _makers_at_least(
        lay, wh, st, start, left, need, tt, work))
    rep = 0
    if made_it:
        rep = 3
        if made == done and (left == 0 or _makers_at_least(
                lay, wh, st, start, left, left, tt, work)):
            rep = 5
    return score[st[S_MAKER_ALONE], st[S_DEFENDER_ALONE], rep]


@njit(nrt=False, inline="always")
def _points_after(score, at, p, tt, work):
    """Makers' points in world at.hands after at.seat plays power bit p, all playing
    perfectly."""
    lay, wh, st, pm, seat = at
    b = one_bit(p)
    pos = st[S_POS]
    if pos == 0:
        led = lay[p]
        wbit = p
        wseat = seat
    else:
        led = pm[P_LED]
        wbit = st[S_WBIT]
        wseat = st[S_WSEAT]
        if b & (led | lay[LAYOUT_TRUMPS]) and p > wbit:
            wbit = p
            wseat = seat
    made = st[S_MAKER_TRICKS]
    done = st[S_TRICKS]
    wh[seat] &= ~b
    if pos + 1 == st[S_N_ACTIVE]:
        if team_of(wseat) == team_of(st[S_MAKER]):
            made += 1
        value = _maker_points(score, lay, wh, st, _between_tricks(made, done + 1, wseat), tt,
                              work)
    else:
        value = _maker_points(score, lay, wh, st,
                              SolveFrom(made, done, next_active(st[S_ACTIVE], seat), pos + 1,
                                        led, wbit, wseat), tt, work)
    wh[seat] |= b
    return value


@njit(inline="always")
def _between_tricks(made, done, leader):
    """A SolveFrom at a trick boundary, `leader` to lead (int64s, not literals: a literal
    compiles the chain once more)."""
    return SolveFrom(made, done, leader, np.int64(0), _ZERO, np.int64(-1), np.int64(-1))


@njit(nrt=False)
def _pick(race, alive):
    """Index of the best sum among the race's candidates in the mask `alive`; the preferred
    candidate wins ties for the best."""
    sums, cands, n, maximize = race.sums, race.cands, race.n, race.maximize
    best = -1
    for i in range(n):
        if (alive >> i) & 1 and (best < 0 or ((sums[i] > sums[best]) if maximize
                                              else (sums[i] < sums[best]))):
            best = i
    for i in range(n):
        if (alive >> i) & 1 and cands[i] == race.preferred and sums[i] == sums[best]:
            return i
    return best


@njit(nrt=False, inline="always")
def _discard_points(score, at, p, tt, work):
    """Makers' points in world at.hands (at.seat, the dealer, holding six) when the dealer
    discards p."""
    lay, wh, st, _, dealer = at
    hand = wh[dealer]
    wh[dealer] = hand & ~one_bit(p)
    value = _maker_points(score, lay, wh, st, _between_tricks(np.int64(0), np.int64(0),
                                                              st[S_TURN]), tt, work)
    wh[dealer] = hand
    return value


@njit(inline="always")
def _world(tb, at, worlds, w, pw):
    """World w of at.seat's decision into pw.world: a sampled world, or the true deal
    itself."""
    if worlds.true_world:
        for s in range(4):
            pw.world[s] = at.hands[s]
    else:
        sample_world(tb, at, worlds.key, w, pw.cards, pw.world, pw.inference)


@njit(nrt=False, inline="always")
def _world_values(score, at, discard, n, alive, tt, pw):
    """pw.values[i] for each of pw's candidates i < n in the mask `alive`: the makers' points
    in world at.hands after at.seat plays (or, as the dealer, discards) it, all playing
    perfectly from there. Candidates the seat tells apart may be one run in this world (the
    cards between them lie out of play here): such a candidate takes the value of the first
    of its run. (`score`: the rules' points table.)"""
    lay, wh, st, pm, seat = at
    cands, values, work = pw.candidates, pw.values, pw.search
    live = pm[P_TRICK]
    for s in range(4):
        if (st[S_ACTIVE] >> s) & 1:
            live |= wh[s]
    tops = _ZERO  # the runs of the candidates valued so far
    for i in range(n):
        if not (alive >> i) & 1:
            continue
        top = run_top(lay, live, wh[seat], cands[i])
        same = -1
        if tops & one_bit(top):
            for j in range(i):
                if (alive >> j) & 1 and run_top(lay, live, wh[seat], cands[j]) == top:
                    same = j
                    break
        tops |= one_bit(top)
        if same >= 0:
            values[i] = values[same]
        elif discard:
            values[i] = _discard_points(score, at, cands[i], tt, work)
        else:
            values[i] = _points_after(score, at, cands[i], tt, work)


@njit(inline="always")
def _in_world(at, pw):
    """The position `at` in the world being solved (pw.world)."""
    return Position(at.lay, pw.world, at.st, at.pm, at.seat)


@njit(nrt=False)
def _best_over_worlds(tb, at, discard, n, worlds, preferred, tt, pw):
    """The candidate (of pw's list, n long) with the best total points for at.seat's side
    over the `worlds` (a Worlds: the seat's sampled worlds, or the true deal alone). A race:
    at each look a candidate whose paired deficit to the leader is clear (`race_survivors`)
    is solved no more, and the decision stops when one is left."""
    sums, cross, clear_z, values = pw.sums, pw.cross, pw.clear_z, pw.values
    n_worlds = worlds.n_worlds
    sums[:n] = 0
    cross[:n, :n] = 0
    tt.stats[4] += 1
    race = Race(sums, cross, pw.candidates, n, preferred,
                team_of(at.seat) == team_of(at.st[S_MAKER]))
    inside = _in_world(at, pw)
    alive = (np.int64(1) << n) - 1
    for w in range(1 if worlds.true_world else n_worlds):
        _world(tb, at, worlds, w, pw)
        _world_values(tb.score, inside, discard, n, alive, tt, pw)
        for i in range(n):
            if (alive >> i) & 1:
                sums[i] += values[i]
                for j in range(n):
                    if (alive >> j) & 1:
                        cross[i, j] += values[i] * values[j]
        if clear_z[0] > 0 and w + 1 >= FIRST_LOOK and (w + 1) % LOOK_EVERY == 0 and \
                w + 1 < n_worlds:
            alive = race_survivors(race, alive, w + 1, clear_z[0])
            if alive & (alive - 1) == 0:
                break
    return race.cands[_pick(race, alive)]


@njit(nrt=False)
def race_survivors(race, alive, m, z):
    """`alive` less the race's candidates (a Race) clearly beaten after m worlds (sums and
    cross products of their points world by world): the leader's paired lead over them at
    least z standard errors, or positive and the same in every world. (Candidates that have
    tied in every world so far are not told apart: a rare world may still part them.)"""
    sums, cross, n, maximize = race.sums, race.cross, race.n, race.maximize
    best = _pick(race, alive)
    for i in range(n):
        if i == best or not (alive >> i) & 1:
            continue
        lead = (sums[best] - sums[i]) / m if maximize else (sums[i] - sums[best]) / m
        spread = (cross[best, best] - 2 * cross[best, i] + cross[i, i]) / m - lead * lead
        if lead > 0 and (spread <= 1e-9 or lead >= z * np.sqrt(spread / (m - 1))):
            alive &= ~(np.int64(1) << i)
    return alive


@njit(nrt=False)
def pimc_card(tb, at, worlds, tt, pw):
    """The card (power bit) at.seat plays: best mean points over the `worlds` (a Worlds; the
    one true deal: double-dummy play)."""
    lay, hands, st, pm, seat = at
    cands = pw.candidates
    n = option_candidates(lay, hands, st, pm, seat, False, cands)
    if n == 1:
        return cands[0]
    preferred = option_of(lay, hands, st, pm, seat, conventional_card(lay, hands, st, pm, seat))
    if settled(st):
        return preferred
    # np.bool_, not a literal: a literal compiles the decision's whole loop once more
    return _best_over_worlds(tb, at, np.bool_(False), n, worlds, preferred, tt, pw)


@njit(nrt=False)
def pimc_among(tb, at, discard, n, worlds, preferred, tt, pw):
    """PIMC's choice among the first n of pw's candidates (`preferred` first among equals)
    over the `worlds`: the learned player's close calls."""
    return _best_over_worlds(tb, at, discard, n, worlds, preferred, tt, pw)


@njit(nrt=False)
def pimc_discard(tb, at, worlds, tt, pw):
    """The dealer's discard from six cards (at.seat: the dealer): best mean points for its
    side over the `worlds`. Never the upcard (the others place it in the dealer's hand),
    except double dummy."""
    lay, hands, st, pm, dealer = at
    cands = pw.candidates
    n = discard_candidates(lay, hands, st, pm, worlds.true_world, cands)
    if n == 1:
        return cands[0]
    live = unseen_by(lay, hands, st, pm, dealer) | hands[dealer]
    preferred = run_top(lay, live, hands[dealer], conventional_discard(lay, hands, st, pm))
    return _best_over_worlds(tb, at, np.bool_(True), n, worlds, preferred, tt, pw)


@njit(nrt=False)
def discard_candidates(lay, hands, st, pm, true_world, cands):
    """One card per run the dealer cannot tell apart among the discards it considers (never
    the upcard, but double dummy), into cands; returns the count."""
    dealer = st[S_DEALER]
    hand = hands[dealer]
    choices = hand & ~one_bit(st[S_UP]) if st[S_UP] >= 0 and not true_world else hand
    return candidates(lay, hand, choices, unseen_by(lay, hands, st, pm, dealer) | hand, cands)


@njit(nrt=False)
def option_candidates(lay, hands, st, pm, seat, discard, cands):
    """One card per run of cards `seat` cannot tell apart among its legal plays (discard:
    among the dealer's six cards, the upcard included), into cands; returns the count."""
    hand = hands[seat]
    choices = hand if discard else legal_cards(lay, hand, pm[P_LED])
    return candidates(lay, hand, choices, _live_for(lay, hands, st, pm, seat), cands)


@njit(nrt=False)
def option_of(lay, hands, st, pm, seat, p):
    """The candidate of `option_candidates` that stands for `seat`'s card p."""
    return run_top(lay, _live_for(lay, hands, st, pm, seat), hands[seat], p)


@njit(inline="always")
def _live_for(lay, hands, st, pm, seat):
    """Cards still live as `seat` sees them: unseen, its own, the current trick's."""
    return unseen_by(lay, hands, st, pm, seat) | hands[seat] | pm[P_TRICK]


@njit(nrt=False)
def option_values(tb, at, discard, first, worlds, tt, pw, out):
    """Every option of at.seat's decision valued world by world: out[w - first, i] is the
    makers' points in world w (first <= w < first + worlds.n_worlds; the true deal alone when
    worlds.true_world) after candidate i of `option_candidates` (pw's list) is played or
    discarded, all playing perfectly from there. Worlds are `sample_world`'s for the seat,
    none stopped early (ask for them in order, batch after batch). Returns the count."""
    lay, hands, st, pm, seat = at
    n = option_candidates(lay, hands, st, pm, seat, discard, pw.candidates)
    inside = _in_world(at, pw)
    for w in range(first, first + (1 if worlds.true_world else worlds.n_worlds)):
        _world(tb, at, worlds, w, pw)
        _world_values(tb.score, inside, discard, n, (np.int64(1) << n) - 1, tt, pw)
        for i in range(n):
            out[w - first, i] = pw.values[i]
    return n


@njit(nrt=False)
def position_values(tb, at, worlds, tt, pw, out):
    """The makers' points under perfect play from a position between tricks, in each of
    at.seat's `worlds` (the true deal alone when worlds.true_world) into out[:n_worlds]."""
    st, work = at.st, pw.search
    for w in range(1 if worlds.true_world else worlds.n_worlds):
        _world(tb, at, worlds, w, pw)
        out[w] = _maker_points(tb.score, at.lay, pw.world, st,
                               _between_tricks(st[S_MAKER_TRICKS], st[S_TRICKS], st[S_TURN]),
                               tt, work)

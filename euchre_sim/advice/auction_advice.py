"""Advice at the seat's point of the auction (`advise --bidding B`): pass against every call.

The deals are those the seat really faces: the unseen cards are dealt around the hand (as in
`advise`) and a deal is kept only when every earlier turn passed under the bidder (round 2:
all of round 1, the seat included, and the earlier seats of round 2). Rejection sampling on
the counter-based generator: deal i of the seed is tried in order until enough are kept, and
`reached` is the share kept. On each kept deal every action of the seat is valued in points to
its side: a call by the call table's outcome (the solver's, or the play model's playout) after
the defenders' decision to defend alone where the rules allow it, a pass by the rest of the
auction under the bidder (0 when the deal is passed out).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

import numpy as np

from ..bidding.auction import (
    N_TURNS,
    Auction,
    advice_rows,
    auction_choices,
    first_call,
    resolve_contracts,
)
from ..bidding.params import BIDDER_DD
from ..core.calls import (
    BOTH_ROUNDS,
    N_CALLS,
    N_ROWS,
    WITH_DEFENCE,
    may_pass,
    row_call,
    turn_at,
)
from ..core.dealing import Deal, deal_key
from ..core.errors import UserError
from ..core.jit import compile_for, njit
from ..core.ruletables import FLAG_DEFEND_ALONE, compile_rules
from ..core.seats import side_sign
from ..core.stats import bounded_figures, mean_se
from ..game.odds import game_chances, results_from_contracts, win_odds
from ..play.models import KERNEL_SOLVER
from ..play.net_weights import nets_for
from ..play.pimc import Inference, inference_of, new_pimc_work
from ..play.player import PlayerRecord
from ..play.playout import call_play_deal, new_play_work, play_deal, searches
from ..runs.parallel import ordered_map, worker_pool
from ..solver.calltable import analyze_deal, call_analyze_deal
from ..solver.search import compile_search, new_work, shared_tt
from .advise import (
    Progress,
    batch_size,
    batches,
    deal_around,
    held_at,
    mean_figures,
    part_of,
    rates,
    sampled_deals,
)
from .atlas import table_odds
from .question import ADVISE_DEALER, AdviceQuestion, call_actions, describe_question
from .separation import (
    chance_margin,
    chance_range,
    entry_scores,
    game_facts,
    points_margin,
    stated_best,
    we_deal_next,
)

MAX_TRIES_PER_DEAL = 100  # rejection sampling gives up after deals x this many tries
# where a question may stop early (`AdviceQuestion.stop_early`): the numbers of kept deals at
# which the best action is tested against the runner-up, and the paired z its lead must reach
# (three looks at most: 3.0 keeps a wrong stop below 0.4 %, Bonferroni over the looks)
CHECKPOINTS = (2_000, 5_000, 10_000)
SEPARATED_Z = 3.0
FIRST_BATCH = 100  # tried here before the workers start: it loads the kernels they inherit
PARTS = BOTH_ROUNDS | WITH_DEFENCE  # a pass is valued by the auction of both rounds


class Reached(NamedTuple):
    """The kept deals of `_reached_batch`, row by row: their call tables (`calls`), resolved
    contracts (`contracts`), choices (`choices`), auction values (`values`), indices
    (`indices`), the worlds' counters as they stood after each (`worlds_after`) and the
    seat's calls solved double dummy (`exact`, contracts as `contracts`)."""

    calls: np.ndarray
    contracts: np.ndarray
    choices: np.ndarray
    values: np.ndarray
    indices: np.ndarray
    worlds_after: np.ndarray
    exact: np.ndarray


@njit
def _reached_batch(player, tb, sampled, start, stop, inference, tt, out):
    """Try the question's deals start..stop-1 in order (`advise.SampledDeals`), keeping in
    `out` (`Reached`) those that reach the seat's turn under `player` (a record,
    `play.player`: its bidder bids every seat, its model plays every card): their call
    tables, resolved contracts, choices, auction values and indices into rows 0, 1, ..., and
    the worlds' counters as they stood after each; unless the model is dd, also the seat's
    calls solved double dummy on the same deals and resolved the same way (`exact`). In
    round 2 the seat's own round-1 pass is given (its bidder's choice there is not asked).
    inference None: a model that searches nothing (`play.playout.searches`), whose play is
    given no solver table (no PIMC compiled) and whose worlds' counters stay 0. Returns the
    count kept."""
    unseen, seed, seat, hand, ref_card, round_no, position = sampled
    calls, contracts, choices, values, indices, worlds_after, exact = out
    turn = turn_at(round_no, position)
    own_pass = turn - 4  # the seat's round-1 turn (negative in round 1: none)
    exact_calls = np.full(N_ROWS, -1, dtype=np.int8)
    bidders, weights = (player.bidder, player.bidder), (player.weights, player.weights)
    hands = np.zeros(4, dtype=np.uint64)
    work = np.empty_like(unseen)
    solver_work = new_work()
    pimc_work = new_pimc_work(inference, player.nets)
    cards = new_play_work((player.play, player.play), tb, player.worlds, (pimc_work, pimc_work))
    play_tt = tt if inference is not None else None
    wanted = np.ones(N_ROWS, dtype=np.uint8)
    kept = 0
    bidder, model = player.bidder, player.play
    deal = Deal(hands, ref_card, ADVISE_DEALER)
    for i in range(start, stop):
        deal_around(unseen, seed, i, seat, hand, hands, work)
        if model == KERNEL_SOLVER:
            call_analyze_deal(tb, deal, False, 0, PARTS, tt, solver_work, calls[kept])
        elif bidder == BIDDER_DD:  # every row (`wanted` as it was made)
            call_play_deal(cards, deal, deal_key(seed, np.uint64(i)), 0, PARTS, wanted, play_tt,
                           calls[kept])
        else:  # the bidder's own hands tell whether the seat is reached and what follows its
            #    pass: play only the rows the advice reads
            if advice_rows(bidder, tb, player.weights, player.table, deal, turn, own_pass,
                           wanted) >= 0:
                continue
            call_play_deal(cards, deal, deal_key(seed, np.uint64(i)), 0, PARTS, wanted, play_tt,
                           calls[kept])
        auction_choices((player, player), tb, deal,
                        Auction(calls[kept], contracts[kept], choices[kept], values[kept]))
        called = first_call(choices[kept], 0)
        if called == own_pass:  # the seat's own round-1 pass is given, whatever the bidder
            called = first_call(choices[kept], own_pass + 1)
        if called < 0 or called >= turn:
            if model != KERNEL_SOLVER:
                call_analyze_deal(tb, deal, False, position, round_no | WITH_DEFENCE, tt,
                                  solver_work, exact_calls)
                resolve_contracts(bidders, weights, tb, deal, exact_calls, exact[kept])
            indices[kept] = i
            if inference is not None:
                worlds_after[kept] = inference.counters
            kept += 1
    return kept


_KEPT = ("contracts", "choices", "values", "indices", "exact")  # what an answer reads


def _reached_range(question: AdviceQuestion, deals: tuple[int, int]) -> dict[str, np.ndarray]:
    """The deals of the range (start, stop) that reach the seat (`_reached_batch`), with
    the worlds' counters after each of them (`worlds_after`) and after the range (`worlds`)."""
    start, stop = deals
    n = stop - start
    out = Reached(np.full((n, N_ROWS), -1, dtype=np.int8), np.zeros((n, N_CALLS, 3), np.int64),
                  np.zeros((n, N_TURNS), np.int64), np.zeros((n, N_TURNS + 1), np.int64),
                  np.zeros(n, np.int64), np.zeros((n, 3), np.int64),
                  np.zeros((n, N_CALLS, 3), np.int64))
    player = question.player.record()
    inference = _inference(question, player)
    kept = _reached_batch(player, compile_rules(question.rules), sampled_deals(question), start,
                          stop, inference, shared_tt(), out)
    return {key: _narrowed(out._asdict()[key][:kept]) for key in _KEPT} | {
        "worlds_after": out.worlds_after[:kept],
        "worlds": inference.counters if inference is not None else np.zeros(3, np.int64)}


def _narrowed(values: np.ndarray) -> np.ndarray:
    """The same whole numbers in the narrowest integer type that holds them all: a kept
    deal's contracts, choices and values are small (points, tricks, rows), and a question
    of many deals holds them all (int64 took 2.6 KB a deal, most of the answer's memory)."""
    if not len(values):
        return values
    for kind in (np.int8, np.int16, np.int32):
        limits = np.iinfo(kind)
        if limits.min <= values.min() and values.max() <= limits.max:
            return values.astype(kind)
    return values


def _inference(question: AdviceQuestion, player: PlayerRecord) -> Inference | None:
    """The worlds' inference of `_reached_batch` (None: the model searches nothing)."""
    if not searches(player.play, player.nets):
        return None
    return inference_of(player if question.infer else None)


def _compile_play(question: AdviceQuestion) -> None:
    """Compile (or load from Numba's cache) the card players' kernels for the types
    `_reached_batch` passes them."""
    player = question.player.record()
    inference = _inference(question, player)
    work = new_pimc_work(inference, player.nets)
    i = np.int64(0)
    cards = new_play_work((player.play, player.play), compile_rules(question.rules),
                          player.worlds, (work, work))
    compile_for(play_deal, cards, Deal(np.zeros(4, np.uint64), i, i), np.uint64(0), i, i,
                np.ones(N_ROWS, np.uint8), shared_tt() if inference is not None else None,
                np.zeros(N_ROWS, np.int8))


def _compile_solver_and_bidder(question: AdviceQuestion) -> None:
    """Compile (or load from Numba's cache) the solver's and the bidder's kernels for the
    types `_reached_batch` passes them."""
    player = question.player.record()
    tb, i = compile_rules(question.rules), np.int64(0)
    deal = Deal(np.zeros(4, np.uint64), i, i)
    calls, contracts = np.zeros(N_ROWS, np.int8), np.zeros((N_CALLS, 3), np.int64)
    compile_search()
    compile_for(analyze_deal, tb, deal, False, i, i, shared_tt(), new_work(), calls)
    compile_for(advice_rows, player.bidder, tb, player.weights, player.table, deal, i, i,
                np.ones(N_ROWS, np.uint8))
    compile_for(auction_choices, (player, player), tb, deal,
                Auction(calls, contracts, np.zeros(N_TURNS, np.int64),
                        np.zeros(N_TURNS + 1, np.int64)))
    compile_for(resolve_contracts, (player.bidder, player.bidder),
                (player.weights, player.weights), tb, deal, calls, contracts)


def warm_up(question: AdviceQuestion, helper) -> None:
    """Compile (or load from Numba's cache) the kernels below `_reached_batch` on two cores:
    `helper` (an executor of one process) compiles the card players' while this process
    compiles the solver's and the bidder's; `_reached_batch` then finds them all compiled
    (the helper's from the cache) and compiles only itself."""
    play = helper.submit(_compile_play, question)
    _compile_solver_and_bidder(question)
    play.result()


def turn_of(question: AdviceQuestion) -> int:
    """The seat's turn in the auction (0-7)."""
    return int(turn_at(question.cards.round_no, question.cards.position))


def _first(parts: list[dict], part: dict, count: int) -> dict[str, np.ndarray]:
    """The first `count` kept deals of `parts` (every one of them kept) and then `part`."""
    return {key: np.concatenate([p[key] for p in parts] + [part[key][:count]])
            for key in _KEPT}


def reached_deals(question: AdviceQuestion, progress: Progress | None = None,
                  batch: int | None = None, workers: int = 1,
                  enough: Callable[[dict], bool] | None = None) -> dict[str, np.ndarray]:
    """The kept deals' call tables, choices, values and indices, and the number tried; with
    `infer` PIMC's worlds agree with the auction under the bidder and with the discard.
    Deals are tried in batches (`batch_size`), in `workers` processes (the first batch here,
    which loads the kernels the workers then inherit), `progress(kept, deals)` after each;
    the answer does not depend on the batches or the workers. `enough(kept)` is asked at each
    of CHECKPOINTS below the deals asked, of the first that many kept deals: True keeps those
    and stops."""
    deals = question.deals
    size = batch or batch_size(question.player)
    max_tries = deals * MAX_TRIES_PER_DEAL
    first = min(size, FIRST_BATCH)
    # made as they are tried (a list of every range would grow with the deals asked)
    ranges, later = itertools.tee(itertools.chain(
        [(0, first)], ((start, min(start + size, max_tries))
                       for start in range(first, max_tries, size))))
    parts, kept, tried, stopped = [], 0, 0, "tries"
    worlds = np.zeros(3, dtype=np.int64)
    if workers > 1:
        with worker_pool(1) as helper:
            warm_up(question, helper)
    head = [_reached_range(question, next(later))]
    rest = ordered_map(partial(_reached_range, question), later, workers)
    try:
        for (_, stop), part in zip(ranges, itertools.chain(head, rest), strict=True):
            take = min(len(part["indices"]), deals - kept)
            for checkpoint in CHECKPOINTS:
                if (enough is not None and kept < checkpoint <= kept + take
                        and checkpoint < deals and enough(_first(parts, part, checkpoint - kept))):
                    deals, take, stopped = checkpoint, checkpoint - kept, "separated"
                    break
            parts.append({key: part[key] for key in _KEPT})
            kept += take
            if kept < deals:
                worlds += part["worlds"]
                tried = stop
            else:  # the deals after the last one kept were not needed: as if never tried
                parts[-1] = {key: part[key][:take] for key in _KEPT}
                worlds += part["worlds_after"][take - 1]
                tried = int(part["indices"][take - 1]) + 1
            if progress is not None:
                progress(kept, deals)
            if kept == deals:
                stopped = "deals" if stopped == "tries" else stopped
                break
    finally:
        rest.close()
    whole = {}
    for key in _KEPT:  # a column at a time, each part's let go: never the deals twice
        whole[key] = np.concatenate([part.pop(key) for part in parts])
    return whole | {"tried": tried, "turn": turn_of(question), "worlds": worlds,
                    "stopped": stopped}


def _action_points(question: AdviceQuestion, kept: dict, pass_open: bool
                   ) -> list[np.ndarray]:
    """Each action's points to the seat's side deal by deal: pass first where it is open,
    then the calls in `call_actions` order."""
    q, turn = question.cards, turn_of(question)
    points = [side_sign(q.seat) * kept["values"][:, turn + 1].astype(np.int64)] \
        if pass_open else []
    return points + [kept["contracts"][:, row, 0].astype(np.int64) for *_, row in
                     call_actions(question.rules, q.round_no, q.position, q.ref_card)]


def separated(per_deal: list[np.ndarray], z: float = SEPARATED_Z) -> bool:
    """Is the best action's paired lead over the runner-up at least z standard errors?"""
    if len(per_deal) < 2:
        return True
    means = [float(np.mean(points)) for points in per_deal]
    first, second = sorted(range(len(means)), key=lambda i: -means[i])[:2]
    lead, se = mean_se(per_deal[first] - per_deal[second])
    return bool(lead > 0 and (se == 0 or lead >= z * se))


def _chances(question: AdviceQuestion, odds: np.ndarray, points) -> np.ndarray:
    """The chance of winning the game after each of `points` (to the seat's side, deal by
    deal): applied to the odds of the score after the hand."""
    us, them = question.score
    return game_chances(odds, us, them, np.asarray(points, dtype=np.int64),
                        we_deal_next(question))


def _game_figures(question: AdviceQuestion, actions: list[dict], per_deal: list[np.ndarray],
                  odds: np.ndarray, points: dict | None) -> dict:
    """p_win (its deals' chances of winning from the score after the hand), p_win_ci95 (within
    the least and most the action can leave: `separation.chance_range`) and the p_win_se
    stated beside it (`core.stats.bounded_figures`) on every action, and the margin for the
    game, paired on the same deals (`separation.game_facts`)."""
    chances = [_chances(question, odds, p) for p in per_deal]
    ranges = []
    for action, chance in zip(actions, chances, strict=True):
        ranges.append(chance_range(question, partial(_chances, question, odds), action))
        p_win, se = mean_se(chance)
        action["p_win"] = p_win
        action["p_win_se"], action["p_win_ci95"] = bounded_figures(p_win, se, len(chance),
                                                                   *ranges[-1])
    return game_facts(question.score, points, chance_margin(actions, chances, ranges))


def hand_results(question: AdviceQuestion, deals: int, progress: Progress | None = None):
    """One hand's results (game.odds.HandResults) over `deals` random deals bid by the
    question's bidder and played by its model, computed here (the odds of a score need no
    Parquet run), in batches of deals with `progress(done, deals)` after each."""
    from ..sim.chunk import SIM_DEALER, ChunkJob, chunk_calls, run_auctions

    rules = question.rules
    parts = []
    for start, stop in batches(deals, batch_size(question.player)):
        job = ChunkJob.of(rules, question.seed, start, stop - start, player=question.player)
        parts.append(chunk_calls(job, exact=False, infer=False))
        if progress is not None:
            progress(stop, deals)
    hands, ups, calls = (np.concatenate(column) for column in zip(*parts, strict=True))
    contracts = run_auctions(rules, question.player.record(), hands, ups, calls)[1]
    size = 1 + rules.max_hand_points
    assert SIM_DEALER == 0  # positions 2 and 4 deal, as results_from_contracts reads them
    return results_from_contracts(contracts["seat"], contracts["points"], size)


def _inference_facts(counters: np.ndarray) -> dict:
    """How PIMC's worlds were found: by inference, or falling back to what was seen."""
    asked, found, fallen = (int(x) for x in counters)
    return {"worlds_asked": asked, "found_by_inference": found, "fell_back": fallen}


def _after_pass(question: AdviceQuestion, kept: dict) -> list[dict]:
    """Who called what after the seat passed, how often, and what it was worth to the seat."""
    deck, q = question.rules.card_deck, question.cards
    turn, choices, values = kept["turn"], kept["choices"], kept["values"]
    groups: dict[tuple, list[int]] = {}
    for d in range(len(choices)):
        k = first_call(choices[d], turn + 1)
        if k < 0:
            key = ("passed_out", None, None, None, False)
        else:
            round_no, pos, trump, alone = row_call(choices[d, k])
            trump = q.ref_card >> 3 if round_no == 1 else trump
            key = ("order_up" if round_no == 1 else "call", round_no, pos,
                   deck.suit_name(trump), bool(alone))
        groups.setdefault(key, []).append(side_sign(q.seat) * int(values[d, turn + 1]))
    n = len(choices)
    out = [{"action": action, "round": round_no, "seat": pos, "suit": suit, "alone": alone,
            "share": len(points) / n, "mean_points": float(np.mean(points))}
           for (action, round_no, pos, suit, alone), points in groups.items()]
    return sorted(out, key=lambda e: -e["share"])


def advise_in_auction(question: AdviceQuestion, progress: Progress | None = None,
                      workers: int = 1) -> dict:
    """Pass and every open call of the hand, over deals where the auction reaches the seat,
    and the margin of the best in points (`separation`); with a `score` also each action's
    chance of winning the game and the margin for the game, from the question's odds
    (`atlas.table_odds`: its folder's, or those shipped beside the atlas at its table) or,
    without any, from the odds solved over fresh deals bid and played the same way
    (`odds_deals`). `progress(done, total)` counts kept deals, then the odds' deals."""
    rules, deals, q = question.rules, question.deals, question.cards
    nets_for(question.play)  # read before anything compiles: a damaged net is one line
    extra = question.work_units - deals
    tables = compile_rules(rules)
    pass_open = bool(may_pass(tables.flags, q.round_no, q.position))
    odds = None if question.score is None else table_odds(question)
    enough = None
    if question.stop_early and (question.score is None or odds is not None):
        def enough(first):
            points = _action_points(question, first, pass_open)
            return separated(points) and (odds is None or separated(
                [_chances(question, odds, p) for p in points]))
    kept = reached_deals(question, part_of(progress, 0, deals + extra), workers=workers,
                         enough=enough)
    n = len(kept["indices"])
    if n < 2:
        raise UserError(f"the auction under the {question.bidding} bidder reached this seat "
                        f"on {n} of {kept['tried']:,} deals: too few to advise")
    turn = kept["turn"]
    chosen = kept["choices"][:, turn]
    per_deal = _action_points(question, kept, pass_open)
    actions = []
    if pass_open:
        actions.append({"action": "pass", "suit": None, "alone": False,
                        "chosen_rate": float((chosen < 0).mean()), "make_rate": None,
                        "march_rate": None, "euchred_rate": None})
    for action, trump, alone, row in call_actions(rules, q.round_no, q.position, q.ref_card):
        tricks, defender = kept["contracts"][:, row, 1], kept["contracts"][:, row, 2]
        actions.append({"action": action, "suit": rules.card_deck.suit_name(trump),
                        "alone": alone, "chosen_rate": float((chosen == row).mean())}
                       | rates(tricks))
        if tables.flags[FLAG_DEFEND_ALONE]:
            actions[-1]["defended_alone_rate"] = float((defender > 0).mean())
    ranges = [entry_scores(question, a) for a in actions]
    for action, points, scores in zip(actions, per_deal, ranges, strict=True):
        action |= mean_figures(points, scores)
    if not question.player.model.solved:  # the calls on the same deals, every hand seen
        calls = call_actions(rules, q.round_no, q.position, q.ref_card)
        for action, (*_, row), scores in zip(actions[int(pass_open):], calls,
                                             ranges[int(pass_open):], strict=True):
            dd = mean_figures(kept["exact"][:, row, 0].astype(np.int64), scores)
            action |= {"dd_mean_points": dd["mean_points"], "dd_points_se": dd["points_se"],
                       "dd_ci95": dd["ci95"]}
    margin = points_margin(actions, per_deal, ranges)
    order = sorted(range(len(actions)), key=lambda i: -actions[i]["mean_points"])
    game = {}
    if question.score is not None:
        if odds is None:
            results = hand_results(question, extra, part_of(progress, deals, deals + extra))
            odds = win_odds(results, rules.target, held_at(progress, deals + extra,
                                                           deals + extra))[0]
        game = _game_figures(question, actions, per_deal, odds, margin)
    player = question.player
    return describe_question(question) | game | {
        "deals": n, "stopped": kept["stopped"],
        "tried": kept["tried"], "reached": n / kept["tried"],
        "bidding": player.bidder, "play": player.play, "source": "simulation",
        "worlds": player.sampled_worlds, "best": stated_best(margin), "margin": margin,
        "inference": _inference_facts(kept["worlds"]) if player.sampled_worlds else None,
        "actions": [actions[i] for i in order],
        "after_pass": _after_pass(question, kept) if pass_open else []}

"""Advice in the auction stops sampling once the best action is separated from the runner-up
(`auction_advice.CHECKPOINTS`, `SEPARATED_Z`): the rule checked against a hand calculation,
the stop the same whatever the batches and workers, and only where no deals were asked for."""

import math
import statistics

import numpy as np
import pytest
from click.testing import CliRunner

from euchre_sim.advice.auction_advice import (
    CHECKPOINTS,
    SEPARATED_Z,
    advise_in_auction,
    reached_deals,
    separated,
)
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.cli.main import cli
from euchre_sim.core.rules import build_rules
from euchre_sim.play.player import Player


def paired_z(a, b):
    """The lead of a over b in standard errors of the paired difference, by the textbook."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    return statistics.mean(d) / (statistics.stdev(d) / math.sqrt(len(d)))


@pytest.mark.parametrize("lead", [0.1, 0.2, 0.3])
def test_separated_is_a_paired_lead_of_at_least_z_standard_errors(lead):
    rng = np.random.default_rng(7)
    base = rng.integers(-2, 3, 400).astype(float)
    noise = rng.normal(0, 1, 400)
    noise -= noise.mean()  # the lead is exactly `lead`
    best, runner_up, last = base + lead + noise, base, base - 5
    z = paired_z(best, runner_up)
    assert separated([runner_up, best, last]) == (z >= SEPARATED_Z)
    assert separated([runner_up, best, last], z=z - 1e-9)
    assert not separated([runner_up, best, last], z=z + 1e-9)


def test_one_action_is_always_separated_and_a_tie_never():
    assert separated([np.array([1.0, 2.0])])
    assert not separated([np.array([1.0, 2.0]), np.array([1.0, 2.0])])


def _question(**fields):
    return AdviceQuestion(build_rules(), "JS AS 9H 9D TC", 3, "9S", seed=3,
                          player=Player("rules", "rules"), **fields)


def _odd_sum(kept):
    """A test's stopping rule that reads the kept deals' contents."""
    return int(kept["values"][:, 2].sum()) % 2 == 1


@pytest.mark.parametrize("batch, workers", [(10**6, 1), (777, 1), (1500, 2)])
def test_the_stop_is_the_same_whatever_the_batches_and_workers(batch, workers):
    q = _question(deals=CHECKPOINTS[-1] + 1)
    one = reached_deals(q, batch=10**6, enough=_odd_sum)
    other = reached_deals(q, batch=batch, workers=workers, enough=_odd_sum)
    n = len(one["indices"])
    assert other["tried"] == one["tried"] == one["indices"][-1] + 1
    assert other["stopped"] == one["stopped"]
    assert (n in CHECKPOINTS) == (one["stopped"] == "separated")
    for key in ("contracts", "choices", "values", "indices", "exact"):
        assert (other[key] == one[key]).all(), key


def test_the_stop_comes_at_the_first_checkpoint_whose_deals_are_enough():
    asked = []

    def third(kept):
        asked.append(len(kept["indices"]))
        return len(asked) == 3

    kept = reached_deals(_question(deals=50_000), batch=3_000, enough=third)
    assert asked == list(CHECKPOINTS)
    assert len(kept["indices"]) == CHECKPOINTS[2] and kept["stopped"] == "separated"


def test_advice_without_deals_asked_stops_once_separated_with_its_lead_shown():
    result = advise_in_auction(_question())
    assert result["stopped"] == "separated" and result["deals"] == CHECKPOINTS[0]
    assert result["best"]["lead"] >= SEPARATED_Z * result["best"]["lead_se"]


def test_advice_with_deals_asked_takes_them_all():
    result = advise_in_auction(_question(deals=CHECKPOINTS[0] + 500))
    assert result["stopped"] == "deals" and result["deals"] == CHECKPOINTS[0] + 500


def test_the_command_says_it_stopped_early():
    out = CliRunner().invoke(cli, ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S",
                                   "--seat", "3", "--bidding", "rules", "--play", "rules"])
    assert out.exit_code == 0, out.output
    assert "stopped early" in out.output and "2,000 deals" in out.output


def test_advise_says_on_standard_error_when_it_compiles(monkeypatch):
    """Issue 55: the first question after install compiles for minutes; advise says so
    before the wait, to a person at a terminal (here an answer that compiles a fresh kernel
    stands for it; each invocation's lambda is a new kernel)."""
    import numba

    from euchre_sim.advice import advice_request
    from euchre_sim.cli import progress

    def compiling_answer(question, progress=None, workers=1):
        numba.njit(cache=False)(lambda x: x + 1)(1)
        return advise_in_auction(_question(deals=40))

    monkeypatch.setattr(advice_request, "answer", compiling_answer)
    command = ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "3", "--json"]
    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: True)
    out = CliRunner().invoke(cli, command)
    assert out.exit_code == 0, out.output
    assert "advise: compiling the kernels (first run only" in out.stderr
    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: False)  # a log: no line
    out = CliRunner().invoke(cli, command)
    assert out.exit_code == 0 and "compiling" not in out.stderr, out.output


def _nine_all(question, kept, passed_out):
    """Each action's points and chances of winning deal by deal at 9-9, by hand: a chance is 1
    after our made call or their euchre, 0 after theirs made or ours euchred, and the odds'
    after a pass-out."""
    from euchre_sim.advice.auction_advice import turn_of
    from euchre_sim.advice.question import call_actions
    from euchre_sim.core.seats import side_sign

    q = question.cards
    points = [side_sign(q.seat) * kept["values"][:, turn_of(question) + 1]]
    points += [kept["contracts"][:, row, 0] for *_, row in
               call_actions(question.rules, 1, q.position, q.ref_card)]
    chances = [np.where(p > 0, 1.0, np.where(p < 0, 0.0, passed_out)) for p in points]
    return points, chances


def _top_z(per_action):
    """paired_z of the highest mean over the next."""
    first, second = sorted(per_action, key=lambda x: -np.mean(x))[:2]
    d = first - second
    if d.std() == 0:
        return np.inf if d.mean() > 0 else 0.0
    return paired_z(first.astype(float).tolist(), second.astype(float).tolist())


@pytest.mark.parametrize("hand, seat", [("JS AS 9H 9D TC", 3), ("JS JC AS KS 9D", 2)])
def test_at_a_score_with_its_odds_known_the_stop_waits_for_the_game_too(tmp_path, hand, seat):
    """Issue 76: a question at a score whose odds are known beforehand stops early too, at the
    first checkpoint where both the points and the chances of winning the game (paired on the
    same deals, by hand at 9-9) lead the runner-up by SEPARATED_Z standard errors."""
    from euchre_sim.game.odds import read_odds

    from .helpers import run_cli

    out = tmp_path / "odds"
    run_cli(["odds", "--out", str(out), "--deals", "300", "--seed", "2"])
    passed_out = read_odds(str(out), build_rules())[9, 9, int(seat % 2 == 1)]

    def question(**fields):
        return AdviceQuestion(build_rules(), hand, seat, "9S", seed=3, score=(9, 9),
                              odds=str(out), player=Player("rules", "rules"), **fields)

    every = reached_deals(question(deals=CHECKPOINTS[-1]))
    want = None
    for checkpoint in CHECKPOINTS:
        first = {k: every[k][:checkpoint] for k in ("values", "contracts")}
        points, chances = _nine_all(question(), first, passed_out)
        if _top_z(points) >= SEPARATED_Z and _top_z(chances) >= SEPARATED_Z:
            want = checkpoint
            break
    result = advise_in_auction(question())
    assert result["stopped"] == ("separated" if want else "deals")
    assert result["deals"] == (want or question().deals)


def test_at_a_score_whose_odds_must_be_solved_it_takes_every_deal():
    result = advise_in_auction(_question(score=(9, 9), deals=3_000, stop_early=True))
    assert result["stopped"] == "deals" and result["deals"] == 3_000

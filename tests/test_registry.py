"""The play models' registry (`play.models`): one record a model, which the command line's
choices, the kernels' dispatch, a run's chunks and the answers' worlds all read."""

import pytest

from euchre_sim.advice.advise import advise
from euchre_sim.advice.auction_advice import advise_in_auction
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.core.errors import FieldError
from euchre_sim.core.rules import build_rules
from euchre_sim.play.models import (
    DEFAULT_PLAY,
    KERNEL_SOLVER,
    MODELS,
    PLAY_MODELS,
    SOLVER_PACE,
    WORLDS_PACE,
    play_model,
)
from euchre_sim.play.player import Player
from euchre_sim.sim.simulate import RunPlan

HAND = ("JS AS 9H 9D TC", 1, "9S")


def test_every_play_option_of_the_command_line_offers_the_registrys_models():
    from euchre_sim.cli.main import cli

    offered = {f"{name} {o.opts[0]}": list(o.type.choices)
               for name, command in cli.every_command().items() for o in command.params
               if o.opts and (o.opts[0] == "--play" or o.opts[0].endswith("-play"))}
    assert {"simulate --play", "advise --play", "tournament --ns-play", "play --ew-play"} \
        <= set(offered)
    assert all(choices == list(PLAY_MODELS) for choices in offered.values())


def test_each_model_names_a_kernel_of_its_own_and_the_record_carries_it():
    """The kernels dispatch on the record's id (`play.playout.choose_card`): one card player
    a model, the solver's the default model's; the nets ride along where the model uses
    them."""
    assert len({m.kernel for m in MODELS}) == len(MODELS)
    assert play_model(DEFAULT_PLAY).kernel == KERNEL_SOLVER
    for model in MODELS:
        record = Player(play=model.name).record()
        assert int(record.play) == model.kernel
        assert (record.nets.standard.w1.size > 0) == model.uses_net
    with pytest.raises(FieldError, match="--play must be one of dd, rules, pimc"):
        play_model("minimax")


def test_only_the_conventional_player_and_the_learned_one_with_every_net_search_nothing():
    """`play.playout.searches`: the kernels of a player that searches nothing are given no
    solver table and compile no PIMC; the learned player without a net for some deal asks
    PIMC there, so it searches."""
    from euchre_sim.play.net_weights import card_nets, nets_of
    from euchre_sim.play.playout import searches

    for model in MODELS:
        record = Player(play=model.name).record()
        assert searches(record.play, record.nets) == (model.name not in ("rules", "learned"))
    learned = Player(play="learned").record().play
    assert searches(learned, nets_of(card_nets().standard))
    assert not searches(learned, card_nets())


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.name)
def test_advise_reports_worlds_wherever_the_model_samples_them(model):
    rules = build_rules()
    plain = advise(AdviceQuestion(rules, *HAND, deals=2, player=Player(play=model.name,
                                                                         worlds=3)))
    assert plain["play"] == model.name
    assert plain["worlds"] == (3 if model.samples_worlds else None)
    assert ("dd" in plain["actions"][0]) == (not model.solved)  # double dummy beside


@pytest.mark.parametrize("play", ["rules", "learned"])
def test_advise_in_the_auction_reports_worlds_and_their_inference_as_plain_advise(play):
    question = AdviceQuestion(build_rules(), *HAND, deals=4, player=Player("rules", play, 3))
    answer = advise_in_auction(question)
    samples = play_model(play).samples_worlds
    assert answer["worlds"] == (3 if samples else None)
    assert (answer["inference"] is not None) == samples


def test_a_runs_chunks_follow_the_models_pace():
    """A model whose decisions sample worlds (PIMC, learned-search) is chunked as PIMC is,
    whatever its name; the others as the solver."""
    rules = build_rules()
    for model in MODELS:
        plan = RunPlan("unused", rules, 1, 10**6, player=Player(play=model.name))
        want = {SOLVER_PACE: 10_000, WORLDS_PACE: 200}[model.pace]
        assert plan.chunk_items == want, model.name
    assert play_model("learned-search").pace == WORLDS_PACE

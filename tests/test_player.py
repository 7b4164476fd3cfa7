"""The player object (`play.player`): checked once where it is made, settled for a run's
identity, and the record the kernels read, against the bidder's files read here directly."""

import json

import numpy as np
import pytest

from euchre_sim.bidding.params import BIDDER_DD, BIDDER_RULES, BIDDER_TABLE, HUMAN_FILE, PARAMS
from euchre_sim.core.errors import FieldError
from euchre_sim.core.rules import build_rules
from euchre_sim.play.models import (
    DEFAULT_WORLDS,
    KERNEL_CONVENTIONAL,
    KERNEL_NET,
    KERNEL_NET_SEARCH,
    KERNEL_PIMC,
    VALUED_WORLDS,
)
from euchre_sim.play.player import NO_BIDDER, Player, check_bidder, player_of

DEFAULTS = [default for _, default, _ in PARAMS]


def _human_weights() -> list[float]:
    """human.json's numbers over the defaults, in PARAMS order."""
    with open(HUMAN_FILE, encoding="utf-8") as handle:
        fitted = json.load(handle)["params"]
    return [float(fitted.get(key, default)) for key, default, _ in PARAMS]


@pytest.mark.parametrize("fields, words", [
    ({"play": "minimax"}, "--play must be one of"),
    ({"bidder": "oracle"}, "--bidding must be one of"),
    ({"worlds": 0}, "--worlds must be at least 1"),
])
def test_a_player_with_a_bad_field_names_the_users_option(fields, words):
    with pytest.raises(FieldError, match=words):
        Player(**fields)


def test_a_player_that_values_decisions_solves_each_of_two_worlds_or_more():
    """The one rule of a decision valued over worlds (during the play, a review): each world
    solved (the solver's model) and VALUED_WORLDS at least, for a standard error; a player
    that plays takes one world."""
    assert Player(worlds=1).worlds == 1
    assert Player(worlds=VALUED_WORLDS).valuing().worlds == VALUED_WORLDS
    with pytest.raises(FieldError, match=f"--worlds must be at least {VALUED_WORLDS}, got 1"):
        Player(worlds=1).valuing()
    with pytest.raises(FieldError, match="--play is for the bid"):
        Player(play="pimc").valuing()


def test_the_bidder_is_checked_once_against_the_bidders_the_question_takes():
    """Every bidder a player may have; a question narrows them where its player is built."""
    check_bidder("random")
    with pytest.raises(FieldError, match="--bidding must be one of dd, rules, got 'random'"):
        check_bidder("random", ("dd", "rules"))
    with pytest.raises(FieldError, match="--bidding must be one of dd, rules, got 'game'"):
        player_of(build_rules("standard"), "game", bidders=("dd", "rules"))


def test_the_table_bidder_needs_its_folder_and_no_other_bidder_takes_one(tmp_path):
    rules = build_rules("standard")
    with pytest.raises(FieldError, match="--bidding table reads its decisions from "
                                         "--bidder-table"):
        player_of(rules, "table")
    with pytest.raises(FieldError, match="--bidder-table"):
        player_of(rules, "rules", bidder_table=str(tmp_path))


def test_the_record_holds_the_kernels_bidder_model_and_the_bidders_weights():
    human = Player("human", "pimc", 30).record()
    assert int(human.bidder) == BIDDER_RULES  # human is the rules bidder's kernel
    assert int(human.play) == KERNEL_PIMC and int(human.worlds) == 30
    assert human.weights.tolist() == _human_weights()
    dd = Player("dd", "rules").record()
    assert int(dd.bidder) == BIDDER_DD and int(dd.play) == KERNEL_CONVENTIONAL
    assert dd.weights.tolist() == DEFAULTS
    assert int(Player().record().bidder) == NO_BIDDER
    assert int(Player("rules").record(bids=False).bidder) == NO_BIDDER
    assert Player("rules").record().table.keys.shape == (0,)
    assert int(Player("table", table_dir="x").record().bidder) == BIDDER_TABLE


def test_a_weights_file_changes_the_bidders_own_numbers(tmp_path):
    path = tmp_path / "weights.json"
    path.write_text(json.dumps({"alone": 7.5, "call_1_1": 4}))
    player = player_of(build_rules("standard"), "human", bidder_params=str(path))
    want = _human_weights()
    want[[key for key, _, _ in PARAMS].index("alone")] = 7.5
    want[[key for key, _, _ in PARAMS].index("call_1_1")] = 4.0
    assert np.array(player.weights).tolist() == want


def test_settled_keeps_only_what_the_player_uses():
    """Two plans that compute the same must not differ: worlds only under PIMC, weights only
    for a point-count bidder."""
    assert Player("dd", "rules", 99, weights=tuple(DEFAULTS)).settled() == Player("dd", "rules")
    assert Player("dd", "rules", 99).settled().worlds == DEFAULT_WORLDS
    assert Player("rules", "pimc", 99).settled().worlds == 99
    assert Player("rules").settled().weights == tuple(DEFAULTS)
    assert Player(None, weights=(1.0,) * len(PARAMS)).settled().weights == ()


NET_FILES = {"standard": "card_net.npz", "general": "card_net_general.npz"}


def test_only_the_learned_players_carry_the_shipped_nets():
    """The record's nets are the package's card_net.npz and card_net_general.npz read here
    directly for "learned" and "learned-search" (the same nets, search on top), and empty for
    every other model (their kernels never read them)."""
    from importlib import resources

    for play, model in (("learned", KERNEL_NET), ("learned-search", KERNEL_NET_SEARCH)):
        learned = Player("human", play).record()
        for family, name in NET_FILES.items():
            net = getattr(learned.nets, family)
            with resources.as_file(resources.files("euchre_sim.play") / name) as path, \
                    np.load(path) as shipped:
                assert np.array_equal(net.w1, shipped["w1"])
                assert np.array_equal(net.w3t, shipped["w3t"])
        assert int(learned.play) == model
    for play in ("dd", "rules", "pimc"):
        nets = Player("human", play).record().nets
        assert nets.standard.w1.size == nets.general.w1.size == 0


def test_a_runs_identity_names_the_learned_players_weights_by_their_digest():
    """A run played by the learned player must not be resumed under other weights: its
    identity holds the sha256 of each shipped file, computed here from the bytes; no other
    model's identity names a net, and the learned player keeps its search's worlds."""
    import hashlib
    from importlib import resources

    keys = {"standard": "card_net", "general": "card_net_general"}
    for family, name in NET_FILES.items():
        data = (resources.files("euchre_sim.play") / name).read_bytes()
        for play in ("learned", "learned-search"):
            identity = Player("human", play, 20).settled().identity()
            assert identity[keys[family]] == hashlib.sha256(data).hexdigest()
            assert identity["worlds"] == 20 and identity["play"] == play
    assert not set(keys.values()) & set(Player("human", "pimc").identity())

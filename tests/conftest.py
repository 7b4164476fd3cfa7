"""Shared fixtures: every rule set the tool supports, for tests that loop over them."""

import os
import tempfile

import pytest
from hypothesis import settings

from euchre_sim.core.rules import build_rules

# atlas indexes (`advice.atlas_index`) of this run's own, never the user's cache; the commands
# the tests run inherit it
os.environ["EUCHRE_SIM_CACHE_DIR"] = tempfile.mkdtemp(prefix="euchre-sim-test-cache-")

settings.register_profile("ci", max_examples=150, deadline=None)
settings.load_profile("ci")

RULE_SETS = {
    "standard": build_rules("standard"),
    "yooker": build_rules("yooker"),
    "drinking": build_rules("drinking"),
    "online": build_rules("online"),
    "benny_nt": build_rules("online", ["joker=true", "no_trump=true", "defend_alone=true",
                                       "canadian_loner=true", "lone_player_plays_last=true"]),
    "deck28": build_rules("standard", ["deck=28"]),
    "deck32_joker": build_rules("standard", ["deck=32", "joker=true", "no_trump=true"]),
    "yooker_joker_nt": build_rules("yooker", ["joker=true", "no_trump=true"]),
}


@pytest.fixture(params=sorted(RULE_SETS))
def ruleset(request):
    return RULE_SETS[request.param]


@pytest.fixture(params=("empty", "truncated", "missing"))
def damaged_net(request, monkeypatch, tmp_path):
    """The learned player's standard net as the package ships it replaced by a damaged file
    (an empty one, one cut short, none): its path. The nets read before are forgotten, and
    again after the test."""
    from euchre_sim.play import net_weights

    shipped = net_weights._weights_file
    path = tmp_path / "card_net.npz"
    if request.param != "missing":
        path.write_bytes(shipped("standard").read_bytes()[:100_000]
                         if request.param == "truncated" else b"")
    monkeypatch.setattr(net_weights, "_weights_file", lambda family: (
        path if family == "standard" else shipped(family)))
    cached = (net_weights.card_nets, net_weights.card_net_digest)
    for function in cached:
        function.cache_clear()
    yield path
    for function in cached:
        function.cache_clear()


@pytest.fixture
def package_copy(tmp_path_factory, monkeypatch):
    """A copy of the package's data that the package reads instead (links to the shipped
    nets and tables, the JSON files copied): a test replaces the file it damages. The files
    read and checked before are forgotten, and again after the test."""
    from importlib import resources

    from euchre_sim.advice import atlas
    from euchre_sim.core import package_data
    from euchre_sim.play import net_weights

    root, copy = resources.files("euchre_sim"), tmp_path_factory.mktemp("package")
    for folder in ("data", "play"):
        (copy / folder).mkdir()
        for path in (root / folder).iterdir():
            if path.name.endswith((".npz", ".parquet")):
                (copy / folder / path.name).symlink_to(path)
            elif path.name.endswith(".json"):
                (copy / folder / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(package_data, "package_root", lambda: copy)
    cached = (package_data.manifest, package_data.shipped, net_weights.card_nets,
              net_weights.card_net_digest, atlas.shipped_atlas)
    for function in cached:
        function.cache_clear()
    yield copy
    for function in cached:
        function.cache_clear()

"""PTN (TricksterBots' PBN-style text): the hand-written file holds two VWEC deals and replays
as their EGN does; options we cannot play are refused."""

import json
import os

import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli
from euchre_sim.core.rules import build_rules
from euchre_sim.game.hand_files import read_hand_file
from euchre_sim.game.history import replay_hand

DATA = os.path.join(os.path.dirname(__file__), "data")
PTN = os.path.join(DATA, "ptn", "vwec-two-deals.ptn")
VWEC = os.path.join(DATA, "egn", "validation examples", "VWEC Finals.egn")
LONE_LAST = build_rules("standard", ["lone_player_plays_last=true"])


def test_ptn_deals_match_the_egn_deals_they_were_written_from():
    ptn = read_hand_file(PTN, LONE_LAST)
    egn = read_hand_file(VWEC, build_rules("standard"))
    assert ptn.format == "ptn" and len(ptn.entries) == 2
    for entry, deal in zip(ptn.entries, (1, 7), strict=True):
        assert entry.error is None, entry.error
        original = egn.entries[deal].record
        for key in ("dealer", "hands", "upcard", "bids", "discard", "tricks", "unknown"):
            assert entry.record.get(key) == original.get(key), key
        assert replay_hand(entry.record, ptn.rules).state.points() == \
            replay_hand(original, egn.rules).state.points()


def test_ptn_deal_1_as_worked_by_hand():
    """North calls clubs; the right bower (South) and North's ace and ten of spades take three
    tricks: North-South 1 point. The deal gives all four hands: nothing hidden."""
    entry = read_hand_file(PTN, LONE_LAST).entries[0]
    replayed = replay_hand(entry.record, LONE_LAST)
    assert replayed.state.team_tricks() == [3, 2] and replayed.state.points() == [1, 0]
    assert replayed.hidden == 0 and "unknown" not in entry.record


def test_cli_replays_ptn_with_the_leader_rule_set():
    result = CliRunner().invoke(cli, ["replay", PTN, "--set", "lone_player_plays_last=true",
                                      "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    assert [json.loads(line)["hidden"] for line in result.stdout.splitlines()[1:]] == [6]


def test_a_leader_the_rules_do_not_give_is_a_per_hand_reason(tmp_path):
    """Deal 7 with North named to lead: the columns then put a card in West's, who is out."""
    with open(PTN, encoding="utf-8") as handle:
        text = handle.read()
    path = tmp_path / "game.ptn"
    path.write_text(text.replace('[Play "S"]', '[Play "N"]'), encoding="utf-8")
    entries = read_hand_file(str(path), LONE_LAST).entries
    assert entries[0].error is None
    assert entries[1].record is None
    assert entries[1].error.startswith("hand 2: trick 1: 9D is not in seat S's column")


@pytest.mark.parametrize("options,culprit", [('{\\"variation\\":1}', "'variation'=1"),
                                             ('{\\"callForBest\\":true}', "'callForBest'")])
def test_unsupported_game_options_exit_2(tmp_path, options, culprit):
    with open(PTN, encoding="utf-8") as handle:
        text = handle.read()
    path = tmp_path / "game.ptn"
    path.write_text(text.replace('[Event "VWEC Finals, deal 1"]',
                                 f'[Event "x"]\n[GameOptionsJson "{options}"]'),
                    encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 2
    assert culprit in result.output and len(result.output.strip().splitlines()) == 1


def test_a_deal_without_upcard_is_a_per_hand_reason(tmp_path):
    path = tmp_path / "game.ptn"
    with open(PTN, encoding="utf-8") as handle:
        path.write_text(handle.read().replace('[Upcard "S9"]\n', ""), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path), "--json",
                                      "--set", "lone_player_plays_last=true"])
    assert result.exit_code == 1
    first = json.loads(result.stdout.splitlines()[0])
    assert first == {"id": 1, "ok": False,
                     "error": "hand 1: no [Upcard] tag (PTN does not record the upcard)"}

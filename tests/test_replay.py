"""`replay`: records from the jitted random player replay exactly; broken records are rejected."""

import copy
import json
import sys

import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli
from euchre_sim.core.files import MAX_JSON_DEPTH
from euchre_sim.core.rules import build_rules
from euchre_sim.game.history import RecordError, replay_record

from .conftest import RULE_SETS
from .helpers import record
from .kernels import random_hand_record

STD = build_rules("standard")
HANDS = "JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
GOOD = record("W", HANDS, "AC", ["N order_up"], "9H", [
    "N:AH E:TH S:KC W:JS", "W:AC N:9C E:TC S:9D", "W:AS N:KS E:9S S:TS",
    "W:TD N:JD E:AD S:KD", "E:QH S:QS W:QC N:JH"], points=(0, 2))


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_jitted_random_hands_replay_with_identical_points(name):
    rules = RULE_SETS[name]
    for index in range(300):
        rec = random_hand_record(rules, 11, index)
        state = replay_record(rec, rules)
        assert state.points() == [rec["points"]["NS"], rec["points"]["EW"]]


def test_good_record_replays():
    state = replay_record(GOOD, STD)
    assert state.points() == [0, 2]


def _broken(change) -> dict:
    rec = copy.deepcopy(GOOD)
    change(rec)
    return rec


def _set_play(trick, index, card):
    def change(rec):
        rec["tricks"][trick]["plays"][index]["card"] = card
    return change


BROKEN = {
    "card not held": (_set_play(0, 0, "AD"), "trick 1, seat N: card not held"),
    "failure to follow": (_set_play(0, 1, "TC"), "trick 1, seat E: failure to follow"),
    "bid out of turn": (lambda r: r["bids"][0].update(seat="E"), "bid 1, seat E: bid out of turn"),
    "turned-down suit": (
        lambda r: r.update(bids=[{"seat": s, "round": 1, "action": "pass"} for s in "NESW"]
                           + [{"seat": "N", "round": 2, "action": "call", "suit": "C"}],
                           discard=None),
        "turned-down suit cannot be called"),
    "wrong discard": (lambda r: r.update(discard="KD"), "discard, seat W"),
    "missing discard": (lambda r: r.update(discard=None), "no discard"),
    "wrong points": (lambda r: r.update(points={"NS": 1, "EW": 0}), "wrong points"),
    "wrong leader": (lambda r: r["tricks"][1].update(leader="N"), "trick 2: leader N"),
    "too few tricks": (lambda r: r["tricks"].pop(), "4 tricks recorded"),
    "duplicate card": (lambda r: r["hands"][1].__setitem__(0, "JH"), "duplicate card"),
    "upcard in a hand": (lambda r: r.update(upcard="JH"), "upcard JH is also in a hand"),
    "incomplete bidding": (lambda r: r.update(bids=[{"seat": "N", "round": 1,
                                                     "action": "pass"}], discard=None),
                           "bidding incomplete"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_broken_record_rejected(kind):
    change, message = BROKEN[kind]
    with pytest.raises(RecordError, match=message):
        replay_record(_broken(change), STD)


def test_stuck_dealer_pass_rejected():
    rules = build_rules("online")
    rec = record("W", HANDS, "AC", ["N pass", "E pass", "S pass", "W pass",
                                    "N pass", "E pass", "S pass", "W pass"], None, [])
    with pytest.raises(RecordError, match="bid 8, seat W: stick the dealer"):
        replay_record(rec, rules)
    replay_record(rec, STD)  # without stick the dealer, a hand passed out


def test_passed_out_hand_scores_zero_and_has_no_tricks():
    rec = record("W", HANDS, "AC", ["N pass", "E pass", "S pass", "W pass",
                                    "N pass", "E pass", "S pass", "W pass"], None, [],
                 points=(0, 0))
    assert replay_record(rec, STD).points() == [0, 0]


def test_replay_cli_exit_codes(tmp_path):
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(GOOD) + "\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(GOOD) + "\n" + json.dumps(_broken(_set_play(0, 1, "TC"))) + "\n")
    runner = CliRunner()
    result = runner.invoke(cli, ["replay", str(good), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"id": 1, "ok": True, "tricks": {"NS": 0, "EW": 5},
                                         "points": {"NS": 0, "EW": 2}}
    result = runner.invoke(cli, ["replay", str(bad), "--json"])
    assert result.exit_code == 1
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert lines[1]["ok"] is False and "trick 1, seat E" in lines[1]["error"]
    result = runner.invoke(cli, ["replay", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2


def test_play_then_replay_round_trip(tmp_path):
    out = tmp_path / "hands.jsonl"
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--games", "2", "--seed", "3", "--rules", "online",
                                 "--set", "defend_alone=true", "--set", "no_trump=true",
                                 "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert "game 2:" in result.output
    result = runner.invoke(cli, ["replay", str(out), "--rules", "online", "--set",
                                 "defend_alone=true", "--set", "no_trump=true"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", ["replay", "review"])
@pytest.mark.parametrize("text,why", [
    ('{"a": ' * 100_000 + "1" + "}" * 100_000,
     f"arrays and objects nested over {MAX_JSON_DEPTH} deep"),
    ('{"id": ' + "9" * 5000 + "}", f"a number of more than {sys.get_int_max_str_digits()} "
                                   "digits"),
])
def test_a_history_nested_too_deeply_or_with_a_huge_number_is_one_line(tmp_path, command,
                                                                       text, why):
    path = tmp_path / "hands.jsonl"
    path.write_text(text + "\n")
    result = CliRunner().invoke(cli, [command, str(path)])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "euchre-sim: error: no hand record could be read (expected JSON Lines, one hand a "
        f"line): line 1: not JSON ({why})"]
    egn = tmp_path / "game.egn"
    egn.write_text(text.replace('"a"', '"fileType"'))
    result = CliRunner().invoke(cli, [command, str(egn)])
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1, result.output

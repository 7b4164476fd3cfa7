"""Euchre Game Notation: the real games in tests/data/egn replay under our rules, the ruleset
is mapped or refused, hidden cards stay out of play, and records survive a round trip."""

import copy
import json
import os

import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli
from euchre_sim.core.errors import UserError
from euchre_sim.core.rules import build_rules
from euchre_sim.game.egn import egn_rules, read_egn, write_egn
from euchre_sim.game.hand_files import read_hand_file
from euchre_sim.game.history import RecordError, replay_hand, state_to_record
from euchre_sim.game.selfplay import play_games

STD = build_rules("standard")
DATA = os.path.join(os.path.dirname(__file__), "data", "egn")
VWEC = os.path.join(DATA, "validation examples", "VWEC Finals.egn")
# deals in each file, counted by hand from its "dealNumber" entries
DEALS = {
    "Six Points in Two Hands.egn": 2,
    "Epic Comeback.egn": 9,
    "Hand of the day.egn": 1,
    "VWEC Finals.egn": 13,
    "validation examples/VWEC Finals.egn": 13,
    "validation examples/VWEC Finals (7).egn": 13,
    "validation examples/annotated.egn": 13,
    "validation examples/Euchre_com July 5th Pairs Finals Annotated.egn": 11,
    "validation examples/Masters of the Euchreverse Week 1 Game 1.egn": 9,
    "validation examples/Masters of the Euchreverse Week 1 Game 2.egn": 8,
    "validation examples/Masters of the Euchreverse Week 1 (16).egn": 8,
    "validation examples/Masters of the Euchreverse Week 1.egn": 9,
    "validation examples/Masters of the Euchreverse Week 1 Game 3.egn": 9,
    "validation examples/Masters of the Euchreverse Week 1 Game 5.egn": 10,
    "validation examples/Masters of the Euchreverse Week 1 Game 6.egn": 13,
    "validation examples/July 4th Pairs Finals.egn": 11,
    "validation examples/Me and Bears.egn": 12,
    "validation examples/Quite the Hustle.egn": 11,
    "validation examples/Another fun euchre!.egn": 1,
    "validation examples/Me and Mike Mike Mike.egn": 9,
    "combination examples/MotE W5 G1.egn": 11,
    "combination examples/MotE W5 G2.egn": 12,
    "combination examples/MotE W5 G3.egn": 11,
    "combination examples/MotE W5 G4.egn": 13,
    "combination examples/MotE W5 G5.egn": 10,
    "combination examples/MotE W5 G6.egn": 16,
}


def _egn_files() -> list[str]:
    found = []
    for folder, _, names in os.walk(DATA):
        found += [os.path.relpath(os.path.join(folder, n), DATA).replace(os.sep, "/")
                  for n in names if n.endswith(".egn")]
    return sorted(found)


def test_every_example_file_is_counted():
    assert _egn_files() == sorted(DEALS)


@pytest.mark.parametrize("name", sorted(DEALS))
def test_real_games_replay_with_every_card_legal(name):
    hands = read_hand_file(os.path.join(DATA, name), STD)
    assert hands.format == "egn"
    assert len(hands.entries) == DEALS[name]
    totals = {"NS": 0, "EW": 0}
    for entry in hands.entries:
        assert entry.error is None, entry.error
        state = replay_hand(entry.record, hands.rules).state
        for team, points in zip(("NS", "EW"), state.points(), strict=True):
            totals[team] += points
    game = hands.entries[0].record["game"]
    if "finalScore" in game:
        start = game["initialScore"]
        assert {t: start[t] + totals[t] for t in totals} == game["finalScore"]


def _game_points(name: str) -> tuple[dict, list[list[int]]]:
    hands = read_hand_file(os.path.join(DATA, name), STD)
    return hands.entries[0].record["game"], [
        replay_hand(e.record, hands.rules).state.points() for e in hands.entries]


def test_games_score_as_their_titles_say():
    """"Six Points in Two Hands": North-South score 4 then 2. "Epic 0-7 Comeback": from 0-7
    North-South win, the game ending with the last deal recorded."""
    game, points = _game_points("Six Points in Two Hands.egn")
    assert points == [[4, 0], [2, 0]]
    game, points = _game_points("Epic Comeback.egn")
    assert game["initialScore"] == {"NS": 0, "EW": 7}
    assert game["teamNames"] == {"NS": "Ace & Brownslacker", "EW": "Glanke & Hoyle"}
    ns, ew = 0, 7
    for number, (gained_ns, gained_ew) in enumerate(points, 1):
        assert max(ns, ew) < 10, f"the game was over before deal {number}"
        ns, ew = ns + gained_ns, ew + gained_ew
    assert ns >= 10 > ew


def test_vwec_deals_score_as_worked_by_hand():
    """Deal 3: East (dealer) takes the ten of hearts, East-West win two tricks: euchred, North-
    South 2. Deal 7: East takes the ten of spades alone, South trumps the ace of hearts: East-
    West 4 tricks, 1 point."""
    hands = read_hand_file(VWEC, STD)
    assert hands.rules.stick_the_dealer and hands.rules.lone_player_plays_last
    deal3 = replay_hand(hands.entries[3].record, hands.rules).state
    assert (deal3.team_tricks(), deal3.points()) == ([3, 2], [2, 0])
    deal7 = replay_hand(hands.entries[7].record, hands.rules)
    assert (deal7.state.team_tricks(), deal7.state.points()) == ([1, 4], [0, 1])
    record = hands.entries[7].record
    assert record["unknown"] == {"hands": {"E": 1, "W": 5}, "discard": True}
    assert record["hands"][3] == [] and record["discard"] is None
    assert deal7.hidden == 6
    assert record["players"]["N"] == "WWMM" and record["deal"] == 7


def test_hidden_cards_do_not_change_the_result():
    """The loner's partner and the dealer's discard filled two different ways."""
    hands = read_hand_file(VWEC, STD)
    record = hands.entries[7].record
    lowest = replay_hand(record, hands.rules)
    deck = hands.rules.card_deck
    seen = {c for h in record["hands"] for c in h} | {record["upcard"]}
    seen |= {p["card"] for t in record["tricks"] for p in t["plays"]}
    unseen = [deck.card_name(c) for c in reversed(deck.cards) if deck.card_name(c) not in seen]
    other = copy.deepcopy(record)
    del other["unknown"]
    other["hands"][1] = record["hands"][1] + [unseen[0]]  # East, the dealer: the discard
    other["discard"] = unseen[0]
    other["hands"][3] = unseen[1:6]
    filled = [{deck.card_name(c) for c in deck.cards if mask >> c & 1} for mask in lowest.filled]
    assert filled[1] != {unseen[0]} and filled[3] != set(unseen[1:6])
    highest = replay_hand(other, hands.rules).state
    assert highest.points() == lowest.state.points()
    assert [(t.leader, t.plays, t.winner) for t in highest.tricks] == \
        [(t.leader, t.plays, t.winner) for t in lowest.state.tricks]


def test_egn_1_0_names_are_read():
    """MotE W5 G1 is written in EGN 1.0: player_cards (deal 8 gives South's hand, the
    loner's partner) and initialLead, which must be the leader the rules give."""
    path = os.path.join(DATA, "combination examples", "MotE W5 G1.egn")
    record = read_hand_file(path, STD).entries[8].record
    assert set(record["hands"][2]) == {"KH", "AS", "JS", "TS", "9C"}
    assert record["unknown"] == {"hands": {"N": 1}, "discard": True}
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    document["deals"][0]["phases"][1]["initialLead"] = 2
    entry = read_egn(document, STD)[1][0]
    assert entry[1] is None and entry[2] == ("hand 1: deal 0: seat S is recorded to lead, the "
                                             "rules make E lead")


def test_hidden_cards_in_a_hand_in_play_are_refused():
    record = copy.deepcopy(read_hand_file(VWEC, STD).entries[1].record)
    record["hands"][0] = record["hands"][0][:4]
    record["unknown"] = {"hands": {"N": 1}}
    record["tricks"] = record["tricks"][:1]
    with pytest.raises(RecordError, match="seat N plays with hidden cards"):
        replay_hand(record, STD)


def _vwec_document() -> dict:
    with open(VWEC, encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.parametrize("field,value", [("farmers", True), ("num_players", 6),
                                         ("loner_lead", "SOMEWHERE"), ("colour", "red"),
                                         ("loner_euchred_score", 4), ("min_rank", 6)])
def test_unsupported_ruleset_value_is_one_line_exit_2(tmp_path, field, value):
    document = _vwec_document()
    document["metadata"]["ruleset"][field] = value
    path = tmp_path / "game.egn"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert f"'{field}'" in result.output


def test_ruleset_fields_map_onto_our_options():
    rules = egn_rules({"std": False, "min_rank": 7, "winning_score": 11, "canadian": True,
                       "loner_march_score": 5, "defend_alone": True, "joker": True,
                       "allow_no_trump": True}, STD)
    assert (rules.stick_the_dealer, rules.deck, rules.target, rules.canadian_loner,
            rules.lone_march_points, rules.defend_alone, rules.joker, rules.no_trump,
            rules.lone_player_plays_last) == (False, 32, 11, True, 5, True, True, True, False)
    assert egn_rules(None, STD).stick_the_dealer  # EGN's default: stick the dealer
    with pytest.raises(UserError, match="'fast_break'"):
        egn_rules({"fast_break": True}, STD)


def test_an_illegal_card_is_a_per_deal_reason_and_exit_1(tmp_path):
    """Deal 0: North's nine of diamonds (trick 1) and nine of hearts (trick 4) swapped, so North
    throws a heart on the ace of diamonds while holding the nine."""
    document = _vwec_document()
    tricks = document["deals"][0]["phases"][1]["tricks"]
    assert (tricks[0][1], tricks[3][1]) == ("9d", "9h")
    tricks[0][1], tricks[3][1] = "9h", "9d"
    path = tmp_path / "broken.egn"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 13 and sum(not r["ok"] for r in lines) == 1
    assert lines[0]["error"] == "hand 1: trick 1, seat N: failure to follow suit (renege)"


def test_unknown_cards_are_a_per_deal_reason():
    document = _vwec_document()
    document["deals"][2]["phases"][1]["tricks"][0][0] = "Xx"
    _, entries = read_egn(document, STD)
    assert [e[0] for e in entries if e[1] is None] == [3]
    assert "'Xx'" in entries[2][2] and entries[2][2].startswith("hand 3: deal 2:")


@pytest.mark.parametrize("content", [None, "{not json", "[1, 2]"])
def test_an_unreadable_egn_file_exits_2(tmp_path, content):
    path = tmp_path / "game.egn"
    if content is not None:
        path.write_text(content)
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1


def test_cli_replays_an_example_as_json_lines():
    result = CliRunner().invoke(cli, ["replay", VWEC, "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["id"] for r in lines] == list(range(1, 14)) and all(r["ok"] for r in lines)
    assert lines[7]["hidden"] == 6 and "hidden" not in lines[1]


def test_records_round_trip_through_egn():
    rules = build_rules("online", ["defend_alone=true"])
    records = [state_to_record(h.state, n)
               for n, h in enumerate(play_games(rules, 1, 5, ("rules", "random")), 1)]
    document = json.loads(json.dumps(write_egn(records, rules, "t", list("NESW"))))
    back_rules, entries = read_egn(document, build_rules("standard"))
    assert back_rules == rules
    assert len(entries) == len(records)
    for (_, back, error), original in zip(entries, records, strict=True):
        assert error is None
        for key in ("dealer", "hands", "upcard", "bids", "discard", "defend_alone", "tricks"):
            assert back[key] == original[key], key
        assert replay_hand(back, back_rules).state.points() == \
            [original["points"]["NS"], original["points"]["EW"]]
    assert document["metadata"]["finalScore"] == [
        sum(r["points"][t] for r in records) for t in ("NS", "EW")]


def test_rules_egn_cannot_say_are_refused():
    with pytest.raises(UserError, match="renege_penalty"):
        write_egn([], build_rules("drinking"), "t", list("NESW"))


def _replays_ok(path: str) -> dict:
    result = CliRunner().invoke(cli, ["replay", path, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def test_play_writes_one_egn_file_per_game(tmp_path):
    out = tmp_path / "games.egn"
    result = CliRunner().invoke(cli, ["play", "--games", "2", "--seed", "3", "--rules", "online",
                                      "--output", str(out)], catch_exceptions=False)
    finals = [line.split(": ", 1)[1] for line in result.output.splitlines()[:2]]
    assert sorted(os.listdir(tmp_path)) == ["games-1.egn", "games-2.egn"]
    for number, final in enumerate(finals, 1):
        document = _replays_ok(str(tmp_path / f"games-{number}.egn"))
        assert "NS {} - EW {}".format(*document["metadata"]["finalScore"]) == final


def test_tournament_games_as_egn_score_as_the_tournament_did(tmp_path):
    import pandas as pd

    result = CliRunner().invoke(cli, ["tournament", "--games", "2", "--seed", "4", "--no-duplicate",
                                      "--out", str(tmp_path / "t"), "--egn", str(tmp_path / "e"),
                                      "--workers", "1", "--no-progress"], catch_exceptions=False)
    assert result.exit_code == 0 and "otherwise" not in result.output
    games = pd.read_parquet(tmp_path / "t" / "games.parquet")
    assert sorted(os.listdir(tmp_path / "e")) == ["game-1.egn", "game-2.egn"]
    for row in games.itertuples():
        document = _replays_ok(str(tmp_path / "e" / f"game-{row.game + 1}.egn"))
        assert document["metadata"]["finalScore"] == [row.ns_score, row.ew_score]
        assert len(document["deals"]) == row.hands


@pytest.mark.parametrize("version", ["9.9", "1.7", "2.0", "1.6.x", "", None, 1.6])
def test_a_version_this_does_not_read_is_one_line_exit_2(tmp_path, version):
    document = _vwec_document()
    document["version"] = version
    path = tmp_path / "game.egn"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"euchre-sim: error: cannot read {str(path)!r}: EGN version {version!r} is not one "
        "this reads (1.0 to 1.6)"]


@pytest.mark.parametrize("version", ["1.0", "1.0.0", "1.3", "1.6", "1.6.2"])
def test_every_version_read_is_read(version):
    document = _vwec_document()
    document["version"] = version
    assert len(read_egn(document, STD)[1]) == 13

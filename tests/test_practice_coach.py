"""Issue 75 through the Practice API: `seq` (an act sent twice, even at once, taken once),
`null` refused, Deal ending the player's own game and the per-client cap, the trick the others
finish shown, the EGN's annotations, the tables, whole games and a retry. Expected values come
from the issue's text, the rules, `advise` and the command line, never from practice itself."""

import json
import threading

import pytest
from starlette.testclient import TestClient

from euchre_sim.advice.advice_request import answer
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.core.rules import build_rules
from euchre_sim.web.app import create_app
from euchre_sim.web.practice import NoGame, PracticeGames
from euchre_sim.web.worker import Worker

from .helpers import run_cli

START = {"rules": "standard", "set": {}, "seat": 1, "seed": 11}
ORDER_SPADES = {"action": "order_up", "suit": "S", "alone": False}
PASS = {"action": "pass", "suit": None, "alone": False}
LEFT = {"N": "E", "E": "S", "S": "W", "W": "N"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Worker()), base_url="http://127.0.0.1") as test_client:
        yield test_client


def _act(client, game: str, action, **extra) -> dict:
    response = client.post(f"/api/practice/{game}/act", json={"action": action} | extra)
    assert response.status_code == 200, response.text
    return response.json()


def _choose(state: dict):
    """A partnership order or call where one is open, else the first legal choice."""
    calls = [c for c in state["legal"] if isinstance(c, dict) and c["action"] != "pass"
             and not c["alone"]]
    return (calls or state["legal"])[0]


def _play_out(client, game: str, state: dict) -> list[dict]:
    """The states of game `game` from `state` to the end of its hand, each decision
    `_choose`n."""
    states = [state]
    while states[-1]["legal"]:
        states.append(_act(client, game, _choose(states[-1])))
    return states


@pytest.fixture(scope="module")
def east_bower(client):
    """Seed 0, position 4, deal 1 (the issue's hand): order up spades, discard 9S, play 9C,
    AH, lead JC; the states after each, and the game."""
    state = client.post("/api/practice", json={"seed": 0, "seat": 4, "deal": 1}).json()
    states = [state]
    for action in (ORDER_SPADES, "9S", "9C", "AH", "JC"):
        states.append(_act(client, state["id"], action))
    return states


def test_the_trick_the_others_finish_after_the_players_card_is_in_the_state(east_bower):
    """Issue 75 item 2: trick 3, led by the player's JC and won by East's right bower."""
    after = east_bower[-1]
    assert sorted(east_bower[0]["hand"]) == sorted(["JC", "9C", "KD", "9D", "AH"])
    third = after["tricks"][2]
    assert third["leader"] == "S" and third["winner"] == "E"
    assert [p["seat"] for p in third["plays"]] == ["S", "W", "N", "E"]
    assert third["plays"][0]["card"] == "JC" and third["plays"][3]["card"] == "JS"
    cards = [e for e in after["others"] if e["kind"] == "card"]
    assert [(e["seat"], e["trick"]) for e in cards[:3]] == [("W", 2), ("N", 2), ("E", 2)]
    assert cards[2]["action"] == "JS" and cards[2]["winner"] == "E"
    assert cards[3]["seat"] == "E" and cards[3]["trick"] == 3 and cards[3]["winner"] is None


def test_every_state_carries_seq_and_a_repeated_act_is_answered_with_its_state(client):
    """Issue 75 item 2: the same act with the same seq is taken once, its state answered
    again; a seq ahead of the game is a 400."""
    state = client.post("/api/practice", json=START).json()
    game = state["id"]
    assert state["seq"] == 0
    first = _act(client, game, PASS, seq=0)
    again = _act(client, game, PASS, seq=0)
    assert again == first and first["seq"] == 1
    mine = [b for b in first["bids"] if b["seat"] == "S"]
    assert len(mine) == 1
    ahead = client.post(f"/api/practice/{game}/act", json={"action": PASS, "seq": 5})
    assert ahead.status_code == 400 and "ahead" in ahead.json()["error"]


def test_two_identical_acts_sent_at_once_are_taken_once(client):
    """Issue 75 item 2 (two concurrent passes were both taken, one state in round 2): both
    answers are the one state, the player's pass taken once."""
    state = client.post("/api/practice", json=START).json()
    game, answers = state["id"], []
    barrier = threading.Barrier(2)

    def send():
        barrier.wait()
        answers.append(client.post(f"/api/practice/{game}/act",
                                   json={"action": PASS, "seq": state["seq"]}))
    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [200, 200]
    first, second = (a.json() for a in answers)
    assert first == second and first["seq"] == state["seq"] + 1
    assert len([b for b in first["bids"] if b["seat"] == "S"]) == 1


@pytest.mark.parametrize("route, body", [
    ("", START | {"rules": None}), ("", START | {"set": None}), ("", START | {"seat": None}),
    ("", START | {"seed": None}), ("", START | {"deal": None}), ("", START | {"table": None}),
    ("", START | {"game": None}), ("", START | {"replaces": None}),
    ("act", {"action": None}), ("act", {"action": PASS, "seq": None}),
    ("next", {"seq": None}), ("retry", {"hand": None, "decision": 0}),
])
def test_null_for_any_field_is_a_400(client, route, body):
    """Issue 75 item 2: null was taken for the field's default (200)."""
    path = "/api/practice"
    if route:
        game = client.post("/api/practice", json=START).json()["id"]
        path += f"/{game}/{route}"
    response = client.post(path, json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert "must not be null" in error and "\n" not in error


def test_deal_ends_the_players_previous_game(client):
    """Issue 75 item 2: a new game that `replaces` the last ends it."""
    old = client.post("/api/practice", json=START).json()["id"]
    new = client.post("/api/practice", json=START | {"replaces": old})
    assert new.status_code == 200
    assert client.get(f"/api/practice/{old}/egn").status_code == 404
    assert client.get(f"/api/practice/{new.json()['id']}/egn").status_code == 200


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _games_made(games: PracticeGames, clock: Clock, made: list[tuple]) -> dict[str, str]:
    """Games dealt for (name, client[, replaces]) ten seconds apart: their ids by name."""
    ids = {}
    for name, client, *replaces in made:
        clock.now += 10
        body = dict(START) | ({"replaces": ids[replaces[0]]} if replaces else {})
        ids[name], deal = games.new(body, client)
        deal(None)
    return ids


def _alive(games: PracticeGames, game_id: str) -> bool:
    try:
        games.egn(game_id)
    except NoGame:
        return False
    return True


def test_a_client_past_its_cap_ends_its_own_idlest_game():
    """Issue 75 item 2 (17 Deals locked Practice for everyone for an hour)."""
    games = PracticeGames(max_games=10, clock=(clock := Clock()), max_per_client=2)
    ids = _games_made(games, clock, [("a1", "A"), ("b1", "B"), ("a2", "A"), ("a3", "A")])
    assert [_alive(games, ids[n]) for n in ("a1", "b1", "a2", "a3")] == [False, True, True,
                                                                         True]


def test_past_the_cap_of_all_the_idlest_game_of_all_ends():
    games = PracticeGames(max_games=3, clock=(clock := Clock()), max_per_client=10)
    ids = _games_made(games, clock, [("a1", "A"), ("b1", "B"), ("c1", "C"), ("d1", "D")])
    assert [_alive(games, ids[n]) for n in ("a1", "b1", "c1", "d1")] == [False, True, True,
                                                                         True]


def test_a_game_is_replaced_only_by_its_own_client():
    games = PracticeGames(clock=(clock := Clock()))
    ids = _games_made(games, clock, [("a1", "A"), ("b1", "B", "a1"), ("a2", "A", "a1")])
    assert [_alive(games, ids[n]) for n in ("a1", "b1", "a2")] == [False, True, True]


def test_the_egn_annotates_the_discard_and_reads_back(client, east_bower, tmp_path):
    """Issue 75 item 2: every kind of decision that lost points is annotated (the discard
    and defending alone on the call that made trump), and replay and review read it."""
    states = _play_out(client, east_bower[0]["id"], east_bower[-1])
    feedback = [s["feedback"] for s in east_bower[1:] + states[1:]]
    discard = next(f for f in feedback if f["kind"] == "discard")
    assert discard["points_lost"] > 0 or discard["dd_points_lost"] > 0
    document = client.get(f"/api/practice/{east_bower[0]['id']}/egn").json()
    phases = document["deals"][0]["phases"]
    calls = phases[0].get("callAnnotations", {})
    plays = phases[1].get("playAnnotations", {}) if len(phases) > 1 else {}
    texts = [t for v in calls.values() for t in v] + [t for v in plays.values() for t in v]
    lost = [f for f in feedback if f["points_lost"] > 1e-9 or f["dd_points_lost"] > 1e-9]
    assert len(texts) == len(lost)
    order_index = str(len(states[-1]["bids"]) - 1)
    assert any(t.startswith("discard: ") for t in calls[order_index])
    path = tmp_path / "practice.egn"
    path.write_text(json.dumps(document))
    replay = json.loads(run_cli(["replay", str(path), "--json"]).stdout.splitlines()[0])
    assert replay["ok"] and replay["points"] == states[-1]["points"]
    review = run_cli(["review", str(path), "--json", "--worlds", "2", "--kinds", "discard"])
    rows = [json.loads(line) for line in review.stdout.splitlines()]
    assert [r["chosen"] for r in rows] == ["9S"]


@pytest.mark.parametrize("table", ["strong", "beginners"])
def test_the_table_is_named_in_the_state_the_summary_and_the_egn(client, table):
    state = client.post("/api/practice", json=START | {"table": table}).json()
    assert state["table"] == table
    final = _play_out(client, state["id"], state)[-1]
    assert final["summary"]["table"] == table
    document = client.get(f"/api/practice/{state['id']}/egn").json()
    assert table in document["metadata"]["title"]
    assert all(table in name for name in document["metadata"]["players"] if name != "You")


def test_an_unknown_table_or_the_strong_table_off_the_atlas_is_a_400(client):
    response = client.post("/api/practice", json=START | {"table": "sharks"})
    assert response.status_code == 400 and "people, strong, beginners" in response.text
    response = client.post("/api/practice", json=START | {"table": "strong",
                                                           "set": {"deck": 32}})
    assert response.status_code == 400 and "atlas" in response.json()["error"]


def test_the_strong_table_bids_as_the_atlas_values_the_calls():
    """The strong table's bidder takes the call the atlas finds best over passing (its
    entry's mean points, as `advise` answers from the atlas), else passes."""
    import random

    from euchre_sim.advice.practice_tables import table_sides
    from euchre_sim.game.engine import HandState

    rules = build_rules("standard")
    deck = rules.card_deck
    # the atlas's bests: alone, pass (where a point count orders up) and order up
    for hand in ("JS JC AS KS QH", "JC AS KS 9D TC", "JS KS 9H AD TC"):
        up = "9S"
        advice = answer(AdviceQuestion(rules, hand, 1, up=up))
        assert advice["source"] == "atlas" and advice["atlas"]["level"] == "class"
        best = advice["actions"][0]
        rest = [c for c in deck.cards if c not in deck.parse_cards(hand) + [deck.parse_card(up)]]
        hands = [0, 0, 0, 0]
        hands[1] = sum(1 << c for c in deck.parse_cards(hand))  # E: left of the dealer N
        for seat, chunk in zip((2, 3, 0), (rest[0:5], rest[5:10], rest[10:15]), strict=True):
            hands[seat] = sum(1 << c for c in chunk)
        state = HandState(rules, 0, hands, deck.parse_card(up))
        bid = table_sides(rules, "strong").seats(random.Random(0))[1].bid(
            state, state.legal_bids())
        assert (bid.action, bid.alone) == (best["action"], best["alone"]), advice["actions"]


def test_a_game_is_played_to_the_target_with_the_dealer_passing_left(client):
    """Issue 75 item 4: the score adds each hand's points (the player sits S: NS is its
    side), the dealer passes left, the game ends at the target and no hand follows."""
    state = client.post("/api/practice", json=START | {"set": {"target": 3},
                                                       "game": True}).json()
    assert state["score"] == [0, 0] and state["game_over"] is False
    game, score, dealers = state["id"], [0, 0], [state["dealer"]]
    while True:
        final = _play_out(client, game, state)[-1]
        score = [score[0] + final["points"]["NS"], score[1] + final["points"]["EW"]]
        assert final["score"] == score and final["game"]["score"] == score
        if max(score) >= 3:
            break
        assert final["game_over"] is False
        state = client.post(f"/api/practice/{game}/next", json={}).json()
        assert state["dealer"] == LEFT[dealers[-1]]
        dealers.append(state["dealer"])
    assert final["game_over"] is True
    assert final["game"]["winner"] == ("you" if score[0] > score[1] else "them")
    assert len(final["game"]["hands"]) == len(dealers)
    refused = client.post(f"/api/practice/{game}/next", json={})
    assert refused.status_code == 400 and "game is over" in refused.json()["error"]


def test_a_games_bids_are_valued_as_advise_score_values_them(client):
    """Issue 75 item 4: at the game's score, each bid's chance of winning the game is
    `advise --score`'s for the same hand, position and seed (deal d's decision k: seed +
    32 d + k)."""
    state = client.post("/api/practice", json=START | {"game": True}).json()
    final = _play_out(client, state["id"], state)[-1]
    hand2 = client.post(f"/api/practice/{state['id']}/next", json={}).json()
    while hand2["decision"] != "bid":
        hand2 = client.post(f"/api/practice/{state['id']}/next", json={}).json() \
            if not hand2["legal"] else _act(client, state["id"], _choose(hand2))
    us, them = hand2["score"]
    assert hand2["score"] == final["score"] or hand2["deal"] > 1
    after = _act(client, state["id"], hand2["legal"][0])
    game = after["feedback"]["game"]
    assert game["score"] == [us, them]
    upcard = {"up": hand2["upcard"]} if hand2["round"] == 1 else {
        "turned_down": hand2["upcard"]}
    advice = answer(AdviceQuestion(build_rules("standard"), " ".join(hand2["hand"]),
                                   hand2["position"], seed=START["seed"] + 32 * hand2["deal"],
                                   score=(us, them), **upcard))
    chances = {(a["action"], a["suit"], a["alone"]): a["p_win"] for a in advice["actions"]}
    got = {tuple(o["option"].values()): o["p_win"] for o in after["feedback"]["options"]}
    assert got == pytest.approx(chances)
    assert game["p_win_lost"] == pytest.approx(max(chances.values()) - game["p_win"])
    assert (game["best_for_game"] is None) == (advice["best_for_game"] is None)


def test_a_retry_replays_the_deal_to_the_decision_and_the_others_play_as_before(client):
    """Issue 75 item 6: a retry at a decision is the same moment of the same deal; the same
    choices from there give the same hand, card for card; the original line's outcome comes
    with it."""
    state = client.post("/api/practice", json=START).json()
    states = _play_out(client, state["id"], state)
    k = 2
    retry = client.post(f"/api/practice/{state['id']}/retry", json={"hand": 0, "decision": k})
    assert retry.status_code == 200, retry.text
    again = retry.json()
    assert again["id"] != state["id"]
    for name in ("hand", "bids", "tricks", "legal", "upcard", "dealer"):
        assert again[name] == states[k][name], name
    original = again["retry"]
    assert original["of"] == state["id"] and (original["hand"], original["decision"]) == (0, k)
    assert original["chosen"] == states[k + 1]["feedback"]["chosen"]
    assert original["feedback"] == states[k + 1]["feedback"]
    assert original["points"] == states[-1]["points"]
    replayed = _play_out(client, again["id"], again)
    assert replayed[-1]["tricks"] == states[-1]["tricks"]
    assert replayed[-1]["points"] == states[-1]["points"]
    bad = client.post(f"/api/practice/{state['id']}/retry", json={"hand": 0, "decision": 99})
    assert bad.status_code == 400 and "decision" in bad.json()["error"]

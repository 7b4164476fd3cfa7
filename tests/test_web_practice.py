"""The Practice API through Starlette's test client: a whole hand played by its `legal` choices,
checked independently: the exported EGN replayed and reviewed by the command line, one bid's
feedback against `advise` for the same position, no state showing a card the player could not
have seen; bad actions, the cap on live games and their expiry."""

import json
import re

import pytest
from starlette.testclient import TestClient

from euchre_sim.advice.advice_request import answer
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.core.rules import build_rules
from euchre_sim.web.app import create_app
from euchre_sim.web.practice import PracticeGames
from euchre_sim.web.worker import Worker

from .helpers import run_cli

START = {"rules": "standard", "set": {}, "seat": 1, "seed": 11}
CARD = re.compile(r"^(?:[9TJQKA][CDHS])$")


class Clock:
    """Seconds that a test moves on."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _serving(games: PracticeGames | None = None) -> TestClient:
    """A server without warm-up (the practice queries load what they need)."""
    return TestClient(create_app(Worker(), games=games), base_url="http://127.0.0.1")


@pytest.fixture(scope="module")
def client():
    with _serving() as test_client:
        yield test_client


def _choose(state: dict):
    """A partnership order or call where one is open (so that the hand is played), else the
    first choice."""
    legal = state["legal"]
    calls = [c for c in legal if isinstance(c, dict) and c["action"] != "pass" and not c["alone"]]
    return (calls or legal)[0]


def _cards_in(value) -> set[str]:
    """Every card name anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


@pytest.fixture(scope="module")
def played(client):
    """A whole hand: the states answered, in order, and the game's id."""
    response = client.post("/api/practice", json=START)
    assert response.status_code == 200, response.text
    states = [response.json()]
    while states[-1]["legal"]:
        response = client.post(f"/api/practice/{states[0]['id']}/act",
                               json={"action": _choose(states[-1])})
        assert response.status_code == 200, response.text
        states.append(response.json())
    return states


def test_a_hand_starts_at_the_players_first_decision(played):
    first = played[0]
    assert first["seat"] == "S" and first["position"] == 1 and first["dealer"] == "E"
    assert (first["seed"], first["deal"]) == (11, 0)
    assert first["phase"] == "bid" and first["decision"] == "bid" and first["bids"] == []
    assert {"action": "pass", "suit": None, "alone": False} in first["legal"]
    assert len(first["hand"]) == 5 and first["hands"] is None and first["feedback"] is None


def test_every_state_shows_only_cards_the_player_could_see(played):
    final = played[-1]
    assert final["phase"] == "done" and final["legal"] == [] and final["points"] is not None
    dealt = final["hands"]
    assert sorted(map(len, dealt.values())) == [5, 5, 5, 5]
    own = set(dealt["S"]) | {final["upcard"]}
    if final["dealer"] == "S":
        own |= {final["discard"]}
    for state in played[:-1]:
        assert state["hands"] is None
        played_cards = {p["card"] for t in state["tricks"] for p in t["plays"]}
        assert _cards_in(state) <= own | played_cards, state


def test_every_decision_has_feedback_with_losses_at_least_zero(played):
    for before, after in zip(played, played[1:], strict=False):
        feedback = after["feedback"]
        assert feedback["kind"] == before["decision"] and feedback["seat"] == "S"
        assert feedback["points_lost"] >= 0 and feedback["dd_points_lost"] >= 0
        options = [o["option"] for o in feedback["options"]]
        assert sorted(map(json.dumps, options)) == sorted(map(json.dumps, before["legal"]))


def test_a_bids_feedback_is_what_advise_answers_for_the_position(played):
    first, feedback = played[0], played[1]["feedback"]
    # the deal's first decision is asked with the game's seed (deal d's decision k: seed + 32d + k)
    question = AdviceQuestion(build_rules("standard"), " ".join(first["hand"]), 1,
                              up=first["upcard"], seed=START["seed"])
    advice = answer(question)
    assert feedback["source"] == advice["source"]
    values = {(a["action"], a["suit"], a["alone"]): a["mean_points"] for a in advice["actions"]}
    got = {tuple(o["option"].values()): o["pimc"] for o in feedback["options"]}
    assert got == pytest.approx(values)
    chosen = values[tuple(feedback["chosen"].values())]
    assert feedback["points_lost"] == pytest.approx(max(values.values()) - chosen)


def test_a_bids_feedback_names_its_best_only_where_advise_separates_it(played):
    """Issue 76: the bid's best at the table of people is `advise`'s, stated only where its
    margin over the runner-up separates it at 95 %; the margin is there either way."""
    first, feedback = played[0], played[1]["feedback"]
    advice = answer(AdviceQuestion(build_rules("standard"), " ".join(first["hand"]), 1,
                                   up=first["upcard"], seed=START["seed"]))
    margin, theirs = feedback["margin"], advice["margin"]
    assert margin["option"] == {k: theirs[k] for k in ("action", "suit", "alone")}
    assert margin["runner_up"] == theirs["runner_up"]
    assert (margin["lead"], margin["lead_se"]) == (theirs["lead"], theirs["lead_se"])
    assert (feedback["best"] is None) == (advice["best"] is None) == (not margin["separated"])


def test_a_cards_feedback_margin_is_the_top_two_cards_over_the_worlds(played):
    """Each card's best over the worlds: the top two cards by their mean points, the lead the
    difference of their means (paired, world by world), named best only where separated."""
    cards = [s["feedback"] for s in played[1:] if s["feedback"]["kind"] == "card"
             and len(s["feedback"]["options"]) > 1]
    assert cards
    for feedback in cards:
        first, second = sorted(feedback["options"], key=lambda o: -o["pimc"])[:2]
        margin = feedback["margin"]
        assert (margin["option"], margin["runner_up"]) == (first["option"], second["option"])
        assert margin["lead"] == pytest.approx(first["pimc"] - second["pimc"])
        assert margin["paired"] and margin["separated"] == (margin["lead_ci95"][0] > 0)
        assert (feedback["best"] is not None) == margin["separated"]


def test_the_tally_names_a_best_only_where_it_was_separated():
    """The costliest decisions' `best`: the option best at the table of people where its
    margin separated it, too close to call (the two and the lead ± 1.96 se) where not, the
    double-dummy best where the table of people did not value it."""
    from euchre_sim.report.practice_tally import best_named as _best

    options = [{"option": "AS", "pimc": 0.5, "dd": 1.0}, {"option": "KS", "pimc": 0.45,
                                                            "dd": 2.0}]
    margin = {"option": "AS", "runner_up": "KS", "lead": 0.05, "lead_se": 0.1,
              "separated": False}
    assert _best({"options": options, "margin": margin, "best": None}) == \
        "too close to call: AS or KS, +0.05 ± 0.20"
    separated = {"option": "AS", "lead": 0.05, "lead_se": 0.01}
    assert _best({"options": options, "margin": margin | {"separated": True},
                  "best": separated}) == "AS"
    unvalued = [o | {"pimc": None} for o in options]
    assert _best({"options": unvalued, "margin": None, "best": None}) == "KS"


def test_the_summary_adds_up_the_hands_losses(played):
    final = played[-1]
    summary, tally = final["summary"], final["tally"]
    losses = [s["feedback"] for s in played[1:]]
    assert summary["lost"]["total"]["people"] == pytest.approx(
        sum(f["points_lost"] for f in losses))
    assert summary["lost"]["total"]["dd"] == pytest.approx(
        sum(f["dd_points_lost"] for f in losses))
    assert tally["hands"] == 1 and tally["per_hand"] == summary["lost"]
    assert set(summary["yardsticks"]) == {"people", "pimc"}


def test_the_hand_exported_as_egn_replays_and_reviews(client, played, tmp_path):
    response = client.get(f"/api/practice/{played[0]['id']}/egn")
    assert response.status_code == 200
    path = tmp_path / "practice.egn"
    path.write_text(response.text)
    replay = run_cli(["replay", str(path), "--json"])
    result = json.loads(replay.stdout.splitlines()[0])
    assert result["ok"] and result["points"] == played[-1]["points"]
    review = run_cli(["review", str(path), "--json", "--worlds", "2", "--kinds", "card"])
    rows = [json.loads(line) for line in review.stdout.splitlines()]
    cards = sum(len(t["plays"]) for t in played[-1]["tricks"])
    assert len(rows) == cards
    notes = json.loads(response.text)["deals"][0]["phases"]
    lost = [f for f in (s["feedback"] for s in played[1:]) if f["points_lost"] > 1e-9]
    annotated = sum(len(texts) for p in notes for key in ("callAnnotations", "playAnnotations")
                    for texts in p.get(key, {}).values())
    assert annotated == len(lost)  # every kind: the discard and defending alone too


def test_the_next_hand_is_dealt_by_the_seat_to_the_left(client, played):
    game = played[0]["id"]
    state = client.post(f"/api/practice/{game}/next", json={}).json()
    assert (state["deal"], state["dealer"], state["position"]) == (1, "S", 4)
    assert state["tally"]["hands"] == 1 and state["summary"] is None


@pytest.mark.parametrize("body, culprit", [
    ({"action": "XX"}, "is not one of the legal choices"),
    ({"action": {"action": "pass"}}, "is not one of the legal choices"),
    ({"action": 3}, "field 'action' must be"),
    ({}, "needs 'action'"),
    ({"action": "9S", "card": "9S"}, "unknown field 'card'"),
])
def test_a_bad_action_is_a_400_with_one_line(client, played, body, culprit):
    game = played[0]["id"]  # its second hand in play
    response = client.post(f"/api/practice/{game}/act", json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert culprit in error and "\n" not in error


@pytest.mark.parametrize("body, culprit", [
    (START | {"seat": 5}, "seat must be 1-4"),
    (START | {"rules": "nope"}, "nope"),
    (START | {"seed": -1}, "'seed' must be 0"),
    (START | {"deal": -1}, "deal must be 0"),
    (START | {"hand": "JS"}, "unknown field 'hand'"),
])
def test_a_bad_new_game_is_a_400(client, body, culprit):
    response = client.post("/api/practice", json=body)
    assert response.status_code == 400, response.text
    assert culprit in response.json()["error"]


def test_unknown_games_and_unfinished_hands_are_refused(client):
    assert client.get("/api/practice/nothing/egn").status_code == 404
    assert client.post("/api/practice/nothing/act", json={"action": "9S"}).status_code == 404
    game = client.post("/api/practice", json=START).json()["id"]
    response = client.post(f"/api/practice/{game}/next", json={})
    assert response.status_code == 400 and "not over" in response.json()["error"]
    response = client.post(f"/api/practice/{game}/act", content=b"action=9S",
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 415


def test_live_games_are_capped_per_client_and_expire():
    """Issue 75 item 2: one client's games past its cap end its least recently used one
    (never a 429 for everyone); another client's games stay; an hour idle forgets a game."""
    clock = Clock()
    games = PracticeGames(max_games=4, expire_seconds=600, clock=clock, max_per_client=2)
    with _serving(games) as client:
        first = client.post("/api/practice", json=START).json()["id"]
        clock.now += 100
        second = client.post("/api/practice", json=START).json()["id"]
        clock.now += 100
        client.get(f"/api/practice/{first}/egn")  # the first used again: the second is idler
        clock.now += 100
        third = client.post("/api/practice", json=START)
        assert third.status_code == 200, third.text
        assert client.get(f"/api/practice/{second}/egn").status_code == 404
        assert client.get(f"/api/practice/{first}/egn").status_code == 200
        clock.now += 700  # untouched for 700 s: forgotten
        assert client.get(f"/api/practice/{first}/egn").status_code == 404


def test_a_defender_is_asked_to_defend_alone_where_the_rules_allow_it(client):
    """Passing every bid, the player defends a contract in about half the hands."""
    for deal in range(8):
        state = client.post("/api/practice", json=START | {"set": {"defend_alone": True},
                                                          "deal": deal}).json()
        game = state["id"]
        while state["decision"] == "bid":  # the first choice: pass where it is open
            state = client.post(f"/api/practice/{game}/act",
                                json={"action": state["legal"][0]}).json()
        if state["decision"] == "defend_alone":
            break
    assert state["decision"] == "defend_alone" and state["legal"] == ["partner", "alone"]
    after = client.post(f"/api/practice/{game}/act", json={"action": "partner"}).json()
    feedback = after["feedback"]
    assert feedback["kind"] == "defend_alone" and feedback["chosen"] == "partner"
    assert [o["option"] for o in feedback["options"]] == ["partner", "alone"]
    assert after["phase"] in ("defend", "play", "done") and after["decision"] != "defend_alone"

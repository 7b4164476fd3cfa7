"""The web API through Starlette's test client: every endpoint, every error, the queue and
cancelling. Expected values come from the command line's --json output or the library (play
decisions, reviews and entered hands: the library and the engine called directly)."""

import json
import time

import pytest
from starlette.testclient import TestClient

from euchre_sim.advice.advice_request import answer, ask_any
from euchre_sim.advice.review import ReviewSettings, review_file, review_states
from euchre_sim.core.rules import PRESETS, build_rules, option_fields
from euchre_sim.core.seats import parse_seat
from euchre_sim.game.engine import Bid, HandState
from euchre_sim.game.history import replay_hand, replay_record
from euchre_sim.play.models import MODELS, PLAY_MODELS
from euchre_sim.play.player import Player, people
from euchre_sim.report.review import seat_totals
from euchre_sim.web.app import create_app

from .helpers import run_cli

HAND = {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}
DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The server's runs folder."""
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="module")
def client(runs):
    with TestClient(create_app(runs_root=str(runs)), base_url="http://127.0.0.1") as test_client:
        deadline = time.monotonic() + 600
        while not test_client.get("/api/health").json()["ready"]:
            assert time.monotonic() < deadline, "the worker never warmed up"
            time.sleep(0.2)
        yield test_client


def _cli_json(args: list[str]) -> dict:
    return json.loads(run_cli([*args, "--json"]).stdout)


def _wait(client, job_id: str, states=("done", "failed", "cancelled"), timeout=120) -> dict:
    deadline = time.monotonic() + timeout
    while (job := client.get(f"/api/jobs/{job_id}").json())["state"] not in states:
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
    return job


def test_health_is_ready_after_the_warm_up_with_measured_rates(client):
    health = client.get("/api/health").json()
    assert health["ready"] is True
    assert health["warm_up_seconds"] > 0
    assert set(health["rates"]) >= {"dd", "rules", "pimc", "dd in the auction"}


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "<title>euchre-sim</title>" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_rules_lists_every_preset_and_option_as_the_library_has_them(client):
    catalog = client.get("/api/rules").json()
    assert set(catalog["presets"]) == set(PRESETS)
    for name, entry in catalog["presets"].items():
        assert entry["options"] == build_rules(name).options()
    meanings = {f.name: f.metadata["meaning"] for f in option_fields()}
    assert {o["name"]: o["meaning"] for o in catalog["options"]} == meanings
    assert [m["name"] for m in catalog["models"]] == list(PLAY_MODELS)


def test_rules_serves_the_play_models_registry_the_page_reads(client):
    """The page names no model: the worlds box, the default deals, the cap and the columns
    beside come from each model's record, the form's first choice from a table of people."""
    catalog = client.get("/api/rules").json()
    for served, model in zip(catalog["models"], MODELS, strict=True):
        assert served == {"name": model.name, "description": model.description,
                          "samples_worlds": model.samples_worlds, "uses_net": model.uses_net,
                          "solved": model.solved, "deals": model.pace.advise_deals,
                          "max_deals": model.pace.max_deals}
    assert catalog["people"] == {"bidding": people().bidder, "play": people().play}
    assert catalog["default_play"] == Player().play


@pytest.mark.parametrize("preset, settings, size", [
    ("standard", [], 24), ("standard", ["deck=28"], 28), ("standard", ["deck=32"], 32),
    ("online", ["joker=true"], 25), ("yooker", [], 24), ("yooker", ["joker=true"], 25)])
def test_the_deck_follows_the_rules(client, preset, settings, size):
    query = [("rules", preset)] + [("set", s) for s in settings]
    deck = client.get("/api/deck", params=query).json()
    names = [c for s in deck["suits"] for c in s["cards"]] + ([deck["joker"]] if deck["joker"]
                                                               else [])
    assert deck["size"] == len(names) == size
    card_deck = build_rules(preset, settings).card_deck
    assert sorted(card_deck.parse_card(n) for n in names) == card_deck.cards


HAND_ARGS = ["--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1"]


@pytest.mark.parametrize("body, args", [
    (HAND | {"deals": 3000, "seed": 7, "rules": "online", "set": {"no_trump": True}},
     HAND_ARGS + ["--deals", "3000", "--seed", "7", "--rules", "online", "--set",
                  "no_trump=true"]),
    ({"hand": "JS AS AH KD TC", "turned-down": "9S", "seat": 3, "deals": 400, "play": "rules"},
     ["--hand", "JS AS AH KD TC", "--turned-down", "9S", "--seat", "3", "--deals", "400",
      "--play", "rules"]),
    (HAND | {"deals": 500, "bidding": "rules", "score": "8-9"},
     HAND_ARGS + ["--deals", "500", "--bidding", "rules", "--score", "8-9"]),
])
def test_advise_answers_what_advise_json_prints(client, body, args):
    response = client.post("/api/advise", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == _cli_json(["advise", *args])


def test_solve_answers_what_solve_json_prints(client):
    body = {"deal": DEAL, "dealer": "W", "rules": "standard", "set": ["no_trump=true"]}
    response = client.post("/api/solve", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == _cli_json(["solve", DEAL, "--dealer", "W", "--set",
                                         "no_trump=true"])


@pytest.mark.parametrize("path, body, culprit", [
    ("/api/advise", HAND | {"hand": "JS JS 9H 9D TC"}, "duplicate card 'JS'"),
    ("/api/advise", HAND | {"hand": "JS AS 9H 9D TC 9C"}, "has 6 cards, expected 5"),
    ("/api/advise", HAND | {"up": "JS"}, "'JS' is both in the hand and turned up"),
    ("/api/advise", HAND | {"up": "ZZ"}, "'ZZ'"),
    ("/api/advise", HAND | {"set": {"colour": "red"}}, "unknown option 'colour'"),
    ("/api/advise", HAND | {"rules": "nope"}, "unknown preset 'nope'"),
    ("/api/advise", HAND | {"deals": 200_001}, "deals must be 2 to 200,000"),
    ("/api/advise", HAND | {"deals": 1}, "deals must be 2 to 200,000"),
    ("/api/advise", HAND | {"play": "pimc", "deals": 10_001}, "deals must be 2 to 10,000"),
    ("/api/advise", HAND | {"deals": "many"}, "field 'deals' must be a whole number"),
    ("/api/advise", HAND | {"colour": 1}, "unknown field 'colour'"),
    ("/api/advise", HAND | {"seat": 5}, "'seat' must be 1-4"),
    ("/api/advise", HAND | {"turned_down": "9C"}, "exactly one of 'up' (round 1) or 'turned_down'"),
    ("/api/advise", HAND | {"play": "magic"}, "'play' must be one of dd, rules, pimc"),
    ("/api/advise", {"up": "9S", "seat": 1}, "advise needs 'hand'"),
    ("/api/advise", HAND | {"play": "dd", "score": "8-9"}, "'score' needs 'bidding'"),
    ("/api/advise", HAND | {"bidding": "rules", "score": "8 to 9"}, "'score' must look like"),
    ("/api/advise", HAND | {"seed": -1}, "'seed' must be 0 to 2^63 - 1"),
    ("/api/advise", HAND | {"bidding": "rules", "seed": 2**63}, "'seed' must be 0 to 2^63 - 1"),
    ("/api/advise", [1, 2], "body must be a JSON object"),
    ("/api/estimate", HAND | {"hand": "JS"}, "has 1 cards"),
    ("/api/solve", {"deal": DEAL.replace("9C/", "JS/")}, "duplicate card 'JS'"),
    ("/api/solve", {"deal": DEAL, "dealer": "X"}, "unknown seat 'X'"),
    ("/api/solve", {}, "solve needs 'deal'"),
    ("/api/jobs", {"kind": "dance", "query": {}}, "unknown job kind 'dance'"),
    ("/api/jobs", {"query": HAND}, "a job is"),
])
def test_bad_input_is_a_400_with_one_line(client, path, body, culprit):
    response = client.post(path, json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert culprit in error and "\n" not in error
    assert "--" not in error  # the page's users typed fields, not command-line options


def test_a_body_that_is_not_json_is_a_400(client):
    response = client.post("/api/advise", content=b"{hand: JS",
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("the body is not JSON")


def test_unknown_paths_and_jobs_are_404s_in_json(client):
    assert client.get("/api/nothing").json() == {"error": "Not Found"}
    response = client.get("/api/jobs/999999")
    assert response.status_code == 404 and "no job '999999'" in response.json()["error"]
    assert client.delete("/api/jobs/999999").status_code == 404


def test_a_job_reports_progress_and_its_result(client):
    body = HAND | {"deals": 40, "play": "pimc", "worlds": 10, "seed": 2}
    job = client.post("/api/jobs", json={"kind": "advise", "query": body})
    assert job.status_code == 202
    state = _wait(client, job.json()["id"])
    assert state["done"] == state["total"] == 80  # PIMC and double dummy on the same deals
    assert state["result"] == client.post("/api/advise", json=body).json()
    # a running job shows how far it is (a job of some seconds: seen whatever the machine)
    long = HAND | {"deals": 4_000, "play": "pimc", "worlds": 10, "seed": 2}
    running = client.post("/api/jobs", json={"kind": "advise", "query": long}).json()["id"]
    deadline = time.monotonic() + 120
    while (state := client.get(f"/api/jobs/{running}").json())["done"] == 0:
        assert state["state"] in ("queued", "running") and time.monotonic() < deadline, state
        time.sleep(0.02)
    assert state["state"] == "running" and 0 < state["done"] < state["total"] == 8_000
    client.delete(f"/api/jobs/{running}")
    assert _wait(client, running)["state"] == "cancelled"


def test_queries_wait_in_one_queue_and_cancel(client):
    slow = {"kind": "advise", "query": HAND | {"deals": 10_000, "play": "pimc"}}
    first = client.post("/api/jobs", json=slow).json()["id"]
    _wait(client, first, states=("running",))
    second = client.post("/api/jobs", json=slow).json()["id"]
    quick = client.post("/api/jobs", json={"kind": "solve", "query": {"deal": DEAL}}).json()
    assert client.get(f"/api/jobs/{second}").json()["state"] == "queued"
    assert client.get("/api/health").json()["waiting"] >= 3
    cancelled = client.delete(f"/api/jobs/{second}").json()
    assert cancelled["state"] == "cancelled" and cancelled["done"] == 0
    client.delete(f"/api/jobs/{first}")
    stopped = _wait(client, first, timeout=30)
    assert stopped["state"] == "cancelled" and 0 < stopped["done"] < stopped["total"]
    solved = _wait(client, quick["id"])  # the queue goes on after a cancel
    assert solved["state"] == "done" and solved["result"]["dealer"] == "N"


@pytest.fixture(scope="module")
def run_dir(runs):
    out = runs / "out"
    run_cli(["simulate", "--deals", "3000", "--seed", "1", "--out", str(out), "--workers", "1",
             "--bidding", "rules", "--no-progress"])
    return str(out)


def test_a_run_folder_opens_with_its_tables_and_plots(client, run_dir):
    overview = client.get("/api/run", params={"dir": run_dir}).json()
    assert overview["run"]["deals"] == 3000 and overview["run"]["bidding"] == "rules"
    assert overview["tables"] == ["calls", "summary", "decisions", "auction"]
    assert overview["plots"] == ["heatmaps", "decisions"]
    assert client.get("/api/run", params={"dir": "out"}).json() == overview  # under the root
    assert client.get("/api/runs").json()["runs"] == ["out"]


def test_run_tables_filter_as_the_table_command_does(client, run_dir):
    params = {"dir": run_dir, "table": "decisions", "round": "1", "seat": "2",
              "action": "pass", "min_n": "3", "sort": "gain", "limit": "20"}
    page = client.get("/api/run/table", params=params).json()
    lines = run_cli(["table", run_dir, "--table", "decisions", "--round", "1", "--seat", "2",
                     "--action", "pass", "--min-n", "3", "--sort", "gain", "--limit", "20",
                     "--json"]).output.splitlines()
    expected = [json.loads(line) for line in lines]
    assert [dict(zip(page["columns"], row, strict=True)) for row in page["rows"]] == expected
    assert page["matched"] >= len(expected) > 0


@pytest.mark.parametrize("kind", ["heatmaps", "decisions"])
def test_run_plots_are_png(client, run_dir, kind):
    response = client.get("/api/run/plot", params={"dir": run_dir, "kind": kind, "round": 2})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/png"
    assert response.content.startswith(b"\x89PNG")


@pytest.mark.parametrize("path, params, culprit", [
    ("/api/run", {"dir": "no/such/run"}, "no run folder '"),
    ("/api/run", {}, "give a run folder"),
    ("/api/run/table", {"table": "nope"}, "unknown table 'nope'"),
    ("/api/run/table", {"round": "one"}, "round must be a whole number"),
    ("/api/run/table", {"alone": "maybe"}, "alone must be true or false"),
    ("/api/run/table", {"sort": "colour"}, "unknown column 'colour'"),
    ("/api/run/plot", {"kind": "odds"}, "no odds.parquet"),
    ("/api/run/plot", {"kind": "pie"}, "unknown plot 'pie'"),
    ("/api/deck", {"set": "deck=36"}, "option 'deck' takes one of 24, 28, 32"),
])
def test_bad_run_queries_are_400s(client, run_dir, path, params, culprit):
    if path != "/api/deck" and "dir" not in params and culprit != "give a run folder":
        params = params | {"dir": run_dir}
    response = client.get(path, params=params)
    assert response.status_code == 400, response.text
    assert culprit in response.json()["error"]


# ---- a decision during the play -------------------------------------------------------------

PLAY_BODIES = [  # the lead as trick 1 opens; a follow with a trick under way; the discard
    HAND | {"trump": "S", "maker": 1, "worlds": 60, "seed": 4},
    {"hand": "KS QH 9C TH 9D", "up": "9S", "seat": 3, "trump": "S", "maker": 4,
     "played": "AD KD", "worlds": 60, "seed": 1, "bidding": "rules"},
    {"discard_from": "JS AS 9H 9D TC 9S", "up": "9S", "seat": 4, "trump": "S", "maker": 1,
     "alone": False, "worlds": 60},
]


@pytest.mark.parametrize("body", PLAY_BODIES)
def test_advise_answers_a_play_decision_as_the_library_does(client, body):
    expected = answer(ask_any(build_rules(), body))
    response = client.post("/api/advise", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == expected
    job = client.post("/api/jobs", json={"kind": "advise", "query": body}).json()
    assert _wait(client, job["id"])["result"] == expected
    assert expected["kind"] == ("discard" if "discard_from" in body else "card")


@pytest.mark.parametrize("body, culprit", [
    (HAND | {"trump": "S", "maker": 1, "worlds": 2_001},
     "worlds must be 1 to 2,000 for a decision during the play"),
    (HAND | {"trump": "S", "maker": 1, "alone": "yes"}, "field 'alone' must be true or false"),
    (HAND | {"trump": "S", "maker": 1, "seed": 10**20}, "'seed' must be 0 to 2^63 - 1"),
    (HAND | {"trump": "S", "maker": 1, "deals": 500}, "'deals' is for the bid"),
    (HAND | {"played": "AD KD"}, "'played' is for a decision during the play"),
    (HAND | {"trump": "S"}, "needs 'maker'"),
    (HAND | {"trump": "S", "maker": 2, "played": "AD"},
     "after the cards played it is position 2's turn, not yours"),
])
def test_a_bad_play_decision_is_a_400(client, body, culprit):
    response = client.post("/api/advise", json=body)
    assert response.status_code == 400, response.text
    assert culprit in response.json()["error"]


# a deal entered on the page (dealer W, QD up), and N ordering up with W throwing 9H
ENTRY = {"id": "e", "dealer": "W", "upcard": "QD",
         "hands": {"N": "JH JD AH KS 9C", "E": "TH QH AD 9S TC", "S": "KC KD TS QS 9D",
                   "W": "TD AS 9H QC JS"}}
ORDER = ENTRY | {"bids": [{"seat": "N", "round": 1, "action": "order_up", "alone": False}],
                 "discard": "9H"}


# ---- the Review tab -------------------------------------------------------------------------

def _no_nan(value):
    """A review's rows as JSON carries them (an undefined standard error is null)."""
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, dict):
        return {key: _no_nan(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(v) for v in value]
    return value


@pytest.fixture(scope="module")
def history(runs):
    """A hand history under the runs folder, and a stray file next to it."""
    (runs / "hist").mkdir()
    path = runs / "hist" / "games.jsonl"
    run_cli(["play", "--games", "1", "--seed", "3", "--output", str(path)])
    (runs / "hist" / "notes.txt").write_text("not a history")
    (runs / "hist" / "later.egn").write_text("")
    return path


def test_histories_lists_jsonl_and_egn_files_under_the_root(client, history):
    listing = client.get("/api/histories").json()
    assert listing["files"] == ["hist/games.jsonl", "hist/later.egn"]
    assert listing["truncated"] is False


def test_review_of_a_file_is_what_review_file_computes(client, history):
    expected_rules, _, rows, errors = review_file(str(history), build_rules(),
                                               ReviewSettings(Player(worlds=8), seed=5))
    job = client.post("/api/jobs", json={"kind": "review", "query": {
        "file": "hist/games.jsonl", "worlds": 8, "seed": 5}})
    assert job.status_code == 202, job.text
    done = _wait(client, job.json()["id"], timeout=300)
    assert done["state"] == "done", done
    result = done["result"]
    assert result["rows"] == _no_nan(json.loads(json.dumps(rows)))
    assert result["seats"] == _no_nan(seat_totals(rows))
    assert errors == [] and result["errors"] == []
    records = [json.loads(line) for line in history.read_text().splitlines()]
    assert [h["id"] for h in result["hands"]] == [r["id"] for r in records]
    assert [h["hands"] for h in result["hands"]] == [r["hands"] for r in records]
    assert done["done"] == done["total"] == len(records)  # progress counts hands


def test_review_of_an_entered_record_is_what_the_library_computes(client, history):
    record = json.loads(history.read_text().splitlines()[1])
    rules = build_rules()
    rows = review_states([(record["id"], replay_hand(record, rules))],
                         ReviewSettings(Player(worlds=8), seed=1))
    response = client.post("/api/review", json={"records": [record], "worlds": 8, "seed": 1})
    assert response.status_code == 200, response.text
    assert response.json()["rows"] == _no_nan(json.loads(json.dumps(rows)))


@pytest.mark.parametrize("body, culprit", [
    ({"file": "hist/notes.txt"}, "review reads .jsonl or .egn files"),
    ({"file": "hist/none.jsonl"}, "cannot read"),
    ({}, "review needs 'file'"),
    ({"file": "hist/games.jsonl", "records": []}, "not both"),
    ({"file": "hist/games.jsonl", "worlds": 1_001}, "worlds must be 2 to 1,000"),
    ({"records": []}, "'records' must hold 1 to 20 hands"),
    ({"records": [{"dealer": "N"}]}, "hand 1: the deal: 'hands' must be four hands"),
    ({"records": [{"dealer": "N", "hands": [1, 2, 3, 4], "upcard": "9S"}]}, "hand 1: the deal"),
    ({"records": [ENTRY | {"bids": [{"seat": "N", "action": "pass"}]}]},
     "hand e: incomplete (it stops at the bid)"),
    ({"records": [ENTRY | {"bids": [1]}]}, "hand e: 'bids', 'tricks'"),
    ({"records": "x"}, "field 'records' must be a list"),
    ({"file": "hist/games.jsonl", "colour": 1}, "unknown field 'colour' for review"),
    ({"file": "hist/games.jsonl", "seed": -1}, "'seed' must be 0 to 2^63 - 1"),
])
def test_a_bad_review_is_a_400(client, history, body, culprit):
    response = client.post("/api/review", json=body)
    assert response.status_code == 400, response.text
    assert culprit in response.json()["error"]


# ---- a hand entered card by card ----------------------------------------------------------

def _engine(record: dict) -> HandState:
    """The hand after N orders up and W throws 9H, by the engine directly."""
    rules = build_rules()
    deck = rules.card_deck
    state = HandState(rules, parse_seat("W"), deck.parse_hands_json(record["hands"]),
                      deck.parse_card("QD"))
    state.bid(Bid(parse_seat("N"), 1, "order_up"))
    state.discard(deck.parse_card("9H"))
    return state


def _names(mask: int) -> list[str]:
    deck = build_rules().card_deck
    return [deck.card_name(c) for c in deck.sorted_cards(mask)]


def test_an_entered_hand_starts_with_the_first_bidder(client):
    state = HandState(build_rules(), parse_seat("W"),
                      build_rules().card_deck.parse_hands_json(ENTRY["hands"]),
                      build_rules().card_deck.parse_card("QD"))
    response = client.post("/api/entry", json={"record": ENTRY})
    assert response.status_code == 200, response.text
    step = response.json()
    assert step["phase"] == "bid" and step["seat"] == "N" and step["round"] == 1
    assert [(b["action"], b["alone"]) for b in step["choices"]] == \
        [(b.action, b.alone) for b in state.legal_bids()]


def test_an_entered_card_is_checked_and_the_next_seat_gets_its_legal_cards(client):
    led = ORDER | {"tricks": [{"leader": "N", "plays": [{"seat": "N", "card": "AH"}]}]}
    step = client.post("/api/entry", json={"record": led}).json()
    state = _engine(led)
    state.play(parse_seat("N"), state.rules.card_deck.parse_card("AH"))
    assert step["phase"] == "play" and step["seat"] == "E" and step["trick"] == 1
    assert step["choices"] == _names(state.legal_cards(parse_seat("E"))) == ["QH", "TH"]
    assert step["held"] == _names(state.hands[parse_seat("E")])
    renege = led["tricks"][0]["plays"] + [{"seat": "E", "card": "TC"}]
    response = client.post("/api/entry", json={"record": led | {
        "tricks": [{"leader": "N", "plays": renege}]}})
    assert response.status_code == 400
    assert response.json()["error"] == "trick 1, seat E: failure to follow suit (renege)"


@pytest.mark.parametrize("change, culprit", [
    ({"upcard": "JH"}, "the deal: four hands of five cards and an upcard none of them holds"),
    ({"bids": [{"seat": "E", "round": 1, "action": "pass"}]}, "bid 1, seat E: bid out of turn"),
    ({"discard": "KH"}, "discard: the discard is not in the dealer's hand"),
    ({"tricks": [{"leader": "N", "plays": [{"seat": "E", "card": "TH"}]}]},
     "trick 1, seat E: play out of turn"),
])
def test_an_entered_step_that_breaks_a_rule_is_named(client, change, culprit):
    response = client.post("/api/entry", json={"record": ORDER | change})
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith(culprit)


@pytest.mark.parametrize("record", [
    [], ENTRY | {"hands": [1, 2, 3, 4]}, ENTRY | {"hands": None}, ENTRY | {"upcard": 7},
    ENTRY | {"bids": "pass"}, ENTRY | {"bids": [1]}, ORDER | {"tricks": ["AH"]},
    ORDER | {"tricks": [{"plays": "AH"}]}, ORDER | {"tricks": [{"plays": [{"card": "AH"}]}]},
    ENTRY | {"bids": [{"seat": "N", "action": "call", "suit": 5}]}, ENTRY | {"dealer": [1]}])
def test_a_malformed_entered_record_is_a_400(client, record):
    response = client.post("/api/entry", json={"record": record})
    assert response.status_code == 400, response.text
    assert "\n" not in response.json()["error"]


def test_a_complete_entered_hand_is_replayed_in_full(client, history):
    record = json.loads(history.read_text().splitlines()[0])
    step = client.post("/api/entry", json={"record": record}).json()
    points = replay_record(record, build_rules()).points()
    assert step["phase"] == "done" and step["points"] == {"NS": points[0], "EW": points[1]}

"""The web API through Starlette's test client: every endpoint, every error, the queue and
cancelling. Expected values come from the command line's --json output or the library."""

import json
import time

import pytest
from starlette.testclient import TestClient

from euchre_sim.core.rules import PRESETS, build_rules, option_fields
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
    return json.loads(run_cli([*args, "--json"]).output)


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
    assert set(catalog["play"]) == {"dd", "rules", "pimc"}


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
    ("/api/advise", HAND | {"score": "8-9"}, "'score' needs 'bidding'"),
    ("/api/advise", HAND | {"bidding": "rules", "score": "8 to 9"}, "'score' must look like"),
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
    seen = []
    while (state := client.get(f"/api/jobs/{job.json()['id']}").json())["state"] != "done":
        assert state["state"] in ("queued", "running"), state
        seen.append(state["done"])
        time.sleep(0.02)
    assert state["done"] == state["total"] == 80  # PIMC and double dummy on the same deals
    assert any(0 < done < 80 for done in seen)
    assert state["result"] == client.post("/api/advise", json=body).json()


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

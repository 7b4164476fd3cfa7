"""`serve` reads nothing through a link that leaves `--runs` (issue 77, item 1): a run folder,
decision table or odds folder inside the root whose files are symlinks to a real run outside,
to /etc/passwd or to nothing is a 403 on every route that reads files, the same line whatever
the link's target; links that stay inside the root are read as usual."""

import os
import shutil

import pytest
from starlette.testclient import TestClient

from euchre_sim.web.app import create_app
from euchre_sim.web.worker import Worker

from .helpers import run_cli

RUN_FILES = ("run.json", "calls.parquet", "summary.parquet", "decisions.parquet",
             "auction.parquet")
HAND = {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}
HISTORY = ('{"id": 1, "dealer": "N", "hands": [["JH", "JD", "AH", "KS", "9C"], '
           '["TH", "QH", "AD", "9S", "TC"], ["KC", "KD", "TS", "QS", "9D"], '
           '["TD", "AS", "9H", "QC", "JS"]], "upcard": "AC", "bids": []}\n')


def _link_all(folder, target_folder, names) -> None:
    os.makedirs(folder)
    for name in names:
        os.symlink(os.path.join(target_folder, name), os.path.join(folder, name))


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """(root, outside): a real `simulate --bidding rules` run and its odds outside the root;
    inside it, folders whose files link out (to the run, to /etc/passwd, to nothing), a copy
    of the run and a folder linking to that copy (links that stay inside)."""
    base = tmp_path_factory.mktemp("links")
    root, outside = str(base / "root"), str(base / "outside")
    run, odds = os.path.join(outside, "run"), os.path.join(outside, "odds")
    run_cli(["simulate", "--deals", "400", "--seed", "3", "--out", run, "--workers", "1",
             "--bidding", "rules", "--no-progress"])
    run_cli(["odds", "--out", odds, "--from", run])
    with open(os.path.join(outside, "hands.jsonl"), "w", encoding="utf-8") as handle:
        handle.write(HISTORY)
    shutil.copytree(run, os.path.join(root, "inside"))
    _link_all(os.path.join(root, "leak"), run, RUN_FILES)  # every file a link out
    _link_all(os.path.join(root, "linked"), os.path.join(root, "inside"), RUN_FILES)
    _link_all(os.path.join(root, "leakodds"), odds, ["odds.parquet"])
    for name, target in (("half", os.path.join(run, "calls.parquet")),
                         ("passwd", "/etc/passwd"),
                         ("dangling", os.path.join(outside, "none.parquet"))):
        shutil.copytree(run, os.path.join(root, name))  # run.json and the rest its own
        os.remove(os.path.join(root, name, "calls.parquet"))
        os.symlink(target, os.path.join(root, name, "calls.parquet"))
        os.makedirs(os.path.join(root, name + "odds"))
        os.symlink(target, os.path.join(root, name + "odds", "odds.parquet"))
    os.makedirs(os.path.join(root, "hist"))
    with open(os.path.join(root, "hist", "own.jsonl"), "w", encoding="utf-8") as handle:
        handle.write(HISTORY)
    os.symlink(os.path.join(outside, "hands.jsonl"), os.path.join(root, "hist", "out.jsonl"))
    return root, outside


@pytest.fixture(scope="module")
def client(tree):
    with TestClient(create_app(Worker(), runs_root=tree[0]),
                    base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


LEAKS = ("leak", "half", "passwd", "dangling")  # a real run's files, /etc/passwd, nothing


def _refused(response, path: str) -> None:
    assert response.status_code == 403, response.text
    assert response.json() == {"error": f"{path!r} is outside the runs folder (serve --runs)"}


@pytest.mark.parametrize("route, params", [
    ("/api/run", {}), ("/api/run/table", {"table": "calls"}),
    ("/api/run/table", {"table": "summary"}), ("/api/run/plot", {"kind": "heatmaps"}),
    ("/api/run/plot", {"kind": "decisions"})])
def test_run_routes_refuse_folders_whose_files_link_out(client, route, params):
    for folder in LEAKS:
        _refused(client.get(route, params=params | {"dir": folder}), folder)


def test_the_same_routes_read_a_folder_whose_links_stay_inside(client):
    overview = client.get("/api/run", params={"dir": "linked"})
    assert overview.status_code == 200, overview.text
    assert overview.json()["run"]["deals"] == 400
    params = {"table": "calls", "limit": 1000, "sort": "n"}
    through_links = client.get("/api/run/table", params=params | {"dir": "linked"})
    assert through_links.status_code == 200, through_links.text
    assert through_links.json() == client.get("/api/run/table",
                                              params=params | {"dir": "inside"}).json()


def test_the_runs_listed_leave_out_folders_whose_files_link_out(client):
    assert client.get("/api/runs").json()["runs"] == ["inside", "linked"]


@pytest.mark.parametrize("route", ["/api/advise", "/api/estimate", "/api/jobs"])
def test_advise_refuses_decision_tables_and_odds_that_link_out(client, route):
    asked = [(HAND | {"bidding": "table", "bidder_table": folder}, folder)
             for folder in ("leak", "half", "passwd", "dangling")]
    asked += [(HAND | {"bidding": "rules", "score": "8-9", "odds": folder + "odds"},
               folder + "odds") for folder in ("leak", "half", "passwd", "dangling")]
    for body, folder in asked:
        response = client.post(route, json={"kind": "advise", "query": body}
                               if route == "/api/jobs" else body)
        _refused(response, folder)
    assert client.get("/api/health").json()["waiting"] == 0  # nothing was queued


def test_advise_reads_a_decision_table_whose_links_stay_inside(client):
    body = HAND | {"bidding": "table", "bidder_table": "linked", "deals": 100}
    response = client.post("/api/estimate", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["units"] > 0


@pytest.mark.parametrize("route", ["/api/review", "/api/jobs"])
def test_review_refuses_histories_and_tables_that_link_out(client, route):
    asked = [({"file": "hist/out.jsonl", "worlds": 10}, "hist/out.jsonl")]
    asked += [({"file": "hist/own.jsonl", "worlds": 10, "bidding": "table",
                "bidder_table": folder}, folder) for folder in LEAKS]
    for body, culprit in asked:
        response = client.post(route, json={"kind": "review", "query": body}
                               if route == "/api/jobs" else body)
        _refused(response, culprit)
    assert client.get("/api/health").json()["waiting"] == 0

"""`serve`'s limits on a real loopback port (and the worker on its own): files that are not
regular or too big, JSON nested too deep, unreadable Parquet, a bound on waiting jobs, a
synchronous query cancelled when its client leaves, many waiting queries leaving the page
served, cancel reaching the odds' DP, and wait estimates that one slow run does not skew.
Nothing here runs a kernel: the slow queries are stand-ins that wait to be cancelled."""

import http.client
import json
import os
import socket
import time

import numpy as np
import pytest

from euchre_sim.bidding.params import MAX_PARAMS_BYTES
from euchre_sim.core.files import MAX_JSON_DEPTH, json_depth
from euchre_sim.game.odds import HandResults, win_odds
from euchre_sim.web.app import create_app
from euchre_sim.web.worker import RATE_STEP, Worker

from .web_helpers import RUN_JSON, serving

HAND = {"hand": "JS AS 9H 9D TC", "up": "9S", "seat": 1}
DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
RESULTS = HandResults(np.array([0, 400, 120, 0, 20]), np.array([0, 200, 180, 0, 10]), 70)


def _until_cancelled(progress) -> dict:
    """A query that runs until it is cancelled (its progress call raises then)."""
    while True:
        progress(0, 1)
        time.sleep(0.01)


class SlowWorker(Worker):
    """A worker whose every query runs until it is cancelled."""

    def submit(self, kind, query, total=1, rate_key=None):
        return super().submit(kind, _until_cancelled, total, rate_key)


def _ask(port: int, method: str, path: str, body=None, timeout: float = 10,
         headers: dict | None = None) -> tuple[int, dict | bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        connection.request(method, path, body=data,
                           headers={"Content-Type": "application/json"} | (headers or {}))
        response = connection.getresponse()
        raw = response.read()
        kind = response.getheader("content-type", "")
        return response.status, json.loads(raw) if kind.startswith("application/json") else raw
    finally:
        connection.close()


def _one_line_error(answer: tuple, status: int) -> str:
    assert answer[0] == status, answer
    error = answer[1]["error"]
    assert error and "\n" not in error
    return error


def _send_and_hold(port: int, path: str, body: dict) -> socket.socket:
    """A POST sent in full on a socket left open (its answer not read)."""
    data = json.dumps(body).encode()
    raw = socket.create_connection(("127.0.0.1", port), timeout=30)
    raw.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
                f"application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
    return raw


def _gets_held(port: int, path: str, count: int) -> list[socket.socket]:
    """`count` GETs sent on sockets left open (their answers not read)."""
    held = []
    for _ in range(count):
        raw = socket.create_connection(("127.0.0.1", port), timeout=30)
        raw.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        held.append(raw)
    return held


def _until(condition, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A runs folder: a FIFO named as a history and as bidder weights, weights over the cap
    and nested too deep, a run whose tables are not Parquet or lack their columns."""
    base = tmp_path_factory.mktemp("limits")
    for name in ("fifo.jsonl", "fifo.json"):
        os.mkfifo(base / name)
    (base / "big.json").write_text(" " * MAX_PARAMS_BYTES + "{}")
    (base / "deep.json").write_text("[" * 5_000 + "]" * 5_000)
    for run, calls in (("corrupt", b"PAR1 this is not parquet PAR1"), ("wrong", None)):
        (base / run).mkdir()
        (base / run / "run.json").write_text(json.dumps(RUN_JSON))
        if calls is None:
            import pandas as pd

            pd.DataFrame({"x": [1]}).to_parquet(base / run / "calls.parquet")
        else:
            (base / run / "calls.parquet").write_bytes(calls)
    return base


@pytest.fixture(scope="module")
def slow(root):
    """A server whose queries run until cancelled, with room for many of them."""
    worker = SlowWorker(max_waiting=100)
    with serving(create_app(worker, runs_root=str(root))) as port:
        yield port, worker


def _unblock(fifo) -> None:
    """Open a FIFO for writing (without blocking): a reader stuck on opening it goes on."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass  # no reader waits on it


# ---- files -------------------------------------------------------------------------------

@pytest.mark.parametrize("path, body", [
    ("/api/review", {"file": "fifo.jsonl"}),
    ("/api/review", {"file": "none.jsonl", "bidding": "rules", "bidder_params": "fifo.json"}),
    ("/api/advise", HAND | {"bidding": "rules", "bidder_params": "fifo.json"}),
])
def test_a_fifo_is_refused_and_blocks_nothing(slow, root, path, body):
    port, _ = slow
    try:
        error = _one_line_error(_ask(port, "POST", path, body), 400)
        assert "not a regular file" in error
        assert _ask(port, "GET", "/api/health")[0] == 200
    finally:
        for name in ("fifo.jsonl", "fifo.json"):
            _unblock(root / name)


@pytest.mark.parametrize("name, culprit", [
    ("big.json", f"over {MAX_PARAMS_BYTES:,} bytes"),
    ("deep.json", f"arrays and objects nested over {MAX_JSON_DEPTH} deep")])
def test_bidder_weights_too_big_or_too_deep_are_a_400(slow, name, culprit):
    body = HAND | {"bidding": "rules", "bidder_params": name}
    assert culprit in _one_line_error(_ask(slow[0], "POST", "/api/advise", body), 400)


@pytest.mark.parametrize("path", ["/api/advise", "/api/solve", "/api/estimate", "/api/jobs",
                                  "/api/review", "/api/entry"])
def test_a_body_nested_too_deep_is_a_400(slow, path):
    body = b"[" * (64 * 1024)
    error = _one_line_error(_ask(slow[0], "POST", path, body), 400)
    assert error == f"the body is not JSON (arrays and objects nested over {MAX_JSON_DEPTH} deep)"


def test_json_depth_counts_brackets_outside_strings():
    assert json_depth('{"a": [1, {"b": []}]}') == 4
    assert json_depth('["[[[[", "\\"[[", {}]') == 2
    assert json_depth("3") == 0


@pytest.mark.parametrize("run, culprit", [("corrupt", "cannot read the calls table"),
                                          ("wrong", "no column 'round'")])
def test_a_table_that_is_not_parquet_or_lacks_its_columns_is_a_400(slow, run, culprit):
    answer = _ask(slow[0], "GET", f"/api/run/table?dir={run}&table=calls")
    assert culprit in _one_line_error(answer, 400)


# ---- jobs --------------------------------------------------------------------------------

def test_jobs_beyond_the_bound_are_a_429(root):
    worker = SlowWorker(max_waiting=3)
    with serving(create_app(worker, runs_root=str(root))) as port:
        for _ in range(3):
            assert _ask(port, "POST", "/api/jobs",
                        {"kind": "solve", "query": {"deal": DEAL}})[0] == 202
        for path, body in (("/api/jobs", {"kind": "solve", "query": {"deal": DEAL}}),
                           ("/api/solve", {"deal": DEAL})):
            error = _one_line_error(_ask(port, "POST", path, body), 429)
            assert "3 queries queued or running" in error
        assert _ask(port, "GET", "/api/health")[1]["waiting"] == 3
        assert _ask(port, "DELETE", "/api/jobs/1")[1]["state"] in ("running", "cancelled")
        _until(lambda: worker.waiting() == 2)
        assert _ask(port, "POST", "/api/jobs",
                    {"kind": "solve", "query": {"deal": DEAL}})[0] == 202


def test_a_synchronous_query_is_cancelled_when_its_client_leaves(slow):
    port, worker = slow
    raw = _send_and_hold(port, "/api/solve", {"deal": DEAL})
    _until(lambda: any(worker.get(str(i)) for i in range(1, 1_000)))
    job = next(worker.get(str(i)) for i in range(1_000, 0, -1) if worker.get(str(i)))
    _until(lambda: job.state == "running")
    raw.close()
    _until(lambda: job.state == "cancelled")


def test_waiting_queries_leave_the_page_and_listings_served(slow):
    """More synchronous queries wait than the server's thread pool has threads (40)."""
    port, worker = slow
    held = [_send_and_hold(port, "/api/solve", {"deal": DEAL}) for _ in range(45)]
    try:
        _until(lambda: worker.waiting() >= 45)
        for path in ("/", "/api/runs", "/api/histories", "/api/health"):
            assert _ask(port, "GET", path, timeout=10)[0] == 200
    finally:
        for raw in held:
            raw.close()
    _until(lambda: worker.waiting() == 0)


# ---- the worker --------------------------------------------------------------------------

def test_the_odds_dp_reports_each_row_and_stops_when_told():
    calls = []
    win_odds(RESULTS, 6, lambda done, total: calls.append((done, total)))
    cells = 2 * (len(RESULTS.dealer) - 1) + 1  # dealer k >= 1, other k >= 1, passed
    solves = 1 + cells  # p, then once more for each cell (the Jacobian)
    assert calls == [(i, solves * 6) for i in range(1, solves * 6 + 1)]

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop

    with pytest.raises(Stop):
        win_odds(RESULTS, 1_000, stop)


def test_a_cancel_reaches_the_odds_dp_in_the_worker():
    worker = Worker()
    worker.start()
    try:
        job = worker.submit("advise", lambda progress: win_odds(RESULTS, 1_000, progress)[0])
        _until(lambda: job.done > 0)
        worker.cancel(job.id)
        assert job.finished.wait(10) and job.state == "cancelled"
    finally:
        worker.stop()


def test_one_slow_run_does_not_skew_the_wait_estimate():
    worker = Worker(lambda measured: measured("dd", 1_000.0))
    worker.start()
    try:
        job = worker.submit("advise", lambda progress: time.sleep(0.05) or {}, 1, "dd")
        assert job.finished.wait(10) and job.state == "done"
        assert worker.rates["dd"] >= 1_000.0 / RATE_STEP  # the run itself: 20 a second
    finally:
        worker.stop()


TURNS = {  # a heavy GET: (its function in web.app, the path, how many at a time, bound)
    "plots": ("plot_png", "/api/run/plot?dir=turns&kind=heatmaps", 1, "MAX_PLOTS"),
    "table pages": ("table_page", "/api/run/table?dir=turns&table=calls", "READ_THREADS",
                    "MAX_TABLES"),
}


@pytest.mark.parametrize("what", sorted(TURNS))
def test_heavy_gets_beyond_their_bound_are_a_429_and_none_is_made_for_a_client_that_left(
        root, monkeypatch, what):
    """Issue 58 item 9: 20 plots whose clients left after a second kept a core busy 50 s, and
    twelve table reads held 2.4 GB. Each is made in turn (`web.app.Turns`), a bounded number
    asked at once; a waiting one whose client left is never made (the stand-in works until
    released)."""
    import threading

    from euchre_sim.web import app as app_module

    name, path, at_once, bound = TURNS[what]
    at_once = getattr(app_module, at_once) if isinstance(at_once, str) else at_once
    release, made = threading.Event(), []

    def slow(*args):
        made.append(args)
        release.wait(30)
        return b"\x89PNG" if name == "plot_png" else {"rows": []}

    monkeypatch.setattr(app_module, name, slow)
    (root / "turns").mkdir(exist_ok=True)
    (root / "turns" / "run.json").write_text(json.dumps(RUN_JSON))
    with serving(create_app(SlowWorker(), runs_root=str(root))) as port:
        held = _gets_held(port, path, getattr(app_module, bound))
        _until(lambda: len(made) == at_once)
        time.sleep(0.3)  # the others wait their turn
        assert what in _one_line_error(_ask(port, "GET", path), 429)
        for raw in held[at_once:]:  # their clients leave while the first are made
            raw.close()
        time.sleep(0.3)
        release.set()
        _until(lambda: _ask(port, "GET", path)[0] == 200)
        for raw in held[:at_once]:
            raw.close()
    assert len(made) == at_once + 1  # the first, and the one asked after; none for the rest

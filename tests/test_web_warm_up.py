"""Issue 75 item 1, practice open in seconds: the warm-up in steps, practice first; a practice
deal and its feedback served while the warm-up still runs, the other queries held until it
ends; `/api/health` saying what it prepares, how far and the wait left, estimated from the
steps' measured figures at the pace this run goes (a clock the test moves: no timing)."""

import threading

import numpy as np
import pytest
from starlette.testclient import TestClient

from euchre_sim.core import numba_internals
from euchre_sim.core.jit import njit
from euchre_sim.web.app import create_app
from euchre_sim.web.queries import warm_up_steps
from euchre_sim.web.worker import PRACTICE, Step, Worker

ORDER_SPADES = {"action": "order_up", "suit": "S", "alone": False}
WAIT = 180  # seconds a blocked warm-up waits for its release: the bound of a test that fails


class Clock:
    """Seconds that a test moves on."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _serving(worker: Worker) -> TestClient:
    return TestClient(create_app(worker), base_url="http://127.0.0.1")


def _until_ready(client: TestClient) -> dict:
    while not (health := client.get("/api/health").json())["ready"]:
        threading.Event().wait(0.05)
    return health


def test_a_practice_deal_and_its_feedback_are_served_before_the_warm_up_ends():
    """Practice queries run while the warm-up is held; a solve waits for its end."""
    release = threading.Event()
    worker = Worker(lambda measured: release.wait(WAIT))
    try:
        with _serving(worker) as client:
            dealt = client.post("/api/practice", json={"seat": 4, "seed": 0, "deal": 1,
                                                       "game": True})
            assert dealt.status_code == 200, dealt.text
            state = dealt.json()
            assert state["decision"] == "bid" and not worker.ready.is_set()
            acted = client.post(f"/api/practice/{state['id']}/act",
                                json={"action": ORDER_SPADES, "seq": state["seq"]})
            assert acted.status_code == 200, acted.text
            assert acted.json()["feedback"]["kind"] == "bid"
            health = client.get("/api/health").json()
            assert health["ready"] is False
            assert health["warm_up"]["preparing"] == "loading the kernels"
            job = client.post("/api/jobs", json={"kind": "solve", "query": {
                "deal": "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"}})
            assert job.status_code == 202
            job_id = job.json()["id"]
            again = client.post(f"/api/practice/{state['id']}/act", json={
                "action": acted.json()["legal"][0], "seq": acted.json()["seq"]})
            assert again.status_code == 200, again.text  # queued after the solve, run first
            assert again.json()["feedback"]["kind"] == "discard"
            assert client.get(f"/api/jobs/{job_id}").json()["state"] == "queued"
            release.set()
            _until_ready(client)
            assert worker.get(job_id).finished.wait(WAIT)
            assert client.get(f"/api/jobs/{job_id}").json()["state"] == "done"
    finally:
        release.set()


def test_the_warm_up_waits_between_steps_for_a_practice_query():
    """A practice query running when a step ends has the cores until it ends: the next step
    starts after it."""
    first_in, release_first = threading.Event(), threading.Event()
    query_in, release_query, query_done = threading.Event(), threading.Event(), []
    seen_by_second = []

    def first(measured):
        first_in.set()
        release_first.wait(WAIT)

    def query(progress):
        query_in.set()
        release_query.wait(WAIT)
        query_done.append(True)
        return {}

    worker = Worker([Step("dealing a practice hand", first, PRACTICE),
                     Step("solving a deal", lambda m: seen_by_second.append(bool(query_done)),
                          "solve")])
    try:
        worker.start()
        assert first_in.wait(WAIT)
        job = worker.submit("practice", query, before_ready=True)
        assert query_in.wait(WAIT)
        release_first.set()
        while worker.warm_up_state()["steps"][0]["state"] != "done":
            threading.Event().wait(0.01)
        release_query.set()
        assert job.finished.wait(WAIT) and worker.ready.wait(WAIT)
        assert seen_by_second == [True]
    finally:
        release_first.set()
        release_query.set()
        worker.stop()


def test_health_says_what_the_warm_up_prepares_and_the_wait_left():
    """The steps done, running and waiting; the wait left from their measured figures at
    this run's pace (the first step took half its figure), practice's apart."""
    clock, entered, release = Clock(), threading.Event(), threading.Event()

    def first(measured):
        clock.now += 5.0

    def second(measured):
        clock.now += 1.0
        entered.set()
        release.wait(WAIT)

    steps = [Step("dealing a practice hand", first, PRACTICE, cold_seconds=10.0,
                  cold_kernels=4),
             Step("valuing your bids", second, PRACTICE, cold_seconds=20.0, cold_kernels=8),
             Step("solving a deal", lambda measured: None, "solve", cold_seconds=30.0,
                  cold_kernels=2)]
    worker = Worker(steps, clock=clock)
    try:
        with _serving(worker) as client:
            assert entered.wait(WAIT)
            health = client.get("/api/health").json()
            assert health["ready"] is False
            warm = health["warm_up"]
            assert (warm["preparing"], warm["needed_by"]) == ("valuing your bids", PRACTICE)
            assert [s["state"] for s in warm["steps"]] == ["done", "running", "waiting"]
            assert [s["seconds"] for s in warm["steps"]] == [5.0, 1.0, None]
            assert warm["seconds"] == 6.0 and warm["practice_ready"] is False
            # at half the figures' pace: 20 / 2 - 1 s left of practice, 30 / 2 s after it
            assert warm["practice_seconds_left"] == 9.0 and warm["seconds_left"] == 24.0
            assert warm["kernels_cold"] == 14 and warm["kernels"] == 0
            release.set()
            warm = _until_ready(client)["warm_up"]
            assert warm["preparing"] is None and warm["needed_by"] is None
            assert warm["practice_ready"] is True and warm["seconds"] == 6.0
            assert warm["seconds_left"] == 0.0 and warm["practice_seconds_left"] == 0.0
            assert [s["state"] for s in warm["steps"]] == ["done"] * 3
    finally:
        release.set()


def test_the_wait_is_unknown_until_something_is_measured():
    """Nothing compiled and no step done: no estimate (a warm cache would make the figures
    wrong), and a warm-up of one plain call has no figures at all."""
    entered, release = threading.Event(), threading.Event()

    def held(measured):
        entered.set()
        release.wait(WAIT)

    worker = Worker([Step("dealing a practice hand", held, PRACTICE, 10.0, 4)], clock=Clock())
    try:
        worker.start()
        assert entered.wait(WAIT)
        state = worker.warm_up_state()
        assert state["seconds_left"] is None and state["practice_seconds_left"] is None
    finally:
        release.set()
        worker.stop()
    plain = Worker(lambda measured: None)
    plain.start()
    assert plain.ready.wait(WAIT)
    state = plain.warm_up_state()
    assert state["practice_ready"] is True and state["kernels_cold"] is None
    assert [s["what"] for s in state["steps"]] == ["loading the kernels"]
    plain.stop()


@pytest.mark.skipif(not numba_internals.OPEN, reason="with Numba's internals shut, compiles "
                    "are not told")
def test_functions_compiled_are_counted_to_their_step_and_set_the_pace():
    """A step that compiles one function of its four measured: the wait left at the pace its
    compiles go."""
    clock, entered, release = Clock(), threading.Event(), threading.Event()

    @njit(cache=False)
    def plus_one(x):
        return x + 1

    def compiling(measured):
        clock.now += 2.0
        assert plus_one(np.int64(1)) == 2
        entered.set()
        release.wait(WAIT)

    worker = Worker([Step("valuing your cards", compiling, PRACTICE, 10.0, 4)], clock=clock)
    try:
        worker.start()
        assert entered.wait(WAIT)
        state = worker.warm_up_state()
        compiled = state["steps"][0]["kernels"]
        assert compiled >= 1 and state["kernels"] == compiled
        share = min(compiled / 4, 1.0)  # of the step done: 2 s for 10 * share of its figure
        assert state["seconds_left"] == pytest.approx(max(10.0 * 2.0 / (10.0 * share) - 2.0,
                                                          0.0))
    finally:
        release.set()
        worker.stop()


def test_the_warm_up_prepares_practice_first():
    """Every step practice needs comes before the others, and one of them values a bid."""
    steps = warm_up_steps()
    needed = [step.needed_by for step in steps]
    assert needed[0] == PRACTICE and PRACTICE not in needed[needed.index("solve"):]
    assert "valuing your bids" in [step.what for step in steps]
    assert all(step.cold_seconds is not None and step.cold_kernels is not None
               for step in steps)
    assert sum(step.cold_seconds for step in steps if step.needed_by == PRACTICE) > 0

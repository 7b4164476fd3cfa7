"""`runs.parallel.worker_pool` left by an exception (a Ctrl-C, a failed job) stops its workers
at once and leaves none of the executor's threads behind (issue 77 item 8: one left running
closed its wake-up pipe while the interpreter's exit wrote to it, "Exception ignored ... Bad
file descriptor")."""

import threading
import time

import pytest

from euchre_sim.runs.parallel import worker_pool


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _executor_threads() -> list[threading.Thread]:
    """The live threads that manage a process pool (CPython's executor manager threads)."""
    return [t for t in threading.enumerate()
            if type(t).__name__ == "_ExecutorManagerThread" and t.is_alive()]


@pytest.mark.parametrize("attempt", range(4))  # the thread's end raced the return
def test_a_pool_left_by_ctrl_c_ends_its_workers_and_its_thread_before_it_returns(attempt):
    before = _executor_threads()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with worker_pool(2) as pool:
            assert pool.submit(_sleep, 0).result(timeout=60) == 0  # the workers are up
            running = [pool.submit(_sleep, 60) for _ in range(4)]
            time.sleep(0.5)  # two of them started
            raise KeyboardInterrupt
    assert time.monotonic() - started < 30  # not the 60 s the jobs would take
    assert _executor_threads() == before
    assert all(future.done() for future in running)

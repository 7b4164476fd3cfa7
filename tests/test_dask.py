"""simulate on a real Dask cluster on 127.0.0.1: a scheduler and two worker processes."""

import socket
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli
from euchre_sim.core.rules import build_rules
from euchre_sim.sim.simulate import RunPlan, finish_run, prepare_run, run_dask

distributed = pytest.importorskip("distributed")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def cluster():
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                  "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], **quiet)
    workers = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                 "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                 "--name", f"w{i}"], **quiet) for i in range(2)]
    with distributed.Client(address, timeout="60s") as client:
        client.wait_for_workers(2, timeout=120)
    yield address, workers
    for proc in workers + [scheduler]:
        proc.kill()
        proc.wait()


def _tables(out):
    return {name: pd.read_parquet(out / f"{name}.parquet") for name in ("calls", "summary")}


def _local(tmp_path, deals, chunk):
    out = tmp_path / "local"
    result = CliRunner().invoke(cli, ["simulate", "--deals", str(deals), "--seed", "11", "--out",
                                      str(out), "--workers", "1", "--chunk-size", str(chunk),
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    return _tables(out)


def test_cluster_gives_the_local_engines_tables(cluster, tmp_path):
    address, _ = cluster
    out = tmp_path / "dask"
    result = CliRunner().invoke(cli, ["simulate", "--deals", "600", "--seed", "11", "--out",
                                      str(out), "--chunk-size", "100", "--scheduler", address,
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    local = _local(tmp_path, 600, 100)
    for name, frame in _tables(out).items():
        pd.testing.assert_frame_equal(frame, local[name])


def test_worker_killed_mid_run_still_identical(cluster, tmp_path):
    address, workers = cluster
    deals, chunk = 4000, 100
    plan = prepare_run(RunPlan(str(tmp_path / "killed"), build_rules("standard"), 11, deals,
                               chunk))
    done = []
    errors = []

    def target():
        try:
            run_dask(plan, address, 2, done.append)
        except BaseException as err:  # surfaced below
            errors.append(err)

    thread = threading.Thread(target=target)
    thread.start()
    deadline = time.time() + 120
    while len(done) < 2 and time.time() < deadline and thread.is_alive():
        time.sleep(0.01)
    workers[0].kill()
    workers[0].wait()
    thread.join(timeout=300)
    assert not errors and not thread.is_alive()
    assert len(done) < plan.n_chunks + 1 and plan.pending_count() == 0
    finish_run(plan, 1.0, 2, engine="dask")
    local = _local(tmp_path, deals, chunk)
    for name, frame in _tables(tmp_path / "killed").items():
        pd.testing.assert_frame_equal(frame, local[name])


def test_unreachable_scheduler_is_one_line_exit_2(tmp_path):
    port = _free_port()
    result = CliRunner().invoke(cli, ["simulate", "--deals", "10", "--out", str(tmp_path / "x"),
                                      "--scheduler", f"tcp://127.0.0.1:{port}", "--no-progress"])
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler" in result.output


def test_cluster_plays_out_with_a_play_model_like_the_local_engine(cluster, tmp_path):
    """--play pimc on the cluster: the same tables as locally (and not a dd run's results,
    whose chunks had the same seed and chunk size on the same scheduler)."""
    address, _ = cluster
    args = ["--deals", "6", "--seed", "11", "--chunk-size", "3", "--no-progress", "--play",
            "pimc", "--worlds", "4"]
    runner = CliRunner()
    result = runner.invoke(cli, ["simulate", "--out", str(tmp_path / "dask"), "--scheduler",
                                 address, *args])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["simulate", "--out", str(tmp_path / "local"), "--workers", "1",
                                 *args])
    assert result.exit_code == 0, result.output
    for name, frame in _tables(tmp_path / "dask").items():
        pd.testing.assert_frame_equal(frame, _tables(tmp_path / "local")[name])


def test_threads_of_one_worker_sharing_the_table_give_the_local_engines_tables(tmp_path):
    """A LocalCluster of one worker process with two threads runs two chunks at once: the
    GIL-free kernels share the process's transposition table without a lock, and the tables
    must still be the local engine's."""
    deals, chunk = 3000, 100
    plan = prepare_run(RunPlan(str(tmp_path / "threads"), build_rules("standard"), 11, deals,
                               chunk))
    run_dask(plan, "local", 1, lambda count: None, threads=2)
    finish_run(plan, 1.0, 1, engine="dask local")
    local = _local(tmp_path, deals, chunk)
    for name, frame in _tables(tmp_path / "threads").items():
        pd.testing.assert_frame_equal(frame, local[name])


def test_bidding_on_the_cluster_gives_the_local_engines_tables(cluster, tmp_path):
    """simulate --bidding table: the decision table travels with every chunk to the workers."""
    address, _ = cluster
    first = tmp_path / "rules"
    CliRunner().invoke(cli, ["simulate", "--deals", "600", "--seed", "4", "--out", str(first),
                             "--workers", "1", "--no-progress", "--bidding", "rules"])
    runs = {}
    for name, extra in (("local", ["--workers", "1"]), ("dask", ["--scheduler", address])):
        out = tmp_path / name
        result = CliRunner().invoke(cli, ["simulate", "--deals", "900", "--seed", "5", "--out",
                                          str(out), "--chunk-size", "300", "--no-progress",
                                          "--bidding", "table", "--bidder-table", str(first),
                                          *extra])
        assert result.exit_code == 0, result.output
        runs[name] = {t: pd.read_parquet(out / f"{t}.parquet")
                      for t in ("calls", "decisions", "auction")}
    for table in runs["local"]:
        pd.testing.assert_frame_equal(runs["local"][table], runs["dask"][table])


def test_tournament_on_the_cluster_gives_the_local_games(cluster, tmp_path):
    address, _ = cluster
    tables = {}
    for name, extra in (("local", ["--workers", "1"]), ("dask", ["--scheduler", address])):
        out = tmp_path / name
        result = CliRunner().invoke(cli, ["tournament", "--ns", "dd", "--ew", "rules", "--games",
                                          "40", "--seed", "2", "--chunk-size", "10", "--out",
                                          str(out), "--no-progress", *extra])
        assert result.exit_code == 0, result.output
        tables[name] = [pd.read_parquet(out / f"{t}.parquet") for t in ("games", "hands")]
    for local, dask in zip(tables["local"], tables["dask"], strict=True):
        pd.testing.assert_frame_equal(local, dask)

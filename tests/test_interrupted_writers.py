"""Writers stopped by Ctrl-C (SIGINT) or SIGTERM keep what they finished (issue 77, item 3):
`play --output`, `export --output` and `tournament --egn`, each a real process signalled
mid-run. The file kept holds whole records only (whole games; whole rows), its name says it
is partial, one line says where it is, the exit status is 130 (143 after SIGTERM), and no
temporary file is left. `simulate` under SIGTERM keeps its chunks as under Ctrl-C."""

import collections
import json
import re
import signal

import pandas as pd
import pyarrow.parquet as pq
import pytest

from euchre_sim.api.tables import EXPORT_ROWS
from euchre_sim.core.output import partial_path

from .helpers import run_cli
from .interrupts import signalled

SIGNALS = [(signal.SIGINT, 130), (signal.SIGTERM, 143)]
TARGET = 10  # the standard preset's game


def _only_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _temporaries(folder) -> list:
    return [p.name for p in folder.rglob("*") if p.name.endswith(".tmp") or
            p.name.startswith(".tmp")]


def _started(folder, pattern: str):
    """Whether a file matching `pattern` in `folder` holds something."""
    return lambda: any(p.stat().st_size > 0 for p in folder.glob(pattern))


def _past(folder, pattern: str, size: int):
    """Whether a file matching `pattern` in `folder` holds more than `size` bytes."""
    return lambda: any(p.stat().st_size > size for p in folder.glob(pattern))


def _whole_games(records: list[dict]) -> int:
    """The number of games in `records`, checked whole: games numbered from 1 in order,
    each's hands numbered from 1 in order, and its points (summed here) reaching the target
    for one side at its last hand and for neither before."""
    by_game = collections.defaultdict(list)
    for record in records:
        by_game[record["game"]].append(record)
    assert sorted(by_game) == list(range(1, len(by_game) + 1))
    for hands in by_game.values():
        assert [h["hand"] for h in hands] == list(range(1, len(hands) + 1))
        ns = ew = 0
        for hand in hands:
            assert max(ns, ew) < TARGET  # the game was not over before this hand
            ns, ew = ns + hand["points"]["NS"], ew + hand["points"]["EW"]
        assert max(ns, ew) >= TARGET  # and is over after its last
    return len(by_game)


@pytest.mark.parametrize("signum, status", SIGNALS)
def test_an_interrupted_play_keeps_its_whole_games_in_a_partial_file(tmp_path, signum,
                                                                     status):
    out = tmp_path / "hands.jsonl"
    code, err = signalled(["play", "--games", "100000", "--seed", "5", "--output", str(out)],
                          _started(tmp_path, "hands.jsonl.*.tmp"), signum)
    kept = tmp_path / "hands.partial.jsonl"
    assert code == status, err
    found = re.fullmatch(r"interrupted: ([\d,]+) of 100,000 games played are kept in (.+) "
                         r"\(not (.+): the run did not finish\)", _only_line(err))
    assert found and found[2] == str(kept) and found[3] == str(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.partial.jsonl"]
    text = kept.read_text(encoding="utf-8")
    assert text.endswith("\n")
    records = [json.loads(line) for line in text.splitlines()]
    assert _whole_games(records) == int(found[1].replace(",", "")) >= 1
    assert [r["id"] for r in records] == list(range(1, len(records) + 1))
    replayed = run_cli(["replay", str(kept), "--json"])  # every hand legal, its points right
    assert all(json.loads(line)["ok"] for line in replayed.output.splitlines())


@pytest.mark.parametrize("signum, status", SIGNALS)
def test_an_interrupted_play_to_egn_keeps_the_games_written(tmp_path, signum, status):
    out = tmp_path / "games.egn"
    code, err = signalled(["play", "--games", "100000", "--seed", "5", "--output", str(out)],
                          _started(tmp_path, "games-2.egn"), signum)
    assert code == status, err
    found = re.fullmatch(r"interrupted: ([\d,]+) of 100,000 games are written as EGN "
                         r"\((.+) to (.+)\)", _only_line(err))
    kept = int(found[1].replace(",", ""))
    assert found[2] == str(tmp_path / "games-1.egn")
    assert found[3] == str(tmp_path / f"games-{kept}.egn")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"games-{n}.egn" for n in range(1, kept + 1))
    for number in (1, kept):  # each file a whole game that replays
        replayed = run_cli(["replay", str(tmp_path / f"games-{number}.egn"), "--json"])
        results = [json.loads(line) for line in replayed.output.splitlines()]
        assert results and all(r["ok"] for r in results)
        points = [sum(r["points"][side] for r in results) for side in ("NS", "EW")]
        assert max(points) >= TARGET


@pytest.fixture(scope="module")
def big_run(tmp_path_factory):
    """A run whose calls table takes seconds to export (over half a million rows)."""
    out = tmp_path_factory.mktemp("big") / "run"
    run_cli(["simulate", "--deals", "20000", "--seed", "2", "--out", str(out), "--workers",
             "2", "--no-progress"])
    return out


def _expected_rows(run, fmt: str, written: str, rows: int | None = None) -> str:
    """The calls table read here (pyarrow), its columns in the order `written` shows them,
    as pandas writes it in one go: its first `rows`."""
    first = written.split("\n", 1)[0]
    columns = first.split(",") if fmt == "csv" else list(json.loads(first))
    frame = pq.read_table(run / "calls.parquet").to_pandas()[columns]
    frame = frame if rows is None else frame.iloc[:rows]
    return frame.to_csv(index=False) if fmt == "csv" else \
        frame.to_json(orient="records", lines=True)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_an_export_writes_the_table_as_one_write_would(big_run, tmp_path, fmt):
    out = tmp_path / f"calls.{fmt}"
    run_cli(["export", str(big_run), "--format", fmt, "--output", str(out)])
    written = out.read_text(encoding="utf-8")
    assert written == _expected_rows(big_run, fmt, written)
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


@pytest.mark.parametrize("signum, status", SIGNALS)
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_an_interrupted_export_keeps_its_whole_rows_in_a_partial_file(big_run, tmp_path, fmt,
                                                                      signum, status):
    out = tmp_path / f"calls.{fmt}"
    whole = tmp_path / f"whole.{fmt}"
    run_cli(["export", str(big_run), "--format", fmt, "--output", str(whole)])
    lines = whole.read_bytes().splitlines(keepends=True)
    first_part = sum(map(len, lines[:EXPORT_ROWS + (fmt == "csv")]))  # the header with it
    whole.unlink()
    # stopped once the file is past the first part: that part was written and told whole
    code, err = signalled(["export", str(big_run), "--format", fmt, "--output", str(out)],
                          _past(tmp_path, f"calls.{fmt}.*.tmp", first_part), signum)
    total = pq.ParquetFile(big_run / "calls.parquet").metadata.num_rows
    assert code == status, err
    found = re.fullmatch(rf"interrupted: ([\d,]+) of {total:,} rows are kept in (.+) "
                         r"\(not (.+): the export did not finish\)", _only_line(err))
    kept = tmp_path / f"calls.partial.{fmt}"
    assert found and found[2] == str(kept) and found[3] == str(out)
    rows = int(found[1].replace(",", ""))
    assert 0 < rows < total
    assert sorted(p.name for p in tmp_path.iterdir()) == [kept.name]
    written = kept.read_text(encoding="utf-8")
    assert written == _expected_rows(big_run, fmt, written, rows)


def test_the_partial_name_keeps_the_suffix():
    assert partial_path("out/hands.jsonl") == "out/hands.partial.jsonl"
    assert partial_path("calls") == "calls.partial"


@pytest.mark.parametrize("signum, status", SIGNALS)
def test_an_interrupted_tournament_egn_keeps_the_games_written(tmp_path, signum, status):
    egn = tmp_path / "egn"
    code, err = signalled(["tournament", "--ns", "rules", "--ew", "rules", "--play", "rules",
                           "--games", "200", "--seed", "4", "--out", str(tmp_path / "t"),
                           "--workers", "1", "--no-progress", "--egn", str(egn)],
                          _started(egn, "game-*.egn"), signum, seconds=300)
    assert code == status, err
    found = re.fullmatch(r"interrupted: ([\d,]+) of 400 games are written as EGN to (.+); "
                         r"the tournament itself is finished in (.+)", _only_line(err))
    assert found and found[2] == str(egn) and found[3] == str(tmp_path / "t")
    written = sorted(egn.iterdir())
    assert len(written) == int(found[1]) >= 1 and not _temporaries(tmp_path)
    assert all(p.suffix == ".egn" for p in written)
    for path in written:  # each file a whole game that replays
        replayed = run_cli(["replay", str(path), "--json"])
        assert all(json.loads(line)["ok"] for line in replayed.output.splitlines())


def test_simulate_under_sigterm_keeps_its_chunks_and_resumes_to_the_same_tables(tmp_path):
    out, fresh = tmp_path / "stopped", tmp_path / "fresh"
    args = ["simulate", "--deals", "30000", "--seed", "8", "--workers", "2", "--chunk-size",
            "1000", "--no-progress"]
    code, err = signalled([*args, "--out", str(out)],
                          lambda: (out / "chunks").is_dir() and any(
                              not c.name.startswith(".") for c in (out / "chunks").iterdir()),
                          signal.SIGTERM)
    assert code == 143 and "--resume" in _only_line(err), err
    assert not _temporaries(out)
    stored = [c for c in (out / "chunks").iterdir()]
    assert stored and all((c / "commit.json").is_file() for c in stored)
    run_cli([*args, "--out", str(out), "--resume"])
    run_cli([*args, "--out", str(fresh)])
    for name in ("calls", "summary"):
        pd.testing.assert_frame_equal(pd.read_parquet(out / f"{name}.parquet"),
                                      pd.read_parquet(fresh / f"{name}.parquet"))



@pytest.fixture
def python_handles_ctrl_c():
    """Python's own Ctrl-C handler for the test, as a command starts with it (a block of
    `one_interrupt` that caught one leaves it ignored, as its command is on its way out),
    and the handler before it back afterwards."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_landing_in_numbas_own_python_is_raised_a_moment_later_in_ours(
        python_handles_ctrl_c):
    """Numba's dispatcher calls some of its Python from C and goes on when it raises (a
    SystemError then, and a traceback): a Ctrl-C landing there is raised again where it lands
    in other code (`cli.app._in_numba`)."""
    import time

    from euchre_sim.cli.app import one_interrupt

    as_numba = {"__name__": "numba.core.serialize", "signal": signal}
    exec("def callback():\n    signal.raise_signal(signal.SIGINT)\n    return 'went on'",
         as_numba)
    with one_interrupt() as caught:
        assert as_numba["callback"]() == "went on"  # not raised inside Numba's code
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            time.sleep(5)  # raised here, in ours, a moment later: the wait broken off
    assert time.monotonic() - start < 1 and caught == [signal.SIGINT]


def test_a_ctrl_c_while_numba_is_imported_waits_for_the_import_however_long(
        python_handles_ctrl_c, monkeypatch):
    """Issue 77 item 8: a Ctrl-C landing in the import of Numba (its C importing more) ended
    in an ImportError traceback, exit 1. Landing in code that Numba's import runs through
    importlib, it is sent again a moment later, more times than a compile is deferred
    (`MOST_DEFERRALS`), until it lands in ours once the import is over."""
    import threading
    import time

    from euchre_sim.cli.app import MOST_DEFERRALS, one_interrupt

    sent_again = []

    class CountedTimer(threading.Timer):
        def start(self):
            sent_again.append(self)
            super().start()

    monkeypatch.setattr(threading, "Timer", CountedTimer)
    importer = {"__name__": "importlib._bootstrap", "signal": signal, "time": time,
                "sent_again": sent_again, "enough": 2 * MOST_DEFERRALS}
    exec(compile("def load():\n"
                 "    signal.raise_signal(signal.SIGINT)\n"
                 "    while len(sent_again) < enough:\n"
                 "        time.sleep(0.001)\n"
                 "    return 'imported'", "<frozen importlib._bootstrap>", "exec"), importer)
    as_numba = {"__name__": "numba.core.dispatcher", "load": importer["load"]}
    exec("def import_numba():\n    return load()", as_numba)
    with one_interrupt() as caught:
        assert as_numba["import_numba"]() == "imported"
        assert caught == []
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            time.sleep(5)
    assert time.monotonic() - start < 1 and caught == [signal.SIGINT]
    for timer in sent_again:
        timer.join()


def test_a_ctrl_c_in_a_compile_that_an_import_started_is_still_raised_within_seconds(
        python_handles_ctrl_c):
    """A compile that a module's import starts runs Numba's frames inside importlib's: that
    is no import of Numba's own, so its Ctrl-C is deferred at most `MOST_DEFERRALS` times and
    then raised there, as in any compile (not held until the compile ends)."""
    import time

    from euchre_sim.cli.app import one_interrupt

    as_numba = {"__name__": "numba.core.compiler", "signal": signal, "time": time}
    exec("def compile_kernel():\n"
         "    signal.raise_signal(signal.SIGINT)\n"
         "    ends = time.monotonic() + 20\n"
         "    while time.monotonic() < ends:\n"
         "        time.sleep(0.001)", as_numba)
    importer = {"compile_kernel": as_numba["compile_kernel"]}
    exec(compile("def import_module():\n    compile_kernel()", "<frozen importlib._bootstrap>",
                 "exec"), importer)
    with one_interrupt() as caught:
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            importer["import_module"]()
    assert time.monotonic() - start < 10 and caught == [signal.SIGINT]

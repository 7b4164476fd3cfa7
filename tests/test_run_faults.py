"""Runs that survive a damaged chunk and a full disk (simulate and tournament): a chunk whose
files no longer match their checksums is computed again, a failed write is one line and exit
2, and --resume then gives the tables of a clean run."""

import errno
import json
import os
import shutil
import time

import pandas as pd
import pytest

from euchre_sim.core.rules import build_rules
from euchre_sim.game.tournament import (
    TournamentPlan,
    compute_games,
    prepare_tournament,
)
from euchre_sim.play.player import Player
from euchre_sim.runs import runner
from euchre_sim.runs.runner import store_chunk
from euchre_sim.sim import simulate
from euchre_sim.sim.simulate import RunPlan, finish_run, prepare_run
from euchre_sim.sim.tables import compute_chunk

from .helpers import run_cli

RULES = build_rules("standard")
COMMANDS = {  # a few chunks each, seconds to run
    "simulate": (["simulate", "--deals", "3000", "--seed", "11", "--chunk-size", "1000"],
                 ("calls", "summary")),
    "tournament": (["tournament", "--ns", "dd", "--ew", "rules", "--games", "30", "--seed", "5",
                    "--chunk-size", "10"], ("games", "hands")),
}


def args(command: str, out, *extra: str, workers: int = 1) -> list[str]:
    return [*COMMANDS[command][0], "--out", str(out), "--workers", str(workers), "--no-progress",
            *extra]


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """Each command's tables from an untroubled run."""
    tables = {}
    for command, (_, names) in COMMANDS.items():
        out = tmp_path_factory.mktemp(command) / "clean"
        run_cli(args(command, out))
        tables[command] = read_tables(out, names)
    return tables


def read_tables(out, names) -> dict[str, pd.DataFrame]:
    return {name: pd.read_parquet(out / f"{name}.parquet") for name in names}


def assert_clean_tables(clean, command: str, out) -> None:
    names = COMMANDS[command][1]
    for name, frame in read_tables(out, names).items():
        pd.testing.assert_frame_equal(frame, clean[command][name])
    assert leftovers(out) == []


def leftovers(out) -> list[str]:
    """Temporary files or folders anywhere under the run's folder."""
    return [name for _, dirs, files in os.walk(out) for name in dirs + files
            if name.endswith(".tmp") or name.startswith(".tmp-")]


def plan_of(command: str, out, seed: int | None = None):
    """The plan COMMANDS[command] runs into `out` (under another seed if given)."""
    if command == "simulate":
        return RunPlan(str(out), RULES, 11 if seed is None else seed, 3000, 1000)
    return TournamentPlan(str(out), RULES, 5 if seed is None else seed, 30,
                          (Player("dd", "dd"), Player("rules", "dd")), chunk_size=10)


def stored_run(command: str, out, seed: int | None = None) -> None:
    """A run whose chunks are all stored but not merged (as a crash before the merge leaves
    it)."""
    plan = plan_of(command, out, seed)
    plan = prepare_run(plan) if command == "simulate" else prepare_tournament(plan)
    compute = compute_chunk if command == "simulate" else compute_games
    for job in plan.jobs():
        index, _, files = compute(job)
        store_chunk(plan.out_dir, plan.run_key, index, files)


def truncate(path) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(os.path.getsize(path) // 2)


def flip_bit(path) -> None:
    with open(path, "r+b") as handle:
        handle.seek(os.path.getsize(path) // 2)
        byte = handle.read(1)[0]
        handle.seek(-1, os.SEEK_CUR)
        handle.write(bytes([byte ^ 0x10]))


DAMAGED = {"simulate": ("calls.sums", "summary.parquet"),
           "tournament": ("games.parquet", "hands.parquet")}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_resume_recomputes_a_truncated_and_a_bit_flipped_chunk(clean, command, tmp_path):
    out = tmp_path / "run"
    stored_run(command, out)
    cut, flipped = DAMAGED[command]
    truncate(out / "chunks" / "000000" / cut)
    flip_bit(out / "chunks" / "000002" / flipped)
    (out / f"{COMMANDS[command][1][0]}.parquet.tmp").write_bytes(b"PAR1")  # a killed merge's
    result = run_cli(args(command, out, "--resume"))
    assert (f"euchre-sim: chunk 0 is damaged ({cut}: checksum mismatch): computing it again"
            in result.output)
    assert (f"euchre-sim: chunk 2 is damaged ({flipped}: checksum mismatch): computing it "
            "again" in result.output)
    assert "chunk 1 " not in result.output and "Traceback" not in result.output
    assert_clean_tables(clean, command, out)


def test_the_final_merge_recomputes_a_chunk_damaged_after_the_resume_check(clean, tmp_path):
    """finish_run checks every chunk again just before it reads them."""
    out = tmp_path / "run"
    stored_run("simulate", out)
    plan = prepare_run(RunPlan(str(out), RULES, 11, 3000), resume=True)
    truncate(out / "chunks" / "000001" / "calls.sums")
    lines = []
    finish_run(plan, 0.0, 1, warn=lines.append)
    assert lines == ["chunk 1 is damaged (calls.sums: checksum mismatch): computing it again"]
    assert_clean_tables(clean, "simulate", out)


def test_a_chunk_stored_without_a_checksum_is_computed_again(clean, tmp_path):
    """A chunk committed before checksums were recorded cannot be checked: it is recomputed."""
    out = tmp_path / "run"
    stored_run("simulate", out)
    os.remove(out / "chunks" / "000001" / runner.COMMIT)
    result = run_cli(args("simulate", out, "--resume"))
    assert ("euchre-sim: chunk 1 has no checksum (stored by an older version): computing it "
            "again") in result.output
    assert_clean_tables(clean, "simulate", out)


def no_space(path, *_):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("where", ["store", "merge"])
def test_a_full_disk_is_one_line_and_resume_finishes(clean, command, where, tmp_path,
                                                     monkeypatch):
    """ENOSPC storing the second chunk (half its first file written) or writing the first
    table: one line, exit 2, no temporary file; the finished chunks are sound and --resume
    finishes the run."""
    out = tmp_path / "run"
    if where == "store":
        write, calls = runner.write_file, []

        def filling(path, data):  # the manifest and the first chunk's 3 files fit
            calls.append(path)
            if len(calls) <= 4:
                return write(path, data)
            with open(path, "wb") as handle:
                handle.write(data[:len(data) // 2])
            no_space(path)

        monkeypatch.setattr(runner, "write_file", filling)
    else:
        import pyarrow.parquet as pq

        write_table = pq.ParquetWriter.write_table

        def full_table(writer, table, **options):  # a chunk's own frames are written in memory
            if isinstance(writer.where, str):
                no_space(writer.where)
            return write_table(writer, table, **options)

        monkeypatch.setattr(pq.ParquetWriter, "write_table", full_table)
    result = run_cli(args(command, out), code=2)
    assert result.output.splitlines() == [
        f"euchre-sim: error: cannot write to {str(out)!r}: No space left on device — free "
        "space, then rerun with --resume"]
    assert leftovers(out) == []
    stored = sorted(os.listdir(out / "chunks"))
    assert stored == (["000000"] if where == "store" else ["000000", "000001", "000002"])
    key = plan_of(command, out).run_key
    assert all(runner.chunk_fault(str(out / "chunks" / c), key, int(c)) is None for c in stored)
    monkeypatch.undo()
    result = run_cli(args(command, out, "--resume"))
    assert "damaged" not in result.output
    assert_clean_tables(clean, command, out)


def failing_compute(job):
    """compute_chunk, but the second chunk's worker finds its disk full."""
    if job.index == 1:
        no_space("/tmp/numba-cache")
    return compute_chunk(job)


def test_an_oserror_in_a_worker_is_one_line_and_leaves_no_worker(clean, tmp_path,
                                                                monkeypatch):
    import psutil

    out = tmp_path / "run"
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    monkeypatch.setattr(simulate, "compute_chunk", failing_compute)
    result = run_cli(args("simulate", out, workers=2), code=2)
    assert result.output.splitlines() == [
        f"euchre-sim: error: cannot write to {str(out)!r}: No space left on device — free "
        "space, then rerun with --resume"]
    deadline = time.time() + 10
    while time.time() < deadline and \
            {p.pid for p in psutil.Process().children(recursive=True)} - before:
        time.sleep(0.1)
    assert {p.pid for p in psutil.Process().children(recursive=True)} - before == set()
    monkeypatch.undo()
    run_cli(args("simulate", out, "--resume"))
    assert_clean_tables(clean, "simulate", out)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_chunk_of_another_run_is_computed_again(clean, command, tmp_path):
    """Chunk 1 copied in from the same command's run under another seed (and chunk 2 moved
    to index 0): --resume names both, computes them again and the tables are clean."""
    out, other = tmp_path / "run", tmp_path / "other"
    stored_run(command, out)
    stored_run(command, other, seed=8)
    shutil.rmtree(out / "chunks" / "000001")
    shutil.copytree(other / "chunks" / "000001", out / "chunks" / "000001")
    shutil.rmtree(out / "chunks" / "000000")
    shutil.copytree(out / "chunks" / "000002", out / "chunks" / "000000")
    result = run_cli(args(command, out, "--resume"))
    for index in (0, 1):
        assert (f"euchre-sim: chunk {index} belongs to another run (another seed, rules, size "
                "or place): computing it again") in result.output
    assert "chunk 2 " not in result.output
    assert_clean_tables(clean, command, out)


def test_a_chunk_size_changed_in_the_manifest_computes_every_chunk_again(clean, tmp_path):
    """The chunks were cut at 1,000 deals; a manifest edited to 700 makes them another run's
    (counted at 700 they would sum to more deals than the run has)."""
    out = tmp_path / "run"
    stored_run("simulate", out)
    manifest = json.loads((out / runner.MANIFEST).read_text())
    (out / runner.MANIFEST).write_text(json.dumps(manifest | {"chunk_size": 700}))
    result = run_cli([*COMMANDS["simulate"][0][:-2], "--out", str(out), "--workers", "1",
                      "--no-progress", "--resume"])
    assert result.output.count("belongs to another run") == 3
    assert_clean_tables(clean, "simulate", out)
    assert pd.read_parquet(out / "summary.parquet")["n"].sum() == \
        clean["simulate"]["summary"]["n"].sum()


def test_complete_is_not_trusted_without_the_tables_checksums(clean, tmp_path):
    """A manifest marked complete in a run that is not (chunk 1 missing, no tables): the
    resume finishes it. A finished run whose table was damaged is written again."""
    out = tmp_path / "run"
    stored_run("simulate", out)
    shutil.rmtree(out / "chunks" / "000001")
    manifest = json.loads((out / runner.MANIFEST).read_text())
    (out / runner.MANIFEST).write_text(json.dumps(manifest | {"complete": True}))
    result = run_cli(args("simulate", out, "--resume"))
    assert "already complete" not in result.output
    assert_clean_tables(clean, "simulate", out)
    truncate(out / "calls.parquet")
    result = run_cli(args("simulate", out, "--resume"))
    assert "already complete" not in result.output
    assert_clean_tables(clean, "simulate", out)
    result = run_cli(args("simulate", out, "--resume"))
    assert "run in " in result.output and "is already complete" in result.output


@pytest.mark.parametrize("content,why", [
    ("[]", "not an object"), ("null", "not an object"),
    ('{"chunk_size": "1000"}', "its chunk_size is not a whole number from 1"),
    ('{"chunk_size": 0}', "its chunk_size is not a whole number from 1"),
    ('{"seed": 11}', "its chunk_size is not a whole number from 1"),
    ("{not json", "not JSON: Expecting property name enclosed in double quotes: line 1 column "
                  "2 (char 1)"),
])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_broken_manifest_is_one_line_naming_it(command, content, why, tmp_path):
    out = tmp_path / "run"
    stored_run(command, out)
    (out / runner.MANIFEST).write_text(content)
    result = run_cli(args(command, out, "--resume"), code=2)
    assert result.output.splitlines() == [
        f"euchre-sim: error: cannot resume in {str(out)!r}: its manifest.json is damaged "
        f"({why}; start the run again in an empty folder)"]


@pytest.mark.parametrize("code", ["0" * 64, None])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_run_of_other_code_is_not_resumed(command, code, tmp_path):
    """A run whose manifest names other code (another version, an edited install; None: a
    version before runs named their code) is refused in one line, its chunks left alone."""
    out = tmp_path / "run"
    stored_run(command, out)
    manifest = json.loads((out / runner.MANIFEST).read_text())
    manifest.pop(runner.CODE_KEY)
    (out / runner.MANIFEST).write_text(json.dumps(manifest | (
        {} if code is None else {runner.CODE_KEY: code})))
    chunks = sorted(os.listdir(out / "chunks"))
    result = run_cli(args(command, out, "--resume"), code=2)
    assert result.output.splitlines() == [
        f"euchre-sim: error: cannot resume: the run in {str(out)!r} was computed by other code "
        "(another euchre-sim version, or an edited install); start it afresh in another "
        "folder"]
    assert sorted(os.listdir(out / "chunks")) == chunks


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_chunk_stored_by_other_code_is_computed_again(clean, command, tmp_path,
                                                        monkeypatch):
    """Chunk 1 copied in from the same run stored by other code (same seed, rules and size):
    its commit names another run, so --resume computes it again."""
    out, other = tmp_path / "run", tmp_path / "other"
    stored_run(command, out)
    monkeypatch.setattr(runner, "code_digest", lambda: "0" * 64)
    stored_run(command, other)
    monkeypatch.undo()
    shutil.rmtree(out / "chunks" / "000001")
    shutil.copytree(other / "chunks" / "000001", out / "chunks" / "000001")
    result = run_cli(args(command, out, "--resume"))
    assert ("euchre-sim: chunk 1 belongs to another run (another seed, rules, size or place): "
            "computing it again") in result.output
    assert "chunk 0 " not in result.output and "chunk 2 " not in result.output
    assert_clean_tables(clean, command, out)

"""Issue 77's third hostile round, the remaining cases: a damaged package manifest (empty,
lacking an entry, huge) and changed chunk sums are each one line naming the file, exit 2."""

import hashlib
import json
import os
import shutil

import pytest

from euchre_sim.core import package_data

# imported now, bound to the real package root: imported while a test below points package
# data at a copy, it would keep the copy's
from euchre_sim.runs import code_digest  # noqa: F401

from .helpers import run_cli

HAND = ["--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1"]
COMMANDS = {
    "advise": ["advise", *HAND, "--deals", "50"],
    "simulate": ["simulate", "--deals", "100", "--play", "learned", "--out", "{tmp}/run"],
    "chart": ["chart", "atlas", "--output", "{tmp}/chart.html"],
}


def _write_manifest(package_copy, data: bytes) -> str:
    path = package_copy / package_data.MANIFEST
    path.unlink()
    path.write_bytes(data)
    return str(path)


def _without(name: str):
    def damage(package_copy) -> bytes:
        listed = json.loads((package_copy / package_data.MANIFEST).read_text())
        del listed[name]
        return json.dumps(listed).encode()
    damage.__name__ = f"without_{name.rpartition('/')[2]}"
    return damage


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("damage, why", [
    (lambda _: b"{}", "the package data's manifest lacks data/atlas_online.parquet and "
                      "{others} more"),
    (lambda _: b'{"play/card_net.npz": "' + b"0" * (8 << 20) + b'"}',
     "not the package data's manifest (over 1,048,576 bytes)"),
    (_without("play/card_net.npz"), "the package data's manifest lacks play/card_net.npz"),
    (_without("data/atlas_standard.parquet"),
     "the package data's manifest lacks data/atlas_standard.parquet"),
], ids=["empty", "huge", "no_net_entry", "no_atlas_entry"])
def test_a_damaged_manifest_is_one_line_naming_it_saying_to_reinstall(package_copy, tmp_path,
                                                                      command, damage, why):
    shipped = sorted(p.name for folder in ("data", "play") for p in (package_copy / folder)
                     .iterdir() if p.suffix in (".npz", ".parquet"))
    path = _write_manifest(package_copy, damage(package_copy))
    args = [a.format(tmp=tmp_path) for a in COMMANDS[command]]
    lines = run_cli(args, code=2).output.splitlines()
    assert lines == [f"euchre-sim: error: {path}: {why.format(others=len(shipped) - 1)}; "
                     "reinstall euchre-sim"]


# --- a chunk's calls sums changed with its checksum updated (issue 77 item 7) --------------

SIMULATE = ["simulate", "--deals", "3000", "--seed", "11", "--chunk-size", "1000", "--workers",
            "1", "--no-progress"]
CALLS_A_DEAL = 8 + 24  # standard: round 1 four seats x (alone or not), round 2 x three suits


def _stored_run(out) -> None:
    """A simulation whose three chunks are stored but not merged (a crash before the merge)."""
    from euchre_sim.core.rules import build_rules
    from euchre_sim.runs.runner import store_chunk
    from euchre_sim.sim.simulate import RunPlan, prepare_run
    from euchre_sim.sim.tables import compute_chunk

    plan = prepare_run(RunPlan(str(out), build_rules("standard"), 11, 3000, 1000))
    for job in plan.jobs():
        index, _, files = compute_chunk(job)
        store_chunk(plan.out_dir, plan.run_key, index, files)


def _rewrite_with_checksum(folder, name: str, data: bytes) -> None:
    """Replace a chunk's file and record its new sha256, as a deliberate edit would."""
    (folder / name).write_bytes(data)
    record = json.loads((folder / "commit.json").read_text())
    record["sha256"][name] = hashlib.sha256(data).hexdigest()
    (folder / "commit.json").write_text(json.dumps(record))


def _sums_of(path):
    from euchre_sim.sim.callsums import ChunkSums

    chunks = ChunkSums([str(path)])
    buckets = [b for batch in chunks.batches(10 ** 9) for b in batch]
    return chunks.read(buckets)


def _doubled(path) -> bytes:
    from euchre_sim.sim.callsums import bucketed_sums

    keys, sums = _sums_of(path)
    return bucketed_sums(keys, sums * 2)


def _one_count_more(path) -> bytes:
    from euchre_sim.sim.callsums import bucketed_sums

    keys, sums = _sums_of(path)
    sums = sums.copy()
    sums[0, 0] += 1  # n, with makes and euchres left as they were
    return bucketed_sums(keys, sums)


def _garbled(path) -> bytes:
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = bytes(64)
    return bytes(data)


@pytest.mark.parametrize("change, why", [
    (_doubled, f"{2 * 1000 * CALLS_A_DEAL:,} calls counted, not {1000 * CALLS_A_DEAL:,}"),
    (_one_count_more, "makes and euchres that do not add up to n"),
    (_garbled, None),
], ids=["counts_doubled", "one_count_more", "bytes_changed"])
def test_changed_calls_sums_with_their_checksum_are_one_line_naming_the_chunk(tmp_path, change,
                                                                              why):
    out = tmp_path / "run"
    _stored_run(out)
    folder = out / "chunks" / "000001"
    _rewrite_with_checksum(folder, "calls.sums", change(folder / "calls.sums"))
    lines = run_cli([*SIMULATE, "--out", str(out), "--resume"], code=2).output.splitlines()
    assert len(lines) == 1, lines
    start = f"euchre-sim: error: chunk 1 ({folder}): calls.sums "
    assert lines[0].startswith(start)
    assert lines[0].endswith("; delete its folder and run again with --resume")
    middle = lines[0][len(start):-len("; delete its folder and run again with --resume")]
    if why is None:
        assert middle.startswith("is not a sums file of 6 columns (")
    else:
        assert middle == f"holds calls sums its 1,000 deals cannot make ({why})"
    assert not (out / "calls.parquet").exists()
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    shutil.rmtree(folder)  # as the line says: the chunk is computed again, the run finishes
    run_cli([*SIMULATE, "--out", str(out), "--resume"])
    assert (out / "calls.parquet").exists()


# --- memory: replay reads JSON Lines a line at a time (issue 77 item 5) -------------------

CLI_REPORTING_PEAK = (
    "import atexit, sys\n"
    "def peak():\n"
    "    status = open('/proc/self/status').read()\n"
    "    print('VmPeak', status.split('VmPeak:')[1].split()[0], file=sys.stderr)\n"
    "atexit.register(peak)\n"
    "from euchre_sim.cli.main import cli\n"
    "cli()\n")


def _cli_capped(args: list[str], cap_bytes: int | None = None, env: dict | None = None):
    """The command line run in a process whose address space is capped (RLIMIT_AS), `env`
    added to its environment; its result and its peak address space in bytes (VmPeak), None
    when it did not exit."""
    import resource
    import subprocess
    import sys

    def cap() -> None:
        if cap_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))

    result = subprocess.run([sys.executable, "-c", CLI_REPORTING_PEAK, *args],
                            capture_output=True, text=True, preexec_fn=cap, timeout=300,
                            env={**os.environ, **(env or {})})
    peaks = [line.split()[1] for line in result.stderr.splitlines()
             if line.startswith("VmPeak ")]
    return result, int(peaks[-1]) * 1024 if peaks else None


def _hands_file(path, records: list[str], size: int) -> int:
    """A JSON Lines file of `records` repeated until it holds `size` bytes; its line count."""
    count = 0
    with open(path, "w") as out:
        while out.tell() < size:
            for record in records:
                out.write(record + "\n")
                count += 1
    return count


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's VmPeak")
def test_replay_of_a_large_json_lines_file_stays_within_a_memory_cap(tmp_path):
    """Issue 77 item 5: replay read the whole file and every record first (about 13 times
    the file). Capped at its own peak on a small file plus 96 MB, a 16 MB file is replayed
    whole; reading it whole would ask for far more (a 512 MiB read buffer, then the lines)."""
    small = tmp_path / "small.jsonl"
    run_cli(["play", "--games", "3", "--seed", "1", "--output", str(small)])
    records = small.read_text().splitlines()
    baseline, peak = _cli_capped(["replay", str(small)])
    assert baseline.returncode == 0 and peak is not None, baseline.stderr
    big = tmp_path / "big.jsonl"
    hands = _hands_file(big, records, 16_000_000)
    result, _ = _cli_capped(["replay", str(big)], peak + (96 << 20))
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines()[-1] == f"{hands} hands: {hands} ok, 0 rejected"


def test_replay_stream_answers_a_hand_before_the_rest_of_the_file_is_read(tmp_path):
    """A line past the first hand that is not UTF-8 is found only when it is reached: the
    first hand's result comes before it (the file is read a line at a time)."""
    from euchre_sim.api.catalog import preset
    from euchre_sim.api.hands import replay_stream
    from euchre_sim.core.errors import UserError

    small = tmp_path / "small.jsonl"
    run_cli(["play", "--games", "1", "--seed", "1", "--output", str(small)])
    first = small.read_bytes().splitlines()[0]
    path = tmp_path / "hands.jsonl"
    path.write_bytes(first + b"\n\xff\xfe\n")
    results = replay_stream(path, preset("standard"))
    assert next(results)["ok"] is True
    with pytest.raises(UserError, match=rf"not UTF-8 \(invalid start byte at byte "
                                        rf"{len(first) + 1}\)"):
        next(results)


# --- memory: export reads the table a row group at a time (issue 77 item 5) ----------------

# the allocators' reservations out of the address space's count: pyarrow's pool the system's,
# one malloc arena, so that the cap measures what is used
PLAIN_ALLOCATORS = {"ARROW_DEFAULT_MEMORY_POOL": "system", "MALLOC_ARENA_MAX": "1"}


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's VmPeak")
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_of_a_million_rows_stays_within_a_memory_cap(tmp_path_factory, fmt):
    """Issue 77 item 5: export read the whole table before writing it (the calls of a
    40,000-deal run, 1,048,640 rows: about 310 MB over the command's own). Capped at its
    peak exporting the small summary table plus 240 MB, the calls are exported whole,
    byte for byte what the library writes from the whole table."""
    import io

    from euchre_sim.api.tables import export_rows, export_table

    run = tmp_path_factory.getbasetemp() / "export-million"
    if not (run / "calls.parquet").exists():
        run_cli(["simulate", "--deals", "40000", "--out", str(run), "--workers", "2",
                 "--no-progress"])
    out = tmp_path_factory.mktemp("export") / f"calls.{fmt}"
    baseline, peak = _cli_capped(["export", str(run), "--format", fmt, "--table", "summary",
                                  "--output", str(out)], env=PLAIN_ALLOCATORS)
    assert baseline.returncode == 0 and peak is not None, baseline.stderr
    result, _ = _cli_capped(["export", str(run), "--format", fmt, "--output", str(out)],
                            peak + (240 << 20), env=PLAIN_ALLOCATORS)
    assert result.returncode == 0, result.stderr[-2000:]
    whole = io.StringIO()
    export_rows(export_table(str(run)), fmt, whole.write)
    assert out.read_text() == whole.getvalue()
    import pyarrow.parquet as pq

    rows = pq.ParquetFile(run / "calls.parquet").metadata.num_rows
    assert rows > 1_000_000 and len(whole.getvalue().splitlines()) == rows + (fmt == "csv")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's VmPeak")
def test_table_of_a_million_rows_reads_only_what_it_shows_within_a_memory_cap(
        tmp_path_factory):
    """Issue 77 item 5: `table` read the whole calls table to show 30 rows (the calls of a
    40,000-deal run, 1,048,640 rows: about 370 MB over its peak showing the small summary
    table). Capped at that peak plus 200 MB, the calls are checked whole and their page
    printed: the same rows, in the same order, as filtering and sorting the whole table
    gives (about 140 MB over, measured on a 2-core AMD EPYC)."""
    import json

    import pandas as pd

    run = tmp_path_factory.getbasetemp() / "export-million"
    if not (run / "calls.parquet").exists():
        run_cli(["simulate", "--deals", "40000", "--out", str(run), "--workers", "2",
                 "--no-progress"])
    baseline, peak = _cli_capped(["table", str(run), "--table", "summary"],
                                 env=PLAIN_ALLOCATORS)
    assert baseline.returncode == 0 and peak is not None, baseline.stderr
    asked = ["table", str(run), "--round", "2", "--sort", "mean_points", "--limit", "40",
             "--json"]
    result, _ = _cli_capped(asked, peak + (200 << 20), env=PLAIN_ALLOCATORS)
    assert result.returncode == 0, result.stderr[-2000:]
    whole = pd.read_parquet(run / "calls.parquet")
    expected = whole[whole["round"] == 2].sort_values("mean_points", ascending=False,
                                                       kind="stable").head(40)
    shown = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["seat"], r["hand"], r["alone"]) for r in shown] == list(
        zip(expected["seat"], expected["hand"], expected["alone"], strict=True))

"""Every count has a maximum (core.limits), checked where its question or plan is built: one
line and exit 2 beyond it, before any work starts; --workers above the cores is capped with a
note; the rules' numeric options are bounded and typed."""

import re
from pathlib import Path

import pytest

from euchre_sim.advice.play_question import PlayQuestion
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.advice.review import ReviewSettings
from euchre_sim.core import limits
from euchre_sim.core.errors import FieldError, UserError
from euchre_sim.core.rules import PRESETS, RuleSet, build_rules, rules_from_dict
from euchre_sim.game.tournament import TournamentPlan
from euchre_sim.play.player import Player
from euchre_sim.runs import runner
from euchre_sim.runs.cores import default_workers
from euchre_sim.sim.simulate import RunPlan

from .helpers import run_cli

RULES = build_rules()
HUGE = 10**30
ADVISE = ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1"]
PLAYERS = (Player("dd", "dd"), Player("rules", "dd"))


@pytest.fixture
def no_work(monkeypatch):
    """The work behind every command replaced by a failure: a check that comes too late (or
    not at all) fails the test at once instead of starting a huge run."""
    import euchre_sim.advice.advice_request as advice_request
    import euchre_sim.api.runs as api_runs
    import euchre_sim.game.selfplay as selfplay
    import euchre_sim.game.tournament as tournament

    def started(*_, **__):
        raise AssertionError("the work started")

    for module, name in ((advice_request, "answer"), (api_runs, "run_plan"),
                         (selfplay, "play_games"), (tournament, "prepare_tournament")):
        monkeypatch.setattr(module, name, started)


@pytest.mark.parametrize("args,line", [
    (ADVISE + ["--deals", str(HUGE)],
     "--deals must be at most 500,000, got more than 10^30 (see 'Limits' in docs/commands.md)"),
    (ADVISE + ["--deals", "500001", "--bidding", "dd"],
     "--deals must be at most 500,000, got 500,001 (see 'Limits' in docs/commands.md)"),
    (["simulate", "--deals", str(10**10 + 1), "--out", "{out}"],
     "--deals must be at most 10,000,000,000, got 10,000,000,001 (see 'Limits' in "
     "docs/commands.md)"),
    (["simulate", "--deals", str(10**10), "--chunk-size", "1", "--out", "{out}"],
     "--chunk-size 1 makes 10,000,000,000 chunks, more than 1,000,000: give a larger "
     "--chunk-size"),
    (["simulate", "--deals", "100", "--chunk-size", "20001", "--out", "{out}"],
     "--chunk-size must be at most 20,000, got 20,001 (see 'Limits' in docs/commands.md)"),
    (["tournament", "--games", "10", "--chunk-size", "20001", "--out", "{out}"],
     "--chunk-size must be at most 20,000, got 20,001 (see 'Limits' in docs/commands.md)"),
    (["odds", "--deals", str(HUGE), "--out", "{out}"],
     "--deals must be at most 10,000,000,000, got more than 10^30 (see 'Limits' in "
     "docs/commands.md)"),
    (["tournament", "--games", str(10**8 + 1), "--out", "{out}"],
     "--games must be at most 100,000,000, got 100,000,001 (see 'Limits' in docs/commands.md)"),
    (["play", "--games", str(10**5 + 1)],
     "--games must be at most 100,000, got 100,001 (see 'Limits' in docs/commands.md)"),
    (ADVISE + ["--bidding", "dd", "--score", "3-4", "--set", "target=1000"],
     "option 'target' must be 1 to 100, got 1000"),
    (["play", "--set", f"renege_penalty={HUGE}"],
     "option 'renege_penalty' must be 0 to 10, got a number of more than 30 digits"),
])
def test_a_count_above_its_maximum_is_one_line_exit_2_before_any_work(no_work, tmp_path, args,
                                                                      line):
    out = tmp_path / "run"
    result = run_cli([a.replace("{out}", str(out)) for a in args], code=2)
    assert result.output.splitlines() == [f"euchre-sim: error: {line}"]
    assert not out.exists()


@pytest.mark.parametrize("build,field", [
    (lambda n: AdviceQuestion(RULES, "JS AS 9H 9D TC", 1, up="9S", deals=n), "deals"),
    (lambda n: Player("dd", "pimc", worlds=n), "worlds"),  # every question's worlds
    (lambda n: RunPlan("unused", RULES, 1, n), "deals"),
    (lambda n: TournamentPlan("unused", RULES, 1, n, PLAYERS), "games"),
])
def test_every_question_and_plan_refuses_a_huge_count_where_it_is_built(build, field):
    """What the page's JSON bodies build too: the same FieldError, naming the field."""
    with pytest.raises(FieldError, match="must be at most") as caught:
        build(HUGE)
    assert caught.value.named(str).startswith(f"{field} must be at most")


SEED_LINE = "--seed must be 0 to 2^63 - 1 (9,223,372,036,854,775,807), got {}"
PLAY_ADVISE = ["advise", "--hand", "KS QH 9C TH 9D", "--up", "9S", "--seat", "3", "--trump",
               "S", "--maker", "4", "--played", "AD KD", "--worlds", "20"]
SEEDED = {"simulate": ["simulate", "--deals", "100", "--out", "{out}"],
          "odds": ["odds", "--out", "{out}"],
          "tournament": ["tournament", "--games", "10", "--out", "{out}"], "play": ["play"],
          "review": ["review", "{out}.jsonl"], "advise": ADVISE,
          "advise during the play": PLAY_ADVISE}


def test_every_command_with_a_seed_is_checked_below():
    from euchre_sim.cli.main import cli

    seeded = {name for name, command in cli.every_command().items()
              if any("--seed" in p.opts for p in command.params)}
    assert seeded == {args[0] for args in SEEDED.values()}


@pytest.mark.parametrize("seed,shown", [(-1, "-1"), (2**63, "9,223,372,036,854,775,808"),
                                        (10**20, "100,000,000,000,000,000,000"),
                                        (-(10**40), "less than -10^30")])
@pytest.mark.parametrize("command", sorted(SEEDED))
def test_a_seed_outside_0_to_2_63_is_one_line_exit_2_before_any_work(no_work, tmp_path, command,
                                                                      seed, shown):
    """Seeds key 64-bit generators: a negative or huge one was an OverflowError traceback
    (review, advise during the play) or silently taken modulo 2^64 (the others)."""
    out = tmp_path / "run"
    args = [a.replace("{out}", str(out)) for a in SEEDED[command]]
    result = run_cli([*args, "--seed", str(seed)], code=2)
    assert result.output.splitlines() == [f"euchre-sim: error: {SEED_LINE.format(shown)}"]
    assert not out.exists()


@pytest.mark.parametrize("build", [
    lambda s: AdviceQuestion(RULES, "JS AS 9H 9D TC", 1, up="9S", seed=s),
    lambda s: PlayQuestion(RULES, seat=1, trump="S", maker=1, up="9S", hand="JS AS 9H 9D TC",
                           seed=s),
    lambda s: ReviewSettings(seed=s),
    lambda s: RunPlan("unused", RULES, s, 100),
    lambda s: TournamentPlan("unused", RULES, s, 10, PLAYERS),
])
def test_every_question_and_plan_takes_seeds_0_to_2_63_only(build):
    """What the page's JSON bodies build too: the same FieldError, naming the seed."""
    for seed in (0, limits.MAX_SEED):
        assert build(seed).seed == seed
    for seed in (-1, limits.MAX_SEED + 1):
        with pytest.raises(FieldError) as caught:
            build(seed)
        assert caught.value.named(str).startswith("seed must be 0 to 2^63 - 1")


def test_a_run_of_too_many_chunks_is_refused_even_at_the_default_chunk_size():
    """PIMC's default chunks are small: 10**10 deals would be 5 x 10**7 of them."""
    with pytest.raises(FieldError, match="chunks, more than 1,000,000"):
        RunPlan("unused", RULES, 1, 10**10, player=Player(None, "pimc"))
    assert RunPlan("unused", RULES, 1, 10**10).n_chunks <= limits.MAX_CHUNKS


def test_workers_above_the_cores_are_capped_with_a_note(monkeypatch, tmp_path):
    import euchre_sim.cli.simulate_commands as simulate_commands

    asked = []
    monkeypatch.setattr(simulate_commands, "run_simulation",
                        lambda ruleset, out_dir, workers, *_: asked.append(workers))
    result = run_cli(["simulate", "--deals", "2000", "--workers", "100000", "--out",
                      str(tmp_path / "run")])
    cores = default_workers()
    assert asked == [cores]
    assert result.output.splitlines() == [
        f"euchre-sim: note: --workers 100,000 is more than the {cores} cores here: using "
        f"{cores}"]


def test_local_jobs_are_submitted_two_a_worker_at_a_time():
    """A run of many chunks never holds them all as pending tasks."""
    taken, stored = [0], []

    def jobs():
        for job in range(40):
            taken[0] += 1
            yield job

    def store(result):
        stored.append(result)
        assert taken[0] - len(stored) <= 4, (taken[0], len(stored))

    runner.run_jobs_local(jobs(), abs, store, workers=2)
    assert sorted(stored) == list(range(40))


@pytest.mark.parametrize("options,line", [
    ({"target": 101}, "option 'target' must be 1 to 100, got 101"),
    ({"target": 0}, "option 'target' must be 1 to 100, got 0"),
    ({"march_points": 11}, "option 'march_points' must be 0 to 10, got 11"),
    ({"euchre_points": -1}, "option 'euchre_points' must be 0 to 10, got -1"),
    ({"deck": "24"}, "option 'deck' takes a whole number, got '24'"),
    ({"joker": 1}, "option 'joker' takes true or false, got 1"),
    ({"target": True}, "option 'target' takes a whole number, got True"),
])
def test_rule_options_are_bounded_and_typed(options, line):
    with pytest.raises(UserError) as caught:
        RuleSet(**options)
    assert str(caught.value) == line


@pytest.mark.parametrize("options,line", [
    ([1], "the rules must be an object of options, got [1]"),
    ({"colour": "red"}, "unknown option 'colour' in the rules"),
])
def test_rules_read_back_from_a_file_are_checked(options, line):
    with pytest.raises(UserError) as caught:
        rules_from_dict(options)
    assert str(caught.value) == line


def test_the_presets_say_what_their_rules_are_not_where_they_came_from():
    for name, (text, _) in PRESETS.items():
        assert ".txt" not in text and text[0].isupper(), name
    assert "stick the dealer" in PRESETS["online"][0]


def _one_line_exit_2(args, *words):
    result = run_cli(args, code=2)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    for word in words:
        assert word in lines[0], lines[0]


def test_a_score_of_thousands_of_digits_is_one_short_line():
    """Issue 58 item 10: past Python's 4,300 digits int() raised a ValueError traceback."""
    _one_line_exit_2(["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1",
                      "--bidding", "rules", "--play", "dd", "--score", "9" * 5000 + "-1"],
                     "--score must look like US-THEM", "...")


def test_a_scheduler_address_dask_cannot_read_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    _one_line_exit_2(["simulate", "--deals", "100", "--out", str(tmp_path / "run"),
                      "--scheduler", "nonsense://x"], "cannot reach the Dask scheduler")


@pytest.mark.parametrize("command", ["table", "compare"])
def test_the_rows_a_table_shows_are_capped(tmp_path, command):
    """Issue 58 item 10: `table --limit` printed 62,000 rows for over 90 s."""
    folders = [str(tmp_path)] * (2 if command == "compare" else 1)
    _one_line_exit_2([command, *folders, "--limit", str(limits.MAX_ROWS_SHOWN + 1)],
                     "--limit")


def test_a_plot_into_a_file_of_another_kind_is_refused(tmp_path):
    """Issue 58 item 10: `plot … --output x.txt` wrote a PNG into x.txt."""
    pytest.importorskip("matplotlib")
    run = tmp_path / "run"
    run_cli(["simulate", "--deals", "200", "--seed", "1", "--out", str(run), "--no-progress",
             "--workers", "1"])
    _one_line_exit_2(["plot", str(run), "--output", str(tmp_path / "x.txt")],
                     "png, svg, pdf", "x.txt")
    assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize("command", ["replay", "review"])
@pytest.mark.parametrize("bad_id", ["[1, 2]", "1e400", "2.5", "true"])
def test_a_hand_whose_id_is_not_a_string_or_whole_number_is_named_not_a_traceback(
        tmp_path, command, bad_id):
    """Issue 58 item 10: a list id was a TypeError in review, 1e400 printed `Infinity`."""
    record = Path(__file__).resolve().parent.parent.joinpath(
        "data", "hand_records.jsonl").read_text().splitlines()[0]
    path = tmp_path / "hands.jsonl"
    path.write_text(re.sub(r'^\{"id": \d+', '{"id": ' + bad_id, record) + "\n")
    _one_line_exit_2([command, str(path)], "line 1: the id must be a string or a whole number")


@pytest.mark.parametrize("args", [
    ["tournament", "--ns", "rules", "--ew", "rules", "--games", "4", "--egn", "{bad}",
     "--out", "{tmp}/t"],
    ["odds", "--deals", "200", "--out", "{bad}"]])
def test_a_folder_that_cannot_be_written_is_one_line_before_the_work(no_work, tmp_path, args):
    """Issue 58 item 10: `odds --out` and `tournament --egn` where nothing can be written
    were tracebacks, and --egn was found out only after the whole tournament."""
    (tmp_path / "file").write_text("a file, not a folder")
    bad = str(tmp_path / "file" / "sub")
    _one_line_exit_2([a.format(bad=bad, tmp=tmp_path) for a in args], "cannot write", bad)


def test_bidder_parameters_naming_a_folder_are_one_line(tmp_path):
    """Issue 58 item 10: a folder as --bidder-params was an IsADirectoryError traceback."""
    _one_line_exit_2(["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1",
                      "--bidding", "human", "--play", "dd", "--bidder-params", str(tmp_path)],
                     "not a regular file")


def test_a_command_started_with_standard_output_closed_is_one_line(tmp_path):
    """Issue 58 item 10: `table DIR >&-` was an AttributeError traceback."""
    import subprocess
    import sys

    run = tmp_path / "run"
    run_cli(["simulate", "--deals", "100", "--seed", "1", "--out", str(run), "--no-progress",
             "--workers", "1"])
    command = f"'{sys.executable}' -m euchre_sim.cli table '{run}' >&-"
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "euchre-sim: error: cannot write to standard output: standard output is closed"]


@pytest.mark.parametrize("args", [["solve", "--input", "/dev/zero"], ["replay", "/dev/zero"],
                                  ["review", "/dev/zero"]])
def test_a_device_as_input_is_refused_not_read_without_end(args):
    """Issue 58 item 10: `solve --input /dev/zero` read 4 GB and was killed."""
    _one_line_exit_2(args, "/dev/zero", "not a regular file")


def test_standard_input_is_read_up_to_its_cap(monkeypatch):
    import io

    from euchre_sim.core import files

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"x" * 101)))
    with pytest.raises(UserError, match="over 100 bytes"):
        files.read_input("-", "the deals", max_bytes=100)


@pytest.mark.parametrize("resume", [False, True])
def test_a_second_run_into_a_folder_another_is_writing_is_one_line(tmp_path, resume):
    """Issue 58 item 10: two runs given the same --out clashed, the loser's line a
    misleading 'No such file'. The writer holds the folder's lock (here this test)."""
    import fcntl

    out = tmp_path / "run"
    out.mkdir()
    if resume:
        run_cli(["simulate", "--deals", "100", "--seed", "1", "--out", str(out),
                 "--no-progress", "--workers", "1"])
        assert not (out / ".lock").exists()  # a finished run lets go of its folder
    with open(out / ".lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        _one_line_exit_2(["simulate", "--deals", "100", "--seed", "1", "--out", str(out),
                          "--no-progress", "--workers", "1"] + (["--resume"] if resume else []),
                         "another run is writing")


def test_too_few_open_files_allowed_is_one_line(tmp_path):
    """Issue 58 item 10: under `ulimit -n 12` simulate ended in an OSError traceback."""
    import subprocess
    import sys

    command = (f"ulimit -n 12; '{sys.executable}' -m euchre_sim.cli simulate --deals 300 "
               f"--seed 1 --out '{tmp_path / 'run'}' --no-progress")
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        "euchre-sim: error: Too many open files (the limit of open files is 12; raise it, "
        "e.g. ulimit -n 1024)"]


@pytest.mark.parametrize("args", [["table", "{run}", "--limit", "3"], ["rules", "standard"]])
def test_an_ascii_terminal_gets_question_marks_not_a_traceback(tmp_path, args):
    """Issue 58 item 10: under PYTHONIOENCODING=ascii `table` printed a UnicodeEncodeError."""
    import os
    import subprocess
    import sys

    run = tmp_path / "run"
    run_cli(["simulate", "--deals", "200", "--seed", "1", "--out", str(run), "--no-progress",
             "--workers", "1"])
    result = subprocess.run([sys.executable, "-m", "euchre_sim.cli",
                             *[a.format(run=run) for a in args]], capture_output=True,
                            env=os.environ | {"PYTHONIOENCODING": "ascii"}, timeout=120)
    assert result.returncode == 0 and b"Traceback" not in result.stderr, result.stderr
    result.stdout.decode("ascii")

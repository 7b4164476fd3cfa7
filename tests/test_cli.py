"""The command line: help on every command, fast --help, one-line errors with exit 2."""

import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli


def test_every_command_has_help_with_an_example():
    for name, command in cli.every_command().items():
        assert command.help and "Example:" in command.help, name


def test_help_does_not_import_numba():
    code = ("import sys; from euchre_sim.cli.main import cli\n"
            "try:\n    cli(['--help'])\nexcept SystemExit:\n    pass\n"
            "assert 'numba' not in sys.modules and 'pandas' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize("args,culprit", [
    (["rules", "nope"], "unknown preset 'nope'"),
    (["play", "--set", "colour=red"], "unknown option 'colour'"),
    (["play", "--set", "deck=36"], "option 'deck' takes one of 24, 28, 32"),
    (["play", "--set", "joker=maybe"], "option 'joker' takes true or false"),
    (["play", "--rules", "yooker", "--set", "deck=32"], "'deck' must be 24 with yooker"),
    (["replay", "/no/such/file.jsonl"], "cannot read the hand file '/no/such/file.jsonl'"),
    (["play", "--games", "zero"], "'zero' is not a valid integer"),
    (["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--up", "TD", "--seat", "1"],
     "--up is given twice: give it once"),
    (["simulate", "--deals", "10", "--out", "a", "--deals", "20"],
     "--deals is given twice: give it once"),
    (["solve", "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS", "--dealer", "W",
      "--dealer", "N"], "--dealer is given twice: give it once"),
])
def test_user_errors_are_one_line_exit_2(args, culprit):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert culprit in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_option_given_many_times_by_design_is_taken_so():
    result = CliRunner().invoke(cli, ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S",
                                      "--seat", "1", "--set", "no_trump=true", "--set",
                                      "stick_the_dealer=true", "--json", "--json"])
    assert result.exit_code == 0, result.output


def test_replay_of_unreadable_input_exits_2(tmp_path):
    junk = tmp_path / "junk.txt"
    junk.write_text("this is not json\nnor this\n")
    result = CliRunner().invoke(cli, ["replay", str(junk)])
    assert result.exit_code == 2


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "example.com"])
def test_serve_refuses_a_remote_host_without_allow_remote(host):
    result = CliRunner().invoke(cli, ["serve", "--host", host])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"euchre-sim: error: --host {host} would let other machines reach the page: add "
        "--allow-remote (API calls then need a token printed at start)"]


def test_serve_with_allow_remote_prints_the_page_url_with_its_token(tmp_path, monkeypatch):
    import uvicorn
    from starlette.testclient import TestClient

    from .web_helpers import free_port

    started = {}
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, **_: started.update(
        app=server.config.app, port=server.config.port))
    port = free_port()
    result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--allow-remote",
                                      "--runs", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "note" not in result.output and started["port"] == port
    token = re.search(rf"http://127\.0\.0\.1:{port}/\?token=([\w-]+) ", result.output).group(1)
    client = TestClient(started["app"], base_url="http://127.0.0.1")  # no warm-up: not started
    assert client.get("/api/runs").status_code == 401
    listing = client.get("/api/runs", headers={"authorization": f"Bearer {token}"})
    assert listing.json()["root"] == os.path.realpath(tmp_path)


DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"


def test_old_spellings_still_work_with_one_note_each(tmp_path):
    """SPEC's vocabulary: `--output FILE` for files, `solve --input`, compass letters for
    `--dealer`; the old spellings answer the same, with a one-line note on standard error."""
    from click.testing import CliRunner

    from euchre_sim.cli.main import cli

    runner = CliRunner()
    deals = tmp_path / "deals.txt"
    deals.write_text(DEAL + "\n")
    pairs = [(["solve", DEAL, "--dealer", "W", "--json"],
              ["solve", DEAL, "--dealer", "3", "--json"], "--dealer 3 is deprecated"),
             (["solve", "--input", str(deals), "--json"],
              ["solve", "--deals", str(deals), "--json"], "--deals FILE is deprecated")]
    for new, old, note in pairs:
        now, before = runner.invoke(cli, new), runner.invoke(cli, old)
        assert now.exit_code == before.exit_code == 0, before.output
        assert now.stdout == before.stdout
        assert now.stderr == "" and len(before.stderr.strip().splitlines()) == 1
        assert before.stderr.startswith("euchre-sim: note: ") and note in before.stderr
    for spelling in ("--output", "--out"):
        path = tmp_path / f"hands{spelling}.jsonl"
        result = runner.invoke(cli, ["play", "--games", "1", "--seed", "4", spelling, str(path)])
        assert result.exit_code == 0, result.output
        assert ("deprecated" in result.stderr) == (spelling == "--out")
    assert (tmp_path / "hands--output.jsonl").read_text() == \
        (tmp_path / "hands--out.jsonl").read_text()
    both = runner.invoke(cli, ["play", "--out", "a", "--output", "b"])
    assert both.exit_code == 2 and "give --output only" in both.output


def test_each_command_is_imported_from_the_module_named_for_it():
    """`cli.main` names each command's module (imported when the command is asked for): every
    command a module defines is named with it, and no name is left without a command."""
    import importlib

    named = dict(cli.command_modules)
    for module in sorted(set(named.values())):
        importlib.import_module(f"euchre_sim.cli.{module}")
    defined = {name: command.callback.__module__.rsplit(".", 1)[1]
               for name, command in cli.commands.items()}
    assert defined == named


def test_an_answer_from_the_atlas_imports_no_other_command():
    script = ("import sys; from euchre_sim.cli.main import cli\n"
              "try:\n    cli(['advise', '--hand', 'JS AS 9H 9D TC', '--up', '9S', '--seat', '1'])\n"
              "except SystemExit:\n    pass\n"
              "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules\n"
              "             if m.startswith('euchre_sim.cli.') and m.endswith('_commands')))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == "['advise_commands']"

"""The command line: help on every command, fast --help, one-line errors with exit 2."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from euchre_sim_cli.main import cli


def test_every_command_has_help_with_an_example():
    for name, command in cli.commands.items():
        assert command.help and "Example:" in command.help, name


def test_help_does_not_import_numba():
    code = ("import sys; from euchre_sim_cli.main import cli\n"
            "try:\n    cli(['--help'])\nexcept SystemExit:\n    pass\n"
            "assert 'numba' not in sys.modules and 'pandas' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize("args,culprit", [
    (["rules", "nope"], "unknown preset 'nope'"),
    (["play", "--set", "colour=red"], "unknown option 'colour'"),
    (["play", "--set", "deck=36"], "option 'deck' takes one of 24, 28, 32"),
    (["play", "--set", "joker=maybe"], "option 'joker' takes true or false"),
    (["play", "--rules", "yooker", "--set", "deck=32"], "'deck' must be 24 with yooker"),
    (["replay", "/no/such/file.jsonl"], "cannot read '/no/such/file.jsonl'"),
    (["play", "--games", "zero"], "'zero' is not a valid integer"),
])
def test_user_errors_are_one_line_exit_2(args, culprit):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert culprit in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_replay_of_unreadable_input_exits_2(tmp_path):
    junk = tmp_path / "junk.txt"
    junk.write_text("this is not json\nnor this\n")
    result = CliRunner().invoke(cli, ["replay", str(junk)])
    assert result.exit_code == 2

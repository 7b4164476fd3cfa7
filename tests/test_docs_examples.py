"""Docs that run: every command example of the README prints what the README shows
(tools/check_docs.py; `make docs` checks every page)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from check_docs import examples, matches  # noqa: E402


def test_a_gap_line_stands_for_any_lines_and_an_inline_gap_for_any_text():
    assert matches(["a", "…", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "…", "d"], ["a", "d"])
    assert not matches(["a", "d"], ["a", "b", "d"])  # no gap: nothing may be left out
    assert matches(["2,000 deals (… deals/s)"], ["2,000 deals (1,314 deals/s)"])
    assert not matches(["2,000 deals (… deals/s)"], ["3,000 deals (1,314 deals/s)"])
    assert not matches(["a", "…"], ["b", "c"])


def test_the_readme_examples_are_found_in_page_order():
    found = examples(ROOT / "README.md")
    commands = [e.command for e in found]
    assert commands[0].startswith("euchre-sim advise --hand")
    assert "euchre-sim rules" in commands
    assert not any(c.startswith("pip ") for c in commands)  # shown, not run


def test_every_readme_example_prints_what_the_readme_shows():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "check_docs.py"), "README.md"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:]

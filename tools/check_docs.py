"""Run every command example in README.md and docs/*.md and compare its output with what the
page shows (`make docs`; tests/test_docs_examples.py runs the fast ones).

An example is a ```text block: each line `$ euchre-sim ...` (or another shell line: `$ cd`,
`$ euchre-sim ... | head -3`) is run by bash in one scratch folder per page, in the page's
order, its standard output and error together; the lines under it are what it must print. A
line that is only `…` stands for any number of lines left out, and `…` inside a line for
any text (a speed, a time). `$ pip ...` lines are not run. Exit status 1 on any difference.

    python tools/check_docs.py [PAGE ...] [--skip-slow] [--list]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
GAP = "…"
SLOW = "# slow"  # an example whose command ends with this comment is left out by --skip-slow
NOT_RUN = ("pip ", "make ", "open ")


@dataclass
class Example:
    page: str
    line: int
    command: str
    expected: list[str] = field(default_factory=list)


def examples(page: Path) -> list[Example]:
    """The page's examples, in order: a command's lines are those under it in its block."""
    found, inside, current = [], False, None
    for number, text in enumerate(page.read_text().splitlines(), 1):
        if text.startswith("```"):
            inside, current = text.strip() == "```text", None
        elif inside and text.startswith("$ "):
            current = Example(page.name, number, text[2:].strip())
            found.append(current)
        elif current is not None:
            current.expected.append(text.rstrip())
    return [e for e in found if not e.command.startswith(NOT_RUN)]


def _pattern(line: str) -> re.Pattern:
    parts = [re.escape(part) for part in line.split(GAP)]
    return re.compile(".*".join(parts) + r"\Z")


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` is `expected` with each gap line standing for any lines and `…`
    inside a line for any text."""
    patterns = [None if line.strip() in (GAP, "...") else _pattern(line) for line in expected]
    actual = [line.rstrip() for line in actual]

    def fits(i: int, j: int, memo: dict) -> bool:
        if (i, j) in memo:
            return memo[i, j]
        if i == len(patterns):
            result = j == len(actual)
        elif patterns[i] is None:
            result = any(fits(i + 1, k, memo) for k in range(j, len(actual) + 1))
        else:
            result = j < len(actual) and bool(patterns[i].match(actual[j])) and \
                fits(i + 1, j + 1, memo)
        memo[i, j] = result
        return result

    return fits(0, 0, {})


def run(example: Example, folder: str) -> list[str]:
    bin_dir = str(Path(sys.executable).parent)
    env = os.environ | {"PATH": f"{bin_dir}:{os.environ.get('PATH', '')}", "COLUMNS": "200",
                        "TERM": "dumb"}
    done = subprocess.run(["bash", "-c", example.command.replace(SLOW, "")], cwd=folder,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, stdin=subprocess.DEVNULL)
    return done.stdout.splitlines()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="pages to check (default: all)")
    parser.add_argument("--skip-slow", action="store_true",
                        help=f"leave out examples marked {SLOW!r} (and the page's later ones)")
    parser.add_argument("--list", action="store_true", help="list the examples, run none")
    args = parser.parse_args()
    pages = [ROOT / p for p in args.pages] if args.pages else PAGES
    failed = 0
    for page in pages:
        todo = examples(page)
        if args.list:
            for e in todo:
                print(f"{e.page}:{e.line}: {e.command}")
            continue
        with tempfile.TemporaryDirectory() as folder:
            for example in todo:
                if args.skip_slow and example.command.endswith(SLOW):
                    break
                started = time.perf_counter()
                actual = run(example, folder)
                took = time.perf_counter() - started
                if not example.expected or matches(example.expected, actual):
                    print(f"ok   {example.page}:{example.line} ({took:.1f} s) {example.command}")
                    continue
                failed += 1
                print(f"FAIL {example.page}:{example.line} {example.command}\n  shown:")
                print("\n".join(f"    {line}" for line in example.expected))
                print("  printed:")
                print("\n".join(f"    {line}" for line in actual))
    print(f"{failed} examples differ" if failed else "every example prints what its page shows")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

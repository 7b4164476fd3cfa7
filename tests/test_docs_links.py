"""Every relative link and image in README.md and docs/*.md resolves: the file exists inside the
repository and, where the link names an `#anchor` in a Markdown file, that file has a heading
whose GitHub slug is the anchor. External links (any `scheme:`, e.g. https or mailto) are not
checked. Code blocks and inline code are not links."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)([\s\S]*?)(?<!`)\1(?!`)")
_LINK = re.compile(
    r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"  # [text] or ![alt], one level of nested brackets
    r"\(\s*(<[^>\n]*>|[^\s()]+)"  # (target or (<target>
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)"  # optional "title"
)
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*(<[^>\n]*>|\S+)", re.MULTILINE)
_HTML_ANCHOR = re.compile(r"<a\s[^>]*?(?:name|id)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def without_code_blocks(text: str) -> str:
    """The text with every fenced code block's lines blanked (line numbers kept)."""
    lines = text.split("\n")
    fence = None
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                lines[i] = ""
        else:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip().lstrip(fence[0]):
                fence = None
            lines[i] = ""
    return "\n".join(lines)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lowercased, every character that is not a
    letter, digit, space, '-' or '_' removed, each space turned into '-'."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", heading)  # links: text
    text = re.sub(r"<[^>]+>", "", text)  # HTML tags
    text = text.strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a Markdown page offers: its headings' slugs, a repeated slug numbered -1, -2
    … as GitHub numbers it, and explicit `<a name=…>` / `id=…` anchors."""
    taken: dict[str, int] = {}
    found: set[str] = set()
    for line in without_code_blocks(text).split("\n"):
        m = _HEADING.match(line)
        if not m:
            continue
        base = slug = github_slug(m.group(2))
        while slug in taken:
            taken[base] += 1
            slug = f"{base}-{taken[base]}"
        taken[slug] = 0
        found.add(slug)
    found.update(_HTML_ANCHOR.findall(text))
    return found


def links(text: str) -> list[tuple[int, str]]:
    """(line, target) of every link, image and link reference definition outside code."""
    text = without_code_blocks(text)
    # Blank inline code (keeping newlines, hence line numbers) and escaped brackets.
    text = _INLINE_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    text = text.replace("\\[", "  ").replace("\\]", "  ")
    found = []
    for m in _LINK.finditer(text):
        found.append((text.count("\n", 0, m.start(3)) + 1, m.group(3)))
    for m in _REFERENCE.finditer(text):
        found.append((text.count("\n", 0, m.start(1)) + 1, m.group(1)))
    return sorted(found)


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """One message per link of `page` that does not resolve; empty when all do."""
    problems = []
    root = root.resolve()
    for line, target in links(page.read_text(encoding="utf-8")):
        target = target.strip("<>")
        if _SCHEME.match(target) or target.startswith("//"):
            continue  # external: http(s), mailto, …
        path_part, _, anchor = target.partition("#")
        path_part, anchor = unquote(path_part), unquote(anchor)
        where = f"{page.name}:{line}: {target}"
        if not path_part:
            dest = page.resolve()
        elif path_part.startswith("/"):
            dest = (root / path_part.lstrip("/")).resolve()
        else:
            dest = (page.parent / path_part).resolve()
        if dest != root and root not in dest.parents:
            problems.append(f"{where}: points outside the repository")
            continue
        if not dest.exists():
            problems.append(f"{where}: no such file {dest.relative_to(root)}")
            continue
        if anchor and dest.is_file() and dest.suffix.lower() == ".md":
            if anchor not in anchors(dest.read_text(encoding="utf-8")):
                problems.append(f"{where}: no heading #{anchor} in {dest.relative_to(root)}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve(page):
    assert broken_links(page) == []


def test_docs_index_lists_every_page():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    listed = {target.partition("#")[0] for _, target in links(index)}
    pages = {p.name for p in PAGES if p.parent.name == "docs" and p.name != "index.md"}
    assert pages - listed == set()


def test_github_slug():
    assert github_slug("Should I order up?") == "should-i-order-up"
    assert github_slug("The solver's search") == "the-solvers-search"
    assert github_slug("Web page (`euchre-sim serve`)") == "web-page-euchre-sim-serve"
    assert github_slug("`euchre-sim rules [PRESET]`") == "euchre-sim-rules-preset"
    assert github_slug("`euchre-sim compare DIR_A DIR_B`") == "euchre-sim-compare-dir_a-dir_b"
    assert github_slug("Running on a Dask cluster: `simulate … --scheduler tcp://HOST:PORT`") \
        == "running-on-a-dask-cluster-simulate----scheduler-tcphostport"
    assert github_slug("See [the rules](rules.md) first") == "see-the-rules-first"


def test_repeated_headings_are_numbered():
    text = "# Notes\n\n## Notes\n\n```\n# Notes (code, not a heading)\n```\n\n### Notes\n"
    assert anchors(text) == {"notes", "notes-1", "notes-2"}


def test_checker_finds_broken_links(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n\n## A section\n")
    (tmp_path / "pic.png").write_bytes(b"")
    page = tmp_path / "README.md"
    page.write_text(
        "# Front\n\n## Here\n\n"
        "[ok](docs/other.md) [ok](docs/other.md#a-section) [ok](#here) ![ok](pic.png)\n"
        "[ok](<docs/other.md#other-page> \"title\") [web](https://example.com/x#y) "
        "[mail](mailto:a@example.com)\n"
        "`[not a link](nowhere.md)`\n"
        "```\n[not a link](nowhere.md)\n```\n"
        "[missing file](docs/missing.md)\n"
        "[missing anchor](docs/other.md#no-such-section)\n"
        "[missing here](#there)\n"
        "![missing image](docs/pic.png)\n"
        "[outside](../elsewhere.md)\n"
        "[ref]: docs/nope.md\n"
    )
    assert broken_links(page, root=tmp_path) == [
        "README.md:11: docs/missing.md: no such file docs/missing.md",
        "README.md:12: docs/other.md#no-such-section: no heading #no-such-section in docs/other.md",
        "README.md:13: #there: no heading #there in README.md",
        "README.md:14: docs/pic.png: no such file docs/pic.png",
        "README.md:15: ../elsewhere.md: points outside the repository",
        "README.md:16: docs/nope.md: no such file docs/nope.md",
    ]

"""The sdist and the wheel `python -m build` makes hold the whole package: every module and every
file it reads at run time (the `human` bidder's numbers, the page's static files).

Built offline from a clean copy of what a build reads (a leftover `*.egg-info` in the project
folder would otherwise keep a file in the sdist that pyproject no longer names), the wheel from
the sdist as `python -m build` does by default."""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD_INPUTS = ("pyproject.toml", "MANIFEST.in", "README.md", "docs", "euchre_sim")
CACHES = shutil.ignore_patterns("__pycache__", "*.pyc")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(project copy, sdist path, wheel path)."""
    base = tmp_path_factory.mktemp("packaging")
    project = base / "project"
    project.mkdir()
    for name in BUILD_INPUTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=CACHES)
        else:
            shutil.copy2(source, project / name)
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist),
                    str(project)], check=True, capture_output=True, text=True)
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    return project, sdist, wheel


def _package_files(project: Path) -> set[str]:
    return {path.relative_to(project).as_posix()
            for path in (project / "euchre_sim").rglob("*") if path.is_file()}


def test_the_wheel_holds_every_file_of_the_package(built):
    project, _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        packaged = {name for name in archive.namelist() if name.startswith("euchre_sim/")}
    files = _package_files(project)
    assert {"euchre_sim/bidding/human.json", "euchre_sim/play/card_net.npz",
            "euchre_sim/play/card_net.json", "euchre_sim/web/static/index.html"} <= files
    assert packaged == files
    assert wheel.name.endswith("-py3-none-any.whl")


def test_the_sdist_holds_every_file_of_the_package(built):
    project, sdist, _ = built
    top = sdist.name.removesuffix(".tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.removeprefix(f"{top}/") for name in archive.getnames()}
    assert _package_files(project) | {"pyproject.toml", "README.md"} <= names


def test_every_page_and_image_the_readme_links_to_is_in_the_sdist(built):
    """The README is the package index's page too: the docs and images its relative links
    name travel with it (a link's #anchor aside)."""
    project, sdist, _ = built
    top = sdist.name.removesuffix(".tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.removeprefix(f"{top}/") for name in archive.getnames()}
    targets = {target.split("#")[0] for target in
               re.findall(r"\]\(([^)\s]+)\)", (project / "README.md").read_text())
               if "://" not in target and not target.startswith("#")}
    assert {"docs/python.md", "docs/chart.png", "docs/serve.png"} <= targets
    assert sorted(targets - names) == []


def test_the_installed_command_and_data_are_found(built, tmp_path):
    """Unpacked as an install would put it, the wheel's entry point names the Click app and the
    code reads its data files from there, not from the project folder."""
    project, _, wheel = built
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
        (entry_points,) = [name for name in archive.namelist()
                           if name.endswith(".dist-info/entry_points.txt")]
        assert "euchre-sim = euchre_sim.cli.main:cli" in archive.read(entry_points).decode()
    check = ("import json, euchre_sim\n"
             "from euchre_sim.bidding.params import HUMAN_FILE, human_fit\n"
             "from euchre_sim.cli.main import cli\n"
             "from euchre_sim.web.app import STATIC\n"
             "print(json.dumps({'package': euchre_sim.__file__, 'human': HUMAN_FILE,\n"
             "                  'params': len(human_fit()['params']), 'static': str(STATIC),\n"
             "                  'pages': sorted(p.name for p in STATIC.iterdir()),\n"
             "                  'commands': sorted(cli.every_command())}))\n")
    found = json.loads(subprocess.run(
        [sys.executable, "-c", check], cwd=tmp_path, check=True, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(site)}).stdout)
    assert found["package"] == str(site / "euchre_sim" / "__init__.py")
    assert found["human"] == str(site / "euchre_sim" / "bidding" / "human.json")
    assert found["params"] > 0
    assert found["static"] == str(site / "euchre_sim" / "web" / "static")
    assert found["pages"] == sorted(p.name for p in (project / "euchre_sim/web/static").iterdir())
    assert {"simulate", "advise", "serve"} <= set(found["commands"])

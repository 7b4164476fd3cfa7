"""Issue 77's third hostile round, the remaining cases: a damaged package manifest (empty,
lacking an entry, huge) and changed chunk sums are each one line naming the file, exit 2."""

import json

import pytest

from euchre_sim.core import package_data

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

"""tools/train_card_player.py's data: chunks written whole, a rerun trusting only the chunks
whose file says they were made by the same spec, the training set read back, the training
target (PyTorch, the optional extra: that test is skipped without it), and the trained layers
written as the net the package reads."""

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from euchre_sim.play.net_features import GENERAL_LAYOUT, LAYOUTS, ORDER_SEEN, STANDARD_LAYOUT
from euchre_sim.play.net_inference import MAX_ACTIVE, net_scores, new_net_work
from euchre_sim.play.net_weights import NET_FILES, nets_of, read_card_net
from euchre_sim.play.teaching_log import log_width

from . import naive

TOOL = Path(__file__).resolve().parent.parent / "tools" / "train_card_player.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("train_card_player", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_card_player"] = module  # its worker processes find make_chunk by name
    spec.loader.exec_module(module)
    module.CHUNK_DEALS = 2  # two deals a chunk: PIMC's decisions in seconds
    return module


def _generate(tool, data, chunks=2, seed=5, family="standard"):
    tool.generate(type("Args", (), {"data": str(data), "chunks": chunks, "seed": seed,
                                    "jobs": 1, "driver": "pimc", "family": family})())


def test_chunks_are_pimc_decisions_with_every_candidates_value_named_by_their_spec(tool,
                                                                                   tmp_path):
    _generate(tool, tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["pimc-s5-00000.npz", "pimc-s5-00001.npz"]
    with np.load(tmp_path / names[1]) as z:
        log, values, spec = z["log"], z["values"], json.loads(str(z["spec"]))
    assert spec == tool.chunk_spec("standard", 5, 1, "pimc")
    assert spec["preset"] == "online" and spec["deals"] == 2  # chunk 1: the second variant
    assert spec["values"] and spec["clear_z"] == 0  # every candidate over every world
    nl = STANDARD_LAYOUT
    label = nl.n_logged + nl.n_slots  # the column of PIMC's card
    assert log.shape[1] == log_width(nl) and log.shape[0] > 0
    candidates = log[:, nl.n_logged:label]
    assert (candidates.sum(axis=1) >= 2).all()
    assert candidates[np.arange(len(log)), log[:, label]].all()
    assert values.shape == (len(log), nl.n_slots)
    assert (np.isnan(values) == (candidates == 0)).all()
    best = np.nanmax(values, axis=1)
    assert (values[np.arange(len(log)), log[:, label]] == best).all(), \
        "without the race, PIMC's card is the best mean"


def test_a_rerun_remakes_only_the_chunks_it_cannot_prove_are_its_own(tool, tmp_path, capsys):
    _generate(tool, tmp_path)
    first = tmp_path / "pimc-s5-00000.npz"
    second = tmp_path / "pimc-s5-00001.npz"
    kept = second.stat().st_mtime_ns
    # chunk 0 replaced by one of another seed under its name, chunk 1 left alone
    with np.load(first) as z:
        log = z["log"]
    np.savez_compressed(first, log=log[:1], values=np.zeros((1, 24), np.float32),
                        spec=json.dumps(tool.chunk_spec("standard", 6, 0, "pimc")))
    capsys.readouterr()
    _generate(tool, tmp_path)
    assert "1 chunks done, 1 to make" in capsys.readouterr().out
    assert second.stat().st_mtime_ns == kept
    with np.load(first) as z:
        assert json.loads(str(z["spec"])) == tool.chunk_spec("standard", 5, 0, "pimc")
        assert np.array_equal(z["log"], log), "the same seed makes the same chunk"
    first.write_bytes(b"not a chunk")
    _generate(tool, tmp_path)
    with np.load(first) as z:
        assert np.array_equal(z["log"], log)


def test_the_training_set_holds_out_every_tenth_chunk_and_refuses_other_chunks(tool, tmp_path):
    _generate(tool, tmp_path, chunks=10)
    rows, held, summary, values = tool.read_chunks(str(tmp_path), "standard")
    with np.load(tmp_path / "pimc-s5-00009.npz") as z:
        held_rows, held_values = z["log"], z["values"]
    assert np.array_equal(rows[held], held_rows)
    assert np.array_equal(values[held], held_values, equal_nan=True)
    assert summary["chunks"] == 10 and summary["deals"] == 20 and summary["seeds"] == [5]
    chunk = tmp_path / "pimc-s5-00003.npz"
    spec = tool.chunk_spec("standard", 5, 3, "pimc")
    np.savez_compressed(chunk, log=held_rows, spec=json.dumps(spec))
    with pytest.raises(SystemExit, match="no candidate values"):
        tool.read_chunks(str(tmp_path), "standard")
    spec = spec | {"features": {"F_HAND": 0}}
    np.savez_compressed(chunk, log=held_rows, values=held_values, spec=json.dumps(spec))
    with pytest.raises(SystemExit, match="another feature layout"):
        tool.read_chunks(str(tmp_path), "standard")


def test_a_general_chunk_logs_the_general_nets_decisions_in_its_layout(tool, tmp_path):
    """--family general: chunk 0 plays Yooker (its first variant), logged in the general
    layout (its width and slots), and named so by its spec; the standard family's reader
    refuses it."""
    _generate(tool, tmp_path, chunks=1, family="general")
    with np.load(tmp_path / "pimc-s5-00000.npz") as z:
        log, values, spec = z["log"], z["values"], json.loads(str(z["spec"]))
    assert spec == tool.chunk_spec("general", 5, 0, "pimc") and spec["preset"] == "yooker"
    assert log.shape[1] == log_width(GENERAL_LAYOUT) and log.shape[0] > 0
    assert values.shape == (len(log), GENERAL_LAYOUT.n_slots)
    assert log[:, GENERAL_LAYOUT.flags + 3].all(), "the Yooker flag on every row"
    rows, _, summary, _ = tool.read_chunks(str(tmp_path), "general")
    assert summary["family"] == "general" and len(rows) == len(log)
    with pytest.raises(SystemExit, match="another feature layout"):
        tool.read_chunks(str(tmp_path), "standard")


def test_value_targets_are_the_values_softmax_with_a_share_on_pimcs_card(tool):
    """train's target (PyTorch: the optional extra, skipped without it), against the
    softmax written out by hand."""
    torch = pytest.importorskip("torch")
    values = np.full((2, 24), tool.NOT_A_CANDIDATE, dtype=np.float32)
    values[0, [3, 7]] = [0.5, 0.4]  # PIMC's card 3, a candidate 0.1 points behind
    values[1, [0, 1, 2]] = [-1.0, -1.0, -1.0]  # a three-way tie, PIMC's card 2
    got = tool.value_targets(torch.from_numpy(values), torch.tensor([3, 2]), 0.1, 0.3).numpy()
    e = np.exp(1.0)  # 0.1 points at a temperature of 0.1
    want = np.zeros((2, 24))
    want[0, 3], want[0, 7] = 0.7 * e / (e + 1) + 0.3, 0.7 / (e + 1)
    want[1, [0, 1]] = 0.7 / 3
    want[1, 2] = 0.7 / 3 + 0.3
    assert np.allclose(got, want, atol=1e-6)


@pytest.mark.parametrize("family", LAYOUTS)
def test_trained_layers_are_written_as_the_net_the_package_reads_and_plays_by(tool, tmp_path,
                                                                            family):
    """train's last step, without PyTorch: float32 layers as the trainer hands them over
    (weights[in, out], bias) written by `write_net`, read back by the package's reader, and
    the kernel's scores of random positions those of the layers' own forward pass (numpy)."""
    nl = LAYOUTS[family]
    rng = np.random.default_rng(7)
    widths = (nl.n_features, 12, 7, nl.n_slots)
    layers = [(rng.normal(0, 1, (a, b)).astype(np.float32), rng.normal(0, 1, b).astype(np.float32))
              for a, b in zip(widths, widths[1:], strict=False)]
    model = {"kind": "numpy layers"}
    tool.write_net(argparse.Namespace(out=str(tmp_path), family=family), layers, model,
                   {"chunks": 0}, {"train": 1, "held_out": 1}, 0.5, {"held_out": 0.5})
    net_file, provenance_file = NET_FILES[family]
    net = read_card_net(tmp_path / net_file, nl)
    provenance = json.loads((tmp_path / provenance_file).read_text())
    assert provenance["model"] == model and family in provenance["what"]
    nw = new_net_work(nets_of(net))
    active = np.zeros(MAX_ACTIVE, dtype=np.int64)
    for n in (0, 1, 9, 40, 75):
        active[:n] = rng.choice(nl.n_features, size=n, replace=False)
        net_scores(net, active, n, nw)
        want = naive.mlp_scores(layers, active[:n])
        assert np.allclose(nw.out[:nl.n_slots], want, rtol=1e-4,
                           atol=1e-3 * (1 + np.abs(want).max()))


def test_install_puts_a_net_made_before_where_the_package_reads_it_and_records_it(
        tool, tmp_path, monkeypatch):
    """`install DIR`: the net's weights and provenance copied into the package's folder
    (here a stand-in), the weights read against the layout first, their path recorded (the
    manifest's sha256); a net made in the seat's suit order stays so."""
    made, package = tmp_path / "made", tmp_path / "package"
    made.mkdir()
    package.mkdir()
    rng = np.random.default_rng(3)
    nl = STANDARD_LAYOUT
    widths = (nl.n_features, 6, 5, nl.n_slots)
    layers = [(rng.normal(0, 1, (a, b)).astype(np.float32), rng.normal(0, 1, b).astype(np.float32))
              for a, b in zip(widths, widths[1:], strict=False)]
    tool.write_net(argparse.Namespace(out=str(made), family="standard"), layers, {}, {},
                   {"train": 1, "held_out": 1}, 0.5, {})
    recorded = []
    monkeypatch.setattr(tool, "PACKAGE", str(package))
    monkeypatch.setattr(tool, "record", recorded.extend)
    tool.install(argparse.Namespace(data=str(made), family="standard"))
    for name in NET_FILES["standard"]:
        assert (package / name).read_bytes() == (made / name).read_bytes()
    assert recorded == [str(package / NET_FILES["standard"][0])]
    assert read_card_net(package / NET_FILES["standard"][0]).suit_order[0] == ORDER_SEEN
    (made / NET_FILES["standard"][0]).write_bytes(b"not a net")
    with pytest.raises(Exception, match="not a card net"):
        tool.install(argparse.Namespace(data=str(made), family="standard"))

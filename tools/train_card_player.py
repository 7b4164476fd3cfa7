"""Make the learned card player's net (`--play learned`): PIMC's decisions as data, a small
multilayer perceptron trained on them, the weights and their provenance as package data.

    python tools/train_card_player.py generate DATA [--chunks N] [--seed S] [--jobs J]
        [--driver pimc|learned]
    python tools/train_card_player.py train DATA [--seed S] [--hidden 128,64] [--epochs E]
        [--features all|logged] [--init NET] [--out euchre_sim/play]
    python tools/train_card_player.py remake DATA [--jobs J]

`generate` deals chunk after chunk (CHUNK_DEALS deals each, `simulate`'s deals of seed S) and
logs every decision PIMC (K = 50, with inference) makes by its worlds (`play.teaching`). Chunk
i plays under rule set VARIANTS[i % 4] and bidder BIDDERS[(i // 4) % 2]. Each chunk is one file,
written whole and renamed into place, holding what made it; a rerun skips every chunk whose
file says it was made by the same seed, variant, bidder and driver, so a run that is stopped
loses only the chunks in flight. `--driver learned` plays by the shipped net and logs PIMC's
card at the positions that play reaches (DAgger; its chunks are kept apart by name).

`remake DATA` makes the shipped net from nothing, step by step (REMAKE): 100 chunks of PIMC's
decisions (seed 41), a first net trained 8 epochs on them, 50 chunks of PIMC's decisions at
the positions that net's own play reaches (seed 42, DAgger), a second net trained 14 epochs on
all 150 (hidden 128,64, seed 41), both on the logged features only, and the shipped net: the
second with the derived features added at zero weight, trained EPOCHS_WIDE more epochs on every
feature. About two hours on 2 cores.

`train` reads every chunk of DATA, holds out each chunk whose index is 9 mod 10, and fits
scikit-learn's MLPClassifier (ReLU, Adam, the seed fixes it) on the rest: features in, PIMC's
card (canonical slot) out. Held-out accuracy is counted as the player decides: the legal
candidate with the highest score against PIMC's. The inputs are the logged features and those
derived from them (`card_net.derived_features`; `--features logged`: the logged only, the
net written with zero weights for the others). `--init NET` goes on from a net (one of the
logged features only is widened the same way). Writes card_net.npz and card_net.json (data,
seeds, PIMC settings, commit, accuracy) into --out.

scikit-learn is the optional extra `train` (pip install -e .[train]); nothing at run time
needs it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.play.card_net import (  # noqa: E402
    FEATURE_LAYOUT,
    LOG_LABEL,
    N_FEATURES,
    N_LOGGED,
    N_SLOTS,
    NET_FILE,
    PROVENANCE_FILE,
    card_net_digest,
    derived_features,
    net_of,
    read_card_net,
    save_card_net,
)
from euchre_sim.play.models import DEFAULT_WORLDS  # noqa: E402
from euchre_sim.play.pimc import CLEAR_Z  # noqa: E402
from euchre_sim.play.player import Player  # noqa: E402
from euchre_sim.play.teaching import teaching_log  # noqa: E402

CHUNK_DEALS = 500
VARIANTS = (
    ("standard", ()),
    ("online", ()),
    ("standard", ("defend_alone=true", "lone_player_plays_last=true")),
    ("standard", ("canadian_loner=true", "no_trump=true")),
)
BIDDERS = ("human", "rules")
HELD_OUT = 9  # chunks whose index is 9 mod 10 are held out
EPOCHS_WIDE = 5  # the last step: every feature, from the logged-only net
SAMPLE = 200_000  # training decisions whose accuracy is reported beside the held-out


def chunk_spec(seed: int, index: int, driver: str) -> dict:
    preset, settings = VARIANTS[index % len(VARIANTS)]
    return {"seed": seed, "index": index, "deals": CHUNK_DEALS, "preset": preset,
            "set": list(settings), "bidder": BIDDERS[(index // len(VARIANTS)) % len(BIDDERS)],
            "driver": driver, "worlds": DEFAULT_WORLDS, "clear_z": CLEAR_Z,
            "features": FEATURE_LAYOUT} | (
                {"driver_net": card_net_digest()} if driver == "learned" else {})


def chunk_path(data: str, spec: dict) -> str:
    return os.path.join(data, f"{spec['driver']}-s{spec['seed']}-{spec['index']:05d}.npz")


def chunk_is_done(path: str, spec: dict) -> bool:
    """The file exists and says it was made by exactly `spec`."""
    try:
        with np.load(path) as z:
            return json.loads(str(z["spec"])) == spec
    except (OSError, ValueError, KeyError):
        return False


def make_chunk(data: str, spec: dict) -> int:
    rules = build_rules(spec["preset"], spec["set"])
    player = Player(spec["bidder"], spec["driver"], spec["worlds"])
    log = teaching_log(rules, player, spec["seed"], spec["index"] * spec["deals"], spec["deals"])
    path = chunk_path(data, spec)
    tmp = f"{path}.{os.getpid()}.tmp.npz"
    np.savez_compressed(tmp, log=log, spec=json.dumps(spec))
    os.replace(tmp, path)
    return log.shape[0]


def generate(args) -> None:
    os.makedirs(args.data, exist_ok=True)
    specs = [chunk_spec(args.seed, i, args.driver) for i in range(args.chunks)]
    todo = [s for s in specs if not chunk_is_done(chunk_path(args.data, s), s)]
    print(f"{len(specs) - len(todo)} chunks done, {len(todo)} to make", flush=True)
    start = time.time()
    made = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for spec, n in zip(todo, pool.map(make_chunk, [args.data] * len(todo), todo),
                           strict=True):
            made += n
            print(json.dumps({"chunk": spec["index"], "decisions": n,
                              "per_s": round(made / (time.time() - start))}), flush=True)


def read_chunks(data: str) -> tuple[np.ndarray, np.ndarray, dict]:
    """All logged rows of DATA, whether each is held out, and what made them."""
    logs, held, specs = [], [], []
    for name in sorted(os.listdir(data)):
        if not name.endswith(".npz") or ".tmp" in name:
            continue
        with np.load(os.path.join(data, name)) as z:
            spec = json.loads(str(z["spec"]))
            if spec.get("features") != FEATURE_LAYOUT:
                raise SystemExit(f"{name}: logged with another feature layout; generate anew")
            logs.append(z["log"])
        held.append(np.full(logs[-1].shape[0], spec["index"] % 10 == HELD_OUT))
        specs.append(spec)
    summary = {"chunks": len(specs), "deals": sum(s["deals"] for s in specs),
               "seeds": sorted({s["seed"] for s in specs}),
               "drivers": sorted({s["driver"] for s in specs}),
               "driver_nets": sorted({s["driver_net"] for s in specs if "driver_net" in s}),
               "variants": [{"preset": p, "set": list(s)} for p, s in VARIANTS],
               "bidders": list(BIDDERS), "worlds": specs[0]["worlds"],
               "clear_z": specs[0]["clear_z"], "chunk_deals": CHUNK_DEALS}
    return np.concatenate(logs), np.concatenate(held), summary


def chosen_slots(scores: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The legal candidate each row's scores rank highest, as the player decides."""
    masked = np.where(rows[:, N_LOGGED:LOG_LABEL] > 0, scores, -np.inf)
    return masked.argmax(axis=1)


def train(args) -> None:
    """Fit epoch by epoch, writing the net and its provenance after each (a stopped run
    leaves the last finished epoch's net)."""
    from sklearn.neural_network import MLPClassifier

    rows, held, summary = read_chunks(args.data)
    parts = {"train": rows[~held], "held_out": rows[held]}
    del rows
    width = N_LOGGED if args.features == "logged" else N_FEATURES
    inputs = {name: net_inputs(part, width) for name, part in parts.items()}
    hidden = tuple(int(h) for h in args.hidden.split(","))
    model = MLPClassifier(hidden_layer_sizes=hidden, activation="relu", solver="adam",
                          alpha=args.alpha, batch_size=args.batch, learning_rate_init=args.lr,
                          shuffle=True, random_state=args.seed)
    labels = parts["train"][:, LOG_LABEL].astype(np.int64)
    if args.init:  # go on from a net: the layers set after a first step has shaped them
        model.partial_fit(inputs["train"][:1], labels[:1], classes=np.arange(N_SLOTS))
        net = read_card_net(args.init, (N_LOGGED, N_FEATURES))
        dtype = model.coefs_[0].dtype
        model.coefs_ = [w.astype(dtype) for w in (widened(net.w1), net.w2, net.w3t.T)]
        model.intercepts_ = [b.astype(dtype) for b in (net.b1, net.b2, net.b3)]
    start = time.time()
    for epoch in range(1, args.epochs + 1):
        model.partial_fit(inputs["train"], labels, classes=np.arange(N_SLOTS))
        accuracy = {"train_sample": held_accuracy(model, inputs["train"][:SAMPLE],
                                                  parts["train"][:SAMPLE]),
                    "held_out": held_accuracy(model, inputs["held_out"], parts["held_out"])}
        write_net(args, model, summary, parts, epoch, accuracy, time.time() - start)
        print(json.dumps({"epoch": epoch, "loss": round(model.loss_, 4), **accuracy,
                          "seconds": round(time.time() - start)}), flush=True)


def net_inputs(rows: np.ndarray, width: int = N_FEATURES, block: int = 1 << 20) -> np.ndarray:
    """Dense float32 inputs (the layers' products use every core): the logged features and,
    to `width`, those derived from them, filled a block of rows at a time."""
    x = np.empty((len(rows), width), dtype=np.float32)
    for start in range(0, len(rows), block):
        part = rows[start:start + block, :N_LOGGED]
        x[start:start + block, :N_LOGGED] = part
        if width > N_LOGGED:
            x[start:start + block, N_LOGGED:] = derived_features(part)
    return x


def file_sha256(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def widened(w1: np.ndarray) -> np.ndarray:
    """A first layer's weights for every feature: a net made before the derived features
    (rows for the logged ones only) gets zero rows for them."""
    if w1.shape[0] == N_LOGGED:
        return np.vstack([w1, np.zeros((N_FEATURES - N_LOGGED, w1.shape[1]), w1.dtype)])
    if w1.shape[0] != N_FEATURES:
        raise SystemExit(f"--init: a net of {w1.shape[0]} features fits neither layout")
    return w1


def held_accuracy(model, x: np.ndarray, rows: np.ndarray) -> float:
    """The share of rows where the legal candidate the model ranks first is PIMC's card."""
    chosen = chosen_slots(model.predict_proba(x), rows)
    return round(float((chosen == rows[:, LOG_LABEL]).mean()), 4)


def write_net(args, model, summary, parts, epoch, accuracy, seconds) -> None:
    from sklearn import __version__ as sklearn_version

    hidden = [int(h) for h in args.hidden.split(",")]
    os.makedirs(args.out, exist_ok=True)
    layers = list(zip(model.coefs_, model.intercepts_, strict=True))
    layers[0] = (widened(layers[0][0]), layers[0][1])  # a logged-only net scores the same
    save_card_net(os.path.join(args.out, NET_FILE), net_of(layers))
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or None
    candidates = parts["held_out"][:, N_LOGGED:LOG_LABEL].sum(axis=1)
    provenance = {
        "what": "the learned card player's net: PIMC's decisions, learned",
        "made_by": "tools/train_card_player.py " + " ".join(sys.argv[1:]),
        "commit": commit,
        "data": summary | {"decisions": sum(len(p) for p in parts.values()),
                           "train_decisions": len(parts["train"]),
                           "held_out_decisions": len(parts["held_out"]),
                           "held_out": f"chunks whose index is {HELD_OUT} mod 10"},
        "model": {"library": f"scikit-learn {sklearn_version}", "kind": "MLPClassifier",
                  "features": N_FEATURES, "trained_on": args.features,
                  "init": args.init and {"file": os.path.abspath(args.init),
                                         "sha256": file_sha256(args.init)},
                  "hidden": hidden, "outputs": N_SLOTS,
                  "activation": "relu", "alpha": args.alpha, "batch": args.batch,
                  "learning_rate": args.lr, "epochs": epoch, "seed": args.seed,
                  "train_seconds": round(seconds)},
        "accuracy": accuracy | {
            "meaning": "share of decisions where the legal candidate the net ranks first is "
                       "PIMC's card (train_sample: the first 200,000 training decisions)",
            "held_out_by_chance": round(float((1.0 / candidates).mean()), 4)},
    }
    with open(os.path.join(args.out, PROVENANCE_FILE), "w") as f:
        json.dump(provenance, f, indent=2)
        f.write("\n")


REMAKE = (  # the shipped net's recipe: PIMC's data, a first net, its own positions, a second
    #        net on the logged features, then every feature from there
    ("generate", {"chunks": 100, "seed": 41, "driver": "pimc"}),
    ("train", {"epochs": 8, "features": "logged", "init": None}),
    ("generate", {"chunks": 50, "seed": 42, "driver": "learned"}),
    ("train", {"epochs": 14, "features": "logged", "init": None}),
    ("train", {"epochs": EPOCHS_WIDE, "features": "all", "init": "previous"}),
)


def remake(args) -> None:
    """The shipped weights from nothing: each step of REMAKE in turn (a rerun skips the
    chunks made); the first net is written where the second is, and drives the DAgger data."""
    for step, options in REMAKE:
        print(json.dumps({"step": step, **options}), flush=True)
        if step == "generate":
            generate(argparse.Namespace(data=args.data, jobs=args.jobs, **options))
        else:
            init = os.path.join(args.out, NET_FILE) if options["init"] else None
            train(argparse.Namespace(data=args.data, out=args.out, seed=41, hidden="128,64",
                                     alpha=1e-5, batch=1024, lr=1e-3, **options | {"init": init}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("data")
    g.add_argument("--chunks", type=int, default=200)
    g.add_argument("--seed", type=int, default=41)
    g.add_argument("--jobs", type=int, default=os.cpu_count())
    g.add_argument("--driver", choices=("pimc", "learned"), default="pimc")
    t = sub.add_parser("train")
    t.add_argument("data")
    t.add_argument("--seed", type=int, default=41)
    t.add_argument("--hidden", default="128,64")
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--alpha", type=float, default=1e-5)
    t.add_argument("--batch", type=int, default=1024)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--out", default=os.path.join(ROOT, "euchre_sim", "play"))
    t.add_argument("--init", help="a card_net.npz to go on training from")
    t.add_argument("--features", choices=("all", "logged"), default="all",
                   help="every feature, or only the logged ones (the derived start at zero)")
    r = sub.add_parser("remake")
    r.add_argument("data")
    r.add_argument("--jobs", type=int, default=os.cpu_count())
    r.add_argument("--out", default=os.path.join(ROOT, "euchre_sim", "play"))
    args = parser.parse_args()
    {"generate": generate, "train": train, "remake": remake}[args.command](args)


if __name__ == "__main__":
    main()

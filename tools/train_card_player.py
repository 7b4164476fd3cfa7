"""Make the learned card player's net (`--play learned`): PIMC's decisions as data, a small
multilayer perceptron trained on them, the weights and their provenance as package data.

    python tools/train_card_player.py generate DATA [--chunks N] [--seed S] [--jobs J]
        [--driver pimc|learned] [--values]
    python tools/train_card_player.py train DATA [--seed S] [--hidden 128,64] [--epochs E]
        [--features all|logged] [--init NET] [--out euchre_sim/play]
    python tools/train_card_player.py train-values DATA [--temperature 0.1] [--epochs 8] ...
    python tools/train_card_player.py remake DATA [--jobs J] [--values]

`generate` deals chunk after chunk (CHUNK_DEALS deals each, `simulate`'s deals of seed S) and
logs every decision PIMC (K = 50, with inference) makes by its worlds (`play.teaching`). Chunk
i plays under rule set VARIANTS[i % 4] and bidder BIDDERS[(i // 4) % 2]. Each chunk is one file,
written whole and renamed into place, holding what made it; a rerun skips every chunk whose
file says it was made by the same seed, variant, bidder and driver, so a run that is stopped
loses only the chunks in flight. `--driver learned` plays by the shipped net and logs PIMC's
card at the positions that play reaches (DAgger; its chunks are kept apart by name).
`--values` also keeps PIMC's value of every candidate (the deciding side's mean points over
its 50 worlds; every candidate takes every world, no race, so PIMC's card is the best mean).

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

`train-values` (PyTorch) fits the same net to PIMC's values instead of its one card: over a
decision's candidates, the softmax of the net's scores against the softmax of the values at
--temperature points (a near-tie is taught as one, a costly mistake as costly), with
--card-weight of the target on PIMC's own card (where values tie, PIMC plays the
conventional player's card, and that tie-break is worth learning), Adam with a
cosine learning rate, the seed fixing it. Besides agreement it reports the held-out regret:
the points a decision the net's card gives up against PIMC's best. `remake DATA --values`
runs that recipe (REMAKE_VALUES): 100 valued chunks of PIMC's play (seed 51), a first net,
40 valued chunks at that net's own positions (seed 52), the net on all 140: about 20 minutes
on 2 cores.

scikit-learn and PyTorch are the optional extra `train` (pip install -e .[train]); nothing
at run time needs them.
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
NOT_A_CANDIDATE = -1e9  # a value and score no candidate reaches (the softmax gives it 0)
SAMPLE = 200_000  # training decisions whose accuracy is reported beside the held-out


def chunk_spec(seed: int, index: int, driver: str, values: bool = False) -> dict:
    """What makes chunk `index`; with values, PIMC values every candidate over all its
    worlds (no race) and the chunk keeps the values."""
    preset, settings = VARIANTS[index % len(VARIANTS)]
    return {"seed": seed, "index": index, "deals": CHUNK_DEALS, "preset": preset,
            "set": list(settings), "bidder": BIDDERS[(index // len(VARIANTS)) % len(BIDDERS)],
            "driver": driver, "worlds": DEFAULT_WORLDS, "clear_z": 0.0 if values else CLEAR_Z,
            "features": FEATURE_LAYOUT} | (
                {"driver_net": card_net_digest()} if driver == "learned" else {}) | (
                {"values": True} if values else {})


def chunk_path(data: str, spec: dict) -> str:
    kind = spec["driver"] + ("-values" if spec.get("values") else "")
    return os.path.join(data, f"{kind}-s{spec['seed']}-{spec['index']:05d}.npz")


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
    log, values = teaching_log(rules, player, spec["seed"], spec["index"] * spec["deals"],
                               spec["deals"], spec.get("values", False))
    path = chunk_path(data, spec)
    tmp = f"{path}.{os.getpid()}.tmp.npz"
    np.savez_compressed(tmp, log=log, spec=json.dumps(spec),
                        **({} if values is None else {"values": values}))
    os.replace(tmp, path)
    return log.shape[0]


def generate(args) -> None:
    os.makedirs(args.data, exist_ok=True)
    specs = [chunk_spec(args.seed, i, args.driver, args.values) for i in range(args.chunks)]
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


def read_chunks(data: str, values: bool = False) -> tuple:
    """All logged rows of DATA, whether each is held out, and what made them; with values,
    also their candidates' values (every chunk must keep them: `generate --values`)."""
    logs, held, specs, valued = [], [], [], []
    for name in sorted(os.listdir(data)):
        if not name.endswith(".npz") or ".tmp" in name:
            continue
        with np.load(os.path.join(data, name)) as z:
            spec = json.loads(str(z["spec"]))
            if spec.get("features") != FEATURE_LAYOUT:
                raise SystemExit(f"{name}: logged with another feature layout; generate anew")
            logs.append(z["log"])
            if values:
                if "values" not in z:
                    raise SystemExit(f"{name}: no values kept; generate --values")
                valued.append(z["values"])
        held.append(np.full(logs[-1].shape[0], spec["index"] % 10 == HELD_OUT))
        specs.append(spec)
    summary = {"chunks": len(specs), "deals": sum(s["deals"] for s in specs),
               "seeds": sorted({s["seed"] for s in specs}),
               "drivers": sorted({s["driver"] for s in specs}),
               "driver_nets": sorted({s["driver_net"] for s in specs if "driver_net" in s}),
               "variants": [{"preset": p, "set": list(s)} for p, s in VARIANTS],
               "bidders": list(BIDDERS), "worlds": specs[0]["worlds"],
               "clear_z": specs[0]["clear_z"], "chunk_deals": CHUNK_DEALS}
    if values:
        return np.concatenate(logs), np.concatenate(held), summary, np.concatenate(valued)
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
        write_net(args, zip(model.coefs_, model.intercepts_, strict=True),
                  sklearn_model(args, epoch, time.time() - start), summary,
                  {name: len(part) for name, part in parts.items()}, by_chance(parts["held_out"]),
                  accuracy)
        print(json.dumps({"epoch": epoch, "loss": round(model.loss_, 4), **accuracy,
                          "seconds": round(time.time() - start)}), flush=True)


def value_targets(valued, labels, temperature: float, card_weight: float):
    """Each decision's training target over the slots (torch): the softmax of its
    candidates' values (NOT_A_CANDIDATE elsewhere) at `temperature` points, times
    1 - card_weight, plus card_weight on PIMC's card (`labels`)."""
    import torch

    target = torch.softmax(valued / temperature, 1) * (1 - card_weight)
    target[torch.arange(len(labels)), labels] += card_weight
    return target


def train_values(args) -> None:
    """PIMC's values as targets (PyTorch): the net's scores over a decision's candidates, a
    softmax, fitted to `value_targets` (a near-tie is taught as one, a costly mistake as
    costly, PIMC's tie-break by the card's share). Epoch by epoch (Adam, cosine learning
    rate, the seed fixes it), the net and its provenance written after each."""
    import torch

    torch.manual_seed(args.seed)
    rows, held, summary, values = read_chunks(args.data, values=True)
    parts = {"train": np.flatnonzero(~held), "held_out": np.flatnonzero(held)}
    x = torch.from_numpy(feature_bits(rows))
    cands = torch.from_numpy(rows[:, N_LOGGED:LOG_LABEL] > 0)
    labels = torch.from_numpy(rows[:, LOG_LABEL].astype(np.int64))
    valued = torch.from_numpy(np.nan_to_num(values, nan=NOT_A_CANDIDATE))
    hidden = [int(h) for h in args.hidden.split(",")]
    widths = [N_FEATURES, *hidden, N_SLOTS]
    layers = []
    for a, b in zip(widths, widths[1:], strict=False):
        layers += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers[:-1])
    steps = args.epochs * -(-len(parts["train"]) // args.batch)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.alpha)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    order = torch.Generator().manual_seed(args.seed)
    train_rows = torch.from_numpy(parts["train"])

    def scores(b):
        return model(x[b].float()).masked_fill(~cands[b], NOT_A_CANDIDATE)

    def measured(index):
        """Agreement with PIMC's card and the points given up against its best value."""
        agree = regret = 0.0
        with torch.no_grad():
            for start in range(0, len(index), 1 << 16):
                b = torch.from_numpy(index[start:start + (1 << 16)])
                choice = scores(b).argmax(1)
                agree += float((choice == labels[b]).sum())
                v = valued[b]
                regret += float((v.max(1).values - v.gather(1, choice[:, None])[:, 0]).sum())
        return round(agree / len(index), 4), round(regret / len(index), 5)

    sizes = {name: len(index) for name, index in parts.items()}
    chance = by_chance(rows[parts["held_out"]])
    start = time.time()
    for epoch in range(1, args.epochs + 1):
        model.train()
        for b in train_rows[torch.randperm(len(train_rows), generator=order)].split(args.batch):
            target = value_targets(valued[b], labels[b], args.temperature, args.card_weight)
            loss = -(target * torch.log_softmax(scores(b), 1)).sum(1)
            opt.zero_grad(set_to_none=True)
            loss.mean().backward()
            opt.step()
            schedule.step()
        model.eval()
        accuracy = {}
        for name, index in (("train_sample", parts["train"][:SAMPLE]),
                            ("held_out", parts["held_out"])):
            accuracy[name], accuracy[f"{name}_regret"] = measured(index)
        linear = [m for m in model if isinstance(m, torch.nn.Linear)]
        write_net(args, [(m.weight.detach().numpy().T, m.bias.detach().numpy())
                         for m in linear],
                  {"library": f"torch {torch.__version__}", "kind": "MLP, soft targets",
                   "features": N_FEATURES, "hidden": hidden, "outputs": N_SLOTS,
                   "activation": "relu", "targets": "softmax of PIMC's candidate values",
                   "temperature": args.temperature, "card_weight": args.card_weight,
                   "weight_decay": args.alpha,
                   "batch": args.batch, "learning_rate": args.lr, "schedule": "cosine",
                   "epochs": epoch, "seed": args.seed, "threads": torch.get_num_threads(),
                   "train_seconds": round(time.time() - start)},
                  summary, sizes, chance, accuracy)
        print(json.dumps({"epoch": epoch, **accuracy, "seconds": round(time.time() - start)}),
              flush=True)


def feature_bits(rows: np.ndarray, block: int = 1 << 20) -> np.ndarray:
    """The net's inputs as 0/1 bytes (a quarter of float32's room), a block at a time."""
    x = np.empty((len(rows), N_FEATURES), dtype=np.uint8)
    for start in range(0, len(rows), block):
        x[start:start + block] = net_inputs(rows[start:start + block])
    return x


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


def by_chance(rows: np.ndarray) -> float:
    """The agreement with PIMC's card of a candidate drawn at random."""
    return round(float((1.0 / rows[:, N_LOGGED:LOG_LABEL].sum(axis=1)).mean()), 4)


def write_net(args, layers, model: dict, summary, sizes: dict, chance: float,
              accuracy: dict) -> None:
    """The net (three (weights[in, out], bias) layers) and its provenance into --out."""
    os.makedirs(args.out, exist_ok=True)
    layers = list(layers)
    layers[0] = (widened(layers[0][0]), layers[0][1])  # a logged-only net scores the same
    save_card_net(os.path.join(args.out, NET_FILE), net_of(layers))
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or None
    provenance = {
        "what": "the learned card player's net: PIMC's decisions, learned",
        "made_by": "tools/train_card_player.py " + " ".join(sys.argv[1:]),
        "commit": commit,
        "data": summary | {"decisions": sum(sizes.values()),
                           "train_decisions": sizes["train"],
                           "held_out_decisions": sizes["held_out"],
                           "held_out": f"chunks whose index is {HELD_OUT} mod 10"},
        "model": model,
        "accuracy": accuracy | {
            "meaning": "share of decisions where the legal candidate the net ranks first is "
                       "PIMC's card (train_sample: the first 200,000 training decisions)"
                       + ("; regret: the points a decision the net's card gives up against "
                          "the best candidate by PIMC's values" if "held_out_regret" in accuracy
                          else ""),
            "held_out_by_chance": chance},
    }
    with open(os.path.join(args.out, PROVENANCE_FILE), "w") as f:
        json.dump(provenance, f, indent=2)
        f.write("\n")


def sklearn_model(args, epoch, seconds) -> dict:
    from sklearn import __version__ as sklearn_version

    return {"library": f"scikit-learn {sklearn_version}", "kind": "MLPClassifier",
            "features": N_FEATURES, "trained_on": args.features,
            "init": args.init and {"file": os.path.abspath(args.init),
                                   "sha256": file_sha256(args.init)},
            "hidden": [int(h) for h in args.hidden.split(",")], "outputs": N_SLOTS,
            "activation": "relu", "alpha": args.alpha, "batch": args.batch,
            "learning_rate": args.lr, "epochs": epoch, "seed": args.seed,
            "train_seconds": round(seconds)}


REMAKE = (  # the shipped net's recipe: PIMC's data, a first net, its own positions, a second
    #        net on the logged features, then every feature from there
    ("generate", {"chunks": 100, "seed": 41, "driver": "pimc"}),
    ("train", {"epochs": 8, "features": "logged", "init": None}),
    ("generate", {"chunks": 50, "seed": 42, "driver": "learned"}),
    ("train", {"epochs": 14, "features": "logged", "init": None}),
    ("train", {"epochs": EPOCHS_WIDE, "features": "all", "init": "previous"}),
)


REMAKE_VALUES = (  # PIMC's values as targets: its data, a first net, its own positions, the net
    ("generate", {"chunks": 100, "seed": 51, "driver": "pimc", "values": True}),
    ("train-values", {}),
    ("generate", {"chunks": 40, "seed": 52, "driver": "learned", "values": True}),
    ("train-values", {}),
)
VALUES_TRAINING = {"seed": 41, "hidden": "128,64", "epochs": 8, "alpha": 1e-6, "batch": 2048,
                   "lr": 2e-3, "temperature": 0.1, "card_weight": 0.3}


def remake(args) -> None:
    """A net from nothing: each step of REMAKE (--values: REMAKE_VALUES) in turn (a rerun
    skips the chunks made); the first net is written where the last is, and drives the
    DAgger data."""
    for step, options in REMAKE_VALUES if args.values else REMAKE:
        print(json.dumps({"step": step, **options}), flush=True)
        if step == "generate":
            generate(argparse.Namespace(data=args.data, jobs=args.jobs,
                                        **{"values": False} | options))
        elif step == "train-values":
            train_values(argparse.Namespace(data=args.data, out=args.out, **VALUES_TRAINING))
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
    g.add_argument("--values", action="store_true",
                   help="keep PIMC's value of every candidate (all worlds, no race)")
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
    v = sub.add_parser("train-values")
    v.add_argument("data")
    v.add_argument("--out", default=os.path.join(ROOT, "euchre_sim", "play"))
    for name, default in VALUES_TRAINING.items():
        v.add_argument("--" + name.replace("_", "-"), type=type(default), default=default)
    r = sub.add_parser("remake")
    r.add_argument("data")
    r.add_argument("--values", action="store_true", help="the recipe of PIMC's values as "
                   "targets (REMAKE_VALUES), not the shipped net's")
    r.add_argument("--jobs", type=int, default=os.cpu_count())
    r.add_argument("--out", default=os.path.join(ROOT, "euchre_sim", "play"))
    args = parser.parse_args()
    {"generate": generate, "train": train, "train-values": train_values,
     "remake": remake}[args.command](args)


if __name__ == "__main__":
    main()

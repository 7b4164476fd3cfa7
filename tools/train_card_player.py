"""Make the learned card player's net (`--play learned`): PIMC's valued decisions as data, a
small multilayer perceptron trained on them, the weights and their provenance as package data.

    python tools/train_card_player.py generate DATA [--chunks N] [--seed S] [--jobs J]
        [--driver pimc|learned] [--family standard|general]
    python tools/train_card_player.py train DATA [--temperature 0.1] [--card-weight 0.3]
        [--epochs 8] [--seed 41] [--out euchre_sim/play] ...
    python tools/train_card_player.py remake DATA [--jobs J] [--family standard|general]
    python tools/train_card_player.py install DIR [--family standard|general]

Each command takes --family: the standard net (24 French cards, a suit for trump) or the
general one (every other deal: Yooker, Benny, 28 and 32 cards, no-trump), each with its
rule sets (VARIANTS), its layout, its recipe (REMAKE) and its files (net_weights.NET_FILES).

`generate` deals chunk after chunk (CHUNK_DEALS deals each, `simulate`'s deals of seed S) and
logs every decision PIMC (K = 50, with inference) makes by its worlds (`play.teaching`), with
PIMC's value of every candidate (the deciding side's mean points over its 50 worlds; every
candidate takes every world, no race, so PIMC's card is the best mean). Chunk i plays under
rule set VARIANTS[i % 4] and bidder BIDDERS[(i // 4) % 2]. Each chunk is one file, written
whole and renamed into place, holding what made it; a rerun skips every chunk whose file says
it was made by the same seed, variant, bidder and driver, so a run that is stopped loses only
the chunks in flight. `--driver learned` plays by the package's net and logs PIMC's values at
the positions that play reaches (DAgger; its chunks are kept apart by name and name the
driving net's sha256).

`train` (PyTorch) reads every chunk of DATA, holds out each chunk whose index is 9 mod 10, and
fits the net on the rest: over a decision's candidates, the softmax of the net's scores against
the softmax of PIMC's values at --temperature points (a near-tie is taught as one, a costly
mistake as costly), with --card-weight of the target on PIMC's own card (where values tie,
PIMC plays the conventional player's card, and that tie-break is worth learning); Adam with a
cosine learning rate, the seed fixing it. The inputs are the logged features and those derived
from them (`net_features.derived_features`). It reports agreement with PIMC's card as the player
decides (the legal candidate the net ranks first) and the held-out regret (the points a
decision the net's card gives up against PIMC's best), and writes card_net.npz and
card_net.json (data, seeds, PIMC settings, commit, model, accuracy) into --out after each
epoch.

`remake DATA` makes the shipped net from nothing, step by step (REMAKE): 100 chunks of PIMC's
valued decisions (seed 51), a first net, 40 chunks at the positions that net's own play
reaches (seed 52, DAgger), the net on all 140, each net written where the package reads it.
About 20 minutes on 2 cores.

`install DIR` puts a net made before (its weights and provenance, as `train` writes them, in
DIR: e.g. tools/next_nets/, remade nets waiting for their atlases) where the package reads
it, its sha256 into the package data's manifest.

PyTorch is the optional extra `train` (pip install -e .[train]); nothing at run time needs it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from euchre_sim.core.package_data import record  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.play.models import DEFAULT_WORLDS, play_model  # noqa: E402
from euchre_sim.play.net_features import (  # noqa: E402
    LAYOUTS,
    derived_features,
    feature_layout,
)
from euchre_sim.play.net_weights import (  # noqa: E402
    NET_FILES,
    card_net_digest,
    net_of,
    read_card_net,
    save_card_net,
)
from euchre_sim.play.player import Player  # noqa: E402
from euchre_sim.play.teaching import TEACHING_CLEAR_Z, teaching_log  # noqa: E402

CHUNK_DEALS = 500
VARIANTS = {  # the rule sets each family's chunks cycle over
    "standard": (
        ("standard", ()),
        ("online", ()),
        ("standard", ("defend_alone=true", "lone_player_plays_last=true")),
        ("standard", ("canadian_loner=true", "no_trump=true")),
    ),
    # every deal the standard net does not know: its chunks log those decisions only (the
    # suit contracts of a 24-card no-trump table are the standard net's)
    "general": (
        ("yooker", ()),
        ("standard", ("deck=28",)),
        ("standard", ("deck=32", "defend_alone=true")),
        ("standard", ("joker=true",)),
        ("online", ("no_trump=true",)),
        ("yooker", ("joker=true", "no_trump=true", "lone_player_plays_last=true")),
        ("online", ("deck=32", "joker=true", "no_trump=true", "canadian_loner=true")),
        ("standard", ("deck=28", "no_trump=true", "defend_alone=true",
                      "lone_player_plays_last=true")),
    ),
}
BIDDERS = ("human", "rules")
HELD_OUT = 9  # chunks whose index is 9 mod 10 are held out
PACKAGE = os.path.join(ROOT, "euchre_sim", "play")  # where the package reads its net
NOT_A_CANDIDATE = -1e9  # a value and score no candidate reaches (the softmax gives it 0)
SAMPLE = 200_000  # training decisions whose accuracy is reported beside the held-out


def chunk_spec(family: str, seed: int, index: int, driver: str) -> dict:
    """What makes chunk `index` of a family's data (PIMC values every candidate over all its
    worlds, no race, and the chunk keeps the values)."""
    variants = VARIANTS[family]
    preset, settings = variants[index % len(variants)]
    return {"family": family, "seed": seed, "index": index, "deals": CHUNK_DEALS,
            "preset": preset, "set": list(settings),
            "bidder": BIDDERS[(index // len(variants)) % len(BIDDERS)],
            "driver": driver, "worlds": DEFAULT_WORLDS, "clear_z": TEACHING_CLEAR_Z,
            "features": feature_layout(LAYOUTS[family]), "values": True} | (
                {"driver_net": card_net_digest(family)} if play_model(driver).uses_net else {})


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
    log, values = teaching_log(rules, player, spec["seed"], spec["index"] * spec["deals"],
                               spec["deals"], LAYOUTS[spec["family"]])
    path = chunk_path(data, spec)
    tmp = f"{path}.{os.getpid()}.tmp.npz"
    np.savez_compressed(tmp, log=log, spec=json.dumps(spec), values=values)
    os.replace(tmp, path)
    return log.shape[0]


def generate(args) -> None:
    os.makedirs(args.data, exist_ok=True)
    specs = [chunk_spec(args.family, args.seed, i, args.driver) for i in range(args.chunks)]
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


def read_chunks(data: str, family: str) -> tuple:
    """All logged rows of DATA (a family's), whether each is held out, what made them, and
    their candidates' values."""
    logs, held, specs, valued = [], [], [], []
    for name in sorted(os.listdir(data)):
        if not name.endswith(".npz") or ".tmp" in name:
            continue
        with np.load(os.path.join(data, name)) as z:
            spec = json.loads(str(z["spec"]))
            if spec.get("features") != feature_layout(LAYOUTS[family]):
                raise SystemExit(f"{name}: logged with another feature layout; generate anew")
            if "values" not in z:
                raise SystemExit(f"{name}: no candidate values kept; generate anew")
            logs.append(z["log"])
            valued.append(z["values"])
        held.append(np.full(logs[-1].shape[0], spec["index"] % 10 == HELD_OUT))
        specs.append(spec)
    summary = {"chunks": len(specs), "deals": sum(s["deals"] for s in specs),
               "seeds": sorted({s["seed"] for s in specs}),
               "drivers": sorted({s["driver"] for s in specs}),
               "driver_nets": sorted({s["driver_net"] for s in specs if "driver_net" in s}),
               "family": family,
               "variants": [{"preset": p, "set": list(s)} for p, s in VARIANTS[family]],
               "bidders": list(BIDDERS), "worlds": specs[0]["worlds"],
               "clear_z": specs[0]["clear_z"], "chunk_deals": CHUNK_DEALS}
    return np.concatenate(logs), np.concatenate(held), summary, np.concatenate(valued)


def value_targets(valued, labels, temperature: float, card_weight: float):
    """Each decision's training target over the slots (torch): the softmax of its
    candidates' values (NOT_A_CANDIDATE elsewhere) at `temperature` points, times
    1 - card_weight, plus card_weight on PIMC's card (`labels`)."""
    import torch

    target = torch.softmax(valued / temperature, 1) * (1 - card_weight)
    target[torch.arange(len(labels)), labels] += card_weight
    return target


def train(args) -> None:
    """PIMC's values as targets (PyTorch): the net's scores over a decision's candidates, a
    softmax, fitted to `value_targets` (a near-tie is taught as one, a costly mistake as
    costly, PIMC's tie-break by the card's share). Epoch by epoch (Adam, cosine learning
    rate, the seed fixes it), the net and its provenance written after each."""
    import torch

    torch.manual_seed(args.seed)
    nl = LAYOUTS[args.family]
    label = nl.n_logged + nl.n_slots
    rows, held, summary, values = read_chunks(args.data, args.family)
    parts = {"train": np.flatnonzero(~held), "held_out": np.flatnonzero(held)}
    x = torch.from_numpy(feature_bits(rows, nl))
    cands = torch.from_numpy(rows[:, nl.n_logged:label] > 0)
    labels = torch.from_numpy(rows[:, label].astype(np.int64))
    valued = torch.from_numpy(np.nan_to_num(values, nan=NOT_A_CANDIDATE))
    hidden = [int(h) for h in args.hidden.split(",")]
    widths = [nl.n_features, *hidden, nl.n_slots]
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
    chance = by_chance(rows[parts["held_out"]], nl)
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
                   "features": nl.n_features, "hidden": hidden, "outputs": nl.n_slots,
                   "activation": "relu", "targets": "softmax of PIMC's candidate values",
                   "temperature": args.temperature, "card_weight": args.card_weight,
                   "weight_decay": args.alpha,
                   "batch": args.batch, "learning_rate": args.lr, "schedule": "cosine",
                   "epochs": epoch, "seed": args.seed, "threads": torch.get_num_threads(),
                   "train_seconds": round(time.time() - start)},
                  summary, sizes, chance, accuracy)
        print(json.dumps({"epoch": epoch, **accuracy, "seconds": round(time.time() - start)}),
              flush=True)


def feature_bits(rows: np.ndarray, nl, block: int = 1 << 20) -> np.ndarray:
    """The net's inputs (layout `nl`) as 0/1 bytes: the logged features and those derived
    from them, a block of rows at a time."""
    x = np.empty((len(rows), nl.n_features), dtype=np.uint8)
    for start in range(0, len(rows), block):
        part = rows[start:start + block, :nl.n_logged]
        x[start:start + block, :nl.n_logged] = part
        x[start:start + block, nl.n_logged:] = derived_features(part, nl)
    return x


def by_chance(rows: np.ndarray, nl) -> float:
    """The agreement with PIMC's card of a candidate drawn at random."""
    cands = rows[:, nl.n_logged:nl.n_logged + nl.n_slots]
    return round(float((1.0 / cands.sum(axis=1)).mean()), 4)


def write_net(args, layers, model: dict, summary, sizes: dict, chance: float,
              accuracy: dict) -> None:
    """The net (three (weights[in, out], bias) layers) and its provenance into --out (the
    package's own: its sha256 into the package data's manifest)."""
    os.makedirs(args.out, exist_ok=True)
    net_file, provenance_file = NET_FILES[args.family]
    net_path = os.path.join(args.out, net_file)
    save_card_net(net_path, net_of(layers, LAYOUTS[args.family]))
    if os.path.samefile(args.out, PACKAGE):  # the shipped net: the package's manifest follows
        record([net_path])
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or None
    provenance = {
        "what": f"the learned card player's {args.family} net: PIMC's decisions, learned",
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
    with open(os.path.join(args.out, provenance_file), "w") as f:
        json.dump(provenance, f, indent=2)
        f.write("\n")


REMAKE = {  # each shipped net's recipe: PIMC's data, a first net, its own positions, the net
    "standard": (
        ("generate", {"chunks": 100, "seed": 51, "driver": "pimc"}),
        ("train", {}),
        ("generate", {"chunks": 40, "seed": 52, "driver": "learned"}),
        ("train", {}),
    ),
    "general": (
        ("generate", {"chunks": 96, "seed": 61, "driver": "pimc"}),
        ("train", {}),
        ("generate", {"chunks": 48, "seed": 62, "driver": "learned"}),
        ("train", {}),
    ),
}
TRAINING = {"seed": 41, "hidden": "128,64", "epochs": 8, "alpha": 1e-6, "batch": 2048,
                   "lr": 2e-3, "temperature": 0.1, "card_weight": 0.3}


def remake(args) -> None:
    """The shipped net from nothing: each step of REMAKE in turn (a rerun skips the chunks
    made); each net is written where the package reads it, so the first drives the DAgger
    data."""
    for step, options in REMAKE[args.family]:
        print(json.dumps({"step": step, "family": args.family, **options}), flush=True)
        if step == "generate":
            generate(argparse.Namespace(data=args.data, jobs=args.jobs, family=args.family,
                                        **options))
        else:
            train(argparse.Namespace(data=args.data, out=PACKAGE, family=args.family,
                                     **TRAINING))


def install(args) -> None:
    """A net's files from args.data into the package, checked against its layout first."""
    import shutil

    for name in NET_FILES[args.family]:
        shutil.copyfile(os.path.join(args.data, name), os.path.join(PACKAGE, name))
    net_path = os.path.join(PACKAGE, NET_FILES[args.family][0])
    read_card_net(net_path, LAYOUTS[args.family])
    record([net_path])
    print(json.dumps({"installed": net_path, "family": args.family}))


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
    t.add_argument("--out", default=PACKAGE)
    for name, default in TRAINING.items():
        t.add_argument("--" + name.replace("_", "-"), type=type(default), default=default)
    r = sub.add_parser("remake")
    r.add_argument("data")
    r.add_argument("--jobs", type=int, default=os.cpu_count())
    i = sub.add_parser("install")
    i.add_argument("data")
    for command in (g, t, r, i):
        command.add_argument("--family", choices=tuple(LAYOUTS), default="standard")
    args = parser.parse_args()
    {"generate": generate, "train": train, "remake": remake,
     "install": install}[args.command](args)


if __name__ == "__main__":
    main()

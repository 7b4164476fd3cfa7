"""The learned card player's weights: the records the kernels read (`CardNet`, `CardNets`),
their files read and checked against a layout, or saved, the nets the package ships and their
sha256.

The shipped weights (package data `card_net.npz` and `card_net_general.npz`, provenance in
their `.json`) are made by `tools/train_card_player.py`; the training data are PIMC's
decisions, logged as features (`teaching_log`).
"""

from __future__ import annotations

import hashlib
import zipfile
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..core.package_data import damaged, shipped
from .models import play_model
from .net_features import LAYOUTS, ORDER_BY_ID, ORDER_SEEN, STANDARD_LAYOUT, NetLayout

# each family's files: its weights, and their provenance (written by the trainer, for people)
NET_FILES = {"standard": ("card_net.npz", "card_net.json"),
             "general": ("card_net_general.npz", "card_net_general.json")}


class CardNet(NamedTuple):
    """The network's weights (float32): w1[feature, h1], w2[h1, h2] and w3t[slot, h2] (the
    last layer transposed, a row per slot: only the candidates' scores are computed); ReLU
    between layers; and suit_order[0], the order of the plain suits its features were made
    in (`net_features.net_slots`: ORDER_SEEN, or ORDER_BY_ID for a net made before, whose
    file has none). Empty: no net."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3t: np.ndarray
    b3: np.ndarray
    suit_order: np.ndarray


WEIGHTS = CardNet._fields[:-1]  # the float32 arrays


def suit_order_of(order: int) -> np.ndarray:
    return np.full(1, order, dtype=np.int64)


class CardNets(NamedTuple):
    """A player's nets, as the kernels read them: the standard net (24 French cards, a suit
    for trump, STANDARD_LAYOUT) and the general one (every other deal, GENERAL_LAYOUT; the
    layouts are the kernels' constants, not carried in every work record). An empty net plays
    nothing (its deals fall to PIMC)."""

    standard: CardNet
    general: CardNet


def no_card_net() -> CardNet:
    """No net: the player plays by none (every model but the learned ones)."""
    m = np.zeros((0, 0), dtype=np.float32)
    v = np.zeros(0, dtype=np.float32)
    return CardNet(m, v, m, v, m, v, suit_order_of(ORDER_SEEN))


def nets_of(standard: CardNet | None = None, general: CardNet | None = None) -> CardNets:
    """A player's nets (None: none of that kind)."""
    return CardNets(standard or no_card_net(), general or no_card_net())


def no_card_nets() -> CardNets:
    """A player without a net."""
    return nets_of()


def every_deal(nets: CardNets) -> bool:
    """Has the player a net for every deal (the standard and the general one, as shipped)?"""
    return nets.standard.b1.shape[0] > 0 and nets.general.b1.shape[0] > 0


def net_of(layers: list[tuple[np.ndarray, np.ndarray]],
           nl: NetLayout = STANDARD_LAYOUT, suit_order: int = ORDER_SEEN) -> CardNet:
    """A CardNet from three (weights[in, out], bias[out]) layers, as a trainer writes them
    (features in `suit_order`: a trainer's are the seat's)."""
    (w1, b1), (w2, b2), (w3, b3) = layers
    if w1.shape[0] != nl.n_features or w3.shape[1] != nl.n_slots \
            or w2.shape[0] != w1.shape[1] or w3.shape[0] != w2.shape[1]:
        raise ValueError(f"card net layers of shapes {[w.shape for w, _ in layers]} do not "
                         f"fit {nl.n_features} features and {nl.n_slots} cards")

    def f32(a):
        return np.ascontiguousarray(a, dtype=np.float32)

    return CardNet(f32(w1), f32(b1), f32(w2), f32(b2), f32(w3.T), f32(b3),
                   suit_order_of(suit_order))


def save_card_net(path, net: CardNet) -> None:
    np.savez_compressed(path, **net._asdict())


def read_card_net(path, nl: NetLayout = STANDARD_LAYOUT) -> CardNet:
    """The net saved at `path`, every array checked against the layout (its inputs and
    outputs, the hidden widths agreeing layer to layer) and finite before any kernel reads it:
    a DamagedInstall naming the file otherwise (missing, empty or cut short too)."""
    try:
        with np.load(path) as z:
            weights = [np.ascontiguousarray(z[k], dtype=np.float32) for k in WEIGHTS]
            order = z["suit_order"].tolist() if "suit_order" in z else [ORDER_BY_ID]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise damaged(path, f"not a card net ({error})") from None
    if order not in ([ORDER_BY_ID], [ORDER_SEEN]):
        raise damaged(path, f"the card net's suit_order is not {ORDER_BY_ID} or {ORDER_SEEN}")
    net = CardNet(*weights, suit_order_of(order[0]))
    h1, h2 = net.b1.shape[:1], net.b2.shape[:1]
    want = {"w1": (nl.n_features, *h1), "b1": h1, "w2": (*h1, *h2), "b2": h2,
            "w3t": (nl.n_slots, *h2), "b3": (nl.n_slots,)}
    for name, shape in want.items():
        array = getattr(net, name)
        if array.shape != shape or not np.isfinite(array).all():
            raise damaged(path, f"the card net's {name} is not {shape} finite numbers (got "
                          f"{array.shape})")
    return net


def _weights_file(family: str):
    """A shipped net's weights file (checked against the package data's manifest)."""
    return shipped(f"play/{NET_FILES[family][0]}")


@lru_cache(maxsize=1)
def card_nets() -> CardNets:
    """The shipped nets (package data)."""
    def read(family):
        return read_card_net(_weights_file(family), LAYOUTS[family])

    return nets_of(read("standard"), read("general"))


def nets_for(play: str) -> CardNets:
    """The nets a play model plays by: the shipped nets where it uses a net, else none."""
    return card_nets() if play_model(play).uses_net else no_card_nets()


@lru_cache(maxsize=2)
def card_net_digest(family: str = "standard") -> str:
    """The sha256 of a shipped net's weights: a run played by the learned player names them,
    so that a resume under other weights is refused. A DamagedInstall when it is missing or
    not the file shipped."""
    path = _weights_file(family)
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        raise damaged(path, f"not a card net ({error})") from None


def card_net_digests() -> dict:
    """Every shipped net's sha256, by the name a manifest gives it."""
    return {"card_net": card_net_digest("standard"),
            "card_net_general": card_net_digest("general")}


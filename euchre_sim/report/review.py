"""A review's report: per hand the biggest losses, per seat the points lost to bids, discards,
leads and follows and the share of decisions that lost nothing; and its files
(`review.parquet`, `run.json`)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable

import pandas as pd

from .. import __version__
from ..advice.review import ReviewSettings
from ..core.output import cannot_write, check_writable, written
from ..core.rules import RuleSet
from ..core.seats import SEAT_NAMES
from ..core.stats import Z95
from ..game.egn import write_egn
from ..game.history import ReplayedHand, state_to_record

CATEGORIES = ("bid", "discard", "defend_alone", "lead", "follow")
NOTHING = 1e-9  # a loss below this lost nothing


def option_label(option) -> str:
    """A card's name, or a bid as 'pass', 'order_up S', 'call H alone'."""
    if not isinstance(option, dict):
        return str(option)
    words = [option["action"], option["suit"] or "", "alone" if option["alone"] else ""]
    return " ".join(w for w in words if w)


def _number(value) -> str:
    return "-" if value is None else f"{value:+.2f}"


def seat_totals(rows: list[dict]) -> dict:
    """Per seat: decisions, the share that lost nothing (dd), and the dd and pimc points lost
    by category."""
    totals = {}
    for seat in SEAT_NAMES:
        mine = [r for r in rows if r["seat"] == seat]
        valued = [r for r in mine if r["dd_loss"] is not None]
        entry = {"decisions": len(mine),
                 "lost_nothing": (sum(r["dd_loss"] < NOTHING for r in valued) / len(valued)
                                  if valued else None)}
        for category in CATEGORIES:
            chosen = [r for r in mine if r["category"] == category]
            entry[category] = {
                "decisions": len(chosen),
                "dd_loss": sum(r["dd_loss"] or 0.0 for r in chosen),
                "pimc_loss": sum(r["pimc_loss"] or 0.0 for r in chosen)}
        totals[seat] = entry
    return totals


def _describe(row: dict) -> str:
    where = f"trick {row['trick']} " if row["trick"] else ""
    known = [o for o in row["options"] if o["dd"] is not None]
    best = max(known, key=lambda o: o["dd"]) if known else None
    text = (f"  {where}{row['seat']} {row['kind']} {option_label(row['chosen'])}: "
            f"dd loss {_number(row['dd_loss'])}")
    if best is not None:
        text += f" (best {option_label(best['option'])})"
    if row.get("sampled"):
        text += " [dd over hidden cards sampled]"
    if row["pimc_loss"] is not None:
        se = row["pimc_loss_se"]
        text += f", pimc loss {_number(row['pimc_loss'])}"
        text += f" ± {se:.2f}" if se is not None and se == se else ""
    return text


def print_review(rows: list[dict], errors: list[tuple], echo: Callable[[str], None],
                 per_hand: int = 3) -> None:
    """The readable report."""
    hands: dict = {}
    for row in rows:
        hands.setdefault(row["id"], []).append(row)
    for hand_id, decisions in hands.items():
        dd = sum(r["dd_loss"] or 0.0 for r in decisions)
        pimc = sum(r["pimc_loss"] or 0.0 for r in decisions)
        echo(f"hand {hand_id}: {len(decisions)} decisions, points lost dd {dd:.2f}, "
             f"pimc {pimc:.2f}")
        costly = sorted((r for r in decisions if (r["dd_loss"] or 0) > NOTHING
                         or (r["pimc_loss"] or 0) > NOTHING),
                        key=lambda r: -max(r["dd_loss"] or 0, r["pimc_loss"] or 0))
        for row in costly[:per_hand]:
            echo(_describe(row))
    for _, reason in errors:
        echo(reason)
    echo("")
    echo("points lost by seat (dd / pimc)   " + "  ".join(f"{c:>13}" for c in CATEGORIES)
         + "  lost nothing")
    for seat, entry in seat_totals(rows).items():
        cells = "  ".join(f"{entry[c]['dd_loss']:5.2f} / {entry[c]['pimc_loss']:5.2f}"
                          for c in CATEGORIES)
        share = entry["lost_nothing"]
        echo(f"{seat} ({entry['decisions']:3d} decisions)             {cells}  "
             + (f"{share:6.1%}" if share is not None else "     -"))
    echo(f"{len(hands)} hands reviewed, {len(errors)} rejected")


def review_frame(rows: list[dict]) -> pd.DataFrame:
    """review.parquet's rows: SPEC's fields, options a list column (bids as labels)."""
    records = []
    for row in rows:
        options = [{"option": option_label(o["option"]), "dd": o["dd"], "pimc": o["pimc"],
                    "pimc_se": o["pimc_se"], "best_share": o.get("best_share")}
                   for o in row["options"]]
        records.append({"id": str(row["id"]), "kind": row["kind"],
                        "category": row["category"], "seat": row["seat"],
                        "trick": row["trick"], "chosen": option_label(row["chosen"]),
                        "options": options, "dd_loss": row["dd_loss"],
                        "pimc_loss": row["pimc_loss"], "pimc_loss_se": row["pimc_loss_se"]})
    frame = pd.DataFrame.from_records(records, columns=[
        "id", "kind", "category", "seat", "trick", "chosen", "options", "dd_loss",
        "pimc_loss", "pimc_loss_se"])
    return frame.astype({"trick": "Int64"})


def review_folder(out_dir: str) -> None:
    """Make DIR for `write_review`, and check that it takes files: one line now, before the
    review's work, when not."""
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as err:
        raise cannot_write(out_dir, err) from None
    check_writable(os.path.join(out_dir, "review.parquet"))


def write_review(out_dir: str, rows: list[dict], rules: RuleSet,
                 settings: ReviewSettings) -> None:
    """DIR/review.parquet and DIR/run.json (rules, settings, per-seat totals), each written
    whole (`core.output.written`)."""
    review_folder(out_dir)
    with written(os.path.join(out_dir, "review.parquet"), binary=True) as handle:
        review_frame(rows).to_parquet(handle, index=False)
    info = {"kind": "review", "version": __version__, "rules": rules.options(),
            "settings": settings.facts(), "decisions": len(rows),
            "hands": len({r["id"] for r in rows}), "seats": seat_totals(rows)}
    with written(os.path.join(out_dir, "run.json")) as handle:
        json.dump(info, handle, indent=2)


def annotation(row: dict) -> str | None:
    """An EGN annotation of a decision that lost points, labelled as EGN's annotation guide
    labels them: [??] a loss the seat could see that cost points here, [?] one it could see
    (pimc loss significant at 95 %) that did not, [?!] a loss it could see that is not
    significant; a double-dummy loss alone (nothing the seat could know) is plain commentary."""
    dd, pimc, se = row["dd_loss"] or 0.0, row["pimc_loss"] or 0.0, row["pimc_loss_se"]
    if dd <= NOTHING and pimc <= NOTHING:
        return None
    known = [o for o in row["options"] if o["pimc"] is not None]
    best = max(known, key=lambda o: o["pimc"]) if known else None
    chosen = option_label(row["chosen"])
    significant = se is not None and se == se and pimc - Z95 * se > 0
    if pimc > NOTHING and best is not None:
        label = ("[??]" if dd > NOTHING else "[?]") if significant else "[?!]"
        text = (f"{label}{chosen} loses {pimc:.2f} ± {Z95 * (se or 0):.2f} points to "
                f"{option_label(best['option'])} from what {row['seat']} knew")
        return text + (f"; with every card seen it lost {dd:.2f}" if dd > NOTHING else "")
    return (f"With every card seen {chosen} lost {dd:.2f} points (not knowable from "
            f"{row['seat']}'s seat)")


def review_egn(hands: list[tuple], rows: list[dict], rules: RuleSet, title: str) -> dict:
    """The reviewed hands as one EGN document, each loss an annotation on its call or play."""
    notes = {record_id: {"calls": {}, "plays": {}} for record_id, _ in hands}
    counters: dict = {}
    for row in rows:
        where = "calls" if row["kind"] == "bid" else "plays" if row["kind"] == "card" else None
        if where is None:
            continue
        index = counters.get((row["id"], where), 0)
        counters[(row["id"], where)] = index + 1
        text = annotation(row)
        if text is not None:
            notes[row["id"]][where][index] = [text]
    records = [known_record(hand, record_id) for record_id, hand in hands]
    players = list(SEAT_NAMES)
    return write_egn(records, rules, title, players,
                     annotations=[notes[record_id] for record_id, _ in hands])


def known_record(hand: ReplayedHand, record_id) -> dict:
    """The SPEC record of a replayed hand with only the cards its record knew."""
    record = state_to_record(hand.state, record_id)
    if not any(hand.filled):
        return record
    deck, state = hand.state.rules.card_deck, hand.state
    record["hands"] = [[c for c in cards if not mask >> deck.parse_card(c) & 1]
                       for cards, mask in zip(record["hands"], hand.filled, strict=True)]
    record["unknown"] = {"hands": {SEAT_NAMES[s]: bin(m).count("1")
                                   for s, m in enumerate(hand.filled) if m}}
    if state.discarded >= 0 and hand.filled[state.dealer] >> state.discarded & 1:
        record["discard"] = None
        record["unknown"]["discard"] = True
    return record

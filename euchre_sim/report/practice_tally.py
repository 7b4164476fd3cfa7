"""What a practice session's decisions cost, added up: by kind of decision for a hand and over
the hands finished, the costliest decisions, and each loss as an EGN annotation."""

from __future__ import annotations

from ..core.stats import Z95
from ..game.engine import HandState
from .review import CATEGORIES, option_label

# points lost a hand against double dummy, all four seats' cards and discards (docs/web.md):
# people in the championship games of tests/data/egn, and PIMC (docs/play-models.md)
YARDSTICKS = {"people": 0.60, "pimc": 0.611}
WORST = 5  # the session's costliest decisions kept, with the moment each was taken
# EGN annotates calls and plays: the discard and defending alone are noted on the call that
# made trump, after these words
BIDDING_NOTES = {"discard": "discard: ", "defend_alone": "defending alone: "}


def hand_notes(notes: dict, state: HandState, kind: str, text: str) -> None:
    """A loss's EGN annotation added to a hand's (`{"calls": {index: [text]}, "plays":
    {index: [text]}}`), on the decision about to be taken in `state`: a bid on its call, a
    card on its play, the discard and defending alone on the call that made trump."""
    if kind == "card":
        index = sum(len(t.plays) for t in state.tricks)
        notes["plays"].setdefault(index, []).append(text)
        return
    index = len(state.bids) if kind == "bid" else len(state.bids) - 1
    notes["calls"].setdefault(index, []).append(BIDDING_NOTES.get(kind, "") + text)


def lost_by_kind(rows: list[dict]) -> dict:
    """Points lost by kind (review's categories) and in all, at the table of people and double
    dummy (a loss not valued counts 0)."""
    lost = {kind: {"people": 0.0, "dd": 0.0} for kind in (*CATEGORIES, "total")}
    for row in rows:
        for kind in (row["category"], "total"):
            lost[kind]["people"] += row["points_lost"] or 0.0
            lost[kind]["dd"] += row["dd_points_lost"] or 0.0
    return lost


def tally(rows: list[dict], views: list[dict], finished: list[int]) -> dict:
    """Over the hands finished (their indices): points lost a hand by kind, and the costliest
    decisions with the player's view at each (`views[i]` before `rows[i]`) and their `hand`
    and `decision` (what a retry takes)."""
    hands = len(finished)
    kept = [i for i, row in enumerate(rows) if row["hand"] in set(finished)]
    lost = lost_by_kind([rows[i] for i in kept])
    per_hand = {kind: {side: value / hands for side, value in sides.items()}
                for kind, sides in lost.items()} if hands else None
    ranked = sorted(kept, key=lambda i: -cost(rows[i]))
    worst = [{"deal": rows[i]["id"], "hand": rows[i]["hand"], "decision": rows[i]["decision"],
              "kind": rows[i]["kind"], "chosen": option_label(rows[i]["chosen"]),
              "best": best_named(rows[i]), "points_lost": rows[i]["points_lost"],
              "dd_points_lost": rows[i]["dd_points_lost"], "view": views[i]}
             for i in ranked[:WORST] if cost(rows[i]) > 0]
    return {"hands": hands, "decisions": len(kept), "lost": lost, "per_hand": per_hand,
            "worst": worst}


def cost(row: dict) -> float:
    """What a decision cost, to rank them: at the table of people, else double dummy."""
    return row["points_lost"] if row["points_lost"] is not None else row["dd_points_lost"] or 0.0


def best_named(row: dict) -> str | None:
    """The option best at the table of people where its margin separates it at 95 % (`best`),
    'too close to call' with the two and the margin where it does not, the double-dummy best
    (exact) where the table of people did not value the decision; None where nothing did."""
    found = row.get("margin")
    if row.get("best") is not None:
        return option_label(row["best"]["option"])
    if found is not None and any(o["pimc"] is not None for o in row["options"]):
        return (f"too close to call: {option_label(found['option'])} or "
                f"{option_label(found['runner_up'])}, {found['lead']:+.2f} ± "
                f"{Z95 * found['lead_se']:.2f}")
    valued = [o for o in row["options"] if o["dd"] is not None]
    return option_label(max(valued, key=lambda o: o["dd"])["option"]) if valued else None

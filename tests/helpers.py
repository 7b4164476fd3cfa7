"""Small builders shared by the rule tests."""

from euchre_sim.core.rules import RuleSet
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.core.seats import parse_seat
from euchre_sim.game.engine import Bid, HandState

from .kernels import trick_winner

# N:JH JD AH KS 9C / E:TH QH AD 9S TC / S:KC KD TS QS 9D / W:TD AS 9H QC JS ; upcard AC
DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"


def new_hand(rules: RuleSet, deal: str = DEAL, upcard: str = "AC", dealer: str = "W") -> HandState:
    deck = rules.card_deck
    return HandState(rules, parse_seat(dealer), deck.parse_deal(deal), deck.parse_card(upcard))


def bid(state: HandState, action: str = "pass", suit: str | None = None, alone: bool = False):
    deck = state.rules.card_deck
    trump = deck.parse_suit(suit) if suit else None
    state.bid(Bid(state.turn, state.round, action, trump, alone))


def winner_of(rules: RuleSet, trump: str, cards: str) -> str:
    """The winning card of a trick given as text, e.g. winner_of(r, 'H', 'AH JD KH')."""
    deck = rules.card_deck
    ids = deck.parse_cards(cards)
    t = deck.parse_suit(trump)
    return deck.card_name(ids[trick_winner(compile_rules(rules), t, ids)])


def play_out(state: HandState, chooser=min) -> None:
    """Play the rest of the hand choosing with `chooser` over legal card ids."""
    from euchre_sim.core.cards import cards_of

    while state.phase == "play":
        state.play(state.turn, chooser(cards_of(state.legal_cards(state.turn))))


def record(dealer: str, hands: str, upcard: str, bids: list[str], discard, tricks: list[str],
           defend_alone=None, points=None, record_id: int = 1) -> dict:
    """A SPEC record from compact text.

    hands: 'h_N/h_E/h_S/h_W'; bids: 'N pass', 'E order_up', 'S order_up alone', 'W call H',
    'N call NT alone'; tricks: 'N:AH E:TH S:KC W:JS' (the first seat leads).
    """
    parsed_bids = []
    rnd = 1
    for n, text in enumerate(bids):
        words = text.split()
        entry = {"seat": words[0], "action": words[1]}
        if words[1] == "call":
            entry["suit"] = words[2]
            rnd = 2
        if words[1] != "pass":
            entry["alone"] = words[-1] == "alone"
        entry["round"] = 2 if words[1] == "call" else (1 if words[1] == "order_up" else rnd)
        parsed_bids.append(entry)
        if n == 3 and words[1] == "pass":
            rnd = 2
    for n, entry in enumerate(parsed_bids):
        if entry["action"] == "pass":
            entry["round"] = 1 if n < 4 else 2
    out = {
        "id": record_id, "dealer": dealer,
        "hands": [h.split() for h in hands.split("/")],
        "upcard": upcard, "bids": parsed_bids, "discard": discard,
        "defend_alone": defend_alone,
        "tricks": [
            {"leader": t.split()[0].split(":")[0],
             "plays": [{"seat": p.split(":")[0], "card": p.split(":")[1]} for p in t.split()]}
            for t in tricks
        ],
    }
    if points is not None:
        out["points"] = {"NS": points[0], "EW": points[1]}
    return out


def run_cli(args: list[str], code: int = 0):
    """Invoke the CLI in-process, check its exit status (default 0), return the result. An
    exception the command does not turn into an exit status is raised, not counted as one."""
    from click.testing import CliRunner

    from euchre_sim.cli.main import cli

    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def class_text_parts(text: str) -> dict:
    """A class's readable text ('T=RA N=- O=Q9/K up=9') as the parts naive.hand_class_parts
    gives."""
    parts = dict(p.split("=", 1) for p in text.replace("NT ", "").split())
    ref = next((f"{k}={v}" for k, v in parts.items() if k in ("up", "down")), None)
    return {"T": parts["T"], "N": parts.get("N"), "D": parts.get("D"),
            "O": sorted(parts["O"].split("/")), "ref": ref}


def replayed_to_play(final: HandState, defender: int | None = -2) -> HandState:
    """A fresh engine at the first lead of the finished hand `final`: its deal, its bids,
    its discard and its defence (or `defender`: a seat alone, None for both)."""
    state = HandState(final.rules, final.dealer, final.dealt, final.upcard)
    for bid in final.bids:
        state.bid(bid)
    if state.phase == "discard":
        state.discard(final.discarded)
    if defender == -2:
        defender = final.defender_alone if final.defender_alone >= 0 else None
    state.defend(defender)
    return state

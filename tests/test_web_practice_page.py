"""The Practice tab in a real browser (headless Chromium, the fixtures of test_web_browser):
a card table whose every trick is shown to its end, the keyboard as docs/web.md says (the
dealer's sixth card, Enter with nothing picked, Enter pressed twice sending one play), a
seeded short game played by clicks to its summary, a decision tried again with both lines
side by side, the page at 400 px wide and what it says while the server warms up; each
against the library (`PracticeSession`) or the server's own answers (issue 75 items 2-7)."""

import json
import re
import threading
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import Select, WebDriverWait

from euchre_sim.core.rules import build_rules
from euchre_sim.game.egn import read_egn
from euchre_sim.game.history import replay_hand
from euchre_sim.report.practice import PracticeSession
from euchre_sim.web.app import create_app
from euchre_sim.web.worker import Worker

from .test_web_browser import _open, _set, chromium
from .web_helpers import serving

STATIC = Path(__file__).resolve().parents[1] / "euchre_sim" / "web" / "static"
SEAT_WORDS = {"S": "You", "W": "Left", "N": "Partner", "E": "Right"}
SYMBOLS = dict(zip("CDHS", "♣♦♥♠", strict=True))
RAW_CARD = re.compile(r"\b[9TJQKA][CDHS]\b")  # the server's card names, never on the page
ORDER_UP_S = {"action": "order_up", "suit": "S", "alone": False}


@pytest.fixture(scope="module")
def browser():
    with chromium() as chrome:
        yield chrome


@pytest.fixture(scope="module")
def server():
    """A server without warm-up: the practice queries load what they need."""
    with serving(create_app(Worker())) as port:
        yield f"http://127.0.0.1:{port}/"


def _card(name: str) -> str:
    """A card in the page's one notation: J♣, 10♠."""
    return ("10" if name[0] == "T" else name[0]) + SYMBOLS[name[1]]


def _trick_text(trick: dict) -> str:
    plays = " · ".join(f"{SEAT_WORDS[p['seat']]} {_card(p['card'])}" for p in trick["plays"])
    return f"{plays} — won by {SEAT_WORDS[trick['winner']]}" if trick["winner"] \
        else f"{plays} (in play)"


def _deal(browser, seat: int, deal: int, seed: int = 0, game: bool = True,
          table: str = "people", options: str = "") -> None:
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="practice"]').click()
    Select(browser.find_element(By.ID, "practice-seat")).select_by_value(str(seat))
    for field, value in (("practice-game", "game" if game else "hands"),
                         ("practice-table", table)):
        for select in browser.find_elements(By.ID, field):  # (a page without them: its own)
            Select(select).select_by_value(value)
    _set(browser, "practice-seed", str(seed))
    _set(browser, "practice-deal", str(deal))
    _set(browser, "practice-set", options)
    browser.find_element(By.ID, "practice-start").click()
    _settled(browser)


def _turn(browser) -> str:
    return browser.find_element(By.ID, "practice-turn").text


def _settled(browser) -> None:
    """Wait until the table answers: the player's turn, or the hand over."""
    WebDriverWait(browser, 300).until(lambda b: _turn(b).startswith(("Your", "Defend",
                                                                      "Hand over")))
    assert not browser.find_element(By.ID, "practice-error").text


def _choose(browser, action) -> None:
    """Click the bid (or defence) `action`, as the state's legal list gives it."""
    for button in browser.find_elements(By.CSS_SELECTOR, "#practice-choices .choice"):
        if json.loads(button.get_attribute("data-choice")) == action:
            button.click()
            WebDriverWait(browser, 300).until(ready.staleness_of(button))
            _settled(browser)
            return
    raise AssertionError(f"no choice {action}")


def _hand(browser) -> list[str]:
    return [c.get_attribute("data-card")
            for c in browser.find_elements(By.CSS_SELECTOR, "#practice-hand .card")]


def _keys(browser, keys: str) -> None:
    """Keys pressed wherever the focus is (the page's, not a field's)."""
    ActionChains(browser).send_keys(keys).perform()


def _tricks(browser) -> list[str]:
    return [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#practice-tricks li")]


# the felt now: the trick shown (from 1), its winner, the cards placed by seat, its words
FELT = """
    const felt = document.getElementById('practice-felt');
    const placed = {};
    for (const slot of felt.querySelectorAll('[data-played]')) {
      placed[slot.dataset.played] = slot.querySelector('.card').dataset.card;
    }
    return {trick: felt.getAttribute('data-trick'), winner: felt.getAttribute('data-winner'),
            placed, text: felt.innerText};"""


def _count_acts(browser) -> None:
    """Count the page's requests to /act from now (window.acts)."""
    browser.execute_script("""
        window.acts = 0;
        const send = window.fetch;
        window.fetch = (path, init) => {
          if (String(path).endsWith('/act')) window.acts += 1;
          return send(path, init);
        };""")


def test_every_trick_is_shown_to_its_end_and_the_keys_reach_the_sixth_card(browser, server):
    """Issue 75 defects 1, 2 and 5, on the issue's hand (seed 0, position 4, deal 1): order up
    spades, discard 9S by its key 6, then Enter alone plays the first legal card each time;
    the trick that East's right bower wins after your J♣ stays on the felt, then the next, and
    every trick is listed with its winner as the library plays it. Enter pressed twice sends
    one play."""
    _open(browser, server)
    _deal(browser, seat=4, deal=1)
    # nothing decided yet: no empty box beside the table; your cards readable while you bid
    assert not browser.find_element(By.ID, "practice-results").is_displayed()
    assert _turn(browser) == "Your bid (round 1)"
    opacity = [c.value_of_css_property("opacity")
               for c in browser.find_elements(By.CSS_SELECTOR, "#practice-hand .card")]
    assert opacity == ["1"] * 5
    labels = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#practice-choices .choice")]
    assert labels == ["pass", "order up spades", "order up spades alone"]

    session = PracticeSession(build_rules(), 4, 0, 1, game=True)
    _choose(browser, ORDER_UP_S)
    row = session.act(ORDER_UP_S)
    # in a game, the bid valued at the score too, as advise --score values it
    chance = f"{100 * row['game']['p_win']:.1f}%"
    assert browser.find_element(By.CSS_SELECTOR, "#practice-feedback .game-line").text \
        .startswith(f"At 0–0: your chance of winning the game {chance}, ")
    cells = [_cells(r)[-1] for r in browser.find_elements(
        By.CSS_SELECTOR, "#practice-feedback tbody tr")]
    assert cells[1].startswith(chance) and len(cells) == len(row["options"])
    hand = _hand(browser)
    assert len(hand) == 6 and hand == session.state()["hand"] and hand[5] == "9S"
    # the Deal button left focused: the keys still pick and play (Enter does not deal again)
    browser.execute_script("document.getElementById('practice-start').focus()")
    _keys(browser, "6")
    WebDriverWait(browser, 10).until(ready.presence_of_element_located(
        (By.CSS_SELECTOR, '#practice-hand .card.is-ref[data-card="9S"]')))
    _count_acts(browser)
    _keys(browser, "\n\n")  # Enter twice: one discard
    _settled(browser)
    session.act("9S")
    assert _hand(browser) == session.state()["hand"]
    for card in ("9C", "AH"):  # each the only legal card: Enter with none picked plays it
        assert session.state()["legal"] == [card]
        _keys(browser, "\n")
        _settled(browser)
        session.act(card)
    view = session.state()
    assert view["legal"][0] == "JC" and len(view["legal"]) > 1
    session.act("JC")  # the library's line, before the page's (the felt waits for no one)
    view = session.state()
    third, fourth = view["tricks"][2], view["tricks"][3]
    assert third["winner"] == "E" and [p["card"] for p in third["plays"]][-1] == "JS"
    assert fourth["plays"] == [{"seat": "E", "card": "TC"}]
    _keys(browser, "\n\n")  # Enter twice, nothing picked: the first legal card, once
    # the trick the others finished after your card, placed by seat, its winner named; then
    # the trick in play (East's lead)
    shown = [WebDriverWait(browser, 300, poll_frequency=0.05).until(
        lambda b, trick=trick: (lambda felt: felt if felt["trick"] == trick else None)(
            b.execute_script(FELT))) for trick in ("3", "4")]
    assert shown[0] == {"trick": "3", "winner": "E", "text": shown[0]["text"],
                        "placed": {p["seat"]: p["card"] for p in third["plays"]}}
    assert "won by Right" in shown[0]["text"]
    assert shown[1]["placed"] == {"E": "TC"} and shown[1]["winner"] is None
    _settled(browser)
    assert browser.execute_script("return window.acts") == 4  # 9S, 9C, AH, JC: each once
    assert _tricks(browser) == [_trick_text(t) for t in view["tricks"]]
    assert _hand(browser) == view["hand"]


def _choices(browser) -> list:
    return [json.loads(b.get_attribute("data-choice"))
            for b in browser.find_elements(By.CSS_SELECTOR, "#practice-choices .choice")]


def _bid_click(browser):
    """A bid by click: a partnership order or call where one is open (so that the hand is
    played), else the first choice (a pass, or defending with partner); the choice made."""
    choices = _choices(browser)
    calls = [c for c in choices if isinstance(c, dict) and c["action"] != "pass"
             and not c["alone"]]
    _choose(browser, (calls or choices)[0])
    return (calls or choices)[0]


def _card_click(browser) -> None:
    """The first legal card, clicked."""
    card = next(c for c in browser.find_elements(By.CSS_SELECTOR, "#practice-hand .card")
                if c.is_enabled())
    card.click()
    WebDriverWait(browser, 300).until(ready.staleness_of(card))
    _settled(browser)


def _play_hand(browser) -> list:
    """Play the hand on the table to its end by clicks; the choices made (a card: None)."""
    moves = []
    while not _turn(browser).startswith("Hand over"):
        if browser.find_elements(By.CSS_SELECTOR, "#practice-choices .choice"):
            moves.append(_bid_click(browser))
        else:
            _card_click(browser)
            moves.append(None)
        assert len(moves) < 20
    return moves


def _no_server_names(text: str) -> None:
    """One notation: no JC / TS, no order_up, no bare seat letter."""
    assert not RAW_CARD.search(text), text
    assert "_" not in text, text
    assert not re.search(r"\b[NESW]\b", text), text


def _cells(row) -> list[str]:
    return [td.text for td in row.find_elements(By.TAG_NAME, "td")]


def test_a_short_game_is_played_by_clicks_to_its_summary(browser, server):
    """A seeded game to 3 at the beginners' table (issue 75 items 3-5, 7): every hand by
    clicks, Next hand between them (the form then shows the hand's position and deal), the
    score on the table after each hand, every trick listed as the EGN has it, one notation in
    the feedback and summary, the yardsticks beside the cards-and-discards row, and the game's
    summary at the end; the EGN names the table and replays."""
    _open(browser, server)
    _deal(browser, seat=1, deal=0, seed=5, table="beginners", options="target=3")
    assert "beginners table" in browser.find_element(By.ID, "practice-facts").text
    assert browser.find_element(By.ID, "practice-score").text == \
        "Score: you & partner 0, them 0 (game to 3)"
    score, hands, results = [0, 0], 0, []
    while True:
        decisions = len(_play_hand(browser))
        hands += 1
        assert hands <= 12
        points = re.match(r"Hand over: you & partner (\d+), them (\d+)", _turn(browser))
        score = [score[0] + int(points[1]), score[1] + int(points[2])]
        results.append((_tricks(browser), [int(points[1]), int(points[2])]))
        over = max(score) >= 3
        assert browser.find_element(By.ID, "practice-score").text.startswith(
            f"Score: you & partner {score[0]}, them {score[1]} (game to 3)")
        # the hand's summary: a line per decision in words, the yardsticks' row
        lines = browser.find_elements(By.CSS_SELECTOR, "#practice-decisions [data-feedback]")
        assert len(lines) == decisions
        _no_server_names(browser.find_element(By.ID, "practice-decisions").text)
        _no_server_names(browser.find_element(By.ID, "practice-worst").text)
        _no_server_names(browser.find_element(By.ID, "practice-table-view").text)
        lost = {r.get_attribute("data-kind"): [float(x) for x in _cells(r)[1:]]
                for r in browser.find_elements(By.CSS_SELECTOR, "#practice-lost tr[data-kind]")}
        each = [float(line.find_elements(By.TAG_NAME, "strong")[0].text) for line in lines]
        assert lost["total"][0] == pytest.approx(sum(each), abs=0.011)
        assert lost["cards"] == pytest.approx(
            [sum(lost[k][i] for k in ("discard", "lead", "follow")) for i in (0, 1)], abs=0.011)
        sticks = {r.get_attribute("data-yardstick"): _cells(r)[2] for r in
                  browser.find_elements(By.CSS_SELECTOR, "#practice-lost tr[data-yardstick]")}
        assert sticks == {"people": "0.60 ± 0.15", "people-seat": "0.15 ± 0.04",
                          "pimc": "0.611 ± 0.045", "pimc-seat": "0.153 ± 0.011"}
        game_rows = browser.find_elements(By.CSS_SELECTOR, "#practice-game-hands tbody tr")
        assert [_cells(r)[3] for r in game_rows][-1] == f"{score[0]}–{score[1]}"
        if over:
            break
        position = int(Select(browser.find_element(By.ID, "practice-seat"))
                       .first_selected_option.get_attribute("value"))
        browser.find_element(By.ID, "practice-next").click()
        # the form shows the hand on the table: the next deal, dealt by the seat to the left
        WebDriverWait(browser, 300).until(lambda b, deal=str(hands): b.find_element(
            By.ID, "practice-deal").get_attribute("value") == deal)
        _settled(browser)
        assert Select(browser.find_element(By.ID, "practice-seat")).first_selected_option \
            .get_attribute("value") == str((position - 2) % 4 + 1)
    assert hands >= 2  # Next hand was used
    title = browser.find_element(By.CSS_SELECTOR, "#practice-game-summary h3")
    assert title.get_attribute("data-over") == "true"
    won = "you won" if score[0] > score[1] else "they won"
    assert title.text == f"Game over: {won} {score[0]}–{score[1]}"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#practice-game-hands tbody tr")) == hands
    assert not browser.find_element(By.ID, "practice-next").is_displayed()

    # the game as EGN: the table named, every hand's tricks as the page listed them
    link = browser.find_element(By.ID, "practice-egn")
    document = json.loads(urllib.request.urlopen(link.get_attribute("href")).read())
    assert "beginners table" in json.dumps(document)
    rules, entries = read_egn(document, build_rules("standard", ["target=3"]))
    assert len(entries) == hands
    for (listed, points), (_, entry, _) in zip(results, entries, strict=True):
        state = replay_hand(entry, rules).state
        assert list(state.points()) == points
        tricks = [{"plays": [{"seat": "NESW"[s], "card": rules.card_deck.card_name(c)}
                             for s, c in t.plays], "winner": "NESW"[t.winner]}
                  for t in state.tricks if t.plays]
        assert listed == [_trick_text(t) for t in tricks]


def test_a_decision_tried_again_shows_both_lines_side_by_side(browser, server):
    """Issue 75 item 6: a hand played out, then its first bid taken back from the summary;
    the same deal comes back at that bid, another bid is chosen and the hand played out; the
    page sets the two lines' choices, losses, tricks and points side by side, each as the
    server valued it, and goes back to the first line."""
    _open(browser, server)
    _deal(browser, seat=1, deal=0, seed=11, game=False)
    choices = _choices(browser)
    chosen = _play_hand(browser)[0]
    first = browser.find_elements(By.CSS_SELECTOR, "#practice-decisions .decision")[0]
    words = first.find_element(By.CSS_SELECTOR, "tr.chosen-row td").text
    lost_first = [s.text for s in first.find_elements(By.CSS_SELECTOR, "[data-feedback] strong")]
    first_turn = _turn(browser)
    points_first = re.match(r"Hand over: you & partner (\d+), them (\d+)", first_turn)
    first_facts = browser.find_element(By.ID, "practice-facts").text
    retry = first.find_element(By.CSS_SELECTOR, "button.retry")
    assert (retry.get_attribute("data-hand"), retry.get_attribute("data-decision")) == ("0", "0")
    retry.click()
    WebDriverWait(browser, 300).until(lambda b: _turn(b) == "Your bid (round 1)")
    assert _choices(browser) == choices
    cells = _lines(browser)
    assert cells["your choice"] == ["your choice", words, "(yours to make)"]
    assert [cells["lost at a table of people"][1], cells["lost double dummy"][1]] == lost_first
    assert cells["the hand's points"][1] == f"{points_first[1]}–{points_first[2]}"
    # another bid this time, then the hand played out
    _choose(browser, next(c for c in choices if c != chosen))
    _play_hand(browser)
    again = browser.find_elements(By.CSS_SELECTOR, "#practice-decisions .decision")[0]
    lost_again = [s.text for s in again.find_elements(By.CSS_SELECTOR, "[data-feedback] strong")]
    points_again = re.match(r"Hand over: you & partner (\d+), them (\d+)", _turn(browser))
    cells = _lines(browser)
    assert cells["your choice"] == ["your choice", words,
                                    again.find_element(By.CSS_SELECTOR, "tr.chosen-row td").text]
    assert cells["your choice"][1] != cells["your choice"][2]
    assert [cells["lost at a table of people"][2], cells["lost double dummy"][2]] == lost_again
    assert cells["the hand's points"][2] == f"{points_again[1]}–{points_again[2]}"
    # back to the first line: its hand as it ended
    browser.find_element(By.ID, "practice-back").click()
    assert _turn(browser) == first_turn
    assert browser.find_element(By.ID, "practice-facts").text == first_facts


def _lines(browser) -> dict:
    """The two lines of a retried decision, by row: [name, first line, this line]."""
    return {r.get_attribute("data-row"): _cells(r) for r in
            browser.find_elements(By.CSS_SELECTOR, "#practice-lines tbody tr")}


def test_at_400_px_the_practice_tab_and_the_table_fit(browser, server):
    """Issue 75 item 3: at 400 px wide the Practice tab is on screen, the table and your hand
    fit, and nothing overflows sideways."""
    browser.set_window_size(400, 900)
    try:
        _open(browser, server)
        width = browser.execute_script("return window.innerWidth")
        tab = browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="practice"]')
        assert tab.is_displayed() and tab.rect["x"] + tab.rect["width"] <= width
        _deal(browser, seat=2, deal=3, game=True)
        for element in ("practice-table-view", "practice-hand", "practice-score"):
            rect = browser.find_element(By.ID, element).rect
            assert rect["x"] >= 0 and rect["x"] + rect["width"] <= width, element
        assert len(_hand(browser)) == 5
        assert browser.execute_script(
            "return document.documentElement.scrollWidth") <= width
    finally:
        browser.set_window_size(1200, 900)


def test_while_the_server_warms_up_the_page_says_what_it_prepares(browser):
    """Issue 75 item 1: before the worker is ready the page names what it prepares and the
    wait so far, then the warm-up's measured length."""
    release = threading.Event()
    worker = Worker(lambda measured: release.wait(60))
    with serving(create_app(worker)) as port:
        browser.get(f"http://127.0.0.1:{port}/")
        status = browser.find_element(By.ID, "status")
        WebDriverWait(browser, 30).until(lambda b: re.fullmatch(
            r"warming up: .+, \d+ s so far.*", status.text))
        browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="practice"]').click()
        note = browser.find_element(By.ID, "practice-warming")
        assert note.is_displayed() and "The server is preparing" in note.text
        assert "on a fresh install they compile once" in note.text
        release.set()
        WebDriverWait(browser, 30).until(lambda b: re.fullmatch(
            r"ready \(warmed up in \d+\.\d s\)", status.text))
        assert not note.is_displayed()


def test_the_page_scripts_share_no_top_level_name():
    """practice.js and app.js are plain scripts sharing one global scope: a function both
    declared would silently replace the other's."""
    def names(script: str) -> set[str]:
        return set(re.findall(r"^(?:async\s+)?(?:function\s*\*?\s*|const\s+|let\s+|var\s+)"
                              r"([A-Za-z_$][\w$]*)", script, re.M))
    shared = names((STATIC / "app.js").read_text()) & names((STATIC / "practice.js").read_text())
    assert shared == set()
    assert names("function a() {}\nconst b = 1;\nasync function c() {}") == {"a", "b", "c"}

"""The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`,
which .ci/run installs) driven by Selenium against `serve`'s app on a free loopback port.
It picks a hand by clicking, runs a small advise and reads the rendered table, which must
show what the library computes for the same question, then asks the card to lead; it reviews
a hand history and a hand entered card by card, and steps to a decision, which must show what
`review` computes; a server that wants a token is used through the page's own address. The
Practice tab's card table: tests/test_web_practice_page.py (with `chromium` from here)."""

import contextlib
import dataclasses
import json
import os
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import Select, WebDriverWait

from euchre_sim.advice.advice_request import answer, ask_any
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.advice.review import ReviewSettings, review_file, review_states
from euchre_sim.core.rules import build_rules
from euchre_sim.core.seats import SEAT_NAMES, parse_seat
from euchre_sim.core.stats import Z95
from euchre_sim.game.engine import Bid, HandState
from euchre_sim.game.history import ReplayedHand, state_to_record
from euchre_sim.play.player import Player
from euchre_sim.report.review import option_label, seat_totals
from euchre_sim.solver.calltable import solve_table
from euchre_sim.web.app import create_app
from euchre_sim.web.worker import Worker

from .helpers import run_cli
from .web_helpers import runs_tree, serving

CARDS = ["JS", "AS", "9H", "9D", "TC"]
UP = "9S"
TOKEN = "s3cret-token"


@pytest.fixture(scope="module")
def server():
    with serving(create_app()) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def remote_server(tmp_path_factory):
    """A server that wants a token (no warm-up: it runs no query), over a runs folder."""
    root, _ = runs_tree(tmp_path_factory.mktemp("runs"))
    with serving(create_app(Worker(), runs_root=root, token=TOKEN)) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def browser():
    with chromium() as chrome:
        yield chrome


@contextlib.contextmanager
def chromium():
    """Headless Chromium driven by Selenium (skipped where it is missing, failed under CI)."""
    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (binary and driver):
        why = ("no chromium and chromedriver here (make test installs them as root or with "
               "sudo; else: sudo apt-get install -y chromium chromium-driver)")
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(why)  # CI must run the page in a browser
        pytest.skip(why)
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1200,900"):
        options.add_argument(flag)
    chrome = webdriver.Chrome(service=webdriver.ChromeService(driver), options=options)
    try:
        yield chrome
    finally:
        chrome.quit()


def _open(browser, server):
    browser.get(server)
    WebDriverWait(browser, 600).until(ready.text_to_be_present_in_element((By.ID, "status"),
                                                                          "ready"))


def _rate(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _set(browser, element_id: str, value: str) -> None:
    field = browser.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(value)


def test_a_hand_picked_by_clicking_is_advised_as_the_library_advises_it(browser, server):
    _open(browser, server)
    for card in CARDS + [UP]:
        browser.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
    assert browser.find_element(By.ID, "hand-text").text == " ".join(CARDS)
    assert browser.find_element(By.ID, "ref-text").text == UP
    browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="2"]').click()
    _set(browser, "deals", "500")
    _set(browser, "seed", "3")
    WebDriverWait(browser, 30).until(ready.text_to_be_present_in_element((By.ID, "estimate"),
                                                                         "Expected wait"))
    browser.find_element(By.ID, "advise-run").click()
    WebDriverWait(browser, 120).until(
        ready.visibility_of_element_located((By.CSS_SELECTOR, "#advise-results tbody tr")))

    # the page asks at a table of people by default, as advise does with neither model named
    # (the human bidder, the learned player), from the realistic atlas where it covers the
    # hand; Refine then simulates the deals asked
    question = AdviceQuestion(build_rules(), " ".join(CARDS), 2, UP, deals=500, seed=3)
    first = answer(dataclasses.replace(question, atlas=True))
    if first["source"] == "atlas":
        _check_advice_rows(browser, first)
        assert "realistic atlas" in browser.find_element(By.ID, "advise-title").text
        old = browser.find_element(By.CSS_SELECTOR, "#advise-results tbody tr")
        browser.find_element(By.ID, "advise-refine").click()
        WebDriverWait(browser, 120).until(ready.staleness_of(old))
        WebDriverWait(browser, 120).until(
            ready.visibility_of_element_located((By.CSS_SELECTOR, "#advise-results tbody tr")))
    else:
        assert not browser.find_element(By.ID, "advise-refine").is_displayed()
    expected = answer(question)  # deals asked: simulated
    assert (expected["bidding"], expected["play"]) == ("human", "learned")
    assert "pass" in {action["action"] for action in expected["actions"]}
    _check_advice_rows(browser, expected)
    title = browser.find_element(By.ID, "advise-title").text
    assert "seat 2" in title and "500 deals" in title and "bidding human" in title
    assert "play learned" in title
    assert "dd points" in browser.find_element(By.ID, "advise-columns").text
    after = browser.find_elements(By.CSS_SELECTOR, "#after-pass tbody tr")
    assert browser.find_element(By.ID, "after-pass-box").is_displayed()
    assert len(after) == len(expected["after_pass"]) > 0


def test_a_hopeless_lone_call_at_a_score_shows_an_interval_not_a_point(browser, server):
    """Issue 55: from the atlas at 8-9, the lone call euchred on every deal of its class has
    P(win game) 0; the page shows its interval's ends (the rule of three's, not symmetric), as
    the JSON gives it, never 0.0% ± 0.0%, and (issue 76) the JSON's standard error is the
    interval's wider side over 1.96, not 0."""
    _open(browser, server)
    hand, up = ["TS", "QC", "JC", "KS", "JD"], "JH"
    for card in hand + [up]:
        browser.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
    browser.find_element(By.CSS_SELECTOR, '.seat[data-seat="1"]').click()
    _set(browser, "score", "8-9")
    old = browser.find_elements(By.CSS_SELECTOR, "#advise-results tbody tr")
    browser.find_element(By.ID, "advise-run").click()
    if old:
        WebDriverWait(browser, 120).until(ready.staleness_of(old[0]))
    WebDriverWait(browser, 120).until(
        ready.visibility_of_element_located((By.CSS_SELECTOR, "#advise-results tbody tr")))
    expected = answer(AdviceQuestion(build_rules(), " ".join(hand), 1, up, score=(8, 9)))
    alone = next(a for a in expected["actions"] if a["alone"])
    low, high = alone["p_win_ci95"]
    assert expected["source"] == "atlas" and alone["p_win"] == low == 0 and high > 0
    assert alone["p_win_se"] >= high / Z95
    row = browser.find_element(By.CSS_SELECTOR, '#advise-results tbody tr[data-alone="true"]')
    cell = row.find_element(By.CSS_SELECTOR, 'td[data-key="p_win"]').text
    assert cell == f"{_rate(alone['p_win'])} ({_rate(low)}..{_rate(high)})"


def _check_advice_rows(browser, expected: dict) -> None:
    """The results table shows every action of the answer, double dummy beside each call."""
    rows = browser.find_elements(By.CSS_SELECTOR, "#advise-results tbody tr")
    assert len(rows) == len(expected["actions"])
    for row, action in zip(rows, expected["actions"], strict=True):
        cell = {td.get_attribute("data-key"): td.text
                for td in row.find_elements(By.CSS_SELECTOR, "td[data-key]")}
        assert row.get_attribute("data-action") == action["action"]
        assert row.get_attribute("data-alone") == str(action["alone"]).lower()
        assert cell["mean_points"].replace("−", "-") == f"{action['mean_points']:+.3f}"
        assert cell["make_rate"] == _rate(action["make_rate"])
        assert cell["euchred_rate"] == _rate(action["euchred_rate"])
        low, high = (f"{x:+.3f}" for x in action["ci95"])
        assert cell["ci95"].replace("−", "-") == f"{low}..{high}"
        dd = "–" if action["action"] == "pass" else f"{action['dd_mean_points']:+.3f}"
        assert cell["dd_mean_points"].replace("−", "-") == dd


def test_a_line_says_what_the_bidder_and_the_play_model_mean(browser, server):
    _open(browser, server)
    note = browser.find_element(By.ID, "models-note")
    assert "human bidder" in note.text and "After you pass" in note.text
    assert "Play learned: a small network" in note.text  # a table of people by default
    Select(browser.find_element(By.ID, "bidding")).select_by_value("")
    Select(browser.find_element(By.ID, "play")).select_by_value("pimc")
    WebDriverWait(browser, 10).until(ready.text_to_be_present_in_element((By.ID, "models-note"),
                                                                         "Play pimc:"))
    assert "passing not among them" in note.text


def test_bad_input_shows_its_message_on_the_page(browser, server):
    _open(browser, server)
    for card in CARDS + [UP]:
        browser.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
    _set(browser, "deals", "1")
    browser.find_element(By.ID, "advise-run").click()
    WebDriverWait(browser, 30).until(ready.text_to_be_present_in_element(
        (By.ID, "advise-error"), "deals must be 2 to 200,000"))


def test_the_solve_tab_shows_the_double_dummy_table(browser, server):
    _open(browser, server)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="solve"]').click()
    deal = browser.find_element(By.ID, "solve-deal").get_attribute("value")
    browser.find_element(By.ID, "solve-run").click()
    WebDriverWait(browser, 30).until(ready.visibility_of_element_located((By.ID,
                                                                          "solve-results")))
    rules = build_rules()
    expected = solve_table(rules, rules.card_deck.parse_deal(deal), 3)  # the page's dealer: W
    for row in expected:
        cell = browser.find_element(By.CSS_SELECTOR, f'#solve-results td[data-trump='
                                    f'"{row["trump"]}"][data-alone="{row["alone"] or ""}"]')
        assert cell.text == f"{row['ns_tricks']}–{row['ew_tricks']}"


def test_the_page_sends_the_token_of_its_own_address(browser, remote_server):
    _open(browser, f"{remote_server}?token={TOKEN}")
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="tables"]').click()
    WebDriverWait(browser, 30).until(ready.text_to_be_present_in_element((By.ID, "run-list"),
                                                                         "b/c"))
    Select(browser.find_element(By.ID, "run-list")).select_by_value("a")
    WebDriverWait(browser, 30).until(ready.text_to_be_present_in_element((By.ID, "run-facts"),
                                                                         "10 deals"))
    assert browser.find_element(By.ID, "run-dir").get_attribute("value") == "a"


def test_without_the_token_the_page_says_so(browser, remote_server):
    browser.get(remote_server)
    WebDriverWait(browser, 30).until(ready.text_to_be_present_in_element((By.ID, "status"),
                                                                         "needs its token"))


def _points(x) -> str:
    return "–" if x is None else f"{x:+.3f}"


def _text(element) -> str:
    return element.text.replace("−", "-")


def test_then_what_do_i_lead_asks_the_card_as_the_library_does(browser, server):
    _open(browser, server)
    for card in CARDS + [UP]:
        browser.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
    _set(browser, "deals", "300")
    _set(browser, "seed", "3")
    browser.find_element(By.ID, "advise-run").click()
    WebDriverWait(browser, 120).until(ready.visibility_of_element_located((By.ID, "next-box")))
    # the bid's best call is the default: spades ordered up by this seat (position 1)
    assert Select(browser.find_element(By.ID, "next-trump")).first_selected_option.text == "S"
    assert Select(browser.find_element(By.ID, "next-maker")).first_selected_option \
        .get_attribute("value") == "1"
    _set(browser, "next-worlds", "60")
    browser.find_element(By.ID, "next-run").click()
    WebDriverWait(browser, 120).until(ready.visibility_of_element_located((By.ID, "next-output")))
    expected = answer(ask_any(build_rules(), {"hand": " ".join(CARDS), "up": UP, "seat": 1,
                                              "trump": "S", "maker": 1, "worlds": 60,
                                              "seed": 3, "bidding": "human"}))
    best = browser.find_element(By.ID, "next-best")
    assert best.get_attribute("data-option") == (expected["best"] or {}).get("option", "")
    if expected["best"] is None:
        assert "too close to call" in best.text
    rows = browser.find_elements(By.CSS_SELECTOR, "#next-results tbody tr")
    assert [r.get_attribute("data-option") for r in rows] == \
        [o["option"] for o in expected["options"]]
    for row, option in zip(rows, expected["options"], strict=True):
        cell = {td.get_attribute("data-key"): td for td in
                row.find_elements(By.CSS_SELECTOR, "td[data-key]")}
        assert _text(cell["pimc"]) == f"{option['pimc']:+.3f}"
        assert cell["best_share"].text == _rate(option["best_share"])


@pytest.fixture(scope="module")
def history_server(tmp_path_factory):
    """A warm server whose runs folder holds a game's hand history."""
    root = tmp_path_factory.mktemp("histories")
    run_cli(["play", "--games", "1", "--seed", "3", "--output", str(root / "game.jsonl")])
    with serving(create_app(runs_root=str(root))) as port:
        yield f"http://127.0.0.1:{port}/", root / "game.jsonl"


def _shows_decision(browser, row: dict) -> None:
    """The decision on the page is `row` (chosen option, losses, every option's values)."""
    chosen = {s.get_attribute("data-key"): _text(s) for s in
              browser.find_elements(By.CSS_SELECTOR, "#decision-chosen span[data-key]")}
    assert chosen == {"chosen": option_label(row["chosen"]), "dd_loss": _points(row["dd_loss"]),
                      "pimc_loss": _points(row["pimc_loss"])}
    options = browser.find_elements(By.CSS_SELECTOR, "#decision-options tbody tr")
    assert [o.get_attribute("data-option") for o in options] == \
        [option_label(o["option"]) for o in row["options"]]
    for element, option in zip(options, row["options"], strict=True):
        cells = {td.get_attribute("data-key"): _text(td)
                 for td in element.find_elements(By.CSS_SELECTOR, "td[data-key]")}
        assert cells == {"dd": _points(option["dd"]), "pimc": _points(option["pimc"])}


def test_the_review_tab_steps_through_a_history_as_review_computes_it(browser, history_server):
    url, history = history_server
    _open(browser, url)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="review"]').click()
    WebDriverWait(browser, 30).until(ready.text_to_be_present_in_element((By.ID, "history-list"),
                                                                         "game.jsonl"))
    Select(browser.find_element(By.ID, "history-list")).select_by_value("game.jsonl")
    _set(browser, "review-worlds", "8")
    _set(browser, "review-seed", "2")
    browser.find_element(By.ID, "review-run").click()
    WebDriverWait(browser, 300).until(ready.visibility_of_element_located((By.ID, "review-box")))
    settings = ReviewSettings(Player(worlds=8), seed=2)
    _, _, rows, _ = review_file(str(history), build_rules(), settings)
    # the first card that lost points, reached by stepping through the costly decisions
    target = next(i for i, r in enumerate(rows) if r["kind"] == "card"
                  and max(r["dd_loss"] or 0, r["pimc_loss"] or 0) > 1e-9)
    browser.find_element(By.ID, "review-costly").click()
    decision = browser.find_element(By.ID, "decision")
    for _ in range(len(rows)):
        if int(decision.get_attribute("data-index")) >= target:
            break
        browser.find_element(By.ID, "review-next").click()
    assert int(decision.get_attribute("data-index")) == target
    row = rows[target]
    title = browser.find_element(By.ID, "decision-title").text
    assert f"seat {row['seat']}" in title and f"trick {row['trick']}" in title
    assert row["category"] in title
    _shows_decision(browser, row)
    totals = seat_totals(rows)
    for seat, entry in totals.items():
        cell = browser.find_element(By.CSS_SELECTOR, f'#review-seats tr[data-seat="{seat}"] '
                                                     'td[data-key="follow"]')
        follow = entry["follow"]
        assert cell.text == f"{follow['dd_loss']:.2f} / {follow['pimc_loss']:.2f}"


def _choose(browser, selector: str, text: str | None = None) -> None:
    """Click a choice of the entry form and wait until the form has moved on (or said no)."""
    steps = browser.find_element(By.ID, "entry-steps").text
    browser.find_element(By.CSS_SELECTOR, f"#entry-choices {selector}").click()
    WebDriverWait(browser, 30).until(
        lambda b: b.find_element(By.ID, "entry-steps").text != steps
        or (text and text in b.find_element(By.ID, "entry-error").text))


def test_a_hand_entered_card_by_card_is_checked_and_reviewed(browser, history_server):
    _open(browser, history_server[0])
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="review"]').click()
    browser.find_element(By.CSS_SELECTOR, "#entry-box summary").click()
    deal = browser.find_element(By.ID, "entry-deal").get_attribute("value")
    browser.find_element(By.ID, "entry-start").click()
    WebDriverWait(browser, 30).until(ready.text_to_be_present_in_element((By.ID, "entry-turn"),
                                                                         "N to bid"))
    rules = build_rules()
    deck = rules.card_deck
    state = HandState(rules, parse_seat("W"), deck.parse_deal(deal), deck.parse_card("QD"))
    _choose(browser, '[data-bid="order_up D"]')
    state.bid(Bid(parse_seat("N"), 1, "order_up"))
    _choose(browser, '[data-card="9H"]')
    state.discard(deck.parse_card("9H"))
    _choose(browser, '[data-card="AH"]')
    state.play(parse_seat("N"), deck.parse_card("AH"))
    _choose(browser, '[data-card="TC"]', "failure to follow suit")  # E holds hearts
    assert browser.find_element(By.ID, "entry-error").text == \
        "trick 1, seat E: failure to follow suit (renege)"
    while state.phase == "play":  # the rest: each seat's first legal card, as the engine has it
        seat = state.turn
        legal = [c for c in deck.sorted_cards(state.hands[seat])
                 if state.legal_cards(seat) >> c & 1]
        buttons = browser.find_elements(By.CSS_SELECTOR, "#entry-choices .choice.legal")
        assert [b.get_attribute("data-card") for b in buttons] == \
            [deck.card_name(c) for c in legal]
        assert f"{SEAT_NAMES[seat]} to play" in browser.find_element(By.ID, "entry-turn").text
        _choose(browser, f'[data-card="{deck.card_name(legal[0])}"]')
        state.play(seat, legal[0])
    points = state.points()
    assert browser.find_element(By.ID, "entry-turn").text == \
        f"Hand complete: NS {points[0]}, EW {points[1]}."
    _set(browser, "review-worlds", "8")
    _set(browser, "review-seed", "0")
    browser.find_element(By.ID, "entry-review").click()
    WebDriverWait(browser, 300).until(ready.visibility_of_element_located((By.ID, "review-box")))
    WebDriverWait(browser, 30).until(ready.text_to_be_present_in_element((By.ID, "review-facts"),
                                                                         "1 hands"))
    record = json.loads(json.dumps(state_to_record(state, "entered")))
    rows = review_states([("entered", ReplayedHand(state, [0] * 4))],
                         ReviewSettings(Player(worlds=8), seed=0))
    assert browser.find_element(By.ID, "review-where").text == f"decision 1 of {len(rows)}"
    assert record["bids"][0]["action"] == "order_up"
    _shows_decision(browser, rows[0])

"""The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`,
which .ci/run installs) driven by Selenium against `serve`'s app on a free loopback port.
It picks a hand by clicking, runs a small advise and reads the rendered table, which must
show what the library computes for the same question; a server that wants a token is used
through the page's own address."""

import os
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import Select, WebDriverWait

from euchre_sim.advice.advice_request import answer
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.core.rules import build_rules
from euchre_sim.solver.calltable import solve_table
from euchre_sim.web.app import create_app
from euchre_sim.web.worker import Worker

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
    yield chrome
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

    # the page asks with the human bidder by default (a table of people like those of the
    # online site): passing is one of the actions
    expected = answer(AdviceQuestion(build_rules(), " ".join(CARDS), 2, UP, deals=500, seed=3,
                                     bidding="human"))
    assert "pass" in {action["action"] for action in expected["actions"]}
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
    title = browser.find_element(By.ID, "advise-title").text
    assert "seat 2" in title and "500 deals" in title and "bidding human" in title
    after = browser.find_elements(By.CSS_SELECTOR, "#after-pass tbody tr")
    assert browser.find_element(By.ID, "after-pass-box").is_displayed()
    assert len(after) == len(expected["after_pass"]) > 0


def test_a_line_says_what_the_bidder_and_the_play_model_mean(browser, server):
    _open(browser, server)
    note = browser.find_element(By.ID, "models-note")
    assert "human bidder" in note.text and "After you pass" in note.text
    assert "Play dd: double dummy" in note.text
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

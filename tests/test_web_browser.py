"""The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`,
which .ci/run installs) driven by Selenium against `serve`'s app on a free loopback port.
It picks a hand by clicking, runs a small advise and reads the rendered table, which must
show what the library computes for the same question."""

import shutil
import socket
import threading
import time

import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

from euchre_sim.core.rules import build_rules
from euchre_sim.sim.advise import advise
from euchre_sim.solver.calltable import solve_table
from euchre_sim.web.app import create_app

CARDS = ["JS", "AS", "9H", "9D", "TC"]
UP = "9S"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    app_server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                               log_level="warning"))
    thread = threading.Thread(target=app_server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not app_server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    app_server.should_exit = True
    thread.join(timeout=60)


@pytest.fixture(scope="module")
def browser():
    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert binary and driver, "install the browser: apt-get install -y chromium chromium-driver"
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

    expected = advise(build_rules(), " ".join(CARDS), 2, UP, deals=500, seed=3)
    rows = browser.find_elements(By.CSS_SELECTOR, "#advise-results tbody tr")
    assert len(rows) == len(expected["actions"])
    for row, action in zip(rows, expected["actions"], strict=True):
        cell = {td.get_attribute("data-key"): td.text
                for td in row.find_elements(By.CSS_SELECTOR, "td[data-key]")}
        assert row.get_attribute("data-action") == action["action"]
        assert row.get_attribute("data-alone") == str(action["alone"]).lower()
        assert cell["mean_points"].replace("−", "-") == f"{action['mean_points']:+.3f}"
        assert cell["make_rate"] == f"{100 * action['make_rate']:.1f}%"
        assert cell["euchred_rate"] == f"{100 * action['euchred_rate']:.1f}%"
        low, high = (f"{x:+.3f}" for x in action["ci95"])
        assert cell["ci95"].replace("−", "-") == f"{low}..{high}"
    title = browser.find_element(By.ID, "advise-title").text
    assert "seat 2" in title and "500 deals" in title


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

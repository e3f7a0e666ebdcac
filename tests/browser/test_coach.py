"""The coach in Chromium: "How did I set it?" offered only once the round is settled, its analysis in words
and cards (loading, then the verdict), the History dialog's figure per hand, its "Analyse" button (a refusal
explained with its wait, then the analysis) and the session's score; and a practice deal played from the
lobby to the coach's analysis, then dealt again against another House Way. Screenshots at three sizes;
axe-core finds nothing serious in the dialog or the practice page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from tests.browser.test_accessibility import serious_violations
from tests.browser.wire import Wire

from paigow.rules import legal_splits, parse_cards
from paigow.rules.house_rules import HouseRules, HouseWayName
from paigow.rules.house_way import house_way, house_way_clause
from paigow.rules.house_way_text import clause_text
from paigow.rules.showdown import showdown
from paigow.rules.splits import split_from_low

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (360, 740), (1366, 768), (1920, 1080)]
TIMERS = {"betting_ms": 120_000, "setting_ms": 120_000, "between_rounds_ms": 120_000}
VERDICT = re.compile(r"You set the best split\.|The best split would have gained \d+\.\d+ units more: "
                     r"you gave up \d+(\.\d)?% of your bet on average\.")
ODDS = re.compile(r"EV [+−]\d\.\d{3} per unit bet · win \d+%")


def shots(site: Any, page: Page, name: str) -> None:
    size = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        site.shot(page, f"coach-{name}-{width}x{height}")
    if size:
        page.set_viewport_size(size)


def setter_keys(page: Page) -> dict[str, str]:
    """The seven cards of the setter: card text -> its key (1..7)."""
    pairs = page.eval_on_selector_all(".setter [data-key]",
                                      "els => els.map((e) => [e.dataset.card, e.dataset.key])")
    return dict(pairs)


def deal_beside_walt(page: Page, site: Any, wire: Wire, name: str, timers: dict[str, int]) -> str:
    """Sit at a new table beside a wire player (Walt), both bet $10, Walt sets by the House Way once the
    hands are dealt; the table's id."""
    table = site.open_table(name, **timers)
    page.goto(f"{site.url}/table/?id={table}")
    page.click("[data-seat='2']")
    page.fill("#buy-in", "200")
    page.click("#sit-confirm")
    walt = wire(table, f"{name} Walt")
    walt.command("sit", seat=5, buy_in_cents=20_000)
    walt.command("place_bet", amount_cents=1_000)
    page.fill("#bet-amount", "10")
    page.click("#place-bet")
    expect(page.locator("[data-panel='setter']")).to_be_visible()
    walt.command("use_house_way")
    return table


def play_round(page: Page, site: Any, wire: Wire, name: str) -> str:
    """Sit at a new table beside a wire player, bet and set a hand by two keys; the table's id. Before the
    last hand is set there is no "How did I set it?"."""
    table = deal_beside_walt(page, site, wire, name, TIMERS)
    keys = setter_keys(page)
    for card in map(str, legal_splits(parse_cards(" ".join(keys)))[-1].low):
        page.keyboard.press(keys[card])
    expect(page.locator("#coach-open")).to_have_count(0)  # the round is not settled: nothing to offer yet
    page.keyboard.press("Enter")
    expect(page.locator("#my-result")).to_be_visible()
    return table


def test_how_did_i_set_it_after_the_round_and_in_the_history(site: Any, wire: Wire) -> None:
    cora = site.player("Cora", width=1366, height=768)
    play_round(cora, site, wire, "Coach One")
    expect(cora.locator("#coach-open")).to_be_visible()
    shots(site, cora, "results")
    held: list[Route] = []

    def hold(route: Route) -> None:  # the request waits while the loading state is looked at
        held.append(route)

    cora.route("**/analysis", hold)
    cora.click("#coach-open")
    expect(cora.locator("#coach-dialog")).to_be_visible()
    expect(cora.locator("#coach-title")).to_have_text("How did I set it?")
    expect(cora.locator("#coach-loading")).to_contain_text("working it out")
    shots(site, cora, "loading")
    assert len(held) == 1
    held[0].continue_()
    cora.unroute("**/analysis")
    expect(cora.locator("#coach-verdict")).to_have_text(VERDICT, timeout=30_000)
    expect(cora.locator("#coach-chosen .card")).to_have_count(7)
    expect(cora.locator("#coach-chosen .coach-odds")).to_contain_text(ODDS)
    if "best split would" in (cora.locator("#coach-verdict").text_content() or ""):
        expect(cora.locator("#coach-best .card")).to_have_count(7)
    expect(cora.locator(".coach-about")).to_contain_text("Trump Plaza House Way")
    shots(site, cora, "dialog")
    assert serious_violations(cora) == []
    cora.keyboard.press("Escape")
    expect(cora.locator("#coach-dialog")).to_be_hidden()

    # A second table's round, analysed from the History dialog: first refused (the wait said), then done.
    play_round(cora, site, wire, "Coach Two")
    cora.click("#history-btn")
    expect(cora.locator("#coach-session")).to_contain_text("This session at Coach Two: 0 of 1 hand analysed")
    rows = cora.locator("#my-history tbody tr")
    expect(rows).to_have_count(2)
    # Each hand names its table: the two rounds are both "#1".
    expect(rows.nth(0).locator("td").first).to_have_text("Coach Two #1")
    expect(rows.nth(1).locator("td").first).to_have_text("Coach One #1")
    expect(rows.nth(1).locator(".coach-figure")).to_have_text(re.compile(r"Best split ✓|Gave up \d\.\d{3}"))

    def busy(route: Route) -> None:
        route.fulfill(status=429, headers={"Retry-After": "7", "Content-Type": "application/json"},
                      body=json.dumps({"error": "RATE_LIMITED", "message": "too many analyses",
                                       "retry_after_s": 7}))

    cora.route("**/analysis", busy)
    rows.nth(0).locator(".coach-analyse").click()
    expect(cora.locator("#coach-error")).to_have_text(
        "You have asked the coach for many analyses this minute: try again in 7 seconds.")
    shots(site, cora, "refused")
    cora.unroute("**/analysis")
    cora.click("#coach-retry")
    expect(cora.locator("#coach-verdict")).to_have_text(VERDICT, timeout=30_000)
    cora.keyboard.press("Escape")
    expect(rows.nth(0).locator(".coach-figure")).to_have_text(re.compile(r"Best split ✓|Gave up \d\.\d{3}"))
    expect(cora.locator("#coach-session")).to_contain_text("1 of 1 hand analysed")
    expect(cora.locator("#coach-session")).to_contain_text(re.compile(r"EV given up \d\.\d{3} in all"))
    shots(site, cora, "history")
    assert site.errors == []


def test_a_hand_the_house_way_set_after_a_time_out_is_not_praised_nor_scored(site: Any, wire: Wire) -> None:
    """Cora lets the setting clock run out: the dialog and the History say the House Way set her hand after
    a time-out, never "You set the best split", and the session's score leaves the hand out."""
    cora = site.player("Cora", width=1366, height=768)
    deal_beside_walt(cora, site, wire, "Coach Late", {**TIMERS, "setting_ms": 8_000})
    expect(cora.locator("#coach-open")).to_be_visible(timeout=20_000)  # time ran out, the round settled
    cora.click("#coach-open")
    expect(cora.locator("#coach-who")).to_have_text(
        "Set by the House Way after a time-out: your time to set ran out, so this is not your setting and "
        "your session's score leaves it out.", timeout=30_000)
    verdict = cora.locator("#coach-verdict")
    expect(verdict).to_have_text(re.compile(r"The House Way's split was the best split\.|The best split "
                                            r"would have gained \d+\.\d+ units more than the House Way's"))
    expect(verdict).not_to_contain_text("You set")
    expect(cora.locator("#coach-chosen h3")).to_have_text("The House Way's split, set after the time-out")
    shots(site, cora, "timed-out-dialog")
    assert serious_violations(cora) == []
    cora.keyboard.press("Escape")

    cora.click("#history-btn")
    session = cora.locator("#coach-session")
    expect(session).to_contain_text("This session at Coach Late: no hand you set to score")
    expect(session).to_contain_text("1 set by the House Way after a time-out, not scored")
    row = cora.locator("#my-history tbody tr").first
    expect(row).to_contain_text("Set by the House Way after a time-out (")
    expect(row.locator(".coach-figure")).to_have_text("Not scored")  # analysed above, kept, not scored
    shots(site, cora, "timed-out-history")
    assert site.errors == []


def practice_answer(page: Page) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate("window.paigow.ctx.answer")
    return answer


def check_answer(page: Page, way: HouseWayName) -> None:
    """The page shows what the server answered, and the answer is the rules' own."""
    a = practice_answer(page)
    rules = HouseRules(house_way=way)
    dealer = parse_cards(" ".join(a["dealer"]["dealt"]))
    dealer_split = house_way(dealer, rules)
    assert sorted(a["dealer"]["low"]) == sorted(str(c) for c in dealer_split.low)
    mine = split_from_low(parse_cards(" ".join(a["cards"])), parse_cards(" ".join(a["you"]["low"])))
    assert str(showdown(mine, dealer_split, rules).outcome) == a["result"]["outcome"]
    expect(page.locator("#result-title")).to_have_class(re.compile(a["result"]["outcome"]))
    expect(page.locator(".practice-side .card")).to_have_count(14)
    expect(page.locator("#practice-marks li")).to_have_count(2)
    expect(page.locator("#coach-verdict")).to_have_text(VERDICT)
    # "Copies go to the banker" only when a hand was a copy.
    copy = "copy" in (a["result"]["high"], a["result"]["low"])
    expect(page.locator("#result-title")).to_have_text(OUTCOME_WORDS[a["result"]["outcome"]] + (
        " (copies go to the banker)." if copy and a["result"]["outcome"] == "loss" else
        "." if a["result"]["outcome"] == "loss" else ""))


OUTCOME_WORDS = {"win": "You win: both your hands beat the dealer's.",
                 "push": "Push: one hand each, the bet would come back.",
                 "loss": "You lose: the dealer took both hands"}


def test_a_practice_deal_played_to_its_analysis(site: Any) -> None:
    page = site.player("Pia", width=390, height=844)
    expect(page.locator("#practice-link")).to_be_visible()
    shots(site, page, "lobby")
    page.click("#practice-link")
    expect(page).to_have_url(re.compile(r"/practice/$"))
    expect(page.locator(".setter [data-key]")).to_have_count(7)
    expect(page.locator("#practice-lead .kbd-hint")).to_be_hidden()  # no keys to press on a phone
    page.wait_for_timeout(900)  # the cards' flip ends
    shots(site, page, "practice-setting")
    assert serious_violations(page) == []
    keys = setter_keys(page)
    for card in map(str, legal_splits(parse_cards(" ".join(keys)))[0].low):
        page.keyboard.press(keys[card])
    page.keyboard.press("Enter")
    expect(page.locator("#result-title")).to_be_visible(timeout=30_000)
    expect(page.locator("#dealer-clause")).to_contain_text("Set by the Trump Plaza House Way (")
    check_answer(page, HouseWayName.TRUMP_PLAZA)
    shots(site, page, "practice-result")
    assert serious_violations(page) == []

    page.select_option("#practice-way", "foxwoods")  # applies to the next deal
    page.click("#deal-again")
    expect(page.locator(".setter [data-key]")).to_have_count(7)
    assert page.evaluate("window.paigow.ctx.deal.house_way") == "foxwoods"
    # House Way arranges the cards as the Foxwoods House Way sets them, with its clause; nothing is sent
    # until Done (as at the table).
    seven = parse_cards(" ".join(page.evaluate("window.paigow.ctx.deal.cards")))
    split = house_way(seven, HouseRules(house_way=HouseWayName.FOXWOODS))
    clause = clause_text(house_way_clause(seven, HouseRules(house_way=HouseWayName.FOXWOODS)), split)
    page.click("#house-way")
    expect(page.locator("#hw-clause")).to_have_text(f"The Foxwoods House Way ({clause}).")
    expect(page.locator("#set-status")).to_contain_text("Nothing is sent until you press Done.")
    low = page.eval_on_selector_all(".setter-row[aria-label='low hand'] [data-card]",
                                    "els => els.map((e) => e.dataset.card)")
    assert sorted(low) == sorted(str(c) for c in split.low)
    assert page.evaluate("window.paigow.ctx.answer") is None
    shots(site, page, "practice-preview")
    assert page.evaluate("window.paigow.ctx.answer") is None
    page.click("#done")
    expect(page.locator("#result-title")).to_be_visible(timeout=30_000)
    expect(page.locator("#dealer-clause")).to_contain_text("Set by the Foxwoods House Way")
    check_answer(page, HouseWayName.FOXWOODS)
    assert practice_answer(page)["you"]["set_by"] == "house_way"
    assert site.errors == []


FOUL_DOC = {
    "chosen": {"low": ["As", "Kd"], "high": ["Qh", "JK", "9c", "5d", "2s"], "high_name": "ace high",
               "low_name": "ace-king", "win": 0, "push": 0, "loss": 1, "ev": -1, "ev_se": 0, "legal": False},
    "best": {"low": ["Kd", "Qh"], "high": ["As", "JK", "9c", "5d", "2s"], "high_name": "pair of aces",
             "low_name": "king-queen", "win": 0.3979, "push": 0.4614, "loss": 0.1407, "ev": 0.2373},
    "ev_given_up": 1.2373, "samples": 60000, "exact": False, "rules": {"house_way": "foxwoods"},
}


def test_a_foul_set_is_explained(module_page: Page) -> None:
    """A foul set (legal: false, under foul_policy "lose") is said to be an automatic loss, with the best."""
    texts: list[str] = module_page.evaluate("""async (doc) => {
        const { coachNodes } = await import('/js/coach.js');
        doc.house_way = doc.best;
        return coachNodes(doc).map((n) => n.textContent);
    }""", FOUL_DOC)
    assert texts[0] == ("Your split was a foul: an automatic loss. The best split would have won +0.237 "
                        "per unit bet on average.")
    assert "A foul: it loses whatever the dealer holds (EV −1)." in texts[1]
    assert "The best split" in texts[2]
    assert "EV +0.237 per unit bet · win 40% · push 46% · loss 14%" in texts[2]
    assert "Foxwoods House Way" in texts[-1]

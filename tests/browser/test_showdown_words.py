"""The words of a round a player reads (issue 30, defects 7, 12 and 14): the showdown names what decided a
hand when the names alone do not (a kicker, the lower of two pairs, a copy: "the banker wins ties"); a key
hint is a key cap, never "(0)" that reads as a count; the Dragon offer says what the Dragon hand is, in
turn, with no position number; and History shows the play first, the seeds and commitments folded behind
"Verify this round".

The words of each kind of comparison are checked on results.js itself (records made here); a rigged round
(``support.rigged``: ``kicker_decides``) shows one on the table page at 390x844, 360x740, 1366x768 and
1920x1080, with the betting key hints, the Dragon offer and the History dialog of the same table.
Screenshots: test-artifacts/browser/matrix-words-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.layout import check, seated_at_new_table
from tests.browser.wire import WirePlayer

pytestmark = pytest.mark.browser

# (the player's high, low; the banker's high, low) -> the breakdown's High and Low lines.
CASES = [
    pytest.param(("As Ad Kc 9h 4s", "2c 3d"), ("Ah Ac Qd 9c 4d", "5h 6s"),
                 "High: Pat — pair of aces, king kicker, beats pair of aces, queen kicker · "
                 "Low: the banker — six-five beats three-two", id="kicker"),
    pytest.param(("As Ad Kc 9h 3s", "2c 4d"), ("Ah Ac Kd 9c 4d", "5h 6s"),
                 "High: the banker — pair of aces, king-nine-four kickers, beats pair of aces, "
                 "king-nine-three kickers · Low: the banker — six-five beats four-two", id="third-kicker"),
    pytest.param(("As Ad Kc Kh 4s", "2c 3d"), ("Ah Ac Qd Qc 9d", "5h 6s"),
                 "High: Pat — two pair, aces and kings beats two pair, aces and queens: the lower pair "
                 "decides · Low: the banker — six-five beats three-two", id="lower-pair"),
    pytest.param(("Ac Kd 9h 7s 4c", "2c 3d"), ("Ah Qc 9d 7c 3d", "5h 6s"),
                 "High: Pat — ace-king high beats ace-queen high · "
                 "Low: the banker — six-five beats three-two", id="high-card"),
    pytest.param(("As Ad Kc 9h 4s", "Ks Qd"), ("Ah Ac Kd 9c 4d", "Kh Qc"),
                 "High: the banker — copy (pair of aces, kickers alike): the banker wins ties · "
                 "Low: the banker — copy (king-queen): the banker wins ties", id="exact-tie"),
    pytest.param(("Ts Td 8c 8h 4s", "9s 9d"), ("7h 7c 6d 6c 2d", "9h 9c"),
                 "High: Pat — two pair, tens and eights beats two pair, sevens and sixes · "
                 "Low: the banker — copy (pair of nines): the banker wins ties", id="low-pair-tie"),
]

BREAKDOWN_JS = """async ([mine, banker]) => {
  const c = await import('/js/cards.js');
  const e = await import('/js/hand_eval.js');
  const r = await import('/js/results.js');
  const hand = ([high, low], extra) => ({ high: high.split(' '), low: low.split(' '),
    high_name: e.evaluateHigh(high.split(' ').map(c.parseCard)).name,
    low_name: e.evaluateLow(low.split(' ').map(c.parseCard)).name, fouled: false, ...extra });
  const record = { banker_player_id: null, hands: [
    hand(banker, { position: 0, is_banker: true, player_id: null }),
    hand(mine, { position: 1, is_banker: false, player_id: 'p1', outcome: 'push', wager_cents: 1000,
                 net_cents: 0, gross_cents: 0, commission_cents: 0 })] };
  const b = r.breakdown(record, { wheel: 'second' }, (h) => (h.is_banker ? 'Dealer' : 'Pat'));
  const row = b.rows[0];
  const winner = (p) => (p.mark === 'win' ? p.winner : 'the banker');
  return `High: ${winner(row.high)} — ${row.high.why} · Low: ${winner(row.low)} — ${row.low.why}`;
}"""


@pytest.mark.parametrize(("mine", "banker", "words"), CASES)
def test_the_showdown_names_what_decided_each_hand(module_page: Page, mine: tuple[str, str],
                                                    banker: tuple[str, str], words: str) -> None:
    assert module_page.evaluate(BREAKDOWN_JS, [list(mine), list(banker)]) == words


TABLE = "Kicker Night"
ME = "Penelope Longname-Smythe"
RULES = {"fortune_enabled": False, "dragon_enabled": True, "dragon_offer_ms": 120_000}
TIMERS = {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 120_000,
          "between_rounds_ms": 120_000}


def on_all(pages: dict[str, Page], script: str) -> None:
    for page in pages.values():
        page.wait_for_function(script, timeout=30_000)


def test_a_round_in_words_key_caps_the_dragon_offer_the_kicker_and_history_folded(
        make_site: Callable[..., Site]) -> None:
    site = make_site({}, rigs={TABLE: {1: "kicker_decides"}})
    table, pages = seated_at_new_table(site, TABLE, RULES, TIMERS, ME)
    me = pages["laptop"]
    bob = WirePlayer(site.url, table, "Bob")
    try:
        problems = play(site, pages, me, bob)
    finally:
        bob.close()
    assert problems == [], "\n".join(problems)
    assert site.errors == []


def play(site: Site, pages: dict[str, Page], me: Page, bob: WirePlayer) -> list[str]:
    problems: list[str] = []
    bob.command("sit", seat=2, buy_in_cents=50_000)
    on_all(pages, "() => window.paigow.ctx.view?.you?.can?.bet")
    # Betting on a laptop: each key hint a key cap beside the words, out of the button's name.
    for size in ("laptop", "full-hd"):
        repeat = pages[size].locator("#repeat-bet")
        expect(repeat.locator(".kbd-hint kbd")).to_have_text("0")
        expect(repeat.locator(".kbd-hint kbd")).to_be_visible()
        expect(repeat).to_have_accessible_name("Repeat last bet")
        expect(repeat).to_have_attribute("aria-keyshortcuts", "0")
        expect(pages[size].locator("#place-bet")).to_have_accessible_name("Place bet")
        assert "(0)" not in repeat.inner_text()
    for size in ("phone", "small-phone"):
        expect(pages[size].locator("#repeat-bet .kbd-hint")).to_be_hidden()  # no keys on a phone
    check(site, pages, "words-betting", problems)

    # The Dragon offer, as the player waiting on it reads it: what the hand is, in turn, no position.
    me.fill("#bet-amount", "10")
    me.click("#place-bet")
    on_all(pages, "() => window.paigow.ctx.view?.you?.bet_cents === 1000")
    bob.command("place_bet", amount_cents=1_000)
    on_all(pages, "() => window.paigow.ctx.view?.phase === 'dragon_offer'")
    first = me.evaluate("window.paigow.ctx.view.round.dragon.offered_seat")
    if first == 1:
        me.click("#dragon-pass")
        waiting = ("The Dragon hand is offered to Bob now that you passed: the cards of a seat nobody plays, "
                   "a second hand against the bank, offered to each player in turn.")
    else:
        waiting = ("The Dragon hand is offered to Bob: the cards of a seat nobody plays, a second hand "
                   "against the bank, offered to each player in turn.")
    for page in pages.values():
        expect(page.locator(".dragon-wait")).to_have_text(waiting)
    check(site, pages, "words-dragon-waiting", problems)
    bob.command("pass_dragon")
    if first != 1:  # the offer comes round to me after Bob
        on_all(pages, "() => Boolean(window.paigow.ctx.view?.you?.can?.dragon)")
        me.click("#dragon-pass")

    # The showdown: both high hands a pair of one rank, so the line names the kicker that decided it.
    on_all(pages, "() => window.paigow.ctx.view?.you?.can?.set_hand")
    me.click("#house-way")  # arranges the House Way's split; Done sends it
    me.click("#done")
    bob.command("use_house_way")
    on_all(pages, "() => window.paigow.ctx.showdown?.number === 1")
    record: dict[str, Any] = me.evaluate("window.paigow.ctx.showdown")
    mine = next(h for h in record["hands"] if h["position"] == 1)
    dealer = next(h for h in record["hands"] if h["is_banker"])
    assert mine["high_name"] == dealer["high_name"], record
    assert mine["high_name"].startswith("pair of "), record
    name = mine["high_name"]
    high = re.compile(rf"High: (the banker|{ME}) — ({name}, \w+ kicker, beats {name}, \w+ kicker"
                      rf"|{name}, [\w-]+ kickers, beats {name}, [\w-]+ kickers"
                      rf"|copy \({name}, kickers alike\): the banker wins ties)")
    for page in pages.values():
        row = page.locator("[data-panel='breakdown'] [data-breakdown-row='1']")
        expect(row).to_contain_text(high)
        assert f"{name} beats {name}" not in row.inner_text()
    check(site, pages, "words-showdown", problems)

    # History: the play first; the seed and the commitment behind "Verify this round", whose link checks it.
    for page in pages.values():
        page.click("#history-btn")
        first = page.locator("#table-history tbody tr").first
        expect(first.locator("details.fair summary")).to_have_text("Verify this round")
        expect(first.locator("details.fair code").first).to_be_hidden()
        expect(first.locator(".verify-link")).to_be_hidden()
    check(site, pages, "words-history", problems)
    phone = pages["phone"]
    phone.locator("#table-history tbody tr").first.locator("details.fair summary").click()
    link = phone.locator("#table-history .verify-link").first
    expect(link).to_be_visible()
    expect(phone.locator("#table-history details.fair[open] code")).to_have_count(2)
    link.scroll_into_view_if_needed()
    phone.screenshot(path=str(site.artifacts / "matrix-words-history-verify-open-phone.png"))
    href = link.get_attribute("href")
    assert href
    check_page = site.page(width=390, height=844)
    check_page.goto(f"{site.url}{href}")
    expect(check_page.locator("#verdict")).to_contain_text("Verified")
    return problems

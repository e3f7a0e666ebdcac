"""The House Way button arranges, Done sends (issue 30, defect 4): tapping House Way (or the H key) shows the
player's seven cards as the table's House Way sets them, with the clause that set them, and sends nothing;
Done sends it, and the round's record has the House Way's split. "Always set my hand by the House Way" (a
setting of the browser) sends the House Way's hand by itself as soon as it is dealt. Screenshots of the
preview and of the setting at the four sizes of the layout matrix: test-artifacts/browser/matrix-hw-*.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.layout import check, seated_at_new_table
from tests.browser.wire import WirePlayer

from paigow.rules import HouseRules, house_way, parse_cards
from paigow.rules.house_way import house_way_clause
from paigow.rules.house_way_text import clause_text

pytestmark = pytest.mark.browser

ME = "Penelope Longname-Smythe"
RULES = {"fortune_enabled": False, "player_banking": False}
BOTTOM_SEAT = 3
"""The other player's seat: at the bottom of the table, just above the setter on a phone."""
TIMERS = {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 120_000, "between_rounds_ms": 1_000}

# Every command the page sends, by type, recorded as it leaves (the button's click sends synchronously).
RECORD_SENT = """() => {
  const s = window.paigow.socket;
  window.sentTypes = [];
  const ws = s.ws;
  const send = ws.send.bind(ws);
  ws.send = (data) => { window.sentTypes.push(JSON.parse(data).type); send(data); };
}"""
MY_HAND = ("(() => { const v = window.paigow.ctx.view; "
           "return v.round?.hands?.find((h) => h.position === v.you.position) ?? null; })()")


def the_house_way(cards: list[str]) -> tuple[set[str], set[str], str]:
    """(high, low, clause) of seven cards by the default House Way, from the Python core."""
    seven = parse_cards(" ".join(cards))
    split = house_way(seven, HouseRules())
    return ({str(c) for c in split.high}, {str(c) for c in split.low},
            clause_text(house_way_clause(seven, HouseRules()), split))


def on_all(pages: dict[str, Page], script: str) -> None:
    for page in pages.values():
        page.wait_for_function(script)


def shown_split(page: Page) -> tuple[set[str], set[str]]:
    cards = "els => els.map((e) => e.dataset.card)"
    high = page.eval_on_selector_all(".setter-row[aria-label='high hand'] [data-card]", cards)
    low = page.eval_on_selector_all(".setter-row[aria-label='low hand'] [data-card]", cards)
    return set(high), set(low)


def my_record_hand(page: Page, number: int) -> dict[str, Any]:
    page.wait_for_function(f"() => window.paigow.ctx.rounds[0]?.number === {number}")
    record: dict[str, Any] = page.evaluate("window.paigow.ctx.rounds[0]")
    return next(h for h in record["hands"] if h["position"] == 1)


def test_house_way_previews_done_sends_and_always_sends_by_itself(make_site: Callable[..., Site]) -> None:
    # Round 1's first hand goes to the bottom seat's player: "Dice N: first hand to Rosalind Featherstone"
    # takes two lines in a phone's centre, just above that seat's bet and the setter.
    site = make_site({}, rigs={"House Way preview": {1: "first_hand_to_seat_3"}})
    table, pages = seated_at_new_table(site, "House Way preview", RULES, TIMERS, ME)
    me = pages["laptop"]
    bob = WirePlayer(site.url, table, "Rosalind Featherstone")
    problems: list[str] = []
    try:
        # A bottom seat: its bet chip keeps off the setter's top edge at every size (the layout check).
        bob.command("sit", seat=BOTTOM_SEAT, buy_in_cents=20_000)
        on_all(pages, "() => window.paigow.ctx.view?.you?.can?.bet")
        me.fill("#bet-amount", "10")
        me.click("#place-bet")
        bob.command("place_bet", amount_cents=1_000)
        dealt = "() => { const y = window.paigow.ctx.view?.you; return y?.can?.set_hand && y.house_way; }"
        on_all(pages, dealt)
        cards: list[str] = me.evaluate(f"{MY_HAND}.cards")
        high, low, clause = the_house_way(cards)

        # House Way arranges the cards and says the clause; nothing is sent, the hand is not set.
        for page in pages.values():
            page.evaluate(RECORD_SENT)
            expect(page.locator("[data-panel='setter']")).to_be_visible()
            page.click("#house-way")
            expect(page.locator("#hw-clause")).to_have_text(f"The Trump Plaza House Way ({clause}).")
            expect(page.locator("#set-status")).to_contain_text("Nothing is sent until you press Done.")
            assert shown_split(page) == (high, low)
            assert page.evaluate("window.sentTypes") == []
            assert page.evaluate(f"{MY_HAND}.is_set") is False
        check(site, pages, "hw-preview", problems)

        # A card moved leaves the preview; the H key arranges it again.
        first_low = sorted(low)[0]
        me.click(f"#set-card-{first_low}")
        expect(me.locator("#hw-clause")).to_have_count(0)
        me.locator("body").press("h")
        expect(me.locator("#hw-clause")).to_have_text(f"The Trump Plaza House Way ({clause}).")
        assert me.evaluate("window.sentTypes") == []

        # Done sends it (as the House Way: its clause is the record's).
        me.click("#done")
        me.wait_for_function(f"() => {MY_HAND}.is_set")
        assert me.evaluate("window.sentTypes") == ["use_house_way"]
        expect(me.locator("#hw-clause")).to_have_text(f"Hand set ✓ by the House Way ({clause}).")

        # The setting, explained beside the setter, on at every size (the pages share the browser's storage).
        me.check("#always-house-way")
        for page in pages.values():
            expect(page.locator("#always-house-way")).to_be_checked()
            expect(page.locator("#always-house-way-why")).to_contain_text("as soon as it is dealt")
        check(site, pages, "hw-always", problems)
        bob.command("use_house_way")
        mine = my_record_hand(me, 1)
        assert (set(mine["high"]), set(mine["low"])) == (high, low)
        assert (mine["set_by"], mine["house_way_clause"]) == ("house_way", clause)

        # Round 2, "always" on: the dealt hand is sent by itself, as the House Way sets it.
        on_all(pages, "() => window.paigow.ctx.view?.you?.can?.bet")
        for page in pages.values():
            page.evaluate(RECORD_SENT)
        me.fill("#bet-amount", "10")
        me.click("#place-bet")
        bob.command("place_bet", amount_cents=1_000)
        on_all(pages, f"() => window.paigow.ctx.view?.phase === 'setting' && {MY_HAND}?.is_set")
        assert "use_house_way" in me.evaluate("window.sentTypes")
        cards = me.evaluate(f"{MY_HAND}.cards")
        high, low, clause = the_house_way(cards)
        expect(me.locator("#hw-clause")).to_have_text(f"Hand set ✓ by the House Way ({clause}).")
        check(site, pages, "hw-always-sent", problems)
        bob.command("use_house_way")
        mine = my_record_hand(me, 2)
        assert (set(mine["high"]), set(mine["low"])) == (high, low)
        assert (mine["set_by"], mine["house_way_clause"]) == ("house_way", clause)
        expect(me.locator("[data-panel='breakdown']")).to_contain_text(f"House Way: {clause}")
    finally:
        bob.close()
    assert problems == [], "\n".join(problems)
    assert site.errors == []


def seated_with_bob(site: Site, table_name: str, me: str) -> tuple[dict[str, Page], WirePlayer]:
    """``me`` on four pages at seat 1 of a new table, Bob at the bottom seat, betting open."""
    table, pages = seated_at_new_table(site, table_name, RULES, TIMERS, me)
    bob = WirePlayer(site.url, table, "Bob")
    bob.command("sit", seat=BOTTOM_SEAT, buy_in_cents=20_000)
    on_all(pages, "() => window.paigow.ctx.view?.you?.can?.bet")
    return pages, bob


def both_bet(pages: dict[str, Page], bob: WirePlayer) -> None:
    """$10 from my laptop's page, then Bob's: the cards are dealt."""
    pages["laptop"].fill("#bet-amount", "10")
    pages["laptop"].click("#place-bet")
    bob.command("place_bet", amount_cents=1_000)


def test_always_house_way_turns_off_with_one_tap(site: Site) -> None:
    pages, bob = seated_with_bob(site, "Always off", "Ola Offswitch")
    me = pages["phone"]
    try:
        me.evaluate(RECORD_SENT)
        both_bet(pages, bob)
        me.wait_for_function("() => window.paigow.ctx.view?.you?.house_way")
        expect(me.locator("#always-house-way")).not_to_be_checked()
        assert me.evaluate("window.sentTypes") == []
        me.click("#always-house-way")  # on: the hand not yet set is sent now
        me.wait_for_function(f"() => {MY_HAND}.is_set")
        assert me.evaluate("window.sentTypes") == ["use_house_way"]
        me.click("#always-house-way")  # off again: one tap
        expect(me.locator("#always-house-way")).not_to_be_checked()
        assert me.evaluate("localStorage.getItem('paigow.alwaysHouseWay')") == "0"
    finally:
        bob.close()
    assert site.errors == []


def test_always_house_way_is_chosen_before_the_deal(site: Site) -> None:
    """The setting is in the seat's options too (with Sit out and Leave) on a wide screen, and in the bet
    panel where the seat's options lie below the tray (a phone): in sight there without scrolling (the walk
    of issue 30 found it below the fold), one box on each screen. Chosen while betting, the hand is sent as
    the House Way sets it as soon as it is dealt, and the setter shows the box ticked."""
    pages, bob = seated_with_bob(site, "Before the deal", "Bea Forehand")
    me = pages["phone"]
    try:
        for size in ("phone", "small-phone"):
            page = pages[size]
            box = page.locator("[data-panel='bet'] #always-house-way-bet")
            expect(box).to_be_visible()
            expect(page.locator("#always-house-way-seat")).to_be_hidden()
            assert page.evaluate("window.scrollY") == 0
            bottom = page.evaluate("document.querySelector('#always-house-way-bet').closest('label')"
                                   ".getBoundingClientRect().bottom")
            assert bottom <= page.viewport_size["height"], (size, bottom)  # type: ignore[index]
        expect(pages["laptop"].locator("#always-house-way-bet")).to_be_hidden()
        laptop = pages["laptop"]
        expect(laptop.locator("[data-panel='seat'] #always-house-way-seat")).not_to_be_checked()
        expect(laptop.locator("#always-house-way-seat-why")).to_contain_text("as soon as it is dealt")
        dealt = re.compile("as soon as it is dealt")
        expect(me.locator("#always-house-way-bet")).to_have_accessible_description(dealt)
        me.locator("#always-house-way-bet").click()
        assert me.evaluate("localStorage.getItem('paigow.alwaysHouseWay')") == "1"
        for page in pages.values():
            boxes = page.locator("#always-house-way-seat, #always-house-way-bet")
            expect(boxes.locator("visible=true")).to_be_checked()
        me.evaluate(RECORD_SENT)
        both_bet(pages, bob)
        me.wait_for_function(f"() => window.paigow.ctx.view?.phase === 'setting' && {MY_HAND}?.is_set")
        assert "use_house_way" in me.evaluate("window.sentTypes")
        expect(me.locator("[data-panel='setter'] #always-house-way")).to_be_checked()
        for page in pages.values():  # one box on the screen, the setter's
            expect(page.locator("#always-house-way-seat")).to_be_hidden()
            expect(page.locator("#always-house-way-bet")).to_have_count(0)
    finally:
        bob.close()
    assert site.errors == []

"""A whole round on a phone (a touch screen of 390x844): every tap lands on what the player sees, the
controls of each phase are on the screen without scrolling, the result panel says what a seat's letters
mean (W, L, C), the seven cards are at least 44 px wide, no key hints are shown, and the history dialog never
scrolls sideways. Screenshots: test-artifacts/browser/phone-*.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.layout import outside_viewport, overlaps
from tests.browser.wire import Wire

from paigow.rules import legal_splits, parse_cards

pytestmark = pytest.mark.browser


def phone(site: Any, name: str) -> Page:
    """A player on a touch phone, signed in from the lobby by taps."""
    context = site.browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                       device_scale_factor=2)
    context.set_default_timeout(20_000)
    context.on("page", site._watch)
    site.contexts.append(context)
    page: Page = context.new_page()
    page.goto(f"{site.url}/")
    page.tap("#display-name")
    page.fill("#display-name", name)
    assert outside_viewport(page, ["#display-name", "#name-submit"]) == []
    page.tap("#name-submit")
    page.wait_for_selector("#signed-in:not([hidden])")
    return page


def no_key_hints(page: Page) -> None:
    drawn = "els => els.filter((e) => e.getClientRects().length).map((e) => e.outerHTML)"
    shown: list[str] = page.eval_on_selector_all(".kbd-hint, .setter-cards .key", drawn)
    assert shown == []


def test_a_whole_round_on_a_phone(site: Any, wire: Wire) -> None:
    table = site.open_table("Pocket", betting_ms=120_000, setting_ms=120_000, between_rounds_ms=120_000)
    me = phone(site, "Pip")
    me.goto(f"{site.url}/table/?id={table}")
    me.tap("[data-seat='3']")
    me.fill("#buy-in", "150")
    me.tap("#sit-confirm")
    expect(me.locator("[data-panel='bet']")).to_be_visible()
    other = wire(table, "Quinn")
    other.command("sit", seat=6, buy_in_cents=20_000)
    other.command("place_bet", amount_cents=1_500)

    # Betting by taps: $25 + $5.
    betting = ["[data-chip]", "#bet-amount", "#place-bet", "#repeat-bet", "#remove-bet"]
    assert outside_viewport(me, betting) == []
    no_key_hints(me)
    me.fill("#bet-amount", "0")
    me.tap("[data-chip='2500']")
    me.tap("[data-chip='500']")
    expect(me.locator("#bet-amount")).to_have_value("30.00")
    assert overlaps(me) == []
    site.shot(me, "phone-1-betting")
    me.tap("#place-bet")

    # Setting by taps: a legal low hand (paigow.rules), then Done.
    expect(me.locator(".setter .card.face")).to_have_count(7)
    assert outside_viewport(me, [".setter [data-key]", "#house-way", "#done"]) == []
    widths = me.eval_on_selector_all(".setter [data-key]", "els => els.map((e) => e.offsetWidth)")
    assert min(widths) >= 44
    no_key_hints(me)
    cards = me.eval_on_selector_all(".setter [data-key]", "els => els.map((e) => e.dataset.card)")
    for card in map(str, legal_splits(parse_cards(" ".join(cards)))[0].low):
        me.tap(f".setter [data-card='{card}']")
    expect(me.locator(".setter-row[aria-label='low hand'] .card")).to_have_count(2)
    expect(me.locator("#done")).to_be_enabled()
    assert overlaps(me) == []
    site.shot(me, "phone-2-setting")
    other.command("use_house_way")
    me.tap("#done")

    # The showdown: the result on the seat and in the tray, on the screen.
    expect(me.locator("#my-result")).to_be_visible()
    expect(me.locator(".pos[data-position='3'] [data-result]")).to_be_visible()
    assert outside_viewport(me, ["#my-result", ".pos[data-position='3'] [data-result]"]) == []
    assert overlaps(me) == []
    # The seat's marks are letters on a phone ("high W"): the result panel says what the letters mean, and
    # each mark's title says it in words.
    marks = me.locator(".pos[data-position='3'] .marks b")
    expect(marks.first).to_have_attribute("title", re.compile(r"^High hand: (won|lost|a copy)"))
    expect(me.locator("[data-panel='summary'] #marks-legend")).to_be_visible()
    expect(me.locator("#marks-legend")).to_contain_text(
        "W won, L lost, C a copy (a tie: the banker wins it)")
    site.shot(me, "phone-3-showdown")

    # The history fits the phone's width.
    me.tap("#history-btn")
    expect(me.locator("#my-history tbody tr")).to_have_count(1)
    # The proof of a fair deal is folded behind "Verify this round".
    me.locator("#table-history details.fair summary").first.tap()
    expect(me.locator("#table-history .verify-link").first).to_be_visible()
    wide = me.evaluate("""() => [...document.querySelectorAll('#history-dialog, #history-list')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.id}: ${e.scrollWidth}px`)""")
    assert wide == []
    assert outside_viewport(me, ["#history-close"]) == []
    site.shot(me, "phone-4-history")
    me.tap("#history-close")
    assert site.errors == []

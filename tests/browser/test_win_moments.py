"""A round's settlement as a moment (client_web/js/win_moments.js), as the players see it: the chips fly from
the losers to the banker, from the banker to the winners and from the winners to the house (commission);
each seat's amount counts up from nothing to what it won; nothing covers or waits on the controls (a bet
is placed while the chips are in the air); with reduced motion nothing moves and the amounts are there at
once. A Fortune hand of four of a kind or better is a bigger moment for its seat, and each Envy it pays
says whose hand paid it. The moment is held still for its look (every animation paused at one instant,
the Web Animations API's clock), never timed. Screenshots: test-artifacts/browser/moment-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect
from tests.browser.conftest import Site
from tests.browser.layout import VIEWPORTS
from tests.browser.wire import WirePlayer

pytestmark = pytest.mark.browser

# Records, on every change of the page: each chip that flies (from, to, kind), every text each seat's
# result shows; and when `holdAt` is set, holds the moment at that instant (ms) as its first chip appears.
MOMENT = """
window.__moment = { chips: [], texts: {}, fortune: {}, holdAt: null, held: false };
const seenChips = new WeakSet();
new MutationObserver(() => {
  const m = window.__moment;
  for (const c of document.querySelectorAll('.moments .moment-chip')) {
    if (seenChips.has(c)) continue;
    seenChips.add(c);
    m.chips.push([Number(c.dataset.from), Number(c.dataset.to), c.dataset.kind]);
  }
  for (const [sel, into] of [['[data-result]', m.texts], ['[data-fortune-seat]', m.fortune]]) {
    for (const r of document.querySelectorAll(`.pos .outcome ${sel}`)) {
      const list = (into[r.closest('.pos').dataset.position] ??= []);
      if (list[list.length - 1] !== r.textContent) list.push(r.textContent);
    }
  }
  if (m.holdAt !== null && !m.held && m.chips.length) {
    m.held = true;
    for (const a of document.getAnimations()) { a.pause(); a.currentTime = m.holdAt; }
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
window.__release = () => { for (const a of document.getAnimations()) a.play(); };
"""

ME = "Winnie"
TIMERS = {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 120_000, "between_rounds_ms": 10_000}
AMOUNT = re.compile(r"([+−]?)\$([\d,]+)\.(\d\d)")


def cents(text: str) -> int:
    """The money in a seat's text ("win +$38.00": 3800, "loss −$10.00": -1000)."""
    found = AMOUNT.search(text)
    assert found, text
    sign, whole, part = found.groups()
    return (-1 if sign == "−" else 1) * (int(whole.replace(",", "")) * 100 + int(part))


def open_table(site: Site, name: str, rules: dict[str, Any]) -> str:
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10,
                     json={"name": name, "rules": rules, "timers": TIMERS})
    assert res.status_code == 201, res.text
    table: str = res.json()["table_id"]
    return table


def pages_of(site: Site, table: str, extra: dict[str, tuple[int, int]]) -> dict[str, Page]:
    """One player's session on a page at each of ``VIEWPORTS`` and at each of ``extra``, every page watched
    by MOMENT, the animation on; seated at seat 1 with $300 from the laptop's page."""
    lobby = site.player(ME, width=1366, height=768)
    context: BrowserContext = lobby.context
    context.add_init_script(MOMENT)
    pages: dict[str, Page] = {}
    for size, (width, height) in {**VIEWPORTS, **extra}.items():
        page = lobby if size == "laptop" else context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{site.url}/table/?id={table}")
        page.wait_for_function("() => window.paigow?.ctx?.view")
        pages[size] = page
    expect(pages["laptop"].locator("#anim-toggle")).to_be_checked()
    pages["laptop"].click("[data-seat='1']")
    pages["laptop"].fill("#buy-in", "300")
    pages["laptop"].click("#sit-confirm")
    for page in pages.values():
        expect(page.locator("#you-meta")).to_contain_text("$300.00")
    return pages


def shots(site: Site, pages: dict[str, Page], name: str) -> None:
    for size in VIEWPORTS:
        pages[size].screenshot(path=str(site.artifacts / f"moment-{name}-{size}.png"))


def test_a_win_flies_the_chips_counts_up_at_the_seat_and_never_holds_up_the_next_bet(
        make_site: Callable[..., Site]) -> None:
    site = make_site({"PAIGOW_CONNECTIONS_PER_PLAYER": "8"}, rigs={"Moments": {1: "first_wins_second_loses"}})
    table = open_table(site, "Moments", {"fortune_enabled": False})
    pages = pages_of(site, table, {"held": (1366, 768), "reduced": (1366, 768)})
    pages["reduced"].emulate_media(reduced_motion="reduce")
    pages["reduced"].reload()
    pages["reduced"].wait_for_function("() => window.paigow?.ctx?.view?.you")
    me, held = pages["laptop"], pages["held"]
    bob = WirePlayer(site.url, table, "Bob")
    try:
        bob.command("sit", seat=2, buy_in_cents=50_000)
        bob.command("place_bet", amount_cents=1_000)
        me.fill("#bet-amount", "40")
        me.click("#place-bet")
        bob.command("use_house_way")
        for size, page in pages.items():
            if size != "reduced":
                page.evaluate("window.__moment.holdAt = 1300")  # the winners' chips in the air
        me.click("#house-way")
        me.click("#done")
        for size, page in pages.items():
            if size != "reduced":
                page.wait_for_function("() => window.__moment.held")
        site.table_action(table, "pause")  # the next round waits for the looks
        record = me.evaluate("window.paigow.ctx.rounds[0]")
        mine = next(h for h in record["hands"] if h["position"] == 1)
        assert mine["outcome"] == "win", record
        assert record["banker_position"] == 0, record
        final = mine["net_cents"]

        # Held in the air: the chips fly from the dealer (the house banks) to my seat, from Bob's to the
        # dealer, my commission to the house; my amount is on its way up; none of it takes a pointer.
        shots(site, pages, "win-mid")
        chips = held.evaluate("window.__moment.chips")
        for flight in ([0, 1, "win"], [2, 0, "loss"], [1, 0, "commission"]):
            assert flight in chips, chips
        mid = cents(held.locator(".pos[data-position='1'] [data-result]").inner_text())
        assert 0 < mid < final
        assert held.evaluate("""() => [...document.querySelectorAll('.moments .moment-chip')].every((c) => {
          const r = c.getBoundingClientRect();
          const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return getComputedStyle(c).pointerEvents === 'none' && !at?.closest('.moments');
        })""")

        # Let go, each amount counts up to what the seat won or lost, and stays.
        for size in VIEWPORTS:
            pages[size].evaluate("window.__release()")
            expect(pages[size].locator(".moments .moment-chip")).to_have_count(0)
            expect(pages[size].locator(".pos[data-position='1'] [data-result]")).to_have_text(
                f"win +${final / 100:,.2f}")
        shots(site, pages, "win-end")
        # Every seat's amount (mine, Bob's, the dealer's bank) counted from nothing up to its own, each text
        # of it no smaller than the one before; mine through the values between (the others' counts ran
        # while the moment was held).
        texts = me.evaluate("window.__moment.texts")
        assert sorted(texts) == ["0", "1", "2"], texts
        for position, shown in texts.items():
            counted = [cents(t) for t in shown[1:]]  # the first: the drawing before the moment's first frame
            assert counted == sorted(counted, key=abs), (position, shown)
            assert counted[0] == 0, (position, shown)
            assert shown[-1] == shown[0], (position, shown)
        assert len(set(texts["1"])) >= 4, texts["1"]

        # Reduced motion: no chip, and each amount is there at once (never counted).
        assert pages["reduced"].evaluate("window.__moment.chips") == []
        reduced = pages["reduced"].evaluate("window.__moment.texts")
        assert reduced["1"] == [f"win +${final / 100:,.2f}"], reduced
        assert all(len(shown) == 1 for shown in reduced.values()), reduced

        # The next round: the bank offered to me, declined, and a bet placed, while the held page's chips are
        # still in the air.
        site.table_action(table, "resume")
        held.click("#decline-bank")
        expect(held.locator("#place-bet")).to_be_visible()
        assert held.locator(".moments .moment-chip").count() > 0
        held.fill("#bet-amount", "10")
        held.click("#place-bet")
        expect(held.locator(".pos[data-position='1'] .bet-amount")).to_have_text("$10.00")
        assert held.locator(".moments .moment-chip").count() > 0
        held.evaluate("window.__release()")
        expect(held.locator(".moments .moment-chip")).to_have_count(0)
    finally:
        bob.close()
    assert site.errors == []

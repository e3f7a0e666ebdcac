"""Every phase at every size, as text (issue 20): one table with the Fortune bonus, the player on four pages
at once (a phone, a small phone, a laptop, a full HD screen: one session, so a moment that passes, the
setting's last ten seconds, is seen at every size together), the other seats over the wire. In each phase
(betting with the Fortune bonus, the bank offer, setting with the last-ten-seconds warning, the showdown
with the next round's countdown, sitting out, paused) no two pieces of text overlap, no text is clipped
(layout.TEXT_JS), no clock the player must act on runs under a modal dialog, and the boxes of the seats,
the banner and the tray keep apart (layout.overlaps). The lobby's free top-up panel (issue 30, "Chips when you
run out") likewise in each of its phases: offered, taken, the next one's time, turned off. Screenshots:
test-artifacts/browser/matrix-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.layout import VIEWPORTS, check, four_pages, text_problems
from tests.browser.wire import Wire, WirePlayer

pytestmark = pytest.mark.browser

OTHERS = {2: "Bartholomew Quince", 3: "Ann", 5: "Rosalind Featherstone"}
MY_SEAT = 1  # the marker reaches seat 1 in round 2: the bank offer


CHAT_OVER_JS = """() => {
  const chat = document.getElementById('chat-panel').getBoundingClientRect();
  const hit = (r) => r.left < chat.right - 1 && chat.left < r.right - 1
    && r.top < chat.bottom - 1 && chat.top < r.bottom - 1;
  return [...document.querySelectorAll('.pos, .center, .tray .panel')]
    .filter((e) => hit(e.getBoundingClientRect())).map((e) => e.className + (e.dataset.position ?? ''));
}"""


def chat_over_table(site: Site, table: str) -> list[str]:
    """A spectator on a laptop: the chat, open, docks beside the felt, over no seat, banner or panel."""
    page = site.page(width=1366, height=768)
    page.goto(f"{site.url}/table/?id={table}&watch=1")
    expect(page.locator("#chat-panel")).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('.pos [data-result]').length === 5")
    page.screenshot(path=str(site.artifacts / "matrix-showdown-spectator-laptop.png"))
    covered: list[str] = page.evaluate(CHAT_OVER_JS)
    found = [f"spectator at laptop: the chat covers {c}" for c in covered]
    found.extend(f"spectator at laptop: {p}" for p in text_problems(page))
    page.context.close()
    return found


def test_every_phase_at_every_size_has_no_overlapping_or_clipped_text(site: Site, wire: Wire) -> None:
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10, json={
        "name": "Layout Matrix Dragon", "rules": {"fortune_enabled": True},
        "timers": {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 14_000,
                   "between_rounds_ms": 20_000}})
    assert res.status_code == 201, res.text
    table = res.json()["table_id"]
    pages = four_pages(site, table)
    me = pages["laptop"]
    me.click(f"[data-seat='{MY_SEAT}']")
    me.fill("#buy-in", "300")
    me.click("#sit-confirm")
    others: dict[int, WirePlayer] = {}
    for seat, name in OTHERS.items():
        others[seat] = wire(table, name)
        others[seat].command("sit", seat=seat, buy_in_cents=50_000)
        others[seat].command("place_bet", amount_cents=500 * seat, bonus_cents=100 * seat)
    for page in pages.values():
        expect(page.locator("[data-panel='bet'] [data-side-bet='fortune']")).to_be_visible()
        expect(page.locator(".pos .bet-amount")).to_have_count(len(OTHERS))
    problems: list[str] = []
    check(site, pages, "betting", problems)

    # Setting: nobody sets; the last ten seconds' warning at every size at once.
    me.fill("#bet-amount", "25")
    me.click("#place-bet")
    for page in pages.values():
        expect(page.locator("[data-panel='setter'] [data-warn]")).to_be_visible(timeout=20_000)
    check(site, pages, "setting-warning", problems)

    # The showdown (every hand set by the House Way when time ran out), the next round counting down.
    for page in pages.values():
        # Four seats' results and the dealer's.
        page.wait_for_function("() => document.querySelectorAll('.pos [data-result]').length === 5",
                               timeout=30_000)
        expect(page.locator("[data-panel='summary'] [data-next]")).to_contain_text("Next round in")
    check(site, pages, "showdown", problems)
    problems.extend(chat_over_table(site, table))

    # Round 2: the marker reaches seat 1, who played round 1: the bank offer.
    for page in pages.values():
        expect(page.locator("[data-panel='offer']")).to_be_visible(timeout=30_000)
    check(site, pages, "bank-offer", problems)

    # Declined: the house banks; sitting out while the others bet.
    me.click("#decline-bank")
    me.click("#sit-out")
    others[2].command("place_bet", amount_cents=1_000)
    for page in pages.values():
        expect(page.locator("#sit-out")).to_have_text("Sit in")
        expect(page.locator("#bet-info")).to_contain_text("you are sitting out: a bet sits you in")
    check(site, pages, "sitting-out", problems)

    # Paused by the operator: the round plays out (the House Way sets the hands when time runs out), then
    # the table holds with its showdown on screen.
    for seat in (3, 5):
        others[seat].command("place_bet", amount_cents=500 * seat)
    site.table_action(table, "pause")
    for page in pages.values():
        page.wait_for_function("() => window.paigow.ctx.showdown?.number === 2", timeout=30_000)
        expect(page.locator("[data-panel='summary']")).to_contain_text("paused by the operator")
    check(site, pages, "paused", problems)
    assert problems == [], "\n".join(problems)
    assert site.errors == []


def broke(site: Site, page: Page) -> str:
    """The page's player with nothing left (an operator's debit of the whole balance); their id."""
    player_id: str = page.evaluate("window.paigow.session.player_id")
    url = f"{site.url}/api/operator/players/{player_id}"
    player = httpx.get(url, headers=site.headers, timeout=10).json()
    if player["balance_cents"]:
        res = httpx.post(f"{url}/debit", headers=site.headers, timeout=10,
                         json={"amount_cents": player["balance_cents"], "reason": "lost it all"})
        assert res.status_code == 200, res.text
    return player_id


def test_the_lobby_top_up_panel_at_every_size(make_site: Callable[..., Site]) -> None:
    """One player at each size (each takes their own top-up), out of chips: the offer near the top of the
    lobby, the new balance once taken, the local time of the next one when out of chips again, and the line
    saying top-ups are off."""
    site = make_site({"PAIGOW_TOP_UPS_PER_ADDRESS_PER_DAY": "100"})
    site.open_table("Top-up Table")
    pages = {size: site.player(f"Penelope Longname-Smythe {n}", width=width, height=height)
             for n, (size, (width, height)) in enumerate(VIEWPORTS.items())}
    problems: list[str] = []

    def phase(name: str, visible: str) -> None:
        for page in pages.values():
            expect(page.locator(visible)).to_be_visible()
            page.evaluate("window.scrollTo(0, 0)")
        check(site, pages, f"topup-{name}", problems)

    for page in pages.values():
        broke(site, page)
        page.reload()
        expect(page.locator("#top-up")).to_contain_text("Take a free top-up back to $1,000.00")
    phase("offer", "#top-up-take")
    for page in pages.values():
        page.click("#top-up-take")
        expect(page.locator("#top-up-done")).to_contain_text("your balance is back to $1,000.00")
        expect(page.locator("#balance")).to_have_text("$1,000.00")
    phase("taken", "#top-up-next")
    for page in pages.values():
        broke(site, page)
        page.reload()
        expect(page.locator("#top-up-next")).to_contain_text(re.compile(r"is (today|tomorrow) at \d"))
    phase("next", "#top-up-next")
    off = httpx.put(f"{site.url}/api/operator/settings", headers=site.headers, json={"top_up_hours": 0},
                    timeout=10)
    assert off.status_code == 200, off.text
    for page in pages.values():
        page.reload()
    phase("off", "#top-up-off")
    assert problems == [], "\n".join(problems)
    assert site.errors == []

"""Every phase at every size, as text (issue 20): one table with the Fortune bonus, the player on four pages
at once (a phone, a small phone, a laptop, a full HD screen: one session, so a moment that passes, the
setting's last ten seconds, is seen at every size together), the other seats over the wire. In each phase
(betting with the Fortune bonus, the bank offer, setting with the last-ten-seconds warning, the showdown
with the next round's countdown, sitting out, paused) no two pieces of text overlap, no text is clipped
(layout.TEXT_JS), no clock the player must act on runs under a modal dialog, and the boxes of the seats,
the banner and the tray keep apart (layout.overlaps). Screenshots: test-artifacts/browser/matrix-*.png."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Site
from tests.browser.layout import check, four_pages, text_problems
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

"""The chat on a tablet (761 to 1099 px wide: 820x1180 upright, 1024x768 on its side; issue 30): opened, it
lies over no seat, no part of the centre and no control of the tray, its quick replies are all on screen
(none cut at the sheet's edge), and no text overlaps or is clipped, while betting and while setting.
Screenshots: test-artifacts/browser/chat-tablet-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.layout import overlaps, text_problems
from tests.browser.test_layout_matrix import CHAT_OVER_JS
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser

TABLETS = {"upright": (820, 1180), "on-its-side": (1024, 768)}
OTHERS = {2: "Bartholomew Quince", 3: "Ann", 5: "Rosalind Featherstone"}
EMOTES_CUT_JS = """() => {
  const row = document.querySelector('.chat-emotes').getBoundingClientRect();
  return [...document.querySelectorAll('.chat-emotes .chip-btn')].filter((b) => {
    const r = b.getBoundingClientRect();
    return r.left < row.left - 0.5 || r.right > row.right + 0.5
      || r.top < row.top - 0.5 || r.bottom > row.bottom + 0.5;
  }).map((b) => b.textContent.trim());
}"""


def chat_problems(site: Site, page: Page, where: str) -> list[str]:
    page.screenshot(path=str(site.artifacts / f"chat-tablet-{where}.png"))
    found = [f"the chat covers {c}" for c in page.evaluate(CHAT_OVER_JS)]
    found.extend(f"the quick reply {e!r} is cut" for e in page.evaluate(EMOTES_CUT_JS))
    found.extend(text_problems(page))
    found.extend(overlaps(page))
    return [f"{where}: {p}" for p in found]


def test_the_open_chat_on_a_tablet_covers_no_seat_and_no_quick_reply_is_cut(site: Site, wire: Wire) -> None:
    table = site.open_table("Tablet Chat", betting_ms=120_000, setting_ms=120_000, between_rounds_ms=60_000)
    problems: list[str] = []
    others = {seat: wire(table, name) for seat, name in OTHERS.items()}
    for seat, other in others.items():
        other.command("sit", seat=seat, buy_in_cents=20_000)
    for seat in (2, 3):  # the last bet (seat 5's, below) deals the cards
        others[seat].command("place_bet", amount_cents=500 * seat)
    pages: dict[str, Page] = {}
    for name, (width, height) in TABLETS.items():
        page = site.player(f"Tess {name.title()}", width=width, height=height)
        page.goto(f"{site.url}/table/?id={table}")
        page.uncheck("#anim-toggle")
        page.click("[data-seat='1']" if name == "upright" else "[data-seat='4']")
        page.fill("#buy-in", "300")
        page.click("#sit-confirm")
        expect(page.locator("[data-panel='bet']")).to_be_visible()
        if not page.locator("#chat-panel").is_visible():
            page.click("#chat-btn")
        expect(page.locator("#chat-panel")).to_be_visible()
        problems.extend(chat_problems(site, page, f"betting-{name}"))
        pages[name] = page
    for page in pages.values():
        page.fill("#bet-amount", "10")
        page.click("#place-bet")
    others[5].command("place_bet", amount_cents=2_500)
    for name, page in pages.items():
        expect(page.locator("[data-panel='setter']")).to_be_visible()
        problems.extend(chat_problems(site, page, f"setting-{name}"))
    assert problems == [], "\n".join(problems)
    assert site.errors == []

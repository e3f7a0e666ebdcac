"""The open chat beside a seated player's table (issue 30, defect 6): on a laptop (1366x768) and a wide
screen (1920x1080) no seat of the table lies under the chat panel, and every quick-reply button lies whole
inside the panel; on a phone (390x844, 360x740) the chat opens as a sheet under the header, and a quick
reply posts. The screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.layout import text_problems
from tests.browser.test_chat import resize
from tests.browser.test_table_words import seated

pytestmark = pytest.mark.browser

SIZES = {"1366x768": {"width": 1366, "height": 768}, "1920x1080": {"width": 1920, "height": 1080}}

COVERED_JS = """() => {
  const c = document.getElementById('chat-panel').getBoundingClientRect();
  const meets = (r) => r.left < c.right - 1 && c.left < r.right - 1
    && r.top < c.bottom - 1 && c.top < r.bottom - 1;
  const inside = (r) => r.left >= c.left - 1 && r.right <= c.right + 1
    && r.top >= c.top - 1 && r.bottom <= c.bottom + 1;
  const seats = [...document.querySelectorAll('.pos')]
    .filter((p) => meets(p.getBoundingClientRect()))
    .map((p) => `seat ${p.dataset.position} lies under the chat`);
  const replies = [...document.querySelectorAll('#chat-panel [data-emote]')]
    .filter((b) => !inside(b.getBoundingClientRect()))
    .map((b) => `the quick reply "${b.textContent}" is cut by the chat's box`);
  return seats.concat(replies);
}"""
"""Each seat (the dealer's too) that the chat panel covers, and each quick reply not whole inside it."""


CHAT_TEXT = r"(h2#chat-title|span#chat-setting|button\.chip-btn|[a-z0-9]+\.chat-)"
UNDER_THE_SHEET = re.compile(rf"^(?!{CHAT_TEXT}).* overlaps {CHAT_TEXT}")
"""A phone's layout finding about the page's text that the open chat sheet covers (named second: the sheet
comes after it in the page), not about the sheet's own text."""


def open_chat(page: Page) -> None:
    if not page.locator("#chat-panel").is_visible():
        page.click("#chat-btn")
    expect(page.locator("#chat-panel")).to_be_visible()


def test_the_open_chat_covers_no_seat_and_shows_every_quick_reply(site: Any) -> None:
    table = site.open_table("Chat Beside", bank_offer_ms=60_000, betting_ms=120_000, setting_ms=90_000)
    page = seated(site, "Cleo", table, 2, width=1366, height=768)
    for label, size in SIZES.items():
        resize(page, size)
        open_chat(page)
        assert page.evaluate(COVERED_JS) == [], label
        expect(page.locator("#chat-panel [data-emote]")).to_have_count(6)
        site.shot(page, f"chat-beside-{label}")
        assert text_problems(page) == [], label
    # The phone: the sheet from the top, as before; a quick reply posts.
    resize(page, {"width": 390, "height": 844})
    open_chat(page)
    page.click("[data-emote='good_luck']")
    expect(page.locator("#chat-log .chat-line")).to_have_count(1)
    expect(page.locator("#chat-log .chat-text")).to_have_text("Good luck!")
    for width, height in ((390, 844), (360, 740)):
        resize(page, {"width": width, "height": height})
        site.shot(page, f"chat-beside-{width}x{height}")
        # The sheet lies over the felt: what it hides is not text that overlaps it.
        assert [p for p in text_problems(page) if not UNDER_THE_SHEET.search(p)] == [], f"{width}x{height}"
    page.click("#chat-hide")
    expect(page.locator("#chat-panel")).to_be_hidden()
    assert site.errors == []

"""The chat's box shows its whole placeholder, "Message the table…", wherever the chat opens: on a tablet
(820x1180, 1024x768: the walk of issue 30 found it cut to "Message the tal" beside Send in the narrow
column) and on a phone (390x844, 360x740). Measured as the placeholder's text in the box's font against the
box's room inside its padding."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Site
from tests.browser.layout import seated_alone

pytestmark = pytest.mark.browser

ROOM_JS = """() => {
  const box = document.querySelector('#chat-panel input');
  const s = getComputedStyle(box);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = s.font;
  return { text: pen.measureText(box.placeholder).width, placeholder: box.placeholder,
           room: box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) };
}"""


def test_the_chat_box_shows_its_whole_placeholder(site: Site) -> None:
    page = seated_alone(site, "Chatty", "Tess", 820, 1180)
    for width, height in [(820, 1180), (1024, 768), (390, 844), (360, 740)]:
        page.set_viewport_size({"width": width, "height": height})
        if not page.locator("#chat-panel").is_visible():
            page.click("#chat-btn")
        expect(page.locator("#chat-panel input")).to_be_visible()
        found = page.evaluate(ROOM_JS)
        assert found["placeholder"] == "Message the table…"
        assert found["text"] <= found["room"], (width, height, found)
        expect(page.locator("#chat-panel button", has_text="Send")).to_be_in_viewport()
    assert site.errors == []

"""The help notice (docs/responsible-play.md) in Chromium: an operator sets it in the console's settings; the
lobby shows it, as the operator wrote it (text, never markup; its own language: ``lang="" dir="auto"``),
beside the sign-in forms and again right after signing out, never while signed in; none at all while it is
empty. On a phone and on a laptop; axe finds nothing serious. Screenshots: test-artifacts/browser/
help-notice-*.png."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_operator_console import console

pytestmark = pytest.mark.browser

NOTICE = ("If you or someone you know has a gambling problem and wants help, call 1-800-GAMBLER.\n"
          "<b>Text, not markup</b> — 도움이 필요하면 연락하세요.")


def _shot(site: Site, page: Page, name: str) -> None:
    """The viewport with the notice in it."""
    page.locator("#help-notice").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.screenshot(path=str(site.artifacts / f"{name}.png"))


def _shows_the_notice(page: Page) -> None:
    note = page.locator("#help-notice")
    expect(note).to_be_visible()
    expect(note.locator("h3")).to_have_text("Help and support")
    text = page.locator("#help-notice-text")
    assert text.inner_text() == NOTICE  # as written: the line break kept, the tags shown as text
    assert text.locator("b").count() == 0
    assert (text.get_attribute("lang"), text.get_attribute("dir")) == ("", "auto")


def test_an_operator_sets_the_notice_and_the_lobby_shows_it_at_sign_in_and_after_sign_out(site: Site) -> None:
    empty = site.page(width=390, height=844)
    empty.goto(f"{site.url}/")
    expect(empty.locator("#signed-out")).to_be_visible()
    expect(empty.locator("#help-notice")).to_be_hidden()  # nothing set yet: no notice, no empty box

    op = console(site)
    expect(op.locator("#help-notice-input")).to_have_value("")
    op.fill("#help-notice-input", NOTICE)
    op.click("#help-notice-save")
    expect(op.locator("#help-notice-saved")).to_have_text("Saved: players see it from now on.")
    op.locator("#settings-panel").scroll_into_view_if_needed()
    op.locator("#settings-panel").screenshot(path=str(site.artifacts / "help-notice-console-1366x768.png"))
    stored = httpx.get(f"{site.url}/api/operator/settings", headers=site.headers, timeout=10).json()
    assert stored["help_notice"] == NOTICE

    try:
        for width, height in ((390, 844), (1366, 768)):
            size = f"{width}x{height}"
            page = site.page(width=width, height=height)
            page.goto(f"{site.url}/")
            _shows_the_notice(page)  # at sign-in
            _shot(site, page, f"help-notice-sign-in-{size}")
            assert serious_violations(page) == []
            page.fill("#display-name", "Ann")
            page.click("#name-submit")
            page.wait_for_selector("#signed-in:not([hidden])")
            expect(page.locator("#help-notice")).to_be_hidden()  # while playing: not in the way
            page.click("#sign-out")
            expect(page.locator("#session-ended")).to_have_text("Signed out.")
            _shows_the_notice(page)  # and after signing out
            _shot(site, page, f"help-notice-sign-out-{size}")
            assert serious_violations(page) == []
        assert site.errors == []
    finally:
        cleared = httpx.put(f"{site.url}/api/operator/settings", headers=site.headers, timeout=10,
                            json={"help_notice": None})
        assert cleared.status_code == 200, cleared.text

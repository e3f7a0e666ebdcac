"""A new player's first press of "Place bet" on a phone (the walk of issue 30): the bet box starts at 0.00,
and the press said "Enter a bet in dollars, e.g. 25 or 12.50." though the chips are right above it. Now it
says to tap a chip (or type the amount); a chip tapped, the same press places the bet. Words that are not an
amount still get the example."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Site
from tests.browser.layout import seated_alone

pytestmark = pytest.mark.browser

TAP = "Tap a chip to add it to your bet, or type the amount."
EXAMPLE = "Enter a bet in dollars, e.g. 25 or 12.50."


def test_a_first_press_with_no_bet_says_to_tap_a_chip(site: Site) -> None:
    page = seated_alone(site, "First Bet", "Newbie", 390, 844, {"betting_ms": 120_000})
    expect(page.locator("#bet-amount")).to_have_value("0.00")
    for typed, words in [(None, TAP), ("ten", EXAMPLE), ("0", TAP)]:
        if typed is not None:
            page.fill("#bet-amount", typed)
        page.click("#place-bet")
        expect(page.locator("#bet-error")).to_have_text(words)
    page.click("#chip-500")  # on top of the 0 typed: $5
    page.click("#place-bet")
    page.wait_for_function("() => window.paigow.ctx.view.round?.bets?.length === 1")  # placed
    assert site.errors == []

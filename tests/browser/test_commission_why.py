"""Why a no-commission table took a commission (issue 30, defect 5), on a phone (390x844): at an EZ table
a player co-banks with the house, and a player who beats the bank pays the usual 5% commission. The phone
said "$0.50 commission" with no word why, and its variants panel left out that a player who banks plays
the usual rules (the laptop's said it). Now the result, the showdown's commission line and the History
say why, and the panel says the rule, on a phone as on a laptop: the player on four pages at once (390x844,
360x740, 1366x768, 1920x1080), each checked as the layout matrix checks it (no text overlapping, none
clipped). The dealer's plate says who banks: "House" in round 1, "House & Bob" while Bob co-banks with the
house in round 2 (it read "House"), and the centre "Bob co-banks with the house". Round 2's deal is
chosen (``support.rigged``: the co-banker's hand loses to the other)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Site
from tests.browser.layout import check, four_pages
from tests.browser.wire import WirePlayer

pytestmark = pytest.mark.browser

TABLE = "Jade EZ"
SHARED = "The house and Bob bank this round, half each"
PLATE = ".pos[data-position='0'] .plate .chips"
WHY = "When a player banks or co-banks, wins pay the usual 5% commission, even at a no-commission table."


def test_a_player_who_beats_a_co_bank_at_an_ez_table_is_told_why_commission_was_taken(
        make_site: Callable[..., Site]) -> None:
    site = make_site({}, rigs={TABLE: {2: "banker_loses"}})
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10, json={
        "name": TABLE, "rules": {"fortune_enabled": False, "commission_form": "ez", "co_banking": True},
        "timers": {"bank_offer_ms": 60_000, "betting_ms": 60_000, "setting_ms": 90_000,
                   "between_rounds_ms": 1_000}})
    assert res.status_code == 201, res.text
    table = res.json()["table_id"]
    bob = WirePlayer(site.url, table, "Bob")
    try:
        bob.command("sit", seat=1, buy_in_cents=20_000)
        pages = four_pages(site, table, "Alice")
        me = pages["phone"]
        me.click("[data-seat='2']")
        me.fill("#buy-in", "200")
        me.click("#sit-confirm")
        problems: list[str] = []
        for page in pages.values():
            # The rule on every screen: a player who banks plays the usual rules (hidden below 760 px).
            page.wait_for_function("() => window.paigow.ctx.view?.you")
            banks = page.locator("#variants-panel .variant-banks")
            expect(banks).to_be_visible()
            expect(banks).to_have_text(" A player who banks plays the usual rules.")

        # Round 1, house-banked: both bet, both set by the House Way.
        bob.command("place_bet", amount_cents=1_000)
        me.fill("#bet-amount", "10")
        me.click("#place-bet")
        me.wait_for_function("() => window.paigow.ctx.view?.phase === 'setting'")
        for page in pages.values():
            expect(page.locator(PLATE)).to_have_text("House")
        bob.command("use_house_way")
        me.click("#house-way")
        me.click("#done")

        # Round 2: the marker is Bob's, who co-banks with the house; my $10 beats his hand.
        me.wait_for_function("() => window.paigow.ctx.view?.round?.offer_player_id", timeout=30_000)
        bob.command("accept_bank", co_bank=True)
        me.wait_for_function("() => window.paigow.ctx.view?.round?.co_banked && "
                             "window.paigow.ctx.view.phase === 'betting'")
        # Who banks, at the top of the table and in its centre (the walk of issue 30: the plate read "House").
        for page in pages.values():
            expect(page.locator(PLATE)).to_have_text("House & Bob")
            expect(page.locator(PLATE)).to_have_attribute("title", SHARED)
            expect(page.locator("#phase-sub")).to_have_text("Bob co-banks with the house")
        check(site, pages, "co-bank-plate", problems)
        me.fill("#bet-amount", "10")
        me.click("#place-bet")
        me.wait_for_function("() => window.paigow.ctx.view?.phase === 'setting'")
        site.table_action(table, "pause")  # the showdown stays on the screen
        me.click("#house-way")
        me.click("#done")
        me.wait_for_function("() => window.paigow.ctx.showdown?.number === 2")
        record = me.evaluate("window.paigow.ctx.showdown")
        mine = next(h for h in record["hands"] if h["position"] == 2)
        assert (record["co_banked"], record["commission_form"]) == (True, "ez")
        assert (mine["outcome"], mine["commission_cents"], mine["net_cents"]) == ("win", 50, 950)

        for page in pages.values():
            expect(page.locator("#my-result")).to_have_text("You win +$9.50 ($10.00 less $0.50 commission)")
            why = page.locator("[data-panel='summary'] [data-variant='commission-why']")
            expect(why).to_have_text(WHY)
            # The showdown's commission line, in the centre banner and in the breakdown under the table.
            for where in ("#result-banner", "[data-panel='breakdown']"):
                expect(page.locator(f"{where} .commission")).to_have_text(f"Commission taken: $0.50. {WHY}")
        expect(me.locator("[data-panel='summary'] [data-variant='commission-why']")).to_be_visible()
        expect(me.locator("#result-banner .commission")).to_be_visible()
        check(site, pages, "commission-why-co-banked", problems)
        site.shot(me, "commission-why-co-banked-phone-390", full_page=True)

        # The History says it under the round.
        me.click("#history-btn")
        row = me.locator("#my-history tr.variant-lines [data-variant='commission-why']")
        expect(row.first).to_have_text(WHY.replace("5% ", ""))
        me.click("#history-close")
        assert problems == [], "\n".join(problems)
        assert site.errors == []
    finally:
        bob.close()

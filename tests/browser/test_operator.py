"""The operator console on a real server: sign-in with the token, pause a table and void its round (the
player's page shows both and gets the bet back), change the limits, credit a balance with a reason (refused
without one), kick a player, the audit log and the ledger; the spectator's phone layout. The confirmation
dialog, bars and the player picker in detail: test_operator_console.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_operator_pauses_voids_credits_and_kicks(site: Any) -> None:
    table = site.open_table("Golden Phoenix", betting_ms=60_000, setting_ms=90_000, between_rounds_ms=1_000)
    carol = site.player("Carol")
    carol.goto(f"{site.url}/table/?id={table}")
    carol.click("[data-seat='4']")
    carol.fill("#buy-in", "100")
    carol.click("#sit-confirm")
    # Her own limit: lowered to $8, a $10 bet is refused next to the bet field, then $8 goes in.
    carol.fill("#own-limit", "8")
    carol.click("#set-limit")
    expect(carol.locator("#bet-info")).to_contain_text("your limit $8.00")
    carol.fill("#bet-amount", "10")
    carol.click("#place-bet")
    expect(carol.locator("#bet-error")).to_contain_text("own limit")
    carol.fill("#bet-amount", "8")
    carol.click("#place-bet")
    expect(carol.locator("[data-panel='setter']")).to_be_visible()  # one player: the deal goes out at once
    expect(carol.locator(".pos[data-position='4'] .chips")).to_have_text("$92.00")  # the $8 bet is out
    player_id = carol.evaluate("window.paigow.ctx.playerId")

    watcher = site.page(width=390, height=844)  # a spectator on a phone
    watcher.goto(f"{site.url}/table/?id={table}&watch=1")
    expect(watcher.locator(".pos[data-position='4'] .name")).to_have_text("Carol")
    assert watcher.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert watcher.locator(".card.face").count() == 0
    site.shot(watcher, "20-spectator-phone", full_page=True)

    op = site.page()
    op.goto(f"{site.url}/operator")
    op.fill("#op-token", "not-the-token")
    op.click("#login-form button[type=submit]")
    expect(op.locator("#login-error")).to_contain_text("not the operator token")
    op.fill("#op-token", "browser-operator-token-0123456789")
    op.click("#login-form button[type=submit]")
    row = op.locator(f"#tables tr[data-table='{table}']")
    expect(row).to_contain_text("Golden Phoenix")

    # Pause: the round in play finishes, no new one starts; the player's page says so.
    row.locator("[data-action='pause']").click()
    expect(row).to_contain_text("paused")
    expect(carol.locator("#phase-sub")).to_contain_text("Paused by the operator")
    # Void the round (confirmed, with a reason): the bet comes back, the cards go.
    row.locator("[data-action='void']").click()
    op.fill("#confirm-reason", "dealer exposed a card")
    op.click("#confirm-ok")
    expect(carol.locator("#notice")).to_contain_text("voided (by the operator): every bet was returned")
    expect(carol.locator(".setter")).to_have_count(0)
    expect(carol.locator(".pos[data-position='4'] .chips")).to_have_text("$100.00")
    expect(carol.locator(".stage .card")).to_have_count(0)
    site.shot(carol, "21-paused-and-voided")

    # Limits and the audit trail.
    row.locator("[data-action='manage']").click()
    op.fill("#lim-min", "10")
    op.fill("#lim-max", "500")
    op.click("#limits-form button[type=submit]")
    expect(carol.locator("#table-limits")).to_have_text("$10 – $500")  # bounds as people say them

    # Credit (Carol picked by her id): a reason is required, and the error says so next to the form.
    op.fill("#player-search", player_id)
    op.locator(f"#player-results [data-player='{player_id}']").click()
    op.fill("#m-amount", "25")
    op.click("#credit")
    expect(op.locator("#money-error")).to_contain_text("REASON_REQUIRED")  # its words, the code beside them
    op.fill("#m-reason", "goodwill after a dropped connection")
    op.click("#credit")
    expect(op.locator("#money-result")).to_contain_text("Credited $25.00")

    # Kick: Carol's chips go back to her balance and her seat is free.
    op.locator(f"#seats tr[data-player='{player_id}'] [data-action='kick']").click()
    op.fill("#confirm-reason", "end of the test")
    op.click("#confirm-ok")
    expect(carol.locator(".pos[data-position='4'] .name")).to_have_text("Seat 4")
    expect(carol.locator("[data-panel='choose-seat']")).to_be_visible()

    audit = op.locator("#audit tbody")
    # Each action worded, its code on its row.
    for action in ("pause_table", "void_table", "change_limits", "credit", "kick"):
        expect(audit.locator(f"tr[data-action='{action}']").first).to_be_visible()
    expect(audit.locator("tr[data-action='pause_table']").first).to_contain_text("pause table")
    expect(op.locator("#ledger tbody tr").first).to_be_visible()
    expect(op.locator("#money-status")).to_contain_text("balanced ✓")
    assert site.unlabelled(op) == []
    site.shot(op, "22-operator-console", full_page=True)
    assert site.errors == []


@pytest.mark.failover
def test_reconnects_after_a_server_restart_and_resumes(site: Any) -> None:
    table = site.open_table("Red Lantern", betting_ms=120_000)
    dan = site.player("Dan")
    dan.goto(f"{site.url}/table/?id={table}")
    dan.click("[data-seat='2']")
    dan.click("#sit-confirm")
    expect(dan.locator("[data-panel='bet']")).to_be_visible()
    version = dan.evaluate("window.paigow.ctx.version")

    site.server.kill()  # a crash: SIGKILL
    expect(dan.locator("#conn-banner")).to_be_visible()
    expect(dan.locator("#conn-banner")).to_contain_text("reconnecting")
    site.shot(dan, "23-disconnected-banner")
    site.server.start()
    expect(dan.locator("#conn-banner")).to_be_hidden(timeout=30_000)
    assert dan.evaluate("window.paigow.ctx.version") >= version
    # The table carries on where it was: Dan bets and the deal goes out.
    dan.fill("#bet-amount", "5")
    dan.click("#place-bet")
    expect(dan.locator("[data-panel='setter']")).to_be_visible()
    assert re.fullmatch(r"[1-7]", dan.locator(".setter [data-key]").first.get_attribute("data-key") or "")
    assert [e for e in site.errors if "WebSocket" not in e] == []

"""A home game with the longest name a table may have (40 characters) in every phase at every size (issue 30;
the checks of test_layout_matrix.py): its host on four pages at once (390x844, 360x740, 1366x768,
1920x1080), two friends over the wire with the invite. Waiting for players, betting, setting, the result:
in each no two pieces of text overlap, none is clipped (by its own box or any ancestor's), and the seats,
the banner and the tray keep apart. Screenshots: test-artifacts/browser/matrix-home-*.png."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from tests.browser.conftest import AUTO_CHIPS, Site
from tests.browser.layout import check, four_pages
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser

NAME = "Saturday Night Pai Gow at Bartholomew's!"
FRIENDS = {2: "Rosalind Featherstone", 5: "Maximilian Oduya-Brand"}
TIMERS = {"betting_ms": 120_000, "setting_ms": 120_000, "between_rounds_ms": 60_000, "bank_offer_ms": 120_000}


def host_account(site: Site) -> dict[str, Any]:
    res = httpx.post(f"{site.url}/api/accounts", timeout=10, json={
        "username": f"bart{int(time.time() * 1000) % 10**8}", "password": "felt-marker-dice-7731",
        "display_name": "Bartholomew Quince"})
    assert res.status_code == 201, res.text
    session: dict[str, Any] = res.json()
    return session


def test_a_home_game_with_a_40_character_name_in_every_phase_at_every_size(site: Site, wire: Wire) -> None:
    assert len(NAME) == 40
    host = host_account(site)
    res = httpx.post(f"{site.url}/api/home/tables", timeout=10,
                     headers={"Authorization": f"Bearer {host['token']}"},
                     json={"chips": AUTO_CHIPS, "name": NAME,
                           "rules": {"fortune_enabled": True, "player_banking": False},
                           "timers": TIMERS})
    assert res.status_code == 201, res.text
    table, code = res.json()["table_id"], res.json()["invite"]["code"]
    pages = four_pages(site, table, session=host)
    me = pages["laptop"]
    problems: list[str] = []
    for page in pages.values():
        expect(page.locator("body")).to_contain_text(NAME)
    check(site, pages, "home-waiting", problems)

    me.click("[data-seat='1']")
    me.fill("#buy-in", "300")
    me.click("#sit-confirm")
    friends = {seat: wire(table, name, invite=code) for seat, name in FRIENDS.items()}
    for seat, friend in friends.items():
        friend.command("sit", seat=seat, buy_in_cents=20_000)
        friend.command("place_bet", amount_cents=500 * seat, bonus_cents=100)
    for page in pages.values():
        expect(page.locator(".pos .bet-amount")).to_have_count(len(FRIENDS))
        expect(page.locator("#place-bet")).to_be_visible()
    check(site, pages, "home-betting", problems)

    me.fill("#bet-amount", "25")
    me.click("#place-bet")
    for page in pages.values():
        expect(page.locator("[data-panel='setter']")).to_be_visible()
    check(site, pages, "home-setting", problems)

    me.click("#house-way")
    me.click("#done")
    for friend in friends.values():
        friend.command("use_house_way")
    for page in pages.values():
        page.wait_for_function("() => document.querySelectorAll('.pos [data-result]').length === 4")
        expect(page.locator("[data-panel='summary'] [data-next]")).to_contain_text("Next round in")
    check(site, pages, "home-result", problems)
    assert problems == [], "\n".join(problems)
    assert site.errors == []


def test_a_chips_game_s_screens_at_every_size(site: Site, wire: Wire) -> None:
    """Issue 31's screens with the 40-character name and long player names, at the four sizes together: a
    friend's buy-in dialog and her waiting line (her seat held), the host's chip requests (with the seat-holds
    on the oval), the Ledger live, and once closed the settle-up in the tray and the Ledger. No text overlaps
    or is cut, no box lies on another (tests/browser/layout.py); screenshots matrix-chips-*.png."""
    host = host_account(site)
    res = httpx.post(f"{site.url}/api/home/tables", timeout=10,
                     headers={"Authorization": f"Bearer {host['token']}"},
                     json={"name": NAME, "chips": {"players_bank_in_turn": True}, "timers": TIMERS,
                           "rules": {"fortune_enabled": False}})
    assert res.status_code == 201, res.text
    table, code = res.json()["table_id"], res.json()["invite"]["code"]
    hosts = four_pages(site, table, session=host)
    hosts["laptop"].locator("button[data-seat='1']").click()
    hosts["laptop"].click("#sit-confirm")  # the host's own buy-in: approved at once
    friend = four_pages(site, table, name=FRIENDS[2], invite=code)
    problems: list[str] = []
    friend["phone"].locator("button[data-seat='2']").click()
    for page in friend.values():
        page.evaluate("window.paigow.ctx.onSit(2)")  # the same dialog open on every page
        expect(page.locator("#sit-title")).to_have_text("Buy in at seat 2")
    check(site, friend, "chips-buy-in", problems)
    friend["phone"].click("#sit-confirm")
    for page in friend.values():
        page.keyboard.press("Escape")
        expect(page.locator("#buy-in-status")).to_contain_text("Waiting for Bartholomew Quince to approve")
    check(site, friend, "chips-waiting", problems)
    other = wire(table, FRIENDS[5], invite=code)
    other.command("sit", seat=5, buy_in_cents=50_000)  # asks for the most: waits too
    for page in hosts.values():
        expect(page.locator("[data-panel='chip-requests'] li")).to_have_count(2)
    check(site, hosts, "chips-requests", problems)
    hosts["laptop"].get_by_role("button", name=f"Approve {FRIENDS[2]}'s chips").click()
    hosts["laptop"].get_by_role("button", name=f"Approve {FRIENDS[5]}'s chips").click()
    for page in friend.values():
        expect(page.locator(".pos[data-position='2'].me")).to_be_visible()
        page.evaluate("window.paigow.ctx.openLedger()")
        expect(page.locator("#ledger-players tbody tr")).to_have_count(3)
    check(site, friend, "chips-ledger", problems)
    hosts["laptop"].evaluate("window.paigow.ctx.command({ type: 'host_close' })")
    for page in friend.values():
        page.keyboard.press("Escape")
        expect(page.locator("[data-panel='settle']")).to_be_visible()
    check(site, friend, "chips-settle", problems)
    for page in friend.values():
        page.click("#open-ledger")
        expect(page.locator("#ledger-settle")).to_be_visible()
    check(site, friend, "chips-ledger-closed", problems)
    assert problems == [], "\n".join(problems)
    assert site.errors == []

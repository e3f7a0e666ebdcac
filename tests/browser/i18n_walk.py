"""Walks through the pages for the languages' tests (issue 32) and the screenshot script: a page in a
language, the lobby (a guest, then an account), a whole round at a table (watching, the buy-in dialog,
betting with the Fortune bonus, the dice and the deal, setting, the showdown, the coach, History, the bank
offered to the player and taken). Each calls ``at(page, phase)`` at each phase, the page still: the caller
checks or photographs it there. Nothing in a walk reads the page's words (ids, data attributes and the
view only), so a walk runs the same in every language."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, expect
from tests.browser.i18n_check import in_language
from tests.browser.wire import Wire

from paigow.rules import all_splits, is_foul, legal_splits, parse_cards

At = Callable[[Page, str], None]
"""``at(page, phase)``: what the caller does at each phase of a walk."""

ME = "Penelope Longname-Smythe"
OTHER = "Bartholomew Quince"
PASSWORD = "felt-marker-dice-7731"
ROUND_TIMERS = {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 120_000,
                "between_rounds_ms": 1_000}


def lang_page(site: Any, lang: str, width: int = 1366, height: int = 768, **options: Any) -> Page:
    """A new browser context of ``site``'s whose pages open in ``lang`` (``options``: the context's own,
    a ``locale`` for instance); its first page, blank."""
    context = site.browser.new_context(viewport={"width": width, "height": height}, **options)
    context.set_default_timeout(20_000)
    context.on("page", site._watch)
    site.contexts.append(context)
    page: Page = context.new_page()
    in_language(page, lang)
    return page


def guest(site: Any, lang: str, name: str = ME, width: int = 1366, height: int = 768) -> Page:
    """A guest who entered ``name`` in the lobby, in ``lang``."""
    page = lang_page(site, lang, width, height)
    page.goto(f"{site.url}/")
    page.fill("#display-name", name)
    page.click("#name-submit")
    page.wait_for_selector("#signed-in:not([hidden])", timeout=40_000)  # two cores for all the helpers
    return page


def username(stem: str) -> str:
    return f"{stem}{int(time.time() * 1000) % 10**8}"


def sign_up(page: Page, site: Any, user: str, display: str) -> None:
    """A new account from the lobby's form (the host's tools show)."""
    page.goto(f"{site.url}/")
    page.click("#tab-signup")
    page.fill("#signup-username", user)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-display", display)
    page.click("#signup-submit")
    expect(page.locator("#host-tools")).to_be_visible()


def open_table(site: Any, name: str, rules: dict[str, Any] | None = None,
               timers: dict[str, int] | None = None) -> str:
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10, json={
        "name": name, "rules": rules or {}, "timers": timers or ROUND_TIMERS})
    assert res.status_code == 201, res.text
    table_id: str = res.json()["table_id"]
    return table_id


def lobby_walk(site: Any, lang: str, at: At, user: str) -> None:
    """The lobby of a guest (first seen, the sign-in and sign-up tabs, a refused sign-up, signed in as a
    guest), then of an account ``user`` (signed in, the host's form)."""
    page = lang_page(site, lang)
    page.goto(f"{site.url}/")
    expect(page.locator("#display-name")).to_be_visible()
    expect(page.locator(".table-card").first).to_be_visible()
    at(page, "lobby-first")
    page.click("#tab-signin")
    expect(page.locator("#signin-username")).to_be_visible()
    at(page, "lobby-sign-in")
    page.click("#tab-signup")
    page.fill("#signup-username", "x")
    page.click("#signup-submit")
    expect(page.locator("#signup-username-error")).not_to_be_empty()
    at(page, "lobby-sign-up-refused")
    page.click("#tab-guest")
    page.fill("#display-name", ME)
    page.click("#name-submit")
    page.wait_for_selector("#signed-in:not([hidden])")
    at(page, "lobby-guest")
    page.context.close()

    page = lang_page(site, lang)
    sign_up(page, site, user, ME)
    at(page, "lobby-account")
    page.click("#host-open")
    expect(page.locator("#home-name")).to_be_visible()
    at(page, "lobby-host-form")


def setter_cards(page: Page) -> str:
    cards: list[str] = page.eval_on_selector_all(".setter [data-key]",
                                                 "els => els.map((e) => e.dataset.card)")
    return " ".join(cards)


def pick_low(page: Page) -> None:
    """Two cards of a legal split put in the low hand, by clicks."""
    for card in map(str, legal_splits(parse_cards(setter_cards(page)))[0].low):
        page.click(f".setter [data-card='{card}']")


def show_a_foul(page: Page, at: At) -> None:
    """Two cards of a foul split (when the seven have one) put in the low hand: the foul said, then taken
    back."""
    fouls = [s for s in all_splits(parse_cards(setter_cards(page))) if is_foul(s)]
    if not fouls:
        return
    for card in map(str, fouls[0].low):
        page.click(f".setter [data-card='{card}']")
    expect(page.locator("#foul")).not_to_be_empty()
    at(page, "foul")
    for card in map(str, fouls[0].low):
        page.click(f".setter [data-card='{card}']")


def round_walk(site: Any, wire: Wire, page: Page, at: At, *, name: str = "Jade Dragon",
               history: bool = True, bank: bool = True) -> str:
    """A whole round at a new table with the Fortune bonus, ``page``'s player (signed in, in its language) at
    seat 1 and OTHER over the wire at seat 5: watching, the buy-in dialog, betting, the dice and the deal, a
    foul shown (when the cards make one), a hand being set, the showdown (the table paused, so it stays),
    the coach's "How did I set it?", History; then (``bank``) round 2, the bank offered to the player, and
    taken. The table's id."""
    table = open_table(site, name, {"fortune_enabled": True})
    page.goto(f"{site.url}/table/?id={table}")
    page.wait_for_function("() => window.paigow?.ctx?.view")
    at(page, "table-watching")
    page.click("[data-seat='1']")
    expect(page.locator("#sit-dialog")).to_be_visible()
    at(page, "sit-dialog")
    page.fill("#buy-in", "300")
    page.click("#sit-confirm")
    expect(page.locator(".pos[data-position='1'].me")).to_be_visible()
    other = wire(table, OTHER)
    other.command("sit", seat=5, buy_in_cents=30_000)
    other.command("place_bet", amount_cents=1_500, bonus_cents=500)
    expect(page.locator("[data-panel='bet']")).to_be_visible()
    expect(page.locator(".pos[data-position='5'] .bet-amount")).to_be_visible()
    at(page, "betting")

    page.fill("#bet-amount", "10")
    page.click("#place-bet")
    expect(page.locator("[data-panel='setter']")).to_be_visible()
    expect(page.locator(".setter .card.face")).to_have_count(7)
    expect(page.locator("#dice .die")).to_have_count(3)
    page.wait_for_timeout(900)  # the cards' flip ends
    at(page, "dealt")
    show_a_foul(page, at)
    pick_low(page)
    expect(page.locator("#done")).to_be_enabled()
    at(page, "setting")

    other.command("use_house_way")
    site.table_action(table, "pause")  # the showdown stays up until the table resumes
    page.click("#done")
    page.wait_for_function("() => window.paigow.ctx.showdown?.number === 1")
    expect(page.locator("#my-result")).to_be_visible()
    expect(page.locator(".pos[data-position='1'] [data-result]")).to_be_visible()
    at(page, "showdown")

    page.click("#coach-open")
    expect(page.locator("#coach-dialog")).to_be_visible()
    expect(page.locator("#coach-verdict")).not_to_be_empty(timeout=30_000)
    at(page, "coach")
    page.keyboard.press("Escape")
    expect(page.locator("#coach-dialog")).to_be_hidden()

    if history:
        page.click("#history-btn")
        expect(page.locator("#my-history tbody tr")).to_have_count(1)
        page.locator("#table-history details.fair summary").first.click()
        expect(page.locator("#table-history .verify-link").first).to_be_visible()
        at(page, "history")
        page.click("#history-close")

    if bank:
        site.table_action(table, "resume")
        expect(page.locator("[data-panel='offer']")).to_be_visible(timeout=30_000)
        at(page, "bank-offer")
        page.click("#accept-bank")
        expect(page.locator("[data-panel='banker']")).to_be_visible()
        at(page, "banker")
    return table


def verify_href(site: Any, page: Page, table: str) -> str:
    """The /verify/ address of ``table``'s last settled round, as History links it (history.js)."""
    deadline = time.monotonic() + 30
    while True:
        res = httpx.get(f"{site.url}/api/tables/{table}/rounds?limit=1", timeout=10)
        assert res.status_code == 200, res.text
        if res.json()["rounds"]:
            break
        assert time.monotonic() < deadline, "no round settled"
        time.sleep(0.3)
    record = res.json()["rounds"][0]
    href: str = page.evaluate("async (r) => (await import('/js/rounds.js')).verifyHref(r)", record)
    return href

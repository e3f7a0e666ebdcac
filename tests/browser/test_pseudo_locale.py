"""Issue 32's pseudo-locale check: every page in ``en-XA`` (every catalog string accented, 40% longer and
bracketed ⟦…⟧), walked through in Chromium, shows no string that did not come from the catalog and asks for
no key the catalog lacks (tests/browser/i18n_check.py), and at 360x740 and 1366x768 no text overlaps or is
clipped and no boxes of the table overlap (tests/browser/layout.py). One walk per surface: the lobby (a
guest and an account), a whole round (betting with the Fortune bonus, the dice and the deal, setting, the
showdown, the coach, History, the bank offered and taken), a home game with its own chips (created, a
buy-in asked and approved, the host's dialog, the Ledger), the casino variants (EZ with the Queen's Dragon,
the Dragon hand's offer, co-banking), the operator console, the practice page and the verify page. Allowed
outside the brackets: the names the test typed, times and dates as Intl writes them, cards, ids and
digests. Screenshots: test-artifacts/browser/pseudo-*.png; every finding: pseudo-*-findings.txt."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.i18n_check import PSEUDO, Phases
from tests.browser.i18n_walk import (
    ME,
    OTHER,
    guest,
    lang_page,
    lobby_walk,
    open_table,
    pick_low,
    round_walk,
    sign_up,
    username,
    verify_href,
)
from tests.browser.test_variants import _house_way_low
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser

NAMES = [ME, OTHER]


def test_the_lobby_in_the_pseudo_locale(site: Any) -> None:
    open_table(site, "Lobby Jade", {"fortune_enabled": True, "co_banking": True})
    user = username("pseudo")
    # KXMBQT: the join field's example of a code (letters, not a word).
    phases = Phases(site, "pseudo-lobby", allow=[*NAMES, "Lobby Jade", user, "KXMBQT"])
    with phases.walk():
        lobby_walk(site, PSEUDO, phases.check, user)
    assert site.errors == []


def test_a_whole_round_in_the_pseudo_locale(site: Any, wire: Wire) -> None:
    phases = Phases(site, "pseudo-round", allow=[*NAMES, "Jade Dragon"])
    with phases.walk():
        page = guest(site, PSEUDO)
        round_walk(site, wire, page, phases.check)
    assert site.errors == []


def test_a_home_game_with_its_own_chips_in_the_pseudo_locale(site: Any) -> None:
    ann_user, maya_user = username("ann"), username("maya")
    allow = ["Ann", "Maya", "Friday game", ann_user, maya_user]
    phases = Phases(site, "pseudo-home", allow=allow)
    with phases.walk():
        ann = lang_page(site, PSEUDO)
        sign_up(ann, site, ann_user, "Ann")
        ann.click("#host-open")
        ann.fill("#home-name", "Friday game")
        ann.click("#host-submit")
        expect(ann.locator("#host-created")).to_be_visible()
        link = ann.locator("#invite-link").input_value()
        code = ann.locator("#invite-code").text_content() or ""
        phases.allow += [link, code, " ".join(code)]
        phases.check(ann, "created")
        ann.click("#host-go")
        ann.wait_for_function("() => window.paigow?.ctx?.view")
        phases.check(ann, "host-at-the-table")
        ann.click("[data-seat='1']")
        expect(ann.locator("#sit-dialog")).to_be_visible()
        phases.check(ann, "host-buy-in-dialog")
        ann.click("#sit-confirm")
        expect(ann.locator(".pos[data-position='1'].me")).to_be_visible()

        maya_session = httpx.post(f"{site.url}/api/accounts", timeout=10, json={
            "username": maya_user, "password": "felt-marker-dice-7731", "display_name": "Maya"}).json()
        maya = lang_page(site, PSEUDO, 360, 740)
        maya.goto(f"{site.url}/")
        maya.evaluate("s => localStorage.setItem('paigow.session', JSON.stringify(s))", maya_session)
        maya.goto(link)
        maya.wait_for_function("() => window.paigow?.ctx?.view && window.paigow.ctx.role === 'player'")
        maya.click("[data-seat='2']")
        expect(maya.locator("#sit-dialog")).to_be_visible()
        phases.check(maya, "buy-in-dialog")
        maya.fill("#buy-in", "100")
        maya.click("#sit-confirm")
        expect(maya.locator("#buy-in-status")).to_be_visible()
        phases.check(maya, "buy-in-waiting", show="#buy-in-status")

        requests = ann.locator("[data-panel='chip-requests']")
        expect(requests).to_be_visible()
        phases.check(ann, "host-requests", show="[data-panel='chip-requests']")
        request = ann.evaluate("window.paigow.ctx.view.home.chips.requests[0].request_id")
        ann.click(f"#chip-approve-{request}")
        expect(maya.locator(".pos[data-position='2'].me")).to_be_visible()
        phases.check(maya, "approved")
        phases.check(ann, "host-approved")
        ann.click("#host-btn")
        expect(ann.locator("#host-dialog")).to_be_visible()
        phases.check(ann, "host-dialog")
        ann.keyboard.press("Escape")
        ann.click("#ledger-btn")
        expect(ann.locator("#ledger-dialog")).to_be_visible()
        phases.check(ann, "ledger")
        ann.keyboard.press("Escape")
    assert site.errors == []


def test_the_casino_variants_in_the_pseudo_locale(site: Any, wire: Wire) -> None:
    """One table deals them all: EZ with the Queen's Dragon (a refused side bet, then placed), the Dragon
    hand offered (the player buys it and sets it), the showdown, then co-banking offered and taken."""
    phases = Phases(site, "pseudo-variants", allow=[*NAMES, "Golden Dragon"])
    with phases.walk():
        table = open_table(site, "Golden Dragon", {
            "commission_form": "ez", "queens_dragon_enabled": True, "dragon_enabled": True,
            "dragon_set_by": "buyer", "dragon_offer_ms": 120_000, "co_banking": True,
            "fortune_enabled": False})
        alice = guest(site, PSEUDO)
        alice.goto(f"{site.url}/table/?id={table}")
        alice.click("[data-seat='1']")
        alice.fill("#buy-in", "200")
        alice.click("#sit-confirm")
        expect(alice.locator(".pos[data-position='1'].me")).to_be_visible()
        bob = wire(table, OTHER)
        bob.command("sit", seat=2, buy_in_cents=20_000)
        expect(alice.locator("[data-panel='bet'] [data-side-bet='qd']")).to_be_visible()
        phases.check(alice, "ez-betting")
        alice.fill("#bet-amount", "10")
        alice.fill("#sb-qd-amount", "0.50")
        alice.click("#place-bet")
        expect(alice.locator("#sb-qd-error")).to_be_visible()
        phases.check(alice, "queens-dragon-refused", show="#sb-qd-error")
        alice.fill("#sb-qd-amount", "2")
        alice.click("#place-bet")
        alice.wait_for_function("() => window.paigow.ctx.view?.you?.queens_dragon_cents === 200")
        bob.command("place_bet", amount_cents=1_000)

        alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'dragon_offer'")
        if alice.evaluate("window.paigow.ctx.view.round.dragon.offered_seat") != 1:
            phases.check(alice, "dragon-offered-to-another")
            bob.command("pass_dragon")
        expect(alice.locator("#dragon-take")).to_be_visible()
        phases.check(alice, "dragon-offer", show="#dragon-take")
        alice.fill("#dragon-amount", "5")
        alice.click("#dragon-take")
        alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'setting'")
        expect(alice.locator("#dragon-set")).to_be_visible()
        for text in _house_way_low(alice.evaluate("window.paigow.ctx.view.you.dragon.cards")):
            alice.click(f"[data-dragon-card='{text}']")
        # Once the deal has ended (the tray's "The cards are being dealt…" gone): the cards still flying in
        # from the shoe are not the page's layout, and a walk measured mid-deal would differ run to run.
        expect(alice.locator("[data-panel='dealing']")).to_have_count(0)
        phases.check(alice, "dragon-setting", show="#dragon-set")
        alice.click("#dragon-set-low")
        alice.wait_for_function("() => window.paigow.ctx.view?.you?.dragon?.is_set === true")
        site.table_action(table, "pause")
        alice.click("#house-way")
        alice.click("#done")
        bob.command("use_house_way")
        alice.wait_for_function("() => window.paigow.ctx.showdown?.number === 1")
        phases.check(alice, "variants-showdown")

        site.table_action(table, "resume")
        alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'bank_offer'", timeout=30_000)
        expect(alice.locator("#co-bank")).to_be_visible()
        phases.check(alice, "co-bank-offer", show="#co-bank")
        alice.click("#co-bank")
        alice.wait_for_function("() => window.paigow.ctx.view?.round?.co_banked === true")
        phases.check(alice, "co-banking")
    assert site.errors == []


def test_the_operator_console_in_the_pseudo_locale(site: Any, wire: Wire) -> None:
    table = open_table(site, "Console Jade")
    wire(table, "Ann Barwell").command("sit", seat=2, buy_in_cents=10_000)
    bo = httpx.post(f"{site.url}/api/session", json={"display_name": "Bo Pickering"}, timeout=10).json()
    res = httpx.post(f"{site.url}/api/operator/players/{bo['player_id']}/credit", headers=site.headers,
                     timeout=10, json={"amount_cents": 2_500, "reason": "welcome"})
    assert res.status_code == 200, res.text
    phases = Phases(site, "pseudo-console", allow=[
        "Console Jade", "Ann Barwell", "Bo Pickering", "welcome", "bootstrap", "lots", *NAMES])
    with phases.walk():
        op = lang_page(site, PSEUDO)
        op.goto(f"{site.url}/operator")
        expect(op.locator("#op-token")).to_be_visible()
        phases.check(op, "sign-in")
        op.fill("#op-token", "browser-operator-token-0123456789")
        op.click("#login-form button[type=submit]")
        expect(op.locator("#console[data-ready='true']")).to_be_visible()
        phases.check(op, "tables")
        row = op.locator(f"#tables tr[data-table='{table}']")
        row.locator("[data-action='manage']").click()
        expect(op.locator("#detail-title")).to_contain_text("Console Jade")
        phases.check(op, "managed-table", show="#detail")
        op.fill("#lim-min", "lots")
        op.click("#limits-save")
        expect(op.locator("#limits-error")).not_to_be_empty()
        phases.check(op, "form-refused", show="#limits-error")
        row.locator("[data-action='void']").click()
        expect(op.locator("#confirm-dialog")).to_be_visible()
        phases.check(op, "confirm-dialog")
        op.keyboard.press("Escape")
        op.locator("#player-search").press_sequentially("Bo Pick", delay=20)
        expect(op.locator(f"#player-results [data-player='{bo['player_id']}']")).to_be_visible()
        phases.check(op, "player-search", show="#player-search", layout=False)  # its list floats over
        # (other tests of this server may have a "Bo Pickering" too: this one is picked by its id)
        op.locator(f"#player-results [data-player='{bo['player_id']}']").click()
        expect(op.locator("#player-picked")).to_have_attribute("data-player", bo["player_id"])
        phases.check(op, "players", show="#player-picked")
        phases.check(op, "audit", show="#audit-panel")
        phases.check(op, "ledger", show="#ledger-panel")
    assert site.errors == []


def test_the_practice_page_in_the_pseudo_locale(site: Any) -> None:
    phases = Phases(site, "pseudo-practice", allow=NAMES)
    with phases.walk():
        page = guest(site, PSEUDO)
        page.click("#practice-link")
        expect(page.locator(".setter [data-key]")).to_have_count(7)
        page.wait_for_timeout(900)  # the cards' flip ends
        phases.check(page, "deal")
        pick_low(page)
        phases.check(page, "setting")
        page.click("#done")
        expect(page.locator("#result-title")).to_be_visible(timeout=30_000)
        expect(page.locator("#coach-verdict")).not_to_be_empty(timeout=30_000)
        phases.check(page, "result")
    assert site.errors == []


def test_the_verify_page_in_the_pseudo_locale(site: Any, wire: Wire) -> None:
    table = open_table(site, "Verify Jade", timers={"betting_ms": 60_000, "setting_ms": 60_000,
                                                     "between_rounds_ms": 120_000})
    players = [wire(table, name) for name in NAMES]
    for seat, p in zip((1, 2), players, strict=True):
        p.command("sit", seat=seat, buy_in_cents=10_000)
    for p in players:
        p.command("place_bet", amount_cents=1_000)
    for p in players:  # each sets by the House Way once the deal lands
        deadline = time.monotonic() + 30
        while True:
            try:
                p.command("use_house_way")
                break
            except AssertionError:
                assert time.monotonic() < deadline, "the hands were never dealt"
                time.sleep(0.3)
    phases = Phases(site, "pseudo-verify", allow=NAMES)
    with phases.walk():
        page: Page = lang_page(site, PSEUDO)
        page.goto(f"{site.url}/verify/")
        phases.check(page, "empty")
        href = verify_href(site, page, table)
        page.goto(f"{site.url}{href}")
        expect(page.locator("#verdict")).not_to_be_empty(timeout=30_000)
        phases.check(page, "verified")
    assert site.errors == []

"""Accessibility: axe-core (the version pinned in tests/browser/package.json, installed by ``npm ci``) runs
inside Chromium on the lobby, the table in each phase, the verify page and the operator console, and finds
no serious or critical violation; the table's controls are reached and worked with the keyboard alone; live
regions say whose turn it is and the results."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.wire import Wire

from paigow.rules import legal_splits, parse_cards

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is, one line each."""
    assert AXE.is_file(), f"{AXE} is missing: run `npm ci --prefix tests/browser` (as .ci/run does)"
    page.evaluate(AXE.read_text())  # not a <script> tag: the pages' policy refuses inline scripts
    found: list[str] = page.evaluate("""async () => {
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target)}`);
    }""")
    return found


def test_axe_finds_no_serious_violation_on_any_page(site: Any, wire: Wire) -> None:
    table = site.open_table("Accessible", betting_ms=120_000, setting_ms=120_000, between_rounds_ms=120_000)
    found: dict[str, list[str]] = {}
    lobby = site.page()
    lobby.goto(f"{site.url}/")
    expect(lobby.locator("#display-name")).to_be_visible()
    found["lobby"] = serious_violations(lobby)

    casino = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10, json={
        "name": "Accessible EZ", "rules": {"fortune_enabled": False, "commission_form": "ez",
                                           "queens_dragon_enabled": True, "dragon_enabled": True,
                                           "co_banking": True}})
    assert casino.status_code == 201, casino.text
    me = site.player("Vera", width=390, height=844)
    expect(me.locator(".table-card").first).to_be_visible()
    tags = me.locator(f".table-card[data-table='{casino.json()['table_id']}'] .vtag")
    expect(tags).to_have_count(4)  # the variants' tags, checked too
    found["lobby signed in"] = serious_violations(me)
    me.goto(f"{site.url}/table/?id={table}")
    expect(me.locator("[data-seat='3']")).to_be_visible()
    found["table, choosing a seat"] = serious_violations(me)
    me.click("[data-seat='3']")
    me.fill("#buy-in", "200")
    found["the buy-in dialog"] = serious_violations(me)
    me.click("#sit-confirm")
    expect(me.locator("[data-panel='bet']")).to_be_visible()
    walt = wire(table, "Walt")
    walt.command("sit", seat=5, buy_in_cents=20_000)
    walt.command("place_bet", amount_cents=1_000)
    found["table, betting"] = serious_violations(me)
    me.fill("#bet-amount", "10")
    me.click("#place-bet")
    expect(me.locator("[data-panel='setter']")).to_be_visible()
    found["table, setting"] = serious_violations(me)
    walt.command("use_house_way")
    me.click("#house-way")  # arranges the House Way's split; Done sends it
    me.click("#done")
    expect(me.locator("#my-result")).to_be_visible()
    found["table, showdown"] = serious_violations(me)
    me.click("#history-btn")
    expect(me.locator("#history-dialog")).to_be_visible()
    found["history"] = serious_violations(me)
    href = me.locator("#table-history .verify-link").first.get_attribute("href")
    assert href is not None
    me.keyboard.press("Escape")
    me.goto(f"{site.url}{href}")
    expect(me.locator("#verdict")).to_contain_text("Verified")
    found["verify"] = serious_violations(me)

    console = site.page()
    console.goto(f"{site.url}/operator/")
    found["console, signed out"] = serious_violations(console)
    console.locator("#login-form").evaluate("(f) => f.closest('details')?.setAttribute('open', '')")
    console.fill("#op-token", site.headers["Authorization"].removeprefix("Bearer "))
    console.click("#login-form button[type=submit]")
    expect(console.locator(f"#tables tr[data-table='{table}']")).to_contain_text("Accessible")
    console.locator("#new-variants").evaluate("(d) => d.setAttribute('open', '')")  # the variants too
    found["console"] = serious_violations(console)
    bad = [f"{page}: {v}" for page, violations in found.items() for v in violations]
    assert bad == [], "\n".join(bad)
    assert site.errors == []


def tab_to(page: Page, selector: str, limit: int = 60) -> None:
    """Press Tab until the element matching selector has the focus (from wherever the focus is)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement?.matches(sel) ?? false", selector):
            return
    raise AssertionError(f"{selector} was not reached with Tab in {limit} presses")


def test_a_round_by_keyboard_alone_and_the_live_regions_say_what_happens(
        site: Any, wire: Wire) -> None:
    table = site.open_table("Keyboard", betting_ms=120_000, setting_ms=120_000, between_rounds_ms=120_000)
    me = site.player("Kit")
    me.goto(f"{site.url}/table/?id={table}")
    assert me.get_attribute("#phase-text", "aria-live") == "polite"
    assert me.get_attribute("#announcer", "aria-live") == "polite"
    # Sit: Tab to a seat's button, Enter, type the buy-in, Enter.
    me.locator("body").click(position={"x": 2, "y": 300})
    tab_to(me, "[data-seat='4']")
    me.keyboard.press("Enter")
    expect(me.locator("#sit-dialog")).to_be_visible()
    me.keyboard.press("Control+A")
    me.keyboard.type("200")
    me.keyboard.press("Enter")
    expect(me.locator(".pos[data-position='4'].me")).to_be_visible()
    lou = wire(table, "Lou")
    lou.command("sit", seat=1, buy_in_cents=20_000)
    # Bet: Tab to a chip (Space adds it), then Enter places the bet (as "Place bet (Enter)" says, also
    # with the focus on the chip); the announcer said betting is open.
    expect(me.locator("#announcer")).to_contain_text("your turn to place a bet")
    tab_to(me, "[data-chip='500']")
    me.keyboard.press("Space")
    me.keyboard.press("Space")
    expect(me.locator("#bet-amount")).to_have_value("10.00")
    me.keyboard.press("Enter")
    expect(me.locator(".pos[data-position='4'] .bet-amount")).to_have_text("$10.00")
    lou.command("place_bet", amount_cents=500)
    # Set: Tab to each of two cards (Space moves it to the low hand), then to Done.
    expect(me.locator("[data-panel='setter']")).to_be_visible()
    expect(me.locator("#announcer")).to_contain_text("your turn to set your hand")
    cards = me.eval_on_selector_all(".setter [data-key]", "els => els.map((e) => e.dataset.card)")
    for card in map(str, legal_splits(parse_cards(" ".join(cards)))[0].low):  # a low hand that is no foul
        tab_to(me, f".setter [data-card='{card}']")
        me.keyboard.press("Space")
        expect(me.locator(f".setter-row[aria-label='low hand'] [data-card='{card}']")).to_be_visible()
    lou.command("use_house_way")
    tab_to(me, "#done")
    me.keyboard.press("Enter")
    # The result is said in the live region, and the header's toggles and History are reached too.
    # (a win, a loss or a push: the deal is random)
    said = re.compile(r"Round 1 settled\. (You (win|lose) \$|Push: your bet comes back)")
    expect(me.locator("#announcer")).to_contain_text(said)
    expect(me.locator("#my-result")).to_be_visible()
    tab_to(me, "#history-btn")
    me.keyboard.press("Enter")
    expect(me.locator("#history-dialog")).to_be_visible()
    me.keyboard.press("Escape")
    tab_to(me, "#anim-toggle")
    me.keyboard.press("Space")
    expect(me.locator("body")).to_have_class(re.compile("no-anim"))
    assert site.errors == []


def test_the_lobby_list_keeps_a_focused_sit_through_its_refreshes(site: Any) -> None:
    """The lobby reads the tables every 3 s and redraws the list only when they changed (its polite live
    region is not read out again for nothing); redrawn, the Sit a keyboard user is on keeps the focus."""
    table = site.open_table("Focus Kept")
    me = site.player("Keys", width=1366, height=768)
    me.locator(f".table-card[data-table='{table}'] a[aria-label='Sit at Focus Kept']").focus()
    focused = "() => document.activeElement?.getAttribute('aria-label')"
    me.wait_for_timeout(3_600)  # a refresh
    assert me.evaluate(focused) == "Sit at Focus Kept"
    site.open_table("Focus Kept Too")  # a change: the list is redrawn
    expect(me.locator(".table-card h3", has_text="Focus Kept Too")).to_be_visible(timeout=8_000)
    assert me.evaluate(focused) == "Sit at Focus Kept"

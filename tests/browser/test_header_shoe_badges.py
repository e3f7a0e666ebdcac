"""The table page's header, the shoe and the seats' badges on every screen (issue 30, defects 1, 2 and 11).

The header holds what it must say at every width (390x844, 360x740, 1366x768, 1920x1080), for every kind
of table (a public one with the Fortune bonus, a home game with a 40-character name, a casino-variants
table) and a big balance ($12,345.67 of chips): no text and no control in it is cut, neither by its own box
nor by the header's. The shoe, from the second round on, keeps a readable label or shows none. A seat's
badges (offered the bank, setting…, each hand's won/lost/copy marks) fit inside the seat's plate and the
felt, and each mark is explained where it is. Screenshots: test-artifacts/browser/header-*.png,
shoe-*.png, badges-*.png."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import AUTO_CHIPS, Site
from tests.browser.layout import VIEWPORTS, four_pages, text_problems
from tests.browser.wire import WirePlayer

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"
LONG_NAME = "The Friday Night Pai Gow Club of Elm St."  # 40 characters
ME = "Penelope Longname-Smythe"
BUY_IN = "12345.67"

HEADER_JS = """() => {
  const bar = document.querySelector('.topbar').getBoundingClientRect();
  const cut = [];
  for (const e of document.querySelectorAll('.topbar > *, .topbar button, .topbar label.toggle')) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    if (e.classList.contains('visually-hidden') || e.classList.contains('spacer')) continue;
    const r = e.getBoundingClientRect();
    if (r.top < bar.top - 0.5 || r.bottom > bar.bottom + 0.5
        || r.left < bar.left - 0.5 || r.right > bar.right + 0.5)
      cut.push(`${e.id || e.className} [${[r.left, r.top, r.right, r.bottom].map(Math.round).join(' ')}] `
        + `outside the header [${[bar.left, bar.top, bar.right, bar.bottom].map(Math.round).join(' ')}]`);
  }
  return cut;
}"""
"""The header's parts (and its buttons and toggles) that are not wholly inside the header's bar."""


def header_problems(page: Page) -> list[str]:
    """What is cut in the header: its parts outside its bar, its text clipped (layout.TEXT_JS)."""
    found: list[str] = page.evaluate(HEADER_JS)
    return found + [p for p in text_problems(page) if "header" in p or "topbar" in p or "table-" in p
                    or "you-" in p or "brand" in p]


def seated(site: Site, table: str, invite: str | None = None) -> dict[str, Page]:
    pages = four_pages(site, table, ME, invite)
    pages["laptop"].click("[data-seat='1']")
    pages["laptop"].fill("#buy-in", BUY_IN)
    pages["laptop"].click("#sit-confirm")
    for page in pages.values():
        expect(page.locator("#you-meta")).to_contain_text("$12,345.67")
    return pages


def test_the_header_holds_what_it_must_say_at_every_width(make_site: Callable[..., Site]) -> None:
    # The home game's own chips take a buy-in of $12,345.67 too (issue 31: its bound raised for it).
    site = make_site({"PAIGOW_STARTING_BALANCE_CENTS": "5000000", "PAIGOW_HOME_MAX_BUY_IN_CENTS": "5000000"})
    tables: dict[str, tuple[str, str | None]] = {}
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10,
                     json={"name": "Jade Room", "rules": {"fortune_enabled": True}})
    assert res.status_code == 201, res.text
    tables["public"] = (res.json()["table_id"], None)
    host = httpx.post(f"{site.url}/api/accounts", timeout=10, json={
        "username": "clubhost", "password": PASSWORD, "display_name": "Hana"}).json()
    made = httpx.post(f"{site.url}/api/home/tables", headers={"Authorization": f"Bearer {host['token']}"},
                      timeout=10, json={"chips": {**AUTO_CHIPS, "max_buy_in_cents": 2_000_000},
                                        "name": LONG_NAME,
                                        "rules": {"min_bet_cents": 500, "max_bet_cents": 20_000}})
    assert made.status_code == 201, made.text
    tables["home"] = (made.json()["table_id"], made.json()["invite"]["code"])
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10, json={
        "name": "Casino Night Variants", "rules": {
            "fortune_enabled": True, "commission_form": "ez", "queens_dragon_enabled": True,
            "dragon_enabled": True, "dragon_set_by": "buyer", "co_banking": True}})
    assert res.status_code == 201, res.text
    tables["variants"] = (res.json()["table_id"], None)
    problems: list[str] = []
    for kind, (table, invite) in tables.items():
        pages = seated(site, table, invite)
        if kind == "home":
            for page in pages.values():
                expect(page.locator("#table-home")).to_have_text("Home game · host Hana")
        for size, page in pages.items():
            page.locator(".topbar").screenshot(path=str(site.artifacts / f"header-{kind}-{size}.png"))
            where = f"{kind} at {size} {VIEWPORTS[size]}"
            problems.extend(f"{where}: {p}" for p in header_problems(page))
            # What the header must say, in sight: the brand, your chips, the table's name (cut short with
            # its whole in its title at most), and on a phone the limits and the buttons.
            for what in ("#you-meta", "#table-name", ".brand", "#history-btn", "#chat-btn"):
                if not page.locator(what).is_visible():
                    problems.append(f"{where}: {what} is not shown")
        pages["phone"].context.close()
    assert problems == [], "\n".join(problems)
    assert site.errors == []


BADGES_JS = """() => {
  const inside = (r, c) => r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.top >= c.top - 0.5
    && r.bottom <= c.bottom + 0.5;
  const box = (r) => `[${[r.left, r.top, r.right, r.bottom].map(Math.round).join(' ')}]`;
  const bad = [];
  for (const tag of document.querySelectorAll('.pos .plate .tag')) {
    const plate = tag.closest('.plate');
    const [r, c] = [tag.getBoundingClientRect(), plate.getBoundingClientRect()];
    const s = getComputedStyle(plate);
    const inner = { left: c.left + parseFloat(s.borderLeftWidth),
                    right: c.right - parseFloat(s.borderRightWidth),
                    top: c.top + parseFloat(s.borderTopWidth),
                    bottom: c.bottom - parseFloat(s.borderBottomWidth) };
    if (!inside(r, inner))
      bad.push(`"${tag.textContent}" ${box(r)} is not inside its plate's border ${box(inner)}`);
    if (r.height > 2.8 * parseFloat(getComputedStyle(tag).fontSize) + 4)  // two lines at most
      bad.push(`"${tag.textContent}" wraps to more than two lines (${Math.round(r.height)}px high)`);
  }
  for (const marks of document.querySelectorAll('.pos .marks')) {
    const r = marks.getBoundingClientRect();
    const plate = marks.closest('.pos').querySelector('.plate').getBoundingClientRect();
    if (r.left < plate.left - 0.5 || r.right > plate.right + 0.5)
      bad.push(`the marks "${marks.textContent}" ${box(r)} run past their seat's plate ${box(plate)}`);
    for (const b of marks.querySelectorAll('b')) {
      if (!b.title) bad.push(`the mark "${b.textContent}" has no explanation`);
    }
  }
  return bad;
}"""
"""A seat's badges that cross its plate's border or wrap, the showdown marks wider than their seat's plate (a
side seat's run onto the rail) or without an explanation."""

SHOE_JS = """() => {
  const shoe = document.querySelector('.shoe');
  const label = shoe.querySelector('.shoe-label');
  if (!label || !label.getClientRects().length) return null;
  const [r, c] = [label.getBoundingClientRect(), shoe.getBoundingClientRect()];
  const size = parseFloat(getComputedStyle(label).fontSize);
  const whole = label.scrollWidth <= shoe.clientWidth;
  if (size < 9 || !whole)
    return `the shoe's label "${label.textContent}" is ${size}px, ${label.scrollWidth}px wide `
      + `in a shoe ${shoe.clientWidth}px wide`;
  return null;
}"""
"""Null, or the shoe's label too small to read or cut (it may be hidden: a small shoe shows no words)."""


def badge_problems(site: Site, pages: dict[str, Page], phase: str) -> list[str]:
    found = []
    for size, page in pages.items():
        page.screenshot(path=str(site.artifacts / f"badges-{phase}-{size}.png"))
        bad: list[str] = page.evaluate(BADGES_JS)
        found.extend(f"{phase} at {size}: {b}" for b in bad)
        found.extend(f"{phase} at {size}: {p}" for p in text_problems(page))
    return found


def test_seat_badges_and_the_shoe_fit_and_say_what_they_mean(site: Site) -> None:
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10, json={
        "name": "Badges", "rules": {"fortune_enabled": False},
        "timers": {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 120_000,
                   "between_rounds_ms": 3_000}})
    assert res.status_code == 201, res.text
    table = res.json()["table_id"]
    pages = four_pages(site, table, ME)
    me = pages["laptop"]
    me.click("[data-seat='6']")  # a right-hand seat
    me.fill("#buy-in", "300")
    me.click("#sit-confirm")
    others = {1: WirePlayer(site.url, table, "Bartholomew Quince"), 2: WirePlayer(site.url, table, "Ann"),
              5: WirePlayer(site.url, table, "Rosalind Featherstone")}
    problems: list[str] = []
    try:
        for seat, player in others.items():
            player.command("sit", seat=seat, buy_in_cents=50_000)
            player.command("place_bet", amount_cents=500 * seat)
        me.fill("#bet-amount", "25")
        me.click("#place-bet")
        for page in pages.values():
            expect(page.locator(".pos .plate .tag", has_text="setting…")).to_have_count(4)
        others[1].command("use_house_way")
        for page in pages.values():
            expect(page.locator(".pos .plate .tag", has_text="set ✓")).to_have_count(1)
        problems.extend(badge_problems(site, pages, "setting"))
        for seat in (2, 5):
            others[seat].command("use_house_way")
        me.click("#house-way")  # arranges the House Way's split; Done sends it
        me.click("#done")
        for page in pages.values():
            page.wait_for_function("() => document.querySelectorAll('.pos [data-result]').length === 5")
            expect(page.locator(".pos .marks")).to_have_count(4)
        problems.extend(badge_problems(site, pages, "showdown"))
        # Round 2: the marker reaches seat 1, who played round 1: the bank offer.
        for page in pages.values():
            offered = page.locator(".pos .plate .tag", has_text="offered the bank")
            expect(offered).to_have_count(1, timeout=30_000)
        problems.extend(badge_problems(site, pages, "bank-offer"))
        for size, page in pages.items():
            page.locator(".shoe").screenshot(path=str(site.artifacts / f"shoe-round2-{size}.png"))
            shoe: str | None = page.evaluate(SHOE_JS)
            if shoe:
                problems.append(f"round 2 at {size}: {shoe}")
    finally:
        for player in others.values():
            player.close()
    assert problems == [], "\n".join(problems)
    assert site.errors == []


CUT_PAGE = """<div style="height: 30px; overflow: hidden; display: flex; align-items: center; width: 300px">
  <button type="button" style="height: 50px">Cut at its top</button></div>
<div style="width: 200px; overflow: hidden">
  <div style="width: 400px; overflow-y: auto; max-height: 100px"><p style="white-space: nowrap; margin: 0">
    A line in a scroller that the box around it cuts at the right edge</p></div></div>
<div style="height: 14px; overflow: hidden; line-height: 20px">Cut by its own box</div>
<div style="overflow-y: auto; height: 40px; width: 300px"><p style="margin: 0; height: 200px">Scrolled</p>
  <p style="margin: 0">Out of sight in a scroller: not cut</p></div>"""


def test_the_clipped_check_counts_any_ancestors_overflow(module_page: Page) -> None:
    """layout.TEXT_JS reports text cut by its own box and by any ancestor's, beyond a scroller too, and a
    control whose box is cut; not what a scroller holds out of its sight."""
    module_page.set_content(f"<!doctype html><body>{CUT_PAGE}</body>")
    found = "\n".join(text_problems(module_page))
    assert 'the control button "Cut at its top" is cut by div' in found, found
    assert 'p "A line in a scroller that the " is cut by div' in found, found
    assert 'div "Cut by its own box" is cut by div "Cut by its own box"' in found, found
    assert "Out of sight" not in found, found

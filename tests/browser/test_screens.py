"""Every screen: a full table (the player in a browser, five more over the wire) through one round, and in
each phase (the lobby, seated and betting, dealt and setting, the showdown while the next round counts
down, and between rounds while the operator holds the next one) at a phone, a small phone, a laptop and a
full HD screen: no two of the seats, hands, tags and badges, the centre banner and the controls overlap
(but for what is designed to stack, layout.MAY_STACK), the phase's controls are in the viewport without
scrolling, the seven cards are at least 44 px wide, and the page never scrolls sideways. A screenshot of
every phase at every size is kept in test-artifacts/browser/screens-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.layout import VIEWPORTS, outside_viewport, overlaps
from tests.browser.wire import Wire, WirePlayer

pytestmark = pytest.mark.browser

# Long names: the plates must cut them, not grow into the next seat.
OTHERS = {1: "Bartholomew Quince", 3: "Ann", 4: "Maximiliana", 5: "Joe", 6: "Rosalind Featherstone"}
MY_SEAT = 2
# On every table screen:
HEADER = [".brand", "#you-meta", "#sound-toggle", "#anim-toggle", "#history-btn", "#chat-btn"]
CONTROLS = {
    "lobby": ["#display-name", "#name-submit"],
    "betting": ["#bet-amount", "#place-bet", "#repeat-bet", "#remove-bet", "[data-chip]"],
    "setting": [".setter [data-key]", "#house-way", "#done"],
    "showdown": ["#my-result", "[data-panel='summary'] [data-next]",  # "Next round in N s"
                 f".pos[data-position='{MY_SEAT}'] [data-result]"],
    "between": ["#my-result", f".pos[data-position='{MY_SEAT}'] [data-result]"],
}


def check_screens(page: Page, site: Any, phase: str, problems: list[str]) -> None:
    """The phase at every viewport: a screenshot, then the overlaps and the controls out of sight."""
    for name, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)
        site.shot(page, f"screens-{phase}-{name}")
        where = f"{phase} at {name} {width}x{height}"
        problems.extend(f"{where}: {p}" for p in overlaps(page))
        controls = CONTROLS[phase] + ([] if phase == "lobby" else HEADER)
        problems.extend(f"{where}: out of sight: {p}" for p in outside_viewport(page, controls))
        if phase == "setting":
            widths: list[float] = page.eval_on_selector_all(
                ".setter [data-key]", "els => els.map((e) => e.getBoundingClientRect().width)")
            assert len(widths) == 7
            problems.extend(f"{where}: a card {w:.0f}px wide" for w in widths if w < 44)


def test_every_phase_fits_every_screen(site: Any, wire: Wire) -> None:
    table = site.open_table("Every Screen", betting_ms=120_000, setting_ms=120_000, between_rounds_ms=120_000)
    problems: list[str] = []
    lobby = site.page(width=390, height=844)
    lobby.goto(f"{site.url}/")
    expect(lobby.locator("#display-name")).to_be_visible()
    check_screens(lobby, site, "lobby", problems)

    me = site.player("Penelope Longname-Smythe")
    me.goto(f"{site.url}/table/?id={table}")
    me.uncheck("#anim-toggle")  # the screens as they settle (the deal's animation has its own test)
    me.click(f"[data-seat='{MY_SEAT}']")
    me.fill("#buy-in", "300")
    me.click("#sit-confirm")
    expect(me.locator("[data-panel='bet']")).to_be_visible()
    others: dict[int, WirePlayer] = {}
    for seat, name in OTHERS.items():
        others[seat] = wire(table, name)
        others[seat].command("sit", seat=seat, buy_in_cents=50_000)
        others[seat].command("place_bet", amount_cents=500 * seat)
    expect(me.locator(".pos .bet-amount")).to_have_count(len(OTHERS))
    me.fill("#bet-amount", "125")
    check_screens(me, site, "betting", problems)

    me.click("#place-bet")
    expect(me.locator("[data-panel='setter']")).to_be_visible()
    others[1].command("use_house_way")  # one seat shows "set", the others "setting..."
    expect(me.locator(".pos[data-position='1'] .tag.live")).to_have_text("set ✓")
    check_screens(me, site, "setting", problems)

    for seat in OTHERS:
        if seat != 1:
            others[seat].command("use_house_way")
    me.click("#house-way")  # arranges the House Way's split; Done sends it
    me.click("#done")
    me.wait_for_function("() => document.querySelectorAll('.pos [data-result]').length === 7")
    check_screens(me, site, "showdown", problems)

    # Between rounds: the results stay while the operator holds the next round.
    site.table_action(table, "pause")
    expect(me.locator("#phase-sub")).to_contain_text("Paused by the operator")
    check_screens(me, site, "between", problems)
    assert problems == [], "\n".join(problems)
    assert site.errors == []

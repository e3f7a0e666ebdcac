"""Dialogs that a round's clock does not close (issue 30, defect 8): the coach's answer, and the host's
dialog with values typed in it, stay open with the same content and the same typed values when the next
round begins and the player's clock starts; the dialog shows at its top what is asked and the seconds left,
said politely (aria-live), and "Go to the table" closes it and puts the focus on the control that answers;
the host's dialog opens again with what was typed. Screenshots at 390x844, 360x740, 1366x768 and 1920x1080
go to test-artifacts/browser/."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import AUTO_CHIPS
from tests.browser.layout import CLOCK_UNDER_MODAL_JS, text_problems
from tests.browser.test_home_games import sign_up
from tests.browser.test_table_words import phase_is, seated, sit_down
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser

SIZES = {"390x844": (390, 844), "360x740": (360, 740), "1366x768": (1366, 768), "1920x1080": (1920, 1080)}
CLOCK = re.compile(r"^(Place your bet|Take the bank\?|Set your hand): \d+ s left$")


def next_round_begins(page: Page) -> None:
    """Waits for the round after the last one the page saw."""
    last = page.evaluate("window.paigow.ctx.lastRoundId")
    page.wait_for_function(
        "id => { const r = window.paigow.ctx.view.round; return Boolean(r) && r.round_id !== id; }",
        arg=last, timeout=30_000)


def play_a_round(page: Page, other: Any) -> None:
    """`page`'s player and the wire player `other` bet and set by the House Way; the round is settled and the
    next has not begun: no clock asks anything of the player yet."""
    page.fill("#bet-amount", "10")
    page.click("#place-bet")
    other.command("place_bet", amount_cents=1_000)
    phase_is(page, "setting")
    other.command("use_house_way")
    page.click("#house-way")  # arranges the House Way's split; Done sends it
    page.click("#done")
    page.wait_for_function("() => window.paigow.ctx.view.deadline_kind === 'next_round'")


def photographed(site: Any, page: Page, name: str, dialog: str) -> list[str]:
    """Screenshots of the page at each size with `dialog` open; the layout's findings."""
    problems: list[str] = []
    own = page.viewport_size
    assert own is not None
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator(dialog)).to_be_visible()
        site.shot(page, f"{name}-{label}")
        problems.extend(f"{label}: {p}" for p in text_problems(page))
    page.set_viewport_size(own)
    return problems


def test_the_coach_stays_open_when_the_next_round_begins(site: Any, wire: Wire) -> None:
    table = site.open_table("Coach Stays", betting_ms=60_000, setting_ms=60_000, bank_offer_ms=60_000,
                            between_rounds_ms=6_000)
    me = seated(site, "Mo", table, 2, width=390, height=844)
    lou = wire(table, "Lou")
    lou.command("sit", seat=1, buy_in_cents=20_000)
    play_a_round(me, lou)
    me.click("#coach-open")
    coach = me.locator("#coach-dialog")
    expect(coach).to_be_visible()
    expect(me.locator("#coach-body")).to_contain_text("Round #1, seat 2")
    me.locator("#coach-body").evaluate("e => { e.scrollTop = 40; }")  # being read
    answer = me.locator("#coach-body").inner_text()
    focused = me.evaluate("document.activeElement.id")
    expect(coach.locator("[data-dialog-act]")).to_be_hidden()  # nothing is asked of Mo yet
    next_round_begins(me)
    if me.evaluate("() => { const v = window.paigow.ctx.view;"
                   " return v.deadline_kind === 'bank_offer' && !v.you.offered_bank; }"):
        lou.command("decline_bank")  # the bank comes round to Mo, or betting opens
    me.wait_for_selector("#countdown[data-must-act='1']", state="attached")
    # Mo's clock runs (the bank offered to him, or betting open): the coach is still open, as it was.
    expect(coach).to_be_visible()
    bar = coach.locator("[data-dialog-act]")
    expect(bar).to_be_visible()
    assert me.locator("#coach-body").inner_text() == answer
    expect(bar.locator("[data-dialog-clock]")).to_have_text(CLOCK)
    expect(bar.locator("[data-dialog-need]")).to_have_attribute("aria-live", "polite")
    expect(bar.locator("[data-dialog-need]")).to_have_text(re.compile(r"it is your turn to (bet|answer)\."))
    expect(me.locator(".toast", has_text="Closed so that you can act")).to_have_count(0)
    assert me.evaluate(CLOCK_UNDER_MODAL_JS) is None
    assert me.evaluate("document.activeElement.id") == focused  # the bar takes no focus
    problems = photographed(site, me, "dialog-coach-turn", "#coach-dialog")
    # Go to the table: the dialog closes, the control that answers has the focus.
    bar.get_by_role("button", name="Go to the table").click()
    expect(coach).to_be_hidden()
    me.wait_for_function("() => document.activeElement?.closest('#tray') !== null")
    assert problems == [], "\n".join(problems)
    assert site.errors == []


def test_the_host_dialog_keeps_what_was_typed_when_the_next_round_begins(site: Any, wire: Wire) -> None:
    host = site.page(width=1366, height=768)
    sign_up(host, site, "Hana")
    token = host.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
    timers = {"bank_offer_ms": 60_000, "betting_ms": 60_000, "setting_ms": 60_000, "between_rounds_ms": 6_000}
    res = httpx.post(f"{site.url}/api/home/tables", headers={"Authorization": f"Bearer {token}"}, timeout=10,
                     json={"chips": AUTO_CHIPS, "name": "Host Stays", "seating": "open", "timers": timers,
                           "rules": {"fortune_enabled": False, "player_banking": False}})
    assert res.status_code == 201, res.text
    table, code = res.json()["table_id"], res.json()["invite"]["code"]
    host.goto(f"{site.url}/table/?id={table}")
    sit_down(host, 1)
    bo = wire(table, "Bo", code)
    bo.command("sit", seat=2, buy_in_cents=20_000)
    play_a_round(host, bo)
    host.click("#host-btn")
    dialog = host.locator("#host-dialog")
    expect(dialog).to_be_visible()
    typed = {"#host-min": "7", "#host-max": "150", "#host-betting_ms": "45"}
    for selector, value in typed.items():
        host.fill(selector, value)
    host.focus("#host-max")
    next_round_begins(host)
    expect(dialog).to_be_visible()
    bar = dialog.locator("[data-dialog-act]")
    expect(bar).to_be_visible()
    expect(bar.locator("[data-dialog-clock]")).to_have_text(re.compile(r"^Place your bet: \d+ s left$"))
    expect(bar.locator("[data-dialog-need]")).to_have_text(
        "Betting is open: it is your turn to bet. This window stays open until you close it.")
    expect(dialog).to_be_visible()
    for selector, value in typed.items():
        expect(host.locator(selector)).to_have_value(value)
    expect(host.locator("#host-max")).to_be_focused()  # focus stays where the host is
    assert host.evaluate(CLOCK_UNDER_MODAL_JS) is None
    problems = photographed(site, host, "dialog-host-turn", "#host-dialog")
    # Scrolled to its end on a phone, the dialog still shows the clock at its top.
    host.set_viewport_size({"width": 390, "height": 844})
    dialog.evaluate("d => { d.scrollTop = d.scrollHeight; }")
    box, top = dialog.bounding_box(), bar.bounding_box()
    assert box is not None
    assert top is not None
    assert box["y"] <= top["y"], (box, top)  # at the dialog's top, in sight
    assert top["y"] + top["height"] <= box["y"] + 120, (box, top)
    site.shot(host, "dialog-host-turn-scrolled-390x844")
    host.set_viewport_size({"width": 1366, "height": 768})
    # Go to the table: the bet's field has the focus; the Host button opens the dialog as it was left.
    bar.get_by_role("button", name="Go to the table").click()
    expect(dialog).to_be_hidden()
    expect(host.locator("#bet-amount")).to_be_focused()
    host.click("#host-btn")
    expect(dialog).to_be_visible()
    for selector, value in typed.items():
        expect(host.locator(selector)).to_have_value(value)
    host.click("#host-dialog-close")
    host.fill("#bet-amount", "10")
    host.click("#place-bet")  # the round goes on: the bar is gone from the dialog once nothing is asked
    host.click("#host-btn")
    expect(dialog.locator("[data-dialog-act]")).to_be_hidden()
    expect(host.locator("#host-min")).to_have_value("5.00")  # closed with Close: opened afresh
    assert problems == [], "\n".join(problems)
    assert site.errors == []

"""The table's sounds (client_web/js/sound.js, cues.js), as two players hear them: nothing plays, and no
AudioContext is even made, before a player has touched the page; from then on the sound is on by default:
your turn (your hand dealt, betting open to you), a tick in your own clock's last seconds and in no one
else's, a win, a loss. The mute is a button in the header that says it is pressed, and this browser
remembers it across a reload: muted, nothing plays. Heard through the page's "paigow:sound" events and
the oscillators Web Audio starts (an init script counts them)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.test_win_moments import open_table
from tests.browser.wire import WirePlayer

pytestmark = pytest.mark.browser

AUDIO = """
window.__audio = { sounds: [], contexts: 0, starts: 0 };
document.addEventListener('paigow:sound', (e) => window.__audio.sounds.push(e.detail));
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  constructor(...args) { super(...args); window.__audio.contexts += 1; }
};
const realStart = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__audio.starts += 1;
  return realStart.apply(this, args);
};
"""
TIMERS = {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 14_000, "between_rounds_ms": 3_000}


def heard(page: Page) -> list[str]:
    sounds: list[str] = page.evaluate("window.__audio.sounds")
    return sounds


def until_heard(page: Page, name: str) -> None:
    page.wait_for_function("(name) => window.__audio.sounds.includes(name)", arg=name, timeout=30_000)


def seated(site: Site, table: str, name: str, seat: int) -> Page:
    page = site.player(name, width=1366, height=768)
    page.context.add_init_script(AUDIO)
    page.goto(f"{site.url}/table/?id={table}")
    page.wait_for_function("() => window.paigow?.ctx?.view")
    page.uncheck("#anim-toggle")
    page.click(f"[data-seat='{seat}']")
    page.fill("#buy-in", "300")
    page.click("#sit-confirm")
    return page


def test_sounds_start_at_the_first_touch_say_each_turn_and_result_and_the_mute_is_remembered(
        make_site: Callable[..., Site]) -> None:
    site = make_site({}, rigs={"Sounds": {1: "seat_one_wins_seat_two_loses"}})
    table = open_table(site, "Sounds", {"fortune_enabled": False}, TIMERS)
    me = seated(site, table, "Mo", 1)
    # Lou's table in a tab of its own, never touched (the lobby's tab, touched, is closed: a browser may
    # carry a touch across a navigation within the site).
    lobby = site.player("Lou", width=1366, height=768)
    lobby.context.add_init_script(AUDIO)
    lou = lobby.context.new_page()
    lobby.close()
    lou.goto(f"{site.url}/table/?id={table}")
    lou.wait_for_function("() => window.paigow?.ctx?.view")
    expect(me.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")  # on by default
    expect(me.locator("#sound-toggle")).to_have_accessible_name("Mute")

    # Lou sits and bets over the wire (Lou's own session) and has not touched the page: Mo's bet and the deal
    # play nothing there, and no AudioContext exists; Mo hears the chips, then the turn to set.
    token = lou.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
    lou_wire = WirePlayer(site.url, table, "Lou", token=token)
    try:
        lou_wire.command("sit", seat=2, buy_in_cents=30_000)
        lou_wire.command("place_bet", amount_cents=1_000)
        me.fill("#bet-amount", "40")
        me.click("#place-bet")
        me.wait_for_function("() => window.__audio.sounds.join() === 'turn,chip,chip,turn'")  # bets, dealt
        me.click("#house-way")  # Mo sets at once
        me.click("#done")
        expect(lou.locator("[data-panel='setter']")).to_be_visible()
        assert lou.evaluate("window.__audio") == {"sounds": [], "contexts": 0, "starts": 0}
    finally:
        lou_wire.close()

    # Lou touches the page; Lou's clock runs down and ticks for Lou alone.
    lou.uncheck("#anim-toggle")
    expect(me.locator(".pos[data-position='1'] .tag.live")).to_have_text("set ✓")
    until_heard(lou, "tick")
    lou.click("#house-way")
    lou.click("#done")
    until_heard(me, "win")  # the rigged deal: Mo's House Way beats the dealer's, the dealer's Lou's
    until_heard(lou, "loss")
    assert "tick" not in heard(me), heard(me)
    assert "loss" not in heard(me)
    assert "win" not in heard(lou)
    for page in (me, lou):
        audio = page.evaluate("window.__audio")
        assert audio["contexts"] == 1, audio
        assert audio["starts"] > 0, audio

    # Lou mutes; the button says so, and still does after a reload: nothing plays for Lou from then on,
    # whose turn it is again, though Lou touches the page; Mo, not muted, hears the next turn.
    lou.click("#sound-toggle")
    expect(lou.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    lou.reload()
    lou.wait_for_function("() => window.paigow?.ctx?.view")
    expect(lou.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    lou.locator(".stage").click(position={"x": 5, "y": 5})
    turns = heard(me).count("turn")
    for page in (me, lou):  # round 2: the bank is offered to one of us, who declines
        page.wait_for_function("() => ['bank_offer', 'betting'].includes(window.paigow.ctx.view.phase)",
                               timeout=30_000)
    for page in (me, lou):
        if page.evaluate("Boolean(window.paigow.ctx.view.you?.offered_bank)"):
            page.click("#decline-bank")
    expect(me.locator("#place-bet")).to_be_visible()
    me.wait_for_function("(n) => window.__audio.sounds.filter((s) => s === 'turn').length > n", arg=turns)
    expect(lou.locator("#place-bet")).to_be_visible()
    assert lou.evaluate("window.__audio") == {"sounds": [], "contexts": 0, "starts": 0}
    lou.click("#sound-toggle")  # on again: the click itself may start the sound
    expect(lou.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    assert lou.evaluate("localStorage.getItem('paigow.sound')") == "1"
    assert site.errors == []

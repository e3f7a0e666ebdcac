"""The deal as a player sees it: with animation on, the dice roll first, then the packets leave the shoe in
the dealt order (the first hand, then counterclockwise), and the player's own cards are face down in the
air and turn face up only when they land (the tray shows them then); with animation off, everything appears
at once, with no roll and no flight. Orders of events are checked, not durations."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser

# Records, on every change of the page: when the dice stopped rolling; for each position, when its packet
# leaves the shoe and lands (its first card's flight, from the Web Animations API, on the clock of
# performance.now()); and when the own cards first show their faces, at the seat and in the tray.
TIMELINE = """
window.__deal = { rolled: null, rolling: false, packets: {}, lands: {}, faces: null, trayFaces: null,
                  together: null };
new MutationObserver(() => {
  const d = window.__deal, now = performance.now();
  const rolling = document.querySelectorAll('#dice .die.rolling').length > 0;
  if (rolling) d.rolling = true;
  if (d.rolling && !rolling && d.rolled === null) d.rolled = now;
  const hands = [...document.querySelectorAll('.pos')].filter((n) => n.querySelector('.hand .card'));
  for (const n of hands) {
    const p = n.dataset.position, card = n.querySelector('.hand .card');
    if (p in d.packets) continue;
    d.packets[p] = null;
    const flight = card.getAnimations().find((a) => a.animationName === 'deal-in');
    flight?.ready.then(() => {
      const t = flight.effect.getComputedTiming();
      d.packets[p] = flight.startTime + t.delay;
      d.lands[p] = flight.startTime + t.delay + t.duration;
    });
  }
  if (hands.length && d.together === null) d.together = hands.length;
  if (d.faces === null && document.querySelector('.pos.me .hand .card.face')) d.faces = now;
  if (d.trayFaces === null && document.querySelector('.setter .card.face')) d.trayFaces = now;
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
"""
SEATS = {1: "Ida", 3: "Moe", 5: "Sal"}


def deal_to(site: Any, wire: Wire, name: str, *, anim: bool) -> tuple[Page, dict[str, Any]]:
    table = site.open_table(f"Deal {name}", betting_ms=120_000, setting_ms=120_000)
    me = site.player(name)
    me.context.add_init_script(TIMELINE)
    me.goto(f"{site.url}/table/?id={table}")
    if not anim:
        me.uncheck("#anim-toggle")
    me.click("[data-seat='4']")
    me.fill("#buy-in", "200")
    me.click("#sit-confirm")
    expect(me.locator("[data-panel='bet']")).to_be_visible()
    for seat, other in SEATS.items():
        player = wire(table, other)
        player.command("sit", seat=seat, buy_in_cents=20_000)
        player.command("place_bet", amount_cents=500)
    me.fill("#bet-amount", "10")
    me.click("#place-bet")
    expect(me.locator(".setter .card.face")).to_have_count(7)
    timeline: dict[str, Any] = me.evaluate("window.__deal")
    return me, timeline


def test_the_dice_roll_then_the_packets_fly_in_order_and_own_cards_turn_up_on_landing(
        site: Any, wire: Wire) -> None:
    me, timeline = deal_to(site, wire, "Dana", anim=True)
    first = me.evaluate("window.paigow.ctx.view.round.first_position")
    order = [(first + k) % 7 for k in range(7)]
    assert sorted(timeline["packets"]) == [str(p) for p in range(7)]  # every hand, the two dead ones too
    starts = [timeline["packets"][str(p)] for p in order]
    assert timeline["rolled"] is not None
    assert starts[0] >= timeline["rolled"]  # no card leaves the shoe before the dice have rolled
    assert starts == sorted(starts)  # packets leave the shoe in the dealt order
    landed = timeline["lands"]["4"]
    assert timeline["faces"] >= landed  # face up only once landed, at the seat
    assert timeline["trayFaces"] >= landed  # and in the tray
    site.shot(me, "deal-animated-landed")
    assert site.errors == []


def test_with_animation_off_everything_appears_at_once(site: Any, wire: Wire) -> None:
    me, timeline = deal_to(site, wire, "Otto", anim=False)
    assert timeline["rolling"] is False  # no roll
    assert timeline["together"] == 2 + len(SEATS)  # every live hand's cards (dealer, me, the others) at once
    assert me.locator(".card.dealt").count() == 0
    assert timeline["faces"] is not None
    site.shot(me, "deal-no-animation")
    assert site.errors == []

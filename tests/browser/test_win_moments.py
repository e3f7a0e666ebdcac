"""A round's settlement as a moment (client_web/js/win_moments.js), as the players see it: the chips fly from
the losers to the banker, from the banker to the winners and from the winners to the house (commission);
each seat's amount counts up from nothing to what it won; nothing covers or waits on the controls (a bet
is placed while the chips are in the air); with reduced motion nothing moves and the amounts are there at
once. A Fortune hand of four of a kind or better is a bigger moment for its seat, and each Envy it pays
says whose hand paid it. The moment is held still for its look (every animation paused at one instant,
the Web Animations API's clock), never timed. Screenshots: test-artifacts/browser/moment-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect
from tests.browser.conftest import Site
from tests.browser.layout import VIEWPORTS
from tests.browser.test_header_shoe_badges import header_problems
from tests.browser.wire import WirePlayer

from paigow.rules.fortune import FortuneHand

pytestmark = pytest.mark.browser

# Records, on every change of the page: each chip that flies (from, to, kind), every text each seat's
# result shows; and when `holdAt` is set, holds the moment at that instant (ms) as its first chip appears.
MOMENT = """
window.__moment = { chips: [], texts: {}, fortune: {}, sounds: [], holdAt: null, held: false };
document.addEventListener('paigow:sound', (e) => window.__moment.sounds.push(e.detail));
const seenChips = new WeakSet();
new MutationObserver(() => {
  const m = window.__moment;
  for (const c of document.querySelectorAll('.moments .moment-chip')) {
    if (seenChips.has(c)) continue;
    seenChips.add(c);
    m.chips.push([Number(c.dataset.from), Number(c.dataset.to), c.dataset.kind]);
  }
  for (const [sel, into] of [['[data-result]', m.texts], ['[data-fortune-seat]', m.fortune]]) {
    for (const r of document.querySelectorAll(`.pos .outcome ${sel}`)) {
      const list = (into[r.closest('.pos').dataset.position] ??= []);
      if (list[list.length - 1] !== r.textContent) list.push(r.textContent);
    }
  }
  if (m.holdAt !== null && !m.held && m.chips.length) {
    m.held = true;
    for (const a of document.getAnimations()) { a.pause(); a.currentTime = m.holdAt; }
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
window.__release = () => { for (const a of document.getAnimations()) a.play(); };
"""

ME = "Winnie"
TIMERS = {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 120_000, "between_rounds_ms": 10_000}
AMOUNT = re.compile(r"([+−]?)\$([\d,]+)\.(\d\d)")


def cents(text: str) -> int:
    """The money in a seat's text ("win +$38.00": 3800, "loss −$10.00": -1000)."""
    found = AMOUNT.search(text)
    assert found, text
    sign, whole, part = found.groups()
    return (-1 if sign == "−" else 1) * (int(whole.replace(",", "")) * 100 + int(part))


def open_table(site: Site, name: str, rules: dict[str, Any], timers: dict[str, int] | None = None) -> str:
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10,
                     json={"name": name, "rules": rules, "timers": timers or TIMERS})
    assert res.status_code == 201, res.text
    table: str = res.json()["table_id"]
    return table


def pages_of(site: Site, table: str, extra: dict[str, tuple[int, int]]) -> dict[str, Page]:
    """One player's session on a page at each of ``VIEWPORTS`` and at each of ``extra``, every page watched
    by MOMENT, the animation on; seated at seat 1 with $300 from the laptop's page."""
    lobby = site.player(ME, width=1366, height=768)
    context: BrowserContext = lobby.context
    context.add_init_script(MOMENT)
    pages: dict[str, Page] = {}
    for size, (width, height) in {**VIEWPORTS, **extra}.items():
        page = lobby if size == "laptop" else context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{site.url}/table/?id={table}")
        page.wait_for_function("() => window.paigow?.ctx?.view")
        pages[size] = page
    expect(pages["laptop"].locator("#anim-toggle")).to_be_checked()
    pages["laptop"].click("[data-seat='1']")
    pages["laptop"].fill("#buy-in", "300")
    pages["laptop"].click("#sit-confirm")
    for page in pages.values():
        expect(page.locator("#you-meta")).to_contain_text("$300.00")
    return pages


def shots(site: Site, pages: dict[str, Page], name: str) -> None:
    for size in VIEWPORTS:
        pages[size].screenshot(path=str(site.artifacts / f"moment-{name}-{size}.png"))


def test_a_win_flies_the_chips_counts_up_at_the_seat_and_never_holds_up_the_next_bet(
        make_site: Callable[..., Site]) -> None:
    site = make_site({"PAIGOW_CONNECTIONS_PER_PLAYER": "8"},
                     rigs={"Moments": {1: "seat_one_wins_seat_two_loses"}})
    table = open_table(site, "Moments", {"fortune_enabled": False})
    pages = pages_of(site, table, {"held": (1366, 768), "reduced": (1366, 768)})
    pages["reduced"].emulate_media(reduced_motion="reduce")
    pages["reduced"].reload()
    pages["reduced"].wait_for_function("() => window.paigow?.ctx?.view?.you")
    me, held = pages["laptop"], pages["held"]
    bob = WirePlayer(site.url, table, "Bob")
    try:
        bob.command("sit", seat=2, buy_in_cents=50_000)
        bob.command("place_bet", amount_cents=1_000)
        me.fill("#bet-amount", "40")
        me.click("#place-bet")
        bob.command("use_house_way")
        for size, page in pages.items():
            if size != "reduced":
                page.evaluate("window.__moment.holdAt = 1300")  # the winners' chips in the air
        me.click("#house-way")
        me.click("#done")
        for size, page in pages.items():
            if size != "reduced":
                page.wait_for_function("() => window.__moment.held")
        site.table_action(table, "pause")  # the next round waits for the looks
        record = me.evaluate("window.paigow.ctx.rounds[0]")
        mine = next(h for h in record["hands"] if h["position"] == 1)
        assert mine["outcome"] == "win", record
        assert record["banker_position"] == 0, record
        final = mine["net_cents"]

        # Held in the air: the chips fly from the dealer (the house banks) to my seat, from Bob's to the
        # dealer, my commission to the house; my amount is on its way up; none of it takes a pointer.
        shots(site, pages, "win-mid")
        chips = held.evaluate("window.__moment.chips")
        for flight in ([0, 1, "win"], [2, 0, "loss"], [1, 0, "commission"]):
            assert flight in chips, chips
        mid = cents(held.locator(".pos[data-position='1'] [data-result]").text_content() or "")
        assert 0 < mid < final
        assert held.evaluate("""() => [...document.querySelectorAll('.moments .moment-chip')].every((c) => {
          const r = c.getBoundingClientRect();
          const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return getComputedStyle(c).pointerEvents === 'none' && !at?.closest('.moments');
        })""")

        # A step further (1450 ms): my amount further up. Then let go, each amount counts up to what the seat
        # won or lost, and stays.
        seat = me.locator(".pos[data-position='1'] [data-result]")
        before = seat.text_content() or ""
        me.evaluate("() => { for (const a of document.getAnimations()) a.currentTime = 1450; }")
        me.wait_for_function("([sel, t]) => document.querySelector(sel).textContent !== t",
                             arg=[".pos[data-position='1'] [data-result]", before])
        assert cents(before) < cents(seat.text_content() or "") < final
        for size in VIEWPORTS:
            pages[size].evaluate("window.__release()")
            expect(pages[size].locator(".moments .moment-chip")).to_have_count(0)
            expect(pages[size].locator(".pos[data-position='1'] [data-result]")).to_have_text(
                f"win +${final / 100:,.2f}")
        shots(site, pages, "win-end")
        # Every seat's amount (mine, Bob's, the dealer's bank) counted from nothing up to its own, each text
        # of it no smaller than the one before; mine through the values between (the others' counts ran
        # while the moment was held).
        texts = me.evaluate("window.__moment.texts")
        assert sorted(texts) == ["0", "1", "2"], texts
        for position, shown in texts.items():
            counted = [cents(t) for t in shown[1:]]  # the first: the drawing before the moment's first frame
            assert counted == sorted(counted, key=abs), (position, shown)
            assert counted[0] == 0, (position, shown)
            assert shown[-1] == shown[0], (position, shown)
        assert len(set(texts["1"])) >= 4, texts["1"]

        # Reduced motion: no chip, and each amount is there at once (never counted).
        assert pages["reduced"].evaluate("window.__moment.chips") == []
        reduced = pages["reduced"].evaluate("window.__moment.texts")
        assert reduced["1"] == [f"win +${final / 100:,.2f}"], reduced
        assert all(len(shown) == 1 for shown in reduced.values()), reduced

        # The mute, at every size: in the header, whole, pressed once muted (on every page of this browser).
        problems = []
        for muted in ("false", "true"):
            if muted == "true":
                me.click("#sound-toggle")
            for size in VIEWPORTS:
                expect(pages[size].locator("#sound-toggle")).to_have_attribute("aria-pressed", muted)
                expect(pages[size].locator("#sound-toggle")).to_have_accessible_name("Mute")
                pages[size].locator(".topbar").screenshot(
                    path=str(site.artifacts / f"moment-mute-pressed-{muted}-{size}.png"))
                problems.extend(f"{size}: {p}" for p in header_problems(pages[size]))
        assert problems == [], "\n".join(problems)
        me.click("#sound-toggle")

        # The next round: the bank offered to me, declined, and a bet placed, while the held page's chips are
        # still in the air.
        site.table_action(table, "resume")
        held.click("#decline-bank")
        expect(held.locator("#place-bet")).to_be_visible()
        assert held.locator(".moments .moment-chip").count() > 0
        held.fill("#bet-amount", "10")
        held.click("#place-bet")
        expect(held.locator(".pos[data-position='1'] .bet-amount")).to_have_text("$10.00")
        assert held.locator(".moments .moment-chip").count() > 0
        held.evaluate("window.__release()")
        expect(held.locator(".moments .moment-chip")).to_have_count(0)
    finally:
        bob.close()
    assert site.errors == []


def hold(pages: dict[str, Page], at: int) -> None:
    """The next moment on every page is held at ``at`` ms, as its first chip flies."""
    for page in pages.values():
        page.evaluate("(at) => Object.assign(window.__moment, { chips: [], holdAt: at, held: false })", at)


def held_on(pages: dict[str, Page]) -> None:
    for page in pages.values():
        page.wait_for_function("() => window.__moment.held")


BIG = "|".join(re.escape(h.label) for h in FortuneHand if h >= FortuneHand.FOUR_OF_A_KIND)


def play_held(site: Site, table: str, pages: dict[str, Page], players: list[WirePlayer]) -> None:
    """A round of $10 bets with $5 Fortune bonuses, each hand set by the House Way; its moment held at 2 s on
    every page (the big moment shown, the commissions' chips in the air) and the table paused."""
    hold(pages, 2_000)
    for player in players:
        player.command("place_bet", amount_cents=1_000, bonus_cents=500)
    for player in players:
        player.command("use_house_way")
    held_on(pages)
    site.table_action(table, "pause")


def big_at(pages: dict[str, Page], hit: int, paid: int, whose: str) -> None:
    """On every page: the seat ``hit`` glows for its big hand, the seat ``paid`` for the Envy it was paid,
    and says whose hand paid it."""
    for page in pages.values():
        expect(page.locator(f".pos[data-position='{hit}']")).to_have_class(re.compile(r"\bmoment-big\b"))
        expect(page.locator(f".pos[data-position='{paid}']")).to_have_class(re.compile(r"\bmoment-envy\b"))
        expect(page.locator(f".pos[data-position='{paid}'] [data-moment='envy']")).to_have_text(
            re.compile(rf"^Envy \+\$\d+\.00 from {whose}$"))


def test_a_fortune_hit_and_the_envy_it_pays_are_a_big_moment_that_says_whose_hand_paid(
        make_site: Callable[..., Site]) -> None:
    site = make_site({"PAIGOW_CONNECTIONS_PER_PLAYER": "8"},
                     rigs={"Big Moments": {1: "seat_one_fortune", 2: "seat_two_fortune"}})
    table = open_table(site, "Big Moments", {"fortune_enabled": True})
    pages = pages_of(site, table, {})
    me = pages["laptop"]
    token = me.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
    mine, bob = WirePlayer(site.url, table, ME, token=token), WirePlayer(site.url, table, "Bob")
    try:
        # Round 1: my seven cards make four of a kind or better: my Fortune bonus pays (its pill at my seat
        # in gold), and so does Bob's Envy, from my hand; I hear the big moment.
        bob.command("sit", seat=2, buy_in_cents=50_000)
        play_held(site, table, pages, [bob, mine])
        big_at(pages, 1, 2, ME)
        for page in pages.values():
            pill = page.locator(".pos[data-position='1'] [data-fortune-seat]")
            expect(pill).to_have_class(re.compile(r"\bbig\b"))
        expect(me.locator("[data-fortune='win']")).to_have_text(
            re.compile(rf"^Fortune: your ({BIG}) pays \$[\d,]+\.00$"))
        assert [1, 2, "envy"] in me.evaluate("window.__moment.chips")
        assert [0, 1, "bonus"] in me.evaluate("window.__moment.chips")
        shots(site, pages, "fortune-hit")
        assert me.evaluate("window.__moment.sounds").count("big") == 1
        for page in pages.values():
            page.evaluate("window.__release()")

        # Round 2 (a bank offered is declined): Bob's seven cards make four of a kind or better: Envy pays
        # me, from Bob's hand, and every page says so at my seat; the Envy chips fly from Bob's.
        site.table_action(table, "resume")
        me.wait_for_function("() => ['bank_offer', 'betting'].includes(window.paigow.ctx.view.phase)",
                             timeout=30_000)
        if me.evaluate("window.paigow.ctx.view.phase") == "bank_offer":
            offered = me.evaluate("window.paigow.ctx.view.you.offered_bank")
            (mine if offered else bob).command("decline_bank")
        me.wait_for_function("() => window.paigow.ctx.view.phase === 'betting'")
        play_held(site, table, pages, [bob, mine])
        big_at(pages, 2, 1, "Bob")
        expect(me.locator("[data-envy='2']")).to_have_text(
            re.compile(rf"^Envy: Bob's ({BIG}) pays you \$\d+\.00$"))
        assert [2, 1, "envy"] in me.evaluate("window.__moment.chips")
        shots(site, pages, "envy")
        assert me.evaluate("window.__moment.sounds").count("big") == 2
    finally:
        mine.close()
        bob.close()
    assert site.errors == []


FLOWS_JS = """async () => {
  const m = await import('/js/win_moments.js');
  const hand = (position, extra) => ({ position, player_id: position ? `p${position}` : null,
    is_banker: false, net_cents: 0, gross_cents: 0, commission_cents: 0, fortune: 'nothing', bonus_cents: 0,
    bonus_win_cents: 0, bonus_net_cents: 0, envy: [], ...extra });
  // Seat 3 banks; seat 1 beats it (commission), seat 2 loses to it; seat 2's straight flush pays seat 1 Envy,
  // and seat 2's own bonus; the dealer plays a wager against the bank and pushes.
  const record = { banker_position: 3, banker_commission_cents: 45, banker_net_cents: 855, hands: [
    hand(0, { net_cents: 0 }),
    hand(1, { net_cents: 950, gross_cents: 1000, commission_cents: 50, bonus_cents: 500,
              bonus_win_cents: -500,
              envy: [{ position: 2, player_id: 'p2', fortune: 'straight_flush', amount_cents: 2000 }] }),
    hand(2, { net_cents: -2000, fortune: 'straight_flush', bonus_cents: 100, bonus_win_cents: 5000 }),
    hand(3, { is_banker: true, fortune: 'flush' })] };
  return { flows: m.moneyFlows(record), big: m.bigMoments(record),
           ann: m.ownBig(record, { role: 'player', playerId: 'p1' }),
           bob: m.ownBig(record, { role: 'player', playerId: 'p2' }),
           cy: m.ownBig(record, { role: 'player', playerId: 'p3' }),
           watcher: m.ownBig(record, { role: 'spectator', playerId: null }) };
}"""


def test_where_the_chips_go_and_what_is_a_big_moment(module_page: Page) -> None:
    """The flows of a player-banked round: losers to the banker, the banker to the winners, commissions to
    the house, the Fortune from and to the house, Envy from the hand that paid it; the big moments."""
    found = module_page.evaluate(FLOWS_JS)
    flows = {(f["from"], f["to"], f["kind"], f["phase"]): f["cents"] for f in found["flows"]}
    assert flows == {
        (2, 3, "loss", "collect"): 2000, (3, 1, "win", "pay"): 1000, (1, 0, "commission", "commission"): 50,
        (3, 0, "commission", "commission"): 45, (1, 0, "bonus", "collect"): 500, (0, 2, "bonus", "pay"): 5000,
        (2, 1, "envy", "pay"): 2000}
    assert found["big"] == {
        "hits": [{"position": 2, "fortune": "straight_flush", "bonusCents": 5000}],
        "envy": [{"position": 1, "playerId": "p1", "from": 2, "fromPlayerId": "p2",
                  "fortune": "straight_flush", "cents": 2000}]}
    assert found["ann"] is True  # Envy paid to Ann
    assert found["bob"] is True  # Bob's own hit
    assert found["cy"] is False
    assert found["watcher"] is False

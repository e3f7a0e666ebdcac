"""Two players and a spectator, in three browser contexts, play three whole rounds on a real
``paigow serve``: bets by chips and by keyboard, the dice and the deal, a foul shown and refused, setting by
clicks, by keys and by the House Way button, a set hand changed, a reload in the middle of setting, the bank
offered and declined, then offered and taken (the other player sees the bank's coverage), the showdown with
chips updated everywhere, a second tab that stays in step, and a spectator who never sees another player's
cards before a showdown."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from paigow.rules import all_splits, is_foul, legal_splits, parse_cards

pytestmark = pytest.mark.browser

ALICE_SEAT, BOB_SEAT = 1, 2
# Records, on every change of the page, any face-up card on the table while no showdown is on screen.
LEAK_WATCH = """
window.__faceLeaks = [];
new MutationObserver(() => {
  const faces = [...document.querySelectorAll('.stage .card.face')].map((c) => c.dataset.card);
  const showdown = window.paigow && window.paigow.ctx.showdown;
  if (faces.length && !showdown) window.__faceLeaks.push(faces.join(' '));
}).observe(document, { subtree: true, childList: true });
"""


def sit(page: Page, seat: int, dollars: str) -> None:
    page.click(f"[data-seat='{seat}']")
    page.fill("#buy-in", dollars)
    page.click("#sit-confirm")
    expect(page.locator(f".pos[data-position='{seat}'].me")).to_be_visible()


def view(page: Page) -> dict[str, Any]:
    v: dict[str, Any] = page.evaluate("window.paigow.ctx.view")
    return v


def tray_cards(page: Page) -> dict[str, str]:
    """The player's seven cards in the setting tray: card text -> its key (1..7)."""
    pairs: list[list[str]] = page.eval_on_selector_all(
        ".setter [data-key]", "els => els.map((e) => [e.dataset.card, e.dataset.key])")
    return dict((card, key) for card, key in pairs)


def foreign_faces(page: Page, own_position: int | None) -> int:
    """Face-up cards anywhere on the page that are not the viewer's own (own seat and own tray excluded)."""
    own = f":not(.pos[data-position='{own_position}'] .card)" if own_position is not None else ""
    count: int = page.locator(f".stage .card.face{own}").count()
    if own_position is None:
        count += page.locator(".card.face").count()
    return count


def money_text(cents: int) -> str:
    sign = "−" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def check_hidden(alice: Page, bob: Page, spectator: Page) -> None:
    assert foreign_faces(alice, ALICE_SEAT) == 0
    assert foreign_faces(bob, BOB_SEAT) == 0
    assert foreign_faces(spectator, None) == 0


SHOWDOWN_JS = """() => [...document.querySelectorAll('.pos')].map((n) => ({
    position: Number(n.dataset.position),
    faces: n.querySelectorAll('.card.face').length,
    result: n.querySelector('[data-result]')?.dataset.result ?? null,
    marks: n.querySelector('.marks')?.textContent ?? '',
    chips: n.querySelector('.chips')?.textContent ?? '',
}))"""


def check_settled(pages: list[Page], round_number: int) -> dict[str, Any]:
    """Every page shows the showdown of that round, and the chips the server settled (the table is paused,
    so the showdown stays on screen)."""
    for page in pages:
        page.wait_for_function("n => window.paigow.ctx.showdown?.number === n && !!document.querySelector("
                               "'.pos [data-result]')", arg=round_number)
    record: dict[str, Any] = pages[0].evaluate("window.paigow.ctx.showdown")
    seats = view(pages[0])["seats"]
    for page in pages:
        shown = {p["position"]: p for p in page.evaluate(SHOWDOWN_JS)}
        for hand in record["hands"]:
            pos = hand["position"]
            assert shown[pos]["faces"] == 7, (page.url, pos, shown, record["hands"])
            if pos != 0 and not hand["is_banker"]:
                assert shown[pos]["result"] == hand["outcome"]
                assert re.search("high [WLC]", shown[pos]["marks"])
                assert shown[pos]["chips"] == money_text(seats[pos]["chips_cents"])
    return record


def test_two_players_and_a_spectator_play_three_rounds(site: Any) -> None:
    table = site.open_table("Jade Dragon", bank_offer_ms=30_000, betting_ms=60_000, setting_ms=90_000,
                            between_rounds_ms=1_000)
    alice = site.player("Alice")
    bob = site.player("Bob", width=412, height=915)  # Bob plays on a phone
    spectator = site.page()
    spectator.context.add_init_script(LEAK_WATCH)
    site.shot(alice, "01-lobby")
    spectator.goto(f"{site.url}/table/?id={table}&watch=1")
    alice.goto(f"{site.url}/table/?id={table}")
    bob.goto(f"{site.url}/table/?id={table}")
    expect(spectator.locator("[data-panel='spectator']")).to_be_visible()
    # Sound and animation can be switched off (and stay off).
    spectator.uncheck("#anim-toggle")
    expect(spectator.locator("body")).to_have_class(re.compile("no-anim"))
    assert spectator.evaluate("localStorage.getItem('paigow.anim')") == "0"
    expect(spectator.locator(".sit-btn")).to_have_count(0)

    # Seats: the first player to sit starts round 1 (the house banks it).
    sit(alice, ALICE_SEAT, "200")
    sit(bob, BOB_SEAT, "150")
    expect(alice.locator("[data-panel='bet']")).to_be_visible()
    expect(spectator.locator(".pos[data-position='2'] .name")).to_have_text("Bob")
    expect(spectator.locator("#spectators")).to_have_text(re.compile(r"[1-9]\d* watching"), timeout=8000)

    # A second tab of Alice's stays in step with the first.
    alice2 = alice.context.new_page()
    alice2.goto(f"{site.url}/table/?id={table}")
    expect(alice2.locator("[data-panel='bet']")).to_be_visible()

    # Errors in words next to the bet: below the minimum.
    alice.fill("#bet-amount", "1")
    alice.click("#place-bet")
    expect(alice.locator("#bet-error")).to_contain_text("minimum")
    # Alice bets with chips and the mouse: $25 + $5 = $30.
    alice.fill("#bet-amount", "0")
    alice.click("[data-chip='2500']")
    alice.click("[data-chip='500']")
    expect(alice.locator("#bet-amount")).to_have_value("30.00")
    site.shot(alice, "02-betting")
    alice.click("#place-bet")
    expect(alice.locator("#bet-error")).to_have_text("")
    expect(alice2.locator(".pos[data-position='1'] .bet-amount")).to_have_text("$30.00")
    # Keys: "." removes the bet, "0" repeats it.
    alice.locator("#stage").click(position={"x": 5, "y": 5})
    alice.keyboard.press(".")
    expect(alice2.locator(".pos[data-position='1'] .bet-amount")).to_have_count(0)
    alice.keyboard.press("0")
    expect(alice2.locator(".pos[data-position='1'] .bet-amount")).to_have_text("$30.00")
    check_hidden(alice, bob, spectator)
    # Bob bets with the keyboard: Shift+Up ($10) twice, Up, Down, Up ($1) -> $21, Enter.
    bob.locator("body").click(position={"x": 5, "y": 300})
    bob.fill("#bet-amount", "0")
    bob.locator("#bet-amount").blur()
    for key in ("Shift+ArrowUp", "Shift+ArrowUp", "ArrowUp", "ArrowDown", "ArrowUp"):
        bob.keyboard.press(key)
    expect(bob.locator("#bet-amount")).to_have_value("21.00")
    bob.keyboard.press("Enter")

    # Both bet: the dice roll, the deal goes out, and each player sees only their own seven cards.
    expect(alice.locator("[data-panel='setter']")).to_be_visible()
    expect(bob.locator("[data-panel='setter']")).to_be_visible()
    expect(spectator.locator("#dice .die")).to_have_count(3)
    site.shot(spectator, "03-dice-and-deal")
    v = view(spectator)
    assert v["round"]["dice"] is not None
    first = v["round"]["first_position"]
    assert first == (0 + sum(v["round"]["dice"]) - 1) % 7
    expect(spectator.locator(".discards .card.back")).to_have_count(4)
    check_hidden(alice, bob, spectator)
    expect(alice.locator(".setter .card.face")).to_have_count(7)

    # Alice: a foul is shown (with why) before Done, and refused by the server when sent anyway.
    cards = tray_cards(alice)
    seven = parse_cards(" ".join(cards))
    fouls = [s for s in all_splits(seven) if is_foul(s)]
    if fouls:
        for card in fouls[0].low:
            alice.click(f".setter [data-card='{card}']")
        expect(alice.locator("#foul")).to_contain_text("Foul: the low hand")
        expect(alice.locator("#done")).to_be_disabled()
        site.shot(alice, "04-foul-shown")
        alice.keyboard.press("Enter")  # Enter sends it anyway: the table refuses it
        expect(alice.locator("#set-error")).to_contain_text(re.compile("foul", re.I))
        for card in fouls[0].low:
            alice.click(f".setter [data-card='{card}']")
    # Alice sets by clicking: a legal split, both hands named live.
    legal = legal_splits(seven)[0]
    for card in legal.low:
        alice.click(f".setter [data-card='{card}']")
    expect(alice.locator("#foul")).to_have_text("")
    expect(alice.locator("#high-name")).not_to_have_text("")
    expect(alice.locator("#low-name")).not_to_have_text("")
    assert site.unlabelled(alice) == []  # every control and card has a name
    alice.click("#done")
    expect(alice.locator("#set-status")).to_contain_text("Hand set")
    # Until the banker's hand is shown she may still change it: another legal split, then Update.
    other = legal_splits(seven)[-1]
    for card in legal.low:
        alice.click(f".setter [data-card='{card}']")
    for card in other.low:
        alice.click(f".setter [data-card='{card}']")
    expect(alice.locator("#done")).to_have_accessible_name("Update")
    expect(alice.locator("#done kbd")).to_have_text("Enter")
    alice.click("#done")
    alice.wait_for_function(
        "low => { const v = window.paigow.ctx.view; const h = v.round.hands.find((x) => x.position === 1);"
        " return h.low.length === 2 && h.low.every((c) => low.includes(c)); }",
        arg=[str(c) for c in other.low])
    expect(spectator.locator(".pos[data-position='1'] .tag.live")).to_have_text("set ✓")
    check_hidden(alice, bob, spectator)

    # Bob sets with the keyboard: the keys of a legal low hand, then Enter.
    bob_cards = tray_cards(bob)
    bob_legal = legal_splits(parse_cards(" ".join(bob_cards)))[-1]
    for card in bob_legal.low:
        bob.keyboard.press(bob_cards[str(card)])
    expect(bob.locator("#low-name")).not_to_have_text("")
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    site.shot(bob, "05-setting-by-keyboard-phone", full_page=True)
    site.table_action(table, "pause")  # the showdown stays up until the table resumes
    bob.keyboard.press("Enter")

    # Showdown: everyone sees every live hand, results per hand, and the chips the server settled.
    record = check_settled([alice, bob, spectator, alice2], 1)
    site.shot(alice, "06-showdown-player")
    site.shot(spectator, "06-showdown-spectator")
    mine = next(h for h in record["hands"] if h["player_id"] == view(alice)["seats"][1]["player_id"])
    assert view(alice)["you"]["chips_cents"] == 20_000 + mine["net_cents"]

    expect(alice.locator("#phase-sub")).to_contain_text("Paused by the operator")
    site.table_action(table, "resume")
    # Round 2: the marker reaches seat 1; Alice played against the house, so she is offered the bank.
    expect(alice.locator("[data-panel='offer']")).to_be_visible(timeout=15_000)
    expect(alice.locator("[data-panel='offer']")).to_contain_text(money_text(view(alice)["you"]["chips_cents"]))
    expect(spectator.locator(".pos[data-position='1'] .tag.live")).to_have_text("offered the bank")
    site.shot(alice, "07-bank-offer")
    alice.click("#decline-bank")
    expect(alice.locator("[data-panel='bet']")).to_be_visible()
    expect(alice.locator("#phase-sub")).to_contain_text("Alice declined the bank: the house banks.")
    # Repeat last bet with the 0 key (Alice) and the button (Bob).
    alice.locator("#stage").click(position={"x": 5, "y": 5})
    alice.keyboard.press("0")
    expect(alice.locator(".pos[data-position='1'] .bet-amount")).to_have_text("$30.00")
    bob.click("#repeat-bet")
    expect(bob.locator("[data-panel='setter']")).to_be_visible()
    check_hidden(alice, bob, spectator)

    # Alice picks one card, reloads the page in the middle of setting, and carries on. (Her tray shows the
    # cards once her own packet lands, which may be after Bob's.)
    expect(alice.locator(".setter .card.face")).to_have_count(7)
    first_card = next(iter(tray_cards(alice)))
    alice.click(f".setter [data-card='{first_card}']")
    alice.reload()
    expect(alice.locator("[data-panel='setter']")).to_be_visible()
    expect(alice.locator(".setter .card.face")).to_have_count(7)
    expect(alice.locator(f".setter-row[aria-label='low hand'] [data-card='{first_card}']")).to_be_visible()
    check_hidden(alice, bob, spectator)
    # The House Way button arranges Alice's hand and Done sends it; the tray shows it set, and it can
    # still be changed.
    alice.click("#house-way")  # arranges the House Way's split; Done sends it
    alice.click("#done")
    expect(alice.locator("#set-status")).to_contain_text("Hand set")
    expect(alice.locator(".setter-row[aria-label='low hand'] .card")).to_have_count(2)
    site.shot(alice, "08-house-way")
    site.table_action(table, "pause")
    bob.click("#house-way")  # arranges the House Way's split; Done sends it
    bob.click("#done")

    check_settled([alice, bob, spectator], 2)
    site.shot(spectator, "09-showdown-round-2")
    # Round 3: the marker reaches Bob, who takes the bank; Alice sees how much more the bank covers.
    site.table_action(table, "resume")
    expect(bob.locator("[data-panel='offer']")).to_be_visible()
    bob.click("#accept-bank")
    expect(bob.locator("[data-panel='banker']")).to_contain_text("You are the banker")
    expect(alice.locator("#phase-sub")).to_have_text("Bob banks")
    expect(alice.locator("#bet-info")).to_contain_text("the bank covers")
    alice.fill("#bet-amount", "10")
    alice.click("#place-bet")
    expect(alice.locator("[data-panel='setter']")).to_be_visible()
    site.table_action(table, "pause")
    alice.click("#house-way")  # arranges the House Way's split; Done sends it
    alice.click("#done")
    bob.click("#house-way")  # arranges the House Way's split; Done sends it
    bob.click("#done")
    record = check_settled([alice, bob, spectator], 3)
    assert record["banker_position"] == BOB_SEAT
    expect(bob.locator(".pos[data-position='2'] [data-result]")).to_contain_text("bank")
    site.shot(bob, "09b-player-bank-phone", full_page=True)
    assert spectator.evaluate("window.__faceLeaks") == []  # not one face-up card before a showdown
    # History: the settled round with its commitment, revealed seed and a verify link that checks out.
    alice.click("#history-btn")
    expect(alice.locator("#my-history tbody tr")).to_have_count(3)
    href = alice.locator("#table-history .verify-link").first.get_attribute("href")
    site.shot(alice, "10-history")
    alice.keyboard.press("Escape")
    assert href is not None
    spectator.goto(f"{site.url}{href}")
    expect(spectator.locator("#verdict")).to_contain_text("Verified")
    site.shot(spectator, "11-verify")
    assert site.errors == []

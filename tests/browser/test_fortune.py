"""The Fortune bonus in the browser, on a real ``paigow serve``: a table with the bonus on, two players (one
on a phone) and a spectator. The pay table one click away; a bonus put on with its row's + (a row of the
side bets beside the bet, side_bets.js), another with the keyboard (F, arrows, Enter); the bonus chips on
the seats; the showdown's Fortune line with the amount the server settled; the next round's player-banker
takes the bank with a Fortune bet of their own; the Envy line as the showdown words it. Screenshots at
390x844, 1366x768 and 1920x1080 in the betting phase and at the showdown."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

ALICE_SEAT, BOB_SEAT = 1, 2


def money_text(cents: int) -> str:
    sign = "−" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def view(page: Page) -> dict[str, Any]:
    v: dict[str, Any] = page.evaluate("window.paigow.ctx.view")
    return v


def sit(page: Page, seat: int, dollars: str) -> None:
    page.click(f"[data-seat='{seat}']")
    page.fill("#buy-in", dollars)
    page.click("#sit-confirm")
    expect(page.locator(f".pos[data-position='{seat}'].me")).to_be_visible()


def open_fortune_table(site: Any) -> str:
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10, json={
        "name": "Fortune Dragon", "rules": {"fortune_enabled": True},
        "timers": {"bank_offer_ms": 60_000, "betting_ms": 60_000, "setting_ms": 90_000,
                   "between_rounds_ms": 1_000}})
    assert res.status_code == 201, res.text
    table_id: str = res.json()["table_id"]
    return table_id


def showdown_of(pages: list[Page], number: int) -> dict[str, Any]:
    for page in pages:
        page.wait_for_function("n => window.paigow.ctx.showdown?.number === n", arg=number)
    record: dict[str, Any] = pages[0].evaluate("window.paigow.ctx.showdown")
    return record


def set_by_house_way(site: Any, table: str, setters: list[Page], pages: list[Page],
                     number: int) -> dict[int, dict[str, Any]]:
    """The deal is out: the table pauses (so the showdown stays up), the setters use the House Way; the
    settled round's hands by position."""
    for page in setters:
        expect(page.locator("[data-panel='setter']")).to_be_visible()
    site.table_action(table, "pause")
    for page in setters:
        page.click("#house-way")  # arranges the House Way's split; Done sends it
        page.click("#done")
    return {h["position"]: h for h in showdown_of(pages, number)["hands"]}


def fortune_words(hand: dict[str, Any]) -> str:
    label = hand["fortune"].replace("_", " ")
    if hand["bonus_win_cents"] > 0:
        return f"Fortune: your {label} pays {money_text(hand['bonus_win_cents'])}"
    assert hand["fortune"] == "nothing"  # every other category pays
    return f"Fortune: no paying hand — your {money_text(hand['bonus_cents'])} bonus loses"


def test_players_and_a_player_banker_bet_the_fortune_bonus(site: Any) -> None:
    table = open_fortune_table(site)
    alice = site.player("Alice", width=1366, height=768)
    bob = site.player("Bob", width=390, height=844)  # Bob plays on a phone
    spectator = site.page(width=1920, height=1080)
    for page in (alice, bob):
        page.goto(f"{site.url}/table/?id={table}")
    spectator.goto(f"{site.url}/table/?id={table}&watch=1")
    sit(alice, ALICE_SEAT, "200")
    sit(bob, BOB_SEAT, "150")
    expect(alice.locator("[data-panel='bet'] [data-side-bet='fortune']")).to_be_visible()
    expect(alice.locator("#sb-fortune-limits")).to_have_text("$1.00 – $100.00 · Envy from $5.00")

    # The pay table is one click away, with the table's house edge.
    alice.click("#pay-table")
    dialog = alice.locator("#paytable-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#paytable-title")).to_have_text("Fortune bonus — 8,000-to-1 pay table")  # no id
    expect(dialog.locator("tbody tr")).to_have_count(11)
    expect(dialog.locator("tr[data-hand='four_of_a_kind']")).to_contain_text("25 to 1")
    expect(dialog.locator("tr[data-hand='four_of_a_kind']")).to_contain_text("$5.00")
    expect(dialog.locator("#paytable-edge")).to_contain_text("House edge 7.77%")
    site.shot(alice, "fortune-01-pay-table-1366")
    alice.click("#paytable-close")
    expect(dialog).to_be_hidden()

    # Alice: $10 on the bet by the field, then the bonus's + five times: the $1 minimum, a dollar more each.
    alice.fill("#bet-amount", "10")
    for _ in range(5):
        alice.click("#sb-fortune-more")
    expect(alice.locator("#sb-fortune-amount")).to_have_value("5.00")
    expect(alice.locator("#bet-amount")).to_have_value("10")
    site.shot(alice, "fortune-02-betting-1366")
    alice.click("#place-bet")
    expect(spectator.locator(".pos[data-position='1'] .bonus-badge")).to_have_text("F $5.00")
    assert view(alice)["you"]["bonus_cents"] == 500
    # A bonus below the minimum is refused in words, at the bonus's row, and changes nothing.
    alice.fill("#sb-fortune-amount", "0.50")
    alice.click("#place-bet")
    expect(alice.locator("#sb-fortune-error")).to_contain_text("$0.50 is below the minimum of $1.00")
    alice_id = view(alice)["seats"][1]["player_id"]
    assert view(alice)["round"]["bonuses"] == [{"position": 1, "player_id": alice_id, "amount_cents": 500}]
    alice.fill("#sb-fortune-amount", "5")
    site.shot(spectator, "fortune-03-betting-spectator-1920")

    # Bob, on his phone, with the keyboard: the bet field, then F to the bonus, Up twice ($2), Enter.
    bob.fill("#bet-amount", "10")
    bob.locator("#bet-amount").blur()
    bob.keyboard.press("f")
    expect(bob.locator("#sb-fortune-amount")).to_be_focused()
    bob.fill("#sb-fortune-amount", "0")
    for key in ("ArrowUp", "ArrowUp"):
        bob.keyboard.press(key)
    expect(bob.locator("#sb-fortune-amount")).to_have_value("2.00")
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    site.shot(bob, "fortune-04-betting-phone-390", full_page=True)
    bob.keyboard.press("Enter")

    # Both bet: the deal. Both set by the House Way; the table pauses so the showdown stays up.
    hands = set_by_house_way(site, table, [alice, bob], [alice, bob, spectator], 1)
    assert (hands[1]["bonus_cents"], hands[2]["bonus_cents"]) == (500, 200)
    expect(alice.locator("[data-panel='summary'] .fortune-line").first).to_have_text(fortune_words(hands[1]))
    expect(bob.locator("[data-panel='summary'] .fortune-line").first).to_have_text(fortune_words(hands[2]))
    for page in (alice, spectator):  # every viewer sees each seat's Fortune result
        expect(page.locator("[data-fortune-seat='2']")).to_contain_text(money_text(hands[2]["bonus_net_cents"]).lstrip("−"))
    chips = view(alice)["you"]["chips_cents"]
    assert chips == 20_000 + hands[1]["net_cents"] + hands[1]["bonus_net_cents"]
    site.shot(alice, "fortune-05-showdown-1366")
    site.shot(bob, "fortune-05-showdown-phone-390", full_page=True)
    site.shot(spectator, "fortune-05-showdown-spectator-1920")

    # The Envy line, as the showdown words it (the record's Envy of an other seat's four of a kind).
    alice.evaluate("""() => {
        const rec = window.paigow.ctx.showdown;
        const mine = rec.hands.find((h) => h.position === 1);
        const bob = rec.hands.find((h) => h.position === 2);
        mine.envy = [{ position: 2, player_id: bob.player_id, fortune: "four_of_a_kind", amount_cents: 500 }];
        window.paigow.rerender();
    }""")
    expect(alice.locator("[data-envy='2']")).to_have_text("Envy: Bob's four of a kind pays you $5.00")
    site.shot(alice, "fortune-06-envy-line-1366")

    # Round 2: Alice is offered the bank and takes it with a $3 Fortune bet of her own.
    site.table_action(table, "resume")
    expect(alice.locator("[data-panel='offer']")).to_be_visible(timeout=15_000)
    expect(alice.locator("[data-panel='offer'] [data-side-bet='fortune']")).to_be_visible()
    alice.fill("#sb-fortune-amount", "3")
    site.shot(alice, "fortune-07-bank-offer-1366")
    alice.click("#accept-bank")
    expect(alice.locator("[data-panel='banker'] #sb-fortune-limits")).to_contain_text("on the table $3.00")
    expect(spectator.locator(".pos[data-position='1'] .bonus-badge")).to_have_text("F $3.00")
    # The banker changes it while betting is open: $4, by the field and Enter.
    alice.fill("#sb-fortune-amount", "4")
    alice.locator("#sb-fortune-amount").press("Enter")
    expect(spectator.locator(".pos[data-position='1'] .bonus-badge")).to_have_text("F $4.00")
    site.shot(alice, "fortune-08-banker-betting-1366")
    coverage = view(bob)["round"]["coverage_left_cents"]
    bob.fill("#bet-amount", "10")
    bob.fill("#sb-fortune-amount", "100")  # a $100 bonus: the house's, not the bank's
    bob.click("#place-bet")
    assert coverage is not None
    alice.wait_for_function("c => window.paigow.ctx.view.round?.coverage_left_cents === c",
                            arg=coverage - 1_000)
    hands = set_by_house_way(site, table, [bob, alice], [alice, bob, spectator], 2)
    assert hands[1]["is_banker"]
    assert (hands[1]["bonus_cents"], hands[2]["bonus_cents"]) == (400, 10_000)
    expect(alice.locator("[data-panel='summary'] .fortune-line").first).to_have_text(fortune_words(hands[1]))
    site.shot(alice, "fortune-09-banker-showdown-1366")
    site.shot(bob, "fortune-09-banker-showdown-phone-390", full_page=True)
    site.shot(spectator, "fortune-09-banker-showdown-spectator-1920")
    assert site.unlabelled(alice) == []
    # Bob's history: each hand with its Fortune result.
    bob.click("#history-btn")
    expect(bob.locator("#my-history tbody tr")).to_have_count(2)
    net = hands[2]["bonus_net_cents"]
    expect(bob.locator("#my-history tbody tr").first).to_contain_text(
        f"Fortune {'+' if net > 0 else ''}{money_text(net)}")  # a won bonus is shown "+$400.00"
    bob.click("#history-close")

    # The operator console: the table's Fortune column, the house's bonus result, and a pay table change.
    first = alice.evaluate("window.paigow.ctx.rounds.map((r) => r.bonus_house_net_cents)")
    house_bonus = sum(first[:2])
    op = site.page(width=1366, height=768)
    op.goto(f"{site.url}/operator")
    op.fill("#op-token", "browser-operator-token-0123456789")
    op.click("#login-form button[type=submit]")
    row = op.locator(f"#tables tr[data-table='{table}']")
    expect(row.locator("[data-fortune]")).to_contain_text("8,000-to-1 pay table")  # its name, not its id
    row.locator("[data-action='manage']").click()
    shown = money_text(house_bonus) if house_bonus <= 0 else f"+{money_text(house_bonus)}"
    expect(op.locator("#fortune-status")).to_contain_text(f"house's bonus result {shown} over 4 settled")
    expect(op.locator("#f-on")).to_be_checked()
    op.select_option("#f-table", "fortune-5000")
    site.shot(op, "fortune-10-operator-1366", full_page=True)
    op.click("#fortune-form button[type=submit]")
    # a function, not a bare expression: Playwright evaluates that with eval, which the policy refuses
    alice.wait_for_function("() => window.paigow.ctx.view.fortune?.pay_table === 'fortune-5000'")
    expect(row.locator("[data-fortune]")).to_contain_text("5,000-to-1 pay table")
    alice.click("#pay-table")
    expect(alice.locator("#paytable-edge")).to_contain_text("House edge 7.83%")
    expect(alice.locator("tr[data-hand='seven_card_straight_flush']")).to_contain_text("5,000 to 1")
    op.set_viewport_size({"width": 390, "height": 844})
    site.shot(op, "fortune-11-operator-phone-390", full_page=True)
    assert site.errors == []

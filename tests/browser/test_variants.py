"""The casino variants in the browser at a phone's size (390x844), on a real ``paigow serve`` (docs/rules.md
§4a-§4c): an EZ table (the barred-dealer push explained, the Queen's Dragon bet beside the main bet), a
nine-high table, the Dragon hand (the offer with take/pass and its clock: the first player offered passes,
the second takes; its buyer sets it), and co-banking ("co-banking with the house, half each"). The other
seat is a player over the wire (tests/browser/wire.py). Screenshots in the artifacts folder."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from paigow.rules.house_way import house_way
from paigow.table.cardtext import cards_from_text

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def view(page: Page) -> dict[str, Any]:
    v: dict[str, Any] = page.evaluate("window.paigow.ctx.view")
    return v


def open_table(site: Any, name: str, rules: dict[str, Any]) -> str:
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10, json={
        "name": name, "rules": {"fortune_enabled": False, **rules},
        "timers": {"bank_offer_ms": 60_000, "betting_ms": 60_000, "setting_ms": 90_000,
                   "between_rounds_ms": 1_000}})
    assert res.status_code == 201, res.text
    table_id: str = res.json()["table_id"]
    return table_id


def seat_alice(site: Any, table: str) -> Page:
    alice = site.player("Alice", **PHONE)
    alice.goto(f"{site.url}/table/?id={table}")
    alice.click("[data-seat='1']")
    alice.fill("#buy-in", "200")
    alice.click("#sit-confirm")
    expect(alice.locator(".pos[data-position='1'].me")).to_be_visible()
    return alice


def bet(alice: Page, dollars: str = "10") -> None:
    alice.fill("#bet-amount", dollars)
    alice.click("#place-bet")
    alice.wait_for_function("() => window.paigow.ctx.view?.you?.bet_cents > 0")


def settle_by_house_way(site: Any, table: str, alice: Page, bob: Any, number: int) -> dict[str, Any]:
    """Both set by the House Way (Alice on the page, Bob over the wire) and the table pauses, so the
    showdown stays on the page; the settled record."""
    alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'setting'")
    site.table_action(table, "pause")
    if view(alice)["you"]["can"]["set_hand"]:
        alice.click("#house-way")
    bob.command("use_house_way")
    alice.wait_for_function("n => window.paigow.ctx.showdown?.number === n", arg=number)
    record: dict[str, Any] = alice.evaluate("window.paigow.ctx.showdown")
    return record


def _house_way_low(cards: list[str]) -> list[str]:
    split = house_way(cards_from_text(tuple(cards)))
    return [str(c) for c in split.low]


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_ez_table_explains_the_barred_dealer_and_takes_the_queens_dragon_beside_the_bet(
        site: Any, wire: Any) -> None:
    table = open_table(site, "EZ Dragon", {"commission_form": "ez", "queens_dragon_enabled": True})
    alice = seat_alice(site, table)
    bob = wire(table, "Bob")
    bob.command("sit", seat=2, buy_in_cents=20_000)
    panel = alice.locator("#variants-panel")
    expect(panel).to_contain_text("EZ Pai Gow: no commission")
    expect(panel).to_contain_text("queen-high pai gow")
    bet(alice)
    expect(alice.locator("#qd-amount")).to_be_visible()
    alice.fill("#qd-amount", "0.50")
    alice.click("#qd-place")
    expect(alice.locator("#qd-error")).to_contain_text("minimum is $1.00")
    alice.fill("#qd-amount", "2")
    alice.click("#qd-place")
    alice.wait_for_function("() => window.paigow.ctx.view?.you?.queens_dragon_cents === 200")
    expect(alice.locator("#qd-amount")).to_have_value("2")  # the bet, in its field while betting lasts
    expect(alice.locator("#qd-place")).to_have_text("Change")
    fits(alice)
    site.shot(alice, "variants-01-ez-queens-dragon-phone-390", full_page=True)
    bob.command("place_bet", amount_cents=1_000)
    record = settle_by_house_way(site, table, alice, bob, 1)
    hand = next(h for h in record["hands"] if h["position"] == 1)
    assert hand["queens_dragon_cents"] == 200
    assert hand["queens_dragon_win_cents"] in (-200, 10_000)
    assert record["commission_form"] == "ez"
    assert all(h["commission_cents"] == 0 for h in record["hands"])
    site.shot(alice, "variants-02-ez-showdown-phone-390", full_page=True)


def test_nine_high_table_explains_its_push(site: Any, wire: Any) -> None:
    table = open_table(site, "Nine High", {"commission_form": "nine_high"})
    alice = seat_alice(site, table)
    bob = wire(table, "Bob")
    bob.command("sit", seat=2, buy_in_cents=20_000)
    expect(alice.locator("#variants-panel")).to_contain_text("pushes when the dealer's low hand is nine-high")
    bet(alice)
    bob.command("place_bet", amount_cents=1_000)
    record = settle_by_house_way(site, table, alice, bob, 1)
    assert record["commission_form"] == "nine_high"
    fits(alice)
    site.shot(alice, "variants-03-nine-high-phone-390", full_page=True)


def test_the_dragon_is_offered_in_turn_the_first_passes_and_the_second_takes(site: Any, wire: Any) -> None:
    table = open_table(site, "Dragon", {"dragon_enabled": True, "dragon_set_by": "buyer",
                                         "dragon_offer_ms": 60_000})
    alice = seat_alice(site, table)
    bob = wire(table, "Bob")
    bob.command("sit", seat=2, buy_in_cents=20_000)
    bet(alice)
    bob.command("place_bet", amount_cents=1_000)
    alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'dragon_offer'")
    expect(alice.locator("#phase-text")).to_contain_text("Dragon hand")
    first = view(alice)["round"]["dragon"]["offered_seat"]
    if first == 1:  # Alice is offered it first: she passes, Bob takes it
        expect(alice.locator("#dragon-take")).to_be_visible()
        expect(alice.locator("#dragon-pass")).to_be_visible()
        expect(alice.locator(".dragon-offer [data-countdown]")).to_contain_text("s left")
        site.shot(alice, "variants-04-dragon-offer-phone-390", full_page=True)
        alice.click("#dragon-pass")
        alice.wait_for_function("() => window.paigow.ctx.view?.round?.dragon?.offered_seat === 2")
        bob.command("take_dragon", amount_cents=500)
        buyer = 2
    else:  # Bob is first: he passes, and the offer comes to Alice, who takes it
        expect(alice.locator("#variants-panel")).to_contain_text("offered to Bob")
        bob.command("pass_dragon")
        expect(alice.locator("#dragon-take")).to_be_visible()
        expect(alice.locator(".dragon-offer [data-countdown]")).to_contain_text("s left")
        site.shot(alice, "variants-04-dragon-offer-phone-390", full_page=True)
        alice.fill("#dragon-amount", "5")
        alice.click("#dragon-take")
        buyer = 1
    alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'setting'")
    assert view(alice)["round"]["dragon"]["passed"] == [first]
    if buyer == 1:
        expect(alice.locator("#dragon-set")).to_be_visible()
        cards = view(alice)["you"]["dragon"]["cards"]
        assert len(cards) == 7
        # She picks two low cards (the House Way's low hand, so never a foul) and sets them.
        low = _house_way_low(cards)
        for text in low:
            alice.click(f"[data-dragon-card='{text}']")
        site.shot(alice, "variants-05-dragon-bought-phone-390", full_page=True)
        alice.click("#dragon-set-low")
        alice.wait_for_function("() => window.paigow.ctx.view?.you?.dragon?.is_set === true")
        assert sorted(view(alice)["you"]["dragon"]["low"]) == sorted(low)
    else:
        assert view(alice)["you"]["dragon"] is None  # never the cards of a Dragon that is not hers
        expect(alice.locator("#variants-panel")).to_contain_text("Bob plays the Dragon hand")
        bob.command("set_dragon", low=[])
    record = settle_by_house_way(site, table, alice, bob, 1)
    dragon = next(h for h in record["hands"] if h["dragon_of"] is not None)
    assert dragon["dragon_of"] == buyer
    assert dragon["wager_cents"] == 500
    fits(alice)
    site.shot(alice, "variants-06-dragon-showdown-phone-390", full_page=True)


def test_a_player_co_banks_with_the_house_half_each(site: Any, wire: Any) -> None:
    table = open_table(site, "Co-bank", {"co_banking": True})
    alice = seat_alice(site, table)
    bob = wire(table, "Bob")
    bob.command("sit", seat=2, buy_in_cents=20_000)
    bet(alice)
    bob.command("place_bet", amount_cents=1_000)
    alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'setting'")
    alice.click("#house-way")
    bob.command("use_house_way")
    alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'bank_offer'", timeout=30_000)
    expect(alice.locator("#co-bank")).to_be_visible()
    expect(alice.locator("#co-bank")).to_contain_text("half each")
    fits(alice)
    site.shot(alice, "variants-07-co-bank-offer-phone-390", full_page=True)
    alice.click("#co-bank")
    alice.wait_for_function("() => window.paigow.ctx.view?.round?.co_banked === true")
    expect(alice.locator("#variants-panel")).to_contain_text("co-banking with the house, half each")
    site.shot(alice, "variants-08-co-banking-phone-390", full_page=True)
    bob.command("place_bet", amount_cents=1_000)
    alice.wait_for_function("() => window.paigow.ctx.view?.phase === 'setting'")
    site.table_action(table, "pause")
    bob.command("use_house_way")  # Alice's hand, the co-banker's, was set by the House Way at the deal
    alice.wait_for_function("() => window.paigow.ctx.showdown?.number === 2")
    record = alice.evaluate("window.paigow.ctx.showdown")
    assert record["co_banked"] is True
    assert record["banker_position"] == 1

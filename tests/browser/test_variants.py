"""The casino variants in the browser at a phone's size (390x844), on a real ``paigow serve`` (docs/rules.md
§4a-§4c): an EZ table (the barred-dealer push explained, the Queen's Dragon a row of the side bets, sent
with the main bet and refused at its row), a
nine-high table, the Dragon hand (the offer with take/pass and its clock: the first player offered passes,
the second takes; its buyer sets it), and co-banking ("co-banking with the house, half each"). The other
seat is a player over the wire (tests/browser/wire.py). And the lobby's table cards (and a home game's),
which tag what each table deals, at 390x844, 360x740, 1366x768 and 1920x1080. Screenshots in the artifacts
folder."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.test_accessibility import serious_violations

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
        alice.click("#house-way")  # arranges the House Way's split; Done sends it
        alice.click("#done")
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
    # The Queen's Dragon is a row of the side bets, chosen before the bet and placed with it.
    row = alice.locator("[data-panel='bet'] [data-side-bet='qd']")
    expect(row).to_be_visible()
    expect(row.locator("#sb-qd-limits")).to_have_text("$1.00 – $100.00")
    alice.fill("#bet-amount", "10")
    alice.fill("#sb-qd-amount", "0.50")
    alice.click("#place-bet")
    # Refused at its row, worded from the refusal's code and amounts, and nothing half-placed: the bet is not
    # on the table either.
    error = alice.locator("#sb-qd-error")
    expect(error).to_contain_text("$0.50 is below the minimum of $1.00.")
    expect(error).to_contain_text("Nothing was placed: your bet and side bets are as they were.")
    expect(alice.locator("#bet-error")).to_be_hidden()
    assert (view(alice)["you"]["bet_cents"], view(alice)["you"]["queens_dragon_cents"]) == (0, 0)
    site.shot(alice, "variants-01-ez-queens-dragon-refused-phone-390", full_page=True)
    alice.locator("#sb-qd-amount").blur()
    alice.keyboard.press("q")  # Q goes to the Queen's Dragon's field, as F to the Fortune bonus's
    expect(alice.locator("#sb-qd-amount")).to_be_focused()
    alice.fill("#sb-qd-amount", "2")
    alice.locator("#sb-qd-amount").press("Enter")  # Enter in a side bet's field places the bet with it
    alice.wait_for_function("() => window.paigow.ctx.view?.you?.queens_dragon_cents === 200")
    assert view(alice)["you"]["bet_cents"] == 1_000
    expect(error).to_be_hidden()
    expect(alice.locator("#sb-qd-amount")).to_have_value("2.00")  # the bet, in its field while betting lasts
    expect(alice.locator("#sb-qd-limits")).to_have_text("$1.00 – $100.00 · on the table $2.00")
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
    alice.click("#house-way")  # arranges the House Way's split; Done sends it
    alice.click("#done")
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


LOBBY_SIZES = ((390, 844), (360, 740), (1366, 768), (1920, 1080))
EZ_RULE = ("No commission, but every wager pushes when the dealer's hand is a queen-high pai gow (no pair, "
           "straight or flush, and a queen the highest card).")


def tags_inside(page: Page, selector: str) -> list[str]:
    """Each tag of the cards whole inside its card (the card clips what spills) and on one line."""
    found: list[str] = page.evaluate("""(sel) => {
        const out = [];
        for (const card of document.querySelectorAll(sel)) {
            const box = card.getBoundingClientRect();
            for (const li of card.querySelectorAll('.variant-tags li')) {
                const r = li.getBoundingClientRect();
                const line = parseFloat(getComputedStyle(li).lineHeight);
                if (r.left < box.left || r.right > box.right - 8)
                    out.push(`${li.textContent} spills: ${r.right} > ${box.right}`);
                if (r.height > 1.8 * line) out.push(`${li.textContent} wraps: ${r.height}px`);
            }
        }
        return out;
    }""", selector)
    return found


def test_the_lobby_says_which_variant_each_table_deals(site: Any) -> None:
    """Each table card tags what the table deals and every bet it offers (the Fortune bonus too: issue 30,
    defect 9), each tag with a player's explanation as its title: the commission in words at a classic
    table, no Co-banking tag where players may not bank (the house does); a home game's card too."""
    casino = open_table(site, "Golden Dragon", {"commission_form": "ez", "queens_dragon_enabled": True,
                                                "dragon_enabled": True, "dragon_set_by": "buyer",
                                                "co_banking": True, "fortune_enabled": True,
                                                "fortune_pay_table": "fortune-5000"})
    classic = open_table(site, "Classic Jade", {"fortune_enabled": True})
    house = open_table(site, "House Pearl", {"co_banking": True, "player_banking": False})
    me = site.player("Lena", **PHONE)
    cards = {t: me.locator(f".table-card[data-table='{t}']") for t in (casino, classic, house)}
    expect(cards[casino].locator(".variant-tags li")).to_have_text(
        ["EZ Pai Gow (no commission)", "Fortune bonus", "Queen's Dragon", "Dragon hand", "Co-banking"])
    expect(cards[casino].locator(".variant-tags .vtag")).to_have_count(5)
    titles = {"ez": EZ_RULE,
              "fortune": "A side bet on your seven cards, however you set them: a straight or better pays, up"
                         " to 5,000 to 1.",
              "qd": "A side bet beside your wager: pays 50 to 1 when the dealer's hand is a queen-high pai "
                    "gow.",
              "dragon": re.compile("once betting closes, for a second wager; its buyer sets it"),
              "cobank": re.compile("co-bank with the house instead: half each")}
    for key, title in titles.items():
        expect(cards[casino].locator(f"[data-variant='{key}']")).to_have_attribute("title", title)
    # The classic table: its commission in words, and its Fortune bonus (on the default pay table).
    expect(cards[classic].locator(".variant-tags li")).to_have_text(["5% commission", "Fortune bonus"])
    expect(cards[classic].locator(".vtag")).to_have_count(1)
    expect(cards[classic].locator("[data-variant='fortune']")).to_have_attribute(
        "title", re.compile("up to 8,000 to 1"))
    expect(cards[classic].locator("[data-variant='commission']")).to_have_attribute(
        "title", "The house takes 5% of every winning bet: the classic game.")
    # Co-banking where nobody but the house banks: not offered, so not said; who banks is. No Fortune here.
    expect(cards[house].locator(".variant-tags li")).to_have_text(["5% commission", "House banks"])
    for width, height in LOBBY_SIZES:
        me.set_viewport_size({"width": width, "height": height})
        cards[casino].scroll_into_view_if_needed()
        me.wait_for_timeout(200)
        me.screenshot(path=str(site.artifacts / f"lobby-variants-{width}x{height}.png"))
        fits(me)
        assert tags_inside(me, ".table-card") == []
    me.set_viewport_size(PHONE)
    assert serious_violations(me) == []
    assert site.unlabelled(me) == []

    # A home game's card: its Fortune bonus (the create form's default), "House banks" where the host said so.
    host = site.page(**PHONE)
    host.goto(f"{site.url}/")
    host.click("#tab-signup")
    host.fill("#signup-username", f"lena{int(time.time() * 1000) % 10**8}")
    host.fill("#signup-password", "felt-marker-dice-7731")
    host.click("#signup-submit")
    host.click("#host-open")
    host.fill("#home-name", "Lena's house")
    host.uncheck("#home-banking")
    host.click("#host-submit")
    expect(host.locator("#host-created")).to_be_visible()
    mine = host.locator("[data-home-table]")
    expect(mine.locator(".variant-tags li")).to_have_text(["Fortune bonus", "House banks"])
    expect(mine.locator("[data-variant='house_banks']")).to_have_attribute(
        "title", re.compile("the house banks every round"))
    mine.scroll_into_view_if_needed()
    host.screenshot(path=str(site.artifacts / "lobby-variants-home-390x844.png"))
    fits(host)
    assert tags_inside(host, "[data-home-table]") == []
    assert serious_violations(host) == []
    assert site.errors == []

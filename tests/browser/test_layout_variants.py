"""The casino variants' phases at every size, as text (issue 24; the checks of test_layout_matrix.py): one
table that plays them all (EZ with the Queen's Dragon, the Dragon hand its buyer sets, co-banking), the
player on four pages at once (390x844, 360x740, 1366x768, 1920x1080), the other seat over the wire. The
deals are chosen (``support.rigged``): round 1's house dealer holds a queen-high pai gow (every wager, the
Dragon's too, pushes; the Queen's Dragon wins 50 to 1), round 2's co-banker beats the other hand. In each
phase (the Queen's Dragon's row among the side bets in betting, chosen with the bet and sent with it, the
Dragon offer with Take/Pass and its clock, the buyer setting the Dragon, the barred dealer's push, the co-
bank offer, the co-banked showdown, the History dialog) no two pieces of text overlap and none is clipped;
the History dialog and the table log say each variant's line with the amounts the server settled; the co-
banker's commission says why an EZ table took one. Betting at such a table with the Fortune bonus on too:
the side bets are one control, a row each alike (name, limits, what it pays, the amount between − and +),
chosen before the bet and placed with it in one command; the chips, the bet, each side bet's amount and
Place bet are on the screen without scrolling at every size, a 360x740 phone's included, and so is Change
bet once the bet is placed. Screenshots: test-artifacts/browser/matrix-variants-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.layout import check, outside_viewport, seated_at_new_table
from tests.browser.wire import WirePlayer

from paigow.rules.house_way import house_way
from paigow.table.cardtext import cards_from_text

pytestmark = pytest.mark.browser

TABLE = "Casino Night"
ME = "Penelope Longname-Smythe"
RULES = {"fortune_enabled": False, "commission_form": "ez", "queens_dragon_enabled": True,
         "dragon_enabled": True, "dragon_set_by": "buyer", "dragon_offer_ms": 120_000, "co_banking": True}
TIMERS = {"bank_offer_ms": 120_000, "betting_ms": 120_000, "setting_ms": 120_000, "between_rounds_ms": 2_000}
PUSH = "pushed: the dealer's queen-high pai gow"
WHY = "When a player banks or co-banks, wins pay the usual 5% commission, even at a no-commission table."


def money_text(cents: int, sign: bool = False) -> str:
    text = f"${abs(cents) // 100:,}.{abs(cents) % 100:02d}"
    return f"−{text}" if cents < 0 else f"+{text}" if sign and cents > 0 else text


def on_all(pages: dict[str, Page], script: str, arg: Any = None) -> None:
    for page in pages.values():
        page.wait_for_function(script, arg=arg, timeout=30_000)


def showdown(pages: dict[str, Page], number: int) -> dict[str, Any]:
    on_all(pages, "n => window.paigow.ctx.showdown?.number === n", number)
    for page in pages.values():
        expect(page.locator("#result-banner")).to_be_visible()
    record: dict[str, Any] = pages["laptop"].evaluate("window.paigow.ctx.showdown")
    return record


def variant_line(page: Page, where: str, variant: str) -> str:
    return page.locator(f"{where} [data-variant='{variant}']").inner_text()


def test_the_variants_phases_at_every_size_and_their_lines_in_the_history(
        make_site: Callable[..., Site]) -> None:
    site = make_site({}, rigs={TABLE: {1: "queen_high_dealer", 2: "banker_wins"}})
    table, pages = seated_at_new_table(site, TABLE, RULES, TIMERS, ME)
    me = pages["laptop"]
    bob = WirePlayer(site.url, table, "Bartholomew Quince")
    try:
        problems = play(site, table, pages, me, bob)
    finally:
        bob.close()
    assert problems == [], "\n".join(problems)
    assert site.errors == []


BETTING = ["[data-chip]", "#bet-amount", "#sb-fortune-less", "#sb-fortune-amount", "#sb-fortune-more",
           "#sb-qd-less", "#sb-qd-amount", "#sb-qd-more", "#place-bet", "#repeat-bet", "#remove-bet"]
"""The betting controls, each on the screen without scrolling."""
ROW_PARTS = [".sb-name", ".sb-limits", ".sb-why", "input", "button[id$='-less']", "button[id$='-more']"]
"""What every side bet's row has: the same control for each."""


def test_betting_at_a_variants_table_fits_every_screen(site: Site) -> None:
    """EZ with the Queen's Dragon, the Dragon hand and the Fortune bonus: above the bet, the variants' panel
    says the rule; in the bet's panel, both side bets as rows of one control, chosen before the bet (the
    Queen's Dragon was a box of the variants' panel with its own button, shown only once the bet was
    placed; the Fortune bonus a chip circle and a field). All three go in one place_bet."""
    table, pages = seated_at_new_table(site, "Fortune Night", {**RULES, "fortune_enabled": True}, TIMERS, ME)
    me = pages["laptop"]
    bob = WirePlayer(site.url, table, "Bartholomew Quince")  # seated without a bet: betting stays open
    try:
        bob.command("sit", seat=2, buy_in_cents=50_000)
        problems: list[str] = []
        for page in pages.values():
            expect(page.locator("#place-bet")).to_contain_text("Place bet")
            rows = page.locator("[data-panel='bet'] .side-bet")
            expect(rows).to_have_count(2)
            for key, name in (("fortune", "Fortune bonus ($)"), ("qd", "Queen's Dragon ($)")):
                row = page.locator(f"[data-panel='bet'] [data-side-bet='{key}']")
                expect(row.locator(".sb-name")).to_have_text(name)
                for part in ROW_PARTS:
                    expect(row.locator(part)).to_have_count(1)
            expect(page.locator("#sb-fortune-limits")).to_have_text("$1.00 – $100.00 · Envy from $5.00")
            expect(page.locator("#sb-qd-limits")).to_have_text("$1.00 – $100.00")
            expect(page.locator("#sb-qd-why")).to_have_text("Pays 50 to 1 on a queen-high pai gow dealer.")
            expect(page.locator("#sb-fortune-why")).to_have_text(
                "A straight or better pays, up to 8,000 to 1. Pay table")
            expect(page.locator("#qd-place")).to_have_count(0)  # no button of its own
        for size, page in pages.items():
            problems.extend(f"betting at {size}: {p}" for p in outside_viewport(page, BETTING))
        check(site, pages, "variants-betting", problems)

        # Each side bet by the same steps: + from none is the minimum, + again a dollar more.
        for _ in range(2):
            me.click("#sb-qd-more")
        expect(me.locator("#sb-qd-amount")).to_have_value("2.00")
        me.click("#sb-fortune-more")
        expect(me.locator("#sb-fortune-amount")).to_have_value("1.00")
        me.fill("#bet-amount", "10")
        me.click("#place-bet")
        me.wait_for_function("() => window.paigow.ctx.view?.you?.queens_dragon_cents === 200")
        you = me.evaluate("window.paigow.ctx.view.you")
        assert (you["bet_cents"], you["bonus_cents"], you["queens_dragon_cents"]) == (1_000, 100, 200)
        for page in pages.values():
            expect(page.locator("#place-bet")).to_contain_text("Change bet")
            expect(page.locator("#sb-qd-limits")).to_have_text("$1.00 – $100.00 · on the table $2.00")
        for size, page in pages.items():
            problems.extend(f"bet placed at {size}: {p}" for p in outside_viewport(page, BETTING))
        check(site, pages, "variants-betting-placed", problems)
    finally:
        bob.close()
    assert problems == [], "\n".join(problems)
    assert site.errors == []


def play(site: Site, table: str, pages: dict[str, Page], me: Page, bob: WirePlayer) -> list[str]:
    problems: list[str] = []
    bob.command("sit", seat=2, buy_in_cents=50_000)
    # Round 1, house-banked: the Queen's Dragon chosen beside my bet, placed with it (its row at every size).
    me.fill("#sb-qd-amount", "2")
    check(site, pages, "variants-queens-dragon-chosen", problems)
    me.fill("#bet-amount", "10")
    me.click("#place-bet")
    on_all(pages, "() => window.paigow.ctx.view?.you?.bet_cents === 1000")
    on_all(pages, "() => window.paigow.ctx.view?.you?.queens_dragon_cents === 200")
    for page in pages.values():
        expect(page.locator("#sb-qd-amount")).to_be_visible()
        expect(page.locator("#sb-qd-amount")).to_have_value("2.00")
        expect(page.locator("#sb-qd-limits")).to_contain_text("on the table $2.00")
    check(site, pages, "variants-queens-dragon-bet", problems)

    # Bob bets: the Dragon is offered in turn; if Bob is first he passes, and it comes to me.
    bob.command("place_bet", amount_cents=1_000)
    on_all(pages, "() => window.paigow.ctx.view?.phase === 'dragon_offer'")
    if me.evaluate("window.paigow.ctx.view.round.dragon.offered_seat") == 2:
        bob.command("pass_dragon")
    on_all(pages, "() => Boolean(window.paigow.ctx.view?.you?.can?.dragon)")
    for page in pages.values():
        expect(page.locator("#dragon-take")).to_be_visible()
        expect(page.locator("#dragon-pass")).to_be_visible()
        expect(page.locator(".dragon-offer [data-countdown]")).to_contain_text("s left")
    check(site, pages, "variants-dragon-offer", problems)

    # I take it for $5 and set it myself (dragon_set_by buyer): its two low cards picked.
    me.fill("#dragon-amount", "5")
    me.click("#dragon-take")
    on_all(pages, "() => window.paigow.ctx.view?.you?.can?.set_dragon === true")
    cards = me.evaluate("window.paigow.ctx.view.you.dragon.cards")
    for text in house_way(cards_from_text(tuple(cards))).low:
        me.click(f"[data-dragon-card='{text}']")
    for page in pages.values():
        expect(page.locator("#dragon-set-low")).to_be_visible()
    check(site, pages, "variants-dragon-buyer-sets", problems)
    me.click("#dragon-set-low")
    on_all(pages, "() => window.paigow.ctx.view?.you?.dragon?.is_set === true")

    # The showdown: the dealer's queen-high pai gow pushes every wager; the Queen's Dragon pays 50 to 1.
    me.click("#house-way")  # arranges the House Way's split; Done sends it
    me.click("#done")
    site.table_action(table, "pause")
    bob.command("use_house_way")
    first = showdown(pages, 1)
    assert (first["dealer_barred"], first["dealer_queen_high"]) == (True, True), first
    mine = next(h for h in first["hands"] if h["position"] == 1)
    dragon = next(h for h in first["hands"] if h["dragon_of"] == 1)
    assert [h["outcome"] for h in first["hands"] if not h["is_banker"]] == ["push", "push", "push"]
    assert (mine["queens_dragon_cents"], mine["queens_dragon_win_cents"]) == (200, 10_000)
    assert (dragon["wager_cents"], dragon["set_by"], first["dragon_set_by"]) == (500, "player", "buyer")
    dragon_words = f"Your Dragon hand (at seat {dragon['position']}, $5.00 wager) {PUSH}"
    for page in pages.values():
        expect(page.locator("#my-result")).to_have_text("Push: the dealer's queen-high pai gow")
        expect(page.locator("[data-panel='summary'] [data-variant='dragon']")).to_have_text(
            f"{dragon_words} · you set it")
        plate = page.locator(f".pos[data-position='{dragon['position']}'] .plate")
        expect(plate).to_contain_text("your Dragon")
        expect(page.locator("[data-panel='summary'] [data-variant='queens-dragon']")).to_have_text(
            "Queen's Dragon $2.00: won 50 to 1, +$100.00")
        expect(page.locator("[data-panel='summary'] [data-variant='total']")).to_have_text("In all +$100.00")
    check(site, pages, "variants-ez-barred-push", problems)

    # Round 2: the marker reaches me; I co-bank with the house, and win Bob's $10, half each.
    site.table_action(table, "resume")
    for page in pages.values():
        expect(page.locator("#co-bank")).to_be_visible(timeout=30_000)
        expect(page.locator("#last-round")).to_contain_text(
            "Round 1: Push: the dealer's queen-high pai gow · in all +$100.00")
    check(site, pages, "variants-co-bank-offer", problems)
    me.click("#co-bank")
    on_all(pages, "() => window.paigow.ctx.view?.round?.co_banked && window.paigow.ctx.view.phase === "
                  "'betting'")
    bob.command("place_bet", amount_cents=1_000)
    me.wait_for_function("() => ['dragon_offer', 'setting'].includes(window.paigow.ctx.view?.phase)")
    if me.evaluate("window.paigow.ctx.view.phase") == "dragon_offer":
        bob.command("pass_dragon")
    me.wait_for_function("() => window.paigow.ctx.view?.phase === 'setting'")
    site.table_action(table, "pause")
    bob.command("use_house_way")  # my hand, the co-banker's, was set by the House Way at the deal
    second = showdown(pages, 2)
    assert (second["co_banked"], second["banker_position"]) == (True, 1), second
    assert (second["banker_gross_cents"], second["house_bank_gross_cents"]) == (500, 500)
    net, commission = second["banker_net_cents"], second["banker_commission_cents"]
    assert net == 500 - commission
    co_words = (f"You co-banked with the house, half each: your half +$5.00, less {money_text(commission)} "
                f"commission: {money_text(net, True)}; the house's half +$5.00")
    for page in pages.values():
        expect(page.locator("#my-result")).to_contain_text(f"As co-banker: {money_text(net, True)}")
        expect(page.locator("[data-panel='summary'] [data-variant='co-bank']")).to_have_text(co_words)
        expect(page.locator("[data-panel='breakdown'] [data-account]")).to_contain_text(
            f"co-banked with the house, half each: {ME}'s half +$5.00, less")
        # Why an EZ table took a commission, at every size (a phone left it unsaid).
        expect(page.locator("[data-panel='summary'] [data-variant='commission-why']")).to_have_text(WHY)
        expect(page.locator("#result-banner .commission-why")).to_have_text(WHY)
    check(site, pages, "variants-co-banked-showdown", problems)

    # The History dialog: each variant's line, in words, with the money the server settled.
    for page in pages.values():
        page.click("#history-btn")
        for table_id in ("#my-history", "#table-history"):  # each round's row, and its variant lines under it
            expect(page.locator(f"{table_id} tbody tr:not(.variant-lines)")).to_have_count(2)
            expect(page.locator(f"{table_id} tbody tr.variant-lines")).to_have_count(2)
    check(site, pages, "variants-history", problems)
    for page in pages.values():
        page.locator("#my-history tr.variant-lines").nth(1).scroll_into_view_if_needed()
    check(site, pages, "variants-history-round-1", problems)
    for table_id in ("#my-history", "#table-history"):
        round2, round1 = (me.locator(f"{table_id} tbody tr:not(.variant-lines)").nth(n) for n in (0, 1))
        expect(round1.locator(".result-cell")).to_have_text(PUSH)
        expect(round1.locator("td:nth-child(3) .mini")).to_have_count(14)  # your seven cards, your Dragon's
        expect(round1.locator("td:nth-child(3)")).to_contain_text("Your Dragon:")
        expect(round2.locator(".result-cell")).to_have_text(f"bank {money_text(net, True)}")
        lines2, lines1 = (f"{table_id} tbody tr.variant-lines:nth-child({n})" for n in (2, 4))
        assert variant_line(me, lines1, "barred") == f"Every wager {PUSH}"
        assert variant_line(me, lines1, "dragon") == f"{dragon_words} · you set it"
        assert variant_line(me, lines1, "dragon-set-by") == "you set it"
        assert variant_line(me, lines1, "queens-dragon") == "Queen's Dragon $2.00: won 50 to 1, +$100.00"
        assert variant_line(me, lines1, "total") == "In all +$100.00"
        assert variant_line(me, lines2, "co-bank") == co_words
    # The balance moved by exactly what the lines say (the server's figures, not the page's).
    balances = [me.locator("#my-history tbody tr:not(.variant-lines)").nth(n).locator("td.num").inner_text()
                for n in (0, 1)]
    moves = [int(a.replace(",", "").replace(".", "")) - int(b.replace(",", "").replace(".", ""))
             for b, a in (re.findall(r"\$([\d,]+\.\d\d)", text) for text in balances)]
    assert moves == [net, 10_000], balances
    log = me.locator("#table-log")
    for words in ("You bought the Dragon hand with a $5.00 wager.",
                  "Round 1 settled: every wager pushed (the dealer's queen-high pai gow); you won $100.00.",
                  "You co-bank with the house this round: half each.",
                  f"Round 2 settled: you won {money_text(net)}."):
        expect(log).to_contain_text(words)
    return problems

"""The casino variants in the operator console (docs/rules.md §4a-§4c, docs/http-api.md "HouseRules
fields"): a table opened with them from the "Variants" choices (the Queen's Dragon offered only at EZ
tables, and the console says why), the tables list's Variant cell, the managed table's Variants form
changed during a round (the change shown waiting, then applied from the next round), a refusal of the
server shown naming its field and changing nothing, axe-core on the new controls, and screenshots at
390x844, 360x740, 1366x768 and 1920x1080."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_operator_console import (
    audit,
    console,
    no_sideways_overflow,
    refusal_text,
    refused_in_form,
)
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser

VIEWPORTS = ((390, 844), (360, 740), (1366, 768), (1920, 1080))


def operator_view(site: Any, table_id: str) -> dict[str, Any]:
    res = httpx.get(f"{site.url}/api/operator/tables/{table_id}", headers=site.headers, timeout=10)
    assert res.status_code == 200, res.text
    view: dict[str, Any] = res.json()["view"]
    return view


def variants(rules: dict[str, Any]) -> dict[str, Any]:
    keys = ("commission_form", "queens_dragon_enabled", "dragon_enabled", "dragon_set_by",
            "dragon_max_bet_cents", "dragon_offer_ms", "player_banking", "co_banking")
    return {k: rules[k] for k in keys}


def wait_for(site: Any, table_id: str, test: Any, what: str, timeout_s: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        view = operator_view(site, table_id)
        if test(view):
            return view
        time.sleep(0.1)
    raise AssertionError(f"the table never got to {what}")


def shots(site: Any, page: Page, name: str, panel: str) -> None:
    """``panel`` at each viewport (on the phones the panel alone: a whole phone page is too tall to look
    at), with no sideways overflow anywhere."""
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        page.locator(panel).screenshot(path=str(site.artifacts / f"{name}-{width}x{height}.png"))
        no_sideways_overflow(page)  # after the picture, which shows where
    page.set_viewport_size({"width": 1366, "height": 768})


def queens_dragon_at_ez_only(op: Page, form: str) -> None:
    """On a commissioned table the Queen's Dragon is not offered, and the console says why; choosing EZ
    offers it, and it is taken."""
    expect(op.locator(f"#{form}-qd")).to_be_disabled()
    expect(op.locator(f"#{form}-qd-why")).to_contain_text("EZ tables only")
    op.check(f"#{form}-form-ez")
    expect(op.locator(f"#{form}-qd")).to_be_enabled()
    expect(op.locator(f"#{form}-qd-why")).to_contain_text("Pays 50 to 1")
    op.check(f"#{form}-qd")


def test_a_table_opened_with_variants_from_the_console(site: Any) -> None:
    op = console(site)
    op.fill("#new-name", "Dragon Pearl")
    expect(op.locator("#new-variants-tag")).to_have_text("5% commission")
    op.click("#new-variants summary")
    expect(op.locator("#new-form-commissioned")).to_be_checked()
    expect(op.locator("#new-dragon-by")).to_be_disabled()
    queens_dragon_at_ez_only(op, "new")
    op.check("#new-dragon")
    op.select_option("#new-dragon-by", "buyer")
    op.check("#new-cobank")
    expect(op.locator("#new-variants-tag")).to_have_text("EZ · QD · Dragon · Co-bank")
    assert serious_violations(op) == []
    shots(site, op, "op-variants-01-open-form", "#tables-panel")
    # Back to commissioned: the Queen's Dragon goes off with it; EZ again to open the table with it.
    op.check("#new-form-nine_high")
    expect(op.locator("#new-qd")).not_to_be_checked()
    expect(op.locator("#new-variants-tag")).to_have_text("9-high · Dragon · Co-bank")
    op.check("#new-form-ez")
    op.check("#new-qd")
    op.click("#open-table")
    expect(op.locator("#tables-result")).to_have_text(
        "Dragon Pearl is open, with the Fortune bonus: EZ Pai Gow (no commission), Queen's Dragon, "
        "Dragon hand (the buyer sets it), co-banking.")
    row = op.locator("#tables tbody tr").filter(has_text="Dragon Pearl")
    expect(row.locator("[data-label='Variant']")).to_have_text("EZ · QD · Dragon · Co-bank")
    table_id = row.get_attribute("data-table")
    assert table_id is not None
    rules = operator_view(site, table_id)["rules"]
    assert variants(rules) == {"commission_form": "ez", "queens_dragon_enabled": True,
                               "dragon_enabled": True, "dragon_set_by": "buyer", "dragon_max_bet_cents": None,
                               "dragon_offer_ms": 10_000, "player_banking": True, "co_banking": True}
    summary = httpx.get(f"{site.url}/api/tables/{table_id}", timeout=10).json()
    assert (summary["commission_form"], summary["dragon_set_by"]) == ("ez", "buyer")

    # The managed table's form, filled from its rules.
    expect(op.locator("#variants-status")).to_have_text(
        "Now: EZ Pai Gow (no commission) · Queen's Dragon $1.00–$100.00 · Dragon hand (the buyer sets it; up "
        "to the buyer's wager; 10 s to take it) · co-banking.")
    expect(op.locator("#variants-pending")).to_have_text("")
    expect(op.locator("#v-form-ez")).to_be_checked()
    expect(op.locator("#v-qd")).to_be_checked()
    expect(op.locator("#v-qd-max")).to_have_value("100.00")
    expect(op.locator("#v-dragon-by")).to_have_value("buyer")
    expect(op.locator("#v-dragon-max")).to_have_value("")
    expect(op.locator("#v-dragon-offer")).to_have_value("10")
    expect(op.locator("#v-cobank")).to_be_checked()
    op.fill("#new-name", "Plain Jade")
    op.uncheck("#new-fortune")
    op.check("#new-form-commissioned")
    op.uncheck("#new-dragon")
    op.uncheck("#new-cobank")
    op.click("#open-table")
    expect(op.locator("#tables-result")).to_have_text("Plain Jade is open, without the Fortune bonus.")
    plain = op.locator("#tables tbody tr").filter(has_text="Plain Jade").locator("[data-label='Variant']")
    expect(plain).to_have_text("5% commission")
    op.click("#new-variants summary")  # closed again: the list just under the form
    shots(site, op, "op-variants-04-list", "#tables-panel")
    assert serious_violations(op) == []
    assert site.unlabelled(op) == []
    assert site.errors == []


def test_a_change_during_a_round_waits_for_the_next_and_a_refused_one_names_its_field(
        site: Any, wire: Wire) -> None:
    table_id = site.open_table("Lucky Koi", betting_ms=60_000, setting_ms=90_000, between_rounds_ms=1_000)
    walt = wire(table_id, "Walt")
    walt.command("sit", seat=3, buy_in_cents=20_000)
    wait_for(site, table_id, lambda v: v["phase"] == "betting", "betting")
    walt.command("place_bet", amount_cents=1_000)  # one player: the round is dealt at once
    wait_for(site, table_id, lambda v: v["phase"] == "setting", "setting")

    op = console(site)
    row = op.locator(f"#tables tr[data-table='{table_id}']")
    row.locator("[data-action='manage']").click()
    expect(op.locator("#variants-status")).to_have_text(
        "Now: commissioned (5% of a win) · no Dragon hand · no co-banking.")
    queens_dragon_at_ez_only(op, "v")

    # The console's own check: a dollar amount, nothing sent.
    refused_in_form(op, "variants", "#v-qd-min", "lots",
                    "The Queen's Dragon minimum is a dollar amount, e.g. 5, not 'lots'.")

    # The server's refusal: a Dragon maximum below the table's minimum, shown naming the field; nothing
    # changes.
    before = operator_view(site, table_id)
    op.fill("#v-qd-min", "1")
    op.check("#v-dragon")
    op.fill("#v-dragon-max", "2")
    op.click("#variants-save")
    bad = httpx.put(f"{site.url}/api/operator/tables/{table_id}/rules", headers=site.headers, timeout=10,
                    json={"dragon_enabled": True, "dragon_max_bet_cents": 200})
    assert (bad.status_code, bad.json()["field"]) == (400, "dragon_max_bet_cents")
    expect(op.locator("#variants-error")).to_have_text(f"Dragon maximum: {refusal_text(op, bad.json())}")
    expect(op.locator("#v-qd-min")).not_to_have_attribute("aria-invalid", "true")
    expect(op.locator("#v-dragon-max")).to_have_attribute("aria-invalid", "true")
    expect(op.locator("#v-dragon-max")).to_be_focused()
    expect(op.locator("#variants-saved")).to_have_text("")
    after = operator_view(site, table_id)
    assert after["rules"] == before["rules"]
    assert after["admin"]["pending_rules"] == before["admin"]["pending_rules"] is None
    refused = [e for e in audit(site) if e["action"] == "change_rules" and e["table_id"] == table_id]
    assert [e["outcome"] for e in refused] == ["INVALID_FIELD", "INVALID_FIELD"]  # the console's, then ours
    shots(site, op, "op-variants-02-refused", "#variants-form")

    # A change during the round: saved, shown waiting; the round in play keeps its rules.
    op.fill("#v-dragon-max", "20")
    expect(op.locator("#v-dragon-max")).not_to_have_attribute("aria-invalid", "true")
    op.fill("#v-dragon-offer", "5")
    op.select_option("#v-dragon-by", "house_way")
    op.uncheck("#v-banking")
    op.click("#variants-save")
    expect(op.locator("#variants-saved")).to_have_text("Saved: takes effect from the next round.")
    expect(op.locator("#variants-error")).to_have_text("")
    expect(op.locator("#variants-pending")).to_have_text(
        "From the next round: EZ Pai Gow (no commission) · Queen's Dragon $1.00–$100.00 · Dragon hand (the "
        "House Way sets it; up to $20.00; 5 s to take it) · no co-banking · the house banks every round.")
    view = operator_view(site, table_id)
    assert view["rules"]["commission_form"] == "commissioned"
    assert variants(view["admin"]["pending_rules"]) == {
        "commission_form": "ez", "queens_dragon_enabled": True, "dragon_enabled": True,
        "dragon_set_by": "house_way", "dragon_max_bet_cents": 2_000, "dragon_offer_ms": 5_000,
        "player_banking": False, "co_banking": False}
    expect(row.locator("[data-label='Variant']")).to_have_text("5% commission")
    shots(site, op, "op-variants-03-pending", "#detail")

    # The round ends: the next has the change, the list says so, and nothing waits any more.
    walt.command("use_house_way")
    view = wait_for(site, table_id, lambda v: v["admin"]["pending_rules"] is None, "the next round's rules")
    assert variants(view["rules"])["commission_form"] == "ez"
    assert view["rules"]["player_banking"] is False
    expect(row.locator("[data-label='Variant']")).to_have_text("EZ · QD · Dragon · House banks")
    expect(op.locator("#variants-pending")).to_have_text("")
    expect(op.locator("#variants-status")).to_contain_text("Now: EZ Pai Gow (no commission)")
    assert serious_violations(op) == []
    assert site.unlabelled(op) == []
    assert site.errors == []


COBANK_INERT = ("No effect while player banking is off: nobody but the house banks. Turn player banking on "
                "for co-banking.")


def test_player_banking_from_the_console_and_co_banking_said_to_do_nothing_without_it(site: Any) -> None:
    """Player banking is a choice of a new table and of the managed table's form, sent as ``player_banking``
    and filled from the table's rules; co-banking without it is allowed, and the console says it does
    nothing, in the form, the status line and the list."""
    op = console(site)
    op.fill("#new-name", "House Only")
    op.click("#new-variants summary")
    expect(op.locator("#new-banking")).to_be_checked()
    op.check("#new-cobank")
    expect(op.locator("#new-cobank-why")).to_contain_text("may bank with the house instead")
    op.uncheck("#new-banking")
    expect(op.locator("#new-cobank-why")).to_have_text(COBANK_INERT)
    expect(op.locator("#new-variants-tag")).to_have_text("5% commission · Co-bank (no effect) · House banks")
    op.click("#open-table")
    expect(op.locator("#tables-result")).to_have_text(
        "House Only is open, with the Fortune bonus: co-banking, but no effect: player banking is off, the "
        "house banks every round.")
    row = op.locator("#tables tbody tr").filter(has_text="House Only")
    cell = row.locator("[data-label='Variant']")
    expect(cell).to_have_text("5% commission · Co-bank (no effect) · House banks")
    table_id = row.get_attribute("data-table")
    assert table_id is not None
    rules = operator_view(site, table_id)["rules"]
    assert (rules["player_banking"], rules["co_banking"]) == (False, True)
    assert httpx.get(f"{site.url}/api/tables/{table_id}", timeout=10).json()["player_banking"] is False

    # The managed table's form, filled from the rules, says it too.
    status = ("Now: commissioned (5% of a win) · no Dragon hand · co-banking, but no effect: player banking "
              "is off · ")
    expect(op.locator("#variants-status")).to_have_text(f"{status}the house banks every round.")
    expect(op.locator("#v-banking")).not_to_be_checked()
    expect(op.locator("#v-cobank")).to_be_checked()
    expect(op.locator("#v-cobank-why")).to_have_text(COBANK_INERT)
    op.click("#new-variants summary")  # closed: the managed table's form just under the list
    shots(site, op, "op-variants-05-co-bank-without-banking", "#variants-form")
    assert serious_violations(op) == []

    # Player banking on from the form: no round in play, so at once.
    op.check("#v-banking")
    expect(op.locator("#v-cobank-why")).not_to_have_class(re.compile("warn"))
    op.click("#variants-save")
    expect(op.locator("#variants-saved")).to_have_text("Saved: takes effect from the next round.")
    expect(op.locator("#variants-status")).to_have_text(
        "Now: commissioned (5% of a win) · no Dragon hand · co-banking.")
    assert operator_view(site, table_id)["rules"]["player_banking"] is True
    expect(cell).to_have_text("5% commission · Co-bank")

    # Off again over the API: the form, drawn again for the table, has it.
    res = httpx.put(f"{site.url}/api/operator/tables/{table_id}/rules", headers=site.headers, timeout=10,
                    json={"player_banking": False})
    assert res.status_code == 200, res.text
    row.locator("[data-action='manage']").click()
    expect(op.locator("#v-banking")).not_to_be_checked()
    expect(op.locator("#variants-status")).to_have_text(f"{status}the house banks every round.")
    assert site.unlabelled(op) == []
    assert site.errors == []

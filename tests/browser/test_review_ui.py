"""What a new player saw at the table on a laptop screen: the bet and the result of the seat above another
seat must not be hidden behind that seat's cards."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# True when the middle of the first element matching the selector is that element (or inside it), i.e.
# nothing else on the page is drawn over it.
ON_TOP = """(sel) => {
  const e = document.querySelector(sel);
  if (!e) return 'missing';
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  if (hit && (hit === e || e.contains(hit))) return 'visible';
  return `covered by seat ${hit?.closest('.pos')?.dataset.position ?? '?'}: ${hit?.outerHTML.slice(0, 60)}`;
}"""


def sit(page: Page, seat: int) -> None:
    page.click(f"[data-seat='{seat}']")
    page.fill("#buy-in", "200")
    page.click("#sit-confirm")
    expect(page.locator(f".pos[data-position='{seat}'].me")).to_be_visible()


def test_the_upper_seats_bet_and_result_are_not_hidden_behind_the_next_seats_cards(site: Any) -> None:
    table = site.open_table("Overlap", betting_ms=60_000, setting_ms=90_000, between_rounds_ms=1_000)
    gina = site.player("Gina", width=1366, height=768)
    ann = site.player("Ann", width=1366, height=768)
    for page in (gina, ann):
        page.goto(f"{site.url}/table/?id={table}")
        page.uncheck("#anim-toggle")
    sit(gina, 1)
    sit(ann, 2)
    for page, dollars in ((gina, "30"), (ann, "20")):
        expect(page.locator("[data-panel='bet']")).to_be_visible()
        page.fill("#bet-amount", dollars)
        page.click("#place-bet")
    expect(ann.locator("[data-panel='setter']")).to_be_visible()
    expect(ann.locator(".pos[data-position='2'] .hand .card")).to_have_count(7)
    assert ann.evaluate(ON_TOP, ".pos[data-position='1'] .bet-amount") == "visible"
    gina.click("#house-way")  # arranges the House Way's split; Done sends it
    gina.click("#done")
    expect(gina.locator("#set-status")).to_contain_text("Hand set")
    site.table_action(table, "pause")  # the showdown stays on screen
    ann.click("#house-way")  # arranges the House Way's split; Done sends it
    ann.click("#done")
    ann.wait_for_function("() => !!document.querySelector(\".pos[data-position='1'] [data-result]\")")
    expect(ann.locator(".pos[data-position='2'] .hand .card.face")).to_have_count(7)
    site.shot(ann, "review-upper-seat-result")
    assert ann.evaluate(ON_TOP, ".pos[data-position='1'] [data-result]") == "visible"
    assert site.errors == []

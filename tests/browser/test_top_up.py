"""The lobby's free top-up in Chromium (issue 30, "Chips when you run out"), on a laptop and on a phone: no
panel while the balance covers a table's minimum; a player whose chips are at a table is told to stand up
first; out of chips, the offer back to the starting balance, and once taken the new balance (in the account
line too) and the local time of the next; a refusal the server gives (the operator turned top-ups off
meanwhile) is said in words and the panel follows it. axe finds nothing serious in the panel's states.
Screenshots: test-artifacts/browser/topup-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.test_accessibility import serious_violations

pytestmark = pytest.mark.browser


def player_id_of(page: Page) -> str:
    player_id: str = page.evaluate("JSON.parse(localStorage.getItem('paigow.session')).player_id")
    return player_id


def balance_to(site: Site, page: Page, cents: int) -> None:
    """Debit the page's player down to ``cents``."""
    url = f"{site.url}/api/operator/players/{player_id_of(page)}"
    balance = httpx.get(url, headers=site.headers, timeout=10).json()["balance_cents"]
    if balance > cents:
        res = httpx.post(f"{url}/debit", headers=site.headers, timeout=10,
                         json={"amount_cents": balance - cents, "reason": "lost at the tables"})
        assert res.status_code == 200, res.text


def test_a_player_out_of_chips_tops_up_from_the_lobby(make_site: Callable[..., Site]) -> None:
    site = make_site({})
    table = site.open_table("Cheap Seats")
    found: dict[str, list[str]] = {}

    # A laptop: plenty of chips, no panel.
    laptop = site.player("Ann", width=1366, height=768)
    expect(laptop.locator(".table-card")).to_have_count(1)
    expect(laptop.locator("#top-up")).to_be_hidden()

    # Seated with her last $5 (the table's minimum): her chips are at the table, so she stands up first.
    laptop.goto(f"{site.url}/table/?id={table}")
    laptop.click("[data-seat='2']")
    laptop.fill("#buy-in", "5")
    laptop.click("#sit-confirm")
    expect(laptop.locator(".pos[data-position='2'] .plate")).to_contain_text("Ann")
    balance_to(site, laptop, 0)
    laptop.goto(f"{site.url}/")
    expect(laptop.locator("#top-up")).to_contain_text("You are seated at Cheap Seats: stand up there first")
    expect(laptop.locator("#top-up-take")).to_have_count(0)
    site.shot(laptop, "topup-laptop-1-seated")
    found["seated"] = serious_violations(laptop)

    # Stood up (the operator's kick: her $5 back) and lost those too: the offer.
    kicked = httpx.post(f"{site.url}/api/operator/tables/{table}/kick", headers=site.headers, timeout=10,
                        json={"player_id": player_id_of(laptop), "reason": "stood up for the test"})
    assert kicked.status_code == 200, kicked.text
    balance_to(site, laptop, 0)
    laptop.reload()
    panel = laptop.locator("#top-up")
    expect(panel).to_contain_text("Out of chips?")
    expect(panel).to_contain_text("Take a free top-up back to $1,000.00")
    expect(laptop.locator("#top-up-hint")).to_contain_text(
        "Your balance is $0.00; the lowest table minimum is $5.00. One free top-up every 24 hours.")
    # Where the balance is said, before the tables: after the account's line, above the tables' list.
    tops = laptop.evaluate("['who-line', 'top-up', 'tables-panel'].map((id) => "
                           "document.getElementById(id).getBoundingClientRect().top)")
    assert tops == sorted(tops), tops
    site.shot(laptop, "topup-laptop-2-offer")
    found["offer"] = serious_violations(laptop)

    laptop.click("#top-up-take")
    expect(laptop.locator("#top-up-done")).to_have_text(
        "$1,000.00 added: your balance is back to $1,000.00. Good luck at the tables!")
    expect(laptop.locator("#top-up-done")).to_be_focused()
    expect(laptop.locator("#balance")).to_have_text("$1,000.00")
    expect(laptop.locator("#top-up-next")).to_contain_text(re.compile(r"if you need one: tomorrow at \d"))
    site.shot(laptop, "topup-laptop-3-taken")
    found["taken"] = serious_violations(laptop)

    # Out of chips again the same day: when the next one is, in her own time.
    balance_to(site, laptop, 250)
    laptop.reload()
    expect(laptop.locator("#top-up-next")).to_contain_text(
        re.compile(r"Your next free top-up back to \$1,000\.00 is tomorrow at \d{1,2}:\d\d"))
    expect(laptop.locator("#top-up-take")).to_have_count(0)
    site.shot(laptop, "topup-laptop-4-next")

    # A phone, out of chips, sees the offer; the operator turns top-ups off before she taps it.
    phone = site.player("Bo", width=390, height=844)
    balance_to(site, phone, 0)
    phone.reload()
    expect(phone.locator("#top-up-take")).to_have_text("Top up to $1,000.00")
    box = phone.locator("#top-up-take").bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 844  # in sight without scrolling
    site.shot(phone, "topup-phone-1-offer")
    off = httpx.put(f"{site.url}/api/operator/settings", headers=site.headers, json={"top_up_hours": 0},
                    timeout=10)
    assert off.status_code == 200, off.text
    phone.click("#top-up-take")
    expect(phone.locator("#top-up-off")).to_contain_text("Free top-ups are off on this server.")
    expect(phone.locator("#top-up-take")).to_have_count(0)  # the panel follows the refusal: no button
    expect(phone.locator("#balance")).to_have_text("$0.00")
    site.shot(phone, "topup-phone-2-refused-off")
    found["off"] = serious_violations(phone)

    # On again: she takes it.
    on = httpx.put(f"{site.url}/api/operator/settings", headers=site.headers, json={"top_up_hours": 24},
                   timeout=10)
    assert on.status_code == 200, on.text
    phone.reload()
    phone.click("#top-up-take")
    expect(phone.locator("#top-up-done")).to_contain_text("your balance is back to $1,000.00")
    expect(phone.locator("#balance")).to_have_text("$1,000.00")
    site.shot(phone, "topup-phone-3-taken")

    money = httpx.get(f"{site.url}/api/operator/money", headers=site.headers, timeout=10).json()
    assert money["balanced"] is True
    assert money["top_ups_cents"] == 200_000
    assert {k: v for k, v in found.items() if v} == {}
    assert site.errors == []


def test_the_next_top_up_is_said_in_the_players_time(module_page: Page) -> None:
    words: dict[str, Any] = module_page.evaluate("""async () => {
      const { localTime } = await import('/js/top_up.js');
      const now = new Date(2026, 4, 1, 12, 0).getTime();
      const hour = 3_600_000;
      return { soon: localTime(now + hour, now), tomorrow: localTime(now + 24 * hour, now),
               later: localTime(now + 72 * hour, now),
               time: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' })
                 .format(new Date(now + hour)) };
    }""")
    assert words["soon"] == f"today at {words['time']}"
    assert words["tomorrow"] == f"tomorrow at {new_time(words['time'], 12)}"
    assert words["later"].endswith(f" at {new_time(words['time'], 12)}")
    assert words["later"].startswith("Monday, May 4")


def new_time(one_pm: str, hour: int) -> str:
    """The locale's words for ``hour``:00 from its words for 1:00 PM (Chromium's default locale: en-US)."""
    assert one_pm == "1:00 PM", one_pm
    return f"{hour % 12 or 12}:00 {'PM' if hour >= 12 else 'AM'}"

"""The lobby's first screen is where to play (issue 30, defect 10): after "Play as guest" on a phone (390x844,
360x740) the open tables, each with its Sit and Watch, start inside the first screen, above the home games,
and the balance and chips are explained once on the page. On a laptop the tables and the home games sit side
by side. Screenshots: test-artifacts/browser/lobby-first-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.layout import text_problems

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "small-phone": (360, 740), "laptop": (1366, 768), "full-hd": (1920, 1080)}
EXPLANATION = re.compile(r"balance is your account.s money", re.IGNORECASE)
BOXES_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
  return { card: box(document.querySelector('.table-card')), home: box(document.getElementById('home-panel')),
           tables: box(document.getElementById('table-list').closest('section')),
           height: window.innerHeight };
}"""


def lobby_as_guest(site: Site, width: int, height: int) -> Page:
    page = site.player("Penelope Longname-Smythe", width=width, height=height)
    expect(page.locator(".table-card").first).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    return page


def test_a_guest_on_a_phone_sees_the_tables_first_and_one_explanation(site: Site) -> None:
    site.open_table("Where To Play")
    problems: list[str] = []
    for size, (width, height) in SIZES.items():
        page = lobby_as_guest(site, width, height)
        page.screenshot(path=str(site.artifacts / f"lobby-first-{size}.png"))
        found = page.evaluate(BOXES_JS)
        card = page.locator(".table-card").first
        links = card.locator("a.btn").all_inner_texts()
        if links != ["Sit", "Watch"]:
            problems.append(f"{size}: the first table offers {links}, not Sit and Watch")
        # The balance and chips, explained once (not once beside the balance and again below the account).
        told = len(EXPLANATION.findall(page.inner_text("body")))
        if told != 1:
            problems.append(f"{size}: the balance and chips are explained {told} times")
        top, bottom = found["card"]["top"], found["card"]["bottom"]
        # Whole on the first screen, or (a 360x740 phone) its name and limits on it.
        if bottom > found["height"] and size != "small-phone":
            problems.append(f"{size}: the first table's card ends at {bottom:.0f}px, below the first screen")
        if top > found["height"] - 120:
            problems.append(f"{size}: the first table's card starts at {top:.0f}px, below the first screen")
        if width < 700 and found["home"]["top"] < found["tables"]["top"]:
            problems.append(f"{size}: the home games come before the tables")
        if width >= 1366 and abs(found["home"]["top"] - found["tables"]["top"]) > 1:
            problems.append(f"{size}: the tables and the home games are not side by side")
        problems.extend(f"{size}: {p}" for p in text_problems(page))
        page.context.close()
    assert problems == [], "\n".join(problems)
    assert site.errors == []

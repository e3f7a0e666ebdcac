"""The table page's header at the widths between a phone and a full HD screen (the walk of issue 30): every
button in sight, and "Your home game" whole. A home game's host on the phone (390, 360), a tablet (820,
1000) and a laptop (1366): the words "Your home game" are never cut short (the table's name gives way, its
whole in its title), and Host, History and Chat end inside the screen. A player not yet seated at an
ordinary table at 820 px: History and Chat in sight too (the name before one sits made the header run
past the screen's edge)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page
from tests.browser.conftest import AUTO_CHIPS, Site
from tests.browser.layout import seated_alone
from tests.browser.test_layout_home_game import host_account

pytestmark = pytest.mark.browser

NAME = "Saturday Night Pai Gow at Bartholomew's!"
SIZES = [(390, 844), (360, 740), (820, 1180), (1000, 800), (1366, 768)]

HEADER_JS = """() => {
  const w = window.innerWidth;
  const home = document.getElementById('table-home');
  const outside = [...document.querySelectorAll('.topbar button, .topbar .toggle')]
    .filter((b) => b.getClientRects().length)
    .filter((b) => { const r = b.getBoundingClientRect(); return r.left < 0 || r.right > w + 0.5; })
    .map((b) => b.id || b.textContent.trim());
  const words = home && !home.hidden ? home.querySelector('.home-word') : null;
  const over = (e) => e.scrollWidth > e.clientWidth + 1;
  const cut = words ? over(words) || over(home) : null;
  return { outside, cut, text: words ? words.textContent : null };
}"""


def header(page: Page) -> dict[str, object]:
    found: dict[str, object] = page.evaluate(HEADER_JS)
    return found


def test_a_hosts_header_keeps_your_home_game_whole_and_every_button_in_sight(site: Site) -> None:
    host = host_account(site)
    res = httpx.post(f"{site.url}/api/home/tables", timeout=10,
                     headers={"Authorization": f"Bearer {host['token']}"},
                     json={"chips": AUTO_CHIPS, "name": NAME})
    assert res.status_code == 201, res.text
    table = res.json()["table_id"]
    page = site.page(width=390, height=844)
    page.goto(f"{site.url}/")
    page.evaluate("s => localStorage.setItem('paigow.session', JSON.stringify(s))", host)
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{site.url}/table/?id={table}")
        page.wait_for_function("() => window.paigow?.ctx?.view")
        page.wait_for_selector("#host-btn:not([hidden])")
        found = header(page)
        if found != {"outside": [], "cut": False, "text": "Your home game"}:
            problems.append(f"{width}x{height}: {found}")
        # The table's name may be cut short, its whole in its title; "Your home game" is on one line.
        assert page.locator("#table-name").get_attribute("title") == NAME
    assert problems == []
    assert site.errors == []


def test_players_seated_or_not_see_every_header_button_on_a_tablet(site: Site) -> None:
    seated = seated_alone(site, "Table of the tablet", "Bo", 820, 1180)
    assert header(seated)["outside"] == []
    page = site.player("Penelope Longname-Smythe", width=820, height=1180)  # not seated: the name was shown
    page.goto(seated.url)
    page.wait_for_function("() => window.paigow?.ctx?.view")
    assert header(page)["outside"] == []
    assert site.errors == []

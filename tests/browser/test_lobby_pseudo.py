"""The lobby and the home-game pages' own words all come from the catalog (issue 32): in the pseudo-locale
(`en-XA`: every catalog string accented, 40% longer and bracketed ⟦…⟧) the lobby signed out (each tab), an
account's lobby with the create form, its refusals and the invite panel, the join-by-code errors, the access
pages of a private table (no code, a wrong code), a guest asking the host to let them in and the host's
dialog show no word that did not come from the catalog, ask for no key the catalog lacks, and nothing is
clipped or overlapping at 360x740 and 1366x768. Screenshots: test-artifacts/browser/pseudo-*.png."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import AUTO_CHIPS, Site
from tests.browser.layout import text_problems

pytestmark = pytest.mark.browser

SIZES = {"small-phone": (360, 740), "laptop": (1366, 768)}
PASSWORD = "felt-marker-dice-7731"
PSEUDO = "localStorage.setItem('paigow.lang', 'en-XA');"

# Text a person sees that did not come through the catalog: a visible text node with letters, outside a
# bracketed sentence and outside a name (markName: lang=""), and attributes people hear, and the options of
# the selects (but the language menu's, each named in its own language).
UNBRACKETED_JS = """([root, ignore]) => {
  const scope = document.querySelector(root);
  if (!scope) return [`${root} is missing`];
  const bad = [];
  const words = /[A-Za-z]{2,}/;
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const never = '[lang=""], script, style, .language-menu, #pg-card-defs, .short-code, [aria-hidden="true"]';
  const skip = (e) => e.closest(`${never}${ignore}`);
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.nodeValue.trim();
    const el = n.parentElement;
    if (!words.test(text) || !el || el.closest('option') || !shown(el) || skip(el)) continue;
    if (/[⟦⟧]/.test(text) || el.textContent.includes('⟦')) continue;
    bad.push(`text: ${text.slice(0, 70)}`);
  }
  for (const e of scope.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (skip(e)) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) {
      const v = e.getAttribute(a);
      if (v && words.test(v) && !/[⟦⟧]/.test(v)) bad.push(`${a}: ${v.slice(0, 70)}`);
    }
  }
  for (const o of scope.querySelectorAll('option')) {
    const text = o.textContent;
    if (!skip(o) && words.test(text) && !/[⟦⟧]/.test(text)) bad.push(`option: ${text}`);
  }
  if (root === 'body' && !/[⟦]/.test(document.title)) bad.push(`title: ${document.title}`);
  return [...new Set(bad)];
}"""


def pseudo_page(site: Site, width: int, height: int) -> Page:
    page = site.page(width=width, height=height)
    page.context.add_init_script(PSEUDO)
    return page


# Words these pages show that other modules own (their tests check them): the chips of a home game
# (chips_words.js, host_chips.js).
CHIPS = ", #home-chips, #host-chips, #host-ledger, #home-buy-in-max-hint"


def ours(page: Page, root: str, found: list[str]) -> list[str]:
    """The layout problems of the elements under `root` (each problem names its elements' first words): the
    table page's header and tray around them are the table's."""
    if root == "body":
        return found
    text: str = page.locator(root).first.text_content() or ""
    return [p for p in found if any(s.strip() and s in text for s in re.findall(r'"([^"]+)"', p))]


def check(site: Site, page: Page, name: str, problems: list[str], root: str = "body",
          ignore: str = CHIPS) -> None:
    """At each size: a screenshot, the unbracketed words under `root` (but in `ignore`, selectors each after a
    comma), the keys the catalog lacks, and the clipped or overlapping text."""
    own = page.viewport_size
    assert own is not None
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        page.screenshot(path=str(site.artifacts / f"pseudo-{name}-{size}.png"), full_page=True)
        problems.extend(f"{name} {size}: {p}" for p in page.evaluate(UNBRACKETED_JS, [root, ignore]))
        problems.extend(f"{name} {size}: {p}" for p in ours(page, root, text_problems(page)))
    asked: list[str] = page.evaluate("[...window.__i18n.missing]")
    missing = [key for key in asked if key.split(":")[0] in ("lobby", "home")]
    problems.extend(f"{name}: the catalog lacks {key}" for key in missing)
    page.set_viewport_size(own)


def account(site: Site, name: str) -> dict[str, Any]:
    username = f"{name.lower()}{int(time.time() * 1000) % 10**8}"
    res = httpx.post(f"{site.url}/api/accounts", timeout=10,
                     json={"username": username, "password": PASSWORD, "display_name": name})
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    return data


def signed_in(site: Site, who: dict[str, Any]) -> Page:
    """A laptop's page in the pseudo-locale whose browser keeps the session of `who` (a session JSON)."""
    page = pseudo_page(site, 1366, 768)
    page.goto(f"{site.url}/")
    page.evaluate("s => localStorage.setItem('paigow.session', JSON.stringify(s))",
                  {"token": who["token"], "player_id": who["player_id"], "display_name": who["display_name"],
                   "registered": True, "username": who["username"]})
    return page


def test_the_lobby_says_every_word_from_the_catalog(site: Site) -> None:
    site.open_table("Pseudo Tables")
    problems: list[str] = []
    page = pseudo_page(site, 360, 740)
    page.goto(f"{site.url}/")
    expect(page.locator(".table-card").first).to_be_visible()
    expect(page.locator(".language-menu select")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "en-XA"
    check(site, page, "lobby-guest", problems)
    page.click("#name-submit")  # no name: the field's error
    expect(page.locator("#name-error")).not_to_be_empty()
    page.click("#tab-signin")
    page.click("#signin-submit")
    expect(page.locator("#signin-username-error")).not_to_be_empty()
    check(site, page, "lobby-signin", problems)
    page.click("#tab-signup")
    page.fill("#signup-username", "a b")
    page.fill("#signup-password", "short")
    page.click("#signup-submit")
    expect(page.locator("#signup-password-error")).not_to_be_empty()
    check(site, page, "lobby-signup", problems)
    page.click("#tab-guest")
    page.fill("#display-name", "Penelope")
    page.click("#name-submit")
    expect(page.locator("#signed-in")).to_be_visible()
    page.click("#keep-open")
    page.fill("#join-code", "nope")
    page.click("#join-code-submit")
    expect(page.locator("#join-code-error")).not_to_be_empty()
    check(site, page, "lobby-signed-in-guest", problems)
    assert problems == [], "\n".join(problems)
    assert site.errors == []


def test_the_home_game_pages_say_every_word_from_the_catalog(site: Site) -> None:
    problems: list[str] = []
    host = account(site, "Hana")
    page = signed_in(site, host)
    page.reload()
    expect(page.locator("#host-tools")).to_be_visible()
    expect(page.locator("#host-count")).not_to_be_empty()
    page.click("#host-open")
    page.fill("#home-min", "50")
    page.fill("#home-max", "5")
    page.click("#host-submit")
    expect(page.locator("#home-max-error")).not_to_be_empty()
    check(site, page, "home-create-form", problems)
    page.fill("#home-min", "5")
    page.fill("#home-max", "200")
    page.check("#home-seating-approval")
    page.click("#host-submit")
    expect(page.locator("#host-created")).to_be_visible()
    expect(page.locator("#invite-code")).not_to_be_empty()
    page.click("#invite-copy")
    check(site, page, "home-invite", problems)
    page.click("#invite-new")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    check(site, page, "home-new-link", problems, "#confirm-dialog")
    page.click("#confirm-cancel")
    table_url = page.locator("#host-go").get_attribute("href")
    invite_url = page.locator("#invite-link").input_value()
    assert table_url

    visitor = pseudo_page(site, 360, 740)
    visitor.goto(f"{site.url}{table_url}")  # no code: the private table's page
    expect(visitor.locator("#access-title")).to_be_visible()
    check(site, visitor, "access-private", problems, "#access-page")
    visitor.goto(f"{site.url}{table_url}&invite={'x' * 32}")
    expect(visitor.locator("#access-title")).to_be_visible()
    check(site, visitor, "access-wrong-code", problems, "#access-page")
    visitor.goto(f"{site.url}/")
    visitor.fill("#display-name", "Maya")
    visitor.click("#name-submit")
    expect(visitor.locator("#signed-in")).to_be_visible()
    visitor.goto(invite_url)
    expect(visitor.locator("#request-seat")).to_be_visible()
    check(site, visitor, "home-seat-ask", problems, "[data-panel='request']")
    check(site, visitor, "home-tag", problems, "#table-home")
    visitor.click("#request-seat")
    expect(visitor.locator("#cancel-request")).to_be_visible()
    check(site, visitor, "home-seat-waiting", problems, "[data-panel='request']")

    page.goto(f"{site.url}{table_url}")
    expect(page.locator("[data-panel='requests']")).to_be_visible()
    check(site, page, "host-requests", problems, "[data-panel='requests']")
    page.click("#host-btn")
    expect(page.locator("#host-dialog")).to_be_visible()
    expect(page.locator("#host-invite-code")).to_be_visible()
    check(site, page, "host-dialog", problems, "#host-dialog")
    assert problems == [], "\n".join(problems)
    assert site.errors == []


def test_a_chips_game_host_dialog_says_every_word_from_the_catalog(site: Site) -> None:
    """The Host dialog of a game with its own chips."""
    problems: list[str] = []
    host = account(site, "Hana")
    auth = {"Authorization": f"Bearer {host['token']}"}
    made = httpx.post(f"{site.url}/api/home/tables", headers=auth, timeout=10,
                      json={"name": "Chips game", "chips": AUTO_CHIPS}).json()
    page = signed_in(site, host)
    page.goto(f"{site.url}/table/?id={made['table_id']}")
    page.click("#host-btn")
    expect(page.locator("#host-dialog")).to_be_visible()
    check(site, page, "host-dialog-chips", problems, "#host-dialog")
    assert problems == [], "\n".join(problems)
    assert site.errors == []

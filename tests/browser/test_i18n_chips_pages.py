"""Issue 32 for a home game's chips, the practice page and the verify page: in the pseudo-locale (``en-XA``:
every catalog string accented, 40% longer and bracketed ⟦…⟧) no word of these surfaces comes from anywhere
but the catalog (a player's name, an amount, a digit or a symbol may stand outside the brackets), no key is
missing, and no text is clipped or overlapping at 360x740, 390x844, 1366x768 and 1920x1080
(tests/browser/layout.py). The
chips' parts are mounted from a view without a server (as test_home_chips_page.py does); the practice page
is played through a deal on a real server. Screenshots: test-artifacts/browser/chips-unit-i18n-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.test_home_chips_page import ANN, MAYA, MOUNT_JS, at_every_size, chips_view, table_view

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Maya", "Theo", "Zoe", "Pia", "House"]

# The words of `root` (text, aria-label, title, placeholder, alt) outside the pseudo-locale's brackets, once
# players' names, amounts, digits and symbols are set aside.
STRAY_JS = """({ root, names }) => {
  const scope = document.querySelector(root);
  if (!scope) return [`${root}: not on the page`];
  const bare = (text) => {
    let s = text;
    for (let prev = null; prev !== s;) { prev = s; s = s.replace(/⟦[^⟦⟧]*⟧/g, ' '); }
    for (const n of names) s = s.split(n).join(' ');
    return s.replace(/[^\\p{L}]+/gu, ' ').trim();
  };
  // Not these pages' words: the brand (the game's name), the language menu's names, key caps (1, 7, H: the
  // keys' symbols), cards and dice (the table's card_svg.js, dice.js) and what a test set aside for the
  // showdown helper's words.
  const OTHERS = 'option, .brand, kbd, #pg-card-defs, .card, .die, [data-i18n-merge]';
  const found = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const e = t.parentElement;
    if (!t.textContent.trim()) continue;
    if (!e || e.closest(`svg, script, style, code, ${OTHERS}, .ledger-lines .time`)) continue;
    // A sentence with inline elements inside (keys as <kbd>) is judged whole, from its element that opens
    // with ⟦.
    const opens = (n) => n.textContent.trim().startsWith('⟦');
    let whole = e;
    const inline = (n) => getComputedStyle(n).display === 'inline';
    while (!opens(whole) && whole !== scope && inline(whole)) whole = whole.parentElement;
    const left = bare(t.textContent) && bare(opens(whole) ? whole.textContent : t.textContent);
    const where = `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}`;
    if (left) found.push(`${where}: ${left} (${t.textContent.trim().slice(0, 60)})`);
  }
  for (const e of [scope, ...scope.querySelectorAll('*')]) {
    if (e.closest(`svg, ${OTHERS}`)) continue;
    for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
      const v = e.getAttribute(attr);
      const left = v ? bare(v) : '';
      if (left) found.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}[${attr}]: ${left}`);
    }
  }
  return found;
}"""


def strays(page: Page, root: str = "body") -> list[str]:
    found: list[str] = page.evaluate(STRAY_JS, {"root": root, "names": NAMES})
    return found


def missing(page: Page) -> list[str]:
    keys: list[str] = page.evaluate("[...(window.__i18n?.missing ?? [])]")
    return [k for k in keys if k.startswith(("chips:", "practice:"))]


def pseudo(page: Page, url: str) -> None:
    page.goto(url)
    page.evaluate("localStorage.setItem('paigow.lang', 'en-XA')")
    page.goto(url)
    page.wait_for_function(
        "() => window.__i18n?.lang === 'en-XA' && document.documentElement.lang === 'en-XA'")


def sizes(page: Page, artifacts: Any, name: str) -> list[str]:
    """Photographed and checked at the four sizes (chips-unit-i18n-<name>-<size>.png)."""
    return at_every_size(page, artifacts, f"i18n-{name}")


REBUY_JS = """async ({ view, me }) => {
  const ctx = { playerId: me, role: 'player', view, session: { token: 't' }, ui: { errors: {} },
    act: () => null, command: async () => ({}), fail: () => null, rerender: () => {} };
  const { openRebuy } = await import('/js/buy_in.js');
  openRebuy(ctx);
}"""

ADJUST_JS = """async ({ view, me }) => {
  document.querySelector('dialog[open]')?.close();
  const ctx = { playerId: me, role: 'player', view, session: { token: 't' }, ui: { errors: {} },
    act: () => null, command: async () => ({}), fail: () => null, rerender: () => {} };
  const { chipsSection, updateChipsSection, openAdjust } = await import('/js/host_chips.js');
  const d = document.createElement('dialog');
  d.id = 'host-dialog';
  d.append(chipsSection(view, ctx));
  document.body.append(d);
  updateChipsSection(view, ctx);
  if (window.__adjust) openAdjust(ctx, { player_id: 'p_theo', name: 'Theo', stack: 19250, seat: 3 });
  else d.showModal();
}"""

BUY_IN_JS = """async ({ view, me }) => {
  document.body.replaceChildren();
  const d = document.createElement('dialog');
  d.id = 'sit-dialog';
  d.innerHTML = '<form><h2 id="sit-title"></h2><p class="hint" id="sit-balance"></p>'
    + '<label for="buy-in" id="buy-in-label"></label><input id="buy-in">'
    + '<div class="buttons"><button class="btn" id="sit-confirm"></button></div></form>';
  document.body.append(d);
  const ctx = { playerId: me, role: 'player', view, ui: { errors: {} } };
  const { prepareBuyIn } = await import('/js/buy_in.js');
  prepareBuyIn(view, ctx, 4, false);
  d.showModal();
}"""


def test_the_chips_surfaces_in_the_pseudo_locale(module_page: Page, artifacts: Any) -> None:
    page = module_page
    pseudo(page, page.url)
    live = table_view(chips_view())
    problems: list[str] = []
    found: list[str] = []

    page.evaluate(MOUNT_JS, {"view": live, "me": MAYA, "what": "ledger"})
    expect(page.locator("#ledger-players")).to_be_visible()
    found += strays(page, "#ledger-dialog")
    problems += sizes(page, artifacts, "ledger")

    closed = table_view(chips_view(closed=True), closed=True)
    page.evaluate(MOUNT_JS, {"view": closed, "me": MAYA, "what": "ledger"})
    expect(page.locator("#ledger-settle-payments li")).to_have_count(3)
    found += strays(page, "#ledger-dialog")
    problems += sizes(page, artifacts, "ledger-closed")
    page.evaluate(MOUNT_JS, {"view": closed, "me": MAYA, "what": "closed"})
    found += strays(page, "#tray")
    problems += sizes(page, artifacts, "settle-tray")

    view = table_view(chips_view())
    page.evaluate(MOUNT_JS, {"view": view, "me": "p_zoe", "what": "tray"})
    expect(page.locator("#buy-in-status")).to_be_visible()
    found += strays(page, "#tray")
    problems += sizes(page, artifacts, "waiting")

    page.evaluate(MOUNT_JS, {"view": view, "me": ANN, "what": "tray"})
    expect(page.locator("[data-panel='chip-requests']")).to_be_visible()
    found += strays(page, "#tray")
    problems += sizes(page, artifacts, "host-requests")

    page.evaluate(REBUY_JS, {"view": view, "me": MAYA})
    expect(page.locator("#rebuy-dialog")).to_be_visible()
    found += strays(page, "#rebuy-dialog")
    problems += sizes(page, artifacts, "rebuy")

    page.evaluate(ADJUST_JS, {"view": view, "me": ANN})
    expect(page.locator("#host-chips")).to_be_visible()
    found += strays(page, "#host-dialog")
    problems += sizes(page, artifacts, "host-chips")
    page.evaluate("window.__adjust = true")
    page.evaluate(ADJUST_JS, {"view": view, "me": ANN})
    expect(page.locator("#adjust-dialog")).to_be_visible()
    found += strays(page, "#adjust-dialog")
    problems += sizes(page, artifacts, "adjust")

    page.evaluate(BUY_IN_JS, {"view": view, "me": "p_zoe"})
    expect(page.locator("#sit-title")).to_contain_text("⟦")
    found += strays(page, "#sit-dialog")
    problems += sizes(page, artifacts, "buy-in")

    assert found == [], "\n".join(found)
    assert missing(page) == []
    assert problems == [], "\n".join(problems)


def test_the_verify_page_in_the_pseudo_locale(module_page: Page, artifacts: Any) -> None:
    page = module_page
    seed = "00" * 16 + "ab" * 16
    base = page.url.split("/verify")[0]
    pseudo(page, f"{base}/verify/?seed={seed}&round=r1&banker=2&commitment=00&dice=1,1,1")
    expect(page.locator("#verdict")).to_contain_text("⟦")
    expect(page.locator("select[aria-label]")).to_be_visible()  # the language menu in the header
    found = strays(page)
    problems = sizes(page, artifacts, "verify")
    page.fill("#v-banker", "9")
    page.click("#verify-form button[type=submit]")
    expect(page.locator("#verify-error")).to_contain_text("⟦")
    found += strays(page, "main")
    assert found == [], "\n".join(found)
    assert missing(page) == []
    assert problems == [], "\n".join(problems)


def test_the_practice_page_in_the_pseudo_locale(site: Any) -> None:
    page = site.player("Pia", width=360, height=740)
    pseudo(page, f"{site.url}/practice/")
    expect(page.locator(".setter [data-key]")).to_have_count(7)
    expect(page.locator("#practice-language select")).to_be_visible()
    page.wait_for_timeout(900)
    found = [p for at in (".practice-topbar", ".practice-title", "#practice-lead") for p in strays(page, at)]
    problems = sizes(page, site.artifacts, "practice-setting")
    page.set_viewport_size({"width": 360, "height": 740})
    page.click("#house-way")
    page.click("#done")
    expect(page.locator("#result-title")).to_be_visible(timeout=30_000)
    expect(page.locator("#result-title")).to_contain_text("⟦")
    # The hands' names and the clause are the showdown helper's words (the `game` namespace): set aside.
    merge = "'.coach-names, .coach-hands, .practice-marks li, #practice-coach'"
    page.evaluate(f"document.querySelectorAll({merge}).forEach((e) => e.setAttribute('data-i18n-merge', ''))")
    found += strays(page, "#practice-result")
    problems += sizes(page, site.artifacts, "practice-result")
    assert found == [], "\n".join(found)
    assert missing(page) == []
    assert problems == [], "\n".join(problems)

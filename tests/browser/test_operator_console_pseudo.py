"""The operator console in the pseudo-locale (issue 32; docs/languages.md): every word of the console from the
catalog, so in ``en-XA`` every one is bracketed ⟦…⟧ — signed out, then signed in with a table managed (seats,
Fortune, variants, chat), a bar, a credit in the audit log and the ledger, and the confirmation dialog —, no
key missing from the catalog, and nothing clipped, overlapping or wider than the screen at 360x740 and
1366x768 (screenshots of each)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.layout import text_problems
from tests.browser.test_operator_console import no_sideways_overflow
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser

SIZES = ((360, 740), (1366, 768))
PANELS = ("header", "#login-panel", "#tables-panel", "#detail", "#bars-panel", "#money-panel",
          "#operators-panel", "#audit-panel", "#ledger-panel")
"""The parts photographed alone too: a whole page is too tall to look at."""

# Words shown that are not the console's: what players and operators typed or are called, ids, the
# lobby's variant tags (variant_tags.js, its own namespace) and the brand.
UNBRACKETED_JS = r"""(allowed) => {
  const shown = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden';
  const out = [];
  const theirs = '[lang=""], [translate="no"], small.id, code, .brand, .variant-tag, #new-variants-tag, '
    + '[data-variant], [data-fortune], option[lang]';
  const skip = (e) => e.closest(theirs);
  // Times and dates as Intl writes them in en-US (the pseudo-locale's formats): "4:53:26 PM", "Dec 6, 2026".
  // Cells side by side run together in a block's text ("9:59 PMDec 13"): AM/PM may meet a capital, a month
  // a time's end.
  const TIMES = /\b(AM|PM)(?![a-z])|(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/g;
  const words = (text) => {
    // Ids are codes, not words: a home table's "h_AnLzqXrlPDsYXknx", its rounds "h_…-5", a player's "p_…".
    let rest = text.replace(/⟦[^⟦⟧]*⟧/g, ' ').replace(TIMES, ' ')
      .replace(/\b[htp]_[A-Za-z0-9_-]{6,}\b/g, ' ');
    for (const a of allowed) rest = rest.split(a).join(' ');
    return /[A-Za-z]{2,}/.test(rest) ? rest.trim().slice(0, 80) : null;
  };
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}`;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const blocks = new Set();
  const block = 'p, td, th, li, label, button, a, h1, h2, h3, legend, summary, option, span, strong, div';
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const e = t.parentElement;
    if (!e || !t.textContent.trim() || skip(e) || !shown(e)) continue;
    blocks.add(e.closest(block) ?? e);
  }
  for (const b of blocks) {
    const copy = b.cloneNode(true);
    for (const n of copy.querySelectorAll(theirs)) n.remove();
    // each text node apart: cells side by side never run together ("$190.00h_c9q3…", "9:59 PMDec 13")
    const parts = [];
    const inner = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
    for (let n = inner.nextNode(); n; n = inner.nextNode()) parts.push(n.textContent);
    const left = words(parts.join(' '));
    if (left) out.push(`${name(b)}: ${left}`);
  }
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (skip(e)) continue;
    for (const attr of ['aria-label', 'title', 'placeholder']) {
      const v = e.getAttribute(attr);
      // A code's title is the code itself.
      if (!v || (attr === 'title' && /^[a-z0-9_]+$|^[A-Z0-9_]+$/.test(v))) continue;
      if (words(v)) out.push(`${name(e)} [${attr}]: ${v.slice(0, 80)}`);
    }
  }
  return [...new Set(out)];
}"""



def pseudo_console(site: Any, width: int, height: int) -> Page:
    op = site.page(width=width, height=height)
    op.add_init_script("localStorage.setItem('paigow.lang', 'en-XA')")
    op.goto(f"{site.url}/operator")
    expect(op.locator("#op-signin")).to_contain_text("⟦")
    return op


def console_missing(page: Page) -> list[str]:
    missing: list[str] = page.evaluate("[...window.__i18n.missing]")
    return sorted(k for k in missing if k.startswith("console:"))


def look(site: Any, page: Page, name: str, allowed: list[str]) -> list[str]:
    """Screenshots at each size, and what is wrong in words and boxes."""
    problems: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        dialog = page.locator("dialog[open]").count() > 0
        site.shot(page, f"pseudo-console-{name}-{width}x{height}", full_page=not dialog)
        for part in PANELS:
            if page.locator(part).is_visible() and not dialog:
                shot = site.artifacts / f"pseudo-console-{name}-{width}x{height}-{part.strip('#')}.png"
                page.locator(part).screenshot(path=str(shot))
        try:
            no_sideways_overflow(page)
        except AssertionError as wide:
            problems.append(f"{width}: {wide}")
        problems += [f"{width}: {p}" for p in text_problems(page)]
    problems += page.evaluate(UNBRACKETED_JS, allowed)
    return problems


def test_the_console_in_the_pseudo_locale(site: Any, wire: Wire) -> None:
    table = site.open_table("Pseudo Jade", betting_ms=60_000, setting_ms=90_000, between_rounds_ms=1_000)
    walt = wire(table, "Walt Longname")
    walt.command("sit", seat=3, buy_in_cents=20_000)
    walt.connection.send(json.dumps({"type": "chat", "id": "c1", "text": "good luck everyone"}))
    kim = wire(table, "Kim")
    kim.command("sit", seat=5, buy_in_cents=10_000)
    res = httpx.post(f"{site.url}/api/operator/players/{walt.player_id}/credit", headers=site.headers,
                     timeout=10, json={"amount_cents": 2_500, "reason": "goodwill"})
    assert res.status_code == 200, res.text
    res = httpx.post(f"{site.url}/api/operator/tables/{table}/kick", headers=site.headers, timeout=10,
                     json={"player_id": kim.player_id, "reason": "abusive chat", "bar_minutes": 60})
    assert res.status_code == 200, res.text
    res = httpx.put(f"{site.url}/api/operator/tables/{table}/rules", headers=site.headers, timeout=10,
                    json={"commission_form": "ez", "queens_dragon_enabled": True, "dragon_enabled": True,
                          "co_banking": True})
    assert res.status_code == 200, res.text
    # Names and words typed, and the codes shown beside a refusal's words.
    allowed = ["Pseudo Jade", "Walt Longname", "Kim", "good luck everyone", "goodwill", "abusive chat",
               "REASON_REQUIRED", "INVALID_FIELD"]

    op = pseudo_console(site, 360, 740)
    assert look(site, op, "signin", allowed) == []
    op.fill("#op-token", "browser-operator-token-0123456789")
    op.click("#login-form button[type=submit]")
    expect(op.locator("#console[data-ready='true']")).to_be_visible()
    op.locator(f"#tables tr[data-table='{table}'] [data-action='manage']").click()
    expect(op.locator("#detail-title")).to_contain_text("Pseudo Jade")
    expect(op.locator("#chat-messages")).to_contain_text("good luck everyone")
    expect(op.locator("#bars tbody")).to_contain_text("Kim")
    op.click("#new-variants summary")
    op.fill("#player-search", "Walt")
    op.locator(f"#player-results [data-player='{walt.player_id}']").click()
    expect(op.locator("#player-results")).to_be_hidden()
    op.fill("#m-amount", "0")
    op.fill("#m-reason", "goodwill")
    op.click("#credit")
    expect(op.locator("#money-error")).to_contain_text("INVALID_FIELD")
    op.fill("#lim-min", "lots")
    op.click("#limits-save")
    expect(op.locator("#limits-error")).to_contain_text("⟦")
    problems = look(site, op, "managed", allowed)
    assert console_missing(op) == []

    # The confirmation dialog, refused once (its code beside the words).
    op.set_viewport_size({"width": 360, "height": 740})
    op.locator(f"#seats tr[data-player='{walt.player_id}'] [data-action='kick']").click()
    op.click("#confirm-ok")
    expect(op.locator("#confirm-error")).to_contain_text("REASON_REQUIRED")
    assert re.search(r"⟦.*⟧", op.locator("#confirm-error").inner_text())
    problems += look(site, op, "kick-dialog", allowed)
    op.keyboard.press("Escape")
    assert console_missing(op) == []
    assert problems == [], "\n".join(problems)
    assert site.errors == []

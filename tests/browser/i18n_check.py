"""The languages' checks of a page in Chromium (issue 32): a page opened in a language (``in_language``), the
words on it that did not come from the catalog in the pseudo-locale ``en-XA`` (``untranslated``: every word
of the catalog is accented and bracketed ⟦…⟧ there, so a plain Latin letter outside the brackets is a word
the page wrote itself), the keys the page asked for and the catalog lacks (``window.__i18n.missing``), and
``Phases``: each phase of a walk through the page at the sizes asked, photographed, with those findings and
the layout's (tests/browser/layout.py: text overlapping or clipped, boxes overlapping) gathered and reported
together at the end (or when the walk stops), the first offending strings named in the failure."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from tests.browser.layout import overlaps, settle, text_problems

PSEUDO = "en-XA"
LANGUAGES = ("en", "zh-Hans", "zh-Hant", "vi", "es", "ko")
"""The menu's languages, in its order (client_web/i18n/languages.json)."""
SIZES: dict[str, tuple[int, int]] = {"small-phone": (360, 740), "laptop": (1366, 768)}
"""The sizes issue 32 asks every phase at."""
SHOWN = 20
"""How many offending strings a failure names."""


def language_script(code: str) -> str:
    """An init script that chooses ``code`` before any script of the page runs (on every page it opens)."""
    return f"try {{ localStorage.setItem('paigow.lang', {json.dumps(code)}); }} catch (e) {{}}"


# What the page said for a moment (the live region's sentences, the centre's phase lines, toasts, notices):
# kept as it passes, so the words of a phase too short to stop at (the dice, the deal) are checked too.
SEEN_JS = """(() => {
  const seen = new Map();
  window.__seenTexts = seen;
  const parts = '#announcer, #phase-text, #phase-sub, .toast-area, #notice, [role=alert], [role=status]';
  const keep = (e) => {
    const text = e.textContent.trim();
    const where = e.id ? `#${e.id}` : e.className || e.tagName.toLowerCase();
    if (text && !seen.has(`${where}|${text}`)) seen.set(`${where}|${text}`, [where, text]);
  };
  // Only what a script wrote once the catalogs are in (window.__i18n), not the HTML's own English as the
  // parser inserts it (translateDom replaces it at once).
  new MutationObserver((records) => {
    if (!window.__i18n) return;
    for (const r of records) {
      const target = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
      const part = target?.closest(parts);
      if (part) keep(part);
      for (const n of r.addedNodes) {
        if (n.nodeType !== Node.ELEMENT_NODE) continue;
        if (n.matches(parts)) keep(n);
        n.querySelectorAll(parts).forEach(keep);
      }
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();"""


def in_language(page: Page, code: str) -> None:
    """Every page of ``page``'s browser context opens in ``code`` from now on, and keeps what it said for a
    moment (``SEEN_JS``). Call before the context's first ``goto``."""
    page.context.add_init_script(language_script(code))
    page.context.add_init_script(SEEN_JS)


# Every visible word: text nodes (screen-reader-only text too: it is heard), the options of a visible <select>
# (but the language menu's: each language named in its own language; its label and title are checked),
# <title>, an SVG's <title>, the attributes a person sees or hears, a button's value and CSS `content:`
# strings. Left alone: what is hidden (display none, visibility hidden, `hidden`),
# <script>/<style>/<template>, the card faces' own symbols (the rank letters and JOKER drawn in a card's SVG),
# key caps (<kbd>: the key as printed on the keyboard), and what the page shows as code or an id (<code>: a
# seed, a commitment, a command-line flag; `.id`: an id or a ledger account's key shown beside a name;
# `translate="no"`: a record shown as the server stored it, the console's audit details). Then,
# in each string, the ⟦…⟧ of the pseudo-locale (nested too) and the allowed tokens are taken out: the names
# the test typed, times, dates and lengths as Intl writes them (AM/PM, a month's short name and its day,
# "1 hr, 5 min"), cards (K♠, 10♥, JK, a rank alone), ids and hex digests (seeds, commitments, player and
# table ids: p_…, t1), and codes (REASON_REQUIRED, open_table, amount_cents). What is left with a Latin
# letter was not translated.
UNTRANSLATED_JS = r"""({ allow }) => {
  const out = [];
  const SKIP = 'script, style, template, noscript, kbd, code, .id, #pg-card-defs, [translate="no"]';
  const hiddenEl = (e) => {
    for (let n = e; n; n = n.parentElement) {
      if (n.hidden || getComputedStyle(n).display === 'none') return true;
    }
    return getComputedStyle(e).visibility === 'hidden';
  };
  const shown = (e) => e && e.getClientRects().length > 0 && !hiddenEl(e);
  const face = (e) => e.closest('svg') && e.closest('text') && e.closest('.card, .card-svg, svg.card-svg');
  const escape = (n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // One pattern of every allowed name, the longest first (the suite's names run to a thousand or more).
  const names = [...allow].filter(Boolean).sort((a, b) => b.length - a.length).map(escape);
  const namesRe = names.length
    ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${names.join('|')})(?![\\p{L}\\p{N}_])`, 'gu') : null;
  const TOKENS = [  // ids and codes first: a card's text could match inside a digest (6d, 9c)
    /\b[a-z]{1,3}_[A-Za-z0-9_-]{4,}\b/g,
    /\b[0-9a-f]{12,}\b/gi,
    /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g,
    /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g,
    /\b[a-z]\d+\b/g,
    /\d{1,2}:\d{2}(?::\d{2})?[\s\u202f]*(?:AM|PM)/g,
    /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s\d{1,2}\b/g,
    /\b\d+\s?(?:hr|min|h|m)\b/g,  // a length as Intl writes it: "42 min", "1 hr, 5 min", "1h 5m"
    /(?<![A-Za-z0-9])(?:10|[2-9AKQJT])[♠♥♦♣cdhs](?![A-Za-z0-9])/g,
    /(?<![A-Za-z0-9])(?:JK|[AKQJ])(?![A-Za-z0-9])/g,
  ];
  const left = (text) => {
    let s = text;
    if (namesRe) s = s.replace(namesRe, ' ');
    for (let before = ''; before !== s;) { before = s; s = s.replace(/⟦[^⟦⟧]*⟧/g, ' '); }
    for (const re of TOKENS) s = s.replace(re, ' ');
    return /[A-Za-z]/.test(s);
  };
  const label = (e) => {
    if (!e) return '?';
    const id = e.id ? `#${e.id}` : '';
    const cls = typeof e.className === 'string' && e.className.trim()
      ? `.${e.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
    return `${e.tagName.toLowerCase()}${id}${cls}`;
  };
  const add = (where, text) => {
    const t = text.replace(/\s+/g, ' ').trim();
    if (t && left(t)) out.push({ where, text: t.slice(0, 160) });
  };
  if (document.title) add('<title>', document.title);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.textContent.trim()) continue;
    const e = t.parentElement;
    if (!e || e.closest(SKIP) || face(e)) continue;
    if (e.closest('option')) continue;  // below, with their <select>
    if (e.closest('svg') && e.closest('title, desc')) {
      if (shown(e.closest('svg'))) add(`${label(e.closest('svg'))} <title>`, t.textContent);
      continue;
    }
    const range = document.createRange();
    range.selectNodeContents(t);
    if (!range.getClientRects().length || hiddenEl(e)) continue;
    add(label(e), t.textContent);
  }
  const ATTRS = ['aria-label', 'title', 'placeholder', 'alt', 'aria-description', 'aria-valuetext',
                 'aria-roledescription'];
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest(SKIP) || !shown(e)) continue;
    for (const a of ATTRS) if (e.hasAttribute(a)) add(`${label(e)} [${a}]`, e.getAttribute(a));
    if (e.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(e.type)) {
      add(`${label(e)} [value]`, e.value);
    }
    if (e.tagName === 'SELECT' && !e.closest('.language-menu')) {
      for (const o of e.options) if (!o.closest(SKIP)) add(`${label(e)} <option>`, o.textContent);
    }
    for (const p of ['::before', '::after']) {
      const c = getComputedStyle(e, p).content;
      for (const m of c.matchAll(/"((?:[^"\\]|\\.)*)"/g)) add(`${label(e)} ${p}`, m[1]);
    }
  }
  const seen = window.__seenTexts;
  if (seen) for (const [where, text] of seen.values()) add(`${where} (said earlier)`, text);
  return out;
}"""


TYPED_KEYS = {"name", "display_name", "player_name", "host_name", "table_name", "sender_name", "by_name",
              "from_name", "to_name", "reason"}
"""The fields of the operator's lists that hold what a person typed: names and reasons."""


def typed_names(site: Any) -> list[str]:
    """Every name and reason the suite's tests typed on this server so far (the operator's tables, audit log
    and ledger): the lobby lists other tests' tables, the console their players and reasons."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, v in value.items():
                if key in TYPED_KEYS and isinstance(v, str):
                    found.add(v)
                else:
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in ("tables", "audit?limit=1000", "ledger?limit=1000"):
        res = httpx.get(f"{site.url}/api/operator/{path}", headers=site.headers, timeout=10)
        if res.status_code == 200:
            walk(res.json())
    return sorted(found)


def untranslated(page: Page, allow: Sequence[str] = ()) -> list[str]:
    """Every visible string of the page with a Latin letter outside the pseudo-locale's brackets (and the
    allowed names and tokens), as ``where: "text"``; and the keys the catalog lacks."""
    found: list[dict[str, str]] = page.evaluate(UNTRANSLATED_JS, {"allow": list(allow)})
    out = [f'{f["where"]}: "{f["text"]}"' for f in found]
    return out + missing_keys(page)


def missing_keys(page: Page) -> list[str]:
    """The keys the page asked for that its catalog lacks, or that the page runs without i18n.js."""
    missing: list[str] | None = page.evaluate(
        "() => window.__i18n ? [...window.__i18n.missing] : null")
    if missing is None:
        return ["window.__i18n is undefined: the page does not load client_web/js/i18n.js"]
    return [f"missing key {k}" for k in sorted(missing)]


def i18n_ready(page: Page, timeout_ms: int = 5_000) -> bool:
    """Waits until the page's i18n.js has chosen its language and loaded its catalogs (its top-level await
    may end after the load event); False when it never does (a page that does not load it)."""
    try:
        page.wait_for_function("() => window.__i18n", timeout=timeout_ms)
    except PlaywrightError:
        return False
    return True


def page_language(page: Page) -> str:
    """``<html lang>``, once i18n.js has set it."""
    i18n_ready(page)
    lang: str = page.evaluate("document.documentElement.lang")
    return lang


def layout_problems(page: Page) -> list[str]:
    """Text overlapping or clipped (layout.TEXT_JS), and on the table page, with no modal dialog open, the
    seats', banner's and panels' boxes overlapping (layout.overlaps)."""
    found = text_problems(page)
    if page.locator("#stage").is_visible() and not page.locator("dialog:modal").count():
        found += overlaps(page)
    return found


class Phases:
    """A walk through a page, phase by phase: at each, for each size, a screenshot
    (``<prefix>-<phase>-<size>.png`` in the artifacts) and the findings: the layout's, and in the
    pseudo-locale the untranslated strings. ``finish`` fails the test with all of them."""

    def __init__(self, site: Any, prefix: str, *, pseudo: bool = True, allow: Sequence[str] = (),
                 sizes: dict[str, tuple[int, int]] | None = None, lang: str | None = None) -> None:
        self.site = site
        self.prefix = prefix
        self.pseudo = pseudo
        self.allow = list(allow)
        self.sizes = SIZES if sizes is None else sizes
        self.lang = lang or (PSEUDO if pseudo else None)
        self.words: dict[str, list[str]] = {}
        """Phase -> its untranslated strings (each once)."""
        self.layout: list[str] = []
        self.other: list[str] = []
        self.phase = "start"

    def check(self, page: Page, phase: str, *, show: str | None = None, layout: bool = True) -> None:
        """The page as it is now, at each size (back to its own size after); ``layout=False`` while
        something floats over the page by design (a picker's open list): its words only."""
        self.phase = phase
        own = page.viewport_size
        if self.lang and page_language(page) != self.lang:
            self.other.append(f"{phase}: <html lang> is {page_language(page)!r}, not {self.lang!r}")
        allow = [*self.allow, *typed_names(self.site)] if self.pseudo else []
        for size, (width, height) in self.sizes.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.paigow?.rerender?.()")
            if show:
                page.locator(show).first.evaluate("e => e.scrollIntoView({ block: 'center' })")
            page.wait_for_timeout(250)
            settle(page)
            page.screenshot(path=str(self.site.artifacts / f"{self.prefix}-{phase}-{size}.png"))
            if layout:
                self.layout.extend(f"{phase} at {size} {width}x{height}: {p}" for p in layout_problems(page))
            if self.pseudo:
                mine = self.words.setdefault(phase, [])
                mine.extend(w for w in untranslated(page, allow) if w not in mine)
        if not self.pseudo:
            self.other.extend(f"{phase}: {m}" for m in missing_keys(page))
        if own:
            page.set_viewport_size(own)

    def report(self) -> str:
        lines: list[str] = []
        fresh: dict[str, str] = {}  # each string once, at the first phase it was seen in
        for phase, ws in self.words.items():
            for w in ws:
                fresh.setdefault(w, phase)
        layout = list(dict.fromkeys(self.layout))
        if fresh:
            counts = ", ".join(f"{phase} {len(ws)}" for phase, ws in self.words.items() if ws)
            lines.append(f"{len(fresh)} strings not from the catalog (by phase: {counts}); "
                         f"the first {SHOWN}:")
            lines.extend(f"  [{phase}] {w}" for w, phase in list(fresh.items())[:SHOWN])
        lines.extend(self.other)
        if layout:
            lines.append(f"{len(layout)} layout problems; the first {SHOWN}:")
            lines.extend(f"  {p}" for p in layout[:SHOWN])
        path: Path = self.site.artifacts / f"{self.prefix}-findings.txt"
        path.unlink(missing_ok=True)  # never an earlier run's
        if lines:
            everything = [*(f"[{phase}] {w}" for w, phase in fresh.items()), *self.other, *layout]
            path.write_text("\n".join(everything) + "\n")
            lines.append(f"(all of them: {path})")
        return "\n".join(lines)

    def finish(self) -> None:
        message = self.report()
        if message:
            pytest.fail(message, pytrace=False)

    @contextlib.contextmanager
    def walk(self) -> Iterator[Phases]:
        """The walk: when a step of it fails, the failure says where, with what was found until then."""
        try:
            yield self
        except Exception as exc:
            found = self.report()
            errors = "".join(f"\n  {e}" for e in getattr(self.site, "errors", [])[:SHOWN])
            pytest.fail(f"the walk stopped after the phase {self.phase!r}: {type(exc).__name__}: {exc}\n"
                        + (f"the pages' errors:{errors}\n" if errors else "") + found, pytrace=False)
        self.finish()

"""The pseudo-locale's checker itself (tests/browser/i18n_check.py), on a page of made-up markup: what it
reports (a word outside the ⟦…⟧ brackets, in text, an attribute, an option, a title, CSS content, screen-
reader text) and what it lets pass (the brackets, nested too; allowed names; money, times, dates, cards, ids,
codes; what is hidden, key caps, code, the language menu's options)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from tests.browser.i18n_check import SEEN_JS, UNTRANSLATED_JS

pytestmark = pytest.mark.browser

MARKUP = """
<style>.vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .before::before { content: "New"; } .mark::after { content: "✓"; }</style>
<p id="ok1">⟦Ƥĺáý ǿǿ⟧</p>
<p id="ok2">⟦Ŝéáţ ⟦Ñéšţéđ⟧ ǿǿ⟧ $1,234.50 −$12.50</p>
<p id="ok3">10:05 PM · Dec 5, 2:05\u202fPM · K♠ 10♥ A JK</p>
<p id="ok4">Alice ⟦ŵíñš⟧ p_0123456789abcdef REASON_REQUIRED open_table t1 9f86d081884c7d659a2feaa0</p>
<p id="ok5" hidden>Hidden words</p>
<p id="ok6" style="display: none">Undisplayed words</p>
<p id="ok7"><kbd>Enter</kbd> <code>--operator-token</code>
  <small class="id">player:p_0123456789abcdef</small></p>
<label class="language-menu"><select aria-label="⟦Łáñĝúáĝé⟧"><option>English</option><option>Español</option>
  </select></label>
<p id="ok8" class="mark">⟦Ðóñé⟧</p>
<p id="bad1">Play</p>
<p id="bad2">⟦Ŝéáţ⟧ 1 of 6</p>
<button id="bad3" aria-label="Close">×</button>
<input id="bad4" placeholder="Type here">
<select id="bad5"><option>⟦Óñé⟧</option><option>Two</option></select>
<span id="bad6" class="vh">Heard by a screen reader</span>
<span id="bad7" class="before">⟦Ƥĺáý⟧</span>
<img id="bad8" alt="A picture" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="4" height="4">
<svg id="bad9" width="10" height="10" role="img"><title>a spade</title><rect width="10" height="10"/></svg>
<p id="bad10" title="More words">⟦Ŵóŕđš⟧</p>
"""


def found(page: Page, allow: list[str]) -> list[dict[str, str]]:
    page.evaluate("(html) => { document.title = 'Lobby'; document.body.innerHTML = html; }", MARKUP)
    got: list[dict[str, str]] = page.evaluate(UNTRANSLATED_JS, {"allow": allow})
    return got


def test_the_checker_reports_words_outside_the_brackets_and_nothing_else(module_page: Page) -> None:
    texts = {(f["where"], f["text"]) for f in found(module_page, ["Alice"])}
    assert texts == {
        ("<title>", "Lobby"),
        ("p#bad1", "Play"),
        ("p#bad2", "⟦Ŝéáţ⟧ 1 of 6"),
        ("button#bad3 [aria-label]", "Close"),
        ("input#bad4 [placeholder]", "Type here"),
        ("select#bad5 <option>", "Two"),
        ("span#bad6.vh", "Heard by a screen reader"),
        ("span#bad7.before ::before", "New"),
        ("img#bad8 [alt]", "A picture"),
        ("svg#bad9 <title>", "a spade"),
        ("p#bad10 [title]", "More words"),
    }


def test_a_name_not_allowed_is_reported(module_page: Page) -> None:
    texts = [f["text"] for f in found(module_page, [])]
    assert any(t.startswith("Alice ⟦ŵíñš⟧") for t in texts)


def test_what_the_live_region_said_for_a_moment_is_checked_too(module_page: Page) -> None:
    """A sentence the live region said, then replaced, is still reported (SEEN_JS keeps it)."""
    module_page.evaluate(SEEN_JS)
    module_page.evaluate("""async () => {
        document.title = '⟦Ţáƀĺé⟧';
        document.body.innerHTML = '<div id="announcer" role="status"></div>';
        const a = document.getElementById('announcer');
        for (const text of ['Betting is open.', '⟦Ŕóúñđ ó⟧']) {
            a.textContent = text;
            await new Promise((ok) => setTimeout(ok, 200));
        }
    }""")
    got = module_page.evaluate(UNTRANSLATED_JS, {"allow": []})
    assert [(f["where"], f["text"]) for f in got] == [("#announcer (said earlier)", "Betting is open.")]

"""Issue 32 in the real languages: the layout checks of tests/browser/layout.py (no text overlapping or
clipped, no boxes of the table overlapping) at 360x740 and 1366x768 in Vietnamese and Spanish (the longest)
and in Chinese and Korean (taller glyphs), through the lobby, a round to the showdown, the coach and the bank
offer, with ``<html lang>`` the language and no key missing; the live region's sentences in Spanish and
Korean are in that language (not the English, no key's name); the language menu on every page, listing the
six languages, each named in its own; choosing one loads the page again in it, and it stays chosen on this
device (and for an account, on the account: another device signed in to it takes it); the browser's
languages choose the first language: zh-TW gets Traditional Chinese, es-MX Spanish, fr English.
Screenshots: test-artifacts/browser/lang-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.i18n_check import LANGUAGES, Phases, page_language
from tests.browser.i18n_walk import (
    PASSWORD,
    guest,
    lang_page,
    open_table,
    round_walk,
    sign_up,
    username,
)
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser

NAMES = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "vi": "Tiếng Việt", "es": "Español",
         "ko": "한국어"}
# Words of English that no Spanish sentence has; a Korean sentence has Hangul.
ENGLISH = re.compile(r"\b(the|you|your|won|lost|wins|loses|hand|hands|and|with|banker|bank|bet|set)\b", re.I)
HANGUL = re.compile(r"[\uac00-\ud7a3]")
# What a missing translation shows instead: the key ("table:phase.betting", or "phase.betting" without its
# namespace), or a placeholder left unfilled.
KEY = re.compile(r"\b(common|errors|lobby|home|table|game|showdown|chips|practice|console):[\w.]+|"
                 r"\b[a-z_]+\.[a-z_]+(\.[a-z_.]+)?\b|\{\{")
MENU = ".language-menu select"


def announced(page: Page) -> list[str]:
    """Every sentence the live region (#announcer) has said on this page, in order."""
    said: list[str] = page.evaluate(
        "() => [...(window.__seenTexts ?? new Map()).values()].filter(([w]) => w === '#announcer')"
        ".map(([, t]) => t)")
    return said


def announcer_problems(lang: str, said: list[str]) -> list[str]:
    """The live region's sentences not in ``lang``: the English's words (Spanish), no Hangul (Korean), a
    key's name or an unfilled placeholder (any)."""
    if not said:
        return ["the live region said nothing in the round"]
    bad = [f"a key's name in the live region: {s!r}" for s in said if KEY.search(s)]
    if lang == "ko":
        bad += [f"not Korean in the live region: {s!r}" for s in said if not HANGUL.search(s)]
    else:
        bad += [f"English in the live region: {s!r}" for s in said if ENGLISH.search(s)]
    return bad


@pytest.mark.parametrize("lang", ["vi", "es", "zh-Hans", "ko"])
def test_the_lobby_and_a_round_fit_the_screen(site: Any, wire: Wire, lang: str) -> None:
    open_table(site, f"Lobby {lang}", {"fortune_enabled": True})
    phases = Phases(site, f"lang-{lang}", pseudo=False, lang=lang)
    with phases.walk():
        page = lang_page(site, lang)
        page.goto(f"{site.url}/")
        expect(page.locator(".table-card").first).to_be_visible()
        phases.check(page, "lobby-first")
        page.context.close()
        page = guest(site, lang)
        phases.check(page, "lobby-guest")
        at_showdown: list[str] = []

        def at(page: Page, phase: str) -> None:
            phases.check(page, phase)
            if phase == "showdown":
                at_showdown.append((page.locator("#announcer").text_content() or "").strip())

        round_walk(site, wire, page, at, name=f"Jade {lang}", history=False)
        if lang in ("es", "ko"):
            said = announced(page)
            phases.other.extend(announcer_problems(lang, said))
            if not at_showdown[0] or at_showdown[0] not in said:
                phases.other.append(f"the live region said nothing of the showdown: {at_showdown}")
    assert site.errors == []


def test_the_language_menu_on_every_page_chooses_and_remembers(site: Any) -> None:
    table = open_table(site, "Menu Jade")
    page = site.page(width=360, height=740)
    page.goto(f"{site.url}/")
    assert page_language(page) == "en"
    menu = page.locator(MENU)
    expect(menu).to_be_visible()
    assert menu.evaluate("s => [...s.options].map((o) => o.value)") == list(LANGUAGES)
    assert menu.evaluate("s => [...s.options].map((o) => o.textContent)") == [NAMES[c] for c in LANGUAGES]
    assert menu.evaluate("s => [...s.options].map((o) => o.lang)") == list(LANGUAGES)
    assert menu.input_value() == "en"
    with page.expect_navigation():
        menu.select_option("es")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert page.evaluate("localStorage.getItem('paigow.lang')") == "es"
    expect(page.locator(MENU)).to_have_value("es")
    page.reload()
    assert page_language(page) == "es"
    # Every page of the device opens in it, and has the menu in its header.
    for path in (f"/table/?id={table}", "/operator", "/practice/", "/verify/"):
        page.goto(f"{site.url}{path}")
        expect(page.locator(MENU)).to_be_visible()
        expect(page.locator(MENU)).to_have_value("es")
        assert page_language(page) == "es", path
    assert site.errors == []


def test_an_account_keeps_its_language_on_another_device(site: Any) -> None:
    user = username("lang")
    first = site.page()
    sign_up(first, site, user, "Lena")
    with first.expect_navigation():
        first.locator(MENU).select_option("ko")
    first.wait_for_function("() => document.documentElement.lang === 'ko'")
    other = site.page()  # another device: nothing stored, the browser's language English
    other.goto(f"{site.url}/")
    assert page_language(other) == "en"
    other.click("#tab-signin")
    other.fill("#signin-username", user)
    other.fill("#signin-password", PASSWORD)
    other.click("#signin-submit")  # the session says the account's language: the page loads again in it
    other.wait_for_function("() => document.documentElement.lang === 'ko'", timeout=20_000)
    assert other.evaluate("localStorage.getItem('paigow.lang')") == "ko"
    assert site.errors == []


@pytest.mark.parametrize(("browser_language", "lang"), [("zh-TW", "zh-Hant"), ("es-MX", "es"), ("fr", "en")])
def test_the_browser_s_language_chooses_first(site: Any, browser_language: str, lang: str) -> None:
    page = site.browser.new_context(locale=browser_language).new_page()
    try:
        page.goto(f"{site.url}/")
        assert page.evaluate("navigator.languages[0]") == browser_language
        assert page_language(page) == lang
    finally:
        page.context.close()

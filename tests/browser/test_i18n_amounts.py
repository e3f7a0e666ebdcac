"""Amounts in each language (client_web/js/i18n.js): money as the page writes it, an amount as a field is
prefilled with (`amountText`) and what `parseAmount` reads back from it, and a loss counted up from nothing
(-0 cents), which is written as nothing, never as a negative zero."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

LANGUAGES = ["en", "zh-Hans", "zh-Hant", "vi", "es", "ko"]


@pytest.fixture(params=LANGUAGES)
def page_in(request: pytest.FixtureRequest, browser: Browser, static_site: str) -> Iterator[tuple[str, Page]]:
    lang: str = request.param
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('paigow.lang', {lang!r})")
    page = context.new_page()
    page.goto(f"{static_site}/verify/")
    page.wait_for_selector("html[data-ready]", state="attached")
    yield lang, page
    context.close()


def test_a_prefilled_amount_reads_back_and_no_zero_is_negative(page_in: tuple[str, Page]) -> None:
    lang, page = page_in
    got = page.evaluate("""async () => {
      const m = await import('/js/i18n.js');
      const cents = [0, 5, 50, 1250, 100000, 999999999];
      return {
        lang: document.documentElement.lang,
        texts: cents.map((c) => m.amountText(c)),
        back: cents.map((c) => m.parseAmount(m.amountText(c))),
        zero: m.money(-0), signedZero: m.money(-0, { sign: true }), loss: m.money(-1250),
      };
    }""")
    assert got["lang"] == lang
    assert got["back"] == [0, 5, 50, 1250, 100000, 999999999], got["texts"]
    comma = lang in ("vi", "es")
    assert got["texts"][3] == ("12,50" if comma else "12.50")
    assert all("," not in t for t in got["texts"]) or comma  # no grouping separator in a field
    assert got["texts"][5] == ("9999999,99" if comma else "9999999.99")
    for zero in (got["zero"], got["signedZero"]):
        assert "−" not in zero, zero
        assert "-" not in zero, zero
        assert "0" in zero
    assert "−" in got["loss"]
    assert "12" in got["loss"]

"""The pages' second line of defence, in Chromium: each page is served with its Content Security Policy and
still looks as designed under it (styles that used to be inline now come from the stylesheets), markup
injected into a page can neither run a script nor style anything (and the suite's watch, ``CspWatch`` in
conftest.py, reports it: any other test that causes a violation fails), and no other site can frame a
page. Screenshots of each page at a phone and a laptop size: test-artifacts/browser/security-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import CspWatch

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
PAGES = {"lobby": "/", "table": "/table/?id={table}", "operator": "/operator/", "practice": "/practice/",
         "verify": "/verify/"}
READY = {"lobby": ".table-card", "table": "[data-seat='3']", "operator": "#op-token",
         "practice": ".setter [data-key]", "verify": "#verify-form"}


def styled(page: Page, selector: str, prop: str) -> str:
    value: str = page.eval_on_selector(selector, f"(e) => getComputedStyle(e).{prop}")
    return value


def test_every_page_is_served_under_its_policy_and_keeps_its_styles(site: Any) -> None:
    table = site.open_table("Policy")
    me = site.player("Polly", width=1366, height=768)
    for name, path in PAGES.items():
        for size, (width, height) in SIZES.items():
            me.set_viewport_size({"width": width, "height": height})
            response = me.goto(site.url + path.format(table=table))
            assert response is not None
            assert response.status == 200
            policy = response.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in policy, name
            assert "unsafe-inline" not in policy, name
            assert response.headers["x-frame-options"] == "DENY"
            expect(me.locator(READY[name]).first).to_be_visible()
            site.shot(me, f"security-{name}-{size}", full_page=name in ("operator", "verify"))
        if name == "verify":  # its styles moved from a <style> element and a style attribute to verify.css
            assert styled(me, ".verify form", "display") == "grid"
            assert styled(me, ".verify-submit", "alignSelf") == "end"
        if name == "table":  # the buy-in dialog's buttons: a style attribute before, table.css now
            me.click("[data-seat='3']")
            expect(me.locator("#sit-dialog")).to_be_visible()
            assert styled(me, "#sit-dialog .buttons", "display") == "flex"
            site.shot(me, "security-table-buy-in")
            assert styled(me, "#pg-card-defs", "position") == "absolute"  # card_svg.js, through the CSSOM
    assert site.errors == []


def test_injected_markup_can_neither_run_nor_style_and_the_suite_sees_it(site: Any,
                                                                       no_csp_violation: CspWatch) -> None:
    page = site.page()
    page.goto(f"{site.url}/")
    expect(page.locator("#display-name")).to_be_visible()
    assert no_csp_violation.take() == [], "the lobby itself breaks no rule"
    page.evaluate("""() => {
      document.body.insertAdjacentHTML('beforeend',
        '<p id="injected" style="color: rgb(255, 0, 0)">x</p><style>body { display: none }</style>'
        + '<img src="x" onerror="window.ran = true">');
      const script = document.createElement('script');
      script.textContent = 'window.ran = true';
      document.body.append(script);
    }""")
    page.wait_for_timeout(300)
    assert page.evaluate("window.ran") is None, "no injected script ran"
    assert styled(page, "#injected", "color") != "rgb(255, 0, 0)"
    assert styled(page, "body", "display") != "none"
    seen = no_csp_violation.take()
    for kind in ("style", "script"):
        assert any(kind in line for line in seen), (kind, seen)  # each one reported: the watch works


def test_no_other_site_can_frame_a_page(site: Any, no_csp_violation: CspWatch) -> None:
    table = site.open_table("Framed")
    page = site.page()
    frames = "".join(f'<iframe src="{site.url}{path}"></iframe>'
                     for path in ("/", f"/table/?id={table}", "/operator/"))
    page.route("http://evil.example/", lambda route: route.fulfill(
        content_type="text/html", body=f"<!doctype html><title>evil</title>{frames}"))
    page.goto("http://evil.example/")
    page.wait_for_timeout(1_000)
    children = page.frames[1:]
    assert len(children) == 3
    for frame in children:  # Chromium's error page in place of each
        assert frame.url.startswith("chrome-error:"), f"{frame.url} was drawn inside another site"
        assert frame.query_selector(".brand") is None
    no_csp_violation.take()  # the refusals are what this test wants (Chromium may log them as violations)

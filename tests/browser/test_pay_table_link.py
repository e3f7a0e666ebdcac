"""The Fortune's "Pay table" link in the bet tray sits beside the sentence it follows ("A straight or better
pays, up to 8,000 to 1."), on that sentence's first line, never on a line of its own: on a laptop (1366x768)
it wrapped alone under it (the walk of issue 30). Checked at 1366x768, 390x844 and 360x740."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Site
from tests.browser.layout import seated_alone

pytestmark = pytest.mark.browser

LINES_JS = """() => {
  const why = document.getElementById('sb-fortune-why');
  const link = why.querySelector('#pay-table').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(why.firstChild);
  const first = range.getClientRects()[0];
  return { link: [link.top, link.bottom], first: [first.top, first.bottom] };
}"""


def test_the_pay_table_link_never_stands_on_a_line_of_its_own(site: Site) -> None:
    page = seated_alone(site, "Pay Table Room", "Lou", 1366, 768, {"betting_ms": 120_000})
    for width, height in [(1366, 768), (390, 844), (360, 740)]:
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator("#sb-fortune-why #pay-table")).to_be_visible()
        lines = page.evaluate(LINES_JS)
        link, first = lines["link"], lines["first"]
        # The link's box and the sentence's first line share the same band of the screen.
        assert link[0] < first[1], (width, lines)
        assert first[0] < link[1], (width, lines)
    assert site.errors == []

"""The layout matrix's own checks (tests/browser/layout.py), tried on small pages made to fail them: text cut
by an ancestor's overflow (a parent's, a grandparent's) is counted as clipped, not only text cut by its own
box; a scroller's hidden part is not; and the same text with room is no problem."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page
from tests.browser.layout import text_problems

pytestmark = pytest.mark.browser

WORDS = "Saturday Night Pai Gow at Bartholomew's!"


@pytest.fixture(scope="module")
def blank(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    yield page
    context.close()


def problems_of(page: Page, html: str) -> list[str]:
    page.set_content(f"<!doctype html><html><body style='margin:0;font:16px sans-serif'>{html}</body></html>")
    return text_problems(page)


def test_text_cut_by_its_parents_overflow_is_clipped(blank: Page) -> None:
    found = problems_of(blank, f"<div id='box' style='width:120px;height:20px;overflow:hidden'>"
                               f"<span id='words'>{WORDS}</span></div>")
    assert any(p.startswith('span#words "Saturday') and 'is cut by div#box' in p for p in found), found


def test_text_cut_by_a_grandparents_overflow_is_clipped(blank: Page) -> None:
    found = problems_of(blank, "<section id='far' style='width:100px;overflow:hidden'><div>"
                               "<p style='width:300px;margin:0'>"
                               f"<b id='words'>{WORDS}</b></p></div></section>")
    assert any(p.startswith("b#words") and "is cut by section#far" in p for p in found), found


def test_a_clip_path_on_the_parent_hides_rather_than_cuts(blank: Page) -> None:
    """Clipped on purpose (visually hidden text for screen readers): not in sight, so not a problem."""
    found = problems_of(blank, "<div style='position:absolute;width:1px;height:1px;overflow:hidden;"
                               f"clip:rect(0 0 0 0)'><span>{WORDS}</span></div>")
    assert found == []


def test_what_a_scroller_holds_out_of_sight_is_not_clipped(blank: Page) -> None:
    lines = "".join(f"<p style='margin:0'>{WORDS} {n}</p>" for n in range(20))
    assert problems_of(blank, f"<div style='height:60px;overflow:auto'>{lines}</div>") == []


def test_the_same_text_with_room_is_no_problem(blank: Page) -> None:
    assert problems_of(blank, f"<div style='width:360px;overflow:hidden'><span>{WORDS}</span></div>") == []

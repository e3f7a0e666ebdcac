"""The pages' HTML (client_web/**/*.html) as a browser parses it: every id once in its page, and no element
with an attribute written twice (the browser keeps the first and drops the other without a word, so a
second `data-i18n-attr` would never be translated)."""

from __future__ import annotations

from html.parser import HTMLParser
from importlib.resources import files
from pathlib import Path

import pytest

WEB = Path(str(files("paigow_web")))
PAGES = sorted(WEB.rglob("*.html"))


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.twice: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [name for name, _ in attrs]
        self.twice += [f"<{tag}> {name}" for name in sorted(set(names)) if names.count(name) > 1]
        self.ids += [value for name, value in attrs if name == "id" and value]


def test_there_are_pages() -> None:
    assert {p.relative_to(WEB).as_posix() for p in PAGES} >= {"index.html", "table/index.html",
                                                              "operator/index.html"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(WEB).as_posix())
def test_every_id_once_and_no_attribute_twice(page: Path) -> None:
    tags = _Tags()
    tags.feed(page.read_text())
    assert tags.twice == []
    assert sorted({i for i in tags.ids if tags.ids.count(i) > 1}) == []

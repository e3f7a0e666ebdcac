"""The lobby's "Download my data" (docs/http-api.md, "Your data") in Chromium: among the signed-in account's
actions, on a laptop and on a phone; a click saves the server's JSON of the page's own player, named by the
date, and never holds the session's token; past the hourly limit, the page says from when the next one is
allowed. Screenshots: test-artifacts/browser/my-data-*.png."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site

pytestmark = pytest.mark.browser


def saved_session(page: Page) -> dict[str, str]:
    saved: dict[str, str] = page.evaluate("JSON.parse(localStorage.getItem('paigow.session'))")
    return saved


def test_download_my_data_saves_the_players_own_file(site: Site, tmp_path: Path) -> None:
    for name, (width, height) in (("Ann", (1366, 768)), ("Bob", (390, 844))):
        page = site.player(name, width=width, height=height)
        button = page.locator("#account-actions #download-data")
        expect(button).to_have_text("Download my data")
        expect(button).to_be_in_viewport()
        box = button.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width
        site.shot(page, f"my-data-{width}x{height}")

        with page.expect_download() as got:
            button.click()
        assert re.fullmatch(r"paigow-data-\d{4}-\d{2}-\d{2}\.json", got.value.suggested_filename)
        path = tmp_path / f"{name}-{got.value.suggested_filename}"
        got.value.save_as(path)
        text = path.read_text(encoding="utf-8")
        session = saved_session(page)
        assert session["token"] not in text
        data = json.loads(text)
        assert data["format"] == 1
        assert (data["account"]["player_id"], data["account"]["display_name"]) == (session["player_id"], name)
        assert data["sessions"]["count"] == 1
        # A fresh guest (never sat nor chatted): its starting balance is not issued yet, so no ledger entry.
        assert data["account"]["fresh"] is True
        assert data["account"]["fresh_until_ms"] > data["generated_ms"]
        assert data["ledger"] == []
        expect(page.locator("#account-error")).to_have_text("")
        # The page says it was saved, and where (a browser saves a download without a word on the page).
        expect(page.locator("#data-saved")).to_have_text(
            f"Your data is saved as {got.value.suggested_filename}, in your browser's downloads.")

    # Bob, on the phone, past the hourly limit (6): the page says from when the next is allowed.
    for _ in range(5):
        with page.expect_download():
            button.click()
    button.click()
    expect(page.locator("#account-error")).to_contain_text(
        "Your data can be downloaded a few times an hour: the next download is allowed from ")
    expect(page.locator("#data-saved")).to_have_text("")  # not beside a refusal: it tells of a save
    expect(button).to_be_enabled()
    site.shot(page, "my-data-390x844-limit")
    assert site.errors == []

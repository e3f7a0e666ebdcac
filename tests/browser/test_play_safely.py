"""The lobby's "Play safely" (docs/responsible-play.md) in Chromium: the panel under the account's actions; a
break taken through the confirm dialog stands the player up at the table with the reason said, the lobby's
Sit buttons are disabled with the reason (Watch stays), the table page offers no seat and says why, and a
sit the table refuses is worded from the catalog. A self-exclusion asks for a box to be ticked first.
Screenshots: test-artifacts/browser/play-safely-*.png."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import Site
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_operator_console import console
from tests.browser.test_table_round import sit

pytestmark = pytest.mark.browser

SIZES = ((390, 844), (360, 740), (1366, 768))


def refused_sit(page: Page) -> str:
    """A sit sent to the table as the page sends it; the refusal worded by the page (errors.js)."""
    worded: str = page.evaluate("""async () => {
        const { errorText } = await import('/js/errors.js');
        try {
            await window.paigow.socket.command({ type: 'sit', seat: 3, buy_in_cents: 10000 });
            return 'accepted';
        } catch (err) { return `${err.code}|${errorText(err)}`; }
    }""")
    return worded


def open_panel(page: Page) -> None:
    page.click("#play-safely")
    expect(page.locator("#safe-panel")).to_be_visible()
    expect(page.locator("#play-safely")).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#safe-limits .field").first).to_be_visible()


def test_a_break_through_the_dialog_stands_up_and_disables_sitting_with_the_reason(site: Site) -> None:
    table = site.open_table("Quiet Harbour", betting_ms=60_000, between_rounds_ms=1_000)
    ann = site.player("Ann Calloway", width=390, height=844)
    ann.goto(f"{site.url}/table/?id={table}")
    sit(ann, 2, "100")
    lobby = ann.context.new_page()
    lobby.set_viewport_size({"width": 390, "height": 844})
    lobby.goto(f"{site.url}/")
    lobby.wait_for_function("() => document.documentElement.dataset.ready === '1'")
    expect(lobby.locator(f".table-card[data-table='{table}'] a.btn").first).to_be_visible()
    open_panel(lobby)
    expect(lobby.locator("#safe-block")).to_have_count(0)
    lobby.locator("#safe-panel").scroll_into_view_if_needed()
    lobby.screenshot(path=str(site.artifacts / "play-safely-panel-390x844.png"), full_page=True)

    lobby.click("#safe-break")
    dialog = lobby.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#confirm-title")).to_have_text("Take a break")
    expect(dialog.locator("#confirm-text")).to_contain_text("stood up when the round in play ends")
    expect(dialog.locator("#confirm-text")).to_contain_text("cannot be undone or shortened")
    expect(dialog.locator("#confirm-check-row")).to_be_hidden()
    dialog.screenshot(path=str(site.artifacts / "play-safely-dialog-390x844.png"))
    lobby.select_option("#confirm-choice", "7d")
    lobby.click("#confirm-ok")
    expect(dialog).to_be_hidden()
    block = lobby.locator("#safe-block")
    expect(block).to_contain_text("You are taking a break until ")
    expect(block).to_contain_text("You can still watch tables and read your History.")
    token = lobby.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
    state = httpx.get(f"{site.url}/api/account/responsible-play", timeout=10,
                      headers={"Authorization": f"Bearer {token}"}).json()
    assert state["block"]["kind"] == "break"
    assert state["block"]["length"] == "7d"

    # The lobby: Sit is a disabled button with the reason beside it; Watch stays a link.
    card = lobby.locator(f".table-card[data-table='{table}']")
    sit_button = card.locator("button.btn")
    expect(sit_button).to_be_disabled()
    expect(card.locator(".sit-refusal")).to_contain_text("You are taking a break until ")
    expect(card.locator("a.btn.secondary")).to_be_enabled()
    card.scroll_into_view_if_needed()
    lobby.screenshot(path=str(site.artifacts / "play-safely-lobby-blocked-390x844.png"))

    # The table: the player was stood up at once (no round in play), with the reason; no seat is offered.
    expect(ann.locator(".pos[data-position='2'].me")).to_have_count(0)
    ann.wait_for_function("t => window.paigow.ctx.log.some((l) => l.text.startsWith(t))",
                          arg="You were stood up because your break has started. "
                              "Your chips ($100.00) went back to your balance.")
    expect(ann.locator("#choose-seat")).to_contain_text("You are taking a break until ")
    expect(ann.locator(".sit-btn")).to_have_count(0)
    code, words = refused_sit(ann).split("|", 1)
    assert code == "ON_BREAK"
    assert words.startswith("You are taking a break until ")
    assert "You can still watch" in words
    ann.screenshot(path=str(site.artifacts / "play-safely-table-390x844.png"))

    # A reload of the table page still knows (read from the server), and says it.
    ann.reload()
    expect(ann.locator("#choose-seat")).to_contain_text("You are taking a break until ")

    # The operator sees it, read only: in the list of blocks in force and in the player's detail.
    ann_id = state_player_id(lobby)
    for width, height in SIZES:
        op = console(site, width=width, height=height)
        row = op.locator(f"#rg-blocks tr[data-player='{ann_id}']")
        expect(row).to_contain_text("Ann Calloway")
        expect(row).to_contain_text("Break (7 days)")
        expect(op.locator("#blocks-panel button")).to_have_count(0)
        shot = site.artifacts / f"play-safely-console-blocks-{width}x{height}.png"
        op.locator("#blocks-panel").screenshot(path=str(shot))
        op.locator("#player-search").press_sequentially("Ann Call", delay=20)
        op.locator(f"#player-results [data-player='{ann_id}']").click()
        detail = op.locator("#player-rp")
        expect(detail.locator("#player-rp-block")).to_contain_text("Break of 7 days, until ")
        expect(detail.locator("#player-rp-limits")).to_have_text("None set")
        expect(detail).to_contain_text("Not playing now")
        expect(detail.locator("button, input, select")).to_have_count(0)
        detail.scroll_into_view_if_needed()
        shot = site.artifacts / f"play-safely-console-player-{width}x{height}.png"
        op.locator("#money-panel").screenshot(path=str(shot))
    assert site.errors == []


def state_player_id(page: Page) -> str:
    pid: str = page.evaluate("JSON.parse(localStorage.getItem('paigow.session')).player_id")
    return pid


def test_a_self_exclusion_asks_for_the_box_and_a_shorter_break_is_refused_in_words(site: Site) -> None:
    for width, height in SIZES:
        page = site.player(f"Bo {width}", width=width, height=height)
        open_panel(page)
        page.locator("#safe-panel").scroll_into_view_if_needed()
        page.screenshot(path=str(site.artifacts / f"play-safely-panel-{width}x{height}.png"))
        page.click("#safe-exclusion")
        dialog = page.locator("#confirm-dialog")
        expect(dialog.locator("#confirm-check-row")).to_be_visible()
        expect(dialog.locator("#confirm-text")).to_contain_text("Nobody can undo or shorten a self-exclusion")
        page.click("#confirm-ok")  # the box not ticked: nothing is sent, the dialog says why
        expect(dialog.locator("#confirm-error")).to_have_text(
            "A self-exclusion cannot be undone or shortened: confirm it to start it.")
        expect(page.locator("#safe-block")).to_have_count(0)
        page.screenshot(path=str(site.artifacts / f"play-safely-dialog-{width}x{height}.png"))
        page.check("#confirm-check")
        page.select_option("#confirm-choice", "6m")
        page.click("#confirm-ok")
        expect(dialog).to_be_hidden()
        expect(page.locator("#safe-block")).to_contain_text("You have excluded yourself from play until ")
        # Another year's date is said with its year (six months on).
        until_year = page.evaluate("""() => fetch('/api/account/responsible-play', { headers: { Authorization:
            `Bearer ${JSON.parse(localStorage.getItem('paigow.session')).token}` } })
            .then((r) => r.json()).then((d) => new Date(d.block.until_ms).getFullYear())""")
        if until_year != page.evaluate("new Date().getFullYear()"):
            expect(page.locator("#safe-block")).to_contain_text(str(until_year))
        # A break now ends before the exclusion: refused, said in the dialog, which stays open.
        page.click("#safe-break")
        page.click("#confirm-ok")
        already = "A break or self-exclusion is already in force until "
        expect(dialog.locator("#confirm-error")).to_contain_text(already)
        page.screenshot(path=str(site.artifacts / f"play-safely-refusal-{width}x{height}.png"))
        page.click("#confirm-cancel")
        expect(dialog).to_be_hidden()
        box: Any = page.locator("#safe-panel").bounding_box()
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width
    assert site.errors == []


def test_a_tighter_limit_is_in_force_at_once_and_a_looser_one_waits_with_its_date(site: Site) -> None:
    for width, height in SIZES:
        page = site.player(f"Cy {width}", width=width, height=height)
        open_panel(page)
        page.fill("#safe-wager_day", "50")
        page.fill("#safe-session_minutes", "90")
        page.click("#safe-save")
        result = page.locator("#safe-result")
        expect(result).to_contain_text("Betting limit per day: $50.00, in force now.")
        # The label's "(minutes)" is not said again beside the value's own unit.
        expect(result).to_contain_text("Time limit per session: 90 minutes, in force now.")
        now = page.locator("#safe-wager_day-now")
        expect(now).to_contain_text("In force now: $50.00")
        expect(now).to_contain_text("Used so far: $0.00 of $50.00. Starts again from zero on ")
        expect(page.locator("#safe-wager_day")).to_have_value("50")
        expect(page.locator("#safe-reality-hint")).to_have_text(
            "From 5 to 1,440 minutes, or 0 for no reminder. Leave it empty to use the casino's usual "
            "reminder: 60 minutes.")

        # Raised: waits for the day's end at least 24 hours on; the page says when, the $50 stays.
        page.fill("#safe-wager_day", "80")
        page.click("#safe-save")
        expect(result).to_contain_text("Betting limit per day: $80.00 from ")
        expect(result).to_contain_text("Until then your current limit stays.")
        expect(now).to_contain_text("In force now: $50.00")
        expect(now).to_contain_text("Your change to $80.00 takes effect on ")
        expect(page.locator("#safe-wager_day")).to_have_value("50")
        token = page.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
        state = httpx.get(f"{site.url}/api/account/responsible-play", timeout=10,
                          headers={"Authorization": f"Bearer {token}"}).json()
        assert state["limits"]["wager_day"] == 5000
        assert state["limits"]["session_minutes"] == 90
        pending = state["pending"]["wager_day"]
        assert pending["value"] == 8000
        assert pending["effective_ms"] >= pending["asked_ms"] + 24 * 3600 * 1000
        shown = page.evaluate("ms => import('/js/i18n.js').then((m) => m.when(ms))", pending["effective_ms"])
        expect(now).to_contain_text(f"Your change to $80.00 takes effect on {shown}.")

        # A reminder the server would refuse: said with the range the box takes, and the last save's words
        # go (they told of that save, not of this one); nothing sent.
        page.fill("#safe-reality", "2")
        page.click("#safe-save")
        expect(page.locator("#safe-form-error")).to_have_text(
            "Enter 0 for no reminder, or a whole number of minutes from 5 to 1,440; or leave the box empty.")
        expect(page.locator("#safe-reality")).to_be_focused()
        expect(result).to_be_empty()
        page.fill("#safe-reality", "")

        # A word that is not an amount: said, nothing sent.
        page.fill("#safe-loss_week", "lots")
        page.click("#safe-save")
        expect(page.locator("#safe-form-error")).to_have_text(
            "Enter an amount above zero, or leave the box empty for no limit.")
        expect(page.locator("#safe-loss_week")).to_be_focused()
        page.fill("#safe-loss_week", "")
        page.locator("#safe-wager_day").scroll_into_view_if_needed()
        page.screenshot(path=str(site.artifacts / f"play-safely-limits-{width}x{height}.png"))
        assert serious_violations(page) == []
        page.click("#safe-break")
        assert serious_violations(page) == []
        page.click("#confirm-cancel")
    assert site.errors == []


@pytest.mark.parametrize("lang", ["ko", "zh-Hant", "vi"])
def test_the_panel_in_other_languages_fits_a_small_phone(site: Site, lang: str) -> None:
    page = site.player(f"Dee {lang}", width=360, height=740)
    page.evaluate("lang => localStorage.setItem('paigow.lang', lang)", lang)
    page.reload()
    open_panel(page)
    page.fill("#safe-loss_day", "20")
    page.click("#safe-save")
    expect(page.locator("#safe-result p")).to_have_count(1)
    page.fill("#safe-loss_day", "40")
    page.click("#safe-save")
    expect(page.locator("#safe-loss_day-now .safe-pending")).to_be_visible()
    wide: list[str] = page.evaluate("""() => [...document.querySelectorAll('#safe-panel *')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((e) => e.id || e.tagName)""")
    assert wide == []
    page.locator("#safe-loss_day").scroll_into_view_if_needed()
    page.screenshot(path=str(site.artifacts / f"play-safely-limits-{lang}-360x740.png"))
    page.click("#safe-exclusion")
    shot = site.artifacts / f"play-safely-dialog-{lang}-360x740.png"
    page.locator("#confirm-dialog").screenshot(path=str(shot))
    assert site.errors == []


def panel_boxes(page: Page) -> list[tuple[int, int]]:
    """Where the bet panel's first chip, bet box and Place bet button are (left, top, rounded)."""
    found: list[tuple[int, int]] = [tuple(b) for b in page.evaluate("""() => ['#chip-100', '#bet-amount',
      '#place-bet'].map((s) => { const r = document.querySelector(s).getBoundingClientRect();
      return [Math.round(r.left), Math.round(r.top)]; })""")]
    return found


def test_a_bet_over_the_betting_limit_is_refused_in_words_at_the_table(site: Site) -> None:
    table = site.open_table("Lantern Bay", betting_ms=60_000, between_rounds_ms=1_000)
    for width, height in SIZES:
        page = site.player(f"Eve {width}", width=width, height=height)
        token = page.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
        res = httpx.put(f"{site.url}/api/account/responsible-play", timeout=10,
                        json={"limits": {"wager_day": 1000}}, headers={"Authorization": f"Bearer {token}"})
        assert res.status_code == 200, res.text
        page.goto(f"{site.url}/table/?id={table}")
        seat = {390: 1, 360: 2, 1366: 3}[width]
        sit(page, seat, "100")
        # The panel says the most the limit leaves, and why, beside the table's own limits.
        info = page.locator("#bet-info")
        expect(info).to_contain_text(" – $10.00 · your daily betting limit leaves $10.00 · table limits ")
        expect(page.locator("#chip-2500")).to_have_count(0)  # $25 is past the room: no chip offers it
        before = panel_boxes(page)
        page.screenshot(path=str(site.artifacts / f"play-safely-bet-room-{width}x{height}.png"))
        page.fill("#bet-amount", "20")
        page.click("#place-bet")
        error = page.locator("#bet-error")
        expect(error).to_contain_text("This bet would bring what you have bet to $20.00, over your "
                                      "betting limit of $10.00. The limit starts again on ")
        after = panel_boxes(page)
        assert [left for left, _ in after] == [left for left, _ in before], "nothing moved sideways"
        beside = abs((after[1][1] - after[0][1]) - (before[1][1] - before[0][1]))
        assert beside <= 1, "the chips stay beside the bet box"
        page.screenshot(path=str(site.artifacts / f"play-safely-bet-refused-{width}x{height}.png"))
    # The operator reads the limit in the player's detail (the last player, on the laptop).
    op = console(site)
    op.locator("#player-search").press_sequentially("Eve 1366", delay=20)
    op.locator(f"#player-results [data-player='{state_player_id(page)}']").click()
    detail = op.locator("#player-rp")
    expect(detail.locator("#player-rp-limits")).to_have_text(
        "Betting limit per day: $10.00 (used this period: $0.00)")
    expect(detail.locator("#player-rp-block")).to_have_text("None in force")
    expect(detail.locator("#player-rp-hits")).to_have_text("1")  # the bet refused above
    expect(detail).to_contain_text("Playing since ")
    expect(detail.locator("button, input, select")).to_have_count(0)
    detail.screenshot(path=str(site.artifacts / "play-safely-console-limits-1366x768.png"))
    assert site.errors == []


def test_what_is_typed_before_the_limits_come_stays(site: Site) -> None:
    """The panel opens at once and its limits come a moment later, drawing its boxes again: a limit typed in
    that moment stays in its box, with the focus (it was lost, and a save said "Nothing to change")."""
    page = site.player("Eve Early", width=390, height=844)
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route("**/api/account/responsible-play", hold)  # the panel's load waits here
    page.click("#play-safely")
    expect(page.locator("#safe-limits .field").first).to_be_visible()
    page.fill("#safe-loss_day", "25")
    page.eval_on_selector("#safe-form", "f => { f.dataset.before = '1'; }")
    while not held:
        page.wait_for_timeout(50)
    held[0].continue_()
    page.unroute("**/api/account/responsible-play")
    page.wait_for_function("() => !document.querySelector('#safe-form[data-before]')")  # drawn again
    expect(page.locator("#safe-reality-hint")).to_contain_text("usual reminder: 60 minutes.")
    expect(page.locator("#safe-loss_day")).to_have_value("25")
    expect(page.locator("#safe-loss_day")).to_be_focused()
    page.click("#safe-save")
    expect(page.locator("#safe-result")).to_have_text("Loss limit per day: $25.00, in force now.")
    expect(page.locator("#safe-loss_day")).to_have_value("25")
    assert site.errors == []

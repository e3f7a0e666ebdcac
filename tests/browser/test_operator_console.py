"""The operator console in Chromium: void and kick ask for confirmation and a reason in a dialog (focus kept
in it, Escape cancels and sends nothing), a kick can bar the player from the table (their page says until
when; the console lists the bar and lifts it), credit and debit by picking a player found by name, names
beside ids in the seats, the audit log and the ledger, the API's refusals worded in the page's language from
their codes, the code beside the words and never the server's English message (a form's inside the form, at
the field it names), and no sideways overflow at 1366x768, 1920x1080 or 390x844 (screenshots of each)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import AUTO_CHIPS
from tests.browser.test_accessibility import serious_violations

pytestmark = pytest.mark.browser

VIEWPORTS = ((1366, 768), (1920, 1080), (390, 844))


def console(site: Any, width: int = 1366, height: int = 768) -> Page:
    op = site.page(width=width, height=height)
    op.goto(f"{site.url}/operator")
    op.fill("#op-token", "browser-operator-token-0123456789")
    op.click("#login-form button[type=submit]")
    expect(op.locator("#console[data-ready='true']")).to_be_visible()  # drawn: nothing moves any more
    return op


def audit(site: Any) -> list[dict[str, Any]]:
    entries = httpx.get(f"{site.url}/api/operator/audit?limit=1000", headers=site.headers, timeout=10)
    return list(entries.json()["entries"])


def refusal_text(op: Page, refusal: dict[str, Any]) -> str:
    """A refusal's body (``{"error", "message", ...}``) as the console words it: the errors catalog's sentence
    for its code in the page's language (js/errors.js) with the code beside it, never the English message."""
    text: str = op.evaluate("""(body) => import('/js/operator_api.js').then((m) =>
        m.errorText({ code: body.error, message: body.message, body }))""", refusal)
    assert refusal["error"] in text
    assert refusal["message"] not in text
    return text


def api_error(site: Any, op: Page, path: str, body: dict[str, Any]) -> str:
    """What the API answers to this request, as the console should show it (``refusal_text``)."""
    res = httpx.post(f"{site.url}/api/operator{path}", json=body, headers=site.headers, timeout=10)
    assert res.status_code >= 400, res.text
    return refusal_text(op, res.json())


def refused_in_form(op: Page, form: str, field: str, typed: str, error: str) -> None:
    """Type ``typed`` into ``field`` of the managed table's ``form`` ("timers", "variants") and save: the
    console's own check says ``error`` inside the form, marks the field and says no "Saved"."""
    op.fill(field, typed)
    op.click(f"#{form}-save")
    expect(op.locator(f"#{form}-error")).to_have_text(error)
    expect(op.locator(field)).to_have_attribute("aria-invalid", "true")
    expect(op.locator(f"#{form}-saved")).to_have_text("")


def no_sideways_overflow(page: Page) -> None:
    """Neither the page nor any panel or table box is wider than what shows it."""
    wide: list[str] = page.evaluate("""() => {
        const out = [];
        const root = document.documentElement;
        if (root.scrollWidth > window.innerWidth + 1) {  // a pixel's rounding, as below
            // Name what sticks out: the innermost elements whose right edge passes the window's.
            const passes = (e) => e.getClientRects().length && !e.closest('thead')
                && e.getBoundingClientRect().right > window.innerWidth + 1;
            const past = [...document.querySelectorAll('body *')].filter((e) => passes(e)
                && ![...e.querySelectorAll('*')].some(passes));
            out.push('page ' + root.scrollWidth + ': ' + past.slice(0, 4).map((e) =>
                e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className + ' "'
                + (e.textContent || '').trim().slice(0, 40) + '"').join(', '));
        }
        for (const e of document.querySelectorAll('.panel, .scroll, table.data')) {
            if (e.getClientRects().length && e.scrollWidth > e.clientWidth + 1)
                out.push((e.id || e.className) + ' ' + e.scrollWidth + '>' + e.clientWidth);
        }
        return out;
    }""")
    assert wide == []


def shots(site: Any, page: Page, name: str, panels: tuple[str, ...]) -> None:
    """The whole console at each viewport, no sideways overflow in any; on the phone, also each of
    ``panels`` (a full phone page is too tall to look at as one picture)."""
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        no_sideways_overflow(page)
        site.shot(page, f"{name}-{width}x{height}", full_page=True)
    for panel in panels:
        page.locator(panel).screenshot(path=str(site.artifacts / f"{name}-390x844-{panel.strip('#')}.png"))
    page.set_viewport_size({"width": 1366, "height": 768})


def focus_inside(page: Page, selector: str) -> bool:
    inside: bool = page.evaluate(f"() => !!document.activeElement.closest('{selector}')")
    return inside


def sit(page: Page, seat: int) -> None:
    page.click(f"[data-seat='{seat}']")
    page.fill("#buy-in", "100")
    page.click("#sit-confirm")


def test_void_and_kick_confirm_with_a_reason_and_a_kick_bars_the_player(site: Any) -> None:
    table = site.open_table("Jade Dragon", betting_ms=60_000, setting_ms=90_000, between_rounds_ms=1_000)
    ann = site.player("Ann Barwell")
    ann.goto(f"{site.url}/table/?id={table}")
    sit(ann, 2)
    ann.fill("#bet-amount", "10")
    ann.click("#place-bet")
    expect(ann.locator("[data-panel='setter']")).to_be_visible()
    ann_id = ann.evaluate("window.paigow.ctx.playerId")

    op = console(site)
    row = op.locator(f"#tables tr[data-table='{table}']")
    void = row.locator("[data-action='void']")
    dialog = op.locator("#confirm-dialog")

    # The dialog: focus in the reason field and kept inside; Escape cancels and nothing is sent.
    void.click()
    expect(dialog).to_be_visible()
    expect(op.locator("#confirm-title")).to_have_text("Void the round at Jade Dragon?")
    expect(op.locator("#confirm-reason")).to_be_focused()
    expect(op.locator("#confirm-bar-row")).to_be_hidden()
    for _ in range(5):
        op.keyboard.press("Tab")
        assert focus_inside(op, "#confirm-dialog")
    op.locator("#confirm-reason").focus()
    op.keyboard.press("Shift+Tab")
    expect(op.locator("#confirm-ok")).to_be_focused()  # wrapped around to the last button
    op.keyboard.press("Tab")
    expect(op.locator("#confirm-reason")).to_be_focused()
    op.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(void).to_be_focused()
    assert [e for e in audit(site) if e["action"] == "void_table" and e["table_id"] == table] == []
    expect(ann.locator("[data-panel='setter']")).to_be_visible()

    # No reason: the API's refusal, worded from its code (the code beside it), in the dialog, still open.
    void.click()
    op.click("#confirm-ok")
    expect(op.locator("#confirm-error")).to_contain_text("REASON_REQUIRED")
    expected = api_error(site, op, f"/tables/{table}/void", {})
    expect(op.locator("#confirm-error")).to_have_text(expected)
    expect(dialog).to_be_visible()
    for width, height in VIEWPORTS:
        op.set_viewport_size({"width": width, "height": height})
        op.wait_for_timeout(200)
        op.screenshot(path=str(site.artifacts / f"30-void-dialog-{width}x{height}.png"))
    op.set_viewport_size({"width": 1366, "height": 768})
    op.fill("#confirm-reason", "misdeal: two cards exposed")
    op.click("#confirm-ok")
    expect(dialog).to_be_hidden()
    expect(op.locator("#tables-result")).to_have_text(
        "The round at Jade Dragon was voided: every bet was returned.")
    # The tray says it (no toast then).
    expect(ann.locator("#notice")).to_contain_text("every bet was returned")
    voids = [e for e in audit(site) if e["action"] == "void_table" and e["table_id"] == table]
    assert [(e["outcome"], e["actor"], e["params"]) for e in voids] == [
        ("REASON_REQUIRED", "bootstrap", {"reason": ""}), ("REASON_REQUIRED", "bootstrap", {}),
        ("ok", "bootstrap", {"reason": "misdeal: two cards exposed"})]
    expect(op.locator("#audit tbody tr[data-action='void_table']").first).to_contain_text(
        "reason: misdeal: two cards exposed")

    # Kick with a bar of an hour: the seat shows her name beside her id.
    row.locator("[data-action='manage']").click()
    seat = op.locator(f"#seats tr[data-player='{ann_id}']")
    expect(seat).to_contain_text("Ann Barwell")
    expect(seat).to_contain_text(ann_id)
    seat.locator("[data-action='kick']").click()
    expect(op.locator("#confirm-title")).to_have_text("Kick Ann Barwell from Jade Dragon?")
    expect(op.locator("#confirm-bar-row")).to_be_visible()
    op.fill("#confirm-reason", "abusive chat")
    op.select_option("#confirm-bar", "60")
    for width, height in VIEWPORTS:
        op.set_viewport_size({"width": width, "height": height})
        op.wait_for_timeout(200)
        op.screenshot(path=str(site.artifacts / f"31-kick-dialog-{width}x{height}.png"))
    op.set_viewport_size({"width": 1366, "height": 768})
    op.click("#confirm-ok")
    expect(dialog).to_be_hidden()
    expect(op.locator("#detail-result")).to_contain_text(
        "Ann Barwell was kicked and barred from this table until")
    expect(ann.locator(".pos[data-position='2'] .name")).to_have_text("Seat 2")
    bar = op.locator(f"#bars tr[data-player='{ann_id}']")
    expect(bar).to_contain_text("Ann Barwell")
    expect(bar).to_contain_text("Jade Dragon")
    expect(bar).to_contain_text("abusive chat")
    kick = next(e for e in reversed(audit(site)) if e["action"] == "kick" and e["table_id"] == table)
    assert (kick["outcome"], kick["player_name"], kick["params"]) == (
        "ok", "Ann Barwell", {"player_id": ann_id, "reason": "abusive chat", "bar_minutes": 60})
    expect(op.locator("#audit tbody tr[data-action='kick']").first).to_contain_text("Ann Barwell")

    # Her page: told until when, and no seat offered (the server refuses a barred sit: tests/server).
    expect(ann.locator("#choose-seat")).to_contain_text(
        "The table's operator barred you from this table until")
    expect(ann.locator(".sit-btn")).to_have_count(0)
    site.shot(ann, "32-barred-player")

    shots(site, op, "33-console-with-a-bar", ("#tables-panel", "#detail", "#bars-panel", "#audit-panel"))

    # Lifting the bar: the list empties, and she sits.
    bar.locator("[data-action='lift']").click()
    expect(op.locator("#bars-result")).to_have_text("Ann Barwell may sit at Jade Dragon again.")
    expect(bar).to_have_count(0)
    ann.reload()  # the page learns of a bar from the kick; a lifted one is gone once it loads again
    sit(ann, 5)
    expect(ann.locator(".pos[data-position='5'] .name")).to_have_text("Ann Barwell")
    assert site.unlabelled(op) == []
    assert site.errors == []


def test_credit_by_picking_a_player_with_names_beside_ids(site: Any) -> None:
    bo = site.player("Bo Pickering")
    bo_id = bo.evaluate("JSON.parse(localStorage.getItem('paigow.session')).player_id")
    op = console(site)

    # Nobody picked: the console says so, nothing is sent.
    op.fill("#m-amount", "25")
    op.click("#credit")
    expect(op.locator("#money-error")).to_contain_text("Pick a player first")

    op.locator("#player-search").press_sequentially("bo picker", delay=20)
    option = op.locator(f"#player-results [data-player='{bo_id}']")
    expect(option).to_contain_text("Bo Pickering")
    expect(option).to_contain_text(bo_id)
    expect(op.locator("#player-search")).to_have_attribute("aria-expanded", "true")
    for width, height in VIEWPORTS:
        op.set_viewport_size({"width": width, "height": height})
        op.wait_for_timeout(200)
        op.locator("#player-search").scroll_into_view_if_needed()
        op.screenshot(path=str(site.artifacts / f"34-player-picker-{width}x{height}.png"))
    op.set_viewport_size({"width": 1366, "height": 768})
    op.locator("#player-search").focus()
    op.keyboard.press("ArrowDown")
    expect(option).to_have_attribute("aria-selected", "true")
    op.keyboard.press("Enter")
    expect(op.locator("#player-picked")).to_contain_text("Picked: Bo Pickering (guest)")
    expect(op.locator("#player-picked")).to_have_attribute("data-player", bo_id)

    # The API's refusals, worded from their codes: no reason, then an amount of zero.
    op.fill("#m-amount", "25")
    op.fill("#m-reason", "")
    op.click("#credit")
    expect(op.locator("#money-error")).to_contain_text("REASON_REQUIRED")
    expect(op.locator("#money-error")).to_have_text(
        api_error(site, op, f"/players/{bo_id}/credit", {"amount_cents": 2_500, "reason": ""}))
    op.fill("#m-amount", "0")
    op.fill("#m-reason", "welcome")
    op.click("#credit")
    expect(op.locator("#money-error")).to_contain_text("INVALID_FIELD")
    expected = api_error(site, op, f"/players/{bo_id}/credit", {"amount_cents": 0, "reason": "welcome"})
    expect(op.locator("#money-error")).to_have_text(expected)
    op.fill("#m-amount", "25")
    op.click("#credit")
    expect(op.locator("#money-result")).to_have_text(
        "Credited $25.00 to Bo Pickering: the balance is now $1,025.00.")
    op.fill("#m-amount", "5")
    op.fill("#m-reason", "correction")
    op.click("#debit")
    expect(op.locator("#money-result")).to_have_text(
        "Debited $5.00 from Bo Pickering: the balance is now $1,020.00.")

    # Names beside ids in the audit log and the ledger.
    credit = op.locator("#audit tbody tr[data-action='credit']").filter(has_text=bo_id).first
    expect(credit).to_contain_text("Bo Pickering")
    expect(credit).to_contain_text("reason: welcome")
    ledger = op.locator("#ledger tbody tr").filter(has_text=bo_id)
    expect(ledger.filter(has_text="credit").first).to_contain_text("Bo Pickering")
    shots(site, op, "35-console-balances", ("#money-panel", "#ledger-panel"))
    assert site.unlabelled(op) == []
    assert site.errors == []


def test_a_new_table_has_the_fortune_bonus_and_a_saved_change_says_it_takes_effect_next_round(
        site: Any) -> None:
    op = console(site)
    op.fill("#new-name", "Saved Notes")
    expect(op.locator("#new-fortune")).to_be_checked()  # on by default, like the starter table
    op.click("#open-table")
    expect(op.locator("#tables-result")).to_have_text("Saved Notes is open, with the Fortune bonus.")
    row = op.locator("#tables tbody tr").filter(has_text="Saved Notes")
    expect(row.locator("[data-fortune]")).to_contain_text("8,000-to-1 pay table")  # its name, not its id
    expect(op.locator("#detail-title")).to_contain_text("Saved Notes")
    expect(op.locator("#fortune-status")).to_contain_text("On: 8,000-to-1 pay table")
    table_id = row.get_attribute("data-table")
    # Every form says, before anything is sent, that a change waits for the next round.
    for form in ("limits", "timers", "fortune"):
        expect(op.locator(f"#{form}-note")).to_contain_text("takes effect from the next round")
        expect(op.locator(f"#{form}-saved")).to_have_text("")

    op.fill("#lim-min", "10")
    op.fill("#lim-max", "400")
    op.click("#limits-save")
    saved = op.locator("#limits-saved")
    expect(saved).to_have_text("Saved: takes effect from the next round.")
    expect(saved).to_have_attribute("role", "status")
    box, button = saved.bounding_box(), op.locator("#limits-save").bounding_box()
    assert box is not None
    assert button is not None
    # At the button: beside it, or just under it when the row wraps.
    assert button["y"] - button["height"] / 2 < box["y"] < button["y"] + 2 * button["height"]
    view = httpx.get(f"{site.url}/api/operator/tables/{table_id}", headers=site.headers, timeout=10).json()
    assert (view["view"]["rules"]["min_bet_cents"], view["view"]["rules"]["max_bet_cents"]) == (1_000, 40_000)
    shots(site, op, "36-console-saved", ("#tables-panel", "#detail"))

    op.fill("#lim-min", "12")
    expect(saved).to_have_text("")  # a new change typed: the last confirmation goes
    op.fill("#lim-min", "10")
    op.fill("#t-bet", "25")
    op.click("#timers-save")
    expect(op.locator("#timers-saved")).to_have_text("Saved: takes effect from the next round.")
    view = httpx.get(f"{site.url}/api/operator/tables/{table_id}", headers=site.headers, timeout=10).json()
    assert view["view"]["timers"]["betting_ms"] == 25_000
    # A refused change says no "Saved".
    refused_in_form(op, "timers", "#t-bet", "soon",
                    "The betting time must be a number of seconds, not 'soon'.")
    expect(op.locator("#detail-error")).to_have_text("")

    op.fill("#new-name", "Plain Table")
    op.uncheck("#new-fortune")
    op.click("#open-table")
    expect(op.locator("#tables-result")).to_have_text("Plain Table is open, without the Fortune bonus.")
    expect(op.locator("#tables tbody tr").filter(has_text="Plain Table")).to_contain_text("off")
    assert site.unlabelled(op) == []
    assert site.errors == []


def test_each_form_of_the_managed_table_shows_its_refusal_inside_it_at_its_field(site: Any) -> None:
    """The limits, timers and Fortune forms say a refusal in their own error line, under their fields, not
    at the top of the panel: the console's own check and the server's 400 (named by its ``field``: that
    field marked aria-invalid and focused), the top error line left for the rest."""
    table_id = site.open_table("Far Form", betting_ms=60_000)
    op = console(site, 390, 844)
    op.locator(f"#tables tr[data-table='{table_id}'] [data-action='manage']").click()
    expect(op.locator("#detail-title")).to_contain_text("Far Form")
    limits_error = op.locator("#limits-error")

    # The console's own check: which amount is no amount, at its field.
    op.fill("#lim-min", "lots")
    op.click("#limits-save")
    expect(limits_error).to_have_text("The minimum is a dollar amount, e.g. 5, not 'lots'.")
    expect(op.locator("#lim-min")).to_have_attribute("aria-invalid", "true")
    expect(op.locator("#lim-min")).to_be_focused()

    # The server's: a maximum below the minimum, named by its field.
    op.fill("#lim-min", "50")
    expect(op.locator("#lim-min")).not_to_have_attribute("aria-invalid", "true")  # typing clears the mark
    op.fill("#lim-max", "20")
    op.click("#limits-save")
    bad = httpx.put(f"{site.url}/api/operator/tables/{table_id}/limits", headers=site.headers, timeout=10,
                    json={"min_bet_cents": 5_000, "max_bet_cents": 2_000})
    assert (bad.status_code, bad.json()["field"]) == (400, "max_bet_cents")
    expect(limits_error).to_have_text(f"Maximum: {refusal_text(op, bad.json())}")
    expect(op.locator("#lim-max")).to_have_attribute("aria-invalid", "true")
    expect(op.locator("#lim-max")).to_be_focused()
    expect(op.locator("#lim-min")).not_to_have_attribute("aria-invalid", "true")
    expect(op.locator("#limits-saved")).to_have_text("")
    expect(op.locator("#detail-error")).to_have_text("")
    # Inside the limits form, under its fields.
    boxes = [op.locator(s).bounding_box() for s in ("#limits-form", "#lim-max", "#limits-error")]
    form, field, line = (b for b in boxes if b is not None)
    assert form["y"] <= field["y"] < line["y"] < form["y"] + form["height"]
    for width, height in ((390, 844), (360, 740), (1366, 768), (1920, 1080)):
        op.set_viewport_size({"width": width, "height": height})
        op.wait_for_timeout(200)
        shot = site.artifacts / f"37-console-limits-refused-{width}x{height}.png"
        op.locator("#detail .grid2").screenshot(path=str(shot))
        no_sideways_overflow(op)
    op.set_viewport_size({"width": 390, "height": 844})

    # The Fortune form: a bonus maximum below its minimum, at its field; the limits' error stays theirs.
    op.fill("#f-min", "50")
    op.fill("#f-max", "20")
    op.click("#fortune-save")
    expect(op.locator("#fortune-error")).to_contain_text("Bonus maximum: ")
    expect(op.locator("#fortune-error")).to_contain_text("INVALID_FIELD")
    expect(op.locator("#f-max")).to_have_attribute("aria-invalid", "true")
    expect(op.locator("#f-max")).to_be_focused()
    expect(limits_error).to_have_text(f"Maximum: {refusal_text(op, bad.json())}")
    op.locator("#fortune-form").screenshot(path=str(site.artifacts / "37-console-fortune-refused-390.png"))

    # Saved at last: the form's error goes.
    op.fill("#lim-max", "500")
    op.click("#limits-save")
    expect(op.locator("#limits-saved")).to_have_text("Saved: takes effect from the next round.")
    expect(limits_error).to_have_text("")
    assert serious_violations(op) == []
    assert site.unlabelled(op) == []
    assert site.errors == []


def test_the_console_lists_home_games_with_their_host_and_closes_one(site: Any, wire: Any) -> None:
    """Issue 30, defect 13: an open home game (two seated) is in the console's tables list, marked as a home
    game with its host, after a reload too, and the operator closes it from there; the pay table shows by its
    name, not its id. The public lobby never lists it."""
    host = httpx.post(f"{site.url}/api/accounts", timeout=10, json={
        "username": f"ophost{int(time.time() * 1000) % 10**8}", "password": "felt-marker-dice-7731",
        "display_name": "Hana"}).json()
    name = "Hana's Friday night game with the family"  # 40 characters, the most a name may have
    made = httpx.post(f"{site.url}/api/home/tables", headers={"Authorization": f"Bearer {host['token']}"},
                      timeout=10, json={"chips": AUTO_CHIPS, "name": name}).json()
    table = made["table_id"]
    wire(table, "Hana", token=host["token"]).command("sit", seat=1, buy_in_cents=10_000)
    wire(table, "Theo", invite=made["invite"]["code"]).command("sit", seat=2, buy_in_cents=10_000)
    public = httpx.get(f"{site.url}/api/tables", timeout=10).json()["tables"]
    assert table not in [t["table_id"] for t in public]  # private: never in the public list

    op = console(site)
    row = op.locator(f"#tables tr[data-table='{table}']")
    expect(row).to_have_attribute("data-home", "1")
    expect(row.locator(".home-tag")).to_have_text("Home game · host Hana")
    expect(row.locator("[data-label='Seats']")).to_have_text("2/6")
    expect(row.locator("[data-fortune]")).to_contain_text("8,000-to-1 pay table")
    expect(op.locator("#tables")).not_to_contain_text("fortune-8000")
    assert row.locator("a").first.get_attribute("href") == f"{made['invite']['url']}&watch=1"
    op.reload()
    expect(op.locator("#console[data-ready='true']")).to_be_visible()
    expect(row.locator(".home-tag")).to_have_text("Home game · host Hana")
    shots(site, op, "37-console-home-game", ("#tables-panel",))
    op.set_viewport_size({"width": 360, "height": 740})
    no_sideways_overflow(op)
    op.locator("#tables-panel").screenshot(
        path=str(site.artifacts / "37-console-home-game-360x740-tables-panel.png"))
    op.set_viewport_size({"width": 1366, "height": 768})

    lobby = site.player("Lena")  # the lobby's list: public tables only
    public_table = site.open_table("Open Jade")
    expect(lobby.locator(f".table-card[data-table='{public_table}']")).to_be_visible()
    expect(lobby.locator(f".table-card[data-table='{table}']")).to_have_count(0)

    row.locator("[data-action='close']").click()
    expect(row).to_have_count(0)  # closed (no round in play): an open home game no more
    view = httpx.get(f"{site.url}/api/operator/tables/{table}", headers=site.headers, timeout=10).json()
    assert view["view"]["phase"] == "closed"
    assert site.unlabelled(op) == []
    assert site.errors == []


def test_a_reason_typed_as_one_long_word_wraps_inside_the_ledger(site: Any) -> None:
    """A value with no space in it (a reason, an id) breaks inside its cell, on a phone and a laptop: no
    table, panel, or so the page, grows past the screen (a full test run's ledger made the 360 px console
    362 px wide, and the ledger's box 1,180 px in a 1,128 px panel at 1366 px)."""
    player = httpx.post(f"{site.url}/api/session", json={"display_name": "Wordy"}, timeout=10).json()
    reason = "credit_for_a_reason_the_operator_typed_as_one_long_word_and_then_some_more_of_it_again"
    res = httpx.post(f"{site.url}/api/operator/players/{player['player_id']}/credit", headers=site.headers,
                     timeout=10, json={"amount_cents": 100, "reason": reason})
    assert res.status_code == 200, res.text
    op = console(site, 360, 740)
    expect(op.locator("#ledger-panel")).to_contain_text(reason)
    no_sideways_overflow(op)
    op.set_viewport_size({"width": 1366, "height": 768})
    no_sideways_overflow(op)

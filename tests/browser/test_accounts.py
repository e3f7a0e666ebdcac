"""Player accounts and named operators in Chromium, on a real ``paigow serve``: sign up, sign out and sign in
on another device (a fresh browser context) with the same balance; a guest keeps the account, keeps the
seat, and signs in elsewhere; a wrong password and the backoff, said next to the field, which never holds back
the owner's own browser (its device token); a refused password's reason; the
per-address limit; sign out everywhere ends the other device's table page (WebSocket 4401); a session that
lapsed while unused; an operator signed in by name is the actor in the audit log, and the bootstrap
token's Operators panel. Screenshots of every lobby state at phone, laptop and desktop sizes."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
SIZES = {"phone": (390, 844), "laptop": (1366, 768), "desktop": (1920, 1080)}
OPERATOR = {"Authorization": "Bearer browser-operator-token-0123456789"}


REFUSAL_JS = """async ([code, waits]) => {
  const { errorText } = await import('/js/errors.js');
  return waits.map((w) => errorText(code, w === null ? {} : { retry_after_s: w }));
}"""


def refusal(page: Page, code: str, waits: list[int | None]) -> re.Pattern[str]:
    """The page's sentence for a refusal (errors.js, from its code; the wait it may carry one of `waits`):
    never the server's English message."""
    texts: list[str] = page.evaluate(REFUSAL_JS, [code, waits])
    return re.compile("^(" + "|".join(re.escape(t.strip()) for t in set(texts)) + ")$")


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:6]}"


def shots(site: Any, page: Page, name: str) -> None:
    """``name``-phone/-laptop/-desktop.png of what the page shows now; none of them may scroll sideways."""
    before = page.viewport_size
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (name, label)
        site.shot(page, f"{name}-{label}", full_page=label == "phone")
    if before is not None:
        page.set_viewport_size(before)


def stored_session(page: Page) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate("JSON.parse(localStorage.getItem('paigow.session'))")
    return found


def api_sign_up(site: Any, username: str, display_name: str | None = None) -> dict[str, Any]:
    body = {"username": username, "password": PASSWORD}
    if display_name is not None:
        body["display_name"] = display_name
    res = httpx.post(f"{site.url}/api/accounts", json=body, timeout=10)
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    return data


def credit(site: Any, player_id: str, cents: int) -> None:
    res = httpx.post(f"{site.url}/api/operator/players/{player_id}/credit", headers=OPERATOR, timeout=10,
                     json={"amount_cents": cents, "reason": "browser test"})
    assert res.status_code == 200, res.text


def choose_tab(page: Page, tab: str) -> None:
    page.click(f"#tab-{tab}")
    expect(page.locator(f"#tab-{tab}")).to_have_attribute("aria-selected", "true")


def sign_up(site: Any, username: str, **size: int) -> Page:
    """A new browser context whose player created the account ``username`` in the lobby."""
    page: Page = site.page(**size)
    page.goto(f"{site.url}/")
    choose_tab(page, "signup")
    page.fill("#signup-username", username)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-submit")
    expect(page.locator("#signed-in")).to_be_visible()
    return page


def sign_in(page: Page, username: str, password: str = PASSWORD) -> None:
    choose_tab(page, "signin")
    page.fill("#signin-username", username)
    page.fill("#signin-password", password)
    page.click("#signin-submit")


def test_sign_up_sign_out_and_sign_in_on_another_device(site: Any) -> None:
    username = unique("ann")
    ann = site.page()
    ann.goto(f"{site.url}/")
    expect(ann.locator("#name-form")).to_be_visible()  # a guest can still play at once: the first choice
    expect(ann.locator("#money-hint")).to_contain_text("balance is your account’s money")
    expect(ann.locator("#money-hint")).to_contain_text("Chips are what you bring to a table")
    shots(site, ann, "30-lobby-guest")
    # The segmented control by keyboard: arrows move between the three choices.
    ann.focus("#tab-guest")
    ann.keyboard.press("ArrowRight")
    expect(ann.locator("#tab-signin")).to_be_focused()
    expect(ann.locator("#signin-form")).to_be_visible()
    expect(ann.locator("#signin-password")).to_have_attribute("autocomplete", "current-password")
    expect(ann.locator("#signin-username")).to_have_attribute("autocomplete", "username")
    shots(site, ann, "31-lobby-sign-in")
    ann.keyboard.press("ArrowRight")
    expect(ann.locator("#tab-signup")).to_be_focused()
    expect(ann.locator("#signup-form")).to_be_visible()
    expect(ann.locator("#name-form")).to_be_hidden()
    expect(ann.locator("#signup-password")).to_have_attribute("autocomplete", "new-password")
    assert site.unlabelled(ann) == []
    shots(site, ann, "32-lobby-sign-up")

    # The client's own checks, in the words the server's codes get, next to their fields.
    # Every problem is shown at once, and the first field with one has the focus.
    ann.fill("#signup-username", "no spaces allowed")
    ann.fill("#signup-password", "short")
    ann.press("#signup-username", "Enter")
    expect(ann.locator("#signup-username-error")).to_contain_text("3–24 characters")
    expect(ann.locator("#signup-username")).to_have_attribute("aria-invalid", "true")
    expect(ann.locator("#signup-password-error")).to_contain_text("8–128 characters")
    expect(ann.locator("#signup-password")).to_have_attribute("aria-invalid", "true")
    expect(ann.locator("#signup-username")).to_be_focused()
    ann.fill("#signup-username", username)
    ann.fill("#signup-password", "short")
    ann.press("#signup-password", "Enter")
    expect(ann.locator("#signup-password-error")).to_contain_text("8–128 characters")
    expect(ann.locator("#signup-username-error")).to_be_empty()
    ann.fill("#signup-password", PASSWORD)
    ann.fill("#signup-display", "Ann")
    ann.press("#signup-display", "Enter")  # Enter submits: keyboard all the way
    expect(ann.locator("#signed-in")).to_be_visible()
    expect(ann.locator("#who-line")).to_contain_text(f"Playing as Ann (signed in as {username})")
    expect(ann.locator("#balance")).to_have_text("$1,000.00")
    session = stored_session(ann)
    assert session is not None
    assert session["registered"] is True
    assert session["username"] == username
    shots(site, ann, "33-lobby-signed-in")

    # The same username again, on the server: USERNAME_TAKEN next to the username.
    other = site.page()
    other.goto(f"{site.url}/")
    choose_tab(other, "signup")
    other.fill("#signup-username", username.upper())  # usernames are case-folded: ANN_… is ann_…
    other.fill("#signup-password", PASSWORD)
    other.click("#signup-submit")
    expect(other.locator("#signup-username-error")).to_have_text("That username is taken: choose another.")
    shots(site, other, "34-lobby-username-taken")

    credit(site, session["player_id"], 1234)  # a balance no other player has
    ann.reload()
    expect(ann.locator("#balance")).to_have_text("$1,012.34")

    token = session["token"]
    ann.click("#sign-out")
    expect(ann.locator("#session-ended")).to_have_text("Signed out.")
    expect(ann.locator("#signin-form")).to_be_visible()
    expect(ann.locator("#signin-username")).to_have_value(username)
    assert stored_session(ann) is None
    gone = httpx.get(f"{site.url}/api/session", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert gone.status_code == 401, gone.text
    assert gone.json()["error"] == "UNKNOWN_SESSION"

    # Another device: a fresh browser context, the same player and balance.
    phone = site.page(width=390, height=844)
    phone.goto(f"{site.url}/")
    sign_in(phone, username.capitalize())
    expect(phone.locator("#balance")).to_have_text("$1,012.34")
    expect(phone.locator("#who-line")).to_contain_text("Playing as Ann")
    again = stored_session(phone)
    assert again is not None
    assert again["player_id"] == session["player_id"]
    assert again["token"] != token
    assert site.errors == []


def test_a_guest_keeps_the_account_and_signs_in_elsewhere(site: Any) -> None:
    table = site.open_table("Keepers Lounge", betting_ms=120_000)
    username = unique("gina")
    gina = site.player("Gina")
    expect(gina.locator("#who-line")).to_contain_text("guest")
    expect(gina.locator("#sign-out-everywhere")).to_have_count(0)
    shots(site, gina, "35-lobby-guest-signed-in")
    guest = stored_session(gina)
    assert guest is not None
    assert guest["registered"] is False
    gina.goto(f"{site.url}/table/?id={table}")
    gina.click("[data-seat='3']")
    gina.fill("#buy-in", "150")
    gina.click("#sit-confirm")
    expect(gina.locator(".pos[data-position='3'].me")).to_be_visible()

    gina.goto(f"{site.url}/")
    expect(gina.locator("#balance")).to_have_text("$850.00")
    gina.click("#keep-open")
    expect(gina.locator("#keep-username")).to_be_focused()
    expect(gina.locator("#keep-password")).to_have_attribute("autocomplete", "new-password")
    shots(site, gina, "36-lobby-keep-guest")
    gina.fill("#keep-username", username)
    gina.fill("#keep-password", PASSWORD)
    gina.click("#keep-submit")
    expect(gina.locator("#session-ended")).to_contain_text(f"Account kept: sign in as {username}")
    expect(gina.locator("#who-line")).to_contain_text(f"(signed in as {username})")
    expect(gina.locator("#keep-form")).to_be_hidden()
    kept = stored_session(gina)
    assert kept is not None
    assert (kept["player_id"], kept["token"]) == (guest["player_id"], guest["token"])  # the same player
    assert kept["registered"] is True
    expect(gina.locator("#balance")).to_have_text("$850.00")

    # Elsewhere: the same player, balance and seat.
    laptop = site.page()
    laptop.goto(f"{site.url}/")
    sign_in(laptop, username)
    expect(laptop.locator("#balance")).to_have_text("$850.00")
    laptop.goto(f"{site.url}/table/?id={table}")
    expect(laptop.locator(".pos[data-position='3'].me")).to_be_visible()
    expect(laptop.locator(".pos[data-position='3'] .chips")).to_have_text("$150.00")

    assert site.errors == []


def test_wrong_passwords_back_off_never_lock_the_owners_device_and_the_operator_unlocks(site: Any) -> None:
    username = unique("bob")
    desk = sign_up(site, username)  # the owner's browser: it keeps the account's device token
    desk.click("#sign-out")
    expect(desk.locator("#signin-form")).to_be_visible()
    page = site.page()  # a stranger's browser, trying the owner's username
    page.goto(f"{site.url}/")
    sign_in(page, username, "not the password")
    error = page.locator("#signin-password-error")
    # The refusal's words (never which of the two was wrong), in the page's language.
    expect(error).to_have_text(refusal(page, "BAD_CREDENTIALS", [None, 1]))
    expect(page.locator("#signin-password")).to_have_attribute("aria-invalid", "true")

    # At once again: the server answers 429, and the page says how long and holds the button.
    page.click("#signin-submit")
    expect(error).to_have_text("Too many attempts: try again in 1 s.")
    expect(page.locator("#signin-submit")).to_be_disabled()
    shots(site, page, "38-lobby-backoff")
    expect(page.locator("#signin-submit")).to_be_enabled(timeout=5_000)
    page.click("#signin-submit")  # the second failure
    expect(error).to_have_text(refusal(page, "BAD_CREDENTIALS", [None, 2]))
    started = time.monotonic()
    shots(site, page, "37-lobby-wrong-password")
    page.wait_for_timeout(max(0, 2_300 - (time.monotonic() - started) * 1000))  # its wait: two seconds
    page.click("#signin-submit")  # the third: no lock, a longer wait
    expect(error).to_have_text(refusal(page, "BAD_CREDENTIALS", [None, 4]))
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-submit")  # even the right password waits, on the stranger's device
    expect(error).to_have_text(re.compile(r"^Too many attempts: try again in [1-4] s\.$"))
    res = httpx.post(f"{site.url}/api/session/sign-in", json={"username": username, "password": PASSWORD},
                     timeout=10)
    assert (res.status_code, res.json()["error"]) == (429, "SIGN_IN_BACKOFF"), res.text
    shots(site, page, "39-lobby-backoff-longer")

    # The owner's browser, on the same network, signs in at once: its device token is not held back.
    sign_in(desk, username)
    expect(desk.locator("#who-line")).to_contain_text(f"signed in as {username}")
    assert "paigow_device" not in desk.evaluate("document.cookie")  # HttpOnly: no script reads it

    # The operator resets the account's counters from the console; the stranger's browser may try again.
    op = site.page()
    op.goto(f"{site.url}/operator")
    op.fill("#op-token", "browser-operator-token-0123456789")
    op.click("#login-form button[type=submit]")
    player_id = desk.evaluate("JSON.parse(localStorage.getItem('paigow.session')).player_id")
    op.fill("#player-search", player_id)
    op.locator(f"#player-results [data-player='{player_id}']").click()
    op.click("#unlock")
    expect(op.locator("#money-result")).to_contain_text("can sign in again")
    expect(page.locator("#signin-submit")).to_be_enabled(timeout=5_000)
    page.click("#signin-submit")
    expect(page.locator("#who-line")).to_contain_text(f"signed in as {username}")
    assert site.errors == []


def test_sign_up_says_why_a_password_is_refused(site: Any) -> None:
    page = site.page(width=390, height=844)
    page.goto(f"{site.url}/")
    choose_tab(page, "signup")
    page.fill("#signup-username", unique("pam"))
    page.fill("#signup-password", "password")
    page.click("#signup-submit")
    error = page.locator("#signup-password-error")
    expect(error).to_have_text(refusal(page, "INVALID_PASSWORD", [None]))
    expect(page.locator("#signup-password")).to_have_attribute("aria-invalid", "true")
    shots(site, page, "36-lobby-common-password")
    page.fill("#signup-password", page.input_value("#signup-username"))
    page.click("#signup-submit")
    expect(error).to_have_text(refusal(page, "INVALID_PASSWORD", [None]))
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-display", "The Dealer")
    page.click("#signup-submit")
    expect(page.locator("#signup-display-error")).to_have_text(refusal(page, "INVALID_NAME", [None]))
    assert site.errors == []


def test_sign_out_everywhere_ends_the_table_page_on_another_device(site: Any) -> None:
    table = site.open_table("Two Devices", betting_ms=120_000)
    username = unique("cyd")
    desk = sign_up(site, username)
    expect(desk.locator("#sign-out-everywhere")).to_be_visible()

    phone = site.page(width=390, height=844)
    phone.goto(f"{site.url}/")
    sign_in(phone, username)
    expect(phone.locator("#signed-in")).to_be_visible()
    phone.goto(f"{site.url}/table/?id={table}")
    phone.click("[data-seat='5']")
    phone.click("#sit-confirm")
    expect(phone.locator(".pos[data-position='5'].me")).to_be_visible()
    phone.evaluate("window.__samePage = true")

    desk.click("#sign-out-everywhere")
    expect(desk.locator("#session-ended")).to_have_text("Signed out on every device.")
    banner = phone.locator("#session-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Your session has ended: sign in again.")
    expect(phone.locator("#conn-banner")).to_be_hidden()
    assert stored_session(phone) is None
    phone.wait_for_timeout(1_500)  # no reload, no reconnection loop
    assert phone.evaluate("window.__samePage") is True
    assert phone.evaluate("window.paigow.socket.stopped") is True
    expect(phone.locator("#session-lobby")).to_be_focused()
    site.shot(phone, "40-table-session-ended-phone")

    phone.click("#session-lobby")
    expect(phone.locator("#session-ended")).to_have_text("Your session has ended: sign in again.")
    expect(phone.locator("#signin-form")).to_be_visible()
    expect(phone.locator("#signin-username")).to_have_value(username)
    site.shot(phone, "41-lobby-after-session-ended-phone", full_page=True)
    phone.reload()  # said once, not on every visit
    expect(phone.locator("#session-ended")).to_be_hidden()
    assert [e for e in site.errors if "WebSocket" not in e] == []


def test_a_session_unused_too_long_ends_with_the_message(make_site: Callable[[dict[str, str]], Any]) -> None:
    site = make_site({"PAIGOW_SESSION_IDLE_DAYS": "0.00004"})  # about 3.5 seconds
    table = site.open_table("Short Memory")
    username = unique("dee")
    member = sign_up(site, username)
    guest = site.player("Eve")
    time.sleep(5)

    member.reload()
    expect(member.locator("#session-ended")).to_have_text("Your session has ended: sign in again.")
    expect(member.locator("#signin-username")).to_have_value(username)
    assert stored_session(member) is None
    shots(site, member, "42-lobby-session-expired")

    guest.goto(f"{site.url}/table/?id={table}")
    guest_words = "Your session has ended: start a new guest session."
    expect(guest.locator("#session-banner")).to_contain_text(guest_words)
    assert stored_session(guest) is None
    guest.click("#session-lobby")
    expect(guest.locator("#session-ended")).to_have_text(guest_words)
    expect(guest.locator("#name-form")).to_be_visible()
    expect(guest.locator("#display-name")).to_have_value("Eve")
    assert [e for e in site.errors if "WebSocket" not in e] == []


def test_too_many_new_sessions_from_one_address(make_site: Callable[[dict[str, str]], Any]) -> None:
    site = make_site({"PAIGOW_SESSIONS_PER_MINUTE": "2"})
    for name in ("One", "Two"):
        res = httpx.post(f"{site.url}/api/session", json={"display_name": name}, timeout=10)
        assert res.status_code == 201, res.text
    page = site.page()
    page.goto(f"{site.url}/")
    page.fill("#display-name", "Three")
    page.click("#name-submit")
    expect(page.locator("#guest-error")).to_have_text(refusal(page, "RATE_LIMITED", [None, *range(1, 61)]))
    expect(page.locator("#name-submit")).to_be_disabled()
    shots(site, page, "43-lobby-rate-limited")
    assert site.errors == []


def test_an_operator_signed_in_by_name_is_the_actor(site: Any) -> None:
    table = site.open_table("Audit Trail")
    boot = site.page()
    boot.goto(f"{site.url}/operator")
    expect(boot.locator("#op-username")).to_have_attribute("autocomplete", "username")
    expect(boot.locator("#op-password")).to_have_attribute("autocomplete", "current-password")
    expect(boot.locator("#advanced-title")).to_have_text("Advanced: bootstrap token")
    shots(site, boot, "44-operator-sign-in")
    # The bootstrap token's Operators panel: create one, disable and enable it.
    boot.fill("#op-token", "browser-operator-token-0123456789")
    boot.click("#login-form button[type=submit]")
    expect(boot.locator("#op-who")).to_have_text("Bootstrap token")
    name = unique("olga")
    boot.fill("#new-op-username", name)
    boot.fill("#new-op-password", PASSWORD)
    boot.click("#create-operator")
    expect(boot.locator("#operator-result")).to_contain_text(f"Operator {name} created")
    row = boot.locator(f"#operators tr[data-operator='{name}']")
    expect(row).to_contain_text("enabled")
    expect(row).to_contain_text("never")
    row.locator("[data-action='disable']").click()
    expect(row).to_contain_text("disabled")
    row.locator("[data-action='enable']").click()
    expect(row).to_contain_text("enabled")
    assert site.unlabelled(boot) == []

    # A second operator, made through the API with the bootstrap token, signs in by name.
    olaf = unique("olaf")
    res = httpx.post(f"{site.url}/api/operator/operators", headers=OPERATOR, timeout=10,
                     json={"username": olaf, "password": PASSWORD})
    assert res.status_code == 201, res.text
    op = site.page()
    op.goto(f"{site.url}/operator")
    op.fill("#op-username", olaf)
    op.fill("#op-password", "wrong password")
    op.click("#op-signin")
    # The refusal worded from its code in the page's language, the code beside it; never the server's English.
    expect(op.locator("#op-signin-error")).to_contain_text("BAD_CREDENTIALS")
    expect(op.locator("#op-signin-error")).not_to_contain_text("Wrong username or password; try again")
    shots(site, op, "45-operator-wrong-password")
    op.wait_for_timeout(1_300)  # the backoff after one failure
    op.fill("#op-password", PASSWORD)
    op.click("#op-signin")
    expect(op.locator("#op-who")).to_have_text(f"Signed in as {olaf}")
    expect(op.locator("#operator-form")).to_be_hidden()  # only the bootstrap token creates operators
    expect(op.locator(f"#operators tr[data-operator='{olaf}']")).to_contain_text("you")
    stored = op.evaluate("JSON.parse(sessionStorage.getItem('paigow.operator'))")
    assert stored["kind"] == "session"
    assert stored["username"] == olaf
    op.locator(f"#tables tr[data-table='{table}'] [data-action='pause']").click()
    audit = op.locator("#audit tbody tr[data-action='pause_table']").filter(has_text=table)
    expect(audit.first.locator("td.actor")).to_have_text(olaf)
    expect(op.locator("#audit tbody tr").filter(has_text="bootstrap").first).to_be_visible()
    op.reload()  # the session token is kept for the tab
    expect(op.locator("#op-who")).to_have_text(f"Signed in as {olaf}")
    site.shot(op, "46-operator-signed-in-by-name", full_page=True)

    op.click("#sign-out")
    expect(op.locator("#login-notice")).to_have_text("Signed out.")
    expect(op.locator("#console")).to_be_hidden()
    gone = httpx.get(f"{site.url}/api/operator/money", headers={"Authorization": f"Bearer {stored['token']}"},
                     timeout=10)
    assert gone.status_code == 401, gone.text
    assert site.errors == []

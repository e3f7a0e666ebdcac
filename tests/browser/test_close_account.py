"""The lobby's "Close account" (docs/http-api.md, "Closing your account") in Chromium: beside "Download my
data", a dialog that says what closing does, asks a registered account's password and the typed word, its
button off until the word is typed; a wrong password is said in the dialog and changes nothing; closing
signs the page out with its message, and the username can no longer sign in. A guest's dialog asks no
password. Screenshots: test-artifacts/browser/close-account-*.png."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Site
from tests.browser.test_accounts import PASSWORD, sign_up

pytestmark = pytest.mark.browser


def test_closing_an_account_in_the_lobby(site: Site) -> None:
    page = sign_up(site, "cora_closes", width=390, height=844)
    button = page.locator(".name-panel #close-account")
    expect(button).to_have_text("Close account")
    site.shot(page, "close-account-button-390x844")
    button.click()
    dialog = page.locator("#close-account-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#close-account-text")).to_contain_text("This cannot be undone.")
    expect(page.locator("#close-password")).to_be_focused()
    ok = page.locator("#close-account-ok")
    expect(ok).to_be_disabled()
    page.fill("#close-password", "not-my-password-1")
    page.fill("#close-confirm", "close")
    expect(ok).to_be_enabled()
    site.shot(page, "close-account-390x844")
    ok.click()
    # The dialog asked for no username: the refusal says the password was not right (not the sign-in's
    # "username and password"), and the button waits out the sign-in's backoff before the next try.
    expect(page.locator("#close-account-error")).to_have_text(
        "That is not this account's password: check it and try again.")
    expect(ok).to_be_disabled()
    expect(dialog).to_be_visible()
    session = page.evaluate("JSON.parse(localStorage.getItem('paigow.session'))")
    alive = httpx.get(f"{site.url}/api/session", headers={"Authorization": f"Bearer {session['token']}"})
    assert alive.status_code == 200, "a wrong password changed nothing"

    page.fill("#close-password", PASSWORD)
    expect(ok).to_be_enabled()  # the sign-in backoff the wrong password started is over
    ok.click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#signed-out")).to_be_visible()
    expect(page.locator("#session-ended")).to_have_text(
        "Your account is closed and you are signed out. Thank you for playing.")
    assert page.evaluate("localStorage.getItem('paigow.session')") is None
    gone = httpx.get(f"{site.url}/api/session", headers={"Authorization": f"Bearer {session['token']}"})
    assert gone.status_code == 401
    again = httpx.post(f"{site.url}/api/session/sign-in",
                       json={"username": "cora_closes", "password": PASSWORD})
    assert again.status_code == 401

    guest = site.player("Gus", width=1366, height=768)
    guest.locator(".name-panel #close-account").click()
    expect(guest.locator("#close-password-row")).to_be_hidden()
    expect(guest.locator("#close-confirm")).to_be_focused()
    guest.fill("#close-confirm", "CLOSE")
    site.shot(guest, "close-account-1366x768")
    guest.locator("#close-account-ok").click()
    expect(guest.locator("#signed-out")).to_be_visible()
    assert site.errors == []

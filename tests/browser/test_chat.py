"""The table chat in Chromium: a seated player (on a laptop) and a spectator (on a phone, watching) chat with
typed text and quick emotes; text is shown as typed, never as HTML; each line names its sender and role;
unread messages are counted on the Chat button while the panel is hidden; the operator's deletion
disappears for both at once; a late joiner reads what was said; players-only mode closes the spectator's
line. The operator works from the console: deletes a message, mutes and unmutes the spectator, sets the
chat to players only (each in the audit log). Screenshots of each step at 390x844, 1366x768 and 1920x1080
go to test-artifacts/browser/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
WIDE = {"width": 1920, "height": 1080}
VIEWPORTS = {"390x844": PHONE, "1366x768": LAPTOP, "1920x1080": WIDE}


def lines(page: Page) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.eval_on_selector_all(
        "#chat-log .chat-line", """els => els.map((e) => ({name: e.querySelector('.chat-name').textContent,
            role: e.querySelector('.chat-role').textContent, text: e.querySelector('.chat-text').textContent,
            html: e.querySelector('.chat-text').innerHTML}))""")
    return found


def clear_of_chat(page: Page, selector: str) -> bool:
    """The element lies wholly outside the chat panel (neither covers the other)."""
    chat, other = page.locator("#chat-panel").bounding_box(), page.locator(selector).bounding_box()
    assert chat is not None
    assert other is not None
    return (other["y"] >= chat["y"] + chat["height"] or other["y"] + other["height"] <= chat["y"]
            or other["x"] >= chat["x"] + chat["width"] or other["x"] + other["width"] <= chat["x"])


def resize(page: Page, size: Any) -> None:
    """The viewport at ``size``, once the page has seen it: the media query that docks the chat reports its
    change (and the panel opens or closes) at the next rendering step, before its animation frames."""
    page.set_viewport_size(size)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def shots(site: Any, page: Page, name: str, *, open_chat: bool = True) -> None:
    """The page at each of the three sizes (the chat opened where it is a sheet), then back as it was."""
    before, was_open = page.viewport_size, page.locator("#chat-panel").is_visible()
    for label, size in VIEWPORTS.items():
        resize(page, size)
        if open_chat and not page.locator("#chat-panel").is_visible():
            page.click("#chat-btn")
        expect(page.locator("#chat-panel")).to_be_visible(visible=open_chat)
        site.shot(page, f"chat-{name}-{label}")
    assert before is not None
    resize(page, before)
    if page.locator("#chat-panel").is_visible() != was_open:
        page.click("#chat-btn")


def test_a_player_and_a_spectator_chat(site: Any) -> None:
    table = site.open_table("Chat Room", bank_offer_ms=30_000, betting_ms=120_000, setting_ms=90_000)
    alice = site.player("Alice", **LAPTOP)
    bob = site.player("Bob", **PHONE)
    alice.goto(f"{site.url}/table/?id={table}")
    bob.goto(f"{site.url}/table/?id={table}&watch=1")
    alice.click("[data-seat='1']")
    alice.fill("#buy-in", "200")
    alice.click("#sit-confirm")
    expect(alice.locator(".pos[data-position='1'].me")).to_be_visible()
    expect(bob.locator("[data-panel='spectator']")).to_be_visible()

    # At 1366 and on a phone the chat waits behind the Chat button (it is docked beside the table from 1600
    # px wide: below that the table and its controls need the whole width); opened, it covers no control.
    expect(alice.locator("#chat-panel")).to_be_hidden()
    alice.click("#chat-btn")
    expect(alice.locator("#chat-panel")).to_be_visible()
    assert clear_of_chat(alice, "#tray")
    expect(alice.locator("#chat-log")).to_contain_text("No messages yet")
    expect(bob.locator("#chat-panel")).to_be_hidden()
    expect(bob.locator("[data-panel='spectator']")).to_be_in_viewport()
    site.shot(bob, "chat-01-phone-closed-390x844")
    bob.click("#chat-btn")
    expect(bob.locator("#chat-panel")).to_be_visible()
    expect(bob.locator("#chat-btn")).to_have_attribute("aria-expanded", "true")
    assert clear_of_chat(bob, "#tray")  # the open sheet lies over the felt, not over the controls

    # Typed text, sent with Enter, arrives as text: the markup is shown, not run.
    alice.fill("#chat-input", "Hi <b>Bob</b>, welcome!")
    alice.press("#chat-input", "Enter")
    expect(bob.locator("#chat-log .chat-line")).to_have_count(1)
    assert lines(bob) == [{"name": "Alice", "role": "player", "text": "Hi <b>Bob</b>, welcome!",
                           "html": "Hi &lt;b&gt;Bob&lt;/b&gt;, welcome!"}]
    expect(alice.locator("#chat-input")).to_have_value("")
    # A tap on a quick emote on the phone.
    bob.click("[data-emote='good_luck']")
    expect(alice.locator("#chat-log .chat-line")).to_have_count(2)
    assert [(x["name"], x["role"], x["text"]) for x in lines(alice)] == [
        ("Alice", "player", "Hi <b>Bob</b>, welcome!"), ("Bob", "spectator", "Good luck!")]
    bob.fill("#chat-input", "Thanks, I am only watching")
    bob.click("#chat-send")
    expect(alice.locator("#chat-log")).to_contain_text("Thanks, I am only watching")
    shots(site, alice, "02-player")
    shots(site, bob, "02-spectator")

    # While the panel is hidden, new messages are counted on the button.
    bob.click("#chat-hide")
    expect(bob.locator("#chat-panel")).to_be_hidden()
    # The screenshots at three sizes may have left the panel closed (it is docked only from 1600 px).
    if not alice.locator("#chat-panel").is_visible():
        alice.click("#chat-btn")
    alice.click("[data-emote='nice_hand']")
    expect(bob.locator("#chat-btn .chat-badge")).to_have_text("1")
    site.shot(bob, "chat-03-unread-390x844")
    bob.click("#chat-btn")
    expect(bob.locator("#chat-btn .chat-badge")).to_have_count(0)

    # The operator, in the console, deletes Alice's first message: it disappears on both pages at once.
    op = site.page(**LAPTOP)
    op.goto(f"{site.url}/operator")
    op.fill("#op-token", "browser-operator-token-0123456789")
    op.click("#login-form button[type=submit]")
    op.locator(f"#tables tr[data-table='{table}'] [data-action='manage']").click()
    messages = op.locator("#chat-messages tbody tr")
    expect(messages).to_have_count(4)
    expect(messages.first).to_contain_text("Nice hand!")  # newest first
    first = op.locator("#chat-messages tr", has_text="welcome")
    expect(first).to_contain_text("Hi <b>Bob</b>, welcome!")
    site.shot(op, "chat-04-console-1366x768")
    first.locator("[data-action='delete-message']").click()
    for page in (alice, bob):
        expect(page.locator("#chat-log .chat-line")).to_have_count(3)
        expect(page.locator("#chat-log")).not_to_contain_text("welcome")
    expect(messages).to_have_count(3)
    # Muting Bob at this table: his next message is refused with the reason, until he is unmuted.
    op.locator("[aria-label='Mute Bob']").first.click()
    expect(op.locator("#chat-muted")).to_contain_text("Unmute")
    bob.click("[data-emote='thanks']")
    expect(bob.locator("#chat-note")).to_have_text("An operator muted you at this table.")
    expect(bob.locator("#chat-input")).to_be_disabled()
    op.locator("#chat-muted [data-action='unmute']").click()
    expect(op.locator("#chat-muted")).to_contain_text("Nobody is muted")
    audit = op.locator("#audit tbody")
    for action in ("chat_delete", "chat_mute", "chat_unmute"):  # each worded, its code on its row
        expect(audit.locator(f"tr[data-action='{action}']").first).to_be_visible()

    # A late joiner reads what was said.
    carl = site.player("Carl", **WIDE)
    carl.goto(f"{site.url}/table/?id={table}")
    expect(carl.locator("#chat-log .chat-line")).to_have_count(3)
    assert [x["name"] for x in lines(carl)] == ["Bob", "Bob", "Alice"]
    site.shot(carl, "chat-05-late-joiner-1920x1080")

    # Players only, set in the console: the spectator's line closes, with the reason; the seated player
    # still chats.
    op.select_option("#chat-setting-select", "players_only")
    op.click("#chat-setting-save")
    expect(op.locator("#chat-admin-now")).to_have_text("Now: Seated players only")
    expect(bob.locator("#chat-input")).to_be_disabled()
    expect(bob.locator("#chat-note")).to_have_text("Only players seated at this table can chat here.")
    expect(bob.locator("#chat-log")).to_contain_text("for its seated players")
    expect(alice.locator("#chat-setting")).to_have_text("players only")
    alice.fill("#chat-input", "Just us now")
    alice.press("#chat-input", "Enter")
    expect(alice.locator("#chat-log")).to_contain_text("Just us now")
    shots(site, bob, "06-players-only-spectator")
    assert bob.locator("#chat-log .chat-line").count() == 0
    assert site.unlabelled(alice) == []
    assert site.unlabelled(bob) == []
    assert site.unlabelled(op) == []
    assert site.errors == []

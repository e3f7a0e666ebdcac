"""What the table says and offers follows the view (issue 20): the lobby's Sit before a name says why;
a spectator's screen reader is never told "you"; sitting out offers no bet and its sentence goes once you
sit in; Enter places the bet (it does not press the focused chip again) and an unplaced amount does not
carry into the next round; a seat's chips drop by its bet; the bank offer asks "Take the bank?", the last
round's result and its coach stay one tap away through the next round's offer and betting, and a modal
dialog shows a clock the player must act on (test_dialogs_stay.py); the dealer's wager against a
player-banker is labelled; no "dealt without you" warning while nobody has bet; Leave table asks first; a
removed player is
told and offered no seat, the others are told, and after the session ends no seat is offered; a removal
says who did it (the host, the table's operator, or neither for an event that does not say), and so does a
bar after a reload (from the server's `by`, nothing kept in the browser: the refused hello of a private
table, a public table's hello that tells of the bar, where no seat is ever offered), and no line
of a home game's round in which players withdraw, leave and are removed says "undefined" or "null"."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import Page, expect
from tests.browser.conftest import AUTO_CHIPS, Site
from tests.browser.test_home_games import (
    KEEP_ONLY_THE_SESSION_JS,
    PASSWORD,
    logged,
    open_host_dialog,
    sign_up,
)
from tests.browser.wire import Wire

pytestmark = pytest.mark.browser


SEAT_OFFERS_SEEN_JS = """window.__seatOffers = [];
const SEAT_OFFERS = '.sit-btn, #join-waitlist, #request-seat, #take-seat';
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType !== 1) continue;
    const found = n.matches(SEAT_OFFERS) ? [n] : [...n.querySelectorAll(SEAT_OFFERS)];
    window.__seatOffers.push(...found.map((b) => b.id || b.dataset.seat));
  }
}).observe(document, { childList: true, subtree: true });"""
"""Run before the page's own scripts: every button offering a seat the page ever draws is noted in
``window.__seatOffers``, however soon it goes again."""


def seated(site: Site, name: str, table: str, seat: int, **size: int) -> Page:
    page = site.player(name, **size)
    page.goto(f"{site.url}/table/?id={table}")
    sit_down(page, seat)
    return page


def sit_down(page: Page, seat: int) -> None:
    page.uncheck("#anim-toggle")
    page.click(f"[data-seat='{seat}']")
    page.fill("#buy-in", "200")
    page.click("#sit-confirm")
    expect(page.locator(f".pos[data-position='{seat}'].me")).to_be_visible()


def watcher(site: Site, table: str) -> Page:
    page = site.page()
    page.goto(f"{site.url}/table/?id={table}&watch=1")
    page.uncheck("#anim-toggle")
    page.wait_for_function("() => window.paigow?.ctx?.view")
    return page


def phase_is(page: Page, phase: str) -> None:
    page.wait_for_function("p => window.paigow.ctx.view?.phase === p", arg=phase)


def test_sit_before_a_name_says_why(site: Site) -> None:
    table = site.open_table("First Click")
    page = site.page(width=390, height=844)
    page.goto(f"{site.url}/")
    page.click(f"[data-table='{table}'] a.btn")
    expect(page.locator("#name-error")).to_have_text("Enter your display name first, then sit down.")
    expect(page.locator("#display-name")).to_be_focused()
    page.click("#name-submit")  # the form's own check lands on the same line
    expect(page.locator("#name-error")).to_have_text("Enter the name other players will see.")
    assert site.errors == []


def test_a_spectator_is_never_told_you_and_the_last_result_stays_through_the_offer(
        site: Site, wire: Wire) -> None:
    table = site.open_table("Spectator Words", bank_offer_ms=60_000, betting_ms=60_000, setting_ms=60_000,
                            between_rounds_ms=1_000)
    spectator = watcher(site, table)
    ann = seated(site, "Ann", table, 1, width=390, height=844)
    bo = wire(table, "Bo")
    bo.command("sit", seat=2, buy_in_cents=20_000)
    # Round 1, house-banked.
    ann.fill("#bet-amount", "10")
    ann.click("#place-bet")
    expect(ann.locator(".pos[data-position='1'] .bet-amount")).to_have_text("$10.00")
    expect(ann.locator(".pos[data-position='1'] .chips")).to_have_text("$190.00")  # the bet left the stack
    bo.command("place_bet", amount_cents=1_000)
    expect(ann.locator("[data-panel='setter']")).to_be_visible()
    bo.command("use_house_way")
    ann.click("#house-way")  # arranges the House Way's split; Done sends it
    ann.click("#done")
    said = spectator.locator("#announcer")
    expect(said).to_have_text(re.compile(r"^Round 1 settled\. The banker has .+ and .+\.$"))
    # Round 2: the marker reaches Ann, who played round 1: the offer asks, and round 1's result and its
    # coach are still there.
    expect(ann.locator("[data-panel='offer'] h2")).to_have_text("Take the bank?")
    expect(ann.locator("#last-round")).to_contain_text("Round 1: ")
    ann.click("#last-coach")
    expect(ann.locator("#coach-dialog")).to_be_visible()
    expect(ann.locator("#coach-dialog [data-dialog-clock]")).to_have_text(
        re.compile(r"Take the bank or decline: \d+ s left"))
    ann.click("#coach-close")
    ann.click("#accept-bank")
    phase_is(spectator, "betting")
    # The house dealer plays the player-banker, and its wager says so.
    expect(spectator.locator(".pos[data-position='0'] .bet-amount")).to_have_text(
        re.compile(r"^dealer's wager \$"))
    bo.command("place_bet", amount_cents=1_000)
    phase_is(spectator, "setting")
    bo.command("use_house_way")
    ann.click("#house-way")  # arranges the House Way's split; Done sends it
    ann.click("#done")
    expect(said).to_have_text(re.compile(r"^Round 2 settled\. The banker has .+ and .+\.$"))
    expect(ann.locator("#announcer")).to_contain_text(
        re.compile(r"Round 2 settled\. As banker you (win|lose) "))
    assert site.errors == []


def test_sitting_out_offers_no_bet_and_its_words_go_when_you_play(site: Site, wire: Wire) -> None:
    table = site.open_table("Sit Out Words", bank_offer_ms=60_000, betting_ms=60_000, setting_ms=60_000,
                            between_rounds_ms=1_000)
    me = seated(site, "Sid", table, 1)
    expect(me.locator("#place-bet")).to_be_visible()
    me.click("#sit-out")  # a bet sits a player in: sitting out, the bet is still offered, and says so
    expect(me.locator("#sit-out")).to_have_text("Sit in")
    expect(me.locator("#bet-info")).to_contain_text("you are sitting out: a bet sits you in")
    lou = wire(table, "Lou")
    lou.command("sit", seat=2, buy_in_cents=20_000)
    lou.command("place_bet", amount_cents=500)
    phase_is(me, "setting")
    lou.command("use_house_way")
    # Round 2: the marker reaches Sid, sitting out: he cannot bank; then he sits in and plays.
    expect(me.locator("#notice")).to_contain_text("You cannot bank this round: you are sitting out or away.")
    expect(me.locator("#announcer")).to_have_text("Betting is open: you are sitting out; a bet sits you in.")
    me.click("#sit-out")
    expect(me.locator("#sit-out")).to_have_text("Sit out")
    me.fill("#bet-amount", "10")
    me.click("#place-bet")
    expect(me.locator("#notice")).to_have_count(0)
    lou.command("place_bet", amount_cents=500)
    expect(me.locator("[data-panel='setter']")).to_be_visible()
    lou.command("use_house_way")
    me.click("#house-way")  # arranges the House Way's split; Done sends it
    me.click("#done")
    expect(me.locator("#my-result")).to_be_visible()
    expect(me.locator("[data-panel='summary']")).not_to_contain_text("sitting out")
    assert site.errors == []


def test_no_bet_is_offered_when_none_can_be_placed(site: Site) -> None:
    table = site.open_table("No Bet", betting_ms=60_000)
    me = seated(site, "Nob", table, 1)
    expect(me.locator("#announcer")).to_have_text("Betting is open: your turn to place a bet.")
    # An own limit below the table minimum: no bet can be placed (you.can.bet is null), and none is offered.
    me.fill("#own-limit", "1")
    me.click("#set-limit")
    expect(me.locator("#place-bet")).to_have_count(0)
    expect(me.locator("#no-bet")).to_have_text(
        "Your own maximum bet ($1.00) is below the table minimum of $5.00: you cannot bet.")
    assert site.errors == []


def test_enter_places_the_bet_and_an_unplaced_amount_does_not_carry(site: Site, wire: Wire) -> None:
    table = site.open_table("Enter Bets", betting_ms=60_000, setting_ms=60_000, between_rounds_ms=1_000)
    me = seated(site, "Ena", table, 2)
    lou = wire(table, "Lou")
    lou.command("sit", seat=1, buy_in_cents=20_000)
    me.click("#chip-2500")
    expect(me.locator("#chip-2500")).to_be_focused()
    me.keyboard.press("Enter")
    expect(me.locator(".pos[data-position='2'] .bet-amount")).to_have_text("$25.00")
    expect(me.locator("#bet-amount")).to_have_value("25.00")
    me.click("#chip-500")  # a draft of $30 never placed
    expect(me.locator("#bet-amount")).to_have_value("30.00")
    lou.command("place_bet", amount_cents=500)
    expect(me.locator("[data-panel='setter']")).to_be_visible()
    lou.command("use_house_way")
    me.click("#house-way")  # arranges the House Way's split; Done sends it
    me.click("#done")
    phase_is(me, "betting")
    expect(me.locator("#bet-amount")).to_have_value("0.00")
    assert site.errors == []


def test_no_dealt_without_you_warning_while_nobody_has_bet(site: Site, wire: Wire) -> None:
    table = site.open_table("Nobody Bets", betting_ms=11_000)
    me = seated(site, "Nob", table, 2)
    lou = wire(table, "Lou")
    lou.command("sit", seat=1, buy_in_cents=20_000)
    me.wait_for_function("() => Number(document.getElementById('countdown-text').textContent) <= 8")
    expect(me.locator("[data-panel='bet'] [data-warn]")).to_be_hidden()
    expect(me.locator("#countdown.urgent")).to_have_count(0)
    assert site.errors == []


def test_leave_table_asks_first(site: Site) -> None:
    table = site.open_table("Leave Asks")
    me = seated(site, "Lea", table, 3)
    me.click("#leave")
    expect(me.locator("#leave-question")).to_have_text("Leave the table? Your chips go back to your balance.")
    me.click("#leave-stay")
    expect(me.locator(".pos[data-position='3'].me")).to_be_visible()
    expect(me.locator("#leave")).to_be_focused()
    me.click("#leave")
    me.click("#leave-confirm")
    expect(me.locator(".pos[data-position='3'].me")).to_have_count(0)
    assert site.errors == []


def test_a_removed_player_is_told_and_offered_no_seat(site: Site) -> None:
    table = site.open_table("Removals")
    me = seated(site, "Kip", table, 4)
    others = watcher(site, table)
    player_id: str = me.evaluate("() => window.paigow.ctx.playerId")
    res = httpx.post(f"{site.url}/api/operator/tables/{table}/kick", headers=site.headers, timeout=10,
                     json={"player_id": player_id, "reason": "a test removes him", "bar_minutes": 60})
    assert res.status_code == 200, res.text
    until = me.evaluate("ms => new Date(ms).toLocaleString()", res.json()["barred_until_ms"])
    # The table's own words give a time as i18n.js dateTime does (Intl, the page's language).
    medium = ("ms => new Intl.DateTimeFormat('en-US', {dateStyle: 'medium', timeStyle: 'short'})"
              ".format(new Date(ms))")
    until_dt = me.evaluate(medium, res.json()["barred_until_ms"])
    expect(me.locator(".toast").filter(has_text="You were removed by the table's operator")).to_have_text(
        "You were removed by the table's operator; your chips went back to your balance. You are barred from "
        f"this table until {until}: you may keep watching, or play at another table.")
    expect(me.locator(".pos[data-position='4'].me")).to_have_count(0)
    expect(me.locator(".sit-btn")).to_have_count(0)
    expect(me.locator("#choose-seat")).to_have_text(
        f"The table's operator barred you from this table until {until_dt}: you may keep watching.")
    told = others.locator(".toast").filter(has_text="Kip was removed by the table's operator.")
    expect(told).to_have_count(1)
    # After a reload, with nothing kept but the session: the hello tells the page of the bar (who and until
    # when, from the server's `by` and `until_ms`), and no seat is offered, not even before the page knows.
    me.evaluate(KEEP_ONLY_THE_SESSION_JS)
    me.context.add_init_script(SEAT_OFFERS_SEEN_JS)
    me.reload()
    expect(me.locator("#choose-seat")).to_have_text(
        f"The table's operator barred you from this table until {until_dt}: you may keep watching.")
    expect(me.locator(".sit-btn")).to_have_count(0)
    assert me.evaluate("() => window.__seatOffers") == []
    assert site.errors == []


def test_an_operators_bar_at_a_home_game_says_the_operator_after_a_reload(site: Site) -> None:
    """An operator's kick with a bar at a private table is no host's removal: the kicked player is told so,
    and after a reload (nothing kept but the session) the table's refusal and the lobby's code form say the
    table's operator too: the words come from the BARRED answer's `by`."""
    username = f"host{int(time.time() * 1000) % 10**8}"
    host = httpx.post(f"{site.url}/api/accounts", timeout=10,
                      json={"username": username, "password": PASSWORD, "display_name": "Hana"}).json()
    made = httpx.post(f"{site.url}/api/home/tables", headers={"Authorization": f"Bearer {host['token']}"},
                      timeout=10, json={"chips": AUTO_CHIPS, "name": "Barred game"}).json()
    table, invite = made["table_id"], made["invite"]
    kit = site.player("Kit")
    kit.goto(f"{site.url}{invite['url']}")
    sit_down(kit, 2)
    player_id: str = kit.evaluate("() => window.paigow.ctx.playerId")
    res = httpx.post(f"{site.url}/api/operator/tables/{table}/kick", headers=site.headers, timeout=10,
                     json={"player_id": player_id, "reason": "a test bars him", "bar_minutes": 60})
    assert res.status_code == 200, res.text
    expect(kit.locator(".toast").filter(has_text="You were removed by the table's operator")).to_be_visible()
    kit.evaluate(KEEP_ONLY_THE_SESSION_JS)
    kit.reload()
    expect(kit.locator("#access-title")).to_have_text("The table's operator removed you from this table")
    expect(kit.locator("#access-text")).to_contain_text("You may not come back before")
    assert not BAD_WORDS.search(kit.locator("#access-page").inner_text())
    kit.goto(f"{site.url}/")
    kit.fill("#join-code", invite["short_code"])
    kit.click("#join-code-submit")
    expect(kit.locator("#join-code-error")).to_contain_text(
        "The table's operator removed you from this table")
    assert site.errors == []


def test_after_the_session_ends_no_seat_is_offered(site: Site) -> None:
    table = site.open_table("Session Ends")
    me = site.player("Ses")
    me.goto(f"{site.url}/table/?id={table}")
    expect(me.locator(".sit-btn")).to_have_count(6)
    status: int = me.evaluate("""async () => (await fetch('/api/session', { method: 'DELETE',
        headers: { Authorization: `Bearer ${window.paigow.ctx.session.token}` } })).status""")
    assert status in (200, 204)
    expect(me.locator("#session-banner")).to_be_visible()
    expect(me.locator(".sit-btn")).to_have_count(0)
    assert site.errors == []


REMOVAL_WORDS_JS = """async () => {
  const { describeEvents } = await import('/js/explain.js');
  const { describeHomeEvents } = await import('/js/home_words.js');
  const names = { p_kip: 'Kip' };
  const nameOf = (id) => names[id] ?? null;
  const home = { seats: [], marker: 1, home: { host_player_id: 'p_me', host_name: 'Me', muted: [] } };
  const open = { seats: [], marker: 1, home: null };
  const kicked = (by, id = 'p_kip') => ({ kind: 'player_kicked', player_id: id, seat: 2,
    chips_returned_cents: 500, barred_until_ms: null, by });
  const leaving = (by) => ({ kind: 'player_leaving', player_id: 'p_me', seat: 1, kicked: true,
    barred_until_ms: null, by });
  const words = (events, view) => describeEvents(events, view, 'p_me', nameOf)
    .map((l) => [l.text, l.mine]);
  return {
    others: words([kicked('host'), kicked('operator'), kicked(null), kicked('host', 'p_gone')], home),
    mine: words([kicked('host', 'p_me'), kicked('operator', 'p_me'), kicked(null, 'p_me')], home),
    leaving: words([leaving('host'), leaving('operator'), leaving(null)], open),
    withdrew: describeHomeEvents([{ kind: 'seat_request_cancelled', player_id: 'p_gone' }], home, 'p_me',
      nameOf).map((l) => l.text),
  };
}"""


def test_a_removal_says_who_removed_the_player(module_page: Page) -> None:
    """The events' `by`: "host" or "operator"; null in an event stored before it was told, and then the words
    name neither. A removed player the page never saw a name for is "A player", never "Seat undefined"."""
    said = module_page.evaluate(REMOVAL_WORDS_JS)
    assert said["others"] == [["Kip was removed by the host.", True],
                              ["Kip was removed by the table's operator.", True],
                              ["Kip was removed from the table.", True],
                              ["A player was removed by the host.", True]]
    back = "; your chips went back to your balance. You may keep watching, or sit down again."
    # The host's removal at a home game closes the player's connection, whose page says so: no second notice.
    assert said["mine"] == [[f"You were removed by the host{back}", False],
                            [f"You were removed by the table's operator{back}", True],
                            [f"You were removed from the table{back}", True]]
    assert [text for text, _ in said["leaving"]] == [
        "You will be removed by the host when this round ends.",
        "You will be removed by the table's operator when this round ends.",
        "You will be removed from the table when this round ends."]
    assert said["withdrew"] == ["A player withdrew the request to sit."]


BAD_WORDS = re.compile(r"\b(undefined|null|NaN)\b")


def test_no_line_of_a_home_round_says_undefined_or_null(site: Site, wire: Wire) -> None:
    """A home game's round in which one friend withdraws their request to sit, one leaves in the middle of
    the round and one is removed by the host: every line of the table's log (the History dialog's), for the
    host and for a spectator, names the player or "a player", never "undefined" or "null"."""
    host = site.page(width=390, height=844)
    sign_up(host, site, "Hana")
    token = host.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
    timers = dict.fromkeys(("bank_offer_ms", "betting_ms", "setting_ms", "between_rounds_ms"), 60_000)
    res = httpx.post(f"{site.url}/api/home/tables", headers={"Authorization": f"Bearer {token}"}, timeout=10,
                     json={"chips": AUTO_CHIPS, "name": "Withdrawals", "seating": "approval",
                           "timers": timers,
                           "rules": {"fortune_enabled": False}})
    assert res.status_code == 201, res.text
    table, code = res.json()["table_id"], res.json()["invite"]["code"]
    host.goto(f"{site.url}/table/?id={table}")
    sit_down(host, 1)
    spectator = site.page()
    spectator.goto(f"{site.url}/table/?id={table}&invite={code}&watch=1")
    spectator.wait_for_function("() => window.paigow?.ctx?.view")
    friends = {name: wire(table, name, code) for name in ("Bo", "Cy", "Dee")}
    for name in ("Bo", "Dee"):
        friends[name].command("request_seat")
        host.get_by_role("button", name=f"Approve {name}").click()
        expect(host.locator("[data-panel='requests']")).to_have_count(0)
    friends["Bo"].command("sit", seat=2, buy_in_cents=20_000)
    friends["Dee"].command("sit", seat=3, buy_in_cents=20_000)
    friends["Cy"].command("request_seat")
    expect(host.locator("[data-panel='requests']")).to_contain_text("Cy")
    friends["Cy"].command("cancel_request")  # the withdrawal
    logged(host, "Cy withdrew the request to sit.")
    expect(host.locator("[data-panel='requests']")).to_have_count(0)

    host.fill("#bet-amount", "10")
    host.click("#place-bet")
    for name in ("Bo", "Dee"):
        friends[name].command("place_bet", amount_cents=1_000)
    expect(host.locator("[data-panel='setter']")).to_be_visible()
    for name in ("Bo", "Dee"):
        friends[name].command("use_house_way")
    friends["Bo"].command("leave")  # in the round: he leaves when it ends
    open_host_dialog(host)
    host.locator(f"#remove-{friends['Dee'].player_id}").click()
    host.click("#confirm-ok")
    expect(host.locator("#confirm-dialog")).to_be_hidden()
    host.keyboard.press("Escape")
    host.click("#house-way")  # arranges the House Way's split; Done sends it
    host.click("#done")
    host.wait_for_function("() => window.paigow.ctx.rounds[0]?.number === 1")
    for page in (host, spectator):
        logged(page, "Dee was removed by the host.")
    for who, page in (("host", host), ("spectator", spectator)):
        lines: list[str] = page.evaluate("window.paigow.ctx.log.map((l) => l.text)")
        assert lines, who
        assert [line for line in lines if BAD_WORDS.search(line)] == [], (who, lines)
        page.click("#history-btn")
        expect(page.locator("#table-log li").first).to_be_visible()
        shown = page.locator("#table-log").inner_text()
        assert not BAD_WORDS.search(shown), (who, shown)
        page.click("#history-close")
    assert site.errors == []

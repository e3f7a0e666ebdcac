"""When the table acts for you, it says so (issue 12): the last seconds' warning and the House Way that set
a hand when time ran out (on screen, in the log, in the history); the BANK marker at the actual banker, and
why the marker's player was not offered the bank; the showdown banner with every hand, seat and the
player-banker's account, as a spectator sees it too; the House Way's clause of the dealer's hand; what
betting says after a void, while it waits for its first bet, when a limit lowers the draft; and countdowns
on the server's clock. Each phase is shot at a phone's, a laptop's and a large screen's size."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .test_table_round import money_text

pytestmark = pytest.mark.browser

VIEWPORTS = ((390, 844), (1366, 768), (1920, 1080))


def shots(site: Any, page: Page, name: str) -> None:
    """The page at the three sizes, saved as test artifacts; the laptop size is restored after."""
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        site.shot(page, f"explain-{name}-{width}x{height}")
    page.set_viewport_size({"width": 1366, "height": 768})


def sized(site: Any, page: Page) -> list[Page]:
    """The same player's table on pages of the three sizes (one browser context: one session), to shoot a
    moment that passes (a deadline's last seconds) at every size at once."""
    pages = []
    for width, height in VIEWPORTS:
        if (width, height) == (1366, 768):
            pages.append(page)
            continue
        other = page.context.new_page()
        other.set_viewport_size({"width": width, "height": height})
        other.goto(page.url)
        other.uncheck("#anim-toggle")
        pages.append(other)
    return pages


def join(site: Any, name: str, table: str, seat: int, *, watch: bool = False) -> Page:
    page = site.player(name, width=1366, height=768)
    page.goto(f"{site.url}/table/?id={table}{'&watch=1' if watch else ''}")
    page.uncheck("#anim-toggle")
    if not watch:
        page.click(f"[data-seat='{seat}']")
        page.fill("#buy-in", "200")
        page.click("#sit-confirm")
        expect(page.locator(f".pos[data-position='{seat}'].me")).to_be_visible()
    return page


def bet(page: Page, dollars: str, *, last: bool = False) -> None:
    """Place a bet; the ``last`` bet the table waits for deals the cards at once."""
    expect(page.locator("[data-panel='bet']")).to_be_visible()
    page.fill("#bet-amount", dollars)
    page.click("#place-bet")
    expect(page.locator("[data-panel='setter']" if last else "#bet-info")).to_contain_text(
        "High hand" if last else f"your bet: ${dollars}")


def last_record(page: Page) -> dict[str, Any]:
    """The settled round the page shows (the record its round_settled event brought)."""
    record: dict[str, Any] = page.evaluate("window.paigow.ctx.showdown")
    return record


def commission_text(record: dict[str, Any]) -> str:
    """Every commission of the round: the winners' against the banker and the banker's own."""
    total = sum(h["commission_cents"] for h in record["hands"])
    return f"Commission taken: {money_text(total)}" if total else "No commission this round"


def account_text(record: dict[str, Any], names: dict[str | None, str]) -> str:
    """A player-banker's account, worked out here from the record: won from, paid to, commission, net."""
    parts = []
    for h in record["hands"]:
        if h["is_banker"]:
            continue
        who, gross = names[h["player_id"]], h["gross_cents"]
        parts.append(f"won {money_text(-gross)} from {who}" if gross < 0 else
                     f"paid {money_text(gross)} to {who}" if gross > 0 else f"a push with {who}")
    if record["banker_commission_cents"]:
        parts.append(f"commission {money_text(record['banker_commission_cents'])} on the net win of "
                     f"{money_text(record['banker_gross_cents'])}")
    net = record["banker_net_cents"]
    parts.append(f"net {'+' if net > 0 else ''}{money_text(net)}")
    return f"{names[record['banker_player_id']]}'s bank: " + " · ".join(parts)


def marker_at(page: Page) -> str | None:
    position: str | None = page.get_attribute(".bank-marker", "data-position")
    return position


def test_a_hand_the_house_way_set_when_time_ran_out_is_said_on_screen_in_the_log_and_history(
        site: Any) -> None:
    table = site.open_table("Time Out", betting_ms=60_000, setting_ms=16_000, between_rounds_ms=60_000)
    ann = join(site, "Ann", table, 1)
    bo = join(site, "Bo", table, 2)
    bos = sized(site, bo)
    watcher = join(site, "Wes", table, 0, watch=True)
    bet(ann, "20")
    bet(bo, "10", last=True)
    expect(ann.locator("[data-panel='setter']")).to_be_visible()
    ann.click("#house-way")  # arranges the House Way's split; Done sends it
    ann.click("#done")
    expect(ann.locator("#set-status")).to_contain_text("by the House Way (")
    # Bo does nothing: the last ten seconds say what happens then, with the ring in red.
    for page in bos:
        warning = page.locator("[data-panel='setter'] [data-warn]")
        expect(warning).to_be_visible(timeout=20_000)
        expect(warning).to_have_text(re.compile(r"Hurry: \d+ s left, then the House Way sets your hand\."))
        expect(page.locator("#countdown.urgent")).to_be_visible()
    for page, (width, height) in zip(bos, VIEWPORTS, strict=True):
        page.screenshot(path=str(site.artifacts / f"explain-warning-{width}x{height}.png"))
    for page in bos:
        if page is not bo:
            page.close()
    # Time runs out: Bo is told on screen, in the log and in the history.
    notice = bo.locator("#notice")
    expect(notice).to_contain_text("Time ran out: the House Way set your hand (", timeout=20_000)
    expect(bo.locator("#result-banner")).to_be_visible()
    expect(ann.locator("#notice")).to_have_count(0)  # Ann set her own hand (by the House Way, on request)
    # The showdown banner: each seat's high, low and result; under the table, who won each and why.
    banner = bo.locator("#result-banner")
    expect(banner.locator("[data-result-row]")).to_have_count(2)
    result = (r"(wins \$[\d.]+( \(\$[\d.]+ less \$[\d.]+ commission\))?|push: the bet comes back"
              r"|loses \$[\d.]+)")
    for row, name in (("1", "Ann"), ("2", "Bo")):
        expect(banner.locator(f"[data-result-row='{row}']")).to_have_text(
            re.compile(rf"{name} high (✓|banker|copy) · low (✓|banker|copy) · {result}"))
        expect(bo.locator(f"[data-panel='breakdown'] [data-breakdown-row='{row}']")).to_have_text(re.compile(
            rf"{name} {result}High: ({name}|the banker) — (.+ beats .+|copy \(.+\): the banker wins ties) · "
            rf"Low: ({name}|the banker) — (.+ beats .+|copy \(.+\): the banker wins ties)(House Way: .+)?$"))
    expect(banner.locator(".banker-line")).to_contain_text("Dealer banked:")
    expect(banner.locator(".banker-line .clause")).to_contain_text("House Way: ")
    expect(banner.locator(".commission")).to_have_text(commission_text(last_record(bo)))
    expect(banner.locator("[data-next]")).to_have_text(re.compile(r"Next round in \d+ s"))
    # The dealer's hand says which House Way clause set it, under its cards.
    expect(bo.locator(".pos[data-position='0'] .hand-names .clause")).to_contain_text("House Way: ")
    expect(bo.locator(".pos[data-position='2'] .hand-names .clause")).to_contain_text("House Way: ")
    # A spectator reads the same showdown.
    expect(watcher.locator("#result-banner [data-result-row]")).to_have_count(2)
    assert watcher.inner_text("#result-banner .result-lines") == bo.inner_text("#result-banner .result-lines")
    assert (watcher.inner_text("[data-panel='breakdown'] .breakdown-lines")
            == bo.inner_text("[data-panel='breakdown'] .breakdown-lines"))
    # The BANK marker sits at the dealer, who banked, beside (not over) the dealer's plate and cards.
    assert marker_at(bo) == "0"
    assert bo.evaluate(NOT_OVER) == []
    bo.set_viewport_size({"width": 1920, "height": 1080})  # tall enough for a line a seat at the centre
    expect(banner.locator("[data-result-row='2']")).to_be_visible()
    shots(site, bo, "timeout-showdown")
    shots(site, watcher, "timeout-showdown-spectator")
    bo.click("#history-btn")
    expect(bo.locator("#table-log")).to_contain_text("Time ran out: the House Way set your hand (")
    expect(bo.locator("#my-history tbody tr").first).to_contain_text(
        "Set by the House Way after a time-out (")
    shots(site, bo, "timeout-history")
    bo.click("#history-close")
    assert site.errors == []


TRANSITION = "() => getComputedStyle(document.querySelector('.bank-marker')).transitionProperty"

# The BANK marker's box overlaps none of the cards, names or chip counts on the table ([] when clear).
NOT_OVER = """() => {
  const m = document.querySelector('.bank-marker').getBoundingClientRect();
  const hits = [];
  const parts = ['.card', '.plate .name', '.plate .chips', '.hand-names', '.bet-spot', '.result']
    .map((p) => '.pos ' + p).join(', ');
  for (const e of document.querySelectorAll(parts)) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const over = r.left < m.right && m.left < r.right && r.top < m.bottom && m.top < r.bottom;
    if (over) hits.push(e.closest('.pos').dataset.position + ':' + e.className);
  }
  return hits;
}"""


def hands_by_house_way(*pages: Page) -> None:
    """Every page's player sets by the House Way; the last hand set ends the round (the setter goes)."""
    for n, page in enumerate(pages):
        expect(page.locator("[data-panel='setter']")).to_be_visible()
        page.click("#house-way")  # arranges the House Way's split; Done sends it
        page.click("#done")
        if n < len(pages) - 1:
            expect(page.locator("#set-status")).to_contain_text("Hand set")
        else:
            expect(page.locator("[data-panel='setter']")).to_have_count(0)


def test_the_bank_marker_follows_the_banker_and_says_why_a_player_may_not_bank(site: Any) -> None:
    table = site.open_table("Bank Moves", betting_ms=60_000, setting_ms=90_000, bank_offer_ms=60_000,
                            between_rounds_ms=1_500)
    bo = join(site, "Bo", table, 2)  # round 1 starts at once, banked by the house (the marker at the dealer)
    ann = join(site, "Ann", table, 1)
    ann.click("#sit-out")  # Ann sits out round 1: she will not have played the last house-banked round
    expect(ann.locator("#sit-out")).to_have_text("Sit in")
    cy = join(site, "Cy", table, 3)
    watcher = join(site, "Wes", table, 0, watch=True)
    bet(bo, "10")
    bet(cy, "10", last=True)
    ann.click("#sit-out")  # back for round 2
    expect(ann.locator("#sit-out")).to_have_text("Sit out")
    hands_by_house_way(bo, cy)
    # Round 2: the marker reaches Ann, who may not bank; everyone is told why, and the house banks.
    why = "Ann cannot bank this round: did not play the last house-banked round."
    for page in (bo, cy, watcher):
        expect(page.locator("#phase-sub")).to_contain_text(why)
    expect(ann.locator("#phase-sub")).to_contain_text(
        "You cannot bank this round: you did not play the last house-banked round.")
    for page in (ann, bo, watcher):
        expect(page.locator(".bank-marker")).to_have_attribute("data-position", "0")
    assert bo.evaluate(NOT_OVER) == []
    shots(site, bo, "not-offered")
    bet(ann, "10")
    bet(bo, "10")
    bet(cy, "10", last=True)
    hands_by_house_way(ann, bo, cy)
    # Round 3: the marker reaches Bo, who played round 2: the bank is offered to Bo.
    expect(bo.locator("[data-panel='offer']")).to_be_visible()
    for page in (bo, watcher):
        expect(page.locator(".bank-marker.offered")).to_have_attribute("data-position", "2")
    shots(site, bo, "offer")
    assert watcher.evaluate(TRANSITION) == "none"  # with animation off the marker jumps
    watcher.check("#anim-toggle")
    assert watcher.evaluate(TRANSITION).split(", ")[:2] == ["left", "top"]  # with it on, it glides
    bo.click("#accept-bank")
    for page in (ann, watcher):
        expect(page.locator(".bank-marker:not(.offered)")).to_have_attribute("data-position", "2")
    assert ann.evaluate(NOT_OVER) == []
    bet(ann, "20")
    bet(cy, "10", last=True)
    site.table_action(table, "pause")  # the showdown stays on screen
    hands_by_house_way(ann, bo, cy)
    # The player-banker's account: won from whom, paid to whom, commission on the net, for everyone.
    expect(ann.locator("#result-banner [data-account]")).to_be_visible()
    record = last_record(ann)
    names = {seat["player_id"]: seat["name"] for seat in ann.evaluate("window.paigow.ctx.view.seats") if seat}
    names[None] = "Dealer"
    assert record["banker_player_id"] == next(k for k, v in names.items() if v == "Bo")
    for page in (ann, watcher):
        expect(page.locator("#result-banner [data-account]")).to_have_text(account_text(record, names))
        expect(page.locator("#result-banner .commission")).to_have_text(commission_text(record))
        expect(page.locator("#result-banner .banker-line")).to_contain_text("Bo banked:")
        expect(page.locator(".bank-marker")).to_have_attribute("data-position", "2")
    account = "#result-banner [data-account]"
    assert ann.inner_text(account) == watcher.inner_text(account)
    expect(ann.locator("#result-banner [data-next]")).to_have_text(
        "Paused by the operator: the next round waits")
    shots(site, ann, "player-banker-showdown")
    shots(site, watcher, "player-banker-showdown-spectator")
    bo.click("#history-btn")
    expect(bo.locator("#table-log")).to_contain_text(why)
    expect(bo.locator("#table-log")).to_contain_text("You bank this round.")
    assert site.errors == []


def test_betting_says_what_happened_and_what_it_takes(site: Any) -> None:
    table = site.open_table("Bets", betting_ms=2_000, setting_ms=90_000, between_rounds_ms=60_000)
    ann = site.player("Ann", width=1366, height=768)
    # The lobby tells the account's balance from the chips at a table.
    expect(ann.locator("#money-hint")).to_contain_text(
        "you buy them from your balance when you sit down")
    ann.goto(f"{site.url}/table/?id={table}")
    ann.uncheck("#anim-toggle")
    # Buy-in errors are in dollars.
    ann.click("[data-seat='1']")
    expect(ann.locator("#sit-balance")).to_contain_text("The buy-in moves from your balance to chips")
    ann.fill("#buy-in", "2")
    ann.click("#sit-confirm")
    expect(ann.locator("#sit-dialog-error")).to_have_text(
        "A buy-in of $2.00 is below the table minimum of $5.00.")
    ann.fill("#buy-in", "5000")
    ann.click("#sit-confirm")
    expect(ann.locator("#sit-dialog-error")).to_have_text(
        "A buy-in of $5,000.00 is more than your balance of $1,000.00.")
    ann.fill("#buy-in", "200")
    ann.click("#sit-confirm")
    # Betting runs out with no bet: the table waits for the first bet, and says so without a dangling "·".
    expect(ann.locator("#phase-text")).to_have_text("Waiting for the first bet")
    info = ann.locator("#bet-info")
    expect(info).to_have_text(re.compile(r"^You can bet \$5\.00 – \$200\.00 · "
                                         r"table limits \$5\.00 – \$300\.00 · "
                                         r"Waiting for the first bet: the betting clock starts with it$"))
    shots(site, ann, "waiting-first-bet")
    # A chip keeps the keyboard's focus; the bet line shows what you may bet (your chips, not the table's).
    ann.click("#chip-2500")
    assert ann.evaluate("document.activeElement.id") == "chip-2500"
    ann.keyboard.press("Space")  # the focused chip again (Enter would place the bet)
    expect(ann.locator("#bet-amount")).to_have_value("50.00")
    assert ann.evaluate("document.activeElement.id") == "chip-2500"
    # A lower limit of your own brings the draft down to it, and says so.
    ann.fill("#own-limit", "30")
    ann.click("#set-limit")
    expect(ann.locator("#bet-clamped")).to_have_text(
        "Your bet was lowered to $30.00: the most you can bet now.")
    expect(ann.locator("#bet-amount")).to_have_value("30.00")
    expect(info).to_contain_text("You can bet $5.00 – $30.00")
    shots(site, ann, "clamped")
    # The operator voids the round: the table says what happened, not "Waiting for players"; no bet was
    # placed (the amount was only typed), so nothing was returned either.
    site.table_action(table, "void")
    expect(ann.locator("#phase-text")).to_have_text("Round voided")
    voided = "The round was voided (by the operator) before any bet was made."
    expect(ann.locator("#phase-sub")).to_have_text(voided)
    expect(ann.locator("#notice")).to_have_text(voided)
    shots(site, ann, "voided")
    assert site.errors == []


def test_countdowns_run_on_the_servers_clock(site: Any) -> None:
    table = site.open_table("Skew", betting_ms=60_000, setting_ms=90_000)
    ann = site.player("Ann", width=1366, height=768)
    # This browser's clock is an hour fast: without the server's time the deadline would seem long past.
    ann.add_init_script("""(() => { const real = Date.now; const skew = 3600 * 1000;
        Date.now = () => real() + skew; })()""")
    ann.goto(f"{site.url}/table/?id={table}")
    ann.click("[data-seat='1']")
    ann.fill("#buy-in", "200")
    ann.click("#sit-confirm")
    expect(ann.locator("[data-panel='bet']")).to_be_visible()
    assert ann.evaluate("Date.now() - performance.timeOrigin - performance.now()") > 3_000_000
    expect(ann.locator("#countdown-text")).to_have_text(re.compile(r"^(5\d|60|4\d)$"))
    expect(ann.locator("[data-warn]").first).to_be_hidden()  # and no false alarm of time running out
    assert site.errors == []


def test_a_bank_offer_that_timed_out_a_round_without_a_bet_and_missed_rounds_are_said(site: Any) -> None:
    table = site.open_table("Missed", betting_ms=8_000, setting_ms=90_000, bank_offer_ms=3_000,
                            between_rounds_ms=1_000, sit_out_after_missed=1, stand_up_after_missed=2)
    ann = join(site, "Ann", table, 1)
    bo = join(site, "Bo", table, 2)
    # Round 1: Ann bets, Bo does not. Just before betting closes, Ann's bet is no longer offered to change.
    bet(ann, "10")
    expect(ann.locator("#dealing-soon")).to_be_visible()
    expect(ann.locator("#place-bet")).to_be_hidden()
    expect(ann.locator("#remove-bet")).to_be_hidden()
    # Betting closed without Bo's bet: he is told he is not in the round, and sat out for the missed round.
    expect(bo.locator("#notice")).to_have_text(
        "You were sat out after 1 missed round in a row: press “Sit in” to play again.")
    expect(bo.locator(".toast").filter(has_text="Not in this round: no bet was placed.")).to_have_count(1)
    shots(site, bo, "sat-out")
    ann.click("#house-way")  # arranges the House Way's split; Done sends it
    ann.click("#done")
    # Round 2: the marker reaches Ann, offered the bank; she lets the offer run out.
    expect(ann.locator("[data-panel='offer']")).to_be_visible()
    expect(ann.locator("#notice")).to_have_text("Time ran out on the bank offer: the house banks this round.")
    expect(bo.locator(".bank-marker")).to_have_attribute("data-position", "0")
    expect(bo.locator("#phase-sub")).to_contain_text(
        "Ann did not answer the bank offer in time: the house banks.")
    shots(site, ann, "offer-timed-out")
    bet(ann, "10", last=True)  # Bo sits out: Ann's is the only bet the table waits for
    # Bo missed a second round (sitting out): he is stood up, his chips back in his balance.
    expect(bo.locator(".toast").filter(has_text="You were stood up after 2 missed rounds")).to_have_count(1)
    expect(bo.locator("button[data-seat='2']")).to_be_visible()
    bo.click("#history-btn")
    log = bo.locator("#table-log")
    expect(log).to_contain_text("Not in this round: no bet was placed.")
    expect(log).to_contain_text("You were sat out after 1 missed round in a row")
    expect(log).to_contain_text("You were stood up after 2 missed rounds: your chips ($200.00) went back")
    expect(log).to_contain_text("Ann did not answer the bank offer in time: the house banks.")
    shots(site, bo, "stood-up-log")
    assert site.errors == []

"""Issue 31's "Done when", played in Chromium as friends would: Ann (an account, on a laptop) creates "Friday
game" with $100 buy-ins, players banking in turn and no commission; Maya and Theo (accounts, on a 390x844
and a 360x740 phone) open the link and ask for buy-ins; Ann approves Maya's and changes Theo's; they play
eight rounds with the bank passing among them (each sets by the House Way button); Theo asks for a rebuy in
a round and gets it when the round ends; Maya leaves (her cash-out in the ledger) and comes back (a new
buy-in); Ann closes the game. Every player sees the same ledger and settle-up, its figures equal the
rounds' results the test recomputes from GET /api/tables/{id}/rounds, and the four downloads open (CSV and
JSON parsed). The create form, the buy-in dialog, the waiting line, the host's requests, the live ledger
and the settle-up are photographed at 390x844, 360x740, 1366x768 and 1920x1080
(test-artifacts/browser/chips-*.png) and checked for overlapping and clipped text and boxes
(tests/browser/layout.py); the Content Security Policy is watched throughout."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError
from tests.browser.conftest import Site
from tests.browser.layout import VIEWPORTS, overlaps, text_problems
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_home_games import PASSWORD, bet, no_animation, sign_up

pytestmark = pytest.mark.browser

TIMERS = {"betting_ms": 20, "setting_ms": 40, "bank_offer_ms": 15, "between_rounds_ms": 2}


class Shots:
    """Each step photographed at the four sizes (the page resized to each, then back), with the layout's
    and axe-core's findings collected."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.problems: list[str] = []

    def shot(self, page: Page, step: str, *, show: str | None = None) -> None:
        own = page.viewport_size
        assert own is not None
        for size, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.paigow?.rerender?.()")
            if show:
                page.locator(show).first.evaluate("e => e.scrollIntoView({ block: 'center' })")
            page.wait_for_timeout(250)
            page.screenshot(path=str(self.site.artifacts / f"chips-{step}-{size}.png"))
            where = f"{step} at {size}"
            self.problems.extend(f"{where}: {p}" for p in text_problems(page))
            if page.locator("#stage").is_visible() and not page.locator("dialog:modal").count():
                self.problems.extend(f"{where}: {p}" for p in overlaps(page))
        page.set_viewport_size(own)
        self.problems.extend(f"{step}: axe {v}" for v in serious_violations(page))


def account(site: Site, name: str) -> dict[str, Any]:
    res = httpx.post(f"{site.url}/api/accounts", timeout=10, json={
        "username": f"{name.lower()}{int(time.time() * 1000) % 10**8}", "password": PASSWORD,
        "display_name": name})
    assert res.status_code == 201, res.text
    session: dict[str, Any] = res.json()
    return session


def phone(site: Site, size: str, session: dict[str, Any]) -> Page:
    """A phone-sized page (touch, a phone's pixel ratio) signed in as `session`'s account."""
    width, height = VIEWPORTS[size]
    context: BrowserContext = site.browser.new_context(viewport={"width": width, "height": height},
                                                       has_touch=True, is_mobile=True, device_scale_factor=2)
    context.set_default_timeout(20_000)
    context.on("page", site._watch)
    site.contexts.append(context)
    page = context.new_page()
    page.goto(f"{site.url}/")
    page.evaluate("s => localStorage.setItem('paigow.session', JSON.stringify(s))", session)
    return page


def view(page: Page) -> dict[str, Any]:
    v: dict[str, Any] = page.evaluate("window.paigow.ctx.view")
    return v


def chips(page: Page) -> dict[str, Any]:
    c: dict[str, Any] = page.evaluate("window.paigow.ctx.view.home.chips")
    return c


def ask_buy_in(page: Page, seat: int, dollars: str) -> None:
    page.locator(f"button[data-seat='{seat}']").click()
    expect(page.locator("#sit-dialog")).to_be_visible()
    page.fill("#buy-in", dollars)
    page.click("#sit-confirm")
    expect(page.locator("#sit-dialog")).to_be_hidden()


def wait_phase(pages: dict[str, Page], script: str) -> None:
    for page in pages.values():
        page.wait_for_function(script, timeout=60_000)


UNSET_JS = """(() => {
  const v = window.paigow.ctx.view;
  const h = v.round?.hands?.find((x) => x.position === v.you?.position);
  return Boolean(h && h.cards.length && !h.is_set);
})()"""
"""Whether the page's player has a hand dealt and not set yet."""


def settle_the_hands(pages: dict[str, Page]) -> None:
    for page in pages.values():
        if page.evaluate(UNSET_JS):
            for _ in range(3):
                try:
                    page.locator("#house-way").click(timeout=5_000)  # the House Way's split; Done sends it
                    page.locator("#done").click(timeout=5_000)
                    break
                except PlaywrightError:
                    continue


def play_round(pages: dict[str, Page], number: int, during_setting: Any = None) -> dict[str, Any]:
    """Round `number`: the player the bank is offered to takes it, every other player bets $10, everyone sets
    by the House Way (`during_setting()` first, when given); the settled record."""
    wait_phase(pages, f"() => (window.paigow.ctx.view.round?.number ?? 0) >= {number}")
    first = next(iter(pages.values()))
    first.wait_for_function("() => window.paigow.ctx.view.phase !== 'bank_offer'"
                            " || window.paigow.ctx.view.round?.offer_player_id", timeout=60_000)
    offered = first.evaluate("window.paigow.ctx.view.phase === 'bank_offer'"
                             " && window.paigow.ctx.view.round.offer_player_id")
    banker = next((p for p in pages.values() if p.evaluate("window.paigow.ctx.playerId") == offered), None)
    if banker is not None:
        banker.wait_for_function("() => window.paigow.ctx.view.you?.offered_bank")
        banker.locator("#accept-bank").click()
    for page in pages.values():
        page.wait_for_function("() => window.paigow.ctx.view.phase !== 'bank_offer'", timeout=60_000)
    for page in pages.values():
        you = view(page)["you"]
        if view(page)["phase"] == "betting" and you and not you["is_banker"] and you["can"]["bet"]:
            bet(page, "10")
    wait_phase(pages, "() => window.paigow.ctx.view.phase === 'setting'"
                      f" || window.paigow.ctx.rounds[0]?.number === {number}")
    if during_setting:
        during_setting()
    settle_the_hands(pages)
    wait_phase(pages, f"() => window.paigow.ctx.rounds[0]?.number === {number}")
    record: dict[str, Any] = next(iter(pages.values())).evaluate("window.paigow.ctx.rounds[0]")
    return record


def said(page: Page, text: str) -> None:
    """Waits until the table's log (the History dialog's, what the live region says) has `text`."""
    page.wait_for_function("t => window.paigow.ctx.log.some((l) => l.text === t)", arg=text)


def open_host(page: Page) -> None:
    page.click("#host-btn")
    expect(page.locator("#host-dialog")).to_be_visible()


def nets_from_rounds(rounds: list[dict[str, Any]]) -> dict[str, int]:
    """Each player's whole result over the rounds, as the records say it (the banker's is the round's)."""
    nets: dict[str, int] = {}
    for r in rounds:
        for h in r["hands"]:
            if not h["player_id"]:
                continue
            won = r["banker_net_cents"] if h["is_banker"] else h["net_cents"]
            nets[h["player_id"]] = nets.get(h["player_id"], 0) + won + h.get("bonus_net_cents", 0)
    return nets


def dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def download(page: Page, button: str, into: Path) -> Path:
    with page.expect_download() as got:
        page.click(button)
    path = into / got.value.suggested_filename
    got.value.save_as(path)
    return path


def test_friday_game_with_its_own_chips(site: Site, tmp_path: Path) -> None:
    shots = Shots(site)
    # ---- Ann creates "Friday game" from the lobby: $100 buy-ins, players bank in turn, no commission ----
    ann = site.page(width=1366, height=768)
    sign_up(ann, site, "Ann")
    ann.click("#host-open")
    ann.fill("#home-name", "Friday game")
    expect(ann.locator("#home-buy-in")).to_have_value("100.00")
    expect(ann.locator("#home-rebuys")).to_be_checked()
    expect(ann.locator("#home-auto-approve")).not_to_be_checked()
    expect(ann.locator("#home-bank-in-turn")).to_be_checked()
    expect(ann.locator("#home-commission-none")).to_be_checked()
    ann.uncheck("#home-banking")  # the house banks every round: then nobody banks in turn either
    expect(ann.locator("#home-bank-in-turn")).not_to_be_checked()
    ann.check("#home-bank-in-turn")  # and back: players bank in turn, so players bank
    expect(ann.locator("#home-banking")).to_be_checked()
    ann.uncheck("#home-fortune")
    ann.fill("#home-buy-in-min", "150")  # a smallest buy-in above the buy-in: refused at its field, not sent
    ann.click("#host-submit")
    expect(ann.locator("#home-buy-in-min-error")).to_have_text(
        "The smallest buy-in ($150.00) is above the buy-in ($100.00).")
    expect(ann.locator("#home-buy-in-min")).to_be_focused()
    ann.fill("#home-buy-in-min", "20")
    for key, seconds in TIMERS.items():
        ann.fill(f"#home-{key}", str(seconds))
    shots.shot(ann, "create-form", show="#home-chips")
    ann.click("#host-submit")
    expect(ann.locator("#host-created")).to_be_visible()
    link = ann.locator("#invite-link").input_value()
    table = re.search(r"id=(h_[\w-]+)", link)
    assert table is not None
    table_id = table.group(1)
    ann.click("#host-go")
    no_animation(ann)
    expect(ann.locator("#ledger-btn")).to_be_visible()
    expect(ann.locator("#phase-text")).to_have_text("Waiting for a second player")
    expect(ann.locator("#phase-sub")).to_have_text("Players bank in turn: a round needs two players")
    ann.locator("[data-seat='1']").click()
    expect(ann.locator("#sit-title")).to_have_text("Buy in at seat 1")
    expect(ann.locator("#buy-in")).to_have_value("100.00")
    expect(ann.locator("#sit-balance")).to_contain_text("From $20.00 to $500.00. Approved at once.")
    shots.shot(ann, "buy-in-dialog-host")
    ann.click("#sit-confirm")
    expect(ann.locator(".pos[data-position='1'].me")).to_be_visible()
    expect(ann.locator("#you-meta")).to_contain_text("stack $100.00")  # the stack, not the casino balance

    # ---- Maya and Theo open the link on phones and ask for buy-ins ----
    maya_session, theo_session = account(site, "Maya"), account(site, "Theo")
    maya, theo = phone(site, "phone", maya_session), phone(site, "small-phone", theo_session)
    for page in (maya, theo):
        page.goto(link)
        page.wait_for_function("() => window.paigow?.ctx?.view && window.paigow.ctx.role === 'player'")
        no_animation(page)
    maya.locator("[data-seat='2']").click()
    expect(maya.locator("#sit-title")).to_have_text("Buy in at seat 2")
    expect(maya.locator("#sit-balance")).to_contain_text("From $20.00 to $500.00. Ann approves each buy-in")
    maya.fill("#buy-in", "600")
    maya.click("#sit-confirm")
    expect(maya.locator("#sit-dialog-error")).to_have_text("$600.00 is not between $20.00 and $500.00.")
    maya.fill("#buy-in", "100")
    shots.shot(maya, "buy-in-dialog")
    maya.click("#sit-confirm")
    expect(maya.locator("#buy-in-status")).to_have_text("Waiting for Ann to approve your $100.00 buy-in")
    expect(maya.locator("#cancel-buy-in")).to_be_visible()
    expect(maya.locator(".pos[data-position='2'] .plate")).to_contain_text("held for you")
    shots.shot(maya, "waiting", show="#buy-in-status")
    maya.click("#cancel-buy-in")  # she changes her mind (cancel_buy_in): her seat is free; she asks again
    said(maya, "You cancelled your request for chips.")
    expect(maya.locator("[data-panel='buy-in-wait']")).to_have_count(0)
    ask_buy_in(maya, 2, "100")
    expect(maya.locator("#buy-in-status")).to_have_text("Waiting for Ann to approve your $100.00 buy-in")
    ask_buy_in(theo, 3, "200")
    expect(theo.locator("#buy-in-status")).to_have_text("Waiting for Ann to approve your $200.00 buy-in")
    expect(theo.locator(".pos[data-position='2'] .plate")).to_contain_text("held: buy\u2011in")
    held = theo.locator(".pos[data-position='2'] .plate [title]")
    expect(held).to_have_attribute("title", "held for Maya's buy-in")
    requests = ann.locator("[data-panel='chip-requests']")
    expect(requests.locator(".big")).to_have_text("2 chip requests wait")
    expect(ann.locator("#announcer")).to_contain_text("Theo asks for a $200.00 buy-in")
    shots.shot(ann, "host-requests", show="[data-panel='chip-requests']")
    ann.get_by_role("button", name="Approve Maya's chips").click()
    expect(requests.locator(".big")).to_have_text("1 chip request waits")
    theo_request = next(r["request_id"] for r in chips(ann)["requests"] if r["name"] == "Theo")
    ann.fill(f"#chip-amount-{theo_request}", "150")
    ann.get_by_role("button", name="Approve Theo's chips").click()
    expect(maya.locator(".pos[data-position='2'].me")).to_be_visible()
    expect(theo.locator(".pos[data-position='3'].me")).to_be_visible()
    expect(theo.locator("#you-meta")).to_contain_text("$150.00")
    expect(requests).to_have_count(0)

    # ---- eight rounds, the bank passing among them; Theo's rebuy in round 3; Maya leaves and comes back ----
    pages = {"ann": ann, "maya": maya, "theo": theo}
    ids = {who: p.evaluate("window.paigow.ctx.playerId") for who, p in pages.items()}

    def theo_rebuys() -> None:
        theo.click("#rebuy")
        expect(theo.locator("#rebuy-text")).to_contain_text("in a round they land when it ends")
        theo.fill("#rebuy-amount", "100")
        shots.shot(theo, "rebuy-dialog")
        theo.click("#rebuy-confirm")
        expect(theo.locator("#buy-in-status")).to_have_text("Waiting for Ann to approve your $100.00 rebuy")
        ann.get_by_role("button", name="Approve Theo's chips").click()
        expect(theo.locator("#buy-in-status")).to_have_text(
            "Your $100.00 rebuy is approved: the chips land when this round ends")

    def adjust_theo() -> None:
        open_host(ann)
        expect(ann.locator("#host-auto-approve")).not_to_be_checked()
        shots.shot(ann, "host-chips", show="#host-chips")
        ann.locator(f"#adjust-{ids['theo']}").click()
        expect(ann.locator("#adjust-title")).to_have_text("Adjust Theo's chips")
        shots.shot(ann, "adjust-dialog")
        ann.fill("#adjust-amount", "5")
        ann.click("#adjust-ok")
        expect(ann.locator("#adjust-error")).to_have_text(
            "Say why, in a few words: everyone at the game reads it in the ledger.")
        ann.fill("#adjust-reason", "a chip fell off the table")
        ann.click("#adjust-ok")
        expect(ann.locator("#adjust-dialog")).to_be_hidden()
        said(theo, "Ann added $5.00 to your chips: “a chip fell off the table”.")
        ann.check("#host-auto-approve")  # sent at once (host_chip_settings), and back
        ann.wait_for_function("() => window.paigow.ctx.view.home.chips.auto_approve")
        ann.uncheck("#host-auto-approve")
        ann.wait_for_function("() => !window.paigow.ctx.view.home.chips.auto_approve")
        ann.fill("#host-buy-in", "120")
        ann.click("#host-chips-save")
        expect(ann.locator("#host-chips-saved")).to_have_text("Saved.")
        assert chips(maya)["default_buy_in_cents"] == 12_000 or maya.wait_for_function(
            "() => window.paigow.ctx.view.home.chips.default_buy_in_cents === 12000")
        ann.keyboard.press("Escape")

    def theo_types_while_the_table_moves() -> None:
        """A dialog read or typed into stays as it was while the table's views come (the others set their
        hands meanwhile): the rebuy dialog open, its amount as typed."""
        theo.click("#rebuy")
        theo.fill("#rebuy-amount", "55")
        settle_the_hands({"ann": ann, "maya": maya})
        for page in (ann, maya):
            page.wait_for_function("() => window.paigow.ctx.view.round?.hands?.find("
                                   "(h) => h.position === window.paigow.ctx.view.you.position)?.is_set")
        theo.wait_for_function("() => window.paigow.ctx.view.round.hands.filter((h) => h.is_set).length >= 2")
        expect(theo.locator("#rebuy-dialog")).to_be_visible()
        expect(theo.locator("#rebuy-amount")).to_have_value("55")
        theo.click("#rebuy-cancel")

    records = []
    for number in range(1, 9):
        meanwhile = {3: theo_rebuys, 6: theo_types_while_the_table_moves}.get(number)
        records.append(play_round(pages, number, meanwhile))
        if number == 3:
            expect(theo.locator("#rebuy")).to_be_visible()  # landed: none of his waits any more
            assert any(line["kind"] == "rebuy" for line in chips(theo)["lines"])
        if number == 4:
            ann.click("#ledger-btn")
            expect(ann.locator("#ledger-players tbody tr")).to_have_count(3)
            shots.shot(ann, "ledger-live")
            ann.click("#ledger-close")
        if number == 5:  # Ann pauses; with no round in play Maya leaves (her cash-out) and buys in again
            open_host(ann)
            ann.click("#host-pause")
            expect(ann.locator("#host-pause")).to_have_text("Resume")
            ann.keyboard.press("Escape")
            maya.wait_for_function("() => window.paigow.ctx.view.paused && !window.paigow.ctx.view.round")
            maya.click("#leave")
            maya.click("#leave-confirm")
            expect(maya.locator(".pos.me")).to_have_count(0)
            cash_out = next(line for line in reversed(chips(maya)["lines"]) if line["kind"] == "cash_out")
            assert cash_out["player_id"] == ids["maya"]
            said(maya, f"You cashed out {dollars(cash_out['amount_cents'])}.")
            ask_buy_in(maya, 2, "80")
            ann.get_by_role("button", name="Approve Maya's chips").click()
            expect(maya.locator(".pos[data-position='2'].me")).to_be_visible()
            adjust_theo()  # between rounds: Ann adds $5 to Theo's stack (a correction everyone reads)
            open_host(ann)
            ann.click("#host-pause")  # Resume
            ann.keyboard.press("Escape")
    bankers = [next((h["player_id"] for h in r["hands"] if h["is_banker"]), None) for r in records]
    assert set(bankers) == set(ids.values()), bankers  # the bank passed among the three, never the house

    # ---- Ann closes the game: the same ledger and settle-up for everyone, equal to the rounds ----
    open_host(ann)
    ann.click("#host-close")
    expect(ann.locator("#confirm-text")).to_contain_text("every player cashes out")
    ann.click("#confirm-ok")
    # every line stamped too (a line's at_ms is null until the table's next tick stamps it): the download
    # reads the stored ledger, which then has every time
    wait_phase(pages, "() => window.paigow.ctx.view.phase === 'closed'"
                      " && window.paigow.ctx.view.home.chips.settle_up !== null"
                      " && window.paigow.ctx.view.home.chips.lines.every(l => l.at_ms !== null)")
    ledgers = {who: chips(p) for who, p in pages.items()}
    assert ledgers["ann"] == ledgers["maya"] == ledgers["theo"]
    final = ledgers["ann"]
    rounds = httpx.get(f"{site.url}/api/tables/{table_id}/rounds?limit=50", timeout=10,
                       headers={"Authorization": f"Bearer {maya_session['token']}"}).json()["rounds"]
    assert sorted(r["number"] for r in rounds) == list(range(1, 9))
    nets = nets_from_rounds(rounds)
    by_id = {p["player_id"]: p for p in final["players"]}
    assert {pid: p["net_cents"] for pid, p in by_id.items()} == {pid: nets.get(pid, 0) for pid in by_id}
    assert by_id[ids["maya"]]["buy_ins_cents"] == 18_000
    assert by_id[ids["theo"]]["buy_ins_cents"] == 25_000
    assert by_id[ids["theo"]]["added_cents"] == 500
    assert [line["kind"] for line in final["lines"] if line["player_id"] == ids["maya"]] == [
        "buy_in", "cash_out", "buy_in", "cash_out"]
    assert final["balanced"]
    assert (final["house_cents"], final["commission_cents"]) == (0, 0)
    paid: dict[str, int] = {}
    for p in final["settle_up"]:
        paid[p["from_id"]] = paid.get(p["from_id"], 0) - p["amount_cents"]
        paid[p["to_id"]] = paid.get(p["to_id"], 0) + p["amount_cents"]
    assert {pid: paid.get(pid, 0) for pid in by_id} == {pid: p["net_cents"] for pid, p in by_id.items()}
    assert len(final["settle_up"]) <= 2  # three players: at most two payments
    payments = [f"{p['from_name']} pays {p['to_name']} {dollars(p['amount_cents'])}"
                for p in final["settle_up"]]
    for page in pages.values():
        expect(page.locator("#tray-settle-payments li")).to_have_text(payments)
        expect(page.locator("#tray-settle-totals li")).to_have_count(3)
    shots.shot(maya, "settle-up", show="[data-panel='settle']")
    theo.click("#open-ledger")
    expect(theo.locator("#ledger-settle-payments li")).to_have_text(payments)
    for who, p in by_id.items():
        net = p["net_cents"]
        shown = ("+" if net > 0 else "−" if net < 0 else "") + dollars(abs(net))  # the page's minus sign
        expect(theo.locator(f"[data-ledger-player='{who}'] [data-net]")).to_have_text(shown)
    shots.shot(theo, "ledger-closed")

    # ---- the downloads open ----
    ledger_csv = read_csv(download(theo, "#download-ledger-csv", tmp_path))
    assert ledger_csv, "the ledger CSV has no rows"
    players_csv = {row["player_id"]: int(row["net_cents"]) for row in ledger_csv if row["record"] == "player"}
    assert players_csv == {pid: p["net_cents"] for pid, p in by_id.items()}
    ledger_json = json.loads(download(theo, "#download-ledger-json", tmp_path).read_text())
    assert ledger_json["chips"] == final
    hands_csv = read_csv(download(theo, "#download-hands-csv", tmp_path))
    assert hands_csv, "the hand log CSV has no rows"
    assert {int(row["round_number"]) for row in hands_csv} == set(range(1, 9))
    hands_json = json.loads(download(theo, "#download-hands-json", tmp_path).read_text())
    assert [r["number"] for r in hands_json["rounds"]] == list(range(1, 9))
    logged: dict[str, int] = {}
    for r in hands_json["rounds"]:
        for n in r["nets"]:
            logged[n["player_id"]] = logged.get(n["player_id"], 0) + n["net_cents"]
    assert logged == {pid: p["net_cents"] for pid, p in by_id.items()}, "the hand log's nets are the ledger's"
    theo.click("#ledger-close")
    maya.goto(link)  # later, by the link the game closed: the settle-up is still there for her
    expect(maya.locator("#tray-settle-payments li")).to_have_text(payments)
    ann.goto(f"{site.url}/")  # the host's lobby: the closed game keeps a way to its ledger and settle-up
    card = ann.locator("#my-home-list article.closed", has_text="Friday game")
    card.get_by_role("link", name="Ledger and settle-up of Friday game").click()
    expect(ann.locator("#tray-settle-payments li")).to_have_text(payments)
    stranger = phone(site, "phone", account(site, "Zed"))
    stranger.goto(link)  # ... and for nobody else: the closed game's link lets no one new in
    expect(stranger.locator("#access-title")).to_have_text("This invite does not work any more")
    money = httpx.get(f"{site.url}/api/operator/money", headers=site.headers, timeout=10).json()
    assert money["balanced"], money
    assert shots.problems == [], "\n".join(shots.problems)
    assert site.errors == []

"""The page's parts of a home game with its own chips (issue 31), fed the view's `home.chips` object as
docs/protocol.md gives it, without a server: the Ledger (players, lines, the house's and the commission's
lines, the check, the settle-up once closed), the tray's waiting line and the host's requests, and the chip
events in words. Each drawn at 390x844, 360x740, 1366x768 and 1920x1080 with no text overlapping or cut
(tests/browser/layout.py); screenshots: test-artifacts/browser/chips-unit-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.layout import VIEWPORTS, text_problems

pytestmark = pytest.mark.browser

ANN, MAYA, THEO = "p_ann", "p_maya", "p_theo"


def line(n: int, kind: str, who: str, name: str, cents: int, **more: Any) -> dict[str, Any]:
    return {"line": n, "kind": kind, "player_id": who, "name": name, "amount_cents": cents,
            "by_player_id": more.get("by_player_id"), "by_name": more.get("by_name"),
            "automatic": more.get("automatic", False), "reason": more.get("reason"),
            "round_number": more.get("round_number", 0),
            "at_ms": more.get("at_ms", 1_796_000_000_000 + n * 60_000)}


def chips_view(*, closed: bool = False) -> dict[str, Any]:
    """A game after some rounds: Ann (host) bought in $100 (her own: automatic), Maya $100 then cashed out
    $61.25 and bought in again for $80, Theo $150 edited from $200, rebought $100, and got $5 back by the
    host's correction. Stacks: Ann $171.25, Maya $80.00, Theo $192.50 (issued 535 = 443.75 + 61.25 + 30)."""
    by_ann = {"by_player_id": ANN, "by_name": "Ann"}
    lines = [line(1, "buy_in", ANN, "Ann", 10_000, automatic=True, **by_ann),
             line(2, "buy_in", MAYA, "Maya", 10_000, **by_ann),
             line(3, "buy_in", THEO, "Theo", 15_000, **by_ann),
             line(4, "rebuy", THEO, "Theo", 10_000, round_number=4, **by_ann),
             line(5, "add", THEO, "Theo", 500, reason="a misdeal in round 5", **by_ann),
             line(6, "cash_out", MAYA, "Maya", 6_125, reason="player_left", round_number=6),
             line(7, "buy_in", MAYA, "Maya", 8_000, round_number=6, at_ms=None, **by_ann)]
    players = [
        {"player_id": ANN, "name": "Ann", "buy_ins_cents": 10_000, "added_cents": 0, "taken_cents": 0,
         "cashed_out_cents": 0, "stack_cents": 17_125, "net_cents": 7_125},
        {"player_id": MAYA, "name": "Maya", "buy_ins_cents": 18_000, "added_cents": 0, "taken_cents": 0,
         "cashed_out_cents": 6_125, "stack_cents": None if closed else 8_000, "net_cents": -3_875},
        {"player_id": THEO, "name": "Theo", "buy_ins_cents": 25_000, "added_cents": 500, "taken_cents": 0,
         "cashed_out_cents": 0, "stack_cents": 19_250, "net_cents": -6_250},
    ]
    if closed:
        players[1]["cashed_out_cents"] = 14_125
        players[0]["stack_cents"] = players[2]["stack_cents"] = None
        players[0]["cashed_out_cents"], players[2]["cashed_out_cents"] = 17_125, 19_250
    settle = [{"from_id": THEO, "from_name": "Theo", "to_id": ANN, "to_name": "Ann", "amount_cents": 6_250},
              {"from_id": MAYA, "from_name": "Maya", "to_id": ANN, "to_name": "Ann", "amount_cents": 875},
              {"from_id": MAYA, "from_name": "Maya", "to_id": "house", "to_name": "House",
               "amount_cents": 3_000}]
    return {"default_buy_in_cents": 10_000, "min_buy_in_cents": 2_000, "max_buy_in_cents": 50_000,
            "max_buy_in_cap_cents": 1_000_000, "rebuys": True, "auto_approve": False, "commission": "none",
            "players_bank_in_turn": True,
            "requests": [] if closed else [
                {"request_id": "b8", "player_id": THEO, "name": "Theo", "amount_cents": 10_000, "rebuy": True,
                 "position": None, "approved_cents": None},
                {"request_id": "b9", "player_id": "p_zoe", "name": "Zoe", "amount_cents": 20_000,
                 "rebuy": False, "position": 4, "approved_cents": None}],
            "lines": lines, "players": players, "issued_cents": 53_500,
            "stacks_cents": 0 if closed else 44_375, "cashed_out_cents": 50_500 if closed else 6_125,
            "house_cents": 3_000, "commission_cents": 0, "balanced": True,
            "settle_up": settle if closed else None}


def table_view(chips: dict[str, Any], *, closed: bool = False) -> dict[str, Any]:
    seats: list[Any] = [None] * 7
    if not closed:
        seats[1] = {"player_id": ANN, "name": "Ann", "position": 1, "chips_cents": 17_125}
        seats[2] = {"player_id": MAYA, "name": "Maya", "position": 2, "chips_cents": 8_000}
        seats[3] = {"player_id": THEO, "name": "Theo", "position": 3, "chips_cents": 19_250}
    return {"table_id": "h_test", "name": "Friday game", "phase": "closed" if closed else "betting",
            "seats": seats, "rules": {"min_bet_cents": 500, "max_bet_cents": 20_000},
            "home": {"host_player_id": ANN, "host_name": "Ann", "chips": chips}}


MOUNT_JS = """async ({ view, me, what }) => {
  for (const css of ['/css/base.css', '/css/table.css', '/css/home.css', '/css/chips.css']) {
    if (document.querySelector(`link[href='${css}']`)) continue;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = css;
    document.head.append(link);
    await new Promise((ok) => { link.onload = ok; });
  }
  document.body.className = 'table-page';
  document.body.replaceChildren();
  const sent = (window.__sent = []);
  const ctx = { playerId: me, role: 'player', view, session: { token: 't' }, ui: { errors: {} },
    act: (key, msg) => { sent.push(msg); }, command: async (msg) => { sent.push(msg); return {}; },
    fail: () => null, rerender: () => {} };
  if (what === 'ledger') {
    const { ledgerNodes } = await import('/js/ledger_panel.js');
    const d = document.createElement('dialog');
    d.className = 'ledger-dialog';
    d.id = 'ledger-dialog';
    d.append(...ledgerNodes(view, ctx, view.table_id));
    document.body.append(d);
    d.showModal();
  } else {
    const tray = document.createElement('section');
    tray.className = 'tray';
    tray.id = 'tray';
    document.body.append(tray);
    const { chipRequestsPanel } = await import('/js/host_chips.js');
    const { waitingPanel } = await import('/js/buy_in.js');
    const { closedChipsPanel } = await import('/js/ledger_panel.js');
    const panels = what === 'closed' ? [closedChipsPanel(view, ctx)]
      : [chipRequestsPanel(view, ctx), waitingPanel(view, ctx)];
    tray.append(...panels.filter(Boolean));
  }
}"""


def mount(page: Page, view: dict[str, Any], me: str, what: str) -> None:
    page.evaluate(MOUNT_JS, {"view": view, "me": me, "what": what})


def at_every_size(page: Page, artifacts: Any, name: str) -> list[str]:
    problems: list[str] = []
    for size, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        page.screenshot(path=str(artifacts / f"chips-unit-{name}-{size}.png"), full_page=True)
        problems.extend(f"{name} at {size}: {p}" for p in text_problems(page))
    return problems


def test_the_ledger_live_and_closed(module_page: Page, artifacts: Any) -> None:
    page = module_page
    mount(page, table_view(chips_view()), MAYA, "ledger")
    rows = page.locator("#ledger-players tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Ann")
    expect(rows.nth(0).locator("[data-net]")).to_have_text("+$71.25")
    expect(rows.nth(1)).to_contain_text("$180.00")
    expect(rows.nth(1)).to_contain_text("$61.25 cashed out earlier")  # she left once: under her stack
    expect(rows.nth(1).locator("[data-net]")).to_have_text("−$38.75")  # the page's minus sign (i18n.js money)
    expect(rows.nth(2)).to_contain_text("+$5.00")  # the host's correction under his buy-ins
    expect(page.locator("#ledger-lines li")).to_have_count(7)
    first = page.locator("#ledger-lines li").first  # the newest first, not stamped yet: no time
    expect(first.locator(".time")).to_have_text("—")
    expect(page.locator("#ledger-lines [data-kind='add'] .what")).to_have_text(
        "Ann added chips to Theo: “a misdeal in round 5”")
    expect(page.locator("#ledger-lines [data-line='1'] .by")).to_have_text(
        "Approved by: Ann (the host’s own buy-in)")
    expect(page.locator("#ledger-lines [data-line='6'] .by")).to_have_count(0)  # a cash-out: no one approves
    expect(page.locator("#ledger-house")).to_have_text("The house dealer’s result: +$30.00")
    expect(page.locator("#ledger-commission")).to_have_count(0)  # zero: not shown
    expect(page.locator("#ledger-balanced")).to_have_text(
        "✓Balanced: every chip issued is at the table or cashed out")
    expect(page.locator("#ledger-settle-waits")).to_be_visible()
    for label in ("Ledger (CSV)", "Ledger (JSON)", "Hand log (CSV)", "Hand log (JSON)"):
        expect(page.get_by_role("button", name=label)).to_be_visible()
    problems = at_every_size(page, artifacts, "ledger-live")

    mount(page, table_view(chips_view(closed=True), closed=True), MAYA, "ledger")
    expect(page.locator("#ledger-settle-payments li")).to_have_text(
        ["Theo pays Ann $62.50", "Maya pays Ann $8.75", "Maya pays House $30.00"])
    expect(page.locator("#ledger-settle-totals li")).to_have_text(
        ["Ann gets $71.25 in all", "Maya pays $38.75 in all", "Theo pays $62.50 in all",
         "House gets $30.00 in all"])
    # Closed: the settle-up comes first, before the players.
    assert page.evaluate("[...document.querySelectorAll('#ledger-dialog section')].map((s) => s.id)")[:2] == [
        "ledger-settle", "ledger-players-section"]
    expect(page.locator("#ledger-players tbody tr").nth(0)).to_contain_text("$171.25cashed out")
    problems += at_every_size(page, artifacts, "ledger-closed")
    mount(page, table_view(chips_view(closed=True), closed=True), THEO, "closed")
    expect(page.locator("[data-panel='settle'] #tray-settle-payments li").first).to_have_text(
        "Theo pays Ann $62.50")
    problems += at_every_size(page, artifacts, "settle-tray")
    assert problems == [], "\n".join(problems)


def test_the_waiting_line_and_the_host_s_requests(module_page: Page, artifacts: Any) -> None:
    page = module_page
    view = table_view(chips_view())
    view["home"]["chips"]["requests"][1]["player_id"] = "p_zoe"
    mount(page, view, "p_zoe", "tray")  # Zoe's buy-in waits: her line, her Cancel; no host panel for her
    expect(page.locator("#buy-in-status")).to_have_text("Waiting for Ann to approve your $200.00 buy-in")
    expect(page.locator("[data-panel='buy-in-wait']")).to_contain_text("Seat 4 is held for you meanwhile")
    expect(page.locator("[data-panel='chip-requests']")).to_have_count(0)
    page.click("#cancel-buy-in")
    assert page.evaluate("window.__sent") == [{"type": "cancel_buy_in", "request_id": "b9"}]
    problems = at_every_size(page, artifacts, "waiting")

    mount(page, view, ANN, "tray")  # the host: both requests, each with its amount to approve or change
    panel = page.locator("[data-panel='chip-requests']")
    expect(panel.locator(".big")).to_have_text("2 chip requests wait")
    expect(panel.locator("[data-chip-request='b8'] .who")).to_have_text("Theo asks for a $100.00 rebuy")
    expect(panel.locator("[data-chip-request='b9'] .who")).to_have_text(
        "Zoe asks for a $200.00 buy-in at seat 4")
    page.get_by_role("button", name="Approve Theo's chips").click()
    page.fill("#chip-amount-b9", "150")
    page.get_by_role("button", name="Approve Zoe's chips").click()
    page.get_by_role("button", name="Deny Theo's chips").click()
    assert page.evaluate("window.__sent") == [
        {"type": "host_buy_in", "request_id": "b8", "approve": True},
        {"type": "host_buy_in", "request_id": "b9", "approve": True, "amount_cents": 15_000},
        {"type": "host_buy_in", "request_id": "b8", "approve": False}]
    problems += at_every_size(page, artifacts, "host-requests")
    assert problems == [], "\n".join(problems)


WORDS_JS = """async ({ events, view, me }) => {
  const { describeChipEvents } = await import('/js/chips_words.js');
  const { voidText } = await import('/js/explain.js');
  const names = { p_ann: 'Ann', p_maya: 'Maya', p_theo: 'Theo' };
  const lines = describeChipEvents(events, view, me, (id) => names[id] ?? null);
  return [lines.map((l) => l.text), voidText('no_banker')];
}"""


def test_the_chip_events_in_words(module_page: Page) -> None:
    view = table_view(chips_view())
    events = [
        {"kind": "buy_in_requested", "request_id": "b2", "player_id": MAYA, "name": "Maya",
         "amount_cents": 10_000, "rebuy": False, "position": 2},
        {"kind": "buy_in_approved", "request_id": "b2", "player_id": MAYA, "name": "Maya",
         "amount_cents": 12_000, "rebuy": False, "by_player_id": ANN, "by_name": "Ann", "automatic": False,
         "deferred": False},
        {"kind": "buy_in_denied", "request_id": "b3", "player_id": THEO, "by_player_id": ANN,
         "by_name": "Ann"},
        {"kind": "chips_adjusted", "player_id": THEO, "position": 3, "amount_cents": -500,
         "reason": "overpaid", "by_player_id": ANN, "by_name": "Ann"},
        {"kind": "chips_added", "request_id": "b4", "player_id": MAYA, "position": 2, "amount_cents": 5_000},
        {"kind": "player_left", "player_id": MAYA, "seat": 2, "chips_returned_cents": 12_350},
        {"kind": "chip_settings_changed", "min_buy_in_cents": 2_000, "max_buy_in_cents": 50_000,
         "default_buy_in_cents": 10_000, "rebuys": True, "auto_approve": False},
    ]
    settings = ("The host changed the chips: buy-ins from $20.00 to $500.00, $100.00 suggested. "
                "Rebuys are allowed. The host approves each buy-in.")
    host, void = module_page.evaluate(WORDS_JS, {"events": events, "view": view, "me": ANN})
    assert host == [
        "Maya asks for a $100.00 buy-in: approve, change the amount or deny.",
        "You approved Maya's $120.00 buy-in.",
        "You denied Theo's request for chips.",
        "Ann took $5.00 of Theo's chips back: “overpaid”.",
        "Maya's $50.00 rebuy landed.",
        "Maya cashed out $123.50.",
        settings,
    ]
    maya, _ = module_page.evaluate(WORDS_JS, {"events": events, "view": view, "me": MAYA})
    assert maya == [
        "You asked for a $100.00 buy-in.",
        "Ann approved your $120.00 buy-in.",
        "Ann took $5.00 of Theo's chips back: “overpaid”.",
        "Your $50.00 rebuy landed: it is in your stack.",
        "You cashed out $123.50.",
        settings,
    ]
    assert void == "Nobody could or would bank this round: the bank passes on."


PASSING_JS = """async ({ view }) => {
  const { describeEvents } = await import('/js/explain.js');
  const names = { p_maya: 'Maya', p_theo: 'Theo' };
  const events = [{ kind: 'bank_declined', player_id: 'p_maya', timed_out: false },
    { kind: 'bank_declined', player_id: 'p_theo', timed_out: true }];
  return describeEvents(events, view, 'p_ann', (id) => names[id] ?? null).map((l) => l.text);
}"""


def test_a_declined_bank_passes_on_when_players_bank_in_turn(module_page: Page) -> None:
    view = table_view(chips_view())
    view["rules"]["players_bank_in_turn"] = True
    assert module_page.evaluate(PASSING_JS, {"view": view}) == [
        "Maya declined the bank: it passes on.",
        "Theo did not answer the bank offer in time: the bank passes on."]
    view["rules"]["players_bank_in_turn"] = False  # the house dealer kept: the house banks, as before
    assert module_page.evaluate(PASSING_JS, {"view": view}) == [
        "Maya declined the bank: the house banks.",
        "Theo did not answer the bank offer in time: the house banks."]

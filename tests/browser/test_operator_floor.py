"""The console's Floor (issue 34, docs/floor.md) in Chromium: after rounds played at a table, the Floor shows
the figures of ``GET /api/operator/floor`` exactly as the API gives them (money, counts and percents in the
page's language), its three charts drawn as wide as the panel at every size (smaller on a phone, redrawn when
the window changes), each with its legend and a captioned table of the API's series, the CSV the API writes,
the per-table list, and the Second looks with their links to rounds; axe finds nothing serious; nothing wider
than the screen, clipped or overlapping at 1366x768, 1920x1080, 390x844 and 360x740, in English, Vietnamese
and the pseudo-locale (where every word must come from the catalog; screenshots of each)."""

from __future__ import annotations

import asyncio
import csv
import io
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from redis.asyncio import Redis
from tests.browser.layout import text_problems
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_operator_console import no_sideways_overflow
from tests.browser.test_operator_console_pseudo import UNBRACKETED_JS
from tests.browser.wire import Wire, WirePlayer

from paigow.table import Timers, new_table
from paigow.table.commands import Sit
from paigow_server.store.accounts import Accounts
from paigow_server.store.tables import CommitResult, TableRepo
from support.pair_rounds import BANK_IN_TURN, play_banked_round
from support.tables import TableDriver

pytestmark = pytest.mark.browser

SIZES = ((1366, 768), (1920, 1080), (390, 844), (360, 740))
TIMERS = {"bank_offer_ms": 1_000, "betting_ms": 60_000, "setting_ms": 60_000, "between_rounds_ms": 500}
ROUNDS = 3
FIGURES = ("rounds", "rounds_per_hour", "handle", "win", "hold", "theo_win", "commission", "fortune_hold",
           "queens_dragon_hold", "player_banked_share", "co_banked_share", "seats_per_round",
           "players_online", "spectators_online", "seats_occupied")
CHARTS = ("floor-win", "floor-volume", "floor-occupancy")


def until_accepted(player: WirePlayer, kind: str, timeout_s: float = 20, **fields: Any) -> None:
    """Send ``kind`` until the table takes it (a bet waits for the betting phase, a hand for the deal)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            player.command(kind, **fields)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def settled(site: Any, table: str) -> int:
    res = httpx.get(f"{site.url}/api/tables/{table}/rounds?limit=100", timeout=10)
    assert res.status_code == 200, res.text
    return len(res.json()["rounds"])


def play_rounds(site: Any, wire: Wire, name: str, rounds: int) -> str:
    """A table where two players over the wire bet and set by the House Way ``rounds`` times: its id."""
    table = site.open_table(name, **TIMERS)
    ann, bob = wire(table, "Ann Floorwell"), wire(table, "Bob Pitboss")
    ann.command("sit", seat=2, buy_in_cents=30_000)
    bob.command("sit", seat=5, buy_in_cents=30_000)
    for number in range(1, rounds + 1):
        for player, cents in ((ann, 1_500), (bob, 2_500)):
            until_accepted(player, "place_bet", amount_cents=cents)
        for player in (ann, bob):
            until_accepted(player, "use_house_way")
        deadline = time.monotonic() + 20
        while settled(site, table) < number:
            assert time.monotonic() < deadline, f"round {number} never settled"
            time.sleep(0.2)
    return table


def floor_api(site: Any, query: str) -> dict[str, Any]:
    res = httpx.get(f"{site.url}/api/operator/floor?{query}", headers=site.headers, timeout=10)
    assert res.status_code == 200, res.text
    data: dict[str, Any] = res.json()
    return data


def console(site: Any, lang: str = "en", width: int = 1366, height: int = 768) -> Page:
    op = site.page(width=width, height=height)
    op.add_init_script(f"localStorage.setItem('paigow.lang', '{lang}')")
    op.goto(f"{site.url}/operator")
    op.fill("#op-token", site.headers["Authorization"].removeprefix("Bearer "))
    op.click("#login-form button[type=submit]")
    expect(op.locator("#console[data-ready='true']")).to_be_visible()
    expect(op.locator("#floor-panel[data-ready='true']")).to_be_attached()
    return op


def show_table(op: Page, table: str) -> None:
    """Pick ``table`` in the Floor's picker (the last hour) and wait for its figures."""
    op.select_option("#floor-window", "hour")
    expect(op.locator("#floor-panel")).to_have_attribute("data-query", "window=hour")
    op.select_option("#floor-table", table)
    expect(op.locator("#floor-panel")).to_have_attribute("data-query", f"window=hour&table={table}")
    expect(op.locator("#floor-tables-part")).to_be_hidden()


def expected_figures(op: Page, data: dict[str, Any]) -> dict[str, str]:
    """What each figure must say: the API's number through the page's own Intl helpers."""
    shown: dict[str, str] = op.evaluate("""async (d) => {
      const { locale, money, number, percent } = await import('/js/i18n.js');
      const s = d.totals, now = d.now;
      const one = (v) => new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
        .format(v);
      const pct = (v) => (v == null ? '—' : percent(v / 100));
      const sign = { sign: true };
      return { rounds: number(s.rounds), rounds_per_hour: one(s.rounds_per_hour),
        handle: money(s.handle_cents), win: money(s.win_cents, sign), hold: pct(s.hold_pct),
        theo_win: money(s.theo_win_cents, sign), commission: money(s.commission_cents),
        fortune_hold: pct(s.fortune_hold_pct), queens_dragon_hold: pct(s.queens_dragon_hold_pct),
        player_banked_share: percent(s.player_banked_share), co_banked_share: percent(s.co_banked_share),
        seats_per_round: one(s.seats_per_round),
        players_online: number(now.players_online), spectators_online: number(now.spectators_online),
        seats_occupied: `${number(now.seats_occupied)}|${number(now.seats_total)}` };
    }""", data)
    return shown


def figures_shown(op: Page) -> dict[str, str]:
    found: dict[str, str] = op.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#floor-figures [data-figure]')]
          .map((f) => [f.dataset.figure, f.querySelector('.value').textContent]))""")
    return found


def charts_fit(op: Page) -> list[str]:
    """Each chart's canvas is drawn, inside its panel, and at least 80% of the panel's inner width."""
    problems: list[str] = op.evaluate("""(ids) => ids.flatMap((id) => {
      const canvas = document.querySelector(`#${id} canvas`);
      if (!canvas) return [`${id}: no canvas`];
      const c = canvas.getBoundingClientRect();
      const panel = document.querySelector('#floor-panel').getBoundingClientRect();
      const out = [];
      if (c.width < 150 || c.height < 150) out.push(`${id}: ${c.width}x${c.height}`);
      if (c.left < panel.left || c.right > panel.right + 0.5) out.push(`${id}: ${c.left}-${c.right} past it`);
      if (c.width < (panel.width - 60) * 0.8) out.push(`${id}: ${c.width} of a ${panel.width} panel`);
      return out;
    })""", list(CHARTS))
    return problems


def look(site: Any, op: Page, name: str, allowed: list[str] | None = None) -> list[str]:
    """At each size: a screenshot of the Floor and of the Second looks, and what is wrong in them."""
    problems: list[str] = []
    for width, height in SIZES:
        op.set_viewport_size({"width": width, "height": height})
        op.wait_for_timeout(400)  # the charts are sized again by their ResizeObserver
        parts = ["#floor-panel", "#looks-panel"]
        if width in (390, 1366):  # a whole panel is too tall to look at on a phone: its parts too
            parts += ["#floor-figures", *(f"[data-chart='{chart}']" for chart in CHARTS)]
        for part in parts:
            what = part.strip("#[]").replace("'", "").replace("=", "-")
            shot = site.artifacts / f"floor-{name}-{width}x{height}-{what}.png"
            op.locator(part).screenshot(path=str(shot))
        try:
            no_sideways_overflow(op)
        except AssertionError as wide:
            problems.append(f"{width}: {wide}")
        problems += [f"{width}: {p}" for p in charts_fit(op)]
        problems += [f"{width}: {p}" for p in text_problems(op)]
    if allowed is not None:
        problems += op.evaluate(UNBRACKETED_JS, allowed)
    op.set_viewport_size({"width": 1366, "height": 768})
    return problems


def test_the_floor_shows_the_apis_figures_charts_tables_and_csv(site: Any, wire: Wire) -> None:
    table = play_rounds(site, wire, "Floor Jade", ROUNDS)
    op = console(site)
    show_table(op, table)
    data = floor_api(site, f"window=hour&table={table}")
    assert data["totals"]["rounds"] == ROUNDS  # the rounds played, counted once each
    assert data["totals"]["handle_cents"] == ROUNDS * 4_000
    want = expected_figures(op, data)
    shown = figures_shown(op)
    assert sorted(shown) == sorted(FIGURES)
    seats = want.pop("seats_occupied").split("|")
    assert shown.pop("seats_occupied") == f"{seats[0]} of {seats[1]}"
    assert shown == want
    expect(op.locator("#floor-figures [data-figure='rounds'] .value")).to_have_text(str(ROUNDS))
    expect(op.locator("#floor-figures [data-figure='handle'] .value")).to_have_text(f"${ROUNDS * 40}.00")
    expect(op.locator("#floor-span")).to_contain_text("(UTC), a point every minute.")

    # Each chart: a canvas, a legend, and a table with a caption of the API's series, row by row.
    for chart in CHARTS:
        figure = op.locator(f"[data-chart='{chart}']")
        expect(figure.locator("canvas").first).to_be_visible()
        expect(figure.locator(f"#{chart}")).to_have_attribute("role", "img")
        assert figure.locator(".floor-legend li").count() >= 1
        figure.locator("summary").click()
        expect(figure.locator("table caption")).to_be_visible()
        expect(figure.locator("tbody tr")).to_have_count(len(data["series"]))
    rounds = op.locator("#floor-volume-table td[data-key='rounds']").all_text_contents()
    assert [int(r) for r in rounds] == [p["rounds"] for p in data["series"]]
    handles = op.locator("#floor-win-table td[data-key='cum_win_cents']").all_text_contents()
    assert handles[-1] == shown["win"]
    legend = op.locator("[data-chart='floor-win'] .floor-legend").inner_text()
    for words in ("Win", "Theoretical win", "Chance's band (± 2 sd)"):
        assert words in legend

    # The CSV: the API's file, saved through the link (the token goes in a header, not the address).
    with op.expect_download() as download:
        op.click("#floor-csv")
    assert download.value.suggested_filename.startswith(f"floor-{table}-")
    path = download.value.path()
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert list(rows[0]) == list(data["series"][0])  # the series' fields, in the API's order
    assert len(rows) in (len(data["series"]), len(data["series"]) + 1)  # the hour may have moved a minute
    assert sum(int(r["rounds"]) for r in rows) == ROUNDS
    assert sum(int(r["handle_cents"]) for r in rows) == data["totals"]["handle_cents"]

    # The deployment: the table in the per-table list; a click on its name shows it alone again.
    op.select_option("#floor-table", "")
    row = op.locator(f"#floor-tables tr[data-table='{table}']")
    expect(row).to_contain_text("Floor Jade")
    every = floor_api(site, "window=hour")
    mine = next(t for t in every["tables"] if t["table_id"] == table)
    expect(row.locator("td").nth(2)).to_contain_text(f"${mine['handle_cents'] // 100:,}.00")
    row.locator("[data-action='floor-pick']").click()
    expect(op.locator("#floor-table")).to_have_value(table)

    # A from-to window the wrong way round is refused in the form, at its field, and asks nothing.
    op.select_option("#floor-window", "range")
    op.fill("#floor-from", "2026-12-06")
    op.fill("#floor-to", "2026-12-01")
    op.click("#floor-show")
    expect(op.locator("#floor-error")).to_have_text(
        "The last day is before the first: pick them the other way round.")
    expect(op.locator("#floor-to")).to_have_attribute("aria-invalid", "true")
    op.select_option("#floor-window", "hour")
    expect(op.locator("#floor-error")).to_have_text("")

    # Second looks: honest play flags nothing; its lists say so.
    looks = httpx.get(f"{site.url}/api/operator/second-looks?window=7d", headers=site.headers, timeout=10)
    if looks.status_code == 200:
        expect(op.locator("#looks-error")).to_have_text("")
        expect(op.locator("#looks-hint")).to_contain_text("standard deviations")
    for figure in CHARTS:
        op.locator(f"[data-chart='{figure}'] details").evaluate("(d) => d.open = true")
    assert serious_violations(op) == []
    problems = look(site, op, "en")
    assert problems == [], "\n".join(problems)
    assert site.errors == []


@pytest.mark.parametrize("lang", ["vi", "en-XA"])
def test_the_floor_in_a_long_language_and_the_pseudo_locale(site: Any, wire: Wire, lang: str) -> None:
    table = play_rounds(site, wire, f"Floor {lang}", 1)
    op = console(site, lang)
    show_table(op, table)
    if lang == "vi":  # another window's points: the hours of a week, the axis with days
        op.select_option("#floor-window", "7d")
        expect(op.locator("#floor-panel")).to_have_attribute("data-query", f"window=7d&table={table}")
        expect(op.locator("#floor-span")).to_contain_text("mỗi điểm là 1 giờ")
    for chart in CHARTS:
        op.locator(f"[data-chart='{chart}'] details").evaluate("(d) => d.open = true")
    missing = [k for k in op.evaluate("[...window.__i18n.missing]") if k.startswith("console:")]
    assert missing == []
    allowed = [f"Floor {lang}", "Ann Floorwell", "Bob Pitboss"] if lang == "en-XA" else None
    problems = look(site, op, lang, allowed)
    assert problems == [], "\n".join(problems)
    assert site.errors == []


async def plant_a_pair(redis_url: str, rounds: int) -> tuple[str, str, str]:
    """``rounds`` rounds at a new table written straight to the server's Redis (the in-process driver of the
    store tests): one player banks each of them, another bets big against it and fouls whenever they can,
    a third plays fair. (table id, banker id, dumper id)."""
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        repo = TableRepo(redis)
        accounts = Accounts(redis, starting_balance_cents=1_000_000)
        bank, dump, fair = [(await accounts.create(name)).player_id
                            for name in ("Banker Bea", "Dumper Dan", "Fair Fay")]
        table = f"t_looks_{secrets.token_hex(3)}"
        await repo.create(new_table(table, "Looks Jade", BANK_IN_TURN, Timers()))
        driver = TableDriver(repo, table)
        driver.now_ms = time.time_ns() // 1_000_000
        for seat, player in enumerate((bank, dump, fair), start=1):
            assert await driver.do(Sit(player, player, seat, 500_000)) is CommitResult.OK
        for _ in range(rounds):
            await play_banked_round(driver, bank, {dump: 10_000, fair: BANK_IN_TURN.min_bet_cents},
                                    fouling=frozenset({dump}))
        return table, bank, dump
    finally:
        await redis.aclose()


def test_second_looks_list_a_planted_pair_with_links_to_its_rounds(site: Any) -> None:
    # Playwright's sync API runs an event loop in this thread: the store's calls run in another.
    with ThreadPoolExecutor(1) as pool:
        _, bank, dump = pool.submit(asyncio.run, plant_a_pair(site.server.redis_url, 20)).result()
    looks = httpx.get(f"{site.url}/api/operator/second-looks?window=7d", headers=site.headers, timeout=10)
    assert looks.status_code == 200, looks.text
    pair = next(p for p in looks.json()["pairs"] if (p["banker_id"], p["player_id"]) == (bank, dump))
    op = console(site)
    expect(op.locator("#looks-panel[data-ready='true']")).to_be_attached()
    row = op.locator(f"#looks-pairs tr[data-banker='{bank}'][data-player='{dump}']")
    expect(row).to_contain_text("Banker Bea")
    expect(row).to_contain_text("Dumper Dan")
    z = op.evaluate("""async (z) => { const { locale } = await import('/js/i18n.js');
        return new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
          .format(z); }""", pair["z"])
    expect(row.locator("td").nth(5)).to_have_text(z.replace("-", "−"))
    flow = op.evaluate("async (c) => (await import('/js/i18n.js')).money(c, { sign: true })",
                       pair["flow_cents"])
    expect(row.locator("td").nth(3)).to_have_text(flow)
    links = row.locator(".round-links a")
    expect(links).to_have_count(len(pair["round_ids"]))
    assert [a.text_content() for a in links.all()] == pair["round_ids"]
    fouls = op.locator(f"#looks-fouls tr[data-banker='{bank}'][data-player='{dump}']")
    expect(fouls).to_contain_text("Dumper Dan")
    expect(op.locator("#looks-hint")).to_contain_text("docs/floor.md#second-looks")

    # A round's link opens its check on the verify page, with the record's seed: the deal is verified.
    with op.context.expect_page() as opened:
        links.first.click()
    verify = opened.value
    expect(verify.locator("#verdict")).to_contain_text("Verified")
    assert pair["round_ids"][0] in verify.url
    verify.close()
    assert serious_violations(op) == []
    problems = look(site, op, "looks")
    assert problems == [], "\n".join(problems)
    assert site.errors == []

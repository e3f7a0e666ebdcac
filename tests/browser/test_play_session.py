"""The play session's strip and the reality check on the table page, against the real server (its
``PlaySessionPush``): the strip shows the session's time and net, one tap hides it (remembered after a
reload) and one brings it back; a reality check due while the player's bet is in the round waits for the
round's end, then its card stays over the next round without covering the act clock, the bet controls or
the setter (``layout.overlaps`` and the card's own box); Leave table leaves. The session figures are the play
accounting's (``G:player:{p}:rg``): written here as the accounting writes them. Screenshots:
``responsible-{bar,check}-<size>.png``."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis as redis_sync
from playwright.sync_api import Page, expect
from tests.browser.layout import overlaps, seated_alone

from paigow_server.store import keys

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (360, 740), (1366, 768)]
MIN = 60_000
CATALOGS = Path(__file__).resolve().parents[2] / "client_web" / "i18n"


def player_id(page: Page) -> str:
    found: str = page.evaluate("() => JSON.parse(localStorage.getItem('paigow.session')).player_id")
    return found


def seated_with(site: Any, me: str, width: int, height: int, *, minutes_ago: int, net: int,
                wagered: int, lang: str | None = None, limits: dict[str, int] | None = None) -> Page:
    """``me`` alone at a new table with a session already ``minutes_ago`` old: the figures are written
    before the sit, which keeps a session in progress (``play_accounting``) and makes the push read them.
    ``lang``: the page's language; ``limits``: set before the sit."""
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10,
                     json={"name": f"Table of {me}", "timers": {}})
    assert res.status_code == 201, res.text
    page: Page = site.player(me, width=width, height=height)
    if lang:
        page.evaluate("lang => localStorage.setItem('paigow.lang', lang)", lang)
    if limits:
        token = page.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
        put = httpx.put(f"{site.url}/api/account/responsible-play", json={"limits": limits}, timeout=10,
                        headers={"Authorization": f"Bearer {token}"})
        assert put.status_code == 200, put.text
    session_figures(site, page, minutes_ago=minutes_ago, net=net, wagered=wagered)
    page.goto(f"{site.url}/table/?id={res.json()['table_id']}")
    page.wait_for_function("() => window.paigow?.ctx?.view")
    page.click("[data-seat='1']")
    page.fill("#buy-in", "300")
    page.click("#sit-confirm")
    page.wait_for_selector("#place-bet")
    return page


def session_figures(site: Any, page: Page, *, minutes_ago: int, net: int, wagered: int) -> None:
    client = redis_sync.Redis.from_url(site.server.redis_url)
    try:
        client.hset(keys.rg(player_id(page)), mapping={
            "sess_start_ms": time.time_ns() // 1_000_000 - minutes_ago * MIN, "sess_net_cents": net,
            "sess_wager_cents": wagered})
    finally:
        client.close()


def stored_net(site: Any, page: Page) -> int:
    client = redis_sync.Redis.from_url(site.server.redis_url)
    try:
        return int(client.hget(keys.rg(player_id(page)), "sess_net_cents") or 0)
    finally:
        client.close()


def box(page: Page, selector: str) -> dict[str, float] | None:
    found: dict[str, float] | None = page.evaluate(
        """s => { const e = document.querySelector(s); if (!e || !e.getClientRects().length) return null;
                 const r = e.getBoundingClientRect();
                 return {l: r.left, t: r.top, r: r.right, b: r.bottom}; }""",
        selector)
    return found


def apart(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    if a is None or b is None:
        return True
    return a["r"] <= b["l"] or b["r"] <= a["l"] or a["b"] <= b["t"] or b["b"] <= a["t"]


def header_whole(page: Page) -> list[str]:
    """Every header button inside the screen, and the strip's and the limits' words not cut."""
    found: list[str] = page.evaluate("""() => {
      const w = window.innerWidth, bad = [];
      const bottom = document.querySelector('.topbar').getBoundingClientRect().bottom;
      for (const b of document.querySelectorAll('.topbar button, .topbar .toggle')) {
        if (!b.getClientRects().length) continue;
        const r = b.getBoundingClientRect();
        if (r.left < 0 || r.right > w + 0.5 || r.bottom > bottom + 0.5)
          bad.push(b.id || b.textContent.trim());
      }
      const s = document.getElementById('session-strip');
      if (s && !s.hidden && s.scrollWidth > s.clientWidth + 1) bad.push('session-strip cut');
      // Beside the strip the table's limits stay whole too ("$5 – $300 · Fortune"); the name gives way.
      const l = document.getElementById('table-limits');
      if (l && l.getClientRects().length && l.scrollWidth > l.clientWidth + 1) bad.push('table-limits cut');
      return bad; }""")
    return found


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_strip_shows_hides_and_remembers(site: Any, width: int, height: int) -> None:
    page = seated_with(site, f"Stripe{width}", width, height, minutes_ago=42, net=3_500, wagered=12_000)
    strip = page.locator("#session-strip")
    expect(strip).to_be_visible(timeout=6_000)
    # A phone's strip takes the narrow units, so the limits beside it stay whole; never "0:42".
    length = "42m" if width <= 760 else "42 min"
    expect(strip.locator(".session-text")).to_have_text(f"{length} · +$35.00")
    expect(strip).to_have_attribute("aria-pressed", "true")
    site.shot(page, f"responsible-bar-{width}x{height}")
    assert header_whole(page) == []
    strip.click()
    expect(strip.locator(".session-text")).to_be_hidden()
    expect(strip).to_have_attribute("aria-pressed", "false")
    page.reload()
    page.wait_for_function("() => window.paigow?.ctx?.view")
    expect(strip).to_be_visible(timeout=6_000)
    expect(strip.locator(".session-text")).to_be_hidden()  # hidden stays hidden
    strip.click()
    expect(strip.locator(".session-text")).to_have_text(re.compile(r"^4\d(m| min) · \+\$35\.00$"))
    assert header_whole(page) == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_reality_check_waits_for_the_round_and_covers_no_clock(site: Any, width: int, height: int) -> None:
    page = seated_alone(site, f"Check {width}", f"Checker{width}", width, height,
                        timers={"betting_ms": 8_000, "setting_ms": 60_000, "between_rounds_ms": 8_000})
    page.fill("#bet-amount", "10")
    page.click("#place-bet")
    expect(page.locator(".setter")).to_be_visible(timeout=15_000)
    session_figures(site, page, minutes_ago=65, net=-1_250, wagered=4_000)  # due now: she is in play
    expect(page.locator("#session-strip")).to_be_visible(timeout=6_000)
    page.wait_for_timeout(3_000)  # the push ran at least once: no card over her hand
    expect(page.locator("#reality-check")).to_have_count(0)
    page.click("#house-way")
    page.click("#done")
    card = page.locator("#reality-check")
    expect(card).to_be_visible(timeout=8_000)  # right after the settle
    net = stored_net(site, page)  # -$12.50 and the round's own result, as the settle added it
    sign = "+\u2060" if net > 0 else "−\u2060" if net < 0 else ""
    words = f"You have played for 1 hr, 5 min. Your net this session: {sign}${abs(net) / 100:,.2f}."
    expect(card).to_contain_text(words)
    strip_length = r"^1 hr, \d min · " if width > 760 else r"^1h \dm · "  # narrow units on a phone
    expect(page.locator("#session-strip .session-text")).to_have_text(re.compile(strip_length))
    site.shot(page, f"responsible-check-{width}x{height}")
    # The next round: the card stays (nothing a person reads goes by itself) and covers no control: the
    # bank offered to her (the marker moved to her seat), then the bet.
    expect(page.locator("#decline-bank")).to_be_visible(timeout=15_000)
    expect(card).to_be_visible()
    site.shot(page, f"responsible-check-offer-{width}x{height}")
    for selector in ("#accept-bank", "#decline-bank", ".tray", ".center .countdown", ".cd-text"):
        assert apart(box(page, "#reality-check"), box(page, selector)), selector
    assert overlaps(page) == []
    page.click("#decline-bank")
    expect(page.locator("#place-bet")).to_be_visible(timeout=15_000)
    assert overlaps(page) == []
    for selector in ("#place-bet", "[data-panel='bet']", ".tray", ".center .countdown", ".cd-text"):
        assert apart(box(page, "#reality-check"), box(page, selector)), selector
    page.fill("#bet-amount", "10")
    page.click("#place-bet")
    expect(page.locator(".setter")).to_be_visible(timeout=15_000)
    expect(card).to_be_visible()
    for selector in (".setter", ".tray", ".center .countdown", ".cd-text", "#done", "#house-way"):
        assert apart(box(page, "#reality-check"), box(page, selector)), selector
    assert overlaps(page) == []
    site.shot(page, f"responsible-check-setting-{width}x{height}")
    page.click("#check-leave")  # the normal leave: at this round's end
    expect(card).to_have_count(0)
    page.click("#house-way")
    page.click("#done")
    page.wait_for_function("() => window.paigow.ctx.view && !window.paigow.ctx.view.you", timeout=15_000)


def test_keep_playing_and_history_answer_the_card(site: Any) -> None:
    page = seated_with(site, "Answerer", 390, 844, minutes_ago=61, net=0, wagered=0)
    card = page.locator("#reality-check")
    expect(card).to_be_visible(timeout=8_000)  # betting open, no bet of hers: not in play
    page.click("#check-keep")
    expect(card).to_have_count(0)
    expect(page.locator("#place-bet")).to_be_visible()
    client = redis_sync.Redis.from_url(site.server.redis_url)
    try:
        client.hset(keys.rg(player_id(page)), "next_check_ms", time.time_ns() // 1_000_000)  # due again,
        client.publish(keys.PLAY_SESSIONS, player_id(page))  # and said: every process reads her figures
    finally:
        client.close()
    expect(card).to_be_visible(timeout=10_000)  # read at the push's next step (2 s)
    page.click("#check-history")
    expect(card).to_have_count(0)
    expect(page.locator("#history-dialog")).to_be_visible()


def test_history_lists_the_finished_session(site: Any) -> None:
    page = seated_with(site, "Historian", 390, 844, minutes_ago=42, net=3_500, wagered=12_000)
    page.click("#leave")
    page.click("#leave-confirm")  # no bet of hers in the round: she leaves at once, her session ends
    page.wait_for_function("() => window.paigow.ctx.view && !window.paigow.ctx.view.you")
    expect(page.locator("#session-strip")).to_be_hidden(timeout=40_000)  # the task reads it on the leave
    page.click("#history-btn")
    rows = page.locator("#play-sessions tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator("td").nth(1)).to_have_text("42 min")
    expect(rows.first.locator("td").nth(2)).to_have_text("+$35.00")
    site.shot(page, "responsible-history-390x844")


def test_a_time_limit_stands_up_and_the_pause_is_said_until_it_ends(site: Any) -> None:
    """A session time limit reached: the player is stood up, and the tray says why and until when (the
    pause's end read from the server, not learnt from a refused sit): no seat is offered. After a reload of
    the table and in the lobby the same: no Sit, the reason with the time. When the pause ends the seats and
    the lobby's Sit come back by themselves."""
    page = seated_with(site, "Timekeeper", 390, 844, minutes_ago=5, net=0, wagered=0)
    token = page.evaluate("JSON.parse(localStorage.getItem('paigow.session')).token")
    res = httpx.put(f"{site.url}/api/account/responsible-play", headers={"Authorization": f"Bearer {token}"},
                    json={"limits": {"session_minutes": 1}}, timeout=10)  # tighter: in force at once, reached
    assert res.status_code == 200, res.text
    page.wait_for_function("() => window.paigow.ctx.view && !window.paigow.ctx.view.you", timeout=15_000)
    expect(page.locator(".toast-area")).to_contain_text(
        "You were stood up because you reached your session time limit.")
    tray = page.locator("#choose-seat")
    why = "You reached your session time limit: you can sit down again from "
    expect(tray).to_contain_text(why)
    expect(page.locator(".sit-btn")).to_have_count(0)
    site.shot(page, "responsible-time-limit-390x844")
    page.reload()
    page.wait_for_function("() => window.paigow?.ctx?.view")
    expect(tray).to_contain_text(why)
    expect(page.locator(".sit-btn")).to_have_count(0)
    site.shot(page, "responsible-time-limit-reloaded-390x844")
    table = page.evaluate("window.paigow.ctx.view.table_id")
    lobby = page.context.new_page()
    lobby.set_viewport_size({"width": 390, "height": 844})
    lobby.goto(f"{site.url}/")
    card = lobby.locator(f".table-card[data-table='{table}']")
    expect(card.locator("button.btn")).to_be_disabled()
    expect(card.locator(".sit-refusal")).to_contain_text(why)
    card.scroll_into_view_if_needed()
    site.shot(lobby, "responsible-time-limit-lobby-390x844")
    # The pause made to end in 4 s (its hour nearly passed): both pages offer Sit again by themselves.
    client = redis_sync.Redis.from_url(site.server.redis_url)
    try:
        state = httpx.get(f"{site.url}/api/account/responsible-play", timeout=10,
                          headers={"Authorization": f"Bearer {token}"}).json()
        hit = int(client.hget(keys.rg(player_id(page)), "time_hit_ms"))
        pause = state["sit_paused_until_ms"] - hit
        client.hset(keys.rg(player_id(page)), "time_hit_ms", time.time_ns() // 1_000_000 - pause + 4_000)
    finally:
        client.close()
    page.reload()
    page.wait_for_function("() => window.paigow?.ctx?.view")
    lobby.reload()
    expect(page.locator(".sit-btn")).to_have_count(0)
    expect(card.locator(".sit-refusal")).to_contain_text(why)
    expect(page.locator(".sit-btn").first).to_be_visible(timeout=10_000)
    expect(tray).to_have_text("Choose an open seat to sit down.")
    expect(card.locator("a.btn").first).to_be_visible(timeout=10_000)
    expect(card.locator(".sit-refusal")).to_have_count(0)


@pytest.mark.parametrize("lang", ["vi", "zh-Hant"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_strip_and_the_room_left_in_other_languages(site: Any, lang: str, width: int,
                                                       height: int) -> None:
    """The strip's length in the language's own units (Intl), never "1:06", whole in the header; the bet
    panel's most a loss limit leaves, in the catalog's words."""
    page = seated_with(site, f"Lan {lang} {width}", width, height, minutes_ago=66, net=-475, wagered=2_000,
                       lang=lang, limits={"loss_day": 1_200})
    text = page.locator("#session-strip .session-text")
    expect(text).to_be_visible(timeout=6_000)
    lengths: list[str] = page.evaluate("""([lang, style]) => [6, 7].map((minutes) => new Intl.DurationFormat(
      lang, { style, minutesDisplay: 'always' }).format({ hours: 1, minutes }))""",
                                       [lang, "narrow" if width <= 760 else "short"])
    shown = text.text_content() or ""
    assert any(shown.startswith(f"{length} · ") for length in lengths), (shown, lengths)
    assert not re.search(r"\d:\d\d", shown)
    site.shot(page, f"responsible-room-{lang}-{width}x{height}")
    # The strip whole, every header button in sight and the limits whole: beside the strip a phone shows
    # their bounds alone ("5 US$ – 300 US$", without "· Fortune").
    assert header_whole(page) == []
    words = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))["table"]["bet.info.room.loss_day"]
    expect(page.locator("#bet-info")).to_contain_text(words.split("{{amount}}")[0])
    site.shot(page, f"responsible-room-{lang}-{width}x{height}")

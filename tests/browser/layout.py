"""What a screen looks like as boxes: the seats, hands, tags and badges, the centre banner and the controls
of the table page (or the lobby), read from Chromium, and the checks the screen tests make of them: no two
boxes that must not overlap do, and the phase's controls are inside the viewport without scrolling."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import httpx
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

VIEWPORTS: dict[str, tuple[int, int]] = {
    "phone": (390, 844), "small-phone": (360, 740), "laptop": (1366, 768), "full-hd": (1920, 1080)}
"""The screens every phase is checked at (width, height)."""

# Each box: the part of the screen it is (`owner`: one seat, the centre, the header...) and what it is.
# A seat's boxes are its plate (name, chips, tags), its cards as laid (the union of the card images), the
# hand's names, its bet, its result and per-hand marks, and the banker marker.
BOXES_JS = """() => {
  const shown = (e) => {
    if (!e || !e.getClientRects().length) return false;
    for (let n = e; n; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.visibility === 'hidden' || Number(s.opacity) === 0) return false;
    }
    return true;
  };
  const rect = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const union = (els) => {
    const rs = els.filter(shown).map(rect);
    if (!rs.length) return null;
    return [Math.min(...rs.map((r) => r[0])), Math.min(...rs.map((r) => r[1])),
            Math.max(...rs.map((r) => r[2])), Math.max(...rs.map((r) => r[3]))];
  };
  const out = [];
  const add = (owner, what, e) => {
    const filled = e && (e.textContent.trim() !== '' || e.children.length > 0);
    if (filled && shown(e)) out.push({ owner, what, box: rect(e) });
  };
  for (const pos of document.querySelectorAll('.pos')) {
    const owner = `seat ${pos.dataset.position}`;
    add(owner, 'plate', pos.querySelector('.plate'));
    const cards = union([...pos.querySelectorAll('.hand .card')]);
    if (cards) out.push({ owner, what: 'hand', box: cards });
    for (const [sel, what] of [['.hand-names', 'hand names'], ['.bet-spot', 'bet'], ['.result', 'result'],
                               ['.marks', 'marks'], ['.marker', 'marker']]) {
      const e = pos.querySelector(sel);
      if (e && e.textContent.trim()) add(owner, what, e);
    }
  }
  for (const id of ['phase-text', 'phase-sub', 'dice', 'countdown']) {
    const e = document.getElementById(id);
    if (e && !e.hidden && (e.textContent.trim() || e.children.length)) add('centre', id, e);
  }
  const discards = union([...document.querySelectorAll('#discards .card')]);
  if (discards) out.push({ owner: 'discards', what: 'cards', box: discards });
  const shoe = document.querySelector('.shoe');
  if (shoe) add('shoe', 'shoe', shoe);
  // Toasts are left out: they float over the page for a few seconds by design, and let taps through.
  // The one BANK marker rides above the seats (placed beside its seat's plate): it belongs to that seat.
  const bank = document.querySelector('.bank-marker');
  if (bank && bank.dataset.position !== undefined) add(`seat ${bank.dataset.position}`, 'marker', bank);
  for (const e of document.querySelectorAll('.banner, .results-banner, .result-banner')) {
    add('banner', e.id || e.className, e);
  }
  const header = document.querySelector('.topbar');
  if (header) add('header', 'header', header);
  // The tray scrolls (a column beside the table): a panel counts as far as it is in the tray's sight.
  const tray = document.querySelector('.tray')?.getBoundingClientRect();
  for (const p of document.querySelectorAll('.tray .panel')) {
    const r = p.getBoundingClientRect();
    const box = [r.left, Math.max(r.top, tray.top), r.right, Math.min(r.bottom, tray.bottom)];
    if (shown(p) && box[3] > box[1]) out.push({ owner: `panel ${p.dataset.panel}`, what: 'panel', box });
  }
  // The casino variants' panel, above the tray (its offers and bets: client_web/js/variants.js).
  const variants = document.getElementById('variants-panel');
  if (variants && !variants.hidden) add('variants', 'panel', variants);
  return { boxes: out, width: window.innerWidth, height: window.innerHeight,
           scrollWidth: document.documentElement.scrollWidth, scrollY: window.scrollY };
}"""

# Controls inside one part (a panel, the header) must not overlap each other either.
CONTROLS_JS = """(parts) => {
  const out = [];
  for (const part of parts) {
    for (const holder of document.querySelectorAll(part)) {
      const els = [...holder.querySelectorAll('button, input, select, a, label.toggle')]
        .filter((e) => e.getClientRects().length)
        .filter((e) => e.matches('label.toggle') || !e.closest('label.toggle'));
      const sight = holder.closest('.tray')?.getBoundingClientRect();
      for (const e of els) {
        const r = e.getBoundingClientRect();
        if (sight && (r.bottom <= sight.top || r.top >= sight.bottom)) continue;  // scrolled out of sight
        const what = e.id || e.dataset.card || e.textContent.trim().slice(0, 20);
        out.push({ owner: part, what, box: [r.left, r.top, r.right, r.bottom] });
      }
    }
  }
  return out;
}"""

# Boxes of different owners may never overlap; within one owner only these pairs may, because they are
# designed to stack: the banker marker rides on its own seat's plate (its corner), nothing else.
MAY_STACK = {frozenset(("plate", "marker"))}
SLACK = 1.0  # px: borders that touch are not an overlap


@dataclass(frozen=True)
class Box:
    owner: str
    what: str
    box: tuple[float, float, float, float]

    def overlaps(self, other: Box) -> bool:
        a, b = self.box, other.box
        return a[0] < b[2] - SLACK and b[0] < a[2] - SLACK and a[1] < b[3] - SLACK and b[1] < a[3] - SLACK

    def __str__(self) -> str:
        left, top, right, bottom = (round(v) for v in self.box)
        return f"{self.owner} {self.what} [{left} {top} {right} {bottom}]"


def boxes(page: Page) -> tuple[list[Box], dict[str, Any]]:
    found: dict[str, Any] = page.evaluate(BOXES_JS)
    return [Box(b["owner"], b["what"], tuple(b["box"])) for b in found["boxes"]], found


def overlaps(page: Page) -> list[str]:
    """Every pair of boxes that overlap and may not, in words, once nothing is in a short move (``settle``:
    a card in flight from the shoe is not where it lies)."""
    settle(page)
    found, _ = boxes(page)
    bad = []
    for i, a in enumerate(found):
        for b in found[i + 1:]:
            if not a.overlaps(b):
                continue
            if a.owner == b.owner and frozenset((a.what, b.what)) in MAY_STACK:
                continue
            bad.append(f"{a} overlaps {b}")
    controls = [Box(c["owner"], c["what"], tuple(c["box"])) for c in page.evaluate(
        CONTROLS_JS, [".topbar", ".tray .panel", ".variants-panel", ".name-panel", ".top-up-panel"])]
    for i, a in enumerate(controls):
        for b in controls[i + 1:]:
            if a.overlaps(b):
                bad.append(f"control {a} overlaps control {b}")
    return bad


def outside_viewport(page: Page, selectors: list[str]) -> list[str]:
    """The elements of these selectors not wholly inside the viewport at the top of the page (or missing),
    and a page wider than the viewport."""
    page.evaluate("window.scrollTo(0, 0)")
    found: list[str] = page.evaluate("""(sels) => {
      const bad = [];
      const w = window.innerWidth, h = window.innerHeight;
      for (const sel of sels) {
        const els = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length);
        if (!els.length) bad.push(`${sel}: not on the page`);
        for (const e of els) {
          const r = e.getBoundingClientRect();
          // Inside the viewport, and inside the tray or the header that holds it (either may clip it).
          const whole = { left: 0, top: 0, right: w, bottom: h };
          const tray = e.closest('.tray, .topbar')?.getBoundingClientRect() ?? whole;
          const [left, top] = [Math.max(0, tray.left), Math.max(0, tray.top)];
          const [right, bottom] = [Math.min(w, tray.right), Math.min(h, tray.bottom)];
          if (r.left < left - 0.5 || r.top < top - 0.5 || r.right > right + 0.5 || r.bottom > bottom + 0.5)
            bad.push(`${sel} at [${[r.left, r.top, r.right, r.bottom].map(Math.round).join(' ')}]`);
        }
      }
      const wide = document.documentElement.scrollWidth;
      if (wide > w) bad.push(`the page is ${wide}px wide`);
      return bad;
    }""", selectors)
    return found


# Every visible piece of text as line boxes (a Range's client rects over each text node), owned by the
# element that holds the text node. Two elements' line boxes may not overlap; a line may not be cut by its
# own element's overflow or by any ancestor's (the part in a scroller's sight checked against those above
# it), by the viewport's sides, nor sit in an element that hides overflow and is wider inside than out
# (scrollWidth > clientWidth); no control's box may be cut by an ancestor's overflow either. Exempt: what
# is hidden from sight (visually-hidden text for screen readers, transparent or invisible, folded in a
# closed <details>), text inside SVG card images, toasts (they float over the page for a few seconds by
# design), what a scroller holds out of its sight (overflow auto or scroll: the chat, the history), a name
# cut short with its whole text in its title (a seat's long name), and what lies under an open modal
# dialog (only the dialog is in sight).
TEXT_JS = """() => {
  const modal = document.querySelector('dialog:modal');
  const scrolls = (overflow) => overflow === 'auto' || overflow === 'scroll';
  const hidden = (e) => {
    for (let n = e; n; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.visibility === 'hidden' || Number(s.opacity) === 0 || s.display === 'none') return true;
      if ((s.clip && s.clip !== 'auto') || (s.clipPath && s.clipPath !== 'none')) return true;
      if (n.hidden || n.classList.contains('visually-hidden') || n.classList.contains('toast-area')) {
        return true;
      }
      // A closed <details> shows its summary alone (Chromium still lays out the rest, out of sight).
      const fold = n.parentElement;
      if (fold?.tagName === 'DETAILS' && !fold.open && n.tagName !== 'SUMMARY') return true;
    }
    return false;
  };
  // The part of a line box left in sight by the element and the ancestors that clip it (an ellipsis, a
  // scrolled list): what could overlap something else on the screen.
  const visible = (e, r) => {
    let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      const c = a.getBoundingClientRect();
      if (s.overflowX !== 'visible') [l, rt] = [Math.max(l, c.left), Math.min(rt, c.right)];
      if (s.overflowY !== 'visible') [t, b] = [Math.max(t, c.top), Math.min(b, c.bottom)];
    }
    return rt - l > 0.5 && b - t > 0.5 ? [l, t, rt, b] : null;
  };
  // The element or ancestor whose overflow cuts this box (its own box's, or any ancestor's, however far up),
  // or null. A scroller (overflow auto or scroll: the chat, the history, the tray) cuts nothing itself (one
  // scrolls to the rest), but what of the box is in its sight is checked against the ancestors above it.
  const cutBy = (e, r) => {
    let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      const [x, y] = [s.overflowX !== 'visible', s.overflowY !== 'visible'];
      if (!x && !y) continue;
      const c = a.getBoundingClientRect();
      if (scrolls(s.overflowX) || scrolls(s.overflowY)) {
        [l, t] = [Math.max(l, c.left), Math.max(t, c.top)];
        [rt, b] = [Math.min(rt, c.right), Math.min(b, c.bottom)];
        if (rt - l <= 0.5 || b - t <= 0.5) return null;  // scrolled out of sight
        continue;
      }
      if (a === e && (a.tagName === 'INPUT' || a.tagName === 'SELECT' || a.tagName === 'TEXTAREA')) continue;
      const outX = l < c.left - 1 || rt > c.right + 1;
      const outY = t < c.top - 1 || b > c.bottom + 1;
      if ((x && outX) || (y && outY)) return a;
    }
    return null;
  };
  const label = (e) => {
    const id = e.id ? `#${e.id}` : '';
    const names = typeof e.className === 'string' ? e.className.trim().split(/\\s+/).filter(Boolean) : [];
    const cls = names.length ? `.${names.join('.')}` : '';
    return `${e.tagName.toLowerCase()}${id}${cls} "${e.textContent.trim().slice(0, 30)}"`;
  };
  const lines = [];
  const clipped = [];
  const w = window.innerWidth;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.textContent.trim()) continue;
    const e = t.parentElement;
    if (!e || e.closest('svg, script, style, template, #pg-card-defs') || hidden(e)) continue;
    if (modal && !modal.contains(e)) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    const titled = e.closest('[title]');
    const cutOk = Boolean(titled && titled.title.includes(t.textContent.trim().replace(/[\\s·]+$/, '')));
    for (const r of rects) {
      const seen = visible(e, r);
      if (seen) lines.push({ el: e, box: seen, at: lines.length });  // `at`: its place in the page
      if (cutOk) continue;
      if (seen && (seen[0] < -0.5 || seen[2] > w + 0.5)) {
        clipped.push(`${label(e)} runs off the screen [${Math.round(seen[0])} ${Math.round(seen[2])}]`);
      }
      const by = cutBy(e, r);
      if (by) clipped.push(`${label(e)} is cut by ${label(by)}`);
    }
    if (!seen.has(e) && !cutOk && !e.title) {
      seen.add(e);
      const s = getComputedStyle(e);
      if (s.overflowX !== 'visible' && !scrolls(s.overflowX) && e.scrollWidth > e.clientWidth + 1)
        clipped.push(`${label(e)} is ${e.scrollWidth}px wide inside ${e.clientWidth}px`);
    }
  }
  // A control (a button, a field, a link, a toggle) whose box an ancestor cuts: the header's buttons cut at
  // their tops, though their words are whole.
  for (const c of document.querySelectorAll('button, input, select, a, label.toggle')) {
    if (!c.getClientRects().length || hidden(c) || (modal && !modal.contains(c))) continue;
    if (c.closest('svg, #pg-card-defs') || (c.tagName === 'INPUT' && c.closest('label.toggle'))) continue;
    const by = cutBy(c.parentElement, c.getBoundingClientRect());
    if (by) clipped.push(`the control ${label(c)} is cut by ${label(by)}`);
  }
  // A sticky bar (the clock on a dialog) stays in sight while what it heads scrolls under it, hidden by
  // it by design: its words and the ones beneath it are no overlap. Each element's, found once.
  const stickyOf = new Map();
  const sticky = (e) => {
    if (!stickyOf.has(e)) {
      let n = e;
      while (n && getComputedStyle(n).position !== 'sticky') n = n.parentElement;
      stickyOf.set(e, n ?? null);
    }
    return stickyOf.get(e);
  };
  // Lines by their tops: each is compared only with the ones that start above its bottom (a console of a
  // thousand rows is measured in a moment, not in pairs of every line with every other).
  lines.sort((a, b) => a.box[1] - b.box[1]);
  const overlaps = [];
  for (let i = 0; i < lines.length; i += 1) {
    const a = lines[i], p = a.box;
    for (let j = i + 1; j < lines.length && lines[j].box[1] < p[3] - 1; j += 1) {
      const b = lines[j], q = b.box;
      const meet = p[0] < q[2] - 1 && q[0] < p[2] - 1 && q[1] < p[3] - 1 && p[1] < q[3] - 1;
      if (a.el === b.el || !meet) continue;
      const [sa, sb] = [sticky(a.el), sticky(b.el)];
      if (sa !== sb && (sa || sb)) continue;
      const [first, second] = a.at < b.at ? [a, b] : [b, a];  // named in the page's order
      overlaps.push([first.at, second.at, `${label(first.el)} overlaps ${label(second.el)}`]);
    }
  }
  overlaps.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return [...new Set(overlaps.map((o) => o[2]))].concat([...new Set(clipped)]);
}"""

CLOCK_UNDER_MODAL_JS = """() => {
  const cd = document.getElementById('countdown');
  const modal = document.querySelector('dialog:modal');
  if (!modal || !cd || cd.hidden || cd.dataset.mustAct !== '1') return null;
  const clock = modal.querySelector('[data-dialog-clock]');
  if (clock && !clock.hidden && clock.textContent.trim()) return null;
  return `the modal #${modal.id} hides a running clock`;
}"""
"""Null, or the modal dialog open over a running clock the player must act on, without that clock in it."""


SETTLED_JS = """() => document.getAnimations().every((a) => {
  const timing = a.effect?.getComputedTiming();
  // Its own length, not counting its delay: a card of the deal waits its turn, then flies 0.45 s.
  return a.playState !== "running" || !timing || timing.activeDuration > 2000
    || a.transitionProperty === "stroke-dashoffset";  // a clock's ring, moved on each tick
})"""


def settle(page: Page, timeout_ms: int = 9_000) -> None:
    """Wait until nothing on the page is in a short move (under 2 s, whatever it waits before it starts): a
    BANK marker gliding to its new seat, a dialog fading in, the deal's last card leaving the shoe (about 7 s
    after the first); a clock's pulse and its ring go on. Boxes measured mid-move are not the page's
    layout."""
    with contextlib.suppress(PlaywrightTimeoutError):  # a page that animates on: measured as it is
        page.wait_for_function(SETTLED_JS, timeout=timeout_ms)


def text_problems(page: Page) -> list[str]:
    """Text boxes that overlap, text that is clipped, and a running clock under a modal dialog."""
    found: list[str] = page.evaluate(TEXT_JS)
    modal: str | None = page.evaluate(CLOCK_UNDER_MODAL_JS)
    return found + ([modal] if modal else [])


def four_pages(site: Any, table: str, name: str = "Penelope Longname-Smythe",
               invite: str | None = None, session: dict[str, Any] | None = None) -> dict[str, Page]:
    """One player (``site.player``, or the account of ``session``, a session JSON) on four pages of one
    session at once, one at each of ``VIEWPORTS``, all on ``table`` (a home game's with its ``invite`` code):
    a moment that passes is seen at every size together."""
    if session is None:
        first: Page = site.player(name, width=390, height=844)
    else:
        first = site.page(width=390, height=844)
        first.goto(f"{site.url}/")
        first.evaluate("s => localStorage.setItem('paigow.session', JSON.stringify(s))", session)
    first.goto(f"{site.url}/table/?id={table}" + (f"&invite={invite}" if invite else ""))
    first.uncheck("#anim-toggle")  # stored: the other pages open without animation too
    pages = {"phone": first}
    for size, (width, height) in VIEWPORTS.items():
        if size == "phone":
            continue
        page = first.context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.goto(first.url)
        pages[size] = page
    for page in pages.values():
        page.wait_for_function("() => window.paigow?.ctx?.view")
    return pages


def seated_at_new_table(site: Any, name: str, rules: dict[str, Any], timers: dict[str, int],
                        me: str) -> tuple[str, dict[str, Page]]:
    """A table the operator opens (``name``, ``rules``, ``timers``) and ``four_pages`` of ``me``, seated at
    seat 1 with $300 from the laptop's page: (the table's id, the pages)."""
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10,
                     json={"name": name, "rules": rules, "timers": timers})
    assert res.status_code == 201, res.text
    table: str = res.json()["table_id"]
    pages = four_pages(site, table, me)
    pages["laptop"].click("[data-seat='1']")
    pages["laptop"].fill("#buy-in", "300")
    pages["laptop"].click("#sit-confirm")
    return table, pages


def seated_alone(site: Any, name: str, me: str, width: int, height: int,
                 timers: dict[str, int] | None = None) -> Page:
    """A table the operator opens (``name``, the Fortune on, ``timers``) and ``me`` alone at it on one page
    of ``width`` x ``height``, seated at seat 1 with $300, betting open."""
    res = httpx.post(f"{site.url}/api/operator/tables", headers=site.headers, timeout=10,
                     json={"name": name, "timers": timers or {}})
    assert res.status_code == 201, res.text
    page: Page = site.player(me, width=width, height=height)
    page.goto(f"{site.url}/table/?id={res.json()['table_id']}")
    page.wait_for_function("() => window.paigow?.ctx?.view")
    page.click("[data-seat='1']")
    page.fill("#buy-in", "300")
    page.click("#sit-confirm")
    page.wait_for_selector("#place-bet")
    return page


def check(site: Any, pages: dict[str, Page], phase: str, problems: list[str]) -> None:
    """Screenshot each page as ``matrix-<phase>-<size>.png`` and add its text and box problems."""
    for size, page in pages.items():
        width, height = VIEWPORTS[size]
        page.screenshot(path=str(site.artifacts / f"matrix-{phase}-{size}.png"))
        where = f"{phase} at {size} {width}x{height}"
        problems.extend(f"{where}: {p}" for p in text_problems(page))
        problems.extend(f"{where}: {p}" for p in overlaps(page))

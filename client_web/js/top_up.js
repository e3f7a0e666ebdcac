// Free top-ups in the lobby (docs/http-api.md, "Free top-ups"): when the player's balance is below every open
// table's minimum, a panel near the top offers one back to the starting balance; after it, the new balance and
// when the next is allowed; while the next is not yet allowed, its local time (Intl.DateTimeFormat); when the
// operator turned them off, one line saying so. Nothing while the balance is enough to sit down somewhere.
// The lobby calls topUpSession(session, onBalance) whenever it shows or refreshes the session (lobby.js);
// the panel is the page's #top-up section (index.html).

import { ApiError, api, el } from "./api.js";
import { errorText } from "./errors.js";
import { locale, money, t, time } from "./i18n.js";

const DAY = new Intl.DateTimeFormat(locale, { weekday: "long", month: "long", day: "numeric" });

/** The session the panel is for ({token}) and the lobby's hook for a new balance. */
let current = { token: null, onBalance: null };
/** The top-up just taken ({last_ms, balance_cents, amount_cents}) while nothing has moved the balance since. */
let taken = null;
/** What the panel shows now: it is redrawn only when that changes (focus kept, nothing read out again). */
let shownKey = null;
/** The server's last refusal ({reason, text}): kept on screen while the reason stands. */
let refusal = null;

/** A moment in the player's own words and time zone: "today at 3:45 PM", "tomorrow at 9:05 AM",
 * "Saturday, May 2 at 3:45 PM". */
export function localTime(ms, now = Date.now()) {
  const at = new Date(ms);
  const day = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(at) - day(new Date(now))) / 86_400_000);
  const clock = time(ms);
  if (days === 0) return t("lobby:top_up.when.today", { time: clock });
  if (days === 1) return t("lobby:top_up.when.tomorrow", { time: clock });
  return t("lobby:top_up.when.day", { day: DAY.format(at), time: clock });
}

function panel() {
  return document.getElementById("top-up");
}

function hide() {
  const node = panel();
  shownKey = null;
  if (!node) return;
  node.hidden = true;
  node.replaceChildren();
}

function show(key, ...children) {
  const node = panel();
  if (!node || key === shownKey) return;
  shownKey = key;
  node.replaceChildren(...children);
  node.hidden = false;
}

const title = (text) => el("h2", { id: "top-up-title", text });

/** "24 hours", "1 hour", "1.5 hours": the hours between two top-ups, in the player's language. */
const hoursText = (n) => new Intl.NumberFormat(locale, { style: "unit", unit: "hour", unitDisplay: "long" }).format(n);

/** Where the player's money is instead of the balance (the top-up JSON's `at_table` and `table_name`). */
function atTableText(status) {
  if (status.at_table === "buy_in") return t("lobby:top_up.at_table.buy_in");
  if (status.at_table === "returning") return t("lobby:top_up.at_table.returning");
  if (status.table_name) return t("lobby:top_up.at_table.seated", { table: status.table_name });
  return t("lobby:top_up.at_table.somewhere");
}

/** What to say below the title: the top-up JSON's reason, in the lobby's words (each sentence one template). */
function render(status, error = "") {
  if (error) refusal = { reason: status.reason, text: error };
  else if (refusal?.reason === status.reason) error = refusal.text;
  else refusal = null;
  const errorLine = el("p", { class: "field-error", id: "top-up-error", role: "alert", text: error });
  const key = JSON.stringify([status, error, taken]);
  if (taken && status.last_ms === taken.last_ms && status.balance_cents === taken.balance_cents) {
    const next = status.next_ms ?? status.last_ms + status.hours * 3_600_000;
    show(key, title(t("lobby:top_up.done.title")),
      el("p", { class: "top-up-done", id: "top-up-done", tabindex: "-1",
        text: t("lobby:top_up.done", { amount: money(taken.amount_cents), balance: money(status.balance_cents) }) }),
      el("p", { class: "hint", id: "top-up-next", text: t("lobby:top_up.done.next", { when: localTime(next) }) }));
    return;
  }
  taken = null;
  if (!status.below_minimum) {
    hide();
    return;
  }
  const shortBy = status.lowest_min_bet_cents == null ? ""
    : t("lobby:top_up.short_by", { balance: money(status.balance_cents), minimum: money(status.lowest_min_bet_cents) });
  const every = t("lobby:top_up.every", { hours: hoursText(status.hours) });
  const offerTitle = () => title(t("lobby:top_up.offer.title"));
  // Two whole sentences, one after the other (a language may write them without a space).
  const both = (first, second) => (first && second ? t("common:two_sentences", { first, second }) : first || second);
  switch (status.reason) {
    case null:
    case undefined:
      show(key, offerTitle(),
        el("p", { class: "top-up-offer", text: t("lobby:top_up.offer", { amount: money(status.to_cents) }) }),
        el("div", { class: "top-up-actions" },
          el("button", { class: "btn", type: "button", id: "top-up-take", onclick: take, text: t("lobby:top_up.take.button", { amount: money(status.to_cents) }) }),
          el("p", { class: "hint", id: "top-up-hint", text: both(shortBy, every) })),
        errorLine);
      return;
    case "too_soon":
    case "network_limit":
      show(key, offerTitle(),
        el("p", { class: "top-up-wait", id: "top-up-next",
          text: t("lobby:top_up.wait", { amount: money(status.to_cents), when: localTime(status.next_ms) }) }),
        el("p", { class: "hint", id: "top-up-hint", text: status.reason === "network_limit"
          ? both(t("lobby:top_up.network_limit"), shortBy) : both(every, shortBy) }),
        errorLine);
      return;
    case "at_table":
      show(key, offerTitle(),
        el("p", { class: "top-up-wait", id: "top-up-hint", text: atTableText(status) }),
        el("p", { class: "hint", text: t("lobby:top_up.at_table.then", { amount: money(status.to_cents) }) }),
        errorLine);
      return;
    case "off":
      show(key, offerTitle(),
        el("p", { class: "top-up-off", id: "top-up-off", text: both(t("lobby:top_up.off"), shortBy) }));
      return;
    default:
      hide();
  }
}

async function take() {
  const button = document.getElementById("top-up-take");
  if (!current.token || !button) return;
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    const done = await api("/api/top-up", { method: "POST", token: current.token });
    taken = { last_ms: done.top_up.last_ms, balance_cents: done.balance_cents, amount_cents: done.amount_cents };
    current.onBalance?.(done.balance_cents);
    render(done.top_up);
    document.getElementById("top-up-done")?.focus();
  } catch (err) {
    const status = err instanceof ApiError ? err.body?.top_up : null;
    const words = errorText(err instanceof ApiError ? err : "NETWORK");
    if (status) {
      render(status, words);
    } else {
      button.disabled = false;
      button.removeAttribute("aria-busy");
      const line = document.getElementById("top-up-error");
      if (line) line.textContent = words;
    }
  }
}

/**
 * Show the panel for this session (null: signed out), from the server's top-up JSON. ``onBalance(cents)`` is
 * told the new balance when a top-up is taken.
 */
export async function topUpSession(session, onBalance = null) {
  if (!session?.token) {
    current = { token: null, onBalance: null };
    taken = null;
    refusal = null;
    hide();
    return;
  }
  if (session.token !== current.token) {
    taken = null;
    refusal = null;
  }
  current = { token: session.token, onBalance };
  let status;
  try {
    status = await api("/api/top-up", { token: session.token });
  } catch {
    return; // shown again on the next refresh
  }
  if (current.token === session.token) render(status);
}

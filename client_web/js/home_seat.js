// Getting a seat when it is not just "Sit here" (docs/protocol.md, "Private tables and the waiting list"):
// at a home game whose host lets each player in, "Ask to sit", then "Waiting for the host to let you in"
// (cancel); at any table whose six seats are taken, the waiting list: join it, your place ("2nd in line"),
// the seat offered to you with its countdown and "Take the seat", leave it.

import { el } from "./api.js";
import { serverNow } from "./clock.js";
import { has, locale, number, t } from "./i18n.js";
import { sentenceWith } from "./lobby_words.js";

const ORDINAL = new Intl.PluralRules(locale, { type: "ordinal" });
/** "You are 2nd in line": one sentence per ordinal category of the page's language ("one", "two", "few",
 * "other" in English: 1st, 2nd, 3rd, 4th), the category's own when the catalog has it, else "other". */
function placeInLine(n) {
  const key = `home:waitlist.place.${ORDINAL.select(n)}`;
  return t(has(key) ? key : "home:waitlist.place.other", { n: number(n) });
}
/** "12 s left to take it". */
const leftText = (seconds) => t("home:offer.left", { seconds: number(seconds) });

/** Who seat `p` is held for now, or null: the waiting list's entry offered it, or (a home game with its own
 * chips) the buy-in request waiting for the host there. */
export function offerFor(view, p) {
  return (view.waiting ?? []).find((w) => w.offered_seat === p)
    ?? (view.home?.chips?.requests ?? []).find((r) => !r.rebuy && r.position === p) ?? null;
}

/** Whether this viewer may sit (or join the waiting list) without asking the host first. */
export function admitted(view, ctx) {
  const home = view.home;
  if (!home || home.seating !== "approval") return true;
  return home.host_player_id === ctx.playerId || (home.approved ?? []).includes(ctx.playerId);
}

/** The seats 1-6 nobody sits in and no waiting player's offer holds. */
export function freeSeats(view) {
  return [1, 2, 3, 4, 5, 6].filter((p) => !view.seats[p] && !offerFor(view, p));
}

/** Whether a bar from this table runs for this viewer (the hello, a kick or a refused sit told the page: `ctx.barredUntil`,
 * on the server's clock): no seat, no waiting list, is offered until it ends. */
export const isBarred = (ctx) => ctx.barredUntil != null && ctx.barredUntil > serverNow();

export const isHost = (view, ctx) => Boolean(view.home) && view.home.host_player_id === ctx.playerId && Boolean(ctx.playerId);

/** Seconds left of an offer (null when its clock has not started). */
function offerLeft(entry) {
  return entry.offer_until_ms == null ? null : Math.max(0, Math.ceil((entry.offer_until_ms - serverNow()) / 1000));
}

/** Refreshes the offer's countdown in place (the page's clock tick calls it every quarter second). */
export function tickOffer(view) {
  for (const n of document.querySelectorAll("[data-offer-left]")) {
    const entry = (view?.waiting ?? []).find((w) => w.player_id === n.dataset.offerLeft);
    const left = entry ? offerLeft(entry) : null;
    n.textContent = left === null ? "" : leftText(left);
  }
}

function errorLine(ctx) {
  return el("p", { class: "field-error", id: "queue-error", role: "alert", text: ctx.ui.errors.queue ?? "" });
}

function requestPanel(view, ctx) {
  const mine = (view.home.requests ?? []).some((r) => r.player_id === ctx.playerId);
  if (mine) {
    return el("div", { class: "panel summary home-seat", "data-panel": "request" },
      el("p", { class: "big", id: "request-status", text: t("home:request.waiting") }),
      el("p", { class: "hint", text: t("home:request.waiting.hint", { host: view.home.host_name }) }),
      el("div", { class: "buttons" },
        el("button", { class: "btn small secondary", type: "button", id: "cancel-request", text: t("home:request.cancel.button"),
          onclick: () => ctx.act("queue", { type: "cancel_request" }) })),
      errorLine(ctx));
  }
  return el("div", { class: "panel summary home-seat", "data-panel": "request" },
    el("p", { class: "big", id: "request-status", text: t("home:request.approval", { host: view.home.host_name }) }),
    el("p", { class: "hint", text: t("home:request.approval.hint") }),
    el("div", { class: "buttons" },
      el("button", { class: "btn", type: "button", id: "request-seat", text: t("home:request.ask.button"),
        onclick: () => ctx.act("queue", { type: "request_seat" }) })),
    errorLine(ctx));
}

function waitlistPanel(view, ctx) {
  const list = view.waiting ?? [];
  const at = list.findIndex((w) => w.player_id === ctx.playerId);
  if (at < 0) {
    return el("div", { class: "panel summary home-seat", "data-panel": "waitlist" },
      el("p", { class: "big", id: "waitlist-status", text: t("home:waitlist.full") }),
      el("p", { class: "hint", text: list.length ? t("home:waitlist.others", { count: list.length, n: number(list.length) })
        : t("home:waitlist.empty") }),
      el("div", { class: "buttons" },
        el("button", { class: "btn", type: "button", id: "join-waitlist", text: t("home:waitlist.join.button"),
          onclick: () => ctx.act("queue", { type: "join_waitlist" }) })),
      errorLine(ctx));
  }
  const me = list[at];
  const buttons = [];
  const lines = [];
  if (me.offered_seat != null) {
    const left = offerLeft(me);
    lines.push(el("p", { class: "offer-line", id: "offer-status", role: "alert" }, ...sentenceWith("home:offer.line", { seat: number(me.offered_seat) },
      { left: el("span", { "data-offer-left": me.player_id, text: left === null ? "" : leftText(left) }) })));
    buttons.push(el("button", { class: "btn", type: "button", id: "take-seat", text: t("home:offer.take.button"),
      onclick: () => ctx.onSit(me.offered_seat, { take: true }) }));
  } else {
    lines.push(el("p", { class: "big", id: "waitlist-status", text: placeInLine(at + 1) }),
      el("p", { class: "hint", text: at === 0 ? t("home:waitlist.next") : t("home:waitlist.ahead", { count: at, n: number(at) }) }));
  }
  buttons.push(el("button", { class: "btn small secondary", type: "button", id: "leave-waitlist", text: t("home:waitlist.leave.button"),
    onclick: () => ctx.act("queue", { type: "leave_waitlist" }) }));
  return el("div", { class: "panel summary home-seat", "data-panel": "waitlist" }, ...lines, el("div", { class: "buttons" }, buttons), errorLine(ctx));
}

/**
 * The panel for a player with no seat, when sitting is not simply choosing a seat; null otherwise (the tray
 * then says "Choose an open seat"). Being on the waiting list wins over everything else.
 */
export function seatAccessPanel(view, ctx) {
  if (ctx.role !== "player" || view.you || view.phase === "closed" || ctx.ended || isBarred(ctx)) return null;
  const onList = (view.waiting ?? []).some((w) => w.player_id === ctx.playerId);
  if (onList) return waitlistPanel(view, ctx);
  if (!admitted(view, ctx)) return requestPanel(view, ctx);
  if (!freeSeats(view).length) return waitlistPanel(view, ctx);
  return null;
}

// A player's own chips at a home game that plays with them (view.home.chips, docs/home-games.md): the buy-in
// dialog that sitting opens (the amount within the game's bounds, its default filled in), the line while the
// host has it ("Waiting for Ann to approve your $100.00 buy-in", Cancel), the seated player's Rebuy and its
// dialog. The sit itself is the table's `sit` / `take_seat` with `buy_in_cents` (table_app.js sends it).

import { el, parseMoney } from "./api.js";
import { amountText, BUY_IN, WAITING, waitingLine } from "./chips_words.js";
import { errorText } from "./errors.js";
import { isHost } from "./home_seat.js";

const $ = (id) => document.getElementById(id);
let rebuyDialog = null;

/** The game's chips (null: an older home game, or a public table, plays with the casino balance). */
export const chipsOf = (view) => view?.home?.chips ?? null;

/** This viewer's waiting buy-in or rebuy request, or null. */
export function myRequest(view, ctx) {
  const chips = chipsOf(view);
  return chips && ctx.playerId ? chips.requests.find((r) => r.player_id === ctx.playerId) ?? null : null;
}

/** Whether a buy-in or rebuy of this viewer is approved as it is asked (the game's "approve automatically",
 * or the host's own). */
export const approvedAtOnce = (view, ctx) => Boolean(chipsOf(view)?.auto_approve) || isHost(view, ctx);

/** The amount typed, checked against the game's bounds: {cents} or {error}. */
export function checkAmount(text, chips) {
  const cents = parseMoney(text);
  if (cents === null || cents <= 0) return { error: BUY_IN.notAmount };
  if (cents < chips.min_buy_in_cents || cents > chips.max_buy_in_cents) {
    return { error: BUY_IN.outside(cents, chips.min_buy_in_cents, chips.max_buy_in_cents) };
  }
  return { cents };
}

/** Fills the table's sit dialog (table/index.html) for a buy-in at a chips game: its title, the bounds and
 * who approves, the default amount. */
export function prepareBuyIn(view, ctx, seat, take) {
  const chips = chipsOf(view);
  const auto = approvedAtOnce(view, ctx);
  $("sit-title").textContent = take ? BUY_IN.takeTitle(seat) : BUY_IN.title(seat);
  $("sit-balance").textContent = BUY_IN.terms(false, chips.min_buy_in_cents, chips.max_buy_in_cents, auto ? null : view.home.host_name);
  $("buy-in-label").textContent = BUY_IN.label;
  $("sit-confirm").textContent = auto ? BUY_IN.sendAuto : BUY_IN.send;
  $("buy-in").value = amountText(chips.default_buy_in_cents);
  $("buy-in").min = (chips.min_buy_in_cents / 100).toFixed(2);
  $("buy-in").max = (chips.max_buy_in_cents / 100).toFixed(2);
}

/** The tray's panel while this viewer's request waits for the host (null when none does). A buy-in's seat
 * is held meanwhile; a rebuy approved in a round says its chips land when the round ends. */
export function waitingPanel(view, ctx) {
  const request = myRequest(view, ctx);
  if (!request || ctx.role !== "player" || view.phase === "closed") return null;
  const approved = request.approved_cents != null;
  return el("div", { class: "panel summary home-seat buy-in-wait", "data-panel": "buy-in-wait", role: "region", "aria-label": waitingLine(view.home.host_name, request) },
    el("p", { class: "big", id: "buy-in-status", text: waitingLine(view.home.host_name, request) }),
    request.rebuy ? null : el("p", { class: "hint", text: WAITING.seatHeld(request.position) }),
    approved ? null : el("div", { class: "buttons" },
      el("button", { class: "btn small secondary", type: "button", id: "cancel-buy-in", "aria-label": WAITING.cancelLabel[request.rebuy ? 1 : 0], text: WAITING.cancel,
        onclick: () => ctx.act("buy-in", { type: "cancel_buy_in", request_id: request.request_id }) })),
    el("p", { class: "field-error", id: "buy-in-error", role: "alert", text: ctx.ui.errors["buy-in"] ?? "" }));
}

function buildRebuy(ctx) {
  rebuyDialog = el("dialog", { id: "rebuy-dialog", "aria-labelledby": "rebuy-title" },
    el("form", { id: "rebuy-form", novalidate: true },
      el("h2", { id: "rebuy-title", text: BUY_IN.rebuyTitle }),
      el("p", { class: "hint", id: "rebuy-text" }),
      el("label", { for: "rebuy-amount", text: BUY_IN.rebuyLabel }),
      el("input", { id: "rebuy-amount", inputmode: "decimal", autocomplete: "off", "aria-describedby": "rebuy-text rebuy-error" }),
      el("p", { class: "field-error", id: "rebuy-error", role: "alert" }),
      el("div", { class: "buttons" },
        el("button", { class: "btn", type: "submit", id: "rebuy-confirm" }),
        el("button", { class: "btn secondary", type: "button", id: "rebuy-cancel", text: WAITING.cancel, onclick: () => rebuyDialog.close() }))));
  document.body.append(rebuyDialog);
  rebuyDialog.addEventListener("close", () => $("rebuy")?.focus());
  $("rebuy-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const chips = chipsOf(ctx.view);
    if (!chips) return rebuyDialog.close();
    const { cents, error } = checkAmount($("rebuy-amount").value, chips);
    $("rebuy-error").textContent = error ?? "";
    if (error) return $("rebuy-amount").focus();
    try {
      await ctx.command({ type: "rebuy", amount_cents: cents });
      rebuyDialog.close();
      ctx.rerender();
    } catch (err) {
      $("rebuy-error").textContent = errorText(err);
    }
  });
}

/** Opens the rebuy dialog: the default amount, the bounds, who approves and when the chips land. What is
 * typed stays while the table's views come (the dialog is drawn once, not on each view). */
export function openRebuy(ctx) {
  const view = ctx.view;
  const chips = chipsOf(view);
  if (!chips) return;
  if (!rebuyDialog) buildRebuy(ctx);
  const auto = approvedAtOnce(view, ctx);
  $("rebuy-text").textContent = BUY_IN.terms(true, chips.min_buy_in_cents, chips.max_buy_in_cents, auto ? null : view.home.host_name);
  $("rebuy-confirm").textContent = auto ? BUY_IN.sendRebuyAuto : BUY_IN.sendRebuy;
  $("rebuy-amount").value = amountText(chips.default_buy_in_cents);
  $("rebuy-error").textContent = "";
  rebuyDialog.showModal();
  $("rebuy-amount").select();
}

/** The seated player's Rebuy button (the seat's options), when the game allows rebuys and none of theirs
 * waits; null otherwise. */
export function rebuyButton(view, ctx) {
  const chips = chipsOf(view);
  if (!chips?.rebuys || !view.you || myRequest(view, ctx) || view.phase === "closed") return null;
  return el("button", { class: "btn small secondary", type: "button", id: "rebuy", "aria-label": BUY_IN.rebuyButtonLabel,
    text: BUY_IN.rebuyButton, onclick: () => openRebuy(ctx) });
}


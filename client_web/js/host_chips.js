// The host's side of a home game's own chips (docs/home-games.md): the buy-in and rebuy requests in the tray
// (Approve with the amount as asked or changed, Deny: `host_buy_in`), and in the Host dialog the chip setting
// ("Approve buy-ins automatically", rebuys, the buy-in's default and bounds: `host_chip_settings`) and each
// seated player's stack with "Adjust chips…" (add, or take back, with a reason: `host_chips`).

import { el, parseMoney } from "./api.js";
import { chipsOf } from "./buy_in.js";
import { amountText, HOST } from "./chips_words.js";
import { errorText } from "./errors.js";
import { isHost } from "./home_seat.js";

const $ = (id) => document.getElementById(id);
let adjustDialog = null;
let adjusting = null;

/** What the host typed in a request's amount, kept across the tray's drawings (by request id). */
const typed = (ctx) => (ctx.ui.chipAmounts ??= {});

function requestRow(view, ctx, r) {
  if (r.approved_cents != null) {
    return el("li", { "data-chip-request": r.request_id }, el("span", { class: "who", text: HOST.rebuyLands(r.name, r.approved_cents) }));
  }
  const id = `chip-amount-${r.request_id}`;
  const input = el("input", { id, class: "chip-amount", inputmode: "decimal", autocomplete: "off", "aria-label": HOST.amountLabel(r.name),
    value: typed(ctx)[r.request_id] ?? amountText(r.amount_cents) });
  input.addEventListener("input", () => { typed(ctx)[r.request_id] = input.value; });
  const answer = (approve) => {
    const msg = { type: "host_buy_in", request_id: r.request_id, approve };
    if (approve) {
      const cents = parseMoney(input.value);
      if (cents === null || cents <= 0) return ctx.fail("chips", HOST.badAmount);
      if (cents !== r.amount_cents) msg.amount_cents = cents;
    }
    delete typed(ctx)[r.request_id];
    return ctx.act("chips", msg);
  };
  return el("li", { "data-chip-request": r.request_id },
    el("span", { class: "who", text: r.rebuy ? HOST.rebuyAsk(r.name, r.amount_cents) : HOST.buyInAsk(r.name, r.amount_cents, r.position) }),
    el("span", { class: "chip-answer" }, el("span", { class: "dollar", "aria-hidden": "true", text: "$" }), input,
      el("button", { class: "btn small", type: "button", id: `chip-approve-${r.request_id}`, "aria-label": HOST.approveLabel(r.name), text: HOST.approve,
        onclick: () => answer(true) }),
      el("button", { class: "btn small secondary", type: "button", id: `chip-deny-${r.request_id}`, "aria-label": HOST.denyLabel(r.name), text: HOST.deny,
        onclick: () => answer(false) })));
}

/** The tray's panel of waiting buy-ins and rebuys, for the host; null when none waits. */
export function chipRequestsPanel(view, ctx) {
  const requests = chipsOf(view)?.requests ?? [];
  if (!isHost(view, ctx) || !requests.length || view.phase === "closed") return null;
  return el("div", { class: "panel summary host-requests chip-requests", "data-panel": "chip-requests", role: "region", "aria-label": HOST.requestsTitle(requests.length) },
    el("p", { class: "big", text: HOST.requestsTitle(requests.length) }),
    el("ul", {}, requests.map((r) => requestRow(view, ctx, r))),
    el("p", { class: "field-error", id: "chips-error", role: "alert", text: ctx.ui.errors.chips ?? "" }));
}

/** Send a host command; its refusal goes to the dialog's line `errorId` (the Host dialog's sections too). */
export async function send(ctx, msg, errorId) {
  $(errorId).textContent = "";
  try {
    return await ctx.command(msg);
  } catch (err) {
    $(errorId).textContent = errorText(err);
    return null;
  }
}

const field = (id, label, value) => el("div", { class: "field" },
  el("label", { for: id, text: label }), el("input", { id, inputmode: "decimal", autocomplete: "off", value }));

/** The Host dialog's "Chips" section (null at a game without chips); drawn once when the dialog opens, so
 * what the host types stays while views come; `updateChipsSection` keeps the rest in step. */
export function chipsSection(view, ctx) {
  const chips = chipsOf(view);
  if (!chips) return null;
  const auto = el("input", { type: "checkbox", id: "host-auto-approve", checked: chips.auto_approve });
  auto.addEventListener("change", async () => {
    if (!(await send(ctx, { type: "host_chip_settings", auto_approve: auto.checked }, "host-chips-error"))) auto.checked = !auto.checked;
  });
  const save = async () => {
    $("host-chips-saved").textContent = "";
    const msg = { type: "host_chip_settings", rebuys: $("host-rebuys").checked };
    for (const [id, key] of [["host-buy-in", "default_buy_in_cents"], ["host-buy-in-min", "min_buy_in_cents"], ["host-buy-in-max", "max_buy_in_cents"]]) {
      const cents = parseMoney($(id).value);
      if (cents === null || cents <= 0) return void ($("host-chips-error").textContent = HOST.badAmounts);
      msg[key] = cents;
    }
    if (await send(ctx, msg, "host-chips-error")) $("host-chips-saved").textContent = HOST.saved;
  };
  return el("section", { id: "host-chips", "aria-labelledby": "host-chips-title" },
    el("h3", { id: "host-chips-title", text: HOST.chipsSection }),
    el("label", { class: "check" }, auto, ` ${HOST.autoApprove}`),
    el("div", { class: "row" },
      field("host-buy-in", HOST.defaultLabel, amountText(chips.default_buy_in_cents)),
      field("host-buy-in-min", HOST.minLabel, amountText(chips.min_buy_in_cents)),
      field("host-buy-in-max", HOST.maxLabel, amountText(chips.max_buy_in_cents))),
    el("p", { class: "hint", text: HOST.capHint(chips.max_buy_in_cap_cents) }),
    el("div", { class: "row" },
      el("label", { class: "check" }, el("input", { type: "checkbox", id: "host-rebuys", checked: chips.rebuys }), ` ${HOST.rebuys}`),
      el("button", { class: "btn small", type: "button", id: "host-chips-save", text: HOST.save, onclick: save })),
    el("p", { class: "saved", id: "host-chips-saved", role: "status" }),
    el("ul", { class: "host-players host-stacks", id: "host-stacks" }),
    el("p", { class: "field-error", id: "host-chips-error", role: "alert" }));
}

/** Each view while the Host dialog is open: the toggle follows the table, the stacks are drawn anew when they
 * changed (the focused button kept). */
export function updateChipsSection(view, ctx) {
  const chips = chipsOf(view);
  const auto = $("host-auto-approve");
  if (!chips || !auto) return;
  if (document.activeElement !== auto) auto.checked = chips.auto_approve;
  const holder = $("host-stacks");
  const seated = view.seats.filter(Boolean).map((s) => ({ player_id: s.player_id, name: s.name, stack: s.chips_cents, seat: s.position }));
  const sig = JSON.stringify(seated);
  if (holder.dataset.sig === sig) return;
  holder.dataset.sig = sig;
  const focused = holder.contains(document.activeElement) ? document.activeElement.id : null;
  holder.replaceChildren(...seated.map((p) => el("li", { "data-host-stack": p.player_id },
    el("span", { class: "who", text: HOST.stackLine(p.name, p.stack) }),
    el("button", { class: "btn small secondary", type: "button", id: `adjust-${p.player_id}`, "aria-label": HOST.adjustLabel(p.name),
      text: HOST.adjust, onclick: () => openAdjust(ctx, p) }))));
  if (focused) $(focused)?.focus();
}

function buildAdjust(ctx) {
  adjustDialog = el("dialog", { id: "adjust-dialog", class: "confirm-dialog", "aria-labelledby": "adjust-title", "aria-describedby": "adjust-text" },
    el("form", { id: "adjust-form", novalidate: true },
      el("h2", { id: "adjust-title" }),
      el("p", { id: "adjust-text" }),
      el("div", { class: "row adjust-way", role: "radiogroup", "aria-labelledby": "adjust-title" },
        el("label", { class: "check" }, el("input", { type: "radio", name: "adjust-way", id: "adjust-add", value: "add", checked: true }), ` ${HOST.add}`),
        el("label", { class: "check" }, el("input", { type: "radio", name: "adjust-way", id: "adjust-take", value: "take" }), ` ${HOST.takeBack}`)),
      el("div", { class: "field" }, el("label", { for: "adjust-amount", text: HOST.adjustAmount }),
        el("input", { id: "adjust-amount", inputmode: "decimal", autocomplete: "off", "aria-describedby": "adjust-error" })),
      el("div", { class: "field" }, el("label", { for: "adjust-reason", text: HOST.reason }),
        el("input", { id: "adjust-reason", maxlength: "200", autocomplete: "off", "aria-describedby": "adjust-error" })),
      el("p", { class: "field-error", id: "adjust-error", role: "alert" }),
      el("div", { class: "buttons" },
        el("button", { class: "btn secondary", type: "button", id: "adjust-cancel", text: HOST.cancel, onclick: () => adjustDialog.close() }),
        el("button", { class: "btn", type: "submit", id: "adjust-ok", text: HOST.adjustOk }))));
  document.body.append(adjustDialog);
  adjustDialog.addEventListener("close", () => { if (adjusting) $(`adjust-${adjusting.player_id}`)?.focus(); adjusting = null; });
  $("adjust-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!adjusting) return;
    const cents = parseMoney($("adjust-amount").value);
    const reason = $("adjust-reason").value.trim();
    if (cents === null || cents <= 0) return void ($("adjust-error").textContent = HOST.badAmount);
    if (!reason) return void ($("adjust-error").textContent = HOST.reasonMissing);
    const sign = $("adjust-take").checked ? -1 : 1;
    if (await send(ctx, { type: "host_chips", player_id: adjusting.player_id, amount_cents: sign * cents, reason }, "adjust-error")) adjustDialog.close();
  });
}

/** "Adjust chips…" for one seated player: add or take back, an amount and a reason everyone reads. */
export function openAdjust(ctx, player) {
  if (!adjustDialog) buildAdjust(ctx);
  adjusting = player;
  $("adjust-title").textContent = HOST.adjustTitle(player.name);
  $("adjust-text").textContent = HOST.adjustText(player.name, player.stack);
  $("adjust-add").checked = true;
  $("adjust-amount").value = "";
  $("adjust-reason").value = "";
  $("adjust-error").textContent = "";
  adjustDialog.showModal();
  $("adjust-amount").focus();
}

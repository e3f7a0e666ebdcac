// The Fortune bonus in the page (docs/fortune.md): the bonus circle beside the bet in the tray (chips go to
// the bet or, with the circle pressed, to the bonus; the bonus field takes the same keys as the bet field:
// arrows, Shift+arrows, Enter; F from anywhere goes to it), the pay table in a dialog, the bonus chip on a
// seat, and the bonus and Envy lines of the showdown. Everything comes from the view (view.fortune,
// view.you.can.bonus) and the settled round's record: the page works out no pay itself.

import { el, money, parseMoney } from "./api.js";
import { play } from "./sound.js";
import { payTableName } from "./variant_tags.js";

const $ = (id) => document.getElementById(id);

/** The words for a Fortune category ("four_of_a_kind" -> "four of a kind"), from the view's pay table. */
export function handLabel(view, hand) {
  return view.fortune?.pays.find((p) => p.hand === hand)?.label ?? String(hand ?? "").replaceAll("_", " ");
}

function bonusText(ctx) {
  return ctx.ui.bonusText ?? ((ctx.ui.bonusDraft ?? 0) / 100).toFixed(2);
}

/** The bonus the field says now, in cents (null: not a dollar amount). */
export function bonusDraft(ctx) {
  const input = $("bonus-amount");
  return input ? parseMoney(input.value) : ctx.ui.bonusDraft ?? 0;
}

/** Adds the Fortune actions to ctx (chips to the bonus, nudges, keys, the banker's place_bonus). */
export function installFortune(ctx, rerender) {
  ctx.ui.bonusDraft ??= 0;
  ctx.ui.chipTarget ??= "bet";
  Object.assign(ctx, {
    /** The bonus_cents of a place_bet or accept_bank: 0 when the table has no bonus, null when the
     * bonus field is not a dollar amount. */
    bonusCents() {
      if (!ctx.view?.fortune) return 0;
      const v = bonusDraft(ctx);
      return v === null || v < 0 ? null : v;
    },
    badBonus(key = "bet") {
      return ctx.fail(key, "Enter a Fortune bonus in dollars, e.g. 5, or 0 for none.");
    },
    toggleChipTarget() {
      ctx.ui.chipTarget = ctx.ui.chipTarget === "bonus" ? "bet" : "bonus";
      rerender();
    },
    addBonusChip(c) {
      const top = ctx.view?.you?.can?.bonus?.max_cents ?? ctx.view?.fortune?.max_cents ?? c;
      ctx.ui.bonusDraft = Math.min((ctx.ui.bonusDraft ?? 0) + c, Math.max(top, c));
      ctx.ui.bonusText = null;
      ctx.ui.errors.bet = "";
      play("chip");
      rerender();
    },
    nudgeBonus(delta) {
      ctx.ui.bonusDraft = Math.max(0, (ctx.ui.bonusDraft ?? 0) + delta);
      ctx.ui.bonusText = null;
      ctx.ui.errors.bet = "";
      rerender();
    },
    bonusKeys(ev) {
      const step = ev.shiftKey ? 1000 : 100;
      if (ev.key === "Enter") (ctx.view?.you?.is_banker ? ctx.placeBonus() : ctx.placeBet());
      else if (ev.key === "ArrowUp" || ev.key === "ArrowRight") ctx.nudgeBonus(step);
      else if (ev.key === "ArrowDown" || ev.key === "ArrowLeft") ctx.nudgeBonus(-step);
      else return;
      ev.preventDefault();
      ev.stopPropagation();
    },
    /** The banker's Fortune bet alone (or 0: take it back). */
    placeBonus() {
      const v = ctx.bonusCents();
      if (v === null) return ctx.badBonus();
      ctx.ui.bonusDraft = v;
      ctx.ui.bonusText = null;
      return ctx.act("bet", { type: "place_bonus", bonus_cents: v });
    },
  });
}

/** The Fortune circle, the bonus field and the pay table button; null when the table has no bonus. */
/**
 * The newest view the pay table buttons were drawn for. A button opens that one, not the view it was first
 * drawn with: a redraw that changes no markup keeps the old button (tray.js drawTray), and an operator's
 * pay table change may change no markup.
 */
let payTableView = null;

export function fortuneControls(view, ctx, { banker = false } = {}) {
  const f = view.fortune;
  if (!f) return null;
  payTableView = view;
  const ui = ctx.ui;
  const placed = view.you?.bonus_cents ?? 0;
  const armed = ui.chipTarget === "bonus";
  const range = view.you?.can?.bonus;
  const input = el("input", { id: "bonus-amount", inputmode: "decimal", autocomplete: "off", "aria-describedby": "bet-error fortune-info",
    value: bonusText(ctx) });
  input.addEventListener("input", () => {
    ui.bonusText = input.value;
    const v = parseMoney(input.value);
    if (v !== null) ui.bonusDraft = v;
  });
  input.addEventListener("keydown", (ev) => ctx.bonusKeys(ev));
  const shown = placed || ui.bonusDraft || 0;
  const circle = el("button", { class: `fortune-circle${armed ? " armed" : ""}${placed ? " placed" : ""}`, type: "button", id: "fortune-circle",
    "aria-pressed": armed ? "true" : "false", title: armed ? "Chips go to the Fortune bonus: press again for the bet" : "Press, then tap chips, to bet the Fortune bonus",
    "aria-label": `Fortune bonus ${shown ? money(shown) : "none"}${placed ? " placed" : ""}; ${armed ? "chips go here" : "press to put chips here"}`,
    onclick: () => ctx.toggleChipTarget() },
  el("span", { class: "f-title", text: "FORTUNE" }), el("span", { class: "f-amount", text: shown ? money(shown) : "+" }));
  const [low, high] = range ? [range.min_cents, range.max_cents] : [f.min_cents, f.max_cents];
  const parts = [circle,
    el("div", { class: "amount" }, el("label", { for: "bonus-amount", text: "Fortune bonus ($)" }), input),
    el("p", { class: "info", id: "fortune-info" }, el("span", { class: "bonus-word", text: "Bonus " }), el("span", { text: `${money(low)} – ${money(high)}` }), " · ",
      el("span", { text: `Envy from ${money(f.envy_min_bet_cents)}` }), " · ",
      el("button", { class: "linkish", type: "button", id: "pay-table", onclick: () => openPayTable(payTableView), text: "Pay table" }))];
  if (banker) {
    parts.push(el("button", { class: "btn small", type: "button", id: "place-bonus", onclick: () => ctx.placeBonus(),
      text: placed ? "Change bonus (Enter)" : "Place bonus (Enter)" }));
  }
  return el("div", { class: "fortune", role: "group", "aria-label": "Fortune bonus" }, parts);
}

/** A small "pay table" button for the panels outside betting. */
export function payTableButton(view) {
  if (!view.fortune) return null;
  payTableView = view;
  return el("button", { class: "btn small secondary", type: "button", id: "pay-table", onclick: () => openPayTable(payTableView), text: "Fortune pay table" });
}

/** The pay table in a dialog, with its house edge and limits. */
export function openPayTable(view) {
  const f = view.fortune;
  if (!f) return;
  let dialog = $("paytable-dialog");
  if (!dialog) {
    dialog = el("dialog", { id: "paytable-dialog", "aria-labelledby": "paytable-title" });
    document.body.append(dialog);
  }
  const rows = f.pays.map((p) => el("tr", { "data-hand": p.hand },
    el("td", { text: p.label }), el("td", { class: "num", text: `${p.pays.toLocaleString("en-US")} to 1` }),
    el("td", { class: "num", text: p.envy_cents ? money(p.envy_cents) : "–" })));
  dialog.replaceChildren(
    el("div", { class: "dialog-head" }, el("h2", { id: "paytable-title", text: `Fortune bonus — ${payTableName(f.pay_table)}` }),
      el("button", { class: "btn small secondary", type: "button", id: "paytable-close", onclick: () => dialog.close(), text: "Close" })),
    el("p", { class: "hint", text: "Paid on your seven cards however you set them, banked by the house. Envy: paid to you for every other player's hand of four of a kind or better when your bonus is at least the Envy minimum." }),
    el("table", { class: "data paytable" },
      el("thead", {}, el("tr", {}, el("th", { text: "Hand" }), el("th", { class: "num", text: "Pays" }), el("th", { class: "num", text: "Envy" }))),
      el("tbody", {}, rows)),
    el("p", { id: "paytable-edge", text: `House edge ${(f.house_edge * 100).toFixed(2)}% · bonus ${money(f.min_cents)} – ${money(f.max_cents)} · Envy from ${money(f.envy_min_bet_cents)}, worth ${f.envy_per_seat_cents.toFixed(2)}¢ on average per other player` }));
  if (!dialog.open) dialog.showModal();
  $("paytable-close")?.focus();
}

/** The Fortune chip beside a seat's bet. */
export function bonusBadge(cents) {
  return el("span", { class: "bonus-badge", title: `Fortune bonus ${money(cents)}`, text: `F ${money(cents)}` });
}

/** A seat's Fortune result at the showdown, for everyone: "Fortune flush +$20.00" (null: no bonus, no Envy). */
export function seatFortune(hand, view) {
  if (hand.fortune == null || (!hand.bonus_cents && !(hand.envy ?? []).length)) return null;
  const net = hand.bonus_net_cents;
  const kind = net > 0 ? "win" : "loss";
  const what = hand.bonus_win_cents > 0 ? `${handLabel(view, hand.fortune)} ` : "";
  return el("span", { class: `fortune-seat ${kind}`, "data-fortune-seat": String(hand.position),
    title: `Fortune bonus ${money(hand.bonus_cents)}${(hand.envy ?? []).length ? `, Envy ${money(hand.envy.reduce((s, e) => s + e.amount_cents, 0))}` : ""}`,
    text: `Fortune ${what}${money(net, { sign: true })}` });
}

/** " · Fortune +$20.00" for a hand that had a bonus or collected Envy, in the history; "" otherwise. */
export function fortuneNote(hand) {
  if (!hand || (!hand.bonus_cents && !(hand.envy ?? []).length)) return "";
  return ` · Fortune ${money(hand.bonus_net_cents ?? 0, { sign: true })}`;
}

function seatName(view, position, playerId) {
  const s = view.seats[position];
  return s && s.player_id === playerId ? s.name : `seat ${position}`;
}

/** The showdown's Fortune lines for you: your bonus, then each Envy bonus paid to you. */
export function fortuneLines(record, view, playerId) {
  const mine = record?.hands?.find((h) => h.player_id === playerId);
  if (!mine || mine.fortune == null) return [];
  const lines = [];
  if (mine.bonus_cents) {
    const label = handLabel(view, mine.fortune);
    lines.push(mine.bonus_win_cents > 0
      ? el("p", { class: "fortune-line win", "data-fortune": "win", text: `Fortune: your ${label} pays ${money(mine.bonus_win_cents)}` })
      : el("p", { class: "fortune-line loss", "data-fortune": "loss", text: `Fortune: no paying hand — your ${money(mine.bonus_cents)} bonus loses` }));
  }
  for (const e of mine.envy ?? []) {
    lines.push(el("p", { class: "fortune-line win", "data-envy": String(e.position),
      text: `Envy: ${seatName(view, e.position, e.player_id)}'s ${handLabel(view, e.fortune)} pays you ${money(e.amount_cents)}` }));
  }
  return lines;
}

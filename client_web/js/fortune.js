// The Fortune bonus in the page (docs/fortune.md): the pay table in a dialog (the bonus's row among the side
// bets beside the bet is side_bets.js's), the bonus chip on a seat, and the bonus and Envy lines of the
// showdown. Everything comes from the view (view.fortune) and the settled round's record: the page works
// out no pay itself.

import { el, money } from "./api.js";
import { payTableName } from "./variant_tags.js";

const $ = (id) => document.getElementById(id);

/** The words for a Fortune category ("four_of_a_kind" -> "four of a kind"), from the view's pay table. */
export function handLabel(view, hand) {
  return view.fortune?.pays.find((p) => p.hand === hand)?.label ?? String(hand ?? "").replaceAll("_", " ");
}

/**
 * The newest view the pay table buttons were drawn for. A button opens that one, not the view it was first
 * drawn with: a redraw that changes no markup keeps the old button (tray.js drawTray), and an operator's
 * pay table change may change no markup.
 */
let payTableView = null;

/** "Pay table" as a link-like button, in the Fortune bonus's row of the side bets (side_bets.js). */
export function payTableLink(view) {
  payTableView = view;
  return el("button", { class: "linkish", type: "button", id: "pay-table", onclick: () => openPayTable(payTableView), text: "Pay table" });
}

/** A small "pay table" button for the panels outside betting. */
export function payTableButton(view) {
  if (!view.fortune) return null;
  payTableView = view;
  return el("button", { class: "btn small secondary", type: "button", id: "pay-table", onclick: () => openPayTable(payTableView), text: "Fortune pay table" });
}

/** The pay table in a dialog, with its house edge and limits. */
function openPayTable(view) {
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

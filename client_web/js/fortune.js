// The Fortune bonus in the page (docs/fortune.md): the pay table in a dialog (the bonus's row among the side
// bets beside the bet is side_bets.js's), the bonus chip on a seat, and the bonus and Envy lines of the
// showdown. Everything comes from the view (view.fortune) and the settled round's record: the page works
// out no pay itself.

import { el } from "./api.js";
import { has, locale, money, number, t } from "./i18n.js";
import { payTableName } from "./variant_tags.js";

const $ = (id) => document.getElementById(id);
// The house edge ("7.77%") and the Envy's worth ("0.45") always with two decimals, in the page's language.
const EDGE = new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const CENTS = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The words for a Fortune category ("four_of_a_kind" -> "four of a kind"), from the view's pay table. */
export function handLabel(view, hand) {
  if (has(`game:fortune.${hand}`)) return t(`game:fortune.${hand}`);
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
  return el("button", { class: "linkish", type: "button", id: "pay-table", onclick: () => openPayTable(payTableView), text: t("game:fortune.pay_table.link") });
}

/** A small "pay table" button for the panels outside betting. */
export function payTableButton(view) {
  if (!view.fortune) return null;
  payTableView = view;
  return el("button", { class: "btn small secondary", type: "button", id: "pay-table", onclick: () => openPayTable(payTableView), text: t("game:fortune.pay_table.button") });
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
    el("td", { text: handLabel(view, p.hand) }), el("td", { class: "num", text: t("game:fortune.pays", { odds: number(p.pays) }) }),
    el("td", { class: "num", text: p.envy_cents ? money(p.envy_cents) : "–" })));
  dialog.replaceChildren(
    el("div", { class: "dialog-head" }, el("h2", { id: "paytable-title", text: t("game:fortune.pay_table.title", { table: payTableName(f.pay_table) }) }),
      el("button", { class: "btn small secondary", type: "button", id: "paytable-close", onclick: () => dialog.close(), text: t("common:close") })),
    el("p", { class: "hint", text: t("game:fortune.pay_table.about") }),
    el("table", { class: "data paytable" },
      el("thead", {}, el("tr", {}, el("th", { text: t("game:fortune.pay_table.hand") }), el("th", { class: "num", text: t("game:fortune.pay_table.pays") }), el("th", { class: "num", text: t("game:fortune.pay_table.envy") }))),
      el("tbody", {}, rows)),
    el("p", { id: "paytable-edge", text: t("game:fortune.pay_table.edge", { edge: EDGE.format(f.house_edge), min: money(f.min_cents), max: money(f.max_cents),
      envy: money(f.envy_min_bet_cents), worth: CENTS.format(f.envy_per_seat_cents) }) }));
  if (!dialog.open) dialog.showModal();
  $("paytable-close")?.focus();
}

/** The Fortune chip beside a seat's bet. */
export function bonusBadge(cents) {
  return el("span", { class: "bonus-badge", title: t("game:fortune.badge.title", { amount: money(cents) }), text: t("game:fortune.badge", { amount: money(cents) }) });
}

/** A seat's Fortune result at the showdown, for everyone: "Fortune flush +$20.00" (null: no bonus, no Envy). */
export function seatFortune(hand, view) {
  if (hand.fortune == null || (!hand.bonus_cents && !(hand.envy ?? []).length)) return null;
  const net = hand.bonus_net_cents;
  const kind = net > 0 ? "win" : "loss";
  const amount = money(net, { sign: true });
  const bonus = money(hand.bonus_cents);
  const envy = (hand.envy ?? []).length ? money(hand.envy.reduce((s, e) => s + e.amount_cents, 0)) : null;
  return el("span", { class: `fortune-seat ${kind}`, "data-fortune-seat": String(hand.position),
    title: envy ? t("game:fortune.seat.title_envy", { bonus, envy }) : t("game:fortune.badge.title", { amount: bonus }),
    text: hand.bonus_win_cents > 0 ? t("game:fortune.seat.hand", { hand: handLabel(view, hand.fortune), amount }) : t("game:fortune.seat", { amount }) });
}

/** " · Fortune +$20.00" for a hand that had a bonus or collected Envy, in the history; "" otherwise. */
export function fortuneNote(hand) {
  if (!hand || (!hand.bonus_cents && !(hand.envy ?? []).length)) return "";
  return ` · ${t("game:fortune.seat", { amount: money(hand.bonus_net_cents ?? 0, { sign: true }) })}`;
}

function seatName(view, position, playerId) {
  const s = view.seats[position];
  return s && s.player_id === playerId ? s.name : null;
}

/** The showdown's Fortune lines for you: your bonus, then each Envy bonus paid to you. */
export function fortuneLines(record, view, playerId) {
  const mine = record?.hands?.find((h) => h.player_id === playerId);
  if (!mine || mine.fortune == null) return [];
  const lines = [];
  if (mine.bonus_cents) {
    const label = handLabel(view, mine.fortune);
    lines.push(mine.bonus_win_cents > 0
      ? el("p", { class: "fortune-line win", "data-fortune": "win", text: t("game:fortune.line.win", { hand: label, amount: money(mine.bonus_win_cents) }) })
      : el("p", { class: "fortune-line loss", "data-fortune": "loss", text: t("game:fortune.line.loss", { amount: money(mine.bonus_cents) }) }));
  }
  for (const e of mine.envy ?? []) {
    const name = seatName(view, e.position, e.player_id);
    const values = { name, seat: e.position, hand: handLabel(view, e.fortune), amount: money(e.amount_cents) };
    lines.push(el("p", { class: "fortune-line win", "data-envy": String(e.position),
      text: name ? t("game:fortune.line.envy", values) : t("game:fortune.line.envy_seat", values) }));
  }
  return lines;
}

// The operator console's Fortune bonus: the column of the tables list (on or off, the bonus bets of the
// round in play) and, for the selected table, the house's bonus result and a form that turns the bonus on
// or off, picks the pay table and sets its limits (PUT /rules: applied from the next round when one is
// in play).

import { el, money } from "./api.js";
import { cell, centsFields } from "./operator_api.js";
import { payTableName } from "./variant_tags.js";

const $ = (id) => document.getElementById(id);
const PAY_TABLES = ["fortune-8000", "fortune-5000"];

/** The form's fields, for its refusals: each one's control and name. */
export const FORTUNE_FIELDS = {
  fortune_enabled: ["f-on", "Fortune bonus"], fortune_pay_table: ["f-table", "pay table"],
  fortune_min_bet_cents: ["f-min", "bonus minimum"], fortune_max_bet_cents: ["f-max", "bonus maximum"],
  envy_min_bet_cents: ["f-envy", "Envy minimum"],
};

/** The list's Fortune cell for a table summary (labelled for the phone's stacked rows, as every cell). */
export function fortuneCell(t) {
  // One child in the cell: a phone's stacked row shows it beside the column's name, as one value.
  if (!t.fortune_enabled) return cell("Fortune", {}, el("span", { class: "hint", text: "off" }));
  const now = t.bonus_bets ? `${t.bonus_bets} bonus ${t.bonus_bets === 1 ? "bet" : "bets"}, ${money(t.bonus_bets_cents)}` : "no bonus bets now";
  return cell("Fortune", { "data-fortune": t.fortune_pay_table },
    el("span", {}, payTableName(t.fortune_pay_table), el("br"), el("small", { class: "hint", text: now })));
}

/** The detail panel's Fortune part, from the operator's view of the table. */
export function renderFortune(view, fillForm) {
  const rules = view.rules;
  const ledger = view.admin?.ledger ?? {};
  const bonuses = view.round?.bonuses ?? [];
  const pending = view.admin?.pending_rules;
  const parts = [
    rules.fortune_enabled ? `On: ${payTableName(rules.fortune_pay_table)}, ${money(rules.fortune_min_bet_cents)}–${money(rules.fortune_max_bet_cents)}, Envy from ${money(rules.envy_min_bet_cents)}`
      : "Off",
    `house's bonus result ${money(ledger.bonus_house_net_cents ?? 0, { sign: true })} over ${ledger.bonuses_settled ?? 0} settled`,
    bonuses.length ? `this round: ${bonuses.length} bonus ${bonuses.length === 1 ? "bet" : "bets"}, ${money(bonuses.reduce((s, b) => s + b.amount_cents, 0))}` : "no bonus bet this round",
  ];
  if (pending && pending.fortune_enabled !== rules.fortune_enabled) parts.push(`turns ${pending.fortune_enabled ? "on" : "off"} after this round`);
  $("fortune-status").textContent = parts.join(" · ");
  if (fillForm) {
    $("f-on").checked = rules.fortune_enabled;
    $("f-table").value = rules.fortune_pay_table;
    $("f-min").value = (rules.fortune_min_bet_cents / 100).toFixed(2);
    $("f-max").value = (rules.fortune_max_bet_cents / 100).toFixed(2);
    $("f-envy").value = (rules.envy_min_bet_cents / 100).toFixed(2);
  }
}

/** The body of PUT /rules from the form: {body}, or {error, field} for what the console refuses. */
export function fortuneRulesBody() {
  const cents = centsFields({ fortune_min_bet_cents: $("f-min").value, fortune_max_bet_cents: $("f-max").value,
    envy_min_bet_cents: $("f-envy").value }, (k) => FORTUNE_FIELDS[k][1]);
  if (cents.error) return cents;
  const body = { fortune_enabled: $("f-on").checked, fortune_pay_table: $("f-table").value, ...cents.body };
  if (!PAY_TABLES.includes(body.fortune_pay_table)) return { error: `Choose a pay table: ${PAY_TABLES.map(payTableName).join(" or ")}.`, field: "fortune_pay_table" };
  return { body };
}

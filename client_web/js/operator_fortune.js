// The operator console's Fortune bonus: the column of the tables list (on or off, the bonus bets of the
// round in play) and, for the selected table, the house's bonus result and a form that turns the bonus on
// or off, picks the pay table and sets its limits (PUT /rules: applied from the next round when one is
// in play).

import { el, money } from "./api.js";
import { amountText, t } from "./i18n.js";
import { cell, centsFields } from "./operator_api.js";
import { payTableName } from "./variant_tags.js";

const $ = (id) => document.getElementById(id);
const PAY_TABLES = ["fortune-8000", "fortune-5000"];

/** The form's fields, for its refusals: each one's control (its name: ``console:field.<wire name>``). */
export const FORTUNE_FIELDS = {
  fortune_enabled: "f-on", fortune_pay_table: "f-table", fortune_min_bet_cents: "f-min", fortune_max_bet_cents: "f-max",
  envy_min_bet_cents: "f-envy",
};

/** The list's Fortune cell for a table summary (labelled for the phone's stacked rows, as every cell). */
export function fortuneCell(table) {
  // One child in the cell: a phone's stacked row shows it beside the column's name, as one value.
  const label = t("console:tables.col.fortune");
  if (!table.fortune_enabled) return cell(label, {}, el("span", { class: "hint", text: t("console:fortune.cell.off") }));
  const now = table.bonus_bets ? t("console:fortune.cell.bets", { count: table.bonus_bets, amount: money(table.bonus_bets_cents) })
    : t("console:fortune.cell.no_bets");
  return cell(label, { "data-fortune": table.fortune_pay_table },
    el("span", {}, payTableName(table.fortune_pay_table), el("br"), el("small", { class: "hint", text: now })));
}

/** The detail panel's Fortune part, from the operator's view of the table. */
export function renderFortune(view, fillForm) {
  const rules = view.rules;
  const ledger = view.admin?.ledger ?? {};
  const bonuses = view.round?.bonuses ?? [];
  const pending = view.admin?.pending_rules;
  const parts = [
    rules.fortune_enabled ? t("console:fortune.status.on", { pay_table: payTableName(rules.fortune_pay_table),
      min: money(rules.fortune_min_bet_cents), max: money(rules.fortune_max_bet_cents), envy: money(rules.envy_min_bet_cents) })
      : t("console:fortune.status.off"),
    t("console:fortune.status.house_result", { amount: money(ledger.bonus_house_net_cents ?? 0, { sign: true }), count: ledger.bonuses_settled ?? 0 }),
    bonuses.length ? t("console:fortune.status.this_round", { count: bonuses.length, amount: money(bonuses.reduce((s, b) => s + b.amount_cents, 0)) })
      : t("console:fortune.status.this_round.none"),
  ];
  if (pending && pending.fortune_enabled !== rules.fortune_enabled) {
    parts.push(pending.fortune_enabled ? t("console:fortune.status.turns_on") : t("console:fortune.status.turns_off"));
  }
  $("fortune-status").textContent = parts.join(" · ");
  if (fillForm) {
    $("f-on").checked = rules.fortune_enabled;
    $("f-table").value = rules.fortune_pay_table;
    $("f-min").value = amountText(rules.fortune_min_bet_cents);
    $("f-max").value = amountText(rules.fortune_max_bet_cents);
    $("f-envy").value = amountText(rules.envy_min_bet_cents);
  }
}

/** The body of PUT /rules from the form: {body}, or {error, field} for what the console refuses. */
export function fortuneRulesBody() {
  const cents = centsFields({ fortune_min_bet_cents: $("f-min").value, fortune_max_bet_cents: $("f-max").value,
    envy_min_bet_cents: $("f-envy").value });
  if (cents.error) return cents;
  const body = { fortune_enabled: $("f-on").checked, fortune_pay_table: $("f-table").value, ...cents.body };
  if (!PAY_TABLES.includes(body.fortune_pay_table)) {
    return { error: t("console:fortune.pay_table.choose", { first: payTableName(PAY_TABLES[0]), second: payTableName(PAY_TABLES[1]) }), field: "fortune_pay_table" };
  }
  return { body };
}

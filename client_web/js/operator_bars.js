// The bars running: who is kept from which table, until when, by whom and why; an operator lifts one.

import { el } from "./api.js";
import { t } from "./i18n.js";
import { $, call, cell, fillRows, sentenceWith, showError, userText, whenLong, who } from "./operator_api.js";

let changed = async () => {};
export function onChange(fn) {
  changed = fn;
}

async function lift(bar) {
  showError("bars-error", null);
  $("bars-result").textContent = "";
  try {
    await call(`/tables/${encodeURIComponent(bar.table_id)}/bars/${encodeURIComponent(bar.player_id)}`, { method: "DELETE" });
    $("bars-result").textContent = t("console:bars.lifted", { name: bar.player_name ?? bar.player_id, table: bar.table_name ?? bar.table_id });
    await changed();
  } catch (err) {
    showError("bars-error", err);
  }
}

function barRow(bar) {
  const name = bar.player_name ?? bar.player_id;
  return el("tr", { "data-player": bar.player_id, "data-table": bar.table_id },
    cell(t("console:bars.col.table"), {}, userText(bar.table_name ?? ""), " ", el("small", { class: "hint id", text: bar.table_id })),
    cell(t("console:bars.col.player"), {}, who(bar.player_name, bar.player_id)),
    cell(t("console:bars.col.until"), { text: whenLong(bar.until_ms) }),
    cell(t("console:bars.col.by"), { class: "actor" }, ...byWords(bar.actor)),
    // a host's bar has no reason typed by a person: the server's fixed words, in the page's language
    cell(t("console:bars.col.reason"), { class: "wrap" }, bar.actor?.startsWith("host:") ? t("console:bars.reason.host")
      : userText(bar.reason ?? "")),
    cell("", {}, el("button", { class: "btn small secondary", type: "button", "data-action": "lift",
      "aria-label": t("console:bars.lift.label", { name }), onclick: () => lift(bar), text: t("console:bars.lift.button") })));
}

/** Who set a bar, in words: a private table's host (its actor ``host:<player id>``, the id beside it) or
 * the operator's name. */
export function byWords(actor) {
  if (!actor?.startsWith("host:")) return [actor === "bootstrap" ? t("console:actor.bootstrap") : userText(actor ?? "")];
  const id = el("small", { class: "hint id", text: actor.slice("host:".length) });
  return [el("span", {}, ...sentenceWith("console:actor.host", {}, { id }))];
}

export async function refreshBars() {
  const data = await call("/bars");
  fillRows("bars", data.bars.map(barRow), t("console:bars.empty"), 6);
}

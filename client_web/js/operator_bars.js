// The bars running: who is kept from which table, until when, by whom and why; an operator lifts one.

import { el } from "./api.js";
import { $, call, cell, fillRows, showError, whenLong, who } from "./operator_api.js";

let changed = async () => {};
export function onChange(fn) {
  changed = fn;
}

async function lift(bar) {
  showError("bars-error", null);
  $("bars-result").textContent = "";
  try {
    await call(`/tables/${encodeURIComponent(bar.table_id)}/bars/${encodeURIComponent(bar.player_id)}`, { method: "DELETE" });
    $("bars-result").textContent = `${bar.player_name ?? bar.player_id} may sit at ${bar.table_name ?? bar.table_id} again.`;
    await changed();
  } catch (err) {
    showError("bars-error", err);
  }
}

function barRow(bar) {
  const name = bar.player_name ?? bar.player_id;
  return el("tr", { "data-player": bar.player_id, "data-table": bar.table_id },
    cell("Table", {}, el("span", { text: bar.table_name ?? "" }), " ", el("small", { class: "hint id", text: bar.table_id })),
    cell("Player", {}, who(bar.player_name, bar.player_id)),
    cell("Until", { text: whenLong(bar.until_ms) }),
    cell("By", { class: "actor" }, ...byWords(bar.actor)),
    cell("Reason", { class: "wrap", text: bar.reason }),
    cell("", {}, el("button", { class: "btn small secondary", type: "button", "data-action": "lift", "aria-label": `Lift bar: ${name}`,
      onclick: () => lift(bar), text: "Lift bar" })));
}

/** Who set a bar, in words: a private table's host (its actor ``host:<player id>``, the id beside it) or
 * the operator's name. */
function byWords(actor) {
  if (!actor?.startsWith("host:")) return [actor ?? ""];
  return ["the host ", el("small", { class: "hint id", text: actor.slice("host:".length) })];
}

export async function refreshBars() {
  const data = await call("/bars");
  fillRows("bars", data.bars.map(barRow), "No one is barred: a kick can bar a player from its table for a while.", 6);
}

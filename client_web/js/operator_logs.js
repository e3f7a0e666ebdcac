// The audit log (who did what, with the reason, to which player: name beside the id) and the ledger.

import { el, money } from "./api.js";
import { $, call, cell, when, who } from "./operator_api.js";

async function pageAll(path) {
  let after = null;
  let entries = [];
  for (let i = 0; i < 10; i += 1) {
    const data = await call(`${path}?limit=500${after ? `&after=${encodeURIComponent(after)}` : ""}`);
    entries = entries.concat(data.entries);
    after = data.next_after;
    if (!after) break;
  }
  return entries.reverse().slice(0, 100);
}

function detailsOf(e) {
  const params = { ...(e.params ?? {}) };
  const parts = [];
  if (typeof params.reason === "string" && params.reason.trim()) parts.push(`reason: ${params.reason}`);
  delete params.reason;
  delete params.player_id;
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) parts.push(`${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
  if (e.detail) parts.push(e.detail);
  return parts.join(" · ");
}

export async function refreshLogs() {
  const audit = await pageAll("/audit");
  $("audit").tBodies[0].replaceChildren(...audit.map((e) => el("tr", { "data-action": e.action ?? "" },
    cell("When", { class: "nowrap", text: when(e.ts_ms) }), cell("Actor", { class: "actor", text: e.actor ?? "" }),
    cell("Action", { class: "nowrap", text: e.action ?? "" }),
    cell("Result", { class: `nowrap ${e.outcome === "ok" ? "ok" : "bad"}`, text: e.outcome ?? "" }),
    cell("Table", { class: "nowrap", text: e.table_id ?? "" }), cell("Player", { class: "player" }, who(e.player_name, e.player_id)),
    cell("Details", { class: "hint wrap", text: detailsOf(e) }))));
  const ledger = await pageAll("/ledger");
  $("ledger").tBodies[0].replaceChildren(...ledger.map((e) => el("tr", {},
    cell("When", { class: "nowrap", text: when(e.ts_ms) }), cell("Kind", { class: "nowrap", text: e.kind ?? "" }),
    cell("Player", { class: "player" }, who(e.player_name, e.player_id)),
    cell("From → to", { class: "wrap", text: `${e.from_account} → ${e.to_account}` }),
    cell("Amount", { class: "num", text: money(e.amount_cents) }),
    cell("Table / round", { text: [e.table_id, e.round_id].filter(Boolean).join(" / ") }), cell("Reason", { text: e.reason ?? "" }))));
  const m = await call("/money");
  $("money-status").textContent = `House ${money(m.house_net_cents, { sign: true })} · money ${m.balanced ? "balanced ✓" : "NOT balanced"}`;
}

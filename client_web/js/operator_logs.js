// The audit log (who did what, with the reason, to which player: name beside the id) and the ledger. Actions
// and kinds are codes, worded by the catalog (`console:action.<action>`, `console:kind.<kind>`; a code it does
// not know, from a newer server, as it is); names and typed reasons are their writers' own text (markName).

import { el, money } from "./api.js";
import { has, t } from "./i18n.js";
import { errorText } from "./errors.js";
import { byWords } from "./operator_bars.js";
import { $, call, cell, sentenceWith, userText, when, who } from "./operator_api.js";

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

/** An action or a kind in words (the code itself when the catalog does not know it: a newer server's). */
const actionWords = (action) => (action && has(`console:action.${action}`) ? t(`console:action.${action}`) : action ?? "");
const kindWords = (kind) => (kind && has(`console:kind.${kind}`) ? t(`console:kind.${kind}`) : kind ?? "");

/** Who did it: an operator's name, the bootstrap token, the server itself, a host or player by id. */
function actorWords(actor) {
  if (actor === "system") return [t("console:actor.system")];
  if (actor?.startsWith("player:") || actor?.startsWith("spectator:")) return [el("small", { class: "id", text: actor })];
  return byWords(actor);
}

/** What the server recorded as it wrote it (wire names, its own note in English): marked as such. */
const record = (text) => el("span", { class: "record", lang: "en", translate: "no", text });

/** An entry's details: the reason typed (the operator's own words), the request's other fields as sent, and
 * the server's note (its record, as it wrote it). */
function detailsOf(e) {
  const params = { ...(e.params ?? {}) };
  const parts = [];
  if (typeof params.reason === "string" && params.reason.trim()) {
    parts.push(el("span", {}, ...sentenceWith("console:audit.reason", {}, { reason: userText(params.reason) })));
  }
  delete params.reason;
  delete params.player_id;
  // The request's fields by their wire names, and the server's note: the record as written, not words of the page.
  const fields = Object.entries(params).filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
  if (fields.length) parts.push(record(fields.join(" · ")));
  if (e.detail) parts.push(record(e.detail));
  return parts.flatMap((p, i) => (i ? [" · ", p] : [p]));
}

/** The outcome: "ok" in words, a refusal by its code (its sentence as the title). */
function outcomeCell(outcome) {
  const ok = outcome === "ok";
  // A refusal by its code, as the server wrote it (not words: translate="no"); its sentence is the title.
  if (ok || !outcome) return cell(t("console:audit.col.result"), { class: "nowrap ok", text: ok ? t("console:audit.outcome.ok") : "" });
  return cell(t("console:audit.col.result"), { class: "wrap bad", title: errorText(outcome) },
    el("span", { translate: "no", text: outcome }));
}

/** A ledger entry's reason: an event's code the server wrote (``player_kicked``, ``hold_released``) in words,
 * anything else as written (an operator's typed reason, the server's own note). */
function reasonOf(reason) {
  if (!reason) return "";
  const key = `console:ledger.reason.${reason}`;
  if (/^[a-z_]+$/.test(reason) && has(key)) return el("span", { "data-reason": reason, text: t(`console:ledger.reason.${reason}`) });
  return userText(reason);
}

/** An account of the ledger (``player:<id>``, ``seat:…``, ``house``, ``bank``, …): an identifier, as it is. */
const account = (name) => el("small", { class: "id", text: name ?? "" });

export async function refreshLogs() {
  const audit = await pageAll("/audit");
  $("audit").tBodies[0].replaceChildren(...audit.map((e) => el("tr", { "data-action": e.action ?? "" },
    cell(t("console:audit.col.when"), { class: "nowrap", text: when(e.ts_ms) }),
    cell(t("console:audit.col.actor"), { class: "actor" }, ...actorWords(e.actor)),
    cell(t("console:audit.col.action"), { class: "wrap", "data-code": e.action ?? null, text: actionWords(e.action) }),
    outcomeCell(e.outcome),
    cell(t("console:audit.col.table"), { class: "wrap", text: e.table_id ?? "" }),
    cell(t("console:audit.col.player"), { class: "player" }, who(e.player_name, e.player_id)),
    cell(t("console:audit.col.details"), { class: "hint wrap" }, el("span", {}, ...detailsOf(e))))));
  const ledger = await pageAll("/ledger");
  $("ledger").tBodies[0].replaceChildren(...ledger.map((e) => el("tr", { "data-kind": e.kind ?? "" },
    cell(t("console:ledger.col.when"), { class: "nowrap", text: when(e.ts_ms) }),
    cell(t("console:ledger.col.kind"), { class: "wrap", "data-code": e.kind ?? null, text: kindWords(e.kind) }),
    cell(t("console:ledger.col.player"), { class: "player" }, who(e.player_name, e.player_id)),
    cell(t("console:ledger.col.accounts"), { class: "wrap" }, el("span", {}, account(e.from_account), " → ", account(e.to_account))),
    cell(t("console:ledger.col.amount"), { class: "num", text: money(e.amount_cents) }),
    cell(t("console:ledger.col.where"), { text: [e.table_id, e.round_id].filter(Boolean).join(" / ") }),
    cell(t("console:ledger.col.reason"), {}, reasonOf(e.reason)))));
  const m = await call("/money");
  $("money-status").textContent = t(m.balanced ? "console:money.status.balanced" : "console:money.status.unbalanced",
    { amount: money(m.house_net_cents, { sign: true }) });
}

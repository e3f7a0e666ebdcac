// The console's tables: the list (pause, resume, close, reopen, void the round), opening a table, and the
// table being managed: limits, timers, the Fortune bonus (operator_fortune.js), the casino variants
// (operator_variants.js), its seats (each player named beside their id, kick with a bar) and its chat
// (operator_chat.js).

import { api, el, money, parseMoney } from "./api.js";
import { $, call, cell, fillRows, showError, state, who } from "./operator_api.js";
import { refreshChat } from "./operator_chat.js";
import { fortuneCell, fortuneRulesBody, renderFortune } from "./operator_fortune.js";
import { confirmAction } from "./operator_confirm.js";
import { openVariants, refuseOpen, refuseVariants, renderVariants, variantCell, variantWords, variantsRulesBody } from "./operator_variants.js";

/** Called after an action changed something (set by operator.js: refresh everything). */
let changed = async () => {};
export function onChange(fn) {
  changed = fn;
}

function say(id, text) {
  $(id).textContent = text;
}

/** What a saved form of the managed table says beside its button: every change waits for the next round. */
const SAVED_TEXT = "Saved: takes effect from the next round.";
const SAVED_IDS = ["limits-saved", "timers-saved", "fortune-saved", "variants-saved"];

async function tableAction(t, action) {
  showError("open-error", null);
  say("tables-result", "");
  try {
    await call(`/tables/${encodeURIComponent(t.table_id)}/${action}`, { method: "POST", body: {} });
    await changed();
  } catch (err) {
    showError("open-error", err);
  }
}

async function voidRound(t) {
  showError("open-error", null);
  say("tables-result", "");
  const done = await confirmAction({
    title: `Void the round at ${t.name}?`,
    text: "The round in play ends with no result: every bet goes back to its player and the cards are put away. This cannot be undone.",
    okLabel: "Void the round",
    run: ({ reason }) => call(`/tables/${encodeURIComponent(t.table_id)}/void`, { method: "POST", body: { reason } }),
  });
  if (!done) return;
  say("tables-result", `The round at ${t.name} was voided: every bet was returned.`);
  await changed();
}

function tableRow(t) {
  const closed = t.phase === "closed";
  const btn = (label, action, onclick, cls = "secondary") => el("button", { class: `btn small ${cls}`, type: "button", "data-action": action,
    "aria-label": `${label} ${t.name}`, onclick, text: label });
  const act = (label, action) => btn(label, action, () => tableAction(t, action));
  return el("tr", { "data-table": t.table_id, class: state.selected === t.table_id ? "selected" : "" },
    cell("Table", {}, el("a", { href: `/table/?id=${encodeURIComponent(t.table_id)}&watch=1`, target: "_blank", rel: "noopener", text: t.name }), " ",
      el("small", { class: "hint id", text: t.table_id })),
    cell("Phase", { text: `${t.phase}${t.paused ? " · paused" : ""}${t.closing ? " · closing" : ""}` }),
    cell("Seats", { text: `${t.seats_taken}/${t.seats ?? 6}` }),
    cell("Limits", { class: "nowrap", text: `${money(t.min_bet_cents)} – ${money(t.max_bet_cents)}` }),
    variantCell(t),
    fortuneCell(t),
    cell("Watching", { text: String(t.spectators ?? 0) }),
    cell("Actions", {}, el("span", { class: "actions" },
      el("button", { class: "btn small", type: "button", "data-action": "manage", "aria-label": `Manage ${t.name}`, onclick: () => select(t.table_id), text: "Manage" }),
      t.paused ? act("Resume", "resume") : act("Pause", "pause"),
      closed ? act("Open", "open") : act("Close", "close"),
      btn("Void round", "void", () => voidRound(t), "danger"))));
}

export async function refreshTables() {
  const data = await api("/api/tables");
  const tables = data.tables ?? data;
  fillRows("tables", tables.map(tableRow), "No table yet: open one above.", 8);
  await refreshDetail();
}

async function select(id) {
  if (state.selected !== id) for (const saved of SAVED_IDS) say(saved, "");
  state.selected = id;
  await refreshDetail(true);
  await changed();
  $("detail").scrollIntoView({ block: "start" });
}

async function kick(seat, tableName) {
  showError("detail-error", null);
  say("detail-result", "");
  const tableId = state.selected;
  const done = await confirmAction({
    title: `Kick ${seat.name} from ${tableName}?`,
    text: `${seat.name} (${seat.player_id}) stands up now, or when the round in play ends if their hand is dealt; their chips go back to their balance.`,
    okLabel: `Kick ${seat.name}`,
    bar: true,
    run: ({ reason, barMinutes }) => call(`/tables/${encodeURIComponent(tableId)}/kick`, { method: "POST",
      body: { player_id: seat.player_id, reason, bar_minutes: barMinutes } }),
  });
  if (!done) return;
  const until = done.barred_until_ms ? ` and barred from this table until ${new Date(done.barred_until_ms).toLocaleString()}` : "";
  say("detail-result", `${seat.name} was kicked${until}.`);
  await changed();
}

function seatRow(s, p, tableName) {
  return el("tr", { "data-player": s.player_id },
    cell("Seat", { text: String(p) }), cell("Player", {}, who(s.name, s.player_id)),
    cell("Chips", { class: "num", text: money(s.chips_cents) }), cell("Status", { text: s.status }),
    cell("", {}, el("button", { class: "btn small danger", type: "button", "data-action": "kick", "aria-label": `Kick ${s.name}`,
      onclick: () => kick(s, tableName), text: "Kick…" })));
}

async function refreshDetail(fillForms = false) {
  if (!state.selected) return;
  try {
    const data = await call(`/tables/${encodeURIComponent(state.selected)}`);
    const v = data.view;
    $("detail").hidden = false;
    $("detail-title").textContent = `${v.name} — round ${v.round?.number ?? "–"}, ${v.phase}${v.paused ? ", paused" : ""}`;
    if (fillForms) {
      $("lim-min").value = (v.rules.min_bet_cents / 100).toFixed(2);
      $("lim-max").value = (v.rules.max_bet_cents / 100).toFixed(2);
      $("t-bank").value = v.timers.bank_offer_ms / 1000;
      $("t-bet").value = v.timers.betting_ms / 1000;
      $("t-set").value = v.timers.setting_ms / 1000;
      $("t-next").value = v.timers.between_rounds_ms / 1000;
    }
    renderFortune(v, fillForms);
    renderVariants(v, fillForms);
    const rows = v.seats.map((s, p) => (s ? seatRow(s, p, v.name) : null)).filter(Boolean);
    fillRows("seats", rows, "No one is seated.", 5);
    await refreshChat(state.selected, call);
  } catch (err) {
    if (err.status === 401) throw err;
    showError("detail-error", err);
  }
}

$("open-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("open-error", null);
  const min = parseMoney($("new-min").value);
  const max = parseMoney($("new-max").value);
  if (min === null || max === null) return showError("open-error", { message: "Limits are dollar amounts, e.g. 5 and 300." });
  try {
    const fortune = $("new-fortune").checked;
    const rules = { min_bet_cents: min, max_bet_cents: max, fortune_enabled: fortune, ...openVariants() };
    const res = await call("/tables", { method: "POST", body: { name: $("new-name").value, rules } });
    $("new-name").value = "";
    const variants = variantWords(rules, { all: false }).slice(rules.commission_form === "commissioned" ? 1 : 0);
    say("tables-result", `${res.table?.name ?? res.table_id} is open, ${fortune ? "with" : "without"} the Fortune bonus${variants.length ? `: ${variants.join(", ")}` : ""}.`);
    await select(res.table_id);
  } catch (err) {
    refuseOpen(err);
  }
  return null;
});

/** A form of the managed table: ``body()`` is PUT to ``/tables/{id}/{path}`` (it shows its own error and
 * answers null when the console's check refuses what was typed). Once saved, the form says so beside its
 * button (``saved``: "Saved: takes effect from the next round."), until the next change is typed or sent.
 * A refusal goes to ``error`` (the panel's error line), or to ``refused(err)``. */
function tableForm(formId, path, body, { saved = `${path}-saved`, error = "detail-error", refused = null } = {}) {
  const form = $(formId);
  const savedLine = $(saved);
  form.addEventListener("input", () => { savedLine.textContent = ""; });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(error, null);
    for (const id of SAVED_IDS) say(id, "");
    const sent = body();
    if (!sent) return;
    try {
      await call(`/tables/${encodeURIComponent(state.selected)}/${path}`, { method: "PUT", body: sent });
      savedLine.textContent = SAVED_TEXT;
      await changed();
    } catch (err) {
      if (refused) refused(err);
      else showError(error, err);
    }
  });
}

tableForm("limits-form", "limits", () => {
  const min = parseMoney($("lim-min").value);
  const max = parseMoney($("lim-max").value);
  if (min !== null && max !== null) return { min_bet_cents: min, max_bet_cents: max };
  showError("detail-error", { message: "Limits are dollar amounts, e.g. 5 and 300." });
  return null;
});
tableForm("fortune-form", "rules", () => {
  const { body, error } = fortuneRulesBody();
  if (!error) return body;
  showError("detail-error", { message: error });
  return null;
}, { saved: "fortune-saved" });
tableForm("variants-form", "rules", variantsRulesBody, { saved: "variants-saved", error: "variants-error", refused: refuseVariants });
tableForm("timers-form", "timers", () => {
  const secs = { bank_offer_ms: $("t-bank").value, betting_ms: $("t-bet").value, setting_ms: $("t-set").value, between_rounds_ms: $("t-next").value };
  const body = {};
  for (const [k, v] of Object.entries(secs)) {
    if (!/^\d+(\.\d+)?$/.test(String(v).trim())) {
      showError("detail-error", { message: `The ${k.replace(/_ms$/, "").replaceAll("_", " ")} time must be a number of seconds, not '${v}'.` });
      return null;
    }
    body[k] = Math.round(Number(v) * 1000);
  }
  return body;
});

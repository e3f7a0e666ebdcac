// The console's tables: the list (public tables and home games, each paused, resumed, closed, reopened, its
// round voided), opening a table, and the
// table being managed: limits, timers, the Fortune bonus (operator_fortune.js), the casino variants
// (operator_variants.js), each form saying its refusal inside it at its field, its seats (each player named
// beside their id, kick with a bar) and its chat (operator_chat.js).

import { api, el, money, parseMoney } from "./api.js";
import { $, call, cell, centsFields, fillRows, refuseAt, showError, state, unmarkOnEdit, who } from "./operator_api.js";
import { refreshChat } from "./operator_chat.js";
import { FORTUNE_FIELDS, fortuneCell, fortuneRulesBody, renderFortune } from "./operator_fortune.js";
import { confirmAction } from "./operator_confirm.js";
import { VARIANT_FIELDS, openVariants, refuseOpen, renderVariants, variantCell, variantWords, variantsRulesBody } from "./operator_variants.js";

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
/** The managed table's forms (``name``-form, its ``name``-saved and ``name``-error lines): each one's unmark. */
const FORMS = new Map();

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

/** Where the console watches a table: a home game through its invite (its address alone admits nobody). */
function watchHref(t) {
  if (t.private && t.invite?.url) return `${t.invite.url}&watch=1`;
  return `/table/?id=${encodeURIComponent(t.table_id)}&watch=1`;
}

function tableRow(t) {
  const closed = t.phase === "closed";
  const btn = (label, action, onclick, cls = "secondary") => el("button", { class: `btn small ${cls}`, type: "button", "data-action": action,
    "aria-label": `${label} ${t.name}`, onclick, text: label });
  const act = (label, action) => btn(label, action, () => tableAction(t, action));
  return el("tr", { "data-table": t.table_id, "data-home": t.private ? "1" : null, class: state.selected === t.table_id ? "selected" : "" },
    // One child in the cell: a phone's stacked row shows it beside the column's name, as one value.
    cell("Table", {}, el("span", {}, el("a", { href: watchHref(t), target: "_blank", rel: "noopener", text: t.name }),
      t.private ? el("span", { class: "home-tag", text: `Home game · host ${t.host_name}` }) : " ",
      el("small", { class: "hint id", text: t.table_id }))),
    cell("Phase", { text: `${t.phase}${t.paused ? " · paused" : ""}${t.closing ? " · closing" : ""}` }),
    cell("Seats", { text: `${t.seats_taken}/${t.seats ?? 6}` }),
    // Each amount kept whole, the two on two lines when the column is narrow.
    cell("Limits", {}, el("span", {}, el("span", { class: "nowrap", text: `${money(t.min_bet_cents)} –` }), " ",
      el("span", { class: "nowrap", text: money(t.max_bet_cents) }))),
    variantCell(t),
    fortuneCell(t),
    cell("Watching", { text: String(t.spectators ?? 0) }),
    cell("Actions", {}, el("span", { class: "actions" },
      el("button", { class: "btn small", type: "button", "data-action": "manage", "aria-label": `Manage ${t.name}`, onclick: () => select(t.table_id), text: "Manage" }),
      t.paused ? act("Resume", "resume") : act("Pause", "pause"),
      closed ? act("Open", "open") : act("Close", "close"),
      btn("Void round", "void", () => voidRound(t), "danger"))));
}

/** Every table the operator runs: the public ones (the lobby's list), then the open home games, which the
 * lobby never lists (GET /api/operator/home-tables, the operator's alone). */
export async function refreshTables() {
  const [data, homes] = await Promise.all([api("/api/tables"), call("/home-tables")]);
  const tables = [...(data.tables ?? data), ...homes.tables];
  fillRows("tables", tables.map(tableRow), "No table yet: open one above.", 8);
  await refreshDetail();
}

async function select(id) {
  if (state.selected !== id) for (const name of FORMS.keys()) say(`${name}-saved`, "");
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
      for (const [name, unmark] of FORMS) {
        say(`${name}-error`, "");
        unmark();
      }
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

/**
 * A form of the managed table, ``name``-form: ``read()`` gives the body PUT to ``/tables/{id}/{path}``, or
 * {error, field} for what the console refuses itself. Once saved, the form says so beside its button
 * (``name``-saved: "Saved: takes effect from the next round."), until the next change is typed or sent. A
 * refusal, the console's or the server's, shows in the form's own error line (``name``-error), naming
 * and marking its field when it names one of ``fields`` (operator_api.js refuseAt).
 */
function tableForm(name, path, read, fields) {
  const form = $(`${name}-form`);
  FORMS.set(name, unmarkOnEdit(form));
  form.addEventListener("input", () => say(`${name}-saved`, ""));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    for (const other of FORMS.keys()) say(`${other}-saved`, "");
    say(`${name}-error`, "");
    const { body, error, field } = read();
    if (error) return refuseAt(`${name}-error`, { message: error, field }, fields);
    try {
      await call(`/tables/${encodeURIComponent(state.selected)}/${path}`, { method: "PUT", body });
      say(`${name}-saved`, SAVED_TEXT);
      await changed();
    } catch (err) {
      refuseAt(`${name}-error`, err, fields);
    }
    return null;
  });
}

const LIMIT_FIELDS = { min_bet_cents: ["lim-min", "minimum"], max_bet_cents: ["lim-max", "maximum"] };
const TIMER_FIELDS = { bank_offer_ms: ["t-bank", "bank offer time"], betting_ms: ["t-bet", "betting time"],
  setting_ms: ["t-set", "setting time"], between_rounds_ms: ["t-next", "time between rounds"] };

tableForm("limits", "limits", () => centsFields({ min_bet_cents: $("lim-min").value, max_bet_cents: $("lim-max").value },
  (k) => LIMIT_FIELDS[k][1]), LIMIT_FIELDS);
tableForm("timers", "timers", () => {
  const body = {};
  for (const [k, [id, words]] of Object.entries(TIMER_FIELDS)) {
    const v = $(id).value;
    if (!/^\d+(\.\d+)?$/.test(String(v).trim())) return { error: `The ${words} must be a number of seconds, not '${v}'.`, field: k };
    body[k] = Math.round(Number(v) * 1000);
  }
  return { body };
}, TIMER_FIELDS);
tableForm("fortune", "rules", fortuneRulesBody, FORTUNE_FIELDS);
tableForm("variants", "rules", variantsRulesBody, VARIANT_FIELDS);

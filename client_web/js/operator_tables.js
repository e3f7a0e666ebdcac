// The console's tables: the list (public tables and home games, each paused, resumed, closed, reopened, its
// round voided), opening a table, and the
// table being managed: limits, timers, the Fortune bonus (operator_fortune.js), the casino variants
// (operator_variants.js), each form saying its refusal inside it at its field, its seats (each player named
// beside their id, kick with a bar) and its chat (operator_chat.js).

import { api, el, money, parseMoney } from "./api.js";
import { amountText, dateTime, has, markName, number, t } from "./i18n.js";
import { $, call, cell, centsFields, fillRows, refuseAt, sentenceWith, showError, state, unmarkOnEdit, userText, who } from "./operator_api.js";
import { refreshChat } from "./operator_chat.js";
import { FORTUNE_FIELDS, fortuneCell, fortuneRulesBody, renderFortune } from "./operator_fortune.js";
import { confirmAction } from "./operator_confirm.js";
import { VARIANT_FIELDS, openVariants, refuseOpen, renderVariants, variantCell, variantWords, variantsRulesBody, wordList } from "./operator_variants.js";

/** Called after an action changed something (set by operator.js: refresh everything). */
let changed = async () => {};
export function onChange(fn) {
  changed = fn;
}

function say(id, text) {
  $(id).textContent = text;
}

/** A table's phase (or a seat's status) in words; a code the catalog does not know (a newer server's) as it is. */
const phaseWords = (phase) => (has(`console:phase.${phase}`) ? t(`console:phase.${phase}`) : phase);
const statusWords = (status) => (has(`console:seat.status.${status}`) ? t(`console:seat.status.${status}`) : status);
/** What a saved form of the managed table says beside its button: every change waits for the next round. */
const savedText = () => t("console:form.saved");
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

async function voidRound(table) {
  showError("open-error", null);
  say("tables-result", "");
  const done = await confirmAction({
    title: t("console:void.title", { table: table.name }),
    text: t("console:void.text"),
    okLabel: t("console:void.button"),
    run: ({ reason }) => call(`/tables/${encodeURIComponent(table.table_id)}/void`, { method: "POST", body: { reason } }),
  });
  if (!done) return;
  say("tables-result", t("console:void.done", { table: table.name }));
  await changed();
}

/** Where the console watches a table: a home game through its invite (its address alone admits nobody). */
function watchHref(table) {
  if (table.private && table.invite?.url) return `${table.invite.url}&watch=1`;
  return `/table/?id=${encodeURIComponent(table.table_id)}&watch=1`;
}

/** "betting · paused · closing": the phase, then what else holds the table, each a word of its own. */
function phaseLine(table) {
  return [phaseWords(table.phase), table.paused ? t("console:tables.paused") : null, table.closing ? t("console:tables.closing") : null]
    .filter(Boolean).join(" · ");
}

function tableRow(table) {
  const closed = table.phase === "closed";
  const btn = ([button, label], action, onclick, cls = "secondary") => el("button", { class: `btn small ${cls}`, type: "button",
    "data-action": action, "aria-label": t(label, { table: table.name }), onclick, text: t(button) });
  const act = (keys, action) => btn(keys, action, () => tableAction(table, action));
  return el("tr", { "data-table": table.table_id, "data-home": table.private ? "1" : null, class: state.selected === table.table_id ? "selected" : "" },
    // One child in the cell: a phone's stacked row shows it beside the column's name, as one value.
    cell(t("console:tables.col.table"), {}, el("span", {},
      markName(el("a", { href: watchHref(table), target: "_blank", rel: "noopener", text: table.name })),
      table.private ? el("span", { class: "home-tag" }, ...sentenceWith("console:tables.home_tag", {}, { host: userText(table.host_name) })) : " ",
      el("small", { class: "hint id", text: table.table_id }))),
    cell(t("console:tables.col.phase"), { text: phaseLine(table) }),
    cell(t("console:tables.col.seats"), { text: t("console:tables.seats", { taken: number(table.seats_taken), seats: number(table.seats ?? 6) }) }),
    // Each amount kept whole, the two on two lines when the column is narrow.
    cell(t("console:tables.col.limits"), {}, el("span", {}, ...sentenceWith("console:tables.limits", {},
      { min: el("span", { class: "nowrap", text: money(table.min_bet_cents) }), max: el("span", { class: "nowrap", text: money(table.max_bet_cents) }) }))),
    variantCell(table),
    fortuneCell(table),
    cell(t("console:tables.col.watching"), { text: number(table.spectators ?? 0) }),
    cell(t("console:tables.col.actions"), {}, el("span", { class: "actions" },
      el("button", { class: "btn small", type: "button", "data-action": "manage", "aria-label": t("console:tables.manage.label", { table: table.name }),
        onclick: () => select(table.table_id), text: t("console:tables.manage.button") }),
      table.paused ? act(["console:tables.resume.button", "console:tables.resume.label"], "resume")
        : act(["console:tables.pause.button", "console:tables.pause.label"], "pause"),
      closed ? act(["console:tables.reopen.button", "console:tables.reopen.label"], "open")
        : act(["console:tables.close.button", "console:tables.close.label"], "close"),
      btn(["console:tables.void.button", "console:tables.void.label"], "void", () => voidRound(table), "danger"))));
}

/** Every table the operator runs: the public ones (the lobby's list), then the open home games, which the
 * lobby never lists (GET /api/operator/home-tables, the operator's alone). */
export async function refreshTables() {
  const [data, homes] = await Promise.all([api("/api/tables"), call("/home-tables")]);
  const tables = [...(data.tables ?? data), ...homes.tables];
  fillRows("tables", tables.map(tableRow), t("console:tables.empty"), 8);
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
    title: t("console:kick.title", { name: seat.name, table: tableName }),
    text: t("console:kick.text", { name: seat.name, id: seat.player_id }),
    okLabel: t("console:kick.button", { name: seat.name }),
    bar: true,
    run: ({ reason, barMinutes }) => call(`/tables/${encodeURIComponent(tableId)}/kick`, { method: "POST",
      body: { player_id: seat.player_id, reason, bar_minutes: barMinutes } }),
  });
  if (!done) return;
  say("detail-result", done.barred_until_ms ? t("console:kick.done.barred", { name: seat.name, until: dateTime(done.barred_until_ms) })
    : t("console:kick.done", { name: seat.name }));
  await changed();
}

function seatRow(s, p, tableName) {
  return el("tr", { "data-player": s.player_id },
    cell(t("console:seats.col.seat"), { text: number(p) }), cell(t("console:seats.col.player"), {}, who(s.name, s.player_id)),
    cell(t("console:seats.col.chips"), { class: "num", text: money(s.chips_cents) }), cell(t("console:seats.col.status"), { text: statusWords(s.status) }),
    cell("", {}, el("button", { class: "btn small danger", type: "button", "data-action": "kick", "aria-label": t("console:seats.kick.label", { name: s.name }),
      onclick: () => kick(s, tableName), text: t("console:seats.kick.button") })));
}

async function refreshDetail(fillForms = false) {
  if (!state.selected) return;
  try {
    const data = await call(`/tables/${encodeURIComponent(state.selected)}`);
    const v = data.view;
    $("detail").hidden = false;
    const round = v.round?.number != null ? number(v.round.number) : "–";
    $("detail-title").textContent = t(v.paused ? "console:detail.title.paused" : "console:detail.title", { table: v.name, round, phase: phaseWords(v.phase) });
    if (fillForms) {
      for (const [name, unmark] of FORMS) {
        say(`${name}-error`, "");
        unmark();
      }
      $("lim-min").value = amountText(v.rules.min_bet_cents);
      $("lim-max").value = amountText(v.rules.max_bet_cents);
      $("t-bank").value = v.timers.bank_offer_ms / 1000;
      $("t-bet").value = v.timers.betting_ms / 1000;
      $("t-set").value = v.timers.setting_ms / 1000;
      $("t-next").value = v.timers.between_rounds_ms / 1000;
    }
    renderFortune(v, fillForms);
    renderVariants(v, fillForms);
    const rows = v.seats.map((s, p) => (s ? seatRow(s, p, v.name) : null)).filter(Boolean);
    fillRows("seats", rows, t("console:seats.empty"), 5);
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
  if (min === null || max === null) return showError("open-error", { message: t("console:open.limits.invalid") });
  try {
    const fortune = $("new-fortune").checked;
    const rules = { min_bet_cents: min, max_bet_cents: max, fortune_enabled: fortune, ...openVariants() };
    const res = await call("/tables", { method: "POST", body: { name: $("new-name").value, rules } });
    $("new-name").value = "";
    const variants = variantWords(rules, { all: false }).slice(rules.commission_form === "commissioned" ? 1 : 0);
    const table = res.table?.name ?? res.table_id;
    const key = fortune ? (variants.length ? "console:open.done.fortune.variants" : "console:open.done.fortune")
      : (variants.length ? "console:open.done.no_fortune.variants" : "console:open.done.no_fortune");
    say("tables-result", t(key, { table, variants: wordList(variants) }));
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
      say(`${name}-saved`, savedText());
      await changed();
    } catch (err) {
      refuseAt(`${name}-error`, err, fields);
    }
    return null;
  });
}

const LIMIT_FIELDS = { min_bet_cents: "lim-min", max_bet_cents: "lim-max" };
const TIMER_FIELDS = { bank_offer_ms: "t-bank", betting_ms: "t-bet", setting_ms: "t-set", between_rounds_ms: "t-next" };

tableForm("limits", "limits", () => centsFields({ min_bet_cents: $("lim-min").value, max_bet_cents: $("lim-max").value }), LIMIT_FIELDS);
tableForm("timers", "timers", () => {
  const body = {};
  for (const [k, id] of Object.entries(TIMER_FIELDS)) {
    const v = $(id).value;
    if (!/^\d+(\.\d+)?$/.test(String(v).trim())) return { error: t(`console:check.seconds.${k}`, { text: v }), field: k };
    body[k] = Math.round(Number(v) * 1000);
  }
  return { body };
}, TIMER_FIELDS);
tableForm("fortune", "rules", fortuneRulesBody, FORTUNE_FIELDS);
tableForm("variants", "rules", variantsRulesBody, VARIANT_FIELDS);

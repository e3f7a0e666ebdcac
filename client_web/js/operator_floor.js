// The console's Floor (issue 34, docs/floor.md): what the tables did over a window (the last hour, today, 7
// or 30 days, or from one day to another, in the answer's time zone) for the whole deployment or one table,
// from `GET /api/operator/floor`: the headline figures, three charts (win against the theoretical win and
// its band; handle and rounds per hour; occupancy), each with its figures in a table (floor_charts.js), the
// same figures as CSV (`format=csv`, fetched with the operator's token and saved), and the tables side by
// side. Every word from the catalog (`console:floor.*`); money, numbers, percents and times through Intl.

import { ApiError, api, el, money, saveFile } from "./api.js";
import { has, locale, number, percent, t } from "./i18n.js";
import { $, call, cell, errorText, fillRows, sentenceWith, state, userText } from "./operator_api.js";
import { COLOURS, drawChart } from "./floor_charts.js";

const DAY = 86_400_000;
const MAX_DAYS = 400;
const EVERY_MS = 30_000;
let asked = 0;
let shown = "";
let timer = null;

const none = () => t("console:floor.none");
/** A rate the API gives in percent (`hold_pct`: 2.86 is 2.86%). */
const pct = (v) => (v == null ? none() : percent(v / 100));
/** A share the API gives as a fraction of the rounds (0.25 is 25%). */
const share = (v) => (v == null ? none() : percent(v));
const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const oneDecimal = (v) => (v == null ? none() : decimal.format(v));
const cents = (v) => (v == null ? none() : money(v));
const signed = (v) => (v == null ? none() : money(v, { sign: true }));

/** The query of the form's window and table (``{query}``), or what is wrong with it (``{error, field}``). */
function floorQuery() {
  const params = new URLSearchParams();
  const window = $("floor-window").value;
  if (window === "range") {
    const from = Date.parse($("floor-from").value);
    const to = Date.parse($("floor-to").value);
    if (Number.isNaN(from)) return { error: t("console:floor.check.from"), field: "floor-from" };
    if (Number.isNaN(to)) return { error: t("console:floor.check.to"), field: "floor-to" };
    if (to < from) return { error: t("console:floor.check.order"), field: "floor-to" };
    if (to + DAY - from > MAX_DAYS * DAY) return { error: t("console:floor.check.span", { days: number(MAX_DAYS) }), field: "floor-to" };
    params.set("from", String(from));
    params.set("to", String(to + DAY)); // the last day included, to its end
  } else params.set("window", window);
  if ($("floor-table").value) params.set("table", $("floor-table").value);
  return { query: params.toString() };
}

/** One figure: its name, its value, and a line under it (the band, the rounds it counts): words, or the
 * parts of a sentence (sentenceWith). */
function figure(key, label, value, note = null) {
  const parts = note === null ? null : typeof note === "string" ? [note] : note;
  return el("div", { class: "figure", "data-figure": key }, el("dt", { text: label }), el("dd", {},
    el("span", { class: "value", text: value }), parts ? el("span", { class: "note" }, ...parts) : null));
}

/** A sentence of the catalog whose amounts never break inside ("−$76.33" whole on one line). */
function amounts(key, values) {
  const nodes = Object.fromEntries(Object.entries(values).map(([name, text]) => [name, el("span", { class: "nowrap", text })]));
  return sentenceWith(key, {}, nodes);
}

function roundsNote(count) {
  return t("console:floor.fig.of_rounds", { count, rounds: number(count) });
}

function figures(data) {
  const s = data.totals;
  const now = data.now ?? {};
  const side = (handle, win) => amounts("console:floor.fig.side.note", { win: signed(win), handle: money(handle) });
  return [
    figure("rounds", t("console:floor.fig.rounds"), number(s.rounds),
      s.voided ? t("console:floor.fig.voided", { count: s.voided, voided: number(s.voided) }) : null),
    figure("rounds_per_hour", t("console:floor.fig.rounds_per_hour"), oneDecimal(s.rounds_per_hour)),
    figure("handle", t("console:floor.fig.handle"), cents(s.handle_cents)),
    figure("win", t("console:floor.fig.win"), signed(s.win_cents)),
    figure("hold", t("console:floor.fig.hold"), pct(s.hold_pct), t("console:floor.fig.hold.note")),
    figure("theo_win", t("console:floor.fig.theo"), signed(s.theo_win_cents),
      amounts("console:floor.fig.theo.band", { low: signed(s.band_low_cents), high: signed(s.band_high_cents) })),
    figure("commission", t("console:floor.fig.commission"), cents(s.commission_cents)),
    figure("fortune_hold", t("console:floor.fig.fortune"), pct(s.fortune_hold_pct), side(s.fortune_handle_cents, s.fortune_win_cents)),
    figure("queens_dragon_hold", t("console:floor.fig.queens_dragon"), pct(s.queens_dragon_hold_pct),
      side(s.queens_dragon_handle_cents, s.queens_dragon_win_cents)),
    figure("player_banked_share", t("console:floor.fig.player_banked"), share(s.player_banked_share), roundsNote(s.player_banked_rounds)),
    figure("co_banked_share", t("console:floor.fig.co_banked"), share(s.co_banked_share), roundsNote(s.co_banked_rounds)),
    figure("seats_per_round", t("console:floor.fig.seats_per_round"), oneDecimal(s.seats_per_round)),
    figure("players_online", t("console:floor.fig.players"), number(now.players_online ?? 0)),
    figure("spectators_online", t("console:floor.fig.spectators"), number(now.spectators_online ?? 0)),
    figure("seats_occupied", t("console:floor.fig.seats"),
      t("console:floor.fig.seats.value", { occupied: number(now.seats_occupied ?? 0), total: number(now.seats_total ?? 0) }),
      t("console:floor.fig.tables_open", { count: now.tables_open ?? 0, tables: number(now.tables_open ?? 0) })),
  ];
}

const dollars = (key) => (r) => (r[key] == null ? null : r[key] / 100);
const plain = (key) => (r) => r[key] ?? null;

/** The three charts: what each draws, its legend's words and its table's columns. */
function charts() {
  const col = (key, label, format) => ({ key, label, format });
  return [
    { id: "floor-win", title: t("console:floor.chart.win.title"), hint: t("console:floor.chart.win.hint"),
      caption: t("console:floor.chart.win.caption"), y: "money",
      series: [
        { key: "cum_win_cents", label: t("console:floor.series.win"), colour: COLOURS.gold, swatch: "gold", value: dollars("cum_win_cents") },
        { key: "cum_theo_win_cents", label: t("console:floor.series.theo"), colour: COLOURS.blue, dash: [6, 4], swatch: "blue dashed",
          value: dollars("cum_theo_win_cents") },
        { key: "band_high_cents", label: t("console:floor.series.band"), colour: COLOURS.bandEdge, width: 1, swatch: "band",
          value: dollars("band_high_cents") },
        { key: "band_low_cents", edge: true, label: t("console:floor.series.band"), colour: COLOURS.bandEdge, width: 1,
          value: dollars("band_low_cents") }],
      band: ["band_low_cents", "band_high_cents"],
      columns: [col("win_cents", t("console:floor.col.win"), signed), col("cum_win_cents", t("console:floor.col.cum_win"), signed),
        col("cum_theo_win_cents", t("console:floor.col.cum_theo"), signed), col("band_low_cents", t("console:floor.col.band_low"), signed),
        col("band_high_cents", t("console:floor.col.band_high"), signed)] },
    { id: "floor-volume", title: t("console:floor.chart.volume.title"), hint: t("console:floor.chart.volume.hint"),
      caption: t("console:floor.chart.volume.caption"), y: "money", right: "count",
      series: [
        { key: "handle_cents", label: t("console:floor.series.handle"), colour: COLOURS.green, fill: COLOURS.bars, bars: true, width: 1,
          swatch: "bars", value: dollars("handle_cents") },
        { key: "rounds_per_hour", label: t("console:floor.series.rounds_per_hour"), colour: COLOURS.gold, right: true, swatch: "gold",
          value: plain("rounds_per_hour") }],
      columns: [col("rounds", t("console:floor.col.rounds"), number), col("handle_cents", t("console:floor.col.handle"), cents),
        col("rounds_per_hour", t("console:floor.col.rounds_per_hour"), oneDecimal), col("commission_cents", t("console:floor.col.commission"), cents)] },
    { id: "floor-occupancy", title: t("console:floor.chart.occupancy.title"), hint: t("console:floor.chart.occupancy.hint"),
      caption: t("console:floor.chart.occupancy.caption"), y: "count",
      series: [{ key: "seats_per_round", label: t("console:floor.series.seats_per_round"), colour: COLOURS.blue, swatch: "blue",
        value: plain("seats_per_round") }],
      columns: [col("rounds", t("console:floor.col.rounds"), number), col("seats_per_round", t("console:floor.col.seats_per_round"), oneDecimal)] },
  ];
}

/** What a window's answer covers, in words: from, to, and a point every minute, hour or day(s). */
function spanWords(data) {
  const fmt = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: data.timezone });
  const b = data.bucket_ms;
  const step = b % DAY === 0 ? t("console:floor.step.days", { count: b / DAY, n: number(b / DAY) })
    : b % 3_600_000 === 0 ? t("console:floor.step.hours", { count: b / 3_600_000, n: number(b / 3_600_000) })
      : t("console:floor.step.minutes", { count: Math.round(b / 60_000), n: number(Math.round(b / 60_000)) });
  // The zone's name from the catalog (the API says "UTC"); another, from a newer server, as it is.
  const zone = has(`console:floor.zone.${data.timezone}`) ? t(`console:floor.zone.${data.timezone}`) : data.timezone;
  return t("console:floor.span", { from: fmt.format(new Date(data.from_ms)), to: fmt.format(new Date(data.to_ms)), step, zone });
}

function tableRow(row) {
  return el("tr", { "data-table": row.table_id },
    cell(t("console:floor.tables.col.table"), {}, row.name ? el("button", { class: "link", type: "button", "data-action": "floor-pick",
      title: t("console:floor.tables.pick"), onclick: () => pickTable(row.table_id) }, userText(row.name)) : null,
    el("small", { class: "hint id", text: ` ${row.table_id}` })),
    cell(t("console:floor.tables.col.rounds"), { class: "num", text: number(row.rounds) }),
    cell(t("console:floor.tables.col.handle"), { class: "num", text: cents(row.handle_cents) }),
    cell(t("console:floor.tables.col.win"), { class: "num", text: signed(row.win_cents) }),
    cell(t("console:floor.tables.col.hold"), { class: "num", text: pct(row.hold_pct) }),
    cell(t("console:floor.tables.col.theo"), { class: "num", text: signed(row.theo_win_cents) }));
}

/** The table picker: all tables, each table open now, and each that played in the window. */
async function fillPicker(data) {
  const select = $("floor-table");
  let open = [];
  try {
    const list = await api("/api/tables");
    open = list.tables ?? list;
  } catch { /* the picker keeps the tables of the answer */ }
  const picked = select.value; // read after the wait: the operator may have picked meanwhile
  const names = new Map(open.map((x) => [x.table_id, x.name]));
  // A table that played in the window and that the server still holds (a name); one it no longer holds
  // has no figures of its own to show (the API answers 404 for it).
  for (const row of data?.tables ?? []) if (row.name && !names.has(row.table_id)) names.set(row.table_id, row.name);
  if (picked && !names.has(picked)) names.set(picked, picked);
  const options = [...names].sort((a, b) => String(a[1]).localeCompare(String(b[1])))
    .map(([id, name]) => el("option", { value: id, lang: "", translate: "no", text: name }));
  select.replaceChildren(el("option", { value: "", text: t("console:floor.table.all") }), ...options);
  select.value = picked;
}

function pickTable(id) {
  $("floor-table").value = id;
  loadFloor().catch(() => {});
  $("floor-panel").scrollIntoView({ block: "start" });
}

function render(data) {
  $("floor-span").textContent = spanWords(data);
  $("floor-figures").replaceChildren(...figures(data));
  const host = $("floor-charts");
  const when = { zone: data.timezone, bucketMs: data.bucket_ms, spanMs: data.to_ms - data.from_ms };
  for (const spec of charts()) drawChart(host, spec, data.series ?? [], when);
  $("floor-tables-part").hidden = Boolean(data.table);
  if (!data.table) fillRows("floor-tables", (data.tables ?? []).map(tableRow), t("console:floor.tables.empty"), 6);
}

/** Ask for the form's window and table and show the answer (the last one asked wins). */
export async function loadFloor({ quiet = false } = {}) {
  const q = floorQuery();
  for (const id of ["floor-from", "floor-to"]) $(id).removeAttribute("aria-invalid");
  if (q.error) {
    $("floor-error").textContent = q.error;
    $(q.field).setAttribute("aria-invalid", "true");
    if (!quiet) $(q.field).focus();
    return;
  }
  const mine = ++asked;
  try {
    const data = await call(`/floor?${q.query}`);
    if (mine !== asked) return;
    $("floor-error").textContent = "";
    $("floor-panel").dataset.query = q.query;
    const text = JSON.stringify(data);
    if (text !== shown) {
      shown = text;
      render(data);
    }
    await fillPicker(data);
    if (mine === asked) $("floor-panel").dataset.ready = "true";
  } catch (err) {
    if (mine !== asked) return;
    if (err?.status === 401) throw err;
    $("floor-error").textContent = t("console:floor.failed", { reason: errorText(err) });
  }
}

/** The figures as CSV, with the operator's token (a plain link could not send it), saved as a file. */
async function downloadCsv() {
  const q = floorQuery();
  if (q.error) return loadFloor();
  const res = await fetch(`/api/operator/floor?${q.query}&format=csv`,
    { headers: { Authorization: `Bearer ${state.auth?.token ?? ""}`, Accept: "text/csv" } });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(res.status, body.error ?? String(res.status), body.message ?? "");
  }
  const named = /filename="?([^";]+)"?/.exec(res.headers.get("Content-Disposition") ?? "");
  saveFile(await res.blob(), named?.[1] ?? "paigow-floor.csv");
  return null;
}

/** Show the floor now and every half minute while the console is open. */
export function startFloor(onError) {
  clearInterval(timer);
  timer = setInterval(() => loadFloor({ quiet: true }).catch(onError), EVERY_MS);
  return loadFloor({ quiet: true }).catch(onError);
}

export function stopFloor() {
  clearInterval(timer);
  shown = "";
}

$("floor-window").addEventListener("change", () => {
  const range = $("floor-window").value === "range";
  for (const node of document.querySelectorAll(".floor-range")) node.hidden = !range;
  if (range) {
    if (!$("floor-to").value) $("floor-to").value = new Date().toISOString().slice(0, 10);
    if (!$("floor-from").value) $("floor-from").value = new Date(Date.now() - 6 * DAY).toISOString().slice(0, 10);
  }
  loadFloor().catch(() => {});
});
$("floor-table").addEventListener("change", () => loadFloor().catch(() => {}));
$("floor-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  loadFloor().catch(() => {});
});
$("floor-csv").addEventListener("click", (ev) => {
  ev.preventDefault();
  $("floor-error").textContent = "";
  downloadCsv().catch((err) => { $("floor-error").textContent = t("console:floor.failed", { reason: errorText(err) }); });
});

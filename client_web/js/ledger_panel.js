// The Ledger of a home game that plays with its own chips (view.home.chips, docs/home-games.md), for everyone
// at the game, live and after the close: each player's buy-ins, stack or cash-out and net (a table that fits a
// phone), every line with its time and who approved it, the house's and the commission's lines when not zero,
// the check that the game sums to zero, the downloads (ledger and hand log, CSV and JSON: fetched with the
// session's token and saved from a Blob), and once the game is closed the settle-up.

import { el, saveFile } from "./api.js";
import { CASH_OUT, cash, LEDGER, lineTime, signedCash } from "./chips_words.js";
import { errorText } from "./errors.js";
import { markName } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const DOWNLOADS = [["ledger", "csv", LEDGER.ledgerCsv], ["ledger", "json", LEDGER.ledgerJson], ["hands", "csv", LEDGER.handsCsv], ["hands", "json", LEDGER.handsJson]];
let dialog = null;

const partyName = (id, name) => LEDGER.party[id] ?? name;
const netClass = (cents) => (cents > 0 ? "net win" : cents < 0 ? "net loss" : "net");

function playersTable(chips) {
  if (!chips.players.length) return el("p", { class: "hint", id: "ledger-nobody", text: LEDGER.nobody });
  const head = el("tr", {}, [LEDGER.player, LEDGER.buyIns, LEDGER.stack, LEDGER.net].map((t, i) => el("th", { scope: "col", class: i ? "num" : null, text: t })));
  const rows = chips.players.map((p) => {
    const corrections = p.added_cents - p.taken_cents;
    return el("tr", { "data-ledger-player": p.player_id },
      markName(el("th", { scope: "row", class: "who", text: p.name })),
      el("td", { class: "num" }, cash(p.buy_ins_cents), corrections ? el("small", { text: signedCash(corrections) }) : null),
      el("td", { class: "num" }, cash(p.stack_cents ?? p.cashed_out_cents),
        el("small", { text: p.stack_cents == null ? LEDGER.cashedOutWord : p.cashed_out_cents ? LEDGER.cashedOut(p.cashed_out_cents) : LEDGER.atTable })),
      el("td", { class: `num ${netClass(p.net_cents)}`, "data-net": String(p.net_cents), text: signedCash(p.net_cents) }));
  });
  return el("table", { class: "ledger-players", id: "ledger-players" }, el("thead", {}, head), el("tbody", {}, rows));
}

function linesList(chips) {
  const lines = [...chips.lines].reverse(); // the newest first
  return el("ol", { class: "ledger-lines", id: "ledger-lines", reversed: true }, lines.map((l) => el("li", { "data-line": String(l.line), "data-kind": l.kind },
    el("span", { class: "time", text: lineTime(l.at_ms) }),
    el("span", { class: "what" }, (LEDGER.kinds[l.kind] ?? ((x) => x.kind))(l),
      LEDGER.approvedLine(l) ? el("small", { class: "by", text: LEDGER.approvedLine(l) }) : null),
    el("span", { class: `amount${l.kind === "cash_out" || l.kind === "take_back" ? " out" : ""}`, text: cash(l.amount_cents) }))));
}

function checkLine(chips) {
  return el("div", { class: "ledger-check" },
    el("p", { class: "hint", id: "ledger-totals", text: LEDGER.totals(chips.issued_cents, chips.stacks_cents, chips.cashed_out_cents) }),
    chips.house_cents ? el("p", { id: "ledger-house", text: LEDGER.house(chips.house_cents) }) : null,
    chips.commission_cents ? el("p", { id: "ledger-commission", text: LEDGER.commission(chips.commission_cents) }) : null,
    el("p", { class: `balanced${chips.balanced ? "" : " off"}`, id: "ledger-balanced", "data-balanced": String(chips.balanced) },
      el("span", { class: "mark", "aria-hidden": "true", text: chips.balanced ? "✓" : "!" }), chips.balanced ? LEDGER.balanced : LEDGER.unbalanced));
}

/** What each party's payments add up to: [{id, name, cents}] (> 0 gets, < 0 pays), the players first. */
function totals(chips) {
  const sums = new Map();
  const names = new Map(chips.players.map((p) => [p.player_id, p.name]));
  for (const p of chips.settle_up ?? []) {
    sums.set(p.from_id, (sums.get(p.from_id) ?? 0) - p.amount_cents);
    sums.set(p.to_id, (sums.get(p.to_id) ?? 0) + p.amount_cents);
    names.set(p.from_id, partyName(p.from_id, p.from_name));
    names.set(p.to_id, partyName(p.to_id, p.to_name));
  }
  return [...names].map(([id, name]) => ({ id, name, cents: sums.get(id) ?? 0 }));
}

/** The settle-up (the table closed): the payments, and each party's total. Null before the close. */
export function settleUp(chips, closed, prefix = "ledger") {
  if (!closed || !chips.settle_up) return el("p", { class: "hint", id: `${prefix}-settle-waits`, text: LEDGER.settleWaits });
  const payments = chips.settle_up;
  return el("div", { class: "settle-up", id: `${prefix}-settle-up` },
    payments.length ? el("ul", { class: "settle-payments", id: `${prefix}-settle-payments` }, payments.map((p) => el("li", { "data-from": p.from_id, "data-to": p.to_id, "data-cents": String(p.amount_cents),
      text: LEDGER.pays(partyName(p.from_id, p.from_name), partyName(p.to_id, p.to_name), p.amount_cents) })))
      : el("p", { id: `${prefix}-settle-none`, text: LEDGER.settleNone }),
    el("p", { class: "hint settle-totals-title", text: LEDGER.totalsTitle }),
    el("ul", { class: "settle-totals", id: `${prefix}-settle-totals` }, totals(chips).map(({ id, name, cents }) => el("li", {
      class: cents > 0 ? "win" : cents < 0 ? "loss" : null, "data-party": id, "data-cents": String(cents),
      text: cents > 0 ? LEDGER.getsIn(name, cents) : cents < 0 ? LEDGER.paysOut(name, -cents) : LEDGER.even(name) }))));
}

/** Downloads one export with the session's token (the endpoints need it), saved through a Blob. */
async function download(ctx, tableId, what, format, label) {
  $("ledger-download-error").textContent = "";
  try {
    const res = await fetch(`/api/home/tables/${encodeURIComponent(tableId)}/${what}?format=${format}`,
      { headers: { Authorization: `Bearer ${ctx.session?.token ?? ""}` } });
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      const code = typeof body.error === "string" ? body.error : body.error?.code ?? body.code ?? `HTTP_${res.status}`;
      throw Object.assign(new Error(code), { code, body });
    }
    const blob = await res.blob();
    const named = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "");
    saveFile(blob, named ? named[1] : `${what}.${format}`);
  } catch (err) {
    // A refusal in the page's language from its code; no answer at all (offline) says so.
    $("ledger-download-error").textContent = LEDGER.downloadFailed(label, err.code ? errorText(err) : LEDGER.downloadNoAnswer);
  }
}

/** The Ledger's content for a chips view: sections in the order a reader wants them (the settle-up first once
 * the game is closed). */
export function ledgerNodes(view, ctx, tableId) {
  const chips = view.home.chips;
  const closed = view.phase === "closed";
  const section = (id, title, ...body) => el("section", { id, "aria-labelledby": `${id}-title` }, el("h3", { id: `${id}-title`, text: title }), ...body);
  const settle = section("ledger-settle", LEDGER.settleTitle, settleUp(chips, closed));
  const downloads = ctx.session ? section("ledger-downloads", LEDGER.downloads, el("div", { class: "row" },
    DOWNLOADS.map(([what, format, label]) => el("button", { class: "btn small secondary", type: "button", id: `download-${what}-${format}`, text: label,
      onclick: () => download(ctx, tableId, what, format, label) }))),
  el("p", { class: "field-error", id: "ledger-download-error", role: "alert" })) : null;
  return [
    closed ? el("p", { class: "hint", id: "ledger-closed", text: LEDGER.closedNote }) : null,
    closed ? settle : null,
    section("ledger-players-section", LEDGER.players, playersTable(chips), checkLine(chips)),
    closed ? null : settle,
    section("ledger-lines-section", LEDGER.lines, linesList(chips)),
    downloads,
  ].filter(Boolean);
}

function draw(view, ctx, tableId) {
  const body = $("ledger-body");
  const chips = view.home.chips;
  const sig = JSON.stringify([chips.players, chips.lines, chips.settle_up, chips.house_cents, chips.commission_cents, chips.balanced, view.phase]);
  if (body.dataset.sig === sig) return;
  body.dataset.sig = sig;
  // Drawn again in place: the reader's scroll and focus stay where they were.
  const scroll = dialog.scrollTop;
  const focused = dialog.contains(document.activeElement) ? document.activeElement.id : null;
  body.replaceChildren(...ledgerNodes(view, ctx, tableId));
  dialog.scrollTop = scroll;
  if (focused) $(focused)?.focus({ preventScroll: true });
}

/** The tray once a chips game is closed: the settle-up at once, the whole Ledger one tap away. */
export function closedChipsPanel(view, ctx) {
  return el("div", { class: "panel summary settle-panel", "data-panel": "settle", role: "region", "aria-labelledby": "settle-title" },
    el("p", { class: "big", id: "settle-title", text: LEDGER.settleTitle }),
    el("p", { class: "hint", id: "choose-seat", text: CASH_OUT.closed }),
    settleUp(view.home.chips, true, "tray"),
    el("div", { class: "buttons" },
      el("button", { class: "btn small", type: "button", id: "open-ledger", text: LEDGER.open, onclick: () => ctx.openLedger?.() }),
      el("a", { class: "btn small secondary", href: "/", id: "closed-lobby", text: LEDGER.lobby })));
}

/** The header's Ledger button and its dialog (shown at a chips game only). */
export function installLedger(ctx, tableId) {
  dialog = el("dialog", { id: "ledger-dialog", class: "ledger-dialog", "aria-labelledby": "ledger-title" },
    el("div", { class: "dialog-head" }, el("h2", { id: "ledger-title", text: LEDGER.title }),
      el("button", { class: "btn small secondary", type: "button", id: "ledger-close", text: LEDGER.close, onclick: () => dialog.close() })),
    el("div", { id: "ledger-body", class: "ledger-body" }));
  dialog.addEventListener("close", () => $("ledger-btn")?.focus());
  document.body.append(dialog);
  ctx.openLedger = () => {
    if (!ctx.view?.home?.chips) return;
    $("ledger-body").dataset.sig = "";
    draw(ctx.view, ctx, tableId);
    dialog.showModal();
    $("ledger-close").focus();
  };
  $("ledger-btn").addEventListener("click", ctx.openLedger);
}

/** Each view: the button shown at a chips game; an open Ledger kept live. */
export function updateLedger(view, ctx, tableId) {
  const chips = view.home?.chips ?? null;
  $("ledger-btn").hidden = !chips;
  if (dialog?.open && chips) draw(view, ctx, tableId);
}


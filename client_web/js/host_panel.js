// The host's powers at their own home game (docs/home-games.md), shown only while view.home.host_player_id
// is this viewer: the seat requests in the tray (Approve / Deny each), and the "Host" dialog from the header:
// the invite, pause and resume, limits and timers from the next round, seating and spectators, each
// player's mute, removal (with a bar) and the hand-over, and closing the table. Each is a table command.

import { el, parseMoney } from "./api.js";
import { errorText } from "./errors.js";
import { amountText, markName, money, number, t } from "./i18n.js";
import { confirmChoice } from "./confirm_dialog.js";
import { capWords, dollars, homeTable, newInvite, TIMER_FIELDS } from "./home_api.js";
import { invitePanel } from "./invite_panel.js";
import { isHost } from "./home_seat.js";
import { chipsSection, send, updateChipsSection } from "./host_chips.js";
import { CASH_OUT, LEDGER } from "./chips_words.js";

const $ = (id) => document.getElementById(id);
const SAVED_TEXT = () => t("home:host.saved.next_round");
const BARS = () => [["15", t("home:host.bar.15m")], ["60", t("home:host.bar.1h")], ["1440", t("home:host.bar.1d")], ["10080", t("home:host.bar.1w")]];
let dialog = null;

/** The tray's notice of pending seat requests, for the host: each with Approve and Deny; null when none. */
export function hostRequestsPanel(view, ctx) {
  const requests = view.home?.requests ?? [];
  if (!isHost(view, ctx) || !requests.length) return null;
  return el("div", { class: "panel summary host-requests", "data-panel": "requests", role: "region", "aria-label": t("home:requests.label") },
    el("p", { class: "big", text: t("home:requests.title", { count: requests.length, n: number(requests.length) }) }),
    el("ul", {}, requests.map((r) => el("li", { "data-request": r.player_id },
      markName(el("span", { class: "who", text: r.name })),
      el("button", { class: "btn small", type: "button", id: `approve-${r.player_id}`, "aria-label": t("home:requests.approve.label", { name: r.name }),
        text: t("home:requests.approve.button"), onclick: () => ctx.act("host", { type: "host_approve", player_id: r.player_id }) }),
      el("button", { class: "btn small secondary", type: "button", id: `deny-${r.player_id}`, "aria-label": t("home:requests.deny.label", { name: r.name }),
        text: t("home:requests.deny.button"),
        onclick: () => ctx.act("host", { type: "host_deny", player_id: r.player_id }) })))),
    el("p", { class: "field-error", id: "host-error", role: "alert", text: ctx.ui.errors.host ?? "" }));
}


const field = (id, label, value, extra = {}) => el("div", { class: "field" },
  el("label", { for: id, text: label }), el("input", { id, inputmode: "decimal", autocomplete: "off", value, ...extra }));

const choice = (id, label, options, value) => el("div", { class: "field" }, el("label", { for: id, text: label }),
  el("select", { id }, options.map(([v, words]) => el("option", { value: v, text: words, selected: v === value }))));

function section(id, title, ...body) {
  return el("section", { id, "aria-labelledby": `${id}-title` }, el("h3", { id: `${id}-title`, text: title }), ...body);
}

const saved = (id) => el("p", { class: "saved", id, role: "status" });
const errorLine = (id) => el("p", { class: "field-error", id, role: "alert" });

function limitsSection(view, ctx) {
  const cap = view.home.max_bet_cap_cents;
  const save = async () => {
    $("host-limits-saved").textContent = "";
    const min = parseMoney($("host-min").value);
    const max = parseMoney($("host-max").value);
    if (min === null || max === null || min <= 0 || max <= 0) return void ($("host-limits-error").textContent = t("home:host.limits.invalid"));
    if (max < min) return void ($("host-limits-error").textContent = t("home:limits.max_below_min", { max: money(max), min: money(min) }));
    if (cap && max > cap) return void ($("host-limits-error").textContent = capWords(cap));
    if (await send(ctx, { type: "host_limits", min_bet_cents: min, max_bet_cents: max }, "host-limits-error")) $("host-limits-saved").textContent = SAVED_TEXT();
  };
  return section("host-limits", t("home:host.limits.title"), cap ? el("p", { class: "hint", id: "host-cap", text: t("home:host.limits.cap", { cap: dollars(cap) }) }) : null,
    el("div", { class: "row" },
    field("host-min", t("home:host.limits.min.label"), amountText(view.rules.min_bet_cents)),
    field("host-max", t("home:host.limits.max.label"), amountText(view.rules.max_bet_cents)),
    el("button", { class: "btn small", type: "button", id: "host-limits-save", text: t("home:host.limits.save.button"), onclick: save })),
  saved("host-limits-saved"), errorLine("host-limits-error"));
}

function timersSection(view, ctx) {
  const save = async () => {
    $("host-timers-saved").textContent = "";
    const msg = { type: "host_timers" };
    for (const [key] of TIMER_FIELDS) {
      const raw = $(`host-${key}`).value.trim();
      if (!/^\d{1,4}$/.test(raw) || Number(raw) > 3600) return void ($("host-timers-error").textContent = t("home:host.timers.invalid", { max: 3600 }));
      msg[key] = Number(raw) * 1000;
    }
    if (await send(ctx, msg, "host-timers-error")) $("host-timers-saved").textContent = SAVED_TEXT();
  };
  return section("host-timers", t("home:host.timers.title"), el("div", { class: "row" },
    ...TIMER_FIELDS.map(([key, words]) => field(`host-${key}`, words, String(Math.round((view.timers[key] ?? 0) / 1000)), { inputmode: "numeric" })),
    el("button", { class: "btn small", type: "button", id: "host-timers-save", text: t("home:host.timers.save.button"), onclick: save })),
  saved("host-timers-saved"), errorLine("host-timers-error"));
}

function settingsSection(view, ctx) {
  const save = async () => {
    $("host-settings-saved").textContent = "";
    const msg = { type: "host_settings", seating: $("host-seating").value, spectators: $("host-spectators").value };
    if (await send(ctx, msg, "host-settings-error")) $("host-settings-saved").textContent = t("home:host.saved");
  };
  return section("host-settings", t("home:host.settings.title"), el("div", { class: "row" },
    choice("host-seating", t("home:host.seating.label"), [["open", t("home:host.seating.open")], ["approval", t("home:host.seating.approval")]], view.home.seating),
    choice("host-spectators", t("home:host.watching.label"), [["link", t("home:host.watching.link")], ["none", t("home:host.watching.none")]], view.home.spectators),
    el("button", { class: "btn small", type: "button", id: "host-settings-save", text: t("home:host.settings.save.button"), onclick: save })),
  saved("host-settings-saved"), errorLine("host-settings-error"));
}

/** Whether the host muted the player in the table's chat: the table's own list (view.home.muted), which a
 * reload reads again. */
const isMuted = (view, playerId) => (view.home?.muted ?? []).includes(playerId);

function muteButton(view, ctx, p) {
  const muted = isMuted(view, p.player_id);
  // The table's patch (player_muted, home.muted) redraws the row: the button and the tag follow the table.
  const mute = () => send(ctx, { type: "host_mute", player_id: p.player_id, muted: !muted }, "host-players-error");
  return el("button", { class: "btn small secondary", type: "button", id: `mute-${p.player_id}`, "aria-pressed": String(muted),
    "aria-label": muted ? t("home:host.unmute.label", { name: p.name }) : t("home:host.mute.label", { name: p.name }),
    text: muted ? t("home:host.unmute.button") : t("home:host.mute.button"), onclick: mute });
}

/** A player's line: their name and where they are (`where`: the sentence's key and values). */
function whoLine(view, p, key, values = {}) {
  return el("span", { class: "who" }, t(key, { name: p.name, ...values }),
    isMuted(view, p.player_id) ? el("span", { class: "tag warn muted-tag", "data-muted": p.player_id, title: t("home:host.muted.title"),
      text: t("home:host.muted.tag") }) : null);
}

function playerRow(view, ctx, p) {
  if (p.absent) {
    // Muted, and no longer seated or waiting: only the mute is left to lift.
    return el("li", { "data-host-player": p.player_id }, whoLine(view, p, "home:host.player.absent"), muteButton(view, ctx, p));
  }
  const remove = () => confirmChoice({
    title: t("home:host.remove.confirm.title", { name: p.name }),
    text: view.home?.chips ? CASH_OUT.removeText(p.name) : t("home:host.remove.confirm.text", { name: p.name }),
    okLabel: t("home:host.remove.confirm.button", { name: p.name }),
    choice: { label: t("home:host.remove.bar.label"), options: BARS(), value: "60" },
    run: async ({ choice: minutes }) => ctx.command({ type: "host_remove", player_id: p.player_id, bar_minutes: Number(minutes) }),
  });
  const handOver = () => confirmChoice({
    title: t("home:host.hand_over.confirm.title", { name: p.name }),
    text: t("home:host.hand_over.confirm.text", { name: p.name }),
    okLabel: t("home:host.hand_over.confirm.button", { name: p.name }),
    danger: false,
    run: async () => ctx.command({ type: "host_hand_over", player_id: p.player_id }),
  });
  return el("li", { "data-host-player": p.player_id },
    p.seat ? whoLine(view, p, "home:host.player.seated", { seat: number(p.seat) }) : whoLine(view, p, "home:host.player.waiting"), muteButton(view, ctx, p),
    p.seat ? el("button", { class: "btn small secondary", type: "button", id: `hand-over-${p.player_id}`, "aria-label": t("home:host.hand_over.label", { name: p.name }),
      text: t("home:host.hand_over.button"), onclick: handOver }) : null,
    el("button", { class: "btn small danger", type: "button", id: `remove-${p.player_id}`, "aria-label": t("home:host.remove.label", { name: p.name }),
      text: t("home:host.remove.button"), onclick: remove }));
}

function drawPlayers(view, ctx) {
  const holder = $("host-players-list");
  if (!holder) return;
  const people = view.seats.filter((s) => s && s.player_id !== ctx.playerId).map((s) => ({ player_id: s.player_id, name: s.name, seat: s.position }))
    .concat((view.waiting ?? []).map((w) => ({ player_id: w.player_id, name: w.name, seat: null })));
  const listed = new Set(people.map((p) => p.player_id));
  for (const id of view.home?.muted ?? []) {
    if (!listed.has(id)) people.push({ player_id: id, name: ctx.names[id] ?? t("home:someone.start"), seat: null, absent: true });
  }
  const sig = JSON.stringify([people, view.home?.muted ?? []]);
  if (holder.dataset.sig === sig) return;
  holder.dataset.sig = sig;
  const focused = holder.contains(document.activeElement) ? document.activeElement.id : null; // kept on the redrawn button
  holder.replaceChildren(...(people.length ? people.map((p) => playerRow(view, ctx, p)) : [el("li", { class: "hint", text: t("home:host.players.none") })]));
  if (focused) $(focused)?.focus();
}

function drawTableButtons(view, ctx) {
  const pause = $("host-pause");
  if (!pause) return;
  pause.textContent = view.paused ? t("home:host.resume.button") : t("home:host.pause.button");
  $("host-pause-hint").textContent = view.paused ? t("home:host.paused.hint") : t("home:host.pause.hint");
  $("host-close").disabled = view.phase === "closed" || view.closing;
}

async function loadInvite(ctx, tableId, name) {
  const holder = $("host-invite");
  try {
    const t = await homeTable(ctx.session.token, tableId);
    holder.replaceChildren(t.invite ? invitePanel({ invite: t.invite, tableName: name, prefix: "host-invite",
      renew: async () => (await newInvite(ctx.session.token, tableId)).invite }) : el("p", { class: "hint", text: t("home:host.invite.none") }));
  } catch (err) {
    holder.replaceChildren(el("p", { class: "field-error", text: t("home:host.invite.failed", { reason: errorText(err?.code ? err : "NETWORK") }) }));
  }
}

function openDialog(ctx, tableId) {
  const view = ctx.view;
  if (dialog.dataset.folded === "1" && dialog.firstChild) {
    // Folded by "Go to the table" while a clock ran (act_clock.js): it opens as it was, with what was typed.
    delete dialog.dataset.folded;
    drawTableButtons(view, ctx);
    drawPlayers(view, ctx);
    updateChipsSection(view, ctx);
    dialog.showModal();
    $("host-dialog-close").focus();
    return;
  }
  const close = () => confirmChoice({
    title: t("home:host.close.confirm.title", { name: view.name }),
    text: view.home?.chips ? CASH_OUT.closeText : t("home:host.close.confirm.text"),
    okLabel: t("home:host.close.confirm.button"),
    run: async () => ctx.command({ type: "host_close" }),
  });
  dialog.replaceChildren(
    el("div", { class: "dialog-head" }, el("h2", { id: "host-title", text: t("home:host.dialog.title", { name: view.name }) }),
      el("span", { class: "head-buttons" },
        // A phone's header has no room for the Ledger beside Host (chips.css): it opens from here.
        view.home?.chips ? el("button", { class: "btn small secondary", type: "button", id: "host-ledger", text: LEDGER.button,
          onclick: () => { dialog.close(); ctx.openLedger?.(); } }) : null,
        el("button", { class: "btn small secondary", type: "button", id: "host-dialog-close", text: t("common:close"), onclick: () => dialog.close() }))),
    section("host-invite-section", t("home:host.invite.title"), el("div", { id: "host-invite" }, el("p", { class: "hint", text: t("home:host.invite.loading") }))),
    section("host-table", t("home:host.table.title"), el("div", { class: "row" },
      el("button", { class: "btn small", type: "button", id: "host-pause", onclick: async () => {
        await send(ctx, { type: ctx.view.paused ? "host_resume" : "host_pause" }, "host-table-error");
      } }),
      el("button", { class: "btn small danger", type: "button", id: "host-close", text: t("home:host.close.button"), onclick: close })),
    el("p", { class: "hint", id: "host-pause-hint" }), errorLine("host-table-error")),
    chipsSection(view, ctx), limitsSection(view, ctx), timersSection(view, ctx), settingsSection(view, ctx),
    section("host-players", t("home:host.players.title"), el("ul", { class: "host-players", id: "host-players-list" }), errorLine("host-players-error")));
  drawTableButtons(view, ctx);
  drawPlayers(view, ctx);
  updateChipsSection(view, ctx);
  dialog.showModal();
  $("host-dialog-close").focus();
  loadInvite(ctx, tableId, view.name);
}

/** Adds the header's "Host" button and its dialog (hidden unless this viewer hosts). */
export function installHost(ctx, tableId) {
  dialog = el("dialog", { id: "host-dialog", "aria-labelledby": "host-title" });
  dialog.addEventListener("close", () => $("host-btn")?.focus());
  document.body.append(dialog);
  $("host-btn").addEventListener("click", () => openDialog(ctx, tableId));
}

/** Each view: the Host button shown to the host alone; an open dialog kept in step (or closed once not host). */
export function updateHost(view, ctx) {
  const host = isHost(view, ctx) && view.phase !== "closed";
  $("host-btn").hidden = !host;
  document.body.classList.toggle("hosting", host); // a phone's header gives the button a line of its own (home.css)
  if (!dialog?.open) return;
  if (!host) {
    dialog.close();
    return;
  }
  drawTableButtons(view, ctx);
  drawPlayers(view, ctx);
  updateChipsSection(view, ctx);
}

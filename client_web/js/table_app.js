// The table page: connects (and reconnects) to the table, renders each view it receives, and turns clicks,
// taps and keys into commands. The server decides everything; this page only shows and asks.

import { api, el, endSession, resumeSession, savedSession, sessionEndedText, toast } from "./api.js";
import { adoptAccountLanguage, markName, money, moneyBound, t, translateDom } from "./i18n.js";
import { errorText } from "./errors.js";
import { languageMenu } from "./language_menu.js";
import { ensureCardDefs } from "./card_svg.js";
import { installChat, watcherSession } from "./chat.js";
import { noteServerTime } from "./clock.js";
import { chipsBehind } from "./chips.js";
import { houseWayName } from "./hand_eval.js";
import { openCoach } from "./coach.js";
import { openHistory } from "./history.js";
import { fetchRounds, mergeRounds } from "./rounds.js";
import { installSound } from "./sound.js";
import { endMoment } from "./win_moments.js";
import { applyPatch, PatchError } from "./patch.js";
import { commandErrorText, ReconnectingSocket } from "./socket.js";
import { createPositions, renderDiscards, renderPositions } from "./table_render.js";
import { onKey, installActions } from "./table_actions.js";
import { unblockClock } from "./act_clock.js";
import { installSideBets } from "./side_bets.js";
import { renderTray } from "./tray.js";
import { installHost, updateHost } from "./host_panel.js";
import { showHomeTag } from "./home_words.js";
import { admitByInvite, joinForm, showAccessPage, showHelloRefusal } from "./table_access.js";
import { installVariants, renderVariants } from "./variants.js";
import { chipsOf } from "./buy_in.js";
import { headerStackWords } from "./chips_words.js";
import { installLedger, updateLedger } from "./ledger_panel.js";
import { renderCenter, tickCountdown } from "./table_center.js";
import { onEvents } from "./table_events.js";
import { noteStandUps, readBlock } from "./table_block.js";
import { installSitDialog } from "./sit_dialog.js";
import { installPlaySession } from "./play_session.js";
import { installRealityCheck } from "./reality_check.js";

translateDom(); // the page's own words (table/index.html), before anything reads or adds to them

const PROTOCOL = 2;
// The closes after which the page does not reconnect, and the key of what it says.
const FATAL = { 4401: "table:closed.4401", 4404: "table:closed.4404", 4426: "table:closed.4426", 4429: "table:closed.4429", 4403: "table:closed.4403" };
const REFUSALS = ["NO_ACCESS", "SPECTATORS_OFF", "BARRED"]; // a private table's answers to a hello, before a 4403
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const tableId = params.get("id") ?? "";
const inviteCode = params.get("invite");
const stored = (k, d) => (localStorage.getItem(k) ?? d) === "1";

const ctx = {
  view: null, version: null, rounds: [], role: params.get("watch") ? "spectator" : "player", playerId: null, session: null,
  anim: stored("paigow.anim", "1"), alwaysHouseWay: stored("paigow.alwaysHouseWay", "0"), dealAnim: null, justSettled: null, showdown: null, everOpen: false,
  invite: null, refused: null, log: [], notice: null, toasts: [], voided: null, names: {}, clauses: {},
  ui: { low: [], lowRound: null, syncLow: false, preview: null, autoRound: null, betDraft: 0, betText: null, errors: {}, flipIn: false,
    lastBet: Number(localStorage.getItem(`paigow.lastbet.${tableId}`) ?? 0) || 0 },
};
const nodes = createPositions($("positions"));
const chat = installChat({ tableId, ctx, send: (msg) => socket.command(msg) });

function rerender() {
  const view = ctx.view;
  if (!view) return;
  // The showdown on screen is the round that just ended (not an older one after a voided round).
  if (view.round) ctx.lastRoundId = view.round.round_id;
  // Every name the table shows is kept for the words about that player after they go (a withdrawn request,
  // a waiting player who left): a line never names "Seat undefined".
  for (const s of view.seats) if (s) ctx.names[s.player_id] = s.name;
  for (const r of [...(view.home?.requests ?? []), ...(view.waiting ?? [])]) ctx.names[r.player_id] = r.name;
  const last = ctx.rounds[0];
  ctx.showdown = !view.round && last && (ctx.lastRoundId == null || last.round_id === ctx.lastRoundId) ? last : null;
  syncLow(view);
  autoHouseWay(view);
  renderHeader(view);
  renderCenter(view, ctx);
  renderPositions(nodes, view, ctx);
  renderDiscards($("discards"), view, ctx);
  updateHost(view, ctx);
  updateLedger(view, ctx, tableId);
  unblockClock(view, ctx);
  endMoment(ctx);
  try {
    renderTray($("tray"), view, ctx);
    renderVariants($("variants-panel"), view, ctx);
    chat.update(view);
  } finally {
    ctx.ui.flipIn = false; // the cards flip in the one drawing that first shows them, never again
  }
}

function syncLow(view) {
  const you = view.you;
  const hand = you && view.round?.hands?.find((h) => h.position === you.position);
  if (!hand || !hand.cards.length) return;
  if (ctx.ui.lowRound !== view.round.round_id) {
    ctx.ui.lowRound = view.round.round_id;
    // A reload in the middle of setting keeps the cards already picked for the low hand.
    const picked = JSON.parse(sessionStorage.getItem(`paigow.low.${view.round.round_id}`) ?? "[]").filter((t) => hand.cards.includes(t));
    ctx.ui.low = hand.is_set ? [...hand.low] : picked;
    ctx.ui.flipIn = ctx.anim;
    ctx.ui.errors.set = "";
  } else if (ctx.ui.syncLow && hand.is_set) {
    ctx.ui.low = [...hand.low];
    ctx.ui.syncLow = false;
  }
}

/** "Always set my hand by the House Way" (ctx.alwaysHouseWay): a hand dealt and not yet set is sent as the
 * House Way sets it, once a round (the player may still change it). */
function autoHouseWay(view) {
  const you = view.you;
  const hand = you && view.round?.hands?.find((h) => h.position === you.position);
  if (!ctx.alwaysHouseWay || !hand?.cards.length || hand.is_set || !you.house_way || !you.can?.set_hand) return;
  if (ctx.ui.autoRound === view.round.round_id) return;
  ctx.ui.autoRound = view.round.round_id;
  ctx.ui.low = [...you.house_way.low];
  queueMicrotask(() => act("set", { type: "use_house_way" }));
}

ctx.setAlwaysHouseWay = (on) => {
  ctx.alwaysHouseWay = on;
  localStorage.setItem("paigow.alwaysHouseWay", on ? "1" : "0");
  if (!on) ctx.ui.autoRound = null;
  rerender();
};
// The setting changed in another tab of this browser: this one follows it.
addEventListener("storage", (ev) => {
  if (ev.key === "paigow.alwaysHouseWay") ctx.setAlwaysHouseWay(ev.newValue === "1");
});

let headerLimits = { full: "", bounds: "" };
const showHeaderLimits = () => {  // whole in its title where a narrow header cuts it short
  $("table-limits").textContent = $("table-limits").title = $("session-strip").hidden ? headerLimits.full : headerLimits.bounds;
};
new MutationObserver(showHeaderLimits).observe($("session-strip"), { attributes: true, attributeFilter: ["hidden"] });

function renderHeader(view) {
  $("table-name").textContent = view.name;
  $("table-name").title = view.name;
  $("table-title").textContent = t("table:header.title", { table: view.name });
  document.title = t("table:header.document_title", { table: view.name });
  // Bounds as people say them ("$5 – $300"): short enough to stay whole beside the session strip on a phone.
  const limits = { min: moneyBound(view.rules.min_bet_cents), max: moneyBound(view.rules.max_bet_cents) };
  const limitsText = t(view.fortune ? "table:header.limits.fortune" : "table:header.limits", limits);
  // Beside the session strip the bounds alone (the bet panel offers the Fortune bet): headerLimits.
  headerLimits = { full: limitsText, bounds: t("table:header.limits", limits) };
  showHeaderLimits();
  $("table-house-way").textContent = $("table-house-way").title = t("table:header.house_way", { way: houseWayName(view.rules) });
  $("table-home").hidden = !view.home;
  if (view.home) showHomeTag($("table-home"), view, ctx.playerId);
  const you = view.you;
  const name = ctx.session?.display_name ?? "";
  const [before, after] = chipsOf(view) ? headerStackWords() : [`${t("table:header.chips")} `, ""]; // a phone: the amount alone
  const meta = ctx.role === "spectator" ? [t("table:header.watching")] : you ? [markName(el("span", { class: "you-name", text: `${name} · `, title: name })),
    before && el("span", { class: "you-word", text: before }), money(chipsBehind(view, you, you.position)), after && el("span", { class: "you-word", text: after })]
    : [markName(el("span", { class: "you-alone", text: name, title: name }))];
  const metaText = meta.filter(Boolean).map((m) => (typeof m === "string" ? m : m.textContent)).join("");
  if ($("you-meta").textContent !== metaText) $("you-meta").replaceChildren(...meta.filter(Boolean));
}

function onMessage(msg) {
  if (chat.onMessage(msg) || playSession.onMessage(msg) || realityCheck.onMessage(msg)) return;
  if (msg.type === "snapshot" || msg.type === "patch") noteServerTime(msg.server_ms);
  for (const e of msg.type === "patch" ? msg.events ?? [] : []) {
    // Removed: what the refusal page (after the close 4403) says of the chips.
    if (e.player_id === ctx.playerId && e.kind === "player_kicked") [ctx.removed, ctx.cashedOut] = ["stood", e.chips_returned_cents ?? null];
    if (e.player_id === ctx.playerId && e.kind === "player_leaving" && e.kicked) ctx.removed = "leaving";
  }
  if (msg.type === "snapshot") {
    ctx.role = msg.role;
    ctx.playerId = msg.player_id;
    ctx.version = msg.version;
    ctx.view = msg.view;
    rerender();
    loadRounds();
  } else if (msg.type === "patch") {
    if (ctx.view === null || msg.since !== ctx.version) {
      // A gap (or a patch for a view this page does not hold): ask for what was missed.
      socket.send({ type: "sync", last_version: ctx.view === null ? null : ctx.version });
      return;
    }
    try {
      ctx.view = applyPatch(ctx.view, msg.patch);
    } catch (err) {
      if (!(err instanceof PatchError)) throw err;
      socket.send({ type: "sync", last_version: null }); // a fresh snapshot
      return;
    }
    ctx.version = msg.version;
    onEvents(ctx, nodes, msg.events, ctx.view);
    // Stood up for a break or a self-exclusion: no seat is offered until it ends; by a time limit: the tray
    // keeps saying so (table_block.js).
    noteStandUps(ctx, msg.events, rerender);
    rerender();
    // What the table did for you pops up, unless the tray already says it.
    for (const line of ctx.toasts.splice(0)) if ($("notice")?.textContent !== line.text) toast(line.text, line.kind === "warn" ? "warn" : "info");
  } else if (msg.type === "error" && !msg.id) {
    if (msg.code === "BARRED") noteBar(msg); // told by a public table's hello: no seat is offered
    if (REFUSALS.includes(msg.code)) ctx.refused = msg; // its page once the close (4403) comes
    else if (msg.code === "UNAUTHORIZED") sessionOver();
    else toast(errorText(msg));
  }
}

/** A bar from this table (a BARRED error's `until_ms` and `by`): no seat is offered until it ends. */
function noteBar(error) {
  ctx.barredUntil = error.until_ms ?? null;
  ctx.barredBy = error.by ?? null;
  rerender();
}

/**
 * The server no longer knows this page's token (expired, signed out everywhere, revoked): forget it, say so
 * with the way back to the lobby, and stay as we are (no reload, no reconnection with the dead token).
 */
function sessionOver(ended = null) {
  if (ctx.ended) return;
  const s = ctx.session ?? savedSession();
  ctx.ended = ended ?? endSession(s);
  ctx.session = null;
  $("session-text").textContent = sessionEndedText(ctx.ended);
  $("session-banner").hidden = false;
  $("conn-banner").hidden = true;
  document.body.classList.add("offline", "session-ended");
  if ($("sit-dialog").open) $("sit-dialog").close();
  socket.stop();
  rerender(); // no seat is offered any more
  $("session-lobby").focus();
}

window.addEventListener("paigow:session-ended", (ev) => sessionOver(ev.detail));

/** After a snapshot: the table's last settled rounds (the last result shows as before), merged with any
 * round_settled event that came meanwhile. */
async function loadRounds() {
  try {
    ctx.rounds = mergeRounds(ctx.rounds, await fetchRounds(tableId, undefined, ctx.session?.token));
    rerender();
  } catch { /* the next snapshot or settlement fills them in */ }
}

function setBanner(status, detail) {
  const b = $("conn-banner");
  document.body.classList.toggle("offline", status !== "open");
  if (status === "open") {
    ctx.everOpen = true;
    b.hidden = true;
    b.textContent = "";
    $("stage").dataset.connected = "1";
    return;
  }
  $("stage").dataset.connected = "0";
  if (status === "stopped" && detail.code === 4401) {
    sessionOver();
    return;
  }
  if (status === "stopped" && detail.code === 4403) {
    b.hidden = true;
    showHelloRefusal(ctx.refused, { hadInvite: Boolean(inviteCode), session: ctx.session, removed: ctx.removed, chips: Boolean(chipsOf(ctx.view)), cashedOut: ctx.cashedOut });
    return;
  }
  if (status === "stopped") {
    b.hidden = false;
    b.textContent = FATAL[detail.code] ? t(FATAL[detail.code]) : t("table:closed.other");
    return;
  }
  if (status === "closed" || (status === "connecting" && ctx.everOpen)) {
    b.hidden = false;
    b.textContent = t("table:connection.lost");
  }
}

const socket = new ReconnectingSocket({
  url: () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`,
  hello: () => {
    const m = { type: "hello", protocol: PROTOCOL };
    if (ctx.session?.token) m.token = ctx.session.token;
    if (ctx.role === "spectator" || !ctx.session) m.spectate = true;
    if (ctx.version !== null) m.last_version = ctx.version;
    if (ctx.invite) m.invite = ctx.invite;
    return m;
  },
  onMessage,
  onStatus: (status, detail) => {
    // A server that speaks a newer protocol than this page: load the page it serves now (once).
    if (status === "stopped" && detail.code === 4426 && !sessionStorage.getItem("paigow.reloaded")) {
      sessionStorage.setItem("paigow.reloaded", "1");
      location.reload();
      return;
    }
    if (status === "open") sessionStorage.removeItem("paigow.reloaded");
    chat.status(status);
    setBanner(status, detail);
  },
  isFatal: (code) => code in FATAL,
});

// UNCONFIRMED: the command may or may not have taken effect (a data-store failover): ask for what changed.
function resyncIfUnconfirmed(err) {
  if (err?.code === "UNCONFIRMED") socket.send({ type: "sync", last_version: ctx.view === null ? null : ctx.version });
}

async function act(key, msg) {
  if (typeof key === "string") ctx.ui.errors[key] = "";
  if (msg.type === "use_house_way") ctx.ui.syncLow = true;
  try {
    const res = await socket.command(msg);
    rerender();
    return res;
  } catch (err) {
    resyncIfUnconfirmed(err);
    const at = typeof key === "function" ? key(err) : key;
    ctx.ui.errors[at] = commandErrorText(err);
    rerender();
    document.getElementById(`${at}-error`)?.scrollIntoView?.({ block: "nearest" });
    return null;
  }
}

Object.assign(ctx, { act, rerender });
ctx.onOwnLanded = (roundId) => {
  if (!ctx.dealAnim || ctx.dealAnim.roundId !== roundId || ctx.dealAnim.ownLanded) return;
  ctx.dealAnim.ownLanded = true;
  ctx.ui.flipIn = ctx.anim;
  rerender();
};
const openSit = installSitDialog(ctx, { command: (msg) => socket.command(msg), rerender, refreshBalance, resync: resyncIfUnconfirmed, noteBar });
ctx.onSit = (seat, opts) => openSit(seat, opts);
ctx.command = (msg) => socket.command(msg);
installActions(ctx, rerender, tableId);
installHost(ctx, tableId);
installLedger(ctx, tableId);
installSideBets(ctx, rerender);
installVariants(ctx);

function showHistory() {
  openHistory($("history-dialog"), $("history-list"), { tableId, view: ctx.view, token: ctx.session?.token, playerId: ctx.playerId, log: ctx.log, names: ctx.names });
  if (ctx.view) unblockClock(ctx.view, ctx);
}
$("history-btn").addEventListener("click", showHistory);
// The play session's strip and the reality checks (play_session.js, reality_check.js).
const playSession = installPlaySession($("session-strip"), { changed: () => readBlock(ctx, rerender) }); // the room left
const realityCheck = installRealityCheck({ narrow: document.querySelector(".table-main"), wide: $("stage") }, { openHistory: showHistory, leave: () => act("seat", { type: "leave" }) });
// "How did I set it?" after a settled round (tray.js offers it only then, and only for a hand you played).
ctx.openCoach = (roundId) => {
  if (!ctx.session) return;
  openCoach({ tableId, roundId, token: ctx.session.token });
  unblockClock(ctx.view, ctx); // a clock you must act on shows at the dialog's top
};
$("history-close").addEventListener("click", () => $("history-dialog").close());

async function refreshBalance() {
  if (!ctx.session) return;
  try {
    ctx.session = { ...ctx.session, ...(await resumeSession()) };
  } catch { /* the table still works */ }
}

async function refreshSpectators() {
  if (ctx.view?.home || ctx.noSummary) return; // a private table has no public summary (404)
  try {
    const summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    $("spectators").textContent = t("table:header.watching_count", { count: summary.spectators ?? 0 });
  } catch (err) {
    if (err.status === 404) ctx.noSummary = true;
  }
}

function setupToggles() {
  languageMenu($("language-slot"), () => ctx.session?.token ?? null);
  const anim = $("anim-toggle");
  anim.checked = ctx.anim;
  installSound($("sound-toggle"));
  document.body.classList.toggle("no-anim", !ctx.anim);
  anim.addEventListener("change", () => {
    ctx.anim = anim.checked;
    localStorage.setItem("paigow.anim", anim.checked ? "1" : "0");
    document.body.classList.toggle("no-anim", !ctx.anim);
  });
}

async function init() {
  ensureCardDefs();
  setupToggles();
  if (!tableId) {
    $("phase-text").textContent = t("table:phase.no_table");
    $("tray").replaceChildren(el("div", { class: "panel" }, el("a", { href: "/", text: t("table:lobby.link") })));
    return;
  }
  if (ctx.role !== "spectator") {
    try {
      ctx.session = await resumeSession(); // an ended session shows its banner (the session-ended event)
      if (adoptAccountLanguage(ctx.session?.language)) return; // the page loads again in the account's language
    } catch (err) {
      toast(errorText(err));
    }
    if (!ctx.session) ctx.role = "spectator";
  } else {
    ctx.session = await watcherSession(); // a watcher with a live session chats under their name
    if (adoptAccountLanguage(ctx.session?.language)) return;
  }
  if (inviteCode) {
    // An invite link: checked (and this player admitted) before the table is asked; refused: its page.
    const found = await admitByInvite(inviteCode, tableId, ctx.session?.token);
    if (!found) return;
    ctx.invite = found.code;
    if (!ctx.session && found.spectators_policy === "none") {
      showAccessPage(t("table:access.home.title", { table: found.name, host: found.host_name }), t("table:access.no_watchers"), [joinForm("refused-join")]);
      return;
    }
  }
  document.addEventListener("keydown", (ev) => onKey(ctx, ev));
  setInterval(() => tickCountdown(ctx), 250);
  refreshSpectators();
  setInterval(refreshSpectators, 5000);
  socket.start();
  if (ctx.role === "player") readBlock(ctx, rerender);
  window.paigow = { ctx, socket, rerender };
}

init();

// The operator console: open, close, pause and resume tables; limits and timers; kick; void the round;
// credit or debit a balance with a reason, unlock a player's sign-in; named operators; the audit log (with
// who did each thing) and the ledger. Signed in by operator username and password (a session token kept in
// sessionStorage), or with the bootstrap token the server was started with.

import { api, el, money, parseMoney, seconds, sentence } from "./api.js";
import { refreshChat } from "./operator_chat.js";

const $ = (id) => document.getElementById(id);
const KEY = "paigow.operator";
/** {kind: "session" | "bootstrap", token, username} */
let auth = loadAuth();
let selected = null;
let timer = null;

function loadAuth() {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return null;
  try {
    const a = JSON.parse(raw);
    if (a && typeof a.token === "string") return a;
  } catch { /* an older console kept the bare bootstrap token */ }
  return { kind: "bootstrap", token: raw, username: null };
}

const call = (path, opts = {}) => api(`/api/operator${path}`, { ...opts, token: auth?.token ?? "" });

function when(ms) {
  return ms ? new Date(ms).toLocaleTimeString() : "";
}

function showError(id, err) {
  $(id).textContent = err ? `${err.message}${err.code && !/^\d+$/.test(err.code) ? ` (${err.code})` : ""}` : "";
}


/** The words for a failed operator sign-in, by the contract's codes. */
function signInWords(err) {
  switch (err.code) {
    case "BAD_CREDENTIALS": return sentence(err.message) || "That operator username and password do not match.";
    case "SIGN_IN_BACKOFF": return `Wrong password just now: wait ${seconds(err.retryAfter ?? 1)} before you try again.`;
    case "ACCOUNT_LOCKED": return sentence(err.message) || "This operator account is locked after three wrong passwords.";
    case "RATE_LIMITED": return `Too many tries from your network: wait ${err.retryAfter ? seconds(err.retryAfter) : "a minute"} and try again.`;
    case "OPERATOR_DISABLED": return "This operator account is disabled: ask another operator to enable it.";
    default: return sentence(err.message);
  }
}

async function tableAction(tableId, action) {
  showError("open-error", null);
  try {
    await call(`/tables/${encodeURIComponent(tableId)}/${action}`, { method: "POST", body: {} });
    await refresh();
  } catch (err) {
    showError("open-error", err);
  }
}

function tableRow(t) {
  const id = t.table_id;
  const closed = t.phase === "closed";
  const btn = (label, action, extra = {}) => el("button", { class: `btn small ${extra.cls ?? "secondary"}`, type: "button", "data-action": action,
    "aria-label": `${label} ${t.name}`, onclick: () => tableAction(id, action), text: label });
  return el("tr", { "data-table": id, class: selected === id ? "selected" : "" },
    el("td", {}, el("a", { href: `/table/?id=${encodeURIComponent(id)}&watch=1`, target: "_blank", rel: "noopener", text: t.name }), el("br"), el("small", { class: "hint", text: id })),
    el("td", { text: `${t.phase}${t.paused ? " · paused" : ""}${t.closing ? " · closing" : ""}` }),
    el("td", { text: `${t.seats_taken}/${t.seats ?? 6}` }),
    el("td", { text: `${money(t.min_bet_cents)} – ${money(t.max_bet_cents)}` }),
    el("td", { text: String(t.spectators ?? 0) }),
    el("td", {}, el("span", { class: "actions" },
      el("button", { class: "btn small", type: "button", "data-action": "manage", onclick: () => select(id), text: "Manage" }),
      t.paused ? btn("Resume", "resume") : btn("Pause", "pause"),
      closed ? btn("Open", "open") : btn("Close", "close"),
      btn("Void round", "void", { cls: "danger" }))));
}

async function select(id) {
  selected = id;
  await refreshDetail(true);
  await refresh();
  $("detail").scrollIntoView({ block: "start" });
}

async function refreshDetail(fillForms = false) {
  if (!selected) return;
  try {
    const data = await call(`/tables/${encodeURIComponent(selected)}`);
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
    const rows = v.seats.map((s, p) => (s ? el("tr", { "data-player": s.player_id },
      el("td", { text: String(p) }), el("td", {}, s.name, el("br"), el("small", { class: "hint", text: s.player_id })),
      el("td", { class: "num", text: money(s.chips_cents) }), el("td", { text: s.status }),
      el("td", {}, el("button", { class: "btn small danger", type: "button", "data-action": "kick", "aria-label": `Kick ${s.name}`,
        onclick: () => kick(s.player_id), text: "Kick" }))) : null)).filter(Boolean);
    $("seats").tBodies[0].replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: "5", class: "hint", text: "No one is seated." }))]));
    await refreshChat(selected, call);
  } catch (err) {
    showError("detail-error", err);
  }
}

async function kick(playerId) {
  showError("detail-error", null);
  try {
    await call(`/tables/${encodeURIComponent(selected)}/kick`, { method: "POST", body: { player_id: playerId } });
    await refreshDetail();
  } catch (err) {
    showError("detail-error", err);
  }
}

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

function detailsOf(e, skip) {
  return Object.entries(e).filter(([k, v]) => !skip.includes(k) && v !== null && v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(" · ");
}

async function refreshLogs() {
  const audit = await pageAll("/audit");
  $("audit").tBodies[0].replaceChildren(...audit.map((e) => el("tr", {},
    el("td", { text: when(e.ts_ms) }), el("td", { class: "actor", text: e.actor ?? "" }), el("td", { text: e.action ?? "" }),
    el("td", { class: e.outcome === "ok" ? "ok" : "bad", text: e.outcome ?? "" }),
    el("td", { text: e.table_id ?? "" }), el("td", { text: e.player_id ?? "" }),
    el("td", { class: "hint", text: detailsOf(e, ["id", "action", "outcome", "table_id", "player_id", "ts_ms", "actor"]) }))));
  const ledger = await pageAll("/ledger");
  $("ledger").tBodies[0].replaceChildren(...ledger.map((e) => el("tr", {},
    el("td", { text: when(e.ts_ms) }), el("td", { text: e.kind ?? "" }),
    el("td", { text: `${e.from_account} → ${e.to_account}` }),
    el("td", { class: "num", text: money(e.amount_cents) }),
    el("td", { text: [e.table_id, e.round_id].filter(Boolean).join(" / ") }), el("td", { text: e.reason ?? "" }))));
  const m = await call("/money");
  $("money-status").textContent = `House ${money(m.house_net_cents, { sign: true })} · money ${m.balanced ? "balanced ✓" : "NOT balanced"}`;
}

function operatorRow(o) {
  const mine = auth?.kind === "session" && auth.username === o.username;
  const toggle = o.disabled ? "enable" : "disable";
  return el("tr", { "data-operator": o.username },
    el("td", { text: o.username }),
    el("td", { class: o.disabled ? "bad" : "ok", text: o.disabled ? "disabled" : "enabled" }),
    el("td", { text: o.created_ms ? new Date(o.created_ms).toLocaleString() : "" }),
    el("td", { text: o.last_sign_in_ms ? new Date(o.last_sign_in_ms).toLocaleString() : "never" }),
    el("td", {}, mine ? el("span", { class: "hint", text: "you" })
      : el("button", { class: `btn small ${o.disabled ? "secondary" : "danger"}`, type: "button", "data-action": toggle,
        "aria-label": `${o.disabled ? "Enable" : "Disable"} ${o.username}`, onclick: () => operatorAction(o.username, toggle),
        text: o.disabled ? "Enable" : "Disable" })));
}

async function refreshOperators() {
  try {
    const data = await call("/operators");
    const ops = data.operators ?? [];
    $("operators").tBodies[0].replaceChildren(...(ops.length ? ops.map(operatorRow)
      : [el("tr", {}, el("td", { colspan: "5", class: "hint", text: "No named operator yet: create one above." }))]));
  } catch (err) {
    if (err.status === 401) throw err;
    showError("operator-error", err);
  }
}

async function operatorAction(username, action) {
  showError("operator-error", null);
  $("operator-result").textContent = "";
  try {
    const o = await call(`/operators/${encodeURIComponent(username)}/${action}`, { method: "POST", body: {} });
    $("operator-result").textContent = `${o.username} is ${o.disabled ? "disabled: their sessions are signed out" : "enabled"}.`;
    await refreshOperators();
  } catch (err) {
    showError("operator-error", err);
  }
}

async function refresh() {
  const data = await api("/api/tables");
  const tables = data.tables ?? data;
  $("tables").tBodies[0].replaceChildren(...(tables.length ? tables.map(tableRow)
    : [el("tr", {}, el("td", { colspan: "6", class: "hint", text: "No table yet: open one above." }))]));
  await refreshDetail();
  await refreshOperators();
  await refreshLogs();
}

/** Back to the sign-in form with a notice: the operator session ended (expired, disabled, signed out). */
function signedOut(text) {
  clearInterval(timer);
  auth = null;
  sessionStorage.removeItem(KEY);
  $("console").hidden = true;
  $("sign-out").hidden = true;
  $("op-who").textContent = "";
  $("login-panel").hidden = false;
  $("login-notice").textContent = text;
  $("login-notice").hidden = !text;
  $("op-username").focus();
}

async function enter(candidate, errorId) {
  auth = candidate;
  try {
    await call("/money");
  } catch (err) {
    auth = null;
    sessionStorage.removeItem(KEY);
    if (errorId === "login-error") showError(errorId, err.status === 401 ? { message: "That is not the operator token." } : err);
    else $(errorId).textContent = err.status === 401 ? signInWords(err) : sentence(err.message);
    return;
  }
  sessionStorage.setItem(KEY, JSON.stringify(auth));
  $("login-panel").hidden = true;
  $("login-notice").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
  $("op-who").textContent = auth.kind === "session" ? `Signed in as ${auth.username}` : "Bootstrap token";
  $("operator-form").hidden = auth.kind !== "bootstrap";
  clearInterval(timer);
  timer = setInterval(() => refresh().catch(onRefreshError), 3000);
  await refresh().catch(onRefreshError);
}

function onRefreshError(err) {
  if (err?.status !== 401) return;
  signedOut(err.code === "OPERATOR_DISABLED" ? "This operator account was disabled: its session is over."
    : "Your operator session has ended: sign in again.");
}

$("login-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  showError("login-error", null);
  enter({ kind: "bootstrap", token: $("op-token").value.trim(), username: null }, "login-error");
});
$("op-signin-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const error = $("op-signin-error");
  error.textContent = "";
  $("op-username-error").textContent = "";
  for (const id of ["op-username", "op-password"]) $(id).removeAttribute("aria-invalid");
  const username = $("op-username").value.trim().toLowerCase();
  const password = $("op-password").value;
  if (!username) {
    $("op-username-error").textContent = "Enter your operator username.";
    $("op-username").setAttribute("aria-invalid", "true");
    $("op-username").focus();
    return;
  }
  if (!password) {
    error.textContent = "Enter your password.";
    $("op-password").setAttribute("aria-invalid", "true");
    $("op-password").focus();
    return;
  }
  const button = $("op-signin");
  button.disabled = true;
  try {
    const res = await api("/api/operator/session", { method: "POST", body: { username, password } });
    $("op-password").value = "";
    await enter({ kind: "session", token: res.token, username: res.username ?? username }, "op-signin-error");
  } catch (err) {
    error.textContent = signInWords(err);
    $("op-password").setAttribute("aria-invalid", "true");
    if ((err.code === "SIGN_IN_BACKOFF" || err.code === "RATE_LIMITED") && err.retryAfter) {
      button.dataset.held = "1";
      setTimeout(() => { button.disabled = false; delete button.dataset.held; }, err.retryAfter * 1000);
    }
  } finally {
    if (!button.dataset.held) button.disabled = false;
  }
});
$("sign-out").addEventListener("click", async () => {
  if (auth?.kind === "session") {
    try {
      await api("/api/operator/session", { method: "DELETE", token: auth.token });
    } catch (err) {
      if (err.status !== 401) {
        $("money-status").textContent = `Could not sign out: ${err.message}`;
        return;
      }
    }
  }
  signedOut("Signed out.");
});
$("operator-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("operator-error", null);
  $("operator-result").textContent = "";
  const username = $("new-op-username").value.trim().toLowerCase();
  const password = $("new-op-password").value;
  if (!/^[a-z0-9_.-]{3,24}$/.test(username)) return showError("operator-error", { message: "Usernames are 3–24 characters of a–z, 0–9, _ . -" });
  if (password.length < 8 || !password.trim()) return showError("operator-error", { message: "Passwords are 8–128 characters, and not only spaces." });
  try {
    const o = await call("/operators", { method: "POST", body: { username, password } });
    $("new-op-username").value = "";
    $("new-op-password").value = "";
    $("operator-result").textContent = `Operator ${o.username} created: they sign in above with that username and password.`;
    await refreshOperators();
  } catch (err) {
    showError("operator-error", err);
  }
  return null;
});
$("unlock").addEventListener("click", async () => {
  showError("money-error", null);
  $("money-result").textContent = "";
  const player = $("m-player").value.trim();
  if (!player) return showError("money-error", { message: "Enter the player id to unlock." });
  try {
    await call(`/players/${encodeURIComponent(player)}/unlock`, { method: "POST", body: {} });
    $("money-result").textContent = `${player} can sign in again.`;
    await refreshLogs();
  } catch (err) {
    showError("money-error", err);
  }
  return null;
});
$("open-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("open-error", null);
  const min = parseMoney($("new-min").value);
  const max = parseMoney($("new-max").value);
  if (min === null || max === null) return showError("open-error", { message: "Limits are dollar amounts, e.g. 5 and 300." });
  try {
    const res = await call("/tables", { method: "POST", body: { name: $("new-name").value, rules: { min_bet_cents: min, max_bet_cents: max } } });
    $("new-name").value = "";
    await select(res.table_id);
  } catch (err) {
    showError("open-error", err);
  }
  return null;
});
$("limits-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("detail-error", null);
  const min = parseMoney($("lim-min").value);
  const max = parseMoney($("lim-max").value);
  if (min === null || max === null) return showError("detail-error", { message: "Limits are dollar amounts, e.g. 5 and 300." });
  try {
    await call(`/tables/${encodeURIComponent(selected)}/limits`, { method: "PUT", body: { min_bet_cents: min, max_bet_cents: max } });
    await refresh();
  } catch (err) {
    showError("detail-error", err);
  }
  return null;
});
$("timers-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("detail-error", null);
  const secs = { bank_offer_ms: $("t-bank").value, betting_ms: $("t-bet").value, setting_ms: $("t-set").value, between_rounds_ms: $("t-next").value };
  const body = {};
  for (const [k, v] of Object.entries(secs)) {
    if (!/^\d+(\.\d+)?$/.test(String(v).trim())) return showError("detail-error", { message: `The ${k.replace(/_ms$/, "").replaceAll("_", " ")} time must be a number of seconds, not '${v}'.` });
    body[k] = Math.round(Number(v) * 1000);
  }
  try {
    await call(`/tables/${encodeURIComponent(selected)}/timers`, { method: "PUT", body });
    await refresh();
  } catch (err) {
    showError("detail-error", err);
  }
  return null;
});
$("money-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("money-error", null);
  $("money-result").textContent = "";
  const direction = ev.submitter?.dataset.direction ?? "credit";
  const amount = parseMoney($("m-amount").value);
  if (amount === null || amount <= 0) return showError("money-error", { message: "Enter the amount in dollars, e.g. 50." });
  try {
    const res = await call(`/players/${encodeURIComponent($("m-player").value.trim())}/${direction}`, { method: "POST", body: { amount_cents: amount, reason: $("m-reason").value } });
    $("money-result").textContent = `${direction === "credit" ? "Credited" : "Debited"} ${money(amount)}: the balance is now ${money(res.balance_cents)}.`;
    await refreshLogs();
  } catch (err) {
    showError("money-error", err);
  }
  return null;
});
$("export-link").addEventListener("click", async (ev) => {
  ev.preventDefault();
  try {
    const data = await call("/history/export");
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
    const a = el("a", { href: url, download: "paigow-hand-history.json" });
    a.click();
    URL.revokeObjectURL(url);
  } catch (err) {
    showError("money-error", err);
  }
});

if (auth) enter(auth, auth.kind === "session" ? "op-signin-error" : "login-error");

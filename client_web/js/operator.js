// The operator console: signing in (by operator username and password, a session token kept in
// sessionStorage, or with the bootstrap token the server was started with), named operators, and the
// sections, each a module: tables and seats (operator_tables.js), bars (operator_bars.js), balances
// (operator_players.js), the audit log and the ledger (operator_logs.js). Errors are shown as the API
// gives them, "CODE: message" (operator_api.js).

import { api, el, seconds, sentence } from "./api.js";
import { $, call, cell, errorText, fillRows, showError, state } from "./operator_api.js";
import { onChange as onBarsChange, refreshBars } from "./operator_bars.js";
import { refreshLogs } from "./operator_logs.js";
import { onChange as onPlayersChange } from "./operator_players.js";
import { onChange as onTablesChange, refreshTables } from "./operator_tables.js";

const KEY = "paigow.operator";
/** {kind: "session" | "bootstrap", token, username} */
state.auth = loadAuth();
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

/** The words for a failed operator sign-in, by the contract's codes. */
function signInWords(err) {
  switch (err.code) {
    case "BAD_CREDENTIALS": return sentence(err.message) || "That operator username and password do not match.";
    case "SIGN_IN_BACKOFF": return `Too many attempts: try again in ${err.retryAfter ?? 1} s.`;
    case "RATE_LIMITED": return `Too many tries from your network: wait ${err.retryAfter ? seconds(err.retryAfter) : "a minute"} and try again.`;
    case "OPERATOR_DISABLED": return "This operator account is disabled: ask another operator to enable it.";
    default: return sentence(err.message);
  }
}

/** A sign-in refusal: the API's code, then the words for it. */
function signInText(err) {
  return errorText({ code: err.code, message: signInWords(err) });
}

function operatorRow(o) {
  const mine = state.auth?.kind === "session" && state.auth.username === o.username;
  const toggle = o.disabled ? "enable" : "disable";
  return el("tr", { "data-operator": o.username },
    cell("Operator", { text: o.username }),
    cell("Status", { class: o.disabled ? "bad" : "ok", text: o.disabled ? "disabled" : "enabled" }),
    cell("Created", { text: o.created_ms ? new Date(o.created_ms).toLocaleString() : "" }),
    cell("Last sign-in", { text: o.last_sign_in_ms ? new Date(o.last_sign_in_ms).toLocaleString() : "never" }),
    cell("Actions", {}, mine ? el("span", { class: "hint", text: "you" })
      : el("button", { class: `btn small ${o.disabled ? "secondary" : "danger"}`, type: "button", "data-action": toggle,
        "aria-label": `${o.disabled ? "Enable" : "Disable"} ${o.username}`, onclick: () => operatorAction(o.username, toggle),
        text: o.disabled ? "Enable" : "Disable" })));
}

async function refreshOperators() {
  try {
    const data = await call("/operators");
    const ops = data.operators ?? [];
    fillRows("operators", ops.map(operatorRow), "No named operator yet: create one above.", 5);
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
  await refreshTables();
  await refreshBars();
  await refreshOperators();
  await refreshLogs();
}
for (const onChange of [onTablesChange, onBarsChange, onPlayersChange]) onChange(() => refresh().catch(onRefreshError));

/** Back to the sign-in form with a notice: the operator session ended (expired, disabled, signed out). */
function signedOut(text) {
  clearInterval(timer);
  delete $("console").dataset.ready;
  state.auth = null;
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
  state.auth = candidate;
  try {
    await call("/money");
  } catch (err) {
    state.auth = null;
    sessionStorage.removeItem(KEY);
    if (errorId === "login-error") showError(errorId, err.status === 401 ? { code: err.code, message: "That is not the operator token." } : err);
    else $(errorId).textContent = err.status === 401 ? signInText(err) : errorText(err);
    return;
  }
  sessionStorage.setItem(KEY, JSON.stringify(state.auth));
  $("login-panel").hidden = true;
  $("login-notice").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
  $("op-who").textContent = state.auth.kind === "session" ? `Signed in as ${state.auth.username}` : "Bootstrap token";
  $("operator-form").hidden = state.auth.kind !== "bootstrap";
  clearInterval(timer);
  timer = setInterval(() => refresh().catch(onRefreshError), 3000);
  await refresh().catch(onRefreshError);
  $("console").dataset.ready = "true";
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
    error.textContent = signInText(err);
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
  if (state.auth?.kind === "session") {
    try {
      await api("/api/operator/session", { method: "DELETE", token: state.auth.token });
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
$("export-link").addEventListener("click", async (ev) => {
  ev.preventDefault();
  try {
    const data = await call("/history/export");
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
    const a = el("a", { href: url, download: "paigow-hand-history.json" });
    a.click();
    URL.revokeObjectURL(url);
  } catch (err) {
    showError("audit-error", err);
  }
});

if (state.auth) enter(state.auth, state.auth.kind === "session" ? "op-signin-error" : "login-error");

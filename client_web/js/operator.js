// The operator console: signing in (by operator username and password, a session token kept in
// sessionStorage, or with the bootstrap token the server was started with), named operators, and the
// sections, each a module: tables and seats (operator_tables.js), the floor's figures and charts
// (operator_floor.js) and its second looks (operator_second_looks.js), bars (operator_bars.js), balances
// (operator_players.js), the settings (operator_settings.js), the audit log and the ledger
// (operator_logs.js). Every word from the catalog's `console` namespace (the HTML's through translateDom),
// refusals worded from their codes (operator_api.js);
// the language menu in the header (an operator's choice stays on the device).

import { api, el } from "./api.js";
import { dateTime, t, translateDom } from "./i18n.js";
import { languageMenu } from "./language_menu.js";
import { $, call, cell, errorText, fillRows, sentenceWith, showError, state, userText } from "./operator_api.js";
import { onChange as onBarsChange, refreshBars } from "./operator_bars.js";
import { refreshLogs } from "./operator_logs.js";
import { startFloor, stopFloor } from "./operator_floor.js";
import { refreshBlocks } from "./operator_play_safely.js";
import { loadSecondLooks } from "./operator_second_looks.js";
import { onChange as onPlayersChange } from "./operator_players.js";
import { loadSettings } from "./operator_settings.js";
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

function operatorRow(o) {
  const mine = state.auth?.kind === "session" && state.auth.username === o.username;
  const toggle = o.disabled ? "enable" : "disable";
  return el("tr", { "data-operator": o.username },
    cell(t("console:operators.col.operator"), {}, userText(o.username)),
    cell(t("console:operators.col.status"), { class: o.disabled ? "bad" : "ok",
      text: o.disabled ? t("console:operators.status.disabled") : t("console:operators.status.enabled") }),
    cell(t("console:operators.col.created"), { text: o.created_ms ? dateTime(o.created_ms) : "" }),
    cell(t("console:operators.col.last_sign_in"), { text: o.last_sign_in_ms ? dateTime(o.last_sign_in_ms) : t("console:operators.never") }),
    cell(t("console:operators.col.actions"), {}, mine ? el("span", { class: "hint", text: t("console:operators.you") })
      : el("button", { class: `btn small ${o.disabled ? "secondary" : "danger"}`, type: "button", "data-action": toggle,
        "aria-label": t(o.disabled ? "console:operators.enable.label" : "console:operators.disable.label", { name: o.username }),
        onclick: () => operatorAction(o.username, toggle),
        text: o.disabled ? t("console:operators.enable.button") : t("console:operators.disable.button") })));
}

async function refreshOperators() {
  try {
    const data = await call("/operators");
    const ops = data.operators ?? [];
    fillRows("operators", ops.map(operatorRow), t("console:operators.empty"), 5);
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
    $("operator-result").textContent = t(o.disabled ? "console:operators.disabled.done" : "console:operators.enabled.done", { name: o.username });
    await refreshOperators();
  } catch (err) {
    showError("operator-error", err);
  }
}

async function refresh() {
  await refreshTables();
  await refreshBars();
  await refreshBlocks();
  await refreshOperators();
  await refreshLogs();
}
for (const onChange of [onTablesChange, onBarsChange, onPlayersChange]) onChange(() => refresh().catch(onRefreshError));

/** Back to the sign-in form with a notice: the operator session ended (expired, disabled, signed out). */
function signedOut(text) {
  clearInterval(timer);
  stopFloor();
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
    if (errorId === "login-error" && err.status === 401) {
      $(errorId).textContent = t("console:refusal.with_code", { text: t("console:login.token.wrong"), code: err.code });
    } else showError(errorId, err);
    return;
  }
  sessionStorage.setItem(KEY, JSON.stringify(state.auth));
  $("login-panel").hidden = true;
  $("login-notice").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
  $("op-who").textContent = state.auth.kind === "session" ? t("console:header.signed_in_as", { name: state.auth.username })
    : t("console:header.bootstrap");
  $("operator-form").hidden = state.auth.kind !== "bootstrap";
  clearInterval(timer);
  timer = setInterval(() => refresh().catch(onRefreshError), 3000);
  await refresh().catch(onRefreshError);
  await loadSettings().catch((err) => (err?.status === 401 ? onRefreshError(err) : showError("help-notice-error", err)));
  await startFloor(onRefreshError);
  await loadSecondLooks().catch(onRefreshError);
  $("console").dataset.ready = "true";
}

function onRefreshError(err) {
  if (err?.status !== 401) return;
  signedOut(err.code === "OPERATOR_DISABLED" ? t("console:signed_out.disabled") : t("console:signed_out.ended"));
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
    $("op-username-error").textContent = t("console:signin.username.missing");
    $("op-username").setAttribute("aria-invalid", "true");
    $("op-username").focus();
    return;
  }
  if (!password) {
    error.textContent = t("console:signin.password.missing");
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
    error.textContent = errorText(err);
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
        $("money-status").textContent = t("console:sign_out.failed", { text: errorText(err) });
        return;
      }
    }
  }
  signedOut(t("console:signed_out.done"));
});
$("operator-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("operator-error", null);
  $("operator-result").textContent = "";
  const username = $("new-op-username").value.trim().toLowerCase();
  const password = $("new-op-password").value;
  if (!/^[a-z0-9_.-]{3,24}$/.test(username)) return showError("operator-error", { message: t("console:operators.username.invalid") });
  if (password.length < 8 || !password.trim()) return showError("operator-error", { message: t("console:operators.password.invalid") });
  try {
    const o = await call("/operators", { method: "POST", body: { username, password } });
    $("new-op-username").value = "";
    $("new-op-password").value = "";
    $("operator-result").textContent = t("console:operators.created", { name: o.username });
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

translateDom();
// The sign-in buttons are disabled in the page until now: a click before this module ran (it waits for the
// language's catalog) would send the form as a plain GET and reload the console.
for (const id of ["op-signin", "op-token-submit"]) $(id).disabled = false;
$("bootstrap-hint").replaceChildren(...sentenceWith("console:bootstrap.hint", {}, { flag: el("code", { text: "--operator-token" }) }));
languageMenu($("language-host"), () => null);
if (state.auth) enter(state.auth, state.auth.kind === "session" ? "op-signin-error" : "login-error");

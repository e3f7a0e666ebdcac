// The operator console: open, close, pause and resume tables; limits and timers; kick; void the round;
// credit or debit a balance with a reason; the audit log and the ledger. Needs the operator token.

import { api, el, money, parseMoney } from "./api.js";

const $ = (id) => document.getElementById(id);
const KEY = "paigow.operator";
let token = sessionStorage.getItem(KEY) ?? "";
let selected = null;
let timer = null;

const call = (path, opts = {}) => api(`/api/operator${path}`, { ...opts, token });

function when(ms) {
  return ms ? new Date(ms).toLocaleTimeString() : "";
}

function showError(id, err) {
  $(id).textContent = err ? `${err.message}${err.code && !/^\d+$/.test(err.code) ? ` (${err.code})` : ""}` : "";
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
    el("td", { text: when(e.ts_ms) }), el("td", { text: e.action ?? "" }),
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

async function refresh() {
  const data = await api("/api/tables");
  const tables = data.tables ?? data;
  $("tables").tBodies[0].replaceChildren(...(tables.length ? tables.map(tableRow)
    : [el("tr", {}, el("td", { colspan: "6", class: "hint", text: "No table yet: open one above." }))]));
  await refreshDetail();
  await refreshLogs();
}

async function signIn(candidate) {
  token = candidate;
  try {
    await call("/money");
  } catch (err) {
    token = "";
    sessionStorage.removeItem(KEY);
    showError("login-error", err.status === 401 ? { message: "That is not the operator token." } : err);
    return;
  }
  sessionStorage.setItem(KEY, token);
  $("login-panel").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
  await refresh();
  clearInterval(timer);
  timer = setInterval(() => refresh().catch(() => {}), 3000);
}

$("login-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  showError("login-error", null);
  signIn($("op-token").value.trim());
});
$("sign-out").addEventListener("click", () => {
  sessionStorage.removeItem(KEY);
  location.reload();
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

if (token) signIn(token);

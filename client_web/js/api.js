// HTTP calls to the server and the player's session kept in localStorage (display name remembered).

const KEY = "paigow.session";
const NAME_KEY = "paigow.name";

export function money(cents, { sign = false } = {}) {
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  const part = String(abs % 100).padStart(2, "0");
  const text = `$${whole}.${part}`;
  if (neg) return `−${text}`;
  return sign && cents > 0 ? `+${text}` : text;
}

/** "12.5" or "$12.50" -> 1250 cents; null when it is not an amount. */
export function parseMoney(text) {
  const m = String(text).trim().replace(/^\$/, "").match(/^(\d{1,7})(?:\.(\d{1,2}))?$/);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "NETWORK", "The server cannot be reached: check your connection.");
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const code = typeof data?.error === "string" ? data.error : data?.error?.code ?? data?.code ?? String(res.status);
    const message = data?.message ?? data?.error?.message ?? (typeof data?.detail === "string" ? data.detail : `The server answered ${res.status}.`);
    throw new ApiError(res.status, code, message);
  }
  return data;
}

export function savedSession() {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "null");
  } catch {
    return null;
  }
}

export function rememberedName() {
  return localStorage.getItem(NAME_KEY) ?? "";
}

export function forgetSession() {
  localStorage.removeItem(KEY);
}

/** Start a session with a display name (remembered for next time). */
export async function startSession(displayName) {
  const data = await api("/api/session", { method: "POST", body: { display_name: displayName } });
  const session = { token: data.token, player_id: data.player_id, display_name: data.display_name ?? displayName };
  localStorage.setItem(KEY, JSON.stringify(session));
  localStorage.setItem(NAME_KEY, session.display_name);
  return { ...session, balance_cents: balanceOf(data) };
}

/** Resume the saved session: the player with their balance, or null when there is none (or it expired). */
export async function resumeSession() {
  const s = savedSession();
  if (!s) return null;
  try {
    const data = await api("/api/session", { token: s.token });
    return { ...s, ...data, token: s.token, balance_cents: balanceOf(data) };
  } catch (err) {
    if (err.status === 401 || err.status === 403 || err.status === 404) {
      forgetSession();
      return null;
    }
    throw err;
  }
}

export function balanceOf(data) {
  return data?.balance_cents ?? data?.balance ?? null;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

export function toast(message, kind = "error") {
  let area = document.querySelector(".toast-area");
  if (!area) {
    area = el("div", { class: "toast-area", role: "status", "aria-live": "polite" });
    document.body.append(area);
  }
  const t = el("div", { class: `toast ${kind}`, text: message });
  area.append(t);
  setTimeout(() => t.remove(), 6000);
}

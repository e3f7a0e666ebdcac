// HTTP calls to the server and the player's session kept in localStorage (display name remembered):
// guests, registered accounts, sign-in and sign-out, and what happens when the server forgets a token.
// A refusal is an `ApiError` with the server's code and fields: the page words it with errors.js's
// `errorText(err)` in the player's language; its English `message` is for the console and logs only.
// Every session answer brings the account's saved language (`language`), which the device adopts.

const KEY = "paigow.session";
const NAME_KEY = "paigow.name";
const ENDED_KEY = "paigow.session-ended";

export { money } from "./i18n.js";
import { adoptAccountLanguage, parseAmount, t } from "./i18n.js";

/** Text as a sentence: a capital first, a full stop last. Never for the server's English `message` (a
 * refusal is worded by errors.js `errorText` from its code); kept for text the page already has. */
export function sentence(text) {
  if (!text) return "";
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?)]$/.test(text) ? "" : "."}`;
}

/** A number of seconds as a phrase that stands alone ("1 second", "5 seconds"), in the page's language. */
export const seconds = (n) => t("common:seconds", { count: n });

/** "12.5" or "$12.50" (or "12,50" where the language writes a decimal comma) -> 1250 cents; null when it is
 * not an amount. */
export const parseMoney = parseAmount;

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    /** Seconds from the Retry-After header (429 answers), or null. */
    this.retryAfter = retryAfter;
  }
}

function retryAfterOf(res) {
  const raw = res.headers.get("Retry-After");
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * One JSON call. A 401 UNKNOWN_SESSION for the saved player token ends the session (see endSession) unless
 * ``quiet`` (signing out, where an unknown token is the expected outcome).
 */
export async function api(path, { method = "GET", body, token, quiet = false } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "NETWORK", "The server cannot be reached: check your connection."); // errors:NETWORK
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
    const wait = retryAfterOf(res) ?? (Number.isInteger(data?.retry_after_s) ? data.retry_after_s : null);
    const err = new ApiError(res.status, code, message, wait);
    err.body = data ?? {}; // what else the refusal says (a bar's until_ms)
    const saved = savedSession();
    if (!quiet && res.status === 401 && code === "UNKNOWN_SESSION" && token && token === saved?.token) endSession(saved);
    throw err;
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

/**
 * The server no longer knows the token of ``s`` (the saved session by default): expired, signed out elsewhere,
 * revoked. Forget it (unless this browser has signed in anew since) and note, for the lobby, who it was.
 * Listeners of "paigow:session-ended" on window show the message.
 */
export function endSession(s = savedSession()) {
  const saved = savedSession();
  if (saved && (!s || saved.token === s.token)) forgetSession();
  const ended = { registered: Boolean(s?.registered), username: s?.username ?? null, at: Date.now() };
  sessionStorage.setItem(ENDED_KEY, JSON.stringify(ended));
  window.dispatchEvent(new CustomEvent("paigow:session-ended", { detail: ended }));
  return ended;
}

/** The last session that ended by itself in this tab ({registered, username}), once; null when none. */
export function takeEndedSession() {
  const raw = sessionStorage.getItem(ENDED_KEY);
  sessionStorage.removeItem(ENDED_KEY);
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

/** The words for a session that ended: registered players sign in again, guests start anew. */
export function sessionEndedText(ended) {
  return ended?.registered ? t("common:session.ended.registered") : t("common:session.ended.guest");
}

function keep(data, fallback = {}) {
  const session = {
    token: data.token ?? fallback.token, player_id: data.player_id,
    display_name: data.display_name ?? fallback.display_name ?? "",
    registered: Boolean(data.registered), username: data.username ?? null,
    language: data.language ?? null,
  };
  localStorage.setItem(KEY, JSON.stringify(session));
  if (session.display_name) localStorage.setItem(NAME_KEY, session.display_name);
  sessionStorage.removeItem(ENDED_KEY);
  adoptAccountLanguage(session.language); // a sign-in brings the account's choice: the page loads again in it
  return { ...session, balance_cents: balanceOf(data), expires_ms: data.expires_ms ?? null };
}

/** Start a guest session with a display name (remembered for next time). */
export async function startSession(displayName) {
  const data = await api("/api/session", { method: "POST", body: { display_name: displayName } });
  return keep(data, { display_name: displayName });
}

/** Create a registered account (the display name defaults to the username on the server). */
export async function signUp(username, password, displayName) {
  const body = { username, password };
  if (displayName) body.display_name = displayName;
  return keep(await api("/api/accounts", { method: "POST", body }));
}

/** Sign in to a registered account: a new token for this browser. */
export async function signIn(username, password) {
  return keep(await api("/api/session/sign-in", { method: "POST", body: { username, password } }));
}

/** Turn the current guest into a registered account: same player, balance and seats; the token stays. */
export async function keepGuest(username, password) {
  const s = savedSession();
  if (!s) throw new ApiError(401, "UNAUTHORIZED", "There is no guest session to keep.");
  return keep(await api("/api/accounts/keep", { method: "POST", body: { username, password }, token: s.token }), s);
}

/**
 * Sign out this browser, or (everywhere) every browser of this player. The token is forgotten when the
 * server confirms, or answers that it does not know it any more; any other failure is thrown and the token
 * kept, so that the player can try again.
 */
export async function signOut({ everywhere = false } = {}) {
  const s = savedSession();
  if (!s) return;
  try {
    await api(everywhere ? "/api/sessions" : "/api/session", { method: "DELETE", token: s.token, quiet: true });
  } catch (err) {
    if (err.status !== 401) throw err;
  }
  forgetSession();
}

/** Resume the saved session: the player with their balance, or null when there is none (or it ended). */
export async function resumeSession() {
  const s = savedSession();
  if (!s) return null;
  try {
    const data = await api("/api/session", { token: s.token });
    const language = data.language ?? null;
    if (language !== (s.language ?? null) && savedSession()?.token === s.token) {
      // The account's language changed since this device last heard it (chosen on another device): adopt
      // it. Unchanged, the device's own choice stands (one the account was not told of, too).
      localStorage.setItem(KEY, JSON.stringify({ ...s, language }));
      adoptAccountLanguage(language);
    }
    return { ...s, ...data, token: s.token, balance_cents: balanceOf(data) };
  } catch (err) {
    if (err.status === 401 || err.status === 403 || err.status === 404) {
      if (savedSession()?.token === s.token) endSession(s);
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
    else if (k === "style") node.style.cssText = v; // the CSSOM: the Content Security Policy refuses style attributes
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** Save `blob` as a file named `name` (the browser's download). */
export function saveFile(blob, name) {
  const a = el("a", { href: URL.createObjectURL(blob), download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
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

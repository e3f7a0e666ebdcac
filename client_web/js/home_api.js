// Home games over HTTP (docs/http-api.md, "Home games (players)"): create a private table, list mine, read
// one, make a new invite, resolve a code; the invite's link and the words for each refusal.

import { api, money, seconds, sentence } from "./api.js";

/** The choices of the create form and of the host's panel, in the server's words. */
export const HOUSE_WAYS = [["trump_plaza", "Trump Plaza"], ["foxwoods", "Foxwoods"], ["ballys_ac", "Bally's Atlantic City"]];
export const TIMER_FIELDS = [["betting_ms", "Betting"], ["setting_ms", "Setting the hand"], ["bank_offer_ms", "Bank offer"],
  ["between_rounds_ms", "Between rounds"]];
export const SHORT_CODE = /^[A-HJ-NP-Z]{6}$/;

/** A six-letter code as typed ("kxm-bqt", "KXM BQT") in the one form the server keeps, or null. */
export function shortCodeOf(text) {
  const code = String(text ?? "").toUpperCase().replace(/[\s-]/g, "");
  return SHORT_CODE.test(code) ? code : null;
}

/** The link a friend opens: this server's origin and the invite's path. */
export function inviteLink(invite) {
  return `${location.origin}${invite.url}`;
}

export const createHomeTable = (token, body) => api("/api/home/tables", { method: "POST", body, token });
export const myHomeTables = async (token) => (await api("/api/home/tables", { token }))?.tables ?? [];
export const homeTable = (token, id) => api(`/api/home/tables/${encodeURIComponent(id)}`, { token });
export const newInvite = (token, id) => api(`/api/home/tables/${encodeURIComponent(id)}/invite`, { method: "POST", body: {}, token });

const RESOLVED_KEY = "paigow.invite.";

/**
 * What a code names ({table_id, name, host_name, seating, spectators_policy, ..., code, admitted}); with a
 * token the account is admitted. The lobby's answer is kept for the table page it opens, so the same code is
 * not looked up twice in a row (lookups are rate-limited).
 */
export async function resolveInvite(code, token, { keep = false } = {}) {
  const key = `${RESOLVED_KEY}${code}`;
  try {
    // Used once, for the page the lobby opens at once: a reload asks again (the host may have replaced it).
    const kept = JSON.parse(sessionStorage.getItem(key) ?? "null");
    sessionStorage.removeItem(key);
    if (kept && kept.token === (token ?? null) && Date.now() - kept.at < 15_000) return kept.data;
  } catch { /* looked up again */ }
  const data = await api("/api/invites/resolve", { method: "POST", body: { code }, token });
  if (keep) sessionStorage.setItem(`${RESOLVED_KEY}${data.code}`, JSON.stringify({ token: token ?? null, at: Date.now(), data }));
  return data;
}

export function untilText(ms) {
  return new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

/** A refused look-up in words: {title, text, wait} (wait: seconds before trying again is any use). */
export function resolveRefusal(err) {
  switch (err.code) {
    case "INVITE_NOT_FOUND":
      return { title: "This invite does not work",
        text: "The link or code is mistyped, the host made a new one (which ends the old), or the table has closed. Ask the host for a new link." };
    case "BARRED":
      return { title: "The host removed you from this table",
        text: err.body?.until_ms ? `You may not come back before ${untilText(err.body.until_ms)}.` : "You may not come back for now." };
    case "RATE_LIMITED": {
      const wait = err.retryAfter ?? 60;
      return { title: "Too many codes tried", text: `Too many invite codes were tried from your network: wait ${seconds(wait)} and try again.`, wait };
    }
    case "INVALID_FIELD":
      return { title: "That is not an invite code", text: "A code is the six letters the host reads out (like KXMBQT), or the link they sent." };
    default:
      return { title: "The invite could not be checked", text: sentence(err.message) };
  }
}

/** Where a create-form refusal goes: [the form's field id or null, its words]. */
export function createRefusal(err, cap) {
  const msg = String(err.message ?? "");
  const fields = [["name", "home-name"], ["min_bet_cents", "home-min"], ["max_bet_cents", "home-max"], ["house_way", "home-way"],
    ["betting_ms", "home-betting_ms"], ["setting_ms", "home-setting_ms"], ["bank_offer_ms", "home-bank_offer_ms"],
    ["between_rounds_ms", "home-between_rounds_ms"], ["seating", null], ["spectators", null]];
  switch (err.code) {
    case "ACCOUNT_REQUIRED": return [null, "Only an account can host: create one or keep this guest account first (above)."];
    case "HOME_TABLE_LIMIT": return [null, "You already host as many open home games as you may: close one first (My home games, below)."];
    case "HOME_TABLES_FULL": return [null, "This server has as many home games open as it allows: try again later."];
    case "INVALID_FIELD":
    case "UNKNOWN_FIELD": {
      // The server's message starts with the field it names ("max_bet_cents must be ..."): the first one named.
      const hits = fields.map(([name, id]) => [msg.indexOf(name), id]).filter(([at]) => at >= 0).sort((a, b) => a[0] - b[0]);
      let text = sentence(msg);
      if (hits[0]?.[1] === "home-max" && cap) text = `${text} The most a home game allows is ${money(cap)}.`;
      return [hits[0]?.[1] ?? null, text];
    }
    default: return [null, sentence(msg)];
  }
}

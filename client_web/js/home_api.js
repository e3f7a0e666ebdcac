// Home games over HTTP (docs/http-api.md, "Home games (players)"): create a private table, list mine, read
// one, make a new invite, resolve a code; the invite's link and the words for each refusal.

import { api } from "./api.js";
import { FORM as CHIP_FORM } from "./chips_words.js";
import { errorText } from "./errors.js";
import { dateTime, money, moneyBound, number, t } from "./i18n.js";

/** The choices of the create form and of the host's panel, in the page's language (the catalog is loaded
 * before any module runs). */
export const HOUSE_WAYS = [["trump_plaza", t("home:house_way.trump_plaza")], ["foxwoods", t("home:house_way.foxwoods")],
  ["ballys_ac", t("home:house_way.ballys_ac")]];
export const TIMER_FIELDS = [["betting_ms", t("home:timer.betting")], ["setting_ms", t("home:timer.setting")],
  ["bank_offer_ms", t("home:timer.bank_offer")], ["between_rounds_ms", t("home:timer.between_rounds")]];
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
/** The caller's home games and the operator's bounds for a new one: {tables, max_bet_cap_cents, timer_max_ms,
 * tables_per_account}. */
export const myHomeGames = (token) => api("/api/home/tables", { token });
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

/** A moment as a date and time ("Dec 2, 2026, 11:46 AM"), in the page's language. */
export const untilText = dateTime;

/** "$1,000" for whole dollars, else "$12.50": a bound as people say it. */
export const dollars = moneyBound;

/** The page's title for a removed player: who removed them when it is known. */
export function removedTitle(by) {
  if (by === "host") return t("home:removed.host");
  if (by === "operator") return t("home:removed.operator");
  return t("home:removed.unknown");
}

/** A refused look-up in words: {title, text, wait} (wait: seconds before trying again is any use). */
export function resolveRefusal(err) {
  switch (err.code) {
    case "INVITE_NOT_FOUND":
      return { title: t("home:invite.not_found.title"), text: t("home:invite.not_found.text") };
    case "BARRED":
      return { title: removedTitle(err.body?.by),
        text: err.body?.until_ms ? t("home:barred.not_before", { when: untilText(err.body.until_ms) }) : t("home:barred.not_now") };
    case "RATE_LIMITED": {
      const wait = err.retryAfter ?? 60;
      return { title: t("home:invite.rate_limited.title"), text: t("home:invite.rate_limited.text", { count: wait, n: number(wait) }), wait };
    }
    case "INVALID_FIELD":
      return { title: t("home:invite.not_a_code.title"), text: t("home:invite.not_a_code.text") };
    default:
      return { title: t("home:invite.unchecked.title"), text: errorText(err) };
  }
}

/** The create form's field for each wire path a 400 INVALID_FIELD names ("field"): [its control, its error line]. */
const FORM_FIELDS = {
  name: ["home-name", "home-name-error"],
  "rules.min_bet_cents": ["home-min", "home-min-error"],
  "rules.max_bet_cents": ["home-max", "home-max-error"],
  "rules.house_way": ["home-way", "home-way-error"],
  "rules.fortune_enabled": ["home-fortune", "home-rules-error"],
  "rules.player_banking": ["home-banking", "home-rules-error"],
  seating: ["home-seating-open", "home-seating-error"],
  spectators: ["home-spectators-link", "home-spectators-error"],
  ...Object.fromEntries(TIMER_FIELDS.map(([key]) => [`timers.${key}`, [`home-${key}`, `home-${key}-error`]])),
  "chips.default_buy_in_cents": ["home-buy-in", "home-buy-in-error"],
  "chips.min_buy_in_cents": ["home-buy-in-min", "home-buy-in-min-error"],
  "chips.max_buy_in_cents": ["home-buy-in-max", "home-buy-in-max-error"],
  "chips.rebuys": ["home-rebuys", "home-chips-error"],
  "chips.auto_approve": ["home-auto-approve", "home-chips-error"],
  "chips.players_bank_in_turn": ["home-bank-in-turn", "home-chips-error"],
  "chips.commission": ["home-commission-none", "home-chips-error"],
  chips: [null, "home-chips-error"],
};

/** A maximum bet over the operator's bound, in words. */
export const capWords = (cap) => t("home:create.max.cap", { cap: dollars(cap) });

/** A timer that is not whole seconds within the bound (`maxMs`, null when unknown), in words. */
export const timerWords = (maxMs) => (maxMs == null ? t("home:create.timer.invalid")
  : t("home:create.timer.invalid.bounded", { max: number(maxMs / 1000) }));

/** The number `pattern` finds in the server's words (a value, never shown as the server words it) ("bound for home games, 100000"; "in 0..3600000"), or null. */
const boundIn = (text, pattern) => {
  const m = text.match(pattern);
  return m ? Number(m[1]) : null;
};

/** A refused buy-in amount of the create form (`chips.*_cents`) with its amounts as money, or null (the
 * refusal's own words then). */
function chipFieldWords(field, message, bounds) {
  const [given, cap, other] = [boundIn(message, /_cents (\d+)/), boundIn(message, /home games, (\d+)/), boundIn(message, /\((\d+)\)/)];
  if (cap ?? (/bound/.test(message) ? bounds?.max_buy_in_cap_cents : null)) return CHIP_FORM.cap(cap ?? bounds.max_buy_in_cap_cents);
  if (/minimum bet/.test(message) && other != null) return CHIP_FORM.belowMinBet(other);
  if (/below default/.test(message) && given != null && other != null) return CHIP_FORM.maxBelow(given, other);
  if (/over default/.test(message) && given != null && other != null) return CHIP_FORM.minAbove(given, other);
  if (/whole number/.test(message)) return { "chips.default_buy_in_cents": CHIP_FORM.buyIn, "chips.min_buy_in_cents": CHIP_FORM.min }[field] ?? CHIP_FORM.max;
  return null;
}

/** A refused field in a player's words: the server's reason as far as it is known, else the refusal's. */
function fieldWords(field, err, bounds) {
  const message = String(err.message ?? "");
  const rest = errorText(err);
  if (field === "name") {
    if (/empty/.test(message)) return t("home:create.name.empty");
    const most = boundIn(message, /at most (\d+)/);
    if (most) return t("home:create.name.too_long", { count: most, n: number(most) });
    if (/character U\+/.test(message)) return t("home:create.name.control");
    return rest;
  }
  if (field === "rules.max_bet_cents") {
    const cap = boundIn(message, /bound for home games, (\d+)/) ?? (/bound/.test(message) ? bounds?.max_bet_cap_cents : null);
    if (cap) return capWords(cap);
    if (/below min_bet/.test(message)) return t("home:create.max.below_min");
    return t("home:create.max.invalid");
  }
  if (field === "rules.min_bet_cents") return t("home:create.min.invalid.server", { min: money(1) });
  if (field.startsWith("timers.")) return timerWords(boundIn(message, /\.\.(\d+)/) ?? bounds?.timer_max_ms);
  if (field.startsWith("chips.") && field.endsWith("_cents")) return chipFieldWords(field, message, bounds) ?? rest;
  return rest;
}

/**
 * Where a create-form refusal goes and what it says: {input, error, text} — `input` the form's control to
 * mark and focus (null: the form's own error line), `error` the id of the line that shows `text`.
 */
export function createRefusal(err, bounds) {
  const general = (text) => ({ input: null, error: "host-error", text });
  switch (err.code) {
    case "ACCOUNT_REQUIRED": return general(t("home:create.account_required"));
    case "HOME_TABLE_LIMIT": return general(t("home:create.table_limit"));
    case "HOME_TABLES_FULL": return general(t("home:create.tables_full"));
    case "INVALID_FIELD": {
      const field = typeof err.body?.field === "string" ? err.body.field : null;
      const [input, error] = FORM_FIELDS[field] ?? [null, "host-error"];
      return { input, error, text: field ? fieldWords(field, err, bounds) : errorText(err) };
    }
    default: return general(errorText(err?.code ? err : "NETWORK"));
  }
}

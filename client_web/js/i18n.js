// The page's language (docs/languages.md): every word a person sees or hears comes from a catalog,
// `/i18n/<code>.json` (namespaces of flat keys, i18next's JSON v4 with `{{name}}` placeholders and plural
// keys `_one`/`_other`/… chosen by Intl.PluralRules); numbers, money and times through Intl. The language is
// chosen once, before any other module runs (this module awaits its catalog at the top level): the
// player's choice (`localStorage` `paigow.lang`, which an account's saved language overwrites when the
// session loads), else the first of the browser's languages that the list has, else English.
//
// `en-XA` is the pseudo-locale of the tests: every English string accented, 40% longer and bracketed
// ⟦…⟧, so a word that did not come from a catalog shows plainly. It is never in the menu.

import i18next from "../vendor/i18next/i18next.js";

export const LANG_KEY = "paigow.lang";
export const PSEUDO = "en-XA";

const LIST = await (await fetch("/i18n/languages.json")).json();
/** The languages of the menu, in its order: `{code, name}` (a name in its own language). */
export const LANGUAGES = LIST.languages.map(({ code, name }) => ({ code, name }));
const CODES = new Set(LANGUAGES.map((l) => l.code));

/** The best of the list for a BCP 47 tag: exact, then a script or region the list knows, then the base. */
export function matchLanguage(tag) {
  if (!tag) return null;
  if (tag === PSEUDO || CODES.has(tag)) return tag;
  let loc;
  try {
    loc = new Intl.Locale(tag).maximize();
  } catch {
    return null;
  }
  const withScript = `${loc.language}-${loc.script}`;
  if (CODES.has(withScript)) return withScript;
  return CODES.has(loc.language) ? loc.language : null;
}

function stored() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
}

function chooseLanguage() {
  const own = matchLanguage(stored());
  if (own) return own;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const m = matchLanguage(tag);
    if (m) return m;
  }
  return "en";
}

/** The page's language code (a code of the list, or `en-XA`). */
export const lang = chooseLanguage();
/** The locale Intl formats with (the pseudo-locale formats as English). */
export const locale = lang === PSEUDO ? "en-US" : lang;

async function catalog(code) {
  const res = await fetch(`/i18n/${code}.json`);
  if (!res.ok) throw new Error(`no catalog for ${code}`);
  return res.json();
}

// Pseudo-localisation: letters accented, 40% longer, bracketed; placeholders and nesting left alone.
const ACCENTS = Object.fromEntries([..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((c, i) => [c, [..."áƀćđéƒĝĥíĵķĺɱñóƥʠŕšţúṽŵẋýžÁƁĆĐÉƑĜĤÍĴĶĹṀÑÓƤɊŔŠŢÚṼŴẊÝŽ"][i]]));
export function pseudo(text) {
  const parts = text.split(/(\{\{[^}]*\}\}|\$t\([^)]*\))/);
  const body = parts.map((p, i) => (i % 2 ? p : [...p].map((c) => ACCENTS[c] ?? c).join(""))).join("");
  const letters = parts.filter((_, i) => i % 2 === 0).join("").length;
  const extra = Math.ceil(letters * 0.4);
  const pad = extra ? ` ${"ǿ".repeat(extra).match(/.{1,6}/gu).join(" ")}` : "";
  return `⟦${body}${pad}⟧`;
}
function pseudoCatalog(cat) {
  return Object.fromEntries(Object.entries(cat).map(([ns, keys]) => [ns, Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, pseudo(v)]))]));
}

/** Keys asked for that no catalog has (the tests read it; the page shows the key itself). */
export const missing = new Set();

const english = await catalog("en");
const resources = { en: english };
if (lang === PSEUDO) resources[PSEUDO] = pseudoCatalog(english);
else if (lang !== "en") resources[lang] = await catalog(lang);

await i18next.init({
  lng: lang,
  fallbackLng: lang === PSEUDO ? false : "en",
  supportedLngs: [...CODES, PSEUDO],
  resources,
  ns: Object.keys(english),
  defaultNS: "common",
  keySeparator: false,
  nsSeparator: ":",
  interpolation: { escapeValue: false },
  returnNull: false,
  returnEmptyString: false,
  saveMissing: true,
  missingKeyHandler: (_lngs, ns, key) => missing.add(`${ns}:${key}`),
});
if (typeof window !== "undefined") window.__i18n = { lang, missing };

document.documentElement.lang = lang;

/** A sentence from the catalog: `t("ns:key")`, `t("ns:counted", {count: 2})`. Values are
 * inserted as they are (the page sets text, never HTML). */
export const t = (key, values) => i18next.t(key, values);
/** Whether a catalog has `key` (for a family of keys named by a code: errors, clauses). */
export const has = (key) => i18next.exists(key);

// Intl, once per page.
const CURRENCY = new Intl.NumberFormat(locale, { style: "currency", currency: "USD" });
const CURRENCY_WHOLE = new Intl.NumberFormat(locale, { style: "currency", currency: "USD", maximumFractionDigits: 0, minimumFractionDigits: 0 });
const NUMBER = new Intl.NumberFormat(locale);
const AMOUNT = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false });
const PERCENT = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
const TIME = new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit" });
const TIME_S = new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", second: "2-digit" });
const DAY_TIME = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const DATE_TIME = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
const LIST_AND = new Intl.ListFormat(locale, { type: "conjunction" });

function signed(fmt, value, sign) {
  // -0 (a loss counted up from nothing) is written as nothing lost, never "−$0.00"
  return fmt.formatToParts(value || 0).map((p) => {
    if (p.type === "minusSign") return "−";
    return p.value;
  }).join("").replace(/^/, sign && value > 0 ? "+" : "");
}

/** Integer cents as money in the page's language: "$1,234.50", "−$12.50", with `sign` "+$12.50". */
export function money(cents, { sign = false } = {}) {
  return signed(CURRENCY, cents / 100, sign);
}
/** Whole dollars without cents ("$10,000"), any other amount with them: a bound as people say it. */
export function moneyBound(cents) {
  return cents % 100 === 0 ? signed(CURRENCY_WHOLE, cents / 100, false) : money(cents);
}
const DECIMAL = NUMBER.formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
/** A typed amount in dollars -> integer cents: "12.5", "$12.50", and where the language writes a decimal comma
 * "12,50" too; null when it is not an amount (at most 7 digits of dollars and 2 of cents). */
export function parseAmount(text) {
  let s = String(text).trim().replace(/^(US)?\$\s*/, "").replace(/\s*(US)?\$$/, "");
  if (DECIMAL === ",") s = s.replace(/,(\d{1,2})$/, ".$1");
  const m = s.match(/^(\d{1,7})(?:\.(\d{1,2}))?$/);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}
/** Cents as a typed amount is written in a field of this language ("12.50", "12,50"): what `parseAmount`
 * reads back. */
export const amountText = (cents) => AMOUNT.format(cents / 100);
/** A count or a plain number ("1,234"). */
export const number = (n) => NUMBER.format(n);
/** A fraction as a percent ("5%", "2.5%"). */
export const percent = (fraction) => PERCENT.format(fraction);
/** A time of day ("2:05 PM"), with seconds when asked. */
export const time = (ms, { seconds = false } = {}) => (seconds ? TIME_S : TIME).format(new Date(ms));
/** A time today as its time, another day with its date ("Dec 5, 2:05 PM"), another year's with the year
 * ("Jun 6, 2027, 9:36 PM": a self-exclusion's end, a break that ends next January). */
export function when(ms) {
  const d = new Date(ms);
  const now = new Date();
  if (d.toDateString() === now.toDateString()) return TIME.format(d);
  return d.getFullYear() === now.getFullYear() ? DAY_TIME.format(d) : DATE_TIME.format(d);
}
/** A date and time in full ("Dec 2, 2026, 11:46 AM"). */
export const dateTime = (ms) => DATE_TIME.format(new Date(ms));
/** "Ann, Maya and Theo" in the page's language. */
export const listAnd = (items) => LIST_AND.format(items);

/**
 * Words the HTML holds: an element's text from `data-i18n="ns:key"`, and its attributes from
 * `data-i18n-attr="aria-label=ns:key; title=ns:key; placeholder=ns:key"`. Run once per page on load (the
 * lobby, the table, the console, practice and verify do) and on markup a script adds from a template.
 */
export function translateDom(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split("=").map((s) => s.trim());
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
}

/** The display name the server gives a closed account (server store/account_closure.py CLOSED_NAME). */
export const CLOSED_NAME = "Closed account";

/**
 * A player's name where it stands alone (a seat, a chat line, a ledger row): its language is not the page's.
 * A closed account's name is said in the page's words instead.
 */
export function markName(node) {
  if (node.textContent === CLOSED_NAME) {
    node.textContent = t("common:closed_account");
    return node;
  }
  node.lang = "";
  node.dir = "auto";
  node.translate = false; // a name, never a word for a page translator to turn into another
  return node;
}

/**
 * Choose a language: remembered on this device at once, and for an account on the account
 * (`PUT /api/account/language`, docs/http-api.md), then the page loads again in it.
 */
export async function setLanguage(code, token = null) {
  if (!CODES.has(code) && code !== PSEUDO) throw new Error(`unknown language ${code}`);
  try {
    localStorage.setItem(LANG_KEY, code);
  } catch {
    /* a device that keeps nothing still gets the page in it now */
  }
  if (token) {
    try {
      await fetch("/api/account/language", {
        method: "PUT",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ language: code }),
      });
    } catch {
      /* the device remembers it; the account is told next time */
    }
  }
  location.reload();
}

/** An account's saved language, from its session JSON: when it is not this device's, the device takes it and
 * the page loads again in it (true: a reload is coming). */
export function adoptAccountLanguage(code) {
  if (!code || !CODES.has(code) || code === lang || stored() === PSEUDO) return false;
  try {
    localStorage.setItem(LANG_KEY, code);
  } catch {
    return false;
  }
  location.reload();
  return true;
}

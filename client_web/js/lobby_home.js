// The lobby's home games: "Join with a code" for anyone; for an account, "Host a home game" (the create
// form, its errors at their fields), the invite panel once created, and "My home games" with each one's
// invite. The endpoints: docs/http-api.md, "Home games (players)".

import { el, parseMoney } from "./api.js";
import { errorText } from "./errors.js";
import { markName, money, number, t } from "./i18n.js";
import {
  capWords, createHomeTable, createRefusal, dollars, HOUSE_WAYS, myHomeGames, newInvite, resolveInvite, resolveRefusal, shortCodeOf,
  TIMER_FIELDS, timerWords,
} from "./home_api.js";
import { FORM as CHIP_FORM } from "./chips_words.js";
import { invitePanel } from "./invite_panel.js";
import { variantTagList } from "./variant_tags.js";

const $ = (id) => document.getElementById(id);
const TIMER_DEFAULTS = { betting_ms: 20, setting_ms: 45, bank_offer_ms: 15, between_rounds_ms: 10 };
let session = null;
let listed = null;
/** The operator's bounds for a new home game (GET /api/home/tables), null until read: the server checks anyway. */
let bounds = null;
/** How many open home games this account has made (what the per-account cap counts). */
let hosting = 0;
let creating = false;
/** Settled by the lobby's first word on the session (resumed, or none): a code typed and sent before it is
 * looked up as this player, not as a stranger (a removed player is told so, not sent on to the table). */
let sessionRead;
const sessionKnown = new Promise((resolve) => { sessionRead = resolve; });

function clearErrors(form) {
  for (const p of form.querySelectorAll(".field-error")) p.textContent = "";
  for (const i of form.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
}

/** The error shown at one control (its aria-invalid, and the error lines it is described by). */
function clearField(input) {
  if (!input?.hasAttribute?.("aria-invalid")) return;
  input.removeAttribute("aria-invalid");
  for (const id of (input.getAttribute("aria-describedby") ?? "").split(/\s+/)) {
    if ($(id)?.classList.contains("field-error")) $(id).textContent = "";
  }
}

/** `text` on the line `errorId`; the control `inputId` (none: the form's own line) marked, described by it, focused. */
function fieldError(inputId, text, errorId = inputId ? `${inputId}-error` : "host-error") {
  $(errorId).textContent = text;
  if (!inputId) return;
  const input = $(inputId);
  input.setAttribute("aria-invalid", "true");
  const described = (input.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  if (!described.includes(errorId)) input.setAttribute("aria-describedby", [...described, errorId].join(" "));
  input.focus();
}

/** The form as the request's body, or null after showing the first problem at its field. */
function readForm() {
  const name = $("home-name").value.trim();
  if (!name) return fieldError("home-name", t("home:create.name.empty")), null;
  const min = parseMoney($("home-min").value);
  if (min === null || min <= 0) return fieldError("home-min", t("home:create.min.invalid")), null;
  const max = parseMoney($("home-max").value);
  if (max === null || max <= 0) return fieldError("home-max", t("home:create.max.invalid")), null;
  if (max < min) return fieldError("home-max", t("home:limits.max_below_min", { max: money(max), min: money(min) })), null;
  const cap = bounds?.max_bet_cap_cents;
  if (cap && max > cap) return fieldError("home-max", capWords(cap)), null;
  const timers = {};
  for (const [key] of TIMER_FIELDS) {
    const raw = $(`home-${key}`).value.trim();
    const ms = Number(raw) * 1000;
    if (!/^\d{1,7}$/.test(raw) || (bounds?.timer_max_ms != null && ms > bounds.timer_max_ms)) {
      return fieldError(`home-${key}`, timerWords(bounds?.timer_max_ms)), null;
    }
    timers[key] = ms;
  }
  const chips = readChips();
  if (!chips) return null;
  return {
    name,
    rules: { min_bet_cents: min, max_bet_cents: max, house_way: $("home-way").value, fortune_enabled: $("home-fortune").checked,
      player_banking: $("home-banking").checked || chips.players_bank_in_turn },
    chips,
    timers,
    seating: document.querySelector("input[name='home-seating']:checked").value,
    spectators: document.querySelector("input[name='home-spectators']:checked").value,
  };
}

/** The form's "Chips" group as the request's `chips`, or null after showing the first problem at its field. */
function readChips() {
  const amounts = {};
  for (const [id, key, words] of [["home-buy-in", "default_buy_in_cents", CHIP_FORM.buyIn], ["home-buy-in-min", "min_buy_in_cents", CHIP_FORM.min],
    ["home-buy-in-max", "max_buy_in_cents", CHIP_FORM.max]]) {
    const cents = parseMoney($(id).value);
    if (cents === null || cents <= 0) return fieldError(id, words), null;
    amounts[key] = cents;
  }
  const { default_buy_in_cents: def, min_buy_in_cents: min, max_buy_in_cents: max } = amounts;
  if (min > def) return fieldError("home-buy-in-min", CHIP_FORM.minAbove(min, def)), null;
  if (max < def) return fieldError("home-buy-in-max", CHIP_FORM.maxBelow(max, def)), null;
  const cap = bounds?.max_buy_in_cap_cents;
  if (cap && max > cap) return fieldError("home-buy-in-max", CHIP_FORM.cap(cap)), null;
  return { ...amounts, rebuys: $("home-rebuys").checked, auto_approve: $("home-auto-approve").checked,
    players_bank_in_turn: $("home-bank-in-turn").checked,
    commission: document.querySelector("input[name='home-commission']:checked").value };
}

/** "Players bank in turn" means players bank: turning it on turns "Players may take the bank" on, and turning that off
 * turns it off (the house then banks every round, its dealer playing as at any table). */
function syncBanking(ev) {
  if (ev.target.id === "home-bank-in-turn" && ev.target.checked) $("home-banking").checked = true;
  if (ev.target.id === "home-banking" && !ev.target.checked) $("home-bank-in-turn").checked = false;
}

/** The bounds on the form (each input's max, the hints) and the per-account cap beside the Host button. */
function showBounds() {
  const cap = bounds?.max_bet_cap_cents;
  for (const id of ["home-min", "home-max"]) {
    if (cap) $(id).max = (cap / 100).toFixed(2);
    else $(id).removeAttribute("max");
  }
  $("home-max-hint").textContent = cap ? t("home:create.max.hint", { cap: dollars(cap) }) : t("home:create.max.hint_unknown");
  const buyInCap = bounds?.max_buy_in_cap_cents;
  for (const id of ["home-buy-in", "home-buy-in-min", "home-buy-in-max"]) {
    if (buyInCap) $(id).max = (buyInCap / 100).toFixed(2);
    else $(id).removeAttribute("max");
  }
  $("home-buy-in-max-hint").textContent = buyInCap ? CHIP_FORM.capHint(buyInCap) : CHIP_FORM.capHintUnknown;
  const most = bounds?.timer_max_ms;
  for (const [key] of TIMER_FIELDS) {
    if (most != null) $(`home-${key}`).max = String(Math.floor(most / 1000));
    else $(`home-${key}`).removeAttribute("max");
  }
  $("home-timers-hint").textContent = most == null ? t("home:create.timers.hint_unknown") : t("home:create.timers.hint", { max: number(most / 1000) });
  const limit = bounds?.tables_per_account;
  const full = limit != null && hosting >= limit;
  const count = $("host-count");
  count.hidden = limit == null;
  count.classList.toggle("at-cap", full);
  const counts = { count: limit, n: number(limit ?? 0), hosting: number(hosting) };
  if (limit === 0) count.textContent = t("home:host.count.none");
  else if (full) count.textContent = t("home:host.count.full", counts);
  else if (limit != null) count.textContent = hosting ? t("home:host.count.some", counts) : t("home:host.count.may", counts);
  $("host-open").disabled = full;
  $("host-submit").disabled = full || creating;
}

function buildForm() {
  $("home-way").replaceChildren(...HOUSE_WAYS.map(([v, words]) => el("option", { value: v, text: words })));
  $("home-timers").append(...TIMER_FIELDS.map(([key, words]) => el("div", { class: "field narrow" },
    el("label", { for: `home-${key}`, text: words }),
    el("input", { id: `home-${key}`, type: "number", min: "0", step: "1", inputmode: "numeric", autocomplete: "off",
      value: String(TIMER_DEFAULTS[key]), "aria-describedby": `home-timers-hint home-${key}-error` }),
    el("p", { class: "field-error", id: `home-${key}-error`, role: "alert" }))));
  for (const id of ["home-bank-in-turn", "home-banking"]) $(id).addEventListener("change", syncBanking);
  $("host-open").addEventListener("click", () => toggleForm($("host-form").hidden));
  $("host-cancel").addEventListener("click", () => toggleForm(false));
  $("host-form").addEventListener("submit", submitCreate);
  // A field's error goes once the player changes that field: what is left in red is still wrong.
  for (const kind of ["input", "change"]) $("host-form").addEventListener(kind, (ev) => clearField(ev.target));
  $("code-form").addEventListener("submit", submitCode);
  // Join is disabled in the page until now: a tap before this module ran would have sent the form as a
  // plain GET, reloading the lobby and losing the code typed (seen on a slow phone).
  $("join-code-submit").disabled = false;
}

function toggleForm(open) {
  $("host-form").hidden = !open;
  $("host-open").hidden = open; // the form has its own title and Cancel
  $("host-open").setAttribute("aria-expanded", String(open));
  if (open) {
    $("host-created").hidden = true;
    clearErrors($("host-form"));
    if (!$("home-name").value && session) $("home-name").value = t("home:create.name.default", { name: session.display_name }).slice(0, 40);
    $("home-name").focus();
  } else {
    $("host-open").focus();
  }
}

async function submitCreate(ev) {
  ev.preventDefault();
  const form = $("host-form");
  clearErrors(form);
  const body = readForm();
  if (!body || !session) return;
  creating = true;
  showBounds();
  try {
    const made = await createHomeTable(session.token, body);
    form.hidden = true;
    $("host-open").hidden = false;
    $("host-open").setAttribute("aria-expanded", "false");
    showCreated(made.table ?? { name: body.name, table_id: made.table_id }, made.table_id, made.invite);
    refreshMine();
  } catch (err) {
    const { input, error, text } = createRefusal(err, bounds);
    fieldError(input, text, error);
    // A bound or the count may have changed since the page read them: read them again.
    if (err.code === "INVALID_FIELD" || err.code === "HOME_TABLE_LIMIT") refreshMine();
  } finally {
    creating = false;
    showBounds();
  }
}

/** The table just made (or one picked from My home games): its invite, and the way in. */
function showCreated(table, tableId, invite) {
  $("host-created-title").textContent = t("home:created.title", { name: table.name });
  $("host-invite").replaceChildren(invite ? invitePanel({ invite, tableName: table.name, prefix: "invite",
    renew: async () => (await newInvite(session.token, tableId)).invite }) : el("p", { class: "hint", text: t("home:created.closed") }));
  $("host-go").href = `/table/?id=${encodeURIComponent(tableId)}`;
  $("host-created").hidden = false;
  $("host-created").focus();
}

function mineCard(game) {
  const seats = t("home:mine.seats", { taken: number(game.seats_taken ?? 0), seats: number(game.seats ?? 6) });
  const state = game.closed ? t("home:mine.closed") : game.paused ? t("home:mine.paused")
    : game.waiting ? t("home:mine.seats_waiting", { seats, count: game.waiting, n: number(game.waiting) }) : seats;
  const href = `/table/?id=${encodeURIComponent(game.table_id)}`;
  return el("article", { class: `home-card${game.closed ? " closed" : ""}`, "data-home-table": game.table_id },
    markName(el("h4", { text: game.name })),
    el("p", { class: "hint", text: t("home:mine.line", { limits: t("lobby:table.limits", { min: money(game.min_bet_cents), max: money(game.max_bet_cents) }),
      seating: game.seating === "approval" ? t("home:mine.seating.approval") : t("home:mine.seating.open"), state }) }),
    variantTagList(game, { classic: false }), // "House banks" when the host said players may not
    // A closed game with its own chips: its ledger and settle-up stay readable on its table page.
    game.closed ? (game.chips ? el("div", { class: "actions" },
      el("a", { class: "btn small secondary", href, "aria-label": t("home:mine.ledger.label", { name: game.name }), text: t("home:mine.ledger.button") })) : null)
      : el("div", { class: "actions" },
      el("a", { class: "btn small", href, "aria-label": t("home:mine.open.label", { name: game.name }), text: t("home:mine.open.button") }),
      game.invite ? el("button", { class: "btn small secondary", type: "button", "aria-label": t("home:mine.invite.label", { name: game.name }),
        text: t("home:mine.invite.button"), onclick: () => showCreated(game, game.table_id, game.invite) }) : null));
}

async function refreshMine() {
  if (!session?.registered) return;
  try {
    const data = await myHomeGames(session.token);
    const tables = data?.tables ?? [];
    bounds = { max_bet_cap_cents: data?.max_bet_cap_cents ?? null, timer_max_ms: data?.timer_max_ms ?? null,
      tables_per_account: data?.tables_per_account ?? null, max_buy_in_cap_cents: data?.max_buy_in_cap_cents ?? null };
    hosting = tables.filter((game) => !game.closed).length;
    showBounds();
    $("my-home-error").textContent = "";
    $("my-home-list").replaceChildren(...(tables.length ? tables.map(mineCard) : [el("p", { class: "empty", text: t("home:mine.none") })]));
    listed = session.token;
  } catch (err) {
    $("my-home-error").textContent = t("home:mine.failed", { reason: errorText(err) });
  }
}

async function submitCode(ev) {
  ev.preventDefault();
  const form = $("code-form");
  clearErrors(form);
  const typed = $("join-code").value.trim();
  // A pasted link works as well as its code.
  let code = shortCodeOf(typed);
  try {
    code ??= new URL(typed, location.origin).searchParams.get("invite");
  } catch { /* not a link */ }
  if (!code) return fieldError("join-code", t("home:join.empty"));
  const button = $("join-code-submit");
  button.disabled = true;
  try {
    await sessionKnown;
    const found = await resolveInvite(code, session?.token, { keep: true }); // for the table page, next
    location.assign(`/table/?id=${encodeURIComponent(found.table_id)}&invite=${encodeURIComponent(found.code)}`);
  } catch (err) {
    const { title, text, wait } = resolveRefusal(err);
    fieldError("join-code", t("home:join.refused", { title, text }));
    if (wait) {
      button.dataset.wait = "1"; // held for the seconds the server asked
      setTimeout(() => { button.disabled = false; delete button.dataset.wait; }, wait * 1000);
    }
  } finally {
    if (!button.dataset.wait) button.disabled = false;
  }
}

/** The lobby's session changed (signed in, out, kept): show what this player may do. */
export function homeSession(s) {
  session = s;
  sessionRead();
  const account = Boolean(s?.registered);
  $("host-needs-account").hidden = account;
  $("host-tools").hidden = !account;
  if (account && listed !== s.token) refreshMine();
  if (!account) {
    listed = null;
    $("host-form").hidden = true;
    $("host-created").hidden = true;
  }
}

buildForm();

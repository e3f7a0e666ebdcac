// The lobby: play as a guest with a display name (remembered), sign in or create an account, keep a guest
// account, sign out (here or everywhere); the tables (lobby_tables.js) and home games (lobby_home.js) below.

import {
  el, keepGuest, rememberedName, resumeSession, savedSession, signIn, signOut, signUp, startSession, takeEndedSession,
} from "./api.js";
import { adoptAccountLanguage, markName, money, t, translateDom } from "./i18n.js";
import { errorText } from "./errors.js";
import { languageMenu } from "./language_menu.js";
import { sentenceWith } from "./lobby_words.js";
import { parseCards } from "./cards.js";
import { cardElement, ensureCardDefs } from "./card_svg.js";
import { homeSession } from "./lobby_home.js";
import { myDataButton } from "./my_data.js";
import { refreshHelpNotice } from "./help_notice.js";
import { topUpSession } from "./top_up.js";
import { watchTables } from "./lobby_tables.js";

const $ = (id) => document.getElementById(id);
const form = $("name-form");
const input = $("display-name");
const signedOut = $("signed-out");
const signedIn = $("signed-in");
const who = $("who");
const notice = $("session-ended");
const keepForm = $("keep-form");
/** [tab, its panel, its form, the form's first field] */
const TABS = [["tab-guest", "panel-guest", "name-form", "display-name"],
  ["tab-signin", "panel-signin", "signin-form", "signin-username"],
  ["tab-signup", "panel-signup", "signup-form", "signup-username"]];
const USERNAME = /^[a-z0-9_.-]{3,24}$/;
const USERNAME_RULE = () => t("lobby:rule.username");
const PASSWORD_RULE = () => t("lobby:rule.password");
let session = null;
let sessionTimer = null;

function heroCards() {
  ensureCardDefs();
  const holder = $("hero-cards");
  parseCards("As Ks JK Qh Jd").forEach((c, i) => {
    const card = cardElement(c);
    card.style.left = `${i * 30}px`;
    card.style.transform = `rotate(${(i - 2) * 9}deg)`;
    holder.append(card);
  });
}


// ---- errors next to their fields ----

function clearErrors(formNode) {
  for (const p of formNode.querySelectorAll(".field-error")) p.textContent = "";
  for (const i of formNode.querySelectorAll("input")) i.removeAttribute("aria-invalid");
}

/** Show ``text`` under the field ``inputId`` (or in the form's own error line when ``inputId`` is null). */
function fieldError(formNode, inputId, text) {
  // The guest name's error line is "name-error" (the page's id), every other field's is "<field>-error".
  const target = inputId ? $(inputId === "display-name" ? "name-error" : `${inputId}-error`) : formNode.querySelector(".form-error");
  target.textContent = text;
  if (inputId) {
    $(inputId).setAttribute("aria-invalid", "true");
    $(inputId).focus();
  }
}

/** Where an API error goes in a form (``fields`` maps a role to that form's input id) and its words: the
 * refusal's own (errors.js), or the form's where it is about one of its fields. */
function placeError(err, fields) {
  switch (err.code) {
    case "BAD_CREDENTIALS": // the refusal's fields say how long the next try waits
    case "INVALID_PASSWORD": // the server says why: too short, too common, the username itself...
      return [fields.password, errorText(err)];
    case "SIGN_IN_BACKOFF": // never a lock: a device that signed in before is not held back by others' tries
      return [fields.password, t("lobby:signin.backoff", { count: err.retryAfter ?? 1 })];
    case "USERNAME_TAKEN":
      return [fields.username, t("lobby:signup.username_taken")];
    case "INVALID_USERNAME":
      return [fields.username, USERNAME_RULE()];
    case "INVALID_NAME":
      return [fields.display ?? null, errorText(err)];
    default:
      return [null, errorText(err?.code ? err : "NETWORK")];
  }
}

/** Hold the submit button for the seconds the server asked for (backoff, rate limit). */
function holdButton(button, wait) {
  if (!wait) return;
  button.disabled = true;
  button.dataset.held = "1";
  setTimeout(() => { button.disabled = false; delete button.dataset.held; }, wait * 1000);
}

function showApiError(formNode, button, err, fields) {
  const [inputId, text] = placeError(err, fields);
  fieldError(formNode, inputId && $(inputId) ? inputId : null, text);
  if (err.code === "SIGN_IN_BACKOFF" || err.code === "RATE_LIMITED") holdButton(button, err.retryAfter);
}

/** Client-side checks first, with the same words the server's codes get: the value, or null (shown). */
function check(formNode, inputId, value, problem) {
  if (!problem) return value;
  fieldError(formNode, inputId, problem);
  return null;
}

function checkUsername(formNode, inputId) {
  const value = $(inputId).value.trim().toLowerCase();
  return check(formNode, inputId, value, !value ? t("lobby:signin.username_empty") : USERNAME.test(value) ? null : USERNAME_RULE());
}

function checkNewPassword(formNode, inputId) {
  const value = $(inputId).value;
  return check(formNode, inputId, value, value.length < 8 || value.length > 128 || !value.trim() ? PASSWORD_RULE() : null);
}

function checkFilled(formNode, inputId) {
  const value = $(inputId).value;
  return check(formNode, inputId, value, value ? null : t("lobby:signin.password_empty"));
}

async function submitting(button, run) {
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    await run();
  } finally {
    button.removeAttribute("aria-busy");
    if (!button.dataset.held) button.disabled = false;
  }
}

// ---- tabs: guest, sign in, create account ----

function selectTab(tabId, { focus = false } = {}) {
  for (const [tab, panel, , first] of TABS) {
    const on = tab === tabId;
    $(tab).setAttribute("aria-selected", String(on));
    $(tab).tabIndex = on ? 0 : -1;
    $(panel).hidden = !on;
    if (on && focus) $(first).focus();
  }
}

function setupTabs() {
  TABS.forEach(([tab], i) => {
    $(tab).addEventListener("click", () => selectTab(tab));
    $(tab).addEventListener("keydown", (ev) => {
      const moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 };
      if (!(ev.key in moves)) return;
      ev.preventDefault();
      const next = TABS[(moves[ev.key] + TABS.length) % TABS.length][0];
      selectTab(next);
      $(next).focus();
    });
  });
}

// ---- signed in ----

function showSession() {
  clearInterval(sessionTimer);
  homeSession(session);
  topUpSession(session, balanceChanged);
  document.body.classList.toggle("signed-in", Boolean(session)); // lobby.css: the tables come first
  if (!session) {
    signedOut.hidden = false;
    signedIn.hidden = true;
    keepForm.hidden = true;
    who.textContent = "";
    return;
  }
  notice.hidden = true;
  signedOut.hidden = true;
  signedIn.hidden = false;
  const balance = el("span", { class: "balance", id: "balance", text: session.balance_cents == null ? "—" : money(session.balance_cents) });
  const name = el("strong", { text: session.display_name });
  $("who-line").replaceChildren(
    ...sentenceWith("lobby:who.playing_as", {}, { name: markName(name) }),
    session.registered ? el("span", { class: "account-name", text: ` ${t("lobby:who.signed_in_as", { username: session.username })}` })
      : el("span", { class: "tag", text: t("lobby:who.guest.tag") }),
    el("span", { class: "sep", "aria-hidden": "true", text: " · " }), ...sentenceWith("lobby:who.balance", {}, { balance }));
  const signOutButton = el("button", { class: "btn small secondary", type: "button", id: "sign-out", onclick: () => leave(false), text: t("lobby:sign_out.button") });
  const actions = session.registered
    ? [signOutButton, el("button", { class: "btn small secondary", type: "button", id: "sign-out-everywhere", onclick: () => leave(true),
      text: t("lobby:sign_out_everywhere.button") })]
    : [el("button", { class: "btn small", type: "button", id: "keep-open", "aria-expanded": String(!keepForm.hidden), "aria-controls": "keep-form",
      onclick: openKeep, text: t("lobby:keep.open.button") }), signOutButton];
  $("account-actions").replaceChildren(...actions, myDataButton($("account-error")));
  if (!session.registered) {
    $("account-actions").append(el("span", { class: "hint", text: t("lobby:guest.sign_out.hint") }));
  }
  who.textContent = session.registered ? `${session.display_name} · ${session.username}` : t("lobby:who.header.guest", { name: session.display_name });
  // A name and a username alone are the player's own words, in no language of the page's.
  if (session.registered) markName(who);
  else who.removeAttribute("lang");
  sessionTimer = setInterval(refreshSession, 15000);
}

function signedInAs(s) {
  session = s;
  // An account's saved language: the sign-in's JSON may not carry it, the session's does (asked at once).
  if (s.registered && !adoptAccountLanguage(s.language) && s.language === undefined) refreshSession();
  $("account-error").textContent = "";
  showSession();
  $("who-line").focus();
}

async function refreshSession() {
  try {
    const s = await resumeSession();
    if (s) {
      if (adoptAccountLanguage(s.language)) return;
      session = { ...session, ...s };
      const b = $("balance");
      if (b && session.balance_cents != null) b.textContent = money(session.balance_cents);
      topUpSession(session, balanceChanged);
    }
  } catch { /* shown again on the next refresh */ }
}

/** A free top-up was taken (top_up.js): the balance shown at once. */
function balanceChanged(cents) {
  if (session) session.balance_cents = cents;
  const b = $("balance");
  if (b) b.textContent = money(cents);
}

async function leave(everywhere) {
  const button = $(everywhere ? "sign-out-everywhere" : "sign-out");
  $("account-error").textContent = "";
  await submitting(button, async () => {
    try {
      const was = session;
      await signOut({ everywhere });
      session = null;
      showSession();
      showNotice(everywhere ? t("lobby:signed_out.everywhere") : t("lobby:signed_out"));
      refreshHelpNotice(); // the notice in force now, beside the sign-in forms
      if (was?.registered) {
        $("signin-username").value = was.username ?? "";
        selectTab("tab-signin", { focus: true });
      } else {
        selectTab("tab-guest", { focus: true });
      }
    } catch (err) {
      $("account-error").textContent = t("lobby:sign_out.failed", { reason: errorText(err) });
    }
  });
}

function openKeep() {
  if (!keepForm.hidden) {
    closeKeep();
    return;
  }
  keepForm.hidden = false;
  $("keep-open")?.setAttribute("aria-expanded", "true");
  clearErrors(keepForm);
  $("keep-username").focus();
}

function showNotice(text, kind = "info") {
  notice.textContent = text;
  notice.className = `notice ${kind}`;
  notice.hidden = false;
}

/** The server forgot our token (expired, or signed out elsewhere): say so, and offer the right way back. */
function sessionEnded(ended) {
  session = null;
  showSession();
  showNotice(ended?.registered ? t("lobby:session_ended.registered") : t("lobby:session_ended.guest"), "warn");
  if (ended.registered) {
    $("signin-username").value = ended.username ?? "";
    selectTab("tab-signin");
  } else {
    selectTab("tab-guest");
  }
}

// ---- the forms ----

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = input.value.trim();
  clearErrors(form);
  if (!name) {
    fieldError(form, "display-name", t("lobby:guest.name_empty"));
    return;
  }
  await submitting($("name-submit"), async () => {
    try {
      signedInAs(await startSession(name));
    } catch (err) {
      showApiError(form, $("name-submit"), err, { display: "display-name" });
    }
  });
});

/**
 * Wire one of the username-and-password forms (``prefix``: signin, signup, keep): its fields are
 * ``prefix-username``, ``prefix-password`` (and maybe ``prefix-display``), its button ``prefix-submit``.
 * ``run(username, password)`` calls the server; its errors land next to their fields.
 */
function credentialForm(prefix, { newPassword, run }) {
  const f = $(`${prefix}-form`);
  const button = $(`${prefix}-submit`);
  const fields = { username: `${prefix}-username`, password: `${prefix}-password`, display: `${prefix}-display` };
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors(f);
    // Every field's problem at once, the first one focused.
    const username = checkUsername(f, fields.username);
    const password = newPassword ? checkNewPassword(f, fields.password) : checkFilled(f, fields.password);
    if (username === null || password === null) {
      $(username === null ? fields.username : fields.password).focus();
      return;
    }
    await submitting(button, async () => {
      try {
        await run(username, password);
        $(fields.password).value = "";
      } catch (err) {
        showApiError(f, button, err, fields);
      }
    });
  });
}

credentialForm("signin", { newPassword: false, run: async (u, p) => signedInAs(await signIn(u, p)) });
credentialForm("signup", { newPassword: true,
  run: async (u, p) => signedInAs(await signUp(u, p, $("signup-display").value.trim())) });
credentialForm("keep", { newPassword: true, run: async (u, p) => {
  const kept = await keepGuest(u, p);
  keepForm.hidden = true;
  signedInAs({ ...session, ...kept });
  showNotice(t("lobby:keep.done", { username: kept.username }), "ok");
} });

function closeKeep() {
  keepForm.hidden = true;
  $("keep-open")?.setAttribute("aria-expanded", "false");
  $("keep-open")?.focus();
}

$("keep-cancel").addEventListener("click", closeKeep);

window.addEventListener("paigow:session-ended", (ev) => {
  takeEndedSession(); // shown here and now: not again on the next visit
  sessionEnded(ev.detail);
});

/** Sit is a link to the table: before a name (or an account) the form in front says what to do first. */
function canSit() {
  if (session) return true;
  const tab = TABS.find(([t]) => $(t).getAttribute("aria-selected") === "true") ?? TABS[0];
  const [, , formId, first] = tab;
  clearErrors($(formId));
  const words = { "name-form": t("lobby:sit_first.guest"), "signin-form": t("lobby:sit_first.signin"),
    "signup-form": t("lobby:sit_first.signup") };
  fieldError($(formId), first, words[formId]);
  return false;
}

async function init() {
  translateDom();
  languageMenu($("language-host"), () => savedSession()?.token);
  heroCards();
  setupTabs();
  refreshHelpNotice();
  if (!input.value) input.value = rememberedName();  // never over a name typed while the page was loading
  document.documentElement.dataset.ready = "1";  // its controls answer from now on (the browser tests wait for it)
  const ended = takeEndedSession(); // the table page noticed it
  try {
    session = await resumeSession();
    if (adoptAccountLanguage(session?.language)) return; // the page loads again in the account's language
  } catch (err) {
    $("name-error").textContent = errorText(err);
  }
  showSession();
  if (!session && ended) sessionEnded(ended);
  window.paigow = { get session() { return session; } };
  await watchTables(canSit);
}

// The account forms' buttons are disabled in the page until now (as Join is, lobby_home.js): a tap before this
// module ran (it waits for the language's catalog) would send the form as a plain GET and reload the lobby.
for (const id of ["name-submit", "signin-submit", "signup-submit", "keep-submit"]) $(id).disabled = false;
init();

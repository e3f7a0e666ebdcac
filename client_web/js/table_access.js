// Coming in by an invite (/table/?id=..&invite=CODE): the code is resolved first (POST /api/invites/resolve,
// which admits a signed-in player), and a player without a session enters a name right here. When the
// table refuses — an old or wrong code, a bar, too many tries, a private table without access, nobody may
// watch — one clear page says so instead of the table, with what to do.

import { el, startSession, rememberedName } from "./api.js";
import { errorText } from "./errors.js";
import { number, t } from "./i18n.js";
import { removedTitle, resolveInvite, resolveRefusal, untilText } from "./home_api.js";
import { CASH_OUT } from "./chips_words.js";

const $ = (id) => document.getElementById(id);
let typed = null; // what was typed survives the tray's next drawing

/** The name form of a visitor without a session: a guest session, then the same link again. */
export function joinForm(prefix = "join") {
  const input = el("input", { id: `${prefix}-name`, autocomplete: "nickname", maxlength: "24", value: typed ?? rememberedName(),
    "aria-describedby": `${prefix}-error` });
  input.addEventListener("input", () => { typed = input.value; });
  const error = el("p", { class: "field-error", id: `${prefix}-error`, role: "alert" });
  const button = el("button", { class: "btn", type: "submit", id: `${prefix}-submit`, text: t("home:join_form.play.button") });
  const form = el("form", { class: "join-form", id: `${prefix}-form`, novalidate: true },
    el("div", { class: "field" }, el("label", { for: `${prefix}-name`, text: t("home:join_form.name.label") }), input, error), button);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const name = input.value.trim();
    if (!name) {
      error.textContent = t("home:join_form.name_empty");
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      await startSession(name);
      location.reload(); // the same link, now with a session: the invite admits this player
    } catch (err) {
      error.textContent = errorText(err?.code ? err : "NETWORK");
      button.disabled = false;
    }
  });
  return form;
}

/** One page instead of the table: `title`, `text`, and what may be done (`actions`: nodes). */
export function showAccessPage(title, text, actions = []) {
  document.body.classList.add("refused");
  $("access-title").textContent = title;
  $("access-text").textContent = text;
  $("access-actions").replaceChildren(...actions, el("a", { class: "btn secondary", href: "/", id: "access-lobby", text: t("home:access.lobby.button") }));
  $("access-page").hidden = false;
  document.title = t("home:access.page_title", { title });
  $("access-page").focus();
}

/** "Try again" held back for the seconds the server asked, counting down. */
function retryButton(wait) {
  const button = el("button", { class: "btn", type: "button", id: "access-retry", disabled: true, onclick: () => location.reload() });
  let left = wait;
  const tick = () => {
    button.textContent = left > 0 ? t("home:access.retry.wait", { count: left, n: number(left) }) : t("home:access.retry.button");
    button.disabled = left > 0;
    left -= 1;
    if (left >= 0) setTimeout(tick, 1000);
  };
  tick();
  return button;
}

/**
 * Resolve the link's code: its answer ({table_id, name, host_name, ..., code, admitted}), or null once the
 * refusal page is shown. A code that names another table than the link's id is refused the same way.
 */
export async function admitByInvite(code, tableId, token) {
  try {
    const found = await resolveInvite(code, token);
    if (found.table_id !== tableId) throw Object.assign(new Error("another table"), { code: "INVITE_NOT_FOUND" });
    return found;
  } catch (err) {
    // A code that no longer works (replaced, or the table closed) may still be a player's way back to a table
    // that admitted them (its ledger and settle-up stay readable): the table is asked without it, and says no
    // (its page then) to anyone else.
    if (err.code === "INVITE_NOT_FOUND" && token) return { code: null };
    const { title, text, wait } = resolveRefusal(err);
    showAccessPage(title, text, wait ? [retryButton(wait)] : []);
    return null;
  }
}

/** A hello refused, or a removed player's connection closed (the error before the close 4403): its page.
 * `hadInvite`: the link carried a code; `removed`: "stood" (stood up just now) or "leaving" (after the round).
 * A BARRED error says who barred the player (`by`: "host" or "operator"), and so does the page. */
export function showHelloRefusal(error, { hadInvite, session, removed = null, chips = false, cashedOut = null }) {
  if (error?.code === "BARRED") {
    // Said at once to a player the host has just removed (their connection is closed), or at a later hello.
    // What became of the chips (at a home game's own chips: the stack) and when they may come back, one text each.
    const when = error.until_ms ? untilText(error.until_ms) : null;
    const [later, now] = { stood: ["home:removed.stood.not_before", "home:removed.stood.not_now"],
      leaving: ["home:removed.leaving.not_before", "home:removed.leaving.not_now"] }[removed] ?? ["home:barred.not_before.link", "home:barred.not_now"];
    const text = (chips && CASH_OUT.removedText(removed, cashedOut, when)) || (when ? t(later, { when }) : t(now));
    showAccessPage(removedTitle(error.by), text);
  } else if (error?.code === "SPECTATORS_OFF" && hadInvite) { // without a code, a name would not help
    showAccessPage(t("home:access.no_watching.title"), session ? t("home:access.no_watching.signed_in")
      : t("home:access.no_watching.guest"), session ? [] : [joinForm("refused-join")]);
  } else if (hadInvite) {
    showAccessPage(t("home:access.invite_gone.title"), t("home:access.invite_gone.text"));
  } else {
    showAccessPage(t("home:access.private.title"), t("home:access.private.text"));
  }
}

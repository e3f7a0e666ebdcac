// Coming in by an invite (/table/?id=..&invite=CODE): the code is resolved first (POST /api/invites/resolve,
// which admits a signed-in player), and a player without a session enters a name right here. When the
// table refuses — an old or wrong code, a bar, too many tries, a private table without access, nobody may
// watch — one clear page says so instead of the table, with what to do.

import { el, seconds, startSession, rememberedName, sentence } from "./api.js";
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
  const button = el("button", { class: "btn", type: "submit", id: `${prefix}-submit`, text: "Play" });
  const form = el("form", { class: "join-form", id: `${prefix}-form`, novalidate: true },
    el("div", { class: "field" }, el("label", { for: `${prefix}-name`, text: "Your name (what the others see)" }), input, error), button);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const name = input.value.trim();
    if (!name) {
      error.textContent = "Enter the name the others will see.";
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      await startSession(name);
      location.reload(); // the same link, now with a session: the invite admits this player
    } catch (err) {
      error.textContent = sentence(err.message);
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
  $("access-actions").replaceChildren(...actions, el("a", { class: "btn secondary", href: "/", id: "access-lobby", text: "Go to the lobby" }));
  $("access-page").hidden = false;
  document.title = `${title} — Pai Gow Poker`;
  $("access-page").focus();
}

/** "Try again" held back for the seconds the server asked, counting down. */
function retryButton(wait) {
  const button = el("button", { class: "btn", type: "button", id: "access-retry", disabled: true, onclick: () => location.reload() });
  let left = wait;
  const tick = () => {
    button.textContent = left > 0 ? `Try again in ${seconds(left)}` : "Try again";
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
    const back = chips ? { stood: cashedOut == null ? CASH_OUT.removedPage : `${CASH_OUT.you(cashedOut)} `, leaving: CASH_OUT.removedLeaving }[removed] ?? ""
      : { stood: "Your chips went back to your balance. ",
        leaving: "Your hand in play is played out; then your chips go back to your balance. " }[removed] ?? "";
    showAccessPage(removedTitle(error.by),
      `${back}${error.until_ms ? `You may not come back before ${untilText(error.until_ms)}, not even with the link.` : "You may not come back for now."}`);
  } else if (error?.code === "SPECTATORS_OFF" && hadInvite) { // without a code, a name would not help
    showAccessPage("Nobody may watch this table", session ? "The host lets nobody watch. Open the host's link while signed in to play."
      : "The host lets nobody watch: enter your name to play at it.", session ? [] : [joinForm("refused-join")]);
  } else if (hadInvite) {
    showAccessPage("This invite does not work any more", "The host made a new link, or the table has closed. Ask the host for a new one.");
  } else {
    showAccessPage("This table is private", "Only people the host invites come in: ask the host for the link, or type their six-letter code in the lobby.");
  }
}

// The reality check's card (docs/responsible-play.md): the server sends `reality_check` only between the
// player's rounds, every so many minutes of the session. The card is not modal and never covers the act
// clock or the hand controls (css/responsible.css: over the table's bottom-left corner on a wide screen,
// above the table on a phone); it stays until the player answers: Keep playing, History (the History
// panel) or Leave table (the normal `leave`: at the round's end when a round is under way).

import { el } from "./api.js";
import { money, t } from "./i18n.js";
import { durationText } from "./play_session.js";

const NARROW = window.matchMedia("(max-width: 760px)");

/** The card goes first in `narrow` (a phone: the page's .table-main, above the table) or into `wide` (the
 * table's stage, over its bottom-left corner); `openHistory` and `leave` are the page's. */
export function installRealityCheck({ narrow, wide }, { openHistory, leave }) {
  let card = null;
  const close = () => { card?.remove(); card = null; };
  const answer = (then) => () => { close(); then?.(); };
  function show(msg) {
    close();
    card = el("section", { class: "reality-check panel", id: "reality-check", role: "dialog", "aria-modal": "false", "aria-labelledby": "reality-check-title" },
      el("h2", { id: "reality-check-title", text: t("table:check.title") }),
      el("p", { id: "reality-check-text", text: t("table:check.text", { duration: durationText(msg.elapsed_ms), net: money(msg.net_cents, { sign: true }).replace(/^([+−])/, "$1\u2060") }) }), // the sign never apart
      el("p", { class: "hint", text: t("table:check.wagered", { amount: money(msg.wagered_cents) }) }),
      el("div", { class: "buttons" },
        el("button", { class: "btn small", type: "button", id: "check-keep", text: t("table:check.keep.button"), onclick: answer(null) }),
        el("button", { class: "btn small secondary", type: "button", id: "check-history", text: t("table:history.button"), onclick: answer(openHistory) }),
        el("button", { class: "btn small secondary", type: "button", id: "check-leave", text: t("table:leave.button"), onclick: answer(leave) })));
    (NARROW.matches ? narrow : wide).prepend(card);
    if (document.activeElement === document.body) card.querySelector("#check-keep").focus({ preventScroll: true });
  }
  return {
    onMessage(msg) {
      if (msg.type !== "reality_check") return false;
      show(msg);
      return true;
    },
  };
}

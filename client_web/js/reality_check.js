// The reality check's card (docs/responsible-play.md): the server sends `reality_check` only between the
// player's rounds, every so many minutes of the session. The card is not modal and never covers the act
// clock or the hand controls (css/responsible.css: at the top of the table's area, beside them on a wide
// screen, above them on a phone); it stays until the player answers: Keep playing, History (the History
// panel) or Leave table (the normal `leave`: at the round's end when a round is under way).

import { el } from "./api.js";
import { money, t } from "./i18n.js";
import { durationText } from "./play_session.js";

/** The card goes first in `host` (the page's .table-main); `openHistory` and `leave` are the page's. */
export function installRealityCheck(host, { openHistory, leave }) {
  let card = null;
  const close = () => { card?.remove(); card = null; };
  const answer = (then) => () => { close(); then?.(); };
  function show(msg) {
    close();
    card = el("section", { class: "reality-check panel", id: "reality-check", role: "dialog", "aria-modal": "false", "aria-labelledby": "reality-check-title" },
      el("h2", { id: "reality-check-title", text: t("table:check.title") }),
      el("p", { id: "reality-check-text", text: t("table:check.text", { duration: durationText(msg.elapsed_ms), net: money(msg.net_cents, { sign: true }) }) }),
      el("p", { class: "hint", text: t("table:check.wagered", { amount: money(msg.wagered_cents) }) }),
      el("div", { class: "buttons" },
        el("button", { class: "btn small", type: "button", id: "check-keep", text: t("table:check.keep.button"), onclick: answer(null) }),
        el("button", { class: "btn small secondary", type: "button", id: "check-history", text: t("table:history.button"), onclick: answer(openHistory) }),
        el("button", { class: "btn small secondary", type: "button", id: "check-leave", text: t("table:leave.button"), onclick: answer(leave) })));
    host.prepend(card);
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

// The clock you must act on (answer the bank, bet, set your hand): what it asks of you, what its end
// does to you, and that no modal dialog hides it (the table page calls these on every drawing).

import { el } from "./api.js";
import { t } from "./i18n.js";

/** The running deadline asks something of you (answer the bank, bet, set your hand): no dialog may be
 * modal over it. */
export function mustAct(view, ctx) {
  const you = view.you;
  if (!you || ctx.role !== "player" || view.deadline_ms == null || view.paused) return false;
  if (view.deadline_kind === "setting") {
    const h = view.round?.hands?.find((x) => x.position === you.position);
    return Boolean(h && h.cards.length && !h.is_set);
  }
  if (view.deadline_kind === "bank_offer") return Boolean(you.offered_bank);
  return view.deadline_kind === "betting" && Boolean(you.can?.bet) && !you.bet_cents;
}

/** What the running deadline does to you when it passes, as its kind ("setting": the House Way sets your hand,
 * "bank_offer": the house banks, "bank_turn": the bank passes on, "betting": the cards are dealt without you;
 * the page words it: `table:hurry.<kind>`), null: nothing you must do before it. */
export function deadlineStakes(view, ctx) {
  if (!mustAct(view, ctx)) return null;
  if (view.deadline_kind === "setting") return "setting";
  if (view.deadline_kind === "bank_offer") return view.rules.players_bank_in_turn ? "bank_turn" : "bank_offer";
  // With no bet at the table the betting clock's end deals nothing: the table waits for the first bet.
  return view.seats.some((s) => s?.bet_cents) ? "betting" : null;
}

const NEEDS = { setting: "table:dialog.need.setting", bank_offer: "table:dialog.need.bank_offer", betting: "table:dialog.need.betting" };
// Where the way back to the table puts the focus: the control that answers what the clock asks.
const ACTION = { setting: "[data-panel='setter'] button", bank_offer: "#accept-bank", betting: "#bet-amount" };

/** The bar at the top of an open dialog: the clock you must act on, and the way to the table. */
function actBar(d, ctx) {
  const go = el("button", { class: "btn small", type: "button", "data-dialog-go": "1", text: t("table:dialog.go.button") });
  const bar = el("div", { class: "dialog-act", "data-dialog-act": "1", hidden: true },
    el("p", { class: "visually-hidden", "data-dialog-need": "1", "aria-live": "polite" }),
    el("span", { class: "dialog-clock", "data-dialog-clock": "1", role: "timer" }), go);
  go.addEventListener("click", () => {
    const kind = ctx.view?.deadline_kind;
    // The dialog is folded, not emptied: what it showed and what was typed in it are there when it opens again
    // (host_panel.js keeps a folded dialog's fields).
    d.dataset.folded = "1";
    d.addEventListener("close", () => {
      const target = document.querySelector(ACTION[kind] ?? "#tray button") ?? document.querySelector("#tray button");
      target?.focus();
    }, { once: true });
    d.close();
  });
  return bar;
}

/**
 * No dialog hides a clock you must act on, and none closes by itself: while one runs (the bank offered to
 * you, betting open to you, your hand dealt) every open dialog (the coach, the history, the host's, the pay
 * table, a confirmation) keeps its content and what was typed in it, and shows at its top what the clock
 * asks, the seconds left (table_app.js ticks them) and "Go to the table", which closes it and puts the focus
 * on the control that answers. The need is said once, politely, in the dialog (outside it a modal's page is
 * inert to a screen reader).
 */
export function unblockClock(view, ctx) {
  const act = mustAct(view, ctx);
  const key = act ? `${view.round?.round_id}:${view.deadline_kind}` : null;
  for (const d of document.querySelectorAll("dialog[open]")) {
    if (d.id === "sit-dialog") continue;
    let bar = d.querySelector("[data-dialog-act]");
    if (!bar) {
      bar = actBar(d, ctx);
      const head = d.querySelector(".dialog-head");
      if (head && head.parentElement === d) head.after(bar);
      else d.prepend(bar);
    }
    bar.hidden = !act;
    if (bar.dataset.key !== (key ?? "")) {
      bar.dataset.key = key ?? "";
      const need = bar.querySelector("[data-dialog-need]");
      // Said after the live region is in the page (a region filled as it is added is not always read).
      setTimeout(() => { need.textContent = act ? t(NEEDS[view.deadline_kind]) : ""; }, 100);
    }
  }
}

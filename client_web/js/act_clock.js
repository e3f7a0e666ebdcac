// The clock you must act on (answer the bank, bet, set your hand): what it asks of you, what its end
// does to you, and that no modal dialog hides it (the table page calls these on every drawing).

import { el, toast } from "./api.js";

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

/** What the running deadline does to you when it passes (null: nothing you must do before it). */
export function deadlineStakes(view, ctx) {
  if (!mustAct(view, ctx)) return null;
  if (view.deadline_kind === "setting") return "then the House Way sets your hand";
  if (view.deadline_kind === "bank_offer") return "then the house banks";
  // With no bet at the table the betting clock's end deals nothing: the table waits for the first bet.
  return view.seats.some((s) => s?.bet_cents) ? "then the cards are dealt without you" : null;
}

/**
 * No dialog hides a clock you must act on: when one starts (the bank offered to you, betting open to you,
 * your hand dealt) the modal dialogs (the coach, the history) close and say why, and a dialog opened while
 * it runs shows the clock in its head. The coach stays one tap away beside the last round's result.
 */
export function unblockClock(view, ctx) {
  const key = mustAct(view, ctx) ? `${view.round?.round_id}:${view.deadline_kind}` : null;
  const started = key !== null && key !== ctx.mustActKey;
  ctx.mustActKey = key;
  const open = [...document.querySelectorAll("dialog[open]")].filter((d) => d.id !== "sit-dialog");
  if (started && open.length) {
    for (const d of open) d.close();
    const what = { setting: "your hand is dealt", bank_offer: "the bank is offered to you", betting: "betting is open" }[view.deadline_kind];
    toast(`Closed so that you can act: ${what}.`, "warn");
    return;
  }
  for (const d of open) {
    const head = d.querySelector(".dialog-head");
    if (head && !head.querySelector(".dialog-clock")) head.append(el("span", { class: "dialog-clock", "data-dialog-clock": "1", role: "timer" }));
  }
}

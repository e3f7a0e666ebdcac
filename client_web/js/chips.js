// Casino chips drawn with CSS: a stack for an amount, and the denominations offered for betting.

import { el, money } from "./api.js";
import { t } from "./i18n.js";

export const DENOMINATIONS = [100000, 50000, 10000, 2500, 500, 100];

export function chipLabel(cents) {
  return cents >= 100000 ? `${cents / 100000}K` : `${cents / 100}`;
}

/** A stack of at most six chips making up (roughly) the amount, with the amount beside it (`label`: the key of
 * a sentence with `{{amount}}` that says what the amount is). */
export function chipStack(cents, { label = "", title = "" } = {}) {
  const chips = [];
  let left = cents;
  for (const d of DENOMINATIONS) {
    while (left >= d && chips.length < 6) {
      chips.push(d);
      left -= d;
    }
  }
  if (chips.length === 0) chips.push(100);
  const stack = el("span", { class: "chip-stack", "aria-hidden": "true" },
    chips.reverse().map((d, i) => {
      const c = el("span", { class: `chip v${d}`, text: i === chips.length - 1 ? chipLabel(d) : "" });
      c.style.top = `${-i * 3}px`;
      return c;
    }));
  return el("span", { class: "bet-spot", title: title || null }, stack,
    el("span", { class: label ? "bet-amount labelled" : "bet-amount", text: label ? t(label, { amount: money(cents) }) : money(cents) }));
}

/** The chips still behind the seat at `position` (the view's `seat`): less its bet, Fortune bonus, Queen's
 * Dragon and a Dragon wager it placed, which are on the table. */
export function chipsBehind(view, seat, position) {
  const dragon = view.round?.dragon;
  return seat.chips_cents - (seat.bet_cents ?? 0) - (seat.bonus_cents ?? 0) - (seat.queens_dragon_cents ?? 0)
    - (dragon?.buyer_position === position ? dragon.wager_cents : 0);
}

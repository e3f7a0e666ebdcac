// Three dice: faces as pips, a visible roll, then the count around the table to the first hand.

import { el } from "./api.js";
import { t } from "./i18n.js";

const FACES = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

export function dieElement(value, rolling = false) {
  const pips = Array.from({ length: 9 }, (_, i) => el("i", { class: FACES[value]?.includes(i) ? "on" : "" }));
  return el("span", { class: `die${rolling ? " rolling" : ""}`, role: "img", "aria-label": rolling ? t("table:die.rolling") : t("table:die.showing", { value }) }, pips);
}

/** Show the dice still (no animation). */
export function showDice(holder, dice) {
  if (!dice) {
    holder.replaceChildren();
    return;
  }
  const total = dice[0] + dice[1] + dice[2];
  holder.replaceChildren(...dice.map((d) => dieElement(d)), el("span", { class: "dice-total", text: t("table:dice.total", { total }) }));
  holder.dataset.dice = dice.join("-");
}

/**
 * Roll the dice visibly, then count positions counterclockwise from the banker (counted as 1) to the total.
 * hooks.step(position) highlights a position while counting; resolves when the count stops.
 */
export function rollDice(holder, dice, bankerPosition, hooks) {
  return new Promise((resolve) => {
    holder.dataset.dice = dice.join("-");
    let faces = 0;
    const spin = setInterval(() => {
      faces += 1;
      holder.replaceChildren(...[0, 1, 2].map(() => dieElement(1 + Math.floor(Math.random() * 6), true)));
      hooks.sound?.("dice");
    }, 90);
    setTimeout(() => {
      clearInterval(spin);
      showDice(holder, dice);
      const total = dice[0] + dice[1] + dice[2];
      let n = 0;
      const count = setInterval(() => {
        hooks.step((bankerPosition + n) % 7, n + 1);
        n += 1;
        if (n >= total) {
          clearInterval(count);
          setTimeout(resolve, 350);
        }
      }, 95);
    }, 900);
    void faces;
  });
}

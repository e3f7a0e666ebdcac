// The casino variants at the table (docs/rules.md §4a-§4c), read from the view and `you.can` (the table's
// own checks): the commission-free form and its barred-dealer push, why the Queen's Dragon (a row of the
// side bets beside the bet, side_bets.js) is not offered while a player banks, the Dragon hand's offer (take or pass, with its clock), the Dragon its buyer sets, and
// co-banking ("co-banking with the house, half each").

import { el, money, parseMoney } from "./api.js";
import { positionName } from "./table_render.js";
import { cardGlyphs, cardLabel, toCard } from "./cards.js";
import { barredPush } from "./variant_results.js";
import { PUSH_RULE } from "./variant_tags.js";

// The rule in one sentence (its words the lobby's tags' too: variant_tags.js), what the barred hand is
// (wider screens only: variants.css; the showdown that has one says it), and, on every screen, that a
// round a player banks is commissioned (the money lines say it too: variant_results.js commissionWhy).
const FORMS = {
  ez: [`EZ Pai Gow: ${PUSH_RULE.ez}.`, " (No pair, straight or flush, and a queen the highest card.)"],
  nine_high: [`Commission-free: ${PUSH_RULE.nine_high}.`, " (The dealer's House Way low hand.)"],
};
const PLAYER_BANKS = " A player who banks plays the usual rules.";

function glyphs(texts) {
  return texts.map((t) => cardGlyphs(toCard(t))).join(" ");
}

const names = new Intl.ListFormat("en", { type: "conjunction" });

/** The Dragon offer as others wait on it, in a player's words: what the hand is, that it goes round the
 * players in turn, and who holds the offer now (after whom, when some passed). */
function dragonWaitText(view, dragon, me) {
  const who = (p) => (me && view.seats[p]?.player_id === me ? "you" : positionName(view, p));
  const to = dragon.offered_player_id ? who(dragon.offered_seat) : null;
  const passed = names.format(dragon.passed.map(who));
  if (!to) return "The Dragon hand, the cards of a seat nobody plays, is offered to no one this round.";
  if (!dragon.passed.length) {
    return `The Dragon hand is offered to ${to}: the cards of a seat nobody plays, a second hand against the bank, offered to each player in turn.`;
  }
  return `The Dragon hand is offered to ${to} now that ${passed} passed: the cards of a seat nobody plays, a second hand against the bank, offered to each player in turn.`;
}

/** Adds the variants' actions to ctx (ctx.act sends a command and shows its error under `key`). */
export function installVariants(ctx) {
  Object.assign(ctx, {
    takeDragon() {
      const input = document.getElementById("dragon-amount");
      const cents = input ? parseMoney(input.value) : null;
      if (cents === null || cents <= 0) { ctx.ui.errors.dragon = "Enter the Dragon wager in dollars."; ctx.rerender(); return null; }
      return ctx.act("dragon", { type: "take_dragon", amount_cents: cents });
    },
    passDragon() { return ctx.act("dragon", { type: "pass_dragon" }); },
    setDragon() { return ctx.act("dragon", { type: "set_dragon", low: [] }); },
    pickDragonCard(text) {
      const low = ctx.ui.dragonLow ?? [];
      ctx.ui.dragonLow = low.includes(text) ? low.filter((t) => t !== text) : [...low, text].slice(-2);
      ctx.ui.errors.dragon = "";
      ctx.rerender();
    },
    setDragonLow() { return ctx.act("dragon", { type: "set_dragon", low: ctx.ui.dragonLow ?? [] }); },
    coBank() { return ctx.act("bank", { type: "accept_bank", co_bank: true }); },
  });
}

function line(text, cls = "variant-note") {
  return el("p", { class: cls, text });
}

function errorLine(ctx, key) {
  const text = ctx.ui.errors[key];
  return text ? el("p", { class: "field-error", id: `${key}-error`, role: "alert", text }) : null;
}

/** What the table plays of the variants, and what you may do about them now. */
export function variantNodes(view, ctx) {
  const rules = view.rules;
  const rnd = view.round;
  const you = view.you;
  const can = you?.can ?? {};
  const out = [];
  const form = FORMS[rules.commission_form];
  if (form) out.push(el("p", { class: "variant-note variant-form" }, form[0], el("span", { class: "variant-more", text: form[1] }), el("span", { class: "variant-banks", text: PLAYER_BANKS })));
  if (rules.co_banking && rnd?.co_banked) {
    out.push(line(`${positionName(view, rnd.banker_position)} is co-banking with the house, half each: each covers half of every wager, and the commission is on the co-banker's half.`, "variant-note variant-cobank"));
  }
  if (can.co_bank) {
    out.push(el("div", { class: "variant-row" },
      el("button", { class: "btn", type: "button", id: "co-bank", onclick: () => ctx.coBank() }, "Co-bank with the house (half each)"),
      line("Or take the bank alone, or decline it, below. A co-banker's hand is set by the House Way.")));
    const err = errorLine(ctx, "bank");
    if (err) out.push(err);
  }
  if (rules.queens_dragon_enabled && view.phase === "betting" && rnd?.banker_position) {
    out.push(line("The Queen's Dragon is a bet on the house dealer's hand: not offered while a player banks."));
  }
  // Once betting is over (while it lasts the row above shows the bet in its field).
  if (you?.queens_dragon_cents && !(view.phase === "betting" && can.queens_dragon)) {
    out.push(line(`Your Queen's Dragon: ${money(you.queens_dragon_cents)}`, "variant-note variant-qd"));
  }
  const dragon = rnd?.dragon;
  if (view.phase === "dragon_offer" && dragon) {
    if (can.dragon) {
      const r = can.dragon;
      out.push(el("div", { class: "variant-row dragon-offer", role: "group", "aria-label": "The Dragon hand" },
        el("p", { class: "variant-title", text: "The Dragon hand is offered to you" }),
        el("p", { class: "variant-note", text: `A second hand, played against the bank with a second wager (${money(r.min_cents)}–${money(r.max_cents)}). ${rules.dragon_set_by === "buyer" ? "You set it yourself." : "The House Way sets it; you see it at the showdown."}` }),
        el("span", { class: "dragon-clock", "data-countdown": "1" }),
        el("label", { for: "dragon-amount", text: "Dragon wager" }),
        el("input", { id: "dragon-amount", inputmode: "decimal", autocomplete: "off", value: String(r.max_cents / 100) }),
        el("div", { class: "buttons" },
          el("button", { class: "btn", type: "button", id: "dragon-take", onclick: () => ctx.takeDragon() }, "Take the Dragon"),
          el("button", { class: "btn secondary", type: "button", id: "dragon-pass", onclick: () => ctx.passDragon() }, "Pass"))));
    } else {
      out.push(line(dragonWaitText(view, dragon, ctx.playerId), "variant-note dragon-wait"));
    }
    const err = errorLine(ctx, "dragon");
    if (err) out.push(err);
  } else if (dragon?.buyer_player_id && rnd) {
    const mine = dragon.buyer_player_id === ctx.playerId;
    out.push(line(`${mine ? "You play" : `${positionName(view, dragon.buyer_position)} plays`} the Dragon hand (${money(dragon.wager_cents)})${dragon.set_by_buyer ? "" : ", set by the House Way: seen at the showdown"}.`, "variant-note dragon-bought"));
    if (mine && you?.dragon && can.set_dragon) {
      const picked = (ctx.ui.dragonLow ?? []).filter((t) => you.dragon.cards.includes(t));
      out.push(el("div", { class: "variant-row", role: "group", "aria-label": "Your Dragon hand" },
        el("span", { class: "variant-note", text: you.dragon.is_set ? `Your Dragon is set: low ${glyphs(you.dragon.low)}, high ${glyphs(you.dragon.high)}. You may set it again until the showdown.` : "Your Dragon: pick its two low cards, or let the House Way set it." }),
        el("div", { class: "dragon-cards" }, ...you.dragon.cards.map((t) => el("button", {
          class: `btn small dragon-card${picked.includes(t) ? " picked" : ""}${/[hd]$/.test(t) ? " red" : ""}`, type: "button", "data-dragon-card": t,
          "aria-pressed": picked.includes(t) ? "true" : "false", "aria-label": cardLabel(toCard(t)), onclick: () => ctx.pickDragonCard(t) }, cardGlyphs(toCard(t))))),
        el("button", { class: "btn small", type: "button", id: "dragon-set-low", disabled: picked.length !== 2, onclick: () => ctx.setDragonLow() }, "Set these two as the Dragon's low hand"),
        el("button", { class: "btn small secondary", type: "button", id: "dragon-set", onclick: () => ctx.setDragon() }, "House Way for the Dragon")));
      const err = errorLine(ctx, "dragon");
      if (err) out.push(err);
    }
  }
  const shown = !rnd ? ctx.showdown : null;
  if (shown?.dealer_barred) {
    out.push(line(`Every wager ${barredPush(shown)} (the price of no commission).`, "variant-note variant-barred"));
  }
  return out;
}

/** Draws the variants' panel (hidden when the table plays none of them and nothing is to be said). */
export function renderVariants(node, view, ctx) {
  if (!node) return;
  const nodes = variantNodes(view, ctx);
  const focused = document.activeElement?.id;
  const typed = {};
  for (const id of ["dragon-amount"]) {
    const input = document.getElementById(id);
    if (input && input === document.activeElement) typed[id] = input.value;
  }
  node.replaceChildren(...nodes);
  node.hidden = nodes.length === 0;
  for (const [id, value] of Object.entries(typed)) {
    const input = document.getElementById(id);
    if (input) input.value = value;
  }
  if (focused && !document.activeElement?.id) document.getElementById(focused)?.focus();
}

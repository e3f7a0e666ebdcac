// The casino variants at the table (docs/rules.md §4a-§4c), read from the view and `you.can` (the table's
// own checks): the commission-free form and its barred-dealer push, why the Queen's Dragon (a row of the
// side bets beside the bet, side_bets.js) is not offered while a player banks, the Dragon hand's offer (take or pass, with its clock), the Dragon its buyer sets, and
// co-banking ("co-banking with the house, half each").

import { el, parseMoney } from "./api.js";
import { listAnd, money, t } from "./i18n.js";
import { positionName } from "./table_render.js";
import { cardGlyphs, cardLabel, toCard } from "./cards.js";
import { barredWhy } from "./variant_results.js";

// The rule in one sentence, what the barred hand is
// (wider screens only: variants.css; the showdown that has one says it), and, on every screen, that a
// round a player banks is commissioned (the money lines say it too: variant_results.js commissionWhy).
const FORMS = new Set(["ez", "nine_high"]);

function glyphs(texts) {
  return texts.map((t) => cardGlyphs(toCard(t))).join(" ");
}

/** The Dragon offer as others wait on it, in a player's words: what the hand is, that it goes round the
 * players in turn, and who holds the offer now (after whom, when some passed). */
function dragonWaitText(view, dragon, me) {
  const isMe = (p) => Boolean(me) && view.seats[p]?.player_id === me;
  const who = (p) => (isMe(p) ? t("showdown:variants.you") : positionName(view, p));
  if (!dragon.offered_player_id) return t("showdown:variants.dragon_wait.none");
  const whose = isMe(dragon.offered_seat) ? "you" : "other";
  const name = positionName(view, dragon.offered_seat);
  if (!dragon.passed.length) return t(`showdown:variants.dragon_wait.${whose}`, { name });
  return t(`showdown:variants.dragon_wait.${whose}_after`, { name, passed: listAnd(dragon.passed.map(who)) });
}

/** Adds the variants' actions to ctx (ctx.act sends a command and shows its error under `key`). */
export function installVariants(ctx) {
  Object.assign(ctx, {
    takeDragon() {
      const input = document.getElementById("dragon-amount");
      const cents = input ? parseMoney(input.value) : null;
      if (cents === null || cents <= 0) { ctx.ui.errors.dragon = t("showdown:variants.dragon.enter_wager"); ctx.rerender(); return null; }
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
  const form = FORMS.has(rules.commission_form) ? rules.commission_form : null;
  if (form) {
    out.push(el("p", { class: "variant-note variant-form" }, t(`showdown:variants.form.${form}`),
      el("span", { class: "variant-more", text: ` ${t(`showdown:variants.form_more.${form}`)}` }),
      el("span", { class: "variant-banks", text: ` ${t("showdown:variants.player_banks")}` })));
  }
  if (rules.co_banking && rnd?.co_banked) {
    out.push(line(t("showdown:variants.co_banking", { name: positionName(view, rnd.banker_position) }), "variant-note variant-cobank"));
  }
  if (can.co_bank) {
    out.push(el("div", { class: "variant-row" },
      el("button", { class: "btn", type: "button", id: "co-bank", onclick: () => ctx.coBank() }, t("showdown:variants.co_bank.button")),
      line(t("showdown:variants.co_bank.hint"))));
    const err = errorLine(ctx, "bank");
    if (err) out.push(err);
  }
  if (rules.queens_dragon_enabled && view.phase === "betting" && rnd?.banker_position) {
    out.push(line(t("showdown:variants.qd_not_offered")));
  }
  // Once betting is over (while it lasts the row above shows the bet in its field).
  if (you?.queens_dragon_cents && !(view.phase === "betting" && can.queens_dragon)) {
    out.push(line(t("showdown:variants.qd_yours", { amount: money(you.queens_dragon_cents) }), "variant-note variant-qd"));
  }
  const dragon = rnd?.dragon;
  if (view.phase === "dragon_offer" && dragon) {
    if (can.dragon) {
      const r = can.dragon;
      out.push(el("div", { class: "variant-row dragon-offer", role: "group", "aria-label": t("showdown:variants.dragon.group") },
        el("p", { class: "variant-title", text: t("showdown:variants.dragon.offer_title") }),
        el("p", { class: "variant-note", text: t(rules.dragon_set_by === "buyer" ? "showdown:variants.dragon.offer_buyer_sets" : "showdown:variants.dragon.offer_house_way_sets", { min: money(r.min_cents), max: money(r.max_cents) }) }),
        el("span", { class: "dragon-clock", "data-countdown": "1" }),
        el("label", { for: "dragon-amount", text: t("showdown:variants.dragon.wager_label") }),
        el("input", { id: "dragon-amount", inputmode: "decimal", autocomplete: "off", value: String(r.max_cents / 100) }),
        el("div", { class: "buttons" },
          el("button", { class: "btn", type: "button", id: "dragon-take", onclick: () => ctx.takeDragon() }, t("showdown:variants.dragon.take.button")),
          el("button", { class: "btn secondary", type: "button", id: "dragon-pass", onclick: () => ctx.passDragon() }, t("showdown:variants.dragon.pass.button")))));
    } else {
      out.push(line(dragonWaitText(view, dragon, ctx.playerId), "variant-note dragon-wait"));
    }
    const err = errorLine(ctx, "dragon");
    if (err) out.push(err);
  } else if (dragon?.buyer_player_id && rnd) {
    const mine = dragon.buyer_player_id === ctx.playerId;
    const bought = `showdown:variants.dragon_bought.${mine ? "mine" : "other"}${dragon.set_by_buyer ? "" : "_house_way"}`;
    out.push(line(t(bought, { name: positionName(view, dragon.buyer_position), amount: money(dragon.wager_cents) }), "variant-note dragon-bought"));
    if (mine && you?.dragon && can.set_dragon) {
      const picked = (ctx.ui.dragonLow ?? []).filter((t) => you.dragon.cards.includes(t));
      out.push(el("div", { class: "variant-row", role: "group", "aria-label": t("showdown:variants.dragon.yours_group") },
        el("span", { class: "variant-note", text: you.dragon.is_set ? t("showdown:variants.dragon.is_set", { low: glyphs(you.dragon.low), high: glyphs(you.dragon.high) }) : t("showdown:variants.dragon.pick_low") }),
        el("div", { class: "dragon-cards" }, ...you.dragon.cards.map((t) => el("button", {
          class: `btn small dragon-card${picked.includes(t) ? " picked" : ""}${/[hd]$/.test(t) ? " red" : ""}`, type: "button", "data-dragon-card": t,
          "aria-pressed": picked.includes(t) ? "true" : "false", "aria-label": cardLabel(toCard(t)), onclick: () => ctx.pickDragonCard(t) }, cardGlyphs(toCard(t))))),
        el("button", { class: "btn small", type: "button", id: "dragon-set-low", disabled: picked.length !== 2, onclick: () => ctx.setDragonLow() }, t("showdown:variants.dragon.set_low.button")),
        el("button", { class: "btn small secondary", type: "button", id: "dragon-set", onclick: () => ctx.setDragon() }, t("showdown:variants.dragon.house_way.button"))));
      const err = errorLine(ctx, "dragon");
      if (err) out.push(err);
    }
  }
  const shown = !rnd ? ctx.showdown : null;
  if (shown?.dealer_barred) {
    out.push(line(t("showdown:variants.barred", { why: barredWhy(shown) }), "variant-note variant-barred"));
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

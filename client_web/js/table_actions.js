// What the player's clicks, taps and keys do at the table: bets (chips, field, arrows, repeat, remove),
// picking the low hand (1-7), the House Way's preview (H), Done, all as commands through the table's socket.

import { parseMoney } from "./api.js";
import { t } from "./i18n.js";
import { play } from "./sound.js";
import { betLimits } from "./tray.js";

const $ = (id) => document.getElementById(id);
const SIDE_KEYS = { f: "sb-fortune-amount", q: "sb-qd-amount" };

/**
 * Adds the player's actions to ctx. ctx.act(key, msg) (set by the page) sends a command and shows its error
 * under the control named `key`.
 */
export function installActions(ctx, rerender, tableId) {
  Object.assign(ctx, {
    fail(key, message) { ctx.ui.errors[key] = message; rerender(); },
    addChip(c) {
      const { max } = betLimits(ctx.view, ctx);
      ctx.ui.betDraft = Math.min(ctx.ui.betDraft + c, Math.max(max, c));
      ctx.ui.betText = null;
      ctx.ui.errors.bet = "";
      ctx.ui.clamped = null;
      play("chip");
      rerender();
      return null;
    },
    async placeBet() {
      const input = $("bet-amount");
      const v = input ? parseMoney(input.value) : ctx.ui.betDraft;
      if (v === 0) return ctx.fail("bet", t("table:bet.first_press")); // a new player's first press
      if (v === null || v < 0) return ctx.fail("bet", t("table:bet.invalid"));
      ctx.ui.betDraft = v;
      ctx.ui.betText = null;
      const sides = ctx.sideBetFields();
      if (sides === null) return null;
      ctx.ui.clamped = null;
      // Each side bet the table offers (undefined, so not sent, when it offers none).
      const ok = await ctx.sendWithSideBets({ type: "place_bet", amount_cents: v, bonus_cents: sides.bonus_cents, queens_dragon_cents: sides.queens_dragon_cents });
      if (ok) {
        ctx.ui.lastBet = v;
        localStorage.setItem(`paigow.lastbet.${tableId}`, String(v));
        rerender();
      }
      return ok;
    },
    repeatBet() {
      if (!ctx.ui.lastBet) return ctx.fail("bet", t("table:bet.no_last"));
      ctx.ui.betDraft = ctx.ui.lastBet;
      ctx.ui.betText = null;
      rerender();
      return ctx.placeBet();
    },
    removeBet() {
      ctx.ui.betText = null;
      if (ctx.view.you?.bet_cents) return ctx.act("bet", { type: "remove_bet" });
      ctx.ui.betDraft = 0;
      rerender();
      return null;
    },
    nudgeBet(delta) {
      ctx.ui.betDraft = Math.max(0, ctx.ui.betDraft + delta);
      ctx.ui.betText = null;
      ctx.ui.clamped = null;
      ctx.ui.errors.bet = "";
      rerender();
    },
    betKeys(ev) {
      const step = ev.shiftKey ? 1000 : 100;
      if (ev.key === "Enter") ctx.placeBet();
      else if (ev.key === "ArrowUp" || ev.key === "ArrowRight") ctx.nudgeBet(step);
      else if (ev.key === "ArrowDown" || ev.key === "ArrowLeft") ctx.nudgeBet(-step);
      else return;
      ev.preventDefault();
      ev.stopPropagation();
    },
    toggleCard(text) {
      const low = ctx.ui.low;
      if (low.includes(text)) ctx.ui.low = low.filter((t) => t !== text);
      else ctx.ui.low = [...low, text].slice(-2);
      ctx.ui.preview = null; // a card moved: the House Way's preview is left
      if (ctx.ui.lowRound) sessionStorage.setItem(`paigow.low.${ctx.ui.lowRound}`, JSON.stringify(ctx.ui.low));
      ctx.ui.errors.set = "";
      play("card");
      rerender();
    },
    /** The House Way button (and H): the cards arranged as the House Way sets them, nothing sent until Done. */
    previewHouseWay() {
      const view = ctx.view;
      const hw = view?.you?.house_way;
      if (!hw || !view.round) return;
      ctx.ui.low = [...hw.low];
      ctx.ui.preview = view.round.round_id;
      if (ctx.ui.lowRound) sessionStorage.setItem(`paigow.low.${ctx.ui.lowRound}`, JSON.stringify(ctx.ui.low));
      ctx.ui.errors.set = "";
      play("card");
      rerender();
    },
    done() {
      if (ctx.ui.low.length !== 2) return ctx.fail("set", t("table:setter.choose_two"));
      // The House Way's preview sent as the House Way (its clause is then the record's).
      const hw = ctx.view?.you?.house_way;
      if (hw && ctx.ui.preview === ctx.view.round?.round_id && hw.low.every((t) => ctx.ui.low.includes(t))) {
        return ctx.act("set", { type: "use_house_way" });
      }
      return ctx.act("set", { type: "set_hand", low: ctx.ui.low });
    },
  });
}

/** The table's keyboard: 1-7, H (the House Way's preview), Enter, 0, Del or ., arrows and Shift+arrows; F and Q:
 * the Fortune bonus's and the Queen's Dragon's fields (side_bets.js). */
export function onKey(ctx, ev) {
  const view = ctx.view;
  if (!view || !view.you || ev.ctrlKey || ev.metaKey || ev.altKey || document.querySelector("dialog[open]")) return;
  const t = ev.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
  if (view.phase === "setting") {
    const hand = view.round?.hands?.find((h) => h.position === view.you.position);
    if (!hand?.cards.length) return;
    if (/^[1-7]$/.test(ev.key)) {
      ev.preventDefault();
      const btn = document.querySelector(`.setter [data-key="${ev.key}"]`);
      if (btn) ctx.toggleCard(btn.dataset.card);
    } else if (ev.key === "Enter" && (!(t instanceof HTMLButtonElement) || t.closest(".setter-cards"))) {
      // Enter is Done (as its hint says), also with the focus on a card (the focus stays on a card after it
      // is used): a card moves with a click, Space or its number key.
      ev.preventDefault();
      ctx.done();
    } else if (ev.key === "h" || ev.key === "H") {
      ev.preventDefault();
      ctx.previewHouseWay();
    }
  } else if (view.phase === "betting" && SIDE_KEYS[ev.key.toLowerCase()] && $(SIDE_KEYS[ev.key.toLowerCase()])) {
    ev.preventDefault();
    $(SIDE_KEYS[ev.key.toLowerCase()]).focus();
  } else if (view.phase === "betting" && !view.you.is_banker) {
    const step = ev.shiftKey ? 1000 : 100;
    if (ev.key === "0") ctx.repeatBet();
    else if (ev.key === "Delete" || ev.key === ".") ctx.removeBet();
    // Enter places the bet (as "Place bet (Enter)" says), also with the focus on a chip just clicked: it
    // does not press that chip again. On any other button Enter is that button's own.
    else if (ev.key === "Enter" && (!(t instanceof HTMLButtonElement) || t.closest(".chips-row"))) ctx.placeBet();
    else if (ev.key === "ArrowUp" || ev.key === "ArrowRight") ctx.nudgeBet(step);
    else if (ev.key === "ArrowDown" || ev.key === "ArrowLeft") ctx.nudgeBet(-step);
    else return;
    ev.preventDefault();
  }
}

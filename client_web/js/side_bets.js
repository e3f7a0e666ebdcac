// The side bets beside the main bet, as one control (docs/fortune.md; docs/rules.md §4a): a row each in the
// bet tray for every side bet the table offers you now (the Fortune bonus; the Queen's Dragon at EZ
// tables, in house-banked rounds). A row: its name, its limits, what it pays (the Fortune's pay table one
// press away), and its amount in a field between − and + (the arrows add or take $1, with Shift $10, as on
// the bet; F and Q go to the fields). Chosen before the bet and sent with it: one place_bet carries the bet
// and every side bet, and the table takes all of it or none, so a refusal leaves nothing half-placed and is
// shown at the row it names. The player-banker's Fortune bet goes with accept_bank, or alone (place_bonus).

import { el, parseMoney, sentence } from "./api.js";
import { amountText, money, number, t } from "./i18n.js";
import { payTableLink } from "./fortune.js";

const STEP = 100;
const BIG_STEP = 1000;
// What a refused command left as it was, after the refusal (`game:side_bet.nothing_placed.<type>`).
const NOTHING_PLACED = new Set(["place_bet", "accept_bank"]);

/** What each side bet is: its row's key and its field in place_bet (its name: `game:bet.<key>`). */
const KINDS = {
  fortune: { field: "bonus_cents" },
  qd: { field: "queens_dragon_cents" },
};
const kind = (key) => ({ ...KINDS[key], name: t(`game:bet.${key}`) });

/** The side bets you may choose now, each {key, name, range: {min_cents, max_cents}, placed}. The
 * banker's: the Fortune bonus alone (the Queen's Dragon is a bet on the house dealer's hand). */
export function offeredSideBets(view) {
  const you = view.you;
  const can = you?.can ?? {};
  const out = [];
  const f = view.fortune;
  if (f) {
    out.push({ key: "fortune", ...kind("fortune"), range: can.bonus ?? { min_cents: f.min_cents, max_cents: f.max_cents }, placed: you?.bonus_cents ?? 0 });
  }
  if (can.queens_dragon && !you.is_banker) out.push({ key: "qd", ...kind("qd"), range: can.queens_dragon, placed: you.queens_dragon_cents ?? 0 });
  return out;
}

/** The amount chosen for a side bet, in cents (its field's when drawn; null: not a dollar amount). */
function draftOf(ctx, bet) {
  const input = document.getElementById(`sb-${bet.key}-amount`);
  if (input) return parseMoney(input.value);
  return ctx.ui.side[bet.key]?.cents ?? bet.placed;
}

/** The row a refusal names: the Queen's Dragon's, the Fortune bonus's, or else `fallback` (the bet's). */
function errorKey(err, fallback) {
  const code = err?.code ?? "";
  const text = err?.message ?? "";
  if (code.startsWith("QUEENS_DRAGON")) return "sb-qd";
  if (code === "BONUS_OFF" || /^your Fortune bonus|Fortune bonus of/.test(text)) return "sb-fortune";
  if (/Queen's Dragon/.test(text)) return "sb-qd";
  return fallback;
}

/** Adds the side bets' actions to ctx: the amounts' steps and keys, and the fields of a command. */
export function installSideBets(ctx, rerender) {
  ctx.ui.side ??= {};
  const setDraft = (key, cents) => {
    ctx.ui.side[key] = { cents, text: null };
    ctx.ui.errors[`sb-${key}`] = "";
    rerender();
  };
  Object.assign(ctx, {
    /** One step up or down: from none up to the minimum, from the minimum down to none, never past the top. */
    stepSideBet(key, dir, big = false) {
      const bet = offeredSideBets(ctx.view).find((b) => b.key === key);
      if (!bet) return;
      const now = draftOf(ctx, bet) ?? 0;
      const { min_cents: min, max_cents: max } = bet.range;
      const next = now + dir * (big ? BIG_STEP : STEP);
      setDraft(key, dir > 0 ? Math.min(Math.max(next, min), Math.max(max, min)) : next < min ? 0 : next);
    },
    sideBetKeys(key, ev) {
      const big = ev.shiftKey;
      if (ev.key === "Enter") ctx.submitSideBets();
      else if (ev.key === "ArrowUp" || ev.key === "ArrowRight") ctx.stepSideBet(key, 1, big);
      else if (ev.key === "ArrowDown" || ev.key === "ArrowLeft") ctx.stepSideBet(key, -1, big);
      else return;
      ev.preventDefault();
      ev.stopPropagation();
    },
    /** Enter in a side bet's field: what the panel's main button does (place the bet, the banker's bonus). */
    submitSideBets() {
      const you = ctx.view?.you;
      if (you?.is_banker) return ctx.placeBonus();
      return ctx.view?.phase === "betting" ? ctx.placeBet() : null;
    },
    /** {bonus_cents, queens_dragon_cents} of the side bets offered now, or null after saying at the row
     * which amount is not one. */
    sideBetFields() {
      const fields = {};
      for (const bet of offeredSideBets(ctx.view)) {
        const cents = draftOf(ctx, bet);
        if (cents === null) {
          ctx.fail(`sb-${bet.key}`, t(`game:side_bet.enter.${bet.key}`));
          return null;
        }
        ctx.ui.side[bet.key] = { cents, text: null };
        fields[bet.field] = cents;
      }
      return fields;
    },
    /** Sends a place_bet (or accept_bank) with the side bets: a refusal shows at the row it names. */
    async sendWithSideBets(msg) {
      const fallback = msg.type === "place_bet" ? "bet" : "offer";
      for (const key of [fallback, ...Object.keys(KINDS).map((k) => `sb-${k}`)]) ctx.ui.errors[key] = "";
      let failed = fallback;
      // ctx.act shows a refusal under the control its function names: here the row the refusal is about.
      const ok = await ctx.act((err) => { failed = errorKey(err, fallback); return failed; }, msg);
      if (!ok && failed.startsWith("sb-")) {
        if (NOTHING_PLACED.has(msg.type)) {
          // The refusal is errors.js's sentence; an older English one without its full stop gets it.
          const first = /[.!?)。！？]$/u.test(ctx.ui.errors[failed]) ? ctx.ui.errors[failed] : sentence(ctx.ui.errors[failed]);
          ctx.ui.errors[failed] = t("common:two_sentences", { first, second: t(`game:side_bet.nothing_placed.${msg.type}`) });
        }
        rerender();
      }
      return ok;
    },
    /** The banker's Fortune bet alone (0 takes it back). */
    placeBonus() {
      const fields = ctx.sideBetFields();
      if (!fields) return null;
      return ctx.act("sb-fortune", { type: "place_bonus", bonus_cents: fields.bonus_cents ?? 0 });
    },
  });
}

function sideBetRow(view, ctx, bet) {
  const ui = ctx.ui;
  const id = `sb-${bet.key}`;
  const draft = ui.side[bet.key] ?? { cents: bet.placed, text: null };
  const input = el("input", { id: `${id}-amount`, inputmode: "decimal", autocomplete: "off", "aria-keyshortcuts": bet.key === "fortune" ? "F" : "Q",
    "aria-describedby": `${id}-limits ${id}-why ${id}-error`, "aria-invalid": ui.errors[id] ? "true" : null,
    value: draft.text ?? amountText(draft.cents) });
  input.addEventListener("input", () => {
    const cents = parseMoney(input.value);
    ui.side[bet.key] = { cents: cents ?? draft.cents, text: input.value };
  });
  input.addEventListener("keydown", (ev) => ctx.sideBetKeys(bet.key, ev));
  const step = (dir, label, words) => el("button", { class: "btn small secondary sb-step", type: "button", id: `${id}-${words}`,
    "aria-label": t(`game:side_bet.step.${words}`, { name: bet.name, amount: money(STEP) }), onclick: () => ctx.stepSideBet(bet.key, dir) }, label);
  return el("div", { class: "side-bet", role: "group", "aria-labelledby": `${id}-name`, "data-side-bet": bet.key },
    el("label", { class: "sb-name", id: `${id}-name`, for: `${id}-amount`, text: t("game:side_bet.field", { name: bet.name }) }),
    el("span", { class: "sb-limits", id: `${id}-limits` }, ...limitWords(view, bet)),
    el("span", { class: "sb-amount" }, step(-1, "−", "less"), input, step(1, "+", "more")),
    el("p", { class: "sb-why", id: `${id}-why` }, ...whyNodes(view, bet)),
    el("p", { class: "field-error", id: `${id}-error`, role: "alert", text: ui.errors[id] ?? "" }));
}

/** Its limits, the Fortune's Envy minimum, and what is on the table now: "$1.00 – $100.00 · Envy from $5.00". */
function limitWords(view, bet) {
  const { min_cents: min, max_cents: max } = bet.range;
  const parts = [el("span", { text: t("game:side_bet.limits", { min: money(min), max: money(max) }) }),
    bet.key === "fortune" ? el("span", { text: t("game:side_bet.envy_from", { amount: money(view.fortune.envy_min_bet_cents) }) }) : null,
    bet.placed ? el("span", { class: "sb-placed", text: t("game:side_bet.on_the_table", { amount: money(bet.placed) }) }) : null].filter(Boolean);
  return parts.flatMap((p, i) => (i ? [" · ", p] : [p]));
}

/** What a side bet pays, in a line (the Fortune's pay table one press away). */
function whyNodes(view, bet) {
  if (bet.key === "qd") return [t("game:side_bet.qd.pays")];
  const top = number(Math.max(...view.fortune.pays.map((p) => p.pays)));
  return [`${t("game:side_bet.fortune.pays", { top })} `, payTableLink(view)];
}

/** The side bets' rows (null when the table offers none now); `button`: a control that sends them alone. */
export function sideBetRows(view, ctx, button = null) {
  const bets = offeredSideBets(view);
  if (!bets.length) return null;
  return el("div", { class: "side-bets", role: "group", "aria-label": t("game:side_bet.group") }, bets.map((b) => sideBetRow(view, ctx, b)), button);
}

/** The banker's Fortune row and its own button: a bank has no bet to send it with. */
export function bankerSideBets(view, ctx) {
  if (!view.fortune) return null;
  const placed = view.you?.bonus_cents ?? 0;
  return sideBetRows(view, ctx, el("button", { class: "btn small", type: "button", id: "place-bonus", onclick: () => ctx.placeBonus(),
    text: placed ? t("game:side_bet.fortune.change.button") : t("game:side_bet.fortune.place.button") }));
}

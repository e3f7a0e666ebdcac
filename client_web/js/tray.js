// The controls under the table, by phase: the bank offer, betting, setting the hand, the round's result,
// and the seat options. Errors from the server appear next to the control that caused them.

import { el, money, parseMoney } from "./api.js";
import { amountText, dateTime, t } from "./i18n.js";
import { sortForDisplay, toCard } from "./cards.js";
import { cardElement } from "./card_svg.js";
import { chipLabel, chipsBehind } from "./chips.js";
import { serverNow } from "./clock.js";
import { clauseWords, houseWayName, judgeSplit } from "./hand_eval.js";
import { fortuneLines, payTableButton } from "./fortune.js";
import { bankerSideBets, sideBetRows } from "./side_bets.js";
import { breakdown, breakdownNodes } from "./results.js";
import { marksLegend } from "./seat_marks.js";
import { alwaysHouseWayToggle } from "./house_way_setting.js";
import { kbd } from "./keycaps.js";
import { barredWhy, inAllNote, summaryLines } from "./variant_results.js";
import { isBarred, seatAccessPanel } from "./home_seat.js";
import { blockText } from "./table_block.js";
import { hostRequestsPanel } from "./host_panel.js";
import { chipRequestsPanel } from "./host_chips.js";
import { chipsOf, rebuyButton, waitingPanel } from "./buy_in.js";
import { CASH_OUT, seatStack } from "./chips_words.js";
import { closedChipsPanel } from "./ledger_panel.js";
import { joinForm } from "./table_access.js";

/** "The host barred you from this table until <when>: …", one sentence for who barred you (`by`) and what
 * follows (`then`: "watch" you may keep watching, "play" you may watch or play at another table). */
export function barredText(by, untilMs, then) {
  const who = by === "host" || by === "operator" ? by : "unknown";
  return t(`table:barred.${then}.${who}`, { until: dateTime(untilMs) });
}

const BET_CHIPS = [100, 500, 2500, 10000, 50000, 100000];

export function secondsLeft(view) {
  if (view.deadline_ms == null) return null;
  return Math.max(0, Math.ceil((view.deadline_ms - serverNow()) / 1000));
}

function countdownText(view) {
  const s = secondsLeft(view);
  return el("span", { class: "hint cd-text", "data-countdown": "1", text: s === null ? "" : t("table:countdown.left", { seconds: s }) });
}

/** The last seconds' warning ("Hurry: 8 s left, then the House Way sets your hand."), filled in by the
 * page's countdown tick. */
function warnLine() {
  return el("p", { class: "time-warning", "data-warn": "1", role: "alert", hidden: true });
}

/** What the table last did for you ("Time ran out: the House Way set your hand"), until the next round. */
function noticeLine(ctx) {
  const n = ctx.notice;
  return n ? el("p", { class: `notice ${n.kind}`, id: "notice", text: n.text }) : null;
}

function errorLine(ctx, key) {
  return el("p", { class: "field-error", id: `${key}-error`, role: "alert", text: ctx.ui.errors[key] ?? "" });
}

/** The bet the table takes from you now, as the server says (view.you.can.bet: null when none can be
 * placed, e.g. your chips are below the minimum), brought down to the room your loss and betting limits
 * leave (`ctx.room`, table_block.js) when that is less: `room` is then that limit's, for its words. */
export function betLimits(view, ctx = null) {
  const range = view.you?.can?.bet ?? null;
  const cover = view.round?.coverage_left_cents;
  const min = range ? range.min_cents : view.rules.min_bet_cents;
  const max = range ? range.max_cents : 0;
  const room = ctx?.room && range && ctx.room.room_cents < max ? ctx.room : null;
  if (!room) return { min, max, cover, room };
  return { min, max: room.room_cents >= min ? room.room_cents : 0, cover, room };
}

function acceptBank(ctx) {
  const fields = ctx.sideBetFields();
  return fields && ctx.sendWithSideBets({ type: "accept_bank", bonus_cents: fields.bonus_cents ?? 0 });
}

function offerPanel(view, ctx) {
  const covers = view.you.chips_cents;
  return el("div", { class: "panel offer", "data-panel": "offer" },
    el("h2", { text: t("table:offer.title") }),
    el("p", { text: t("table:offer.text", { amount: money(covers) }) }),
    countdownText(view), warnLine(),
    el("div", { class: "buttons" },
      el("button", { class: "btn", type: "button", id: "accept-bank", onclick: () => acceptBank(ctx), text: t("table:offer.accept.button") }),
      el("button", { class: "btn secondary", type: "button", id: "decline-bank", onclick: () => ctx.act("offer", { type: "decline_bank" }), text: t("table:offer.decline.button") })),
    sideBetRows(view, ctx),
    errorLine(ctx, "offer"),
    lastRoundLine(view, ctx));
}

/** A draft above what the table takes now (the limit changed, the bank covers less) comes down to it, and
 * the bet panel says so. */
function clampDraft(view, ctx) {
  const { max } = betLimits(view, ctx);
  const ui = ctx.ui;
  if (max > 0 && ui.betDraft > max) {
    ui.clamped = t("table:bet.clamped", { amount: money(max) });
    ui.betDraft = max;
    ui.betText = null;
  }
}

/** Betting ends within the second: the deal is about to start, so a placed bet is no longer offered to be
 * changed (the page's countdown tick hides the buttons marked data-until-deal). */
export function dealIsNear(view) {
  const left = view.phase === "betting" ? secondsLeft(view) : null;
  return left !== null && left <= 1;
}

function betPanel(view, ctx) {
  clampDraft(view, ctx);
  const { min, max, cover, room } = betLimits(view, ctx);
  const ui = ctx.ui;
  const placed = view.you.bet_cents;
  const input = el("input", { id: "bet-amount", inputmode: "decimal", autocomplete: "off", "aria-describedby": "bet-error bet-info",
    "aria-invalid": ui.errors.bet ? "true" : null, value: ui.betText ?? amountText(ui.betDraft) });
  input.addEventListener("input", () => {
    ui.betText = input.value;
    ui.clamped = null;
    const v = parseMoney(input.value);
    if (v !== null) ui.betDraft = v;
  });
  input.addEventListener("keydown", (ev) => ctx.betKeys(ev));
  const chips = BET_CHIPS.filter((c) => c <= Math.max(max, min)).map((c) =>
    el("button", { class: `chip v${c}`, type: "button", id: `chip-${c}`, "data-chip": String(c), "aria-label": t("table:bet.chip.label", { amount: money(c) }),
      disabled: ui.betDraft + c > max ? true : null, onclick: () => ctx.addChip(c), text: chipLabel(c) }));
  // The facts of the bet, each a phrase of its own between " · " (a list of facts, not a sentence).
  const info = [max > 0 ? t("table:bet.info.range", { min: money(min), max: money(max) }) : t("table:bet.info.none")];
  if (room) info.push(t(`table:bet.info.room.${room.limit}`, { amount: money(room.room_cents) }));
  if (max !== view.rules.max_bet_cents) info.push(t("table:bet.info.table_limits", { min: money(view.rules.min_bet_cents), max: money(view.rules.max_bet_cents) }));
  if (view.you.own_max_bet_cents != null) info.push(t("table:bet.info.own_limit", { amount: money(view.you.own_max_bet_cents) }));
  if (cover != null) info.push(t("table:bet.info.cover", { amount: money(cover) }));
  if (placed) info.push(t("table:bet.info.placed", { amount: money(placed) }));
  else if (view.you.status === "sitting_out") info.push(t("table:bet.info.sitting_out"));
  const waiting = view.deadline_ms == null;
  const near = Boolean(placed) && dealIsNear(view);
  const untilDeal = placed ? "1" : null;
  const notice = noticeLine(ctx);
  return el("div", { class: "panel bet-panel", "data-panel": "bet" },
    notice ? el("div", { class: "notice-row" }, notice) : null,
    el("div", { class: "chips-row", role: "group", "aria-label": t("table:bet.chips.label") }, chips),
    el("div", { class: "amount" }, el("label", { for: "bet-amount", text: t("table:bet.amount.label") }), input),
    // The refusal on a row of its own under the chips and the box: beside the box it widened it, and the
    // chips jumped to a row of their own the moment a bet was refused.
    el("div", { class: "bet-says" }, errorLine(ctx, "bet"),
      ui.clamped ? el("p", { class: "hint clamped", id: "bet-clamped", role: "status", text: ui.clamped }) : null),
    sideBetRows(view, ctx),
    el("div", { class: "buttons" },
      el("span", { class: "hint", id: "dealing-soon", "data-when-deal": untilDeal, hidden: !near, text: t("table:bet.closing") }),
      el("button", { class: "btn", type: "button", id: "place-bet", "data-until-deal": untilDeal, hidden: near, "aria-keyshortcuts": "Enter",
        onclick: () => ctx.placeBet() }, placed ? t("table:bet.change.button") : t("table:bet.place.button"), kbd("Enter")),
      el("button", { class: "btn secondary", type: "button", id: "repeat-bet", disabled: ui.lastBet ? null : true, "aria-keyshortcuts": "0",
        onclick: () => ctx.repeatBet() }, ui.lastBet ? t("table:bet.repeat_amount.button", { amount: money(ui.lastBet) }) : t("table:bet.repeat.button"), kbd("0")),
      el("button", { class: "btn secondary", type: "button", id: "remove-bet", "data-until-deal": untilDeal, hidden: near, "aria-keyshortcuts": "Delete",
        onclick: () => ctx.removeBet() }, placed ? t("table:bet.remove.button") : t("table:bet.clear.button"), kbd("Del"))),
    // Under the bet's buttons (they come first), in sight on a phone (table_compact.css).
    alwaysHouseWayToggle(ctx, houseWayName(view.rules), "always-house-way-bet"),
    el("p", { class: "info", id: "bet-info" }, info.join(" · "), waiting ? " · " : null,
      waiting ? el("span", { text: t("table:bet.info.waiting_first") }) : null,
      waiting ? null : " · ", waiting ? null : countdownText(view)),
    warnLine(),
    lastRoundLine(view, ctx));
}

/** Why you cannot bet this round (view.you.can.bet is null), and what to do about it. */
function noBetText(view) {
  const you = view.you;
  const min = money(view.rules.min_bet_cents);
  if (you.status === "sitting_out") return t("table:no_bet.sitting_out");
  if (you.status === "away") return t("table:no_bet.away");
  if (you.status === "leaving") return t("table:no_bet.leaving");
  if (you.own_max_bet_cents != null && you.own_max_bet_cents < view.rules.min_bet_cents) {
    return t("table:no_bet.own_limit", { limit: money(you.own_max_bet_cents), min });
  }
  if (you.chips_cents < view.rules.min_bet_cents) return t("table:no_bet.chips", { min });
  const cover = view.round?.coverage_left_cents;
  if (cover != null && cover < view.rules.min_bet_cents) return t("table:no_bet.covered");
  return t("table:no_bet.other");
}

function noBetPanel(view, ctx) {
  return el("div", { class: "panel summary", "data-panel": "no-bet" },
    noticeLine(ctx), el("p", { id: "no-bet", text: noBetText(view) }), countdownText(view), lastRoundLine(view, ctx));
}

/** Your result in the last settled round, as one line ("You win +$9.50"), with the coach's button. */
function resultText(record, mine, { short = false } = {}) {
  if (mine.is_banker) {
    const net = record.banker_net_cents;
    const role = record.co_banked ? "co_banker" : "banker";
    const commission = record.banker_commission_cents ? ".commission" : "";
    return { kind: net > 0 ? "win" : net < 0 ? "loss" : "push",
      text: t(`table:result.${role}${commission}`, { amount: money(net, { sign: true }), commission: money(record.banker_commission_cents ?? 0) }) };
  }
  const kind = mine.outcome ?? "loss";
  const why = kind === "push" ? barredWhy(record) : null;
  // One sentence for each shape: the result, with its commission (the long form), with a foul.
  const shape = `${kind === "push" && why ? "push_why" : kind}${mine.commission_cents && !short && kind !== "push" ? ".commission" : ""}${mine.fouled ? ".foul" : ""}`;
  const text = t(`table:result.you.${shape}`, { amount: money(kind === "win" ? mine.net_cents : -mine.net_cents, { sign: kind === "win" }),
    why, wager: money(mine.wager_cents), commission: money(mine.commission_cents ?? 0) });
  return { kind, text };
}

function coachButton(ctx, record, mine, id) {
  // The coach, once the round is settled: a hand played against the banker (a banker's has no analysis).
  if (mine.is_banker || !ctx.openCoach) return null;
  return el("button", { class: "btn small secondary", type: "button", id, onclick: () => ctx.openCoach(record.round_id), text: t("table:coach.button") });
}

/** While the next round's bank offer and betting run, the last round's result stays one tap from its
 * coach (it goes once the cards are dealt; the history keeps every round). */
function lastRoundLine(view, ctx) {
  const record = ctx.rounds?.[0];
  const mine = record && ctx.playerId ? record.hands.find((h) => h.player_id === ctx.playerId) : null;
  if (!mine || record.round_id === view.round?.round_id) return null;
  const { kind, text } = resultText(record, mine, { short: true });
  return el("p", { class: "last-round", id: "last-round" }, el("span", { class: `res ${kind}`, text: `${t("table:last_round", { round: record.number, result: text })}${inAllNote(record, mine, ctx.playerId)}` }),
    coachButton(ctx, record, mine, "last-coach"));
}

function bankerWaiting(view, ctx) {
  const cover = view.round?.coverage_left_cents;
  return el("div", { class: "panel summary", "data-panel": "banker" },
    el("p", { class: "big", text: t("table:banker.title") }),
    el("p", { text: cover != null ? t("table:banker.cover", { amount: money(cover) }) : t("table:banker.text") }),
    countdownText(view),
    bankerSideBets(view, ctx),
    lastRoundLine(view, ctx));
}

/**
 * The hand setter: the seven cards as buttons, the high and the low hand, the foul check, House Way and
 * Done. Uses of `view`: `rules`, `round.round_id`, `deadline_ms` (null: no countdown), `you.house_way` (the
 * House Way's split of this hand, from the server); of `ctx`: `ui.low`, `ui.preview`, `ui.flipIn`,
 * `ui.errors.set`, `clauses`, `toggleCard`, `done`, and at the table `previewHouseWay` (the House Way button
 * arranges the cards, Done sends them) and `setAlwaysHouseWay`. The practice page uses it too: without
 * `previewHouseWay` its House Way button sends at once (`act("set", {type: "use_house_way"})`).
 */
export function setterPanel(view, ctx, hand) {
  const ui = ctx.ui;
  const seven = sortForDisplay(hand.cards.map(toCard));
  const low = ui.low.filter((t) => hand.cards.includes(t));
  const lowCards = seven.filter((c) => low.includes(c.text));
  const highCards = seven.filter((c) => !low.includes(c.text));
  const judged = lowCards.length === 2 ? judgeSplit(highCards, lowCards, view.rules.wheel) : null;
  const cardBtn = (c) => {
    const key = seven.indexOf(c) + 1;
    const b = cardElement(c, { button: true, className: ctx.ui.flipIn ? "flip" : "" });
    // The button's name is its words (no aria-label over a picture whose letters are not in it).
    const name = t(low.includes(c.text) ? "table:setter.card.low" : "table:setter.card.high", { card: b.getAttribute("aria-label"), key });
    b.removeAttribute("aria-label");
    b.querySelector("svg")?.setAttribute("aria-hidden", "true");
    b.prepend(el("span", { class: "visually-hidden", text: name }));
    b.setAttribute("aria-pressed", low.includes(c.text) ? "true" : "false");
    b.dataset.key = String(key);
    b.id = `set-card-${c.text}`; // the focus stays on the card when the tray is drawn again
    b.style.setProperty("--flip-delay", `${key * 60}ms`);
    b.append(el("span", { class: "key", "aria-hidden": "true", text: String(key) }));
    b.addEventListener("click", () => ctx.toggleCard(c.text));
    return b;
  };
  const rejectFoul = view.rules.foul_policy !== "lose";
  const canDone = judged !== null && !(judged.foul && rejectFoul);
  const way = houseWayName(view.rules);
  // The House Way's split of this hand (the server's, view.you.house_way), and whether the hand shown is it.
  const hw = view.you?.house_way ?? null;
  const isHouseWay = Boolean(hw) && low.length === 2 && hw.low.every((t) => low.includes(t));
  const previewing = isHouseWay && ctx.ui.preview === view.round.round_id;
  const clause = hw?.clause ?? ctx.clauses[view.round.round_id];
  const byHouseWay = hand.is_set && clause && lowCards.length === 2 && hand.low.every((t) => low.includes(t)) && (!hw || isHouseWay);
  const status = previewing && !hand.is_set
    ? el("span", { class: "hint hw-preview", id: "set-status" }, el("strong", { id: "hw-clause", text: t("table:setter.preview", { way, clause: clauseWords(hw.clause) }) }), " ",
      t("table:setter.preview.note"))
    : hand.is_set
      ? el("span", { class: "set-ok", id: "set-status" }, byHouseWay ? el("strong", { id: "hw-clause", text: t("table:setter.set.house_way", { clause: clauseWords(clause) }) }) : t("table:setter.set"),
        " ", t("table:setter.set.note"))
      : el("span", { class: "hint", id: "set-status" }, ...(lowCards.length < 2
        ? [t("table:setter.tap", { count: 2 - lowCards.length }), kbd(["1", "7"])]
        : judged.foul && rejectFoul ? [t("table:setter.not_ready")] : [t("table:setter.ready"), kbd("Enter")]));
  const houseWayButton = ctx.previewHouseWay && hw
    ? el("button", { class: "btn secondary", type: "button", id: "house-way", "aria-keyshortcuts": "H", title: t("table:setter.house_way.preview.title", { way }),
      onclick: () => ctx.previewHouseWay() }, t("table:setter.house_way.button"), kbd("H"))
    : el("button", { class: "btn secondary", type: "button", id: "house-way", title: t("table:setter.house_way.title", { way }), onclick: () => ctx.act("set", { type: "use_house_way" }), text: t("table:setter.house_way.button") });
  return el("div", { class: "panel setter", "data-panel": "setter" },
    el("div", { class: "setter-rows" },
      el("div", { class: "setter-row", "aria-label": t("table:setter.high.label") },
        el("h3", {}, el("span", { text: t("table:setter.high.title") }), el("span", { class: "hand-name", id: "high-name", text: judged ? judged.high.name : "" })),
        el("div", { class: "setter-cards" }, highCards.map(cardBtn))),
      el("div", { class: "setter-row", "aria-label": t("table:setter.low.label") },
        el("h3", {}, el("span", { text: t("table:setter.low.title") }), el("span", { class: "hand-name", id: "low-name", text: judged ? judged.low.name : "" })),
        el("div", { class: "setter-cards" }, lowCards.map(cardBtn)))),
    el("p", { class: "foul", id: "foul", role: "alert", text: judged?.foul ? t(rejectFoul ? "table:setter.foul.move" : "table:setter.foul.loses", { why: judged.foul }) : "" }),
    el("div", { class: "setter-foot" },
      status, countdownText(view), warnLine(),
      el("span", { class: "buttons" },
        houseWayButton,
        el("button", { class: "btn", type: "button", id: "done", disabled: canDone ? null : true, "aria-keyshortcuts": "Enter",
          onclick: () => ctx.done() }, hand.is_set ? t("table:setter.update.button") : t("table:setter.done.button"), kbd("Enter")))),
    ctx.setAlwaysHouseWay && hw ? alwaysHouseWayToggle(ctx, way) : null,
    errorLine(ctx, "set"));
}

function summaryPanel(view, ctx) {
  const last = ctx.showdown;
  const mine = last?.hands.find((h) => h.player_id === ctx.playerId);
  const parts = [];
  if (mine) {
    const { kind, text } = resultText(last, mine);
    parts.push(el("p", { class: `big ${kind}`, id: "my-result", text }), ...fortuneLines(last, view, ctx.playerId),
      ...summaryLines(last, mine, ctx.playerId, view.rules),
      coachButton(ctx, last, mine, "coach-open"));
  }
  parts.push(noticeLine(ctx), last ? marksLegend() : null);
  if (view.paused) parts.push(el("p", { text: t(view.home ? "table:summary.paused.host" : "table:summary.paused.operator") }));
  else if (view.deadline_kind === "next_round") parts.push(el("p", { class: "next-round", "data-next": "1" }));
  else parts.push(el("p", { class: "hint", text: t("table:summary.waiting") }));
  const payTable = payTableButton(view);
  if (payTable) parts.push(payTable);
  return el("div", { class: "panel summary", "data-panel": "summary" }, parts.filter(Boolean));
}

/** "Leave table", then a confirmation in its place: what leaving does, "Leave" and "Stay". */
function leaveButtons(view, ctx) {
  const ui = ctx.ui;
  if (!ui.confirmLeave) {
    return [el("button", { class: "btn small secondary", type: "button", id: "leave", text: t("table:leave.button"),
      onclick: () => { ui.confirmLeave = true; ctx.rerender(); document.getElementById("leave-stay")?.focus(); } })];
  }
  const inRound = Boolean(view.you.bet_cents || view.you.is_banker) && view.round;
  const stay = () => { ui.confirmLeave = false; ctx.rerender(); document.getElementById("leave")?.focus(); };
  return [el("span", { class: "hint", id: "leave-question", role: "alert",
    text: chipsOf(view) ? (inRound ? CASH_OUT.leaveQuestionInRound : CASH_OUT.leaveQuestion)
      : inRound ? t("table:leave.question.in_round") : t("table:leave.question") }),
  el("button", { class: "btn small", type: "button", id: "leave-confirm", text: t("table:leave.confirm.button"),
    onclick: () => { ui.confirmLeave = false; ctx.act("seat", { type: "leave" }); } }),
  el("button", { class: "btn small secondary", type: "button", id: "leave-stay", onclick: stay, text: t("table:leave.stay.button") })];
}

function seatOptions(view, ctx) {
  const you = view.you;
  const sittingOut = you.status === "sitting_out";
  const limitInput = el("input", { id: "own-limit", inputmode: "decimal", autocomplete: "off", style: "width:7em",
    placeholder: (((you.own_max_bet_cents ?? view.rules.max_bet_cents)) / 100).toFixed(0), "aria-describedby": "limit-error",
    value: ctx.ui.limitText ?? null });
  // What is typed survives the tray's next drawing (a patch may come between typing and pressing Set).
  limitInput.addEventListener("input", () => { ctx.ui.limitText = limitInput.value; });
  return el("div", { class: "panel seat-options", "data-panel": "seat" },
    el("span", { class: "hint", text: chipsOf(view) ? seatStack(you.position, chipsBehind(view, you, you.position)) : t("table:seat_options.stack", { seat: you.position, amount: money(chipsBehind(view, you, you.position)) }) }),
    el("button", { class: "btn small secondary", type: "button", id: "sit-out", onclick: () => ctx.act("seat", { type: sittingOut ? "sit_in" : "sit_out" }), text: sittingOut ? t("table:seat_options.sit_in.button") : t("table:seat_options.sit_out.button") }),
    rebuyButton(view, ctx),
    ...leaveButtons(view, ctx),
    el("span", { style: "display:flex;gap:.4rem;align-items:center" },
      el("label", { for: "own-limit", style: "margin:0", text: t("table:seat_options.limit.label") }), limitInput,
      el("button", { class: "btn small secondary", type: "button", id: "set-limit", text: t("table:seat_options.limit.set.button"),
        onclick: () => {
          const v = parseMoney(limitInput.value);
          if (v === null || v <= 0) ctx.fail("seat", t("table:seat_options.limit.invalid"));
          else {
            ctx.ui.limitText = null;
            ctx.act("seat", { type: "set_own_limit", max_bet_cents: v });
          }
        } })),
    alwaysHouseWayToggle(ctx, houseWayName(view.rules), "always-house-way-seat"),
    errorLine(ctx, "seat"));
}

/** True while the deal's animation still has the viewer's own cards in the air (they show once landed). */
function stillDealing(ctx, view) {
  const deal = ctx.anim ? ctx.dealAnim : null;
  return Boolean(deal && deal.roundId === view.round.round_id && !deal.ownLanded);
}

/** Whose hand of a settled record this is, in words: a player's name, "Dragon (Ann)", "Seat 3", "Dealer". */
export function handOwner(h, ctx) {
  if (h.dragon_of != null) return t("table:owner.dragon", { name: ctx.names[h.player_id] ?? t("table:who.seat", { seat: h.dragon_of }) });
  if (h.player_id) return ctx.names[h.player_id] ?? t("table:seat.name", { seat: h.position });
  return t("table:dealer.name");
}

/** The showdown's whole breakdown, read under the table (the centre banner holds its summary). */
function showdownPanel(view, ctx) {
  const record = ctx.showdown;
  if (!record || view.round) return null;
  return el("div", { class: "panel breakdown-tray", "data-panel": "breakdown" },
    breakdownNodes(breakdown(record, view.rules, (h) => handOwner(h, ctx)), ctx.playerId));
}

/** The tray's panels for this view (a spectator's: who they are, and the showdown). */
export function renderTray(tray, view, ctx) {
  const panels = [hostRequestsPanel(view, ctx), chipRequestsPanel(view, ctx), waitingPanel(view, ctx)];
  if (ctx.role === "spectator") {
    const invited = ctx.invite && !ctx.session;
    const names = { host: view.home?.host_name, table: view.name };
    const words = t(`table:spectator.${view.home ? "home." : ""}${invited ? "invited" : "watching"}`, names);
    drawTray(tray, [el("div", { class: "panel summary", "data-panel": "spectator" },
      el("p", { text: words }),
      // Come by an invite without a session: a name here, and the same link seats you.
      ctx.invite && !ctx.session ? joinForm() : ctx.session ? el("a", { class: "btn small secondary", href: `/table/?id=${encodeURIComponent(view.table_id)}`, text: t("table:spectator.join.button") })
        : el("a", { class: "btn small secondary", href: "/", text: t("table:spectator.lobby.link") })), ...[showdownPanel(view, ctx)].filter(Boolean)]);
    return;
  }
  const you = view.you;
  const waiting = panels[2]; // a buy-in waiting for the host: its panel says so
  if (!you && view.phase === "closed" && chipsOf(view)) panels.push(closedChipsPanel(view, ctx));
  else if (!you) {
    if (!waiting) panels.push(seatAccessPanel(view, ctx) ?? el("div", { class: "panel summary", "data-panel": "choose-seat" },
      view.home && view.phase !== "closed" ? el("p", { class: "hint", text: t("table:choose.home", { table: view.name, host: view.home.host_name }) }) : null,
      el("p", { id: "choose-seat", text: view.phase === "closed" ? t("table:choose.closed") : isBarred(ctx) ? barredText(ctx.barredBy, ctx.barredUntil, "watch")
        : blockText(ctx) ? blockText(ctx)
        : ctx.ended ? t("table:choose.ended") : t("table:choose.seat") }),
      view.phase === "closed" ? el("a", { class: "btn small secondary", href: "/", id: "closed-lobby", text: t("table:lobby.link") }) : null));
  } else {
    const rnd = view.round;
    const hand = rnd?.hands?.find((h) => h.position === you.position);
    if (view.phase === "bank_offer" && you.offered_bank) panels.push(offerPanel(view, ctx));
    else if (view.phase === "betting" && you.is_banker) panels.push(bankerWaiting(view, ctx));
    else if (view.phase === "betting" && !you.can?.bet && !you.bet_cents) panels.push(noBetPanel(view, ctx));
    else if (view.phase === "betting") panels.push(betPanel(view, ctx));
    else if (view.phase === "setting" && hand && hand.cards.length && stillDealing(ctx, view)) {
      panels.push(el("div", { class: "panel summary", "data-panel": "dealing" }, el("p", { text: t("table:tray.dealing") })));
    } else if (view.phase === "setting" && hand && hand.cards.length) panels.push(setterPanel(view, ctx, hand));
    else if (view.phase === "setting") panels.push(el("div", { class: "panel summary", "data-panel": "waiting" }, noticeLine(ctx) ?? el("p", { text: t("table:tray.not_in_round") })));
    else if (view.phase === "dragon_offer") panels.push(el("div", { class: "panel summary", "data-panel": "waiting" }, el("p", { text: t("table:tray.dragon_offer") })));
    else if (view.phase === "bank_offer") panels.push(el("div", { class: "panel summary", "data-panel": "waiting" }, el("p", { text: t("table:tray.bank_offer") }), countdownText(view), lastRoundLine(view, ctx)));
    else panels.push(summaryPanel(view, ctx), showdownPanel(view, ctx));
    panels.push(seatOptions(view, ctx));
  }
  drawTray(tray, panels.filter(Boolean));
}

/** The panel as drawn, without the countdowns' text (tickCountdown changes it in place every second). */
function drawnAs(node) {
  const copy = node.cloneNode(true);
  for (const n of copy.querySelectorAll("[data-countdown], [data-offer-left]")) n.textContent = "";
  return copy.outerHTML;
}

/**
 * Puts the panels in the tray, unless the tray already shows exactly them: a redraw that changes nothing
 * keeps the elements on screen, so a card's flip is not started again and the focused control is not
 * replaced (a card under the pointer or the keyboard stays the same element).
 */
function drawTray(tray, panels) {
  const old = [...tray.children];
  if (old.length === panels.length && old.every((o, i) => drawnAs(o) === drawnAs(panels[i]))) return;
  const focused = document.activeElement?.id;
  tray.replaceChildren(...panels.filter(Boolean));
  // The focus comes back without scrolling: the tray stays where the player left it.
  if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
}

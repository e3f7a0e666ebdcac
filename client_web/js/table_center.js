// The centre of the felt: the phase's line and the line under it, the dice, the showdown's banner, and the
// clock (its ring, its seconds, and every countdown word on the page, ticked every quarter second).

import { el } from "./api.js";
import { t } from "./i18n.js";
import { serverNow } from "./clock.js";
import { cannotBankText } from "./explain.js";
import { showDice } from "./dice.js";
import { bannerNodes, breakdown } from "./results.js";
import { positionName } from "./table_render.js";
import { deadlineStakes, mustAct, unblockClock } from "./act_clock.js";
import { cueClock } from "./cues.js";
import { dealIsNear, handOwner, secondsLeft } from "./tray.js";
import { tickOffer } from "./home_seat.js";
import { chipsOf } from "./buy_in.js";
import { BANK_TURN } from "./chips_words.js";

const $ = (id) => document.getElementById(id);
const WARN_S = 10;

/** Why the house banks this round, when the marker's player was passed over or said no. */
function houseBanksText(view, rnd) {
  const name = positionName(view, view.marker);
  if (rnd.bank_reason === "ineligible") return t("table:center.house_banks.ineligible", { why: cannotBankText(name, rnd.bank_ineligible, view.you?.position === view.marker) });
  if (rnd.bank_reason === "declined") return t("table:center.house_banks.declined", { name });
  if (rnd.bank_reason === "timed_out") return t("table:center.house_banks.timed_out", { name });
  return t("table:center.house_banks");
}

/** The phase's line and the line under it. */
function phaseLines(view, ctx) {
  const rnd = view.round;
  const seated = view.seats.some((s) => s && s.status !== "sitting_out");
  let text = seated ? t("table:phase.next_soon") : t("table:phase.waiting_players");
  let sub = "";
  const inTurn = view.rules.players_bank_in_turn || chipsOf(view)?.players_bank_in_turn;
  if (inTurn && !rnd && view.phase !== "closed" && view.seats.filter((s) => s && s.status !== "sitting_out").length < 2) [text, sub] = [BANK_TURN.waitingTitle, BANK_TURN.needTwo];
  if (view.phase === "closed") text = t("table:phase.closed");
  else if (view.phase === "bank_offer") text = view.you?.offered_bank ? t("table:phase.bank_offer.you") : t("table:phase.bank_offer", { name: positionName(view, view.marker) });
  else if (view.phase === "dragon_offer") {
    const d = rnd.dragon;
    text = view.you?.can?.dragon ? t("table:phase.dragon_offer.you") : t("table:phase.dragon_offer", { name: positionName(view, d?.offered_seat ?? 0) });
    sub = t("table:phase.dragon_offer.sub");
  } else if (view.phase === "betting") {
    text = view.deadline_ms == null ? t("table:phase.betting.first") : t("table:phase.betting");
    const banker = rnd.banker_position ? positionName(view, rnd.banker_position) : null;
    sub = banker ? t(rnd.co_banked ? "table:phase.betting.co_banks" : "table:phase.betting.banks", { name: banker }) : houseBanksText(view, rnd);
  } else if (view.phase === "setting") {
    text = t("table:phase.setting");
    if (rnd.dice) sub = t("table:phase.setting.dice", { total: rnd.dice.reduce((a, b) => a + b, 0), name: positionName(view, rnd.first_position) });
  } else if (ctx.showdown) {
    text = t("table:phase.showdown", { round: ctx.showdown.number });
  } else if (ctx.voided) {
    text = t("table:phase.voided");
    sub = ctx.voided;
  }
  const who = view.home ? "host" : "operator";
  if (view.paused) sub = sub ? t(`table:phase.paused.${who}.with`, { sub }) : t(`table:phase.paused.${who}`);
  else if (view.closing) sub = sub ? t("table:phase.closing.with", { sub }) : t("table:phase.closing");
  return [text, sub];
}

export function renderCenter(view, ctx) {
  const rnd = view.round;
  const [text, sub] = phaseLines(view, ctx);
  const center = $("phase-text").parentElement;
  renderBanner(center, view, ctx);
  if (!$("center-warn")) center.append(el("p", { class: "time-warning center-warn", id: "center-warn", "data-warn": "1", hidden: true }));
  $("phase-text").textContent = text;
  $("phase-sub").textContent = sub;
  center.classList.toggle("showing-result", Boolean(ctx.showdown) && !view.round);
  const diceHolder = $("dice");
  const dice = rnd?.dice ?? ctx.showdown?.dice ?? null;
  if (!ctx.rolling && diceHolder.dataset.dice !== (dice ? dice.join("-") : "")) {
    showDice(diceHolder, dice);
    diceHolder.dataset.dice = dice ? dice.join("-") : "";
  }
  tickCountdown(ctx);
}

/** The showdown banner at the centre of the table: every hand's result, and the next round's countdown. */
function renderBanner(center, view, ctx) {
  let banner = $("result-banner");
  const record = !view.round ? ctx.showdown : null;
  if (!record) {
    banner?.remove();
    return;
  }
  if (banner?.dataset.round === record.round_id) return;
  banner ??= el("div", { class: "result-banner", id: "result-banner", role: "status", "aria-label": t("table:banner.label") });
  banner.dataset.round = record.round_id;
  banner.replaceChildren(...bannerNodes(breakdown(record, view.rules, (h) => handOwner(h, ctx)), ctx.playerId),
    el("p", { class: "next-round", "data-next": "1" }));
  if (!banner.isConnected) center.append(banner);
}

/** Every quarter second: the clock's ring and seconds, and each countdown's words on the page. */
export function tickCountdown(ctx) {
  const view = ctx.view;
  if (!view) return;
  const cd = $("countdown");
  const left = secondsLeft(view);
  const stakes = left === null ? null : deadlineStakes(view, ctx);
  const warn = stakes !== null && left <= WARN_S;
  cd.hidden = left === null;
  cd.dataset.mustAct = left !== null && mustAct(view, ctx) ? "1" : "";
  if (left !== null) {
    const total = { bank_offer: view.timers.bank_offer_ms, betting: view.timers.betting_ms, setting: view.timers.setting_ms,
      next_round: view.timers.between_rounds_ms, dragon_offer: view.rules.dragon_offer_ms }[view.deadline_kind] ?? 30000;
    const frac = Math.min(1, Math.max(0, (view.deadline_ms - serverNow()) / total));
    cd.querySelector(".ring").style.strokeDashoffset = String(119.4 * (1 - frac));
    cd.classList.toggle("urgent", left <= (stakes !== null ? WARN_S : 5));
    $("countdown-text").textContent = String(left);
    cd.setAttribute("aria-label", t("table:countdown.label", { count: left }));
  }
  cueClock(view, ctx, left);
  for (const n of document.querySelectorAll("[data-countdown]")) n.textContent = left === null ? "" : t("table:countdown.left", { seconds: left });
  const act = left !== null && mustAct(view, ctx);
  const doing = { setting: "table:dialog.clock.setting", bank_offer: "table:dialog.clock.bank_offer", betting: "table:dialog.clock.betting" }[view.deadline_kind];
  unblockClock(view, ctx); // a dialog opened since the last view (the coach, the pay table, a confirmation) shows the clock too
  for (const n of document.querySelectorAll("[data-dialog-clock]")) {
    n.textContent = act && doing ? t(doing, { seconds: left }) : "";
    n.hidden = !act;
  }
  for (const n of document.querySelectorAll("[data-warn]")) {
    n.textContent = warn ? t(`table:hurry.${stakes}`, { seconds: left }) : "";
    n.hidden = !warn;
  }
  const near = dealIsNear(view);
  for (const n of document.querySelectorAll("[data-until-deal]")) n.hidden = near;
  for (const n of document.querySelectorAll("[data-when-deal]")) n.hidden = !near;
  const who = view.home ? "host" : "operator";
  const next = view.phase === "closed" ? "" : view.deadline_kind === "next_round" && left !== null && !view.paused ? t("table:next_round.in", { seconds: left })
    : view.paused ? t(`table:next_round.paused.${who}`) : "";
  tickOffer(view);
  for (const n of document.querySelectorAll("[data-next]")) n.textContent = next;
}

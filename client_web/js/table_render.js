// Draws the table from the view: seven positions around the oval (0 = the house dealer, then
// counterclockwise), names, chips, states, bets, the banker marker, hands, discards and the showdown.

import { el, money } from "./api.js";
import { markName, t } from "./i18n.js";
import { sortForDisplay, toCard } from "./cards.js";
import { cardElement } from "./card_svg.js";
import { chipStack, chipsBehind } from "./chips.js";
import { showdownMarks } from "./showdown.js";
import { bonusBadge, seatFortune } from "./fortune.js";
import { admitted, isBarred, offerFor } from "./home_seat.js";
import { blockOf } from "./table_block.js";
import { myRequest } from "./buy_in.js";
import { BANK_TURN, WAITING } from "./chips_words.js";
import { MARK_WORDS } from "./seat_marks.js";
import { clauseWords, handNames } from "./hand_eval.js";

/** The deal's pace: a packet leaves the shoe every PACKET_MS and lands FLIGHT_MS later (table.css deal-in). */
export const PACKET_MS = 140;
export const FLIGHT_MS = 450;

const STATUS_WORDS = { away: "table:seat.status.away", sitting_out: "table:seat.status.sitting_out", leaving: "table:seat.status.leaving" };

/** Where position p sits on the oval, as a unit vector (the dealer at the top, then counterclockwise). */
export function positionXY(p) {
  const angle = ((90 + (p * 360) / 7) * Math.PI) / 180;
  return { x: Math.cos(angle), y: -Math.sin(angle) };
}

export function createPositions(holder) {
  const nodes = [];
  for (let p = 0; p < 7; p += 1) {
    const { x, y } = positionXY(p);
    const node = el("div", { class: "pos", "data-position": String(p), role: "group" },
      el("div", { class: "hand" }), el("div", { class: "hand-names" }), el("div", { class: "plate" }),
      el("div", { class: "bet" }), el("div", { class: "outcome" }));
    node.style.setProperty("--cx", x.toFixed(4));
    node.style.setProperty("--cy", y.toFixed(4));
    nodes.push(node);
  }
  holder.replaceChildren(...nodes);
  return nodes;
}

function setIfChanged(node, key, build) {
  if (node.dataset.sig === key) return;
  node.dataset.sig = key;
  node.replaceChildren(...[build()].flat().filter(Boolean));
}

function cardsRow(texts, opts = {}) {
  return texts.map((t, i) => {
    const c = cardElement(t === null ? null : toCard(t), { className: opts.className });
    if (opts.delay !== undefined) c.style.setProperty(opts.delayVar ?? "--deal-delay", `${opts.delay + i * 25}ms`);
    return c;
  });
}

function handFor(p, view, ctx) {
  const rnd = view.round;
  const shown = ctx.showdown;
  if (shown) {
    const h = shown.hands.find((x) => x.position === p);
    if (!h) return { sig: "none", build: () => [] };
    const marks = showdownMarks(h, shown, view.rules);
    const named = handNames(h, view.rules?.wheel);
    return {
      sig: `show:${shown.round_id}:${h.high.join()}|${h.low.join()}`,
      names: t(h.fouled ? "table:seat.hands.foul" : "table:seat.hands", named),
      clause: h.house_way_clause ? clauseWords(h.house_way_clause) : null,
      build: () => {
        const flip = ctx.anim && ctx.justSettled === shown.round_id;
        const opts = flip ? { className: "flip", delayVar: "--flip-delay", delay: p * 60 } : {};
        return [
          el("div", { class: `group high${marks.high === "win" ? " won" : ""}`, "aria-label": t("table:seat.high.label", { hand: named.high }) },
            cardsRow(sortForDisplay(h.high.map(toCard)).map((c) => c.text), opts)),
          el("div", { class: `group low${marks.low === "win" ? " won" : ""}`, "aria-label": t("table:seat.low.label", { hand: named.low }) },
            cardsRow(sortForDisplay(h.low.map(toCard)).map((c) => c.text), opts)),
        ];
      },
      split: true,
    };
  }
  if (!rnd || !rnd.hands || rnd.hands.length === 0) return { sig: "none", build: () => [] };
  const h = rnd.hands.find((x) => x.position === p);
  // The deal: after the dice, one packet of seven a position in the dealt order (from the first hand,
  // counterclockwise), each flying from the shoe; the viewer's own cards turn face up once they land.
  const dealing = ctx.anim && ctx.dealAnim && ctx.dealAnim.roundId === rnd.round_id;
  const packet = rnd.first_position == null ? 0 : (p - rnd.first_position + 7) % 7;
  const delay = dealing ? Math.max(0, ctx.dealAnim.dealAt + packet * PACKET_MS - performance.now()) : undefined;
  const dealtOpts = dealing ? { className: "dealt", delay } : {};
  const inFlight = dealing && !ctx.dealAnim.ownLanded;
  if (!h) {
    // A dead hand (empty seat): dealt face down and set aside unseen.
    if (!dealing) return { sig: "none", build: () => [] };
    return { sig: `dead:${rnd.round_id}`, dead: true, build: () => cardsRow(Array(7).fill(null), dealtOpts) };
  }
  if (h.cards && h.cards.length) {
    const setKey = h.is_set ? `${h.high.join()}|${h.low.join()}` : "";
    if (h.is_set && h.high.length) {
      return {
        sig: `own-set:${rnd.round_id}:${setKey}`, split: true,
        build: () => [el("div", { class: "group high" }, cardsRow(sortForDisplay(h.high.map(toCard)).map((c) => c.text))),
          el("div", { class: "group low" }, cardsRow(sortForDisplay(h.low.map(toCard)).map((c) => c.text)))],
      };
    }
    if (inFlight) {
      return { sig: `own-flying:${rnd.round_id}`, build: () => {
        const backs = cardsRow(Array(7).fill(null), dealtOpts);
        backs[6].addEventListener("animationend", () => ctx.onOwnLanded(rnd.round_id), { once: true });
        return backs;
      } };
    }
    const landed = dealing ? { className: "flip", delayVar: "--flip-delay", delay: 0 } : {};
    return { sig: `own:${rnd.round_id}:${h.cards.join()}`, build: () => cardsRow(sortForDisplay(h.cards.map(toCard)).map((c) => c.text), landed) };
  }
  if (h.is_set) {
    return { sig: `back-set:${rnd.round_id}`, split: true,
      build: () => [el("div", { class: "group" }, cardsRow(Array(5).fill(null))), el("div", { class: "group" }, cardsRow(Array(2).fill(null)))] };
  }
  return { sig: `back:${rnd.round_id}`, build: () => cardsRow(Array(7).fill(null), dealtOpts) };
}

/** Who sits at position `p` in words: "the dealer", the player's name, "seat 3" when empty; "a player" when
 * the position is not known (never "seat undefined"). */
export function positionName(view, p) {
  if (p === 0) return t("table:who.dealer");
  return p == null ? t("table:who.a_player") : view.seats[p]?.name ?? t("table:who.seat", { seat: p });
}

function plateFor(p, view, ctx) {
  if (p === 0) {
    const wager = view.round?.dealer_wager_cents ?? 0;
    // A co-banked round: who banks, the house and the co-banker (their name cut short, its whole in the title).
    const rnd = view.round;
    const youCo = rnd?.co_banked && rnd.banker_position === view.you?.position;
    const coBanker = rnd?.co_banked ? positionName(view, rnd.banker_position) : null;
    const banks = youCo ? t("table:dealer.co_bank.you") : coBanker ? t("table:dealer.co_bank", { name: coBanker })
      : wager ? t("table:dealer.plays_banker") : view.rules.players_bank_in_turn ? BANK_TURN.dealer : t("table:dealer.house");
    const coTitle = youCo ? t("table:dealer.co_bank.you.title") : coBanker ? t("table:dealer.co_bank.title", { name: coBanker }) : null;
    return { sig: `dealer:${banks}`, build: () => [el("span", { class: "name", text: t("table:dealer.name") }),
      el("span", { class: `chips${coBanker ? " co-bank" : ""}`, text: banks, title: coTitle })] };
  }
  const s = view.seats[p];
  if (!s) {
    // No seat is offered to a player the operator barred (until the bar ends), nor once the session has ended.
    const barred = isBarred(ctx) || Boolean(blockOf(ctx)); // a break or self-exclusion too (table_block.js)
    // Nor a seat the waiting list holds for someone's offer, nor any at a home game before the host lets you in.
    const held = offerFor(view, p);
    const canSit = ctx.role === "player" && !view.you && view.phase !== "closed" && !barred && !ctx.ended && !held && admitted(view, ctx) && !myRequest(view, ctx);
    // An unplayed position's hand bought as the Dragon (docs/rules.md §4b): named for its buyer.
    const rd = view.round?.dragon;
    const buyer = ctx.showdown?.hands.find((h) => h.position === p && h.dragon_of != null)?.player_id ?? (rd?.position === p ? rd.buyer_player_id : null);
    // A buy-in's held seat (a home game's own chips) says whose in its title: a long name would not fit the plate.
    const buyIn = held && held.request_id !== undefined && held.player_id !== ctx.playerId;
    const free = held ? (buyIn ? WAITING.heldPlate : held.player_id === ctx.playerId ? t("table:seat.held.you") : t("table:seat.held", { name: held.name })) : t("table:seat.open");
    const what = buyer ? (buyer === ctx.playerId ? t("table:seat.dragon.yours") : ctx.names[buyer] ? t("table:seat.dragon.of", { name: ctx.names[buyer] }) : t("table:seat.dragon.someone")) : free;
    return {
      sig: `empty:${canSit}:${held?.player_id ?? ""}:${buyer ?? ""}`,
      build: () => [el("span", { class: "name", text: t("table:seat.name", { seat: p }) }),
        canSit ? el("button", { class: "btn small sit-btn", type: "button", "data-seat": String(p), onclick: () => ctx.onSit(p), text: t("table:seat.sit_here.button") })
          : el("span", { class: `chips${buyer ? " dragon-of" : ""}`, title: buyIn ? WAITING.heldFor(held.name) : what, text: what })],
    };
  }
  const tags = [];
  if (STATUS_WORDS[s.status]) tags.push(el("span", { class: "tag warn", text: t(STATUS_WORDS[s.status]) }));
  if (view.round?.offer_player_id === s.player_id && view.phase === "bank_offer") tags.push(el("span", { class: "tag live", text: t("table:seat.offered_bank") }));
  const h = view.round?.hands?.find((x) => x.position === p);
  // The chips in front of the seat: what is bet is on the table, in the bet spot, no longer in the stack.
  const behind = chipsBehind(view, s, p);
  if (view.phase === "setting" && h) tags.push(el("span", { class: `tag${h.is_set ? " live" : ""}`, text: h.is_set ? t("table:seat.set") : t("table:seat.setting") }));
  return {
    sig: `seat:${s.player_id}:${s.name}:${behind}:${tags.map((t) => t.textContent).join()}`,
    build: () => [markName(el("span", { class: "name", text: s.name, title: s.name })), el("span", { class: "chips", "data-chips": String(behind), text: money(behind) }),
      el("span", { class: "status" }, tags)],
  };
}

function betFor(p, view) {
  const amount = p === 0 ? view.round?.dealer_wager_cents ?? 0 : view.seats[p]?.bet_cents ?? 0;
  const bonus = p === 0 ? 0 : view.seats[p]?.bonus_cents ?? 0;
  // The dealer's wager against a player-banker says what it is.
  const stack = () => (p === 0 ? chipStack(amount, { label: "table:dealer.wager", title: t("table:dealer.wager.title") }) : chipStack(amount));
  return { sig: `bet:${amount}:${bonus}`, build: () => [...(amount > 0 ? [stack()] : []), ...(bonus > 0 ? [bonusBadge(bonus)] : [])] };
}

/** A seat's marks at the showdown (seat_marks.js); the marks' aria-label says them to a screen reader. */
function outcomeFor(p, view, ctx) {
  const shown = ctx.showdown;
  const h = shown?.hands.find((x) => x.position === p);
  if (!h) return { sig: "none", build: () => [] };
  const marks = showdownMarks(h, shown, view.rules);
  const letter = { win: "w", loss: "l", copy: "c" };
  if (h.is_banker) {
    const net = shown.banker_net_cents;
    const kind = net > 0 ? "win" : net < 0 ? "loss" : "push";
    return { sig: `bank:${shown.round_id}`, build: () => [el("span", { class: `result ${kind}`, "data-result": kind, text: t("table:result.bank", { amount: money(net, { sign: true }) }) }),
      seatFortune(h, view)] };
  }
  const outcome = h.outcome ?? "loss";
  const text = outcome === "win" ? t("table:result.win", { amount: money(h.net_cents, { sign: true }) }) : outcome === "push" ? t("table:result.push") : t("table:result.loss", { amount: money(h.net_cents) });
  const full = h.commission_cents > 0 ? t("table:result.with_commission", { result: text, commission: money(h.commission_cents) }) : text;
  return {
    sig: `out:${shown.round_id}`,
    build: () => [el("span", { class: `result ${outcome}`, "data-result": outcome, title: full, text }),
      el("span", { class: "marks", "aria-label": t(`table:marks.label.${marks.high}.${marks.low}`) },
        ...["high", "low"].map((which) => el("b", { class: letter[marks[which]], title: MARK_WORDS[which][marks[which]].title },
          el("span", { class: "mark-long", text: MARK_WORDS[which][marks[which]].long }),
          el("span", { class: "mark-short", text: MARK_WORDS[which][marks[which]].short })))),
      seatFortune(h, view)],
  };
}

/**
 * Where the BANK marker sits: at the banker of the round in play (the dealer when the house banks), at the
 * seat offered the bank while the offer runs, at the banker of the showdown on screen between rounds; null
 * (no marker) between rounds with no showdown and at a closed table. Never at an empty seat.
 */
export function bankPosition(view, ctx) {
  if (view.phase === "closed") return null;
  const rnd = view.round;
  if (rnd) {
    if (rnd.banker_position != null) return rnd.banker_position;
    return view.phase === "bank_offer" && view.seats[view.marker] ? view.marker : 0;
  }
  return ctx.showdown ? ctx.showdown.banker_position : null;
}

/** The boxes on the stage a BANK marker must not cover: the other positions' cards, plates, bets and results,
 * its own seat's cards and hands' names, the shoe and the discards. */
function othersBoxes(nodes, p) {
  const stage = nodes[0].closest(".stage") ?? nodes[0].parentElement;
  return [...nodes.filter((_, i) => i !== p).flatMap((n) => [...n.querySelectorAll(".hand .card, .plate, .bet > *, .outcome > *")]),
    ...nodes[p].querySelectorAll(".hand .card, .hand-names"), ...stage.querySelectorAll(".shoe, .discards .card")]
    .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
}

/** The one BANK marker, beside the banker's name plate on the side away from the centre (never over cards
 * or a name); it glides to its new place when the bank moves. */
function placeMarker(nodes, view, ctx) {
  const stage = nodes[0].parentElement.closest(".stage") ?? nodes[0].parentElement;
  let marker = stage.querySelector(":scope > .bank-marker");
  const p = bankPosition(view, ctx);
  if (p === null) {
    marker?.remove();
    stage.dataset.markerIn = "";
    return;
  }
  if (!marker) {
    marker = el("span", { class: "bank-marker", role: "img", text: t("table:marker.text") });
    stage.append(marker);
  }
  const offered = view.phase === "bank_offer" && view.round?.banker_position == null && p !== 0;
  marker.classList.toggle("offered", offered);
  const who = positionName(view, p);
  marker.setAttribute("aria-label", offered ? t("table:marker.label.offered", { name: who }) : t("table:marker.label.banks", { name: who }));
  marker.title = offered ? t("table:marker.title.offered", { name: who }) : t("table:marker.title.banks", { name: who });
  marker.dataset.position = String(p);
  const plate = nodes[p].querySelector(".plate").getBoundingClientRect();
  const box = stage.getBoundingClientRect();
  const size = marker.offsetWidth || 34;
  const outward = p !== 0 && positionXY(p).x > 0 ? 1 : -1;  // the dealer's right holds its wager and result
  const right = plate.right - box.left + 4;
  const left = plate.left - box.left - size - 4;
  const height = marker.offsetHeight || size;
  const fits = (at) => at >= 0 && at + size <= box.width;
  const beside = plate.top - box.top + plate.height / 2 - height / 2;
  // Beside the plate, away from the centre first; where a wide marker (a longer language's word) would lie
  // over another seat's cards or plate, on the other side, else just above the plate.
  const sides = outward > 0 ? [right, left] : [left, right];
  const above = plate.top - box.top - height - 2;
  const spots = [...sides.filter(fits).map((at) => [at, beside]),
    ...(above >= 0 ? [[Math.min(Math.max(0, plate.left - box.left + plate.width / 2 - size / 2), box.width - size), above]] : [])];
  if (!spots.length) spots.push([outward > 0 ? right : left, beside]);
  const clear = ([at, top]) => !othersBoxes(nodes, p).some((r) => at < r.right - box.left - 1 && r.left - box.left < at + size - 1
    && top < r.bottom - box.top - 1 && r.top - box.top < top + height - 1);
  const [x, y] = spots.find(clear) ?? spots[0];
  // A side seat beside the centre with no room outside (a phone): the marker stands on the centre's side or above
  // the plate, and the centre's words and banner keep clear of it (table.css, data-marker-in).
  const inward = (p === 2 || p === 5) && !(y === beside && x === (outward > 0 ? right : left));  // beside inward, or above
  stage.dataset.markerIn = inward ? (p === 2 ? "left" : "right") : "";
  marker.style.left = `${Math.round(x)}px`;
  marker.style.top = `${Math.round(y)}px`;
  if (!marker.classList.contains("placed")) requestAnimationFrame(() => marker.classList.add("placed"));
  // The page may still be settling (the tray, the banner, fonts): place it again once the plate stops moving.
  requestAnimationFrame(() => {
    const now = nodes[p].querySelector(".plate")?.getBoundingClientRect();
    if (now && (Math.abs(now.left - plate.left) > 1 || Math.abs(now.top - plate.top) > 1)) placeMarker(nodes, view, ctx);
  });
}

let lastPlaced = null;
window.addEventListener("resize", () => { if (lastPlaced) placeMarker(...lastPlaced); });
// The stage changes size without the window doing so too (the tray's panels come and go): follow it.
const stageWatch = new ResizeObserver(() => { if (lastPlaced) placeMarker(...lastPlaced); });
const stageNode = document.querySelector(".stage");
if (stageNode) stageWatch.observe(stageNode);

export function renderPositions(nodes, view, ctx) {
  nodes.forEach((node, p) => {
    const seat = view.seats[p];
    node.classList.toggle("empty", p !== 0 && !seat);
    node.classList.toggle("dealer", p === 0);
    node.classList.toggle("me", Boolean(view.you && view.you.position === p));
    node.classList.toggle("away", seat?.status === "away");
    node.classList.toggle("sitting_out", seat?.status === "sitting_out");
    node.setAttribute("aria-label", p === 0 ? t("table:position.dealer") : seat ? t("table:position.seat", { seat: p, name: seat.name }) : t("table:position.empty", { seat: p }));
    const [handNode, namesNode, plateNode, betNode, outNode] = node.children;
    const hand = handFor(p, view, ctx);
    handNode.classList.toggle("split", Boolean(hand.split));
    handNode.classList.toggle("dead", Boolean(hand.dead));
    setIfChanged(handNode, hand.sig, hand.build);
    const names = `${hand.names ?? ""}|${hand.clause ?? ""}`;
    if (namesNode.dataset.sig !== names) {
      namesNode.dataset.sig = names;
      const clause = hand.clause ? t("table:seat.clause", { clause: hand.clause }) : "";
      namesNode.replaceChildren(hand.names ? el("span", { class: "names", text: hand.names }) : "",
        clause ? el("span", { class: "clause", text: clause }) : "");
      // Two lines at most on the table, each part clamped in its own box (never one over the other): the whole
      // text on hover (and in the showdown under the table).
      namesNode.title = hand.names && clause ? t("table:seat.hands_and_clause", { hands: hand.names, clause }) : hand.names || clause;
    }
    const plate = plateFor(p, view, ctx);
    setIfChanged(plateNode, plate.sig, plate.build);
    const bet = betFor(p, view);
    setIfChanged(betNode, bet.sig, bet.build);
    const out = outcomeFor(p, view, ctx);
    setIfChanged(outNode, out.sig, out.build);
  });
  lastPlaced = [nodes, view, ctx];
  placeMarker(nodes, view, ctx);
}

export function renderDiscards(holder, view, ctx) {
  const dealt = Boolean(view.round?.hands?.length) && !ctx.showdown;
  const sig = dealt ? `d:${view.round.round_id}` : "none";
  if (holder.dataset.sig === sig) return;
  holder.dataset.sig = sig;
  holder.replaceChildren(...(dealt ? [...cardsRow(Array(4).fill(null)), el("span", { class: "label", text: t("table:discards", { count: 4 }) })] : []));
}

// A round's settlement as a moment at the table, for everyone watching: once the cards have turned, the
// losers' chips go to the banker (and a lost Fortune bonus to the house), then the banker's chips go to the
// winners (the house's to a Fortune win, and a big hand's Envy from that hand's seat to each player it
// pays), then the commissions go to the house; each seat's amounts count up from nothing as their chips
// move. A Fortune hand of four of a kind or better is a bigger moment: its seat glows, the seats its Envy
// paid glow and say whose hand paid them ("Envy +$20.00 from Bob", the Envy chips flying from Bob's seat),
// and a player it pays hears a sound of its own (the tray says it in words: fortune.js fortuneLines).
//
// A pure overlay: the chips fly in a layer that takes no pointer, over the table, never over the controls,
// and nothing waits for them. With the page's animation off, or the system's reduced motion, nothing
// moves: the amounts are there at once and the big moment's glow and words too. Everything is worked out
// from the settled round's public record; the amounts written are those the seats already show
// (table_render.js), counted up in place.

import { el, money } from "./api.js";
import { t } from "./i18n.js";
import { DENOMINATIONS } from "./chips.js";
import { handLabel } from "./fortune.js";
import { play } from "./sound.js";

const HOUSE = 0; // the house dealer's position: where the house's chips come from and go to

/** The Fortune categories of four of a kind or better (docs/fortune.md): those that pay Envy. */
const BIG = new Set(["seven_card_straight_flush", "royal_plus_royal_match", "seven_card_straight_flush_with_joker",
  "five_aces", "royal_flush", "straight_flush", "four_of_a_kind"]);

// The moment's clock, in ms from the showdown's drawing: the cards turn (table.css flip, 60 ms a position
// after the dealer's), the losers' chips fly, then the winners', then the commissions. Each flight lasts
// FLY_MS; the big moment shows as the Envy chips land.
const AT = { collect: 450, pay: 1050, commission: 1650 };
const FLY_MS = 550;
const BIG_AT = AT.pay + FLY_MS;
const END = AT.commission + FLY_MS + 300;

/**
 * Where the round's money goes, as chips: [{from, to, cents, phase, kind}], positions 0-6 (0: the house
 * dealer), `phase` "collect" | "pay" | "commission", `kind` "loss" | "win" | "commission" | "bonus" | "envy".
 */
export function moneyFlows(record) {
  const banker = record.banker_position ?? HOUSE;
  const flows = [];
  const add = (from, to, cents, phase, kind) => { if (cents > 0 && from !== to) flows.push({ from, to, cents, phase, kind }); };
  for (const h of record.hands) {
    if (!h.is_banker) {
      if (h.net_cents < 0) add(h.position, banker, -h.net_cents, "collect", "loss");
      if (h.net_cents > 0) add(banker, h.position, h.gross_cents || h.net_cents, "pay", "win");
      add(h.position, HOUSE, h.commission_cents ?? 0, "commission", "commission");
    }
    // The Fortune is banked by the house; Envy flies from the hand that paid it.
    if (h.bonus_win_cents < 0) add(h.position, HOUSE, -h.bonus_win_cents, "collect", "bonus");
    if (h.bonus_win_cents > 0) add(HOUSE, h.position, h.bonus_win_cents, "pay", "bonus");
    for (const e of h.envy ?? []) add(e.position, h.position, e.amount_cents, "pay", "envy");
  }
  if (banker !== HOUSE) add(banker, HOUSE, record.banker_commission_cents ?? 0, "commission", "commission");
  return flows;
}

/** Whose name a hand of the record goes by (the seat's, else "seat N"). */
function nameOf(ctx, view, position, playerId) {
  return (playerId && ctx.names?.[playerId]) || view.seats[position]?.name || t("table:who.seat", { seat: position });
}

/**
 * The big moments of a round: the seats whose Fortune hand is four of a kind or better and paid a bonus or
 * Envy (`hits`: {position, fortune}) and each Envy payment (`envy`: {position: the seat paid, from: the seat
 * whose hand paid it, fortune, cents}).
 */
export function bigMoments(record) {
  const envy = record.hands.flatMap((h) => (h.envy ?? []).map((e) => ({ position: h.position, playerId: h.player_id,
    from: e.position, fromPlayerId: e.player_id, fortune: e.fortune, cents: e.amount_cents })));
  const hits = record.hands.filter((h) => BIG.has(h.fortune) && (h.bonus_win_cents > 0 || envy.some((e) => e.from === h.position)))
    .map((h) => ({ position: h.position, fortune: h.fortune, bonusCents: Math.max(0, h.bonus_win_cents ?? 0) }));
  return { hits, envy };
}

/** A big moment concerns the viewer: their own Fortune hit paid, or Envy paid to them (never a spectator). */
export function ownBig(record, ctx) {
  const me = ctx.role === "player" ? ctx.playerId : null;
  const { hits, envy } = bigMoments(record);
  const mine = (p) => record.hands.some((h) => h.position === p && h.player_id === me);
  return Boolean(me) && (hits.some((h) => h.bonusCents > 0 && mine(h.position)) || envy.some((e) => e.playerId === me));
}

/** The viewer's result of the round: the sum of their hands' (a Dragon's too) and bonuses' (null: not in it). */
function ownNet(record, ctx) {
  const me = ctx.role === "player" ? ctx.playerId : null;
  const hands = me ? record.hands.filter((h) => h.player_id === me) : [];
  if (!hands.length) return null;
  return hands.reduce((sum, h) => sum + (h.is_banker ? record.banker_net_cents : h.net_cents) + (h.bonus_net_cents ?? 0), 0);
}

const reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
let current = null; // the moment on the table: {roundId, master, layer, nodes}

/** Where a position's chips leave from and land: its result (where the amount counts), else its plate. */
function anchor(node, stage) {
  const out = node.querySelector(".outcome");
  const r = out?.getClientRects().length && out.getBoundingClientRect().width ? out.getBoundingClientRect()
    : node.querySelector(".plate").getBoundingClientRect();
  return { x: r.left + r.width / 2 - stage.left, y: r.top + r.height / 2 - stage.top };
}

function chipClass(flow) {
  if (flow.kind === "envy" || flow.kind === "bonus") return "v100000";
  const d = DENOMINATIONS.find((v) => v <= flow.cents) ?? 100;
  return `v${d}`;
}

/** The chips of one flow, flying (up to three, one after the other). */
function fly(layer, flow, nodes, stage) {
  const a = anchor(nodes[flow.from], stage);
  const b = anchor(nodes[flow.to], stage);
  const count = flow.cents >= 2500 ? 3 : flow.cents >= 500 ? 2 : 1;
  const lift = -Math.min(60, Math.hypot(b.x - a.x, b.y - a.y) / 4);
  for (let i = 0; i < count; i += 1) {
    const chip = el("span", { class: `chip ${chipClass(flow)} moment-chip`, "data-from": String(flow.from), "data-to": String(flow.to),
      "data-kind": flow.kind });
    chip.style.left = `${a.x}px`;
    chip.style.top = `${a.y}px`;
    layer.append(chip);
    const [dx, dy] = [b.x - a.x, b.y - a.y];
    chip.animate([
      { transform: "translate(-50%, -50%) scale(0.5)", opacity: 0 },
      { transform: "translate(-50%, -50%) scale(1)", opacity: 1, offset: 0.12 },
      { transform: `translate(calc(-50% + ${dx / 2}px), calc(-50% + ${dy / 2 + lift}px))`, offset: 0.55 },
      { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))`, opacity: 1, offset: 0.9 },
      { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px)) scale(0.7)`, opacity: 0 },
    ], { duration: FLY_MS, delay: AT[flow.phase] + i * 80, easing: "ease-in-out", fill: "both" }).finished.then(() => chip.remove(), () => chip.remove());
  }
}

/** A seat's amount written as money in `node`, counted from nothing over [from, to] of the moment. */
function counter(node, cents, from, to) {
  const text = node?.textContent ?? "";
  const end = money(cents, { sign: true });
  if (!node || !cents || !text.includes(end)) return null;
  node.style.minWidth = `${node.getBoundingClientRect().width}px`; // no seat moves as the digits grow
  node.animate([{ transform: "scale(1)" }, { transform: "scale(1.15)", offset: 0.85 }, { transform: "scale(1)" }],
    { duration: to - from, delay: from });
  return { node, text, end, cents, from, to, shown: null };
}

function countTo(c, now) {
  const p = Math.min(1, Math.max(0, (now - c.from) / (c.to - c.from)));
  const cents = Math.round(c.cents * (1 - (1 - p) ** 3));
  const text = p >= 1 ? c.text : c.text.replace(c.end, money(cents, { sign: true }));
  if (text !== c.shown && c.node.isConnected) c.node.textContent = text;
  c.shown = text;
  if (p >= 1) c.node.style.minWidth = "";
  return p < 1;
}

/** The counters of each seat's amounts: its result (the banker's over the whole exchange) and its Fortune. */
function counters(record, nodes) {
  const span = (net, banker) => (banker ? [AT.collect, AT.pay + FLY_MS] : net < 0 ? [AT.collect, AT.collect + FLY_MS] : [AT.pay, AT.pay + FLY_MS]);
  const out = [];
  for (const h of record.hands) {
    const node = nodes[h.position];
    const net = h.is_banker ? record.banker_net_cents : h.net_cents;
    out.push(counter(node.querySelector(".outcome [data-result]"), net, ...span(net, h.is_banker)));
    out.push(counter(node.querySelector(".outcome [data-fortune-seat]"), h.bonus_net_cents ?? 0, ...span(h.bonus_net_cents ?? 0, false)));
  }
  return out.filter(Boolean);
}

/** The big moment at the seats: the glow of each big hand's seat and of each seat its Envy paid, the words. */
function showBig(record, view, ctx, nodes, animate) {
  const { hits, envy } = bigMoments(record);
  for (const h of hits) {
    const node = nodes[h.position];
    node.classList.add("moment-big");
    const pill = node.querySelector(".outcome [data-fortune-seat]");
    if (pill && h.bonusCents > 0) pill.classList.add("big");
    else node.querySelector(".outcome")?.append(el("span", { class: "moment-tag hit", "data-moment": "hit",
      title: t("table:moment.hit.title", { name: nameOf(ctx, view, h.position, null), hand: handLabel(view, h.fortune) }),
      text: t("table:moment.hit", { hand: handLabel(view, h.fortune) }) }));
  }
  for (const e of envy) {
    const node = nodes[e.position];
    node.classList.add("moment-envy");
    const who = nameOf(ctx, view, e.from, e.fromPlayerId);
    const tag = el("span", { class: "moment-tag envy", "data-moment": "envy", "data-from": String(e.from),
      title: t("table:moment.envy.title", { name: who, hand: handLabel(view, e.fortune), paid: nameOf(ctx, view, e.position, e.playerId), amount: money(e.cents) }),
      text: t("table:moment.envy", { amount: money(e.cents, { sign: true }), name: who }) });
    node.querySelector(".outcome")?.append(tag);
    if (animate) tag.animate([{ transform: "scale(0.3)", opacity: 0 }, { transform: "scale(1.15)", offset: 0.6 }, { transform: "scale(1)" }], 450);
  }
  return hits.length + envy.length > 0;
}

/** The showdown of the moment has left the table (the next round): its glow goes with it; its chips, if
 * still in the air, land (they take no pointer and hold up nothing). */
export function endMoment(ctx) {
  if (!current || ctx.showdown?.round_id === current.roundId) return;
  for (const n of current.nodes) n.classList.remove("moment-big", "moment-envy");
  current = null;
}

/** The settled round's moment (round_settled): drawn once the showdown is on the table. */
export function settleMoment(record, ctx, nodes) {
  requestAnimationFrame(() => {
    if (ctx.showdown?.round_id !== record.round_id || !ctx.view) return;
    const stage = nodes[0].closest(".stage");
    let layer = stage.querySelector(":scope > .moments");
    if (!layer) {
      layer = el("div", { class: "moments", "aria-hidden": "true" });
      stage.append(layer);
    }
    current?.master.cancel();
    layer.replaceChildren();
    const view = ctx.view;
    const animate = ctx.anim && !reduced();
    const net = ownNet(record, ctx);
    const mineBig = ownBig(record, ctx);
    const sound = () => play(mineBig ? "big" : net > 0 ? "win" : "loss");
    const master = layer.animate([{ opacity: 1 }, { opacity: 1 }], { duration: animate ? END : 1 });
    current = { roundId: record.round_id, master, nodes };
    if (!animate) {
      showBig(record, view, ctx, nodes, false);
      if (net || mineBig) sound();
      return;
    }
    const box = stage.getBoundingClientRect();
    for (const flow of moneyFlows(record)) fly(layer, flow, nodes, box);
    const counts = counters(record, nodes);
    const soundAt = mineBig ? BIG_AT : net < 0 ? AT.collect + FLY_MS : AT.pay + FLY_MS;
    let [big, heard] = [false, !net && !mineBig];
    const step = () => {
      const now = master.playState === "idle" ? END : master.currentTime ?? END; // idle: cancelled by the next moment
      const live = current?.master === master; // its showdown still on the table
      let running = now < END;
      for (const c of counts) running = countTo(c, now) || running;
      if (live && !big && now >= BIG_AT) big = showBig(record, view, ctx, nodes, true) || true;
      if (live && !heard && now >= soundAt) {
        heard = true;
        sound();
      }
      if (running) requestAnimationFrame(step);
    };
    step();
  });
}

// What a patch's events do at the table page: each said in words (the table's log, the notice and toasts about
// you, the screen reader's line), the deal's dice and flying cards, the settled round's moment and sounds.

import { serverNow } from "./clock.js";
import { describeEvents } from "./explain.js";
import { rollDice } from "./dice.js";
import { mergeRounds } from "./rounds.js";
import { play } from "./sound.js";
import { cueEvents } from "./cues.js";
import { settleMoment } from "./win_moments.js";
import { FLIGHT_MS, PACKET_MS } from "./table_render.js";
import { describeHomeEvents } from "./home_words.js";
import { describeChipEvents } from "./chips_words.js";
import { announce, settledWords, turnWords } from "./table_announcer.js";

const $ = (id) => document.getElementById(id);

function animateDeal(ctx, nodes, ev, view) {
  const banker = view.round?.banker_position ?? 0;
  const total = ev.dice[0] + ev.dice[1] + ev.dice[2];
  if (!ctx.anim) return;
  const dealAt = performance.now() + 1300 + total * 95; // when the dice have rolled and counted
  ctx.dealAnim = { roundId: view.round.round_id, dealAt };
  // The viewer's own cards turn face up (and show in the tray) when their packet lands: at the end of its
  // flight (table_render.js), or a while after it was due should the flight never be drawn (a hidden tab).
  const own = view.you ? (view.you.position - ev.first_position + 7) % 7 : 0;
  const due = dealAt + own * PACKET_MS + FLIGHT_MS;
  ctx.dealAnim.ownLanded = !view.you;
  setTimeout(() => ctx.onOwnLanded(view.round.round_id), Math.max(0, due - performance.now()) + 3000);
  ctx.rolling = true;
  nodes.forEach((n) => n.classList.remove("first"));
  // Cards fly from the shoe to each position.
  const shoe = document.querySelector(".shoe").getBoundingClientRect();
  for (const n of nodes) {
    const r = n.querySelector(".hand").getBoundingClientRect();
    n.style.setProperty("--from-x", `${shoe.x + shoe.width / 2 - (r.x + r.width / 2)}px`);
    n.style.setProperty("--from-y", `${shoe.y + shoe.height / 2 - (r.y + r.height / 2)}px`);
  }
  rollDice($("dice"), ev.dice, banker, {
    sound: play,
    step: (p) => { nodes.forEach((n, i) => n.classList.toggle("counting", i === p)); },
  }).then(() => {
    ctx.rolling = false;
    nodes.forEach((n) => n.classList.remove("counting"));
    nodes[ev.first_position]?.classList.add("first");
    setTimeout(() => nodes[ev.first_position]?.classList.remove("first"), 2500);
    for (let k = 0; k < 7; k += 1) setTimeout(() => play("card"), k * 140);
  });
}

/** The patch's events in words: each goes to the table's log, and those about you on your screen. */
function explainEvents(ctx, events, view) {
  if (events.some((e) => e.kind === "round_started")) {
    ctx.notice = null;
    ctx.voided = null;
    ctx.ui.clamped = null;
    // A new round starts from no amount: a draft that was never placed does not carry into it.
    ctx.ui.betDraft = 0;
    ctx.ui.betText = null;
  }
  // "You are sitting out" / "cannot bank: sitting out" is no longer true once you sit in or bet.
  const playing = events.some((e) => (e.kind === "player_sat_in" || e.kind === "bet_placed") && e.player_id === ctx.playerId);
  if (playing && ctx.notice?.untilPlay) ctx.notice = null;
  for (const ev of events) if (ev.player_id && ev.name) ctx.names[ev.player_id] ??= ev.name;
  // A player's name, or null when this page never saw it (each sentence then says "a player").
  const nameOf = (id, seat) => ctx.names[id] ?? (seat == null ? null : view.seats[seat]?.name) ?? null;
  const me = ctx.role === "player" ? ctx.playerId : null;
  const homeLines = [...describeHomeEvents(events, view, me, (id) => nameOf(id)), ...describeChipEvents(events, view, me, (id) => nameOf(id))];
  for (const line of [...describeEvents(events, view, me, nameOf), ...homeLines]) {
    ctx.log.unshift({ text: line.text, at: serverNow() });
    if (line.say) announce(line.text);
    if (line.mine) {
      ctx.notice = line;
      ctx.toasts.push(line);
      if (line.untilSeated) askingToSit.add(line.text);
    }
  }
  ctx.log.length = Math.min(ctx.log.length, 100);
  if (events.some((e) => e.kind === "player_sat" && e.player_id === ctx.playerId)) endUntilSeated(ctx);
  for (const ev of events) {
    // Barred: no "Sit here" until the bar ends (a sit would be refused).
    if (ev.kind === "player_kicked" && ev.player_id === ctx.playerId) {
      ctx.barredUntil = ev.barred_until_ms ?? null;
      ctx.barredBy = ev.by ?? null;
    }
    if (ev.kind === "round_voided") ctx.voided = describeEvents([ev], view, null, nameOf)[0].text;
    if (ev.kind === "hand_set" && ev.house_way_clause && ev.player_id === ctx.playerId) ctx.clauses[view.round?.round_id ?? ""] = ev.house_way_clause;
  }
}

/** The sentences on the screen that ask you to sit ("The host let you in: choose a seat."). */
const askingToSit = new Set();

/** You sat: what asked you to is done, in the tray, the toasts and the screen reader's line (it never comes
 * back in a later panel). */
function endUntilSeated(ctx) {
  if (ctx.notice?.untilSeated) ctx.notice = null;
  ctx.toasts = ctx.toasts.filter((t) => !t.untilSeated);
  for (const t of document.querySelectorAll(".toast-area .toast")) if (askingToSit.has(t.textContent)) t.remove();
  if (askingToSit.has($("announcer").textContent)) $("announcer").textContent = "";
  askingToSit.clear();
}

/** What a patch's events do at the table: the log and the notices (their words), the deal's animation, the
 * round's moment, the screen reader's line and the sounds. */
export function onEvents(ctx, nodes, events, view) {
  explainEvents(ctx, events, view);
  for (const ev of events) {
    switch (ev.kind) {
      case "hands_dealt":
        animateDeal(ctx, nodes, ev, view);
        announce(turnWords(ev, view, ctx));
        break;
      case "round_settled": {
        ctx.rounds = mergeRounds(ctx.rounds, [ev.record]);
        ctx.justSettled = ev.record.round_id;
        settleMoment(ev.record, ctx, nodes);
        announce(settledWords(ev.record, ctx, view.rules));
        break;
      }
      case "betting_opened":
      case "bank_offered":
        announce(turnWords(ev, view, ctx));
        break;
      default: break;
    }
  }
  cueEvents(events, view, ctx);
}

// What the table's sounds say and when: your turn (betting opens to you, your hand lands, the bank is
// offered to you), a tick in your own clock's last seconds, a chip for every bet, an alert for a seat
// asked for or offered. The sounds themselves are sound.js's; a round's win, loss or big moment is
// win_moments.js's.

import { deadlineStakes } from "./act_clock.js";
import { play } from "./sound.js";
import { FLIGHT_MS, PACKET_MS } from "./table_render.js";

/** The seconds of your clock that tick. */
const TICK_S = 5;

let lastTick = null;

/** Every quarter second (the page's countdown): a tick for each of the last seconds of a clock that asks
 * something of you and does something to you when it ends (act_clock.js deadlineStakes); none for another
 * player's, the table's, or one you have answered. */
export function cueClock(view, ctx, left) {
  const mine = left !== null && left > 0 && left <= TICK_S && deadlineStakes(view, ctx) !== null;
  if (mine && lastTick !== left) play("tick");
  lastTick = mine ? left : null;
}

/** When your own cards have landed (the deal's flight, table_app.js animateDeal), or now without it. */
function afterOwnLanding(ctx, view, first) {
  const deal = ctx.dealAnim;
  if (!ctx.anim || !deal || deal.roundId !== view.round?.round_id) return 0;
  const packet = (view.you.position - first + 7) % 7;
  return Math.max(0, deal.dealAt + packet * PACKET_MS + FLIGHT_MS - performance.now());
}

/** The sounds of a patch's events, as the viewer `ctx` hears them (after the deal's animation has begun). */
export function cueEvents(events, view, ctx) {
  const me = ctx.role === "player" ? ctx.playerId : null;
  for (const ev of events) {
    switch (ev.kind) {
      case "betting_opened":
        if (view.you?.can?.bet && view.you.status !== "sitting_out") play("turn");
        break;
      case "hands_dealt":
        // Your turn to set: once your cards are in front of you; not when the House Way sets them for you.
        if (view.you && !ctx.alwaysHouseWay && ev.hands.some((h) => h.position === view.you.position)) {
          setTimeout(() => play("turn"), afterOwnLanding(ctx, view, ev.first_position));
        }
        break;
      case "bank_offered": if (me && ev.player_id === me) play("turn"); break;
      case "bet_placed": play("chip"); break;
      case "seat_requested": if (me && view.home?.host_player_id === me) play("alert"); break;
      case "seat_offered": if (me && ev.player_id === me) play("alert"); break;
      default: break;
    }
  }
}

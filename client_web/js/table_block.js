// A break or a self-exclusion in force, on the table page (docs/responsible-play.md): read once when the page
// opens, and again when the table stands the player up for one or refuses a sit with ON_BREAK /
// SELF_EXCLUDED / TIME_LIMIT_REACHED. The pause after a session time limit is a block too: the server says
// when it ends (`sit_paused_until_ms`). While one lasts no seat is offered, and the page says why and until
// when (the player may still watch and read History); the seats come back by themselves when it ends. The
// same answer's `room` (the least a money limit leaves) is kept for the bet panel (tray.js `betLimits`).

import { api } from "./api.js";
import { serverNow } from "./clock.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";

const CODES = { break: "ON_BREAK", exclusion: "SELF_EXCLUDED", time_limit: "TIME_LIMIT_REACHED" };
const KINDS = Object.fromEntries(Object.entries(CODES).map(([kind, code]) => [code, kind]));

/** The block in force for the page's player, or null. */
export const blockOf = (ctx) => (ctx.block && ctx.block.until_ms > serverNow() ? ctx.block : null);

/** Why no seat is offered, worded like the table's refusal (errors.js), or null when the player may sit.
 * Stood up by a session time limit, with its pause's end not read yet (a moment after the stand-up), the
 * tray says why the player was stood up, not "Choose an open seat". */
export function blockText(ctx) {
  const block = blockOf(ctx);
  if (block) return errorText(CODES[block.kind] ?? "ON_BREAK", { until_ms: block.until_ms });
  return ctx.timeLimited ? t("table:choose.time_limit") : null;
}

/** A patch's events about the page's player: stood up for a break or a self-exclusion, the block is read (no
 * seat is offered until it ends; `then()` draws again); stood up by the session time limit, noted until the
 * player sits again. */
export function noteStandUps(ctx, events, then) {
  const mine = events.filter((e) => e.player_id === ctx.playerId);
  const stood = mine.find((e) => e.kind === "player_stood_up");
  if (stood?.reason === "time_limit") ctx.timeLimited = true;
  if (mine.some((e) => e.kind === "player_sat")) ctx.timeLimited = false;
  if (stood && ["break", "self_exclusion", "time_limit"].includes(stood.reason)) readBlock(ctx, then);
}

const LONGEST_TIMER = 2 ** 31 - 1; // setTimeout's most (24.8 days); a longer block is drawn again on a reload

/** `then()` once the block in force has ended (its seats offered again, its words gone). */
function wakeAtEnd(ctx, then) {
  clearTimeout(ctx.blockTimer);
  const left = ctx.block ? ctx.block.until_ms - serverNow() : -1;
  if (left < 0 || left > LONGEST_TIMER) return;
  ctx.blockTimer = setTimeout(() => {
    if (ctx.block?.kind === "time_limit") ctx.timeLimited = false;
    then();
  }, left + 250);
}

/** Ask the server for the account's block (or the pause after a time limit) and the room its limits leave;
 * `then()` after they are known (a page to draw again). */
export async function readBlock(ctx, then) {
  if (!ctx.session?.token) return;
  try {
    const data = await api("/api/account/responsible-play", { token: ctx.session.token });
    const paused = data.sit_paused_until_ms;
    ctx.block = data.block ?? (paused ? { kind: "time_limit", until_ms: paused } : null);
    ctx.room = data.room ?? null;
    wakeAtEnd(ctx, then);
    then();
  } catch { /* the table refuses a sit all the same, in its own words */ }
}

/** A refusal (`{code, until_ms}`) that says a block is in force: noted, so no seat is offered until it ends
 * (`then()` draws the page again then). */
export function noteBlock(ctx, error, then) {
  const kind = KINDS[error?.code] ?? null;
  if (!kind || !error.until_ms) return false;
  ctx.block = { kind, until_ms: error.until_ms };
  wakeAtEnd(ctx, then);
  return true;
}

// A break or a self-exclusion in force, on the table page (docs/responsible-play.md): read once when the page
// opens, and again when the table stands the player up for one or refuses a sit with ON_BREAK /
// SELF_EXCLUDED (or TIME_LIMIT_REACHED: the pause after a session time limit, known from the refusal only).
// While it lasts no seat is offered, and the page says why and until when (the player may still watch and
// read History).

import { api } from "./api.js";
import { serverNow } from "./clock.js";
import { errorText } from "./errors.js";

const CODES = { break: "ON_BREAK", exclusion: "SELF_EXCLUDED", time_limit: "TIME_LIMIT_REACHED" };
const KINDS = Object.fromEntries(Object.entries(CODES).map(([kind, code]) => [code, kind]));

/** The block in force for the page's player, or null. */
export const blockOf = (ctx) => (ctx.block && ctx.block.until_ms > serverNow() ? ctx.block : null);

/** Why no seat is offered, worded like the table's refusal (errors.js), or null when the player may sit. */
export function blockText(ctx) {
  const block = blockOf(ctx);
  return block ? errorText(CODES[block.kind] ?? "ON_BREAK", { until_ms: block.until_ms }) : null;
}

/** Ask the server for the account's block; `then()` after it is known (a page to draw again). */
export async function readBlock(ctx, then) {
  if (!ctx.session?.token) return;
  try {
    const data = await api("/api/account/responsible-play", { token: ctx.session.token });
    ctx.block = data.block ?? null;
    then();
  } catch { /* the table refuses a sit all the same, in its own words */ }
}

/** A refusal (`{code, until_ms}`) that says a block is in force: noted, so no seat is offered until it ends. */
export function noteBlock(ctx, error) {
  const kind = KINDS[error?.code] ?? null;
  if (!kind || !error.until_ms) return false;
  ctx.block = { kind, until_ms: error.until_ms };
  return true;
}

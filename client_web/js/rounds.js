// The table's last settled rounds, newest first. A view carries no round records: each settled round's
// record comes once, in its round_settled event, and the last ones are read from
// GET /api/tables/{id}/rounds (voided rounds are not listed).

import { api } from "./api.js";

export const ROUNDS_KEPT = 10;

/** `known` and `records` as one list: each round once, newest (highest number) first, at most ROUNDS_KEPT. */
export function mergeRounds(known, records) {
  const byId = new Map();
  for (const r of [...records, ...known]) if (r?.round_id && !byId.has(r.round_id)) byId.set(r.round_id, r);
  return [...byId.values()].sort((a, b) => b.number - a.number).slice(0, ROUNDS_KEPT);
}

/** The table's last settled rounds' records, newest first, from the server. */
export async function fetchRounds(tableId, limit = ROUNDS_KEPT, token = undefined) {
  // A private table's rounds need the token of a player with access (docs/http-api.md).
  const data = await api(`/api/tables/${encodeURIComponent(tableId)}/rounds?limit=${limit}`, { token });
  return Array.isArray(data?.rounds) ? data.rounds : [];
}

/** The /verify/ address that checks a round record (or any object with the same fields): the table page's
 * history and the console's second looks link a round to it. */
export function verifyHref(r) {
  const q = new URLSearchParams({ round: r.round_id, seed: r.server_seed, banker: String(r.banker_position ?? 0), commitment: r.commitment });
  if (r.dice) q.set("dice", r.dice.join(","));
  if (r.first_position != null) q.set("first", String(r.first_position));
  const hands = (r.hands ?? []).filter((h) => h.dealt?.length).map((h) => `${h.position}:${h.dealt.join(".")}`);
  if (hands.length) q.set("hands", hands.join(";"));
  return `/verify/?${q}`;
}

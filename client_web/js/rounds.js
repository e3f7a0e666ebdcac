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

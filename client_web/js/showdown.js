// Per-hand results at the showdown (win / loss / copy for the high and the low hand), worked out from a
// settled round record with the browser's hand evaluator; the money comes from the record itself. And
// what decided each comparison when the hands' names do not say it (a kicker, the lower of two pairs).

import { toCard } from "./cards.js";
import { Category, compareValues, evaluateHigh, evaluateLow } from "./hand_eval.js";

function mark(d) {
  return d > 0 ? "win" : d < 0 ? "loss" : "copy";
}

/** {high, low}: "win" | "loss" | "copy" from the player's side; the banker's own hand gets "copy" marks. */
export function showdownMarks(hand, record, rules) {
  const banker = record.hands.find((h) => h.is_banker);
  if (!banker || hand.is_banker) return { high: "copy", low: "copy" };
  if (hand.fouled) return { high: "loss", low: "loss" };
  const wheel = rules?.wheel ?? "second";
  const high = compareValues(evaluateHigh(hand.high.map(toCard), wheel), evaluateHigh(banker.high.map(toCard), wheel));
  const low = compareValues(evaluateLow(hand.low.map(toCard)), evaluateLow(banker.low.map(toCard)));
  return { high: mark(high), low: mark(low) };
}

// How many ranks of a five-card value's key its name says ("pair of aces": 1; "two pair, aces and
// kings": 2); the rest are kickers. A two-card low hand's name says every card.
const NAMED = { [Category.HIGH_CARD]: 1, [Category.TWO_PAIR]: 2, [Category.FULL_HOUSE]: 2 };

/**
 * What decided `part` ("high" | "low") between a player's cards and the banker's, when the names alone
 * do not say it; null when they do (another category, another named rank) or a hand has no cards. From the
 * player's side: {kind, mine, theirs} with kind
 * - "kicker": the same named ranks, decided by a kicker; `mine`/`theirs` the kickers down to the deciding one;
 * - "cards": a high-card hand or a flush with the same top card; `mine`/`theirs` its ranks down to the deciding one;
 * - "lower pair": two pair with the same top pair;
 * - "tie": every rank alike; `kickers` true when the hands hold cards their names leave out.
 */
export function decider(part, mine, theirs, rules) {
  if (!mine?.length || !theirs?.length) return null;
  const wheel = rules?.wheel ?? "second";
  const value = (texts) => (part === "low" ? evaluateLow(texts.map(toCard)) : evaluateHigh(texts.map(toCard), wheel));
  const a = value(mine);
  const b = value(theirs);
  if (a.category !== b.category) return null;
  const named = part === "low" ? a.key.length : NAMED[a.category] ?? 1;
  const at = a.key.findIndex((r, i) => r !== b.key[i]);
  if (at < 0) return { kind: "tie", kickers: a.key.length > named };
  if (at < named) return a.category === Category.TWO_PAIR && at === 1 ? { kind: "lower pair" } : null;
  if (a.category === Category.HIGH_CARD || a.category === Category.FLUSH) {
    return { kind: "cards", flush: a.category === Category.FLUSH, mine: a.key.slice(0, at + 1), theirs: b.key.slice(0, at + 1) };
  }
  return { kind: "kicker", mine: a.key.slice(named, at + 1), theirs: b.key.slice(named, at + 1) };
}

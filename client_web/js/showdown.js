// Per-hand results at the showdown (win / loss / copy for the high and the low hand), worked out from a
// settled round record with the browser's hand evaluator; the money comes from the record itself.

import { toCard } from "./cards.js";
import { compareValues, evaluateHigh, evaluateLow } from "./hand_eval.js";

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

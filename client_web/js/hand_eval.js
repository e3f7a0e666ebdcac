// Hand values in the browser, mirroring paigow.rules (hand_value.py, splits.py): the joker rules,
// five aces, A-2-3-4-5 placed by the table's `wheel` rule, the two-card hand and the foul check.
// Used only to name hands and preview fouls; the server decides.

import { has, t } from "./i18n.js";
import { rankPlural, rankWord, toCard } from "./cards.js";

export const Category = Object.freeze({
  HIGH_CARD: 0, ONE_PAIR: 1, TWO_PAIR: 2, THREE_OF_A_KIND: 3, STRAIGHT: 4, FLUSH: 5, FULL_HOUSE: 6,
  FOUR_OF_A_KIND: 7, STRAIGHT_FLUSH: 8, ROYAL_FLUSH: 9, FIVE_ACES: 10,
});

const WHEEL = [14, 5, 4, 3, 2];
const word = (r) => rankWord(r);
const plural = (r) => rankPlural(r);

/** Order two hand values: negative, zero or positive. */
export function compareValues(a, b) {
  if (a.category !== b.category) return a.category - b.category;
  const n = Math.max(a.key.length, b.key.length);
  for (let i = 0; i < n; i += 1) {
    const d = (a.key[i] ?? -1) - (b.key[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** Where a straight with these five distinct ranks sits, or null: its top card, the wheel per the rule. */
function straightKey(ranksDesc, wheel) {
  if (ranksDesc.every((r, i) => i === 0 || ranksDesc[i - 1] - r === 1)) return ranksDesc[0];
  if (ranksDesc.join() === WHEEL.join()) return wheel === "low" ? 5 : 13.5;
  return null;
}

function straightTopWord(key) {
  return key === 13.5 || key === 5 ? word(5) : word(key);
}

function straightValue(key, flush) {
  if (flush && key === 14) return { category: Category.ROYAL_FLUSH, key: [], name: t("game:hand.royal_flush") };
  if (flush) return { category: Category.STRAIGHT_FLUSH, key: [key], name: t("game:hand.straight_flush", { top: straightTopWord(key) }) };
  return { category: Category.STRAIGHT, key: [key], name: t("game:hand.straight", { top: straightTopWord(key) }) };
}

function flushValue(ranksDesc) {
  return { category: Category.FLUSH, key: ranksDesc, name: t("game:hand.flush", { top: word(ranksDesc[0]) }) };
}

/** Pairs, trips, quads, five aces or high card of ranks (the joker already counted as an ace). */
function groupValue(ranks) {
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shape = groups.map((g) => g[1]).join("");
  const g = groups.map((x) => x[0]);
  switch (shape) {
    case "5": return { category: Category.FIVE_ACES, key: [], name: t("game:hand.five_aces") };
    case "41": return { category: Category.FOUR_OF_A_KIND, key: g, name: t("game:hand.four_of_a_kind", { ranks: plural(g[0]) }) };
    case "32": return { category: Category.FULL_HOUSE, key: g, name: t("game:hand.full_house", { three: plural(g[0]), two: plural(g[1]) }) };
    case "311": return { category: Category.THREE_OF_A_KIND, key: g, name: t("game:hand.three_of_a_kind", { ranks: plural(g[0]) }) };
    case "221": return { category: Category.TWO_PAIR, key: g, name: t("game:hand.two_pair", { high: plural(g[0]), low: plural(g[1]) }) };
    case "2111": return { category: Category.ONE_PAIR, key: g, name: t("game:hand.pair", { ranks: plural(g[0]) }) };
    default: return { category: Category.HIGH_CARD, key: g, name: t("game:hand.high_card", { top: word(g[0]) }) };
  }
}

function best(values) {
  return values.reduce((a, b) => (compareValues(b, a) > 0 ? b : a));
}

/** The value of a five-card hand. `wheel` is the table's rule: "second" (default) or "low". */
export function evaluateHigh(cards, wheel = "second") {
  if (cards.length !== 5) throw new Error(`a high hand has 5 cards, not ${cards.length}`);
  const naturals = cards.filter((c) => !c.joker);
  const hasJoker = naturals.length === 4;
  const suited = naturals.every((c) => c.suit === naturals[0].suit);
  const nat = naturals.map((c) => c.rank).sort((a, b) => b - a);
  const candidates = [];
  if (!hasJoker) {
    const distinct = new Set(nat).size === 5;
    const key = distinct ? straightKey(nat, wheel) : null;
    if (key !== null) candidates.push(straightValue(key, suited));
    else if (suited) candidates.push(flushValue(nat));
    candidates.push(groupValue(nat));
    return best(candidates);
  }
  // The joker as an ace.
  candidates.push(groupValue([14, ...nat].sort((a, b) => b - a)));
  if (new Set(nat).size === 4) {
    // The joker completing a straight (or straight flush): every straight holding the four naturals.
    for (let top = 14; top >= 5; top -= 1) {
      const ranks = top === 5 ? WHEEL : [top, top - 1, top - 2, top - 3, top - 4];
      if (nat.every((r) => ranks.includes(r))) candidates.push(straightValue(straightKey(ranks, wheel), suited));
    }
    if (suited) {
      // The joker in a flush: the highest card of that suit not already in the hand.
      let fill = 14;
      while (nat.includes(fill)) fill -= 1;
      candidates.push(flushValue([fill, ...nat].sort((a, b) => b - a)));
    }
  }
  return best(candidates);
}

/** The value of the two-card low hand: the joker is only an ace there. */
export function evaluateLow(cards) {
  if (cards.length !== 2) throw new Error(`a low hand has 2 cards, not ${cards.length}`);
  const r = cards.map((c) => (c.joker ? 14 : c.rank)).sort((a, b) => b - a);
  if (r[0] === r[1]) return { category: Category.ONE_PAIR, key: [r[0]], name: t("game:hand.pair", { ranks: plural(r[0]) }) };
  return { category: Category.HIGH_CARD, key: r, name: t("game:hand.low", { high: word(r[0]), low: word(r[1]) }) };
}

/**
 * Why this split is a foul (the high hand must outrank the low hand on the low hand's terms), or null.
 * Returns {high, low, foul: string|null}.
 */
export function judgeSplit(high, low, wheel = "second") {
  const hv = evaluateHigh(high, wheel);
  const lv = evaluateLow(low);
  let foul = null;
  if (lv.category === Category.ONE_PAIR) {
    const ok = hv.category >= Category.TWO_PAIR || (hv.category === Category.ONE_PAIR && hv.key[0] >= lv.key[0]);
    if (!ok) foul = t("game:foul.low_outranks", { low: lv.name, high: hv.name });
  } else if (hv.category === Category.HIGH_CARD) {
    const d = hv.key[0] - lv.key[0] || hv.key[1] - lv.key[1];
    if (d < 0) foul = t("game:foul.low_outranks", { low: lv.name, high: hv.name });
  }
  return { high: hv, low: lv, foul };
}

export function isFoul(high, low, wheel = "second") {
  return judgeSplit(high, low, wheel).foul !== null;
}

/**
 * The names of a hand of a record or an analysis (`{high, low}` cards as the wire writes them) in the page's
 * language: {high, low}. Worked out from the cards; the wire's English `high_name`/`low_name` only for a hand
 * without them (a hidden one).
 */
export function handNames(h, wheel = "second") {
  const cards = (texts) => (texts ?? []).map(toCard);
  return {
    high: h?.high?.length === 5 ? evaluateHigh(cards(h.high), wheel).name : h?.high_name ?? "",
    low: h?.low?.length === 2 ? evaluateLow(cards(h.low)).name : h?.low_name ?? "",
  };
}

// The table's House Way (HouseRules.house_way), by name: paigow.rules.house_rules.HouseWayName.display_name,
// from the catalog (`game:house_way.trump_plaza`).
export function houseWayName(rules) {
  const way = rules?.house_way ?? "trump_plaza";
  return has(`game:house_way.${way}`) ? t(`game:house_way.${way}`) : way;
}

// The House Way clause that set a hand, as the server writes it (shared/paigow/rules/house_way_text.py
// clause_text; docs/protocol.md, `house_way_clause`): the clause's name in lower-case words, for two pair the
// groups of its pairs ("two pair, low + high"), and for the clauses that split or keep pairs which it did
// (": split" / ": kept together"). Read back into its parts and worded from the catalog.
const CLAUSE = /^([a-z]+(?: [a-z]+)*?)(?:, (low|medium|high|aces) \+ (low|medium|high|aces))?(?:: (split|kept together))?$/;

/** The words of a House Way clause ("two pair, low + high: split") in the page's language; text the grammar
 * does not know (a newer server's clause) says only that the House Way set the hand. "" for none. */
export function clauseWords(text) {
  if (!text) return "";
  const m = CLAUSE.exec(String(text).trim());
  if (!m) return t("game:clause_unknown");
  const name = m[1].replaceAll(" ", "_");
  const how = m[4]?.replace(" ", "_");
  const key = `game:clause.${name}${m[2] ? ".groups" : ""}${how ? `.${how}` : ""}`;
  if (!has(key)) return t("game:clause_unknown");
  return m[2] ? t(key, { low: t(`game:pair_group.${m[2]}`), high: t(`game:pair_group.${m[3]}`) }) : t(key);
}

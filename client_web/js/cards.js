// Cards: the 53-card deck (52 + joker), mirroring paigow.rules.cards.
// A card is {index, rank, suit, joker, text}: index 0..51 rank-major (2c 2d 2h 2s 3c ... As), 52 = joker;
// rank 2..14 (ace 14), 0 for the joker; suit one of "c" "d" "h" "s" (null for the joker).
// The words of cards (a rank's name, a card's spoken name) are the catalog's, `game:rank.K`, `game:card.s`.

import { t } from "./i18n.js";

export const SUITS = ["c", "d", "h", "s"];
export const RANK_CHARS = { 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T",
  11: "J", 12: "Q", 13: "K", 14: "A", 0: "JK" };
const RANK_INPUT = { "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, T: 10, "10": 10,
  J: 11, Q: 12, K: 13, A: 14 };
/** A rank's name ("king"), from the catalog (`game:rank.K`, by the rank's card character). */
export const rankWord = (r) => t(`game:rank.${RANK_CHARS[r]}`);
/** A rank's name for a group of its cards ("kings": a pair of kings), from the catalog (`game:ranks.K`). */
export const rankPlural = (r) => t(`game:ranks.${RANK_CHARS[r]}`);

export class CardError extends Error {}

function makeCard(index) {
  if (index === 52) return Object.freeze({ index, rank: 0, suit: null, joker: true, text: "JK" });
  const rank = Math.floor(index / 4) + 2;
  const suit = SUITS[index % 4];
  return Object.freeze({ index, rank, suit, joker: false, text: RANK_CHARS[rank] + suit });
}

export const DECK = Object.freeze(Array.from({ length: 53 }, (_, i) => makeCard(i)));
export const JOKER = DECK[52];

/** The card of a wire value: its text form ("As", "10h", "JK", "joker") or its index (0..52). */
export function toCard(value) {
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0 || value > 52) throw new CardError(`card index ${value} is outside 0..52`);
    return DECK[value];
  }
  if (value && typeof value === "object" && "index" in value) return toCard(value.index);
  return parseCard(String(value));
}

export function parseCard(token) {
  const t = token.trim();
  const upper = t.toUpperCase();
  if (upper === "JK" || upper === "JOKER") return JOKER;
  if (t.length < 2) throw new CardError(`bad card '${token}'`);
  const rank = RANK_INPUT[upper.slice(0, -1)];
  const suitIndex = SUITS.indexOf(t.slice(-1).toLowerCase());
  if (rank === undefined || suitIndex < 0) throw new CardError(`bad card '${token}'`);
  return DECK[(rank - 2) * 4 + suitIndex];
}

export function parseCards(text) {
  const cards = text.trim().split(/[\s,]+/).filter(Boolean).map(parseCard);
  const seen = new Set();
  for (const c of cards) {
    if (seen.has(c.index)) throw new CardError(`duplicate card ${c.text}`);
    seen.add(c.index);
  }
  return cards;
}

const SUIT_GLYPHS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** A card as a player writes it: "K♠", "10♦", "JK" (the text form "Ts" is for the wire). */
export function cardGlyphs(card) {
  return card.joker ? "JK" : `${card.rank === 10 ? "10" : RANK_CHARS[card.rank]}${SUIT_GLYPHS[card.suit]}`;
}

/** Words for screen readers: "ace of spades", "joker" (`game:card.s`: the card of a suit, its rank a value). */
export function cardLabel(card) {
  return card.joker ? t("game:card.joker") : t(`game:card.${card.suit}`, { rank: rankWord(card.rank) });
}

/** A face-down card, in words. */
export const backLabel = () => t("game:card.back");

/** Sort order used to show a hand: by rank descending, the joker first (it plays as an ace at least). */
export function sortForDisplay(cards) {
  return [...cards].sort((a, b) => (b.joker ? 15 : b.rank) - (a.joker ? 15 : a.rank) || a.index - b.index);
}

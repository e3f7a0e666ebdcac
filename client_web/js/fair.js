// The provably fair check in the browser, mirroring paigow/fair.py exactly: commitment = SHA-256(seed);
// block i of purpose P is HMAC-SHA-256(key=seed, P + 0x00 + utf8(round_id) + 0x00 + i as 8 bytes
// big-endian); each block gives eight big-endian 32-bit words; uniform(n) rejects w >= 2^32 - 2^32 % n.

// The problems are sentences of the page's language (`practice:verify.problem.*`).

import { DECK } from "./cards.js";
import { t } from "./i18n.js";
import { bytesToHex, hexToBytes, hmacSha256, sha256, utf8 } from "./sha256.js";

export const POSITIONS = 7;
const TWO32 = 2 ** 32;

async function* words(seed, purpose, roundId) {
  const mac = await hmacSha256(seed);
  const prefix = [...utf8(purpose), 0, ...utf8(roundId), 0];
  for (let block = 0; ; block += 1) {
    const counter = new Uint8Array(8);
    new DataView(counter.buffer).setBigUint64(0, BigInt(block));
    const digest = await mac(Uint8Array.from([...prefix, ...counter]));
    const view = new DataView(digest.buffer);
    for (let k = 0; k < 8; k += 1) yield view.getUint32(4 * k);
  }
}

async function uniform(stream, n) {
  const limit = TWO32 - (TWO32 % n);
  for (;;) {
    const { value } = await stream.next();
    if (value < limit) return value % n;
  }
}

export async function commitmentOf(seed) {
  return bytesToHex(await sha256(seed));
}

export async function deckOrder(seed, roundId) {
  const stream = words(seed, "deck", roundId);
  const cards = [...DECK];
  for (let i = cards.length - 1; i > 0; i -= 1) {
    const j = await uniform(stream, i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

export async function rollDice(seed, roundId) {
  const stream = words(seed, "dice", roundId);
  return [await uniform(stream, 6) + 1, await uniform(stream, 6) + 1, await uniform(stream, 6) + 1];
}

export function firstPosition(bankerPosition, diceTotal) {
  return (bankerPosition + diceTotal - 1) % POSITIONS;
}

/** The whole deal of a round: {dice, first, hands (by position), discards}. */
export async function deal(seed, roundId, bankerPosition) {
  const dice = await rollDice(seed, roundId);
  const first = firstPosition(bankerPosition, dice[0] + dice[1] + dice[2]);
  const deck = await deckOrder(seed, roundId);
  const hands = new Array(POSITIONS);
  for (let k = 0; k < POSITIONS; k += 1) hands[(first + k) % POSITIONS] = deck.slice(7 * k, 7 * k + 7);
  return { dice, first, hands, discards: deck.slice(49) };
}

/**
 * Recompute a round from its revealed seed (hex) and compare with what was published.
 * published: {commitment?, dice?, first?, hands?: {position: [cards]}} -> {ok, problems, deal, commitment}
 */
export async function verifyRound(seedHex, roundId, bankerPosition, published = {}) {
  const seed = hexToBytes(seedHex);
  if (seed.length < 16) throw Object.assign(new Error(`seed '${seedHex}' is shorter than 16 bytes`), { code: "SEED_SHORT" });
  const d = await deal(seed, roundId, bankerPosition);
  const actual = await commitmentOf(seed);
  const problems = [];
  if (published.commitment != null && published.commitment.trim().toLowerCase() !== actual) {
    problems.push(t("practice:verify.problem.commitment", { published: published.commitment, actual }));
  }
  if (published.dice != null && published.dice.join() !== d.dice.join()) {
    problems.push(t("practice:verify.problem.dice", { published: published.dice.join("-"), actual: d.dice.join("-") }));
  }
  if (published.first != null && Number(published.first) !== d.first) {
    problems.push(t("practice:verify.problem.first", { published: published.first, actual: d.first }));
  }
  for (const [pos, cards] of Object.entries(published.hands ?? {})) {
    const want = d.hands[Number(pos)].map((c) => c.index).sort((a, b) => a - b).join();
    const got = cards.map((c) => c.index).sort((a, b) => a - b).join();
    if (want !== got) problems.push(t("practice:verify.problem.hand", { position: pos }));
  }
  return { ok: problems.length === 0, problems, deal: d, commitment: actual };
}

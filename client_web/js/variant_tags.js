// What a table deals of the casino variants (docs/rules.md §4a–§4c), as tags: a few words each and a line
// in a player's words. From a table summary or rules: the lobby's table cards and home games ("EZ Pai Gow
// (no commission)", "Fortune bonus", "Queen's Dragon", ...) and the operator console's short form ("EZ · QD
// · Dragon"); and the Fortune pay tables' human names.

import { el } from "./api.js";

/** The commission-free forms' rule, as the table's panel says it too (variants.js). */
export const PUSH_RULE = {
  ez: "no commission, but every wager pushes when the dealer's hand is a queen-high pai gow",
  nine_high: "no commission, but every wager pushes when the dealer's low hand is nine-high",
};

const pct = (bps) => `${(bps ?? 500) / 100}%`;
const capital = (s) => s[0].toUpperCase() + s.slice(1);

function commission(t) {
  const form = t.commission_form ?? "commissioned";
  if (form === "ez") {
    return { key: "ez", text: "EZ Pai Gow (no commission)", short: "EZ",
      title: `${capital(PUSH_RULE.ez)} (no pair, straight or flush, and a queen the highest card).` };
  }
  if (form === "nine_high") return { key: "nine_high", text: "No commission (9-high push)", short: "9-high", title: `${capital(PUSH_RULE.nine_high)}.` };
  if (form !== "commissioned") return { key: form, text: form, short: form, title: form };
  if (t.commission_bps === 0) {
    return { key: "commission", text: "No commission", short: "No commission", title: "A winning bet is paid even money: no commission is taken." };
  }
  const words = `${pct(t.commission_bps)} commission`;
  // At a home game the commission goes to the game's own pot (docs/home-games.md), not to a house.
  const title = t.private || t.players_bank_in_turn
    ? `${capital(pct(t.commission_bps))} of every winning bet is taken as commission.`
    : `The house takes ${pct(t.commission_bps)} of every winning bet: the classic game.`;
  return { key: "commission", text: words, short: words, title };
}

/**
 * The tags of a table, its commission first: ``{key, text, short, title}`` each (``short`` for the
 * console's list). Co-banking where players may not bank does nothing: ``inert``, which the lobby leaves
 * out (the "House banks" tag says why).
 */
export function variantTags(t) {
  const banks = t.player_banking !== false;
  const setBy = t.dragon_set_by === "buyer" ? "its buyer sets it" : "the House Way sets it, seen at the showdown";
  return [commission(t),
    t.queens_dragon_enabled && { key: "qd", text: "Queen's Dragon", short: "QD",
      title: "A side bet beside your wager: pays 50 to 1 when the dealer's hand is a queen-high pai gow." },
    t.dragon_enabled && { key: "dragon", text: "Dragon hand", short: "Dragon",
      title: `A spare hand offered to the seated players in turn once betting closes, for a second wager; ${setBy}.` },
    t.co_banking && { key: "cobank", text: "Co-banking", short: banks ? "Co-bank" : "Co-bank (no effect)", inert: !banks,
      title: banks ? "Whoever takes the bank may co-bank with the house instead: half each of every wager."
        : "No effect here: players may not take the bank." },
    t.players_bank_in_turn && { key: "players_bank", text: "Players bank in turn", short: "Players bank",
      title: "The bank passes among the seated players; the house dealer plays no hand." },
    !banks && { key: "house_banks", text: "House banks", short: "House banks",
      title: "Players may not take the bank here: the house banks every round." },
  ].filter(Boolean);
}

/** The Fortune pay tables (docs/fortune.md, "Pay tables") by the name a person reads: their top pay. */
const PAY_TABLES = {
  "fortune-8000": { name: "8,000-to-1 pay table", top: "8,000" },
  "fortune-5000": { name: "5,000-to-1 pay table", top: "5,000" },
};

/** "8,000-to-1 pay table" for ``fortune-8000``: a pay table's human name (an unknown id as it is). */
export function payTableName(id) {
  return PAY_TABLES[id]?.name ?? id;
}

/** The Fortune bonus as a tag, when the table (a summary, or rules) offers it; null otherwise. */
function fortuneTag(t) {
  if (!t.fortune_enabled) return null;
  const top = PAY_TABLES[t.fortune_pay_table]?.top;
  return { key: "fortune", text: "Fortune bonus", short: "Fortune",
    title: top ? `A side bet on your seven cards, however you set them: a straight or better pays, up to ${top} to 1.`
      : "A side bet on your seven cards, however you set them: a straight or better pays." };
}

/**
 * The lobby's tags of a table as a list, or null when there is none to show: the commission in plain
 * words at a commissioned table (``classic: false`` leaves it out), then every bet the table offers beside
 * the wager (the Fortune bonus, which the console shows in a column of its own, and the variants) as tags.
 */
export function variantTagList(t, { classic = true } = {}) {
  const [first, ...rest] = variantTags(t);
  const tags = [first, fortuneTag(t), ...rest].filter((tag) => tag && !tag.inert && (classic || tag.key !== "commission"));
  if (!tags.length) return null;
  return el("ul", { class: "variant-tags", "aria-label": "Game" }, ...tags.map((tag) => el("li", {
    class: tag.key === "commission" ? "plain" : "vtag", "data-variant": tag.key, title: tag.title, text: tag.text })));
}

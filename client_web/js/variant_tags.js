// What a table deals of the casino variants (docs/rules.md §4a–§4c), as tags: a few words each and a line
// in a player's words. From a table summary or rules: the lobby's table cards and home games ("EZ Pai Gow
// (no commission)", "Fortune bonus", "Queen's Dragon", ...) and the operator console's short form ("EZ · QD
// · Dragon"); and the Fortune pay tables' human names. The words: the catalog's lobby namespace, its variant keys.

import { el } from "./api.js";
import { number, percent, t } from "./i18n.js";

/** A commission in basis points as a percent ("5%"). */
const pct = (bps) => percent((bps ?? 500) / 10_000);

function commission(table) {
  const form = table.commission_form ?? "commissioned";
  if (form === "ez") {
    return { key: "ez", text: t("lobby:variant.ez.tag"), short: t("lobby:variant.ez.short"), title: t("lobby:variant.ez.title") };
  }
  if (form === "nine_high") {
    return { key: "nine_high", text: t("lobby:variant.nine_high.tag"), short: t("lobby:variant.nine_high.short"),
      title: t("lobby:variant.nine_high.title") };
  }
  if (form !== "commissioned") return { key: form, text: form, short: form, title: form }; // a newer server's form, by its name
  if (table.commission_bps === 0) {
    const words = t("lobby:variant.no_commission.tag");
    return { key: "commission", text: words, short: words, title: t("lobby:variant.no_commission.title") };
  }
  const words = t("lobby:variant.commission.tag", { percent: pct(table.commission_bps) });
  // At a home game the commission goes to the game's own pot (docs/home-games.md), not to a house.
  const title = table.private || table.players_bank_in_turn
    ? t("lobby:variant.commission.home.title", { percent: pct(table.commission_bps) })
    : t("lobby:variant.commission.house.title", { percent: pct(table.commission_bps) });
  return { key: "commission", text: words, short: words, title };
}

/**
 * The tags of a table, its commission first: ``{key, text, short, title}`` each (``short`` for the
 * console's list). Co-banking where players may not bank does nothing: ``inert``, which the lobby leaves
 * out (the "House banks" tag says why).
 */
export function variantTags(table) {
  const banks = table.player_banking !== false;
  return [commission(table),
    table.queens_dragon_enabled && { key: "qd", text: t("lobby:variant.qd.tag"), short: t("lobby:variant.qd.short"),
      title: t("lobby:variant.qd.title") },
    table.dragon_enabled && { key: "dragon", text: t("lobby:variant.dragon.tag"), short: t("lobby:variant.dragon.short"),
      title: table.dragon_set_by === "buyer" ? t("lobby:variant.dragon.title.buyer") : t("lobby:variant.dragon.title.house_way") },
    table.co_banking && { key: "cobank", text: t("lobby:variant.cobank.tag"), inert: !banks,
      short: banks ? t("lobby:variant.cobank.short") : t("lobby:variant.cobank.short.inert"),
      title: banks ? t("lobby:variant.cobank.title") : t("lobby:variant.cobank.title.inert") },
    table.players_bank_in_turn && { key: "players_bank", text: t("lobby:variant.players_bank.tag"),
      short: t("lobby:variant.players_bank.short"), title: t("lobby:variant.players_bank.title") },
    !banks && { key: "house_banks", text: t("lobby:variant.house_banks.tag"), short: t("lobby:variant.house_banks.tag"),
      title: t("lobby:variant.house_banks.title") },
  ].filter(Boolean);
}

/** The Fortune pay tables (docs/fortune.md, "Pay tables") by the name a person reads: their top pay. */
const PAY_TABLES = { "fortune-8000": 8000, "fortune-5000": 5000 };

/** "8,000-to-1 pay table" for ``fortune-8000``: a pay table's human name (an unknown id as it is). */
export function payTableName(id) {
  return PAY_TABLES[id] ? t("lobby:variant.pay_table", { top: number(PAY_TABLES[id]) }) : id;
}

/** The Fortune bonus as a tag, when the table (a summary, or rules) offers it; null otherwise. */
function fortuneTag(table) {
  if (!table.fortune_enabled) return null;
  const top = PAY_TABLES[table.fortune_pay_table];
  return { key: "fortune", text: t("lobby:variant.fortune.tag"), short: t("lobby:variant.fortune.short"),
    title: top ? t("lobby:variant.fortune.title", { top: number(top) }) : t("lobby:variant.fortune.title.no_top") };
}

/**
 * The lobby's tags of a table as a list, or null when there is none to show: the commission in plain
 * words at a commissioned table (``classic: false`` leaves it out), then every bet the table offers beside
 * the wager (the Fortune bonus, which the console shows in a column of its own, and the variants) as tags.
 */
export function variantTagList(table, { classic = true } = {}) {
  const [first, ...rest] = variantTags(table);
  const tags = [first, fortuneTag(table), ...rest].filter((tag) => tag && !tag.inert && (classic || tag.key !== "commission"));
  if (!tags.length) return null;
  return el("ul", { class: "variant-tags", "aria-label": t("lobby:variant.list.label") }, ...tags.map((tag) => el("li", {
    class: tag.key === "commission" ? "plain" : "vtag", "data-variant": tag.key, title: tag.title, text: tag.text })));
}

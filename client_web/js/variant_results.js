// The casino variants' part of a settled round, in a player's words (docs/rules.md §4a–§4c), for the History
// dialog, the showdown and the table log: a Dragon hand you bought (its wager, its result, how it was set),
// your Queen's Dragon bet and its result, a co-banked round (who, half each, each half's result) and the
// push a commission-free table's barred dealer makes. Every amount is a field of the record, in cents; the
// one sum, a seat's whole result, adds its hands' own fields as the server's ledger does.

import { el } from "./api.js";
import { money, percent, t } from "./i18n.js";
import { clauseWords } from "./hand_eval.js";

const BARRED = new Set(["ez", "nine_high"]);

/** Why every wager pushed ("the dealer's queen-high pai gow") when a barred dealer pushed them, else null. */
export function barredWhy(record) {
  if (!record?.dealer_barred) return null;
  return t(BARRED.has(record.commission_form) ? `showdown:barred.${record.commission_form}` : "showdown:barred.other");
}

/** Why a round at a commission-free table took a commission (a player banked or co-banked it), as a
 * sentence; null for any other round. `rules`: the table's, for the rate (absent: not said). */
export function commissionWhy(record, rules = null) {
  const taken = record?.banker_commission_cents || record?.hands?.some((h) => h.commission_cents > 0);
  if (!taken || !BARRED.has(record.commission_form) || !record.banker_player_id) return null;
  if (rules?.commission_bps == null) return t("showdown:commission_why.plain");
  return t("showdown:commission_why.rate", { rate: percent(rules.commission_bps / 10000) });
}

/** "pushed: the dealer's queen-high pai gow", or null. */
export function barredPush(record) {
  const why = barredWhy(record);
  return why ? t("showdown:result.pushed_barred", { why }) : null;
}

/** The Dragon hand `playerId` bought in this round, or null. */
export function dragonOf(record, playerId) {
  if (!playerId) return null;
  return record?.hands?.find((h) => h.dragon_of != null && h.player_id === playerId) ?? null;
}

/** What a seat's chips changed by in the round: each of its hands' net, Fortune and Queen's Dragon. */
export function seatNetCents(record, playerId) {
  return (record?.hands ?? []).filter((h) => playerId && h.player_id === playerId)
    .reduce((sum, h) => sum + h.net_cents + (h.bonus_net_cents ?? 0) + (h.queens_dragon_win_cents ?? 0), 0);
}

/** A hand's result: its shape (a key's last part: "won_commission", "pushed_barred", "lost_foul", …) and the
 * values its sentence takes. */
export function resultShape(h, record) {
  if (h.outcome === "win") {
    return h.commission_cents
      ? ["won_commission", { amount: money(h.net_cents), gross: money(h.gross_cents), commission: money(h.commission_cents) }]
      : ["won", { amount: money(h.net_cents) }];
  }
  if (h.outcome === "push") return barredWhy(record) ? ["pushed_barred", { why: barredWhy(record) }] : ["pushed", {}];
  return [h.fouled ? "lost_foul" : "lost", { amount: money(-h.net_cents) }];
}

/** How a Dragon hand was set, by the table's rule (`dragon_set_by`, absent in older records) and its `set_by`. */
export function dragonSetByText(h, record, mine = true) {
  const clause = h.house_way_clause ? clauseWords(h.house_way_clause) : "";
  const how = record.dragon_set_by === "house_way" ? "table"
    : h.set_by === "player" ? (mine ? "you" : "buyer")
      : h.set_by === "timeout" ? "timeout"
        : h.set_by === "house_way" && record.dragon_set_by === "buyer" ? (mine ? "you_chose" : "buyer_chose") : "house_way";
  if (how === "you" || how === "buyer") return t(`showdown:dragon_set.${how}`);
  return clause ? t(`showdown:dragon_set.${how}_clause`, { clause }) : t(`showdown:dragon_set.${how}`);
}

/** "Your Dragon hand (at seat 4, $5.00 wager) won $4.75 ($5.00 less $0.25 commission)". */
export function dragonText(h, record) {
  const [shape, values] = resultShape(h, record);
  return t(`showdown:dragon_result.${shape}`, { ...values, seat: h.position, wager: money(h.wager_cents) });
}

/** "Queen's Dragon $2.00: won 50 to 1, +$100.00" / "Queen's Dragon $2.00: lost, −$2.00"; null without one. */
export function queensDragonText(h) {
  const bet = h?.queens_dragon_cents ?? 0;
  if (!bet) return null;
  const win = h.queens_dragon_win_cents ?? 0;
  const values = { bet: money(bet), net: money(win, { sign: true }) };
  if (win > 0 && win % bet === 0) return t("showdown:queens_dragon.won_odds", { ...values, odds: win / bet });
  return t(win > 0 ? "showdown:queens_dragon.won" : "showdown:queens_dragon.lost", values);
}

/** A co-bank's two halves in a sentence of `shape`: "account" (the banker's account: "co-banked with the house,
 * half each: Ann's half +$5.00, less $0.25 commission: +$4.75; the house's half +$5.00"), "mine" ("You
 * co-banked with the house, half each: your half …") or "other" ("Co-banked by Ann and the house, …"). */
export function coBankWords(record, shape, name = "") {
  const values = { name, gross: money(record.banker_gross_cents, { sign: true }), house: money(record.house_bank_gross_cents ?? 0, { sign: true }),
    commission: money(record.banker_commission_cents ?? 0), net: money(record.banker_net_cents, { sign: true }) };
  return t(`showdown:co_bank.${shape}${record.banker_commission_cents ? "_commission" : ""}`, values);
}

/** A co-banked round: "Co-banked by Ann and the house, half each: Ann's half ..." (you: "You co-banked with
 * the house, half each: your half ..."); null for any other round. */
export function coBankText(record, bankerName, mine) {
  if (!record?.co_banked) return null;
  return coBankWords(record, mine ? "mine" : "other", bankerName);
}

/** The round's own variant lines (a co-bank, a barred dealer, why a commission-free table took a
 * commission): [{variant, text}]. */
export function roundVariantParts(record, bankerName, playerId, rules = null) {
  const co = coBankText(record, bankerName, Boolean(playerId) && record.banker_player_id === playerId);
  const barred = barredWhy(record);
  const why = commissionWhy(record, rules);
  return [co && { variant: "co-bank", text: co }, barred && { variant: "barred", text: t("showdown:every_wager_pushed", { why: barred }) },
    why && { variant: "commission-why", text: why }].filter(Boolean);
}

/** Your variant lines of a round (your Dragon and, after it, how it was set; your Queen's Dragon), then "In
 * all" with your whole result: [{variant, text, inline?}]. `total`: that result when the server gave it (a
 * history entry's `total_net_cents`), else the record's sum. */
export function seatVariantParts(record, mine, playerId, total = seatNetCents(record, playerId)) {
  const dragon = dragonOf(record, playerId);
  const out = [];
  if (dragon) {
    out.push({ variant: "dragon", text: dragonText(dragon, record) },
      { variant: "dragon-set-by", text: dragonSetByText(dragon, record), inline: true });
  }
  const qd = queensDragonText(mine);
  if (qd) out.push({ variant: "queens-dragon", text: qd });
  if (out.length) out.push({ variant: "total", text: t("showdown:in_all", { amount: money(total, { sign: true }) }) });
  return out;
}

/** " · in all +$100.00" when a Dragon or a Queen's Dragon made your result more than your hand's, else "". */
export function inAllNote(record, mine, playerId) {
  return dragonOf(record, playerId) || mine?.queens_dragon_cents ? ` · ${t("showdown:in_all_note", { amount: money(seatNetCents(record, playerId), { sign: true }) })}` : "";
}

/** Parts as elements (`tag` each; an inline part follows the one before it, after " · "). */
export function variantLines(parts, tag = "p") {
  const out = [];
  for (const p of parts) {
    const node = el(p.inline ? "span" : tag, { class: `variant-line ${p.variant}`, "data-variant": p.variant, text: p.text });
    if (p.inline && out.length) out[out.length - 1].append(" · ", node);
    else out.push(node);
  }
  return out;
}

/** Your variant lines under your result at the showdown: why you paid a commission at a commission-free
 * table, a co-bank's halves when you co-banked, your Dragon, your Queen's Dragon and your whole result. */
export function summaryLines(record, mine, playerId, rules) {
  const paid = mine?.commission_cents > 0 || (mine?.is_banker && record.banker_commission_cents > 0) || dragonOf(record, playerId)?.commission_cents > 0;
  const own = roundVariantParts(record, "", playerId, rules).filter((p) => (p.variant === "co-bank" && mine?.is_banker) || (p.variant === "commission-why" && paid));
  return variantLines([...own, ...seatVariantParts(record, mine, playerId)]);
}

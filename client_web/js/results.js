// The showdown, explained: for each hand who won the high and the low and why ("copy: the banker wins
// ties"), each seat's result and commission, and a player-banker's account (won from whom, paid to whom,
// commission on the net). Worked out from the settled round's public record, so a spectator reads the same.
// The words are the catalog's (`showdown:why.*`, `showdown:result.*`, `showdown:banner.*`), the hands'
// names worked out from their cards (hand_eval.js handNames).

import { el } from "./api.js";
import { markName, money, t } from "./i18n.js";
import { rankWord } from "./cards.js";
import { clauseWords, handNames } from "./hand_eval.js";
import { decider, showdownMarks } from "./showdown.js";
import { barredPush, coBankWords, commissionWhy } from "./variant_results.js";

// Ranks down to the deciding one, as a hand's name says a run of them: "king-nine" (`game:hand.low`'s join).
const ranks = (list) => list.map((r) => rankWord(r)).join("-");

/** One side of a showdown line, naming what decided it (`d`: showdown.js decider, from the winner's side). */
function winWords(winner, loser, d) {
  if (d?.kind === "kicker" && d.mine.length === 1) {
    return t("showdown:why.kicker", { winner, loser, mine: rankWord(d.mine[0]), theirs: rankWord(d.theirs[0]) });
  }
  if (d?.kind === "kicker") return t("showdown:why.kickers", { winner, loser, mine: ranks(d.mine), theirs: ranks(d.theirs) });
  if (d?.kind === "cards" && d.flush) return t("showdown:why.flush_cards", { mine: ranks(d.mine), theirs: ranks(d.theirs) });
  if (d?.kind === "cards") return t("showdown:why.cards", { mine: ranks(d.mine), theirs: ranks(d.theirs) });
  if (d?.kind === "lower pair") return t("showdown:why.lower_pair", { winner, loser });
  return t("showdown:why.beats", { winner, loser });
}

/** Why a hand won, lost or was a copy, in words: `mine`/`theirs` the player's and the banker's hand names,
 * `d` what decided it from the player's side (showdown.js decider; null when the names say it). */
export function whyWords(mark, mine, theirs, d, fouled = false) {
  if (fouled) return t("showdown:why.foul");
  const flip = d && (d.kind === "kicker" || d.kind === "cards") ? { ...d, mine: d.theirs, theirs: d.mine } : d;
  if (mark === "win") return winWords(mine, theirs, d);
  if (mark === "loss") return winWords(theirs, mine, flip);
  return t(d?.kickers ? "showdown:why.copy_kickers" : "showdown:why.copy", { hand: mine });
}

function seatResult(h, record) {
  if (h.outcome === "win") {
    const text = h.commission_cents
      ? t("showdown:result.wins_commission", { amount: money(h.net_cents), wager: money(h.wager_cents), commission: money(h.commission_cents) })
      : t("showdown:result.wins", { amount: money(h.net_cents) });
    return { kind: "win", text };
  }
  if (h.outcome === "push") return { kind: "push", text: barredPush(record) ?? t("showdown:result.push") };
  return { kind: "loss", text: t(h.fouled ? "showdown:result.loses_foul" : "showdown:result.loses", { amount: money(h.wager_cents) }) };
}

/** The banker's account when a player banks: what it won from and paid to each hand, its commission. */
function bankerAccount(record, nameOf) {
  const parts = [];
  for (const h of record.hands) {
    if (h.is_banker) continue;
    const name = nameOf(h);
    if (h.gross_cents < 0) parts.push(t("showdown:account.won_from", { amount: money(-h.gross_cents), name }));
    else if (h.gross_cents > 0) parts.push(t("showdown:account.paid_to", { amount: money(h.gross_cents), name }));
    else parts.push(t("showdown:account.push_with", { name }));
  }
  const name = nameOf(record.hands.find((h) => h.is_banker));
  if (record.co_banked) return [...parts, coBankWords(record, "account", name)];
  if (record.banker_commission_cents) {
    parts.push(t("showdown:account.commission", { commission: money(record.banker_commission_cents), gross: money(record.banker_gross_cents) }));
  }
  parts.push(t("showdown:account.net", { net: money(record.banker_net_cents, { sign: true }) }));
  return parts;
}

/**
 * The showdown of `record` in words: {banker, rows, account, commissionCents}. `nameOf(hand)` names a
 * hand's owner ("Dealer" for the house).
 */
export function breakdown(record, rules, nameOf) {
  const wheel = rules?.wheel ?? "second";
  const banker = record.hands.find((h) => h.is_banker);
  const bankerNames = handNames(banker, wheel);
  const rows = [];
  for (const h of record.hands) {
    if (h.is_banker) continue;
    const marks = showdownMarks(h, record, rules);
    const name = nameOf(h);
    const names = handNames(h, wheel);
    const winner = (mark) => (mark === "win" ? name : t("showdown:the_banker"));
    rows.push({
      position: h.position, name, playerId: h.player_id, clause: h.house_way_clause ? clauseWords(h.house_way_clause) : null,
      high: { mark: marks.high, winner: winner(marks.high),
        why: whyWords(marks.high, names.high, bankerNames.high, decider("high", h.high, banker.high, rules), h.fouled) },
      low: { mark: marks.low, winner: winner(marks.low),
        why: whyWords(marks.low, names.low, bankerNames.low, decider("low", h.low, banker.low, rules), h.fouled) },
      result: seatResult(h, record),
    });
  }
  // Every hand's commission: the winners' against the banker, and the banker's own (on its net win).
  const commission = record.hands.reduce((sum, h) => sum + (h.commission_cents ?? 0), 0);
  return {
    banker: { name: nameOf(banker), hand: t("showdown:hands", bankerNames),
      clause: banker.house_way_clause ? clauseWords(banker.house_way_clause) : null, coBanked: Boolean(record.co_banked) },
    rows,
    account: record.banker_player_id ? bankerAccount(record, nameOf) : null,
    commissionCents: commission,
    commissionWhy: commissionWhy(record, rules),
    // A table that takes none (a home game's "Commission: none"): no line about it after every round.
    noCommission: rules?.commission_bps === 0 && commission === 0,
  };
}

function bankerLine(b) {
  const who = t(b.banker.coBanked ? "showdown:banner.co_banked" : "showdown:banner.banked", { name: b.banker.name });
  return el("p", { class: "banker-line" }, `${who} `, el("strong", { text: b.banker.hand }),
    b.banker.clause ? el("small", { class: "clause", text: ` · ${t("showdown:clause_line", { clause: b.banker.clause })}` }) : null);
}

function moneyLines(b) {
  const taken = () => t("showdown:commission.taken", { amount: money(b.commissionCents) });
  return [
    b.account ? el("p", { class: "account", "data-account": "1" }, el("b", { text: `${t("showdown:account.title", { name: b.banker.name })} ` }), b.account.join(" · ")) : null,
    b.noCommission ? null : b.commissionWhy ? el("p", { class: "commission", text: `${t("showdown:commission.taken_sentence", { amount: money(b.commissionCents) })} ` }, el("span", { class: "commission-why", text: b.commissionWhy }))
      : el("p", { class: "commission", text: b.commissionCents ? taken() : t("showdown:commission.none") }),
  ];
}

/** A player's name (marked as such: `lang=""`, `dir="auto"`); the house dealer's is the catalog's word. */
function nameNode(node, row) {
  return row.playerId ? markName(node) : node;
}

/** The centre banner: the banker's hand, one line a seat (who won the high and the low, the result), the
 * player-banker's account and the commission. */
export function bannerNodes(b, me) {
  const side = (part) => el("span", { class: `mark-${part.mark}`, title: part.why },
    part.mark === "copy" ? t("showdown:mark.copy") : part.mark === "win" ? "✓" : t("showdown:mark.banker"));
  const rows = b.rows.map((r) => el("li", { class: r.playerId && r.playerId === me ? "mine" : "", "data-result-row": String(r.position) },
    nameNode(el("b", { text: r.name }), r), ` ${t("showdown:banner.high")} `, side(r.high), ` · ${t("showdown:banner.low")} `, side(r.low), " · ",
    el("span", { class: `res ${r.result.kind}`, text: r.result.text })));
  return [bankerLine(b), rows.length ? el("ul", { class: "result-lines" }, rows) : null, ...moneyLines(b)].filter(Boolean);
}

/** The whole breakdown, under the table: for each hand who won the high and the low and why. */
export function breakdownNodes(b, me) {
  const part = (label, p, r) => [`${label} `, p.mark === "win" ? nameNode(el("b", { class: `mark-${p.mark}`, text: p.winner }), r)
    : el("b", { class: `mark-${p.mark}`, text: t("showdown:the_banker") }), ` — ${p.why}`];
  const rows = b.rows.map((r) => el("li", { class: r.playerId && r.playerId === me ? "mine" : "", "data-breakdown-row": String(r.position) },
    nameNode(el("b", { class: "who", text: r.name }), r), " ", el("span", { class: `res ${r.result.kind}`, text: r.result.text }), el("br"),
    el("span", { class: "why" }, ...part(t("showdown:breakdown.high"), r.high, r), " · ", ...part(t("showdown:breakdown.low"), r.low, r)),
    r.clause ? el("small", { class: "clause", text: t("showdown:clause_line", { clause: r.clause }) }) : null));
  return [el("h3", { text: t("showdown:breakdown.title") }), bankerLine(b), rows.length ? el("ul", { class: "breakdown-lines" }, rows) : null, ...moneyLines(b)]
    .filter(Boolean);
}

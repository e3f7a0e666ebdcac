// The showdown, explained: for each hand who won the high and the low and why ("copy: the banker wins
// ties"), each seat's result and commission, and a player-banker's account (won from whom, paid to whom,
// commission on the net). Worked out from the settled round's public record, so a spectator reads the same.

import { el, money } from "./api.js";
import { RANK_WORDS } from "./cards.js";
import { decider, showdownMarks } from "./showdown.js";
import { barredPush, coBankShares, commissionWhy } from "./variant_results.js";

const ranks = (list) => list.map((r) => RANK_WORDS[r]).join("-");

/** One side of a showdown line, naming what decided it (`d`: showdown.js decider, from the winner's side). */
function winWords(winner, loser, d) {
  if (d?.kind === "kicker" && d.mine.length === 1) return `${winner}, ${RANK_WORDS[d.mine[0]]} kicker, beats ${loser}, ${RANK_WORDS[d.theirs[0]]} kicker`;
  if (d?.kind === "kicker") return `${winner}, ${ranks(d.mine)} kickers, beats ${loser}, ${ranks(d.theirs)} kickers`;
  if (d?.kind === "cards" && d.flush) return `flush, ${ranks(d.mine)} high beats flush, ${ranks(d.theirs)} high`;
  if (d?.kind === "cards") return `${ranks(d.mine)} high beats ${ranks(d.theirs)} high`;
  if (d?.kind === "lower pair") return `${winner} beats ${loser}: the lower pair decides`;
  return `${winner} beats ${loser}`;
}

/** Why a hand won, lost or was a copy, in words: `mine`/`theirs` the player's and the banker's hand names,
 * `d` what decided it from the player's side (showdown.js decider; null when the names say it). */
export function whyWords(mark, mine, theirs, d, fouled = false) {
  if (fouled) return "foul: the hand loses";
  const flip = d && (d.kind === "kicker" || d.kind === "cards") ? { ...d, mine: d.theirs, theirs: d.mine } : d;
  if (mark === "win") return winWords(mine, theirs, d);
  if (mark === "loss") return winWords(theirs, mine, flip);
  return d?.kickers ? `copy (${mine}, kickers alike): the banker wins ties` : `copy (${mine}): the banker wins ties`;
}

function seatResult(h, record) {
  if (h.outcome === "win") {
    const comm = h.commission_cents ? ` (${money(h.wager_cents)} less ${money(h.commission_cents)} commission)` : "";
    return { kind: "win", text: `wins ${money(h.net_cents)}${comm}` };
  }
  if (h.outcome === "push") return { kind: "push", text: barredPush(record) ?? "push: the bet comes back" };
  return { kind: "loss", text: `loses ${money(h.wager_cents)}${h.fouled ? " (foul)" : ""}` };
}

/** The banker's account when a player banks: what it won from and paid to each hand, its commission. */
function bankerAccount(record, nameOf) {
  const parts = [];
  for (const h of record.hands) {
    if (h.is_banker) continue;
    const name = nameOf(h);
    if (h.gross_cents < 0) parts.push(`won ${money(-h.gross_cents)} from ${name}`);
    else if (h.gross_cents > 0) parts.push(`paid ${money(h.gross_cents)} to ${name}`);
    else parts.push(`a push with ${name}`);
  }
  const name = nameOf(record.hands.find((h) => h.is_banker));
  if (record.co_banked) return [...parts, `co-banked with the house, half each: ${coBankShares(record, `${name}'s`)}`];
  if (record.banker_commission_cents) {
    parts.push(`commission ${money(record.banker_commission_cents)} on the net win of ${money(record.banker_gross_cents)}`);
  }
  parts.push(`net ${money(record.banker_net_cents, { sign: true })}`);
  return parts;
}

/**
 * The showdown of `record` in words: {banker, rows, account, commissionCents}. `nameOf(hand)` names a
 * hand's owner ("Dealer" for the house).
 */
export function breakdown(record, rules, nameOf) {
  const banker = record.hands.find((h) => h.is_banker);
  const rows = [];
  for (const h of record.hands) {
    if (h.is_banker) continue;
    const marks = showdownMarks(h, record, rules);
    const name = nameOf(h);
    const winner = (mark) => (mark === "win" ? name : "the banker");
    rows.push({
      position: h.position, name, playerId: h.player_id, clause: h.house_way_clause ?? null,
      high: { mark: marks.high, winner: winner(marks.high),
        why: whyWords(marks.high, h.high_name, banker.high_name, decider("high", h.high, banker.high, rules), h.fouled) },
      low: { mark: marks.low, winner: winner(marks.low),
        why: whyWords(marks.low, h.low_name, banker.low_name, decider("low", h.low, banker.low, rules), h.fouled) },
      result: seatResult(h, record),
    });
  }
  // Every hand's commission: the winners' against the banker, and the banker's own (on its net win).
  const commission = record.hands.reduce((sum, h) => sum + (h.commission_cents ?? 0), 0);
  return {
    banker: { name: nameOf(banker), hand: `${banker.high_name} · ${banker.low_name}`, clause: banker.house_way_clause ?? null,
      coBanked: Boolean(record.co_banked) },
    rows,
    account: record.banker_player_id ? bankerAccount(record, nameOf) : null,
    commissionCents: commission,
    commissionWhy: commissionWhy(record, rules),
    // A table that takes none (a home game's "Commission: none"): no line about it after every round.
    noCommission: rules?.commission_bps === 0 && commission === 0,
  };
}

const MARK = { win: "✓", loss: "✗", copy: "copy" };

function bankerLine(b) {
  return el("p", { class: "banker-line" }, `${b.banker.name}${b.banker.coBanked ? " and the house" : ""} banked: `, el("strong", { text: b.banker.hand }),
    b.banker.clause ? el("small", { class: "clause", text: ` · House Way: ${b.banker.clause}` }) : null);
}

function moneyLines(b) {
  return [
    b.account ? el("p", { class: "account", "data-account": "1" }, el("b", { text: `${b.banker.name}'s bank: ` }), b.account.join(" · ")) : null,
    b.noCommission ? null : b.commissionWhy ? el("p", { class: "commission", text: `Commission taken: ${money(b.commissionCents)}. ` }, el("span", { class: "commission-why", text: b.commissionWhy }))
      : el("p", { class: "commission", text: b.commissionCents ? `Commission taken: ${money(b.commissionCents)}` : "No commission this round" }),
  ];
}

/** The centre banner: the banker's hand, one line a seat (who won the high and the low, the result), the
 * player-banker's account and the commission. */
export function bannerNodes(b, me) {
  const side = (part) => el("span", { class: `mark-${part.mark}`, title: part.why },
    part.mark === "copy" ? "copy" : part.winner === "the banker" ? "banker" : MARK.win);
  const rows = b.rows.map((r) => el("li", { class: r.playerId && r.playerId === me ? "mine" : "", "data-result-row": String(r.position) },
    el("b", { text: r.name }), " high ", side(r.high), " · low ", side(r.low), " · ",
    el("span", { class: `res ${r.result.kind}`, text: r.result.text })));
  return [bankerLine(b), rows.length ? el("ul", { class: "result-lines" }, rows) : null, ...moneyLines(b)].filter(Boolean);
}

/** The whole breakdown, under the table: for each hand who won the high and the low and why. */
export function breakdownNodes(b, me) {
  const part = (label, p) => [`${label}: `, el("b", { class: `mark-${p.mark}`, text: p.mark === "win" ? p.winner : "the banker" }), ` — ${p.why}`];
  const rows = b.rows.map((r) => el("li", { class: r.playerId && r.playerId === me ? "mine" : "", "data-breakdown-row": String(r.position) },
    el("b", { class: "who", text: r.name }), " ", el("span", { class: `res ${r.result.kind}`, text: r.result.text }), el("br"),
    el("span", { class: "why" }, ...part("High", r.high), " · ", ...part("Low", r.low)),
    r.clause ? el("small", { class: "clause", text: `House Way: ${r.clause}` }) : null));
  return [el("h3", { text: "The showdown" }), bankerLine(b), rows.length ? el("ul", { class: "breakdown-lines" }, rows) : null, ...moneyLines(b)]
    .filter(Boolean);
}

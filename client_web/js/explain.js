// What the table did, in words: the events of one patch as sentences for this viewer. A hand the House
// Way set when time ran out, a bank offer that timed out, the bank passing over a player (and why), a
// round without you, a void, betting that waits for its first bet. Each sentence goes to the table's log;
// those about you (`mine`) are also shown on your screen. Every sentence is a whole sentence of the
// catalog (`showdown:event.*`), its shapes each their own key.

import { dateTime, locale, money, t } from "./i18n.js";
import { BANK_TURN } from "./chips_words.js";
import { clauseWords } from "./hand_eval.js";
import { barredWhy, seatNetCents } from "./variant_results.js";

const CANNOT_BANK = new Set(["no_house_round", "chips_short", "not_playing"]);
// Who removed a player (`by`): the host, the table's operator, or not said (stored before it was told).
const REMOVER = new Set(["host", "operator"]);
const remover = (by) => (REMOVER.has(by) ? by : "unknown");

/** Two whole sentences, one after the other (a language may write them without a space). */
function both(first, second) {
  return second ? t("common:two_sentences", { first, second }) : first;
}

// The reasons a player is stood up for their own account's sake (docs/responsible-play.md), each said.
const STOOD_UP_FOR = new Set(["break", "self_exclusion", "time_limit", "account_closed"]);

/** Where a player's chips went when the table stood them up or closed: "balance" (back to the balance, with
 * the amount when the event has one) or "cash_out" (a home game with its own chips: a line of the ledger). */
function backShape(home, cents) {
  return `${home?.chips ? "cash_out" : "balance"}${cents == null ? "" : "_amount"}`;
}

/** "<name> cannot bank this round: <why>" (for you: "You cannot bank this round: <why>"). */
export function cannotBankText(name, why, isMe) {
  const reason = CANNOT_BANK.has(why) ? why : "unknown";
  return isMe ? t(`showdown:cannot_bank.mine.${reason}`) : t(`showdown:cannot_bank.other.${reason}`, { name });
}

const FULL_TIME = new Intl.DateTimeFormat(locale, { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit" });

/** "You are barred from this table until <when>: you may keep watching, or play at another table." (without
 * a bar: "You may keep watching, or sit down again."). */
export function barredText(untilMs, short = false) {
  // A home game's removal says the time as people do ("Dec 2, 2026, 11:46 AM"); the operator's kick in full.
  const when = short ? dateTime(untilMs) : FULL_TIME.format(new Date(untilMs));
  return untilMs ? t("showdown:event.barred_until", { when }) : t("showdown:event.not_barred");
}

/** "Time ran out: the House Way set your hand (two pair, low + high: split)." */
export function timedOutText(clause) {
  return clause ? t("showdown:event.timed_out_clause", { clause: clauseWords(clause) }) : t("showdown:event.timed_out");
}

// The reasons a round is voided (shared/paigow/table: settlement.void_round's callers), by their text.
const VOID_REASONS = { "the table closed": "table_closed", "voided by the operator": "operator", "every player left": "every_player_left",
  "no player is left to play against the bank": "no_opponent" };

/** What happened to a voided round, for the centre of the table; `bets`: whether any stake was down. */
export function voidText(reason, bets = true) {
  if (reason === "no_banker") return t("showdown:void.no_banker"); // players bank in turn, and none could or would
  const code = VOID_REASONS[reason];
  // A reason this page does not know is shown as the table gave it.
  const why = code ? t(`showdown:void_reason.${code}`) : String(reason ?? "").replace(/^voided/i, "").trim();
  if (!why) return t(bets ? "showdown:void.bets" : "showdown:void.no_bets");
  return t(bets ? "showdown:void.bets_why" : "showdown:void.no_bets_why", { why });
}

/** Whether a `round_voided` event returned any stake (a bet, a side bet, the dealer's wager, a Dragon). */
const returnedAny = (ev) => ["returned_bets", "returned_bonuses", "returned_queens_dragon", "returned_dragon"]
  .some((k) => (ev[k] ?? []).length > 0);

/** "Round 4 settled: every wager pushed (the dealer's queen-high pai gow); you won $10.00." */
function settledText(r, me) {
  const net = me && r.hands.some((h) => h.player_id === me) ? seatNetCents(r, me) : null;
  const why = barredWhy(r);
  const result = net === null ? "" : net > 0 ? "won" : net < 0 ? "lost" : "push";
  const shape = [why ? "barred" : "", result].filter(Boolean).join("_") || "plain";
  return t(`showdown:settled.${shape}`, { number: r.number, why, amount: net ? money(Math.abs(net)) : "" });
}

/** "You were sat out after 2 missed rounds in a row …" (`n` null: the count is not known). */
function missedText(n, key, unknownKey, values = {}) {
  return n == null ? t(unknownKey, values) : t(key, { ...values, count: n });
}

/**
 * The events of one patch as sentences: [{text, mine, kind}] in order. `view` is the view after the patch;
 * `me` this connection's player id (null when watching); `nameOf(playerId, seat)` a player's name.
 */
export function describeEvents(events, view, me, nameOf) {
  const out = [];
  // `untilPlay`: a sentence about not playing (sat out, cannot bank), stale once you sit in or bet.
  const say = (text, mine = false, kind = "info", untilPlay = false) => out.push({ text, mine, kind, untilPlay });
  const missed = {};
  const by = view.home ? "host" : "operator"; // a home game's host pauses
  for (const ev of events) {
    const isMe = Boolean(me) && ev.player_id === me;
    // Never "undefined" or "null" in a sentence: a player whose name this page never saw is "A player".
    const name = (ev.player_id ? nameOf(ev.player_id, ev.seat ?? ev.position) : null) ?? t("showdown:a_player");
    // The host's removal at a home game closes the removed player's connection, and its page says so
    // (table_access.js): the log keeps the line, the screen shows no second notice over that page.
    const toldByPage = Boolean(view.home) && ev.by === "host";
    const clause = ev.house_way_clause ? clauseWords(ev.house_way_clause) : "";
    switch (ev.kind) {
      case "hand_set":
        if (!isMe) break;
        if (ev.set_by === "timeout") say(timedOutText(ev.house_way_clause), true, "warn");
        else if (ev.set_by === "foul_reset") say(clause ? t("showdown:event.foul_reset_clause", { clause }) : t("showdown:event.foul_reset"), true, "warn");
        else if (ev.set_by === "house_way") say(clause ? t("showdown:event.house_way_clause", { clause }) : t("showdown:event.house_way"));
        break;
      case "bank_declined":
        if (view.rules.players_bank_in_turn) { // the offer passes on to the next player, never to the house
          if (ev.timed_out) say(isMe ? BANK_TURN.declinedMine : BANK_TURN.timedOut(name), isMe, isMe ? "warn" : "info");
          else if (!isMe) say(BANK_TURN.declined(name));
        } else if (ev.timed_out) say(isMe ? t("showdown:event.bank_timed_out.mine") : t("showdown:event.bank_timed_out.other", { name }), isMe, isMe ? "warn" : "info");
        else if (!isMe) say(t("showdown:event.bank_declined", { name }));
        break;
      case "betting_opened": {
        if (ev.reason === "ineligible") {
          const seat = view.seats[view.marker];
          const who = seat?.name ?? (view.marker == null ? t("showdown:a_player") : t("showdown:seat_n", { n: view.marker }));
          const mine = Boolean(me) && seat?.player_id === me;
          say(cannotBankText(who, ev.ineligible, mine), mine, "info", true);
        } else if (ev.reason === "player_banks" && !view.round?.co_banked) { // a co-bank is said by co_bank_chosen
          say(ev.banker_player_id === me ? t("showdown:event.you_bank")
            : t("showdown:event.player_banks", { name: nameOf(ev.banker_player_id, ev.banker_position) ?? t("showdown:a_player") }));
        }
        break;
      }
      case "player_missed_round":
        missed[ev.player_id] = ev.missed_rounds;
        if (isMe) {
          const status = view.seats[ev.seat]?.status;
          const automatic = events.some((e) => e.kind === "player_sat_out" && e.player_id === me);
          if (status === "sitting_out" && !automatic) say(t("showdown:event.not_in_round.sitting_out"), false, "info", true);
          else say(status === "away" ? t("showdown:event.not_in_round.away") : t("showdown:event.not_in_round.no_bet"), true, "info", true);
        }
        break;
      case "player_sat_out":
        if (!ev.automatic) break;
        if (isMe) say(missedText(missed[ev.player_id], "showdown:event.sat_out.mine", "showdown:event.sat_out.mine.unknown"), true, "warn", true);
        else say(t("showdown:event.sat_out.other", { name }));
        break;
      case "player_stood_up": {
        const back = backShape(view.home, ev.chips_returned_cents);
        const amount = ev.chips_returned_cents == null ? "" : money(ev.chips_returned_cents);
        if (ev.reason === "missed_rounds") {
          say(isMe ? missedText(missed[ev.player_id], `showdown:event.stood_up.${back}`, `showdown:event.stood_up.${back}.unknown`, { amount })
            : t("showdown:event.stood_up.other", { name }), isMe, isMe ? "warn" : "info");
        } else if (isMe && STOOD_UP_FOR.has(ev.reason)) {
          say(both(t(`showdown:event.stood_up_for.${ev.reason}`), t(`showdown:event.chips_back.${back}`, { amount })), true, "warn");
        } else if (isMe) say(t(`showdown:event.table_closed.${back}`, { amount }), true);
        break;
      }
      case "player_leaving":
        if (isMe && ev.kicked) {
          const leaving = t(`showdown:event.leaving.${remover(ev.by)}`);
          say(both(leaving, ev.barred_until_ms ? barredText(ev.barred_until_ms, Boolean(view.home)) : ""), !toldByPage, "warn");
        }
        break;
      case "player_kicked":
        if (isMe) {
          const back = view.home?.chips ? backShape(view.home, ev.chips_returned_cents) : "balance";
          const amount = ev.chips_returned_cents == null ? "" : money(ev.chips_returned_cents);
          say(both(t(`showdown:event.kicked.${remover(ev.by)}.${back}`, { amount }), barredText(ev.barred_until_ms, Boolean(view.home))), !toldByPage, "warn");
        } else say(t(`showdown:event.kicked_other.${remover(ev.by)}`, { name }), true);
        break;
      case "round_voided": say(voidText(ev.reason, returnedAny(ev)), true); break;
      case "deadline_cleared":
        if (view.phase === "betting") say(t("showdown:event.betting_waits"));
        break;
      case "round_settled": say(settledText(ev.record, me)); break;
      // The casino variants (docs/rules.md §4b, §4c): the Dragon's offers, its buyer, a co-bank.
      case "dragon_offered": say(isMe ? t("showdown:event.dragon_offered.mine") : t("showdown:event.dragon_offered.other", { name })); break;
      case "dragon_passed":
        if (isMe && ev.timed_out) say(t("showdown:event.dragon_passed.mine_timed_out"), true, "warn");
        else if (isMe) say(t("showdown:event.dragon_passed.mine"));
        else say(ev.timed_out ? t("showdown:event.dragon_passed.other_timed_out", { name }) : t("showdown:event.dragon_passed.other", { name }));
        break;
      case "dragon_taken": {
        const amount = money(ev.amount_cents);
        say(isMe ? t("showdown:event.dragon_taken.mine", { amount }) : t("showdown:event.dragon_taken.other", { name, amount }));
        break;
      }
      case "dragon_set":
        if (isMe && ev.set_by === "timeout") say(clause ? t("showdown:event.dragon_timed_out_clause", { clause }) : t("showdown:event.dragon_timed_out"), true, "warn");
        break;
      case "co_bank_chosen": say(isMe ? t("showdown:event.co_bank.mine") : t("showdown:event.co_bank.other", { name })); break;
      case "table_paused": say(t(`showdown:event.paused.${by}`)); break; // the page says so while it lasts
      case "table_resumed": say(t("showdown:event.resumed"), true); break;
      default: break;
    }
  }
  return out;
}

// What the table did, in words: the events of one patch as sentences for this viewer. A hand the House
// Way set when time ran out, a bank offer that timed out, the bank passing over a player (and why), a
// round without you, a void, betting that waits for its first bet. Each sentence goes to the table's log;
// those about you (`mine`) are also shown on your screen.

import { money } from "./api.js";
import { removerWords } from "./home_api.js";
import { BANK_TURN, CASH_OUT } from "./chips_words.js";
import { barredWhy, seatNetCents } from "./variant_results.js";

const CANNOT_BANK = {
  no_house_round: ["did not play the last house-banked round", "you did not play the last house-banked round"],
  chips_short: ["chips do not cover the table", "your chips do not cover the table"],
  not_playing: ["sitting out or away", "you are sitting out or away"],
};

function rounds(n) {
  return n == null ? "missed rounds" : `${n} missed round${n === 1 ? "" : "s"}`;
}

/** "your chips ($190.00) went back to your balance" (without the amount when the event has none). */
function chipsBack(cents) {
  return cents == null ? "your chips went back to your balance" : `your chips (${money(cents)}) went back to your balance`;
}

/** "removed by the host", "removed by the table's operator", or "removed from the table" when the event does
 * not say who (`by` null: stored before it was told). */
function removedWords(by) {
  const who = removerWords(by);
  return who ? `removed by ${who}` : "removed from the table";
}

/** "<name> cannot bank this round: <why>" (for you: "You cannot bank this round: <why>"). */
export function cannotBankText(name, why, isMe) {
  const [other, own] = CANNOT_BANK[why] ?? ["is not eligible", "you are not eligible"];
  return isMe ? `You cannot bank this round: ${own}.` : `${name} cannot bank this round: ${other}.`;
}

/** " You are barred from this table until <when>: you may keep watching." (nothing without a bar). */
export function barredText(untilMs, short = false) {
  // A home game's removal says the time as people do ("Dec 2, 2026, 11:46 AM"); the operator's kick in full.
  const when = short ? new Date(untilMs).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : new Date(untilMs).toLocaleString();
  return untilMs ? ` You are barred from this table until ${when}: you may keep watching, or play at another table.` : " You may keep watching, or sit down again.";
}

/** "Time ran out: the House Way set your hand (two pair, low + high: split)." */
export function timedOutText(clause) {
  return `Time ran out: the House Way set your hand${clause ? ` (${clause})` : ""}.`;
}

/** What happened to a voided round, for the centre of the table; `bets`: whether any stake was down. */
export function voidText(reason, bets = true) {
  if (reason === "no_banker") return `${BANK_TURN.noBanker}.`; // players bank in turn, and none could or would
  const why = /^voided/i.test(reason) ? reason.replace(/^voided/i, "").trim() : reason;
  const where = why ? ` (${why})` : "";
  return bets ? `The round was voided${where}: every bet was returned.` : `The round was voided${where} before any bet was made.`;
}

/** Whether a `round_voided` event returned any stake (a bet, a side bet, the dealer's wager, a Dragon). */
const returnedAny = (ev) => ["returned_bets", "returned_bonuses", "returned_queens_dragon", "returned_dragon"]
  .some((k) => (ev[k] ?? []).length > 0);

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
  // A home game with its own chips: leaving cashes out (a ledger line), nothing goes back to a balance.
  const back = view.home?.chips ? CASH_OUT.clause : chipsBack;
  const kickedBack = view.home?.chips ? CASH_OUT.clause : () => "your chips went back to your balance";
  for (const ev of events) {
    const isMe = Boolean(me) && ev.player_id === me;
    // Never "undefined" or "null" in a sentence: a player whose name this page never saw is "A player".
    const name = (ev.player_id ? nameOf(ev.player_id, ev.seat ?? ev.position) : null) ?? "A player";
    // The host's removal at a home game closes the removed player's connection, and its page says so
    // (table_access.js): the log keeps the line, the screen shows no second notice over that page.
    const toldByPage = Boolean(view.home) && ev.by === "host";
    switch (ev.kind) {
      case "hand_set":
        if (!isMe) break;
        if (ev.set_by === "timeout") say(timedOutText(ev.house_way_clause), true, "warn");
        else if (ev.set_by === "foul_reset") say(`Your hand was a foul: the House Way set it again${ev.house_way_clause ? ` (${ev.house_way_clause})` : ""}.`, true, "warn");
        else if (ev.set_by === "house_way") say(`The House Way set your hand${ev.house_way_clause ? ` (${ev.house_way_clause})` : ""}.`);
        break;
      case "bank_declined":
        if (view.rules.players_bank_in_turn) { // the offer passes on to the next player, never to the house
          if (ev.timed_out) say(isMe ? BANK_TURN.declinedMine : BANK_TURN.timedOut(name), isMe, isMe ? "warn" : "info");
          else if (!isMe) say(BANK_TURN.declined(name));
        } else if (ev.timed_out) say(isMe ? "Time ran out on the bank offer: the house banks this round." : `${name} did not answer the bank offer in time: the house banks.`, isMe, isMe ? "warn" : "info");
        else if (!isMe) say(`${name} declined the bank: the house banks.`);
        break;
      case "betting_opened": {
        if (ev.reason === "ineligible") {
          const seat = view.seats[view.marker];
          say(cannotBankText(seat?.name ?? (view.marker == null ? "A player" : `Seat ${view.marker}`), ev.ineligible, Boolean(me) && seat?.player_id === me), Boolean(me) && seat?.player_id === me, "info", true);
        } else if (ev.reason === "player_banks" && !view.round?.co_banked) { // a co-bank is said by co_bank_chosen
          say(ev.banker_player_id === me ? "You bank this round." : `${nameOf(ev.banker_player_id, ev.banker_position) ?? "A player"} banks this round.`);
        }
        break;
      }
      case "player_missed_round":
        missed[ev.player_id] = ev.missed_rounds;
        if (isMe) {
          const status = view.seats[ev.seat]?.status;
          const automatic = events.some((e) => e.kind === "player_sat_out" && e.player_id === me);
          if (status === "sitting_out" && !automatic) say("Not in this round: you are sitting out.", false, "info", true);
          else say(status === "away" ? "Not in this round: you were away." : "Not in this round: no bet was placed.", true, "info", true);
        }
        break;
      case "player_sat_out":
        if (!ev.automatic) break;
        if (isMe) say(`You were sat out after ${rounds(missed[ev.player_id])} in a row: press “Sit in” to play again.`, true, "warn", true);
        else say(`${name} was sat out after missed rounds.`);
        break;
      case "player_stood_up":
        if (ev.reason === "missed_rounds") {
          say(isMe ? `You were stood up after ${rounds(missed[ev.player_id])}: ${back(ev.chips_returned_cents)}.`
            : `${name} was stood up after missed rounds.`, isMe, isMe ? "warn" : "info");
        } else if (isMe) say(`The table closed: ${back(ev.chips_returned_cents)}.`, true);
        break;
      case "player_leaving":
        if (isMe && ev.kicked) say(`You will be ${removedWords(ev.by)} when this round ends.${ev.barred_until_ms ? barredText(ev.barred_until_ms, Boolean(view.home)) : ""}`, !toldByPage, "warn");
        break;
      case "player_kicked":
        if (isMe) say(`You were ${removedWords(ev.by)}; ${kickedBack(ev.chips_returned_cents)}.${barredText(ev.barred_until_ms, Boolean(view.home))}`, !toldByPage, "warn");
        else say(`${name} was ${removedWords(ev.by)}.`, true);
        break;
      case "round_voided": say(voidText(ev.reason, returnedAny(ev)), true); break;
      case "deadline_cleared":
        if (view.phase === "betting") say("Betting time ran out with no bet: the table waits for the first bet.");
        break;
      case "round_settled": {
        const r = ev.record;
        // Your whole result: every hand of yours (a Dragon too), the Fortune and the Queen's Dragon.
        const net = me && r.hands.some((h) => h.player_id === me) ? seatNetCents(r, me) : null;
        const parts = [barredWhy(r) && `every wager pushed (${barredWhy(r)})`,
          net !== null && (net > 0 ? `you won ${money(net)}` : net < 0 ? `you lost ${money(-net)}` : "a push for you")].filter(Boolean);
        say(`Round ${r.number} settled${parts.length ? `: ${parts.join("; ")}` : ""}.`);
        break;
      }
      // The casino variants (docs/rules.md §4b, §4c): the Dragon's offers, its buyer, a co-bank.
      case "dragon_offered": say(isMe ? "The Dragon hand is offered to you: take it or pass." : `The Dragon hand is offered to ${name}.`); break;
      case "dragon_passed":
        if (isMe && ev.timed_out) say("Time ran out on the Dragon offer: you passed it.", true, "warn");
        else say(`${isMe ? "You" : name} passed the Dragon hand${ev.timed_out ? " (time ran out)" : ""}.`);
        break;
      case "dragon_taken": say(`${isMe ? "You" : name} bought the Dragon hand with a ${money(ev.amount_cents)} wager.`); break;
      case "dragon_set":
        if (isMe && ev.set_by === "timeout") say(`Time ran out: the House Way set your Dragon hand${ev.house_way_clause ? ` (${ev.house_way_clause})` : ""}.`, true, "warn");
        break;
      case "co_bank_chosen": say(`${isMe ? "You co-bank" : `${name} co-banks`} with the house this round: half each.`); break;
      case "table_paused": say(`The ${by} paused the table.`); break; // the page says so while it lasts
      case "table_resumed": say("The table is open again.", true); break;
      default: break;
    }
  }
  return out;
}

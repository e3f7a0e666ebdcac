// The table's screen-reader line (#announcer, a polite live region): whose turn it is, and each round's
// result, as whole sentences in the page's language.

import { money, t } from "./i18n.js";
import { handNames } from "./hand_eval.js";

/** Says it to screen readers (a polite live region). */
export function announce(text) {
  document.getElementById("announcer").textContent = text;
}

/** The viewer's own hand of a settled record: none for a spectator (whose player id is null, as the house
 * dealer's hand's is: the two must never match). */
function ownHand(record, ctx) {
  return ctx.role === "player" && ctx.playerId ? record.hands.find((h) => h.player_id === ctx.playerId) ?? null : null;
}

/** "Round 3 settled. You win $10.00. The banker has …": a sentence each, in order. */
export function settledWords(record, ctx, rules = null) {
  const mine = ownHand(record, ctx);
  const words = [t("table:said.settled", { round: record.number })];
  if (mine && mine.is_banker) {
    words.push(t(record.banker_net_cents >= 0 ? "table:said.banker.win" : "table:said.banker.loss", { amount: money(Math.abs(record.banker_net_cents)) }));
  } else if (mine) {
    words.push(mine.outcome === "win" ? t("table:said.you.win", { amount: money(mine.net_cents) }) : mine.outcome === "push" ? t("table:said.you.push")
      : t("table:said.you.loss", { amount: money(-mine.net_cents) }));
  }
  const banker = record.hands.find((h) => h.is_banker);
  if (banker) words.push(t("table:said.banker_hands", handNames(banker, rules?.wheel)));
  return words.join(" ");
}

/** What an event says of whose turn it is (null: nothing). */
export function turnWords(ev, view, ctx) {
  switch (ev.kind) {
    case "hands_dealt": {
      const mine = view.you && ev.hands.find((h) => h.position === view.you.position);
      return mine ? t("table:said.dealt.you") : t("table:said.dealt");
    }
    case "betting_opened": {
      const can = view.you?.can?.bet;
      return !can ? t("table:said.betting") : view.you.status === "sitting_out" ? t("table:said.betting.sitting_out") : t("table:said.betting.you");
    }
    case "bank_offered": {
      if (ev.player_id === ctx.playerId) return t("table:said.bank_offered.you");
      const name = view.seats.find((x) => x?.player_id === ev.player_id)?.name;
      return name ? t("table:said.bank_offered", { name }) : t("table:said.bank_offered.someone");
    }
    default: return null;
  }
}

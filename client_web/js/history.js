// The history dialog: your last 10 hands (game recall) and the table's recent rounds (read from the
// server when the dialog opens), each with its commitment, revealed seed and a link that verifies the deal
// in this browser; how each hand was set (the House Way's clause, a time-out); and the table's log of what
// happened since this page opened. Each of your hands played against the banker shows the coach's figure
// (the EV it gave up) or an "Analyse" button, and the session's score heads the list.

import { api, el } from "./api.js";
import { money, number, t, time, when } from "./i18n.js";
import { durationText } from "./play_session.js";
import { errorText } from "./errors.js";
import { cardGlyphs, cardLabel, sortForDisplay, toCard } from "./cards.js";
import { fetchRounds } from "./rounds.js";
import { fortuneNote } from "./fortune.js";
import { evText, openCoach } from "./coach.js";
import { clauseWords, handNames } from "./hand_eval.js";
import { barredPush, dragonOf, roundVariantParts, seatVariantParts, variantLines } from "./variant_results.js";

/** Cards as short text (K♠ 10♦ JK), red suits in red, each labelled for screen readers. */
function mini(texts) {
  return el("span", { class: "mini-cards" }, sortForDisplay((texts ?? []).map(toCard)).map((c) =>
    el("span", { class: `mini ${c.suit === "h" || c.suit === "d" ? "red" : ""}`, title: cardLabel(c), "aria-label": cardLabel(c),
      text: cardGlyphs(c) })));
}

// Who set a hand: a hand set with the House Way button is the player's own; a time-out's is not theirs.
const SET_BY = new Set(["timeout", "house_way", "foul_reset", "dealer"]);

/** How a hand was set, in words ("Set by the House Way after a time-out (no pair)"); "" for a player's. A
 * co-banker's hand is always the House Way's (docs/rules.md §4c). */
export function setByText(h, record = null) {
  const how = h?.is_banker && record?.co_banked && h.set_by === "house_way" ? "co_banker" : SET_BY.has(h?.set_by) ? h.set_by : null;
  if (!how) return "";
  return h.house_way_clause ? t(`showdown:history.set_by.${how}_clause`, { clause: clauseWords(h.house_way_clause) }) : t(`showdown:history.set_by.${how}`);
}

/** A hand's cards and names, then how it was set (`how`: "" for none). */
function handCell(h, how) {
  if (!h) return "—";
  const cell = [mini(h.high), " · ", mini(h.low), el("br"), el("small", { class: "hint", text: t("showdown:hands", handNames(h)) })];
  if (how) cell.push(el("br"), el("small", { class: `set-by ${h.set_by}`, text: how }));
  return cell;
}

/** The /verify/ address that checks a round record (or any object with the same fields). */
export function verifyHref(r) {
  const q = new URLSearchParams({ round: r.round_id, seed: r.server_seed, banker: String(r.banker_position ?? 0), commitment: r.commitment });
  if (r.dice) q.set("dice", r.dice.join(","));
  if (r.first_position != null) q.set("first", String(r.first_position));
  const hands = (r.hands ?? []).filter((h) => h.dealt?.length).map((h) => `${h.position}:${h.dealt.join(".")}`);
  if (hands.length) q.set("hands", hands.join(";"));
  return `/verify/?${q}`;
}

/** A round's proof of a fair deal, folded behind "Verify this round" so that the play reads first: its
 * commitment, its revealed seed (or that it comes after the round) and the link that checks the deal. */
function fairLine(r) {
  const proof = !r.server_seed
    ? [el("p", {}, `${t("showdown:history.commitment")} `, el("code", { text: r.commitment ?? "" })), el("p", { text: t("showdown:history.seed_later") })]
    : [el("p", {}, el("a", { href: verifyHref(r), target: "_blank", rel: "noopener", class: "verify-link", text: t("showdown:history.check_deal") })),
      el("p", {}, `${t("showdown:history.commitment")} `, el("code", { text: r.commitment })), el("p", {}, `${t("showdown:history.seed")} `, el("code", { text: r.server_seed }))];
  return el("details", { class: "fair" }, el("summary", { text: t("showdown:history.verify") }), ...proof);
}

function resultText(r, mine) {
  if (mine.is_banker) return t("showdown:history.result.bank", { amount: money(r.banker_net_cents, { sign: true }) });
  const outcome = ["win", "loss", "push"].includes(mine.outcome) ? mine.outcome : "none";
  return (mine.outcome === "push" && barredPush(r)) || t(`showdown:history.result.${outcome}`, { amount: money(mine.net_cents, { sign: true }) });
}

// On a phone the table's cells stack, each after its label (`data-label`, read by the CSS: table.css, coach.css).

/** A settled round as a row (``more``: cells after its own), and under it, across the table, the casino
 * variants' lines (a co-bank, a barred dealer, a Dragon you bought, your Queen's Dragon: variant_results.js)
 * when it has any. ``tableName``: named in its first cell (your hands come from every table); ``nameOf(id,
 * seat)``: a player's name, for a co-banker; ``total``: your whole result, a history entry's
 * ``total_net_cents`` (absent: the record's sum). */
function roundRows(r, playerId, nameOf, { tableName = null, more = [], total } = {}) {
  // A spectator (null) is not the dealer; your own hand, not a Dragon you bought.
  const mine = playerId ? r.hands?.find((h) => h.player_id === playerId && h.dragon_of == null) : null;
  const banker = r.hands?.find((h) => h.is_banker);
  const dragon = dragonOf(r, playerId);
  const row = el("tr", {},
    el("td", { text: tableName ? t("showdown:history.table_round", { table: tableName, number: r.number ?? "" }) : t("showdown:history.round", { number: r.number ?? "" }) }),
    el("td", { class: "dice-cell", "data-label": t("showdown:history.cell.dice"), text: r.dice ? r.dice.join("-") : "" }),
    el("td", { "data-label": t("showdown:history.cell.you") }, handCell(mine, setByText(mine, r)), dragon ? [el("br"), el("small", { class: "hint", text: `${t("showdown:history.your_dragon")} ` }), ...handCell(dragon, "")] : null),
    el("td", { "data-label": t("showdown:history.cell.banker") }, handCell(banker, setByText(banker, r))),
    el("td", { class: "result-cell", "data-label": t("showdown:history.cell.result"), text: mine ? resultText(r, mine) + fortuneNote(mine) : "" }),
    el("td", {}, fairLine(r)), ...more);
  const parts = [...roundVariantParts(r, nameOf(r.banker_player_id, r.banker_position), playerId), ...(mine ? seatVariantParts(r, mine, playerId, total) : [])];
  return parts.length ? [row, el("tr", { class: "variant-lines" }, el("td", { colspan: String(row.children.length) }, variantLines(parts)))] : [row];
}

function recordOf(item) {
  return item.record ?? item.round ?? item;
}

/** The coach's figure of a hand of the history: the EV given up, or an "Analyse" button that asks the
 * coach (the dialog) and then shows the figure in place. Null for a hand you banked. */
function coachCell(item, token, analysed) {
  if (item.is_banker) return el("td", { class: "coach-cell", "data-label": t("showdown:history.cell.coach"), text: "—" }); // a dash: no figure
  const cell = el("td", { class: "coach-cell", "data-label": t("showdown:history.cell.coach"), "data-coach-round": item.round_id });
  const timedOut = item.hand?.set_by === "timeout";
  const show = (a) => {
    if (timedOut) { // the House Way's setting, not the player's: no praise, no score
      cell.replaceChildren(el("span", { class: "coach-figure timed-out", text: t("showdown:history.coach.not_scored") }), el("br"),
        el("small", { class: "hint", text: t("showdown:history.coach.timed_out") }));
      return;
    }
    const figure = a.ev_given_up <= 0 ? t("showdown:history.coach.best") : t("showdown:history.coach.gave_up", { ev: evText(a.ev_given_up).slice(1) });
    cell.replaceChildren(el("span", { class: `coach-figure ${a.ev_given_up <= 0 ? "best" : "gave-up"}`, text: figure }), el("br"),
      el("small", { class: "hint", text: a.ev_given_up <= 0 ? t("showdown:history.coach.ev", { ev: evText(a.chosen_ev) })
        : t("showdown:history.coach.ev_best", { ev: evText(a.chosen_ev), best: evText(a.best_ev) }) }));
  };
  if (item.analysis) show(item.analysis);
  else {
    cell.append(el("button", { class: "btn small secondary coach-analyse", type: "button", text: t("showdown:history.coach.analyse.button"),
      "aria-label": t("showdown:history.coach.analyse.label", { number: item.number }),
      onclick: () => openCoach({ tableId: item.table_id, roundId: item.round_id, token, title: t("showdown:history.coach.title", { number: item.number }),
        onAnalysis: (doc) => { show({ ev_given_up: doc.ev_given_up, chosen_ev: doc.chosen.ev, best_ev: doc.best.ev }); analysed(); } }) }));
  }
  return cell;
}

/** The newest session's score: "This session at Table 1: 3 of 5 hands analysed · ..." */
function sessionLine(session) {
  if (!session) return null;
  const parts = [session.played || !session.timed_out
    ? t("showdown:history.session.analysed", { count: session.played, analysed: number(session.analysed), played: number(session.played) })
    : t("showdown:history.session.none")];
  if (session.analysed) {
    parts.push(t("showdown:history.session.best", { count: session.best_splits, n: number(session.best_splits) }),
      t("showdown:history.session.ev", { total: evText(session.ev_given_up_total).slice(1), mean: evText(session.ev_given_up_mean).slice(1) }));
  }
  if (session.timed_out) parts.push(t("showdown:history.session.timed_out", { count: session.timed_out, n: number(session.timed_out) }));
  return el("p", { class: "coach-session", id: "coach-session" }, el("b", { text: `${t("showdown:history.session.title", { table: session.table_name })} ` }), parts.join(" · "));
}

function logSection(log) {
  const items = (log ?? []).slice(0, 50).map((line) => el("li", {},
    el("time", { class: "hint", text: time(line.at, { seconds: true }) }), " ", line.text));
  return [el("h3", { text: t("showdown:history.log.title") }),
    items.length ? el("ol", { class: "table-log", id: "table-log", reversed: true }, items) : el("p", { class: "hint", text: t("showdown:history.log.empty") })];
}

/** The player's finished play sessions (the server's `play_sessions`, newest first): start, length, net. */
function playSessionsSection(sessions) {
  if (!Array.isArray(sessions)) return [];
  const heads = [t("showdown:history.play.col.start"), t("showdown:history.play.col.length"), t("showdown:history.play.col.net")];
  const rows = sessions.slice(0, 10).map((s) => el("tr", {},
    el("td", { "data-label": heads[0], text: when(s.start_ms) }),
    el("td", { "data-label": heads[1], text: durationText(s.end_ms - s.start_ms) }),
    el("td", { class: `num ${s.net_cents > 0 ? "win" : s.net_cents < 0 ? "loss" : ""}`, "data-label": heads[2], text: money(s.net_cents, { sign: true }) })));
  return [el("h3", { text: t("showdown:history.play.title") }),
    rows.length ? el("table", { class: "data", id: "play-sessions" }, el("thead", {}, el("tr", {}, heads.map((text) => el("th", { text })))), el("tbody", {}, rows))
      : el("p", { class: "hint", text: t("showdown:history.play.empty") })];
}

export async function openHistory(dialog, list, { tableId, view, token, playerId, log, names = {} }) {
  const nameOf = (id, seat) => names[id] ?? t("showdown:history.player_at_seat", { seat });
  list.replaceChildren(el("p", { class: "hint", text: t("showdown:history.loading") }));
  if (!dialog.open) dialog.showModal();
  const sections = [];
  if (token) {
    try {
      const data = await api("/api/players/me/history", { token });
      // After an analysis from this list the session's score is read again (the server keeps the figure).
      const refreshSession = async () => {
        try {
          const line = sessionLine((await api("/api/players/me/history", { token }))?.sessions?.[0]);
          if (line) document.getElementById("coach-session")?.replaceWith(line);
        } catch { /* the line is shown again when the dialog opens */ }
      };
      const items = Array.isArray(data) ? data : data?.hands ?? data?.history ?? [];
      const rows = items.slice(0, 10).flatMap((item) => roundRows(recordOf(item), playerId, nameOf, { tableName: item.table_name ?? null, total: item.total_net_cents,
        more: [el("td", { class: "num", "data-label": t("showdown:history.cell.balance"), text: item.balance_before_cents != null ? `${money(item.balance_before_cents)} → ${money(item.balance_after_cents)}` : "" }),
          coachCell(item, token, refreshSession)] }));
      const heads = [t("showdown:history.col.round"), t("showdown:history.col.dice"), t("showdown:history.col.you_high_low"), t("showdown:history.col.banker"),
        t("showdown:history.col.result"), t("showdown:history.col.fair"), t("showdown:history.col.balance"), t("showdown:history.col.coach")];
      sections.push(el("h3", { text: t("showdown:history.mine.title") }), sessionLine(data?.sessions?.[0]),
        rows.length ? el("table", { class: "data", id: "my-history" }, el("thead", {}, el("tr", {}, heads.map((text) => el("th", { text })))), el("tbody", {}, rows))
          : el("p", { class: "hint", text: t("showdown:history.mine.empty") }), ...playSessionsSection(data?.play_sessions));
    } catch (err) {
      sections.push(el("p", { class: "field-error", text: t("showdown:history.mine.failed", { why: errorText(err) }) }));
    }
  }
  sections.push(...logSection(log));
  const round = view?.round;
  if (round) sections.push(el("h3", { text: t("showdown:history.this_round") }), fairLine({ commitment: round.commitment }));
  sections.push(el("h3", { text: t("showdown:history.recent.title") }));
  try {
    const recent = await fetchRounds(tableId, undefined, token);
    const heads = [t("showdown:history.col.round"), t("showdown:history.col.dice"), t("showdown:history.col.you"), t("showdown:history.col.banker"),
      t("showdown:history.col.result"), t("showdown:history.col.fair")];
    sections.push(recent.length ? el("table", { class: "data", id: "table-history" }, el("thead", {}, el("tr", {}, heads.map((text) => el("th", { text })))),
      el("tbody", {}, recent.flatMap((r) => roundRows(r, playerId, nameOf)))) : el("p", { class: "hint", text: t("showdown:history.recent.empty") }));
  } catch (err) {
    sections.push(el("p", { class: "field-error", text: t("showdown:history.recent.failed", { why: errorText(err) }) }));
  }
  list.replaceChildren(...sections.filter(Boolean));
}

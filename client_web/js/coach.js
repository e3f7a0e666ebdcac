// The coach: what a set hand was worth against a House Way dealer (docs/http-api.md, "Split analysis"), in
// plain words — the player's split, the best split and the House Way's, each as cards with its EV and its
// chances, and the EV given up. "How did I set it?" asks the server for a settled round's analysis of the
// caller's own hand and shows it in a dialog, with a loading line and the refusals (429 with the wait, 503)
// in words. The practice page shows the same nodes (coachNodes) under its result.

import { api, el, seconds, sentence } from "./api.js";
import { sortForDisplay, toCard } from "./cards.js";
import { cardElement } from "./card_svg.js";
import { houseWayName } from "./hand_eval.js";

const pct = (x) => `${Math.round(x * 100)}%`;

/** EV per unit bet with its sign: "+0.237", "−0.050". */
export function evText(ev) {
  const text = Math.abs(ev).toFixed(3);
  return ev < 0 ? `−${text}` : `+${text}`;
}

/** An amount of units in words precise enough for a small one: "0.04", "0.004". */
function unitsText(x) {
  return x >= 0.0095 ? x.toFixed(2) : x.toFixed(3);
}

/** The share of the bet: "4%", "0.4%". */
function shareText(x) {
  const p = x * 100;
  return `${p >= 9.5 ? Math.round(p) : p.toFixed(1)}%`;
}

/** What the EV given up means, in one sentence. */
export function givenUpText(givenUp) {
  if (givenUp <= 0) return "You set the best split.";
  return `The best split would have gained ${unitsText(givenUp)} units more: you gave up ${shareText(givenUp)} of your bet on average.`;
}

/** Who set a played hand (``set_by`` of docs/http-api.md), in words: a hand set with the House Way button
 * is the player's; one the House Way set after a time-out is not. "" when the answer does not say. */
export function whoSetText(setBy) {
  if (setBy === "timeout") return "Set by the House Way after a time-out: your time to set ran out, so this is not your setting and your session's score leaves it out.";
  if (setBy === "house_way") return "You set it with the House Way button.";
  if (setBy === "player") return "You set it yourself.";
  return "";
}

/** The verdict on a hand the House Way set after a time-out: what that split was worth, never "You set". */
function timedOutVerdict(givenUp) {
  if (givenUp <= 0) return "The House Way's split was the best split.";
  return `The best split would have gained ${unitsText(givenUp)} units more than the House Way's split (${shareText(givenUp)} of the bet on average).`;
}

function cardsRow(texts, label) {
  const cards = sortForDisplay(texts.map(toCard)).map((c) => cardElement(c));
  return el("div", { class: "coach-cards", role: "group", "aria-label": label }, cards);
}

/** A set hand's cards: the five-card high hand beside (or above) the two-card low hand, each labelled
 * with its name ("your high hand: pair of aces"). */
export function splitCards(split, whose = "") {
  const who = whose ? `${whose} ` : "";
  return el("div", { class: "coach-hands" },
    cardsRow(split.high, `${who}high hand: ${split.high_name}`), cardsRow(split.low, `${who}low hand: ${split.low_name}`));
}

function splitBlock(title, split, { id, note } = {}) {
  const odds = split.legal === false
    ? "A foul: it loses whatever the dealer holds (EV −1)."
    : `EV ${evText(split.ev)} per unit bet · win ${pct(split.win)} · push ${pct(split.push)} · loss ${pct(split.loss)}`;
  return el("section", { class: "coach-split", id, "aria-label": title },
    el("h3", {}, title, note ? el("small", { class: "hint", text: ` · ${note}` }) : null),
    splitCards(split),
    el("p", { class: "coach-names", text: `${split.high_name} · ${split.low_name}` }),
    el("p", { class: "coach-odds", text: odds }));
}

const sameSplit = (a, b) => [...a.low].sort().join() === [...b.low].sort().join();

/** The analysis of a set hand (the round's or a practice deal's) as nodes: who set it (a played hand's
 * ``set_by``), then the verdict. */
export function coachNodes(doc) {
  const chosen = doc.chosen;
  const timedOut = doc.set_by === "timeout";
  const verdict = timedOut ? timedOutVerdict(doc.ev_given_up)
    : chosen.legal === false
      ? `Your split was a foul: an automatic loss. The best split would have won ${evText(doc.best.ev)} per unit bet on average.`
      : givenUpText(doc.ev_given_up);
  const way = houseWayName({ house_way: doc.rules?.house_way });
  const who = whoSetText(doc.set_by);
  const nodes = [
    who ? el("p", { class: `coach-who set-by ${doc.set_by}`, id: "coach-who", text: who }) : null,
    el("p", { class: `coach-verdict ${timedOut ? "timed-out" : doc.ev_given_up <= 0 ? "best" : "gave-up"}`, id: "coach-verdict", text: verdict }),
    splitBlock(timedOut ? "The House Way's split, set after the time-out" : "Your split", chosen,
      { id: "coach-chosen", note: !timedOut && sameSplit(chosen, doc.house_way) ? "the House Way's too" : null }),
  ].filter(Boolean);
  if (doc.ev_given_up > 0) nodes.push(splitBlock("The best split", doc.best, { id: "coach-best", note: sameSplit(doc.best, doc.house_way) ? "the House Way's too" : null }));
  if (!sameSplit(doc.house_way, chosen) && !sameSplit(doc.house_way, doc.best)) nodes.push(splitBlock(`The ${way} House Way's split`, doc.house_way, { id: "coach-house-way" }));
  nodes.push(el("p", { class: "hint coach-about" },
    `EV: what a split wins on average per unit bet (0.95 × win − loss) against a dealer who sets by the ${way} House Way, `,
    `the other seats' cards unknown; from ${doc.samples.toLocaleString("en-US")} dealer hands${doc.exact ? " (every one)" : ""}.`));
  return nodes;
}

/** A refused analysis in words: the wait of a 429 and a 503, why a round has none yet. */
export function coachErrorText(err) {
  if (err.code === "RATE_LIMITED") return `You have asked the coach for many analyses this minute: try again in ${seconds(err.retryAfter ?? 60)}.`;
  if (err.code === "ANALYSIS_BUSY") return `The coach is busy with other players' hands: try again in ${seconds(err.retryAfter ?? 1)}.`;
  if (err.code === "ANALYSIS_QUEUE_FULL") return "The coach is still working on your earlier hands: ask again once they are answered.";
  if (err.code === "ROUND_NOT_SETTLED") return "This round is still being played: the coach looks at it once every hand is set and it is settled.";
  if (err.code === "BANKER_HAND") return "You were the banker that round: the coach looks at a player's hand against the house dealer.";
  return sentence(err.message);
}

function dialog() {
  let d = document.getElementById("coach-dialog");
  if (d) return d;
  d = el("dialog", { id: "coach-dialog", class: "coach-dialog", "aria-labelledby": "coach-title" },
    el("div", { class: "dialog-head" }, el("h2", { id: "coach-title", text: "How did I set it?" }),
      el("button", { class: "btn small secondary", type: "button", id: "coach-close", onclick: () => d.close(), text: "Close" })),
    // Focusable: on a short screen the analysis scrolls, and a keyboard must be able to scroll it.
    el("div", { class: "coach-body", id: "coach-body", "aria-live": "polite", tabindex: "0", role: "region",
      "aria-label": "The coach's analysis" }));
  document.body.append(d);
  return d;
}

/**
 * "How did I set it?": the dialog with the analysis of the caller's own hand of a settled round.
 * `onAnalysis(doc)` is told when one arrives (the history shows its figure).
 */
export async function openCoach({ tableId, roundId, token, title = "How did I set it?", onAnalysis = null }) {
  const d = dialog();
  const body = d.querySelector("#coach-body");
  d.querySelector("#coach-title").textContent = title;
  body.replaceChildren(el("p", { class: "hint coach-loading", id: "coach-loading", role: "status", text: "The coach is working it out… (about a second)" }));
  if (!d.open) d.showModal();
  try {
    const doc = await api(`/api/tables/${encodeURIComponent(tableId)}/rounds/${encodeURIComponent(roundId)}/analysis`, { token });
    body.replaceChildren(el("p", { class: "hint", text: `Round #${doc.number}, seat ${doc.position}` }), ...coachNodes(doc));
    onAnalysis?.(doc);
  } catch (err) {
    const retry = ["RATE_LIMITED", "ANALYSIS_BUSY", "ANALYSIS_QUEUE_FULL"].includes(err.code)
      ? el("button", { class: "btn small secondary", type: "button", id: "coach-retry", text: "Try again", onclick: () => openCoach({ tableId, roundId, token, title, onAnalysis }) })
      : null;
    body.replaceChildren(el("p", { class: "field-error", id: "coach-error", role: "alert", text: coachErrorText(err) }), retry);
  }
}

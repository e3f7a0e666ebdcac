// The coach: what a set hand was worth against a House Way dealer (docs/http-api.md, "Split analysis"), in
// plain words — the player's split, the best split and the House Way's, each as cards with its EV and its
// chances, and the EV given up. "How did I set it?" asks the server for a settled round's analysis of the
// caller's own hand and shows it in a dialog, with a loading line and the refusals (429 with the wait, 503)
// in words. The practice page shows the same nodes (coachNodes) under its result.

import { api, el } from "./api.js";
import { locale, number, t } from "./i18n.js";
import { errorText } from "./errors.js";
import { sortForDisplay, toCard } from "./cards.js";
import { cardElement } from "./card_svg.js";
import { handNames, houseWayName } from "./hand_eval.js";

const digits = (n) => new Intl.NumberFormat(locale, { minimumFractionDigits: n, maximumFractionDigits: n });
const WHOLE = digits(0);
const ONE = digits(1);
const TWO = digits(2);
const THREE = digits(3);
const pct = (x) => t("showdown:coach.percent", { n: WHOLE.format(Math.round(x * 100)) });

/** EV per unit bet with its sign: "+0.237", "−0.050". */
export function evText(ev) {
  const text = THREE.format(Math.abs(ev));
  return ev < 0 ? `−${text}` : `+${text}`;
}

/** An amount of units in words precise enough for a small one: "0.04", "0.004". */
function unitsText(x) {
  return x >= 0.0095 ? TWO.format(x) : THREE.format(x);
}

/** The share of the bet: "4%", "0.4%". */
function shareText(x) {
  const p = x * 100;
  return t("showdown:coach.percent", { n: p >= 9.5 ? WHOLE.format(Math.round(p)) : ONE.format(p) });
}

/** What the EV given up means, in one sentence. */
export function givenUpText(givenUp) {
  if (givenUp <= 0) return t("showdown:coach.best_split");
  return t("showdown:coach.gave_up", { units: unitsText(givenUp), share: shareText(givenUp) });
}

/** Who set a played hand (``set_by`` of docs/http-api.md), in words: a hand set with the House Way button
 * is the player's; one the House Way set after a time-out is not. "" when the answer does not say. */
export function whoSetText(setBy) {
  if (setBy === "timeout" || setBy === "house_way" || setBy === "player") return t(`showdown:coach.set_by.${setBy}`);
  return "";
}

/** The verdict on a hand the House Way set after a time-out: what that split was worth, never "You set". */
function timedOutVerdict(givenUp) {
  if (givenUp <= 0) return t("showdown:coach.timed_out.best");
  return t("showdown:coach.timed_out.gave_up", { units: unitsText(givenUp), share: shareText(givenUp) });
}

function cardsRow(texts, label) {
  const cards = sortForDisplay(texts.map(toCard)).map((c) => cardElement(c));
  return el("div", { class: "coach-cards", role: "group", "aria-label": label }, cards);
}

/** The labels of a set hand's two rows, as whole keys: no owner (the coach's own splits) by default; the
 * practice page names the dealer's and yours (`showdown:coach.hand.high.dealer`, …). */
const HAND_LABELS = { high: "showdown:coach.hand.high", low: "showdown:coach.hand.low" };

/** A set hand's cards: the five-card high hand beside (or above) the two-card low hand, each labelled
 * with its name ("your high hand: pair of aces"); `labels`: {high, low}, each a whole key taking `name`. */
export function splitCards(split, labels = HAND_LABELS, wheel = "second") {
  const names = handNames(split, wheel);
  return el("div", { class: "coach-hands" },
    cardsRow(split.high, t(labels.high, { name: names.high })),
    cardsRow(split.low, t(labels.low, { name: names.low })));
}

function splitBlock(title, split, { id, note } = {}) {
  const odds = split.legal === false
    ? t("showdown:coach.foul_odds")
    : t("showdown:coach.odds", { ev: evText(split.ev), win: pct(split.win), push: pct(split.push), loss: pct(split.loss) });
  return el("section", { class: "coach-split", id, "aria-label": title },
    el("h3", {}, title, note ? el("small", { class: "hint", text: ` · ${note}` }) : null),
    splitCards(split),
    el("p", { class: "coach-names", text: t("showdown:hands", handNames(split)) }),
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
      ? t("showdown:coach.foul_verdict", { ev: evText(doc.best.ev) })
      : givenUpText(doc.ev_given_up);
  const way = houseWayName({ house_way: doc.rules?.house_way });
  const who = whoSetText(doc.set_by);
  const nodes = [
    who ? el("p", { class: `coach-who set-by ${doc.set_by}`, id: "coach-who", text: who }) : null,
    el("p", { class: `coach-verdict ${timedOut ? "timed-out" : doc.ev_given_up <= 0 ? "best" : "gave-up"}`, id: "coach-verdict", text: verdict }),
    splitBlock(timedOut ? t("showdown:coach.title.timed_out") : t("showdown:coach.title.yours"), chosen,
      { id: "coach-chosen", note: !timedOut && sameSplit(chosen, doc.house_way) ? t("showdown:coach.house_way_too") : null }),
  ].filter(Boolean);
  if (doc.ev_given_up > 0) nodes.push(splitBlock(t("showdown:coach.title.best"), doc.best, { id: "coach-best", note: sameSplit(doc.best, doc.house_way) ? t("showdown:coach.house_way_too") : null }));
  if (!sameSplit(doc.house_way, chosen) && !sameSplit(doc.house_way, doc.best)) nodes.push(splitBlock(t("showdown:coach.title.house_way", { way }), doc.house_way, { id: "coach-house-way" }));
  nodes.push(el("p", { class: "hint coach-about",
    text: t(doc.exact ? "showdown:coach.about_exact" : "showdown:coach.about", { way, count: doc.samples, samples: number(doc.samples) }) }));
  return nodes;
}

/** A refused analysis in words: the wait of a 429 and a 503, why a round has none yet. */
export function coachErrorText(err) {
  if (err.code === "RATE_LIMITED") return t("showdown:coach.error.rate_limited", { count: err.retryAfter ?? 60 });
  if (err.code === "ANALYSIS_BUSY") return t("showdown:coach.error.busy", { count: err.retryAfter ?? 1 });
  if (err.code === "ANALYSIS_QUEUE_FULL") return t("showdown:coach.error.queue_full");
  if (err.code === "ROUND_NOT_SETTLED") return t("showdown:coach.error.not_settled");
  if (err.code === "BANKER_HAND") return t("showdown:coach.error.banker_hand");
  return errorText(err);
}

function dialog() {
  let d = document.getElementById("coach-dialog");
  if (d) return d;
  d = el("dialog", { id: "coach-dialog", class: "coach-dialog", "aria-labelledby": "coach-title" },
    el("div", { class: "dialog-head" }, el("h2", { id: "coach-title", text: t("showdown:coach.dialog_title") }),
      el("button", { class: "btn small secondary", type: "button", id: "coach-close", onclick: () => d.close(), text: t("common:close") })),
    // Focusable: on a short screen the analysis scrolls, and a keyboard must be able to scroll it.
    el("div", { class: "coach-body", id: "coach-body", "aria-live": "polite", tabindex: "0", role: "region",
      "aria-label": t("showdown:coach.body_label") }));
  document.body.append(d);
  return d;
}

/**
 * "How did I set it?": the dialog with the analysis of the caller's own hand of a settled round.
 * `onAnalysis(doc)` is told when one arrives (the history shows its figure).
 */
export async function openCoach({ tableId, roundId, token, title = t("showdown:coach.dialog_title"), onAnalysis = null }) {
  const d = dialog();
  const body = d.querySelector("#coach-body");
  d.querySelector("#coach-title").textContent = title;
  body.replaceChildren(el("p", { class: "hint coach-loading", id: "coach-loading", role: "status", text: t("showdown:coach.loading") }));
  if (!d.open) d.showModal();
  try {
    const doc = await api(`/api/tables/${encodeURIComponent(tableId)}/rounds/${encodeURIComponent(roundId)}/analysis`, { token });
    body.replaceChildren(el("p", { class: "hint", text: t("showdown:coach.round_seat", { number: doc.number, seat: doc.position }) }), ...coachNodes(doc));
    onAnalysis?.(doc);
  } catch (err) {
    const retry = ["RATE_LIMITED", "ANALYSIS_BUSY", "ANALYSIS_QUEUE_FULL"].includes(err.code)
      ? el("button", { class: "btn small secondary", type: "button", id: "coach-retry", text: t("showdown:coach.retry.button"), onclick: () => openCoach({ tableId, roundId, token, title, onAnalysis }) })
      : null;
    body.replaceChildren(el("p", { class: "field-error", id: "coach-error", role: "alert", text: coachErrorText(err) }), retry);
  }
}

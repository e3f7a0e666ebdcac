// The practice page (/practice/): deal yourself seven cards against a house dealer who sets by the House
// Way you pick, no money at stake (docs/http-api.md, "Practice"). You set the hand with the table's setter
// (tray.js setterPanel: tap or keys 1-7, Enter is Done; House Way or H arranges the cards as the House Way
// sets them, with its clause, and Done sends them); the server then shows the dealer's hand set by the House
// Way with its clause, who won the high and the low, and the coach's analysis of your split (coach.js).
// "Deal again" deals a new hand. Every word from the catalog (`practice:` keys), refusals through errorText.

import { api, el, resumeSession } from "./api.js";
import { ensureCardDefs } from "./card_svg.js";
import { coachErrorText, coachNodes, splitCards } from "./coach.js";
import { errorText } from "./errors.js";
import { clauseWords, handNames, houseWayName } from "./hand_eval.js";
import { t, translateDom } from "./i18n.js";
import { languageMenu } from "./language_menu.js";
import { whyWords } from "./results.js";
import { decider } from "./showdown.js";
import { play } from "./sound.js";
import { setterPanel } from "./tray.js";

const $ = (id) => document.getElementById(id);
const WAY_KEY = "paigow.practice.way";

// Whose hand each result names, as whole keys (coach.js splitCards' labels).
const DEALER_LABELS = { high: "showdown:coach.hand.high.dealer", low: "showdown:coach.hand.low.dealer" };
const YOUR_LABELS = { high: "showdown:coach.hand.high.you", low: "showdown:coach.hand.low.you" };

const ctx = {
  session: null, deal: null, busy: false, answer: null,
  ui: { low: [], flipIn: false, errors: {} }, clauses: {},
};

function rules() {
  return { wheel: "second", foul_policy: "reject", house_way: $("practice-way").value };
}

function render() {
  const hand = $("practice-hand");
  const result = $("practice-result");
  if (!ctx.session) {
    hand.replaceChildren(el("div", { class: "panel" }, el("p", { text: t("practice:needsPlayer") }),
      el("a", { class: "btn", href: "/", id: "practice-lobby", text: t("practice:lobby.button") })));
    result.hidden = true;
    return;
  }
  if (!ctx.deal) {
    hand.replaceChildren(el("div", { class: "panel" }, el("p", { class: ctx.ui.errors.deal ? "field-error" : "hint", role: "status", text: ctx.ui.errors.deal || t("practice:dealing") }),
      ctx.ui.errors.deal ? el("button", { class: "btn", type: "button", id: "deal-again", onclick: newDeal, text: t("practice:dealAgain.button") }) : null));
    result.hidden = true;
    return;
  }
  if (ctx.answer) {
    hand.replaceChildren();
    result.replaceChildren(...resultNodes(ctx.answer));
    result.hidden = false;
    return;
  }
  result.hidden = true;
  const view = { rules: rules(), round: { round_id: ctx.deal.deal_id }, deadline_ms: null, you: { house_way: ctx.deal.house_way_hand ?? null } };
  const panel = setterPanel(view, ctx, { cards: ctx.deal.cards, is_set: false, low: [] });
  if (ctx.busy) {
    for (const b of panel.querySelectorAll("button")) b.disabled = true;
    panel.append(el("p", { class: "hint", id: "practice-working", role: "status", text: t("practice:working") }));
  }
  const focused = document.activeElement?.id;
  hand.replaceChildren(panel);
  if (focused) document.getElementById(focused)?.focus();
  ctx.ui.flipIn = false;
}

/** Each hand's mark, a whole sentence per hand and mark. */
const HAND_WORDS = {
  high: { win: () => t("practice:mark.high.win"), loss: () => t("practice:mark.high.loss"), copy: () => t("practice:mark.high.copy") },
  low: { win: () => t("practice:mark.low.win"), loss: () => t("practice:mark.low.loss"), copy: () => t("practice:mark.low.copy") },
};

function handLine(part, mark, you, dealer) {
  const why = whyWords(mark, handNames(you)[part], handNames(dealer)[part], decider(part, you[part], dealer[part], rules()));
  return el("li", { class: `mark-${mark}`, "data-hand": part }, el("b", { text: HAND_WORDS[part][mark]() }), ` — ${why}`);
}

const OUTCOME = {
  win: () => t("practice:outcome.win"),
  push: () => t("practice:outcome.push"),
  loss: () => t("practice:outcome.loss"),
};

/** The outcome in words; "copies go to the banker" only when a hand was a copy. */
function outcomeText(result) {
  const copy = result.high === "copy" || result.low === "copy";
  return result.outcome === "loss" && copy ? t("practice:outcome.loss.copies") : OUTCOME[result.outcome]();
}

function resultNodes(a) {
  const way = houseWayName({ house_way: a.house_way });
  const dealerSet = a.dealer.house_way_clause ? t("practice:dealer.setBy.clause", { way, clause: clauseWords(a.dealer.house_way_clause) })
    : t("practice:dealer.setBy", { way });
  const mine = a.you.set_by !== "house_way" ? t("practice:you.setIt")
    : a.you.house_way_clause ? t("practice:you.houseWaySetIt.clause", { clause: clauseWords(a.you.house_way_clause) }) : t("practice:you.houseWaySetIt");
  const names = (side) => t("practice:hands.names", handNames(side));
  return [
    el("h2", { id: "result-title", class: `practice-outcome ${a.result.outcome}`, tabindex: "-1", text: outcomeText(a.result) }),
    el("div", { class: "practice-hands" },
      el("section", { class: "panel practice-side", "aria-label": t("practice:dealer.hand.label") },
        el("h3", { text: t("practice:dealer.title") }), splitCards(a.dealer, DEALER_LABELS),
        el("p", { class: "coach-names", text: names(a.dealer) }),
        el("p", { class: "hint", id: "dealer-clause", text: dealerSet })),
      el("section", { class: "panel practice-side", "aria-label": t("practice:you.hand.label") },
        el("h3", { text: t("practice:you.title") }), splitCards(a.you, YOUR_LABELS),
        el("p", { class: "coach-names", text: names(a.you) }),
        el("p", { class: "hint", text: mine }))),
    el("ul", { class: "practice-marks", id: "practice-marks" },
      handLine("high", a.result.high, a.you, a.dealer), handLine("low", a.result.low, a.you, a.dealer)),
    el("section", { class: "panel coach-panel", id: "practice-coach", "aria-labelledby": "coach-heading" },
      el("h2", { id: "coach-heading", text: t("practice:coach.title") }), ...coachNodes(a.analysis)),
    el("div", { class: "practice-again" }, el("button", { class: "btn", type: "button", id: "deal-again", onclick: newDeal, text: t("practice:dealAgain.button") })),
  ];
}

async function newDeal() {
  ctx.deal = null;
  ctx.answer = null;
  ctx.ui = { low: [], flipIn: true, errors: {} };
  render();
  try {
    ctx.deal = await api("/api/practice/deals", { method: "POST", body: { house_way: $("practice-way").value }, token: ctx.session.token });
    play("card");
  } catch (err) {
    ctx.ui.errors.deal = t("practice:deal.failed", { reason: errorText(err) });
  }
  render();
}

async function send(body) {
  if (ctx.busy || !ctx.deal) return;
  ctx.busy = true;
  ctx.ui.errors.set = "";
  render();
  try {
    ctx.answer = await api(`/api/practice/deals/${encodeURIComponent(ctx.deal.deal_id)}/set`, { method: "POST", body, token: ctx.session.token });
  } catch (err) {
    ctx.ui.errors.set = err.code === "FOUL" ? `${errorText(err)} ${t("practice:foul.hint")}` : coachErrorText(err);
  }
  ctx.busy = false;
  render();
  if (ctx.answer) $("result-title")?.focus();
}

Object.assign(ctx, {
  toggleCard(text) {
    if (ctx.busy) return;
    const low = ctx.ui.low;
    ctx.ui.low = low.includes(text) ? low.filter((t) => t !== text) : [...low, text].slice(-2);
    ctx.ui.errors.set = "";
    play("card");
    render();
  },
  act(_key, msg) {
    if (msg.type === "use_house_way") send({ house_way: true });
  },
  /** House Way (or H): the cards arranged as the House Way sets them, with its clause; Done sends them. */
  previewHouseWay() {
    const hw = ctx.deal?.house_way_hand;
    if (ctx.busy || !hw) return;
    ctx.ui.low = [...hw.low];
    ctx.ui.preview = ctx.deal.deal_id;
    ctx.ui.errors.set = "";
    play("card");
    render();
  },
  done() {
    if (ctx.ui.low.length !== 2) {
      ctx.ui.errors.set = t("practice:low.chooseTwo");
      render();
      return;
    }
    // The House Way's arrangement is sent as the House Way (the answer then says its clause).
    const hw = ctx.deal?.house_way_hand;
    const previewed = hw && ctx.ui.preview === ctx.deal.deal_id && hw.low.every((t) => ctx.ui.low.includes(t));
    send(previewed ? { house_way: true } : { low: ctx.ui.low });
  },
});

function onKey(ev) {
  if (!ctx.deal || ctx.answer || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement) return;
  if (/^[1-7]$/.test(ev.key)) {
    const btn = document.querySelector(`.setter [data-key="${ev.key}"]`);
    if (btn) {
      ev.preventDefault();
      ctx.toggleCard(btn.dataset.card);
    }
  } else if (ev.key === "Enter" && (!(t instanceof HTMLButtonElement) || t.closest(".setter-cards"))) {
    ev.preventDefault();
    ctx.done();
  } else if (ev.key === "h" || ev.key === "H") {
    ev.preventDefault();
    ctx.previewHouseWay();
  }
}

/** The lead's keys sentence, its keys as <kbd>: the catalog's sentence with a placeholder for each key. */
function keysHint() {
  const caps = { first: "1", last: "7", enter: t("practice:key.enter"), h: "H" };
  const marked = t("practice:keys.hint", Object.fromEntries(Object.keys(caps).map((k) => [k, `\u0000${k}\u0000`])));
  return marked.split("\u0000").map((part, i) => (i % 2 ? el("kbd", { text: caps[part] ?? part }) : part));
}

async function init() {
  translateDom();
  $("practice-keys").replaceChildren(...keysHint());
  languageMenu($("practice-language"), () => ctx.session?.token ?? null);
  ensureCardDefs();
  const way = $("practice-way");
  way.value = localStorage.getItem(WAY_KEY) ?? "trump_plaza";
  if (!way.value) way.value = "trump_plaza";
  way.addEventListener("change", () => {
    localStorage.setItem(WAY_KEY, way.value);
    if (ctx.session && !ctx.answer) newDeal(); // a hand not yet set is dealt again against the new way
  });
  document.addEventListener("keydown", onKey);
  try {
    ctx.session = await resumeSession();
  } catch (err) {
    ctx.ui.errors.deal = errorText(err);
  }
  window.paigow = { ctx };
  if (ctx.session) newDeal();
  else render();
}

init();

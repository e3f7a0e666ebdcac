// The practice page (/practice/): deal yourself seven cards against a house dealer who sets by the House
// Way you pick, no money at stake (docs/http-api.md, "Practice"). You set the hand with the table's setter
// (tray.js setterPanel: tap or keys 1-7, Enter is Done; House Way or H arranges the cards as the House Way
// sets them, with its clause, and Done sends them); the server then shows the dealer's hand set by the House
// Way with its clause, who won the high and the low, and the coach's analysis of your split (coach.js).
// "Deal again" deals a new hand.

import { api, el, resumeSession, sentence } from "./api.js";
import { ensureCardDefs } from "./card_svg.js";
import { coachErrorText, coachNodes, splitCards } from "./coach.js";
import { houseWayName } from "./hand_eval.js";
import { whyWords } from "./results.js";
import { decider } from "./showdown.js";
import { play } from "./sound.js";
import { setterPanel } from "./tray.js";

const $ = (id) => document.getElementById(id);
const WAY_KEY = "paigow.practice.way";

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
    hand.replaceChildren(el("div", { class: "panel" }, el("p", { text: "Practice needs a player: play as a guest or sign in first." }),
      el("a", { class: "btn", href: "/", id: "practice-lobby", text: "Go to the lobby" })));
    result.hidden = true;
    return;
  }
  if (!ctx.deal) {
    hand.replaceChildren(el("div", { class: "panel" }, el("p", { class: ctx.ui.errors.deal ? "field-error" : "hint", role: "status", text: ctx.ui.errors.deal || "Dealing…" }),
      ctx.ui.errors.deal ? el("button", { class: "btn", type: "button", id: "deal-again", onclick: newDeal, text: "Deal again" }) : null));
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
    panel.append(el("p", { class: "hint", id: "practice-working", role: "status", text: "The dealer sets by the House Way and the coach works it out… (about a second)" }));
  }
  const focused = document.activeElement?.id;
  hand.replaceChildren(panel);
  if (focused) document.getElementById(focused)?.focus();
  ctx.ui.flipIn = false;
}

const HAND_WORDS = { win: "you win", loss: "the dealer wins", copy: "a copy" };

function handLine(part, mark, you, dealer) {
  const why = whyWords(mark, you[`${part}_name`], dealer[`${part}_name`], decider(part, you[part], dealer[part], rules()));
  return el("li", { class: `mark-${mark}`, "data-hand": part }, el("b", { text: `${part === "high" ? "High" : "Low"} hand: ${HAND_WORDS[mark]}` }), ` — ${why}`);
}

const OUTCOME = {
  win: "You win: both your hands beat the dealer's.",
  push: "Push: one hand each, the bet would come back.",
  loss: "You lose: the dealer took both hands.",
};

/** The outcome in words; "copies go to the banker" only when a hand was a copy. */
function outcomeText(result) {
  const copy = result.high === "copy" || result.low === "copy";
  return result.outcome === "loss" && copy ? "You lose: the dealer took both hands (copies go to the banker)." : OUTCOME[result.outcome];
}

function resultNodes(a) {
  const way = houseWayName({ house_way: a.house_way });
  const clause = a.dealer.house_way_clause ? ` (${a.dealer.house_way_clause})` : "";
  const mine = a.you.set_by === "house_way" ? `You let the House Way set it${a.you.house_way_clause ? ` (${a.you.house_way_clause})` : ""}` : "You set it";
  return [
    el("h2", { id: "result-title", class: `practice-outcome ${a.result.outcome}`, tabindex: "-1", text: outcomeText(a.result) }),
    el("div", { class: "practice-hands" },
      el("section", { class: "panel practice-side", "aria-label": "The dealer's hand" },
        el("h3", { text: "The dealer" }), splitCards(a.dealer, "the dealer's"),
        el("p", { class: "coach-names", text: `${a.dealer.high_name} · ${a.dealer.low_name}` }),
        el("p", { class: "hint", id: "dealer-clause", text: `Set by the ${way} House Way${clause}` })),
      el("section", { class: "panel practice-side", "aria-label": "Your hand" },
        el("h3", { text: "You" }), splitCards(a.you, "your"),
        el("p", { class: "coach-names", text: `${a.you.high_name} · ${a.you.low_name}` }),
        el("p", { class: "hint", text: mine }))),
    el("ul", { class: "practice-marks", id: "practice-marks" },
      handLine("high", a.result.high, a.you, a.dealer), handLine("low", a.result.low, a.you, a.dealer)),
    el("section", { class: "panel coach-panel", id: "practice-coach", "aria-labelledby": "coach-heading" },
      el("h2", { id: "coach-heading", text: "The coach" }), ...coachNodes(a.analysis)),
    el("div", { class: "practice-again" }, el("button", { class: "btn", type: "button", id: "deal-again", onclick: newDeal, text: "Deal again" })),
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
    ctx.ui.errors.deal = `No deal: ${sentence(err.message)}`;
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
    ctx.ui.errors.set = err.code === "FOUL" ? `${sentence(err.message)} Move other cards to the low hand.` : coachErrorText(err);
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
      ctx.ui.errors.set = "Choose two cards for the low hand first.";
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

async function init() {
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
    ctx.ui.errors.deal = sentence(err.message);
  }
  window.paigow = { ctx };
  if (ctx.session) newDeal();
  else render();
}

init();

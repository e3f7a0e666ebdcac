// The verify page: recompute a round's deal from its revealed seed and compare with what was published.

import { el } from "./api.js";
import { parseCard } from "./cards.js";
import { cardElement, ensureCardDefs } from "./card_svg.js";
import { dieElement } from "./dice.js";
import { verifyRound } from "./fair.js";

const form = document.getElementById("verify-form");
const out = document.getElementById("verify-result");
const errorLine = document.getElementById("verify-error");
const params = new URLSearchParams(location.search);
let publishedHands = {};

function fill() {
  for (const [name, id] of [["seed", "v-seed"], ["round", "v-round"], ["banker", "v-banker"], ["commitment", "v-commitment"], ["dice", "v-dice"]]) {
    if (params.get(name)) document.getElementById(id).value = params.get(name);
  }
  for (const part of (params.get("hands") ?? "").split(";").filter(Boolean)) {
    const [pos, cards] = part.split(":");
    publishedHands[pos] = cards.split(".").map(parseCard);
  }
}

async function run() {
  errorLine.textContent = "";
  const seed = form.seed.value.trim();
  const round = form.round.value.trim();
  const banker = Number(form.banker.value);
  if (!seed || !round) {
    errorLine.textContent = "Enter the revealed seed and the round id (both are in the round's history).";
    return;
  }
  if (!Number.isInteger(banker) || banker < 0 || banker > 6) {
    errorLine.textContent = `The banker's position must be 0 to 6, not '${form.banker.value}'.`;
    return;
  }
  const published = { hands: publishedHands };
  if (form.commitment.value.trim()) published.commitment = form.commitment.value;
  if (form.dice.value.trim()) published.dice = form.dice.value.split(/[\s,-]+/).map(Number);
  if (params.get("first")) published.first = Number(params.get("first"));
  let v;
  try {
    v = await verifyRound(seed, round, banker, published);
  } catch (err) {
    errorLine.textContent = err.message;
    return;
  }
  ensureCardDefs();
  const checked = [published.commitment ? "the commitment" : null, published.dice ? "the dice" : null,
    published.first != null ? "the first position" : null, Object.keys(publishedHands).length ? `${Object.keys(publishedHands).length} hands` : null].filter(Boolean);
  out.hidden = false;
  out.replaceChildren(
    el("p", { class: `verdict ${v.ok ? "ok" : "bad"}`, id: "verdict", text: v.ok ? `✓ Verified${checked.length ? `: ${checked.join(", ")} match the seed` : ""}` : "✗ This round does not match its seed" }),
    ...v.problems.map((p) => el("p", { class: "field-error", text: p })),
    el("p", { class: "fair" }, "SHA-256 of the seed: ", el("code", { text: v.commitment })),
    el("div", { class: "dice" }, v.deal.dice.map((d) => dieElement(d)), el("span", { class: "dice-total", text: ` = ${v.deal.dice.reduce((a, b) => a + b)} → first hand to position ${v.deal.first}` })),
    el("div", { class: "deal-grid" },
      v.deal.hands.map((h, p) => el("div", {}, el("h3", { text: p === 0 ? "Position 0 (dealer)" : `Position ${p}` }), el("div", { class: "hand" }, h.map((c) => cardElement(c))))),
      el("div", {}, el("h3", { text: "Discards" }), el("div", { class: "hand" }, v.deal.discards.map((c) => cardElement(c))))));
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  run();
});
fill();
if (params.get("seed")) run();

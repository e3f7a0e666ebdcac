// The verify page: recompute a round's deal from its revealed seed and compare with what was published. Every
// word from the catalog (`practice:verify.*`); the language menu in the header.

import { el, savedSession } from "./api.js";
import { parseCard } from "./cards.js";
import { cardElement, ensureCardDefs } from "./card_svg.js";
import { dieElement } from "./dice.js";
import { verifyRound } from "./fair.js";
import { listAnd, number, t, translateDom } from "./i18n.js";
import { languageMenu } from "./language_menu.js";

translateDom();
languageMenu(document.getElementById("verify-language"), () => savedSession()?.token ?? null);

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

/** What was published and checked, as noun phrases for the verdict's list. */
function checkedList(published) {
  const hands = Object.keys(publishedHands).length;
  return [published.commitment ? t("practice:verify.checked.commitment") : null, published.dice ? t("practice:verify.checked.dice") : null,
    published.first != null ? t("practice:verify.checked.first") : null,
    hands ? t("practice:verify.checked.hands", { count: hands }) : null].filter(Boolean);
}

function verdictText(v, checked) {
  if (!v.ok) return t("practice:verify.verdict.bad");
  return checked.length ? t("practice:verify.verdict.ok.checked", { count: checked.length, checked: listAnd(checked) }) : t("practice:verify.verdict.ok");
}

async function run() {
  errorLine.textContent = "";
  const seed = form.seed.value.trim();
  const round = form.round.value.trim();
  const banker = Number(form.banker.value);
  if (!seed || !round) {
    errorLine.textContent = t("practice:verify.missing");
    return;
  }
  if (!Number.isInteger(banker) || banker < 0 || banker > 6) {
    errorLine.textContent = t("practice:verify.banker.invalid", { value: form.banker.value });
    return;
  }
  if (!/^([0-9a-f]{2})*$/i.test(seed)) {
    errorLine.textContent = t("practice:verify.seed.notHex");
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
    errorLine.textContent = err.code === "SEED_SHORT" ? t("practice:verify.seed.short", { seed }) : t("practice:verify.failed");
    return;
  }
  ensureCardDefs();
  out.hidden = false;
  out.replaceChildren(
    el("p", { class: `verdict ${v.ok ? "ok" : "bad"}`, id: "verdict", text: verdictText(v, checkedList(published)) }),
    ...v.problems.map((p) => el("p", { class: "field-error", text: p })),
    el("p", { class: "fair" }, `${t("practice:verify.commitment.result")} `, el("code", { text: v.commitment })),
    el("div", { class: "dice" }, v.deal.dice.map((d) => dieElement(d)), el("span", { class: "dice-total",
      text: ` ${t("practice:verify.dice.total", { total: number(v.deal.dice.reduce((a, b) => a + b)), position: v.deal.first })}` })),
    el("div", { class: "deal-grid" },
      v.deal.hands.map((h, p) => el("div", {}, el("h3", { text: p === 0 ? t("practice:verify.position.dealer") : t("practice:verify.position", { position: p }) }),
        el("div", { class: "hand" }, h.map((c) => cardElement(c))))),
      el("div", {}, el("h3", { text: t("practice:verify.discards") }), el("div", { class: "hand" }, v.deal.discards.map((c) => cardElement(c))))));
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  run();
});
fill();
if (params.get("seed")) run();
document.documentElement.dataset.ready = "1";  // its words are in and its form answers (the browser tests wait for it)

// The lobby: a display name once (remembered), every table live, join a seat or watch.

import { ApiError, api, el, money, rememberedName, resumeSession, startSession } from "./api.js";
import { parseCards } from "./cards.js";
import { cardElement, ensureCardDefs } from "./card_svg.js";

const list = document.getElementById("table-list");
const tablesError = document.getElementById("tables-error");
const form = document.getElementById("name-form");
const input = document.getElementById("display-name");
const nameError = document.getElementById("name-error");
const signedIn = document.getElementById("signed-in");
const who = document.getElementById("who");
let session = null;

function heroCards() {
  ensureCardDefs();
  const holder = document.getElementById("hero-cards");
  parseCards("As Ks JK Qh Jd").forEach((c, i) => {
    const card = cardElement(c);
    card.style.left = `${i * 30}px`;
    card.style.transform = `rotate(${(i - 2) * 9}deg)`;
    holder.append(card);
  });
}

function showSession() {
  if (!session) {
    form.hidden = false;
    signedIn.hidden = true;
    who.textContent = "";
    return;
  }
  form.hidden = true;
  signedIn.hidden = false;
  signedIn.replaceChildren(
    "Playing as ", el("strong", { text: session.display_name }), " · balance ",
    el("span", { class: "balance", text: session.balance_cents == null ? "—" : money(session.balance_cents) }), " · ",
    el("button", { class: "btn small secondary", type: "button", onclick: () => { session = null; showSession(); input.focus(); }, text: "Change name" }),
  );
  who.textContent = session.display_name;
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = input.value.trim();
  nameError.textContent = "";
  input.removeAttribute("aria-invalid");
  if (!name) {
    nameError.textContent = "Enter the name other players will see.";
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return;
  }
  try {
    session = await startSession(name);
    showSession();
  } catch (err) {
    nameError.textContent = err instanceof ApiError ? err.message : String(err);
    input.setAttribute("aria-invalid", "true");
  }
});

function tableCard(t) {
  const seatsTaken = t.seats_taken ?? 0;
  const dots = el("span", { class: "seat-dots", "aria-label": `${seatsTaken} of 6 seats taken` },
    Array.from({ length: 6 }, (_, i) => el("i", { class: i < seatsTaken ? "taken" : "" })));
  const limits = `${money(t.min_bet_cents ?? t.limits?.min_bet_cents ?? 0)} – ${money(t.max_bet_cents ?? t.limits?.max_bet_cents ?? 0)}`;
  const id = t.table_id ?? t.id;
  const href = `/table/?id=${encodeURIComponent(id)}`;
  const join = el("a", { class: "btn", href, "aria-label": `Join ${t.name}` }, "Join");
  join.addEventListener("click", (ev) => {
    if (!session) {
      ev.preventDefault();
      nameError.textContent = "Enter your display name first, then join.";
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  });
  return el("article", { class: "table-card", "data-table": id },
    el("h3", { text: t.name }),
    el("dl", {},
      el("dt", { text: "Limits" }), el("dd", { text: limits }),
      el("dt", { text: "Seats" }), el("dd", {}, dots),
      el("dt", { text: "Phase" }), el("dd", { text: phaseWords(t) }),
      el("dt", { text: "Watching" }), el("dd", { text: String(t.spectators ?? t.spectator_count ?? 0) })),
    el("div", { class: "actions" }, join,
      el("a", { class: "btn secondary", href: `${href}&watch=1`, "aria-label": `Watch ${t.name}` }, "Watch")));
}

function phaseWords(t) {
  if (t.closed || t.phase === "closed") return "closed";
  if (t.closing) return "closing";
  if (t.paused) return "paused";
  const words = { idle: t.seats_taken ? "between rounds" : "waiting for players", bank_offer: "bank offered",
    betting: "taking bets", setting: "setting hands" };
  return words[t.phase] ?? String(t.phase ?? "waiting").replaceAll("_", " ");
}

async function refresh() {
  try {
    const data = await api("/api/tables");
    const tables = Array.isArray(data) ? data : data.tables ?? [];
    tablesError.textContent = "";
    list.replaceChildren(...(tables.length ? tables.map(tableCard)
      : [el("p", { class: "empty", text: "No table is open right now. The operator opens tables from the console." })]));
    list.setAttribute("aria-busy", "false");
  } catch (err) {
    tablesError.textContent = err.message;
  }
}

async function init() {
  heroCards();
  input.value = rememberedName();
  try {
    session = await resumeSession();
  } catch (err) {
    nameError.textContent = err.message;
  }
  showSession();
  await refresh();
  setInterval(refresh, 3000);
}

init();

// The lobby's open tables, live: each table's game (variant_tags.js), limits, seats, phase and watchers, with
// Sit and Watch. The list is redrawn only when the tables change (a polite live region is not read out
// again every 3 s, and a focused Sit or Watch keeps its focus).

import { api, el, money } from "./api.js";
import { variantTagList } from "./variant_tags.js";

const list = document.getElementById("table-list");
const tablesError = document.getElementById("tables-error");
/** What the list shows now (the tables' JSON). */
let shown = null;

function phaseWords(t) {
  if (t.closed || t.phase === "closed") return "closed";
  if (t.closing) return "closing";
  if (t.paused) return "paused";
  const words = { idle: t.seats_taken ? "between rounds" : "waiting for players", bank_offer: "bank offered",
    betting: "taking bets", setting: "setting hands" };
  return words[t.phase] ?? String(t.phase ?? "waiting").replaceAll("_", " ");
}

/** One table's card; ``canSit()`` says whether the player may go and sit (else it shows why, and says false). */
function tableCard(t, canSit) {
  const seatsTaken = t.seats_taken ?? 0;
  const dots = el("span", { class: "seat-dots", role: "img", "aria-label": `${seatsTaken} of 6 seats taken` },
    Array.from({ length: 6 }, (_, i) => el("i", { class: i < seatsTaken ? "taken" : "" })));
  const limits = `${money(t.min_bet_cents ?? t.limits?.min_bet_cents ?? 0)} – ${money(t.max_bet_cents ?? t.limits?.max_bet_cents ?? 0)}`;
  const id = t.table_id ?? t.id;
  const href = `/table/?id=${encodeURIComponent(id)}`;
  const sit = el("a", { class: "btn", href, "aria-label": `Sit at ${t.name}` }, "Sit");
  sit.addEventListener("click", (ev) => {
    if (!canSit()) ev.preventDefault();
  });
  return el("article", { class: "table-card", "data-table": id },
    el("h3", { text: t.name }),
    variantTagList(t),
    el("dl", {},
      el("dt", { text: "Limits" }), el("dd", { text: limits }),
      el("dt", { text: "Seats" }), el("dd", {}, dots),
      el("dt", { text: "Phase" }), el("dd", { text: phaseWords(t) }),
      el("dt", { text: "Watching" }), el("dd", { text: String(t.spectators ?? t.spectator_count ?? 0) })),
    el("div", { class: "actions" }, sit,
      el("a", { class: "btn secondary", href: `${href}&watch=1`, "aria-label": `Watch ${t.name}` }, "Watch")));
}

async function refresh(canSit) {
  try {
    const data = await api("/api/tables");
    const tables = Array.isArray(data) ? data : data.tables ?? [];
    tablesError.textContent = "";
    const key = JSON.stringify(tables);
    if (key !== shown) {
      const focused = list.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
      list.replaceChildren(...(tables.length ? tables.map((t) => tableCard(t, canSit))
        : [el("p", { class: "empty", text: "No table is open right now. The operator opens tables from the console." })]));
      shown = key;
      if (focused) [...list.querySelectorAll("[aria-label]")].find((e) => e.getAttribute("aria-label") === focused)?.focus();
    }
    list.setAttribute("aria-busy", "false");
  } catch (err) {
    tablesError.textContent = err.message;
  }
}

/** The list now, then every 3 s. */
export async function watchTables(canSit) {
  await refresh(canSit);
  setInterval(() => refresh(canSit), 3000);
}

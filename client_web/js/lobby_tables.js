// The lobby's open tables, live: each table's game (variant_tags.js), limits, seats, phase and watchers, with
// Sit and Watch. The list is redrawn only when the tables change (a polite live region is not read out
// again every 3 s, and a focused Sit or Watch keeps its focus).

import { api, el } from "./api.js";
import { errorText } from "./errors.js";
import { markName, money, number, t } from "./i18n.js";
import { onBlock } from "./play_safely.js";
import { variantTagList } from "./variant_tags.js";

const list = document.getElementById("table-list");
const tablesError = document.getElementById("tables-error");
/** What the list shows now (the tables' JSON). */
let shown = null;

function phaseWords(table) {
  if (table.closed || table.phase === "closed") return t("lobby:phase.closed");
  if (table.closing) return t("lobby:phase.closing");
  if (table.paused) return t("lobby:phase.paused");
  const words = { idle: table.seats_taken ? "lobby:phase.between_rounds" : "lobby:phase.waiting", bank_offer: "lobby:phase.bank_offer",
    betting: "lobby:phase.betting", dragon_offer: "lobby:phase.dragon_offer", setting: "lobby:phase.setting" };
  // A phase a newer server names that this page does not know: its name as the server writes it.
  return words[table.phase ?? "idle"] ? t(words[table.phase ?? "idle"]) : String(table.phase).replaceAll("_", " ");
}

/** One table's card; ``canSit()`` says whether the player may go and sit (else it shows why, and says false);
 * ``refusal``, when the player may not sit now (a break), disables Sit with it said beside (Watch stays). */
function tableCard(table, canSit, refusal) {
  const seatsTaken = table.seats_taken ?? 0;
  const dots = el("span", { class: "seat-dots", role: "img", "aria-label": t("lobby:table.seats_taken", { taken: number(seatsTaken), seats: number(6) }) },
    Array.from({ length: 6 }, (_, i) => el("i", { class: i < seatsTaken ? "taken" : "" })));
  const limits = t("lobby:table.limits", { min: money(table.min_bet_cents ?? table.limits?.min_bet_cents ?? 0),
    max: money(table.max_bet_cents ?? table.limits?.max_bet_cents ?? 0) });
  const id = table.table_id ?? table.id;
  const href = `/table/?id=${encodeURIComponent(id)}`;
  const why = refusal ? el("p", { class: "hint sit-refusal", id: `sit-why-${id}`, text: refusal }) : null;
  const sit = refusal
    ? el("button", { class: "btn", type: "button", disabled: true, "aria-describedby": `sit-why-${id}`,
      "aria-label": t("lobby:table.sit.label", { name: table.name }) }, t("lobby:table.sit.button"))
    : el("a", { class: "btn", href, "aria-label": t("lobby:table.sit.label", { name: table.name }) }, t("lobby:table.sit.button"));
  sit.addEventListener("click", (ev) => {
    if (!canSit()) ev.preventDefault();
  });
  return el("article", { class: "table-card", "data-table": id },
    markName(el("h3", { text: table.name })),
    variantTagList(table),
    el("dl", {},
      el("dt", { text: t("lobby:table.limits.term") }), el("dd", { text: limits }),
      el("dt", { text: t("lobby:table.seats.term") }), el("dd", {}, dots),
      el("dt", { text: t("lobby:table.phase.term") }), el("dd", { text: phaseWords(table) }),
      el("dt", { text: t("lobby:table.watching.term") }), el("dd", { text: number(table.spectators ?? table.spectator_count ?? 0) })),
    el("div", { class: "actions" }, sit,
      el("a", { class: "btn secondary", href: `${href}&watch=1`, "aria-label": t("lobby:table.watch.label", { name: table.name }) }, t("lobby:table.watch.button")),
      ...(why ? [why] : [])));
}

async function refresh(canSit, refusalNow) {
  try {
    const data = await api("/api/tables");
    const tables = Array.isArray(data) ? data : data.tables ?? [];
    tablesError.textContent = "";
    const refusal = refusalNow();
    const key = JSON.stringify([tables, refusal]);
    if (key !== shown) {
      const focused = list.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
      list.replaceChildren(...(tables.length ? tables.map((table) => tableCard(table, canSit, refusal))
        : [el("p", { class: "empty", text: t("lobby:tables.none") })]));
      shown = key;
      if (focused) [...list.querySelectorAll("[aria-label]")].find((e) => e.getAttribute("aria-label") === focused)?.focus();
    }
    list.setAttribute("aria-busy", "false");
  } catch (err) {
    tablesError.textContent = errorText(err);
  }
}

/** The list now, then every 3 s, and again when a break starts; `refusalNow()` says why Sit is disabled. */
export async function watchTables(canSit, refusalNow = () => null) {
  await refresh(canSit, refusalNow);
  onBlock(() => refresh(canSit, refusalNow));
  setInterval(() => refresh(canSit, refusalNow), 3000);
}

// Balances: pick a player by searching their display name, username or id (GET /api/operator/players),
// then credit or debit them with a reason, or unlock their sign-in. A combobox: type, then the arrow keys
// and Enter (or a click) pick one of the players found.

import { el, money, parseMoney } from "./api.js";
import { $, call, showError } from "./operator_api.js";

let picked = null;
let found = [];
let active = -1;
let searchTimer = null;
let asked = 0;
/** Called after money moved (set by operator.js: refresh the logs). */
let changed = async () => {};
export function onChange(fn) {
  changed = fn;
}

function label(p) {
  return `${p.display_name}${p.username ? ` (@${p.username})` : " (guest)"}`;
}

function showList(open) {
  $("player-results").hidden = !open;
  $("player-search").setAttribute("aria-expanded", open ? "true" : "false");
  if (!open) $("player-search").removeAttribute("aria-activedescendant");
}

function highlight(index) {
  active = index;
  [...$("player-results").children].forEach((li, i) => li.setAttribute("aria-selected", i === index ? "true" : "false"));
  const option = $("player-results").children[index];
  if (option?.id) {
    $("player-search").setAttribute("aria-activedescendant", option.id);
    option.scrollIntoView({ block: "nearest" });
  }
}

function renderFound(total) {
  const items = found.map((p, i) => el("li", { role: "option", id: `player-option-${i}`, "data-player": p.player_id, "aria-selected": "false",
    onmousedown: (ev) => ev.preventDefault(), onclick: () => pick(p) },
    el("span", { class: "who-name", text: label(p) }), " ",
    el("small", { class: "hint id", text: p.player_id }), " ",
    el("span", { class: "hint", text: money(p.balance_cents) })));
  if (!found.length) items.push(el("li", { class: "hint", role: "presentation", text: "No player matches." }));
  else if (total > found.length) items.push(el("li", { class: "hint", role: "presentation", text: `${total - found.length} more: type more of the name.` }));
  $("player-results").replaceChildren(...items);
  active = -1;
  showList(true);
}

async function search() {
  const q = $("player-search").value.trim();
  const mine = ++asked;
  try {
    const res = await call(`/players?limit=8&q=${encodeURIComponent(q)}`);
    if (mine !== asked) return; // a later search is on its way
    found = res.players;
    renderFound(res.total);
    showError("player-search-error", null);
  } catch (err) {
    showError("player-search-error", err);
  }
}

function pick(p) {
  picked = p;
  $("player-search").value = p.display_name;
  showList(false);
  $("player-picked").replaceChildren("Picked: ", el("strong", { text: label(p) }), " ",
    el("small", { class: "hint id", text: p.player_id }), ` · balance ${money(p.balance_cents)}`);
  $("player-picked").dataset.player = p.player_id;
  showError("money-error", null);
}

function needPlayer() {
  if (picked) return picked;
  showError("money-error", { message: "Pick a player first: search by display name, username or id, then choose one." });
  $("player-search").focus();
  return null;
}

$("player-search").addEventListener("input", () => {
  if (picked && $("player-search").value !== picked.display_name) {
    picked = null;
    $("player-picked").textContent = "No player picked yet.";
    delete $("player-picked").dataset.player;
  }
  clearTimeout(searchTimer);
  searchTimer = setTimeout(search, 200);
});
$("player-search").addEventListener("focus", () => {
  if (!picked && !$("player-search").value) search();
});
$("player-search").addEventListener("blur", () => showList(false));
$("player-search").addEventListener("keydown", (ev) => {
  const open = !$("player-results").hidden;
  if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
    ev.preventDefault();
    if (!open) return search();
    if (!found.length) return null;
    const step = ev.key === "ArrowDown" ? 1 : -1;
    highlight((active + step + found.length) % found.length);
  } else if (ev.key === "Enter" && open && active >= 0) {
    ev.preventDefault();
    pick(found[active]);
  } else if (ev.key === "Escape" && open) {
    ev.preventDefault();
    showList(false);
  }
  return null;
});

$("money-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("money-error", null);
  $("money-result").textContent = "";
  const direction = ev.submitter?.dataset.direction ?? "credit";
  const player = needPlayer();
  if (!player) return;
  const amount = parseMoney($("m-amount").value);
  if (amount === null) {
    showError("money-error", { message: "Enter the amount in dollars, e.g. 50." });
    return;
  }
  try {
    const res = await call(`/players/${encodeURIComponent(player.player_id)}/${direction}`, { method: "POST", body: { amount_cents: amount, reason: $("m-reason").value } });
    pick({ ...player, balance_cents: res.balance_cents });
    $("money-result").textContent = `${direction === "credit" ? "Credited" : "Debited"} ${money(amount)} ${direction === "credit" ? "to" : "from"} ${player.display_name}: the balance is now ${money(res.balance_cents)}.`;
    await changed();
  } catch (err) {
    showError("money-error", err);
  }
});
$("unlock").addEventListener("click", async () => {
  showError("money-error", null);
  $("money-result").textContent = "";
  const player = needPlayer();
  if (!player) return;
  try {
    const res = await call(`/players/${encodeURIComponent(player.player_id)}/unlock`, { method: "POST", body: {} });
    $("money-result").textContent = res.was_locked ? `${player.display_name} can sign in again.` : `${player.display_name}'s sign-in was not locked: nothing to unlock.`;
    await changed();
  } catch (err) {
    showError("money-error", err);
  }
});

// Balances: pick a player by searching their display name, username or id (GET /api/operator/players),
// then credit or debit them with a reason, or unlock their sign-in. A combobox: type, then the arrow keys
// and Enter (or a click) pick one of the players found.

import { el, money, parseMoney } from "./api.js";
import { markName, number, t } from "./i18n.js";
import { $, call, sentenceWith, showError } from "./operator_api.js";
import { showPlayerSafety } from "./operator_play_safely.js";

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

/** "Ann (@ann.lee)", "Bo (guest)": a player's name and account, marked as their own text. */
function label(p, tag = "span", attrs = {}) {
  const name = p.username ? t("console:players.label.account", { name: p.display_name, username: p.username })
    : t("console:players.label.guest", { name: p.display_name });
  return markName(el(tag, { ...attrs, text: name }));
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
    label(p, "span", { class: "who-name" }), " ",
    el("small", { class: "hint id", text: p.player_id }), " ",
    el("span", { class: "hint", text: money(p.balance_cents) })));
  if (!found.length) items.push(el("li", { class: "hint", role: "presentation", text: t("console:players.none") }));
  else if (total > found.length) {
    const more = total - found.length;
    items.push(el("li", { class: "hint", role: "presentation", text: t("console:players.more", { count: more, n: number(more) }) }));
  }
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
  clearTimeout(searchTimer); // a search still to come, or on its way, opens no list over the pick
  asked += 1;
  $("player-search").value = p.display_name;
  showList(false);
  $("player-picked").replaceChildren(...sentenceWith("console:players.picked", { balance: money(p.balance_cents) },
    { player: label(p, "strong"), id: el("small", { class: "hint id", text: p.player_id }) }));
  $("player-picked").dataset.player = p.player_id;
  showPlayerSafety(p);
  showError("money-error", null);
}

function needPlayer() {
  if (picked) return picked;
  showError("money-error", { message: t("console:players.pick_first") });
  $("player-search").focus();
  return null;
}

$("player-search").addEventListener("input", () => {
  if (picked && $("player-search").value !== picked.display_name) {
    picked = null;
    $("player-picked").textContent = t("console:players.picked.none");
    delete $("player-picked").dataset.player;
    showPlayerSafety(null);
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
    showError("money-error", { message: t("console:money.amount.invalid") });
    return;
  }
  try {
    const res = await call(`/players/${encodeURIComponent(player.player_id)}/${direction}`, { method: "POST", body: { amount_cents: amount, reason: $("m-reason").value } });
    pick({ ...player, balance_cents: res.balance_cents });
    $("money-result").textContent = t(direction === "credit" ? "console:money.credited" : "console:money.debited",
      { amount: money(amount), name: player.display_name, balance: money(res.balance_cents) });
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
    $("money-result").textContent = t(res.was_locked ? "console:money.unlocked" : "console:money.unlock.not_locked", { name: player.display_name });
    await changed();
  } catch (err) {
    showError("money-error", err);
  }
});

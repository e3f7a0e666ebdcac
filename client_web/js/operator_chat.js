// The operator console's chat moderation for the selected table: who may chat (everyone, players only,
// off), the kept messages with a Delete button each, and Mute / Unmute for each sender (players and
// spectators; operators are never muted). Each action goes through /api/operator/tables/{id}/chat... and
// is written to the audit log by the server. Messages are shown with textContent only.

import { el } from "./api.js";

const SETTINGS = [["everyone", "Everyone"], ["players_only", "Seated players only"], ["off", "Off"]];

/**
 * Render (or refresh) the chat section of table ``tableId`` into #chat-admin.
 * @param {string} tableId
 * @param {(path: string, opts?: object) => Promise<any>} call  the console's operator API call
 */
export async function refreshChat(tableId, call) {
  const root = document.getElementById("chat-admin");
  if (!root) return;
  if (root.dataset.table !== tableId) build(root, tableId, call);
  const base = `/tables/${encodeURIComponent(tableId)}/chat`;
  let data;
  try {
    data = await call(base);
  } catch (err) {
    showError(root, err);
    return;
  }
  const select = root.querySelector("#chat-setting-select");
  if (!root.dataset.dirty) select.value = data.setting;
  root.querySelector("#chat-admin-now").textContent = `Now: ${SETTINGS.find(([v]) => v === data.setting)?.[1] ?? data.setting}`;
  const muted = new Set(data.muted);
  const act = async (path, opts) => {
    showError(root, null);
    try {
      await call(`${base}${path}`, opts);
      await refreshChat(tableId, call);
    } catch (err) {
      showError(root, err);
    }
  };
  const muteButton = (playerId, name) => (muted.has(playerId)
    ? el("button", { class: "btn small secondary", type: "button", "data-action": "unmute", "aria-label": `Unmute ${name}`,
      text: "Unmute", onclick: () => act("/unmute", { method: "POST", body: { player_id: playerId } }) })
    : el("button", { class: "btn small secondary", type: "button", "data-action": "mute", "aria-label": `Mute ${name}`,
      text: "Mute", onclick: () => act("/mute", { method: "POST", body: { player_id: playerId } }) }));
  const rows = [...data.messages].reverse().map((m) => el("tr", { "data-message": String(m.id) },
    el("td", { text: new Date(m.ts_ms).toLocaleTimeString() }),
    el("td", {}, el("span", { text: m.name }), el("br"), el("small", { class: "hint", text: m.role })),
    el("td", { class: "chat-admin-text", text: m.text }),
    el("td", {}, el("span", { class: "actions" },
      el("button", { class: "btn small danger", type: "button", "data-action": "delete-message", "aria-label": `Delete ${m.name}'s message`,
        text: "Delete", onclick: () => act(`/messages/${m.id}`, { method: "DELETE" }) }),
      m.player_id ? muteButton(m.player_id, m.name) : null))));
  root.querySelector("tbody").replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: "4", class: "hint", text: "No chat messages kept at this table." }))]));
  const list = root.querySelector("#chat-muted");
  list.replaceChildren(...(data.muted.length
    ? [el("span", { class: "hint", text: "Muted: " }), ...data.muted.map((id) => el("span", { class: "actions" },
      el("code", { text: id }), muteButton(id, id)))]
    : [el("span", { class: "hint", text: "Nobody is muted at this table." })]));
}

function build(root, tableId, call) {
  root.dataset.table = tableId;
  delete root.dataset.dirty;
  const select = el("select", { id: "chat-setting-select", onchange: () => { root.dataset.dirty = "1"; } },
    SETTINGS.map(([value, words]) => el("option", { value, text: words })));
  const form = el("form", { class: "row", novalidate: true, "aria-label": "Who may chat", onsubmit: async (ev) => {
    ev.preventDefault();
    showError(root, null);
    try {
      await call(`/tables/${encodeURIComponent(tableId)}/chat`, { method: "PUT", body: { setting: select.value } });
      delete root.dataset.dirty;
      await refreshChat(tableId, call);
    } catch (err) {
      showError(root, err);
    }
  } },
  el("div", {}, el("label", { for: "chat-setting-select", text: "Who may chat" }), select),
  el("button", { class: "btn small", type: "submit", id: "chat-setting-save", text: "Set chat" }),
  el("span", { class: "hint", id: "chat-admin-now" }));
  root.replaceChildren(form, el("p", { class: "field-error", id: "chat-admin-error", role: "alert" }),
    el("p", { id: "chat-muted", class: "actions" }),
    el("div", { class: "scroll" }, el("table", { class: "data", id: "chat-messages" },
      el("thead", {}, el("tr", {}, el("th", { text: "When" }), el("th", { text: "Who" }), el("th", { text: "Message" }), el("th", { text: "" }))),
      el("tbody"))));
}

function showError(root, err) {
  const p = root.querySelector("#chat-admin-error");
  if (p) p.textContent = err ? `${err.message}${err.code && !/^\d+$/.test(err.code) ? ` (${err.code})` : ""}` : "";
}

// The operator console's chat moderation for the selected table: who may chat (everyone, players only,
// off), the kept messages with a Delete button each, and Mute / Unmute for each sender (players and
// spectators; operators are never muted). Each action goes through /api/operator/tables/{id}/chat... and
// is written to the audit log by the server. Messages are shown with textContent only, each marked as its
// sender's own text (its language is not the page's).

import { el } from "./api.js";
import { markName, t, time } from "./i18n.js";
import { cell, errorText, userText } from "./operator_api.js";

const SETTINGS = ["everyone", "players_only", "off"];
/** A setting's words (an unknown one, from a newer server, as its code). */
const settingWords = (value) => (SETTINGS.includes(value) ? t(`console:chat.setting.${value}`) : value);
/** A sender's role (player, spectator, …) in words; an unknown one as it is. */
const roleWords = (role) => t(`console:chat.role.${role}`, { defaultValue: role });

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
  root.querySelector("#chat-admin-now").textContent = t("console:chat.now", { setting: settingWords(data.setting) });
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
    ? el("button", { class: "btn small secondary", type: "button", "data-action": "unmute", "aria-label": t("console:chat.unmute.label", { name }),
      text: t("console:chat.unmute.button"), onclick: () => act("/unmute", { method: "POST", body: { player_id: playerId } }) })
    : el("button", { class: "btn small secondary", type: "button", "data-action": "mute", "aria-label": t("console:chat.mute.label", { name }),
      text: t("console:chat.mute.button"), onclick: () => act("/mute", { method: "POST", body: { player_id: playerId } }) }));
  const rows = [...data.messages].reverse().map((m) => el("tr", { "data-message": String(m.id) },
    cell(t("console:chat.col.when"), { text: time(m.ts_ms, { seconds: true }) }),
    cell(t("console:chat.col.who"), {}, el("span", {}, markName(el("span", { text: m.name })), el("br"),
      el("small", { class: "hint", text: roleWords(m.role) }))),
    cell(t("console:chat.col.message"), { class: "chat-admin-text" }, userText(m.text)),
    cell("", {}, el("span", { class: "actions" },
      el("button", { class: "btn small danger", type: "button", "data-action": "delete-message", "aria-label": t("console:chat.delete.label", { name: m.name }),
        text: t("console:chat.delete.button"), onclick: () => act(`/messages/${m.id}`, { method: "DELETE" }) }),
      m.player_id ? muteButton(m.player_id, m.name) : null))));
  root.querySelector("tbody").replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: "4", class: "hint", text: t("console:chat.empty") }))]));
  const list = root.querySelector("#chat-muted");
  list.replaceChildren(...(data.muted.length
    ? [el("span", { class: "hint", text: t("console:chat.muted") }), " ", ...data.muted.map((id) => el("span", { class: "actions" },
      el("code", { text: id }), muteButton(id, id)))]
    : [el("span", { class: "hint", text: t("console:chat.muted.none") })]));
}

function build(root, tableId, call) {
  root.dataset.table = tableId;
  delete root.dataset.dirty;
  const select = el("select", { id: "chat-setting-select", onchange: () => { root.dataset.dirty = "1"; } },
    SETTINGS.map((value) => el("option", { value, text: settingWords(value) })));
  const form = el("form", { class: "row", novalidate: true, "aria-label": t("console:chat.setting.label"), onsubmit: async (ev) => {
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
  el("div", {}, el("label", { for: "chat-setting-select", text: t("console:chat.setting.label") }), select),
  el("button", { class: "btn small", type: "submit", id: "chat-setting-save", text: t("console:chat.setting.button") }),
  el("span", { class: "hint", id: "chat-admin-now" }));
  root.replaceChildren(form, el("p", { class: "field-error", id: "chat-admin-error", role: "alert" }),
    el("p", { id: "chat-muted", class: "actions" }),
    el("div", { class: "scroll" }, el("table", { class: "data stack", id: "chat-messages" },
      el("thead", {}, el("tr", {}, el("th", { text: t("console:chat.col.when") }), el("th", { text: t("console:chat.col.who") }),
        el("th", { text: t("console:chat.col.message") }), el("th", { text: "" }))),
      el("tbody"))));
}

function showError(root, err) {
  const p = root.querySelector("#chat-admin-error");
  if (p) p.textContent = errorText(err);
}

// The table chat panel: the last messages (read from GET /api/tables/{id}/chat after each connection, then
// kept up to date by the pushed chat, chat_deleted and chat_setting messages), a line to type in, and quick
// emote buttons for a tap on a phone. Every text people typed is shown with textContent, never as HTML.
// On a wide screen the panel is docked at the right (it can be hidden); on a laptop or phone it opens from
// the Chat button of the top bar, over the felt, never over the play controls.

import { api, el, savedSession } from "./api.js";
import { markName, t, time } from "./i18n.js";
import { commandErrorText } from "./socket.js";

// The quick emotes' ids (the server's); each is worded on the page by its id, `table:emote.<id>`.
const EMOTES = ["good_luck", "nice_hand", "well_played", "unlucky", "thanks", "hello"];
const emoteWords = (id) => t(`table:emote.${id}`);
const MAX_CHARS = 200;
const DOCK_QUERY = "(min-width: 1600px)";
// A spectator has no controls in the column beside the table: the chat docks beside the felt from 1100 px.
const WATCH_DOCK_QUERY = "(min-width: 1100px)";
const ROLE_WORDS = { player: "table:chat.role.player", spectator: "table:chat.role.spectator", operator: "table:chat.role.operator" };
// Why this viewer cannot post, by the refusal's code (the page says it before the server has to).
const REFUSALS = {
  CHAT_OFF: "table:chat.blocked.off",
  CHAT_PLAYERS_ONLY: "table:chat.blocked.players_only",
  CHAT_MUTED: "table:chat.blocked.muted",
  HOST_MUTED: "table:chat.blocked.host_muted",
  CHAT_NEEDS_SESSION: "table:chat.blocked.needs_session",
};
const refusal = (code) => (REFUSALS[code] ? t(REFUSALS[code]) : "");

/** The saved session if the server still knows it, asked quietly (a watcher with a dead token just watches). */
export async function watcherSession() {
  const s = savedSession();
  if (!s) return null;
  try {
    return { ...s, ...(await api("/api/session", { token: s.token, quiet: true })), token: s.token };
  } catch {
    return null;
  }
}

/**
 * Build the panel into #chat-panel and its toggle #chat-btn.
 * @param {{ tableId: string, ctx: object, send: (msg: object) => Promise<object> }} o
 * @returns {{ onMessage(msg: object): boolean, status(status: string): void, update(view: object): void }}
 */
export function installChat({ tableId, ctx, send }) {
  const panel = document.getElementById("chat-panel");
  const button = document.getElementById("chat-btn");
  const icon = [...button.querySelectorAll(":scope > svg")];  // its icon (table/index.html), kept as its words change
  const watching = ctx.role === "spectator";
  document.body.classList.toggle("watching", watching);
  const dock = window.matchMedia(watching ? WATCH_DOCK_QUERY : DOCK_QUERY);
  const state = { messages: new Map(), deleted: new Set(), setting: "everyone", muted: false, unread: 0, fresh: true, seated: null,
    open: dock.matches && localStorage.getItem("paigow.chat.hidden") !== "1", note: "", loading: null };

  const log = el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-label": t("table:chat.log.label") });
  const input = el("input", { id: "chat-input", maxlength: String(MAX_CHARS), autocomplete: "off", enterkeyhint: "send",
    placeholder: t("table:chat.input.placeholder"), "aria-label": t("table:chat.input.label"), "aria-describedby": "chat-note" });
  const sendBtn = el("button", { class: "btn small", type: "submit", id: "chat-send", text: t("table:chat.send.button") });
  const note = el("p", { class: "chat-note", id: "chat-note", role: "status" });
  const setting = el("span", { class: "chat-setting", id: "chat-setting" });
  const emotes = el("div", { class: "chat-emotes", role: "group", "aria-label": t("table:chat.emotes.label") },
    EMOTES.map((id) => el("button", { class: "chip-btn", type: "button", "data-emote": id, text: emoteWords(id),
      onclick: () => post({ emote: id }) })));
  const form = el("form", { class: "chat-form", novalidate: true, onsubmit: (ev) => { ev.preventDefault(); post({ text: input.value }); } },
    input, sendBtn);
  panel.replaceChildren(
    el("div", { class: "chat-head" }, el("h2", { id: "chat-title", text: t("table:chat.title") }), setting,
      el("button", { class: "btn small secondary", type: "button", id: "chat-hide", text: t("table:chat.hide.button"), onclick: () => toggle(false) })),
    log, note, emotes, form);
  panel.setAttribute("aria-labelledby", "chat-title");
  button.addEventListener("click", () => toggle(!state.open));
  panel.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !dock.matches) { toggle(false); button.focus(); }
  });
  dock.addEventListener("change", () => toggle(dock.matches && localStorage.getItem("paigow.chat.hidden") !== "1", { remember: false }));
  toggle(state.open, { remember: false });

  function toggle(open, { remember = true } = {}) {
    state.open = open;
    if (open) state.unread = 0;
    if (remember && dock.matches) localStorage.setItem("paigow.chat.hidden", open ? "0" : "1");
    panel.hidden = !open;
    document.body.classList.toggle("chat-docked", open && dock.matches);
    document.body.classList.toggle("chat-open", open);
    button.setAttribute("aria-expanded", String(open));
    renderButton();
    if (open) log.scrollTop = log.scrollHeight;
  }

  function renderButton() {
    button.replaceChildren(...icon, el("span", { class: "label-text", text: t("table:chat.button") }), state.unread ? el("span", { class: "chat-badge", "aria-label": t("table:chat.unread", { count: state.unread }), text: String(state.unread) }) : "");
  }

  function isOperator() { return ctx.role === "operator"; }

  /** Why this viewer cannot post now, or "" when they can. */
  function blocked() {
    if (state.setting === "off") return refusal("CHAT_OFF");
    if (isOperator()) return "";
    if (!ctx.session) return refusal("CHAT_NEEDS_SESSION");
    if (state.setting === "players_only" && !ctx.view?.you) return refusal("CHAT_PLAYERS_ONLY");
    if (hostMuted()) return refusal("HOST_MUTED");
    if (state.muted) return refusal("CHAT_MUTED");
    return "";
  }

  /** A home game's host muted this player: the table's own list (view.home.muted), which every update brings. */
  function hostMuted() {
    return Boolean(ctx.playerId) && (ctx.view?.home?.muted ?? []).includes(ctx.playerId);
  }

  function render() {
    const list = [...state.messages.values()].sort((a, b) => a.id - b.id);
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.replaceChildren(...(list.length ? list.map(line) : [el("li", { class: "chat-empty", text: emptyWords() })]));
    if (atEnd || state.fresh) log.scrollTop = log.scrollHeight;
    state.fresh = false;
    const settingKey = { everyone: "table:chat.setting.everyone", players_only: "table:chat.setting.players_only", off: "table:chat.setting.off" }[state.setting];
    setting.textContent = settingKey ? t(settingKey) : "";
    const why = blocked();
    input.disabled = sendBtn.disabled = Boolean(why);
    for (const b of emotes.querySelectorAll("button")) b.disabled = Boolean(why);
    note.textContent = state.note || why;
    note.classList.toggle("bad", Boolean(state.note));
    panel.dataset.setting = state.setting;
  }

  function emptyWords() {
    if (state.setting === "off" && !isOperator()) return t("table:chat.empty.off");
    if (state.setting === "players_only" && !ctx.view?.you && !isOperator()) return t("table:chat.empty.players_only");
    return t("table:chat.empty");
  }

  function line(m) {
    const mine = m.player_id !== null && m.player_id === ctx.playerId;
    // An emote is worded by its id in the page's language (the server's English text for an id this page
    // does not know); a typed line is the author's own words, in their language.
    const emote = m.emote && EMOTES.includes(m.emote);
    const text = el("span", { class: "chat-text", text: emote ? emoteWords(m.emote) : m.text });
    if (!emote) markName(text);
    return el("li", { class: `chat-line role-${m.role}${mine ? " mine" : ""}${m.emote ? " emote" : ""}`, "data-id": String(m.id) },
      el("span", { class: "chat-who" }, markName(el("span", { class: "chat-name", text: m.name })),
        el("span", { class: "chat-role", text: ROLE_WORDS[m.role] ? t(ROLE_WORDS[m.role]) : m.role }),
        el("time", { class: "chat-time", datetime: new Date(m.ts_ms).toISOString(), text: time(m.ts_ms) })),
      text);
  }

  async function load() {
    const token = ctx.session?.token;
    const asked = (state.loading = { pushed: new Map() });
    try {
      const data = await api(`/api/tables/${encodeURIComponent(tableId)}/chat`, { token, quiet: true });
      if (state.loading !== asked) return;
      state.loading = null;
      // What was pushed while the read was on its way stays, and what was deleted meanwhile stays out.
      state.messages = new Map([...data.messages, ...asked.pushed.values()].filter((m) => !state.deleted.has(m.id))
        .map((m) => [m.id, m]));
      state.setting = data.setting;
      state.muted = data.muted;
      state.fresh = true;
      render();
    } catch { /* the next connection reads it again */ }
  }

  async function post(content) {
    if (content.text !== undefined && !content.text.trim()) {
      state.note = t("table:chat.empty_message");
      render();
      return;
    }
    state.note = "";
    try {
      await send(content.emote ? { type: "chat", emote: content.emote } : { type: "chat", text: content.text });
      if (content.text !== undefined) input.value = "";
    } catch (err) {
      if (err.code === "CHAT_MUTED") state.muted = true;
      state.note = err.code === "CHAT_MUTED" && hostMuted() ? "" : refusal(err.code) || commandErrorText(err);
    }
    render();
    if (content.text !== undefined) input.focus();
  }

  return {
    onMessage(msg) {
      if (msg.type === "chat") {
        state.messages.set(msg.message.id, msg.message);
        state.loading?.pushed.set(msg.message.id, msg.message);
        while (state.messages.size > 100) state.messages.delete(Math.min(...state.messages.keys()));
        if (!state.open && msg.message.player_id !== ctx.playerId) { state.unread += 1; renderButton(); }
        render();
        return true;
      }
      if (msg.type === "chat_deleted") {
        state.messages.delete(msg.message_id);
        state.deleted.add(msg.message_id);
        render();
        return true;
      }
      if (msg.type === "chat_setting") {
        state.setting = msg.setting;
        state.note = "";
        load();
        return true;
      }
      if ((msg.type === "snapshot" || msg.type === "patch") && state.needsLoad) {
        state.needsLoad = false;
        queueMicrotask(load);
      }
      return false;
    },
    status(status) {
      if (status === "open") state.needsLoad = true; // read the chat once the table answers the hello
    },
    update(view) {
      const seated = Boolean(view?.you);
      if (state.seated !== null && seated !== state.seated && state.setting === "players_only") load();
      // The chat's own answer (`muted`) counts the host's mute too: read again once the host lifts it.
      const muted = hostMuted();
      if (state.hostMuted && !muted) load();
      state.hostMuted = muted;
      // Each table update comes here: the panel is drawn again only when what one may do has changed.
      const why = `${seated} ${blocked()}`;
      if (why !== state.why) render();
      state.seated = seated;
      state.why = why;
    },
  };
}

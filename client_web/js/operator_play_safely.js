// Responsible play in the operator console, read only (docs/responsible-play.md): the picked player's break or
// self-exclusion, limits, changes waiting, bets refused at a limit and the session in progress
// (`GET /api/operator/players/{id}/responsible-play`), and every break and self-exclusion in force
// (`GET /api/operator/responsible-play/blocks`). Nothing here changes them: nobody can lift or shorten a
// block, and limits are the player's own.

import { el, money } from "./api.js";
import { number, t } from "./i18n.js";
import { $, call, cell, errorText, fillRows, whenLong, who } from "./operator_api.js";

const LIMITS = ["loss_day", "loss_week", "loss_month", "wager_day", "wager_week", "wager_month", "session_minutes"];
const MINUTES = (n) => t("console:rp.minutes", { minutes: number(n) });
const valueText = (name, v) => (v == null ? t("lobby:safe.limit.none") : name === "session_minutes" ? MINUTES(v) : money(v));
/** A limit's name beside its value: the session's without the lobby box's "(minutes)" (the value says it). */
const limitName = (name) => t(name === "session_minutes" ? "lobby:safe.short.session_minutes" : `lobby:safe.limit.${name}`);
let asked = 0;

function blockWords(block) {
  if (!block) return t("console:rp.block.none");
  if (block.kind === "closed") return t("console:rp.block.closed");
  return t(block.kind === "exclusion" ? "console:rp.block.exclusion" : "console:rp.block.break",
    { length: t(`lobby:safe.length.${block.length}`), until: whenLong(block.until_ms) });
}

function limitItems(data) {
  const set = LIMITS.filter((name) => data.limits?.[name] != null);
  if (!set.length) return [el("li", { text: t("console:rp.limits.none") })];
  return set.map((name) => {
    const used = data.used?.[name];
    const words = { name: limitName(name), value: valueText(name, data.limits[name]) };
    return el("li", { text: used ? t("console:rp.limit.used", { ...words, used: money(used.used_cents) }) : t("console:rp.limit", words) });
  });
}

function pendingItems(data) {
  const names = Object.keys(data.pending ?? {});
  if (!names.length) return [el("li", { text: t("console:rp.pending.none") })];
  return names.map((name) => el("li", { text: t("console:rp.pending.item",
    { name: limitName(name), value: valueText(name, data.pending[name].value), when: whenLong(data.pending[name].effective_ms) }) }));
}

function sessionWords(s) {
  return s ? t("console:rp.session.now", { start: whenLong(s.start_ms), net: money(s.net_cents, { sign: true }), wagered: money(s.wagered_cents) })
    : t("console:rp.session.none");
}

function host() {
  let box = $("player-rp");
  if (!box) {
    box = el("section", { id: "player-rp", class: "player-rp", "aria-labelledby": "player-rp-title", hidden: true });
    $("money-result").after(box);
  }
  return box;
}

/** The picked player's responsible play, read from the server (null: none picked). */
export async function showPlayerSafety(player) {
  const box = host();
  const mine = ++asked;
  if (!player) {
    box.hidden = true;
    return;
  }
  const title = el("h3", { id: "player-rp-title", text: t("console:rp.title") });
  try {
    const data = await call(`/players/${encodeURIComponent(player.player_id)}/responsible-play`);
    if (mine !== asked) return;
    const term = (key) => el("dt", { text: t(key) });
    box.replaceChildren(title, el("p", { class: "hint", text: t("console:rp.hint") }),
      el("dl", { class: "rp-facts" },
        term("console:rp.block.term"), el("dd", { id: "player-rp-block", text: blockWords(data.block) }),
        term("console:rp.limits.term"), el("dd", {}, el("ul", { id: "player-rp-limits" }, ...limitItems(data))),
        term("console:rp.pending.term"), el("dd", {}, el("ul", { id: "player-rp-pending" }, ...pendingItems(data))),
        // How many commands a limit refused: said once there is one (none is not worth a line).
        ...(data.limits_hit ? [term("console:rp.hits.term"), el("dd", { id: "player-rp-hits", text: number(data.limits_hit) })] : []),
        term("console:rp.session.term"), el("dd", { text: sessionWords(data.session) })));
  } catch (err) {
    if (mine !== asked) return;
    box.replaceChildren(title, el("p", { class: "field-error", role: "alert", text: t("console:rp.failed", { reason: errorText(err) }) }));
  }
  box.hidden = false;
}

function blocksPanel() {
  let panel = $("blocks-panel");
  if (panel) return panel;
  const col = (key) => el("th", { text: t(key) });
  panel = el("section", { class: "panel", id: "blocks-panel", "aria-labelledby": "blocks-title" },
    el("h2", { id: "blocks-title", text: t("console:blocks.title") }),
    el("p", { class: "hint", text: t("console:blocks.hint") }),
    el("p", { class: "field-error", id: "blocks-error", role: "alert" }),
    el("table", { class: "data stack", id: "rg-blocks" },
      el("thead", {}, el("tr", {}, col("console:blocks.col.player"), col("console:blocks.col.kind"), col("console:blocks.col.from"), col("console:blocks.col.until"))),
      el("tbody")));
  $("bars-panel").after(panel);
  return panel;
}

function blockRow(b) {
  const closed = b.kind === "closed";  // a closing account's block, until the closing finishes: it never ends
  const kind = closed ? t("console:blocks.kind.closed")
    : t(b.kind === "exclusion" ? "console:blocks.kind.exclusion" : "console:blocks.kind.break", { length: t(`lobby:safe.length.${b.length}`) });
  return el("tr", { "data-player": b.player_id },
    cell(t("console:blocks.col.player"), {}, who(b.player_name, b.player_id)),
    cell(t("console:blocks.col.kind"), { text: kind }),
    cell(t("console:blocks.col.from"), { text: whenLong(b.from_ms) }),
    cell(t("console:blocks.col.until"), { text: closed ? t("console:blocks.until.never") : whenLong(b.until_ms) }));
}

/** Every break and self-exclusion in force, the soonest to end first (with the console's refresh). */
export async function refreshBlocks() {
  blocksPanel();
  try {
    const data = await call("/responsible-play/blocks");
    $("blocks-error").textContent = "";
    fillRows("rg-blocks", data.blocks.map(blockRow), t("console:blocks.empty"), 4);
  } catch (err) {
    $("blocks-error").textContent = errorText(err);
  }
}

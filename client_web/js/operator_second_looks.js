// The console's Second looks (issue 34, docs/floor.md#second-looks), from `GET /api/operator/second-looks`:
// pairs of accounts whose money passes between them through player banking far beyond what chance explains,
// accounts that foul far more often under one banker than under the others, and accounts that share an
// address network and a table. Each row links to the rounds behind it. A flag is a reason to look, never an
// automatic action: the page changes nothing. Every word from the catalog (`console:looks.*`).

import { el, money } from "./api.js";
import { locale, number, percent, t } from "./i18n.js";
import { $, call, cell, errorText, fillRows, sentenceWith, who } from "./operator_api.js";

const Z = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
let asked = 0;

/** Where an operator opens a round: its check on the verify page, which reads the round's published record. */
export function roundHref(roundId) {
  return `/verify/?round=${encodeURIComponent(roundId)}`;
}

/** The rounds behind a row, each a link (the newest first, as the API lists them). */
function roundLinks(ids) {
  if (!ids?.length) return el("span", { class: "hint", text: t("console:floor.none") });
  return el("ul", { class: "round-links" }, ...ids.map((id) => el("li", {},
    el("a", { href: roundHref(id), target: "_blank", rel: "noopener", "data-round": id,
      "aria-label": t("console:looks.round.label", { round: id }) }, el("small", { class: "id", text: id })))));
}

const zText = (z) => (z == null ? t("console:floor.none") : Z.format(z).replace("-", "−"));

function pairRow(p) {
  return el("tr", { "data-banker": p.banker_id, "data-player": p.player_id },
    cell(t("console:looks.col.banker"), {}, who(p.banker_name, p.banker_id)),
    cell(t("console:looks.col.player"), {}, who(p.player_name, p.player_id)),
    cell(t("console:looks.col.rounds"), { class: "num", text: number(p.rounds) }),
    cell(t("console:looks.col.flow"), { class: "num", text: money(p.flow_cents, { sign: true }) }),
    cell(t("console:looks.col.expected"), { class: "num", text: money(p.expected_sd_cents) }),
    cell(t("console:looks.col.z"), { class: "num", text: zText(p.z) }),
    cell(t("console:looks.col.round_ids"), {}, roundLinks(p.round_ids)));
}

function foulRow(f) {
  return el("tr", { "data-banker": f.banker_id, "data-player": f.player_id },
    cell(t("console:looks.col.player"), {}, who(f.player_name, f.player_id)),
    cell(t("console:looks.col.banker"), {}, who(f.banker_name, f.banker_id)),
    cell(t("console:looks.col.hands"), { class: "num", text: number(f.hands) }),
    cell(t("console:looks.col.fouls"), { class: "num", text: number(f.fouls) }),
    cell(t("console:looks.col.foul_rate"), { class: "num", text: f.foul_rate == null ? t("console:floor.none") : percent(f.foul_rate) }),
    cell(t("console:looks.col.base_rate"), { class: "num", text: f.base_rate == null ? t("console:floor.none") : percent(f.base_rate) }),
    cell(t("console:looks.col.z"), { class: "num", text: zText(f.z) }),
    cell(t("console:looks.col.round_ids"), {}, roundLinks(f.round_ids)));
}

function networkRow(n) {
  return el("tr", { "data-network": n.network },
    cell(t("console:looks.col.network"), {}, el("code", { text: n.network })),
    cell(t("console:looks.col.players"), {}, el("ul", { class: "plain" }, ...(n.players ?? []).map((p) => el("li", {}, who(p.player_name, p.player_id))))),
    cell(t("console:looks.col.tables"), {}, el("ul", { class: "plain" }, ...(n.tables ?? []).map((id) => el("li", {}, el("small", { class: "id", text: id }))))),
    cell(t("console:looks.col.round_ids"), {}, roundLinks(n.round_ids)));
}

/** Ask for the chosen window's second looks and list them (the last one asked wins). */
export async function loadSecondLooks() {
  const mine = ++asked;
  try {
    const data = await call(`/second-looks?window=${encodeURIComponent($("looks-window").value)}&limit=50`);
    if (mine !== asked) return;
    $("looks-error").textContent = "";
    $("looks-hint").replaceChildren(...sentenceWith("console:looks.hint", { z: Z.format(data.threshold_z) },
      { method: el("code", { text: data.method ?? "docs/floor.md#second-looks" }) }));
    fillRows("looks-pairs", (data.pairs ?? []).map(pairRow), t("console:looks.pairs.empty"), 7);
    fillRows("looks-fouls", (data.fouls ?? []).map(foulRow), t("console:looks.fouls.empty"), 8);
    fillRows("looks-networks", (data.shared_networks ?? []).map(networkRow), t("console:looks.networks.empty"), 4);
    $("looks-panel").dataset.ready = "true";
  } catch (err) {
    if (mine !== asked) return;
    if (err?.status === 401) throw err;
    $("looks-error").textContent = t("console:looks.failed", { reason: errorText(err) });
  }
}

$("looks-window").addEventListener("change", () => loadSecondLooks().catch(() => {}));

// The console's Second looks (issue 34, docs/floor.md#second-looks), from `GET /api/operator/second-looks`:
// pairs of accounts whose money passes between them through player banking far beyond what chance explains,
// accounts that foul far more often under one banker than under the others, and accounts that share an
// address network and a table. Each row links to the rounds behind it (their checks on the verify page). A flag is a reason to look, never an
// automatic action: the page changes nothing. Every word from the catalog (`console:looks.*`).

import { el, money } from "./api.js";
import { fetchRounds, verifyHref } from "./rounds.js";
import { locale, number, percent, t } from "./i18n.js";
import { $, call, cell, errorText, fillRows, sentenceWith, who } from "./operator_api.js";

const Z = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
let asked = 0;

const TABLES_READ = 10;
const SHOWN = 5;

/**
 * The records behind the rows' rounds, to link each to its check on the verify page as the table page's
 * history does (verifyHref): each table's last 100 settled rounds (`GET /api/tables/{id}/rounds`, public),
 * read once per list, for at most ``TABLES_READ`` tables. A round older than those (or of a private table)
 * is named without a link: the hand history export holds it.
 */
async function recordsOf(rows) {
  const tables = [...new Set(rows.flatMap((row) => (row.round_links ?? []).map((l) => l.table_id)))].slice(0, TABLES_READ);
  const lists = await Promise.all(tables.map((id) => fetchRounds(id, 100).catch(() => [])));
  return new Map(lists.flatMap((records, i) => records.map((r) => [`${tables[i]} ${r.round_id}`, r])));
}

/** The rounds behind a row, newest first: each a link to its check where its record was read. */
function roundLinks(row, records) {
  const links = row.round_links ?? (row.round_ids ?? []).map((round_id) => ({ round_id, table_id: null }));
  if (!links.length) return el("span", { class: "hint", text: t("console:floor.none") });
  const item = (l) => {
    const record = records.get(`${l.table_id} ${l.round_id}`);
    const id = el("small", { class: "id", text: l.round_id });
    return el("li", { "data-round": l.round_id }, record
      ? el("a", { href: verifyHref(record), target: "_blank", rel: "noopener", title: t("console:looks.round.check") }, id)
      : el("span", { title: t("console:looks.round.export") }, id));
  };
  const list = (some) => el("ul", { class: "round-links" }, ...some.map(item));
  if (links.length <= SHOWN + 1) return list(links);
  // The newest few, the others folded: twenty ids would make the row a column of them on a phone.
  const rest = links.length - SHOWN;
  return el("div", {}, list(links.slice(0, SHOWN)), el("details", { class: "more-rounds" },
    el("summary", { text: t("console:looks.rounds.more", { count: rest, more: number(rest) }) }), list(links.slice(SHOWN))));
}

const zText = (z) => (z == null ? t("console:floor.none") : Z.format(z).replace("-", "−"));

function pairRow(p, records) {
  return el("tr", { "data-banker": p.banker_id, "data-player": p.player_id },
    cell(t("console:looks.col.banker"), {}, who(p.banker_name, p.banker_id)),
    cell(t("console:looks.col.player"), {}, who(p.player_name, p.player_id)),
    cell(t("console:looks.col.rounds"), { class: "num", text: number(p.rounds) }),
    cell(t("console:looks.col.flow"), { class: "num", text: money(p.flow_cents, { sign: true }) }),
    cell(t("console:looks.col.expected"), { class: "num", text: money(p.expected_sd_cents) }),
    cell(t("console:looks.col.z"), { class: "num", text: zText(p.z) }),
    cell(t("console:looks.col.round_ids"), {}, roundLinks(p, records)));
}

function foulRow(f, records) {
  return el("tr", { "data-banker": f.banker_id, "data-player": f.player_id },
    cell(t("console:looks.col.player"), {}, who(f.player_name, f.player_id)),
    cell(t("console:looks.col.banker"), {}, who(f.banker_name, f.banker_id)),
    cell(t("console:looks.col.hands"), { class: "num", text: number(f.hands) }),
    cell(t("console:looks.col.fouls"), { class: "num", text: number(f.fouls) }),
    cell(t("console:looks.col.foul_rate"), { class: "num", text: f.foul_rate == null ? t("console:floor.none") : percent(f.foul_rate) }),
    cell(t("console:looks.col.base_rate"), { class: "num", text: f.base_rate == null ? t("console:floor.none") : percent(f.base_rate) }),
    cell(t("console:looks.col.z"), { class: "num", text: zText(f.z) }),
    cell(t("console:looks.col.round_ids"), {}, roundLinks(f, records)));
}

function networkRow(n, records) {
  return el("tr", { "data-network": n.network },
    cell(t("console:looks.col.network"), { class: "nowrap" }, el("code", { text: n.network })),
    cell(t("console:looks.col.players"), {}, el("ul", { class: "plain" }, ...(n.players ?? []).map((p) => el("li", {}, who(p.player_name, p.player_id))))),
    cell(t("console:looks.col.tables"), {}, el("ul", { class: "plain" }, ...(n.tables ?? []).map((id) => el("li", {}, el("small", { class: "id", text: id }))))),
    cell(t("console:looks.col.round_ids"), {}, roundLinks(n, records)));
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
    const pairs = data.pairs ?? [];
    const fouls = data.fouls ?? [];
    const networks = data.shared_networks ?? [];
    const records = await recordsOf([...pairs, ...fouls, ...networks]);
    if (mine !== asked) return;
    fillRows("looks-pairs", pairs.map((row) => pairRow(row, records)), t("console:looks.pairs.empty"), 7);
    fillRows("looks-fouls", fouls.map((row) => foulRow(row, records)), t("console:looks.fouls.empty"), 8);
    fillRows("looks-networks", networks.map((row) => networkRow(row, records)), t("console:looks.networks.empty"), 4);
    $("looks-panel").dataset.ready = "true";
  } catch (err) {
    if (mine !== asked) return;
    if (err?.status === 401) throw err;
    $("looks-error").textContent = t("console:looks.failed", { reason: errorText(err) });
  }
}

$("looks-window").addEventListener("change", () => loadSecondLooks().catch(() => {}));

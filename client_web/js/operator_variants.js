// The operator console's casino variants (docs/rules.md §4a–§4c): the tables list's Variant cell ("EZ · QD ·
// Dragon · Co-bank"), the choices of the "Open a table" form, and for the table being managed a form of
// them all (the commission form, the Queen's Dragon and its limits, the Dragon hand: who sets it, its top
// wager and its offer time, player banking and co-banking), sent with PUT /rules: applied from the next
// round, the change waiting meanwhile in view.admin.pending_rules. A refusal that names its field (400
// INVALID_FIELD with "field") is shown with the field's label, and the field is marked (operator_api.js
// refuseAt).

import { el, money } from "./api.js";
import { $, cell, centsFields, refuseAt, unmarkOnEdit } from "./operator_api.js";
import { variantTags } from "./variant_tags.js";

const KEYS = ["commission_form", "queens_dragon_enabled", "queens_dragon_min_bet_cents", "queens_dragon_max_bet_cents",
  "dragon_enabled", "dragon_set_by", "dragon_max_bet_cents", "dragon_offer_ms", "player_banking", "co_banking"];

const pct = (bps) => `${(bps ?? 500) / 100}%`;
const FORMS = {
  commissioned: { name: "Commissioned", words: (bps) => (bps === 0 ? "no commission" : `commissioned (${pct(bps)} of a win)`),
    what: (bps) => (bps === 0 ? "A winning bet is paid even money: no commission is taken."
      : `The house takes ${pct(bps)} of every winning bet: the classic game.`) },
  ez: { name: "EZ Pai Gow", words: () => "EZ Pai Gow (no commission)",
    what: () => "No commission: every bet pushes when the dealer's hand is a queen-high pai gow." },
  nine_high: { name: "9-high", words: () => "9-high commission-free",
    what: () => "No commission: every bet pushes when the dealer's House Way low hand is nine-high." },
};
const SET_BY = { house_way: "the House Way", buyer: "the buyer" };
const COBANK_WHY = {
  on: "A player who takes the bank may bank with the house instead, half each; the House Way sets the bank's hand.",
  inert: "No effect while player banking is off: nobody but the house banks. Turn player banking on for co-banking.",
};
const QD_WHY = {
  on: "Pays 50 to 1 when the dealer's hand is a queen-high pai gow (house edge 10.02%). Players bet it beside their wager.",
  off: "EZ tables only: it pays on the queen-high pai gow that EZ pushes. Choose EZ Pai Gow to offer it.",
};

/** Each field's control (its id after the form's prefix) and its name in the console's words. */
const FIELDS = {
  commission_form: ["form-commissioned", "Commission"],
  queens_dragon_enabled: ["qd", "Queen's Dragon"],
  queens_dragon_min_bet_cents: ["qd-min", "Queen's Dragon minimum"],
  queens_dragon_max_bet_cents: ["qd-max", "Queen's Dragon maximum"],
  dragon_enabled: ["dragon", "Dragon hand"],
  dragon_set_by: ["dragon-by", "Who sets the Dragon"],
  dragon_max_bet_cents: ["dragon-max", "Dragon maximum"],
  dragon_offer_ms: ["dragon-offer", "Dragon offer time"],
  player_banking: ["banking", "Player banking"],
  co_banking: ["cobank", "Co-banking"],
};

/** "EZ · QD · Dragon · Co-bank": what a table (a summary, or rules) deals, in a few words (variant_tags.js),
 * each whole on its line ("Co-bank" not broken at its hyphen), the line breaking between them. */
function tagNodes(t) {
  return variantTags(t).flatMap((tag, i) => [...(i ? [" · "] : []), tag.key === "qd"
    ? el("abbr", { title: "Queen's Dragon", class: "nowrap", text: tag.short })
    : el("span", { class: "nowrap", title: tag.title, text: tag.short })]);
}

/** The list's Variant cell (one child: a phone's stacked row shows it beside the column's name). */
export function variantCell(t) {
  const tags = variantTags(t);
  const plain = tags.length === 1 && tags[0].key === "commission";
  return cell("Variant", { "data-variant": tags.map((tag) => tag.short).join(" · ") },
    el("span", { class: plain ? "hint" : "variant-tag" }, ...tagNodes(t)));
}

/** The variants of rules in words, one part each: "EZ Pai Gow (no commission)", "Queen's Dragon $1.00–$100.00", ... */
export function variantWords(r, { all = true } = {}) {
  const dragon = `Dragon hand (${SET_BY[r.dragon_set_by] ?? r.dragon_set_by} sets it`;
  const house = r.player_banking === false;
  return [FORMS[r.commission_form]?.words(r.commission_bps) ?? r.commission_form,
    r.queens_dragon_enabled ? `Queen's Dragon${all ? ` ${money(r.queens_dragon_min_bet_cents)}–${money(r.queens_dragon_max_bet_cents)}` : ""}` : null,
    r.dragon_enabled ? (all ? `${dragon}; up to ${r.dragon_max_bet_cents === null ? "the buyer's wager" : money(r.dragon_max_bet_cents)}; ${r.dragon_offer_ms / 1000} s to take it)` : `${dragon})`)
      : all ? "no Dragon hand" : null,
    r.co_banking ? `co-banking${house ? ", but no effect: player banking is off" : ""}` : all ? "no co-banking" : null,
    house ? "the house banks every round" : null,
  ].filter(Boolean);
}

// --- the controls, built once for each form --------------------------------------------------------

function check(id, label) {
  return el("label", { class: "check", for: id },
    el("input", { type: "checkbox", id, "aria-describedby": `${id}-why` }), " ", label);
}

function amount(id, label, attrs = {}) {
  return el("div", {}, el("label", { for: id, text: label }), el("input", { id, inputmode: "decimal", class: "short", autocomplete: "off", ...attrs }));
}

/** The choices, with ids from ``p`` (``new``, ``v``); ``limits`` adds the amounts and the offer time. */
function choices(p, limits) {
  const forms = Object.entries(FORMS).map(([value, f]) => el("label", { class: "choice", for: `${p}-form-${value}` },
    el("input", { type: "radio", name: `${p}-form`, id: `${p}-form-${value}`, value }),
    el("span", {}, el("strong", { text: f.name }), el("span", { class: "hint", id: `${p}-form-${value}-what`, text: f.what() }))));
  const qd = el("div", { class: "variant" }, check(`${p}-qd`, "Queen's Dragon side bet"),
    el("p", { class: "hint", id: `${p}-qd-why` }),
    limits ? el("div", { class: "row" }, amount(`${p}-qd-min`, "Min $"), amount(`${p}-qd-max`, "Max $")) : null);
  const dragon = el("div", { class: "variant dragon" }, check(`${p}-dragon`, "Dragon hand"),
    el("p", { class: "hint", id: `${p}-dragon-why`, text: "An unplayed hand, offered to the seated players in turn once betting closes. The House Way sets it (its buyer sees it at the showdown), or its buyer does." }),
    el("div", { class: "row" },
      el("div", {}, el("label", { for: `${p}-dragon-by`, text: "Set by" }), el("select", { id: `${p}-dragon-by` },
        el("option", { value: "house_way", text: "the House Way" }),
        el("option", { value: "buyer", text: "the buyer" }))),
      limits ? el("div", {}, el("label", { for: `${p}-dragon-offer`, text: "Offer (s)" }),
        el("input", { id: `${p}-dragon-offer`, inputmode: "numeric", class: "short", autocomplete: "off" })) : null,
      limits ? amount(`${p}-dragon-max`, "Max $", { placeholder: "their wager", "aria-describedby": `${p}-dragon-max-hint` }) : null),
    limits ? el("p", { class: "hint", id: `${p}-dragon-max-hint`, text: "Max blank: up to the buyer's main wager." }) : null);
  const banks = el("div", { class: "variant banks" }, check(`${p}-banking`, "Player banking"),
    el("p", { class: "hint", id: `${p}-banking-why`, text: "Players may take the bank in turn. Off: the house banks every round." }),
    check(`${p}-cobank`, "Co-banking"), el("p", { class: "hint", id: `${p}-cobank-why` }));
  return [el("fieldset", { class: "forms" }, el("legend", { text: "Commission" }), ...forms),
    el("div", { class: "variants-grid" }, qd, dragon, banks)];
}

/** What depends on what: the Queen's Dragon only at EZ tables (the console says why), the Dragon's
 * settings only with the Dragon hand, co-banking only where players bank (allowed, but the console says
 * it does nothing). */
function sync(p) {
  const ez = $(`${p}-form-ez`).checked;
  const qd = $(`${p}-qd`);
  qd.disabled = !ez;
  if (!ez) qd.checked = false;
  $(`${p}-qd-why`).textContent = ez ? QD_WHY.on : QD_WHY.off;
  for (const id of ["qd-min", "qd-max"]) if ($(`${p}-${id}`)) $(`${p}-${id}`).disabled = !qd.checked;
  for (const id of ["dragon-by", "dragon-max", "dragon-offer"]) if ($(`${p}-${id}`)) $(`${p}-${id}`).disabled = !$(`${p}-dragon`).checked;
  const inert = $(`${p}-cobank`).checked && !$(`${p}-banking`).checked;
  $(`${p}-cobank-why`).textContent = inert ? COBANK_WHY.inert : COBANK_WHY.on;
  $(`${p}-cobank-why`).classList.toggle("warn", inert);
}

function fill(p, r) {
  $(`${p}-form-${FORMS[r.commission_form] ? r.commission_form : "commissioned"}`).checked = true;
  $(`${p}-form-commissioned-what`).textContent = FORMS.commissioned.what(r.commission_bps);
  $(`${p}-qd`).checked = r.queens_dragon_enabled;
  $(`${p}-dragon`).checked = r.dragon_enabled;
  $(`${p}-dragon-by`).value = r.dragon_set_by;
  $(`${p}-banking`).checked = r.player_banking !== false;
  $(`${p}-cobank`).checked = r.co_banking;
  if ($(`${p}-qd-min`)) {
    $(`${p}-qd-min`).value = (r.queens_dragon_min_bet_cents / 100).toFixed(2);
    $(`${p}-qd-max`).value = (r.queens_dragon_max_bet_cents / 100).toFixed(2);
    $(`${p}-dragon-max`).value = r.dragon_max_bet_cents === null ? "" : (r.dragon_max_bet_cents / 100).toFixed(2);
    $(`${p}-dragon-offer`).value = r.dragon_offer_ms / 1000;
  }
  sync(p);
}

/** The form's choices as rules fields: {body}, or {error, field} for what the console refuses itself. The
 * settings of a variant turned off are not sent: the table keeps them for when it is turned on again. */
function read(p) {
  const body = { commission_form: document.querySelector(`input[name="${p}-form"]:checked`)?.value ?? "commissioned",
    queens_dragon_enabled: $(`${p}-qd`).checked, dragon_enabled: $(`${p}-dragon`).checked,
    dragon_set_by: $(`${p}-dragon-by`).value, player_banking: $(`${p}-banking`).checked, co_banking: $(`${p}-cobank`).checked };
  if (!$(`${p}-qd-min`)) return { body };
  const amounts = body.queens_dragon_enabled ? { queens_dragon_min_bet_cents: $(`${p}-qd-min`).value, queens_dragon_max_bet_cents: $(`${p}-qd-max`).value } : {};
  const top = $(`${p}-dragon-max`).value.trim();
  if (body.dragon_enabled && top) amounts.dragon_max_bet_cents = top;
  const cents = centsFields(amounts, (k) => FIELDS[k][1]);
  if (cents.error) return cents;
  if (!body.dragon_enabled) return { body: { ...body, ...cents.body } };
  const secs = String($(`${p}-dragon-offer`).value).trim();
  if (!/^\d+(\.\d+)?$/.test(secs)) return { error: `The Dragon offer time is a number of seconds, e.g. 10, not '${secs}'.`, field: "dragon_offer_ms" };
  return { body: { ...body, ...cents.body, dragon_max_bet_cents: top ? cents.body.dragon_max_bet_cents : null, dragon_offer_ms: Math.round(Number(secs) * 1000) } };
}

/** The form's fields as ``refuseAt`` (operator_api.js) finds them: their controls' ids after the prefix. */
const fieldsOf = (p) => Object.fromEntries(Object.entries(FIELDS).map(([k, [id, name]]) => [k, [`${p}-${id}`, name]]));

// --- opening a table ---------------------------------------------------------------------------------

$("new-variants-body").append(...choices("new", false));
$("open-form").addEventListener("change", () => sync("new"));
unmarkOnEdit($("open-form"));
fill("new", { commission_form: "commissioned", queens_dragon_enabled: false, dragon_enabled: false, dragon_set_by: "house_way",
  player_banking: true, co_banking: false });
const showChosen = () => $("new-variants-tag").replaceChildren(...tagNodes(read("new").body));
$("open-form").addEventListener("change", showChosen);
showChosen();

/** The variants chosen for a new table (rules fields). */
export function openVariants() {
  return read("new").body;
}

/** A refusal of opening the table, at the form's error line (named and marked when it names a variant). */
export function refuseOpen(err) {
  refuseAt("open-error", err, fieldsOf("new"));
}

// --- the table being managed -----------------------------------------------------------------------

$("variants-choices").append(...choices("v", true));
$("variants-form").addEventListener("change", () => sync("v"));

/** The managed table's form's fields, for its refusals (operator_tables.js sends it). */
export const VARIANT_FIELDS = fieldsOf("v");

/** Live lines change only when their words do (the console redraws every few seconds). */
function say(id, text) {
  if ($(id).textContent !== text) $(id).textContent = text;
}

/** The detail panel's Variants part: what the table deals now, the change waiting for the next round,
 * and (``fillForm``) the form, from the waiting change when there is one (what the table will deal). */
export function renderVariants(view, fillForm) {
  const pending = view.admin?.pending_rules;
  const changed = pending && KEYS.some((k) => pending[k] !== view.rules[k]);
  say("variants-status", `Now: ${variantWords(view.rules).join(" · ")}.`);
  say("variants-pending", changed ? `From the next round: ${variantWords(pending).join(" · ")}.` : "");
  if (fillForm) fill("v", changed ? pending : view.rules);
}

/** The body of PUT /rules from the form: {body}, or {error, field} for what the console refuses. */
export function variantsRulesBody() {
  return read("v");
}

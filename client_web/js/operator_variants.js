// The operator console's casino variants (docs/rules.md §4a–§4c): the tables list's Variant cell ("EZ · QD ·
// Dragon · Co-bank"), the choices of the "Open a table" form, and for the table being managed a form of
// them all (the commission form, the Queen's Dragon and its limits, the Dragon hand: who sets it, its top
// wager and its offer time, player banking and co-banking), sent with PUT /rules: applied from the next
// round, the change waiting meanwhile in view.admin.pending_rules. A refusal that names its field (400
// INVALID_FIELD with "field") is shown with the field's label, and the field is marked (operator_api.js
// refuseAt).

import { el, money } from "./api.js";
import { locale, number, percent, t } from "./i18n.js";
import { $, cell, centsFields, refuseAt, unmarkOnEdit } from "./operator_api.js";
import { variantTags } from "./variant_tags.js";

const KEYS = ["commission_form", "queens_dragon_enabled", "queens_dragon_min_bet_cents", "queens_dragon_max_bet_cents",
  "dragon_enabled", "dragon_set_by", "dragon_max_bet_cents", "dragon_offer_ms", "player_banking", "co_banking"];

const pct = (bps) => percent((bps ?? 500) / 10000);
/** The commission forms: each one's name, its words in a list of the variants, and what it does. */
const FORMS = {
  commissioned: { name: () => t("console:variants.form.commissioned.name"),
    words: (bps) => (bps === 0 ? t("console:variants.form.commissioned.words.none") : t("console:variants.form.commissioned.words", { percent: pct(bps) })),
    what: (bps) => (bps === 0 ? t("console:variants.form.commissioned.what.none") : t("console:variants.form.commissioned.what", { percent: pct(bps) })) },
  ez: { name: () => t("console:variants.form.ez.name"), words: () => t("console:variants.form.ez.words"), what: () => t("console:variants.form.ez.what") },
  nine_high: { name: () => t("console:variants.form.nine_high.name"), words: () => t("console:variants.form.nine_high.words"),
    what: () => t("console:variants.form.nine_high.what") },
};

/** Each field's control (its id after the form's prefix); its name is ``console:field.<wire name>``. */
const FIELDS = {
  commission_form: "form-commissioned", queens_dragon_enabled: "qd", queens_dragon_min_bet_cents: "qd-min",
  queens_dragon_max_bet_cents: "qd-max", dragon_enabled: "dragon", dragon_set_by: "dragon-by", dragon_max_bet_cents: "dragon-max",
  dragon_offer_ms: "dragon-offer", player_banking: "banking", co_banking: "cobank",
};

const LIST = new Intl.ListFormat(locale, { type: "conjunction", style: "narrow" });
/** Parts of a sentence as a list, as the language writes one ("a, b, c" in English). */
export const wordList = (items) => LIST.format(items);

/** "EZ · QD · Dragon · Co-bank": what a table (a summary, or rules) deals, in a few words (variant_tags.js),
 * each whole on its line ("Co-bank" not broken at its hyphen), the line breaking between them. */
function tagNodes(table) {
  return variantTags(table).flatMap((tag, i) => [...(i ? [" · "] : []), tag.key === "qd"
    ? el("abbr", { title: tag.text, class: "nowrap", text: tag.short })
    : el("span", { class: "nowrap", title: tag.title, text: tag.short })]);
}

/** The list's Variant cell (one child: a phone's stacked row shows it beside the column's name). */
export function variantCell(table) {
  const tags = variantTags(table);
  const plain = tags.length === 1 && tags[0].key === "commission";
  return cell(t("console:tables.col.variant"), { "data-variant": tags.map((tag) => tag.short).join(" · ") },
    el("span", { class: plain ? "hint" : "variant-tag" }, ...tagNodes(table)));
}

/** The variants of rules in words, one part each: "EZ Pai Gow (no commission)", "Queen's Dragon $1.00–$100.00", ... */
export function variantWords(r, { all = true } = {}) {
  const house = r.player_banking === false;
  const buyer = r.dragon_set_by === "buyer";
  let dragon = all ? t("console:variants.words.dragon.none") : null;
  if (r.dragon_enabled && !all) dragon = t(buyer ? "console:variants.words.dragon.buyer" : "console:variants.words.dragon.house_way");
  else if (r.dragon_enabled) {
    const values = { max: r.dragon_max_bet_cents === null ? null : money(r.dragon_max_bet_cents), seconds: number(r.dragon_offer_ms / 1000) };
    const key = r.dragon_max_bet_cents === null
      ? (buyer ? "console:variants.words.dragon.buyer.full.wager" : "console:variants.words.dragon.house_way.full.wager")
      : (buyer ? "console:variants.words.dragon.buyer.full" : "console:variants.words.dragon.house_way.full");
    dragon = t(key, values);
  }
  let cobank = all ? t("console:variants.words.cobank.none") : null;
  if (r.co_banking) cobank = house ? t("console:variants.words.cobank.inert") : t("console:variants.words.cobank");
  return [FORMS[r.commission_form]?.words(r.commission_bps) ?? r.commission_form,
    r.queens_dragon_enabled ? (all ? t("console:variants.words.qd.limits", { min: money(r.queens_dragon_min_bet_cents), max: money(r.queens_dragon_max_bet_cents) })
      : t("console:variants.words.qd")) : null,
    dragon,
    cobank,
    house ? t("console:variants.words.house_banks") : null,
  ].filter(Boolean);
}

// --- the controls, built once for each form --------------------------------------------------------

function check(id, label) {
  return el("label", { class: "check", for: id },
    el("input", { type: "checkbox", id, "aria-describedby": `${id}-why` }), " ", el("span", { text: label }));
}

function amount(id, label, attrs = {}) {
  return el("div", {}, el("label", { for: id, text: label }), el("input", { id, inputmode: "decimal", class: "short", autocomplete: "off", ...attrs }));
}

/** The choices, with ids from ``p`` (``new``, ``v``); ``limits`` adds the amounts and the offer time. */
function choices(p, limits) {
  const forms = Object.entries(FORMS).map(([value, f]) => el("label", { class: "choice", for: `${p}-form-${value}` },
    el("input", { type: "radio", name: `${p}-form`, id: `${p}-form-${value}`, value }),
    el("span", {}, el("strong", { text: f.name() }), el("span", { class: "hint", id: `${p}-form-${value}-what`, text: f.what() }))));
  const qd = el("div", { class: "variant" }, check(`${p}-qd`, t("console:variants.qd.check")),
    el("p", { class: "hint", id: `${p}-qd-why` }),
    limits ? el("div", { class: "row" }, amount(`${p}-qd-min`, t("console:variants.min")), amount(`${p}-qd-max`, t("console:variants.max"))) : null);
  const dragon = el("div", { class: "variant dragon" }, check(`${p}-dragon`, t("console:variants.dragon.check")),
    el("p", { class: "hint", id: `${p}-dragon-why`, text: t("console:variants.dragon.why") }),
    el("div", { class: "row" },
      el("div", {}, el("label", { for: `${p}-dragon-by`, text: t("console:variants.dragon.set_by") }), el("select", { id: `${p}-dragon-by` },
        el("option", { value: "house_way", text: t("console:variants.dragon.set_by.house_way") }),
        el("option", { value: "buyer", text: t("console:variants.dragon.set_by.buyer") }))),
      limits ? el("div", {}, el("label", { for: `${p}-dragon-offer`, text: t("console:variants.dragon.offer") }),
        el("input", { id: `${p}-dragon-offer`, inputmode: "numeric", class: "short", autocomplete: "off" })) : null,
      limits ? amount(`${p}-dragon-max`, t("console:variants.max"), { placeholder: t("console:variants.dragon.max.placeholder"),
        "aria-describedby": `${p}-dragon-max-hint` }) : null),
    limits ? el("p", { class: "hint", id: `${p}-dragon-max-hint`, text: t("console:variants.dragon.max.hint") }) : null);
  const banks = el("div", { class: "variant banks" }, check(`${p}-banking`, t("console:variants.banking.check")),
    el("p", { class: "hint", id: `${p}-banking-why`, text: t("console:variants.banking.why") }),
    check(`${p}-cobank`, t("console:variants.cobank.check")), el("p", { class: "hint", id: `${p}-cobank-why` }));
  return [el("fieldset", { class: "forms" }, el("legend", { text: t("console:variants.commission.legend") }), ...forms),
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
  $(`${p}-qd-why`).textContent = ez ? t("console:variants.qd.why.on") : t("console:variants.qd.why.off");
  for (const id of ["qd-min", "qd-max"]) if ($(`${p}-${id}`)) $(`${p}-${id}`).disabled = !qd.checked;
  for (const id of ["dragon-by", "dragon-max", "dragon-offer"]) if ($(`${p}-${id}`)) $(`${p}-${id}`).disabled = !$(`${p}-dragon`).checked;
  const inert = $(`${p}-cobank`).checked && !$(`${p}-banking`).checked;
  $(`${p}-cobank-why`).textContent = inert ? t("console:variants.cobank.why.inert") : t("console:variants.cobank.why.on");
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
  const cents = centsFields(amounts);
  if (cents.error) return cents;
  if (!body.dragon_enabled) return { body: { ...body, ...cents.body } };
  const secs = String($(`${p}-dragon-offer`).value).trim();
  if (!/^\d+(\.\d+)?$/.test(secs)) return { error: t("console:check.seconds.dragon_offer_ms", { text: secs }), field: "dragon_offer_ms" };
  return { body: { ...body, ...cents.body, dragon_max_bet_cents: top ? cents.body.dragon_max_bet_cents : null, dragon_offer_ms: Math.round(Number(secs) * 1000) } };
}

/** The form's fields as ``refuseAt`` (operator_api.js) finds them: their controls' ids after the prefix. */
const fieldsOf = (p) => Object.fromEntries(Object.entries(FIELDS).map(([k, id]) => [k, `${p}-${id}`]));

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
  say("variants-status", t("console:variants.now", { variants: variantWords(view.rules).join(" · ") }));
  say("variants-pending", changed ? t("console:variants.pending", { variants: variantWords(pending).join(" · ") }) : "");
  if (fillForm) fill("v", changed ? pending : view.rules);
}

/** The body of PUT /rules from the form: {body}, or {error, field} for what the console refuses. */
export function variantsRulesBody() {
  return read("v");
}

// What the operator console's modules share: the signed-in operator, calls to /api/operator, and refusals
// in the page's language from their codes (errors.js), the code kept beside the words for the operator
// ("Give a reason. — REASON_REQUIRED"), a form's in the form at its field.

import { api, el, parseMoney } from "./api.js";
import { errorText as refusalText } from "./errors.js";
import { dateTime, markName, t, time } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

/** auth: {kind: "session" | "bootstrap", token, username}; selected: the table being managed. */
export const state = { auth: null, selected: null };

export const call = (path, opts = {}) => api(`/api/operator${path}`, { ...opts, token: state.auth?.token ?? "" });

export function when(ms) {
  return ms ? time(ms, { seconds: true }) : "";
}

export function whenLong(ms) {
  return ms ? dateTime(ms) : "";
}

/** A refusal in the page's language: the errors catalog's sentence for its code, the code beside it (an
 * operator looks it up in the audit log); the console's own checks ({message}, no code) are already worded. */
export function errorText(err) {
  if (!err) return "";
  const code = typeof err.code === "string" && err.code ? err.code : null;
  if (!code) return err.message ?? "";
  const text = refusalText(err);
  // A code the catalog does not know is said with the code already (errors:unknown).
  return text === t("errors:unknown", { code }) ? text : t("console:refusal.with_code", { text, code });
}

export function showError(id, err) {
  $(id).textContent = errorText(err);
}

/**
 * A sentence of the catalog with elements inside it: ``nodes`` names the placeholders filled by an element
 * (a player's name marked as theirs, an id in small type), ``values`` the others. The words around them stay
 * the catalog's, in its order.
 */
export function sentenceWith(key, values, nodes) {
  const marks = {};
  for (const name of Object.keys(nodes)) marks[name] = `\u0001${name}\u0001`;
  const text = t(key, { ...values, ...marks });
  return text.split("\u0001").map((part, i) => (i % 2 ? nodes[part] : part)).filter((p) => p !== "");
}

/** A player's own text (a name, a reason typed by an operator) in a span of its own language. */
export function userText(text, attrs = {}) {
  return markName(el("span", { ...attrs, text }));
}

/** The marks of a refusal (aria-invalid) go as soon as the form is changed or sent again; the function
 * that takes them away. */
export function unmarkOnEdit(form) {
  const unmark = () => { for (const node of form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid"); };
  form.addEventListener("input", unmark);
  form.addEventListener("submit", unmark, true); // before the form's own handler: the last try's marks go
  return unmark;
}

/**
 * A refusal in a form's own error line ``errorId``, in the page's language, with the field's name first when
 * it names one of the form's (``fields``: a field's wire name -> its control's id; a path such as
 * ``rules.dragon_max_bet_cents`` by its last part): "Dragon maximum: …", the name from ``console:field.<wire
 * name>``, that control marked aria-invalid and focused. The console's own checks ({message, field}, no code)
 * name it themselves.
 */
export function refuseAt(errorId, err, fields = {}) {
  const wire = String(err?.field ?? err?.body?.field ?? "").split(".").pop();
  const id = fields[wire];
  $(errorId).textContent = id && err.code ? t("console:refusal.at_field", { field: t(`console:field.${wire}`), text: errorText(err) })
    : errorText(err);
  const control = id ? $(id) : null;
  if (!control) return;
  control.setAttribute("aria-invalid", "true");
  control.closest("details")?.setAttribute("open", "");
  control.focus();
}

/**
 * Dollar amounts typed in a form (the page's language's way: parseAmount), as cents: ``{body}`` with each
 * field's cents, or ``{error, field}`` for the first that is no amount ("The Envy minimum is a dollar amount,
 * e.g. 5, not 'x'.": ``console:check.amount.<wire name>``).
 */
export function centsFields(amounts) {
  const body = {};
  for (const [field, text] of Object.entries(amounts)) {
    const cents = parseMoney(text);
    if (cents === null) return { error: t(`console:check.amount.${field}`, { text }), field };
    body[field] = cents;
  }
  return { body };
}

/** A player's display name (marked as theirs) with the id beside it (the id alone when the name is not known). */
export function who(name, id) {
  if (!id) return "";
  return el("span", { class: "who" }, name ? userText(name, { class: "who-name" }) : null,
    el("small", { class: "hint id", text: id }));
}

/** A table cell with the column's name, shown beside the value when a narrow screen stacks the row. */
export function cell(label, attrs, ...children) {
  return el("td", { "data-label": label, ...attrs }, ...children);
}

/**
 * A way to find a button of a table row again after the rows were drawn anew (the console refreshes every
 * few seconds): the same ``data-action`` in the row with the same ``data-*`` attributes.
 */
export function finder(node) {
  const tr = node?.closest?.("tr");
  const table = node?.closest?.("table[id]");
  if (!tr || !table || !node.dataset?.action) return () => (document.contains(node) ? node : null);
  const attrs = [...tr.attributes].filter((a) => a.name.startsWith("data-"))
    .map((a) => `[${a.name}="${CSS.escape(a.value)}"]`).join("");
  const selector = `#${CSS.escape(table.id)} tr${attrs} [data-action="${CSS.escape(node.dataset.action)}"]`;
  return () => (document.contains(node) ? node : document.querySelector(selector));
}

/** Replace a table's rows (``empty``, a sentence, when there are none), keeping the keyboard focus. */
export function fillRows(tableId, rows, empty, columns) {
  const table = $(tableId);
  const focused = table.contains(document.activeElement) ? finder(document.activeElement) : null;
  table.tBodies[0].replaceChildren(...(rows.length ? rows
    : [el("tr", { class: "empty" }, el("td", { colspan: String(columns), class: "hint", text: empty }))]));
  if (focused) focused()?.focus();
}

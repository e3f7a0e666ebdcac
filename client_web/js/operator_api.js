// What the operator console's modules share: the signed-in operator, calls to /api/operator, and errors
// shown as the API says them ("INVALID_FIELD: amount_cents=0: must be ..."), codes and all, a form's in
// the form at its field.

import { api, el, parseMoney } from "./api.js";

export const $ = (id) => document.getElementById(id);

/** auth: {kind: "session" | "bootstrap", token, username}; selected: the table being managed. */
export const state = { auth: null, selected: null };

export const call = (path, opts = {}) => api(`/api/operator${path}`, { ...opts, token: state.auth?.token ?? "" });

export function when(ms) {
  return ms ? new Date(ms).toLocaleTimeString() : "";
}

export function whenLong(ms) {
  return ms ? new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "";
}

/** An error as the API gave it: "CODE: message"; the console's own checks (no code) say their message. */
export function errorText(err) {
  if (!err) return "";
  const code = typeof err.code === "string" && /^[A-Z][A-Z_]+$/.test(err.code) ? err.code : null;
  return code ? `${code}: ${err.message}` : err.message;
}

export function showError(id, err) {
  $(id).textContent = errorText(err);
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
 * A refusal in a form's own error line ``errorId``, as the API says it, with the field's name first when
 * it names one of the form's (``fields``: a field's wire name -> [its control's id, its name]; a path such
 * as ``rules.dragon_max_bet_cents`` by its last part): "Dragon maximum: INVALID_FIELD: ...", that control
 * marked aria-invalid and focused. The console's own checks ({message, field}, no code) name it themselves.
 */
export function refuseAt(errorId, err, fields = {}) {
  const [id, name] = fields[String(err?.field ?? err?.body?.field ?? "").split(".").pop()] ?? [];
  $(errorId).textContent = name && err.code ? `${name[0].toUpperCase()}${name.slice(1)}: ${errorText(err)}` : errorText(err);
  const control = id ? $(id) : null;
  if (!control) return;
  control.setAttribute("aria-invalid", "true");
  control.closest("details")?.setAttribute("open", "");
  control.focus();
}

/**
 * Dollar amounts typed in a form, as cents: ``{body}`` with each field's cents, or ``{error, field}`` for the
 * first that is no amount ("The Envy minimum is a dollar amount, e.g. 5, not 'x'."); ``words(field)`` names it.
 */
export function centsFields(amounts, words = (k) => k.replace(/_cents$/, "").replaceAll("_", " ")) {
  const body = {};
  for (const [field, text] of Object.entries(amounts)) {
    const cents = parseMoney(text);
    if (cents === null) return { error: `The ${words(field)} is a dollar amount, e.g. 5, not '${text}'.`, field };
    body[field] = cents;
  }
  return { body };
}

/** A player's display name with the id beside it (the id alone when the name is not known). */
export function who(name, id) {
  if (!id) return "";
  return el("span", { class: "who" }, name ? el("span", { class: "who-name", text: name }) : null,
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

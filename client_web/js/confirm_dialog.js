// "Are you sure?" for a player's irreversible choices (a new invite link, closing or handing over a home
// game, removing a player): what will happen, an optional choice (the bar's length), Confirm and Cancel. Focus
// moves into the dialog, stays there (Tab wraps around), and goes back to the button that opened it; Escape
// or Cancel sends nothing. A refusal of `run` is shown in the dialog, which stays open.

import { el } from "./api.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";

const FOCUSABLE = "select, button, input, [tabindex]:not([tabindex='-1'])";
let dialog = null;
let pending = null;

function build() {
  dialog = el("dialog", { id: "confirm-dialog", class: "confirm-dialog", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
    el("form", { id: "confirm-form", novalidate: true },
      el("h2", { id: "confirm-title" }),
      el("p", { id: "confirm-text" }),
      el("div", { id: "confirm-choice-row", class: "field", hidden: true },
        el("label", { for: "confirm-choice", id: "confirm-choice-label" }), el("select", { id: "confirm-choice" })),
      el("div", { id: "confirm-check-row", class: "field check-field", hidden: true },
        el("input", { type: "checkbox", id: "confirm-check" }), el("label", { for: "confirm-check", id: "confirm-check-label" })),
      el("p", { class: "field-error", id: "confirm-error", role: "alert" }),
      el("div", { class: "buttons" },
        el("button", { class: "btn secondary", type: "button", id: "confirm-cancel", text: t("common:cancel") }),
        el("button", { class: "btn danger", type: "submit", id: "confirm-ok", text: t("home:confirm.ok.button") }))));
  document.body.append(dialog);
  const $ = (id) => dialog.querySelector(`#${id}`);
  $("confirm-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!pending) return;
    $("confirm-ok").disabled = true;
    $("confirm-error").textContent = "";
    if (!$("confirm-check-row").hidden && !$("confirm-check").checked) {
      $("confirm-ok").disabled = false;
      $("confirm-error").textContent = pending.checkMissing;
      $("confirm-check").focus();
      return;
    }
    try {
      finish(await pending.run({ choice: $("confirm-choice-row").hidden ? null : $("confirm-choice").value }));
    } catch (err) {
      $("confirm-error").textContent = errorText(err?.code ? err : "NETWORK");
    } finally {
      $("confirm-ok").disabled = false;
    }
  });
  $("confirm-cancel").addEventListener("click", () => finish(null));
  dialog.addEventListener("cancel", (ev) => { ev.preventDefault(); finish(null); });
  // Closed from outside (the "Go to the table" of a clock you must act on, act_clock.js): nothing is sent.
  dialog.addEventListener("close", () => { if (pending) finish(null); });
  dialog.addEventListener("keydown", (ev) => {
    if (ev.key !== "Tab") return;
    const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((e) => e.getClientRects().length && !e.disabled);
    const [first, last] = [items[0], items[items.length - 1]];
    if (ev.shiftKey && document.activeElement === first) { ev.preventDefault(); last.focus(); }
    else if (!ev.shiftKey && document.activeElement === last) { ev.preventDefault(); first.focus(); }
  });
}

function finish(result) {
  const p = pending;
  pending = null;
  if (dialog.open) dialog.close();
  if (p) {
    p.resolve(result);
    (p.opener?.isConnected ? p.opener : document.getElementById(p.openerId))?.focus();
  }
}

/**
 * Ask before `run({choice})`: `title`, `text`, `okLabel`, `danger` (a red button), `choice` ({label,
 * options: [[value, words]], value}: a select shown in the dialog), `check` ({label, missing}: a box to tick
 * before Confirm does anything; `missing` is said when it is not ticked). Resolves with run's result, or null when
 * cancelled.
 */
export function confirmChoice({ title, text, okLabel, danger = true, choice = null, check = null, run }) {
  if (!dialog) build();
  const $ = (id) => dialog.querySelector(`#${id}`);
  const opener = document.activeElement;
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = okLabel;
  $("confirm-ok").className = danger ? "btn danger" : "btn";
  $("confirm-error").textContent = "";
  $("confirm-choice-row").hidden = !choice;
  if (choice) {
    $("confirm-choice-label").textContent = choice.label;
    $("confirm-choice").replaceChildren(...choice.options.map(([v, words]) => el("option", { value: v, text: words })));
    $("confirm-choice").value = choice.value ?? choice.options[0][0];
  }
  $("confirm-check-row").hidden = !check;
  $("confirm-check").checked = false;
  $("confirm-check-label").textContent = check?.label ?? "";
  if (pending) finish(null);
  dialog.showModal();
  (choice ? $("confirm-choice") : $("confirm-cancel")).focus();
  return new Promise((resolve) => { pending = { run, resolve, opener, openerId: opener?.id, checkMissing: check?.missing ?? "" }; });
}

// The confirmation dialog of the console's irreversible actions (void a round, kick a player): what will
// happen, a reason for the audit log and, for a kick, an optional bar from the table. Focus stays in the
// dialog (Tab and Shift+Tab wrap around), Escape or Cancel closes it and nothing is sent. The API checks
// the reason: its refusal (worded from REASON_REQUIRED, the code beside it) is shown in the dialog, which
// stays open.

import { $, errorText, finder } from "./operator_api.js";

const FOCUSABLE = "input:not([hidden]), select, button, [tabindex]:not([tabindex='-1'])";
let pending = null;

/**
 * Ask before ``run({reason, barMinutes})``: ``title``, ``text`` (what will happen), ``okLabel``, ``bar``
 * (offer the bar choice). Resolves with run's result once it succeeded, or null when cancelled.
 */
export function confirmAction({ title, text, okLabel, bar = false, run }) {
  const dialog = $("confirm-dialog");
  const opener = finder(document.activeElement);
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = okLabel;
  $("confirm-reason").value = "";
  $("confirm-reason").removeAttribute("aria-invalid");
  $("confirm-error").textContent = "";
  $("confirm-bar-row").hidden = !bar;
  $("confirm-bar").value = "";
  dialog.showModal();
  $("confirm-reason").focus();
  return new Promise((resolve) => {
    pending = { run, resolve, opener };
  });
}

function finish(result) {
  const p = pending;
  pending = null;
  if ($("confirm-dialog").open) $("confirm-dialog").close();
  if (p) {
    p.resolve(result);
    p.opener()?.focus(); // the button that opened it, or the same one drawn anew
  }
}

$("confirm-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  if (!pending) return;
  const ok = $("confirm-ok");
  ok.disabled = true;
  $("confirm-error").textContent = "";
  const minutes = $("confirm-bar").value;
  try {
    const result = await pending.run({ reason: $("confirm-reason").value, barMinutes: minutes ? Number(minutes) : null });
    finish(result);
  } catch (err) {
    $("confirm-error").textContent = errorText(err);
    $("confirm-reason").setAttribute("aria-invalid", "true");
    $("confirm-reason").focus();
  } finally {
    ok.disabled = false;
  }
});
$("confirm-cancel").addEventListener("click", () => finish(null));
$("confirm-dialog").addEventListener("cancel", (ev) => { // Escape
  ev.preventDefault();
  finish(null);
});
$("confirm-dialog").addEventListener("keydown", (ev) => {
  if (ev.key !== "Tab") return;
  const items = [...$("confirm-dialog").querySelectorAll(FOCUSABLE)].filter((e) => e.getClientRects().length && !e.disabled);
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (ev.shiftKey && document.activeElement === first) {
    ev.preventDefault();
    last.focus();
  } else if (!ev.shiftKey && document.activeElement === last) {
    ev.preventDefault();
    first.focus();
  }
});

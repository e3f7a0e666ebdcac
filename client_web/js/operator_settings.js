// The console's settings: the help notice players see at sign-in and after signing out
// (PUT /api/operator/settings {"help_notice"}, docs/http-api.md). Read when the console opens, not on every
// refresh (that would overwrite what the operator is typing); saved as typed, empty for none.

import { t } from "./i18n.js";
import { $, call, showError, unmarkOnEdit } from "./operator_api.js";

export async function loadSettings() {
  const settings = await call("/settings");
  $("help-notice-input").value = settings.help_notice ?? "";
}

$("help-notice-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("help-notice-error", null);
  $("help-notice-saved").textContent = "";
  const button = $("help-notice-save");
  button.disabled = true;
  try {
    const settings = await call("/settings", { method: "PUT", body: { help_notice: $("help-notice-input").value } });
    $("help-notice-input").value = settings.help_notice ?? "";
    $("help-notice-saved").textContent = settings.help_notice ? t("console:settings.help_notice.saved")
      : t("console:settings.help_notice.cleared");
  } catch (err) {
    showError("help-notice-error", err);
    $("help-notice-input").setAttribute("aria-invalid", "true");
  } finally {
    button.disabled = false;
  }
});
unmarkOnEdit($("help-notice-form"));

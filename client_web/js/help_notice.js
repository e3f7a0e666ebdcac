// The help notice (docs/responsible-play.md): the operator's text, shown on the lobby's sign-in screen and
// after signing out, inside the signed-out part of the account panel (so it is seen exactly when that is).
// The text is the operator's, in their words and language: set as text (never HTML), marked lang="" dir="auto".
// GET /api/responsible-play/config needs no session; asked once when the page starts and again at each
// sign-out (the server keeps it a few seconds, so this costs it nearly nothing).

import { api } from "./api.js";
import { markName } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** Show the notice in force, or hide the note when there is none (or the server is not reached). */
export async function refreshHelpNotice() {
  const box = $("help-notice");
  if (!box) return;
  let text = "";
  try {
    const config = await api("/api/responsible-play/config");
    text = config?.enabled && typeof config.help_notice === "string" ? config.help_notice.trim() : "";
  } catch { /* no notice is shown rather than an error: the page works without it */ }
  markName($("help-notice-text")).textContent = text;
  box.hidden = !text;
}

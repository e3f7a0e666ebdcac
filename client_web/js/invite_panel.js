// The invite of a home game, for its host (the lobby after creating, the table's host panel): the link with
// Copy (the clipboard, or the link selected to copy by hand) and Share (the system share sheet, where the
// browser has one: phones), the six-letter code large enough to read out, and "New link" (which ends the
// old link and code, asked first).

import { el } from "./api.js";
import { t } from "./i18n.js";
import { sentenceWith } from "./lobby_words.js";
import { confirmChoice } from "./confirm_dialog.js";
import { inviteLink } from "./home_api.js";

/** Copy `text`; true when it reached the clipboard. Falls back to the selected field and execCommand. */
async function copyText(text, field) {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* the fallback below */ }
  field.focus();
  field.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

/** The short code spelled for a screen reader: "K X M B Q T". */
const spelled = (code) => code.split("").join(" ");

/**
 * The invite panel: `invite` ({code, short_code, url}), `tableName`, `prefix` (ids: `${prefix}-link`,
 * `-copy`, `-copied`, `-share`, `-code`, `-new`), `renew()` (makes a new invite, resolves with it).
 */
export function invitePanel({ invite, tableName, prefix = "invite", renew }) {
  const link = inviteLink(invite);
  const field = el("input", { id: `${prefix}-link`, class: "invite-link", readonly: true, value: link, spellcheck: "false",
    "aria-describedby": `${prefix}-copied` });
  field.addEventListener("focus", () => field.select());
  const copied = el("span", { class: "copied", id: `${prefix}-copied`, role: "status", "aria-live": "polite" });
  let timer = null;
  const copy = el("button", { class: "btn small", type: "button", id: `${prefix}-copy`, text: t("home:invite.copy.button") });
  copy.addEventListener("click", async () => {
    const ok = await copyText(link, field);
    copied.textContent = ok ? t("home:invite.copied") : t("home:invite.copy_by_hand");
    copied.dataset.ok = ok ? "1" : "0";
    clearTimeout(timer);
    timer = setTimeout(() => { copied.textContent = ""; }, ok ? 3000 : 8000);
  });
  const share = el("button", { class: "btn small", type: "button", id: `${prefix}-share`, text: t("home:invite.share.button"), hidden: !navigator.share });
  share.addEventListener("click", async () => {
    try {
      await navigator.share({ title: tableName, text: t("home:invite.share.text", { name: tableName }), url: link });
    } catch { /* cancelled: nothing to say */ }
  });
  const renewButton = el("button", { class: "btn small secondary", type: "button", id: `${prefix}-new`, text: t("home:invite.new.button") });
  const panel = el("div", { class: "invite", id: `${prefix}-panel`, "data-invite": invite.short_code },
    el("label", { for: `${prefix}-link`, text: t("home:invite.link.label") }),
    el("div", { class: "invite-row" }, field, copy, share),
    copied,
    el("p", { class: "invite-code-line" }, ...sentenceWith("home:invite.code_line", {}, {
      code: el("strong", { class: "short-code", id: `${prefix}-code`, "aria-label": spelled(invite.short_code), text: invite.short_code }) })),
    el("p", { class: "hint", text: t("home:invite.code.hint") }),
    el("div", { class: "invite-row" }, renewButton,
      el("span", { class: "hint", text: t("home:invite.new.hint") })));
  renewButton.addEventListener("click", () => confirmChoice({
    title: t("home:invite.new.confirm.title"),
    text: t("home:invite.new.confirm.text"),
    okLabel: t("home:invite.new.confirm.button"),
    run: async () => {
      const fresh = await renew();
      panel.replaceWith(invitePanel({ invite: fresh, tableName, prefix, renew }));
      document.getElementById(`${prefix}-copy`)?.focus();
      return fresh;
    },
  }));
  return panel;
}

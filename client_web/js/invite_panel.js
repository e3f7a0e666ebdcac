// The invite of a home game, for its host (the lobby after creating, the table's host panel): the link with
// Copy (the clipboard, or the link selected to copy by hand) and Share (the system share sheet, where the
// browser has one: phones), the six-letter code large enough to read out, and "New link" (which ends the
// old link and code, asked first).

import { el } from "./api.js";
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
  const copy = el("button", { class: "btn small", type: "button", id: `${prefix}-copy`, text: "Copy link" });
  copy.addEventListener("click", async () => {
    const ok = await copyText(link, field);
    copied.textContent = ok ? "Copied ✓" : "Selected: press Ctrl+C (or long-press and Copy) to copy it";
    copied.dataset.ok = ok ? "1" : "0";
    clearTimeout(timer);
    timer = setTimeout(() => { copied.textContent = ""; }, ok ? 3000 : 8000);
  });
  const share = el("button", { class: "btn small", type: "button", id: `${prefix}-share`, text: "Share…", hidden: !navigator.share });
  share.addEventListener("click", async () => {
    try {
      await navigator.share({ title: tableName, text: `Play Pai Gow Poker with me at ${tableName}`, url: link });
    } catch { /* cancelled: nothing to say */ }
  });
  const renewButton = el("button", { class: "btn small secondary", type: "button", id: `${prefix}-new`, text: "New link" });
  const panel = el("div", { class: "invite", id: `${prefix}-panel`, "data-invite": invite.short_code },
    el("label", { for: `${prefix}-link`, text: "Invite link: send it to your friends" }),
    el("div", { class: "invite-row" }, field, copy, share),
    copied,
    el("p", { class: "invite-code-line" }, "Or read out the code: ",
      el("strong", { class: "short-code", id: `${prefix}-code`, "aria-label": spelled(invite.short_code), text: invite.short_code })),
    el("p", { class: "hint", text: "Friends type it in the lobby, under “Join with a code”." }),
    el("div", { class: "invite-row" }, renewButton,
      el("span", { class: "hint", text: "A new link ends this one and its code." })));
  renewButton.addEventListener("click", () => confirmChoice({
    title: "Make a new invite link?",
    text: "The link and the code you sent stop working at once: only the new ones let people in. Players already let in stay.",
    okLabel: "Make a new link",
    run: async () => {
      const fresh = await renew();
      panel.replaceWith(invitePanel({ invite: fresh, tableName, prefix, renew }));
      document.getElementById(`${prefix}-copy`)?.focus();
      return fresh;
    },
  }));
  return panel;
}

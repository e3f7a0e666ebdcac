// "Close account", among the lobby's account actions (`POST /api/account/close`, docs/http-api.md "Closing your
// account"): a dialog that says plainly what closing does and that it cannot be undone, asks a registered
// account's password, and asks the player to type the confirmation word. Its button stays off until the word
// is typed. A refusal is said in the dialog, which stays open; once closed, the saved session is forgotten
// and `onClosed` runs (the lobby shows it signed out, with its message).

import { api, el, forgetSession, savedSession } from "./api.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";

/** What the server asks to be typed (the same word in every language: it is the request's value). */
const WORD = "CLOSE";
let dialog = null;

const $ = (id) => dialog.querySelector(`#${id}`);

function build() {
  dialog = el("dialog", { id: "close-account-dialog", class: "confirm-dialog", "aria-labelledby": "close-account-title",
    "aria-describedby": "close-account-text" },
  el("form", { id: "close-account-form", novalidate: true },
    el("h2", { id: "close-account-title", text: t("lobby:close.title") }),
    el("p", { id: "close-account-text", text: t("lobby:close.text") }),
    el("div", { class: "field", id: "close-password-row" },
      el("label", { for: "close-password", text: t("lobby:close.password.label") }),
      el("input", { id: "close-password", type: "password", autocomplete: "current-password" })),
    el("div", { class: "field" },
      el("label", { for: "close-confirm", text: t("lobby:close.confirm.label", { word: WORD }) }),
      el("input", { id: "close-confirm", autocomplete: "off", autocapitalize: "characters", spellcheck: "false" })),
    el("p", { class: "field-error", id: "close-account-error", role: "alert" }),
    el("div", { class: "buttons" },
      el("button", { class: "btn secondary", type: "button", id: "close-account-cancel", text: t("common:cancel") }),
      el("button", { class: "btn danger", type: "submit", id: "close-account-ok", text: t("lobby:close.ok.button") }))));
  document.body.append(dialog);
  $("close-confirm").addEventListener("input", () => { $("close-account-ok").disabled = !typed(); });
  $("close-account-cancel").addEventListener("click", () => dialog.close());
}

const typed = () => $("close-confirm").value.trim().toUpperCase() === WORD;

async function submit(registered, onClosed) {
  const error = $("close-account-error");
  error.textContent = "";
  if (!typed()) return;
  const body = { confirm: WORD };
  if (registered) {
    body.password = $("close-password").value;
    if (!body.password) {
      error.textContent = errorText("PASSWORD_REQUIRED");
      $("close-password").focus();
      return;
    }
  }
  $("close-account-ok").disabled = true;
  try {
    await api("/api/account/close", { method: "POST", body, token: savedSession()?.token, quiet: true });
    forgetSession();
    dialog.close();
    onClosed();
  } catch (err) {
    // A wrong password: the dialog asked for no username, so the sign-in's words ("that username and
    // password...") would puzzle; it says the password was not right.
    error.textContent = err?.code === "BAD_CREDENTIALS" ? t("lobby:close.wrong_password") : errorText(err?.code ? err : "NETWORK");
    // The next try waits the sign-in's backoff (a second or more): the button is held that long.
    const wait = ["BAD_CREDENTIALS", "SIGN_IN_BACKOFF"].includes(err?.code) ? err.retryAfter ?? 0 : 0;
    setTimeout(() => { $("close-account-ok").disabled = !typed(); }, wait * 1000);
  }
}

function open(registered, onClosed) {
  if (!dialog) build();
  const form = $("close-account-form");
  form.onsubmit = (ev) => { ev.preventDefault(); submit(registered, onClosed); };
  form.reset();
  $("close-password-row").hidden = !registered;
  $("close-account-error").textContent = "";
  $("close-account-ok").disabled = true;
  dialog.showModal();
  (registered ? $("close-password") : $("close-confirm")).focus();
}

/** The button (secondary, in the danger colour); `onClosed` runs once the account is closed. */
export function closeAccountButton(registered, onClosed) {
  const button = el("button", { class: "btn small secondary danger-text", type: "button", id: "close-account",
    text: t("lobby:close.button") });
  button.addEventListener("click", () => open(registered, onClosed));
  return button;
}

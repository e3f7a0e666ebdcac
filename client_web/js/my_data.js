// "Download my data", among the lobby's account actions: everything the server keeps about the player
// (`GET /api/account/data`, docs/http-api.md "Your data"), fetched with the session's token and saved as a
// JSON file, and the page says the file's name. A refusal is said in the account's error line: the hourly
// limit with when the next is allowed, the server's queue being full (BUSY, the download's own words),
// anything else from its code (errors.js).

import { api, el, savedSession, saveFile } from "./api.js";
import { errorText } from "./errors.js";
import { sentenceWith } from "./lobby_words.js";
import { t, when } from "./i18n.js";

/** The file's name, as the server's attachment names it: the UTC date it was made. */
const fileName = (ms) => `paigow-data-${new Date(ms).toISOString().slice(0, 10)}.json`;

async function download(button, errorLine, status) {
  errorLine.textContent = "";
  status.textContent = "";
  button.disabled = true;
  try {
    const data = await api("/api/account/data", { token: savedSession()?.token });
    const name = fileName(data.generated_ms);
    saveFile(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }), name);
    // The browser saves it without a word on the page (a phone's download bar comes and goes): said here,
    // with the file's name, until the next click.
    status.replaceChildren(...sentenceWith("lobby:data.saved", {}, { file: el("span", { class: "file-name", text: name }) }));
  } catch (err) {
    if (err.code === "RATE_LIMITED" && err.retryAfter != null) {
      errorLine.textContent = t("lobby:data.too_often", { time: when(Date.now() + err.retryAfter * 1000) });
    } else {
      errorLine.textContent = err.code === "BUSY" ? t("lobby:data.busy") : t("lobby:data.failed", { reason: errorText(err) });
    }
  } finally {
    button.disabled = false;
  }
}

/** The button; its refusals go to `errorLine`, and what it saved to a status line just above that one. */
export function myDataButton(errorLine) {
  const button = el("button", { class: "btn small secondary", type: "button", id: "download-data",
    title: t("lobby:data.title"), text: t("lobby:data.button") });
  document.getElementById("data-saved")?.remove(); // a new account's actions start without the last one's
  const status = el("p", { class: "hint", id: "data-saved", role: "status" });
  errorLine.before(status);
  button.addEventListener("click", () => download(button, errorLine, status));
  return button;
}

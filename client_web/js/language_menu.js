// The language menu (docs/languages.md): a labelled <select> of the list's languages, each named in its own
// language (and marked with it, so a screen reader says 简体中文 in Chinese). Choosing one remembers it on
// this device and, signed in, on the account; the page then loads again in it.

import { LANGUAGES, lang, setLanguage, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** A globe drawn in SVG (no emoji font needed), hidden from screen readers: the select has the name. */
function globe() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "language-icon");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of ["M10 2a8 8 0 1 0 0 16a8 8 0 1 0 0-16", "M2 10h16", "M10 2c-3 3-3 13 0 16", "M10 2c3 3 3 13 0 16"]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

/**
 * A menu for `host` (the lobby's header, the table's header, the console's). `token` gives the session
 * whose account keeps the choice (a guest's or an operator's choice stays on the device: pass null).
 */
export function languageMenu(host, token = () => null) {
  const label = document.createElement("label");
  label.className = "language-menu";
  const icon = globe();
  const select = document.createElement("select");
  select.setAttribute("aria-label", t("common:language"));
  select.title = t("common:language.hint");
  for (const { code, name } of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === lang;
    select.append(option);
  }
  select.addEventListener("change", () => {
    select.disabled = true;
    setLanguage(select.value, token());
  });
  label.append(icon, select);
  host.append(label);
  return select;
}

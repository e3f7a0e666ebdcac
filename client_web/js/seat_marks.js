// The marks a seat shows at the showdown, each hand's against the banker's: words where there is room
// ("high won"), a letter on a phone ("high W"), each with its explanation as a title; and the legend the
// result panel shows on a phone, where a title is never seen (a finger has no hover).

import { el } from "./api.js";
import { t } from "./i18n.js";

const word = (which, mark, form) => t(`table:marks.${which}.${mark}.${form}`);

/** `MARK_WORDS[which][mark].long / .short / .title`, in the page's language. */
export const MARK_WORDS = Object.fromEntries(["high", "low"].map((which) => [which, Object.fromEntries(["win", "loss", "copy"].map((mark) => [mark, {
  get long() { return word(which, mark, "long"); },
  get short() { return word(which, mark, "short"); },
  get title() { return word(which, mark, "title"); },
}]))]));

/** The letters' meaning in one line (table.css shows it where the seats show letters). */
export function marksLegend() {
  return el("p", { class: "hint marks-legend", id: "marks-legend", text: t("table:marks.legend") });
}

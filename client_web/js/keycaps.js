// The key that does the same as a control, drawn as a key cap beside its words (the tray's buttons).

import { el } from "./api.js";
import { t } from "./i18n.js";

// The keys whose caps carry a word (a digit or a letter stays as it is).
const WORDS = { Enter: "table:key.enter", Del: "table:key.delete" };
const cap = (key) => el("kbd", { text: WORDS[key] ? t(WORDS[key]) : key });

/** The key that does the same, drawn as a key cap (``<kbd>``): hidden on touch screens (table.css) and
 * from the accessible name (the control says its key in aria-keyshortcuts). ``keys``: one key ("0",
 * "Enter") or the two ends of a range (["1", "7"]). */
export function kbd(keys) {
  const caps = Array.isArray(keys) ? [cap(keys[0]), "–", cap(keys[1])] : [cap(keys)];
  return el("span", { class: "kbd-hint", "aria-hidden": "true" }, ...caps);
}

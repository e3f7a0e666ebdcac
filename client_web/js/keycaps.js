// The key that does the same as a control, drawn as a key cap beside its words (the tray's buttons).

import { el } from "./api.js";

/** The key that does the same, drawn as a key cap (``<kbd>``): hidden on touch screens (table.css) and
 * from the accessible name (the control says its key in aria-keyshortcuts). ``keys``: one key ("0",
 * "Enter") or the two ends of a range (["1", "7"]). */
export function kbd(keys) {
  const caps = Array.isArray(keys) ? [el("kbd", { text: keys[0] }), "–", el("kbd", { text: keys[1] })] : [el("kbd", { text: keys })];
  return el("span", { class: "kbd-hint", "aria-hidden": "true" }, ...caps);
}

// A catalog sentence with elements inside it (a name in bold, an amount in a span): the sentence is translated
// whole with markers for its `{{placeholders}}`, then split there, so each language puts the element where
// its grammar wants it ("Playing as <strong>Ann</strong>", "<strong>Ann</strong>(으)로 플레이 중").

import { t } from "./i18n.js";

/** `t(key, values)` as nodes: each value of `nodes` (an Element) stands where its placeholder is. */
export function sentenceWith(key, values, nodes) {
  const marks = Object.fromEntries(Object.keys(nodes).map((name, i) => [name, `\u0001${i}\u0001`]));
  const order = Object.values(nodes);
  return t(key, { ...values, ...marks }).split(/\u0001(\d+)\u0001/).map((part, i) => (i % 2 ? order[Number(part)] : part)).filter((p) => p !== "");
}

// The marks a seat shows at the showdown, each hand's against the banker's: words where there is room
// ("high won"), a letter on a phone ("high W"), each with its explanation as a title; and the legend the
// result panel shows on a phone, where a title is never seen (a finger has no hover).

import { el } from "./api.js";

export const MARK_WORDS = {
  high: {
    win: { long: "high won", short: "high W", title: "High hand: won against the banker's" },
    loss: { long: "high lost", short: "high L", title: "High hand: lost to the banker's" },
    copy: { long: "high copy", short: "high C", title: "High hand: a copy, a tie with the banker's (copies go to the banker)" },
  },
  low: {
    win: { long: "low won", short: "low W", title: "Low hand: won against the banker's" },
    loss: { long: "low lost", short: "low L", title: "Low hand: lost to the banker's" },
    copy: { long: "low copy", short: "low C", title: "Low hand: a copy, a tie with the banker's (copies go to the banker)" },
  },
};

/** The letters' meaning in one line (table.css shows it where the seats show letters). */
export function marksLegend() {
  return el("p", { class: "hint marks-legend", id: "marks-legend",
    text: "At the seats: W won, L lost, C a copy (a tie: the banker wins it)." });
}

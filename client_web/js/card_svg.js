// Cards drawn as SVG, made here (no image files). cardSvg(card) for a face, backSvg() for a back.
// Shared gradients and patterns live once in the page (ensureCardDefs); every card is a 200 x 280 box.

import { RANK_CHARS, backLabel, cardLabel } from "./cards.js";

const NS = "http://www.w3.org/2000/svg";
const SUIT_PATHS = {
  h: "M50 90C22 68 4 50 4 31 4 15 16 5 29 5c10 0 17 6 21 14 4-8 11-14 21-14 13 0 25 10 25 26 0 19-18 37-46 59z",
  d: "M50 3 89 50 50 97 11 50z",
  s: "M50 3C36 24 6 39 6 60c0 14 11 22 23 22 9 0 15-4 18-9-1 11-5 18-13 23h32c-8-5-12-12-13-23 3 5 9 9 18 9 12 0 23-8 23-22 0-21-30-36-44-57z",
  c: "M50 6a19 19 0 0 0-17 28 19 19 0 1 0 13 31c-1 12-5 21-12 29h32c-7-8-11-17-12-29a19 19 0 1 0 13-31A19 19 0 0 0 50 6z",
};
const RED = "#c8102e";
const BLACK = "#161616";
const PIPS = {
  2: [[100, 62], [100, 218]],
  3: [[100, 62], [100, 140], [100, 218]],
  4: [[64, 62], [136, 62], [64, 218], [136, 218]],
  5: [[64, 62], [136, 62], [100, 140], [64, 218], [136, 218]],
  6: [[64, 62], [136, 62], [64, 140], [136, 140], [64, 218], [136, 218]],
  7: [[64, 62], [136, 62], [100, 101], [64, 140], [136, 140], [64, 218], [136, 218]],
  8: [[64, 62], [136, 62], [100, 101], [64, 140], [136, 140], [100, 179], [64, 218], [136, 218]],
  9: [[64, 62], [136, 62], [64, 114], [136, 114], [100, 140], [64, 166], [136, 166], [64, 218], [136, 218]],
  10: [[64, 62], [136, 62], [100, 88], [64, 114], [136, 114], [64, 166], [136, 166], [100, 192], [64, 218], [136, 218]],
};
const FACE = { 11: "J", 12: "Q", 13: "K" };
// A catalog's words inside the SVG's markup (an attribute): never markup themselves.
const attr = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function ensureCardDefs(doc = document) {
  if (doc.getElementById("pg-card-defs")) return;
  const holder = doc.createElement("div");
  holder.innerHTML = `<svg id="pg-card-defs" xmlns="${NS}" width="0" height="0" aria-hidden="true" focusable="false">
    <defs>
      <linearGradient id="pg-face" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f1ede4"/></linearGradient>
      <linearGradient id="pg-court" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#fbf3da"/><stop offset="1" stop-color="#ecd9a4"/></linearGradient>
      <linearGradient id="pg-back" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#8e1026"/><stop offset="1" stop-color="#4d0714"/></linearGradient>
      <pattern id="pg-lattice" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="16" height="16" fill="none"/>
        <path d="M0 8h16M8 0v16" stroke="#e8c46a" stroke-opacity=".35" stroke-width="1.4"/>
      </pattern>
      <radialGradient id="pg-joker" cx=".5" cy=".45" r=".6">
        <stop offset="0" stop-color="#fff7cf"/><stop offset="1" stop-color="#f2c14e"/></radialGradient>
    </defs></svg>`;
  const defs = holder.firstElementChild;
  // Set through the CSSOM: the Content Security Policy refuses style="..." in markup.
  Object.assign(defs.style, { position: "absolute", width: "0", height: "0", overflow: "hidden" });
  doc.body.prepend(defs);
}

function suitGlyph(suit, x, y, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<path d="${SUIT_PATHS[suit]}" transform="translate(${x - size / 2} ${y - size / 2}) scale(${s})${rot}"/>`;
}

function corner(rank, suit) {
  const label = rank === 10 ? "10" : RANK_CHARS[rank];
  const size = rank === 10 ? 36 : 42;
  return `<g><text x="24" y="50" text-anchor="middle" font-size="${size}" font-weight="700"
    font-family="'DejaVu Serif','Georgia',serif" letter-spacing="${rank === 10 ? -3 : 0}">${label}</text>
    ${suitGlyph(suit, 24, 74, 26)}</g>`;
}

function center(rank, suit, color) {
  if (rank === 14) return suitGlyph(suit, 100, 140, suit === "d" ? 84 : 96);
  if (FACE[rank]) {
    return `<rect x="46" y="42" width="108" height="196" rx="8" fill="url(#pg-court)" stroke="${color}" stroke-width="3"/>
      <rect x="53" y="49" width="94" height="182" rx="5" fill="none" stroke="#b48a2c" stroke-width="1.5"/>
      <path d="M70 92 78 70 90 84 100 62 110 84 122 70 130 92z" fill="#d8a934" stroke="#8a6514" stroke-width="2"/>
      <text x="100" y="170" text-anchor="middle" font-size="78" font-weight="700"
        font-family="'DejaVu Serif','Georgia',serif">${FACE[rank]}</text>
      ${suitGlyph(suit, 100, 206, 34)}`;
  }
  return PIPS[rank].map(([x, y]) => suitGlyph(suit, x, y, 38, y > 140)).join("");
}

/** The SVG markup of a face-up card. */
export function cardSvg(card) {
  if (card.joker) {
    const letters = "JOKER".split("").map((ch, i) =>
      `<text x="22" y="${42 + i * 24}" text-anchor="middle" font-size="22" font-weight="700">${ch}</text>`).join("");
    return `<svg xmlns="${NS}" viewBox="0 0 200 280" role="img" aria-label="${attr(cardLabel(card))}" class="card-svg">
      <rect x="2" y="2" width="196" height="276" rx="16" fill="url(#pg-face)" stroke="#b9b3a6" stroke-width="2"/>
      <g fill="#5a2a8a" font-family="'DejaVu Sans',sans-serif">${letters}
        <g transform="rotate(180 100 140)">${letters}</g></g>
      <circle cx="100" cy="140" r="58" fill="url(#pg-joker)" stroke="#8a6514" stroke-width="3"/>
      <path d="M100 88l14 34 37 3-28 24 9 36-32-19-32 19 9-36-28-24 37-3z" fill="#c8102e" stroke="#5a2a8a" stroke-width="3"/>
    </svg>`;
  }
  const color = card.suit === "h" || card.suit === "d" ? RED : BLACK;
  return `<svg xmlns="${NS}" viewBox="0 0 200 280" role="img" aria-label="${attr(cardLabel(card))}" class="card-svg">
    <rect x="2" y="2" width="196" height="276" rx="16" fill="url(#pg-face)" stroke="#b9b3a6" stroke-width="2"/>
    <g fill="${color}">${corner(card.rank, card.suit)}
      <g transform="rotate(180 100 140)">${corner(card.rank, card.suit)}</g>
      ${center(card.rank, card.suit, color)}</g>
  </svg>`;
}

/** The SVG markup of a card back. */
export function backSvg() {
  return `<svg xmlns="${NS}" viewBox="0 0 200 280" role="img" aria-label="${attr(backLabel())}" class="card-svg">
    <rect x="2" y="2" width="196" height="276" rx="16" fill="#fbf7ee" stroke="#b9b3a6" stroke-width="2"/>
    <rect x="12" y="12" width="176" height="256" rx="10" fill="url(#pg-back)"/>
    <rect x="12" y="12" width="176" height="256" rx="10" fill="url(#pg-lattice)"/>
    <rect x="22" y="22" width="156" height="236" rx="7" fill="none" stroke="#e8c46a" stroke-width="2" stroke-opacity=".8"/>
    <circle cx="100" cy="140" r="34" fill="#4d0714" stroke="#e8c46a" stroke-width="3"/>
    <path d="M100 114 L122 140 L100 166 L78 140 Z" fill="#e8c46a"/>
    <path d="M100 126 L111 140 L100 154 L89 140 Z" fill="#4d0714"/>
  </svg>`;
}

/**
 * A card element. `card` null = face down. Face-up cards carry data-card (their text); backs never do.
 * opts.button makes it a focusable toggle button.
 */
export function cardElement(card, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = `card ${card ? "face" : "back"}${opts.className ? ` ${opts.className}` : ""}`;
  if (opts.button) el.type = "button";
  if (card) {
    el.dataset.card = card.text;
    el.innerHTML = cardSvg(card);
    el.setAttribute("aria-label", cardLabel(card));
  } else {
    el.innerHTML = backSvg();
    el.setAttribute("aria-label", backLabel());
  }
  if (!opts.button) el.setAttribute("role", "img");
  return el;
}

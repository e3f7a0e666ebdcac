// Table sounds synthesised with Web Audio (no files): chips, cards, dice, your turn, the tick of your
// clock's last seconds, a win, a loss, a big moment (a Fortune hit, an Envy payment). On by default at the
// table, with a mute this browser remembers; nothing plays, and no AudioContext exists, before the player
// has touched, clicked or keyed the page (browsers allow no sound earlier). Each sound played is also said
// on the document as a "paigow:sound" event (detail: its name), for whoever listens.

import { t } from "./i18n.js";

const KEY = "paigow.sound"; // "0": muted; anything else (or nothing yet): sound on
let ctx = null;
let installed = false; // the table page turned sound on (the practice page plays none)
let touched = false; // the player touched, clicked or keyed this page (a real input event, not a script's)

const muted = () => localStorage.getItem(KEY) === "0";

function wake() {
  if (muted() || !touched) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
  } catch {
    /* sound is a nicety */
  }
}

function drawButton(button) {
  const off = muted();
  button.setAttribute("aria-pressed", off ? "true" : "false");
  button.title = off ? t("table:sound.muted.title") : t("table:sound.mute.title");
  button.classList.toggle("muted", off);
}

/** Sound on at this page (unless muted), from the player's first touch, click or key; `button` the mute. */
export function installSound(button) {
  installed = true;
  const gesture = (ev) => {
    if (!ev.isTrusted) return;
    touched = true;
    wake();
  };
  for (const type of ["pointerdown", "keydown", "touchend"]) addEventListener(type, gesture, { capture: true, passive: true });
  drawButton(button);
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, muted() ? "1" : "0");
    drawButton(button);
    wake();
  });
  // Muted or not in another tab of this browser: this one follows.
  addEventListener("storage", (ev) => { if (ev.key === KEY) drawButton(button); });
}

function tone(freq, dur, type = "sine", gain = 0.08, when = 0) {
  const t = ctx.currentTime + when;
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t);
  g.gain.setValueAtTime(gain, t);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  o.connect(g).connect(ctx.destination);
  o.start(t);
  o.stop(t + dur);
}

function noise(dur, gain = 0.05) {
  const len = Math.floor(ctx.sampleRate * dur);
  const buf = ctx.createBuffer(1, len, ctx.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / len);
  const src = ctx.createBufferSource();
  const g = ctx.createGain();
  g.gain.value = gain;
  src.buffer = buf;
  src.connect(g).connect(ctx.destination);
  src.start();
}

const SOUNDS = {
  chip: () => { tone(2400, 0.05, "triangle", 0.06); tone(3100, 0.04, "triangle", 0.04, 0.03); },
  card: () => noise(0.06, 0.06),
  dice: () => noise(0.03, 0.04),
  // Your turn (to bet, to set your hand, to answer the bank): a rising bell of two notes.
  turn: () => { tone(740, 0.22, "sine", 0.09); tone(1109, 0.3, "sine", 0.08, 0.12); },
  win: () => [523, 659, 784, 1046].forEach((f, i) => tone(f, 0.18, "triangle", 0.07, i * 0.09)),
  loss: () => { tone(330, 0.18, "sine", 0.06); tone(220, 0.35, "sine", 0.06, 0.16); },
  // A Fortune hit or an Envy payment: a longer run up, then a shimmer.
  big: () => {
    [523, 659, 784, 1046, 1319, 1568].forEach((f, i) => tone(f, 0.22, "triangle", 0.07, i * 0.08));
    [2093, 2637, 3136].forEach((f, i) => tone(f, 0.5, "sine", 0.03, 0.5 + i * 0.06));
  },
  alert: () => { tone(880, 0.12, "square", 0.03); tone(660, 0.12, "square", 0.03, 0.14); },
  // Your clock's last seconds.
  tick: () => tone(1320, 0.05, "square", 0.025),
};

export function play(name) {
  if (!installed || muted() || !touched || !SOUNDS[name]) return;
  try {
    wake();
    if (!ctx) return;
    SOUNDS[name]();
    document.dispatchEvent(new CustomEvent("paigow:sound", { detail: name }));
  } catch {
    /* sound is a nicety */
  }
}

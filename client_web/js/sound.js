// Table sounds synthesised with Web Audio (no files): chips, cards, dice, win, alert, and the tick of a
// deadline's last seconds. Off by default.

let ctx = null;
let enabled = false;

export function setSound(on) {
  enabled = on;
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

export function play(name) {
  if (!enabled) return;
  try {
    ctx ??= new AudioContext();
    switch (name) {
      case "chip": tone(2400, 0.05, "triangle", 0.06); tone(3100, 0.04, "triangle", 0.04, 0.03); break;
      case "card": noise(0.06, 0.06); break;
      case "dice": noise(0.03, 0.04); break;
      case "win": [523, 659, 784, 1046].forEach((f, i) => tone(f, 0.18, "triangle", 0.07, i * 0.09)); break;
      case "loss": tone(220, 0.3, "sine", 0.06); break;
      case "alert": tone(880, 0.12, "square", 0.03); tone(660, 0.12, "square", 0.03, 0.14); break;
      case "tick": tone(1320, 0.05, "square", 0.025); break;
      default: break;
    }
  } catch {
    /* sound is a nicety */
  }
}

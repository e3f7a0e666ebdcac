// The server's clock, as this page can know it: every snapshot and patch carries `server_ms`, the server's
// clock when it wrote the frame. The browser's clock may be off by seconds (or hours); deadlines are on the
// server's clock. The offset kept is the least (local - server) of the last samples: the skew plus the
// shortest delivery time, so a countdown never shows more time than the server will give.

const KEPT = 20;
const samples = [];
let offset = 0;

/** A frame's server_ms, read when the frame arrived. */
export function noteServerTime(serverMs, localMs = Date.now()) {
  if (typeof serverMs !== "number" || !Number.isFinite(serverMs)) return;
  samples.push(localMs - serverMs);
  if (samples.length > KEPT) samples.shift();
  offset = Math.min(...samples);
}

/** Now, on the server's clock (ms since the epoch). */
export function serverNow() {
  return Date.now() - offset;
}

// A WebSocket that reconnects by itself with backoff, says hello again with the last version it saw,
// and matches answers to commands by id. It knows nothing of the game: messages are plain objects.

import { t } from "./i18n.js";
import { errorText } from "./errors.js";

/** A command's refusal in the page's language: the server's by its code (errors.js), this page's own (not
 * connected, no answer in time, the connection dropped: `local`) from the table's catalog. */
export function commandErrorText(err) {
  const local = { not_connected: "table:socket.not_connected", timeout: "table:socket.timeout", dropped: "table:socket.dropped" }[err?.local];
  return local ? t(local) : errorText(err);
}

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_MS = 25000; // keeps idle proxies from closing a quiet table's connection

export class ReconnectingSocket {
  /**
   * @param {object} o
   * @param {() => string} o.url          the ws:// address (called on every attempt)
   * @param {() => object|null} o.hello    the first message after each (re)connection
   * @param {(msg: object) => void} o.onMessage
   * @param {(status: string, detail: object) => void} o.onStatus   "connecting" | "open" | "closed" | "stopped"
   * @param {(code: number) => boolean} [o.isFatal]  close codes after which it must not reconnect
   */
  constructor(o) {
    this.o = o;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.counter = 0;
    this.pending = new Map();
    this.pinger = null;
  }

  start() {
    this.stopped = false;
    this.#open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000, "bye");
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a command; resolves with the server's acceptance, rejects with its error (or when offline). */
  command(msg) {
    if (!this.isOpen) {
      return Promise.reject({ code: "DISCONNECTED", local: "not_connected", message: "Not connected to the table: wait a moment." });
    }
    this.counter += 1;
    const id = `c${Date.now().toString(36)}${this.counter}`;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject({ code: "TIMEOUT", local: "timeout", message: "The table did not answer in time: try again." });
      }, 10000);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  /** Send a message that needs no answer (pings). */
  send(msg) {
    if (this.isOpen) this.ws.send(JSON.stringify(msg));
  }

  #open() {
    this.o.onStatus("connecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.o.url());
    } catch (err) {
      this.#schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      const hello = this.o.hello();
      if (hello) ws.send(JSON.stringify(hello));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
      this.o.onStatus("open", {});
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      const id = msg.id ?? msg.command_id ?? null;
      if (id && this.pending.has(id) && (msg.type === "accepted" || msg.type === "error")) {
        const p = this.pending.get(id);
        this.pending.delete(id);
        clearTimeout(p.timer);
        if (msg.type === "accepted") p.resolve(msg);
        else p.reject(msg);
      }
      this.o.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pinger);
      for (const p of this.pending.values()) {
        clearTimeout(p.timer);
        p.reject({ code: "DISCONNECTED", local: "dropped", message: "The connection dropped before the table answered." });
      }
      this.pending.clear();
      if (this.stopped) return;
      if (this.o.isFatal && this.o.isFatal(ev.code)) {
        this.stopped = true;
        this.o.onStatus("stopped", { code: ev.code, reason: ev.reason });
        return;
      }
      this.o.onStatus("closed", { code: ev.code, reason: ev.reason });
      this.#schedule();
    };
  }

  #schedule() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    const delay = base / 2 + Math.random() * base;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.#open(), delay);
  }
}

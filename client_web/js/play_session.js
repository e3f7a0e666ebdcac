// The play session on the table page (docs/responsible-play.md): the header's strip "42 min · +$35.00" (the
// time since the player first sat down anywhere, counted here from the server's `started_ms`, and the net
// the server says: wins less losses, side bets and commission included), on by default, one tap hides it
// and one brings it back (remembered on this device); and the reality check's card (reality_check.js).

import { locale, money, number, t } from "./i18n.js";
import { serverNow } from "./clock.js";

const KEY = "paigow.sessionBar"; // "0": hidden by the player; anything else: shown
const MINUTE = 60_000;

// The strip's length in the language's own short units ("6 min", "1 hr, 6 min", "1 giờ, 6 phút"): never
// "0:06", which reads as minutes and seconds. Intl.DurationFormat where the browser has it, else the hours'
// and the minutes' units (Intl.NumberFormat) listed as units are (Intl.ListFormat).
const DURATION = typeof Intl.DurationFormat === "function" ? new Intl.DurationFormat(locale, { style: "short", minutesDisplay: "always" }) : null;
const UNITS = ["hour", "minute"].map((unit) => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short" }));
const UNIT_LIST = new Intl.ListFormat(locale, { type: "unit", style: "narrow" });

/** A session's length as the strip writes it: "0 min", "6 min", "1 hr, 6 min", "2 hr, 0 min" (whole minutes). */
export function elapsedShort(ms) {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  const hours = Math.floor(minutes / 60);
  const parts = hours ? { hours, minutes: minutes % 60 } : { minutes };
  if (DURATION) return DURATION.format(parts);
  const [hourUnit, minuteUnit] = UNITS;
  return UNIT_LIST.format([...(hours ? [hourUnit.format(hours)] : []), minuteUnit.format(parts.minutes)]);
}

/** A session's length in words: "42 min", "1 h 5 min". */
export function durationText(ms) {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  return minutes >= 60 ? t("table:play.duration.hours", { hours: number(Math.floor(minutes / 60)), minutes: number(minutes % 60) })
    : t("table:play.duration.minutes", { minutes: number(minutes) });
}

/** The strip in `button` (table/index.html's #session-strip); its `onMessage` takes `play_session`, and
 * `changed()` follows each one (the figures changed: a round settled). */
export function installPlaySession(button, { changed = () => {} } = {}) {
  const text = button.querySelector(".session-text");
  let session = null;
  let hidden = localStorage.getItem(KEY) === "0";
  function render() {
    button.hidden = !session;
    if (!session) return;
    const net = money(session.net_cents, { sign: true });
    const elapsed = serverNow() - session.started_ms;
    const words = `${elapsedShort(elapsed)} · ${net}`;
    if (text.textContent !== words) text.textContent = words;
    button.classList.toggle("collapsed", hidden);
    button.classList.toggle("down", session.net_cents < 0);
    button.classList.toggle("up", session.net_cents > 0);
    button.setAttribute("aria-pressed", String(!hidden));
    button.title = t(hidden ? "table:play.strip.show" : "table:play.strip.hide");
    // Shown, its name is what it shows (a name that did not contain it would not match what a person sees
    // and says to a voice control); folded to its icon, the name says what a tap brings back.
    if (hidden) button.setAttribute("aria-label", t("table:play.strip.show"));
    else button.removeAttribute("aria-label");
  }
  button.addEventListener("click", () => {
    hidden = !hidden;
    localStorage.setItem(KEY, hidden ? "0" : "1");
    render();
  });
  setInterval(render, 5_000); // the minutes tick here; the figures come from the server
  return {
    onMessage(msg) {
      if (msg.type !== "play_session") return false;
      session = msg.started_ms == null ? null : msg;
      render();
      changed();
      return true;
    },
  };
}

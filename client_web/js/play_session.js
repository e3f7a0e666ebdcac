// The play session on the table page (docs/responsible-play.md): the header's strip "42 min · +$35.00" (the
// time since the player first sat down anywhere, counted here from the server's `started_ms`, and the net
// the server says: wins less losses, side bets and commission included), on by default, one tap hides it
// and one brings it back (remembered on this device); and the reality check's card (reality_check.js).

import { locale, money, t } from "./i18n.js";
import { serverNow } from "./clock.js";

const KEY = "paigow.sessionBar"; // "0": hidden by the player; anything else: shown
const MINUTE = 60_000;

// A session's length in the language's own units ("6 min", "1 hr, 6 min", "1 giờ, 6 phút"): never "0:06",
// which reads as minutes and seconds. Intl.DurationFormat where the browser has it, else the hours' and the
// minutes' units (Intl.NumberFormat) listed as units are (Intl.ListFormat). On a phone the strip takes the
// narrow units ("6m", "1h 6m"), so the table's limits beside it stay whole.
const PHONE = matchMedia("(max-width: 760px)"); // responsible.css: the strip on the header's second line
function formatter(style) {
  if (typeof Intl.DurationFormat === "function") {
    const duration = new Intl.DurationFormat(locale, { style, minutesDisplay: "always" });
    return (parts) => duration.format(parts);
  }
  const [hour, minute] = ["hour", "minute"].map((unit) => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: style }));
  const list = new Intl.ListFormat(locale, { type: "unit", style: "narrow" });
  return ({ hours, minutes }) => list.format([...(hours ? [hour.format(hours)] : []), minute.format(minutes)]);
}
const SHORT = formatter("short");
const NARROW = formatter("narrow");

/** A session's length: "0 min", "6 min", "1 hr, 6 min", "2 hr, 0 min" (whole minutes); `narrow`: "6m". */
export function elapsedShort(ms, { narrow = false } = {}) {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  const hours = Math.floor(minutes / 60);
  return (narrow ? NARROW : SHORT)(hours ? { hours, minutes: minutes % 60 } : { minutes });
}

/** A session's length in words (History, the reality check): the strip's own on a wider screen. */
export const durationText = (ms) => elapsedShort(ms);

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
    const words = `${elapsedShort(elapsed, { narrow: PHONE.matches })} · ${net}`;
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

// What a home game and the waiting list did, in words (the events of docs/protocol.md, "Private tables and
// the waiting list"): seat requests and their answers, the waiting list and its offers, the host role
// changing hands, the host away and back, the settings, a mute, an idle table. Same shape as explain.js:
// [{text, mine, kind, say, untilSeated}] — `mine`: shown on this viewer's screen; `say`: told to screen
// readers too; `untilSeated`: it asks the viewer to sit, so it ends when they do (table_app.js).

import { el } from "./api.js";
import { untilText } from "./home_api.js";
import { has, number, t } from "./i18n.js";

/** The sentence of a settings change: seating and watching together (one sentence per pair). */
function settingsText(ev) {
  const key = `home:event.settings.${ev.seating}.${ev.spectators}`;
  return has(key) ? t(key) : t("home:event.settings.other");
}

/** `me`: this connection's player id (null when watching); `nameOf(playerId)`: a player's name, or null. */
export function describeHomeEvents(events, view, me, nameOf) {
  const out = [];
  const host = Boolean(me) && view.home?.host_player_id === me;
  const say = (text, mine = false, kind = "info", aloud = mine, untilSeated = false) => out.push({ text, mine, kind, say: aloud, untilSeated });
  const hostName = view.home?.host_name ?? t("home:someone.the_host");
  for (const ev of events) {
    const isMe = Boolean(me) && ev.player_id === me;
    // Never "undefined" or "null" in a sentence: a player whose name this page never saw is "a player".
    const known = ev.name ?? (ev.player_id ? nameOf(ev.player_id) : null);
    const name = known ?? t("home:someone.start");
    const other = known ?? t("home:someone");
    switch (ev.kind) {
      case "seat_requested":
        if (host) say(t("home:event.seat_requested", { name }), false, "info", true); // the tray's panel shows it
        break;
      case "seat_request_approved":
        if (isMe) say(t("home:event.approved.you"), true, "ok", true, true);
        else if (host) say(t("home:event.approved.host", { name: other }));
        break;
      case "seat_request_denied":
        if (isMe) say(t("home:event.denied.you"), true, "warn");
        break;
      case "seat_request_cancelled":
        if (host) say(t("home:event.request_cancelled", { name }), false, "info", true); // logged and said, not left on screen
        break;
      case "waitlist_joined":
        if (isMe) say(t("home:event.waitlist_joined"), false, "info", true);
        break;
      case "waitlist_left":
        if (isMe && ev.reason === "offer_expired") say(t("home:event.offer_expired"), true, "warn");
        else if (isMe && ev.reason === "removed") say(t("home:event.waitlist_removed"), true, "warn");
        break;
      case "seat_offered": {
        const secs = Math.round((ev.duration_ms ?? 30000) / 1000);
        if (isMe) say(t("home:event.seat_offered", { seat: number(ev.seat), count: secs, n: number(secs) }), true, "warn", true, true);
        break;
      }
      case "host_changed":
        if (isMe) say(ev.reason === "grace_ended" ? t("home:event.host_changed.you_grace") : t("home:event.host_changed.you"), true, "ok");
        else say(t("home:event.host_changed.other", { name }), true);
        break;
      case "host_away":
        if (!host) say(ev.until_ms ? t("home:event.host_away.until", { host: hostName, when: untilText(ev.until_ms) }) : t("home:event.host_away.soon", { host: hostName }));
        break;
      case "host_back": say(t("home:event.host_back", { host: hostName })); break;
      case "home_settings_changed":
        say(settingsText(ev), !host);
        break;
      case "player_muted":
        // The host's own panel shows the mute (its tag and button); the muted player is told once.
        if (isMe) say(ev.muted ? t("home:event.muted.you") : t("home:event.unmuted.you"), true, ev.muted ? "warn" : "ok");
        else if (host) say(ev.muted ? t("home:event.muted.host", { name: other }) : t("home:event.unmuted.host", { name: other }));
        break;
      case "table_idle":
        say(t("home:event.table_idle"));
        break;
      default: break;
    }
  }
  return out;
}

/** The header's words for a home game, in `tag`: "Your home game" to its host, "Home game · host Ann" to the
 * others. "Your home game" and "Home game" always whole (home.css); only the host's name may be cut short,
 * the whole in the title. */
export function showHomeTag(tag, view, me) {
  const mine = view.home.host_player_id === me;
  const word = mine ? t("home:tag.mine") : t("home:tag.word");
  const hostText = mine ? null : t("home:tag.host", { name: view.home.host_name });
  // The title is the two parts as shown: what an ellipsis cuts of the second is read whole there.
  const words = hostText ? `${word} ${hostText}` : word;
  if (tag.title === words) return;
  tag.replaceChildren(el("span", { class: "home-word", text: word }),
    ...(hostText ? [" ", el("span", { class: "home-host", text: hostText })] : []));
  tag.title = words;
}

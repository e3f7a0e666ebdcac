// What a home game and the waiting list did, in words (the events of docs/protocol.md, "Private tables and
// the waiting list"): seat requests and their answers, the waiting list and its offers, the host role
// changing hands, the host away and back, the settings, a mute, an idle table. Same shape as explain.js:
// [{text, mine, kind, say, untilSeated}] — `mine`: shown on this viewer's screen; `say`: told to screen
// readers too; `untilSeated`: it asks the viewer to sit, so it ends when they do (table_app.js).

import { el } from "./api.js";
import { untilText } from "./home_api.js";

const SEATING = { open: "anyone with the link sits", approval: "the host lets each player in" };
const WATCHING = { link: "anyone with the link may watch", none: "nobody may watch" };

/** `me`: this connection's player id (null when watching); `nameOf(playerId)`: a player's name, or null. */
export function describeHomeEvents(events, view, me, nameOf) {
  const out = [];
  const host = Boolean(me) && view.home?.host_player_id === me;
  const say = (text, mine = false, kind = "info", aloud = mine, untilSeated = false) => out.push({ text, mine, kind, say: aloud, untilSeated });
  for (const ev of events) {
    const isMe = Boolean(me) && ev.player_id === me;
    // Never "undefined" or "null" in a sentence: a player whose name this page never saw is "a player".
    const known = ev.name ?? (ev.player_id ? nameOf(ev.player_id) : null);
    const name = known ?? "A player";
    switch (ev.kind) {
      case "seat_requested":
        if (host) say(`${name} asks to sit: approve or deny.`, false, "info", true); // the tray's panel shows it
        break;
      case "seat_request_approved":
        if (isMe) say("The host let you in: choose a seat.", true, "ok", true, true);
        else if (host) say(`You let ${known ?? "a player"} in.`);
        break;
      case "seat_request_denied":
        if (isMe) say("The host did not let you in this time. You may keep watching, or ask again.", true, "warn");
        break;
      case "seat_request_cancelled":
        if (host) say(`${name} withdrew the request to sit.`, false, "info", true); // logged and said, not left on screen
        break;
      case "waitlist_joined":
        if (isMe) say("You are on the waiting list.", false, "info", true);
        break;
      case "waitlist_left":
        if (isMe && ev.reason === "offer_expired") say("The seat offered to you was not taken in time: it goes to the next in line.", true, "warn");
        else if (isMe && ev.reason === "removed") say("The host took you off the waiting list.", true, "warn");
        break;
      case "seat_offered":
        if (isMe) say(`Seat ${ev.seat} is free for you: take it within ${Math.round((ev.duration_ms ?? 30000) / 1000)} seconds.`, true, "warn", true, true);
        break;
      case "host_changed":
        if (isMe) say(ev.reason === "grace_ended" ? "The host did not come back: you are the host now." : "You are the host now: the Host button opens your controls.", true, "ok");
        else say(`${name} is the host now.`, true);
        break;
      case "host_away":
        if (!host) say(`${view.home?.host_name ?? "The host"} left: if they are not back${ev.until_ms ? ` by ${untilText(ev.until_ms)}` : " soon"}, the player seated longest becomes the host.`);
        break;
      case "host_back": say(`${view.home?.host_name ?? "The host"} is back.`); break;
      case "home_settings_changed":
        say(`The host changed the table: ${SEATING[ev.seating] ?? ev.seating}; ${WATCHING[ev.spectators] ?? ev.spectators}.`, !host);
        break;
      case "player_muted":
        // The host's own panel shows the mute (its tag and button); the muted player is told once.
        if (isMe) say(ev.muted ? "The host muted you in the table's chat: you can read it, not post." : "The host unmuted you: you may chat again.", true, ev.muted ? "warn" : "ok");
        else if (host) say(`You ${ev.muted ? "muted" : "unmuted"} ${known ?? "a player"} in the table's chat.`);
        break;
      case "table_idle":
        say("Nobody is seated: the table closes by itself after a while unless someone sits down.");
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
  const words = mine ? "Your home game" : `Home game · host ${view.home.host_name}`;
  if (tag.title === words) return;
  tag.replaceChildren(el("span", { class: "home-word", text: mine ? words : "Home game" }),
    ...(mine ? [] : [el("span", { class: "home-host", text: ` · host ${view.home.host_name}` })]));
  tag.title = words;
}

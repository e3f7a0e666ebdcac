// The words of a home game's own chips (docs/home-games.md, "The game's own chips"), in one place: the create
// form's chip group, the buy-in and rebuy dialogs, the waiting line, the host's requests and corrections, the
// Ledger panel, the settle-up, and the chip events as the table's log and live region say them. Money, times
// and counts go through Intl (a languages issue follows: every sentence is whole here, never pieced together
// elsewhere).

const LOCALE = document.documentElement.lang || "en-US";
const CURRENCY = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD" });
const SIGNED = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD", signDisplay: "exceptZero" });
const TIME = new Intl.DateTimeFormat(LOCALE, { hour: "numeric", minute: "2-digit" });
const DAY_TIME = new Intl.DateTimeFormat(LOCALE, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const PLURAL = new Intl.PluralRules(LOCALE);

/** "$100.00" (integer cents in, Intl's currency out). */
export const cash = (cents) => CURRENCY.format(cents / 100);
const WHOLE = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD", maximumFractionDigits: 0 });
/** "$10,000" for whole dollars, else "$12.50": a bound as people say it. */
const bound = (cents) => (cents % 100 === 0 ? WHOLE.format(cents / 100) : cash(cents));
/** "+$12.50", "-$12.50", "$0.00": a net. */
export const signedCash = (cents) => SIGNED.format(cents / 100);
/** A ledger line's time: "2:05 PM" today, "Dec 5, 2:05 PM" another day; "—" while the table has not stamped it. */
export function lineTime(ms) {
  if (ms == null) return "—";
  const d = new Date(ms);
  return d.toDateString() === new Date().toDateString() ? TIME.format(d) : DAY_TIME.format(d);
}
const count = (n, one, other) => (PLURAL.select(n) === "one" ? one : other).replace("{n}", n.toLocaleString(LOCALE));

/** The lobby's create form: its checks and the server's refusals of a `chips.*` field. */
export const FORM = {
  buyIn: "Enter the buy-in in dollars, e.g. 100.",
  min: "Enter the smallest buy-in in dollars, e.g. 20.",
  max: "Enter the largest buy-in in dollars, e.g. 500.",
  minAbove: (min, def) => `The smallest buy-in (${cash(min)}) is above the buy-in (${cash(def)}).`,
  maxBelow: (max, def) => `The largest buy-in (${cash(max)}) is below the buy-in (${cash(def)}).`,
  cap: (cap) => `Too high: the most this server allows for a buy-in is ${bound(cap)}.`,
  belowMinBet: (minBet) => `A buy-in must cover the table’s minimum bet of ${cash(minBet)}.`,
  capHint: (cap) => `At most ${bound(cap)} on this server.`,
  capHintUnknown: "At most this server’s bound for a buy-in.",
};

/** The buy-in dialog (sitting at a chips game) and the rebuy dialog. */
export const BUY_IN = {
  title: (seat) => `Buy in at seat ${seat}`,
  takeTitle: (seat) => `Take seat ${seat}: buy in`,
  rebuyTitle: "Rebuy",
  label: "Buy-in (the game’s chips)",
  rebuyLabel: "Rebuy (more of the game’s chips)",
  bounds: (min, max) => `From ${cash(min)} to ${cash(max)}.`,
  askHost: (host) => `${host} approves each buy-in; your seat is held meanwhile. These are the game’s own chips: your casino balance is not touched.`,
  atOnce: "Approved at once. These are the game’s own chips: your casino balance is not touched.",
  rebuyAskHost: (host) => `${host} approves it. Between rounds the chips land at once; in a round they land when it ends.`,
  rebuyAtOnce: "Approved at once. Between rounds the chips land at once; in a round they land when it ends.",
  send: "Ask for the buy-in",
  sendAuto: "Buy in",
  sendRebuy: "Ask for the rebuy",
  sendRebuyAuto: "Rebuy",
  notAmount: "Enter the amount in dollars, e.g. 100.",
  outside: (cents, min, max) => `${cash(cents)} is not between ${cash(min)} and ${cash(max)}.`,
  rebuyButton: "Rebuy",
  rebuyButtonLabel: "Rebuy: ask for more chips",
};

/** The line a player sees while their buy-in or rebuy waits for the host. */
export const WAITING = {
  buyIn: (host, cents) => `Waiting for ${host} to approve your ${cash(cents)} buy-in`,
  rebuy: (host, cents) => `Waiting for ${host} to approve your ${cash(cents)} rebuy`,
  rebuyLands: (cents) => `Your ${cash(cents)} rebuy is approved: the chips land when this round ends`,
  seatHeld: (seat) => `Seat ${seat} is held for you meanwhile. You can watch.`,
  cancel: "Cancel",
  cancelLabel: ["Cancel the buy-in", "Cancel the rebuy"],
  heldPlate: "held: buy\u2011in", // a non-breaking hyphen: the plate never breaks "buy- / in"
  heldFor: (name) => `held for ${name}'s buy-in`,
};

/** The host's requests (the tray's panel), settings and corrections (the Host dialog). */
export const HOST = {
  requestsTitle: (n) => count(n, "{n} chip request waits", "{n} chip requests wait"),
  buyInAsk: (name, cents, seat) => `${name} asks for a ${cash(cents)} buy-in at seat ${seat}`,
  rebuyAsk: (name, cents) => `${name} asks for a ${cash(cents)} rebuy`,
  rebuyLands: (name, cents) => `${name}'s ${cash(cents)} rebuy lands when this round ends`,
  amountLabel: (name) => `Amount for ${name} ($)`,
  badAmount: "Enter the amount in dollars, e.g. 100.",
  badAmounts: "Enter each amount in dollars, e.g. 100, 20 and 500.",
  approve: "Approve",
  approveLabel: (name) => `Approve ${name}'s chips`,
  deny: "Deny",
  denyLabel: (name) => `Deny ${name}'s chips`,
  chipsSection: "Chips",
  autoApprove: "Approve buy-ins automatically",
  rebuys: "Rebuys allowed",
  defaultLabel: "Buy-in ($)",
  minLabel: "Smallest ($)",
  maxLabel: "Largest ($)",
  save: "Save chips",
  saved: "Saved.",
  capHint: (cap) => `The largest buy-in may be up to ${bound(cap)}.`,
  adjust: "Adjust chips…",
  adjustLabel: (name) => `Adjust chips for ${name}`,
  adjustTitle: (name) => `Adjust ${name}'s chips`,
  adjustText: (name, stack) => `${name} has ${cash(stack)}. A correction is a line of the ledger everyone at the game sees, with your reason.`,
  add: "Add chips",
  takeBack: "Take chips back",
  adjustAmount: "Amount ($)",
  reason: "Reason (everyone sees it)",
  reasonMissing: "Say why, in a few words: everyone at the game reads it in the ledger.",
  adjustOk: "Record the correction",
  adjustMost: (cents) => `At most ${cash(cents)}.`,
  cancel: "Cancel",
};

/** The Ledger panel. */
export const LEDGER = {
  button: "Ledger",
  title: "Ledger",
  close: "Close",
  players: "Players",
  player: "Player",
  buyIns: "Bought in",
  stack: "Stack",
  net: "Net",
  cashedOut: (cents) => `${cash(cents)} cashed out earlier`,
  cashedOutWord: "cashed out",
  atTable: "at the table",
  nobody: "Nobody has bought in yet.",
  lines: "Every line",
  time: "Time",
  what: "What",
  amount: "Amount",
  approvedLine: (who) => `Approved by: ${who}`,
  kinds: {
    buy_in: (l) => `${l.name} bought in`,
    rebuy: (l) => `${l.name} rebought`,
    add: (l) => `${l.by_name ?? "The host"} added chips to ${l.name}: “${l.reason ?? ""}”`,
    take_back: (l) => `${l.by_name ?? "The host"} took chips back from ${l.name}: “${l.reason ?? ""}”`,
    cash_out: (l) => `${l.name} cashed out`,
  },
  /** Who approved a buy-in or rebuy ("" for a correction, which names its maker, and a cash-out). */
  // The host's own buy-in is approved at once (the host's own); another while "approve automatically" is on
  // is the game's; else the host who answered.
  approvedBy: (l) => (!["buy_in", "rebuy"].includes(l.kind) ? ""
    : l.by_player_id && l.by_player_id === l.player_id ? `${l.by_name ?? "the host"} (the host’s own)`
      : l.automatic ? "the game, automatically" : l.by_name ?? ""),
  house: (cents) => `The house dealer’s result: ${signedCash(cents)}`,
  commission: (cents) => `The commission pot: ${cash(cents)}`,
  totals: (issued, stacks, out) => `Issued ${cash(issued)} · at the table ${cash(stacks)} · cashed out ${cash(out)}`,
  balanced: "Balanced: every chip issued is at the table or cashed out",
  unbalanced: "Not balanced: tell the table’s operator",
  downloads: "Download",
  ledgerCsv: "Ledger (CSV)",
  ledgerJson: "Ledger (JSON)",
  handsCsv: "Hand log (CSV)",
  handsJson: "Hand log (JSON)",
  downloadFailed: (what, why) => `The ${what} could not be downloaded: ${why}`,
  settleTitle: "Settle up",
  totalsTitle: "What each one’s payments add up to",
  settleNone: "Nobody owes anybody: everyone is even.",
  settleWaits: "Once the host closes the game, the fewest payments that settle everyone show here.",
  pays: (from, to, cents) => `${from} pays ${to} ${cash(cents)}`,
  paysOut: (name, cents) => `${name} pays ${cash(cents)} in all`,
  getsIn: (name, cents) => `${name} gets ${cash(cents)} in all`,
  even: (name) => `${name} is even`,
  party: { house: "House", commission: "Commission pot" },
  closedNote: "The game is closed: this ledger stays here for everyone who played.",
  open: "Open the ledger",
  lobby: "Back to the lobby",
};

/** The header's money at a chips game: the stack is the player's money there. */
export const HEADER = { stack: "stack " };
/** The seat's options at a chips game: "Seat 2 · stack $80.00". */
export const seatStack = (seat, cents) => `Seat ${seat} · stack ${cash(cents)}`;

/** What a table that plays with its own chips says where another says "your balance". */
export const CASH_OUT = {
  you: (cents) => `You cashed out ${cash(cents)}.`,
  youUnknown: "You cashed out.",
  /** After a colon or a semicolon: "you cashed out $123.50". */
  clause: (cents) => (cents == null ? "you cashed out" : `you cashed out ${cash(cents)}`),
  closed: "This game is closed: every player cashed out. The ledger and the settle-up stay in the Ledger.",
  leaveQuestion: "Leave the table? You cash out your stack (a line of the ledger); to play again you buy in again.",
  leaveQuestionInRound: "Leave the table? You leave when this round ends and cash out your stack.",
  removeText: (name) => `${name} stands up now (or when the round in play ends, if they are in it) and cashes out their stack, a line of the ledger. They are told, and cannot come back to this table for the time you choose, not even with the link.`,
  closeText: "The round in play finishes first. Then every player cashes out (the ledger shows it and the settle-up), and the link and code stop working.",
  removedPage: "You cashed out your stack (it is in the ledger). ",
  removedLeaving: "Your hand in play is played out; then you cash out your stack. ",
};

/** Players bank in turn: a round nobody banks, a table waiting for a second player. */
export const BANK_TURN = {
  noBanker: "Nobody could or would bank this round: the bank passes on",
  waitingTitle: "Waiting for a second player",
  needTwo: "Players bank in turn: a round needs two players",
  dealer: "deals only",
  declinedMine: "Time ran out on the bank offer: the bank passes on.",
  timedOut: (name) => `${name} did not answer the bank offer in time: the bank passes on.`,
  declined: (name) => `${name} declined the bank: it passes on.`,
  stakes: "then the bank passes on",
};

/** The chip events' sentences, each whole; a pair is [a buy-in's, a rebuy's]. */
const EVENT = {
  askedMine: [(c) => `You asked for a ${cash(c)} buy-in.`, (c) => `You asked for a ${cash(c)} rebuy.`],
  askedHost: [(n, c) => `${n} asks for a ${cash(c)} buy-in: approve, change the amount or deny.`,
    (n, c) => `${n} asks for a ${cash(c)} rebuy: approve, change the amount or deny.`],
  inMine: [(c) => `Your ${cash(c)} buy-in is in.`, (c) => `Your ${cash(c)} rebuy is in.`],
  approvedMine: [(by, c) => `${by} approved your ${cash(c)} buy-in.`, (by, c) => `${by} approved your ${cash(c)} rebuy.`],
  deferredMine: (by, c) => `${by} approved your ${cash(c)} rebuy: the chips land when this round ends.`,
  approvedByMe: [(n, c) => `You approved ${n}'s ${cash(c)} buy-in.`, (n, c) => `You approved ${n}'s ${cash(c)} rebuy.`],
  approvedOther: [(n, c) => `${n} bought in for ${cash(c)}.`, (n, c) => `${n} rebought for ${cash(c)}.`],
  deniedMine: (by) => `${by} did not approve your request for chips this time.`,
  deniedByMe: (n) => `You denied ${n}'s request for chips.`,
  cancelledMine: { cancelled: "You cancelled your request for chips.", closed: "The game closed: your request for chips ended.",
    left: "You left the table: your rebuy request ended.", removed: "You were removed: your request for chips ended." },
  cancelledHost: (n) => `${n} cancelled their request for chips.`,
  landedMine: (c) => `Your ${cash(c)} rebuy landed: it is in your stack.`,
  landedOther: (n, c) => `${n}'s ${cash(c)} rebuy landed.`,
  addedMine: (by, c, why) => `${by} added ${cash(c)} to your chips: “${why}”.`,
  takenMine: (by, c, why) => `${by} took ${cash(c)} of your chips back: “${why}”.`,
  addedOther: (by, n, c, why) => `${by} added ${cash(c)} to ${n}'s chips: “${why}”.`,
  takenOther: (by, n, c, why) => `${by} took ${cash(c)} of ${n}'s chips back: “${why}”.`,
  settings: (min, max, def) => `The host changed the chips: buy-ins from ${cash(min)} to ${cash(max)}, ${cash(def)} suggested.`,
  rebuys: { true: "Rebuys are allowed.", false: "No rebuys." },
  approval: { true: "Buy-ins are approved automatically.", false: "The host approves each buy-in." },
  cashedOutOther: (n, c) => `${n} cashed out ${cash(c)}.`,
};

/**
 * The chip events of one patch as lines for the table's log and live region, in the shape of home_words.js:
 * [{text, mine, kind, say}]. `me`: this viewer's player id (null when watching); `nameOf(id)`: a name or null.
 */
export function describeChipEvents(events, view, me, nameOf) {
  const out = [];
  if (!view.home?.chips) return out;
  const host = Boolean(me) && view.home.host_player_id === me;
  const say = (text, mine = false, kind = "info", aloud = true) => out.push({ text, mine, kind, say: aloud, untilSeated: false });
  for (const ev of events) {
    const isMe = Boolean(me) && ev.player_id === me;
    const name = ev.name ?? (ev.player_id ? nameOf(ev.player_id) : null) ?? "A player";
    const which = ev.rebuy ? 1 : 0;
    const cents = ev.amount_cents;
    switch (ev.kind) {
      case "buy_in_requested":
        if (isMe) say(EVENT.askedMine[which](cents));
        else if (host) say(EVENT.askedHost[which](name, cents));
        break;
      case "buy_in_approved":
        if (isMe && ev.automatic) say(EVENT.inMine[which](cents));
        else if (isMe && ev.deferred) say(EVENT.deferredMine(ev.by_name, cents), true, "ok");
        else if (isMe) say(EVENT.approvedMine[which](ev.by_name, cents), true, "ok");
        else if (ev.by_player_id === me && !ev.automatic) say(EVENT.approvedByMe[which](name, cents));
        else say(EVENT.approvedOther[which](name, cents), false, "info", false);
        break;
      case "buy_in_denied":
        if (isMe) say(EVENT.deniedMine(ev.by_name), true, "warn");
        else if (ev.by_player_id === me) say(EVENT.deniedByMe(name));
        break;
      case "buy_in_cancelled":
        if (isMe && EVENT.cancelledMine[ev.reason]) say(EVENT.cancelledMine[ev.reason], ev.reason !== "cancelled", "warn");
        else if (host && ev.reason === "cancelled") say(EVENT.cancelledHost(name));
        break;
      case "chips_added":
        if (isMe) say(EVENT.landedMine(cents), true, "ok");
        else say(EVENT.landedOther(name, cents), false, "info", false);
        break;
      case "chips_adjusted": {
        const [add, abs] = [cents > 0, Math.abs(cents)];
        if (isMe) say(add ? EVENT.addedMine(ev.by_name, abs, ev.reason) : EVENT.takenMine(ev.by_name, abs, ev.reason), true, add ? "ok" : "warn");
        else say(add ? EVENT.addedOther(ev.by_name, name, abs, ev.reason) : EVENT.takenOther(ev.by_name, name, abs, ev.reason));
        break;
      }
      case "chip_settings_changed":
        say([EVENT.settings(ev.min_buy_in_cents, ev.max_buy_in_cents, ev.default_buy_in_cents), EVENT.rebuys[ev.rebuys],
          EVENT.approval[ev.auto_approve]].join(" "), !host);
        break;
      case "player_left": case "player_stood_up": case "player_kicked":
        if (isMe && ev.kind === "player_left") say(CASH_OUT.you(ev.chips_returned_cents), true, "info");
        else if (!isMe && ev.chips_returned_cents != null) say(EVENT.cashedOutOther(name, ev.chips_returned_cents), false, "info", false);
        break;
      default: break;
    }
  }
  return out;
}

/** The waiting request's words for the player (null: none of theirs waits). */
export function waitingLine(hostName, request) {
  if (request.approved_cents != null) return WAITING.rebuyLands(request.approved_cents);
  return request.rebuy ? WAITING.rebuy(hostName, request.amount_cents) : WAITING.buyIn(hostName, request.amount_cents);
}

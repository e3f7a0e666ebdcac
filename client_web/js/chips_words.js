// The words of a home game's own chips (docs/home-games.md, "The game's own chips"), in one place: the create
// form's chip group, the buy-in and rebuy dialogs, the waiting line, the host's requests and corrections, the
// Ledger panel, the settle-up, and the chip events as the table's log and live region say them. Every sentence
// is the catalog's (`chips:` keys of /i18n/<code>.json, whole sentences with placeholders); money, times and
// counts go through i18n.js (Intl). A property that is a string was looked up once, when this module loaded
// (i18n.js has chosen the language by then); a function looks its sentence up each time.

import { locale, money, moneyBound, t, when } from "./i18n.js";

/** "$100.00" (integer cents in, the page's language's currency format out). */
export const cash = (cents) => money(cents);
/** "+$12.50", "−$12.50", "$0.00": a net. */
export const signedCash = (cents) => money(cents, { sign: true });
const PLAIN = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false });
/** An amount as an input field shows it for editing: "100.00" (a decimal comma where the language writes one;
 * i18n.js `parseAmount` reads either back). */
export const amountText = (cents) => PLAIN.format(cents / 100);
/** A ledger line's time: "2:05 PM" today, "Dec 5, 2:05 PM" another day; "—" while the table has not stamped it. */
export const lineTime = (ms) => (ms == null ? "—" : when(ms));

/** The lobby's create form: its checks and the server's refusals of a `chips.*` field. */
export const FORM = {
  buyIn: t("chips:form.buyIn.invalid"),
  min: t("chips:form.min.invalid"),
  max: t("chips:form.max.invalid"),
  minAbove: (min, def) => t("chips:form.min.aboveBuyIn", { min: cash(min), buyIn: cash(def) }),
  maxBelow: (max, def) => t("chips:form.max.belowBuyIn", { max: cash(max), buyIn: cash(def) }),
  cap: (cap) => t("chips:form.cap.exceeded", { cap: moneyBound(cap) }),
  belowMinBet: (minBet) => t("chips:form.belowMinBet", { minBet: cash(minBet) }),
  capHint: (cap) => t("chips:form.cap.hint", { cap: moneyBound(cap) }),
  capHintUnknown: t("chips:form.cap.hint.unknown"),
};

/** The buy-in dialog (sitting at a chips game) and the rebuy dialog. */
export const BUY_IN = {
  title: (seat) => t("chips:buyIn.title", { seat }),
  takeTitle: (seat) => t("chips:buyIn.take.title", { seat }),
  rebuyTitle: t("chips:rebuy.title"),
  label: t("chips:buyIn.amount.label"),
  rebuyLabel: t("chips:rebuy.amount.label"),
  /** The bounds and who approves, one text for each: a buy-in's (`rebuy` false) or a rebuy's; `host`: the host's
   * name when the host approves, null when it is approved at once. */
  terms: (rebuy, min, max, host) => {
    const [amounts, asks] = [{ min: cash(min), max: cash(max) }, host != null];
    if (rebuy) return asks ? t("chips:rebuy.bounds.hostApproves", { ...amounts, host }) : t("chips:rebuy.bounds.approvedAtOnce", amounts);
    return asks ? t("chips:buyIn.bounds.hostApproves", { ...amounts, host }) : t("chips:buyIn.bounds.approvedAtOnce", amounts);
  },
  send: t("chips:buyIn.ask.button"),
  sendAuto: t("chips:buyIn.now.button"),
  sendRebuy: t("chips:rebuy.ask.button"),
  sendRebuyAuto: t("chips:rebuy.now.button"),
  notAmount: t("chips:amount.invalid"),
  outside: (cents, min, max) => t("chips:amount.outsideBounds", { amount: cash(cents), min: cash(min), max: cash(max) }),
  rebuyButton: t("chips:rebuy.open.button"),
  rebuyButtonLabel: t("chips:rebuy.open.label"),
};

/** The line a player sees while their buy-in or rebuy waits for the host. */
export const WAITING = {
  buyIn: (host, cents) => t("chips:waiting.buyIn", { host, amount: cash(cents) }),
  rebuy: (host, cents) => t("chips:waiting.rebuy", { host, amount: cash(cents) }),
  rebuyLands: (cents) => t("chips:waiting.rebuyLands", { amount: cash(cents) }),
  seatHeld: (seat) => t("chips:waiting.seatHeld", { seat }),
  cancel: t("common:cancel"),
  cancelLabel: [t("chips:waiting.cancel.buyIn.label"), t("chips:waiting.cancel.rebuy.label")],
  heldPlate: t("chips:seat.heldForBuyIn.plate"), // English has a non-breaking hyphen: never "buy- / in"
  heldFor: (name) => t("chips:seat.heldForBuyIn.title", { name }),
};

/** The host's requests (the tray's panel), settings and corrections (the Host dialog). */
export const HOST = {
  requestsTitle: (n) => t("chips:host.requests.title", { count: n }),
  buyInAsk: (name, cents, seat) => t("chips:host.request.buyIn", { name, amount: cash(cents), seat }),
  rebuyAsk: (name, cents) => t("chips:host.request.rebuy", { name, amount: cash(cents) }),
  rebuyLands: (name, cents) => t("chips:host.request.rebuyLands", { name, amount: cash(cents) }),
  amountLabel: (name) => t("chips:host.request.amount.label", { name }),
  badAmount: t("chips:amount.invalid"),
  badAmounts: t("chips:host.amounts.invalid"),
  approve: t("chips:host.approve.button"),
  approveLabel: (name) => t("chips:host.approve.label", { name }),
  deny: t("chips:host.deny.button"),
  denyLabel: (name) => t("chips:host.deny.label", { name }),
  chipsSection: t("chips:host.section.title"),
  autoApprove: t("chips:host.autoApprove"),
  rebuys: t("chips:host.rebuysAllowed"),
  defaultLabel: t("chips:host.buyIn.label"),
  minLabel: t("chips:host.min.label"),
  maxLabel: t("chips:host.max.label"),
  save: t("chips:host.save.button"),
  saved: t("chips:host.saved"),
  capHint: (cap) => t("chips:host.cap.hint", { cap: moneyBound(cap) }),
  /** A seated player's stack in the Host dialog: "Ann · $171.25". */
  stackLine: (name, cents) => t("chips:host.stack", { name, stack: cash(cents) }),
  adjust: t("chips:host.adjust.button"),
  adjustLabel: (name) => t("chips:host.adjust.label", { name }),
  adjustTitle: (name) => t("chips:host.adjust.title", { name }),
  adjustText: (name, stack) => t("chips:host.adjust.text", { name, stack: cash(stack) }),
  add: t("chips:host.adjust.add"),
  takeBack: t("chips:host.adjust.takeBack"),
  adjustAmount: t("chips:host.adjust.amount.label"),
  reason: t("chips:host.adjust.reason.label"),
  reasonMissing: t("chips:host.adjust.reason.missing"),
  adjustOk: t("chips:host.adjust.ok.button"),
  adjustMost: (cents) => t("chips:host.adjust.atMost", { amount: cash(cents) }),
  cancel: t("common:cancel"),
};

/** Who did a correction: its maker's name, else "The host" (a sentence of its own, not a name). */
const byHost = (l, named, unnamed) => (l.by_name ? t(named, { by: l.by_name, name: l.name, reason: l.reason ?? "" })
  : t(unnamed, { name: l.name, reason: l.reason ?? "" }));

/** The Ledger panel. */
export const LEDGER = {
  button: t("chips:ledger.button"),
  title: t("chips:ledger.title"),
  close: t("common:close"),
  players: t("chips:ledger.players.title"),
  player: t("chips:ledger.column.player"),
  buyIns: t("chips:ledger.column.boughtIn"),
  stack: t("chips:ledger.column.stack"),
  net: t("chips:ledger.column.net"),
  cashedOut: (cents) => t("chips:ledger.cashedOutEarlier", { amount: cash(cents) }),
  cashedOutWord: t("chips:ledger.cashedOut.state"),
  atTable: t("chips:ledger.atTable.state"),
  nobody: t("chips:ledger.nobody"),
  lines: t("chips:ledger.lines.title"),
  time: t("chips:ledger.column.time"),
  what: t("chips:ledger.column.what"),
  amount: t("chips:ledger.column.amount"),
  kinds: {
    buy_in: (l) => t("chips:ledger.line.buyIn", { name: l.name }),
    rebuy: (l) => t("chips:ledger.line.rebuy", { name: l.name }),
    add: (l) => byHost(l, "chips:ledger.line.add", "chips:ledger.line.add.byHost"),
    take_back: (l) => byHost(l, "chips:ledger.line.takeBack", "chips:ledger.line.takeBack.byHost"),
    cash_out: (l) => t("chips:ledger.line.cashOut", { name: l.name }),
  },
  /** "Approved by: …" under a buy-in or rebuy ("" for a correction, which names its maker, and a cash-out).
   * The host's own buy-in or rebuy is approved at once (the host's own); another while "approve automatically"
   * is on is the game's; else the host who answered. */
  approvedLine: (l) => {
    if (!["buy_in", "rebuy"].includes(l.kind)) return "";
    if (l.by_player_id && l.by_player_id === l.player_id) {
      const own = l.kind === "rebuy"
        ? ["chips:ledger.approvedBy.hostOwn.rebuy", "chips:ledger.approvedBy.hostOwn.rebuy.unnamed"]
        : ["chips:ledger.approvedBy.hostOwn.buyIn", "chips:ledger.approvedBy.hostOwn.buyIn.unnamed"];
      return l.by_name ? t(own[0], { name: l.by_name }) : t(own[1]);
    }
    if (l.automatic) return t("chips:ledger.approvedBy.automatically");
    return l.by_name ? t("chips:ledger.approvedBy", { name: l.by_name }) : "";
  },
  house: (cents) => t("chips:ledger.house", { amount: signedCash(cents) }),
  commission: (cents) => t("chips:ledger.commission", { amount: cash(cents) }),
  totals: (issued, stacks, out) => t("chips:ledger.totals", { issued: cash(issued), stacks: cash(stacks), cashedOut: cash(out) }),
  balanced: t("chips:ledger.balanced"),
  unbalanced: t("chips:ledger.unbalanced"),
  downloads: t("chips:ledger.downloads.title"),
  ledgerCsv: t("chips:ledger.download.ledgerCsv"),
  ledgerJson: t("chips:ledger.download.ledgerJson"),
  handsCsv: t("chips:ledger.download.handsCsv"),
  handsJson: t("chips:ledger.download.handsJson"),
  downloadFailed: (what, why) => t("chips:ledger.download.failed", { file: what, reason: why }),
  downloadNoAnswer: t("chips:ledger.download.noAnswer"),
  settleTitle: t("chips:settle.title"),
  totalsTitle: t("chips:settle.totals.title"),
  settleNone: t("chips:settle.none"),
  settleWaits: t("chips:settle.waits"),
  pays: (from, to, cents) => t("chips:settle.pays", { from, to, amount: cash(cents) }),
  paysOut: (name, cents) => t("chips:settle.paysInAll", { name, amount: cash(cents) }),
  getsIn: (name, cents) => t("chips:settle.getsInAll", { name, amount: cash(cents) }),
  even: (name) => t("chips:settle.even", { name }),
  party: { house: t("chips:party.house"), commission: t("chips:party.commission") },
  closedNote: t("chips:ledger.closedNote"),
  open: t("chips:ledger.open.button"),
  lobby: t("chips:ledger.lobby.button"),
};

// Stands for a value while a sentence is split around it (a private-use character no catalog writes).
const SLOT = "\uE000";

/** The header's money at a chips game, "stack $80.00" (the stack is the player's money there), as
 * [the words before the amount, the words after it] in the page's language: the page puts the amount between
 * them and hides the words on a narrow phone. */
export const headerStackWords = () => {
  const [before, after = ""] = t("chips:header.stack", { amount: SLOT }).split(SLOT);
  return [before, after];
};
/** The seat's options at a chips game: "Seat 2 · stack $80.00". */
export const seatStack = (seat, cents) => t("chips:seat.stack", { seat, amount: cash(cents) });

/** What a table that plays with its own chips says where another says "your balance". */
export const CASH_OUT = {
  you: (cents) => t("chips:cashOut.you", { amount: cash(cents) }),
  youUnknown: t("chips:cashOut.you.unknown"),
  closed: t("chips:cashOut.gameClosed"),
  leaveQuestion: t("chips:leave.question"),
  leaveQuestionInRound: t("chips:leave.question.inRound"),
  removeText: (name) => t("chips:remove.text", { name }),
  closeText: t("chips:closeGame.text"),
  /** The page of a player the host removed: what became of their stack (`removed`: "stood", stood up just now
   * with `cents` cashed out, null when unknown; "leaving", after the round in play), then when they may come
   * back (`when`: a date and time, null: not for now). "" for another `removed`. */
  removedText: (removed, cents, when) => {
    const [later, now] = { stood: cents == null ? ["chips:removed.stood.notBefore", "chips:removed.stood.notNow"]
      : ["chips:removed.stoodAmount.notBefore", "chips:removed.stoodAmount.notNow"],
    leaving: ["chips:removed.leaving.notBefore", "chips:removed.leaving.notNow"] }[removed] ?? [];
    if (!later) return "";
    const amount = cents == null ? null : cash(cents);
    return when ? t(later, { amount, when }) : t(now, { amount });
  },
};

/** Players bank in turn: a table waiting for a second player, the dealer's plate, an offer passed on. */
export const BANK_TURN = {
  waitingTitle: t("chips:bankTurn.waiting.title"),
  needTwo: t("chips:bankTurn.needTwo"),
  dealer: t("chips:bankTurn.dealer.role"),
  declinedMine: t("chips:bankTurn.timedOut.mine"),
  timedOut: (name) => t("chips:bankTurn.timedOut", { name }),
  declined: (name) => t("chips:bankTurn.declined", { name }),
};

/** The chip events' sentences, each whole; a pair is [a buy-in's, a rebuy's]. */
const amt = (c) => cash(c);
const EVENT = {
  askedMine: [(c) => t("chips:event.asked.mine.buyIn", { amount: amt(c) }), (c) => t("chips:event.asked.mine.rebuy", { amount: amt(c) })],
  askedHost: [(n, c) => t("chips:event.asked.host.buyIn", { name: n, amount: amt(c) }),
    (n, c) => t("chips:event.asked.host.rebuy", { name: n, amount: amt(c) })],
  inMine: [(c) => t("chips:event.in.mine.buyIn", { amount: amt(c) }), (c) => t("chips:event.in.mine.rebuy", { amount: amt(c) })],
  approvedMine: [(by, c) => t("chips:event.approved.mine.buyIn", { by, amount: amt(c) }),
    (by, c) => t("chips:event.approved.mine.rebuy", { by, amount: amt(c) })],
  deferredMine: (by, c) => t("chips:event.approved.mine.deferred", { by, amount: amt(c) }),
  approvedByMe: [(n, c) => t("chips:event.approved.byMe.buyIn", { name: n, amount: amt(c) }),
    (n, c) => t("chips:event.approved.byMe.rebuy", { name: n, amount: amt(c) })],
  approvedOther: [(n, c) => t("chips:event.approved.other.buyIn", { name: n, amount: amt(c) }),
    (n, c) => t("chips:event.approved.other.rebuy", { name: n, amount: amt(c) })],
  deniedMine: (by) => t("chips:event.denied.mine", { by }),
  deniedByMe: (n) => t("chips:event.denied.byMe", { name: n }),
  cancelledMine: {
    cancelled: () => t("chips:event.cancelled.mine.cancelled"),
    closed: () => t("chips:event.cancelled.mine.closed"),
    left: () => t("chips:event.cancelled.mine.left"),
    removed: () => t("chips:event.cancelled.mine.removed"),
  },
  cancelledHost: (n) => t("chips:event.cancelled.host", { name: n }),
  landedMine: (c) => t("chips:event.landed.mine", { amount: amt(c) }),
  landedOther: (n, c) => t("chips:event.landed.other", { name: n, amount: amt(c) }),
  addedMine: (by, c, why) => t("chips:event.adjusted.added.mine", { by, amount: amt(c), reason: why }),
  takenMine: (by, c, why) => t("chips:event.adjusted.taken.mine", { by, amount: amt(c), reason: why }),
  addedOther: (by, n, c, why) => t("chips:event.adjusted.added.other", { by, name: n, amount: amt(c), reason: why }),
  takenOther: (by, n, c, why) => t("chips:event.adjusted.taken.other", { by, name: n, amount: amt(c), reason: why }),
  /** The host's new chip settings, one text for each shape (rebuys allowed or not, who approves). */
  settings: (ev) => t({ "true:true": "chips:event.settings.rebuys.auto", "true:false": "chips:event.settings.rebuys.host",
    "false:true": "chips:event.settings.noRebuys.auto", "false:false": "chips:event.settings.noRebuys.host" }[`${Boolean(ev.rebuys)}:${Boolean(ev.auto_approve)}`],
  { min: amt(ev.min_buy_in_cents), max: amt(ev.max_buy_in_cents), buyIn: amt(ev.default_buy_in_cents) }),
  cashedOutOther: (n, c) => t("chips:event.cashedOut.other", { name: n, amount: amt(c) }),
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
    const name = ev.name ?? (ev.player_id ? nameOf(ev.player_id) : null) ?? t("chips:event.somePlayer");
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
        if (isMe && EVENT.cancelledMine[ev.reason]) say(EVENT.cancelledMine[ev.reason](), ev.reason !== "cancelled", "warn");
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
        say(EVENT.settings(ev), !host);
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

// The sit dialog (#sit-dialog): the buy-in for a seat (a casino table's from the player's balance, a home
// game's own chips through buy_in.js), its checks before sending, and the refusal in the page's language.

import { money, parseMoney } from "./api.js";
import { amountText, t } from "./i18n.js";
import { commandErrorText } from "./socket.js";
import { checkAmount, chipsOf, prepareBuyIn } from "./buy_in.js";
import { barredText } from "./tray.js";
import { noteBlock } from "./table_block.js";

const $ = (id) => document.getElementById(id);

/**
 * Wires the dialog. `hooks`: `command(msg)` (the socket's), `rerender()`, `refreshBalance()`,
 * `resync(err)` (an UNCONFIRMED command asks for what changed), `noteBar(err)` (a BARRED refusal's bar).
 * Returns `openSit(seat, {take})`: the dialog for `seat`; `take`: the seat the waiting list offers you.
 */
export function installSitDialog(ctx, hooks) {
  const dialog = $("sit-dialog");
  const error = $("sit-dialog-error");
  const SIT_LABEL = $("buy-in-label").textContent;
  const SIT_OK = $("sit-confirm").textContent;

  function openSit(seat, { take = false } = {}) {
    error.textContent = "";
    dialog.dataset.seat = String(seat);
    dialog.dataset.take = take ? "1" : "";
    if (chipsOf(ctx.view)) {
      // A home game's own chips: a buy-in within its bounds, approved by the host (buy_in.js).
      prepareBuyIn(ctx.view, ctx, seat, take);
      dialog.showModal();
      $("buy-in").select();
      return;
    }
    const rules = ctx.view.rules;
    const balance = ctx.session?.balance_cents;
    $("sit-title").textContent = t("table:sit.title", { seat });
    $("buy-in-label").textContent = SIT_LABEL;
    $("sit-confirm").textContent = SIT_OK;
    $("buy-in").removeAttribute("min");
    $("buy-in").removeAttribute("max");
    $("sit-balance").textContent = balance != null ? t("table:sit.balance", { balance: money(balance) }) : "";
    const suggested = Math.min(balance ?? Infinity, Math.max(rules.min_bet_cents * 20, 10000));
    $("buy-in").value = amountText(suggested);
    dialog.showModal();
    $("buy-in").select();
  }

  $("sit-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seat = Number(dialog.dataset.seat);
    const chips = chipsOf(ctx.view);
    const checked = chips ? checkAmount($("buy-in").value, chips) : null;
    if (checked?.error) {
      error.textContent = checked.error;
      return;
    }
    const cents = checked?.cents ?? parseMoney($("buy-in").value);
    if (cents === null || cents <= 0) {
      error.textContent = t("table:sit.invalid");
      return;
    }
    const balance = chips ? null : ctx.session?.balance_cents; // a chips game never reads the casino balance
    if (balance != null && cents > balance) {
      error.textContent = t("table:sit.over_balance", { amount: money(cents), balance: money(balance) });
      return;
    }
    if (cents < ctx.view.rules.min_bet_cents) {
      error.textContent = t("table:sit.below_min", { amount: money(cents), min: money(ctx.view.rules.min_bet_cents) });
      return;
    }
    try {
      const take = dialog.dataset.take === "1";
      await hooks.command(take ? { type: "take_seat", buy_in_cents: cents } : { type: "sit", seat, buy_in_cents: cents });
      dialog.close();
      if (!chips) hooks.refreshBalance();
      hooks.rerender();
    } catch (err) {
      hooks.resync(err);
      if (err.code === "BARRED" && err.until_ms) hooks.noteBar(err);
      if (noteBlock(ctx, err, hooks.rerender)) hooks.rerender(); // the refusal stays said here; the seats are no longer offered
      error.textContent = err.code === "BARRED" && err.until_ms ? barredText(err.by, err.until_ms, "play") : commandErrorText(err);
    }
  });
  $("sit-cancel").addEventListener("click", () => dialog.close());
  $("buy-in").addEventListener("input", () => { error.textContent = ""; }); // what is left in red is still wrong
  return openSit;
}

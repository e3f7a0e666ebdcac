// "Play safely", among the lobby's account actions (docs/responsible-play.md): the player's limits (loss and
// wager per day, week and month, session time) with what is used this period and when it resets, a looser
// limit waiting with the date it takes effect, an editor (`PUT /api/account/responsible-play`: a tighter
// limit is in force at once, a looser one waits), the reality-check interval, and "Take a break" / "Exclude
// yourself" through a confirm dialog (`POST /api/account/break`, `/exclusion`). A block in force is said with
// when it ends, and `onBlock` tells the lobby (its Sit buttons are disabled with the reason, as during the
// pause after a session time limit).

import { api, el, savedSession } from "./api.js";
import { confirmChoice } from "./confirm_dialog.js";
import { errorText } from "./errors.js";
import { locale, money, number, parseAmount, t, when } from "./i18n.js";

const LIMITS = ["loss_day", "loss_week", "loss_month", "wager_day", "wager_week", "wager_month", "session_minutes"];
const BREAKS = ["24h", "7d", "30d"];
const EXCLUSIONS = ["6m", "1y", "5y"];
const MINUTES = new Intl.NumberFormat(locale, { style: "unit", unit: "minute", unitDisplay: "long" });
/** The reality-check interval the server takes (docs/http-api.md "Limits (players)"): 0 (off) or these. */
const REALITY = { min: 5, max: 1440 };
const realityRange = () => ({ min: number(REALITY.min), max: number(REALITY.max) });

let state = null;
let panel = null;
const listeners = [];

/** A block in force now (the server's `block`), or null. */
export function blockNow() {
  const block = state?.block;
  return block && block.until_ms > Date.now() ? block : null;
}

/** The refusal a sit would get now, worded (errors.js), or null when the player may sit: a block, or the
 * pause after a session time limit (`sit_paused_until_ms`). The lobby asks again every 3 s, so its Sit
 * buttons come back by themselves once either has ended. */
export function sitRefusal() {
  const block = blockNow();
  if (block) return errorText(block.kind === "exclusion" ? "SELF_EXCLUDED" : "ON_BREAK", { until_ms: block.until_ms });
  const paused = state?.sit_paused_until_ms;
  return paused && paused > Date.now() ? errorText("TIME_LIMIT_REACHED", { until_ms: paused }) : null;
}

/** `fn()` after every change of the state (a block started, the page loaded it). */
export function onBlock(fn) {
  listeners.push(fn);
}

const token = () => savedSession()?.token;
const valueText = (name, v) => (v == null ? t("lobby:safe.limit.none") : name === "session_minutes" ? MINUTES.format(v) : money(v));
const inputValue = (name, v) => (v == null ? "" : name === "session_minutes" ? String(v) : String(v / 100));

/** `saved`: the state a save answered, whose boxes show what is in force; any other (the panel's load, a
 * break) keeps what the player has typed and not saved yet. */
function setState(next, { saved = false } = {}) {
  state = next;
  render({ keepTyped: !saved });
  for (const fn of listeners) fn();
}

/** The state from the server (null signed out). */
export async function loadSafely() {
  if (!token()) return setState(null);
  try {
    const [mine, config] = await Promise.all([api("/api/account/responsible-play", { token: token() }),
      api("/api/responsible-play/config").catch(() => null)]);
    // The deployment's reminder interval, said beside the player's box (a null there is "the default").
    setState({ ...mine, reality_check_default_minutes: config?.reality_check_minutes ?? null });
  } catch (err) {
    if (panel) panel.querySelector("#safe-error").textContent = t("lobby:safe.load_failed", { reason: errorText(err) });
  }
  return null;
}

function blockLine() {
  const block = blockNow();
  if (!block) return [];
  const key = block.kind === "exclusion" ? "lobby:safe.block.exclusion" : "lobby:safe.block.break";
  return [el("div", { class: "safe-block", id: "safe-block", role: "status" },
    el("strong", { text: t(key, { when: when(block.until_ms) }) }), el("p", { text: t("lobby:safe.block.what") }))];
}

/** What is in force for one limit, under its box: the value, used this period and when it resets, a change
 * waiting with the date it takes effect. */
function inForce(name) {
  const value = state?.limits?.[name] ?? null;
  const used = state?.used?.[name];
  const pending = state?.pending?.[name];
  const lines = [el("p", { class: "safe-value", text: t("lobby:safe.in_force", { value: valueText(name, value) }) })];
  if (used && value != null) {
    lines.push(el("p", { class: "hint safe-used", text: t("lobby:safe.used", { used: money(used.used_cents), limit: money(value), when: when(used.until_ms) }) }));
  }
  if (pending) {
    lines.push(el("p", { class: "safe-pending", text: t("lobby:safe.pending", { value: valueText(name, pending.value), when: when(pending.effective_ms) }) }));
  }
  return el("div", { class: "safe-now", id: `safe-${name}-now` }, ...lines);
}

function editor() {
  const fields = LIMITS.map((name) => el("div", { class: "field", "data-limit": name },
    el("label", { for: `safe-${name}`, text: t(`lobby:safe.limit.${name}`) }),
    el("input", { id: `safe-${name}`, name, inputmode: name === "session_minutes" ? "numeric" : "decimal", autocomplete: "off",
      value: inputValue(name, state?.limits?.[name] ?? null), "aria-describedby": `safe-${name}-now safe-edit-hint` }),
    inForce(name)));
  const reality = state?.reality_check_minutes ?? null;
  const fallback = state?.reality_check_default_minutes;
  fields.push(el("div", { class: "field" },
    el("label", { for: "safe-reality", text: t("lobby:safe.reality.label") }),
    el("input", { id: "safe-reality", name: "reality_check_minutes", inputmode: "numeric", autocomplete: "off",
      value: reality == null ? "" : String(reality), "aria-describedby": "safe-reality-hint" }),
    el("p", { class: "hint", id: "safe-reality-hint", text: fallback == null ? t("lobby:safe.reality.hint", realityRange())
      : t("lobby:safe.reality.hint_default", { ...realityRange(), value: fallback ? MINUTES.format(fallback) : t("lobby:safe.reality.off") }) })));
  const form = el("form", { id: "safe-form", class: "safe-form", novalidate: true },
    el("h4", { text: t("lobby:safe.limits.title") }),
    el("p", { class: "hint", id: "safe-edit-hint", text: t("lobby:safe.edit.hint") }),
    el("div", { class: "safe-fields", id: "safe-limits" }, ...fields),
    el("button", { class: "btn small", type: "submit", id: "safe-save", text: t("lobby:safe.save") }),
    el("div", { id: "safe-result", role: "status" }),
    el("p", { class: "field-error", id: "safe-form-error", role: "alert" }));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); save(form); });
  return form;
}

/** The body of the PUT: the limits changed (a blank is "no limit"), or null with the field at fault. */
function changes(form) {
  const limits = {};
  for (const name of LIMITS) {
    const text = form.querySelector(`#safe-${name}`).value.trim();
    let value = null;
    if (text) {
      value = name === "session_minutes" ? (/^\d+$/.test(text) ? Number(text) : NaN) : parseAmount(text);
      if (value == null || !Number.isFinite(value) || value <= 0) return { bad: name };
    }
    if (value !== (state?.limits?.[name] ?? null)) limits[name] = value;
  }
  const body = { limits };
  const reality = form.querySelector("#safe-reality").value.trim();
  const minutes = reality ? (/^\d+$/.test(reality) ? Number(reality) : NaN) : null;
  if (Number.isNaN(minutes) || (minutes && (minutes < REALITY.min || minutes > REALITY.max))) return { bad: "reality" };
  if (minutes !== (state?.reality_check_minutes ?? null)) body.reality_check_minutes = minutes;
  return { body };
}

async function save(form) {
  const error = form.querySelector("#safe-form-error");
  const result = form.querySelector("#safe-result");
  error.textContent = "";
  result.replaceChildren(); // a result stays only beside the save it tells of, never beside a later refusal
  const { bad, body } = changes(form);
  if (bad) {
    error.textContent = bad === "reality" ? t("lobby:safe.invalid.reality", realityRange())
      : t(bad === "session_minutes" ? "lobby:safe.invalid.minutes" : "lobby:safe.invalid.amount");
    form.querySelector(`#safe-${bad}`).focus();
    return;
  }
  const asked = Object.keys(body.limits);
  if (!asked.length && !("reality_check_minutes" in body)) {
    result.replaceChildren(el("p", { text: t("lobby:safe.saved.nothing") }));
    return;
  }
  const button = form.querySelector("#safe-save");
  button.disabled = true;
  try {
    const next = await api("/api/account/responsible-play", { method: "PUT", body, token: token() });
    setState({ ...next, reality_check_default_minutes: state?.reality_check_default_minutes ?? null }, { saved: true });
    panel.querySelector("#safe-result").replaceChildren(...savedLines(asked, next));
    panel.querySelector("#safe-result").focus?.();
  } catch (err) {
    error.textContent = errorText(err);
  } finally {
    form.querySelector("#safe-save").disabled = false;
  }
}

/** What the save did, in plain words: each limit asked for, in force now or waiting until when. */
function savedLines(asked, next) {
  const lines = asked.map((name) => {
    const pending = next.pending?.[name];
    // The box's label says its unit ("(minutes)"); the line says the value with its unit, so it names the
    // limit without one.
    const words = t(name === "session_minutes" ? "lobby:safe.short.session_minutes" : `lobby:safe.limit.${name}`);
    return el("p", { class: pending ? "safe-pending" : "safe-now", text: pending
      ? t("lobby:safe.saved.later", { name: words, value: valueText(name, pending.value), when: when(pending.effective_ms) })
      : t("lobby:safe.saved.now", { name: words, value: valueText(name, next.limits?.[name] ?? null) }) });
  });
  return lines.length ? lines : [el("p", { text: t("lobby:safe.saved.reality") })];
}

function blockButton(kind) {
  const lengths = kind === "break" ? BREAKS : EXCLUSIONS;
  const button = el("button", { class: "btn small secondary", type: "button", id: `safe-${kind}`, text: t(`lobby:safe.${kind}.button`) });
  button.addEventListener("click", () => confirmChoice({
    title: t(`lobby:safe.${kind}.title`),
    text: t(`lobby:safe.${kind}.confirm`),
    okLabel: t(`lobby:safe.${kind}.ok`),
    choice: { label: t("lobby:safe.length.label"), options: lengths.map((l) => [l, t(`lobby:safe.length.${l}`)]) },
    check: kind === "exclusion" ? { label: t("lobby:safe.exclusion.check"), missing: t("errors:CONFIRM_REQUIRED") } : null,
    run: async ({ choice }) => {
      const path = kind === "break" ? "/api/account/break" : "/api/account/exclusion";
      const body = kind === "break" ? { length: choice } : { length: choice, confirm: true };
      const answer = await api(path, { method: "POST", body, token: token() });
      setState({ ...state, ...answer });
      return answer;
    },
  }));
  return el("div", { class: "safe-choice" },
    el("h4", { text: t(`lobby:safe.${kind}.title`) }), el("p", { class: "hint", text: t(`lobby:safe.${kind}.hint`) }), button);
}

function render({ keepTyped = true } = {}) {
  if (!panel || panel.hidden) return;
  // The boxes are drawn again when the panel's state comes (it opens at once, its state a moment later):
  // what the player typed meanwhile stays, with the focus (nothing a person types goes by itself).
  const typed = keepTyped ? [...panel.querySelectorAll("#safe-form input")].filter((i) => i.value !== i.defaultValue)
    .map((i) => [i.id, i.value]) : [];
  const focused = panel.contains(document.activeElement) ? document.activeElement.id : null;
  panel.querySelector("#safe-body").replaceChildren(...blockLine(),
    editor(),
    el("div", { class: "safe-blocks" }, blockButton("break"), blockButton("exclusion")));
  for (const [id, value] of typed) {
    const input = panel.querySelector(`#${id}`);
    if (input) input.value = value;
  }
  if (focused && !panel.contains(document.activeElement)) panel.querySelector(`#${focused}`)?.focus({ preventScroll: true });
}

/** The "Play safely" button and its panel (shown under the account's actions). */
export function playSafelyButton(host) {
  const button = el("button", { class: "btn small secondary", type: "button", id: "play-safely", "aria-expanded": "false",
    "aria-controls": "safe-panel", text: t("lobby:safe.button") });
  panel = document.getElementById("safe-panel") ?? el("section", { id: "safe-panel", class: "safe-panel", hidden: true, "aria-labelledby": "safe-title" },
    el("div", { class: "safe-head" }, el("h3", { id: "safe-title", text: t("lobby:safe.title") }),
      el("button", { class: "btn small secondary", type: "button", id: "safe-close", text: t("common:close") })),
    el("p", { class: "hint", text: t("lobby:safe.intro") }),
    el("p", { class: "field-error", id: "safe-error", role: "alert" }),
    el("div", { id: "safe-body" }));
  if (!panel.isConnected) host.after(panel);
  const toggle = (open) => {
    panel.hidden = !open;
    document.getElementById("play-safely")?.setAttribute("aria-expanded", String(open));
    if (open) {
      render();
      loadSafely();
      panel.querySelector("#safe-title").setAttribute("tabindex", "-1");
      panel.querySelector("#safe-title").focus();
    } else document.getElementById("play-safely")?.focus();
  };
  button.addEventListener("click", () => toggle(panel.hidden));
  panel.querySelector("#safe-close").onclick = () => toggle(false);
  return button;
}

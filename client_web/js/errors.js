// A refusal in the page's language (docs/languages.md, "Errors"). The server keeps its codes and an English
// `message` on the wire (docs/protocol.md, docs/http-api.md); the page words each code from the catalog's
// `errors:<CODE>` with the values the refusal carries as fields (`field`, `retry_after_s`, `min_cents`, …),
// money and times already formatted. A code the catalog does not know (a newer server) is said as
// "errors:unknown" with the code, never as the English message.
//
// A refusal whose sentence uses values it does not always carry has `errors:<CODE>.plain`, the same refusal
// said without them: a wait (plural keys `errors:<CODE>_one` / `_other`, the wait `retry_after_s` being
// `count`), an amount and its limit (`amount_cents`, `limit_cents`), the end of a bar (`until_ms`).

import { has, money, t, when } from "./i18n.js";

/** The values a refusal's sentence may use: its fields, with amounts (`*_cents`) and times (`*_ms`) formatted. */
function values(fields) {
  const out = {};
  for (const [name, value] of Object.entries(fields ?? {})) {
    if (value == null || typeof value === "object") continue;
    if (name.endsWith("_cents") && Number.isInteger(value)) out[name] = money(value);
    else if (name.endsWith("_ms") && Number.isInteger(value)) out[name] = when(value);
    else out[name] = value;
  }
  return out;
}

/** The catalog key for `code` with these values: the plural family when a wait is known, else its
 * `.plain` sentence. */
function keyOf(code, vals) {
  const key = `errors:${code}`;
  if (has(`${key}_other`)) return vals.count != null ? key : `${key}.plain`;
  return has(key) ? key : null;
}

/** The sentence of `key`, or its `.plain` one when the refusal lacks a value the sentence uses. */
function worded(key, vals) {
  let lacking = false;
  const text = t(key, { ...vals, missingInterpolationHandler: () => { lacking = true; return ""; } });
  return lacking && has(`${key}.plain`) ? t(`${key}.plain`, vals) : text;
}

/**
 * The sentence for a refusal: `errorText("NOT_YOUR_TURN")`, `errorText(code, {min_cents: 500})`, or an
 * error object (an `ApiError` with `code`, `body` and `retryAfter`, or a wire `error` frame).
 */
export function errorText(codeOrError, fields = undefined) {
  const isObject = typeof codeOrError === "object" && codeOrError !== null;
  const code = isObject ? codeOrError.code : codeOrError;
  const given = fields ?? (isObject ? { ...(codeOrError.body ?? {}), ...codeOrError } : {});
  const vals = values(given);
  if (isObject && codeOrError.retryAfter != null && vals.retry_after_s == null) vals.retry_after_s = codeOrError.retryAfter;
  if (vals.retry_after_s != null && Number.isFinite(Number(vals.retry_after_s))) vals.count = Number(vals.retry_after_s);
  const key = keyOf(code, vals);
  return key ? worded(key, vals) : t("errors:unknown", { code: String(code) });
}

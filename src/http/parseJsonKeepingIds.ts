// An integer id (runId, groupId, id) written as a JSON number, outside a string; the lookbehind
// skips `\"runId\"` inside a string value.
const NUMERIC_ID = /(?<!\\)("(?:runId|groupId|id)"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g;

/**
 * `JSON.parse` that keeps numeric ids exactly: a `runId`, `groupId` or `id` written as an integer
 * beyond `Number.MAX_SAFE_INTEGER` (2^53 − 1) becomes the string of its digits, as the service
 * wrote them, instead of a rounded number (9007199254740993 would be polled as …992). Safe
 * integers stay numbers. Done on the raw text before `JSON.parse` (no reviver: its `source`
 * argument is missing in Safari's WebView), and only when the text holds 16 digits in a row.
 *
 * ```
 * '{"runId":9007199254740993}'  ──▶  { runId: "9007199254740993" }
 * '{"runId":42}'                ──▶  { runId: 42 }
 * ```
 *
 * ## Example
 * ```ts
 * parseJsonKeepingIds('{"runId": 12345678901234567890}'); // { runId: "12345678901234567890" }
 * ```
 * @param text JSON text
 * @return the parsed value (throws `SyntaxError` like `JSON.parse`)
 * @internal
 */
export function parseJsonKeepingIds(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text) as unknown;
  const exact = text.replace(NUMERIC_ID, (whole, prefix: string, digits: string) =>
    Number.isSafeInteger(Number(digits)) ? whole : `${prefix}"${digits}"`
  );
  return JSON.parse(exact) as unknown;
}

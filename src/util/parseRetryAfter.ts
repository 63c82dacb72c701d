/**
 * Converts a `Retry-After` header (delta seconds or an HTTP date) to milliseconds from `nowMs`.
 * Returns undefined for a missing or unreadable value; a date in the past gives 0.
 *
 * ## Example
 * ```ts
 * parseRetryAfter("2", Date.now()); // 2000
 * ```
 * @internal
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date always names a weekday or month; this keeps "-3" from parsing as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const dateMs = Date.parse(text);
  if (Number.isNaN(dateMs)) return undefined;
  return Math.max(0, dateMs - nowMs);
}

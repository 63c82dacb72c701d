import { canonicalJson } from "../util/canonicalJson.js";

/** Characters of one row's hash in a window's fingerprint. */
export const ROW_HASH_LENGTH = 8;

/**
 * A window's fingerprint: one 8-hex-digit hash (FNV-1a, 32 bits) of the canonical JSON of each
 * row's value, in row order. Compact (4 KB for 500 rows) and enough to tell which row differs: a
 * shifted or edited row is caught at its first row but once in four billion.
 *
 * ## Example
 * ```ts
 * windowFingerprint([{ text: "a" }, { text: "b" }]); // "1b4c1f3e9d0a7c21" (16 hex digits)
 * ```
 * @param values each row's value (by default its spell inputs)
 * @return the fingerprint
 */
export function windowFingerprint(values: readonly unknown[]): string {
  let fingerprint = "";
  for (const value of values) fingerprint += rowHash(value);
  return fingerprint;
}

/**
 * The first row (0-based, within the window) whose value does not match `fingerprint`; -1 when
 * all match, or when the fingerprint is not one this version writes (then nothing can be told).
 *
 * ## Example
 * ```ts
 * firstDifferentRow(windowFingerprint([1, 2]), [1, 3]); // 1
 * ```
 * @param fingerprint the window's recorded fingerprint
 * @param values each row's value now
 * @return the place of the first row that differs, or -1
 */
export function firstDifferentRow(fingerprint: unknown, values: readonly unknown[]): number {
  if (typeof fingerprint !== "string" || fingerprint.length !== values.length * ROW_HASH_LENGTH) {
    return -1;
  }
  for (let place = 0; place < values.length; place++) {
    const start = place * ROW_HASH_LENGTH;
    if (rowHash(values[place]) !== fingerprint.slice(start, start + ROW_HASH_LENGTH)) return place;
  }
  return -1;
}

/** FNV-1a (32 bits) of the value's canonical JSON, as 8 hex digits. */
function rowHash(value: unknown): string {
  const text = canonicalJson(value) ?? "";
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(ROW_HASH_LENGTH, "0");
}

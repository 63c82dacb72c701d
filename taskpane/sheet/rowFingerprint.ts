import { hashText } from "../../addin/hashText.js";

/**
 * A short, stable fingerprint of the input cells of one row, stored per submitted row so that a
 * later write can tell whether the user changed the row meanwhile (`hashText` of the JSON of the
 * values, base 36: ~11 characters instead of the inputs themselves, which may be long or
 * private and would bloat the document's settings).
 *
 * ## Example
 * ```ts
 * rowFingerprint(["Great product", 3]) === rowFingerprint(["Great product", 3]); // true
 * ```
 */
export function rowFingerprint(values: readonly unknown[]): string {
  return hashText(JSON.stringify(values)).toString(36);
}

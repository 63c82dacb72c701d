/**
 * A short, stable fingerprint of the input cells of one row, stored per submitted row so that a
 * later write can tell whether the user changed the row meanwhile (53-bit cyrb53 hash of the JSON
 * of the values, base 36: ~11 characters instead of the inputs themselves, which may be long or
 * private and would bloat the document's settings).
 *
 * ## Example
 * ```ts
 * rowFingerprint(["Great product", 3]) === rowFingerprint(["Great product", 3]); // true
 * ```
 */
export function rowFingerprint(values: readonly unknown[]): string {
  const text = JSON.stringify(values);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

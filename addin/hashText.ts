/**
 * A 53-bit hash of a text (cyrb53: two 32-bit multiply-xor lanes mixed at the end), as a safe
 * integer. Fast, well spread and stable across versions, since what it makes is stored: row
 * fingerprints of saved jobs and the item ids of remembered results. Not for security.
 *
 * ## Example
 * ```ts
 * hashText("Great product").toString(36); // "1q3m5k7…", up to 11 characters
 * ```
 * @param text any text
 * @return an integer from 0 to 2^53 - 1
 */
export function hashText(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

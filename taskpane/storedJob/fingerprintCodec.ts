const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** Characters per packed fingerprint: 9 × 6 bits hold the 53-bit `rowFingerprint`. */
const PACKED_CHARS = 9;

/**
 * The fingerprints (base-36 numbers below 2^53, as `rowFingerprint` makes them) as one string of
 * 9 base64url characters each: 9 bytes a row instead of ~14 in a JSON array, which matters at
 * 100,000 rows. Undefined when one is not such a number (kept as an array then).
 */
export function packFingerprints(fingerprints: readonly string[]): string | undefined {
  let packed = "";
  for (const fingerprint of fingerprints) {
    let n = parseInt(fingerprint, 36);
    if (!Number.isSafeInteger(n) || n < 0 || n.toString(36) !== fingerprint) return undefined;
    for (let i = 0; i < PACKED_CHARS; i++) {
      packed += DIGITS[n % 64];
      n = Math.floor(n / 64);
    }
  }
  return packed;
}

/**
 * The fingerprints of `packFingerprints` again.
 *
 * ## Example
 * ```ts
 * unpackFingerprints(packFingerprints(["a", "b"])!); // ["a", "b"]
 * ```
 *
 * @param packed 9 characters per fingerprint.
 * @return The fingerprints.
 * @throws Error when the text is damaged.
 */
export function unpackFingerprints(packed: string): string[] {
  if (packed.length % PACKED_CHARS !== 0) throw new Error("Damaged fingerprints");
  const fingerprints: string[] = [];
  for (let at = 0; at < packed.length; at += PACKED_CHARS) {
    let n = 0;
    for (let i = PACKED_CHARS - 1; i >= 0; i--) {
      const digit = DIGITS.indexOf(packed[at + i]);
      if (digit < 0) throw new Error("Damaged fingerprints");
      n = n * 64 + digit;
    }
    fingerprints.push(n.toString(36));
  }
  return fingerprints;
}

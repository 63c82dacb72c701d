/**
 * Writes a list of whole numbers compactly as ranges ("1-500,502,610-612"): the rows of a
 * bulk are mostly consecutive, and document settings should stay small.
 *
 * ## Example
 * ```ts
 * encodeIndexes([1, 2, 3, 7]); // "1-3,7"
 * ```
 */
export function encodeIndexes(indexes: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < indexes.length) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j] + 1) j++;
    parts.push(j === i ? `${indexes[i]}` : `${indexes[i]}-${indexes[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

/**
 * Reads what `encodeIndexes` wrote.
 *
 * ## Example
 * ```ts
 * decodeIndexes("1-3,7"); // [1, 2, 3, 7]
 * ```
 */
export function decodeIndexes(text: string): number[] {
  const indexes: number[] = [];
  for (const part of text.split(",")) {
    if (part === "") continue;
    const [from, to] = part.split("-").map(Number);
    if (!Number.isInteger(from) || (to !== undefined && !Number.isInteger(to))) {
      throw new Error(`Not an index list: ${text.slice(0, 40)}`);
    }
    for (let n = from; n <= (to ?? from); n++) indexes.push(n);
  }
  return indexes;
}

const BITMAP_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Writes a set of indexes below `length` as a bitmap, 6 indexes per base64url character: a
 * bulk's "already written" runs finish in scattered order, which `encodeIndexes` writes at
 * ~7 characters an index (7 MB for a million rows), the bitmap at 1/6 of a character (175 KB).
 *
 * ## Example
 * ```ts
 * encodeIndexBitmap([0, 2, 7], 8); // "FC"
 * ```
 */
export function encodeIndexBitmap(indexes: readonly number[], length: number): string {
  const bits = new Uint8Array(Math.ceil(length / 6));
  for (const index of indexes) bits[Math.floor(index / 6)] |= 1 << (index % 6);
  let text = "";
  for (const value of bits) text += BITMAP_DIGITS[value];
  return text;
}

/**
 * Reads what `encodeIndexBitmap` wrote, in increasing order.
 *
 * ## Example
 * ```ts
 * decodeIndexBitmap("FC"); // [0, 2, 7]
 * ```
 */
export function decodeIndexBitmap(text: string): number[] {
  const indexes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const value = BITMAP_DIGITS.indexOf(text[i]);
    if (value < 0) throw new Error("Damaged index bitmap");
    for (let bit = 0; bit < 6; bit++) if (value & (1 << bit)) indexes.push(i * 6 + bit);
  }
  return indexes;
}

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

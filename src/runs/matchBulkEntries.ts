import { canonicalJson } from "../util/canonicalJson.js";

/**
 * One getBulkRuns entry with what may identify its input. The service document shows only
 * `state` and `outputs` and leaves the order of the entries "not shown"; a service that echoes
 * the inputs (`inputs`) or numbers the entries (`index`) says which input each entry belongs to.
 *
 * ## Example
 * ```ts
 * const entry: IdentifiedEntry = { state: "success", outputs: { n: 1 }, index: 3 };
 * ```
 * @internal
 */
export interface IdentifiedEntry {
  state: string;
  outputs: Record<string, unknown>;
  /** The position of its input in the bulkStart, when the service sent one. */
  index?: number;
  /** Its inputs as the service echoed them, when it did. */
  inputs?: Record<string, unknown>;
}

/**
 * Matches the entries of a getBulkRuns answer to the inputs of the bulkStart: the one place
 * where `bulk`, batched `run` and `resumeBulk` decide which entry is which row.
 *
 * 1. By index: when every entry carries an `index` that is a whole number below `size`, no two
 *    the same, entry `index` is row `index`.
 * 2. By echo: when the inputs are known (not after `resumeBulk`) and every entry echoes
 *    `inputs` equal (key order aside) to an input of the bulk, each entry goes to the first row
 *    with those inputs not matched yet (rows with identical inputs are interchangeable).
 * 3. Otherwise by position: entry `i` is row `i`. Nothing in the service document promises this
 *    order; it is what the emulator and the services seen so far do. An answer where only some
 *    entries carry an identifier, or one that does not fit, is also matched by position.
 *
 * A run id in an entry cannot be used: bulkStart returns only the group id, so there is no run
 * id per input to match it with.
 *
 * ```
 * inputs:  [a, b, c]      entries: [{c'}, {a'}, {b'}]  (echoes)  →  [a', b', c']
 * inputs:  [a, b, c]      entries: [x, y]              (none)    →  [x, y, undefined]
 * ```
 *
 * ## Example
 * ```ts
 * matchBulkEntries([{ state: "success", outputs: {}, index: 1 }], 2, undefined); // [undefined, entry]
 * ```
 * @param entries the entries in the order the service sent them (at most `size`)
 * @param size the number of inputs of the bulk
 * @param inputs the inputs of the bulk, when known
 * @return `size` slots, slot `i` the entry of input `i` or `undefined` when not visible yet
 * @internal
 */
export function matchBulkEntries<T extends IdentifiedEntry>(
  entries: readonly T[],
  size: number,
  inputs: readonly Record<string, unknown>[] | undefined
): Array<T | undefined> {
  return (
    byIndex(entries, size) ??
    (inputs ? byEcho(entries, size, inputs) : undefined) ??
    byPosition(entries, size)
  );
}

function byIndex<T extends IdentifiedEntry>(
  entries: readonly T[],
  size: number
): Array<T | undefined> | undefined {
  if (entries.length === 0) return undefined;
  const slots = new Array<T | undefined>(size).fill(undefined);
  for (const entry of entries) {
    const index = entry.index;
    if (index === undefined || !Number.isInteger(index) || index < 0 || index >= size) {
      return undefined;
    }
    if (slots[index] !== undefined) return undefined;
    slots[index] = entry;
  }
  return slots;
}

function byEcho<T extends IdentifiedEntry>(
  entries: readonly T[],
  size: number,
  inputs: readonly Record<string, unknown>[]
): Array<T | undefined> | undefined {
  if (entries.length === 0 || entries.some((entry) => entry.inputs === undefined)) {
    return undefined;
  }
  const rowsByKey = new Map<string, number[]>();
  inputs.forEach((row, index) => {
    const key = canonicalJson(row);
    const rows = rowsByKey.get(key);
    if (rows) rows.push(index);
    else rowsByKey.set(key, [index]);
  });
  const slots = new Array<T | undefined>(size).fill(undefined);
  for (const entry of entries) {
    const row = rowsByKey.get(canonicalJson(entry.inputs))?.shift();
    if (row === undefined) return undefined;
    slots[row] = entry;
  }
  return slots;
}

function byPosition<T>(entries: readonly T[], size: number): Array<T | undefined> {
  return Array.from({ length: size }, (_, index) => entries[index]);
}

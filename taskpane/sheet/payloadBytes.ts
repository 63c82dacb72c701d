/**
 * What one read or write batch aims for: well under Office's limit of 5 MB per `context.sync`
 * (see "Resource limits and performance optimization for Office Add-ins"), because the envelope around the
 * values (addresses, property names, escaping) is not counted by `payloadBytes`.
 */
export const PAYLOAD_BUDGET_BYTES = 2 * 1024 * 1024;

/**
 * An estimate of the JSON bytes a cell value (or a 2-D array of them) takes in an Office payload:
 * UTF-8 length plus quotes, escapes and separators.
 *
 * ## Example
 * ```ts
 * payloadBytes([["héllo", 12]]); // 14
 * ```
 */
export function payloadBytes(value: unknown): number {
  if (value === null || value === undefined) return 4;
  if (typeof value === "string") return stringBytes(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value).length;
  if (Array.isArray(value)) {
    let total = 2;
    for (const item of value) total += payloadBytes(item) + 1;
    return total;
  }
  return stringBytes(JSON.stringify(value) ?? "");
}

function stringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) bytes += 6;
    else if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else bytes += 3; // surrogate pairs count 3 + 3 here, 4 in UTF-8: an over-estimate is safe
  }
  return bytes;
}

/**
 * Splits `count` consecutive items into runs whose summed `bytesOf` stays under `budget`
 * (an item larger than the budget gets a run of its own).
 *
 * ## Example
 * ```ts
 * chunkByBytes(5, () => 40, 100); // [[0, 2], [2, 4], [4, 5]]
 * ```
 * @return Half-open `[start, end)` index pairs covering `0..count`.
 */
export function chunkByBytes(
  count: number,
  bytesOf: (index: number) => number,
  budget = PAYLOAD_BUDGET_BYTES
): Array<[number, number]> {
  const chunks: Array<[number, number]> = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const size = bytesOf(i);
    if (i > start && bytes + size > budget) {
      chunks.push([start, i]);
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  if (count > start) chunks.push([start, count]);
  return chunks;
}

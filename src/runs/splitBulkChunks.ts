import { SpellRequestTooLargeError } from "../errors/SpellRequestTooLargeError.js";
import type { BulkChunk } from "./bulkSnapshots.js";

/**
 * Cuts a bulk's inputs into bulkStart chunks of at most `maxRows` rows whose JSON body
 * (`{"spellId":…,"inputs":[…]}`) stays within `maxBodyBytes`: a service answers a larger body
 * with 413 (often while the client is still sending, which the client then sees as a dropped
 * connection), so a chunk that would exceed it is split before anything is sent. Rows keep their
 * order; each chunk is as full as the limits allow.
 *
 * ```
 * rows (KB):  4  4  4  4  4      maxRows 500, maxBodyBytes 10 KB
 * chunks:    [4  4][4  4][4]
 * ```
 *
 * ## Example
 * ```ts
 * splitBulkChunks("echo", rows, 500, 1_048_576); // [{ size: 500, inputs }, { size: 100, inputs }]
 * ```
 * @param spellId the spell (part of the body)
 * @param rows the inputs, in order
 * @param maxRows the most rows of one chunk (`bulkChunkSize`)
 * @param maxBodyBytes the largest body
 * @return the chunks
 * @throws SpellRequestTooLargeError when one row alone exceeds `maxBodyBytes`
 * @internal
 */
export function splitBulkChunks(
  spellId: string,
  rows: readonly Record<string, unknown>[],
  maxRows: number,
  maxBodyBytes: number
): BulkChunk[] {
  // `{"spellId":"…","inputs":[` + `]}`: the body around the rows.
  const frame = utf8Length(JSON.stringify({ spellId, inputs: [] }));
  const chunks: BulkChunk[] = [];
  let inputs: Record<string, unknown>[] = [];
  let bytes = frame;
  rows.forEach((row, index) => {
    const size = utf8Length(JSON.stringify(row) ?? "null");
    if (frame + size > maxBodyBytes) {
      throw new SpellRequestTooLargeError(index, frame + size, maxBodyBytes);
    }
    // A comma before every row but the first.
    const added = inputs.length === 0 ? size : size + 1;
    if (inputs.length === maxRows || bytes + added > maxBodyBytes) {
      chunks.push({ size: inputs.length, inputs });
      inputs = [];
      bytes = frame;
      bytes += size;
    } else {
      bytes += added;
    }
    inputs.push(row);
  });
  if (inputs.length > 0) chunks.push({ size: inputs.length, inputs });
  return chunks;
}

/** The UTF-8 length of a string, without encoding it (the core runs in browsers: no Buffer). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A surrogate pair is one code point of four bytes; a lone surrogate is sent as U+FFFD.
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

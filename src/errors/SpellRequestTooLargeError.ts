import { SpellError } from "./SpellError.js";

/**
 * One row's bulkStart body would be larger than `SpellClientOptions.maxBulkBodyBytes` even alone,
 * so it cannot be sent: nothing was sent for its chunk. (Chunks of several rows are split before
 * sending instead; see `bulk`.) Not retried: the same row would be refused again.
 *
 * ## Example
 * ```ts
 * if (error instanceof SpellRequestTooLargeError) console.warn(`row ${error.row}: ${error.bytes} bytes`);
 * ```
 */
export class SpellRequestTooLargeError extends SpellError {
  override name = "SpellRequestTooLargeError" as const;

  constructor(
    /** The row's place in the list given to `bulk` (0-based). */
    readonly row: number,
    /** The size of the bulkStart body with that row alone. */
    readonly bytes: number,
    readonly limitBytes: number
  ) {
    super(
      `POST /spells/bulkStart: input ${row + 1} alone makes a body of ${bytes} bytes, too large ` +
        `for the limit of ${limitBytes} bytes (maxBulkBodyBytes); nothing was sent for its bulk run`
    );
  }
}

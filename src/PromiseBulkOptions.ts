import type { BulkOptions, BulkSnapshot, SpellOutputs } from "./types.js";

/**
 * Options of `bulkOutputs`: the bulk options (an `AbortSignal`, a time limit, retry timing among
 * them) plus a callback told of each snapshot (counts, rows so far) before the promise settles.
 *
 * ## Example
 * ```ts
 * await client.bulkOutputs("echo", rows, {
 *   onProgress: (snapshot) => console.log(`${snapshot.counts.success}/${snapshot.total}`),
 * });
 * ```
 */
export interface PromiseBulkOptions<Out extends object = SpellOutputs> extends BulkOptions {
  /** Told of every snapshot of the bulk. @default none */
  onProgress?: ((snapshot: BulkSnapshot<Out>) => void) | undefined;
}

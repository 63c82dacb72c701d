import { SpellError } from "../errors/SpellError.js";
import type { BatchSettings } from "./RunBatcher.js";
import type { SpellClientOptions } from "../types.js";

/** Default of `SpellClientOptions.maxRunsInProgress`, documented there. */
export const DEFAULT_MAX_RUNS_IN_PROGRESS = 64;
/** Default of `SpellClientOptions.bulkChunkSize`, documented there. */
export const DEFAULT_BULK_CHUNK_SIZE = 500;
/** 1 MiB: the default body limit of common servers and proxies (fastify, nginx). */
export const DEFAULT_MAX_BULK_BODY_BYTES = 1_048_576;
/** Default of `ReuseOptions.ttlMs`: a day. */
export const DEFAULT_REUSE_TTL_MS = 24 * 60 * 60 * 1000;
/** Default of `BatchOptions.windowMs`, documented there. */
export const DEFAULT_BATCH_WINDOW_MS = 50;

/**
 * The client's bulk chunk limits with their defaults, checked (each at least 1).
 *
 * ## Example
 * ```ts
 * const { bulkChunkSize, maxBulkBodyBytes } = bulkChunkLimits(options);
 * ```
 * @param options the client's options
 * @return the most rows and bytes of one bulkStart
 * @throws SpellError when a limit is below 1
 */
export function bulkChunkLimits(
  options: Pick<SpellClientOptions, "bulkChunkSize" | "maxBulkBodyBytes">
): { bulkChunkSize: number; maxBulkBodyBytes: number } {
  const bulkChunkSize = options.bulkChunkSize ?? DEFAULT_BULK_CHUNK_SIZE;
  const maxBulkBodyBytes = options.maxBulkBodyBytes ?? DEFAULT_MAX_BULK_BODY_BYTES;
  if (!(maxBulkBodyBytes >= 1)) {
    throw new SpellError(
      `SpellClient: maxBulkBodyBytes must be at least 1, got ${String(maxBulkBodyBytes)}`
    );
  }
  if (!(bulkChunkSize >= 1)) {
    throw new SpellError(
      `SpellClient: bulkChunkSize must be at least 1, got ${String(bulkChunkSize)}`
    );
  }
  return { bulkChunkSize, maxBulkBodyBytes };
}

/**
 * How polling-mode runs are batched, from `SpellClientOptions.batch` with its defaults (a batch
 * at most one bulk chunk), checked when the client is built; `undefined` when batching is off.
 *
 * ## Example
 * ```ts
 * batchSettingsOf(true, 500); // { windowMs: 50, maxSize: 500 }
 * ```
 * @param batch the client's `batch` option
 * @param bulkChunkSize the client's bulk chunk size
 * @return the batch settings, or `undefined`
 * @throws SpellError when the window is below 0 or the size below 1
 */
export function batchSettingsOf(
  batch: SpellClientOptions["batch"],
  bulkChunkSize: number
): BatchSettings | undefined {
  if (!batch) return undefined;
  const options = batch === true ? {} : batch;
  const settings: BatchSettings = {
    windowMs: options.windowMs ?? DEFAULT_BATCH_WINDOW_MS,
    maxSize: Math.min(options.maxSize ?? bulkChunkSize, bulkChunkSize),
  };
  // Checked here, not when the batcher is loaded on the first batched run.
  if (!(settings.windowMs >= 0))
    throw new SpellError("SpellClient: batch.windowMs must be at least 0");
  if (!(settings.maxSize >= 1))
    throw new SpellError("SpellClient: batch.maxSize must be at least 1");
  return settings;
}

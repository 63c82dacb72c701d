/**
 * The `@default`s of `BulkJobOptions` the engine applies itself (milliseconds).
 *
 * ## Example
 * ```ts
 * const leaseMs = options.leaseMs ?? JOB_DEFAULTS.leaseMs; // 30000
 * ```
 * @internal
 */
export const JOB_DEFAULTS = {
  /** Least time between two written marks (`BulkJobOptions.writtenMarkEveryMs`). */
  writtenMarkEveryMs: 500,
  /** How long a cancel reads the cancelled groups (`BulkJobOptions.cancelReadTimeoutMs`). */
  cancelReadTimeoutMs: 10_000,
  /** How long a lease lasts unless renewed (`BulkJobOptions.leaseMs`). */
  leaseMs: 30_000,
} as const;

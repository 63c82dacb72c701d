import { SpellError } from "../errors/SpellError.js";

/**
 * Another worker holds the job's lease (see `CheckpointStore.acquireLease`): this worker must not
 * run the job, or both would send its unsent windows. Thrown by `BulkJobRunner.run` before anything
 * is read, sent or recorded; also the reason a running job stops when its lease was taken over
 * (it expired while the worker stalled).
 *
 * ## Example
 * ```ts
 * try { await job.run(); } catch (error) { if (error instanceof LeaseHeldError) return; throw error; }
 * ```
 */
export class LeaseHeldError extends SpellError {
  override name = "LeaseHeldError";

  /**
   * @param owner the worker holding the lease, when the store knows it
   * @param expiresAt when its lease expires (ms since the epoch), when the store knows it
   */
  constructor(
    readonly owner?: string,
    readonly expiresAt?: number
  ) {
    super(
      `Another worker${owner ? ` (${owner})` : ""} is running this job` +
        (expiresAt === undefined ? "" : ` until at least ${new Date(expiresAt).toISOString()}`) +
        ": not run twice"
    );
  }
}

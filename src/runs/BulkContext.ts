import type { SchedulerLike } from "rxjs";
import type { SpellEndpoints } from "../http/SpellApi.js";
import type { PollOptions, RetryOptions } from "../types.js";
import type { ConcurrencyLimiter } from "../util/ConcurrencyLimiter.js";

/**
 * What the bulk machinery needs from the client.
 *
 * ## Example
 * ```ts
 * const context: BulkContext = { api, limiter, poll: {}, retry: {}, scheduler: asyncScheduler, visibilityGraceMs: 30_000, afterUnsubscribeMs: 60_000 };
 * ```
 * @internal
 */
export interface BulkContext {
  api: SpellEndpoints;
  limiter: ConcurrencyLimiter;
  poll: PollOptions;
  retry: RetryOptions;
  scheduler: SchedulerLike;
  /** How long a 404 from getBulkRuns means "not visible yet". */
  visibilityGraceMs: number;
  /**
   * How long the work left after an unsubscribe may go on: waiting for the answer of a bulkStart
   * in flight and its cancelBulk (retries included), together. The client passes its read time
   * limit (`timeouts.readMs`, or `startMs` if shorter), so an unsubscribed bulk never keeps a
   * process alive longer.
   */
  afterUnsubscribeMs: number;
  /** Tells the client's log of each bulkStart retry (the retry is decided here). */
  logBulkStartRetry?: (retry: { retryCount: number; delayMs: number; error: unknown }) => void;
}

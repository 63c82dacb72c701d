import {
  asyncScheduler,
  retry,
  throwError,
  timer,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
} from "rxjs";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import type { Endpoint, RetryOptions } from "../types.js";
import { shouldRetry } from "./shouldRetry.js";

/**
 * Retry defaults; documented on `RetryOptions`.
 *
 * ## Example
 * ```ts
 * new SpellClient({ ...connection, retry: { ...DEFAULT_RETRY, limit: 2 } });
 * ```
 */
export const DEFAULT_RETRY: Required<RetryOptions> = {
  limit: 5,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  jitter: 0.3,
  random: Math.random,
};

/**
 * The delay before retry number `retryCount` (1-based): the server's `Retry-After` when it sent
 * one (clamped to `maxRetryAfterMs`), else `baseDelayMs * 2^(retryCount-1)` capped at
 * `maxDelayMs`, minus up to `jitter` of it so that many clients do not retry in lockstep.
 *
 * ## Example
 * ```ts
 * retryDelayMs(3, undefined, { ...DEFAULT_RETRY, jitter: 0 }); // 1200
 * ```
 */
export function retryDelayMs(
  retryCount: number,
  retryAfterMs: number | undefined,
  options: Required<RetryOptions>
): number {
  if (retryAfterMs !== undefined) {
    return Math.min(Math.max(0, retryAfterMs), options.maxRetryAfterMs);
  }
  const exponential = Math.min(options.baseDelayMs * 2 ** (retryCount - 1), options.maxDelayMs);
  const jitter = Math.min(Math.max(options.jitter, 0), 1);
  return Math.round(exponential * (1 - jitter * options.random()));
}

/**
 * Re-subscribes to a failed request (a cold Observable) while `shouldRetry` allows it, up to
 * `limit` times, waiting `retryDelayMs` before each attempt. Errors that are not retried, and
 * the last error once the limit is reached, pass through unchanged.
 *
 * ```
 * source:  ─#            (429, Retry-After: 2)
 *            ─ ─#        (503, no Retry-After → 300 ms × jitter)
 *                 ──a|
 * result:  ─────────a|
 * ```
 *
 * ## Example
 * ```ts
 * requestJson(fetchFn, request, redact).pipe(retryTransient("getRun", { limit: 3 }));
 * ```
 * @param endpoint decides which failures are retried (see `shouldRetry`)
 * @param options retry timing
 * @param scheduler schedules the waits
 * @param onRetry told of each retry before its wait (the client's log)
 * @return an operator retrying transient failures
 */
export function retryTransient<T>(
  endpoint: Endpoint,
  options: RetryOptions = {},
  scheduler: SchedulerLike = asyncScheduler,
  onRetry?: (retry: { retryCount: number; delayMs: number; error: unknown }) => void
): MonoTypeOperatorFunction<T> {
  const settings: Required<RetryOptions> = { ...DEFAULT_RETRY, ...options };
  return retry({
    count: settings.limit,
    delay: (error: unknown, retryCount: number) => {
      if (!shouldRetry(endpoint, error)) return throwError(() => error);
      const retryAfterMs = error instanceof SpellHttpError ? error.retryAfterMs : undefined;
      const delayMs = retryDelayMs(retryCount, retryAfterMs, settings);
      onRetry?.({ retryCount, delayMs, error });
      return timer(delayMs, scheduler);
    },
  });
}

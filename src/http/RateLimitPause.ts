import {
  concatMap,
  defer,
  tap,
  timer,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
} from "rxjs";
import { SpellHttpError } from "../errors/SpellHttpError.js";

/**
 * The client-wide answer to a rate limit: one 429 pauses every request of the client, not only
 * the one that got it, until its `Retry-After` has passed (or `fallbackMs` without that header,
 * every pause capped at `maxMs`). A request due during the pause waits unsent, holding no
 * request slot; one already in flight is left alone. The refused request itself is retried by
 * `retryTransient` after the same wait.
 *
 * ```
 * request a:  ─#                 (429, Retry-After: 5)
 * request b:  ───b               (due at 3)
 * sent b:     ──────b            (at 6: after the pause)
 * ```
 *
 * ## Example
 * ```ts
 * const pause = new RateLimitPause(asyncScheduler, 60_000, 300);
 * requestJson(fetchFn, request, redact).pipe(pause.gate(), retryTransient("getRun"));
 * ```
 * @internal
 */
export class RateLimitPause {
  /** `scheduler.now()` until which requests wait; 0 when no pause is on. */
  private resumeAt = 0;

  /**
   * @param scheduler the client's scheduler (its clock and its timers)
   * @param maxMs the longest pause (`RetryOptions.maxRetryAfterMs`)
   * @param fallbackMs the pause after a 429 without a usable `Retry-After`
   */
  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly maxMs: number,
    private readonly fallbackMs: number
  ) {}

  /**
   * Delays each subscription to the request until the pause is over, and starts a pause when
   * the request is refused with 429.
   *
   * ## Example
   * ```ts
   * request$.pipe(pause.gate());
   * ```
   * @return an operator for one request
   */
  gate<T>(): MonoTypeOperatorFunction<T> {
    return (request) =>
      defer(() => {
        const waitMs = this.resumeAt - this.scheduler.now();
        return waitMs > 0 ? timer(waitMs, this.scheduler).pipe(concatMap(() => request)) : request;
      }).pipe(tap({ error: (error: unknown) => this.note(error) }));
  }

  private note(error: unknown): void {
    if (!(error instanceof SpellHttpError) || error.status !== 429) return;
    const pauseMs = Math.min(Math.max(0, error.retryAfterMs ?? this.fallbackMs), this.maxMs);
    this.resumeAt = Math.max(this.resumeAt, this.scheduler.now() + pauseMs);
  }
}

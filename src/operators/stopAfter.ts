import {
  asyncScheduler,
  mergeMap,
  takeUntil,
  throwError,
  timer,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
} from "rxjs";

/**
 * A time limit on a whole stream, from subscribing: when `limitMs` passes before the source
 * ends, the source is unsubscribed (so it stops as an unsubscribe stops it) and the stream errors
 * with `error()`. Unlike rxjs `timeout`, the limit does not restart with each value.
 *
 * ```
 * source:  ──a──b──────c|
 * limit:   ───────────|          (limitMs = 11)
 * result:  ──a──b─────#
 * ```
 *
 * ## Example
 * ```ts
 * run$.pipe(stopAfter(60_000, () => new SpellCallTimeoutError('run of "slow"', 60_000)));
 * ```
 * @param limitMs the limit; undefined passes the source unchanged
 * @param error builds the error of a stream that passed it
 * @param scheduler schedules the limit
 * @return an operator bounding the stream's duration
 */
export function stopAfter<T>(
  limitMs: number | undefined,
  error: () => unknown,
  scheduler: SchedulerLike = asyncScheduler
): MonoTypeOperatorFunction<T> {
  if (limitMs === undefined) return (source) => source;
  return takeUntil(timer(limitMs, scheduler).pipe(mergeMap(() => throwError(error))));
}

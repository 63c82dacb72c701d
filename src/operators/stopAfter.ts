// A file the client loads before its first call: rxjs from its own files, not from "rxjs" (see
// "The client's first load" in docs/development.md).
import { asyncScheduler } from "rxjs/internal/scheduler/async";
import { mergeMap } from "rxjs/internal/operators/mergeMap";
import { takeUntil } from "rxjs/internal/operators/takeUntil";
import { throwError } from "rxjs/internal/observable/throwError";
import { timer } from "rxjs/internal/observable/timer";
import type { MonoTypeOperatorFunction, SchedulerLike } from "rxjs";

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

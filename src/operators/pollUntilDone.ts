import {
  asyncScheduler,
  concatMap,
  EMPTY,
  expand,
  map,
  take,
  takeWhile,
  timer,
  type MonoTypeOperatorFunction,
  type Observable,
  type SchedulerLike,
} from "rxjs";
import type { PollOptions } from "../types.js";

/**
 * Poll defaults; documented on `PollOptions`.
 *
 * Chosen against `bench/core.ts`: the observed end of 1 s and 60 s runs lags by at most 10 %
 * (300 ms floor) with 15 polls for a 60 s run. No fixed schedule keeps that lag for every run
 * length with so few polls (that needs intervals ≤ 10 % of the elapsed time, about 40 polls per
 * minute), so runs of 3–15 s may be observed up to about 40 % late. Tune `PollOptions` for
 * tighter tracking.
 *
 * ## Example
 * ```ts
 * const tight = { ...DEFAULT_POLL, growth: 1.2, maxIntervalMs: 2000 };
 * ```
 */
export const DEFAULT_POLL: Required<PollOptions> = {
  initialDelayMs: 250,
  intervalMs: 250,
  growth: 2,
  maxIntervalMs: 6000,
  bulkVisibilityGraceMs: 30_000,
};

/**
 * The wait before poll number `pollIndex + 2` (the interval after answer `pollIndex`, 0-based):
 * `intervalMs * growth^pollIndex`, capped at `maxIntervalMs`.
 *
 * ## Example
 * ```ts
 * pollIntervalMs(2, { ...DEFAULT_POLL, intervalMs: 100, growth: 2 }); // 400
 * ```
 */
export function pollIntervalMs(pollIndex: number, options: Required<PollOptions>): number {
  const grown = options.intervalMs * Math.pow(options.growth, pollIndex);
  return Math.round(Math.min(grown, options.maxIntervalMs));
}

/**
 * Turns a one-shot request (a cold Observable emitting one answer) into a poll: subscribes to it
 * after `initialDelayMs`, then again after each answer with a growing interval, until `isDone`
 * accepts an answer. Emits every answer, the final one included, then completes. The next
 * request is scheduled only after the previous answer, so requests never overlap; an error
 * (already retried by the request itself) ends the poll.
 *
 * ```
 * request:  ──a|           (each subscription answers after 2 frames)
 * isDone:   c is done
 * result:   ·····a···········b·······················c|
 *           └250┘ └250 wait┘   └──────500 wait─────┘
 * ```
 *
 * ## Example
 * ```ts
 * api.getRun(runId).pipe(pollUntilDone((answer) => answer.state !== "inProgress")).subscribe(console.log);
 * ```
 * @param isDone true for the answer after which polling stops
 * @param options poll timing
 * @param scheduler schedules the waits
 * @return an operator that polls its source
 */
export function pollUntilDone<T>(
  isDone: (answer: T) => boolean,
  options: PollOptions = {},
  scheduler: SchedulerLike = asyncScheduler
): MonoTypeOperatorFunction<T> {
  const settings: Required<PollOptions> = { ...DEFAULT_POLL, ...options };
  return (request$) => {
    // One poll: wait, ask once, and judge the answer once (isDone may be stateful).
    const pollAfter = (delayMs: number): Observable<{ answer: T; done: boolean }> =>
      timer(delayMs, scheduler).pipe(
        concatMap(() => request$.pipe(take(1))),
        map((answer) => ({ answer, done: isDone(answer) }))
      );
    return pollAfter(settings.initialDelayMs).pipe(
      // The next poll is scheduled from the previous answer, so requests never overlap.
      expand((poll, pollIndex) =>
        poll.done ? EMPTY : pollAfter(pollIntervalMs(pollIndex, settings))
      ),
      takeWhile((poll) => !poll.done, true),
      map((poll) => poll.answer)
    );
  };
}

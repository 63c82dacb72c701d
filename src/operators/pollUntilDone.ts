import {
  asyncScheduler,
  Observable,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
  type Subscription,
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
  // Hand-written rather than timer + concatMap + expand: thousands of runs may be waiting at
  // once, so a waiting poll holds one timer and nothing else. The operator chain cost about
  // 0.4 ms more CPU per run in bench/core.ts (client CPU per run vs a hand-written client).
  return (request$) =>
    new Observable<T>((subscriber) => {
      let pollIndex = 0;
      let request: Subscription | undefined;
      let wait: Subscription | undefined;
      const ask = (): void => {
        let answered = false;
        request = request$.subscribe({
          next: (answer) => {
            if (answered) return; // one poll is one answer
            answered = true;
            request?.unsubscribe();
            subscriber.next(answer);
            // The subscriber may have left (or failed) while handling the answer.
            if (subscriber.closed) return;
            if (isDone(answer)) subscriber.complete();
            else wait = scheduler.schedule(ask, pollIntervalMs(pollIndex++, settings));
          },
          error: (error: unknown) => subscriber.error(error),
        });
        // An answer that came synchronously could not end its own subscription yet.
        if (answered) request.unsubscribe();
      };
      wait = scheduler.schedule(ask, settings.initialDelayMs);
      return () => {
        wait?.unsubscribe();
        request?.unsubscribe();
      };
    });
}

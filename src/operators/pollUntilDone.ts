import {
  asyncScheduler,
  concatMap,
  defer,
  EMPTY,
  expand,
  map,
  take,
  takeWhile,
  throwError,
  timer,
  type MonoTypeOperatorFunction,
  type Observable,
  type SchedulerLike,
} from "rxjs";
import { SpellError } from "../errors/SpellError.js";
import type { PollOptions } from "../types.js";
import { backoffSchedule, type PollSchedule } from "./backoffSchedule.js";

export { pollIntervalMs } from "./backoffSchedule.js";

/**
 * Poll defaults; documented on `PollOptions`.
 *
 * The fixed schedule is for spells the client has not seen finish yet; once it has, polls follow
 * the spell's learned duration (see `expectedEndSchedule`). `maxPollMs` bounds a run that never
 * finishes (or a state the client does not know that never changes): an hour is far beyond the
 * service's own guidance for long spells, and the error lets `resumeRun` continue.
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
  runVisibilityGraceMs: 30_000,
  maxPollMs: 3_600_000,
  bulkSchedule: "pace",
};

/**
 * Per-poll hooks of `pollUntilDone` beyond the plain timing.
 *
 * ## Example
 * ```ts
 * const control: PollControl<RunAnswer> = { schedule: () => 1000, limitError: () => new Error("gave up") };
 * ```
 */
export interface PollControl<T> {
  /** When to poll next. @default `backoffSchedule(options)` */
  schedule?: PollSchedule;
  /** The error after `maxPollMs` without a done answer. @default a `SpellError` */
  limitError?: (lastAnswer: T, elapsedMs: number) => unknown;
}

/**
 * Turns a one-shot request (a cold Observable emitting one answer) into a poll: subscribes to it
 * after the schedule's first delay, then again after each answer with the schedule's next delay
 * (by default `initialDelayMs`, then intervals growing by `growth`), until `isDone` accepts an
 * answer. Emits every answer, the final one included, then completes. The next request is
 * scheduled only after the previous answer, so requests never overlap; an error (already
 * retried by the request itself) ends the poll. No poll is scheduled past `maxPollMs`: the last
 * one is sent at that limit, and if it is not done either the poll fails with `limitError`.
 *
 * ```
 * request:  ──a|           (each subscription answers after 2 frames)
 * isDone:   c is done
 * result:   ·····a···········b·······················c|
 *           └250┘ └250 wait┘   └──────500 wait─────┘
 *
 * maxPollMs 9, nothing done:
 * result:   ···a·····a···a#     (the last poll is moved to the limit; then the limit error)
 * ```
 *
 * ## Example
 * ```ts
 * api.getRun(runId).pipe(pollUntilDone((answer) => answer.state !== "inProgress")).subscribe(console.log);
 * ```
 * @param isDone true for the answer after which polling stops
 * @param options poll timing and `maxPollMs`
 * @param scheduler schedules the waits
 * @param control another schedule, and the error at the limit
 * @return an operator that polls its source
 */
export function pollUntilDone<T>(
  isDone: (answer: T) => boolean,
  options: PollOptions = {},
  scheduler: SchedulerLike = asyncScheduler,
  control: PollControl<T> = {}
): MonoTypeOperatorFunction<T> {
  const settings: Required<PollOptions> = { ...DEFAULT_POLL, ...options };
  const schedule = control.schedule ?? backoffSchedule(settings);
  const limitError =
    control.limitError ??
    ((_answer: T, elapsedMs: number) =>
      new SpellError(`Polling gave up after ${Math.round(elapsedMs)} ms without a final answer`));
  return (request$) =>
    defer(() => {
      const startedAt = scheduler.now();
      const deadline = startedAt + settings.maxPollMs;
      // One poll: wait, ask once, and judge the answer once (isDone may be stateful).
      const pollAfter = (answers: number): Observable<{ answer: T; done: boolean }> => {
        const now = scheduler.now();
        const wanted = schedule({ answers, elapsedMs: now - startedAt });
        return timer(Math.round(Math.max(0, Math.min(wanted, deadline - now))), scheduler).pipe(
          concatMap(() => request$.pipe(take(1))),
          map((answer) => ({ answer, done: isDone(answer) }))
        );
      };
      return pollAfter(0).pipe(
        // The next poll is scheduled from the previous answer, so requests never overlap.
        expand((poll, index) => {
          if (poll.done) return EMPTY;
          const elapsedMs = scheduler.now() - startedAt;
          return elapsedMs >= settings.maxPollMs
            ? throwError(() => limitError(poll.answer, elapsedMs))
            : pollAfter(index + 1);
        }),
        takeWhile((poll) => !poll.done, true),
        map((poll) => poll.answer)
      );
    });
}

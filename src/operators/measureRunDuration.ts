import { defer, tap, type MonoTypeOperatorFunction, type SchedulerLike } from "rxjs";
import type { RunSnapshot } from "../types.js";

/**
 * Measures how long a polled run took, for learning its spell's duration: from subscription
 * (when the start was answered) to the middle between the last unfinished answer and the
 * success answer, since the run ended somewhere between the two; to the success answer when it
 * was the first answer (the run was shorter than that, by how much is unknown). Passes every
 * snapshot on unchanged; a run that does not succeed is not measured (a failure may end early).
 *
 * ```
 * source:    ···i······i···s|      (every answer of one run)
 * measured:                ^ (lastInProgress + success) / 2 − subscription
 * result:    ···i······i···s|
 * ```
 *
 * ## Example
 * ```ts
 * pollRun(api, runId, poll, scheduler).pipe(
 *   measureRunDuration(scheduler, (ms) => durations.record(spellId, ms))
 * );
 * ```
 * @param scheduler the clock
 * @param onMeasured called once, with the duration in ms, when the run succeeds
 * @return an operator on the answers of one run
 */
export function measureRunDuration(
  scheduler: SchedulerLike,
  onMeasured: (durationMs: number) => void
): MonoTypeOperatorFunction<RunSnapshot> {
  return (source) =>
    defer(() => {
      const startedAt = scheduler.now();
      let lastUnfinishedAt: number | undefined;
      return source.pipe(
        tap((snapshot) => {
          const now = scheduler.now();
          if (snapshot.state === "inProgress") lastUnfinishedAt = now;
          else if (snapshot.state === "success") {
            // Done at the first answer: only an upper bound is known, and half of it would be a
            // guess that, for a run shorter than the expected window, lands far too low.
            onMeasured(
              (lastUnfinishedAt === undefined ? now : (lastUnfinishedAt + now) / 2) - startedAt
            );
          }
        })
      );
    });
}

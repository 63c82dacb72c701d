import { RETRYABLE_STATUSES, type RowStatus } from "spellrun";
import type { ActiveBulk } from "./ActiveBulk.js";

/**
 * What "Retry failed rows" needs to know of a finished bulk.
 *
 * ## Example
 * ```ts
 * retryableRuns({ runs: 3, statuses, stale, cancelled, handled, noRetry: false });
 * ```
 */
export interface RetryInput {
  /** Runs of the job. */
  runs: number;
  /** Per run: how it ended, as written. */
  statuses: ReadonlyMap<number, RowStatus>;
  stale: ReadonlySet<number>;
  cancelled: ReadonlySet<number>;
  /** Runs whose result, stale, lost or cancelled mark is handled. */
  handled: ReadonlySet<number>;
  /** The start may have happened, or was refused: nothing is retried (the user's choice). */
  noRetry: boolean;
}

/**
 * The runs a "Retry failed rows" runs again: the core's retryable statuses (`RETRYABLE_STATUSES`:
 * failure, error, cancelled, expired), rows marked stale, and rows that never finished (the bulk
 * failed or was interrupted). Pure.
 *
 * ## Example
 * ```ts
 * const runs = retryableRuns(input); // [2, 5]
 * ```
 *
 * @param input The finished bulk.
 * @return The runs, in order.
 */
export function retryableRuns(input: RetryInput): number[] {
  const runs: number[] = [];
  if (input.noRetry) return runs;
  for (let run = 0; run < input.runs; run++) {
    const status = input.statuses.get(run);
    if (
      input.stale.has(run) ||
      input.cancelled.has(run) ||
      (status !== undefined && RETRYABLE_STATUSES.includes(status)) ||
      !input.handled.has(run)
    ) {
      runs.push(run);
    }
  }
  return runs;
}

/**
 * The runs a "Retry failed rows" of this bulk runs again (see `retryableRuns`): none when its
 * start may have happened (sending it again is the user's choice: Forget, then Run) or was
 * refused (the same start would be refused again).
 *
 * ## Example
 * ```ts
 * const runs = retryableRunsOf(last);
 * ```
 *
 * @param active The bulk.
 * @return The runs, in order.
 */
export function retryableRunsOf(active: ActiveBulk): number[] {
  return retryableRuns({
    runs: active.job.rows.length,
    statuses: active.statuses,
    stale: active.stale,
    cancelled: active.cancelled,
    handled: active.handled,
    noRetry: active.mayHaveStarted === true || active.startRefused === true,
  });
}

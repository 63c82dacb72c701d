import { RETRYABLE_STATUSES } from "spellrun";
import type { JournalState } from "./replayJournal.js";

/**
 * The runs a `spellrun resume` may start: rows of the input in no window the journal knows
 * (never submitted), plus, with `--rerun-unknown`, the rows of windows whose start was never
 * confirmed. Windows with a group are re-attached, never started again. An upper bound: rows a
 * retry keeps are not sent.
 *
 * ## Example
 * ```ts
 * newRunsOnResume(state, 2000, false); // 1500 when rows 0-499 were submitted
 * ```
 * @param state the replayed journal
 * @param rows the rows of the input
 * @param rerunUnknown whether `--rerun-unknown` was given
 * @return the most runs the resume can start
 */
export function newRunsOnResume(state: JournalState, rows: number, rerunUnknown: boolean): number {
  let covered = 0;
  for (const window of state.windows.values()) {
    const confirmed = window.groupId !== undefined || window.token !== undefined;
    if (confirmed || !rerunUnknown) covered += window.count;
  }
  return Math.max(0, rows - covered);
}

/**
 * The runs a `spellrun retry` may start: the rows written failed, errored, cancelled or expired
 * (and `unknown` with `--rerun-unknown`), plus the rows never reached.
 *
 * ## Example
 * ```ts
 * newRunsOnRetry(state, 2000, false); // 200 when 200 rows failed and all were written
 * ```
 * @param state the replayed journal of the finished job
 * @param rows the rows of the input
 * @param rerunUnknown whether `--rerun-unknown` was given
 * @return the most runs the retry can start
 */
export function newRunsOnRetry(state: JournalState, rows: number, rerunUnknown: boolean): number {
  const statuses = rerunUnknown ? [...RETRYABLE_STATUSES, "unknown" as const] : RETRYABLE_STATUSES;
  const again = statuses.reduce((sum, status) => sum + (state.counts[status] ?? 0), 0);
  return again + Math.max(0, rows - state.writtenRows);
}

/**
 * The rows a job has already sent at least once (the end of the last window it knows): an input
 * given again must have at least these.
 *
 * ## Example
 * ```ts
 * submittedRows(state); // 1000 after two windows of 500
 * ```
 * @param state the replayed journal
 * @return the rows
 */
export function submittedRows(state: JournalState): number {
  let end = state.writtenRows;
  for (const [index, window] of state.windows) {
    end = Math.max(end, index * state.job.chunkSize + window.count);
  }
  return end;
}

import type { RunState } from "../types.js";

/**
 * How one row of a bulk job ended: a finished run state, `cancelled` (stopped by a cancel before
 * it finished), `unknown` (its bulkStart may have reached the service without an answer; not sent
 * again unless the user says so), `expired` (its group is gone at the service with its results)
 * or `skipped` (never sent: a caller's `knownResultOf` said so, e.g. a row whose inputs are all
 * empty; never run again by a retry).
 *
 * ## Example
 * ```ts
 * const status: RowStatus = "expired";
 * ```
 */
export type RowStatus =
  Exclude<RunState, "inProgress"> | "cancelled" | "unknown" | "expired" | "skipped";

/**
 * The statuses that end a row: every `RowStatus`. A row of a job is written once, with one of them.
 *
 * ## Example
 * ```ts
 * ROW_STATUSES.includes("cancelled"); // true
 * ```
 */
export const ROW_STATUSES: readonly RowStatus[] = Object.freeze([
  "success",
  "failure",
  "error",
  "cancelled",
  "unknown",
  "expired",
  "skipped",
] as const);

/**
 * The statuses a job runs again when asked to retry: the run did not give a result and sending
 * the row again cannot pay for it twice. `unknown` is not among them (its start may have happened).
 *
 * ## Example
 * ```ts
 * if (RETRYABLE_STATUSES.includes(row.status)) rowsToRunAgain.push(row);
 * ```
 */
export const RETRYABLE_STATUSES: readonly RowStatus[] = Object.freeze([
  "failure",
  "error",
  "cancelled",
  "expired",
] as const);

/**
 * A row's end: its status and the outputs (for a row that did not succeed, `{ error: reason }`).
 *
 * ## Example
 * ```ts
 * const result: RowResult = { status: "success", outputs: { summary: "A." } };
 * ```
 */
export interface RowResult {
  status: RowStatus;
  outputs: Record<string, unknown>;
}

/**
 * A row handed to a `ResultWriter`: its place in the job (0-based, input order), the row as the
 * caller gave it, and its result.
 *
 * ## Example
 * ```ts
 * const written: FinishedJobRow<{ text: string }> = { index: 0, row: { text: "hi" }, status: "success", outputs: {} };
 * ```
 */
export interface FinishedJobRow<Row> extends RowResult {
  index: number;
  row: Row;
}

/**
 * Rows per status.
 *
 * ## Example
 * ```ts
 * const counts: RowStatusCounts = { success: 98, failure: 2 };
 * ```
 */
export type RowStatusCounts = Partial<Record<RowStatus, number>>;

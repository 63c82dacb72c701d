import type { JobFailure } from "./BulkJobOptions.js";
import { classifyJobFailure } from "./classifyJobFailure.js";
import type { JobWindow } from "./JobWindow.js";

/**
 * The failure of a window's bulk as a job reports it: `refused` when the gate refused before
 * anything was sent (nothing started, a resume may send it), else as `classifyJobFailure` says,
 * with the window's rows and, once named, its group.
 *
 * ## Example
 * ```ts
 * const failure = jobFailureOf(window, error);
 * if (failure.kind === "expired") expireRows(window);
 * ```
 * @param window the window whose bulk failed
 * @param error the bulk's error
 * @return the failure, with its kind
 * @internal
 */
export function jobFailureOf<Row>(window: JobWindow<Row>, error: unknown): JobFailure {
  // The gate refused before anything was sent: nothing started, a resume may send it.
  const kind = window.startRefused
    ? "refused"
    : classifyJobFailure(error, window.groupId !== undefined || window.partlySent === true);
  return {
    kind,
    error,
    window: window.index,
    firstRow: window.firstRow,
    count: window.rows.length,
    ...(window.groupId === undefined ? {} : { groupId: window.groupId }),
  };
}

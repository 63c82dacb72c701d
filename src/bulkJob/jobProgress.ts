import type { BulkJobProgress } from "./BulkJobOptions.js";
import type { JobWindow } from "./JobWindow.js";
import type { WrittenRows } from "./WrittenRows.js";

/**
 * Where a job stands: its rows written, and the open rows of its held windows, as running,
 * starting (no group named yet) or refused (the service refused the window's start).
 *
 * ## Example
 * ```ts
 * jobProgress(queue, new Set([2]), written); // { written: 40, running: 20, starting: 10, refused: 10, counts }
 * ```
 * @param queue the windows the job holds
 * @param refusedWindows the indexes of windows whose start the service refused
 * @param written the rows written so far
 * @return the progress
 * @internal
 */
export function jobProgress<Row>(
  queue: readonly JobWindow<Row>[],
  refusedWindows: ReadonlySet<number>,
  written: WrittenRows
): BulkJobProgress {
  let running = 0;
  let starting = 0;
  let refused = 0;
  for (const window of queue) {
    const open = window.rows.length - window.known;
    if (refusedWindows.has(window.index)) refused += open;
    else {
      running += open;
      // No group named yet: its bulkStart is on its way (or not sent), nothing runs yet.
      if (!window.settled && window.groupId === undefined) starting += open;
    }
  }
  return {
    written: written.rows,
    running,
    starting,
    refused,
    counts: { ...written.counts },
  };
}

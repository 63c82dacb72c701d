import type { JobWindow } from "./JobWindow.js";
import { advance, isFinished, setResult } from "./JobWindow.js";
import type { BulkRunEntry } from "../types.js";
import type { FinishedJobRow, RowResult } from "./RowResult.js";

/**
 * The rows of the held windows ready for the writer, each once: in input order every row whose
 * predecessors are all handed over; with `finishedOrder`, every finished row not handed yet.
 * Windows whose rows are all handed over and whose bulk has settled leave `queue` (in input
 * order only from its front, the others wait for it).
 *
 * ## Example
 * ```ts
 * const { finished, completedWindow } = takeFinishedRows(queue, false);
 * ```
 * @param queue the windows held, in window order (changed: completed windows leave it)
 * @param finishedOrder whether rows go to the writer as they finish
 * @return the rows to write, and whether a window left the queue
 * @internal
 */
export function takeFinishedRows<Row>(
  queue: JobWindow<Row>[],
  finishedOrder: boolean
): { finished: FinishedJobRow<Row>[]; completedWindow: boolean } {
  const finished: FinishedJobRow<Row>[] = [];
  for (const window of queue) {
    if (finishedOrder) {
      // Only the rows that got a result since the last flush: no scan of the whole window.
      for (const place of window.fresh) {
        const result = window.results[place] as RowResult;
        if (place < window.written || window.handed.has(place)) continue;
        finished.push({ index: window.firstRow + place, row: window.rows[place], ...result });
        window.handed.add(place);
      }
    } else {
      for (let place = window.written; place < window.rows.length; place++) {
        const result = window.results[place];
        if (result === undefined) break;
        if (window.handed.has(place)) continue;
        finished.push({ index: window.firstRow + place, row: window.rows[place], ...result });
        window.handed.add(place);
      }
    }
    window.fresh = [];
    advance(window);
    // In input order, a later window waits for this one.
    if (!finishedOrder && window.written < window.rows.length) break;
  }
  let completedWindow = false;
  for (let index = 0; index < queue.length;) {
    const window = queue[index];
    const done = window.settled && window.written === window.rows.length;
    if (done && (finishedOrder || index === 0)) {
      queue.splice(index, 1);
      completedWindow = true;
    } else if (finishedOrder) index++;
    else break;
  }
  return { finished, completedWindow };
}

/**
 * Gives the rows of a window the runs of a snapshot that finished (a row's result is set once).
 * A row of a chunk whose group was never recorded (`window.unnamedFrom`) gets `unknown`: its
 * bulkStart may have left after the last record, and the core answers `error` for it.
 *
 * ## Example
 * ```ts
 * applyRuns(window, snapshot.runs, NOT_RECORDED);
 * ```
 * @param window the window
 * @param runs the snapshot's runs, one per row sent
 * @param unknown the result of a row whose start may have happened unrecorded
 * @internal
 */
export function applyRuns<Row>(
  window: JobWindow<Row>,
  runs: readonly BulkRunEntry[],
  unknown: RowResult
): void {
  const { unnamedFrom, token } = window;
  runs.forEach((run, sentIndex) => {
    const place = window.sentRows[sentIndex];
    if (window.results[place] !== undefined) return;
    const runIndex = token?.rows ? token.rows[sentIndex] : sentIndex;
    if (unnamedFrom !== undefined && runIndex >= unnamedFrom) setResult(window, place, unknown);
    else if (isFinished(run)) setResult(window, place, { status: run.state, outputs: run.outputs });
  });
}

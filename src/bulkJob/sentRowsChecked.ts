import type { KnownWindow } from "./CheckpointStore.js";
import type { JobWindow } from "./JobWindow.js";
import { RowsChangedError } from "./RowsChangedError.js";

/**
 * The number of runs a resumed window's checkpoint says it sent (0 for a window it does not know),
 * checked against the runs the window would send now.
 *
 * ## Example
 * ```ts
 * sentRowsChecked(window, { count: 500, sent: 480 }); // 480, or throws when 480 would not be sent now
 * ```
 * @param window the window read again
 * @param known what the checkpoint knows of it
 * @return the runs the checkpoint says were sent
 * @throws RowsChangedError when the window would now send another number of runs
 * @internal
 */
export function sentRowsChecked<Row>(
  window: JobWindow<Row>,
  known: KnownWindow | undefined
): number {
  const knownSent = known ? (known.sent ?? known.count) : 0;
  if (known && knownSent !== window.sentRows.length) {
    throw new RowsChangedError(
      window.index,
      window.firstRow,
      `window ${window.index} sent ${knownSent} of its rows, now ${window.sentRows.length} would be`
    );
  }
  return knownSent;
}
